// What the record view shows of one record, as plain data the webview renders as text: its
// title, the validator's findings (counted, listed and marked on the JSON), a legend of the
// marks, and for heart rate summaries the zones as a table. No vscode, no DOM.

// findings.ts is validation's vocabulary, a leaf: the record view (and so the webview) takes it
// alone, without the validator behind the folder's entry file.
import { FINDING_KINDS, fieldLabel, type Finding, type FindingKind } from '../validation/findings';
import { ChildPage, FindingIndex, JsonNode, JsonTreeBuilder, anchorOf, estimateSize, inDocumentOrder } from './jsonTree';
import { JsonRow, RowModel } from './rowModel';
import { cutText, formatDurationHm, recordTitle, shortId, textField } from './labels';
import { ResourceKind, isResourceKind, resource } from '../resources';

export type { ChildPage, JsonNode, ViewMark } from './jsonTree';
export type { JsonRow } from './rowModel';


/** How a mark reads: a symbol and a word (never colour alone), and what it means. */
export interface MarkText {
  readonly icon: string;
  readonly word: string;
  readonly description: string;
}

export const DEFAULT_MARK_TEXT: Readonly<Record<FindingKind, MarkText>> = {
  error: { icon: '✖', word: 'error', description: 'Breaks the schema (underlined).' },
  warning: { icon: '⚠', word: 'warning', description: 'Well-formed but implausible or inconsistent.' },
  zero: { icon: '0', word: 'zero', description: 'The value is 0: a field the source may not provide; the finding says more when its other records are loaded.' },
  deprecated: { icon: '⊘', word: 'deprecated', description: 'Deprecated by the service (struck through); use the replacement named.' },
  unknown: { icon: '?', word: 'unknown', description: 'Not defined by the schema: a field the source added.' },
};

export interface FindingEntry {
  readonly kind: FindingKind;
  readonly path: string;
  /** The path as a person reads it: `zones/2/min`, or `record`. */
  readonly field: string;
  readonly message: string;
  /** DOM id of the JSON node the finding marks. */
  readonly anchorId: string;
}

export interface ZoneRow {
  readonly pointer: string;
  readonly anchorId: string;
  readonly name: string;
  /** `97–135 bpm`. */
  readonly range: string;
  /** Time in the zone as h:mm. */
  readonly time: string;
  readonly calories: string;
}

export interface LegendEntry extends MarkText {
  readonly kind: FindingKind;
}

export interface RecordViewModel {
  /** Changes on every render: replies to an older render are ignored. */
  readonly version: number;
  /** `Activity 2026-11-20 · fitbit`. */
  readonly title: string;
  readonly kind: ResourceKind | undefined;
  /** `Activity summary`; undefined when the kind is unknown. */
  readonly kindLabel: string | undefined;
  readonly valid: boolean;
  readonly counts: Readonly<Record<FindingKind, number>>;
  /** The first MAX_FINDINGS findings, in the order of the record's fields (inDocumentOrder), as Previous/Next walk them. */
  readonly findings: readonly FindingEntry[];
  readonly findingsTotal: number;
  /** The JSON as a tree; absent when there is no record to show (then `note` says why) or it is virtual. */
  readonly root?: JsonNode;
  /** A list or a large record: the JSON as rows of a virtual list, the first window of them. */
  readonly rows?: RowWindow;
  /** A list of records: how many. */
  readonly records?: number;
  /** Heart rate zones, for kinds whose table row names a zones field; absent otherwise. */
  readonly zones?: readonly ZoneRow[];
  readonly legend: readonly LegendEntry[];
  readonly note?: string;
  /** What the zeros were compared with (the source's other records in the Records view), said under the counts. */
  readonly zeroBasis?: string;
}

export interface RecordViewOptions {
  version?: number;
  markText?: Readonly<Record<FindingKind, MarkText>>;
  /** The value is a list of records (`labelOf` names each); findings' paths are the list's pointers. */
  list?: ListOptions;
  /** Show the JSON as a virtual list of rows; by default for lists and records above VIRTUAL_BYTES. */
  virtual?: boolean;
  /** What the zero findings were compared with (see zeroContext.ts), for the findings section. */
  zeroBasis?: string;
}

