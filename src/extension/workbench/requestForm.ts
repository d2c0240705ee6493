// "New Request…" as a multi-step quick input: pick one of the service's endpoints, then a form
// of its parameters (each a row showing its value; Enter edits it in an input box that checks it
// as the request commands do), then Send. Keyboard-first, in the editor's own idiom, and every
// check is the one the other commands use (prompts.ts, dateRangeProblem, isSinceValue).

import * as vscode from 'vscode';
import { isSinceValue } from '../../core/service';
import { resource } from '../../core/resources';
import { EndpointChoice, QUERY_PARAMS, QueryParam, RequestDraft, choiceOf, draftTarget, endpointChoices } from '../../core/workbench';
import { MAX_PAGE_SIZE } from '../../core/service';
import { dateProblem, idProblem, localToday, rangeProblem } from '../requests/prompts';

/** A field of the form: the path parameter, or one query parameter of a list. */
export type DraftField = 'id' | 'date' | QueryParam;

export interface FieldProblem {
  readonly field: DraftField;
  readonly message: string;
}

/** The fields a draft's endpoint takes, in form order. */
export function fieldsOf(draft: RequestDraft): DraftField[] {
  switch (draft.endpoint) {
    case 'getById':
      return ['id'];
    case 'getByDate':
      return ['date'];
    case 'list':
      return [...QUERY_PARAMS];
    default:
      return [];
  }
}

export function fieldValue(draft: RequestDraft, field: DraftField): string {
  if (field === 'id') return draft.id ?? '';
  if (field === 'date') return draft.date ?? '';
  return draft.params?.[field] ?? '';
}

function withField(draft: RequestDraft, field: DraftField, value: string): RequestDraft {
  if (field === 'id') return { ...draft, id: value };
  if (field === 'date') return { ...draft, date: value };
  return { ...draft, params: { ...draft.params, [field]: value } };
}

const wholeNumber = (text: string): number | undefined => (/^\d{1,15}$/.test(text) ? Number(text) : undefined);

/** Why one field's value is unusable on its own (blank optional parameters are fine). */
export function fieldProblem(draft: RequestDraft, field: DraftField, raw: string): string | undefined {
  const value = raw.trim();
  switch (field) {
    case 'id':
      return idProblem(raw, resource(draft.kind!));
    case 'date':
      return dateProblem(raw);
    case 'start_date':
    case 'end_date':
      return value ? dateProblem(value) : undefined;
    case 'limit': {
      const n = wholeNumber(value);
      if (!value) return undefined;
      return n === undefined || n < 1 || n > MAX_PAGE_SIZE ? vscode.l10n.t('limit is a whole number from 1 to {0}.', MAX_PAGE_SIZE) : undefined;
    }
    case 'offset':
      return value && wholeNumber(value) === undefined ? vscode.l10n.t('offset is a whole number, 0 or more.') : undefined;
    case 'updated_since':
      return value && !isSinceValue(value) ? vscode.l10n.t('updated_since is a date (YYYY-MM-DD) or an ISO date-time such as {0}T00:00:00Z.', localToday()) : undefined;
    case 'source':
      return value.length > 200 ? vscode.l10n.t('source is at most 200 characters.') : undefined;
  }
}

/** Every problem of a draft: each field's own, then the date range's (both or neither, in order). */
export function draftProblems(draft: RequestDraft): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const field of fieldsOf(draft)) {
    const message = fieldProblem(draft, field, fieldValue(draft, field));
    if (message) problems.push({ field, message });
  }
  if (draft.endpoint === 'list' && problems.every((p) => p.field !== 'start_date' && p.field !== 'end_date')) {
    const start = fieldValue(draft, 'start_date');
    const end = fieldValue(draft, 'end_date');
    const message = rangeProblem(start, end);
    if (message) problems.push({ field: start.trim() ? 'end_date' : 'start_date', message });
  }
  return problems;
}

const FIELD_HINTS = (): Record<DraftField, string> => ({
  id: vscode.l10n.t('Path: the record id (sent URL-encoded)'),
  date: vscode.l10n.t('Path: a date, YYYY-MM-DD'),
  start_date: vscode.l10n.t('First day, YYYY-MM-DD (with end_date)'),
  end_date: vscode.l10n.t('Last day, YYYY-MM-DD (with start_date)'),
  source: vscode.l10n.t('Only records of this source'),
  limit: vscode.l10n.t('Records per page, 1–{0}', MAX_PAGE_SIZE),
  offset: vscode.l10n.t('Records to skip, 0 or more'),
  updated_since: vscode.l10n.t('Only records updated since (date or ISO date-time)'),
});

