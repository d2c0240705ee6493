// A file written under a temporary name beside its target and renamed into place at the end, so
// a cancelled or failed export leaves no partial file under the name the user chose.

import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';

export interface PartialFile {
  /** The temporary name, beside the target (same folder, so the rename is atomic). */
  readonly tempPath: string;
  write(text: string): void;
  /** Flushes, closes and renames onto the target. */
  commit(): void;
  /** Closes and removes the temporary file; safe to call more than once, and after commit. */
  discard(): void;
}

export function openPartialFile(target: string): PartialFile {
  const tempPath = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.partial`);
  // 'wx': never reuse a file that happens to be there.
  let fd: number | undefined = openSync(tempPath, 'wx', 0o600);
  let done = false;
  const close = (): void => {
    if (fd === undefined) return;
    const open = fd;
    fd = undefined;
    closeSync(open);
  };
  return {
    tempPath,
    write(text) {
      if (fd === undefined) throw new Error('the export file is already closed');
      let buffer = Buffer.from(text, 'utf8');
      while (buffer.length > 0) {
        const n = writeSync(fd, buffer);
        buffer = buffer.subarray(n);
      }
    },
    commit() {
      if (fd === undefined) throw new Error('the export file is already closed');
      fsyncSync(fd);
      close();
      renameSync(tempPath, target);
      done = true;
    },
    discard() {
      if (done) return;
      done = true;
      try {
        close();
      } finally {
        try {
          unlinkSync(tempPath);
        } catch {
          // Already gone.
        }
      }
    },
  };
}
