// How reports name a place and a record in words: `line 4, column 5`, `#3 Activity summary a1b2 2026-11-20`.

import { resource } from '../resources';
import { cutText } from '../views';
import type { ReportRecord, TextRange } from './model';

/** 1-based, as editors and CI show positions. */
export function lineColumn(range: TextRange | undefined): string {
  return range === undefined ? '' : `line ${range.start.line + 1}, column ${range.start.character + 1}`;
}

/** A record's name from its position, kind, id and day, in that order, whatever it has of them. */
export function recordName(record: ReportRecord): string {
  const parts = [record.index === undefined ? 'record' : `#${record.index}`];
  parts.push(record.kind === undefined ? 'unknown kind' : resource(record.kind).singular);
  parts.push(record.id === undefined ? '(no id)' : cutText(record.id, 60));
  if (record.date !== undefined) parts.push(record.date);
  return parts.join(' ');
}
