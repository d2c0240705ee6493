// `health-data validate --format …`, `--out`, `--fail-on`, and `health-data schemas` / `types`,
// run as the CLI runs (runCli with streams of its own): exit codes, files written, every format
// on the example payloads and on hostile payloads and file names, inert on the terminal.
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type * as Sarif from 'sarif';
import { SCHEMA_DOCUMENTS } from '../../../src/core/validation';
import { runCliInProcess as cli } from '../support/cli';
import { assertInert } from '../support/inert';
import { repoRoot } from '../support/repo';
import { fixtureRecords } from '../support/hostileRecords';

const examples = readdirSync(join(repoRoot, 'examples'))
  .filter((n) => n.endsWith('.json'))
  .map((n) => join(repoRoot, 'examples', n));

describe('CLI: validation reports, schemas and types', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'hde-reports-cli-'));
  const file = (name: string, content: string): string => {
    const p = join(dir, name);
    writeFileSync(p, content);
    return p;
  };
  // Only zeros and a deprecated userId: valid, with notes.
  const zerosOnly = () => file('zeros.json', readFileSync(join(repoRoot, 'test/fixtures/activity-all-zeros.json'), 'utf8'));
  const unknownOnly = () => {
    const record = JSON.parse(readFileSync(join(repoRoot, 'test/fixtures/body-fat-smart-scale.json'), 'utf8')) as Record<string, unknown>;
    delete record.userId;
    return file('unknown.json', JSON.stringify({ ...record, scaleModel: 'x' }, null, 2));
  };

  describe('--format', () => {
    it('sarif: one run, results with relative URIs and regions, exit 1 for the example with an error', async () => {
      const r = await cli(['validate', ...examples.map((e) => relative(process.cwd(), e)), '--format', 'sarif']);
      assert.equal(r.code, 1, r.stderr);
      const log = JSON.parse(r.stdout) as Sarif.Log;
      assert.equal(log.version, '2.1.0');
      const results = log.runs[0].results ?? [];
      const error = results.find((x) => x.level === 'error');
      assert.equal(error?.ruleId, 'schema-error');
      assert.match(error?.locations?.[0].physicalLocation?.artifactLocation?.uri ?? '', /(^|\/)examples\/heart-rate-summary\.health\.json$/);
      assert.deepEqual(error?.locations?.[0].physicalLocation?.region?.startLine, 1);
    });

    it('junit: parses back, a testsuite per file', async () => {
      const r = await cli(['validate', ...examples, '--format', 'junit']);
      assert.equal(r.code, 1);
      assert.equal(XMLValidator.validate(r.stdout), true);
      const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'testsuite' }).parse(r.stdout) as { testsuites: { testsuite: Array<{ failures: string }> } };
      assert.equal(parsed.testsuites.testsuite.length, examples.length);
      assert.equal(parsed.testsuites.testsuite.reduce((n, s) => n + Number(s.failures), 0), 1);
    });

    it('github: annotation lines only', async () => {
      const r = await cli(['validate', ...examples, '--format', 'github']);
      assert.equal(r.code, 1);
      for (const line of r.stdout.trimEnd().split('\n')) assert.match(line, /^::(error|warning|notice) file=/);
      assert.match(r.stdout, /^::error file=[^,]*heart-rate-summary\.health\.json,line=1,endLine=1,col=1,endColumn=2,title=Health data%3A schema error::value is required/m);
    });

    it('text shows each finding at its line and column (--all-findings); --json is --format json', async () => {
      // The default text groups repeated findings (one line per finding with its count); the full
      // list names each record's findings where they are.
      const text = await cli(['validate', examples[0], '--all-findings', '--no-color']);
      assert.match(text.stdout, /\[deprecated\] \/0\/userId \(line 4, column 5\)  userId is deprecated: use humanId/);
      const a = await cli(['validate', ...examples, '--json']);
      const b = await cli(['validate', ...examples, '--format', 'json']);
      assert.equal(a.stdout, b.stdout);
      assert.equal((JSON.parse(a.stdout) as { files: unknown[] }).files.length, examples.length);
    });

    it('refuses an unknown format, and --json with another format, as usage errors (exit 2)', async () => {
      const bad = await cli(['validate', examples[0], '--format', 'xml']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--format takes text, json, sarif, junit, github, not "xml"/);
      const both = await cli(['validate', examples[0], '--json', '--format', 'sarif']);
      assert.equal(both.code, 2);
    });
  });

  describe('--fail-on', () => {
    const cases: Array<[string, () => string, string[], number]> = [
      ['a file of zeros passes by default', zerosOnly, [], 0],
      ['fails on zero', zerosOnly, ['--fail-on', 'zero'], 1],
      ['fails on deprecated', zerosOnly, ['--fail-on', 'deprecated'], 1],
      ['passes on warning (it has none)', zerosOnly, ['--fail-on', 'warning'], 0],
      ['fails on unknown', unknownOnly, ['--fail-on', 'unknown'], 1],
      ['passes on zero,deprecated when it has only an unknown field', unknownOnly, ['--fail-on', 'zero,deprecated'], 0],
      ['repeated: fails when one of them is found', unknownOnly, ['--fail-on', 'zero', '--fail-on', 'unknown'], 1],
      ['errors fail whatever is named', () => examples.find((e) => e.includes('heart-rate'))!, ['--fail-on', 'zero'], 1],
      ['error alone is the default', zerosOnly, ['--fail-on', 'error'], 0],
    ];
    for (const [name, input, args, code] of cases) {
      it(`${name}: exit ${code}`, async () => {
        const r = await cli(['validate', input(), ...args, '--no-color']);
        assert.equal(r.code, code, r.stdout + r.stderr);
        if (code === 1 && args.length && !name.startsWith('errors')) assert.match(r.stdout, /failing on \d+ (zero|deprecated|unknown)/);
      });
    }

    it('refuses a kind it does not know (exit 2), naming the kinds', async () => {
      const r = await cli(['validate', zerosOnly(), '--fail-on', 'warnings']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /--fail-on takes error, warning, zero, deprecated, unknown, unusual \(one or more, comma-separated\), not "warnings"/);
    });
  });

  describe('--omit', () => {
    // NDJSON of zeros-only records (a deprecated userId and eight zeros each) with a broken one.
    const zerosLines = (count: number): string => {
      const record = JSON.parse(readFileSync(join(repoRoot, 'test/fixtures/activity-all-zeros.json'), 'utf8')) as Record<string, unknown>;
      const lines = Array.from({ length: count }, (_, i) => JSON.stringify({ ...record, id: `z${i}`, ...(i === 3 ? { steps: 'many' } : {}) }));
      return file(`zeros-${count}.ndjson`, `${lines.join('\n')}\n`);
    };
    type Json = { files: Array<{ records: Array<{ valid: boolean; findings: Array<{ kind: string }> }> }> };
    const kindsIn = (report: Json): string[] => [...new Set(report.files.flatMap((f) => f.records.flatMap((r) => r.findings.map((x) => x.kind))))].sort();

    it('leaves the kinds named out of every format and of the counts, with one job or two, whole files and streamed lines', async () => {
      const whole = await cli(['validate', zerosOnly(), '--omit', 'zero', '--json']);
      assert.equal(whole.code, 0, whole.stderr);
      assert.deepEqual(kindsIn(JSON.parse(whole.stdout) as Json), ['deprecated']);
      const lines = zerosLines(50);
      for (const jobs of ['1', '2']) {
        const json = await cli(['validate', lines, '--omit', 'zero,deprecated', '--json', '--jobs', jobs]);
        assert.equal(json.code, 1, json.stderr);
        const report = JSON.parse(json.stdout) as Json;
        assert.equal(report.files[0].records.length, 50);
        assert.deepEqual(kindsIn(report), ['error'], `--jobs ${jobs}`);
        assert.equal(report.files[0].records.filter((r) => !r.valid).length, 1);
        const text = await cli(['validate', lines, '--omit', 'zero', '--omit', 'deprecated', '--no-color', '--jobs', jobs]);
        assert.equal(text.code, 1);
        assert.doesNotMatch(text.stdout, /\[(zero|deprecated)\]/);
        assert.match(text.stdout, /\[error\] \/steps .* — #3$/m);
        assert.match(text.stdout, /^50 records in 1 file, 1 invalid, zero and deprecated findings left out \(--omit\)$/m);
        const sarif = JSON.parse((await cli(['validate', lines, '--omit', 'deprecated', '--format', 'sarif', '--jobs', jobs])).stdout) as Sarif.Log;
        const rules = new Set(sarif.runs[0].results?.map((r) => r.ruleId));
        assert.deepEqual([...rules].sort(), ['schema-error', 'zero-value']);
      }
    });

    it('refuses errors, unknown kinds and a kind --fail-on names (exit 2), in words', async () => {
      const cases: Array<[string[], RegExp]> = [
        [['--omit', 'error'], /--omit cannot leave errors out: an invalid record is always reported/],
        [['--omit', 'zeros'], /--omit takes warning, zero, deprecated, unknown, unusual \(one or more, comma-separated\), not "zeros"/],
        [['--omit', 'zero', '--fail-on', 'deprecated,zero'], /--omit zero and --fail-on zero cannot go together/],
      ];
      for (const [args, message] of cases) {
        const r = await cli(['validate', zerosOnly(), ...args]);
        assert.equal(r.code, 2, args.join(' '));
        assert.match(r.stderr, message);
        assert.equal(r.stdout, '');
      }
    });

    it('annotations GitHub Actions would not show are counted on stderr, with what --omit keeps out', async () => {
      // 20 records: 179 notes (a deprecated userId and zeros) and 1 error.
      const r = await cli(['validate', zerosLines(20), '--format', 'github']);
      assert.equal(r.code, 1);
      assert.equal(r.stdout.split('\n').filter((l) => l.startsWith('::notice ')).length, 179);
      assert.match(r.stderr, /^health-data: 179 notices written as annotations; GitHub Actions shows 10 of each level per step \(50 per job\), the rest only in this log\. --omit zero,deprecated keeps the notices out; --format sarif puts every finding in code scanning\.$/m);
      assert.doesNotMatch(r.stderr, /errors? written/, 'one error is shown');
      // A kind --fail-on names is not one --omit may leave out (it refuses that): not offered.
      const failing = await cli(['validate', zerosLines(20), '--format', 'github', '--fail-on', 'deprecated']);
      assert.match(failing.stderr, / --omit zero keeps the notices out;/);
      assert.doesNotMatch(failing.stderr, /--omit [a-z,]*deprecated/);
      const few = await cli(['validate', zerosLines(20), '--format', 'github', '--omit', 'zero,deprecated']);
      assert.equal(few.stdout.split('\n').filter((l) => l.startsWith('::')).length, 1);
      assert.equal(few.stderr, '');
    });

    it('a SARIF report that GitHub code scanning would reject says so on stderr, and what --omit would leave', async () => {
      // 3,000 records of 9 findings each: a deprecated userId and zeros, but one error for a zero.
      const lines = zerosLines(3_000);
      const out = join(dir, 'big.sarif');
      const big = await cli(['validate', lines, '--format', 'sarif', '--out', out]);
      assert.equal(big.code, 1);
      assert.equal((JSON.parse(readFileSync(out, 'utf8')) as Sarif.Log).runs[0].results?.length, 27_000);
      assert.match(big.stderr, /the SARIF report holds 27,000 results; GitHub code scanning rejects a run of more than 25,000 \(and shows the 5,000 most severe\)\. --omit zero,deprecated leaves out the notes \(26,999 results\); 1 remains\./);
      const small = await cli(['validate', lines, '--format', 'sarif', '--out', out, '--omit', 'zero']);
      assert.equal((JSON.parse(readFileSync(out, 'utf8')) as Sarif.Log).runs[0].results?.length, 3_001);
      assert.doesNotMatch(small.stderr, /SARIF/);
    });
  });

  describe('--out', () => {
    it('writes the report to the file and prints the closing line', async () => {
      const out = join(dir, 'report.sarif');
      const r = await cli(['validate', ...examples, '--format', 'sarif', '--out', out, '--no-color']);
      assert.equal(r.code, 1);
      assert.match(r.stdout, /^4 records in 3 files, 1 invalid; sarif report written to .*report\.sarif\n$/);
      assert.equal((JSON.parse(readFileSync(out, 'utf8')) as Sarif.Log).version, '2.1.0');
      const text = join(dir, 'report.txt');
      const t = await cli(['validate', ...examples, '--out', text], { FORCE_COLOR: '1' });
      assert.doesNotMatch(readFileSync(text, 'utf8'), /\u001b/, 'no colour in a file');
      assert.match(readFileSync(text, 'utf8'), /4 records in 3 files/);
      assert.match(t.stdout, /\u001b\[/, 'colour on the terminal, as asked');
    });

    it('refuses to write the report over a file it validates (exit 2), leaving the file as it was', async () => {
      const payload = file('payload.json', readFileSync(examples[0], 'utf8'));
      const r = await cli(['validate', payload, examples[1], '--format', 'sarif', '--out', payload]);
      assert.equal(r.code, 2);
      assert.equal(r.stderr, `health-data: --out ${payload} is one of the files to validate: write the report elsewhere.\n`);
      assert.equal(readFileSync(payload, 'utf8'), readFileSync(examples[0], 'utf8'));
    });

    it('says before reading any file when the report cannot be written there (exit 2), and no stack trace', async () => {
      const blocker = file('blocker.txt', 'x');
      for (const [out, says] of [
        [join(dir, 'no', 'such', 'dir', 'r.xml'), /--out .*r\.xml: no such folder .*dir\./],
        [dir, /--out .*: it is a folder: name a file in it\./],
        [join(blocker, 'r.xml'), /--out .*r\.xml: a file stands where a folder should be\./],
      ] as const) {
        // A missing payload after the good one: had the files been read, it would be named.
        const r = await cli(['validate', examples[0], join(dir, 'missing.json'), '--format', 'junit', '--out', out]);
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, says);
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
        assert.doesNotMatch(r.stderr, /missing\.json|ENOENT|ENOTDIR|EISDIR/);
        assertInert(r.stderr, 'stderr');
      }
      // A stream that is no file takes the report.
      const sink = await cli(['validate', examples[0], '--out', '/dev/null']);
      assert.equal(sink.code, 0, sink.stderr);
    });
  });

  describe('hostile payloads and names', () => {
    it('every format keeps control and direction characters off the terminal', async () => {
      const hostile = [
        join(repoRoot, 'test/fixtures/hostile-records.json'),
        file('generated.json', JSON.stringify(fixtureRecords(20).map((r) => r.record))),
        file(`\u001b[31m\u202Eevil\u0007,:%.json`, '{"id": "\u001b[2J", "steps": -1, "\u202Ekey": 1}'),
        file('broken\u009b.json', '{"\u001b]8;;x'),
      ];
      for (const format of ['text', 'json', 'sarif', 'junit', 'github']) {
        const r = await cli(['validate', ...hostile, '--format', format]);
        assert.equal(r.code, 1, `${format}: ${r.stderr}`);
        assertInert(r.stdout, `${format} stdout`);
        assertInert(r.stderr, `${format} stderr`);
        if (format === 'json' || format === 'sarif') JSON.parse(r.stdout);
        if (format === 'junit') assert.equal(XMLValidator.validate(r.stdout), true);
      }
    });
  });

  describe('schemas', () => {
    it('--out DIR writes each JSON Schema (2020-12) under its $id name, with descriptions', async () => {
      const out = join(dir, 'schemas');
      const r = await cli(['schemas', '--out', out]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /6 schemas written to/);
      const names = readdirSync(out).sort();
      assert.deepEqual(names, [...SCHEMA_DOCUMENTS.keys()].map((id) => id.slice(id.lastIndexOf('/') + 1)).sort());
      for (const name of names) {
        const schema = JSON.parse(readFileSync(join(out, name), 'utf8')) as { $schema: string; $id: string; description: string };
        assert.equal(schema.$schema, 'https://json-schema.org/draft/2020-12/schema');
        assert.ok(schema.$id.endsWith(`/${name}`));
        assert.ok(schema.description.length > 20);
      }
      const activity = JSON.parse(readFileSync(join(out, 'activity-summary.schema.json'), 'utf8')) as { properties: Record<string, { description: string }> };
      assert.match(activity.properties.distance.description, /in meters\. 0 when the source does not provide it/);
    });

    it('without --out prints them as one JSON object', async () => {
      const r = await cli(['schemas']);
      assert.equal(r.code, 0);
      assert.equal(Object.keys(JSON.parse(r.stdout) as object).length, SCHEMA_DOCUMENTS.size);
    });

    it('says when the folder cannot be made (exit 1)', async () => {
      const blocker = file('blocker', 'x');
      const r = await cli(['schemas', '--out', join(blocker, 'schemas')]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /Could not write .*blocker.*: a file stands where a folder should be/);
    });
  });

  describe('types', () => {
    it('prints the shipped declarations, or writes them to --out', async () => {
      const shipped = readFileSync(join(repoRoot, 'types/health-data.d.ts'), 'utf8');
      const r = await cli(['types']);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, shipped);
      const out = join(dir, 'gen', 'health-data.d.ts');
      const w = await cli(['types', '--out', out]);
      assert.equal(w.code, 0, w.stderr);
      assert.equal(readFileSync(out, 'utf8'), shipped);
      assert.ok(existsSync(out));
    });
  });
});
