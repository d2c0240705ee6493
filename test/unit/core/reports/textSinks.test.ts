// The byte sink the streamed reports are written into: numbers and plain strings written as bytes
// read as String and JSON.stringify write them; any other string is refused and nothing written.
import * as assert from 'node:assert/strict';
import { ByteSink } from '../../../../src/core/reports/textSinks';

describe('ByteSink', () => {
  it('writes a non-negative integer as String does', () => {
    const numbers = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 270_000, 1_000_000, 123_456_789, 2 ** 31, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER];
    const sink = new ByteSink(16);
    for (const n of numbers) {
      sink.digits(n);
      sink.write(' ');
    }
    assert.equal(sink.done().toString('latin1'), numbers.map((n) => `${n} `).join(''));
  });

  it('writes a string of printable ASCII in quotes as JSON.stringify does, and refuses any other without writing', () => {
    const sink = new ByteSink(16);
    const plain = ['', 'a', '6affe4d6728a56b08e58aea0', ' !#$%&\'()*+,-./0123456789:;<=>?@AZ[]^_`az{|}~'];
    const other = ['"', 'a\\b', '\u0000', '\n', '\u007f', 'é', '\u202e', '\ud800', 'x'.repeat(40) + '\u0085'];
    let want = '';
    for (const text of plain) {
      assert.equal(sink.plainQuoted(text), true, text);
      want += JSON.stringify(text);
    }
    for (const text of other) assert.equal(sink.plainQuoted(text), false, JSON.stringify(text));
    assert.equal(sink.done().toString('latin1'), want);
  });

  it('drops what was written after a length, the text not yet encoded included', () => {
    const sink = new ByteSink(16);
    sink.write('kept ');
    const at = sink.length;
    sink.write('dropped');
    sink.digits(42);
    sink.truncate(at);
    sink.write('then');
    assert.equal(sink.done().toString('utf8'), 'kept then');
  });
});
