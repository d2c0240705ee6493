// The `health-data` CLI against hostile records: whatever a payload holds (terminal escapes,
// direction overrides, control characters, markup, megabyte strings), what reaches the terminal
// is inert text. Through printable() for every string and key of 1,200 seeded hostile records,
// through `validate` on a file of them, and through `list` and `get` against a sandbox whose
// records were made hostile.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printable } from '../../../src/cli/output';
import { resource } from '../../../src/core/resources';
import { INVISIBLE_CHARACTERS } from '../../../src/core/validation';
import { Sandbox, startSandbox } from '../../../src/sandbox/server';
import { runCliInProcess as cli } from '../support/cli';
import { UNSAFE, assertInert } from '../support/inert';
import { readCsv } from '../support/csv';
import { FUZZ_SEED, HOSTILE_KEYS, HOSTILE_STRINGS, HostileRecord, Prng, assertPrototypesUnchanged, prototypeSnapshot, put, sharedHostileRecords } from '../support/hostileRecords';

/** The resources `list` and `get` are run on, in this order. */
const LISTED = (['activity', 'heartRate', 'bodyFat'] as const).map((kind) => resource(kind));

/** Every string and key in a value, breadth first, at most `max` of them. */
function stringsOf(value: unknown, max = 200): string[] {
  const out: string[] = [];
  const queue: unknown[] = [value];
  while (queue.length && out.length < max) {
    const v = queue.shift();
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) queue.push(...v.slice(0, 50));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v).slice(0, 50)) {
        out.push(k);
        queue.push(x);
      }
    }
  }
  return out;
}

