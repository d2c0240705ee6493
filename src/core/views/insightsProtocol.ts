// The messages between the extension host and the insights webviews (data coverage and
// trends): the one module those webview scripts import besides their own folder. The webview
// says 'ready' before the host posts anything, and every message from it is checked here.

import type { CoverageReport, TrendChart, ValueClass } from '../insights/reportTypes';
import type { ResourceKind } from '../resources';

export type { CoverageNote, CoverageReport, FieldCoverage, Overlap, SourceCoverage, TrendChart, TrendSeries, ValueClass, Verdict } from '../insights/reportTypes';
export type { ResourceKind } from '../resources';

export const COVERAGE_VIEW_TYPE = 'healthData.coverage';
export const TRENDS_VIEW_TYPE = 'healthData.trends';

export const VALUE_CLASSES: readonly ValueClass[] = ['nonZero', 'zero', 'null', 'absent'];
const KINDS: readonly ResourceKind[] = ['heartRate', 'activity', 'bodyFat'];

/** Every word the webviews show, translated by the host. `{0}` marks are filled in the webview. */
export type InsightsStrings = Readonly<Record<string, string>>;

export interface KindChoice {
  kind: ResourceKind;
  label: string;
}

export interface CoverageViewModel {
  kind: ResourceKind;
  kinds: KindChoice[];
  /** `Activity summaries · last 30 days · source fitbit · Local sandbox`. */
  heading: string;
  /** The zero-default fields of the kind: "never" there means the source does not provide it. */
  zeroDefaultFields: string[];
  /** The fields the schema marks deprecated: named so in the matrix (absent from older states). */
  deprecatedFields?: string[];
  /**
   * The fields the schema types as numbers: a count of their values other than 0 and null says
   * "non-zero", other fields' "sent" (absent from older states: "non-zero" for all).
   */
  numericFields?: string[];
  report?: CoverageReport;
  /** Set while loading, or when the load failed or was cancelled. */
  status?: InsightsStatus;
  /** Why the counts cover only part of the range, if they do. */
  incomplete?: string;
}

/** One record behind a coverage cell or a chart point. */
export interface RecordRef {
  ref: number;
  label: string;
}

export interface TrendsSection {
  kind: ResourceKind;
  label: string;
  charts: TrendChart[];
  /** Why this resource has no charts (failed load, no records), if it has none. */
  message?: string;
}

export interface TrendsViewModel {
  heading: string;
  start: string;
  end: string;
  humans: Array<{ humanId: string; records: number }>;
  humanId?: string;
  sections: TrendsSection[];
  status?: InsightsStatus;
}

/** What a panel says instead of its data: loading, failed, cancelled, or (restored after a reload) not loaded because its data came from another environment. */
export interface InsightsStatus {
  state: 'loading' | 'error' | 'cancelled' | 'elsewhere';
  message: string;
  /**
   * Not loaded because another environment is in use, while the one the data came from still
   * exists: the button that switches back to it (`switchEnvironment`), which then loads.
   */
  switchBack?: string;
}

/**
 * What an insights panel keeps with the webview's setState so that it can be restored after a
 * reload: the resource (coverage), the range, the source filter, the human (trends) and the
 * environment the data came from. No record and no secret.
 */
export interface PersistedInsightsView {
  kind?: ResourceKind;
  start: string;
  end: string;
  source?: string;
  /** The Records view's human filter the panel loaded with (not the human trends shows). */
  human?: string;
  description?: string;
  humanId?: string;
  environment?: string;
  host?: string;
}

export type InsightsHostMessage =
  | { type: 'coverage'; model: CoverageViewModel; strings: InsightsStrings; persist?: PersistedInsightsView }
  | { type: 'cellRecords'; source: string | null; field: string; which: ValueClass; records: RecordRef[]; more: number }
  | { type: 'trends'; model: TrendsViewModel; strings: InsightsStrings; persist?: PersistedInsightsView }
  | { type: 'rangeRefused'; message: string };

export type InsightsWebviewMessage =
  | { type: 'ready' }
  | { type: 'reload' }
  /** Switch back to the environment a restored panel's data came from (its status offers it). */
  | { type: 'switchEnvironment' }
  | { type: 'selectKind'; kind: ResourceKind }
  | { type: 'cell'; source: string | null; field: string; which: ValueClass }
  /** Open a record: `kind` and the index of the record in what the host loaded. */
  | { type: 'open'; kind: ResourceKind; ref: number }
  | { type: 'setRange'; start: string; end: string }
  | { type: 'selectHuman'; humanId: string };

const isKind = (v: unknown): v is ResourceKind => typeof v === 'string' && (KINDS as readonly string[]).includes(v);
const isText = (v: unknown, max = 200): v is string => typeof v === 'string' && v.length <= max;

/** A message from an insights webview, checked field by field; undefined for anything else. */
export function parseInsightsMessage(raw: unknown): InsightsWebviewMessage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
    case 'reload':
    case 'switchEnvironment':
      return { type: m.type };
    case 'selectKind':
      return isKind(m.kind) ? { type: 'selectKind', kind: m.kind } : undefined;
    case 'cell':
      if ((m.source !== null && !isText(m.source, 10_000)) || !isText(m.field, 10_000)) return undefined;
      if (!(VALUE_CLASSES as readonly unknown[]).includes(m.which)) return undefined;
      return { type: 'cell', source: m.source as string | null, field: m.field as string, which: m.which as ValueClass };
    case 'open':
      return isKind(m.kind) && Number.isInteger(m.ref) && (m.ref as number) >= 0 ? { type: 'open', kind: m.kind, ref: m.ref as number } : undefined;
    case 'setRange':
      return isText(m.start, 20) && isText(m.end, 20) ? { type: 'setRange', start: m.start, end: m.end } : undefined;
    case 'selectHuman':
      return isText(m.humanId, 10_000) ? { type: 'selectHuman', humanId: m.humanId } : undefined;
    default:
      return undefined;
  }
}

/** A restored panel's state (`{ persist }` as the webview kept it), checked field by field; undefined when unusable. */
export function parsePersistedInsights(state: unknown): PersistedInsightsView | undefined {
  const persist = state && typeof state === 'object' ? (state as { persist?: unknown }).persist : undefined;
  if (!persist || typeof persist !== 'object') return undefined;
  const p = persist as Record<string, unknown>;
  const day = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);
  if (!day(p.start) || !day(p.end)) return undefined;
  if (p.kind !== undefined && !isKind(p.kind)) return undefined;
  const text = (v: unknown) => (isText(v) && v !== '' ? v : undefined);
  return {
    kind: p.kind as ResourceKind | undefined,
    start: p.start,
    end: p.end,
    source: text(p.source),
    human: text(p.human),
    description: text(p.description),
    humanId: text(p.humanId),
    environment: text(p.environment),
    host: text(p.host),
  };
}
