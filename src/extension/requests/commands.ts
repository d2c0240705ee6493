// Every endpoint of the service as a command: by date, by id, latest and list for each row of
// the resource table. A command asks for what it needs (or takes it as an argument), runs the
// call under a cancellable progress notification and shows the answer.

import * as vscode from 'vscode';
import { HealthDataClient, ListResult } from '../../core/service';
import { HealthDataError } from '../../core/errors';
import { RESOURCES, ResourceDefinition, ResourceKind } from '../../core/resources';
import { openAsJsonDocument } from '../shared/documents';
import { errorMessage, showError } from '../shared/showError';
import { ListOptions, dateProblem, idProblem, promptDate, promptId, promptListOptions, rangeProblem } from './prompts';
import { Session } from '../account/session';
import { openRecord } from '../recordView/recordActions';
import type { RecordViews } from '../recordView/recordViews';
import { registerCommands } from '../shared/commands';

/** What the commands need of the tree: to show where a record they fetched lives. */
export interface RecordRevealer {
  reveal(kind: ResourceKind, record: unknown): Promise<void>;
}

/**
 * The arguments every request command takes; each one given skips its prompt. `cancellation`
 * lets a caller (a script, a test) cancel the request exactly as the notification's Cancel does.
 */
export interface RequestArgs extends ListOptions {
  date?: string;
  id?: string;
  cancellation?: vscode.CancellationToken;
}

type Call<T> = (client: HealthDataClient, signal: AbortSignal, progress: vscode.Progress<{ message?: string }>) => Promise<T>;

interface RequestPlan<T> {
  title: string;
  /** Said (as information, not as an error) when the service answers 404. */
  notFound?: string;
  cancellation?: vscode.CancellationToken;
  call: Call<T>;
}

