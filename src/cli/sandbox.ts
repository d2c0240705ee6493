// `health-data sandbox`: the local implementation of the service, in the foreground until
// Ctrl-C. Prints its address and the credentials to use (documented defaults, not secrets).

import { HealthDataError } from '../core/errors';
import { DEFAULT_PORT } from '../sandbox/defaults';
import { FaultRule, describeSandbox, parseFaultSpec, startSandbox } from '../sandbox/server';
import type { Output } from './output';

export interface SandboxFlags {
  port?: string;
  host?: string;
  days?: string;
  seed?: string;
  humans?: string;
  fault?: string[];
}

function wholeNumber(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
    throw new HealthDataError('usage', `--${flag} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return n;
}

export async function sandboxCommand(o: Output, flags: SandboxFlags, signals: NodeJS.EventEmitter): Promise<number> {
  const faults: FaultRule[] = [];
  for (const spec of flags.fault ?? []) {
    try {
      faults.push(parseFaultSpec(spec));
    } catch (err) {
      throw new HealthDataError('usage', `--fault ${spec}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const port = wholeNumber('port', flags.port, 0, 65535) ?? DEFAULT_PORT;
  const sandbox = await startSandbox({
    host: flags.host ?? '127.0.0.1',
    port,
    days: wholeNumber('days', flags.days, 1, 3650),
    humans: wholeNumber('humans', flags.humans, 1, 10),
    seed: flags.seed,
    faults,
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') throw new HealthDataError('usage', `Port ${port} is in use: pass --port 0 for a free one, or another port.`);
    throw err;
  });
  for (const line of describeSandbox(sandbox)) o.out(line);
  o.out('Press Ctrl-C to stop.');
  await new Promise<void>((resolve) => {
    signals.once('SIGINT', resolve);
    signals.once('SIGTERM', resolve);
  });
  await sandbox.close();
  o.err('sandbox stopped');
  return 0;
}
