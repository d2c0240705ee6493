// Findings and syntax errors as diagnostics of the Problems panel: one severity per kind of
// finding, the `deprecated` tag (the editor strikes the key through), our source and the kind as
// the code, which is how the quick fix finds its diagnostics again.

import * as vscode from 'vscode';
import type { FindingKind, PayloadTextValidation, PlacedFinding } from '../../core/validation';
import type { JsonSyntaxError } from '../../core/json';
import { type FindingCounts, noFindings } from '../../core/validationWorker';
import { shownAsKind } from '../../core/views/zeroContext';

export const DIAGNOSTIC_SOURCE = 'Health Data';
/** The code of a diagnostic for a syntax error; findings carry their kind as code. */
export const SYNTAX_ERROR_CODE = 'syntax';
/**
 * Past this many the Problems panel is no help, and the editor slows down: the most severe are
 * kept. VS Code hands at most 1,000 diagnostics of a file to the Problems panel and the editor
 * (the rest are dropped with its own "Not showing N further errors and warnings", which would drop
 * our note too): 999 and our note are all of a file's that arrive.
 */
export const MAX_DIAGNOSTICS = 999;
/** What VS Code passes on of one file's diagnostics (`_maxDiagnosticsPerFile` in extHostDiagnostics). */
export const VSCODE_DIAGNOSTICS_PER_FILE = 1000;

const SEVERITY: Readonly<Record<FindingKind, vscode.DiagnosticSeverity>> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  zero: vscode.DiagnosticSeverity.Information,
  // Not the author's mistake (the service still sends userId), so no warning; the tag shows it.
  deprecated: vscode.DiagnosticSeverity.Information,
  // The default of `healthData.validation.unknownFieldSeverity`: a hint would not be listed.
  unknown: vscode.DiagnosticSeverity.Information,
};

/** `healthData.validation.unknownFieldSeverity`, read at each validation. */
export function unknownFieldSeverity(): vscode.DiagnosticSeverity {
  const value = vscode.workspace.getConfiguration('healthData.validation').get<string>('unknownFieldSeverity');
  switch (value) {
    case 'error':
      return vscode.DiagnosticSeverity.Error;
    case 'warning':
      return vscode.DiagnosticSeverity.Warning;
    case 'hint':
      return vscode.DiagnosticSeverity.Hint;
    default:
      return SEVERITY.unknown;
  }
}

/** Severity order for trimming: errors are the last to go. */
const RANK: Readonly<Record<FindingKind, number>> = { error: 0, warning: 1, deprecated: 2, zero: 3, unknown: 4 };

export function isDeprecatedDiagnostic(d: vscode.Diagnostic): boolean {
  return d.source === DIAGNOSTIC_SOURCE && d.code === 'deprecated';
}

function rangeOf(document: vscode.TextDocument, offset: number, length: number): vscode.Range {
  return new vscode.Range(document.positionAt(offset), document.positionAt(offset + length));
}

function syntaxMessage(code: string): string {
  switch (code) {
    case 'InvalidSymbol':
      return vscode.l10n.t('Not valid JSON: unexpected symbol');
    case 'InvalidNumberFormat':
      return vscode.l10n.t('Not valid JSON: malformed number');
    case 'PropertyNameExpected':
      return vscode.l10n.t('Not valid JSON: a property name in double quotes is expected');
    case 'ValueExpected':
      return vscode.l10n.t('Not valid JSON: a value is expected');
    case 'ColonExpected':
      return vscode.l10n.t('Not valid JSON: a colon is expected');
    case 'CommaExpected':
      return vscode.l10n.t('Not valid JSON: a comma is expected');
    case 'CloseBraceExpected':
      return vscode.l10n.t('Not valid JSON: a closing brace } is expected');
    case 'CloseBracketExpected':
      return vscode.l10n.t('Not valid JSON: a closing bracket ] is expected');
    case 'EndOfFileExpected':
      return vscode.l10n.t('Not valid JSON: nothing may follow the value');
    case 'InvalidCommentToken':
      return vscode.l10n.t('Not valid JSON: comments are not allowed (use the JSON with Comments language for them)');
    case 'UnexpectedEndOfComment':
      return vscode.l10n.t('Not valid JSON: the comment is not closed');
    case 'UnexpectedEndOfString':
      return vscode.l10n.t('Not valid JSON: the string is not closed');
    case 'UnexpectedEndOfNumber':
      return vscode.l10n.t('Not valid JSON: the number ends too early');
    case 'InvalidUnicode':
      return vscode.l10n.t('Not valid JSON: malformed \\u escape');
    case 'InvalidEscapeCharacter':
      return vscode.l10n.t('Not valid JSON: unknown escape character');
    case 'InvalidCharacter':
      return vscode.l10n.t('Not valid JSON: a control character must be escaped in a string');
    default:
      return vscode.l10n.t('Not valid JSON: {0}', code);
  }
}