describe(`CLI fuzz: hostile records reach the terminal as inert text (seed "${FUZZ_SEED}")`, function () {
  this.timeout(60_000);
  const prototypes = prototypeSnapshot();
  let records: readonly HostileRecord[];
  const dir = mkdtempSync(join(tmpdir(), 'hde-fuzz-cli-'));

  before(() => {
    records = sharedHostileRecords();
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
    assertPrototypesUnchanged(prototypes);
  });

  it('printable() leaves no control or direction character, and keeps to its length', () => {
    let checked = 0;
    for (const s of [...HOSTILE_STRINGS, ...HOSTILE_KEYS, ...records.flatMap((r) => stringsOf(r.record))]) {
      for (const max of [1, 12, 80, 200]) {
        const shown = printable(s, max);
        assertInert(shown, JSON.stringify(s.slice(0, 60)));
        assert.ok(shown.length <= max, `${shown.length} > ${max}`);
        checked++;
      }
    }
    assert.ok(checked > 10_000, `only ${checked} strings checked`);
  });

  it('`validate` prints the findings of hostile payload files as inert text, and exits 1', async () => {
    // The records small enough to be one file of a few megabytes, in files of 100.
    const small = records.filter((r) => !r.tooDeep && (JSON.stringify(r.record)?.length ?? 0) < 200_000);
    assert.ok(small.length > 800);
    const files: string[] = [];
    for (let i = 0; i < small.length; i += 100) {
      const file = join(dir, `hostile-${i}.json`);
      writeFileSync(file, JSON.stringify(small.slice(i, i + 100).map((r) => r.record)));
      files.push(file);
    }
    // A file whose name is hostile too.
    const named = join(dir, `\u001b[31m\u202Eevil${'\u0007'}.json`);
    writeFileSync(named, JSON.stringify(small[0].record));
    const text = await cli(['validate', ...files, named, '--no-color']);
    assert.equal(text.code, 1);
    assertInert(text.stdout, 'validate stdout');
    assertInert(text.stderr, 'validate stderr');
    assert.match(text.stdout, /\d+ records in \d+ files/);
    const json = await cli(['validate', ...files.slice(0, 2), '--json']);
    assert.equal(json.code, 1);
    const report = JSON.parse(json.stdout) as { files: Array<{ records: unknown[] }> };
    assert.equal(report.files.length, 2);
    assert.equal(report.files[0].records.length, 100);
  });

  describe('list and get against a sandbox whose records are hostile', () => {
    let sandbox: Sandbox;
    let env: NodeJS.ProcessEnv;

    before(async () => {
      sandbox = await startSandbox({ port: 0, days: 10, humans: 3, seed: 'fuzz-cli' });
      env = { HEALTH_DATA_BASE_URL: sandbox.url, HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: sandbox.clientSecret };
      // The sandbox serves its dataset's objects: change them in place (ids and dates stay, so
      // they are still found), as a hostile service would send them.
      const rng = new Prng('fuzz-cli');
      const data = sandbox.dataset as unknown as Record<string, Array<Record<string, unknown>>>;
      for (const kind of ['activity', 'heartRate', 'bodyFat']) {
        for (const record of data[kind]) {
          put(record, 'source', rng.pick(HOSTILE_STRINGS));
          put(record, rng.pick(HOSTILE_KEYS), rng.pick(HOSTILE_STRINGS));
          put(record, rng.pick(HOSTILE_STRINGS).slice(0, 40), 0);
          put(record, '__proto__', { polluted: rng.pick(HOSTILE_STRINGS) });
          put(record, 'sourceData', { [rng.pick(HOSTILE_STRINGS)]: rng.pick(HOSTILE_STRINGS) });
          if (kind === 'bodyFat') put(record, 'unit', rng.pick(HOSTILE_STRINGS));
          if (kind === 'heartRate') for (const zone of record.zones as Array<Record<string, unknown>>) put(zone, 'name', rng.pick(HOSTILE_STRINGS));
          if (rng.chance(0.2)) put(record, 'userId', rng.pick(HOSTILE_STRINGS));
        }
      }
    });

    after(async () => sandbox.close());

    for (const { cliName, kind } of LISTED) {
      it(`list ${cliName} prints a table of inert text`, async () => {
        const r = await cli(['list', cliName, '--limit', '500', '--no-color'], env);
        assertInert(r.stdout, `list ${cliName} stdout`);
        assertInert(r.stderr, `list ${cliName} stderr`);
        assert.match(r.stdout, /^date\s+id\s+source/m);
        // --json hands the records over as they came, for a program to read, and inert for a
        // terminal: what JSON.stringify leaves raw (direction overrides, C1 controls) as \uXXXX.
        const served = JSON.parse(JSON.stringify(sandbox.dataset[kind])) as unknown[];
        const json = await cli(['list', cliName, '--limit', '500', '--json'], env);
        assertInert(json.stdout, `list ${cliName} --json`);
        assert.deepEqual(JSON.parse(json.stdout), served);
        const nd = await cli(['list', cliName, '--limit', '500', '--format', 'ndjson'], env);
        assertInert(nd.stdout, `list ${cliName} --format ndjson`);
        assert.deepEqual(nd.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown), served);
        // CSV has no escape for them: through a pipe the records' text is as served (read back
        // to the same ids, the raw characters there); on a terminal every one is visible \uXXXX
        // text, and stderr says so.
        const piped = await cli(['list', cliName, '--limit', '500', '--format', 'csv'], env);
        assert.match(piped.stdout, UNSAFE, 'the piped CSV keeps the characters as served');
        assert.deepEqual(readCsv(kind, piped.stdout).records.map((r) => r.id), (served as Array<{ id: unknown }>).map((r) => r.id));
        assert.doesNotMatch(piped.stderr, /shown as/);
        const shown = await cli(['list', cliName, '--limit', '500', '--format', 'csv'], { ...env, NO_COLOR: '1' }, undefined, undefined, { stdout: true });
        assert.equal(shown.code, piped.code, shown.stderr);
        assertInert(shown.stdout, `list ${cliName} --format csv on a terminal`);
        assertInert(shown.stderr, `list ${cliName} --format csv on a terminal, stderr`);
        // The same text but for those characters, each its code, and the line ends the terminal's.
        let escaped = 0;
        const expected = piped.stdout.replace(/\r\n/g, '\n').replace(new RegExp(INVISIBLE_CHARACTERS.source, 'g'), (c) => {
          if (c === '\n') return c;
          escaped++;
          return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
        });
        assert.equal(shown.stdout, expected);
        assert.ok(escaped > 0);
        assert.ok(
          shown.stderr.includes(`health-data: ${escaped} control or invisible characters in the records shown as \\uXXXX on this terminal (CSV has no escape for them); a pipe or --out writes the records' text as it is.\n`),
          shown.stderr,
        );
        const coverage = await cli(['coverage', cliName, '--json'], env);
        assertInert(coverage.stdout, `coverage ${cliName} --json`);
        assert.equal((JSON.parse(coverage.stdout) as { records: number }).records, served.length);
      });
    }

    it('get prints every field of a hostile record as inert text', async () => {
      const picks = LISTED.flatMap(({ cliName, kind }) => sandbox.dataset[kind].slice(0, 5).map((r): [string, string] => [cliName, r.id]));
      for (const [resource, id] of picks) {
        const r = await cli(['get', resource, id, '--no-color'], env);
        assert.ok(r.code === 0 || r.code === 1, r.stderr);
        assertInert(r.stdout, `get ${resource} ${id}`);
        assertInert(r.stderr, `get ${resource} ${id} stderr`);
        const json = await cli(['get', resource, id, '--json'], env);
        assertInert(json.stdout, `get ${resource} ${id} --json`);
        assert.equal((JSON.parse(json.stdout) as { id: string }).id, id);
      }
      const latest = await cli(['get', 'body-fat', '--no-color'], env);
      assertInert(latest.stdout, 'get body-fat (latest)');
    });
  });
});
