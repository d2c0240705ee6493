// How a record is named for people: its headline number, its title, a short id. Shared by the
// CLI's tables, the tree's labels and the record view's title so they never disagree.

import { localDateOf } from './dates';
import { ResourceKind, resource } from './resources';

type Fields = Record<string, unknown>;

const asFields = (record: unknown): Fields | undefined =>
  record && typeof record === 'object' && !Array.isArray(record) ? (record as Fields) : undefined;

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** The record's headline number with its unit: "12,224 steps", "58 bpm", "18.7 %". */
export function headlineOf(record: unknown, kind: ResourceKind): string | undefined {
  const fields = asFields(record);
  if (!fields) return undefined;
  const { headline } = resource(kind);
  for (const name of [headline.field, ...(headline.fallback ?? [])]) {
    const v = fields[name];
    if (typeof v === 'number' && Number.isFinite(v)) {
      const unit = kind === 'bodyFat' && typeof fields.unit === 'string' && fields.unit !== 'percent' && fields.unit !== '%'
        ? shortText(fields.unit, 12)
        : headline.unit;
      return `${numberFormat.format(v)} ${unit}`;
    }
  }
  return undefined;
}

/** A string field of the record, or undefined. */
export function textField(record: unknown, name: string): string | undefined {
  const v = asFields(record)?.[name];
  return typeof v === 'string' ? v : undefined;
}

/** "Activity 2026-11-20 · fitbit": what a panel or a document is called. */
export function recordTitle(record: unknown, kind: ResourceKind): string {
  const def = resource(kind);
  const date = localDateOf(record, kind) ?? shortId(textField(record, 'id')) ?? 'record';
  const source = textField(record, 'source');
  return source ? `${def.shortLabel} ${date} · ${shortText(source, 30)}` : `${def.shortLabel} ${date}`;
}

/** The first characters of an id, enough to tell records apart in a list. */
export function shortId(id: string | undefined, length = 10): string | undefined {
  if (id === undefined) return undefined;
  return id.length > length ? `${id.slice(0, length)}…` : id;
}

/** A string cut to a length, with an ellipsis; control characters are left for the caller to strip. */
export function shortText(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** "1:05" for 3900 seconds: time in a heart rate zone as h:mm. */
export function formatDurationHm(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}
