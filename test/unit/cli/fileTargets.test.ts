// The CLI's words for files it cannot read or write, and the check of a place to write. The
// file-system errors a test running as root cannot meet (EACCES) are given as Node gives them.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkWriteTarget, whyNotRead, whyNotReadAfterName, whyNotWritten } from '../../../src/cli/fileTargets';
import { HealthDataError } from '../../../src/core/errors';
import { runCliInProcess } from '../support/cli';

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: something, open '/x'`), { code });

describe('CLI file targets', () => {
  const folder = mkdtempSync(join(tmpdir(), 'hde-targets-'));

  it('names why a file could not be read or written in words, never in Node\'s codes', () => {
    assert.equal(whyNotRead(errno('ENOENT')), 'no such file');
    assert.equal(whyNotRead(errno('EACCES')), 'permission denied');
    assert.equal(whyNotRead(errno('EISDIR')), 'it is a folder');
    assert.equal(whyNotRead(errno('EIO')), 'cannot be read (EIO)');
    assert.equal(whyNotWritten(errno('ENOENT')), 'no such folder');
    assert.equal(whyNotWritten(errno('EACCES')), 'permission denied');
    assert.equal(whyNotWritten(errno('ENOSPC')), 'no space left on the device');
    assert.equal(whyNotWritten(errno('ENOTDIR')), 'a file stands where a folder should be');
    // Not the file system's: said as it is.
    assert.equal(whyNotRead(Object.assign(new Error('the worker stopped'), { code: 'ERR_WORKER_EXIT' })), 'the worker stopped');
    assert.equal(whyNotRead(errno('EACCES')), 'permission denied');
  });

  it('words a file that cannot be read as the end of a sentence that starts with its name', () => {
    for (const [code, words] of [
      ['ENOENT', 'does not exist'],
      ['EISDIR', 'is a folder'],
      ['EACCES', 'cannot be read: permission denied'],
      ['ENOTDIR', 'cannot be read: a file stands where a folder should be'],
      ['EIO', 'cannot be read (EIO)'],
    ]) {
      assert.equal(whyNotReadAfterName(errno(code)), words, code);
    }
    // Our own words (a UTF-16 file, a worker that stopped) are already worded after a name.
    assert.equal(whyNotReadAfterName(new Error('is UTF-16, not UTF-8')), 'is UTF-16, not UTF-8');
  });

  it('checks a place to write: a new file in a folder, or a file there, pass; the rest is refused naming the flag', () => {
    const existing = join(folder, 'there.txt');
    writeFileSync(existing, 'x');
    checkWriteTarget('--out', join(folder, 'new.txt'));
    checkWriteTarget('--out', existing);
    checkWriteTarget('--out', '/dev/null', { stream: true });
    const refused = (target: string, says: RegExp, stream = false) =>
      assert.throws(() => checkWriteTarget('--out', target, { stream }), (err: unknown) => err instanceof HealthDataError && err.kind === 'usage' && says.test(err.message));
    refused(folder, /^--out .*: it is a folder: name a file in it\.$/);
    refused(join(folder, 'missing', 'x.txt'), /^--out .*x\.txt: no such folder .*missing\.$/);
    refused(join(existing, 'x.txt'), /^--out .*x\.txt: a file stands where a folder should be\.$/);
    refused('/dev/null', /it is not a regular file \(without --out the output goes to standard output\)/);
    assert.equal(existsSync(join(folder, 'new.txt')), false, 'a check writes nothing');
  });

  it('a payload whose reading fails after it was found says why in words (validate and coverage)', async function () {
    // On Linux, /proc/self/mem is found (stat) but reading it fails with EIO.
    if (!existsSync('/proc/self/mem')) this.skip();
    const validate = await runCliInProcess(['validate', '/proc/self/mem', '--no-color'], {});
    assert.equal(validate.code, 1);
    assert.match(validate.stdout, /^\[error\] \/proc\/self\/mem cannot be read \(EIO\)$/m);
    const coverage = await runCliInProcess(['coverage', '/proc/self/mem'], {});
    assert.equal(coverage.code, 1);
    assert.match(coverage.stderr, /\/proc\/self\/mem cannot be read \(EIO\)/);
    assert.doesNotMatch(validate.stdout + coverage.stderr, /EIO: /);
  });
});
