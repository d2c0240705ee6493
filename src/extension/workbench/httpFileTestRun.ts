// A run of the Testing view's `.http` file items (httpFileTests.ts): the requests asked for (a
// file's item runs all of its requests) read again from the file as it is now (the editor's text
// when it is open), then sent one after another and judged as `health-data run` judges them; a
// failure is placed at its request's line. A request the New Request form refuses errs with why;
// one no longer in the file is skipped.

import * as vscode from 'vscode';
import { draftAsSaved } from '../../core/workbench';
import type { Session } from '../account/session';
import { httpFileLensRequests } from './foreignImport';
import { MAX_HTTP_FILE_CHARS, httpRequestIds, openDocumentOf } from './httpFiles';
import { type TestCase, runCases } from './savedTestRun';
import { fileName } from './savedFileCommands';

/** The request items a run names (a file's item stands for its requests), less those it leaves out, by file then line. */
function requestItemsOf(controller: vscode.TestController, request: vscode.TestRunRequest): vscode.TestItem[] {
  const roots: vscode.TestItem[] = [];
  if (request.include) roots.push(...request.include);
  else controller.items.forEach((item) => roots.push(item));
  const excluded = new Set((request.exclude ?? []).map((i) => i.id));
  const out: vscode.TestItem[] = [];
  const seen = new Set<string>();
  const add = (item: vscode.TestItem): void => {
    if (excluded.has(item.id) || (item.parent && excluded.has(item.parent.id)) || seen.has(item.id)) return;
    seen.add(item.id);
    out.push(item);
  };
  for (const root of roots) {
    if (root.parent) add(root);
    else if (!excluded.has(root.id)) root.children.forEach(add);
  }
  const fileOrder = (i: vscode.TestItem) => i.parent?.label ?? '';
  return out.sort((a, b) => fileOrder(a).localeCompare(fileOrder(b)) || (a.sortText ?? '').localeCompare(b.sortText ?? ''));
}

/** The file's text as it is now: the editor's when it is open. */
async function textOf(uri: vscode.Uri): Promise<string> {
  const open = openDocumentOf(uri);
  if (open) return open.getText();
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

/** A file's requests by item id as a run reads them now, or why the file cannot be read. */
type FileCases = { readonly problem: string } | { readonly cases: ReadonlyMap<string, Omit<TestCase, 'item'>> };

async function fileCases(uri: vscode.Uri): Promise<FileCases> {
  let text: string;
  try {
    text = await textOf(uri);
  } catch (err) {
    return { problem: vscode.l10n.t('{0} cannot be read: {1}', fileName(uri), err instanceof Error ? err.message : String(err)) };
  }
  if (text.length > MAX_HTTP_FILE_CHARS) return { problem: vscode.l10n.t('{0} is over 1 MB: an .http file is never that large, so it was not read.', fileName(uri)) };
  const requests = httpFileLensRequests(text);
  const ids = httpRequestIds(uri, requests);
  const cases = new Map<string, Omit<TestCase, 'item'>>();
  requests.forEach((r, i) => {
    const entry = r.problem === undefined ? draftAsSaved(r.draft, r.name, ids[i], r.expectStatus) : undefined;
    cases.set(ids[i], entry ? { entry } : { problem: r.problem ?? vscode.l10n.t('{0} is not one of the service\'s endpoints.', r.target) });
  });
  return { cases };
}

/** The items' requests, each file read once, as it is now. */
async function casesOf(items: readonly vscode.TestItem[]): Promise<TestCase[]> {
  const byFile = new Map<string, FileCases>();
  const out: TestCase[] = [];
  for (const item of items) {
    if (!item.uri) {
      out.push({ item });
      continue;
    }
    const key = item.uri.toString();
    let file = byFile.get(key);
    if (!file) byFile.set(key, (file = await fileCases(item.uri)));
    if ('problem' in file) out.push({ item, problem: file.problem });
    else {
      // Gone from the file since it was listed (the list follows in a moment): skipped.
      out.push({ item, ...file.cases.get(item.id) });
    }
  }
  return out;
}

/** Runs the `.http` file items a request names against `environment`, or the environment in use. */
export async function runHttpFileTests(session: Session, controller: vscode.TestController, request: vscode.TestRunRequest, token: vscode.CancellationToken, environment?: string): Promise<void> {
  const items = requestItemsOf(controller, request);
  await runCases(session, controller, request, token, environment, {
    title: (where) => (where ? vscode.l10n.t('.http files against {0}', where) : vscode.l10n.t('.http files')),
    count: (n) => (n === 1 ? vscode.l10n.t('1 request of .http files') : vscode.l10n.t('{0} requests of .http files', n)),
    cases: () => casesOf(items),
  });
}
