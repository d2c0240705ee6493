// "New Request…" as a multi-step quick input: pick one of the service's endpoints, then a form
// of its parameters (each a row showing its value; Enter edits it in an input box that checks it
// as the request commands do), then Send. Keyboard-first, in the editor's own idiom, and every
// check is the one the other commands use (prompts.ts, dateRangeProblem, isSinceValue).

import * as vscode from 'vscode';
import { isSinceValue } from '../../core/service';
import { resource } from '../../core/resources';
import { EndpointChoice, PastedDraft, QUERY_PARAMS, QueryParam, RequestDraft, choiceOf, draftTarget, endpointChoices, looksLikePastedRequest, readPastedRequest } from '../../core/workbench';
import { tokenCarriers } from '../account/environments';
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
    case 'created_since':
      return value && !isSinceValue(value) ? vscode.l10n.t('{0} is a date (YYYY-MM-DD) or an ISO date-time such as {1}T00:00:00Z.', field, localToday()) : undefined;
    case 'source':
    case 'humanId':
      return value.length > 200 ? vscode.l10n.t('{0} is at most 200 characters.', field) : undefined;
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
  humanId: vscode.l10n.t('Only records of this human'),
  limit: vscode.l10n.t('Records per page, 1–{0}', MAX_PAGE_SIZE),
  offset: vscode.l10n.t('Records to skip, 0 or more'),
  updated_since: vscode.l10n.t('Only records updated since (date or ISO date-time)'),
  created_since: vscode.l10n.t('Only records created since (date or ISO date-time)'),
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

/** A pasted text longer than this is no request anyone pastes (and is not read). */
const MAX_PASTED = 64 * 1024;

/**
 * A pasted cURL command, URL or request line read with this window's token settings (their
 * header or parameter is the token to leave out), and a note when it addresses another host
 * than the environment the request goes to.
 */
export function readPasted(text: string, active?: { name: string; baseUrl: string; authUrl: string }): PastedDraft {
  if (text.length > MAX_PASTED) return { problem: vscode.l10n.t('The text is longer than {0} KB: paste one command.', MAX_PASTED / 1024), notes: [] };
  const { params, headers } = tokenCarriers();
  const read = readPastedRequest(text, params, headers);
  if (!read.draft || !read.origin || !active) return read;
  const hosts = [active.baseUrl, active.authUrl].map(originOf);
  if (hosts.includes(read.origin.toLowerCase())) return read;
  const to = hostOf(read.draft.endpoint === 'token' ? active.authUrl : active.baseUrl);
  return { ...read, notes: [vscode.l10n.t('Sent to {0} ({1}), not to {2}.', active.name, to, hostOf(read.origin)), ...read.notes] };
}

function originOf(url: string): string {
  return /^(https?:\/\/[^/?#\s]+)/i.exec(url.trim())?.[1].toLowerCase() ?? '';
}

function hostOf(url: string): string {
  return originOf(url).replace(/^https?:\/\//, '') || url;
}

/** What the endpoint pick (or a pasted command) gives the form: the draft, and notes on what a paste did not keep. */
export interface PickedDraft {
  readonly draft: RequestDraft;
  readonly notes: readonly string[];
}

function pastedItem(read: PastedDraft): vscode.QuickPickItem & { pasted?: PickedDraft } {
  if (!read.draft) return { label: `$(error) ${vscode.l10n.t('Not a request to the service')}`, detail: read.problem, alwaysShow: true };
  const what = read.form === 'url' ? vscode.l10n.t('The pasted URL') : read.form === 'line' ? vscode.l10n.t('The pasted request line') : vscode.l10n.t('The pasted cURL command');
  return {
    label: `$(clippy) ${read.target}`,
    description: what,
    // The count first: a long detail is cut at the pick's width.
    detail: read.notes.length
      ? `${read.notes.length === 1 ? vscode.l10n.t('1 thing not kept:') : vscode.l10n.t('{0} things not kept:', read.notes.length)} ${read.notes.join(' ')}`
      : vscode.l10n.t('Opens the form with its parameters; the token is added by the extension.'),
    alwaysShow: true,
    pasted: { draft: read.draft, notes: read.notes },
  };
}

/**
 * The endpoint pick. Besides the endpoints, a cURL command, a URL or a request line pasted into
 * its box is read as the request it makes (the box has dropped the paste's line breaks, which a
 * command's line continuations do not need). The clipboard is not read: in a browser that asks
 * for the page's permission.
 */
async function pickEndpoint(title: string, current?: RequestDraft, active?: Parameters<typeof readPasted>[1]): Promise<PickedDraft | undefined> {
  type Item = vscode.QuickPickItem & { choice?: EndpointChoice; pasted?: PickedDraft };
  const endpoints: Item[] = endpointChoices().map((choice) => ({ ...choiceLabel(choice), choice }));
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = title;
  pick.placeholder = vscode.l10n.t('Which endpoint of the service? Or paste a cURL command, a URL or a request line');
  pick.matchOnDescription = true;
  pick.items = endpoints;
  let showingPasted = false;
  const disposables: vscode.Disposable[] = [
    pick.onDidChangeValue((value) => {
      // Typing `GET /v1/human/act` filters the endpoints: only a command or a whole URL is read.
      const pasted = looksLikePastedRequest(value) && /^\s*curl(?:\.exe)?\s|:\/\//i.test(value);
      if (pasted) pick.items = [pastedItem(readPasted(value, active)), ...endpoints];
      else if (showingPasted) pick.items = endpoints;
      showingPasted = pasted;
    }),
  ];
  try {
    return await new Promise<PickedDraft | undefined>((resolve) => {
      disposables.push(
        pick.onDidAccept(() => {
          const item = pick.activeItems[0];
          if (!item || (!item.choice && !item.pasted)) return; // a text that is no request: its item says why
          if (item.pasted) return resolve(item.pasted);
          const { endpoint, kind } = item.choice!;
          if (current && current.endpoint === endpoint && current.kind === kind) return resolve({ draft: current, notes: [] });
          resolve({ draft: kind ? { endpoint, kind, ...(endpoint === 'list' ? { params: {} } : {}) } : { endpoint }, notes: [] });
        }),
        pick.onDidHide(() => resolve(undefined)),
      );
      pick.show();
    });
  } finally {
    disposables.forEach((d) => d.dispose());
    pick.dispose();
  }
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
export async function promptDraft(initial?: RequestDraft, initialNotes: readonly string[] = [], active?: Parameters<typeof readPasted>[1]): Promise<RequestDraft | undefined> {
  const title = vscode.l10n.t('Health Data: New Request');
  let notes = initialNotes;
  let draft = initial && choiceOf(initial) ? initial : undefined;
  if (!draft) {
    const picked = await pickEndpoint(title, undefined, active);
    if (!picked) return undefined;
    ({ draft, notes } = picked);
  }
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
    // What the pasted command (or the request resent) had that this request does not send: seen before the parameters.
    if (notes.length) items.push({ label: vscode.l10n.t('Not kept'), kind: vscode.QuickPickItemKind.Separator }, ...notes.map((note) => ({ label: `$(info) ${note}` })));
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
      const next = await pickEndpoint(title, draft, active);
      // The same endpoint picked again keeps its draft, and what its paste did not keep.
      if (next && next.draft !== draft) ({ draft, notes } = next);
    } else if (pick.field) {
      draft = await editField(title, draft, pick.field);
    } else if (pick.send) {
      if (problems.length === 0) return draft;
      // Straight to what must be fixed, with the message beside it.
      draft = await editField(title, draft, problems[0].field);
    }
  }
}
