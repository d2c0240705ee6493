// Files the CLI writes (`list --out`, `--record`, `validate --out`, `schemas --out`, `types
// --out`): one check of the place before any work starts, and one wording of why a file could not
// be written, instead of Node's `ENOENT: no such file or directory, open '…'`.

import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { HealthDataError } from '../core/errors';
import { printable } from './output';

/** Why writing failed, in words: `no such folder`, `permission denied`, `it is a folder`, … */
export function whyNotWritten(err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'no such folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a file stands where a folder should be';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'the disk quota is used up';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

export interface WriteTargetOptions {
  /** The target may already be something other than a regular file (`/dev/null`, a pipe): a stream writes into it. */
  readonly stream?: boolean;
}

/**
 * Throws a usage error naming `flag` when `target` cannot be written: a folder, or a place whose
 * folder is missing, is not a folder, or may not be written to. Checked before anything is sent
 * or read, so a long list or a large file is not worked through for a report that cannot be kept.
 */
export function checkWriteTarget(flag: string, target: string, options: WriteTargetOptions = {}): void {
  const fail = (why: string): never => {
    throw new HealthDataError('usage', `${flag} ${printable(target, 80)}: ${why}.`);
  };
  const full = resolve(target);
  const stat = (path: string) => {
    try {
      return statSync(path, { throwIfNoEntry: false });
    } catch (err) {
      return fail(whyNotWritten(err));
    }
  };
  const existing = stat(full);
  if (existing?.isDirectory()) fail('it is a folder: name a file in it');
  if (existing && !existing.isFile() && !options.stream) fail('it is not a regular file (without --out the output goes to standard output)');
  const folder = dirname(full);
  const parent = stat(folder);
  if (!parent) fail(`no such folder ${printable(folder, 80)}`);
  if (!parent!.isDirectory()) fail(`${printable(folder, 80)} is not a folder`);
  try {
    accessSync(existing ? full : folder, constants.W_OK);
  } catch (err) {
    fail(whyNotWritten(err));
  }
}
