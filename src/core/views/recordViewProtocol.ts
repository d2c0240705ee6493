// The messages between the record panel (extension host) and its webview (media/webview.ts).
// The webview speaks first ('ready') so nothing the host posts is lost; requests carry an id
// their reply repeats. The host checks every message it gets: the webview is never trusted.
// Imports no 'vscode', so the webview bundle and the unit tests can use it.

import type { ChildPage, FindingEntry, RecordViewModel, RowWindow } from './recordViewModel';

// What the webview's script uses of the model, so it imports this one module and nothing else.
export type { ChildPage, FindingEntry, JsonNode, JsonRow, LegendEntry, RecordViewModel, RowWindow, ZoneRow } from './recordViewModel';
export { FINDING_KINDS, type FindingKind } from '../validation/findings';
import type { ResourceKind } from '../resources';

export const RECORD_VIEW_TYPE = 'healthData.record';

export const ACTIONS = ['copyJson', 'openAsJson', 'refetch', 'validate', 'showRequest'] as const;
export type ActionName = (typeof ACTIONS)[number];

/** How to fetch the record again: by id, by date, or the latest (body fat); and from where. */
export interface RecordSource {
  readonly id?: string;
  readonly date?: string;
  /** The environment the record came from, and its data host then (`127.0.0.1:8787`). */
  readonly environment?: string;
  readonly host?: string;
}

/** What a panel needs to come back after a reload: kept by the webview with setState. */
export interface PersistedRecordView {
  readonly kind: ResourceKind | undefined;
  readonly key: string;
  readonly title: string;
  readonly source: RecordSource;
  /** The record itself when small enough; otherwise it is fetched again on restore. */
  readonly record?: unknown;
  /** The exchange (history id) whose reply held the record, for "Show Request". */
  readonly exchangeId?: string;
  /** A whole payload opened with Open in Record View: its name (the panel shows it as it is). */
  readonly payload?: string;
}

/** A count's words in the singular and the plural, each with `{0}` for the number. */
export interface Counted {
  readonly one: string;
  readonly other: string;
}

/** Every word the webview shows that is not record data, translated by the host. */
export interface RecordViewStrings {
  readonly toolbar: string;
  readonly actions: Readonly<Record<ActionName, string>>;
  readonly findings: string;
  readonly noFindings: string;
  readonly moreFindings: Counted; // {0} findings not listed
  readonly legend: string;
  readonly json: string;
  readonly zones: string;
  readonly zoneColumns: readonly [string, string, string, string];
  readonly noZones: string;
  readonly valid: string;
  readonly invalid: string;
  readonly missing: string;
  readonly keys: Counted; // {0} keys
  readonly items: Counted; // {0} items
  readonly findingsInside: Counted; // {0} findings inside
  readonly moreChildren: string; // Show {0} more
  readonly loading: string;
  readonly charactersCut: Counted; // … {0} more characters
  readonly expand: string; // Expand {0}
  readonly collapse: string; // Collapse {0}
  readonly goTo: string; // Go to {0}
  readonly previousFinding: string;
  readonly nextFinding: string;
  readonly findingOf: string; // Finding {0} of {1}: {2}
  readonly jsonRows: string; // JSON, {0} rows
  readonly records: Counted; // {0} records
}

export type HostMessage =
  | {
      readonly type: 'render';
      readonly model: RecordViewModel;
      readonly strings: RecordViewStrings;
      readonly persist: PersistedRecordView;
      /** Where the record came from, as the heading says it: `From Local sandbox (127.0.0.1:8787)`. */
      readonly origin?: string;
      /** Actions that cannot apply to this panel (a file's payload has no id to fetch again, no request): not shown. */
      readonly unavailable?: readonly ActionName[];
    }
  | { readonly type: 'children'; readonly requestId: number; readonly page: ChildPage }
  | {
      readonly type: 'rows';
      readonly requestId: number;
      readonly window: RowWindow;
      /** The row asked for by `reveal` or `finding`, now shown (its containers opened). */
      readonly revealed?: number;
      /** The finding asked for, with its position among all findings. */
      readonly finding?: { readonly index: number; readonly total: number; readonly entry: FindingEntry };
    }
  | { readonly type: 'failed'; readonly requestId: number; readonly message: string }
  | { readonly type: 'actionDone'; readonly requestId: number; readonly ok: boolean; readonly message?: string };

export type WebviewMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'action'; readonly requestId: number; readonly action: ActionName }
  | { readonly type: 'expand'; readonly requestId: number; readonly version: number; readonly pointer: string; readonly offset: number }
  | RowsRequest;

/**
 * A window of the virtual list's rows, after opening or closing a container (`toggle`), or
 * after showing a pointer (`reveal`) or the finding at an index (`finding`): then the window is
 * the one around that row, and `start` is ignored.
 */
export interface RowsRequest {
  readonly type: 'rows';
  readonly requestId: number;
  readonly version: number;
  readonly start: number;
  readonly count: number;
  readonly toggle?: { readonly pointer: string; readonly open: boolean };
  readonly reveal?: string;
  readonly finding?: number;
}

const isPointer = (v: unknown): v is string => typeof v === 'string' && v.length <= 100_000 && (v === '' || v.startsWith('/'));

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The message if it is one the webview may send, exactly; undefined for anything else. */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'action':
      if (!isId(m.requestId) || !(ACTIONS as readonly unknown[]).includes(m.action)) return undefined;
      return { type: 'action', requestId: m.requestId, action: m.action as ActionName };
    case 'expand':
      if (!isId(m.requestId) || !isId(m.version) || !isId(m.offset)) return undefined;
      if (!isPointer(m.pointer)) return undefined;
      return { type: 'expand', requestId: m.requestId, version: m.version, pointer: m.pointer, offset: m.offset };
    case 'rows': {
      if (!isId(m.requestId) || !isId(m.version) || !isId(m.start) || !isId(m.count)) return undefined;
      let toggle: RowsRequest['toggle'];
      if (m.toggle !== undefined) {
        const t = m.toggle as Record<string, unknown> | null;
        if (!t || typeof t !== 'object' || !isPointer(t.pointer) || typeof t.open !== 'boolean') return undefined;
        toggle = { pointer: t.pointer, open: t.open };
      }
      if (m.reveal !== undefined && !isPointer(m.reveal)) return undefined;
      if (m.finding !== undefined && !isId(m.finding)) return undefined;
      return { type: 'rows', requestId: m.requestId, version: m.version, start: m.start, count: m.count, toggle, reveal: m.reveal as string | undefined, finding: m.finding as number | undefined };
    }
    default:
      return undefined;
  }
}
