// Records as CSV rows and back: one column per schema field in the schema's order, nested values
// as JSON text. Cells a spreadsheet would run as a formula are defused with a leading quote by
// csv-stringify's `escape_formulas` (see encoders.ts); reading back takes that quote off.

import { ResourceKind } from '../resources';
import { schemaFor } from '../validation';

/** The column that carries fields the schema does not define, as one JSON object. */
export const EXTRA_COLUMN = '_extra';

/**
 * The first characters csv-stringify's `escape_formulas` defuses in a text cell: OWASP's list
 * and the full-width forms some spreadsheets read as the same.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** The columns of a resource's CSV: its schema's fields in their order, then EXTRA_COLUMN. */
export function csvColumns(kind: ResourceKind): string[] {
  return [...Object.keys(schemaFor(kind).properties ?? {}), EXTRA_COLUMN];
}

/** escape_formulas undone: the leading quote goes only where it was put. */
export function unguardCell(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

/**
 * The cells of one record: strings as text, numbers as numbers (so csv-stringify leaves a
 * negative number alone), every other value as its JSON text, a field the record lacks as
 * `undefined` (an empty, unquoted cell).
 */
export function csvCells(record: unknown, columns: readonly string[]): Array<string | number | undefined> {
  const fields = record && typeof record === 'object' && !Array.isArray(record) ? (record as Record<string, unknown>) : {};
  const known = new Set(columns);
  const cells: Array<string | number | undefined> = [];
  for (const column of columns) {
    if (column === EXTRA_COLUMN) {
      const extra: Record<string, unknown> = {};
      let any = false;
      for (const name of Object.keys(fields)) {
        if (known.has(name)) continue;
        extra[name] = fields[name];
        any = true;
      }
      cells.push(any ? JSON.stringify(extra) : undefined);
      continue;
    }
    if (!Object.prototype.hasOwnProperty.call(fields, column)) {
      cells.push(undefined);
      continue;
    }
    const value = fields[column];
    cells.push(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) ? value : (JSON.stringify(value) ?? 'null'));
  }
  return cells;
}

/**
 * A record from the cells of csvCells (as csv-parse reads them, `quoted` saying which empty
 * cells were quoted, i.e. empty strings): string fields of the schema stay text, the others are
 * read as JSON, an empty unquoted cell is a field the record did not have.
 */
export function recordFromCsv(kind: ResourceKind, columns: readonly string[], cells: ReadonlyArray<{ text: string; quoted: boolean }>): Record<string, unknown> {
  const properties = schemaFor(kind).properties ?? {};
  const record: Record<string, unknown> = {};
  columns.forEach((column, i) => {
    const cell = cells[i];
    if (!cell || (cell.text === '' && !cell.quoted)) return;
    const text = unguardCell(cell.text);
    if (column === EXTRA_COLUMN) {
      Object.assign(record, JSON.parse(text) as Record<string, unknown>);
      return;
    }
    if (properties[column]?.type === 'string') {
      record[column] = text;
      return;
    }
    try {
      record[column] = JSON.parse(text) as unknown;
    } catch {
      record[column] = text;
    }
  });
  return record;
}
