// `health-data token`, `get` and `list`: requests to the service, printed as tables with the
// validator's findings marked, or as JSON for scripts.

import { DateRangeProblem, dateRangeProblem, isCalendarDate, localDateOf, today } from '../core/dates';
import { HealthDataError } from '../core/errors';
import type { ExportFormat } from '../core/export';
import { humanCounts, recordsByHuman } from '../core/insights';
import { inertJson } from '../core/reports';
import { MAX_ZONE_ROWS, ZeroTally, headlineOf, recordTitle, textField, zoneRows } from '../core/views';
import { ResourceDefinition, ResourceKind, findResource, RESOURCES, resource } from '../core/resources';
import { Finding, validate } from '../core/validation';
import { ListQuery, isSinceValue } from '../core/service';
import type { Connection } from './connection';
import { printCurl } from './exchanges';
import { Output, countFindings, mark, paint, printable, recordCount, table } from './output';
import { ExportFlags, exportCommand, exportFormatOf } from './export';

export function resolveResource(name: string | undefined): ResourceDefinition {
  const names = RESOURCES.map((r) => r.cliName).join(', ');
  if (!name) throw new HealthDataError('usage', `Name a resource: ${names}.`);
  const def = findResource(name);
  if (!def) throw new HealthDataError('usage', `Unknown resource "${printable(name, 30)}": use one of ${names}.`);
  return def;
}

export async function tokenCommand(conn: Connection, o: Output, flags: { show?: boolean; json?: boolean }): Promise<number> {
  const token = await conn.client.mintClientToken();
  const expiresAt = new Date(token.expiresAt).toISOString();
  if (flags.json) {
    const reply: Record<string, unknown> = { expiresAt, expiresIn: token.expiresIn, claims: token.claims ?? null };
    if (flags.show) reply.token = token.token;
    o.out(inertJson(JSON.stringify(reply, null, 2)));
    return 0;
  }
  o.out(paint(o, 'green', 'Client token minted.'));
  o.out(`  expires in  ${formatSeconds(token.expiresIn)} (at ${expiresAt})${token.expiresInAssumed ? ' [assumed: the reply had no expires_in]' : ''}`);
  if (token.claims) {
    for (const [name, value] of Object.entries(token.claims)) {
      const shown = (name === 'exp' || name === 'iat' || name === 'nbf') && typeof value === 'number'
        ? `${value} (${new Date(value * 1000).toISOString()})`
        : printable(JSON.stringify(value));
      o.out(`  ${name.padEnd(10)}  ${shown}`);
    }
  } else {
    o.out('  claims      none: the token is not a JWT');
  }
  if (flags.show) o.out(`  token       ${token.token}`);
  else o.out(paint(o, 'dim', '  (the token itself is not printed; add --show to print it)'));
  return 0;
}

/** A usage error when `get` cannot ask for `target`: checked before the connection is made. */
export function checkGetTarget(def: ResourceDefinition, target: string | undefined): void {
  if (target === undefined) {
    if (!def.latestPath) throw new HealthDataError('usage', `get ${def.cliName} needs an id${def.byDate ? ' or a date (YYYY-MM-DD)' : ''}.`);
    return;
  }
  if (!target.trim()) throw new HealthDataError('usage', 'The id or date is empty.');
  if (/^\d{1,4}-\d{1,2}-\d{1,2}$/.test(target) && !/^\d{4}-\d{2}-\d{2}$/.test(target)) {
    throw new HealthDataError('usage', `"${printable(target, 30)}" looks like a date: write dates as YYYY-MM-DD.`);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(target) && def.byDate && !isCalendarDate(target)) {
    throw new HealthDataError('usage', `${target} is not a real calendar date.`);
  }
}

