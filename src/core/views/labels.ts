// How a record is named for people: its headline number, its title, a short id. Shared by the
// CLI's tables, the tree's labels and the record view's title so they never disagree.

import { localDateOf } from '../dates';
import { ResourceKind, resource } from '../resources';

type Fields = Record<string, unknown>;

const asFields = (record: unknown): Fields | undefined =>
  record && typeof record === 'object' && !Array.isArray(record) ? (record as Fields) : undefined;

const numberFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

// Intl formatting costs about a microsecond a number, which a tree of 15,000 labels notices.
// Whole numbers are grouped by hand exactly as en-US does; fractions (body fat, a few hundred
// distinct values) are remembered.
const MAX_GROUPED = 1e15;
const fractions = new Map<number, string>();
const MAX_REMEMBERED = 4096;

const threeDigits = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

/** A number as en-US writes it with at most one decimal: "12,224", "18.7". */
export function formatNumber(v: number): string {
  if (Number.isInteger(v) && v > -MAX_GROUPED && v < MAX_GROUPED && !Object.is(v, -0)) {
    const abs = Math.abs(v);
    let text: string;
    if (abs < 1000) {
      text = String(abs);
    } else if (abs < 1_000_000) {
      const low = abs % 1000;
      text = `${(abs - low) / 1000},${threeDigits(low)}`;
    } else {
      const digits = String(abs);
      const head = digits.length % 3 || 3;
      text = digits.slice(0, head);
      for (let i = head; i < digits.length; i += 3) text += `,${digits.slice(i, i + 3)}`;
    }
    return v < 0 ? `-${text}` : text;
  }
  if (Math.abs(v) >= 1e21 && Number.isFinite(v)) return v.toPrecision(3); // not 300 digits of grouped zeros
  let text = fractions.get(v);
  if (text === undefined) {
    text = numberFormat.format(v);
    if (fractions.size >= MAX_REMEMBERED) fractions.clear();
    fractions.set(v, text);
  }
  return text;
}

/**
 * The record's headline number with its unit (and its name, where several share the unit): "12,224 steps", "resting 58 bpm", "18.7 %".
 * With `notProvided` (whether the record's source is known, from its other records, not to
 * provide a field), a 0 of such a field gives way to the resource's `instead` numbers: a source
 * without a step counter is "747 kcal", not "0 steps".
 */
export function headlineOf(record: unknown, kind: ResourceKind, notProvided?: (field: string) => boolean): string | undefined {
  const fields = asFields(record);
  if (!fields) return undefined;
  const { headline } = resource(kind);
  let field = headline.field;
  let v = fields[field];
  const fallback = headline.fallback;
  for (let i = 0; !isFiniteNumber(v) && fallback !== undefined && i < fallback.length; i++) v = fields[(field = fallback[i])];
  if (!isFiniteNumber(v)) return undefined;
  if (v === 0 && notProvided !== undefined && headline.instead !== undefined && notProvided(field)) {
    for (const other of headline.instead) {
      const w = fields[other.field];
      if (isFiniteNumber(w) && w !== 0) return `${formatNumber(w)} ${other.unit}`;
    }
  }
  const unit = kind === 'bodyFat' && typeof fields.unit === 'string' && fields.unit !== 'percent' && fields.unit !== '%'
    ? shortText(fields.unit, 12)
    : headline.unit;
  const name = headline.names?.[field];
  return name === undefined ? `${formatNumber(v)} ${unit}` : `${name} ${formatNumber(v)} ${unit}`;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

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

/** A string cut to at most `max` characters, the last one an ellipsis when it was cut. */
export function cutText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A string cut to a length, with an ellipsis, made inert (see inertText) to show inline. */
export function shortText(text: string, max = 60): string {
  return inertText(cutText(text, max));
}

const INVISIBLE_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const INVISIBLE_CONTROLS = new RegExp(INVISIBLE_CONTROL.source, 'g');

/** Whether the text holds a control character or a direction mark (what inertText replaces). */
export function hasInvisibleControls(text: string): boolean {
  return INVISIBLE_CONTROL.test(text);
}

/**
 * Text from a payload made safe to show inline: control characters and direction marks become
 * U+FFFD (or `replacement`), so a label cannot move a terminal's cursor or reorder the words
 * shown after it.
 */
export function inertText(text: string, replacement = '\ufffd'): string {
  return hasInvisibleControls(text) ? text.replace(INVISIBLE_CONTROLS, replacement) : text;
}

/** "1:05" for 3900 seconds: time in a heart rate zone as h:mm. */
export function formatDurationHm(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

/** "Activity Summary" of "Activity summary": a resource's name as command titles write it. */
export function titleCase(text: string): string {
  return text.replace(/(^|\s)(\p{Ll})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
}
