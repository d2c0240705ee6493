// The report writers on the example payloads, the fixtures and hostile payloads: SARIF checked
// against the official SARIF 2.1.0 JSON Schema (from @microsoft/jest-sarif, with ajv's draft-04
// class), JUnit XML parsed back with fast-xml-parser, GitHub annotations escaped as GitHub documents,
// and the regions at the places validatePayloadText gives the Problems panel.
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv4 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type * as Sarif from 'sarif';
import {
  GithubWriter,
  JunitWriter,
  SUITE_CASES,
  LineIndex,
  type ReportEntry,
  type ReportRecord,
  inertJson,
  SarifWriter,
  artifactLocation,
  createReportWriter,
  isBatchWriter,
  takeBatch,
  writeBatch,
  githubData,
  githubProperty,
  parseFailOn,
  payloadReport,
  reportFileFor,
  writeReport,
  xmlText,
} from '../../../../src/core/reports';
import { validatePayloadText } from '../../../../src/core/validation';
import { ACTIVITY } from '../../../fixtures/payloads';
import { HOSTILE_KEYS, HOSTILE_STRINGS, fixtureRecords } from '../../support/hostileRecords';
import { assertInert } from '../../support/inert';
import { repoRoot } from '../../support/repo';

const NOW = Date.parse('2026-11-20T12:00:00Z');

/** The example payloads and the fixtures: every one the repository ships. */
function shippedPayloads(): string[] {
  const dirs = ['examples', 'test/fixtures'];
  return dirs.flatMap((d) => readdirSync(join(repoRoot, d)).filter((n) => n.endsWith('.json')).map((n) => `${d}/${n}`));
}

/** A payload as the CLI and the export report it (payloadReport), its records in an array. */
function entryOf(path: string, text: string): ReportEntry {
  const file = reportFileFor(path, repoRoot);
  const report = payloadReport(text, { now: NOW });
  const records = [...(report.records ?? [])];
  return 'problem' in report ? { file, problem: report.problem, records } : { file, records };
}

const entries = (paths: string[]): ReportEntry[] => paths.map((p) => entryOf(p, readFileSync(join(repoRoot, p), 'utf8')));

/** The hostile e2e fixture as one file, plus hostile strings as keys and values of an activity. */
function hostileTexts(): Array<{ path: string; text: string }> {
  const activity = JSON.parse(ACTIVITY) as Record<string, unknown>;
  const keyed = HOSTILE_KEYS.map((k, i) => ({ ...activity, id: HOSTILE_STRINGS[i % HOSTILE_STRINGS.length], [k]: HOSTILE_STRINGS[(i + 3) % HOSTILE_STRINGS.length] }));
  return [
    { path: 'test/fixtures/hostile-records.json', text: readFileSync(join(repoRoot, 'test/fixtures/hostile-records.json'), 'utf8') },
    { path: 'hostile/generated.json', text: JSON.stringify(fixtureRecords(30).map((r) => r.record), null, 1) },
    { path: 'hostile/keys.json', text: JSON.stringify(keyed, null, 2) },
    { path: `hostile/\u001b[31m\u202Eevil\u0007, name: 100%.json`, text: '{"id": "x", "steps": -1\r\n' },
    { path: 'hostile/crlf.json', text: ACTIVITY.replace(/\n/g, '\r\n') },
  ];
}

let sarifValidator: ReturnType<Ajv4['compile']>;

function assertSarif(text: string, what: string): Sarif.Log {
  const log = JSON.parse(text) as Sarif.Log;
  const ok = sarifValidator(log);
  assert.ok(ok, `${what}: not SARIF 2.1.0: ${JSON.stringify(sarifValidator.errors?.slice(0, 3), null, 1)}`);
  return log;
}

