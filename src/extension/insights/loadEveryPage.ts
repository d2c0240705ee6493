// Loads every page of a resource for the Records view's range and source, with a cancellable
// progress notification that counts the records as they come: what the insights panels stand on.

import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { ResourceKind, resource } from '../../core/resources';
import type { Session } from '../account/session';

export interface InsightsFilter {
  readonly start: string;
  readonly end: string;
  readonly source: string | undefined;
  /** The Records view's human filter: one human's records only. */
  readonly human?: string;
}

/** The filters beside the range in a panel's heading: `source fitbit`, `human 86b9…`. */
export function filterWords(filter: InsightsFilter): string[] {
  const words: string[] = [];
  if (filter.source) words.push(vscode.l10n.t('source {0}', filter.source));
  if (filter.human) words.push(vscode.l10n.t('human {0}', filter.human));
  return words;
}

export interface LoadedList {
  kind: ResourceKind;
  records: unknown[];
  complete: boolean;
}

/**
 * Every record of each kind, one after another under one progress notification; throws
 * 'cancelled' when the notification's Cancel or `cancellation` (a command's argument) fires.
 */
export async function loadEveryPage(session: Session, kinds: readonly ResourceKind[], filter: InsightsFilter, cancellation?: vscode.CancellationToken): Promise<LoadedList[]> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Health Data: loading records for insights'), cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const listeners = [token, cancellation].map((t) => t?.onCancellationRequested(() => abort.abort()));
      if (cancellation?.isCancellationRequested) abort.abort();
      try {
        const connection = await session.connection();
        const lists: LoadedList[] = [];
        for (const kind of kinds) {
          if (abort.signal.aborted) throw new HealthDataError('cancelled', vscode.l10n.t('Cancelled.'));
          const label = resource(kind).label;
          let count = 0;
          progress.report({ message: vscode.l10n.t('{0}: {1} records', label, 0) });
          const result = await connection.client.list(
            kind,
            { startDate: filter.start, endDate: filter.end, source: filter.source, humanId: filter.human, all: true },
            {
              signal: abort.signal,
              onPage: (records) => {
                count += records.length;
                progress.report({ message: vscode.l10n.t('{0}: {1} records', label, count) });
              },
            },
          );
          lists.push({ kind, records: result.records, complete: result.complete });
        }
        return lists;
      } finally {
        for (const l of listeners) l?.dispose();
      }
    },
  );
}
