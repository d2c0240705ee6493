// `health-data trends` against the sandbox on loopback: the JSON equal to the core's charts of
// the sandbox's records for one human (the trends panel's), the text's lines and words (a source
// that never sends steps, a day a tracker was not worn), the human chosen, and usage errors.
import * as assert from 'node:assert/strict';
import { buildTrends, formatX, humanCounts, recordsByHuman } from '../../../src/core/insights';
import { Sandbox, startSandbox } from '../../../src/sandbox/server';
import { runCliInProcess as cli } from '../support/cli';
import { TODAY } from '../support/sandbox';

type Row = Record<string, unknown>;

describe('health-data trends', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  /** The fitbit day before the generated range: steps and distance 0, as a tracker not worn sends it. */
  let notWorn: Row;
  const env = () => ({ HEALTH_DATA_BASE_URL: sandbox.url, HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: sandbox.clientSecret });
  const activity = () => sandbox.dataset.activity as unknown as Row[];

  before(async () => {
    const plain = await startSandbox({ port: 0, today: TODAY, days: 40, seed: 'trends-cli' });
    const fitbit = (plain.dataset.activity as unknown as Row[]).filter((r) => r.source === 'fitbit').sort((a, b) => String(a.date).localeCompare(String(b.date)));
    await plain.close();
    const before = new Date(Date.parse(`${String(fitbit[0].date)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    notWorn = { ...fitbit[0], id: 'not-worn', date: before, steps: 0, distance: 0 };
    // And a record of nobody: no humanId, from a source of its own.
    const orphan: Row = { ...fitbit[1], id: 'orphan', source: 'orphan' };
    delete orphan.humanId;
    sandbox = await startSandbox({ port: 0, today: TODAY, days: 40, seed: 'trends-cli', extraRecords: { activity: [notWorn, orphan] } });
  });
  after(async () => {
    await sandbox?.close();
  });

  it('prints the charts of one human as JSON, equal to the core’s charts of the sandbox’s records', async () => {
    for (const [resource, kind] of [['activity', 'activity'], ['heart-rate', 'heartRate'], ['body-fat', 'bodyFat']] as const) {
      const records = sandbox.dataset[kind] as unknown as Row[];
      const humans = humanCounts([recordsByHuman(records)]);
      const run = await cli(['trends', resource, '--json'], env());
      assert.equal(run.code, 0, run.stderr);
      const report = JSON.parse(run.stdout);
      // Not asked for: the human with the most records, as the panel starts.
      assert.equal(report.human, humans[0].humanId, resource);
      assert.deepEqual(report.humans, humans);
      const mine = records.filter((r) => r.humanId === report.human);
      assert.equal(report.records, mine.length);
      const charts = buildTrends(kind, mine);
      assert.deepEqual(
        report.charts,
        charts.map((c) => {
          const xs = c.xs.map((x) => formatX(x, c.time));
          return { id: c.id, title: c.title, unit: c.unit, time: c.time, xs, series: c.series.map((s) => ({ source: s.source, field: s.field, band: s.band, never: s.never, unusual: s.unusual, values: s.values, gaps: s.gaps.map((g) => xs[g]) })) };
        }),
        resource,
      );
    }
  });

  it('gives each line the median of its values (of an even count, the mean of the two middle ones), lowest and highest as the JSON has them', async () => {
    const human = String(notWorn.humanId);
    const [text, json] = await Promise.all([cli(['trends', 'activity', '--human', human, '--no-color'], env()), cli(['trends', 'activity', '--human', human, '--json'], env())]);
    assert.equal(text.code, 0, text.stderr);
    const report = JSON.parse(json.stdout) as { charts: Array<{ title: string; series: Array<{ source: string; values: Array<number | null> }> }> };
    const lines = text.stdout.split('\n');
    let checked = 0;
    let even = 0;
    for (const chart of report.charts) {
      const heading = lines.findIndex((l) => l.startsWith(`${chart.title}, in `));
      assert.ok(heading >= 0, chart.title);
      for (const s of chart.series) {
        const values = s.values.filter((v): v is number => v !== null).sort((a, b) => a - b);
        if (values.length === 0) continue;
        const line = lines.slice(heading + 1).find((l) => l.trimStart().startsWith(`${s.source} `))!;
        const said = /· lowest ([\d,.]+) \(.*\) · median ([\d,.]+) · highest ([\d,.]+) /.exec(line);
        assert.ok(said, line);
        const half = values.length >> 1;
        const median = values.length % 2 === 1 ? values[half] : (values[half - 1] + values[half]) / 2;
        if (values.length % 2 === 0) even++;
        const [lowest, middle, highest] = said.slice(1).map((n) => Number(n.replace(/,/g, '')));
        assert.ok(Math.abs(middle - median) < 0.051, `${chart.title} ${s.source}: median ${middle}, expected ${median}`);
        assert.ok(Math.abs(lowest - values[0]) < 0.051 && Math.abs(highest - values[values.length - 1]) < 0.051, line);
        checked++;
      }
    }
    assert.ok(checked >= 3 && even >= 1, `${checked} lines checked, ${even} of an even count`);
  });

  it('says in words a source that never sends a field and a day a tracker was not worn, each a gap and not a 0', async () => {
    const human = String(notWorn.humanId);
    const run = await cli(['trends', 'activity', '--human', human, '--no-color'], env());
    assert.equal(run.code, 0, run.stderr);
    const mine = activity().filter((r) => r.humanId === human);
    assert.match(run.stdout, new RegExp(`^Activity summaries of human ${human}: ${mine.length} records, all dates$`, 'm'));
    const lines = run.stdout.split('\n');
    const steps = lines.findIndex((l) => l.startsWith('Steps per day, in steps: '));
    assert.ok(steps >= 0, run.stdout);
    const fitbit = lines.slice(steps + 1).find((l) => l.trimStart().startsWith('fitbit '))!;
    const days = mine.filter((r) => r.source === 'fitbit' && r.steps !== 0).length;
    // The not-worn day is the chart's first: its column shows the gap mark, its date is named.
    assert.match(fitbit, new RegExp(`^  fitbit\\s+×[▁▂▃▄▅▆▇█·]+  ${days} days · lowest [\\d,]+ \\(\\d{4}-\\d\\d-\\d\\d\\) · median [\\d,.]+ · highest [\\d,]+ \\(\\d{4}-\\d\\d-\\d\\d\\) · 1 unusual 0 \\(${String(notWorn.date)}\\): a device not worn\\? \\(gaps, not 0\\)$`), fitbit);
    // A source of this human that never sends steps, if it has one, says so; every line is one of the two forms.
    for (const source of [...new Set(mine.map((r) => String(r.source)))]) {
      const line = lines.slice(steps + 1).find((l) => l.trimStart().startsWith(`${source} `))!;
      const sent = mine.filter((r) => r.source === source && typeof r.steps === 'number' && r.steps !== 0).length;
      if (sent === 0) assert.match(line, /never sends steps: 0 on (all its \d+ days|its one day) here \(the source does not provide it; gaps, not 0\)$/, line);
      else assert.match(line, new RegExp(`  ${sent} days? · lowest`), line);
    }
    assert.match(run.stdout, /· no value from the source; × only zeros the source sent in place of a value \(a field it does not provide, or a day without it\): gaps, never drawn as 0\./);
    // Nothing coloured off a terminal.
    assert.doesNotMatch(run.stdout, /\u001b\[/);
  });

  it('on a terminal, marks the unusual 0 in a warning\'s colour, its gap mark and its words; other lines stay plain', async () => {
    const human = String(notWorn.humanId);
    const run = await cli(['trends', 'activity', '--human', human], { ...env(), FORCE_COLOR: '1' });
    assert.equal(run.code, 0, run.stderr);
    const yellow = (text: string) => `\u001b[33m${text}\u001b[39m`;
    const lines = run.stdout.split('\n');
    const steps = lines.findIndex((l) => l.includes('Steps per day, in steps: '));
    const fitbit = lines.slice(steps + 1).find((l) => l.trimStart().startsWith('fitbit '))!;
    assert.ok(fitbit.includes(`  ${yellow('×')}`), JSON.stringify(fitbit));
    assert.ok(fitbit.endsWith(yellow(`1 unusual 0 (${String(notWorn.date)}): a device not worn? (gaps, not 0)`)), JSON.stringify(fitbit));
    // Only the unusual series is painted so: any other line, a field a source never sends among them, is plain gaps.
    const others = lines.filter((l) => l.startsWith('  ') && !l.includes('unusual 0'));
    assert.ok(others.length >= 1 && others.every((l) => !l.includes('\u001b[33m')), JSON.stringify(others));
    // And without a terminal (or with --no-color) nothing is painted.
    const plain = await cli(['trends', 'activity', '--human', human], env());
    assert.doesNotMatch(plain.stdout, /\u001b\[/);
  });

  it('names a source that never sends steps in a human’s chart', async () => {
    // The phone (googlefit) never sends steps in the sandbox: find a human who has it.
    const phone = activity().find((r) => r.source === 'googlefit');
    assert.ok(phone, 'the sandbox has phone summaries');
    const run = await cli(['trends', 'activity', '--human', String(phone.humanId), '--from', '2026-11-01', '--to', '2026-11-20', '--no-color'], env());
    assert.equal(run.code, 0, run.stderr);
    const line = run.stdout.split('\n').find((l) => l.startsWith('  googlefit '))!;
    assert.match(line, /^  googlefit\s+[·×]+  never sends steps: 0 on (all its \d+ days|its one day) here/);
    assert.doesNotMatch(line, /[▁▂▃▄▅▆▇█]/, 'no block drawn for a value the source does not send');
    // One day of it: said in the singular.
    const day = String(phone.date);
    const one = await cli(['trends', 'activity', '--human', String(phone.humanId), '--from', day, '--to', day, '--no-color'], env());
    assert.ok(one.stdout.split('\n').some((l) => /^ {2}googlefit\s+×  never sends steps: 0 on its one day here \(/.test(l)), one.stdout);
  });

  it('takes the human with the most records and says so; a human without records gets the humans there are', async () => {
    const humans = humanCounts([recordsByHuman(activity())]);
    const run = await cli(['trends', 'activity', '--no-color'], env());
    assert.match(run.stdout, new RegExp(`^Activity summaries of human ${humans[0].humanId}: ${humans[0].records} records`, 'm'));
    assert.match(run.stdout, new RegExp(`^The human with the most records of ${humans.length}; --human ID for another \\(the others: ${humans[1].humanId}`, 'm'));
    const none = await cli(['trends', 'activity', '--human', 'nobody', '--no-color'], env());
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /^Activity summaries: no records, all dates$/m);
    assert.match(none.stderr, new RegExp(`No activity summaries of human "nobody"\\. Without --human, the same query has records of ${humans.length} humans`));
    // Records, but of no one: said, not shown as none.
    const orphans = await cli(['trends', 'activity', '--source', 'orphan', '--no-color'], env());
    assert.equal(orphans.code, 0, orphans.stderr);
    assert.match(orphans.stdout, /^Activity summaries: 1 record of no human, all dates$/m);
    assert.equal(orphans.stderr.trim(), "The record has no humanId: trends are drawn for one human's records (the coverage counts them all: health-data coverage activity).");
  });

  it('refuses wrong input in words before any request', async () => {
    for (const [args, says] of [
      [['trends'], /Unknown resource|Name a resource|resource/],
      [['trends', 'steps'], /Unknown resource "steps"/],
      [['trends', 'activity', 'more'], /Too many arguments for trends: more/],
      [['trends', 'activity', '--human', ' '], /--human is empty\./],
      [['trends', 'activity', '--source', ''], /--source is empty\./],
      [['trends', 'activity', '--from', '2026-02-30'], /--from must be a real calendar date/],
      [['trends', 'activity', '--kind', 'activity'], /Unknown option --kind for trends/],
    ] as const) {
      const run = await cli([...args], { HEALTH_DATA_BASE_URL: 'http://127.0.0.1:9', HEALTH_DATA_CLIENT_ID: 'x', HEALTH_DATA_CLIENT_SECRET: 'y' });
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr, says, args.join(' '));
    }
  });
});