describe('validation reports', function () {
  this.timeout(60_000);

  before(() => {
    // The schema the SARIF TC publishes (2.1.0, rtm.5), as @microsoft/jest-sarif ships it: not ours.
    // One of its patterns (language tags) is no valid Unicode regular expression: read it without the u flag.
    const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8')) as object;
    const ajv = new Ajv4({ allErrors: true, strict: false, unicodeRegExp: false });
    addFormats(ajv);
    sarifValidator = ajv.compile(schema);
  });

  describe('text positions', () => {
    it('count lines at \\r\\n, \\r and \\n, characters in UTF-16 units, as VS Code does', () => {
      const lines = new LineIndex('ab\r\ncd\ref\n😀x');
      assert.deepEqual(lines.positionAt(0), { line: 0, character: 0 });
      assert.deepEqual(lines.positionAt(4), { line: 1, character: 0 });
      assert.deepEqual(lines.positionAt(7), { line: 2, character: 0 });
      assert.deepEqual(lines.positionAt(12), { line: 3, character: 2 }, 'an emoji is two UTF-16 units');
      assert.deepEqual(lines.positionAt(999), { line: 3, character: 3 }, 'past the end: the end');
    });

    it('read only as far as asked, give every offset the place a whole count gives, in any order', () => {
      const text = 'a\r\n\r\nbc\r\rd\n\n😀\r\nx\ry\n';
      // The reference: lines counted over the whole text first.
      const expected: Array<{ line: number; character: number }> = [];
      let line = 0;
      let start = 0;
      for (let i = 0; i <= text.length; i++) {
        expected.push({ line, character: i - start });
        const c = text[i];
        if (c === '\r' || (c === '\n' && text[i - 1] !== '\r')) {
          if (c === '\r' && text[i + 1] === '\n') {
            expected.push({ line, character: i + 1 - start });
            i++;
          }
          line++;
          start = i + 1;
        }
      }
      const offsets = [...expected.keys()];
      const orders = [offsets, [...offsets].reverse(), offsets.map((_, k) => (k * 7) % offsets.length)];
      for (const order of orders) {
        const lines = new LineIndex(text);
        for (const o of order) assert.deepEqual(lines.positionAt(o), expected[o], `offset ${o} of ${JSON.stringify(text)}`);
      }
      // An offset asked at the carriage return of a \r\n, then at its line feed, then after.
      const crlf = new LineIndex('ab\r\ncd');
      assert.deepEqual(crlf.positionAt(2), { line: 0, character: 2 });
      assert.deepEqual(crlf.positionAt(3), { line: 0, character: 3 });
      assert.deepEqual(crlf.positionAt(4), { line: 1, character: 0 });
    });
  });

  describe('SARIF', () => {
    it('is valid SARIF 2.1.0 for every shipped payload, with a rule per kind and a result per finding', () => {
      const input = entries(shippedPayloads());
      const log = assertSarif(writeReport(new SarifWriter({ baseFolder: repoRoot, toolVersion: '1.2.3' }), input), 'shipped payloads');
      assert.equal(log.version, '2.1.0');
      assert.equal(log.runs.length, 1);
      const run = log.runs[0];
      assert.deepEqual(run.tool.driver.rules?.map((r) => r.id), ['schema-error', 'implausible-value', 'zero-value', 'deprecated-field', 'unknown-field', 'file-not-validated']);
      assert.equal(run.originalUriBaseIds?.SRCROOT.uri, `file://${repoRoot}/`);
      let findings = 0;
      let problems = 0;
      for (const e of input) {
        for (const r of e.records ?? []) findings += r.findings.length;
        if ('problem' in e) problems++;
      }
      assert.equal(run.results?.length, findings + problems);
      assert.ok(findings > 20);
      const levels = new Set(run.results?.map((r) => `${r.ruleId}:${r.level}`));
      for (const expected of ['schema-error:error', 'zero-value:note', 'deprecated-field:note']) assert.ok(levels.has(expected), expected);
      for (const r of run.results ?? []) {
        assert.equal(run.tool.driver.rules?.[r.ruleIndex ?? -1]?.id, r.ruleId);
        const loc = r.locations?.[0]?.physicalLocation;
        assert.equal(loc?.artifactLocation?.uriBaseId, 'SRCROOT');
        assert.match(loc?.artifactLocation?.uri ?? '', /^(examples|test\/fixtures)\/[\w.-]+\.json$/);
      }
    });

    it('places each result at the range validatePayloadText gives the Problems panel (1-based)', () => {
      const text = ACTIVITY;
      const validation = validatePayloadText(text, { now: NOW });
      const log = assertSarif(writeReport(new SarifWriter({ baseFolder: repoRoot }), [entryOf('payload.json', text)]), 'activity');
      const results = log.runs[0].results ?? [];
      assert.equal(results.length, validation.findings.length);
      const lines = text.split('\n');
      validation.findings.forEach((f, i) => {
        const region = results[i].locations?.[0].physicalLocation?.region;
        // Independently: line and column of the offset by counting the newlines before it.
        const before = text.slice(0, f.offset).split('\n');
        assert.equal(region?.startLine, before.length);
        assert.equal(region?.startColumn, before[before.length - 1].length + 1);
        assert.equal(region?.charOffset, f.offset);
        assert.equal(region?.charLength, f.length);
        assert.equal(lines[before.length - 1].slice((region?.startColumn ?? 0) - 1, (region?.endColumn ?? 0) - 1), text.slice(f.offset, f.offset + f.length));
        assert.equal(results[i].locations?.[0].logicalLocations?.[0].fullyQualifiedName, f.pointer);
      });
      const distance = results.find((r) => r.locations?.[0].logicalLocations?.[0].fullyQualifiedName === '/distance');
      assert.deepEqual(distance?.locations?.[0].physicalLocation?.region, { startLine: 8, startColumn: 3, endLine: 8, endColumn: 17, charOffset: text.indexOf('"distance"'), charLength: 14 });
      assert.equal(distance?.level, 'error');
    });

    it('reports files that are not JSON, empty lists and unreadable files as results of their own rule', () => {
      const input: ReportEntry[] = [
        entryOf('broken.json', '{"id": "x",\n  "steps": }'),
        entryOf('empty-list.json', '[]'),
        { file: { name: 'gone.json', path: 'gone.json' }, problem: { message: 'no such file' } },
        { file: { name: 'standard input' }, problem: { message: 'is empty' } },
      ];
      const log = assertSarif(writeReport(new SarifWriter({ baseFolder: repoRoot }), input), 'problems');
      const results = log.runs[0].results ?? [];
      assert.deepEqual(results.map((r) => r.ruleId), ['file-not-validated', 'file-not-validated', 'file-not-validated', 'file-not-validated']);
      assert.match(results[0].message.text ?? '', /broken\.json is not valid JSON \(a value is expected at line 2, column 12\)/);
      assert.deepEqual(results[0].locations?.[0].physicalLocation?.region?.startLine, 2);
      assert.equal(results[3].locations, undefined, 'standard input has no file to point at');
      assert.equal(log.runs[0].artifacts?.length, 3);
    });

    it('is valid, parses back to the same text, and is inert on hostile payloads and file names', () => {
      for (const { path, text } of hostileTexts()) {
        const out = writeReport(new SarifWriter({ baseFolder: repoRoot }), [entryOf(path, text)]);
        assertInert(out, `SARIF of ${JSON.stringify(path)}`);
        const log = assertSarif(out, path);
        assert.ok((log.runs[0].results?.length ?? 0) > 0, path);
      }
      // The file name comes back whole from the escapes.
      const evil = hostileTexts()[3];
      const log = JSON.parse(writeReport(new SarifWriter({ baseFolder: repoRoot }), [entryOf(evil.path, evil.text)])) as Sarif.Log;
      assert.equal(decodeURIComponent(log.runs[0].artifacts?.[0].location?.uri ?? ''), evil.path);
      assert.ok(log.runs[0].results?.[0].message.text?.startsWith(evil.path));
    });
    it('writes each result as JSON.stringify writes the result object, byte for byte, hostile text included', () => {
      // The reference: the result objects built plainly and stringified, as SARIF writers do.
      const rules = (assertSarif(writeReport(new SarifWriter(), []), 'empty').runs[0].tool.driver.rules ?? []).map((r) => ({ id: r.id, level: r.defaultConfiguration?.level }));
      const ruleOf: Record<string, number> = { error: 0, warning: 1, zero: 2, deprecated: 3, unknown: 4 };
      const reference = (entry: ReportEntry, fileIndex: number): string[] => {
        const out: string[] = [];
        const location = entry.file.path === undefined ? undefined : { ...artifactLocation(entry.file.path), index: fileIndex };
        const result = (rule: number, text: string, range: ReportRecord['findings'][number]['range'], pointer?: string, properties?: object): void => {
          const r: Record<string, unknown> = { ruleId: rules[rule].id, ruleIndex: rule, level: rules[rule].level, message: { text } };
          if (location !== undefined) {
            const region = range && { startLine: range.start.line + 1, startColumn: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1, charOffset: range.offset, charLength: range.length };
            r.locations = [{ physicalLocation: { artifactLocation: location, region }, logicalLocations: pointer ? [{ fullyQualifiedName: pointer, kind: 'property' }] : undefined }];
          }
          if (properties !== undefined) r.properties = properties;
          out.push(inertJson(JSON.stringify(r)));
        };
        if ('problem' in entry) result(5, `${entry.file.name} ${entry.problem.message}`, entry.problem.range);
        else
          for (const rec of entry.records) {
            const properties = { recordIndex: rec.index, recordId: rec.id, recordKind: rec.kind, recordDate: rec.date };
            for (const f of rec.findings) result(ruleOf[f.kind], rec.index === undefined ? f.message : `${f.message} (record #${rec.index})`, f.range, f.pointer, properties);
          }
        return out;
      };
      const streamed: ReportRecord = {
        index: 7,
        pointer: '',
        kind: 'activity',
        id: '\u202eid',
        date: undefined,
        valid: false,
        findings: [{ kind: 'unknown', pointer: '/\u2028x\ud800', message: '\u202ex\ud800 is not defined', range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } } }],
      };
      const inputs: ReportEntry[] = [
        ...entries(shippedPayloads()),
        ...hostileTexts().map(({ path, text }) => entryOf(path, text)),
        { file: { name: 'streamed.ndjson', path: 'streamed.ndjson' }, records: [streamed, { ...streamed, index: undefined }] },
        { file: { name: 'standard input' }, records: [streamed] },
        { file: { name: 'gone.json', path: 'gone.json' }, problem: { message: 'no such \u202e file' } },
      ];
      const out = writeReport(new SarifWriter({ baseFolder: repoRoot }), inputs);
      const written = out.split('\n').filter((line) => line.startsWith('    {"ruleId"')).map((line) => line.trim().replace(/,$/, ''));
      let files = 0;
      const expected = inputs.flatMap((e) => reference(e, e.file.path === undefined ? -1 : files++));
      assert.ok(expected.length > 100, `${expected.length} results`);
      assert.equal(written.length, expected.length);
      written.forEach((line, i) => assert.equal(line, expected[i], `result ${i}`));
    });
  });

  describe('JUnit XML', () => {
    // htmlEntities: fast-xml-parser decodes numeric character references only with it.
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', htmlEntities: true, isArray: (name) => ['testsuite', 'testcase'].includes(name) });
    type Case = { name: string; classname: string; failure?: { message: string; type: string; '#text': string }; error?: { message: string }; 'system-out'?: string };
    type Suites = { testsuites: { testsuite: Array<{ name: string; tests: string; failures: string; errors: string; testcase: Case[] }> } };

    it('parses back: a testsuite per file, a testcase per record named by kind, id and day, a failure for a record with errors', () => {
      const paths = shippedPayloads();
      const input = entries(paths);
      const xml = writeReport(new JunitWriter(), input);
      assert.equal(XMLValidator.validate(xml), true);
      const parsed = parser.parse(xml) as Suites;
      const suites = parsed.testsuites.testsuite;
      assert.equal(suites.length, paths.length);
      suites.forEach((suite, i) => {
        const entry = input[i];
        assert.equal(suite.name, entry.file.name);
        const records = [...(entry.records ?? [])];
        assert.equal(suite.testcase.length, records.length + ('problem' in entry ? 1 : 0));
        assert.equal(Number(suite.tests), suite.testcase.length);
        assert.equal(Number(suite.failures), records.filter((r) => !r.valid).length);
        assert.equal(suite.testcase.filter((c) => c.failure).length, Number(suite.failures));
      });
      const heartRate = suites.find((s) => s.name === 'examples/heart-rate-summary.health.json')!;
      const hrCase = heartRate.testcase[0];
      assert.equal(hrCase.name, 'record Heart rate summary 6a1f3c9e2b7d4e0058c1a3f6 2026-11-18');
      assert.equal(hrCase.classname, 'examples/heart-rate-summary.health.json');
      assert.equal(hrCase.failure?.type, 'error');
      assert.match(hrCase.failure?.['#text'] ?? '', /\[error\] \/value at line 1, column 1: value is required/);
      assert.match(hrCase['system-out'] ?? '', /\[deprecated\] \/userId at line 3, column 3/);
      const activity = suites.find((s) => s.name === 'examples/activity-summaries.health.json')!;
      assert.deepEqual(activity.testcase.map((c) => c.name), ['#0 Activity summary 6a1f3c9e2b7d4e0058c1a3f5 2026-11-18', '#1 Activity summary 6a1f3c9e2b7d4e0058c1a3f2 2026-11-18']);
    });

    it('fails the records --fail-on names too, and gives unreadable files an error', () => {
      const input: ReportEntry[] = [entryOf('examples/activity-summaries.health.json', readFileSync(join(repoRoot, 'examples/activity-summaries.health.json'), 'utf8')), entryOf('broken.json', '{')];
      const parsed = parser.parse(writeReport(new JunitWriter({ failOn: parseFailOn(['zero']) }), input)) as Suites;
      const [activity, broken] = parsed.testsuites.testsuite;
      assert.equal(activity.failures, '1');
      assert.equal(activity.testcase[1].failure?.type, 'zero');
      assert.match(activity.testcase[1].failure?.['#text'] ?? '', /\[zero\] \/1\/steps/);
      assert.match(activity.testcase[1]['system-out'] ?? '', /\[deprecated\]/, 'what does not fail is shown, apart');
      assert.equal(broken.errors, '1');
      assert.match(broken.testcase[0].error?.message ?? '', /broken\.json is not valid JSON/);
    });

    it('cuts a file of more records than a suite holds into suites named by their records, holding at most that many cases', () => {
      const total = SUITE_CASES * 2 + 5;
      const records: ReportRecord[] = Array.from({ length: total }, (_, i) => ({
        index: i,
        kind: 'activity',
        id: `a${i}`,
        date: '2026-11-20',
        valid: i % 997 !== 0,
        findings: i % 997 === 0 ? [{ kind: 'error', pointer: '/steps', message: 'steps must be a number' }] : [],
      }));
      const writer = new JunitWriter();
      // Fed as the CLI feeds it: what each call returns is written at once, never held whole.
      let xml = writer.start() + writer.file({ name: 'big.ndjson', path: 'big.ndjson' });
      let longest = 0;
      for (const r of records) {
        const piece = writer.record(r);
        longest = Math.max(longest, piece.length);
        xml += piece;
      }
      xml += writer.endFile() + writer.file({ name: 'small.json', path: 'small.json' }) + writer.record(records[1]) + writer.endFile() + writer.end();
      assert.ok(longest > 0 && longest < SUITE_CASES * 200, `a suite of ${longest} characters at most`);
      assert.equal(XMLValidator.validate(xml), true);
      const suites = (parser.parse(xml) as Suites).testsuites.testsuite;
      assert.deepEqual(
        suites.map((s) => [s.name, Number(s.tests), s.testcase.length]),
        [
          [`big.ndjson, records #0–#${SUITE_CASES - 1}`, SUITE_CASES, SUITE_CASES],
          [`big.ndjson, records #${SUITE_CASES}–#${2 * SUITE_CASES - 1}`, SUITE_CASES, SUITE_CASES],
          [`big.ndjson, records #${2 * SUITE_CASES}–#${total - 1}`, 5, 5],
          ['small.json', 1, 1],
        ],
      );
      const failing = records.filter((r) => !r.valid).length;
      assert.equal(suites.slice(0, 3).reduce((n, s) => n + Number(s.failures), 0), failing);
      assert.deepEqual(suites.slice(0, 3).flatMap((s) => s.testcase.map((c) => c.name)), records.map((r) => `#${r.index} Activity summary ${r.id} 2026-11-20`));
    });

    it('is well-formed and inert on hostile payloads and names; what XML can hold comes back unchanged', () => {
      for (const { path, text } of hostileTexts()) {
        const xml = writeReport(new JunitWriter(), [entryOf(path, text)]);
        assertInert(xml, `JUnit of ${JSON.stringify(path)}`);
        assert.equal(XMLValidator.validate(xml), true, path);
        parser.parse(xml);
      }
      const tricky = 'a<b>&"\'\u202Ec\u0085\td\re\u001bf\ud800g';
      const parsed = parser.parse(`<x a="${xmlText(tricky)}">${xmlText(tricky, true)}</x>`) as { x: { a: string; '#text': string } };
      const expected = 'a<b>&"\'\u202Ec\u0085\td\re\\u001bf\\ud800g';
      assert.equal(parsed.x.a, expected, 'attribute');
      assert.equal(parsed.x['#text'], expected, 'text');
    });
  });

  describe('GitHub annotations', () => {
    it('one line per finding: error, warning or notice, file, line, col and title', () => {
      const out = writeReport(new GithubWriter(), [entryOf('dir/payload.json', ACTIVITY)]);
      const lines = out.trimEnd().split('\n');
      assert.equal(lines.length, validatePayloadText(ACTIVITY, { now: NOW }).findings.length);
      assert.ok(lines.includes('::error file=dir/payload.json,line=8,endLine=8,col=3,endColumn=17,title=Health data%3A schema error::distance must be ≥ 0, got -5'), lines.join('\n'));
      assert.ok(lines.includes('::notice file=dir/payload.json,line=3,endLine=3,col=3,endColumn=11,title=Health data%3A deprecated field::userId is deprecated: use humanId'));
      for (const line of lines) assert.match(line, /^::(error|warning|notice) file=[^,]+,line=\d+,endLine=\d+,col=\d+(,endColumn=\d+)?,title=[^,:]+::\S/);
    });

    it('escapes as GitHub documents: %25, %0D, %0A in the message; and %3A, %2C in properties', () => {
      assert.equal(githubData('100% done\r\nnext: a, b'), '100%25 done%0D%0Anext: a, b');
      assert.equal(githubProperty('C:\\dir,x/100%.json\n'), 'C%3A\\dir%2Cx/100%25.json%0A');
      const out = writeReport(new GithubWriter(), [{ file: { name: 'a,b:c%.json', path: 'a,b:c%.json' }, problem: { message: 'is\r\nnot JSON' } }]);
      assert.equal(out, '::error file=a%2Cb%3Ac%25.json,title=Health data%3A file not validated::a,b:c%25.json is%0D%0Anot JSON\n');
    });

    it('titles the problem of a file whose records came before it "file validated only in part"', () => {
      const { file, records } = entryOf('dir/payload.json', ACTIVITY);
      const problem = { message: 'is not valid JSON (a value is expected at line 9, column 1)', range: { start: { line: 8, character: 0 }, end: { line: 8, character: 0 } } };
      const lines = writeReport(new GithubWriter(), [{ file, records, problem }]).trimEnd().split('\n');
      assert.equal(lines.at(-1), '::error file=dir/payload.json,line=9,endLine=9,col=1,endColumn=1,title=Health data%3A file validated only in part::dir/payload.json is not valid JSON (a value is expected at line 9, column 1)');
      assert.equal(lines.length - 1, [...(records ?? [])].reduce((n, r) => n + r.findings.length, 0), 'the records\' findings come first');
      // Without records before it, the file was not validated at all.
      assert.match(writeReport(new GithubWriter(), [{ file, problem }]), /title=Health data%3A file not validated::/);
    });

    it('is inert on hostile payloads and names, one line per finding whatever they hold', () => {
      for (const { path, text } of hostileTexts()) {
        const out = writeReport(new GithubWriter(), [entryOf(path, text)]);
        assertInert(out, `GitHub lines of ${JSON.stringify(path)}`);
        for (const line of out.trimEnd().split('\n')) assert.match(line, /^::(error|warning|notice) /, line.slice(0, 80));
      }
    });
  });

  describe('records written on a worker thread (writeBatch, takeBatch)', () => {
    /** Every entry's records fed to `writer` in batches of `size`, each crossing as a structured clone, as `--jobs` sends them. */
    function inBatches(writer: ReturnType<typeof createBatchWriter>, all: ReportEntry[], size: number): Buffer {
      const parts: Array<string | Uint8Array> = [writer.start()];
      for (const entry of all) {
        parts.push(writer.file(entry.file));
        const records = [...(entry.records ?? [])];
        for (let i = 0; i < records.length; i += size) {
          const written = structuredClone(writeBatch(structuredClone(writer.batchContext()), records.slice(i, i + size)));
          parts.push(takeBatch(writer, written));
        }
        if ('problem' in entry) parts.push(writer.problem(entry.problem));
        parts.push(writer.endFile());
      }
      parts.push(writer.end());
      return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    }

    function createBatchWriter(format: 'sarif' | 'junit' | 'github') {
      const writer = createReportWriter(format, { baseFolder: repoRoot, failOn: parseFailOn(['deprecated']) });
      assert.ok(isBatchWriter(writer));
      return writer;
    }

    it('give the text the writer gives record by record, in every format, for any batch size, suites cut inside a batch', () => {
      const many: ReportRecord[] = Array.from({ length: SUITE_CASES + 1_234 }, (_, i) => ({
        index: i,
        kind: 'activity',
        id: `a${i}-é😀`,
        date: '2026-11-20',
        valid: i % 97 !== 0,
        findings: [
          ...(i % 97 === 0 ? [{ kind: 'error' as const, pointer: '/steps', message: 'steps must be ≥ 0', range: { start: { line: i, character: 3 }, end: { line: i, character: 3 } } }] : []),
          { kind: 'deprecated' as const, pointer: '/userId', message: 'userId is deprecated: use humanId' },
        ],
      }));
      const all = [
        ...entries(shippedPayloads()),
        ...hostileTexts().map(({ path, text }) => entryOf(path, text)),
        { file: { name: 'many.ndjson', path: 'many.ndjson' }, records: many },
        { file: { name: 'standard input' }, records: many.slice(0, 40) },
      ];
      for (const format of ['sarif', 'junit', 'github'] as const) {
        const whole = writeReport(createBatchWriter(format), all);
        assert.ok(whole.length > 100_000, format);
        // As bytes, as both reach a file: a lone surrogate in a hostile text is U+FFFD in UTF-8 either way.
        const wholeBytes = Buffer.from(whole);
        for (const size of [1, 7, 2_000, 4_999]) {
          const batched = inBatches(createBatchWriter(format), all, size);
          let at = 0;
          while (at < wholeBytes.length && batched[at] === wholeBytes[at]) at++;
          assert.ok(batched.equals(wholeBytes), `${format}, batches of ${size}: differs at byte ${at}: ${JSON.stringify(wholeBytes.subarray(at - 80, at + 80).toString())}`);
        }
      }
    });
  });

  describe('JSON', () => {
    it('keeps the shape of `--json` and is inert on hostile payloads', () => {
      for (const { path, text } of hostileTexts()) {
        const out = writeReport(createReportWriter('json'), [entryOf(path, text), entryOf('empty.json', '[]')]);
        assertInert(out, `JSON of ${JSON.stringify(path)}`);
        const parsed = JSON.parse(out) as { files: Array<{ file: string; error?: string; records: Array<Record<string, unknown>> }> };
        assert.equal(parsed.files[0].file, path);
        assert.ok(parsed.files[0].records.length > 0 || parsed.files[0].error);
        assert.equal(parsed.files[1].error, 'empty.json holds an empty list: nothing to validate');
        assert.deepEqual(parsed.files[1].records, []);
      }
    });

    it('a list with a syntax error: the records it holds whole, at the Problems panel\'s ranges and with their days, then the error', () => {
      const records = ['activity-wrist-tracker', 'activity-all-zeros', 'activity-steps-calories-sedentary', 'activity-duration-distance-calories'].map(
        (name) => JSON.parse(readFileSync(join(repoRoot, `test/fixtures/${name}.json`), 'utf8')) as Record<string, unknown>,
      );
      for (const [prefix, wrap] of [['', (t: string) => t], ['/data', (t: string) => `{"data": ${t}, "links": {}}`]] as const) {
        const whole = wrap(JSON.stringify(records, null, 2));
        // A comma missing inside record #1: the other records hold no syntax error.
        const at = whole.indexOf('"source"', whole.indexOf(`"id": ${JSON.stringify(records[1].id)}`));
        const broken = `${whole.slice(0, at - 1).trimEnd().replace(/,$/, '')}${whole.slice(at - 1)}`;
        const report = payloadReport(broken, { now: NOW });
        assert.ok('problem' in report && report.records, prefix);
        assert.match(report.problem.message, /^is not valid JSON \(a comma is expected at line \d+, column \d+\)$/);
        const fixed = [...(payloadReport(whole, { now: NOW }).records ?? [])];
        const kept = fixed.filter((r) => r.index !== 1);
        // The same records, findings and days as in the fixed text; each finding where the Problems panel has it in the broken one.
        assert.deepEqual(
          report.records.map((r) => [r.index, r.pointer, r.id, r.date, r.findings.map((f) => [f.kind, f.pointer, f.message])]),
          kept.map((r) => [r.index, r.pointer, r.id, r.date, r.findings.map((f) => [f.kind, f.pointer, f.message])]),
        );
        assert.ok(report.records.every((r) => r.date !== undefined && r.pointer === `${prefix}/${r.index}`));
        const lines = new LineIndex(broken);
        const panel = validatePayloadText(broken, { now: NOW }).findings.map((f) => [f.pointer, lines.rangeOf(f.offset, f.length)]);
        assert.deepEqual(report.records.flatMap((r) => r.findings.map((f) => [f.pointer, f.range])), panel);
        // Every format: the records' findings, then the error.
        const entry: ReportEntry = { file: reportFileFor('broken.json', repoRoot), problem: report.problem, records: report.records };
        const sarif = JSON.parse(writeReport(createReportWriter('sarif'), [entry])) as Sarif.Log;
        const results = sarif.runs[0].results ?? [];
        assert.equal(results.length, panel.length + 1);
        assert.equal(results[results.length - 1].ruleId, 'file-not-validated');
        assert.deepEqual(results[results.length - 1].properties, { partial: true }, 'validated in part');
        const json = JSON.parse(writeReport(createReportWriter('json'), [entry])) as { files: Array<{ records: Array<{ index: number }>; error: string; partial?: boolean }> };
        assert.deepEqual(json.files[0].records.map((r) => r.index), kept.map((r) => r.index));
        assert.match(json.files[0].error, /^broken\.json is not valid JSON/);
        assert.equal(json.files[0].partial, true);
        assert.match(writeReport(createReportWriter('junit'), [entry]), /<error message="broken\.json is not valid JSON[^"]*" type="file-validated-in-part">/);
      }
    });

    it('a file that breaks off after its records (cut short): the records, then its error, and the whole still parses', () => {
      const text = readFileSync(join(repoRoot, 'test/fixtures/activity-wrist-tracker.json'), 'utf8');
      const entry = entryOf('cut.json', `[${text},${text}]`);
      assert.ok('records' in entry);
      const records = [...(entry.records ?? [])];
      // As validate hands it over: records of the file came before it.
      const problem = { message: 'is not valid JSON (the string opened at line 40, column 11 is not closed)', partial: true };
      const byHand = (format: 'json' | 'sarif' | 'junit'): string => {
        const writer = createReportWriter(format);
        const parts = [writer.start(), writer.file(entry.file)];
        for (const r of records) parts.push(writer.record(r));
        parts.push(writer.problem(problem), writer.endFile(), writer.file(reportFileFor('next.json', repoRoot)), writer.problem({ message: 'is empty' }), writer.endFile(), writer.end());
        return parts.join('');
      };
      const json = JSON.parse(byHand('json')) as { files: Array<{ file: string; error?: string; partial?: boolean; records: unknown[] }> };
      assert.deepEqual(json.files.map((f) => [f.file, f.records.length, f.error, f.partial]), [
        ['cut.json', 2, `cut.json ${problem.message}`, true],
        ['next.json', 0, 'next.json is empty', undefined],
      ]);
      const sarif = JSON.parse(byHand('sarif')) as Sarif.Log;
      const files = (sarif.runs[0].results ?? []).filter((r) => r.ruleId === 'file-not-validated');
      assert.deepEqual(files.map((r) => [r.message.text, r.properties]), [
        [`cut.json ${problem.message}`, { partial: true }],
        ['next.json is empty', undefined],
      ]);
      const junit = byHand('junit');
      assert.equal(XMLValidator.validate(junit), true);
      assert.deepEqual([...junit.matchAll(/<error message="(\S+)[^"]*" type="([^"]+)"/g)].map((m) => [m[1], m[2]]), [
        ['cut.json', 'file-validated-in-part'],
        ['next.json', 'file-not-validated'],
      ]);
    });

    it('writes each record as the generic pretty printer would, escapes included', () => {
      // The writer builds a record's text by hand for speed: it must be JSON.stringify(…, null, 2)
      // indented by 8 spaces and made inert, for hostile ids, pointers and messages too.
      const reference = (r: ReportRecord): string =>
        inertJson(
          JSON.stringify(
            { index: r.index ?? null, kind: r.kind ?? null, id: r.id ?? null, valid: r.valid, findings: r.findings.map((f) => ({ kind: f.kind, path: f.pointer, message: f.message })) },
            null,
            2,
          ).replace(/\n/g, '\n        '),
        );
      let compared = 0;
      for (const { path, text } of [...hostileTexts(), ...shippedPayloads().map((p) => ({ path: p, text: readFileSync(join(repoRoot, p), 'utf8') }))]) {
        const entry = entryOf(path, text);
        if (!('records' in entry)) continue;
        const writer = createReportWriter('json');
        writer.start();
        writer.file(entry.file);
        [...(entry.records ?? [])].forEach((r, i) => {
          const head = i === 0 ? ',\n      "records": [\n        ' : ',\n        ';
          assert.equal(writer.record(r), head + reference(r), `${path} record ${i}`);
          compared++;
        });
      }
      const odd: ReportRecord = { index: undefined, kind: undefined, id: '\u202e\u0000"x"\ud800', date: undefined, valid: false, findings: [] };
      const writer = createReportWriter('json');
      assert.equal(writer.record(odd), `,\n      "records": [\n        ${reference(odd)}`);
      assert.ok(compared > 50, `${compared} records compared`);
    });
  });
});
