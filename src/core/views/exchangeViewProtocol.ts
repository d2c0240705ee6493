// The messages between the exchange panel (extension host) and its webview
// (src/webview/exchange). The webview speaks first ('ready'); actions carry an id their reply
// repeats; the host checks every message it gets. Imports no 'vscode'.

import type { ExchangeViewModel } from './exchangeViewModel';
import type { Counted } from './recordViewProtocol';
import type { TimingPhase } from '../service/timings';

export type { AttemptRow, BodyRecordRow, ExchangeBodyView, ExchangeViewModel, FindingCounts } from './exchangeViewModel';
export { TIMING_PHASES, msFigure, type AttemptTimings, type TimingPhase } from '../service/timings';
export type { FindingEntry, LegendEntry } from './recordViewModel';
export type { Counted } from './recordViewProtocol';
export { FINDING_KINDS, type FindingKind } from '../validation/findings';

export const EXCHANGE_VIEW_TYPE = 'healthData.exchange';

/** The toolbar's actions; `openRecord` is each body row's (with its index). */
export const EXCHANGE_ACTIONS = ['editAndResend', 'copyAsCode', 'saveRequest', 'openBody', 'openInRecordView', 'copyUrl'] as const;
export type ExchangeActionName = (typeof EXCHANGE_ACTIONS)[number] | 'openRecord';

/** Every word the exchange view shows that is not exchange data, translated by the host. */
export interface ExchangeViewStrings {
  readonly toolbar: string;
  readonly actions: Readonly<Record<(typeof EXCHANGE_ACTIONS)[number], string>>;
  readonly openRecord: string;
  readonly recordIndex: string; // Record {0} of the list, numbered from 0
  readonly request: string;
  readonly response: string;
  readonly requestHeaders: string;
  readonly requestBody: string;
  readonly keyHeaders: string;
  readonly allHeaders: string; // All response headers ({0})
  readonly attempts: string;
  readonly attemptColumns: readonly [string, string, string, string, string, string]; // #, started, took, first byte, status, retried because
  readonly retriedBecause: string; // {0}, waited {1} ms
  readonly timing: string;
  readonly timingOfAttempt: string; // Of attempt {0}, the last
  readonly timingColumns: readonly [string, string, string]; // phase, when, took
  readonly phases: Readonly<Record<TimingPhase, string>>;
  readonly phaseHints: Readonly<Record<TimingPhase, string>>;
  readonly newConnection: string; // New connection to {0}
  readonly reusedConnection: string; // Connection to {0} reused
  readonly attemptTook: string; // The attempt took {0} ms
  readonly firstByte: string; // first byte after {0} ms
  readonly body: string;
  readonly bodyText: string;
  readonly noBody: string;
  readonly notJson: string; // The body is not JSON: {0}
  readonly bodyCut: string; // The history kept the first part; {0} bytes were left out.
  readonly bodyShownCut: string; // Only the first {0} characters are shown; Open Body shows all.
  readonly records: Counted; // {0} records ({1})
  readonly invalidRecords: string; // {0} of them break the schema
  readonly allValid: string;
  readonly noRecords: string;
  readonly moreFindings: Counted; // {0} more findings
  readonly findings: string;
  readonly noFindings: string;
  readonly valid: string;
  readonly invalid: string;
  readonly summary: readonly [string, string, string, string, string]; // status, time, size, request id, environment
  readonly failed: string;
  readonly bytes: string; // {0} bytes
  readonly ms: string; // {0} ms
  readonly none: string;
}

export interface PersistedExchangeView {
  readonly exchangeId: string;
}

export type ExchangeHostMessage =
  | { readonly type: 'render'; readonly model: ExchangeViewModel; readonly strings: ExchangeViewStrings; readonly persist: PersistedExchangeView }
  | { readonly type: 'actionDone'; readonly requestId: number; readonly ok: boolean; readonly message?: string };

export type ExchangeWebviewMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'action'; readonly requestId: number; readonly action: ExchangeActionName; readonly index?: number };

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The message if it is one the webview may send, exactly; undefined for anything else. */
export function parseExchangeWebviewMessage(raw: unknown): ExchangeWebviewMessage | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const m = raw as Record<string, unknown>;
  if (m.type === 'ready') return { type: 'ready' };
  if (m.type !== 'action' || !isId(m.requestId)) return undefined;
  if (m.action === 'openRecord') return isId(m.index) ? { type: 'action', requestId: m.requestId, action: 'openRecord', index: m.index } : undefined;
  if (!(EXCHANGE_ACTIONS as readonly unknown[]).includes(m.action)) return undefined;
  return { type: 'action', requestId: m.requestId, action: m.action as ExchangeActionName };
}
