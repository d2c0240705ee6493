// Reading payload files ahead (readAhead): every byte once, in order, whatever the chunk size and
// the number of reads under way;
// a reader that stops early leaves no file open; a file that cannot be read fails the reader.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAhead } from '../../../src/cli/payloadFiles';

const openFiles = (): number => readdirSync('/proc/self/fd').length;

describe('CLI payload files: reading ahead', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hde-read-ahead-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every byte once and in order, for sizes around the chunk size and any number of reads ahead', async () => {
    const bytes = Buffer.from(Array.from({ length: 10_007 }, (_, i) => (i * 31) % 251));
    for (const ahead of [1, 3, 8, 20]) {
      for (const size of [0, 1, 999, 1000, 1001, 2500, 8000, 10_007]) {
        const file = join(dir, `f${size}`);
        writeFileSync(file, bytes.subarray(0, size));
        const chunks: Buffer[] = [];
        for await (const chunk of readAhead(file, 1000, ahead)) chunks.push(Buffer.from(chunk));
        assert.ok(chunks.every((c) => c.length > 0 && c.length <= 1000), `${size}, ${ahead} ahead: chunk sizes ${chunks.map((c) => c.length)}`);
        assert.deepEqual(Buffer.concat(chunks), bytes.subarray(0, size), `${size} bytes, ${ahead} ahead`);
      }
    }
  });

  it('closes the file when the reader stops early, with reads under way', async () => {
    const file = join(dir, 'big');
    writeFileSync(file, Buffer.alloc(1_000_000, 7));
    const before = openFiles();
    for (let i = 0; i < 20; i++) {
      for await (const chunk of readAhead(file, 4096)) {
        assert.equal(chunk[0], 7);
        break;
      }
    }
    assert.equal(openFiles(), before);
  });

  it('fails the reader for a file that cannot be read', async () => {
    await assert.rejects(async () => {
      for await (const _ of readAhead(join(dir, 'missing'))) assert.fail('no bytes');
    }, /ENOENT/);
    await assert.rejects(async () => {
      for await (const _ of readAhead(dir)) assert.fail('no bytes');
    }, /EISDIR/);
  });
});
