// Files the CLI writes (`list --out`, `--record`, `validate --out`, `schemas --out`, `types
// --out`) and reads (payloads, `--replay`, `--records`): one check of a place to write before any
// work starts, and one wording of why a file could not be written or read, instead of Node's
// `ENOENT: no such file or directory, open '…'`.

import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { HealthDataError } from '../core/errors';
import { printable } from './output';

/** The file system's codes in words, the same whichever way a file was used. */
const COMMON_WORDS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a file stands where a folder should be',
};

/** The codes met only in writing: ENOENT names the folder then (the file is to be made). */
const WRITE_WORDS: Readonly<Record<string, string>> = {
  ...COMMON_WORDS,
  ENOENT: 'no such folder',
  EEXIST: 'a file stands where a folder should be',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
};

const READ_WORDS: Readonly<Record<string, string>> = { ...COMMON_WORDS, ENOENT: 'no such file' };

const codeOf = (err: unknown): string | undefined => {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** Why writing failed, in words: `no such folder`, `permission denied`, `it is a folder`, … */
export function whyNotWritten(err: unknown): string {
  const code = codeOf(err);
  return code !== undefined && Object.hasOwn(WRITE_WORDS, code) ? WRITE_WORDS[code] : messageOf(err);
}

/** An error of the file system (`ENOENT`, `EACCES`), not of Node itself (`ERR_…`) or of our code. */
export function isFileSystemError(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && /^E[A-Z]+$/.test(code);
}

/**
 * Why reading failed, in words: `no such file`, `permission denied`, `cannot be read (EIO)`, …;
 * an error that is not the file system's, as its message.
 */
export function whyNotRead(err: unknown): string {
  if (!isFileSystemError(err)) return messageOf(err);
  const code = codeOf(err)!;
  return Object.hasOwn(READ_WORDS, code) ? READ_WORDS[code] : `cannot be read (${code})`;
}

/**
 * Why reading failed, as the end of "<file> …" (the validate and coverage reports put the file's
 * name first): `does not exist`, `is a folder`, `cannot be read: permission denied`, …; an error
 * that is not the file system's, as its message (already worded that way).
 */
export function whyNotReadAfterName(err: unknown): string {
  if (!isFileSystemError(err)) return messageOf(err);
  const code = codeOf(err)!;
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'EISDIR') return 'is a folder';
  return Object.hasOwn(READ_WORDS, code) ? `cannot be read: ${READ_WORDS[code]}` : `cannot be read (${code})`;
}

/**
 * A file a flag names that cannot be used: a usage error (exit 2) whose words say what to change,
 * so no pointer to `--help` follows it.
 */
export class FileTargetError extends HealthDataError {
  constructor(message: string) {
    super('usage', message);
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
    throw new FileTargetError(`${flag} ${printable(target, 80)}: ${why}.`);
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
