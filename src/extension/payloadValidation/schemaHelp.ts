// The schema's words for a field on hover, and its fields as completions, in the payloads Health
// Data validates that VS Code's JSON language service does not know as payloads: the lists the
// commands open, files the glob setting names other than `*.health.json`, NDJSON. (In a
// `*.health.json` file the language service gives both from dist/payload.editor.schema.json; a
// second copy would repeat them.)

import * as vscode from 'vscode';
import type { FieldChoice, FieldHelp } from '../../core/validation/fieldHelp';
import type { ResourceKind } from '../../core/resources';
import { isNdjsonDocument, longerThan } from './documentValidator';
import type { DocumentValidator } from './documentValidator';
import type { LiveValidation } from './live';

/** The files the JSON language service reads with the payload schema (package.json `jsonValidation`). */
const SCHEMA_FILE = /\.health\.json$/i;

export class FieldSchemaHelp implements vscode.HoverProvider, vscode.CompletionItemProvider {
  static readonly triggerCharacters = ['"'];

  constructor(
    private readonly validator: DocumentValidator,
    private readonly live: LiveValidation,
  ) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const options = this.optionsFor(document);
    if (!options) return undefined;
    const help = fieldHelp().fieldHelpAt(document.getText(), document.offsetAt(position), options);
    if (!help) return undefined;
    return new vscode.Hover(hoverMarkdown(help), rangeOf(document, help.span));
  }

  provideCompletionItems(document: vscode.TextDocument, position: vscode.Position): vscode.CompletionItem[] | undefined {
    const options = this.optionsFor(document);
    if (!options) return undefined;
    const found = fieldHelp().fieldCompletionsAt(document.getText(), document.offsetAt(position), options);
    if (!found) return undefined;
    const range = rangeOf(document, found.span);
    const owner = found.ownerTitle.toLowerCase();
    return found.fields.map((f) => completionOf(f, owner, range, found.quoted));
  }

  /** How to read the document, when it is one of ours the language service does not read, and small enough; else undefined. */
  private optionsFor(document: vscode.TextDocument): { kind?: ResourceKind; fallbackKind?: ResourceKind; ndjson: boolean } | undefined {
    const ndjson = isNdjsonDocument(document);
    if (!ndjson && (document.languageId === 'json' || document.languageId === 'jsonc') && SCHEMA_FILE.test(document.uri.path)) return undefined;
    if (!this.live.covers(document)) return undefined;
    // The text is read on the extension host's thread, up to the record at the place: only so far that it never waits long.
    if (longerThan(document, fieldHelp().MAX_HOVER_TEXT_CHARS)) return undefined;
    const { kind, fallbackKind } = this.validator.optionsFor(document);
    return { kind, fallbackKind, ndjson };
  }
}

function rangeOf(document: vscode.TextDocument, span: { offset: number; length: number }): vscode.Range {
  return new vscode.Range(document.positionAt(span.offset), document.positionAt(span.offset + span.length));
}

/** A field offered where a name is written: `"steps": ` (or the name alone inside the quotes typed), required ones first, deprecated ones last and struck through. */
function completionOf(f: FieldChoice, owner: string, range: vscode.Range, quoted: boolean): vscode.CompletionItem {
  const item = new vscode.CompletionItem({ label: f.field, description: f.title }, vscode.CompletionItemKind.Property);
  item.detail = [f.type, f.required ? vscode.l10n.t('required') : vscode.l10n.t('optional'), owner].filter(Boolean).join(' · ');
  if (f.description) item.documentation = new vscode.MarkdownString(escape(f.description));
  item.range = range;
  item.filterText = `"${f.field}"`;
  item.insertText = quoted ? `"${f.field}"` : new vscode.SnippetString(`"${f.field}": $0`);
  item.sortText = `${f.deprecated ? 2 : f.required ? 0 : 1}`;
  if (f.deprecated) item.tags = [vscode.CompletionItemTag.Deprecated];
  return item;
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
  md.appendMarkdown(`**${escape(help.title ?? help.field)}** · ${code(help.field)} · ${escape(owner)}\n\n`);
  if (help.description) md.appendMarkdown(`${escape(help.description)}\n\n`);
  const facts: string[] = [];
  if (help.type) facts.push(escape(help.type));
  facts.push(help.required ? vscode.l10n.t('required') : vscode.l10n.t('optional'));
  if (help.deprecated) facts.push(vscode.l10n.t('deprecated'));
  md.appendMarkdown(facts.join(' · '));
  return md;
}

/** A field name as inline code, whatever it holds (names come from the payload). */
function code(name: string): string {
  const shown = name.length > 60 ? `${name.slice(0, 59)}…` : name;
  const clean = shown.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');
  return clean.includes('`') ? `\`\` ${clean} \`\`` : `\`${clean}\``;
}

/** Schema text as Markdown that shows it as written. */
function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&');
}