/** The endpoint's line in the picker: `GET /v1/human/activities/summaries` and what it returns. */
export function choiceLabel(c: EndpointChoice): { label: string; description: string } {
  if (c.endpoint === 'token') return { label: `$(key) ${c.method} ${c.path}`, description: vscode.l10n.t('Mint a client token') };
  const def = resource(c.kind!);
  const what: Record<Exclude<EndpointChoice['endpoint'], 'token'>, string> = {
    list: vscode.l10n.t('List {0}', def.label.toLowerCase()),
    getById: vscode.l10n.t('One {0} by id', def.singular.toLowerCase()),
    getByDate: vscode.l10n.t('The {0} of a date', def.singular.toLowerCase()),
    getLatest: vscode.l10n.t('The latest {0}', def.singular.toLowerCase()),
  };
  return { label: `$(${def.icon}) ${c.method} ${c.path}`, description: what[c.endpoint] };
}

async function pickEndpoint(title: string, current?: RequestDraft): Promise<RequestDraft | undefined> {
  type Item = vscode.QuickPickItem & { choice: EndpointChoice };
  const items: Item[] = endpointChoices().map((choice) => ({ ...choiceLabel(choice), choice }));
  const pick = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: vscode.l10n.t('Which endpoint of the service?'),
    matchOnDescription: true,
  });
  if (!pick) return undefined;
  const { endpoint, kind } = pick.choice;
  if (current && current.endpoint === endpoint && current.kind === kind) return current;
  return kind ? { endpoint, kind, ...(endpoint === 'list' ? { params: {} } : {}) } : { endpoint };
}

async function editField(title: string, draft: RequestDraft, field: DraftField): Promise<RequestDraft> {
  const value = await vscode.window.showInputBox({
    title: `${title} · ${field}`,
    prompt: FIELD_HINTS()[field],
    value: fieldValue(draft, field) || (field === 'date' ? localToday() : ''),
    placeHolder: field === 'date' || field === 'start_date' || field === 'end_date' ? 'YYYY-MM-DD' : undefined,
    ignoreFocusOut: true,
    validateInput: (v) => fieldProblem(draft, field, v),
  });
  return value === undefined ? draft : withField(draft, field, value.trim());
}

/**
 * The form: rows for the endpoint's fields and a Send row that shows the request to be sent (or
 * what is wrong with it). Resolves with the draft to send; undefined when dismissed.
 */
export async function promptDraft(initial?: RequestDraft): Promise<RequestDraft | undefined> {
  const title = vscode.l10n.t('Health Data: New Request');
  let draft = initial && choiceOf(initial) ? initial : await pickEndpoint(title);
  if (!draft) return undefined;
  for (;;) {
    type Item = vscode.QuickPickItem & { field?: DraftField; send?: true; change?: true };
    const problems = draftProblems(draft);
    const choice = choiceOf(draft)!;
    const target = `${choice.method} ${draftTarget(draft)}`;
    const items: Item[] = [
      problems.length
        ? { label: `$(error) ${vscode.l10n.t('Send')}`, description: target, detail: problems[0].message, send: true }
        : { label: `$(play) ${vscode.l10n.t('Send')}`, description: target, detail: vscode.l10n.t('The token is added by the extension.'), send: true },
    ];
    const fields = fieldsOf(draft);
    if (fields.length) items.push({ label: vscode.l10n.t('Parameters'), kind: vscode.QuickPickItemKind.Separator });
    for (const field of fields) {
      const value = fieldValue(draft, field);
      const problem = problems.find((p) => p.field === field);
      items.push({
        label: `${problem ? '$(error)' : value ? '$(pass)' : '$(circle-outline)'} ${field}`,
        description: value || vscode.l10n.t('(not set)'),
        detail: problem?.message ?? FIELD_HINTS()[field],
        field,
      });
    }
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: `$(arrow-left) ${vscode.l10n.t('Another endpoint…')}`, change: true });
    const pick = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Enter on a parameter edits it; Enter on Send sends'), ignoreFocusOut: true });
    if (!pick) return undefined;
    if (pick.change) {
      const next = await pickEndpoint(title, draft);
      if (next) draft = next;
    } else if (pick.field) {
      draft = await editField(title, draft, pick.field);
    } else if (pick.send) {
      if (problems.length === 0) return draft;
      // Straight to what must be fixed, with the message beside it.
      draft = await editField(title, draft, problems[0].field);
    }
  }
}
