// The export formats as encoders of text, page by page: JSON (one array, as `--json` always
// printed it), NDJSON (one record a line) and CSV (RFC 4180, by csv-stringify). Each page's text
// is produced and handed on at once, so an export holds a page, never the whole list. JSON and
// NDJSON are written inert (inertJson); CSV has no escape to write them with and keeps them.

import { stringify } from 'csv-stringify/sync';
import { inertJson } from '../reports/safeText';
import { ResourceKind } from '../resources';
import { csvCells, csvColumns } from './csvCells';

export const EXPORT_FORMATS = ['json', 'ndjson', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function isExportFormat(value: unknown): value is ExportFormat {
  return typeof value === 'string' && (EXPORT_FORMATS as readonly string[]).includes(value);
}

/** The file name extension of a format, without the dot. */
export const EXPORT_EXTENSIONS: Readonly<Record<ExportFormat, string>> = { json: 'json', ndjson: 'ndjson', csv: 'csv' };

export interface RecordEncoder {
  /** The text that goes before any record (a CSV header); may be empty. */
  begin(): string;
  /** One page of records as text. */
  page(records: readonly unknown[]): string;
  /** The text that closes the export. */
  end(): string;
}

export function recordEncoder(format: ExportFormat, kind: ResourceKind): RecordEncoder {
  switch (format) {
    case 'json':
      return jsonEncoder();
    case 'ndjson':
      return {
        begin: () => '',
        page: (records) => inertJson(records.map((r) => `${JSON.stringify(r)}\n`).join('')),
        end: () => '',
      };
    case 'csv':
      return csvEncoder(kind);
  }
}

/**
 * The text JSON.stringify(records, null, 2) gives, written one page at a time, with the characters
 * JSON.stringify leaves raw in strings (direction overrides, C1 controls, DEL) as \uXXXX: the same
 * records to a parser, and nothing that turns a terminal's text around when the file is shown.
 */
function jsonEncoder(): RecordEncoder {
  let count = 0;
  return {
    begin: () => '',
    page(records) {
      let text = '';
      for (const r of records) {
        text += `${count++ === 0 ? '[\n' : ',\n'}  ${(JSON.stringify(r, null, 2) ?? 'null').replace(/\n/g, '\n  ')}`;
      }
      return inertJson(text);
    },
    end: () => (count === 0 ? '[]\n' : '\n]\n'),
  };
}

function csvEncoder(kind: ResourceKind): RecordEncoder {
  const columns = csvColumns(kind);
  // CRLF as RFC 4180 writes it; an empty string quoted ("") so that it reads back apart from a
  // field the record lacks (nothing); formula-like text prefixed with ' (escape_formulas).
  const options = { record_delimiter: 'windows', quoted_match: /^$/, escape_formulas: true } as const;
  return {
    begin: () => stringify([columns], options),
    page: (records) => (records.length ? stringify(records.map((r) => csvCells(r, columns)), options) : ''),
    end: () => '',
  };
}
