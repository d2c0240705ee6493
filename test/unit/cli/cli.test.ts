// The `health-data` CLI end to end: the bundled dist/cli.js as a child process against the
// sandbox on loopback. Every run's output is searched for the secret and the token.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EventEmitter } from 'node:events';
import { PassThrough, Readable, Writable } from 'node:stream';
import { runCli } from '../../../src/cli/main';
import { runCliInProcess } from '../support/cli';
import { WORKERS_FROM_BYTES_ON_TWO_CORES, defaultJobs, workersFromBytes } from '../../../src/cli/validate';
import { Sandbox, startSandbox } from '../../../src/sandbox/server';
import { RESOURCES } from '../../../src/core/resources';
import { zoneRows } from '../../../src/core/views';
import { notWornDay, startCliSandbox } from '../support/sandbox';
import { repoRoot } from '../support/repo';

const CLI = join(repoRoot, 'dist', 'cli.js');
const SECRET = 'cli-test-secret-4f1c9a';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every run's output, with whether it asked for its token (`--show`). */
const outputs: Array<{ text: string; show: boolean }> = [];
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/;

function run(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // Decoded as a stream: a character split across two chunks stays one character.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const show = args.includes('--show');
      outputs.push({ text: stdout, show }, { text: stderr, show });
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input ?? '');
  });
}

