// `health-data list|get --record FILE.har` and `health-data sandbox --replay FILE.har…`, end to
// end: a recording made through 429s and retries, appended to by a second run, replayed by the
// bundled CLI in a child process, and the same `list --all` giving back the recorded records.
// Every recording and every export from a replay is scanned for the secret, the tokens and the
// original identifiers.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHar } from '../../../src/core/recording';
import { resource } from '../../../src/core/resources';
import { parseFaultSpec } from '../../../src/sandbox/server';
import { runCliInProcess } from '../support/cli';
import { assertInert } from '../support/inert';
import { assertNoLeak, assertValidHar, originalIdentifiers, recordedListRecords } from '../support/recording';
import { startCliSandbox, useSandbox } from '../support/sandbox';

const SECRET = 'record-replay-secret-77c1';

describe('CLI record and replay', function () {
  this.timeout(60_000);
  const holder = useSandbox({ days: 45, humans: 2, clientSecret: SECRET });
  const folder = mkdtempSync(join(tmpdir(), 'hde-record-'));
  const har = join(folder, 'session.har');
  const env = (url = holder.sandbox.url): NodeJS.ProcessEnv => ({
    HEALTH_DATA_BASE_URL: url,
    HEALTH_DATA_CLIENT_ID: 'sandbox-client',
    HEALTH_DATA_CLIENT_SECRET: url === holder.sandbox.url ? SECRET : 'sandbox-secret',
    HEALTH_DATA_PSEUDONYM_KEY: 'a passphrase shared by the runs of this test',
  });
  const secrets = (): string[] => [SECRET];

  it('records list --all through 429s and retries, and a later get appends to the same file', async () => {
    holder.sandbox.addFault(parseFaultSpec('429:retry-after=0:times=2:path=offset='));
    holder.sandbox.addFault(parseFaultSpec('503:times=1:path=offset=60'));
    const list = await runCliInProcess(['list', 'activity', '--all', '--limit', '30', '--record', har, '--json'], env());
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stderr, /exchanges recorded to .*session\.har/);
    const first = readHar(readFileSync(har, 'utf8'), har);
    const day = holder.sandbox.dataset.activity[5].date;
    const get = await runCliInProcess(['get', 'activity', day, '--record', har], env());
    assert.equal(get.code, 0, get.stderr);
    const second = readHar(readFileSync(har, 'utf8'), har);
    // `get <kind> <date>` also lists that day, to say when several records share it.
    const appended = second.log.entries.slice(first.log.entries.length).map((e) => `${e.request.method} ${new URL(e.request.url).pathname}`);
    assert.deepEqual(appended.length, 3, `a token, the get and the day's list appended: ${appended.join(', ')}`);
    assert.equal(appended.filter((r) => r.startsWith('POST')).length, 1, appended.join(', '));
    await assertValidHar(second);
    assert.ok(second.log.entries.some((e) => (e._attempts?.length ?? 0) > 1), 'the retries are in the recording');
    // The same key: the record fetched by date carries the pseudonyms of the listed one.
    const getEntry = second.log.entries.slice(first.log.entries.length).find((e) => /\/\d{4}-\d{2}-\d{2}$/.test(new URL(e.request.url).pathname));
    assert.ok(getEntry, 'the get by date is recorded');
    const byDate = JSON.parse(getEntry.response.content.text!) as { id: string };
    assert.ok(recordedListRecords(second, resource('activity').listPath).some((r) => r.id === byDate.id));
  });

  it('writes a recorded body\'s direction overrides and C1 controls as \\uXXXX: inert to a terminal, the same body to a parser', async () => {
    const record = holder.sandbox.dataset.activity[0] as unknown as Record<string, unknown>;
    const source = record.source;
    const hostile = 'fit\u202ebit\u009b31m';
    record.source = hostile;
    try {
      const file = join(folder, 'hostile.har');
      const run = await runCliInProcess(['get', 'activity', String(record.id), '--record', file, '--keep-ids'], env());
      assert.equal(run.code, 0, run.stderr);
      const text = readFileSync(file, 'utf8');
      assertInert(text, 'hostile.har');
      const entry = readHar(text, file).log.entries.find((e) => new URL(e.request.url).pathname.endsWith(String(record.id)));
      assert.equal((JSON.parse(entry!.response.content.text!) as { source: string }).source, hostile);
    } finally {
      record.source = source;
    }
  });

  it('holds no secret, token or original identifier (leak scan of the recording)', () => {
    const text = readFileSync(har, 'utf8');
    // Tokens the sandbox minted are JWTs: assertNoLeak finds any JWT.
    assertNoLeak(text, 'session.har', secrets(), originalIdentifiers(holder.sandbox));
  });

  it('replays it with `sandbox --replay`: the same list --all gives the recorded records, at another page size', async () => {
    const other = join(folder, 'other.har');
    writeFileSync(other, JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [] } }));
    const replay = startCliSandbox(['--replay', har, other]);
    try {
      const url = await replay.address();
      assert.match(replay.stdout, /replayed from .*session\.har, .*other\.har/);
      const recorded = recordedListRecords(readHar(readFileSync(har, 'utf8'), har), resource('activity').listPath);
      const out = join(folder, 'replayed.ndjson');
      const run = await runCliInProcess(['list', 'activity', '--all', '--limit', '11', '--format', 'ndjson', '--out', out], env(url));
      assert.equal(run.code, 0, run.stderr);
      const exported = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(exported, recorded);
      assert.equal(exported.length, holder.sandbox.dataset.activity.length);
      // The export of a replay is as free of identities as the recording.
      const csv = join(folder, 'replayed.csv');
      assert.equal((await runCliInProcess(['list', 'activity', '--all', '--format', 'csv', '--out', csv], env(url))).code, 0);
      for (const file of [out, csv]) assertNoLeak(readFileSync(file, 'utf8'), file, secrets(), originalIdentifiers(holder.sandbox));
      const missing = await runCliInProcess(['get', 'body-fat'], env(url));
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /404 Not Found: .*not in the recording .*session\.har/);
    } finally {
      assert.equal(await replay.stop(), 0);
    }
  });

  it('refuses bad recording and replay flags with a usage error', async () => {
    const notHar = join(folder, 'not.har');
    writeFileSync(notHar, '<html>');
    for (const [args, pattern] of [
      [['list', 'activity', '--record', har, '--shift-dates', 'soon'], /--shift-dates must be a whole number of days/],
      [['list', 'activity', '--record', har, '--keep-weekdays'], /--keep-weekdays goes with --shift-dates/],
      [['list', 'activity', '--keep-ids'], /--keep-ids needs --record/],
      [['list', 'activity', '--record', notHar], /cannot be appended to: .*not JSON/],
      [['sandbox', '--replay', join(folder, 'missing.har')], /--replay .*missing\.har: no such file\./],
      [['sandbox', '--replay', notHar], /not\.har is not JSON/],
      [['sandbox', '--replay', har, '--days', '3'], /--days does not apply to --replay/],
    ] as const) {
      const run = await runCliInProcess([...args], env());
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, pattern);
    }
  });

  it('--keep-ids warns that the file identifies people, and keeps the ids', async () => {
    const kept = join(folder, 'kept.har');
    const run = await runCliInProcess(['list', 'body-fat', '--limit', '3', '--record', kept, '--keep-ids', '--json'], env());
    assert.match(run.stderr, /warning: --keep-ids: .* will hold the real humanIds/);
    const text = readFileSync(kept, 'utf8');
    assert.ok(text.includes(holder.sandbox.dataset.bodyFat[0].id));
    assert.ok(!text.includes(SECRET));
  });
});