/** A payload shown as a list of records. */
export interface ListOptions {
  /** Where the records are: '' for an array, `/data` for a wrapper. */
  readonly pointer: string;
  readonly count: number;
  readonly title: string;
  /** The label of a closed record of the list. */
  readonly labelOf: (index: number, value: unknown) => string | undefined;
}

/** Some rows of the virtual list, and how many rows there are in all. */
export interface RowWindow {
  readonly total: number;
  readonly start: number;
  readonly rows: readonly JsonRow[];
}

export interface AnsweredRows {
  readonly window: RowWindow;
  readonly revealed?: number;
  readonly finding?: { readonly index: number; readonly total: number; readonly entry: FindingEntry };
}

/** Records estimated larger than this (bytes of JSON) are shown as a virtual list. */
export const VIRTUAL_BYTES = 2_000_000;
/** Rows in the window sent with the first render: a tall screen of them. */
export const FIRST_WINDOW = 120;

/** Findings listed at the top; the JSON marks them all, and the counts count them all. */
export const MAX_FINDINGS = 500;

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

const legendOf = (markText: Readonly<Record<FindingKind, MarkText>>): LegendEntry[] =>
  FINDING_KINDS.map((kind) => ({ kind, ...markText[kind] }));

function countsOf(findings: readonly Finding[]): Record<FindingKind, number> {
  const counts: Record<FindingKind, number> = { error: 0, warning: 0, zero: 0, deprecated: 0, unknown: 0 };
  for (const f of findings) if (counts[f.kind] !== undefined) counts[f.kind]++;
  return counts;
}

const numberText = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) ? numberFormat.format(v) : undefined);

export const MAX_ZONE_ROWS = 50;
const MAX_ZONE_NAME = 120;

/** The rows of a record's zones table (the record view's, and `health-data get`'s): at most MAX_ZONE_ROWS. */
export function zoneRows(record: unknown, field: string): ZoneRow[] {
  const zones = record && typeof record === 'object' ? (record as Record<string, unknown>)[field] : undefined;
  if (!Array.isArray(zones)) return [];
  const rows: ZoneRow[] = [];
  // A table of zones is for people: a source's handful. Hostile or broken payloads with
  // thousands are capped, and each name is cut, so the model stays small.
  for (let i = 0; i < Math.min(zones.length, MAX_ZONE_ROWS); i++) {
    const zone: unknown = zones[i];
    const z = zone && typeof zone === 'object' && !Array.isArray(zone) ? (zone as Record<string, unknown>) : {};
    const pointer = `/${field}/${i}`;
    const min = numberText(z.min);
    const max = numberText(z.max);
    rows.push({
      pointer,
      anchorId: anchorOf(pointer),
      name: typeof z.name === 'string' ? cutText(z.name, MAX_ZONE_NAME) : '—',
      range: min !== undefined || max !== undefined ? `${min ?? '?'}–${max ?? '?'} bpm` : '—',
      time: typeof z.duration === 'number' ? formatDurationHm(z.duration) : '—',
      calories: numberText(z.caloriesBurned) ?? '—',
    });
  }
  return rows;
}

/** The title of a record of a kind, or of a record whose kind is not known. */
export function titleOf(record: unknown, kind: ResourceKind | undefined): string {
  if (isResourceKind(kind)) return recordTitle(record, kind);
  const id = shortId(textField(record, 'id'));
  return id ? `Record ${id}` : 'Record';
}

/**
 * The view of one record: keep it to answer the webview when it opens a closed container
 * (`childPage`); `model` is what is sent to render.
 */
export class RecordView {
  readonly model: RecordViewModel;
  private readonly tree: JsonTreeBuilder;
  /** The virtual list's rows, for a list or a large record. */
  readonly rows: RowModel | undefined;
  private readonly findings: readonly Finding[];

