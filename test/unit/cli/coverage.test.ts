// `health-data coverage` against the sandbox on loopback and over files: the exact --json shape,
// equal to the core's coverage of the sandbox's own records; the matrix in words; mixed-kind
// files; usage errors and a failing service.
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { EventEmitter } from 'node:events';
import { runCli } from '../../../src/cli/main';
import { computeCoverage } from '../../../src/core/insights';
import { runCliInProcess as cli } from '../support/cli';
import { useSandbox } from '../support/sandbox';

describe('health-data coverage', () => {
  const use = useSandbox({ days: 40 });
  const env = () => ({ HEALTH_DATA_BASE_URL: use.sandbox.url, HEALTH_DATA_CLIENT_ID: use.sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: use.sandbox.clientSecret });
  const dir = mkdtempSync(join(tmpdir(), 'hde-coverage-'));

  it('prints the issue’s JSON shape over every page, equal to the core’s coverage of the sandbox’s records', async () => {
    const run = await cli(['coverage', 'activity', '--json'], env());
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.deepEqual(Object.keys(report), ['resource', 'from', 'to', 'records', 'sources', 'overlaps', 'notes']);
    assert.deepEqual(Object.keys(report.sources[0]), ['source', 'records', 'days', 'firstDate', 'lastDate', 'fields']);
    assert.deepEqual(Object.keys(report.sources[0].fields[0]), ['field', 'nonZero', 'zero', 'null', 'absent', 'verdict']);
    assert.deepEqual(Object.keys(report.overlaps[0]), ['date', 'humanId', 'sources']);
    assert.ok(report.records > 100, 'more than two pages of 50');
    assert.deepEqual(report, JSON.parse(JSON.stringify(computeCoverage('activity', use.sandbox.dataset.activity))));
    assert.equal(run.stderr, '', 'no progress line when standard error is no terminal');
  });

  it('counts a file of any size as it is read: 110 MB of NDJSON on standard input', async function () {
    this.timeout(300_000);
    // Over the 100 MB that coverage used to refuse (it held every record at once).
    const lines = `${use.sandbox.dataset.activity.map((r) => JSON.stringify(r)).join('\n')}\n`;
    const block = Buffer.from(lines);
    const blocks = Math.ceil((110 * 1024 * 1024) / block.length);
    const stdin = Readable.from(
      (function* () {
        for (let i = 0; i < blocks; i++) yield block;
      })(),
    );
    const out: Buffer[] = [];
    const stdout = new PassThrough();
    stdout.on('data', (d: Buffer) => out.push(d));
    const stderr = new PassThrough();
    const errors: Buffer[] = [];
    stderr.on('data', (d: Buffer) => errors.push(d));
    const code = await runCli(['coverage', '-', '--kind', 'activity', '--json'], { stdout, stderr, stdin, env: {}, signals: new EventEmitter() });
    await new Promise((r) => setImmediate(r));
    assert.equal(code, 0, Buffer.concat(errors).toString('utf8'));
    const report = JSON.parse(Buffer.concat(out).toString('utf8'));
    const one = computeCoverage('activity', use.sandbox.dataset.activity);
    assert.equal(report.records, blocks * one.records);
    assert.deepEqual(
      report.sources.map((s: { source: string; records: number; days: number }) => [s.source, s.records, s.days]),
      one.sources.map((s) => [s.source, s.records * blocks, s.days]),
    );
    assert.deepEqual(report.sources[0].fields.map((f: { nonZero: number }) => f.nonZero), one.sources[0].fields.map((f) => f.nonZero * blocks));
  });

  it('with a source that has no records, says which sources the range has', async () => {
    const run = await cli(['coverage', 'activity', '--from', '2026-11-01', '--to', '2026-11-10', '--source', 'fitbt'], env());
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /No records from any source\./);
    const sources = [...new Set(use.sandbox.dataset.activity.filter((r) => r.date >= '2026-11-01' && r.date <= '2026-11-10').map((r) => r.source))].sort();
    assert.match(run.stderr, new RegExp(`No activity summaries from source "fitbt"\\. Without --source, the same query has records from: ${sources.join(', ')}\\.`));
  });

  it('takes --from, --to and --source, and says so in the range', async () => {
    const run = await cli(['coverage', 'activity', '--from', '2026-11-01', '--to', '2026-11-10', '--source', 'googlefit', '--json'], env());
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.from, '2026-11-01');
    assert.equal(report.to, '2026-11-10');
    assert.deepEqual(report.sources.map((s: { source: string }) => s.source), ['googlefit']);
    const expected = use.sandbox.dataset.activity.filter((r) => r.source === 'googlefit' && r.date >= '2026-11-01' && r.date <= '2026-11-10');
    assert.equal(report.records, expected.length);
  });

  it('takes --human: one human’s records, as the Records view’s human filter, named in the heading', async () => {
    const human = use.sandbox.dataset.humans[1];
    const mine = use.sandbox.dataset.activity.filter((r) => r.humanId === human);
    const json = await cli(['coverage', 'activity', '--human', human, '--json'], env());
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(json.stdout), JSON.parse(JSON.stringify(computeCoverage('activity', mine))));
    const text = await cli(['coverage', 'activity', '--human', ` ${human} `], env());
    assert.match(text.stdout, new RegExp(`^Activity summaries: ${mine.length} records, [0-9-]+ – [0-9-]+, human ${human}$`, 'm'));
    // Nobody's: the humans the same query has, as `list` names them.
    const none = await cli(['coverage', 'activity', '--human', human.slice(0, 8)], env());
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stderr, new RegExp(`No activity summaries of human "${human.slice(0, 8)}"\\. Without --human, the same query has records of ${use.sandbox.dataset.humans.length} humans`));
    // Not with files, and not empty.
    for (const [args, says] of [
      [['coverage', join(dir, 'any.json'), '--human', human], /--human works with a resource from the service, not with files\./],
      [['coverage', 'activity', '--human', ' '], /--human is empty\./],
    ] as const) {
      const refused = await cli([...args], env());
      assert.equal(refused.code, 2, refused.stdout);
      assert.match(refused.stderr, says);
    }
  });

  it('prints a matrix in words: verdicts, counts, overlaps and notes, no colour off a terminal', async () => {
    const run = await cli(['coverage', 'activity'], env());
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout, /\u001b\[/);
    const header = run.stdout.split('\n').find((l) => l.startsWith('field'))!;
    assert.deepEqual(header.split(/\s+/), ['field', 'fitbit', 'googlefit', 'misfit', 'moves']);
    const steps = run.stdout.split('\n').find((l) => l.startsWith('steps'))!;
    const phone = use.sandbox.dataset.activity.filter((r) => r.source === 'googlefit').length;
    assert.match(steps, new RegExp(`never 0/${phone} \\(0 ×${phone}\\)`));
    assert.match(steps, /^steps\s+provided \d+\/\d+\s/);
    assert.match(run.stdout, /Overlaps: \d+ days with two or more sources for one human/);
    // Each overlap names its human by the whole id, as --human takes it.
    const overlap = /^  (\d{4}-\d\d-\d\d)  human (\S+)  (\S+) \+ /m.exec(run.stdout);
    assert.ok(overlap, run.stdout);
    assert.ok(use.sandbox.dataset.activity.some((r) => r.humanId === overlap[2] && r.date === overlap[1] && r.source === overlap[3]), overlap[0]);
    assert.match(run.stdout, /moves: fields the schema does not define: activeMinutes/);
    assert.match(run.stdout, /the source does not provide it, the service sends 0/);
  });

  it('reads files as validate does: several kinds give one report each, junk is counted and left out', async () => {
    const data = use.sandbox.dataset;
    const mixed = join(dir, 'mixed.json');
    writeFileSync(mixed, JSON.stringify([...data.activity.slice(0, 5), ...data.bodyFat.slice(0, 3), { hello: 1 }, 'junk']));
    const wrapped = join(dir, 'wrapped.json');
    writeFileSync(wrapped, JSON.stringify({ data: data.activity.slice(5, 7) }));
    const run = await cli(['coverage', mixed, wrapped, '--json']);
    assert.equal(run.code, 0, run.stderr);
    const reports = JSON.parse(run.stdout);
    assert.deepEqual(reports.map((r: { resource: string; records: number }) => [r.resource, r.records]), [['activity', 7], ['body-fat', 3]]);
    assert.match(run.stderr, /2 items of no detectable kind left out \(name it with --kind\)/);
    // Told the kind: one report; the object without a source is a record of no source, the
    // string no record at all.
    const told = await cli(['coverage', mixed, '--kind', 'activity', '--json']);
    const one = JSON.parse(told.stdout);
    assert.equal(one.resource, 'activity');
    assert.equal(one.records, 10);
    assert.equal(one.notes.find((n: { kind: string }) => n.kind === 'notRecords').count, 1);
    assert.equal(one.sources.at(-1).source, null);
    assert.equal(one.sources.at(-1).records, 1);
    // Text, and standard input.
    const text = await cli(['coverage', '-'], {}, JSON.stringify(data.bodyFat.slice(0, 4)));
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^Body fat readings: 4 records/);
  });

  it('reads NDJSON as validate does: every line a record, blank lines skipped, a line that is no JSON named and left out', async () => {
    const data = use.sandbox.dataset;
    const file = join(dir, 'records.ndjson');
    const lines = [...data.activity.slice(0, 4), ...data.heartRate.slice(0, 2)].map((r) => JSON.stringify(r));
    lines.splice(2, 0, '', '{"id": "cut short", "steps": 12');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const run = await cli(['coverage', file, '--json']);
    // The broken record is on line 4 (after two records and a blank line); the rest are counted.
    assert.match(run.stderr, /records\.ndjson has a record that is not valid JSON \(.* at line 4, column \d+\): it is left out/);
    assert.equal(run.code, 1);
    const reports = JSON.parse(run.stdout);
    assert.deepEqual(reports.map((r: { resource: string; records: number }) => [r.resource, r.records]), [['heart-rate', 2], ['activity', 4]]);
    assert.deepEqual(reports.find((r: { resource: string }) => r.resource === 'activity'), JSON.parse(JSON.stringify(computeCoverage('activity', data.activity.slice(0, 4)))));
  });

  it('names the days of zeros that stand out in a note, in words and in --json, over NDJSON read as a stream', async () => {
    const activity = use.sandbox.dataset.activity as unknown as Array<Record<string, unknown>>;
    const fitbit = activity.filter((r) => r.source === 'fitbit');
    assert.ok(fitbit.length >= 21, `${fitbit.length} fitbit days`);
    const day = fitbit[4].date as string;
    const notWorn = { ...fitbit[4], id: 'not-worn', steps: 0, distance: 0 };
    const file = join(dir, 'not-worn.ndjson');
    writeFileSync(file, `${[...activity, notWorn].map((r) => JSON.stringify(r)).join('\n')}\n`);
    const json = await cli(['coverage', file, '--json']);
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    assert.deepEqual(report, JSON.parse(JSON.stringify(computeCoverage('activity', [...activity, notWorn]))));
    const note = report.notes.find((n: { kind: string; source: string }) => n.kind === 'unusualZeros' && n.source === 'fitbit');
    assert.ok(note, JSON.stringify(report.notes));
    assert.ok(note.dates.includes(day), JSON.stringify(note));
    assert.deepEqual(
      note.items.filter((i: { name: string }) => i.name === 'steps' || i.name === 'distance'),
      [{ name: 'distance', count: 1 }, { name: 'steps', count: 1 }],
    );
    const text = await cli(['coverage', file]);
    // In the matrix: fitbit's steps cell counts the zero as unusual, and the legend says what that means.
    const steps = text.stdout.split('\n').find((l) => l.startsWith('steps'))!;
    assert.match(steps, /^steps\s+sometimes \d+\/\d+ \(0 ×1 unusual\)\s/);
    assert.match(text.stdout, / unusual: 0 where the source sends the field on 19 in 20 of its other records or more \(Notes names the days\)\./);
    assert.match(text.stdout, new RegExp(`\\n  - fitbit: unusual 0 on \\d+ days?: .*${day} \\(distance, steps[,)]`));
    assert.match(text.stdout, /; the source sends these fields as another number on 19 in 20 of its other records or more\n/);
  });

  it('a UTF-16 file (as PowerShell 5 writes them) is named as such by coverage and validate, and no record counts as valid', async () => {
    const file = join(dir, 'utf16.json');
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(use.sandbox.dataset.bodyFat.slice(0, 2)), 'utf16le')]));
    const coverage = await cli(['coverage', file]);
    assert.equal(coverage.code, 1);
    assert.match(coverage.stderr, /utf16\.json is UTF-16, not UTF-8 \(it starts with a UTF-16 byte-order mark\): save it as UTF-8/);
    const validate = await cli(['validate', file]);
    assert.equal(validate.code, 1);
    assert.match(validate.stdout, /utf16\.json is UTF-16, not UTF-8/);
    assert.match(validate.stdout, /^0 records in 1 file, 1 file not validated$/m);
  });

  it('a file that cannot be read is one line and exit 1; the others are still counted', async () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(use.sandbox.dataset.heartRate.slice(0, 2)));
    const run = await cli(['coverage', join(dir, 'missing.json'), good, '--json']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /missing\.json does not exist/);
    assert.equal(JSON.parse(run.stdout).records, 2);
  });

  it('files with no record of a known kind: says so, prints no report and exits 1', async () => {
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, JSON.stringify([{ hello: 1 }, 'junk', 42]));
    const run = await cli(['coverage', junk, '--json']);
    assert.equal(run.code, 1, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /3 items of no detectable kind left out \(name it with --kind\)\.\nhealth-data: no records of a known kind in the files\.\n$/);
  });

  it('refuses bad input before anything is sent', async () => {
    const before = use.sandbox.requests.length;
    for (const args of [
      ['coverage', 'activity', '--from', '2026-02-30', '--to', '2026-03-01'],
      ['coverage', 'activity', '--to', '2026-03-01'],
      ['coverage', 'activity', '--source', ' '],
      ['coverage', join(dir, 'good.json'), '--from', '2026-01-01', '--to', '2026-01-02'],
      ['coverage'],
    ]) {
      const run = await cli(args, env());
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, /^health-data: .+\nRun `health-data --help` for usage\.\n$/);
    }
    assert.equal(use.sandbox.requests.length, before);
  });

  it('a failing service: one line with the status, exit 1, nothing on standard output', async () => {
    use.sandbox.addFault({ fault: '500', path: '/body_fat', times: 1 });
    const run = await cli(['coverage', 'body-fat', '--json'], env());
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /body_fat\/readings: 500 Internal Server Error/);
    assert.ok(!run.stderr.includes(use.sandbox.clientSecret));
  });
});
