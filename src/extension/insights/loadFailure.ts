// What an insights panel says when a load fails or is cancelled, and how it keeps what it showed:
// a reload that does not finish must not lose the counts or charts of the last complete load of
// the same view (same resource, range, source and environment), so those stay, marked.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import type { InsightsStatus } from '../../core/views';
import type { Session } from '../account/session';
import { errorMessage } from '../shared/showError';

/** The last complete load of a view: what is needed to show it again, and when it was loaded. */
export interface CompleteLoad<D> {
  readonly key: string;
  readonly data: D;
  readonly at: number;
}

/** What makes two loads the same view: a kept load is shown again only for the same key. */
export const loadKey = (...parts: Array<string | undefined>): string => JSON.stringify(parts);

/**
 * The status line of a load that ended in `err`; `keptAt` when the panel still shows the last
 * complete load of the same view (from that time). A failure is written to the log too.
 */
export function loadFailure(session: Session, err: unknown, keptAt: number | undefined): InsightsStatus {
  const cancelled = err instanceof HealthDataError && err.kind === 'cancelled';
  const kept =
    keptAt === undefined
      ? undefined
      : vscode.l10n.t('Still showing what was loaded at {0}.', new Date(keptAt).toLocaleTimeString(vscode.env.language, { hour: '2-digit', minute: '2-digit' }));
  if (cancelled) {
    return { state: 'cancelled', message: kept ? `${vscode.l10n.t('Loading was cancelled.')} ${kept}` : vscode.l10n.t('Loading was cancelled. Reload to try again.') };
  }
  const message = vscode.l10n.t('Loading failed: {0}', errorMessage(session, err));
  session.log.warn(message);
  return { state: 'error', message: kept ? `${message} ${kept}` : message };
}
