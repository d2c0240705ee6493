// `health-data sandbox`: the local implementation of the service, in the foreground until
// Ctrl-C. Prints its address and the credentials to use (documented defaults, not secrets).

import { readFileSync } from 'node:fs';
import { HealthDataError } from '../core/errors';
import { DEFAULT_PORT } from '../sandbox/defaults';
import { ExtraRecords, FaultRule, checkExtraRecords, describeSandbox, parseFaultSpec, startSandbox } from '../sandbox/server';
import { whyNotRead } from './fileTargets';
import type { Output } from './output';
import { readRecordings } from './recording';

export interface SandboxFlags {
  port?: string;
  host?: string;
  days?: string;
  seed?: string;
  humans?: string;
  fault?: string[];
  records?: string;
  replay?: string[];
}

function wholeNumber(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < min || n > max) {
    throw new HealthDataError('usage', `--${flag} must be a whole number from ${min} to ${max}, got "${value}".`);
  }
  return n;
}

/** `--records FILE`: records to serve besides the generated ones, as a usage error when unusable. */
export function readRecordsFile(file: string): ExtraRecords {
  const fail = (why: string): never => {
    throw new HealthDataError('usage', `--records ${file}: ${why}`);
  };
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    fail(`${whyNotRead(err)}.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    fail(`not valid JSON (${err instanceof Error ? err.message : String(err)}).`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    fail('expected a JSON object like {"heartRate": [...], "activity": [...], "bodyFat": [...]}.');
  }
  try {
    return checkExtraRecords(value);
  } catch (err) {
    return fail(`${err instanceof Error ? err.message : String(err)}.`);
  }
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
  const extraRecords = flags.records !== undefined ? readRecordsFile(flags.records) : undefined;
  const replay = flags.replay ? readRecordings(flags.replay) : undefined;
  if (replay) {
    for (const flag of ['days', 'seed', 'humans'] as const) {
      if (flags[flag] !== undefined) throw new HealthDataError('usage', `--${flag} does not apply to --replay: the recordings are the data.`);
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
    extraRecords,
    replay,
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