  constructor(record: unknown, kind: ResourceKind | undefined, findings: readonly Finding[], options: RecordViewOptions = {}) {
    const def = isResourceKind(kind) ? resource(kind) : undefined;
    const index = new FindingIndex(record, findings);
    findings = inDocumentOrder(record, findings, index);
    this.findings = findings;
    this.tree = new JsonTreeBuilder(record, index);
    const list = options.list;
    const virtual = options.virtual ?? (list !== undefined || estimateSize(record, VIRTUAL_BYTES) > VIRTUAL_BYTES);
    this.rows = virtual ? new RowModel(record, index, { list: list?.pointer, labelOf: list?.labelOf }) : undefined;
    const counts = countsOf(findings);
    const listed = findings.slice(0, MAX_FINDINGS).map((f) => ({
      kind: f.kind,
      path: f.path,
      field: fieldLabel(f.path),
      message: f.message,
      // A finding on a missing field marks its placeholder, whose pointer is the finding's path.
      anchorId: anchorOf(f.path),
    }));
    this.model = {
      version: options.version ?? 0,
      title: list?.title ?? titleOf(record, def?.kind),
      kind: def?.kind,
      kindLabel: def?.singular,
      valid: counts.error === 0,
      counts,
      findings: listed,
      findingsTotal: findings.length,
      root: this.rows ? undefined : this.tree.root(),
      rows: this.rows ? { total: this.rows.total, start: 0, rows: this.rows.window(0, FIRST_WINDOW) } : undefined,
      records: list?.count,
      zones: def?.zonesField !== undefined && !list ? zoneRows(record, def.zonesField) : undefined,
      legend: legendOf(options.markText ?? DEFAULT_MARK_TEXT),
      ...(options.zeroBasis !== undefined ? { zeroBasis: options.zeroBasis } : {}),
    };
  }

  /** A page of the children of the container at `pointer`, for the webview; undefined if none. */
  childPage(pointer: string, offset: number): ChildPage | undefined {
    return this.tree.childPage(pointer, offset);
  }

  /**
   * Answers the webview's request for rows: opens or closes a container, or shows a pointer or
   * a finding (opening what holds it) and gives the window around it. Undefined when this view
   * has no virtual list or the finding is not there.
   */
  answerRows(request: { start: number; count: number; toggle?: { pointer: string; open: boolean }; reveal?: string; finding?: number }): AnsweredRows | undefined {
    const rows = this.rows;
    if (!rows) return undefined;
    if (request.toggle) rows.toggle(request.toggle.pointer, request.toggle.open);
    let finding: AnsweredRows['finding'];
    let pointer = request.reveal;
    if (request.finding !== undefined) {
      const entry = this.findingAt(request.finding);
      if (!entry) return undefined;
      finding = { index: request.finding, total: this.findings.length, entry };
      pointer = entry.path;
    }
    let start = request.start;
    let revealed: number | undefined;
    if (pointer !== undefined) {
      // A finding on a field the pointer cannot reach (a missing field under a missing parent) marks the record.
      revealed = rows.reveal(pointer) ?? 0;
      start = Math.max(0, revealed - Math.floor(request.count / 2));
    }
    return { window: { total: rows.total, start, rows: rows.window(start, request.count) }, revealed, finding };
  }

  /** The finding at `index` of all of them (the list shows the first MAX_FINDINGS). */
  findingAt(index: number): FindingEntry | undefined {
    const f = this.findings[index];
    return f && { kind: f.kind, path: f.path, field: fieldLabel(f.path), message: f.message, anchorId: anchorOf(f.path) };
  }
}

/** The model of a record and its findings (see RecordView). */
export function buildRecordViewModel(
  record: unknown,
  kind: ResourceKind | undefined,
  findings: readonly Finding[],
  options?: RecordViewOptions,
): RecordViewModel {
  return new RecordView(record, kind, findings, options).model;
}

/** A view with no record: restored without its data, or being fetched. `note` says which. */
export function emptyRecordViewModel(title: string, kind: ResourceKind | undefined, note: string, options: RecordViewOptions = {}): RecordViewModel {
  return {
    version: options.version ?? 0,
    title,
    kind,
    kindLabel: isResourceKind(kind) ? resource(kind).singular : undefined,
    valid: true,
    counts: countsOf([]),
    findings: [],
    findingsTotal: 0,
    legend: legendOf(options.markText ?? DEFAULT_MARK_TEXT),
    note,
  };
}