describe('health-data CLI', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let env: NodeJS.ProcessEnv;
  const tokens: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'hde-cli-'));

  before(async () => {
    sandbox = await startSandbox({ port: 0, days: 30, seed: 'cli-tests', clientSecret: SECRET });
    env = {
      HEALTH_DATA_BASE_URL: sandbox.baseUrl,
      HEALTH_DATA_AUTH_URL: sandbox.authUrl,
      HEALTH_DATA_CLIENT_ID: sandbox.clientId,
      HEALTH_DATA_CLIENT_SECRET: SECRET,
    };
  });

  after(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
    // No run printed the secret; no run printed a token (its own or another) unless it was asked to with --show.
    // The JWT pattern below finds tokens: the --show run's (when it ran) was one.
    for (const t of tokens) assert.match(t, JWT);
    for (const { text } of outputs) assert.ok(!text.includes(SECRET), `the secret leaked into output: ${text.slice(0, 200)}`);
    for (const { text, show } of outputs) if (!show) assert.doesNotMatch(text, JWT, 'a token leaked into output');
  });

  describe('usage', () => {
    it('prints help and exits 0 with --help', async () => {
      const r = await run(['--help']);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /health-data list <resource>/);
    });

    it('exits 2 with usage on no arguments, an unknown command or an unknown flag', async () => {
      assert.equal((await run([])).code, 2);
      const unknown = await run(['frobnicate']);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /Unknown command "frobnicate"/);
      const flag = await run(['list', 'activity', '--bogus'], env);
      assert.equal(flag.code, 2);
      assert.match(flag.stderr, /bogus/);
      assert.doesNotMatch(flag.stderr, /\n\s+at /, 'no stack trace');
    });

    it('says what is wrong with an option in its own words: the option meant, where another belongs, a value missing or not taken', async () => {
      const said = async (args: string[]): Promise<string> => {
        const r = await run(args, env);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.equal(r.stdout, '');
        assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
        return r.stderr.split('\n')[0];
      };
      assert.equal(await said(['list', 'activity', '--form', 'csv']), 'health-data: Unknown option --form for list: did you mean --format?');
      assert.equal(await said(['list', 'activity', '--lmit', '3']), 'health-data: Unknown option --lmit for list: did you mean --limit?');
      assert.equal(await said(['validate', 'x.json', '--fail', 'zero']), 'health-data: Unknown option --fail for validate: did you mean --fail-on?');
      assert.equal(await said(['validate', 'x.json', '--from', '2026-01-01']), 'health-data: Unknown option --from for validate: it is an option of list, coverage and trends.');
      assert.equal(await said(['list', 'activity', '--bogus']), 'health-data: Unknown option --bogus for list.');
      assert.equal(await said(['validate', 'x.json', '-x']), 'health-data: Unknown option -x for validate.');
      assert.equal(await said(['validate', 'x.json', '--kind']), 'health-data: --kind needs a value.');
      assert.match(await said(['validate', 'x.json', '--out', '--json']), /^health-data: --out needs a value, and what follows it is another option\. .* --out=-value\.$/);
      assert.equal(await said(['token', '--show=yes']), 'health-data: --show takes no value: give it alone.');
      // A negative number is no option: the message shows where it goes, and there it is checked.
      assert.equal(await said(['list', 'activity', '--offset', '-1']), 'health-data: --offset -1: a value that starts with a dash goes after an equals sign: --offset=-1.');
      assert.equal(await said(['list', 'activity', '--offset=-1']), 'health-data: --offset must be a whole number, 0 or more, got "-1".');
      // What a terminal would run is made inert.
      assert.equal(await said(['list', 'activity', '--\u001b[31mred']), 'health-data: Unknown option --\ufffd[31mred for list.');
    });

    it('refuses credentials given as flags: there are no such flags', async () => {
      const r = await run(['token', '--client-secret', SECRET], env);
      assert.equal(r.code, 2);
    });

    it('names the missing configuration', async () => {
      const noUrl = await run(['list', 'activity'], { HEALTH_DATA_CLIENT_ID: 'x', HEALTH_DATA_CLIENT_SECRET: SECRET });
      assert.equal(noUrl.code, 2);
      assert.match(noUrl.stderr, /HEALTH_DATA_BASE_URL/);
      const noCreds = await run(['list', 'activity'], { HEALTH_DATA_BASE_URL: sandbox.baseUrl });
      assert.equal(noCreds.code, 2);
      assert.match(noCreds.stderr, /HEALTH_DATA_CLIENT_ID and HEALTH_DATA_CLIENT_SECRET/);
    });

    it('rejects bad base URLs before sending anything', async () => {
      for (const [url, pattern] of [
        ['127.0.0.1:9', /no scheme/],
        ['ftp://example.com', /http:\/\/ or https:\/\//],
        ['https://user:pw@example.com', /user name or password/],
        [`${sandbox.baseUrl}/v1`, /must not end in \/v1/],
      ] as const) {
        const r = await run(['list', 'activity', '--base-url', url], env);
        assert.equal(r.code, 2, url);
        assert.match(r.stderr, pattern);
      }
    });

    it('warns before the secret would travel over plain http to a host that is not loopback', async () => {
      const r = await run(['token', '--base-url', 'http://192.0.2.1:9', '--timeout', '300'], env);
      assert.match(r.stderr, /warning: .*plain http:\/\/ to 192\.0\.2\.1/);
    });

    it('rejects unknown resources and impossible dates with exit 2', async () => {
      const res = await run(['get', 'blood-pressure', '2026-01-01'], env);
      assert.equal(res.code, 2);
      assert.match(res.stderr, /heart-rate, activity, body-fat/);
      const date = await run(['get', 'activity', '2026-02-30'], env);
      assert.equal(date.code, 2);
      assert.match(date.stderr, /2026-02-30 is not a real calendar date/);
      const half = await run(['list', 'activity', '--to', '2026-01-01'], env);
      assert.equal(half.code, 2);
      assert.match(half.stderr, /--to needs --from \(the service takes start_date and end_date as a pair; --from alone runs to today\)/);
      const later = await run(['list', 'activity', '--from', '2999-01-01'], env);
      assert.equal(later.code, 2);
      assert.match(later.stderr, /--from 2999-01-01 is after today \(\d{4}-\d{2}-\d{2}\): give --to too for dates to come/);
      const limit = await run(['list', 'activity', '--limit', '501'], env);
      assert.equal(limit.code, 2);
      const requests = sandbox.requests.length;
      await run(['get', 'activity', '   '], env);
      assert.equal(sandbox.requests.length, requests, 'nothing was sent for a blank id');
    });

    it('names a wrong flag or argument before a missing address or secret: one fix at a time, the one in the line typed first', async () => {
      for (const [args, pattern] of [
        [['list', 'activity', '--from', '2026-03-01', '--to', '2026-02-01'], /--from 2026-03-01 is after --to 2026-02-01/],
        [['list', 'activity', '--limit', '0'], /--limit must be a whole number from 1 to 500, got "0"/],
        [['list', 'activity', '--format', 'xml'], /--format must be one of json, ndjson, csv, got "xml"/],
        [['list', 'activity', '--updated-since', 'yesterday'], /--updated-since must be a date/],
        [['get', 'activity', '2026-13-01'], /2026-13-01 is not a real calendar date/],
        [['get', 'activity'], /get activity needs an id or a date/],
        [['coverage', 'activity', '--from', '2026-03-01', '--to', '2026-02-01'], /--from 2026-03-01 is after --to 2026-02-01/],
      ] as const) {
        const r = await run([...args], {});
        assert.equal(r.code, 2, args.join(' '));
        assert.match(r.stderr, pattern, args.join(' '));
        assert.doesNotMatch(r.stderr, /HEALTH_DATA_BASE_URL|HEALTH_DATA_CLIENT_ID/, args.join(' '));
      }
      // With the flags right, the missing address is what is named.
      const right = await run(['list', 'activity', '--from', '2026-02-01', '--to', '2026-03-01'], {});
      assert.equal(right.code, 2);
      assert.match(right.stderr, /HEALTH_DATA_BASE_URL/);
    });
  });

  describe('token', () => {
    it('mints a token and prints its expiry and claims, not the token', async () => {
      const r = await run(['token'], env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /expires in\s+24h 0m/);
      assert.match(r.stdout, /sub\s+/);
      assert.doesNotMatch(r.stdout, /eyJ/);
    });

    it('prints the token with --show, and JSON with --json', async () => {
      const r = await run(['token', '--show', '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      const reply = JSON.parse(r.stdout);
      assert.match(reply.token, /^eyJ/);
      tokens.push(reply.token);
      assert.equal(reply.expiresIn, 86400);
      assert.equal(typeof reply.claims.exp, 'number');
    });

    it('fails with one line and exit 1 on a wrong secret, without the secret', async () => {
      const r = await run(['token'], { ...env, HEALTH_DATA_CLIENT_SECRET: `${SECRET}-wrong` });
      assert.equal(r.code, 1);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, /401/);
      assert.ok(!r.stderr.includes(`${SECRET}-wrong`));
    });
  });

  describe('get and list', () => {
    it('gets the activity summary of a date and marks deprecated userId', async () => {
      const date = sandbox.dataset.activity[0].date;
      const r = await run(['get', 'activity', date, '--no-color'], env);
      assert.match(r.stdout, new RegExp(`Activity ${date}`));
      assert.match(r.stdout, /userId .*\[deprecated\] userId is deprecated: use humanId/);
    });

    it('says how many activity summaries share a date, and prints each with --all', async () => {
      const date = sandbox.dataset.activity[0].date;
      const sharing = sandbox.dataset.activity.filter((a) => a.date === date);
      assert.ok(sharing.length >= 3, `only ${sharing.length} activity summaries on ${date}`);
      const sources = [...new Set(sharing.map((a) => a.source))];
      const one = await run(['get', 'activity', date, '--no-color'], env);
      assert.equal(one.code, 0, one.stderr);
      assert.equal(one.stdout.match(new RegExp(`^Activity ${date}`, 'gm'))?.length, 1);
      assert.match(one.stderr, new RegExp(`^${sharing.length} activity summaries are dated ${date} \\(sources: [^)]*\\); this is the one the service answers by date\\. Add --all to print every one\\.$`, 'm'));
      for (const s of sources) assert.ok(one.stderr.includes(s), `${s} named`);
      const all = await run(['get', 'activity', date, '--all', '--no-color'], env);
      assert.equal(all.code, 0, all.stderr);
      assert.equal(all.stdout.match(new RegExp(`^Activity ${date}`, 'gm'))?.length, sharing.length);
      assert.match(all.stdout, new RegExp(`all ${sharing.length} printed above`));
      const json = await run(['get', 'activity', date, '--all', '--json'], env);
      assert.deepEqual((JSON.parse(json.stdout) as Array<{ id: string }>).map((r) => r.id).sort(), sharing.map((a) => a.id).sort());
    });

    it('labels heart rate by which number it shows: resting, value or average', async () => {
      const r = await run(['list', 'heart-rate', '--limit', '5', '--no-color'], env);
      assert.equal(r.code === 0 || r.code === 1, true, r.stderr);
      const rows = r.stdout.split('\n').filter((l) => /^\d{4}-\d{2}-\d{2}/.test(l));
      assert.equal(rows.length, 5);
      for (const row of rows) assert.match(row, /\b(resting|value|average) \d+ bpm\b/, row);
    });

    it('marks the zero fields of a source that lacks them, fetched by id', async () => {
      const partial = sandbox.dataset.activity.find((a) => a.source === 'googlefit');
      assert.ok(partial, 'the sandbox has googlefit activity');
      const r = await run(['get', 'activity', partial.id, '--no-color'], env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /steps\s+0\s+\[zero\] 0 — this source may not provide steps/);
      assert.match(r.stdout, /vigorous\s+0\s+\[zero\]/);
    });

    it('prints a heart rate summary’s zones as the record view’s table: name, range, time in zone, calories', async () => {
      const summary = sandbox.dataset.heartRate.find((h) => Array.isArray(h.zones) && h.zones.length > 0);
      assert.ok(summary, 'the sandbox has a heart rate summary with zones');
      const r = await run(['get', 'heart-rate', summary.id, '--no-color'], env);
      const lines = r.stdout.split('\n');
      const at = lines.indexOf('  zones:');
      assert.ok(at > 0, r.stdout);
      assert.match(lines[at + 1], /^ {4}zone +range +time in zone \(h:mm\) +calories$/);
      const expected = zoneRows(summary, 'zones');
      assert.equal(expected.length, summary.zones.length);
      expected.forEach((z, i) => assert.deepEqual(lines[at + 2 + i].trim().split(/ {2,}/), [z.name, z.range, z.time, z.calories], lines[at + 2 + i]));
      // Time in zone and calories are right-aligned: each ends where its header ends.
      const header = lines[at + 1];
      const timeEnd = header.indexOf('(h:mm)') + '(h:mm)'.length;
      expected.forEach((z, i) => {
        const row = lines[at + 2 + i];
        assert.equal(row.length, header.length, `calories end under their header: ${row}`);
        assert.equal(row.slice(0, timeEnd).endsWith(z.time), true, `time in zone ends under its header: ${row}`);
      });
      // The table is for people; --json stays the record.
      const json = await run(['get', 'heart-rate', summary.id, '--json'], env);
      assert.deepEqual((JSON.parse(json.stdout) as { zones: unknown }).zones, summary.zones);
    });

    it('prints the record as JSON with --json', async () => {
      const rec = sandbox.dataset.bodyFat[0];
      const r = await run(['get', 'body-fat', rec.id, '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(rec)));
    });

    it('gets the latest body fat reading with `get body-fat` alone', async () => {
      const r = await run(['get', 'body-fat', '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      // The latest of the human the client's token concerns (the sandbox's first): another human's
      // reading may be later, depending on the day the test runs.
      const own = sandbox.dataset.bodyFat.filter((r) => r.humanId === sandbox.dataset.humans[0]);
      const latest = own.sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp))[0];
      assert.equal(JSON.parse(r.stdout).id, latest.id);
    });

    it('exits 1 and marks the error for a heart rate summary without value', async () => {
      const summaries = sandbox.dataset.heartRate as unknown as Array<Record<string, unknown>>;
      // A summary without its value: about one month in thirty has none, and then the newest goes without it for this test (the sandbox serves its dataset's objects).
      const bad = summaries.find((h) => h.value === undefined) ?? summaries[0];
      assert.ok(bad, 'the sandbox has a heart rate summary');
      const kept = { ...bad };
      delete bad.value;
      try {
        const r = await run(['get', 'heart-rate', String(bad.id), '--no-color'], env);
        assert.equal(r.code, 1);
        assert.match(r.stdout, /value\s+\(missing\)\s+\[error\]/);
      } finally {
        // Back as it was, its fields in their order.
        for (const field of Object.keys(bad)) delete bad[field];
        Object.assign(bad, kept);
      }
    });

    it('says 404 plainly for an id that does not exist', async () => {
      const r = await run(['get', 'activity', 'no/such?id#..'], env);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /404/);
      const seen = sandbox.requests.map((q) => q.path);
      assert.ok(seen.some((p) => p.endsWith('/v1/human/activities/summaries/no%2Fsuch%3Fid%23..') || p.includes('no%2Fsuch%3Fid%23')), seen.slice(-3).join(' '));
    });

    it('lists every record of a date range with --all, matching the sandbox', async () => {
      const dates = [...new Set(sandbox.dataset.activity.map((a) => a.date))].sort();
      const from = dates[dates.length - 10];
      const to = dates[dates.length - 1];
      const r = await run(['list', 'activity', '--from', from, '--to', to, '--all', '--limit', '7', '--json'], env);
      const listed = JSON.parse(r.stdout) as Array<{ id: string }>;
      const expected = sandbox.dataset.activity.filter((a) => a.date >= from && a.date <= to);
      assert.equal(listed.length, expected.length);
      assert.deepEqual(new Set(listed.map((a) => a.id)), new Set(expected.map((a) => a.id)));
    });

    it('--from alone lists to today: the service gets both dates, the second this machine\'s date', async () => {
      const dates = [...new Set(sandbox.dataset.activity.map((a) => a.date))].sort();
      const from = dates[dates.length - 5];
      const before = sandbox.requests.length;
      const r = await run(['list', 'activity', '--from', from, '--all', '--json'], env);
      assert.equal(r.code, 0, r.stderr);
      const listed = JSON.parse(r.stdout) as Array<{ id: string }>;
      const localToday = new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
      const expected = sandbox.dataset.activity.filter((a) => a.date >= from && a.date <= localToday);
      assert.ok(expected.length > 0);
      assert.deepEqual(new Set(listed.map((a) => a.id)), new Set(expected.map((a) => a.id)));
      const sent = sandbox.requests.slice(before).filter((q) => q.path.startsWith('/v1/human/activities'));
      assert.ok(sent.length > 0 && sent.every((q) => q.query.start_date === from && q.query.end_date === localToday), JSON.stringify(sent.map((q) => q.query)));
      const coverage = await run(['coverage', 'activity', '--from', from, '--json'], env);
      assert.equal(coverage.code, 0, coverage.stderr);
      const report = JSON.parse(coverage.stdout) as { from: string; to: string; records: number };
      assert.deepEqual([report.from, report.to, report.records], [from, localToday, expected.length]);
    });

    it('lists from an offset, records updated or created since a time, and one human\'s records', async () => {
      const json = async (args: string[]): Promise<Array<{ id: string; humanId: string; updatedAt: string; createdAt: string }>> => {
        const r = await run(['list', 'activity', ...args, '--json'], env);
        assert.equal(r.code, 0, r.stderr);
        return JSON.parse(r.stdout) as Array<{ id: string; humanId: string; updatedAt: string; createdAt: string }>;
      };
      const all = await json(['--all']);
      assert.deepEqual((await json(['--offset', '3', '--limit', '4'])).map((r) => r.id), all.slice(3, 7).map((r) => r.id));
      const times = all.map((r) => r.updatedAt).sort();
      const since = times[Math.floor(times.length / 2)];
      const updated = await json(['--updated-since', since, '--all']);
      assert.ok(updated.length > 0 && updated.length < all.length, `${updated.length} of ${all.length}`);
      assert.deepEqual(new Set(updated.map((r) => r.id)), new Set(all.filter((r) => Date.parse(r.updatedAt) >= Date.parse(since)).map((r) => r.id)));
      const created = await json(['--created-since', since.slice(0, 10), '--all']);
      assert.deepEqual(new Set(created.map((r) => r.id)), new Set(all.filter((r) => r.createdAt >= since.slice(0, 10)).map((r) => r.id)));
      const human = all[0].humanId;
      const mine = await json(['--human', human, '--all']);
      assert.ok(mine.length > 0 && mine.every((r) => r.humanId === human));
      assert.equal(mine.length, all.filter((r) => r.humanId === human).length);
      // The request as sent: each option its query parameter.
      const curl = await run(['list', 'activity', '--offset', '3', '--updated-since', '2026-01-01T08:00:00+01:00', '--human', 'h 1', '--curl'], env);
      assert.match(curl.stdout, /[?&]offset=3\b/);
      assert.match(curl.stdout, /[?&]updated_since=2026-01-01T08%3A00%3A00%2B01%3A00\b/);
      assert.match(curl.stdout, /[?&]humanId=h\+1\b/);
      for (const [args, says] of [
        [['--offset', 'x'], /--offset must be a whole number, 0 or more, got "x"\./],
        [['--offset=-2'], /--offset must be a whole number, 0 or more, got "-2"\./],
        [['--updated-since', 'yesterday'], /--updated-since must be a date \(YYYY-MM-DD\) or an ISO date-time .*got "yesterday"\./],
        [['--created-since', '2026-02-30'], /--created-since must be a date/],
        [['--human', ' '], /--human is empty\./],
      ] as const) {
        const r = await run(['list', 'activity', ...args], env);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, says);
      }
    });

    it('prints a table with the zero fields and a footer', async () => {
      const r = await run(['list', 'activity', '--source', 'googlefit', '--limit', '5', '--no-color'], env);
      assert.match(r.stdout, /googlefit .*\[zero\] steps,vigorous,moderate,light,sedentary/);
      assert.match(r.stdout, /5 activity summaries/);
      assert.match(r.stdout, /add --all/);
      // googlefit sends 0 steps on all five: its rows show its calories, and the table says why.
      const listed = sandbox.dataset.activity.filter((a) => a.source === 'googlefit').slice(0, 5);
      assert.ok(listed.every((a) => a.steps === 0 && a.calories > 0), 'googlefit sends calories and no steps');
      assert.match(r.stdout, /^date\s+id\s+source\s+headline\s+findings/m);
      for (const a of listed) assert.match(r.stdout, new RegExp(`^${a.date}\\s+${a.id}\\s+googlefit\\s+${a.calories.toLocaleString('en-US')} kcal\\s`, 'm'));
      assert.ok(r.stdout.includes('googlefit does not provide steps (0 on all 5 of its records listed here): its rows show kcal instead.'), r.stdout);
      // Two records are too few to say so: steps stay the headline.
      const two = await run(['list', 'activity', '--source', 'googlefit', '--limit', '2', '--no-color'], env);
      assert.match(two.stdout, /^date\s+id\s+source\s+steps\s+findings/m);
      assert.match(two.stdout, /googlefit\s+0 steps\s/);
      assert.doesNotMatch(two.stdout, /does not provide/);
      // A source that sends steps keeps them beside it.
      const all = await run(['list', 'activity', '--limit', '12', '--no-color'], env);
      assert.match(all.stdout, /fitbit\s+[\d,]+ steps\s/);
    });

    it('when a source filter leaves nothing, names the sources the same query has without it', async () => {
      const sources = [...new Set(sandbox.dataset.activity.map((a) => a.source))].sort();
      const r = await run(['list', 'activity', '--source', 'GoogleFit', '--no-color'], env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^0 activity summaries/m, r.stdout);
      assert.match(r.stderr, /No activity summaries from source "GoogleFit"\. Without --source, the same query has records from/);
      for (const source of sources) assert.ok(r.stderr.includes(source), `${source} named: ${r.stderr}`);
      // A source that has records gets no such line.
      const found = await run(['list', 'activity', '--source', 'googlefit', '--limit', '5', '--no-color'], env);
      assert.doesNotMatch(found.stderr, /Without --source/);
    });

    it('when a human filter leaves nothing, names the humans the same query has without it, most records first', async () => {
      const counts = new Map<string, number>();
      for (const a of sandbox.dataset.activity) counts.set(a.humanId, (counts.get(a.humanId) ?? 0) + 1);
      const humans = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([id]) => id);
      const short = humans[0].slice(0, 12);
      const r = await run(['list', 'activity', '--human', short, '--all', '--no-color'], env);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^0 activity summaries/m, r.stdout);
      const line = `No activity summaries of human "${short}". Without --human, the same query has records of ${humans.length} humans`;
      assert.ok(r.stderr.includes(line), r.stderr);
      assert.ok(r.stderr.includes(`most records first: ${humans.slice(0, 5).join(', ')}`), r.stderr);
      // Its source exists, the human does not: the source is dropped first, then both.
      const both = await run(['list', 'activity', '--human', short, '--source', 'fitbit', '--no-color'], env);
      assert.match(both.stderr, new RegExp(`No activity summaries of human "${short}" from source "fitbit" or any other\\. Without --human and --source, the same query has records of ${humans.length} humans`));
      // The human exists, the source is misspelt: the sources of that human's records.
      const mine = [...new Set(sandbox.dataset.activity.filter((a) => a.humanId === humans[0]).map((a) => a.source))].sort();
      const misspelt = await run(['list', 'activity', '--human', humans[0], '--source', 'nope', '--no-color'], env);
      assert.ok(misspelt.stderr.includes(`No activity summaries of human "${humans[0]}" from source "nope". Without --source, the same query has records from: ${mine.join(', ')}.`), misspelt.stderr);
      // A date range with nothing in it at all.
      const empty = await run(['list', 'activity', '--human', short, '--from', '2001-01-01', '--to', '2001-01-05', '--no-color'], env);
      assert.match(empty.stderr, /No activity summaries of human "[0-9a-f]+"\. Without --human there are none either\./);
      // A human who has records gets no such line.
      const found = await run(['list', 'activity', '--human', humans[0], '--limit', '5', '--no-color'], env);
      assert.doesNotMatch(found.stderr, /Without --human/);
    });

    it('reports a failing service in one line with the status and request id', async () => {
      sandbox.addFault({ fault: '500', path: '/body_fat', times: 1 });
      const r = await run(['get', 'body-fat'], env);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /500/);
      assert.match(r.stderr, /request id/);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    });
  });

  describe('validate', () => {
    const file = (name: string, content: string): string => {
      const p = join(dir, name);
      writeFileSync(p, content);
      return p;
    };

    it('exits 0 for valid records and 1 when one has an error, with a JSON report', async () => {
      const good = sandbox.dataset.activity.slice(0, 3);
      const bad = { ...sandbox.dataset.activity[0], steps: -1 };
      const goodFile = file('good.json', JSON.stringify(good));
      const badFile = file('bad.json', JSON.stringify(bad));
      const ok = await run(['validate', goodFile]);
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      const r = await run(['validate', goodFile, badFile, '--json']);
      assert.equal(r.code, 1);
      const report = JSON.parse(r.stdout);
      assert.equal(report.files.length, 2);
      assert.equal(report.files[0].records.length, 3);
      assert.deepEqual(Object.keys(report.files[0].records[0]).sort(), ['findings', 'id', 'index', 'kind', 'valid']);
      const badRecord = report.files[1].records[0];
      assert.equal(badRecord.valid, false);
      assert.ok(badRecord.findings.some((f: { kind: string; path: string }) => f.kind === 'error' && f.path === '/steps'));
      assert.deepEqual(Object.keys(badRecord.findings[0]).sort(), ['kind', 'message', 'path']);
    });

    it("says each 0 of a file read whole (JSON or NDJSON) from the file's other records of its source, as the Problems panel does, grouped by source in the text", async () => {
      const generated = sandbox.dataset.activity as unknown as Array<Record<string, unknown>>;
      // The sources with at least 2 records in the month: about one month in ten has a lone misfit day, said in the plain words.
      const activity = generated.filter((r) => generated.filter((o) => o.source === r.source).length >= 2);
      const googlefit = activity.filter((r) => r.source === 'googlefit');
      assert.ok(googlefit.length >= 4, `${googlefit.length} googlefit days`);
      const others = googlefit.length - 1;
      const said = (where: string) => `0 — googlefit does not provide steps: 0 on all its ${others} other records ${where}`;
      const month = file('month.json', JSON.stringify(activity, null, 2));
      const text = await run(['validate', month, '--no-color']);
      assert.equal(text.code, 0, text.stderr);
      // One group per source and field: the same words for each of the source's records.
      assert.match(text.stdout, new RegExp(`\\[zero\\] /steps  ${said('in this file')} — ${googlefit.length} records \\(#`));
      assert.doesNotMatch(text.stdout, /this source may not provide/);
      const json = JSON.parse((await run(['validate', month, '--json'])).stdout).files[0];
      const at = activity.indexOf(googlefit[0]);
      assert.equal(json.records[at].findings.find((f: { path: string }) => f.path === `/${at}/steps`)?.message, said('in this file'));
      const stdin = JSON.parse((await run(['validate', '-', '--json'], {}, JSON.stringify(activity))).stdout).files[0];
      assert.equal(stdin.records[at].findings.find((f: { path: string }) => f.path === `/${at}/steps`)?.message, said('in standard input'));
      // NDJSON of up to 16 MB says them the same way: with a byte-order mark, CRLF line ends, a
      // blank line and a line that is no record among them, every record's words are the JSON file's.
      const crlf = activity.map((r) => JSON.stringify(r));
      crlf.splice(3, 0, '', '{"id": "cut short", "steps": 0');
      const ndjson = file('month.ndjson', `\uFEFF${crlf.join('\r\n')}\r\n`);
      const lines = JSON.parse((await run(['validate', ndjson, '--json'])).stdout).files[0];
      // The line that is no record is one of no id, with its error.
      assert.equal(lines.records.filter((r: { id: string | null; valid: boolean }) => r.id === null && !r.valid).length, 1);
      const wordsOf = (records: Array<{ id: string | null; findings: Array<{ kind: string; path: string; message: string; standsOut?: boolean }> }>) =>
        records.filter((r) => r.id !== null).map((r) => r.findings.map((f) => `${r.id} ${f.kind} ${f.path.replace(/^\/\d+/, '')} ${f.message}${f.standsOut ? ' (stands out)' : ''}`));
      assert.deepEqual(wordsOf(lines.records), wordsOf(json.records));
      assert.equal(lines.records.find((r: { id: string }) => r.id === googlefit[0].id).findings.find((f: { path: string }) => f.path === '/steps')?.message, said('in this file'));
      const piped = JSON.parse((await run(['validate', '-', '--json'], {}, `${activity.map((r) => JSON.stringify(r)).join('\n')}\n`)).stdout).files[0];
      assert.equal(piped.records[at].findings.find((f: { path: string }) => f.path === '/steps')?.message, said('in standard input'));
    });

    it('a 0 that stands out among its source\'s records of a file is reported as a warning in every format (its kind stays zero) and counted in the closing line', async () => {
      const activity = sandbox.dataset.activity as unknown as Array<Record<string, unknown>>;
      const fitbit = activity.filter((r) => r.source === 'fitbit');
      assert.ok(fitbit.length >= 21, `${fitbit.length} fitbit days`);
      // A day the tracker was not worn: steps 0 where every other fitbit day has steps.
      const notWorn = notWornDay(fitbit);
      const records = [...activity, notWorn];
      const at = records.length - 1;
      const month = file('not-worn.json', JSON.stringify(records, null, 2));
      const words = `0 — unusual for fitbit: steps is not 0 on all its ${fitbit.length} other records in this file`;

      // The sandbox's month may have a 0 of its own that stands out (a quiet day's moderate minutes).
      const standingOut = (report: { files: Array<{ records: Array<{ findings: Array<{ standsOut?: boolean }> }> }> }) =>
        report.files[0].records.flatMap((r) => r.findings).filter((f) => f.standsOut === true).length;
      const before = standingOut(JSON.parse((await run(['validate', file('month-as-sent.json', JSON.stringify(activity)), '--json'])).stdout));
      const stand = (n: number) => `${n} zero${n === 1 ? ' stands' : 's stand'} out`;
      const text = await run(['validate', month, '--no-color']);
      assert.equal(text.code, 0, text.stderr);
      const lines = text.stdout.split('\n');
      assert.ok(lines[0].endsWith(`: ${records.length} records, all valid, ${stand(before + 1)}`), lines[0]);
      const unusual = lines.findIndex((l) => l.includes(words));
      assert.equal(lines[unusual], `    [zero] /steps  ${words} — #${at}`);
      // Listed before the zeros that say what a source provides, after any warning.
      const ordinary = lines.findIndex((l) => /^ {4}\[zero\] /.test(l) && !l.includes('unusual'));
      assert.ok(ordinary > unusual, text.stdout);
      assert.ok(lines.at(-2)!.endsWith(`records in 1 file, all valid, ${stand(before + 1)}`), lines.at(-2));
      // In colour, its mark is a warning's (yellow), not a zero's (cyan).
      const coloured = await run(['validate', month], { FORCE_COLOR: '1' });
      assert.match(coloured.stdout, /\x1b\[33m\[zero\]\x1b\[39m \/steps {2}0 — unusual for fitbit/);

      const json = JSON.parse((await run(['validate', month, '--json'])).stdout).files[0];
      const findings = json.records[at].findings as Array<{ kind: string; path: string; message: string; standsOut?: boolean }>;
      assert.deepEqual(findings.find((f) => f.path === `/${at}/steps`), { kind: 'zero', path: `/${at}/steps`, message: words, standsOut: true });
      assert.equal(standingOut({ files: [json] }), before + 1);

      const sarif = JSON.parse((await run(['validate', month, '--format', 'sarif'])).stdout);
      const results = sarif.runs[0].results as Array<{ ruleId: string; level: string; message: { text: string } }>;
      const result = results.find((r) => r.message.text.startsWith(words));
      assert.deepEqual([result?.ruleId, result?.level], ['zero-value', 'warning']);
      assert.equal(results.filter((r) => r.ruleId === 'zero-value' && r.level === 'warning').length, before + 1);
      assert.ok(results.filter((r) => r.level === 'warning').every((r) => r.ruleId === 'zero-value' && r.message.text.startsWith('0 — unusual for ')));

      const github = await run(['validate', month, '--format', 'github']);
      const warnings = github.stdout.split('\n').filter((l) => l.startsWith('::warning '));
      assert.equal(warnings.length, before + 1, github.stdout);
      assert.ok(warnings.every((l) => l.includes('title=Health data%3A unusual zero::0 — unusual for ')), github.stdout);
      assert.ok(warnings.some((l) => l.endsWith(`::${words} (record #${at})`)), github.stdout);
      // GitHub's note on what it shows counts it with the warnings, not the notices.
      const notices = github.stdout.split('\n').filter((l) => l.startsWith('::notice ')).length;
      assert.match(github.stderr, new RegExp(`${notices.toLocaleString('en-US')} notices written as annotations`));
    });

    it('--fail-on unusual fails on a 0 that stands out alone; --omit zero keeps it, --omit unusual leaves it out; the flags that disagree are refused', async () => {
      const activity = sandbox.dataset.activity as unknown as Array<Record<string, unknown>>;
      const fitbit = activity.filter((r) => r.source === 'fitbit');
      const records = [...activity, { ...fitbit[3], id: 'not-worn', steps: 0 }];
      const at = records.length - 1;
      const month = file('not-worn-rules.json', JSON.stringify(records, null, 2));
      const ndjsonText = (list: readonly unknown[]) => `${list.map((r) => JSON.stringify(r)).join('\n')}\n`;
      const ndjson = file('not-worn-rules.ndjson', ndjsonText(records));
      type Report = { files: Array<{ records: Array<{ findings: Array<{ kind: string; path: string; standsOut?: boolean }> }> }> };
      const unusualOf = (report: Report) => report.files[0].records.flatMap((r, i) => r.findings.filter((f) => f.standsOut === true).map((f) => `${i} ${f.path.replace(/^\/\d+/, '')}`));
      const zerosOf = (report: Report) => report.files[0].records.flatMap((r) => r.findings).filter((f) => f.kind === 'zero').length;
      const all = JSON.parse((await run(['validate', month, '--json'])).stdout) as Report;
      const standing = unusualOf(all);
      assert.ok(standing.includes(`${at} /steps`), standing.join(', '));
      const n = standing.length;
      const records1 = new Set(standing.map((s) => s.split(' ')[0])).size;

      for (const payload of [month, ndjson]) {
        // Without the flag the run passes; with it, only the records with such a 0 fail it.
        assert.equal((await run(['validate', payload, '--no-color'])).code, 0);
        const fails = await run(['validate', payload, '--no-color', '--fail-on', 'unusual']);
        assert.equal(fails.code, 1, fails.stdout);
        assert.ok(fails.stdout.trimEnd().split('\n').at(-1)!.endsWith(`, ${records1} failing on ${n} unusual zero${n === 1 ? '' : 's'}`), fails.stdout);
        // --omit zero leaves out the zeros that say what a source provides, not those that stand out (warnings in every format).
        const omitZero = JSON.parse((await run(['validate', payload, '--json', '--omit', 'zero', '--fail-on', 'unusual'])).stdout) as Report;
        assert.deepEqual(unusualOf(omitZero), standing);
        assert.equal(zerosOf(omitZero), n);
        const text = await run(['validate', payload, '--no-color', '--omit', 'zero']);
        assert.equal(text.code, 0);
        assert.match(text.stdout, /\[zero\] \/steps {2}0 — unusual for fitbit: steps is not 0 on all its \d+ other records in this file — /);
        assert.doesNotMatch(text.stdout, /does not provide/);
        const the = n === 1 ? 'the zero that stands out' : `the ${n} zeros that stand out`;
        assert.ok(text.stdout.trimEnd().endsWith(`zero findings left out (--omit; ${the} kept)`), text.stdout);
        const sarif = JSON.parse((await run(['validate', payload, '--format', 'sarif', '--omit', 'zero'])).stdout);
        assert.deepEqual(
          (sarif.runs[0].results as Array<{ ruleId: string; level: string }>).filter((r) => r.ruleId === 'zero-value').map((r) => r.level),
          standing.map(() => 'warning'),
        );
        // --omit unusual leaves them out and keeps the others; with zero, every 0 goes.
        const omitUnusual = JSON.parse((await run(['validate', payload, '--json', '--omit', 'unusual'])).stdout) as Report;
        assert.deepEqual([unusualOf(omitUnusual), zerosOf(omitUnusual)], [[], zerosOf(all) - n]);
        assert.ok((await run(['validate', payload, '--no-color', '--omit', 'deprecated,unusual'])).stdout.trimEnd().endsWith(', deprecated and unusual zero findings left out (--omit)'));
        const none = await run(['validate', payload, '--no-color', '--omit', 'zero,unusual']);
        assert.ok(none.stdout.trimEnd().endsWith('all valid, zero findings left out (--omit)'), none.stdout);
      }
      // A file over 16 MB is read as a stream. The grouped text judges its zeros from the whole
      // file once it is read, and --fail-on unusual fails on those that stand out, as for a file
      // read whole; a report that writes each record as it is read says on stderr that it cannot.
      const copies = Math.ceil((17 * 1024 * 1024) / Buffer.byteLength(ndjsonText(records)));
      const big = file('not-worn-big.ndjson', ndjsonText(records).repeat(copies));
      const streamed = await run(['validate', big, '--no-color', '--fail-on', 'unusual']);
      assert.equal(streamed.code, 1, streamed.stdout);
      assert.equal(streamed.stderr, '');
      const streamedLines = streamed.stdout.trimEnd().split('\n');
      const standOut = Number(/, (\d+) zeros stand out$/.exec(streamedLines[0])?.[1]);
      const failing = /, (\d+) failing on (\d+) unusual zeros$/.exec(streamedLines.at(-1)!);
      assert.ok(failing, streamedLines.at(-1));
      // Every not-worn day fails it; a record with several such zeros counts once.
      assert.equal(Number(failing[2]), standOut);
      assert.ok(Number(failing[1]) >= copies && Number(failing[1]) <= standOut, streamedLines.at(-1));
      // Under --omit unusual the grouped text leaves them out, and says so.
      const omitted = await run(['validate', big, '--no-color', '--omit', 'unusual']);
      assert.equal([omitted.code, omitted.stderr].join(' '), '0 ');
      assert.doesNotMatch(omitted.stdout, /stand out|unusual for/);
      assert.ok(omitted.stdout.trimEnd().endsWith(', unusual zero findings left out (--omit)'), omitted.stdout.slice(-300));
      // Under --omit zero it keeps them, and only them, as for a file read whole.
      const keptZeros = await run(['validate', big, '--no-color', '--omit', 'zero', '--fail-on', 'unusual']);
      assert.equal([keptZeros.code, keptZeros.stderr].join(' '), '1 ');
      const keptLines = keptZeros.stdout.trimEnd().split('\n');
      assert.equal(keptLines[0], streamedLines[0]);
      assert.ok(keptLines.some((l) => l.startsWith('    [zero] /steps  0 — unusual for fitbit: steps is not 0 on ')), keptZeros.stdout);
      assert.ok(keptLines.filter((l) => l.startsWith('    [zero] ')).every((l) => l.includes(' — unusual for ')), keptZeros.stdout);
      assert.equal(keptLines.at(-1), `${streamedLines.at(-1)}, zero findings left out (--omit; the ${standOut} zeros that stand out kept)`);
      // Gathered on worker threads and merged, the same report and the same failure.
      const keptOnWorkers = await run(['validate', big, '--no-color', '--omit', 'zero', '--fail-on', 'unusual', '--jobs', '3']);
      assert.deepEqual([keptOnWorkers.code, keptOnWorkers.stdout], [1, keptZeros.stdout]);
      // A report that writes each record as it is read reads such a file twice under those rules:
      // first to count its sources, then to say each record's zeros from the counts, in the words
      // and with the marks of a file read whole, before the rules apply.
      type Json = { summary?: unknown; files: Array<{ records: Array<{ findings: Array<{ kind: string; path: string; message: string; standsOut?: boolean }> }> }> };
      const jsonStreamed = await run(['validate', big, '--json', '--fail-on', 'unusual']);
      assert.equal([jsonStreamed.code, jsonStreamed.stderr].join(' '), '1 ');
      const jsonFindings = (JSON.parse(jsonStreamed.stdout) as Json).files[0].records.flatMap((r) => r.findings);
      const jsonStanding = jsonFindings.filter((f) => f.standsOut === true);
      assert.equal(jsonStanding.length, standOut);
      assert.ok(jsonStanding.every((f) => /^0 — unusual for fitbit: (steps|distance|\w+) is not 0 on \d+ of its \d+ other records in this file$/.test(f.message)), jsonStanding[0]?.message);
      const phones = records.filter((r) => r.source === 'googlefit').length * copies;
      assert.ok(jsonFindings.some((f) => f.message === `0 — googlefit does not provide steps: 0 on all its ${phones - 1} other records in this file`));
      assert.ok(!jsonFindings.some((f) => f.message.includes('this source may not provide')));
      // Spread over worker threads: the same report.
      assert.equal((await run(['validate', big, '--json', '--fail-on', 'unusual', '--jobs', '3'])).stdout, jsonStreamed.stdout);
      // --omit zero keeps the zeros that stand out, in SARIF as warnings; the text with --all-findings fails as the grouped text does.
      const sarifKept = await run(['validate', big, '--format', 'sarif', '--omit', 'zero']);
      const zeroResults = (JSON.parse(sarifKept.stdout).runs[0].results as Array<{ ruleId: string; level: string }>).filter((r) => r.ruleId === 'zero-value');
      assert.deepEqual([zeroResults.length, [...new Set(zeroResults.map((r) => r.level))]], [standOut, ['warning']]);
      assert.doesNotMatch(sarifKept.stderr, /read as a stream/);
      const allFindings = await run(['validate', big, '--no-color', '--all-findings', '--fail-on', 'unusual']);
      assert.equal([allFindings.code, allFindings.stderr].join(' '), '1 ');
      assert.equal(allFindings.stdout.trimEnd().split('\n').at(-1), streamedLines.at(-1));
      // Standard input is kept in a temporary file to be read twice, which goes afterwards.
      const temporary = join(dir, 'tmp-stdin');
      mkdirSync(temporary);
      const pipedJson = await run(['validate', '-', '--json', '--fail-on', 'unusual'], { TMPDIR: temporary }, ndjsonText(records).repeat(copies));
      assert.equal([pipedJson.code, pipedJson.stderr].join(' '), '1 ');
      const pipedStanding = (JSON.parse(pipedJson.stdout) as Json).files[0].records.flatMap((r) => r.findings).filter((f) => f.standsOut === true);
      assert.equal(pipedStanding.length, standOut);
      assert.ok(pipedStanding.every((f) => f.message.startsWith('0 — unusual for fitbit: ') && f.message.endsWith(' other records in standard input')), pipedStanding[0]?.message);
      assert.deepEqual(readdirSync(temporary), []);
      const pipedSarif = await run(['validate', '-', '--format', 'sarif', '--omit', 'zero'], { TMPDIR: temporary }, ndjsonText(records).repeat(copies));
      assert.equal((JSON.parse(pipedSarif.stdout).runs[0].results as Array<{ ruleId: string }>).filter((r) => r.ruleId === 'zero-value').length, standOut);
      // Where no copy can be made, nothing is lost: every record is read once, and stderr says what the rule could not do.
      const noCopy = await run(['validate', '-', '--json', '--fail-on', 'unusual'], { TMPDIR: join(dir, 'no-such-folder') }, ndjsonText(records).repeat(copies));
      assert.equal(noCopy.code, 0);
      assert.equal((JSON.parse(noCopy.stdout) as Json).files[0].records.length, records.length * copies);
      assert.equal(
        noCopy.stderr,
        'health-data: standard input could not be kept in a temporary file to be read twice (ENOENT; TMPDIR names the folder for such files): each of its records was judged as it was read, so --fail-on unusual found no 0 that stands out in it.\n',
      );
      // A copy cut short (files limited to 4 MB, as a full disk would cut it): what was copied is
      // read back, then the rest of standard input, every record once; the copy is removed.
      const limited = await new Promise<Run>((resolve, reject) => {
        const child = spawn('bash', ['--norc', '--noprofile', '-c', 'trap "" XFSZ; ulimit -f 4096; exec "$0" "$@"', process.execPath, CLI, 'validate', '-', '--json', '--omit', 'zero'], {
          env: { PATH: process.env.PATH, TMPDIR: temporary },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.on('error', reject);
        child.stdin.end(ndjsonText(records).repeat(copies));
      });
      assert.equal(limited.stderr, 'health-data: standard input could not be kept in a temporary file to be read twice (EFBIG; TMPDIR names the folder for such files): each of its records was judged as it was read, so --omit zero left out every 0 of it, also any that would stand out.\n');
      const limitedRecords = (JSON.parse(limited.stdout) as Json).files[0].records;
      assert.equal(limitedRecords.length, records.length * copies);
      assert.deepEqual(
        limitedRecords.map((r) => r.findings.filter((f) => f.kind !== 'zero').length),
        (JSON.parse(pipedJson.stdout) as Json).files[0].records.map((r) => r.findings.filter((f) => f.kind !== 'zero').length),
      );
      assert.deepEqual(readdirSync(temporary), []);
      // Ctrl-C while standard input is being copied: the copy goes too, and the run ends as Ctrl-C ends it.
      const interrupted = spawn(process.execPath, [CLI, 'validate', '-', '--json', '--fail-on', 'unusual'], { env: { PATH: process.env.PATH, TMPDIR: temporary }, stdio: ['pipe', 'ignore', 'ignore'] });
      const ended = new Promise<NodeJS.Signals | null>((resolve) => interrupted.on('close', (_code, signal) => resolve(signal)));
      // What the child had not read when it ended is refused (EPIPE): expected, not a failure.
      interrupted.stdin.on('error', () => undefined);
      // More than 16 MB, and standard input left open: the copy is under way and waits for more.
      interrupted.stdin.write(ndjsonText(records).repeat(copies));
      const copyOf = () => readdirSync(temporary).flatMap((d) => readdirSync(join(temporary, d)));
      for (let i = 0; i < 200 && !copyOf().includes('standard input'); i++) await new Promise((r) => setTimeout(r, 50));
      assert.deepEqual(copyOf(), ['standard input']);
      interrupted.kill('SIGINT');
      assert.equal(await ended, 'SIGINT');
      assert.deepEqual(readdirSync(temporary), []);
      // The grouped text says a streamed file's zeros from the file's other records of their source,
      // as it says those of a file read whole: the not-worn day stands out among fitbit's days.
      const plain = await run(['validate', big, '--no-color']);
      assert.equal(plain.stderr, '');
      const fitbits = (fitbit.length + 1) * copies;
      const lines = plain.stdout.split('\n');
      // (The sandbox's month may have zeros of its own that stand out: at least the not-worn days do.)
      const standsOut = new RegExp(`: ${records.length * copies} records, all valid, (\\d+) zeros stand out$`).exec(lines[0]);
      assert.ok(standsOut && Number(standsOut[1]) >= copies, lines[0]);
      assert.ok(lines.includes(`    [zero] /steps  0 — unusual for fitbit: steps is not 0 on ${fitbit.length * copies} of its ${fitbits - 1} other records in this file — ${copies} records (#${at}, #${at + records.length}, #${at + 2 * records.length}, #${at + 3 * records.length}, #${at + 4 * records.length}, …)`), plain.stdout);
      // Every source's zeros of a field it never sends, in the words a file read whole has.
      const phone = records.filter((r) => r.source === 'googlefit').length * copies;
      assert.ok(lines.some((l) => l.startsWith(`    [zero] /steps  0 — googlefit does not provide steps: 0 on all its ${phone - 1} other records in this file — ${phone} records (`)), plain.stdout);
      assert.ok(!lines.some((l) => l.includes('this source may not provide')), plain.stdout);
      // Counted on worker threads and merged, the same words.
      const workers = await run(['validate', big, '--no-color', '--jobs', '3']);
      assert.equal(workers.stdout, plain.stdout);
      // Standard input read as a stream says where its records are.
      const piped = await run(['validate', '-', '--no-color'], {}, ndjsonText(records).repeat(copies));
      assert.ok(piped.stdout.includes(`0 — unusual for fitbit: steps is not 0 on ${fitbit.length * copies} of its ${fitbits - 1} other records in standard input`), piped.stdout.slice(0, 3000));
      // --fail-on zero counts a 0 that stands out as a zero.
      const zero = await run(['validate', month, '--no-color', '--fail-on', 'zero,unusual']);
      assert.match(zero.stdout.trimEnd().split('\n').at(-1)!, new RegExp(`failing on ${zerosOf(all)} zero$`));
      for (const [flags, says] of [
        [['--omit', 'unusual', '--fail-on', 'unusual'], '--omit unusual and --fail-on unusual cannot go together: the run would fail on findings the report leaves out.'],
        [['--omit', 'unusual', '--fail-on', 'zero'], '--omit unusual and --fail-on zero cannot go together: a 0 that stands out is a zero, so the run would fail on findings the report leaves out.'],
        [['--omit', 'zero', '--fail-on', 'zero'], '--omit zero and --fail-on zero cannot go together: the run would fail on findings the report leaves out.'],
        [['--fail-on', 'unusal'], '--fail-on takes error, warning, zero, deprecated, unknown, unusual (one or more, comma-separated), not "unusal".'],
        [['--omit', 'odd'], '--omit takes warning, zero, deprecated, unknown, unusual (one or more, comma-separated), not "odd".'],
      ] as const) {
        const r = await run(['validate', month, ...flags]);
        assert.equal(r.code, 2, flags.join(' '));
        assert.equal(r.stderr.split('\n')[0], `health-data: ${says}`);
      }
    });

    it('a folder stands for its .json, .ndjson and .jsonl files at any depth, in name order, not for the report written into it', async () => {
      const folder = join(dir, 'fixtures');
      const at = (path: string, content: string) => {
        mkdirSync(dirname(join(folder, path)), { recursive: true });
        writeFileSync(join(folder, path), content);
      };
      at('b.json', JSON.stringify(sandbox.dataset.activity.slice(0, 2)));
      at('a/records.ndjson', sandbox.dataset.bodyFat.slice(0, 3).map((r) => JSON.stringify(r)).join('\n'));
      // A summary with its value, so the folder is valid: about one day in ten the sandbox leaves it out.
      at('a/Upper.JSONL', JSON.stringify(sandbox.dataset.heartRate.find((h) => typeof h.value === 'number')));
      at('notes.txt', 'not a payload');
      at('.git/config.json', '{}');
      at('node_modules/pkg/package.json', '{}');
      mkdirSync(join(folder, 'empty'));
      symlinkSync(folder, join(folder, 'a', 'loop'));
      const report = join(folder, 'report.json');
      for (let i = 0; i < 2; i++) {
        // The second time the report of the first is there: it is not read as a payload.
        const r = await run(['validate', folder, '--format', 'json', '--out', report]);
        assert.equal(r.code, 0, r.stdout + r.stderr);
        const files = (JSON.parse(readFileSync(report, 'utf8')) as { files: Array<{ file: string; records: unknown[] }> }).files;
        assert.deepEqual(
          files.map((f) => [f.file, f.records.length]),
          [[join(folder, 'a', 'Upper.JSONL'), 1], [join(folder, 'a', 'records.ndjson'), 3], [join(folder, 'b.json'), 2]],
        );
      }
      // Named, the report is refused as a payload; a folder with no payload says so.
      const named = await run(['validate', report, '--out', report]);
      assert.equal(named.code, 2);
      const empty = await run(['validate', join(folder, 'empty'), '--no-color']);
      assert.equal(empty.code, 1);
      assert.match(empty.stdout, /empty is a folder with no \.json, \.ndjson or \.jsonl files in it/);
      assert.match(empty.stdout, /^0 records in 1 file, 1 file not validated$/m);
      // Coverage takes folders too.
      const coverage = await run(['coverage', join(folder, 'a'), '--json']);
      assert.equal(coverage.code, 0, coverage.stderr);
      assert.deepEqual((JSON.parse(coverage.stdout) as Array<{ resource: string; records: number }>).map((c) => [c.resource, c.records]), [['heart-rate', 1], ['body-fat', 3]]);
    });

    it('gives a clear message for files that are missing, empty or not JSON, and goes on with the rest', async () => {
      const good = file('one.json', JSON.stringify(sandbox.dataset.bodyFat[0]));
      const r = await run(['validate', join(dir, 'missing.json'), file('empty.json', '  '), file('broken.json', '{"id": '), good, '--no-color']);
      assert.equal(r.code, 1);
      assert.match(r.stdout, /missing\.json does not exist/);
      assert.match(r.stdout, /empty\.json is empty/);
      assert.match(r.stdout, /broken\.json is not valid JSON/);
      assert.match(r.stdout, /record Body fat reading/);
    });

    it('a list with a comma missing between two records: every record it holds whole, after the break too, then where it is, as the editor shows them; coverage counts the same', async () => {
      const records = sandbox.dataset.activity.slice(0, 5).map((r, i) => (i === 3 ? { ...r, steps: -1 } : r));
      const whole = JSON.stringify(records, null, 2);
      // The comma after record #1 is gone: the list no longer splits into records there.
      const comma = whole.indexOf('\n  },', whole.indexOf(`"id": ${JSON.stringify(records[1].id)}`)) + '\n  }'.length;
      const broken = file('comma-missing.json', whole.slice(0, comma) + whole.slice(comma + 1));
      const line = whole.slice(0, comma).split('\n').length + 1;
      const json = await run(['validate', broken, '--json']);
      assert.equal(json.code, 1);
      const report = JSON.parse(json.stdout) as { files: Array<{ error?: string; records: Array<{ index: number; id: string; valid: boolean; findings: Array<{ path: string }> }> }> };
      assert.deepEqual(report.files[0].records.map((r) => [r.index, r.id, r.valid]), records.map((r, i) => [i, r.id, i !== 3]));
      assert.ok(report.files[0].records[3].findings.some((f) => f.path === '/3/steps'));
      assert.equal(report.files[0].error, `${broken} is not valid JSON (a comma is expected at line ${line}, column 3)`);
      // The grouped text: the records' summary, then the error; every finding at its line with --all-findings.
      const grouped = await run(['validate', broken, '--no-color']);
      assert.match(grouped.stdout, /comma-missing\.json: 5 records, 1 invalid\n[^]*\n\[error\] \S*comma-missing\.json is not valid JSON \(a comma is expected[^\n]*\n5 records in 1 file, 1 invalid, 1 file validated only in part\n$/);
      const text = await run(['validate', broken, '--no-color', '--all-findings']);
      const stepsLine = whole.split('\n').findIndex((l) => l.includes('"steps": -1')) + 1;
      assert.match(text.stdout, new RegExp(`\\[error\\] /3/steps \\(line ${stepsLine}, column 5\\)`));
      const coverage = await run(['coverage', broken, '--json']);
      assert.equal(coverage.code, 1);
      assert.equal((JSON.parse(coverage.stdout) as { records: number }).records, 5);
      assert.match(coverage.stderr, new RegExp(`comma-missing\\.json is not valid JSON \\(a comma is expected at line ${line}, column 3\\)`));
      // A comma missing inside record #1: the other records, and the error at its place; coverage counts the same four.
      const idLine = whole.indexOf(`"id": ${JSON.stringify(records[1].id)},`);
      const inside = whole.indexOf(',', idLine);
      const one = file('comma-missing-inside.json', whole.slice(0, inside) + whole.slice(inside + 1));
      const within = JSON.parse((await run(['validate', one, '--json'])).stdout) as typeof report;
      assert.deepEqual(within.files[0].records.map((r) => [r.index, r.valid]), [[0, true], [2, true], [3, false], [4, true]]);
      assert.match(within.files[0].error ?? '', /is not valid JSON \(a comma is expected at line \d+, column 5\)$/);
      const counted = await run(['coverage', one, '--json']);
      assert.equal((JSON.parse(counted.stdout) as { records: number }).records, 4);
      assert.match(counted.stderr, /comma-missing-inside\.json is not valid JSON \(a comma is expected at line \d+, column 5\)/);
    });

    it('a file cut short inside a string: its records before the cut are validated, and the message names where the string opens', async () => {
      const records = sandbox.dataset.activity.slice(0, 3);
      const whole = JSON.stringify(records, null, 2);
      // Cut inside the third record's id: the text ends in an open string.
      const idAt = whole.lastIndexOf('"id": "') + '"id": "'.length;
      const cut = file('cut-in-string.json', whole.slice(0, idAt + 4));
      const lines = whole.slice(0, idAt).split('\n');
      const [line, column] = [lines.length, lines.at(-1)!.length];
      const text = await run(['validate', cut, '--no-color']);
      assert.equal(text.code, 1);
      assert.match(text.stdout, new RegExp(`cut-in-string\\.json is not valid JSON \\(the string opened at line ${line}, column ${column} is not closed, and \\d+ more\\)`));
      const json = await run(['validate', cut, '--json']);
      const report = JSON.parse(json.stdout) as { files: Array<{ error?: string; records: Array<{ id: string | null }> }> };
      assert.deepEqual(report.files[0].records.map((r) => r.id), records.slice(0, 2).map((r) => r.id));
      assert.match(report.files[0].error ?? '', /is not valid JSON \(the string opened at/);
      // The coverage of the same file counts the same two records.
      const coverage = await run(['coverage', cut, '--json']);
      assert.equal(coverage.code, 1);
      assert.equal((JSON.parse(coverage.stdout) as { records: number }).records, 2);
    });

    type SarifRun = { results: Array<{ level: string; locations?: Array<{ physicalLocation: { region?: Record<string, number> }; logicalLocations?: Array<{ fullyQualifiedName: string }> }> }> };
    /** The SARIF region of the first error about each JSON Pointer in a one-file run. */
    const regions = (sarif: string): Map<string, Record<string, number> | undefined> => {
      const byPointer = new Map<string, Record<string, number> | undefined>();
      for (const r of (JSON.parse(sarif) as { runs: SarifRun[] }).runs[0].results) {
        const location = r.locations?.[0];
        const pointer = location?.logicalLocations?.[0]?.fullyQualifiedName;
        if (r.level === 'error' && pointer !== undefined && !byPointer.has(pointer)) byPointer.set(pointer, location!.physicalLocation.region);
      }
      return byPointer;
    };

    it('reads an array, a wrapped list and NDJSON as records; --jobs 2 (worker threads) reports what --jobs 1 does; NDJSON is placed by line and column', async () => {
      const records = sandbox.dataset.activity.slice(0, 5).map((r, i) => (i === 3 ? { ...r, steps: -1 } : r));
      const lines = records.map((r) => JSON.stringify(r));
      const inputs = [
        file('list.json', JSON.stringify(records, null, 2)),
        file('wrapped.json', JSON.stringify({ data: records, links: { next: null } })),
        file('records.ndjson', `${lines.join('\n')}\n`),
      ];
      const one = await run(['validate', ...inputs, '--json', '--jobs', '1']);
      const two = await run(['validate', ...inputs, '--json', '--jobs', '2']);
      assert.equal(one.code, 1);
      assert.equal(two.code, 1);
      assert.deepEqual(JSON.parse(two.stdout), JSON.parse(one.stdout));
      const [list, wrapped, ndjson] = JSON.parse(one.stdout).files;
      for (const f of [list, wrapped, ndjson]) {
        assert.deepEqual(f.records.map((r: { index: number; valid: boolean }) => [r.index, r.valid]), [[0, true], [1, true], [2, true], [3, false], [4, true]], JSON.stringify(f).slice(0, 400));
      }
      const steps = (f: { records: Array<{ findings: Array<{ path: string }> }> }) => f.records[3].findings.find((x) => x.path.endsWith('/steps'))!;
      assert.equal(steps(list).path, '/3/steps');
      assert.equal(steps(wrapped).path, '/data/3/steps');
      assert.equal(steps(ndjson).path, '/steps');
      // NDJSON (which the editor does not read) is streamed: the finding is placed at the start of
      // "steps" on the fourth line, an empty region with no character offset.
      const sarif = await run(['validate', inputs[2], '--format', 'sarif', '--jobs', '2']);
      const column = lines[3].indexOf('"steps"') + 1;
      assert.deepEqual(regions(sarif.stdout).get('/steps'), { startLine: 4, startColumn: column, endLine: 4, endColumn: column });
      const text = await run(['validate', inputs[2], '--no-color', '--all-findings']);
      assert.match(text.stdout, new RegExp(`#3 Activity summary \\S+[^\\n]*: invalid .*\\n\\s+\\[error\\] /steps \\(line 4, column ${column}\\)  steps must be ≥ 0`));
      assert.match(text.stdout, /5 records in 1 file, 1 invalid/);
      const bad = await run(['validate', inputs[0], '--jobs', '0']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--jobs must be a whole number from 1 to 256, got "0"\./);
      const many = await run(['validate', inputs[0], '--jobs', '257']);
      assert.equal(many.code, 2);
      assert.match(many.stderr, /--jobs must be a whole number from 1 to 256, got "257"\./);
      assert.equal((await run(['validate', inputs[0], '--jobs', '256', '--json'])).code, (await run(['validate', inputs[0], '--json'])).code);
    });

    it('NDJSON with blank lines, CRLF, a line that is no JSON, multi-byte text and a last line cut short: the same report with one job or two, each record at its line', async () => {
      const base = sandbox.dataset.activity.slice(0, 4);
      const lines = [
        JSON.stringify({ ...base[0], id: 'é😀-0' }) + '\r',
        '',
        JSON.stringify({ ...base[1], steps: -1 }),
        ' \t\r',
        'not json "ü"',
        JSON.stringify({ ...base[2], id: 'ü-2' }) + '\r',
        JSON.stringify(base[3]).slice(0, 30),
      ];
      const input = file('edges.ndjson', lines.join('\n'));
      const one = await run(['validate', input, '--json', '--jobs', '1']);
      const two = await run(['validate', input, '--json', '--jobs', '2']);
      assert.equal(one.code, 1);
      assert.equal(two.stdout, one.stdout);
      // SARIF, JUnit and GitHub are written on the workers too (a batch crosses as bytes): the same text.
      for (const format of ['sarif', 'junit', 'github']) {
        const [inPlace, onWorkers] = await Promise.all(['1', '2'].map((jobs) => run(['validate', input, '--format', format, '--jobs', jobs])));
        assert.equal(onWorkers.code, 1, format);
        assert.equal(onWorkers.stdout, inPlace.stdout, format);
        // The multi-byte id (SARIF's properties, JUnit's case names) and the line that is no JSON, at its line.
        if (format !== 'github') assert.match(onWorkers.stdout, /é😀-0/, format);
        assert.match(onWorkers.stdout, /line=5,|"startLine":5,|line 5, column 1/, format);
      }
      const records = JSON.parse(one.stdout).files[0].records as Array<{ index: number; id: string | null; valid: boolean; findings: Array<{ path: string; message: string }> }>;
      assert.deepEqual(records.map((r) => [r.index, r.id, r.valid]), [[0, 'é😀-0', true], [1, base[1].id, false], [2, null, false], [3, 'ü-2', true], [4, null, false]]);
      assert.match(records[2].findings[0].message, /^the record is not valid JSON/);
      // Placed by line (blank lines counted, CRLF one line end): /steps on line 3, the bad lines on 5 and 7.
      const text = await run(['validate', input, '--no-color', '--all-findings', '--jobs', '2']);
      assert.match(text.stdout, /\/steps \(line 3, column \d+\)/);
      assert.match(text.stdout, /#2 [^\n]*\n\s+\[error\] \(record\) \(line 5, column 1\)  the record is not valid JSON/);
      assert.match(text.stdout, /#4 [^\n]*\n\s+\[error\] \(record\) \(line 7, column 1\)  the record is not valid JSON/);
    });

    it('without --jobs, starts no worker thread for files that add up to less than workers save time on (128 MB on two cores); --jobs 2 starts them for a streamed file; the report is the same', async function () {
      this.timeout(60_000);
      const lines = sandbox.dataset.activity.slice(0, 40).map((r) => JSON.stringify(r));
      const input = file('few.ndjson', `${lines.join('\n')}\n`);
      // Over 16 MB: streamed (a smaller file is read whole, in the CLI's own thread, whatever --jobs says).
      const block = `${lines.join('\n')}\n`;
      const streamed = file('many.ndjson', block.repeat(Math.ceil((17 * 1024 * 1024) / Buffer.byteLength(block))));
      // The CLI runs in a process of its own: a preload notes each worker thread it starts.
      const started = join(dir, 'workers-started.txt');
      const preload = file('count-workers.js', `process.on('worker', () => require('node:fs').appendFileSync(${JSON.stringify(started)}, 'w'));`);
      const workers = (): number => (existsSync(started) ? readFileSync(started, 'utf8').length : 0);
      const env = { NODE_OPTIONS: `--require ${JSON.stringify(preload)}` };
      const byDefault = await run(['validate', input, streamed, '--no-color'], env);
      assert.equal(workers(), 0, 'a worker started for files under 128 MB');
      const small = await run(['validate', input, '--json', '--jobs', '2'], env);
      assert.equal(small.code, 0, small.stderr);
      assert.equal(workers(), 0, 'a worker started for a file read whole');
      const two = await run(['validate', input, streamed, '--no-color', '--jobs', '2'], env);
      assert.ok(workers() >= 1, 'no worker started with --jobs 2');
      assert.match(two.stdout, /many\.ndjson: \d+ records/);
      assert.equal(byDefault.stdout, two.stdout);
      assert.equal(byDefault.code, two.code);
      // The sizes decide (files that would take long to write are sparse here: only their size is read).
      const sized = (name: string, bytes: number): string => {
        const path = file(name, '');
        truncateSync(path, bytes);
        return path;
      };
      const mb = 1024 * 1024;
      assert.equal(WORKERS_FROM_BYTES_ON_TWO_CORES, 128 * mb);
      assert.deepEqual([2, 3, 4, 9].map(workersFromBytes), [128 * mb, 64 * mb, Math.ceil((128 * mb) / 3), 16 * mb]);
      assert.equal(await defaultJobs([input], 2), 1);
      assert.equal(await defaultJobs([sized('a.ndjson', 100 * mb), sized('b.ndjson', 28 * mb - 1)], 2), 1, 'one byte short');
      assert.equal(await defaultJobs([sized('c.ndjson', 100 * mb), sized('d.ndjson', 28 * mb)], 2), 2, 'together 128 MB');
      assert.equal(await defaultJobs([sized('e.ndjson', 64 * mb)], 3), 3, 'three cores: from 64 MB');
      assert.equal(await defaultJobs([sized('f.ndjson', 64 * mb - 1)], 3), 1);
      assert.equal(await defaultJobs([sized('g.ndjson', 1024 * mb)], 1), 1, 'one core: one job');
      assert.equal(await defaultJobs([input, '-'], 3), 3, 'standard input: its size is not known ahead');
      assert.equal(await defaultJobs([join(dir, 'missing.ndjson'), input], 2), 1, 'a file that cannot be read counts for nothing');
    });

    it("shows a streamed file's progress on a terminal's stderr (validate and coverage), cleared when it is read; none on a pipe; the report the same", async function () {
      this.timeout(120_000);
      const lines = `${sandbox.dataset.activity.slice(0, 200).map((r) => JSON.stringify(r)).join('\n')}\n`;
      const big = file('progress.ndjson', lines.repeat(Math.ceil((17 * 1024 * 1024) / Buffer.byteLength(lines))));
      const size = Math.round(statSync(big).size / (1024 * 1024));
      const piped = await runCliInProcess(['validate', big, '--no-color', '--jobs', '1']);
      assert.doesNotMatch(piped.stderr, /validating/);
      const shown = await runCliInProcess(['validate', big, '--no-color', '--jobs', '1'], {}, undefined, undefined, { stderr: true });
      assert.equal(shown.stdout, piped.stdout);
      assert.equal(shown.code, piped.code);
      const lineShown = new RegExp(`^\\r\\u001b\\[Kvalidating progress\\.ndjson: \\d+ of ${size} MB \\(\\d+ %\\)$`);
      const drawn = shown.stderr.split(/(?=\r\u001b\[K)/);
      assert.ok(drawn.length >= 2, JSON.stringify(shown.stderr));
      for (const d of drawn.slice(0, -1)) assert.match(d, lineShown);
      // Cleared once the file is read: the last thing written is the clear.
      assert.equal(drawn[drawn.length - 1], '\r\u001b[K');
      // coverage over the same file says it is counting, and clears the line before its table.
      const counted = await runCliInProcess(['coverage', big], {}, undefined, undefined, { stderr: true });
      const plain = await runCliInProcess(['coverage', big]);
      assert.equal(counted.stdout, plain.stdout);
      assert.match(plain.stdout, /activity/i);
      const countedLines = counted.stderr.split(/(?=\r\u001b\[K)/);
      assert.ok(countedLines.length >= 2, JSON.stringify(counted.stderr));
      for (const d of countedLines.slice(0, -1)) assert.match(d, new RegExp(`^\\r\\u001b\\[Kcounting progress\\.ndjson: \\d+ of ${size} MB \\(\\d+ %\\)$`));
      assert.equal(countedLines[countedLines.length - 1], '\r\u001b[K');
      assert.equal(plain.stderr, '');
    });

    it('streams a file over 16 MB over worker threads: every format gets its records, each finding at the line and column where it starts', async function () {
      // Nine runs of the CLI over 30 MB: minutes on a loaded two-core machine. A limit, not a measure.
      this.timeout(600_000);
      const base = sandbox.dataset.activity;
      const count = 60_000;
      const records = Array.from({ length: count }, (_, i) => ({ ...base[i % base.length], id: `big-${i}`, ...(i === 7 || i === count - 1 ? { steps: -1 } : {}) }));
      const content = JSON.stringify(records, null, 2);
      assert.ok(Buffer.byteLength(content) > 16 * 1024 * 1024, `${Buffer.byteLength(content)} bytes`);
      const big = file('big-list.json', content);
      // Reports go to files (--out): tens of megabytes are no test output to search.
      const report = async (format: string, jobs: string): Promise<string> => {
        const out = join(dir, `big-report-${jobs}.${format}`);
        const r = await run(['validate', big, '--format', format, '--jobs', jobs, '--out', out, '--no-color']);
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stdout, new RegExp(`^${count} records in 1 file, 2 invalid; ${format} report written to `));
        return readFileSync(out, 'utf8');
      };
      const two = await report('json', '2');
      assert.equal(two, await report('json', '1'));
      const streamed = JSON.parse(two).files[0];
      assert.equal(streamed.records.length, count);
      assert.deepEqual(streamed.records.filter((r: { valid: boolean }) => !r.valid).map((r: { index: number }) => r.index), [7, count - 1]);
      // The same findings as the whole-file path gives for the same record read alone.
      const alone = JSON.parse((await run(['validate', file('one-bad.json', JSON.stringify([records[7]])), '--json'])).stdout).files[0].records[0];
      assert.deepEqual(
        streamed.records[7].findings.map((f: { kind: string; path: string; message: string }) => [f.kind, f.path, f.message]),
        alone.findings.map((f: { kind: string; path: string; message: string }) => [f.kind, f.path.replace(/^\/0/, '/7'), f.message]),
      );
      const sarif = await report('sarif', '2');
      assert.equal(sarif, await report('sarif', '1'));
      const textLines = content.split('\n');
      for (const [index, pointer] of [[7, '/7/steps'], [count - 1, `/${count - 1}/steps`]] as const) {
        const opening = textLines.lastIndexOf('  {', textLines.indexOf(`    "id": "big-${index}",`));
        const line = textLines.findIndex((l, i) => i > opening && l.includes('"steps": -1'));
        const column = textLines[line].indexOf('"steps"') + 1;
        assert.deepEqual(regions(sarif).get(pointer), { startLine: line + 1, startColumn: column, endLine: line + 1, endColumn: column }, pointer);
      }
      assert.equal(((await report('github', '2')).match(/^::error /gm) ?? []).length, 2);
      const junit = await report('junit', '2');
      assert.equal((junit.match(/<failure /g) ?? []).length, 2);
      assert.equal((junit.match(/<testsuite /g) ?? []).length, count / 10_000, 'a suite per 10,000 records');
      // The grouped text, gathered on the workers, is what one job gathers in place.
      const text = await report('text', '2');
      assert.equal(text, await report('text', '1'));
      assert.match(text, new RegExp(`big-list\\.json: ${count} records, 2 invalid\n  #7 Activity summary big-7 .*\n  #${count - 1} Activity summary big-${count - 1} `));
      assert.match(text, new RegExp(`\\[error\\] /steps .* — 2 records \\(#7, #${count - 1}\\)$`, 'm'));
      assert.match(text, new RegExp(`\\[deprecated\\] /userId .* — all ${count} records$`, 'm'));
    });

    it('streams a list over 16 MB that lacks commas or has one too many: every record, after each break too, then the first break and a count of the rest', async function () {
      this.timeout(600_000);
      const base = sandbox.dataset.activity;
      const count = 60_000;
      const records = Array.from({ length: count }, (_, i) => ({ ...base[i % base.length], id: `gap-${i}`, ...(i === 40_000 ? { steps: -1 } : {}) }));
      let content = JSON.stringify(records, null, 2);
      assert.ok(Buffer.byteLength(content) > 16 * 1024 * 1024, `${Buffer.byteLength(content)} bytes`);
      /** The offset of the comma after record #i. */
      const commaAfter = (i: number): number => content.indexOf('\n  },', content.indexOf(`"id": "gap-${i}"`)) + '\n  }'.length;
      // Commas gone after #2 (in the first chunk read) and #30000, one doubled after #50000, and one gone inside #45000.
      const doubled = commaAfter(50_000);
      content = `${content.slice(0, doubled)},${content.slice(doubled)}`;
      const inside = content.indexOf(',', content.indexOf('"id": "gap-45000"'));
      content = content.slice(0, inside) + content.slice(inside + 1);
      // The first break: the next record's "{", on the line after the "}" that lacks its comma.
      const firstLine = content.slice(0, commaAfter(2)).split('\n').length + 1;
      for (const i of [30_000, 2]) {
        const at = commaAfter(i);
        content = content.slice(0, at) + content.slice(at + 1);
      }
      const gaps = file('gaps-list.json', content);
      const json = await run(['validate', gaps, '--json', '--jobs', '2']);
      assert.equal(json.code, 1, json.stderr);
      const report = JSON.parse(json.stdout).files[0] as { error: string; records: Array<{ index: number; id: string | null; valid: boolean; findings: Array<{ path: string; message: string }> }> };
      assert.equal(report.records.length, count);
      assert.deepEqual(report.records.map((r) => r.index), records.map((_, i) => i));
      assert.deepEqual(report.records.filter((_, i) => i !== 45_000).map((r) => r.id), records.filter((_, i) => i !== 45_000).map((r) => r.id));
      assert.ok(report.records[40_000].findings.some((f) => f.path === '/40000/steps'));
      assert.match(report.records[45_000].findings[0].message, /^the record is not valid JSON \(a comma is expected/);
      assert.equal(report.error, `${gaps} is not valid JSON (a comma is expected at line ${firstLine}, column 3, and 2 more)`);
      assert.equal((report as { partial?: boolean }).partial, true, 'its records came before the error');
      // Its records were validated, batch by batch on the workers, before the error: the file is
      // validated in part, not "not validated", in the closing line and in GitHub's title.
      const closing = join(dir, 'gaps-report.txt');
      const text = await run(['validate', gaps, '--no-color', '--jobs', '2', '--out', closing]);
      assert.match(text.stdout, new RegExp(`^${count} records in 1 file, 2 invalid, 1 file validated only in part; text report written to `));
      const annotations = join(dir, 'gaps-report.github');
      await run(['validate', gaps, '--format', 'github', '--jobs', '2', '--out', annotations]);
      const fileLines = readFileSync(annotations, 'utf8').split('\n').filter((l) => l.includes('title=Health data%3A file'));
      assert.deepEqual(fileLines.map((l) => /title=([^:]*)::/.exec(l)?.[1]), ['Health data%3A file validated only in part']);
      const coverage = await run(['coverage', gaps, '--json']);
      assert.equal(coverage.code, 1);
      assert.equal((JSON.parse(coverage.stdout) as { records: number }).records, count - 1);
      assert.match(coverage.stderr, new RegExp(`gaps-list\\.json is not valid JSON \\(a comma is expected at line ${firstLine}, column 3, and 2 more\\)`));
      // What no reading can go past (a brace that closes nothing) stops the file there; the
      // records before it, in the same chunk read as it too, are reported.
      const stray = file('stray-brace.json', `${content.slice(0, commaAfter(5) + 1)} },${content.slice(commaAfter(5) + 1)}`);
      const stopped = JSON.parse((await run(['validate', stray, '--json'])).stdout).files[0] as typeof report;
      assert.deepEqual(stopped.records.map((r) => r.id), records.slice(0, 6).map((r) => r.id));
      assert.match(stopped.error, /is not valid JSON \(a comma is expected at line \d+, column 3, and 1 more\)$/);
    });

    it('waits for a slow reader of its report: reading the input no further ahead, then finishing it whole', async function () {
      this.timeout(300_000);
      // 48 MB of NDJSON on standard input (past 16 MB it is streamed), counted as it is taken.
      const lines = `${sandbox.dataset.activity.slice(0, 500).map((r) => JSON.stringify(r)).join('\n')}\n`;
      const block = Buffer.from(lines.repeat(Math.ceil((256 * 1024) / lines.length)));
      const blocks = Math.ceil((48 * 1024 * 1024) / block.length);
      let taken = 0;
      const stdin = Readable.from(
        (function* () {
          for (let i = 0; i < blocks; i++) {
            taken += block.length;
            yield block;
          }
        })(),
      );
      // A reader that takes nothing until released, then everything.
      let stalled = true;
      const held: Array<() => void> = [];
      const chunks: Buffer[] = [];
      const stdout = new Writable({
        highWaterMark: 64 * 1024,
        write(chunk: Buffer, _encoding, done) {
          chunks.push(chunk);
          if (stalled) held.push(done);
          else done();
        },
      });
      const stderr = new PassThrough();
      const running = runCli(['validate', '-', '--json', '--jobs', '2'], { stdout, stderr, stdin, env: {}, signals: new EventEmitter() });
      // Until the input stops being taken.
      for (let last = -1; taken !== last; ) {
        last = taken;
        await new Promise((r) => setTimeout(r, 500));
      }
      const total = blocks * block.length;
      assert.ok(taken < 24 * 1024 * 1024, `${taken} of ${total} bytes taken while the report's reader took nothing`);
      stalled = false;
      for (const done of held.splice(0)) done();
      assert.equal(await running, 0);
      assert.equal(taken, total);
      const report = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { files: Array<{ records: unknown[] }> };
      const perBlock = block.toString('utf8').split('\n').length - 1;
      assert.equal(report.files[0].records.length, blocks * perBlock);
    });

    it('reads standard input with -, and takes --kind', async () => {
      const r = await run(['validate', '-', '--kind', 'activity', '--json'], {}, JSON.stringify({ id: 'x' }));
      assert.equal(r.code, 1);
      const rec = JSON.parse(r.stdout).files[0].records[0];
      assert.equal(rec.kind, 'activity');
      assert.ok(rec.findings.some((f: { path: string }) => f.path === '/steps'));
      const bad = await run(['validate', '-', '--kind', 'blood'], {}, '{}');
      assert.equal(bad.code, 2);
    });

    it('prints a finding’s message whole in the text forms: a record of no detectable kind is told which fields identify each kind', async () => {
      const input = JSON.stringify([{ id: 'a', value: 3 }, { id: 'b' }]);
      const json = await run(['validate', '-', '--json'], {}, input);
      const message = (JSON.parse(json.stdout) as { files: Array<{ records: Array<{ findings: Array<{ message: string }> }> }> }).files[0].records[0].findings[0].message;
      // Longer than a line: the fields of the three kinds are at its end.
      assert.ok(message.length > 200, message);
      for (const def of RESOURCES) assert.ok(message.includes(`${def.signatureFields.join(', ')} for ${def.cliName}`), message);
      const grouped = await run(['validate', '-', '--no-color'], {}, input);
      assert.ok(grouped.stdout.includes(`[error] (record)  ${message} — all 2 records\n`), grouped.stdout);
      const every = await run(['validate', '-', '--no-color', '--all-findings'], {}, input);
      assert.equal(every.stdout.split(`  ${message}\n`).length, 3, every.stdout);
    });

    it('says on stderr how many records of no detectable kind went unchecked, and that --kind names it: read whole, and streamed on workers', async () => {
      const hint = (n: string) => `health-data: ${n} not checked against a schema; name their kind with --kind (heart-rate, activity or body-fat).\n`;
      const [good] = sandbox.dataset.activity;
      // Two of no kind (no identifying field; fields of two kinds alike), one that is no object, one valid record.
      const records = [{ id: 'a', value: 3 }, good, { id: 'b', steps: 3, timestamp: '2026-11-20T08:00:00Z' }, 42];
      const list = await run(['validate', '-', '--no-color'], {}, JSON.stringify(records));
      assert.equal(list.code, 1);
      assert.equal(list.stderr, hint('2 records of no detectable kind were'));
      const ndjson = file('no-kind.ndjson', `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
      for (const jobs of ['1', '2']) {
        for (const format of [['--no-color'], ['--json'], ['--format', 'sarif'], ['--no-color', '--all-findings']]) {
          const r = await run(['validate', ndjson, '--jobs', jobs, ...format]);
          assert.equal(r.stderr, hint('2 records of no detectable kind were'), `--jobs ${jobs} ${format.join(' ')}`);
        }
      }
      const one = await run(['validate', '-', '--json'], {}, JSON.stringify({ id: 'c' }));
      assert.equal(one.stderr, hint('1 record of no detectable kind was'));
      // Named, they are checked as that kind: nothing to say.
      const named = await run(['validate', ndjson, '--kind', 'activity', '--json']);
      assert.equal(named.stderr, '');
      assert.ok((JSON.parse(named.stdout) as { files: Array<{ records: Array<{ kind: string | null }> }> }).files[0].records.slice(0, 3).every((r) => r.kind === 'activity'));
    });
  });

  describe('sandbox', () => {
    it('starts on a free port, prints its address and credentials, and stops on SIGINT', async () => {
      const sandbox = startCliSandbox(['--days', '3', '--fault', '503:times=1']);
      const url = await sandbox.address(10_000);
      assert.match(sandbox.stdout, /sandbox-client/);
      const first = await fetch(`${url}/v1/human/body_fat`);
      assert.equal(first.status, 503, 'the --fault was applied');
      const code = await sandbox.stop();
      assert.equal(code, 0);
    });

    it('rejects an unknown fault with exit 2', async () => {
      const r = await run(['sandbox', '--port', '0', '--fault', 'meteor']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /meteor/);
    });
  });
});