export async function getCommand(
  conn: Connection,
  o: Output,
  def: ResourceDefinition,
  target: string | undefined,
  flags: { json?: boolean; all?: boolean; curl?: boolean },
): Promise<number> {
  // `target` passed checkGetTarget.
  let record: unknown;
  let sameDate: unknown[] = [];
  if (target === undefined) {
    if (flags.curl) return printCurl(conn, o, conn.client.recordUrl(def.kind));
    record = await conn.client.getLatest(def.kind);
  } else {
    if (flags.curl) return printCurl(conn, o, conn.client.recordUrl(def.kind, target));
    if (def.byDate && /^\d{4}-\d{2}-\d{2}$/.test(target)) {
      // The by-date endpoint answers one record; the list of that day tells whether others share it.
      const [one, listed] = await Promise.all([
        conn.client.getRecord(def.kind, target),
        conn.client.list(def.kind, { startDate: target, endDate: target, all: true }).then((r) => r.records, () => [] as unknown[]),
      ]);
      record = one;
      const id = textField(one, 'id');
      sameDate = [one, ...listed.filter((r) => id === undefined || textField(r, 'id') !== id)];
    } else {
      record = await conn.client.getRecord(def.kind, target);
    }
  }
  if (sameDate.length > 1 && flags.all) record = sameDate;
  const records = Array.isArray(record) ? record : [record];
  const sharing = sameDate.length > 1
    ? `${sameDate.length} ${def.label.toLowerCase()} are dated ${target} (sources: ${[...new Set(sameDate.map((r) => printable(textField(r, 'source') ?? '?', 30)))].join(', ')})`
    : undefined;
  if (sharing && !flags.all) o.err(`${sharing}; this is the one the service answers by date. Add --all to print every one.`);
  let invalid = false;
  if (flags.json) {
    o.out(inertJson(JSON.stringify(record, null, 2)));
    invalid = records.some((r) => !validate(r, def.kind).valid);
    return invalid ? 1 : 0;
  }
  for (const r of records) {
    const result = validate(r, def.kind);
    if (!result.valid) invalid = true;
    printRecord(o, r, def.kind, result.findings);
  }
  if (sharing && flags.all) o.out(`${sharing}; all ${sameDate.length} printed above.`);
  return invalid ? 1 : 0;
}

function printRecord(o: Output, record: unknown, kind: ResourceKind, findings: Finding[]): void {
  o.out(paint(o, 'bold', printable(recordTitle(record, kind), 100)) + `  ${summaryOf(o, findings)}`);
  const fields = record && typeof record === 'object' ? (record as Record<string, unknown>) : {};
  const byField = new Map<string, Finding[]>();
  for (const f of findings) {
    const top = decodePointerSegment(f.path.split('/')[1] ?? '');
    const list = byField.get(top);
    if (list) list.push(f);
    else byField.set(top, [f]);
  }
  const names = [...Object.keys(fields)];
  for (const name of byField.keys()) if (name && !names.includes(name)) names.push(name);
  const rows = names.map((name) => {
    const value = name in fields ? describeValue(fields[name]) : paint(o, 'dim', '(missing)');
    const own = (byField.get(name) ?? []).filter((f) => f.path === `/${encodePointerSegment(name)}`);
    const marks = own.map((f) => `${mark(o, f.kind)} ${printable(f.message, 90)}`).join('; ');
    const shownName = own.some((f) => f.kind === 'deprecated') ? paint(o, 'strike', printable(name, 30)) : printable(name, 30);
    return [shownName, value, marks];
  });
  for (const line of table(o, ['field', 'value', 'findings'], rows)) o.out(`  ${line}`);
  printZones(o, record, kind);
  const nested = findings.filter((f) => f.path.split('/').length > 2 || f.path === '');
  if (nested.length) {
    o.out('  nested findings:');
    for (const f of nested) o.out(`    ${mark(o, f.kind)} ${printable(f.path || '(record)', 40)}  ${printable(f.message, 100)}`);
  }
  o.out();
}

/** A heart rate summary's zones as the record view's table shows them: name, range, time in zone, calories. */
function printZones(o: Output, record: unknown, kind: ResourceKind): void {
  const field = resource(kind).zonesField;
  if (field === undefined) return;
  const zones = zoneRows(record, field);
  if (zones.length === 0) return;
  o.out(`  ${field}:`);
  const rows = zones.map((z) => [printable(z.name, 40), z.range, z.time, z.calories]);
  for (const line of table(o, ['zone', 'range', 'time in zone (h:mm)', 'calories'], rows, [2, 3])) o.out(`    ${line}`);
  const all = (record as Record<string, unknown[]>)[field].length;
  if (all > MAX_ZONE_ROWS) o.out(paint(o, 'dim', `    … and ${all - MAX_ZONE_ROWS} more zones (--json shows every one)`));
}

/** Fields a list row names for its unknown or deprecated findings: at most this many, then a count of the rest. */
const LISTED_FIELDS = 3;

/**
 * The fields of a record's findings of one kind, as a list row names them (like its zero fields):
 * `activeMinutes`, `zones/0/extra` (the JSON Pointer without its first slash; the empty name as
 * `""`), `a,b,c +2 more`; '' when there are none. A sender's names are made printable and cut.
 */
