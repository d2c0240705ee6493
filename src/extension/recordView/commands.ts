// "Open in Record View": a JSON or NDJSON file or the payload in the editor, of any size, shown in
// the record view as it is — a list of records as one line per record, a record with its findings marked.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { HealthDataError } from '../../core/errors';
import { lineCharacterAt, lineStarts, parseJsonText, placedSyntaxWords } from '../../core/json';
import { type LinesMode, NDJSON_FILE_NAME, type NdjsonRecords, ndjsonRecordSpans, parseNdjsonRecords } from '../../core/validation/ndjsonText';
import type { Session } from '../account/session';
import { registerCommands } from '../shared/commands';
import { showError } from '../shared/showError';
import type { RecordViews } from './recordViews';

/** The text to open: the file `uri` names (its unsaved edits if it is open), else the active editor's. */
async function payloadText(uri: unknown): Promise<{ text: string; name: string; key: string } | undefined> {
  if (uri instanceof vscode.Uri) {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return { text: open.getText(), name: path.basename(uri.path), key: uri.toString() };
    const bytes = await vscode.workspace.fs.readFile(uri);
    return { text: new TextDecoder('utf-8').decode(bytes), name: path.basename(uri.path), key: uri.toString() };
  }
  const editor = vscode.window.activeTextEditor;
  if (editor) {
    const doc = editor.document;
    return { text: doc.getText(), name: doc.isUntitled ? doc.uri.path : path.basename(doc.uri.path), key: doc.uri.toString() };
  }
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { JSON: ['json'], NDJSON: ['ndjson', 'jsonl'] }, openLabel: vscode.l10n.t('Open in Record View') });
  return picked?.[0] ? payloadText(picked[0]) : undefined;
}

/**
 * Parses a payload's text, or says where it is not JSON. NDJSON (a record a line: a file named
 * `.ndjson` or `.jsonl`, or a text that is an object and then more on lines of their own) is the
 * list of its lines' records, as validation reads it; a line that is no JSON is named.
 */
function parsePayload(text: string, name: string): unknown {
  if (text.trim() === '') throw new HealthDataError('usage', vscode.l10n.t('{0} is empty: there is nothing to show.', name));
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    const lines = ndjsonOf(text, NDJSON_FILE_NAME.test(name) ? 'always' : 'detect');
    if (lines === undefined) throw new HealthDataError('usage', vscode.l10n.t('{0} is not valid JSON: {1}', name, err instanceof Error ? err.message : String(err)));
    const first = lines.syntaxErrors[0];
    if (first === undefined) return lines.values;
    const [line, character] = lineCharacterAt(lineStarts(text), first.offset);
    const where = placedSyntaxWords(first.code, line + 1, character + 1);
    throw new HealthDataError(
      'usage',
      lines.brokenLines === 1
        ? vscode.l10n.t('{0} is NDJSON with a line that is not valid JSON ({1}): fix it to see the records.', name, where)
        : vscode.l10n.t('{0} is NDJSON with {1} lines that are not valid JSON (the first: {2}): fix them to see the records.', name, lines.brokenLines, where),
    );
  }
}

/** The text's lines parsed as NDJSON, or undefined when it is not read as NDJSON. */
function ndjsonOf(text: string, mode: LinesMode): NdjsonRecords | undefined {
  const parsed = parseJsonText(text);
  const spans = ndjsonRecordSpans(text, parsed.errors, mode);
  return spans === undefined ? undefined : parseNdjsonRecords(text, spans);
}

export function registerRecordViewCommands(session: Session, views: RecordViews): vscode.Disposable[] {
  return registerCommands(
    {
      // Returns the panel's key and title (plain data, for callers and tests), undefined when nothing opened.
      'healthData.openInRecordView': async (uri?: unknown): Promise<{ key: string; title: string } | undefined> => {
        const source = await payloadText(uri);
        if (!source) return undefined;
        const panel = views.openPayload(parsePayload(source.text, source.name), { name: source.name, key: source.key });
        return { key: panel.key, title: panel.title };
      },
    },
    (err) => showError(session, err, vscode.l10n.t('Could not open the payload in the record view')),
  );
}