export function registerRequestCommands(session: Session, tree: RecordRevealer, recordViews: RecordViews): vscode.Disposable[] {
  /**
   * Runs one call. Undefined when the user cancelled, when the answer is a 404 (said as a
   * message), or when the environment changed meanwhile (the answer belongs to another
   * environment, so it is dropped, never shown).
   */
  const request = async <T>(plan: RequestPlan<T>): Promise<T | undefined> => {
    const { client, generation } = await session.connection();
    const abort = new AbortController();
    const dropped = (): undefined => {
      void vscode.window.showInformationMessage(vscode.l10n.t('The environment changed while "{0}" ran; its answer was dropped.', plan.title));
      return undefined;
    };
    try {
      const value = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: plan.title, cancellable: true },
        async (progress, token) => {
          const listeners = [token, plan.cancellation].map((t) => t?.onCancellationRequested(() => abort.abort()));
          if (plan.cancellation?.isCancellationRequested) abort.abort();
          try {
            return await plan.call(client, abort.signal, progress);
          } finally {
            for (const l of listeners) l?.dispose();
          }
        },
      );
      if (abort.signal.aborted) return undefined;
      if (!session.isCurrent(generation)) return dropped();
      return value;
    } catch (err) {
      if (abort.signal.aborted) return undefined;
      // A change of environment disposes the client, which aborts the call: not the user's doing.
      if (!session.isCurrent(generation)) return dropped();
      if (plan.notFound && err instanceof HealthDataError && err.status === 404) {
        session.log.info(`${plan.notFound} (${errorMessage(session, err)})`);
        void vscode.window.showInformationMessage(plan.notFound);
        return undefined;
      }
      throw err;
    }
  };

  /** A single record opens in the record view and is revealed in the tree; anything else opens as JSON. */
  const showRecord = async (def: ResourceDefinition, reply: unknown): Promise<void> => {
    if (!reply || typeof reply !== 'object' || Array.isArray(reply)) {
      await openAsJsonDocument(reply);
      return;
    }
    openRecord(recordViews, def.kind, reply);
    try {
      await tree.reveal(def.kind, reply);
    } catch (err) {
      // The record was shown; not finding it in the tree (another date range, say) is no failure.
      session.log.debug(`could not reveal the ${def.singular.toLowerCase()} in the tree: ${errorMessage(session, err)}`);
    }
  };

  const showList = async (def: ResourceDefinition, result: ListResult, options: ListOptions): Promise<void> => {
    const range = options.start && options.end ? vscode.l10n.t('{0} to {1}', options.start, options.end) : vscode.l10n.t('all dates');
    if (result.records.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} ({1}): no records.', def.label, range));
    } else {
      await openAsJsonDocument(result.records);
    }
    const shape = result.wrapper === 'array' ? vscode.l10n.t('a bare array') : vscode.l10n.t('a "{0}" wrapper', result.wrapper);
    const parts = [vscode.l10n.t('{0} ({1}): {2} records from {3} page(s) in {4}', def.label, range, result.records.length, result.pages, shape)];
    if (result.duplicatesDropped > 0) parts.push(vscode.l10n.t('{0} duplicates dropped', result.duplicatesDropped));
    if (!result.complete) {
      parts.push(vscode.l10n.t('incomplete: {0}', result.stopReason ?? vscode.l10n.t('reading stopped early')));
      void vscode.window.showWarningMessage(`${parts.join('; ')}.`);
    } else if (result.records.length > 0) {
      void vscode.window.showInformationMessage(`${parts.join('; ')}.`);
    }
  };

  const getByDate = async (def: ResourceDefinition, args: RequestArgs): Promise<unknown> => {
    const given = textArg(args, 'date');
    if (given !== undefined) usageIf(dateProblem(given));
    const date = given?.trim() ?? (await promptDate(vscode.l10n.t('Health Data: Get {0} by Date', def.singular)));
    if (date === undefined) return undefined;
    const reply = await request({
      title: vscode.l10n.t('{0} for {1}…', def.singular, date),
      notFound: vscode.l10n.t('No {0} for {1}.', def.singular.toLowerCase(), date),
      cancellation: args.cancellation,
      call: (client, signal) => client.getRecord(def.kind, date, { signal }),
    });
    if (reply !== undefined) await showRecord(def, reply);
    return reply;
  };

  const getById = async (def: ResourceDefinition, args: RequestArgs): Promise<unknown> => {
    const given = textArg(args, 'id');
    if (given !== undefined) usageIf(idProblem(given, def));
    const id = given?.trim() ?? (await promptId(vscode.l10n.t('Health Data: Get {0} by Id', def.singular), def));
    if (id === undefined) return undefined;
    const reply = await request({
      title: vscode.l10n.t('{0} {1}…', def.singular, clip(id)),
      notFound: vscode.l10n.t('No {0} with id "{1}".', def.singular.toLowerCase(), clip(id)),
      cancellation: args.cancellation,
      call: (client, signal) => client.getRecord(def.kind, id, { signal }),
    });
    if (reply !== undefined) await showRecord(def, reply);
    return reply;
  };

  const getLatest = async (def: ResourceDefinition, args: RequestArgs): Promise<unknown> => {
    const reply = await request({
      title: vscode.l10n.t('Latest {0}…', def.singular.toLowerCase()),
      notFound: vscode.l10n.t('There is no {0} yet.', def.singular.toLowerCase()),
      cancellation: args.cancellation,
      call: (client, signal) => client.getLatest(def.kind, { signal }),
    });
    if (reply !== undefined) await showRecord(def, reply);
    return reply;
  };

  const list = async (def: ResourceDefinition, args: RequestArgs): Promise<ListResult | undefined> => {
    const options = listArgs(args) ?? (await promptListOptions(vscode.l10n.t('Health Data: List {0}', def.label)));
    if (options === undefined) return undefined;
    const result = await request({
      title: vscode.l10n.t('Listing {0}…', def.label.toLowerCase()),
      cancellation: args.cancellation,
      call: (client, signal, progress) => {
        let count = 0;
        return client.list(
          def.kind,
          { startDate: options.start, endDate: options.end, source: options.source, all: options.all ?? true },
          {
            signal,
            onPage: (records, page) => {
              count += records.length;
              progress.report({ message: vscode.l10n.t('{0} records, page {1}', count, page) });
            },
          },
        );
      },
    });
    if (result !== undefined) await showList(def, result, options);
    return result;
  };

  /** A request command's one argument: an object of RequestArgs, or nothing (then it asks). */
  const withArgs =
    (run: (args: RequestArgs) => Promise<unknown>) =>
    (args?: unknown): Promise<unknown> =>
      run(args && typeof args === 'object' && !Array.isArray(args) ? (args as RequestArgs) : {});

  // One loop over the table: a fourth resource gets its commands from its row.
  const handlers: Record<string, (args?: unknown) => Promise<unknown>> = {};
  for (const def of RESOURCES) {
    const prefix = `healthData.${def.kind}`;
    if (def.byDate) handlers[`${prefix}.getByDate`] = withArgs((args) => getByDate(def, args));
    handlers[`${prefix}.getById`] = withArgs((args) => getById(def, args));
    if (def.latestPath) handlers[`${prefix}.getLatest`] = withArgs((args) => getLatest(def, args));
    handlers[`${prefix}.list`] = withArgs((args) => list(def, args));
  }
  return registerCommands(handlers, (err) => showError(session, err));
}

/** A text argument, or undefined when it was not given; anything but text is a usage error. */
function textArg(args: RequestArgs, name: 'date' | 'id' | 'start' | 'end' | 'source'): string | undefined {
  const value: unknown = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new HealthDataError('usage', vscode.l10n.t('The argument "{0}" must be text, not {1}.', name, typeof value));
  return value;
}

/** The list options given as arguments, checked; undefined when none was given (then we ask). */
function listArgs(args: RequestArgs): ListOptions | undefined {
  const start = textArg(args, 'start');
  const end = textArg(args, 'end');
  const source = textArg(args, 'source');
  if (args.all !== undefined && typeof args.all !== 'boolean') {
    throw new HealthDataError('usage', vscode.l10n.t('The argument "{0}" must be true or false.', 'all'));
  }
  if (start === undefined && end === undefined && source === undefined && args.all === undefined) return undefined;
  usageIf(rangeProblem(start, end));
  return {
    start: start?.trim() || undefined,
    end: end?.trim() || undefined,
    source: source?.trim() || undefined,
    all: args.all,
  };
}

function usageIf(problem: string | undefined): void {
  if (problem) throw new HealthDataError('usage', problem);
}

function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