export function syntaxDiagnostic(document: vscode.TextDocument, error: JsonSyntaxError): vscode.Diagnostic {
  const d = new vscode.Diagnostic(rangeOf(document, error.offset, error.length), syntaxMessage(error.code), vscode.DiagnosticSeverity.Error);
  d.source = DIAGNOSTIC_SOURCE;
  d.code = SYNTAX_ERROR_CODE;
  return d;
}

/** A finding whose range is given in lines (as a worker thread sends them), or found from its offsets. */
type RangeableFinding = PlacedFinding & { readonly start?: readonly [number, number]; readonly end?: readonly [number, number] };

export function findingDiagnostic(document: vscode.TextDocument, finding: RangeableFinding, unknownSeverity = SEVERITY.unknown): vscode.Diagnostic {
  // In a list the line alone does not say which record; the CLI's `#3` does.
  const message = finding.index === undefined ? finding.message : vscode.l10n.t('{0} (record #{1})', finding.message, finding.index);
  // A 0 where the source's other records in the document nearly all send the field: a warning, worth a look.
  const severity = finding.kind === 'unknown' ? unknownSeverity : SEVERITY[shownAsKind(finding)];
  const range = finding.start && finding.end ? new vscode.Range(finding.start[0], finding.start[1], finding.end[0], finding.end[1]) : rangeOf(document, finding.offset, finding.length);
  const d = new vscode.Diagnostic(range, message, severity);
  d.source = DIAGNOSTIC_SOURCE;
  d.code = finding.kind;
  if (finding.kind === 'deprecated') d.tags = [vscode.DiagnosticTag.Deprecated];
  return d;
}

/**
 * VS Code's JSON language support reports the syntax errors of a JSON or JSON with Comments
 * document itself (`Expected comma`), unless `json.validate.enable` is off: ours beside them would
 * list each error twice.
 */
export function syntaxReportedByVsCode(document: vscode.TextDocument): boolean {
  if (document.languageId !== 'json' && document.languageId !== 'jsonc') return false;
  if (vscode.extensions.getExtension('vscode.json-language-features') === undefined) return false;
  return vscode.workspace.getConfiguration('json', document).get<boolean>('validate.enable', true) !== false;
}

/**
 * Our diagnostics of a text's syntax errors: none where VS Code's JSON support lists them already,
 * but always those of the lines of NDJSON (`lines`), which VS Code reads as one value that
 * something follows (it says `End of file expected` where the second line starts).
 */
export function syntaxDiagnostics(document: vscode.TextDocument, errors: readonly JsonSyntaxError[], lines = false): vscode.Diagnostic[] {
  return errors.length === 0 || (!lines && syntaxReportedByVsCode(document)) ? [] : errors.map((e) => syntaxDiagnostic(document, e));
}

/** The diagnostics of one validation, at most MAX_DIAGNOSTICS of them (then a note says so). */
export function diagnosticsOf(document: vscode.TextDocument, validation: PayloadTextValidation, unknownSeverity = SEVERITY.unknown): vscode.Diagnostic[] {
  // A text that is no JSON: its syntax errors first, then the findings of the records it still holds
  // whole, in the room the syntax errors leave under VS Code's limit.
  const syntax = syntaxDiagnostics(document, validation.syntaxErrors, validation.lines !== undefined);
  return [...syntax, ...findingDiagnostics(document, validation.findings, validation.findings.length, unknownSeverity, MAX_DIAGNOSTICS - syntax.length)];
}

/** The note that says only the `shown` most severe findings are shown. */
function tooManyNote(shown: number, total: number): vscode.Diagnostic {
  const note = new vscode.Diagnostic(
    new vscode.Range(0, 0, 0, 0),
    vscode.l10n.t('Showing {0} of {1} findings, the most severe first.', shown, total),
    vscode.DiagnosticSeverity.Information,
  );
  note.source = DIAGNOSTIC_SOURCE;
  return note;
}

