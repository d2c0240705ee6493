// `health-data list … --format json|ndjson|csv [--out FILE]` against the sandbox on loopback:
// the same records as the plain list, streamed; files that appear only when complete; Ctrl-C
// and failures mid-export leave nothing behind; paging through 429s and retries.
import * as assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import { parseFaultSpec, startSandbox } from '../../../src/sandbox/server';
import { runCliInProcess } from '../support/cli';
import { readCsv } from '../support/csv';
import { useSandbox } from '../support/sandbox';

describe('CLI export (list --format)', function () {
  this.timeout(30_000);
  const holder = useSandbox({ days: 120, humans: 2 });
  const env = (): NodeJS.ProcessEnv => ({
    HEALTH_DATA_BASE_URL: holder.sandbox.url,
    HEALTH_DATA_CLIENT_ID: holder.sandbox.clientId,
    HEALTH_DATA_CLIENT_SECRET: holder.sandbox.clientSecret,
  });
  const folder = mkdtempSync(join(tmpdir(), 'hde-export-'));
  afterEach(() => holder.sandbox.clearFaults());

  it('--format json streams exactly what --json printed: the whole list as one array', async () => {
    const streamed = await runCliInProcess(['list', 'activity', '--all', '--format', 'json', '--limit', '37'], env());
    const alias = await runCliInProcess(['list', 'activity', '--all', '--json', '--limit', '37'], env());
    assert.equal(streamed.stdout, alias.stdout);
    const records = JSON.parse(streamed.stdout) as Array<{ id: string }>;
    assert.equal(records.length, holder.sandbox.dataset.activity.length);
    assert.equal(streamed.stdout, `${JSON.stringify(records, null, 2)}\n`);
    assert.deepEqual(records.map((r) => r.id), holder.sandbox.dataset.activity.map((r) => r.id));
  });

  it('--format ndjson gives one record a line, in list order; csv reads back to the same records', async () => {
    const nd = await runCliInProcess(['list', 'body-fat', '--all', '--format', 'ndjson', '--limit', '50'], env());
    assert.equal(nd.code, 0, nd.stderr);
    const lines = nd.stdout.trimEnd().split('\n');
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(records.map((r) => r.id), holder.sandbox.dataset.bodyFat.map((r) => r.id));
    const csv = await runCliInProcess(['list', 'body-fat', '--all', '--format', 'csv', '--limit', '50'], env());
    assert.equal(csv.code, 0, csv.stderr);
    const back = readCsv('bodyFat', csv.stdout).records;
    assert.equal(back.length, records.length);
    back.forEach((r, i) => assert.deepEqual(Object.entries(r).sort(), Object.entries(records[i]).sort()));
  });

  it('without --all exports the first page and says that more exist', async () => {
    const run = await runCliInProcess(['list', 'activity', '--format', 'ndjson', '--limit', '5'], env());
    assert.equal(run.stdout.trimEnd().split('\n').length, 5);
    assert.match(run.stderr, /add --all/);
  });

  it('--out writes the file under its name only at the end, with a summary on stderr', async () => {
    const file = join(folder, 'activity.csv');
    const run = await runCliInProcess(['list', 'activity', '--all', '--format', 'csv', '--out', file, '--limit', '40'], env());
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, new RegExp(`${holder.sandbox.dataset.activity.length} activity summaries written to`));
    assert.equal(readCsv('activity', readFileSync(file, 'utf8')).records.length, holder.sandbox.dataset.activity.length);
    assert.deepEqual(readdirSync(folder).filter((n) => n.includes('partial')), []);
  });

  it('pages through 429s and 503s with retries and still exports every record once', async () => {
    // Three failures in a row at most: within the client's three retries of a GET.
    holder.sandbox.addFault(parseFaultSpec('429:retry-after=0:times=2:path=offset='));
    holder.sandbox.addFault(parseFaultSpec('503:times=1:path=offset='));
    const file = join(folder, 'faults.ndjson');
    const run = await runCliInProcess(['list', 'heart-rate', '--all', '--format', 'ndjson', '--out', file, '--limit', '25'], env());
    assert.equal(run.code === 0 || /invalid/.test(run.stderr), true, run.stderr);
    const ids = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    assert.deepEqual(ids, holder.sandbox.dataset.heartRate.map((r) => r.id));
    assert.ok(holder.sandbox.requests.some((r) => r.status === 429) && holder.sandbox.requests.some((r) => r.status === 503));
  });

  it('exports a list holding a record that breaks the schema as it came, counts it as invalid and exits 1', async () => {
    const broken = { id: 'export-broken', humanId: 'h-broken', source: 'fitbit', date: '2026-03-20', steps: 'many', createdAt: '2026-03-20T10:00:00Z', updatedAt: '2026-03-20T10:00:00Z' };
    const other = await startSandbox({ today: '2026-03-25', days: 10, humans: 1, extraRecords: { activity: [broken] } });
    try {
      const otherEnv = { HEALTH_DATA_BASE_URL: other.url, HEALTH_DATA_CLIENT_ID: other.clientId, HEALTH_DATA_CLIENT_SECRET: other.clientSecret };
      const file = join(folder, 'with-broken.ndjson');
      const run = await runCliInProcess(['list', 'activity', '--all', '--format', 'ndjson', '--out', file], otherEnv);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /, 1 invalid/);
      const written = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { id: string; steps: unknown });
      assert.equal(written.length, other.dataset.activity.length);
      assert.equal(written.find((r) => r.id === broken.id)?.steps, 'many');
      // To standard output too: the same exit.
      const out = await runCliInProcess(['list', 'activity', '--all', '--format', 'ndjson'], otherEnv);
      assert.equal(out.code, 1, out.stderr);
    } finally {
      await other.close();
    }
  });

  it('Ctrl-C mid-export stops, exits 1 and leaves neither the file nor a partial one', async () => {
    const signals = new EventEmitter();
    holder.sandbox.addFault(parseFaultSpec('latency:ms=150:path=offset='));
    const file = join(folder, 'cancelled.ndjson');
    const before = holder.sandbox.requests.length;
    const pending = runCliInProcess(['list', 'activity', '--all', '--format', 'ndjson', '--out', file, '--limit', '10'], env(), undefined, signals);
    // Pressed once the first pages are in.
    while (holder.sandbox.requests.filter((r, i) => i >= before && r.path.includes('activities')).length < 2) await new Promise((r) => setTimeout(r, 20));
    signals.emit('SIGINT');
    const run = await pending;
    assert.equal(run.code, 1);
    assert.match(run.stderr, /cancel/i);
    assert.deepEqual(readdirSync(folder).filter((n) => n.startsWith('cancelled') || n.includes('cancelled')), []);
  });

  /** Standard output that takes nothing until released (a pager nobody scrolls), then everything. */
  function stalledStdout(): { stream: Writable; release: () => void; text: () => string } {
    let stalled = true;
    const held: Array<() => void> = [];
    const chunks: Buffer[] = [];
    const stream = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        if (stalled) held.push(done);
        else done();
      },
    });
    const release = (): void => {
      stalled = false;
      for (const done of held.splice(0)) done();
    };
    return { stream, release, text: () => Buffer.concat(chunks).toString('utf8') };
  }
  const listRequests = (from: number): number => holder.sandbox.requests.slice(from).filter((r) => r.path.includes('/activities/summaries')).length;
  const settled = async (count: () => number): Promise<void> => {
    for (let last = -1; count() !== last; ) {
      last = count();
      await new Promise((r) => setTimeout(r, 300));
    }
  };

  it('asks for no page ahead of a reader of stdout that takes nothing, then finishes the list whole', async () => {
    const out = stalledStdout();
    const before = holder.sandbox.requests.length;
    const running = runCli(['list', 'activity', '--all', '--format', 'ndjson', '--limit', '10'], { stdout: out.stream, stderr: new PassThrough(), stdin: Readable.from([]), env: env(), signals: new EventEmitter() });
    await settled(() => listRequests(before));
    const pages = Math.ceil(holder.sandbox.dataset.activity.length / 10);
    assert.ok(pages > 20, `${pages} pages in the list`);
    assert.ok(listRequests(before) <= 2, `${listRequests(before)} of ${pages} pages fetched while the reader took nothing`);
    out.release();
    const code = await running;
    assert.ok(code === 0 || code === 1, `exit ${code}`);
    const ids = out.text().trimEnd().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    assert.deepEqual(ids, holder.sandbox.dataset.activity.map((r) => r.id));
  });

  it('Ctrl-C while the reader of stdout is stalled ends the export at once', async () => {
    const out = stalledStdout();
    const signals = new EventEmitter();
    const before = holder.sandbox.requests.length;
    const stderr = new PassThrough();
    const errors: Buffer[] = [];
    stderr.on('data', (d: Buffer) => errors.push(d));
    const running = runCli(['list', 'activity', '--all', '--format', 'csv', '--limit', '10'], { stdout: out.stream, stderr, stdin: Readable.from([]), env: env(), signals });
    await settled(() => listRequests(before));
    signals.emit('SIGINT');
    assert.equal(await running, 1);
    assert.match(Buffer.concat(errors).toString('utf8'), /cancel/i);
    assert.ok(listRequests(before) <= 2, 'no page fetched after the cancel either');
    out.release();
  });

  it('a failure mid-export leaves no file, and says so', async () => {
    holder.sandbox.addFault(parseFaultSpec('500:path=offset=20'));
    const file = join(folder, 'failed.json');
    const run = await runCliInProcess(['list', 'activity', '--all', '--format', 'json', '--out', file, '--limit', '10'], env());
    assert.equal(run.code, 1);
    assert.match(run.stderr, /500/);
    assert.deepEqual(readdirSync(folder).filter((n) => n.includes('failed')), []);
  });

  it('an existing file is only replaced by a complete export', async () => {
    const file = join(folder, 'kept.ndjson');
    writeFileSync(file, 'previous export\n');
    holder.sandbox.addFault(parseFaultSpec('500:path=offset=10'));
    const run = await runCliInProcess(['list', 'activity', '--all', '--format', 'ndjson', '--out', file, '--limit', '10'], env());
    assert.equal(run.code, 1);
    assert.equal(readFileSync(file, 'utf8'), 'previous export\n');
  });

  it('a file that cannot be written is refused before anything is sent, in words, and nothing is left behind', async () => {
    const aFile = join(folder, 'plain.txt');
    writeFileSync(aFile, 'x');
    const cases: Array<[string[], RegExp]> = [
      [['--format', 'csv', '--out', folder], /--out .*: it is a folder: name a file in it\./],
      [['--format', 'csv', '--out', join(folder, 'missing', 'a.csv')], /--out .*a\.csv: no such folder .*missing\./],
      [['--format', 'csv', '--out', join(aFile, 'a.csv')], /--out .*: a file stands where a folder should be\./],
      [['--record', join(folder, 'missing', 'a.har')], /--record .*a\.har: no such folder .*missing\./],
      [['--record', folder], /--record .*: it is a folder: name a file in it\./],
    ];
    for (const [args, says] of cases) {
      const before = holder.sandbox.requests.length;
      const listed = readdirSync(folder).sort();
      const run = await runCliInProcess(['list', 'activity', '--limit', '5', ...args], env());
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, says);
      // One line that says what to change: no pointer to --help after it.
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
      assert.doesNotMatch(run.stderr, /ENOENT|EISDIR|ENOTDIR/);
      assert.equal(holder.sandbox.requests.length, before, `${args.join(' ')}: nothing sent`);
      assert.deepEqual(readdirSync(folder).sort(), listed, `${args.join(' ')}: nothing left behind`);
    }
  });

  it('counts one record as one: "1 activity summary", in the list and the export', async () => {
    const table = await runCliInProcess(['list', 'activity', '--limit', '1'], env());
    assert.match(table.stdout, /^1 activity summary, of \d+, 1 page$/m);
    const file = join(folder, 'one.ndjson');
    const exported = await runCliInProcess(['list', 'body-fat', '--limit', '1', '--format', 'ndjson', '--out', file], env());
    assert.match(exported.stderr, /^1 body fat reading written to .*one\.ndjson \(ndjson, 1 page\)$/m);
  });

  it('refuses unknown formats, --out without a format and --json with another format', async () => {
    for (const [args, pattern] of [
      [['--format', 'xml'], /--format must be one of json, ndjson, csv/],
      [['--out', join(folder, 'x')], /--out needs --format/],
      [['--json', '--format', 'csv'], /cannot go with --format csv/],
    ] as const) {
      const run = await runCliInProcess(['list', 'activity', ...args], env());
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, pattern);
    }
  });
});