function fieldsNamed(findings: readonly Finding[], kind: Finding['kind']): string {
  const paths = findings.filter((f) => f.kind === kind).map((f) => printable(f.path.slice(1), 30) || '""');
  if (paths.length <= LISTED_FIELDS) return paths.join(',');
  return `${paths.slice(0, LISTED_FIELDS).join(',')} +${paths.length - LISTED_FIELDS} more`;
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return `[…] ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value && typeof value === 'object') {
    const n = Object.keys(value).length;
    return n ? `{…} ${n} field${n === 1 ? '' : 's'}` : '{}';
  }
  return printable(JSON.stringify(value) ?? String(value), 50);
}

function summaryOf(o: Output, findings: Finding[]): string {
  const summary = countFindings(findings);
  if (findings.some((f) => f.kind === 'error')) return paint(o, 'red', `invalid (${summary})`);
  return paint(o, 'green', summary === 'clean' ? 'valid' : `valid (${summary})`);
}

const decodePointerSegment = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');
const encodePointerSegment = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Ids longer than this are shortened in the table (ObjectIds have 24 characters). */
const MAX_ID_WIDTH = 40;

export interface ListFlags extends ExportFlags {
  from?: string;
  to?: string;
  source?: string;
  limit?: string;
  offset?: string;
  'updated-since'?: string;
  'created-since'?: string;
  human?: string;
  all?: boolean;
  curl?: boolean;
}

/** Where an export's text goes when there is no --out, and what stops it (Ctrl-C). */
export interface ListIo {
  writeStdout: (text: string) => void;
  signal: AbortSignal;
}

/** The date-range rule's problem in the CLI's words, naming its flags. */
export function rangeProblemText(problem: DateRangeProblem): string {
  const flag = { start: '--from', end: '--to' } as const;
  switch (problem.code) {
    case 'oneDateOnly':
      // Only --to alone gets here: --from alone runs to today (datesOfFlags).
      return '--to needs --from (the service takes start_date and end_date as a pair; --from alone runs to today).';
    case 'notADate':
      return `${flag[problem.which]} must be a real calendar date YYYY-MM-DD, got "${printable(problem.value, 30)}".`;
    case 'startAfterEnd':
      return `--from ${problem.start} is after --to ${problem.end}.`;
    case 'tooLong':
      return `--from ${problem.start} to --to ${problem.end} spans more than ${problem.maxYears} years.`;
  }
}

/** Records of the query without its filter that the hint below looks at. */
const HINT_RECORDS = 200;
/** Humans named in the hint: ids are long, and the first few show whether one was mistyped. */
const HINT_HUMANS = 5;

/**
 * When a source or human filter left nothing: what the same query has without it (its first
 * page), so that a misspelt or wrongly cased source, or a human id pasted short, shows at once.
 * The source is dropped first (the human kept); when that finds nothing either and a human was
 * asked for, the human too. Undefined when the query has neither filter or a lookup fails: the
 * empty result then stands on its own.
 */
export async function emptyListHint(conn: Connection, def: ResourceDefinition, query: ListQuery, signal?: AbortSignal): Promise<string | undefined> {
  const { source, humanId } = query;
  if (source === undefined && humanId === undefined) return undefined;
  const label = def.label.toLowerCase();
  const firstPage = (q: ListQuery) => conn.client.list(def.kind, { ...q, all: false, limit: HINT_RECORDS }, { signal });
  const among = (page: { complete: boolean; records: unknown[] }) => (page.complete ? '' : ` (among the first ${page.records.length} records)`);
  try {
    if (source !== undefined) {
      const ofHuman = humanId === undefined ? '' : ` of human "${printable(humanId, 40)}"`;
      const none = `No ${label}${ofHuman} from source "${printable(source, 30)}".`;
      const page = await firstPage({ ...query, source: undefined });
      const sources = [...new Set(page.records.map((r) => textField(r, 'source')).filter((s): s is string => s !== undefined))].sort();
      if (sources.length > 0) return `${none} Without --source, the same query has records from${among(page)}: ${sources.map((s) => printable(s, 30)).join(', ')}.`;
      if (humanId === undefined) return `${none} Without --source there are none either.`;
    }
    const human = printable(humanId!, 40);
    const none = source === undefined ? `No ${label} of human "${human}".` : `No ${label} of human "${human}" from source "${printable(source, 30)}" or any other.`;
    const dropped = source === undefined ? '--human' : '--human and --source';
    const page = await firstPage({ ...query, source: undefined, humanId: undefined });
    // The humans as the trends panel ranks them: most records first.
    const humans = humanCounts([recordsByHuman(page.records)]).map((h) => h.humanId);
    if (humans.length === 0) return `${none} Without ${dropped} there are none either.`;
    const named = humans.slice(0, HINT_HUMANS).map((id) => printable(id, 40));
    const more = humans.length > HINT_HUMANS ? `, and ${humans.length - HINT_HUMANS} more` : '';
    const whom = humans.length === 1 ? 'one human' : `${humans.length} humans`;
    return `${none} Without ${dropped}, the same query has records of ${whom}${among(page)}, most records first: ${named.join(', ')}${more}.`;
  } catch {
    return undefined;
  }
}

/**
 * The dates `--from` and `--to` ask for, checked: `--from` alone runs to today (this machine's
 * date), as the service takes the two dates as a pair. A usage error when they cannot be used.
 */
export function datesOfFlags(flags: { from?: string; to?: string }, now: number = Date.now()): { from?: string; to?: string } {
  const defaulted = flags.from !== undefined && flags.to === undefined;
  const to = defaulted ? today(now, -new Date(now).getTimezoneOffset()) : flags.to;
  const range = dateRangeProblem(flags.from, to);
  if (range?.code === 'startAfterEnd' && defaulted) {
    throw new HealthDataError('usage', `--from ${range.start} is after today (${range.end}): give --to too for dates to come.`);
  }
  if (range) throw new HealthDataError('usage', rangeProblemText(range));
  return { from: flags.from, to };
}

/**
 * The list's query from its flags, and its output format: a usage error for the first flag that
 * is wrong. Checked before the connection is made, so a wrong date is named before a missing
 * address or secret, and a list never starts that would stop at a flag.
 */
export function listQueryOf(flags: ListFlags): { query: ListQuery; format: ExportFormat | undefined } {
  const dates = datesOfFlags(flags);
  let limit: number | undefined;
  if (flags.limit !== undefined) {
    limit = Number(flags.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      throw new HealthDataError('usage', `--limit must be a whole number from 1 to 500, got "${printable(flags.limit, 30)}".`);
    }
  }
  if (flags.source !== undefined && !flags.source.trim()) throw new HealthDataError('usage', '--source is empty.');
  let offset: number | undefined;
  if (flags.offset !== undefined) {
    offset = /^\d{1,15}$/.test(flags.offset) ? Number(flags.offset) : NaN;
    if (!Number.isSafeInteger(offset)) throw new HealthDataError('usage', `--offset must be a whole number, 0 or more, got "${printable(flags.offset, 30)}".`);
  }
  for (const name of ['updated-since', 'created-since'] as const) {
    const value = flags[name];
    if (value !== undefined && !isSinceValue(value)) {
      throw new HealthDataError('usage', `--${name} must be a date (YYYY-MM-DD) or an ISO date-time (2026-11-20T08:00:00Z; UTC unless it carries an offset), got "${printable(value, 40)}".`);
    }
  }
  if (flags.human !== undefined && !flags.human.trim()) throw new HealthDataError('usage', '--human is empty.');
  const format = exportFormatOf(flags);
  const query: ListQuery = {
    startDate: dates.from,
    endDate: dates.to,
    source: flags.source?.trim(),
    limit,
    offset,
    updatedSince: flags['updated-since']?.trim(),
    createdSince: flags['created-since']?.trim(),
    humanId: flags.human?.trim(),
    all: Boolean(flags.all),
  };
  return { query, format };
}

/** `list`, its query and format as listQueryOf made them from `flags`. */
export async function listCommand(conn: Connection, o: Output, def: ResourceDefinition, { query, format }: ReturnType<typeof listQueryOf>, flags: ListFlags, io: ListIo): Promise<number> {
  if (flags.curl) {
    if (flags.all) o.out('# The first page; the next pages follow the Link header (rel="next") or offset=… .');
    return printCurl(conn, o, conn.client.listUrl(def.kind, query));
  }
  if (format) return exportCommand(conn, o, def, query, format, flags, io.writeStdout, io.signal);

  const result = await conn.client.list(def.kind, query, { signal: io.signal });
  const validations = result.records.map((r) => validate(r, def.kind));
  const invalid = validations.filter((v) => !v.valid).length;
  // A 0 from a source whose other records listed here nearly all have the field stands out.
  const zeroTally = new ZeroTally();
  for (const r of result.records) zeroTally.add(def.kind, r);
  let unusualRows = 0;
  let idsCut = 0;
  // Sources whose rows show another number than the headline field, which they do not provide.
  const shownInstead = new Map<string, { records: number; units: Set<string> }>();
  const rows = result.records.map((r, i) => {
    const headline = headlineOf(r, def.kind, (field) => zeroTally.doesNotProvide(def.kind, r, field));
    if (headline !== undefined && headline !== headlineOf(r, def.kind)) {
      const source = textField(r, 'source') ?? '?';
      let shown = shownInstead.get(source);
      if (!shown) shownInstead.set(source, (shown = { records: zeroTally.othersOf(def.kind, r) + 1, units: new Set() }));
      shown.units.add(headline.slice(headline.lastIndexOf(' ') + 1));
    }
    const findings = validations[i].findings;
    const unusual = zeroTally.unusual(def.kind, r, findings);
    const zeros = findings.filter((f) => f.kind === 'zero' && f.path.split('/').length === 2).map((f) => f.path.slice(1)).filter((f) => !unusual.includes(f));
    const notes: string[] = [];
    const errors = findings.filter((f) => f.kind === 'error').length;
    const warnings = findings.filter((f) => f.kind === 'warning').length;
    if (errors) notes.push(`${mark(o, 'error')} ${errors}`);
    if (warnings) notes.push(`${mark(o, 'warning')} ${warnings}`);
    if (unusual.length) {
      unusualRows++;
      notes.push(`${paint(o, 'yellow', '[unusual 0]')} ${unusual.map((f) => printable(f, 30)).join(',')}`);
    }
    if (zeros.length) notes.push(`${mark(o, 'zero')} ${zeros.join(',')}`);
    const deprecated = fieldsNamed(findings, 'deprecated');
    if (deprecated) notes.push(`${mark(o, 'deprecated')} ${deprecated}`);
    const unknown = fieldsNamed(findings, 'unknown');
    if (unknown) notes.push(`${mark(o, 'unknown')} ${unknown}`);
    // The whole id, so it can be pasted into `get`; one too long or unprintable is counted.
    const id = textField(r, 'id');
    const shownId = id === undefined ? '?' : printable(id, MAX_ID_WIDTH);
    if (id !== undefined && shownId !== id) idsCut++;
    return [
      localDateOf(r, def.kind) ?? '?',
      shownId,
      printable(textField(r, 'source') ?? '?', 16),
      printable(headline ?? '—', 30),
      notes.join(' '),
    ];
  });
  const headlineColumn = shownInstead.size ? 'headline' : def.headline.unit === '%' ? 'value' : def.headline.unit;
  if (rows.length) for (const line of table(o, ['date', 'id', 'source', headlineColumn, 'findings'], rows, [3])) o.out(line);
  const parts = [recordCount(result.records.length, def)];
  if (result.total !== undefined) parts.push(`of ${result.total}`);
  parts.push(`${result.pages} page${result.pages === 1 ? '' : 's'}`);
  if (result.wrapper !== 'array') parts.push(`list wrapped in "${result.wrapper}"`);
  if (result.duplicatesDropped) parts.push(`${result.duplicatesDropped} duplicate${result.duplicatesDropped === 1 ? '' : 's'} dropped`);
  if (invalid) parts.push(paint(o, 'red', `${invalid} invalid`));
  o.out(parts.join(', '));
  for (const [source, shown] of [...shownInstead].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const field = def.headline.field;
    o.out(`${printable(source, 30)} does not provide ${field} (0 on all ${shown.records} of its records listed here): its rows show ${[...shown.units].join(' or ')} instead.`);
  }
  if (unusualRows) o.out(paint(o, 'yellow', `[unusual 0]: a 0 where at least 19 in 20 of the source's other records listed here have the field (${unusualRows} ${unusualRows === 1 ? 'row' : 'rows'}).`));
  if (result.records.length === 0) {
    const hint = await emptyListHint(conn, def, query, io.signal);
    if (hint) o.err(paint(o, 'yellow', hint));
  }
  if (idsCut) {
    const one = idsCut === 1;
    o.out(paint(o, 'yellow', `${idsCut} ${one ? 'id is' : 'ids are'} too long or ${one ? 'holds' : 'hold'} characters a terminal cannot show, so ${one ? 'it is' : 'they are'} shortened above: add --json for the exact ids to pass to \`health-data get ${def.cliName} <id>\`.`));
  }
  if (!result.complete) o.out(paint(o, 'yellow', flags.all ? 'The list is incomplete: paging stopped early.' : 'More records exist: add --all to fetch every page.'));
  return invalid ? 1 : 0;
}

export function formatSeconds(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h ? `${h}h ${m}m` : `${m}m ${Math.floor(seconds % 60)}s`;
}