/**
 * The diagnostics of `total` findings of which `findings` are known, in their order: all of them,
 * or when there are too many the MAX_DIAGNOSTICS most severe and a note. The first
 * MAX_DIAGNOSTICS findings of each kind are all it takes to choose those.
 */
export function findingDiagnostics(document: vscode.TextDocument, findings: readonly RangeableFinding[], total: number, unknownSeverity = SEVERITY.unknown, limit = MAX_DIAGNOSTICS): vscode.Diagnostic[] {
  if (total <= limit) return findings.map((f) => findingDiagnostic(document, f, unknownSeverity));
  const diagnostics = [...findings]
    .sort((a, b) => RANK[shownAsKind(a)] - RANK[shownAsKind(b)])
    .slice(0, limit)
    .map((f) => findingDiagnostic(document, f, unknownSeverity));
  diagnostics.push(tooManyNote(limit, total));
  return diagnostics;
}

/** Kinds from the most severe, the order findingDiagnostics keeps them in. */
const KINDS_BY_RANK = (Object.keys(RANK) as FindingKind[]).sort((a, b) => RANK[a] - RANK[b]);

/**
 * What findingDiagnostics gives for the findings that have arrived so far, for findings that
 * arrive batch by batch (from a worker thread) and are shown many times on the way: each finding's
 * diagnostic is made once, the choice of the most severe costs no sort, and the diagnostics are
 * made a slice at a time, the extension host's event loop free between slices.
 */
export class StreamedDiagnostics {
  private readonly findings: RangeableFinding[] = [];
  private readonly made: Array<vscode.Diagnostic | undefined> = [];
  /** Indexes into `findings`, by the kind each is shown as (shownAsKind), in arrival order. */
  private readonly byKind = new Map<FindingKind, number[]>(KINDS_BY_RANK.map((k) => [k, []]));
  private total = 0;

  constructor(
    private readonly document: vscode.TextDocument,
    private readonly unknownSeverity = SEVERITY.unknown,
  ) {}

  /** More findings, and how many there are so far (sent or not). */
  add(findings: readonly RangeableFinding[], total: number): void {
    for (const f of findings) this.byKind.get(shownAsKind(f))!.push(this.findings.push(f) - 1);
    this.total = total;
  }

  /** Findings so far, sent or not. */
  get found(): number {
    return this.total;
  }

  /** Indexes of the findings shown now, at most `limit`, in their order. */
  private shown(limit: number): number[] {
    if (this.total <= limit) return this.findings.map((_, i) => i);
    const shown: number[] = [];
    for (const kind of KINDS_BY_RANK) {
      for (const i of this.byKind.get(kind)!) {
        if (shown.length === limit) return shown;
        shown.push(i);
      }
    }
    return shown;
  }

  /**
   * The diagnostics of the findings so far: all of them, or when there are more than `limit` (at
   * most MAX_DIAGNOSTICS) the `limit` most severe and a note. Makes at most `perSlice` new
   * diagnostics before each `pause()`.
   */
  async diagnostics(pause: () => Promise<void>, limit = MAX_DIAGNOSTICS, perSlice = DIAGNOSTICS_PER_SLICE): Promise<vscode.Diagnostic[]> {
    const total = this.total;
    limit = Math.min(limit, MAX_DIAGNOSTICS);
    const diagnostics: vscode.Diagnostic[] = [];
    let madeInSlice = 0;
    for (const i of this.shown(limit)) {
      let d = this.made[i];
      if (d === undefined) {
        if (madeInSlice === perSlice) {
          await pause();
          madeInSlice = 0;
        }
        madeInSlice++;
        d = this.made[i] = findingDiagnostic(this.document, this.findings[i], this.unknownSeverity);
      }
      diagnostics.push(d);
    }
    if (total > limit) diagnostics.push(tooManyNote(limit, total));
    return diagnostics;
  }
}

/** Diagnostics made between two turns of the host's event loop (a few milliseconds' work). */
export const DIAGNOSTICS_PER_SLICE = 250;

export type { FindingCounts };

export function countFindings(validation: PayloadTextValidation): FindingCounts {
  const counts = noFindings();
  for (const f of validation.findings) counts[f.kind]++;
  return counts;
}
