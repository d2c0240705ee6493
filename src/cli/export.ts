// `health-data list … --format json|ndjson|csv [--out FILE]`: the list written as it is read,
// page by page, to stdout or to a file that appears under its name only once complete.

import { HealthDataError } from '../core/errors';
import { ExportFormat, exportList, isExportFormat, openPartialFile, type PartialFile, EXPORT_FORMATS } from '../core/export';
import type { ResourceDefinition } from '../core/resources';
import type { ListQuery } from '../core/service';
import { escapeInvisible, unicodeEscape, validate } from '../core/validation';
import type { Connection } from './connection';
import { FileTargetError, checkWriteTarget, whyNotWritten } from './fileTargets';
import { Output, paint, printable, recordCount } from './output';

export interface ExportFlags {
  format?: string;
  json?: boolean;
  out?: string;
}

/** The format the flags ask for, or undefined for the table; `--json` is `--format json`. */
export function exportFormatOf(flags: ExportFlags): ExportFormat | undefined {
  if (flags.format !== undefined) {
    if (!isExportFormat(flags.format)) {
      throw new HealthDataError('usage', `--format must be one of ${EXPORT_FORMATS.join(', ')}, got "${printable(flags.format, 30)}".`);
    }
    if (flags.json && flags.format !== 'json') throw new HealthDataError('usage', `--json is --format json; it cannot go with --format ${flags.format}.`);
    return flags.format;
  }
  if (flags.json) return 'json';
  if (flags.out !== undefined) throw new HealthDataError('usage', '--out needs --format json, ndjson or csv.');
  return undefined;
}

/**
 * Streams the list to stdout (`write`) or to `--out`; progress and the summary go to stderr
 * only when writing a file, so stdout stays the data. Exit 1 when a record is invalid or the
 * list is incomplete.
 */
/** The file `--out` names, opened under a temporary name beside it: refused before any request when it cannot be written. */
function openOut(out: string): PartialFile {
  if (!out.trim()) throw new HealthDataError('usage', '--out is empty.');
  checkWriteTarget('--out', out);
  try {
    return openPartialFile(out);
  } catch (err) {
    throw new FileTargetError(`--out ${printable(out, 80)}: ${whyNotWritten(err)}.`);
  }
}

export async function exportCommand(
  conn: Connection,
  o: Output,
  def: ResourceDefinition,
  query: ListQuery,
  format: ExportFormat,
  flags: ExportFlags,
  writeStdout: (text: string) => void,
  signal: AbortSignal,
): Promise<number> {
  const file = flags.out === undefined ? undefined : openOut(flags.out);
  /** A failure of the file itself (a full disk), said as such rather than as Node's error. */
  const onFile = <T>(work: () => T): T => {
    try {
      return work();
    } catch (err) {
      throw new Error(`Could not write ${printable(flags.out ?? '', 80)}: ${whyNotWritten(err)}; nothing was written there.`);
    }
  };
  let invalid = 0;
  // CSV has no escape for control and invisible characters: on a terminal they are shown as
  // \uXXXX text, a pipe and --out get the records' text as it is.
  const shown = format === 'csv' && !file && o.terminal ? terminalText(writeStdout) : undefined;
  try {
    const summary = await exportList(conn.client, def.kind, query, format, {
      write: file ? (text) => onFile(() => file.write(text)) : (shown?.write ?? writeStdout),
      // A reader of stdout slower than the service (a pager, a slow pipe): no page is asked for
      // ahead of it, so memory holds a page, not the list.
      ready: file ? undefined : () => o.backlog?.(),
      signal,
      onProgress(_written, page) {
        for (const r of page) if (!validate(r, def.kind).valid) invalid++;
      },
    });
    if (!summary.complete && query.all !== false) {
      const what = file ? `nothing was written to ${printable(flags.out ?? '', 80)}` : 'the output above is incomplete';
      throw new HealthDataError('http', `The list is incomplete: ${summary.stopReason ?? 'paging stopped early'}; ${what}.`);
    }
    if (file) {
      onFile(() => file.commit());
      const parts = [`${recordCount(summary.records, def)} written to ${printable(flags.out ?? '', 80)} (${format}, ${summary.pages} page${summary.pages === 1 ? '' : 's'})`];
      if (summary.duplicatesDropped) parts.push(`${summary.duplicatesDropped} duplicate${summary.duplicatesDropped === 1 ? '' : 's'} dropped`);
      if (invalid) parts.push(paint(o, 'red', `${invalid} invalid`));
      o.err(parts.join(', '));
    }
    if (shown?.escaped) o.err(shownAsEscapes(shown.escaped));
    if (!summary.complete) o.err(paint(o, 'yellow', 'More records exist: add --all to export every page.'));
    return invalid ? 1 : 0;
  } finally {
    file?.discard();
  }
}

/**
 * Writes CSV text for a terminal: control characters (ESC begins every escape sequence; a lone
 * carriage return goes back over what the line showed), direction marks and overrides,
 * zero-width and separator characters in the records' strings become visible \uXXXX text, so
 * none can run, hide or turn around what the terminal shows. Line ends show as the terminal's
 * own (CRLF as LF). `escaped` counts the characters written as escapes.
 */
function terminalText(write: (text: string) => void): { write: (text: string) => void; escaped: number } {
  const shown = {
    escaped: 0,
    write: (text: string) =>
      write(
        escapeInvisible(text.replace(/\r\n/g, '\n'), (c) => {
          if (c === '\n') return c;
          shown.escaped++;
          return unicodeEscape(c);
        }),
      ),
  };
  return shown;
}

function shownAsEscapes(count: number): string {
  const what = count === 1 ? '1 control or invisible character' : `${count} control or invisible characters`;
  return `health-data: ${what} in the records shown as \\uXXXX on this terminal (CSV has no escape for them); a pipe or --out writes the records' text as it is.`;
}
