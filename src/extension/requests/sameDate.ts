// Get by date when several records share the date (one per source or per human): the service's
// by-date endpoint answers one of them, the list of that one day tells how many there are, and
// the user picks one or opens them all.

import * as vscode from 'vscode';
import { HealthDataClient } from '../../core/service';
import { ResourceDefinition, ResourceKind } from '../../core/resources';
import { recordNode, shortId, textField } from '../../core/views';
import { HealthDataError } from '../../core/errors';

/**
 * The by-date record first, then the other records listed for that date (by id, without
 * repeats). A failed list leaves the by-date record alone: the request itself succeeded.
 */
export async function recordsOnDate(client: HealthDataClient, kind: ResourceKind, date: string, signal: AbortSignal, onListFailed: (err: unknown) => void): Promise<unknown[]> {
  const [record, listed] = await Promise.all([
    client.getRecord(kind, date, { signal }),
    client.list(kind, { startDate: date, endDate: date, all: true }, { signal }).then(
      (result) => result.records,
      (err: unknown) => {
        if (signal.aborted) throw err;
        onListFailed(err);
        return [] as unknown[];
      },
    ),
  ]);
  const first = textField(record, 'id');
  return [record, ...listed.filter((r) => first === undefined || textField(r, 'id') !== first)];
}

/** "fitbit, googlefit, moves": the sources of the records, each once. */
export function sourcesOf(records: readonly unknown[]): string {
  return [...new Set(records.map((r) => textField(r, 'source') ?? '?'))].join(', ');
}

/** The records a `pick` argument names: `all`, `first`, or a record's id. */
export function chooseByArgument(records: readonly unknown[], pick: string): unknown[] {
  if (pick === 'all') return [...records];
  if (pick === 'first') return [records[0]];
  const byId = records.find((r) => textField(r, 'id') === pick);
  if (!byId) throw new HealthDataError('usage', vscode.l10n.t('No record of that date has the id "{0}"; use "all", "first" or one of: {1}.', pick, records.map((r) => textField(r, 'id') ?? '?').join(', ')));
  return [byId];
}

/** Asks which of the records sharing `date` to open, or all of them. Undefined when dismissed. */
export async function pickOnDate(def: ResourceDefinition, date: string, records: readonly unknown[]): Promise<unknown[] | undefined> {
  type Item = vscode.QuickPickItem & { records: unknown[] };
  const items: Item[] = records.map((record, i) => ({
    label: recordNode(def.kind, record, i).label,
    description: vscode.l10n.t('human {0}', shortId(textField(record, 'humanId')) ?? '?'),
    detail: i === 0 ? vscode.l10n.t('id {0} · the one the service answers by date', textField(record, 'id') ?? '?') : vscode.l10n.t('id {0}', textField(record, 'id') ?? '?'),
    records: [record],
  }));
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator, records: [] });
  items.push({ label: `$(files) ${vscode.l10n.t('Open all {0}', records.length)}`, records: [...records] });
  const pick = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Health Data: {0} {1} on {2}', records.length, def.label, date),
    placeHolder: vscode.l10n.t('{0} {1} are dated {2} ({3}): pick one, or open all', records.length, def.label.toLowerCase(), date, sourcesOf(records)),
    matchOnDescription: true,
    matchOnDetail: true,
  });
  return pick?.records.length ? pick.records : undefined;
}
