// What the CLI prints for many records: `list` shows ids that `get` accepts (or says how to get
// them), and `validate` groups a finding repeated over a file into one line, the full list on ask.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox, startSandbox } from '../../../src/sandbox/server';
import { runCliInProcess } from '../support/cli';
import { TODAY } from '../support/sandbox';

const LONG_ID = `long-${'x'.repeat(60)}`;

describe('CLI: ids in lists, grouped findings', function () {
  this.timeout(30_000);
  let sandbox: Sandbox;
  let env: NodeJS.ProcessEnv;
  const dir = mkdtempSync(join(tmpdir(), 'hde-cli-summaries-'));

  before(async () => {
    sandbox = await startSandbox({ today: TODAY, days: 10, seed: 'cli-summaries' });
    env = { HEALTH_DATA_BASE_URL: sandbox.baseUrl, HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: sandbox.clientSecret };
  });
  after(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('`list` prints whole ids, and `get` takes one pasted from the table', async () => {
    const list = await runCliInProcess(['list', 'body-fat', '--limit', '5', '--no-color'], env);
    assert.equal(list.code, 0, list.stderr);
    const rows = list.stdout.split('\n').slice(1, 6);
    const ids = rows.map((row) => row.split(/\s+/)[1]);
    assert.deepEqual(ids, sandbox.dataset.bodyFat.slice(0, 5).map((r) => r.id));
    assert.doesNotMatch(list.stdout, /…/);
    assert.doesNotMatch(list.stdout, /too long/);
    const get = await runCliInProcess(['get', 'body-fat', ids[3], '--json'], env);
    assert.equal(get.code, 0, get.stderr);
    assert.equal((JSON.parse(get.stdout) as { id: string }).id, ids[3]);
  });

  it('`list` says how to get an id it had to shorten', async () => {
    const withLong = await startSandbox({
      today: TODAY, days: 2, seed: 'cli-summaries',
      extraRecords: { activity: [{ ...sandbox.dataset.activity[0], id: LONG_ID, date: TODAY }] },
    });
    try {
      const r = await runCliInProcess(['list', 'activity', '--no-color'], { ...env, HEALTH_DATA_BASE_URL: withLong.baseUrl });
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, new RegExp(LONG_ID));
      assert.match(r.stdout, /1 id is too long or holds? characters a terminal cannot show.*add --json for the exact ids to pass to `health-data get activity <id>`/);
    } finally {
      await withLong.close();
    }
  });

  it('`list` names the unknown and deprecated fields of each row, as it names its zero fields: three, then a count', async () => {
    const base = sandbox.dataset.activity[0];
    const extra = { ...base, id: 'extra-fields', date: TODAY, sourceId: 's', '\u001b[31mred': 1, 'a/b': 2, stepsPerMinute: 3, zones: 4 };
    const one = { ...base, id: 'one-extra', date: TODAY, sourceId: 's' };
    const withExtra = await startSandbox({ today: TODAY, days: 1, seed: 'cli-summaries', extraRecords: { activity: [extra, one] } });
    try {
      const r = await runCliInProcess(['list', 'activity', '--no-color'], { ...env, HEALTH_DATA_BASE_URL: withExtra.baseUrl });
      assert.equal(r.code, 0, r.stderr);
      const row = (id: string): string => r.stdout.split('\n').find((l) => l.includes(` ${id} `)) ?? assert.fail(`no row for ${id}:\n${r.stdout}`);
      assert.match(row('one-extra'), /\[deprecated\] userId \[unknown\] sourceId$/);
      // The steps column is right-aligned: every row's count ends where the header's `steps` does.
      const lines = r.stdout.split('\n').filter((l) => /^\d{4}-/.test(l));
      const stepsEnd = r.stdout.split('\n')[0].search(/steps\s+findings$/) + 'steps'.length;
      for (const l of lines) assert.equal(l.slice(stepsEnd - ' steps'.length, stepsEnd), ' steps', l);
      // Five fields the schema does not define: the first three by name (the escape character
      // made inert, the pointer's ~1 kept), then how many more.
      assert.match(row('extra-fields'), /\[deprecated\] userId \[unknown\] sourceId,\ufffd\[31mred,a~1b \+2 more$/);
      assert.doesNotMatch(r.stdout, /\u001b/);
    } finally {
      await withExtra.close();
    }
  });

  it('`list` marks a 0 that stands out among the source\'s other records listed, and says what the mark means', async () => {
    const fitbit = sandbox.dataset.activity.find((r) => r.source === 'fitbit' && (r as unknown as Record<string, unknown>).vigorous !== 0)!;
    const zeroDay = { ...fitbit, id: 'zero-steps-day', date: TODAY, steps: 0 };
    // Twenty-five days: "19 in 20" needs at least twenty other records of the source.
    const withZero = await startSandbox({ today: TODAY, days: 25, seed: 'cli-summaries', extraRecords: { activity: [zeroDay] } });
    try {
      const r = await runCliInProcess(['list', 'activity', '--all', '--no-color'], { ...env, HEALTH_DATA_BASE_URL: withZero.baseUrl });
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.split('\n');
      const row = lines.find((l) => l.includes(' zero-steps-day ')) ?? assert.fail(r.stdout);
      assert.match(row, /\[unusual 0\] steps \[deprecated\] userId$/);
      // The phone platform's 0 steps are a field it never sends: named as zeros, not unusual.
      assert.ok(lines.filter((l) => / googlefit /.test(l)).every((l) => /\[zero\] steps,/.test(l) && !l.includes('[unusual 0]')), r.stdout);
      const marked = lines.filter((l) => /^\d{4}-.*\[unusual 0\]/.test(l)).length;
      assert.ok(marked >= 1);
      assert.ok(lines.includes(`[unusual 0]: a 0 where at least 19 in 20 of the source's other records listed here have the field (${marked} ${marked === 1 ? 'row' : 'rows'}).`), r.stdout);
      // Without an unusual 0 the line is not there.
      const plain = await runCliInProcess(['list', 'activity', '--no-color'], env);
      assert.doesNotMatch(plain.stdout, /unusual/);
    } finally {
      await withZero.close();
    }
  });

  it('`validate` gives a repeated finding one line with its count, and --all-findings every line', async () => {
    const readings = sandbox.dataset.bodyFat.slice(0, 12);
    const broken = { ...readings[4] } as Record<string, unknown>;
    delete broken.unit;
    const records = [...readings.slice(0, 4), broken, ...readings.slice(5)];
    const file = join(dir, 'readings.json');
    writeFileSync(file, JSON.stringify({ data: records }));

    const grouped = await runCliInProcess(['validate', file, '--no-color'], env);
    assert.equal(grouped.code, 1);
    const deprecatedLines = grouped.stdout.split('\n').filter((l) => /userId/.test(l));
    assert.equal(deprecatedLines.length, 1, grouped.stdout);
    assert.match(deprecatedLines[0], /\[deprecated\] \/userId .* — all 12 records$/);
    assert.match(grouped.stdout, /readings\.json: 12 records, 1 invalid/);
    assert.match(grouped.stdout, /#4 Body fat reading \S+ \S+: invalid \(1 error, 1 deprecated\)/);
    assert.match(grouped.stdout, /\[error\] \/unit .* — #4$/m);
    assert.match(grouped.stdout, /--all-findings lists every finding of every record/);
    assert.match(grouped.stdout, /12 records in 1 file, 1 invalid/);

    const all = await runCliInProcess(['validate', file, '--all-findings', '--no-color'], env);
    assert.equal(all.code, 1);
    assert.equal(all.stdout.split('\n').filter((l) => /\[deprecated\] \/data\/\d+\/userId/.test(l)).length, 12, all.stdout);
    assert.equal(all.stdout.split('\n').filter((l) => /^ {2}#\d+ Body fat reading/.test(l)).length, 12);

    // The JSON report stays the full list.
    const json = await runCliInProcess(['validate', file, '--json'], env);
    const report = JSON.parse(json.stdout) as { files: Array<{ records: Array<{ findings: Array<{ path: string }> }> }> };
    assert.equal(report.files[0].records.length, 12);
    assert.equal(report.files[0].records[7].findings.find((f) => f.path.endsWith('userId'))?.path, '/data/7/userId');
  });

  it('`validate` names a grouped finding by its pointer inside the record, in a list and in NDJSON alike', async () => {
    // Record #1 breaks its zone 1: inside the record that is /zones/1/min, whether the record sits
    // at /1 of a list or is line 2 of NDJSON (whose pointers start inside the record already).
    const records = sandbox.dataset.heartRate.slice(0, 3).map((r) => JSON.parse(JSON.stringify(r)) as { zones: Array<Record<string, unknown>> });
    records[1].zones[1].min = 'x';
    const list = join(dir, 'zones.json');
    const lines = join(dir, 'zones.ndjson');
    writeFileSync(list, JSON.stringify(records));
    writeFileSync(lines, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const r = await runCliInProcess(['validate', list, lines, '--no-color'], env);
    assert.equal(r.code, 1);
    const errors = r.stdout.split('\n').filter((l) => l.includes('[error]'));
    assert.equal(errors.length, 2, r.stdout);
    for (const line of errors) assert.match(line, /\[error\] \/zones\/1\/min .* — #1$/);
  });
});
