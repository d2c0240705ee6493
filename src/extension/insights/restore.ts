// What an insights panel restored after a reload says when its data came from another
// environment than the one in use: it loads nothing from elsewhere until the user asks (Reload).

import * as vscode from 'vscode';
import { InsightsStatus, PersistedInsightsView, parsePersistedInsights } from '../../core/views';
import type { Session } from '../account/session';
import { originOf, originProblem } from '../recordView/recordOrigin';
import type { InsightsPanel } from './insightsPanel';
import type { InsightsFilter } from './loadEveryPage';

/** Where the data of a panel came from, as it keeps it: the environment in use now. */
export function currentOrigin(session: Session): Pick<PersistedInsightsView, 'environment' | 'host'> {
  return originOf(session.active);
}

/**
 * What a restored panel says instead of loading quietly from another environment than its own
 * (its own is not in use, is gone or moved), and, when its own still exists but is not in use,
 * the button that switches back to it; undefined when it may load.
 */
export function elsewhereStatus(session: Session, persisted: PersistedInsightsView): InsightsStatus | undefined {
  const problem = originProblem(session, persisted);
  if (!problem) return undefined;
  const from = persisted.environment ?? '';
  const here = problem.active?.name ?? vscode.l10n.t('no environment');
  if (problem.type === 'gone') return { state: 'elsewhere', message: vscode.l10n.t('Not loaded: this panel showed data from {0}, which no longer exists. Reload loads the same range from {1}.', from, here) };
  if (problem.type === 'moved') return { state: 'elsewhere', message: vscode.l10n.t('Not loaded: this panel showed data from {0} at {1}; {0} now points at {2}. Reload loads the same range from there.', from, persisted.host ?? '', problem.host) };
  return {
    state: 'elsewhere',
    message: vscode.l10n.t('Not loaded: this panel showed data from {0}, but {1} is in use. Reload loads the same range from {1}; Switch to {0} loads it from {0} again.', from, here),
    switchBack: vscode.l10n.t('Switch to {0}', from),
  };
}

/**
 * Switches back to the environment a restored panel's data came from, when it still exists, and
 * says whether it did (it says so to the person when the environment no longer exists). The
 * panel loads once this is done: a load started by the switch's first change event would be
 * aborted by its second.
 */
export async function switchBack(session: Session, environment: string | undefined): Promise<boolean> {
  if (environment === undefined || !session.environments.some((e) => e.name === environment)) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Not switched: the environment {0} no longer exists.', environment ?? ''));
    return false;
  }
  await session.switchTo(environment);
  return true;
}

/**
 * What a panel VS Code restored kept, when it is worth restoring; else the restored panel is
 * closed (nothing usable was kept, or the view's panel is open already: a blank panel helps no one).
 */
export function restorable(restored: vscode.WebviewPanel, state: unknown, open: InsightsPanel | undefined, needsKind: boolean): PersistedInsightsView | undefined {
  const persisted = parsePersistedInsights(state);
  if (persisted && (persisted.kind || !needsKind) && (!open || open.isDisposed)) return persisted;
  restored.dispose();
  return undefined;
}

/** The range, source and human a restored panel keeps (not the Records view's). */
export function keptFilter(persisted: PersistedInsightsView): InsightsFilter & { description: string } {
  const { start, end, source, human } = persisted;
  return { start, end, source, human, description: persisted.description ?? `${start} – ${end}` };
}

/**
 * Loads a restored panel once its environment is the one in use again (after a reload the local
 * sandbox's environment appears only when the extension has attached to it), while `waiting()`
 * says the panel still shows the "not loaded" message; never from another environment. Until
 * then, `restate` shows what changed: a sandbox that was gone and is back while another
 * environment is in use now offers Switch to it.
 */
export function loadWhenBack(session: Session, persisted: PersistedInsightsView, waiting: () => boolean, load: () => void, restate: (status: InsightsStatus) => void): void {
  let shown = elsewhereStatus(session, persisted);
  const listener = session.onDidChange(() => {
    if (!waiting()) {
      listener.dispose();
      return;
    }
    const status = elsewhereStatus(session, persisted);
    if (status) {
      if (status.message !== shown?.message || status.switchBack !== shown?.switchBack) restate((shown = status));
      return;
    }
    listener.dispose();
    load();
  });
}
