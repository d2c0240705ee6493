// The quick fix of a deprecated field (userId): rename it to its replacement (humanId) when the
// record lacks that, remove it when the record has it already. The fix is read from the text as
// it is when the light bulb asks, never from the diagnostic, so a stale diagnostic cannot break it.

import * as vscode from 'vscode';
import { DeprecatedFieldFix, deprecatedFieldFixes } from '../../core/validation';
import { isDeprecatedDiagnostic } from './diagnostics';

function editOf(document: vscode.TextDocument, fixes: Iterable<DeprecatedFieldFix>): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const { edit: e } of fixes) {
    edit.replace(document.uri, new vscode.Range(document.positionAt(e.offset), document.positionAt(e.offset + e.length)), e.content);
  }
  return edit;
}

function titleOf(fix: DeprecatedFieldFix): string {
  return fix.action === 'rename'
    ? vscode.l10n.t('Rename {0} to {1}', fix.field, fix.replacement)
    : vscode.l10n.t('Remove deprecated {0} ({1} is already there)', fix.field, fix.replacement);
}

export class DeprecatedFieldQuickFix implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  /** `all`: the document's diagnostics, for the "fix all" action. */
  constructor(private readonly all: vscode.DiagnosticCollection) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.only && !context.only.intersects(vscode.CodeActionKind.QuickFix)) return [];
    const here = context.diagnostics.filter(isDeprecatedDiagnostic);
    if (here.length === 0) return [];
    const everywhere = (this.all.get(document.uri) ?? []).filter(isDeprecatedDiagnostic);
    const offsetOf = (d: vscode.Diagnostic): number => document.offsetAt(d.range.start);
    const fixes = deprecatedFieldFixes(document.getText(), [...here, ...everywhere].map(offsetOf), { jsonc: document.languageId === 'jsonc' });

    const actions: vscode.CodeAction[] = [];
    for (const d of here) {
      const fix = fixes.get(offsetOf(d));
      if (fix === undefined) continue;
      const action = new vscode.CodeAction(titleOf(fix), vscode.CodeActionKind.QuickFix);
      action.edit = editOf(document, [fix]);
      action.diagnostics = [d];
      action.isPreferred = true;
      actions.push(action);
    }
    const fixable = everywhere.filter((d) => fixes.has(offsetOf(d)));
    if (actions.length > 0 && fixable.length > 1) {
      const all = new vscode.CodeAction(vscode.l10n.t('Fix all {0} deprecated fields in this document', fixable.length), vscode.CodeActionKind.QuickFix);
      const unique = new Map(fixable.map((d) => [offsetOf(d), fixes.get(offsetOf(d))!]));
      all.edit = editOf(document, unique.values());
      all.diagnostics = fixable;
      actions.push(all);
    }
    return actions;
  }
}
