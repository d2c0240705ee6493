// Printing for the `health-data` CLI: plain tables, finding marks that read without colour
// (a word in brackets), and colour only when the stream is a terminal and NO_COLOR is unset.

import { shortText } from '../core/views';
import { FINDING_KINDS, type Finding, type FindingKind } from '../core/validation';

export interface Output {
  out(line?: string): void;
  /** Text as it is (or its UTF-8 bytes), no newline added (a report written piece by piece). */
  write(text: string | Uint8Array): void;
  /**
   * When standard output holds more than it takes at once (a slow reader on a pipe): a promise of
   * the moment it has taken it. A long report waits on it instead of piling up in memory.
   */
  backlog?(): Promise<void> | undefined;
  err(line?: string): void;
  /** A progress line on standard error, rewritten in place; only on a terminal. Empty clears it. */
  progress(text: string): void;
  readonly color: boolean;
  /** Standard output is a terminal (not a pipe or a file): what it shows must be inert. */
  readonly terminal: boolean;
}

export function makeOutput(
  stdout: NodeJS.WritableStream & { isTTY?: boolean },
  stderr: NodeJS.WritableStream & { isTTY?: boolean },
  env: NodeJS.ProcessEnv,
  noColorFlag = false,
): Output {
  const color =
    !noColorFlag && env.NO_COLOR === undefined && (env.FORCE_COLOR !== undefined ? env.FORCE_COLOR !== '0' : Boolean(stdout.isTTY));
  return {
    color,
    terminal: Boolean(stdout.isTTY),
    out: (line = '') => stdout.write(`${line}\n`),
    write: (text) => {
      if (text.length > 0) stdout.write(text);
    },
    backlog: () => drained(stdout),
    err: (line = '') => stderr.write(`${line}\n`),
    progress: (text) => {
      if (stderr.isTTY) stderr.write(`\r\u001b[K${text}`);
    },
  };
}

/** A promise of a stream's 'drain' when it holds more than its high-water mark, else undefined. */
export function drained(stream: NodeJS.WritableStream): Promise<void> | undefined {
  const writable = stream as NodeJS.WritableStream & { writableNeedDrain?: boolean; destroyed?: boolean };
  if (writable.writableNeedDrain !== true || writable.destroyed === true) return undefined;
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}

const SGR: Record<string, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  strike: [9, 29],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  magenta: [35, 39],
  cyan: [36, 39],
};

export function paint(o: Pick<Output, 'color'>, style: keyof typeof SGR | Array<keyof typeof SGR>, text: string): string {
  if (!o.color) return text;
  const styles = Array.isArray(style) ? style : [style];
  return styles.reduce((t, s) => `\u001b[${SGR[s][0]}m${t}\u001b[${SGR[s][1]}m`, text);
}

const MARK_STYLE: Record<FindingKind, Array<keyof typeof SGR>> = {
  error: ['red', 'bold'],
  warning: ['yellow'],
  zero: ['cyan'],
  deprecated: ['magenta', 'strike'],
  unknown: ['blue'],
};

/** `[zero]`, `[deprecated]`…: the word carries the meaning, colour only helps. */
export function mark(o: Pick<Output, 'color'>, kind: FindingKind, standsOut?: boolean): string {
  // A 0 that stands out ("0 — unusual for fitbit: …") in a warning's colour; its words say why.
  return paint(o, MARK_STYLE[standsOut === true ? 'warning' : kind], `[${kind}]`);
}


/** "1 error, 3 zero, 1 deprecated", or "clean". */
export function countFindings(findings: readonly Pick<Finding, 'kind'>[]): string {
  const counts = new Map<FindingKind, number>();
  for (const f of findings) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  const parts = FINDING_KINDS.filter((k) => counts.has(k)).map((k) => `${counts.get(k)} ${k}`);
  return parts.length ? parts.join(', ') : 'clean';
}

/** A count with thousands separators: `1,024`. */
export const thousands = (count: number): string => count.toLocaleString('en-US');

/** Strips control characters so a hostile payload cannot move the cursor or recolour the terminal. */
export function printable(text: string, max = 80): string {
  return shortText(text, max);
}

const ANSI = /\u001b\[[0-9;]*m/g;
const visibleLength = (s: string): number => s.replace(ANSI, '').length;

/**
 * A table with a header row; cells may carry colour codes. Columns are left-aligned but those in
 * `right` (numbers: their digits line up), header included.
 */
export function table(o: Output, headers: string[], rows: string[][], right: readonly number[] = []): string[] {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => visibleLength(r[i] ?? ''))));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => {
        const pad = ' '.repeat(widths[i] - visibleLength(c));
        if (right.includes(i)) return pad + c;
        return i === cells.length - 1 ? c : c + pad;
      })
      .join('  ')
      .trimEnd();
  return [paint(o, 'bold', line(headers)), ...rows.map(line)];
}

/** `a`, `a and b`, `a, b and c`: words of a sentence. */
export function andList(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : (items[0] ?? '');
}

/** `1 activity summary`, `3 activity summaries`: a count of records of one resource. */
export function recordCount(count: number, def: { readonly label: string; readonly singular: string }): string {
  return `${count} ${(count === 1 ? def.singular : def.label).toLowerCase()}`;
}
