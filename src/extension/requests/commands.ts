// Every endpoint of the service as a command: by date, by id, latest and list for each row of
// the resource table. A command asks for what it needs (or takes it as an argument), runs the
// call under a cancellable progress notification and shows the answer.

import * as vscode from 'vscode';
import { HealthDataClient, ListResult } from '../../core/service';
import { HealthDataError } from '../../core/errors';
import { RESOURCES, ResourceDefinition, ResourceKind } from '../../core/resources';
import { textField, titleCase } from '../../core/views';
import { chooseByArgument, pickOnDate, recordsOnDate, sourcesOf } from './sameDate';
import { openAsJsonDocument } from '../shared/documents';
import { FINDING_KINDS } from '../../core/validation';
import { VALIDATE_PAYLOAD_COMMAND, type PayloadValidationSummary } from '../payloadValidation/command';
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
  /** Get by date, when several records share the date: `all`, `first` (the service's by-date record) or an id. */
  pick?: string;
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

  /**
   * A list opens as an untitled JSON document, validated like a `*.health.json` file (findings in
   * the Problems panel, kept up to date as it is edited), and one message says, in plain words,
   * what came and what the validator found.
   */
  const showList = async (def: ResourceDefinition, result: ListResult, options: ListOptions): Promise<void> => {
    const range = options.start && options.end ? vscode.l10n.t('from {0} to {1}', options.start, options.end) : vscode.l10n.t('of every date');
    const plural = def.label.toLowerCase();
    if (result.records.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('No {0} {1}.', plural, range));
      return;
    }
    const noun = result.records.length === 1 ? def.singular.toLowerCase() : plural;
    const editor = await openAsJsonDocument(result.records);
    const summary = await vscode.commands.executeCommand<PayloadValidationSummary | undefined>(VALIDATE_PAYLOAD_COMMAND, { uri: editor.document.uri, kind: def.kind, quiet: true });
    const parts = [
      result.pages === 1
        ? vscode.l10n.t('{0} {1} {2}, in one request', result.records.length, noun, range)
        : vscode.l10n.t('{0} {1} {2}, in {3} requests', result.records.length, noun, range, result.pages),
    ];
    if (result.wrapper !== 'array') parts.push(vscode.l10n.t('the service wrapped the list in "{0}"', result.wrapper));
    if (result.duplicatesDropped === 1) parts.push(vscode.l10n.t('1 record sent twice was shown once'));
    else if (result.duplicatesDropped > 1) parts.push(vscode.l10n.t('{0} records sent twice were shown once', result.duplicatesDropped));
    if (summary) parts.push(findingsSentence(summary));
    const showProblems = vscode.l10n.t('Show Problems');
    const actions = summary && FINDING_KINDS.some((k) => summary.counts[k] > 0) ? [showProblems] : [];
    let shown: Thenable<string | undefined>;
    if (!result.complete) {
      parts.push(vscode.l10n.t('incomplete: {0}', result.stopReason ?? vscode.l10n.t('reading stopped early')));
      shown = vscode.window.showWarningMessage(`${parts.join('; ')}.`, ...actions);
    } else {
      shown = vscode.window.showInformationMessage(`${parts.join('; ')}.`, ...actions);
    }
    void Promise.resolve(shown).then((answer) => {
      if (answer === showProblems) return vscode.commands.executeCommand('workbench.actions.view.problems');
    });
  };

  const getByDate = async (def: ResourceDefinition, args: RequestArgs): Promise<unknown> => {
    const given = textArg(args, 'date');
    if (given !== undefined) usageIf(dateProblem(given));
    // A script that names the date but not the pick gets the service's by-date record, as before.
    const pickArg = textArg(args, 'pick') ?? (given !== undefined ? 'first' : undefined);
    const date = given?.trim() ?? (await promptDate(vscode.l10n.t('Health Data: Get {0} by Date', titleCase(def.singular))));
    if (date === undefined) return undefined;
    const found = await request({
      title: vscode.l10n.t('{0} for {1}…', def.singular, date),
      notFound: vscode.l10n.t('No {0} for {1}.', def.singular.toLowerCase(), date),
      cancellation: args.cancellation,
      call: (client, signal) => recordsOnDate(client, def.kind, date, signal, (err) =>
        session.log.warn(`Listing the other ${def.label.toLowerCase()} of ${date} failed: ${errorMessage(session, err)}`)),
    });
    if (found === undefined) return undefined;
    if (found.length === 1) {
      await showRecord(def, found[0]);
      return found[0];
    }
    const chosen = pickArg !== undefined ? chooseByArgument(found, pickArg) : await pickOnDate(def, date, found);
    if (chosen === undefined) return undefined;
    if (pickArg !== undefined) {
      // Said, with a way to the others: the records not opened are never a secret.
      const openAll = vscode.l10n.t('Open All');
      const pickOne = vscode.l10n.t('Pick…');
      const text = chosen.length === 1
        ? vscode.l10n.t('{0} {1} are dated {2} ({3}); opened the one from {4}.', found.length, def.label.toLowerCase(), date, sourcesOf(found), textField(chosen[0], 'source') ?? '?')
        : vscode.l10n.t('{0} {1} are dated {2} ({3}); opened all of them.', found.length, def.label.toLowerCase(), date, sourcesOf(found));
      void Promise.resolve(chosen.length === 1 ? vscode.window.showInformationMessage(text, openAll, pickOne) : vscode.window.showInformationMessage(text)).then(async (answer) => {
        const more = answer === openAll ? [...found] : answer === pickOne ? await pickOnDate(def, date, found) : undefined;
        for (const record of more ?? []) openRecord(recordViews, def.kind, record);
      });
    }
    for (const record of chosen.slice(1)) openRecord(recordViews, def.kind, record);
    await showRecord(def, chosen[0]);
    return chosen.length === 1 ? chosen[0] : chosen;
  };

  const getById = async (def: ResourceDefinition, args: RequestArgs): Promise<unknown> => {
    const given = textArg(args, 'id');
    if (given !== undefined) usageIf(idProblem(given, def));
    const id = given?.trim() ?? (await promptId(vscode.l10n.t('Health Data: Get {0} by Id', titleCase(def.singular)), def));
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
    const options = listArgs(args) ?? (await promptListOptions(vscode.l10n.t('Health Data: List {0}', titleCase(def.label))));
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
function textArg(args: RequestArgs, name: 'date' | 'id' | 'start' | 'end' | 'source' | 'pick'): string | undefined {
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

/** "findings in the Problems panel: 12 errors, 40 zero fields" or "no findings". */
function findingsSentence(summary: PayloadValidationSummary): string {
  const labels = { error: vscode.l10n.t('errors'), warning: vscode.l10n.t('warnings'), zero: vscode.l10n.t('zeros'), deprecated: vscode.l10n.t('deprecated'), unknown: vscode.l10n.t('unknown fields') };
  const counts = FINDING_KINDS.filter((k) => summary.counts[k] > 0).map((k) => `${labels[k]}: ${summary.counts[k]}`);
  return counts.length ? vscode.l10n.t('validated, findings in the Problems panel: {0}', counts.join(', ')) : vscode.l10n.t('validated: no findings');
}

function usageIf(problem: string | undefined): void {
  if (problem) throw new HealthDataError('usage', problem);
}

function clip(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
