// The schema's words for a field on hover, in the payloads Health Data validates that VS Code's
// JSON language service does not know as payloads: the lists the commands open, files the glob
// setting names other than `*.health.json`, NDJSON. (In a `*.health.json` file the language service
// shows the same words from dist/payload.editor.schema.json; a second hover would repeat them.)

import * as vscode from 'vscode';
import type { FieldHelp } from '../../core/validation/fieldHelp';
import { escapeMarkdown, shortText } from '../../core/views';
import { isNdjsonDocument, longerThan } from './documentValidator';
import type { DocumentValidator } from './documentValidator';
import type { LiveValidation } from './live';

/** The files the JSON language service reads with the payload schema (package.json `jsonValidation`). */
const SCHEMA_FILE = /\.health\.json$/i;

export class FieldHover implements vscode.HoverProvider {
  constructor(
    private readonly validator: DocumentValidator,
    private readonly live: LiveValidation,
  ) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const ndjson = isNdjsonDocument(document);
    if (!ndjson && (document.languageId === 'json' || document.languageId === 'jsonc') && SCHEMA_FILE.test(document.uri.path)) return undefined;
    if (!this.live.covers(document)) return undefined;
    const { MAX_HOVER_TEXT_CHARS, fieldHelpAt } = fieldHelp();
    // A hover reads the text on the extension host's thread, up to the record hovered: only so far that it never waits long.
    if (longerThan(document, MAX_HOVER_TEXT_CHARS)) return undefined;
    const options = this.validator.optionsFor(document);
    const help = fieldHelpAt(document.getText(), document.offsetAt(position), { kind: options.kind, fallbackKind: options.fallbackKind, ndjson });
    if (!help) return undefined;
    const range = new vscode.Range(document.positionAt(help.span.offset), document.positionAt(help.span.offset + help.span.length));
    return new vscode.Hover(hoverMarkdown(help), range);
  }
}

/** The field help, from its own bundle (dist/fieldHover.js) on the first hover. */
function fieldHelp(): typeof import('../../core/validation/fieldHelp') {
  return require('../../core/validation/fieldHelp') as typeof import('../../core/validation/fieldHelp');
}

/** The hover's text: the field's title and name, what it holds, and what the schema says of it. */
export function hoverMarkdown(help: FieldHelp): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, false);
  md.isTrusted = false;
  md.supportHtml = false;
  const owner = help.ownerTitle.toLowerCase();
  if (help.title === undefined && help.description === undefined) {
    md.appendMarkdown(vscode.l10n.t('**{0}** is not in the {1} schema: a field the source added (Health Data lists it as unknown).', code(help.field), owner));
    return md;
  }
  md.appendMarkdown(`**${escapeMarkdown(help.title ?? help.field)}** · ${code(help.field)} · ${escapeMarkdown(owner)}\n\n`);
  if (help.description) md.appendMarkdown(`${escapeMarkdown(help.description)}\n\n`);
  const facts: string[] = [];
  if (help.type) facts.push(escapeMarkdown(help.type));
  facts.push(help.required ? vscode.l10n.t('required') : vscode.l10n.t('optional'));
  if (help.deprecated) facts.push(vscode.l10n.t('deprecated'));
  md.appendMarkdown(facts.join(' · '));
  return md;
}

/** A field name as inline code, whatever it holds (names come from the payload): cut, made inert. */
function code(name: string): string {
  const clean = shortText(name, 60);
  return clean.includes('`') ? `\`\` ${clean} \`\`` : `\`${clean}\``;
}
