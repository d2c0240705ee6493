// What a person types for a saved request's expectations (Set Expected Status…, Set Time
// Limit…), read. Apart from history.ts, so the extension's first bundle does not carry them: only
// the commands that ask (loaded on first use) read typed text.

import { isExpectableStatus, isTimeLimit } from './history';

/**
 * A status typed as an expectation: `404` is 404; digits that are no status (`42`, `600`) are
 * 'notStatus'; empty text, or words (`not found`, left to a list's filter), undefined.
 */
export function typedStatus(text: string): number | 'notStatus' | undefined {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return undefined;
  const n = Number(t);
  return isExpectableStatus(n) ? n : 'notStatus';
}

/**
 * A time limit as typed: `500`, `500 ms`, `2s`, `1.5 s` (in ms); 'notLimit' for text that is a
 * time but not a limit one can set (0, past ten minutes, a fraction of a ms) or no time at all;
 * undefined for empty text (no limit).
 */
export function typedTimeLimit(text: string): number | 'notLimit' | undefined {
  const t = text.trim().toLowerCase();
  if (t === '') return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s)?$/.exec(t);
  if (!m) return 'notLimit';
  const ms = m[2] === 's' ? Number(m[1]) * 1000 : Number(m[1]);
  return isTimeLimit(ms) ? ms : 'notLimit';
}
