// `--record FILE.har` on get and list: every exchange of the run appended to a HAR file, with
// identities pseudonymized (unless --keep-ids) and dates shifted when asked; and reading
// recordings for `sandbox --replay`.

import { existsSync, readFileSync } from 'node:fs';
import { HealthDataError } from '../core/errors';
import { HarLog, MAX_SHIFT_DAYS, Recorder, ReplayData, pseudonymKeyFrom, readHar, replayDataOf, writeHar } from '../core/recording';
import { checkWriteTarget, whyNotRead, whyNotWritten } from './fileTargets';
import type { Output } from './output';
import { paint, printable } from './output';

declare const __VERSION__: string | undefined;

export interface RecordFlags {
  record?: string;
  'keep-ids'?: boolean;
  'shift-dates'?: string;
  'keep-weekdays'?: boolean;
}

export const RECORD_OPTIONS = {
  record: { type: 'string' },
  'keep-ids': { type: 'boolean' },
  'shift-dates': { type: 'string' },
  'keep-weekdays': { type: 'boolean' },
} as const;

export interface CliRecording {
  recorder: Recorder;
  /** Writes the file (appending to what it held); returns the number of exchanges added. */
  save(secrets: readonly (string | undefined)[]): number;
}

/** The recording the flags ask for, or undefined; usage errors for flags that need --record. */
export function recordingFrom(flags: RecordFlags, env: NodeJS.ProcessEnv, o: Output): CliRecording | undefined {
  const file = flags.record;
  if (file === undefined) {
    for (const flag of ['keep-ids', 'shift-dates', 'keep-weekdays'] as const) {
      if (flags[flag] !== undefined) throw new HealthDataError('usage', `--${flag} needs --record FILE.har.`);
    }
    return undefined;
  }
  if (!file.trim()) throw new HealthDataError('usage', '--record is empty.');
  let shiftDays = 0;
  if (flags['shift-dates'] !== undefined) {
    const text = flags['shift-dates'].trim();
    shiftDays = Number(text);
    if (!/^[+-]?\d+$/.test(text) || Math.abs(shiftDays) > MAX_SHIFT_DAYS) {
      throw new HealthDataError('usage', `--shift-dates must be a whole number of days from -${MAX_SHIFT_DAYS} to ${MAX_SHIFT_DAYS}, got "${printable(flags['shift-dates'], 30)}".`);
    }
  } else if (flags['keep-weekdays']) {
    throw new HealthDataError('usage', '--keep-weekdays goes with --shift-dates DAYS.');
  }
  checkWriteTarget('--record', file);
  const previous = readPreviousRecording(file);
  let key: Buffer | undefined;
  const passphrase = env.HEALTH_DATA_PSEUDONYM_KEY;
  if (passphrase !== undefined) {
    try {
      key = pseudonymKeyFrom(passphrase);
    } catch (err) {
      throw new HealthDataError('usage', `HEALTH_DATA_PSEUDONYM_KEY: ${(err as Error).message}.`);
    }
  }
  if (flags['keep-ids']) {
    o.err(paint(o, 'yellow', `warning: --keep-ids: ${printable(file, 80)} will hold the real humanIds, userIds and record ids. Do not commit or share it.`));
  } else if (previous && !key) {
    o.err(paint(o, 'yellow', `note: ${printable(file, 80)} was recorded by another run: its pseudonyms differ from this run's unless both set HEALTH_DATA_PSEUDONYM_KEY.`));
  }
  const recorder = new Recorder({ keepIds: flags['keep-ids'], shiftDays, keepWeekdays: flags['keep-weekdays'], key });
  if (flags['keep-weekdays'] && recorder.shiftDays !== shiftDays) {
    o.err(`note: --keep-weekdays: dates move by ${recorder.shiftDays} days (whole weeks) instead of ${shiftDays}.`);
  }
  return {
    recorder,
    save(secrets) {
      const har = recorder.toHar({ name: 'health-data', version: typeof __VERSION__ === 'string' ? __VERSION__ : 'dev' }, previous, secrets);
      try {
        writeHar(file, har);
      } catch (err) {
        throw new Error(`Could not write the recording ${printable(file, 80)}: ${whyNotWritten(err)}.`);
      }
      return recorder.count;
    },
  };
}

function readPreviousRecording(file: string): HarLog | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return readHar(readFileSync(file, 'utf8'), file);
  } catch (err) {
    throw new HealthDataError('usage', `--record ${printable(file, 80)}: the file exists and cannot be appended to: ${(err as Error).message}.`);
  }
}

/** `sandbox --replay a.har b.har`: the recordings read and merged, or a usage error naming the file. */
export function readRecordings(files: readonly string[]): ReplayData {
  const recordings = files.map((file) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new HealthDataError('usage', `--replay ${printable(file, 80)}: ${whyNotRead(err)}.`);
    }
    try {
      return { name: file, har: readHar(text, file) };
    } catch (err) {
      throw new HealthDataError('usage', `--replay: ${(err as Error).message}.`);
    }
  });
  return replayDataOf(recordings);
}
