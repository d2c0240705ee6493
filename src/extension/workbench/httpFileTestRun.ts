// A run of the Testing view's `.http` file items (httpFileTests.ts): the requests asked for (a
// file's item runs all of its requests) read again from the file as it is now (the editor's text
// when it is open), then sent one after another and judged as `health-data run` judges them; a
// failure is placed at its request's line. A request the New Request form refuses errs with why;
// one no longer in the file is skipped.

import * as vscode from 'vscode';
import { draftAsSaved } from '../../core/workbench';
import type { Session } from '../account/session';
import { httpFileLensRequests } from './foreignImport';
import { MAX_HTTP_FILE_CHARS, httpRequestIds } from './httpFiles';
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
    else if (!excluded.has(root.id)) {
      const children: vscode.TestItem[] = [];
      root.children.forEach((c) => children.push(c));
      children.sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? '')).forEach(add);
    }
  }
  const fileOrder = (i: vscode.TestItem) => i.parent?.label ?? '';
  return out.sort((a, b) => fileOrder(a).localeCompare(fileOrder(b)) || (a.sortText ?? '').localeCompare(b.sortText ?? ''));
}

/** The file's text as it is now: the editor's when it is open. */
async function textOf(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString() && !d.isClosed);
  if (open) return open.getText();
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

/** The items' requests, read from their files as they are now. */
async function casesOf(items: readonly vscode.TestItem[]): Promise<TestCase[]> {
  const byFile = new Map<string, Map<string, TestCase>>();
  const cases: TestCase[] = [];
  for (const item of items) {
    const uri = item.uri;
    if (!uri) {
      cases.push({ item });
      continue;
    }
    let found = byFile.get(uri.toString());
    if (!found) {
      found = new Map();
      byFile.set(uri.toString(), found);
      let text: string | undefined;
      let problem: string | undefined;
      try {
        text = await textOf(uri);
        if (text.length > MAX_HTTP_FILE_CHARS) problem = vscode.l10n.t('{0} is over 1 MB: an .http file is never that large, so it was not read.', fileName(uri));
      } catch (err) {
        problem = vscode.l10n.t('{0} cannot be read: {1}', fileName(uri), err instanceof Error ? err.message : String(err));
      }
      if (problem !== undefined || text === undefined) {
        found.set('', { item, problem: problem ?? '' });
      } else {
        const requests = httpFileLensRequests(text);
        const ids = httpRequestIds(uri, requests);
        requests.forEach((r, i) => {
          const entry = r.problem === undefined ? draftAsSaved(r.draft, r.name, ids[i], r.expectStatus) : undefined;
          found!.set(ids[i], entry ? { item, entry } : { item, problem: r.problem ?? vscode.l10n.t('{0} is not one of the service\'s endpoints.', r.target) });
        });
      }
    }
    const unreadable = found.get('');
    if (unreadable) {
      cases.push({ item, problem: unreadable.problem });
      continue;
    }
    const c = found.get(item.id);
    // Gone from the file since it was listed (the list follows in a moment): skipped.
    cases.push(c ? { ...c, item } : { item });
  }
  return cases;
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
