// Warnings for records that are well-formed but implausible or inconsistent: a heart rate no
// human has, minHR above maxHR, body fat outside 2–75 %, a record updated before it was created.

import { Finding, describeValue, truncate } from './findings';
import type { ResourceDefinition, ResourceKind } from '../resources';

/** The present, as the checks see it. */
export interface Clock {
  readonly now: number;
  /** The latest calendar date anywhere on Earth right now (UTC+14), YYYY-MM-DD. */
  readonly latestToday: string;
  /** A date two days before today in UTC: a timestamp whose local date is earlier is past. */
  readonly safelyPast: string;
}

type Rule = (rec: Record<string, unknown>, def: ResourceDefinition, clock: Clock, out: Finding[]) => void;

// Measured heart rates. Zone bounds are left out on purpose: they are edges of buckets the
// source defines (an open-ended bucket may start at 0 or end at 255), not readings.
export const HEART_RATE_FIELDS = ['value', 'restingHR', 'averageHR', 'maxHR', 'minHR'] as const;
export const HEART_RATE_MIN = 20;
export const HEART_RATE_MAX = 250;
const HEART_RATE_RANGE = `${HEART_RATE_MIN}–${HEART_RATE_MAX}`;
export const BODY_FAT_MIN = 2;
export const BODY_FAT_MAX = 75;

function updatedBeforeCreated(rec: Record<string, unknown>, out: Finding[]): void {
  const created = rec.createdAt;
  const updated = rec.updatedAt;
  if (typeof created !== 'string' || typeof updated !== 'string' || created === updated) return;
  let before: boolean;
  const last = created.length - 1;
  const sameShapeUtc =
    updated.length === created.length && created[last] === 'Z' && updated[last] === 'Z' && created[10] === updated[10];
  if (sameShapeUtc) {
    // Same shape in UTC: the text orders like the time, no parsing needed.
    before = updated < created;
  } else {
    const c = Date.parse(created);
    const u = Date.parse(updated);
    before = u < c; // false when either is NaN
  }
  if (before) {
    const message = `updatedAt ${truncate(updated)} is before createdAt ${truncate(created)}`;
    out.push({ kind: 'warning', path: '/updatedAt', message });
  }
}

function datedInFuture(rec: Record<string, unknown>, def: ResourceDefinition, clock: Clock, out: Finding[]): void {
  if (def.datingField === 'date') {
    const date = rec.date;
    // YYYY-MM-DD orders like the date it names.
    if (typeof date === 'string' && date > clock.latestToday) {
      out.push({ kind: 'warning', path: '/date', message: `date ${truncate(date)} is in the future` });
    }
    return;
  }
  const timestamp = rec.timestamp;
  // Offsets are under a day, so a local date before `safelyPast` is in the past: skip parsing.
  if (typeof timestamp === 'string' && !(timestamp < clock.safelyPast) && Date.parse(timestamp) > clock.now) {
    out.push({ kind: 'warning', path: '/timestamp', message: `timestamp ${truncate(timestamp)} is in the future` });
  }
}

const common: Rule = (rec, def, clock, out) => {
  updatedBeforeCreated(rec, out);
  datedInFuture(rec, def, clock, out);
};

function outsideRange(v: unknown, field: (typeof HEART_RATE_FIELDS)[number], out: Finding[]): void {
  if (typeof v === 'number' && (v < HEART_RATE_MIN || v > HEART_RATE_MAX)) {
    out.push({
      kind: 'warning',
      path: `/${field}`,
      message: `${field} ${v} bpm is outside the plausible range of a heart rate, ${HEART_RATE_RANGE} bpm`,
    });
  }
}

function heartRates(rec: Record<string, unknown>, out: Finding[]): void {
  // Named reads, one per field: a loop over the names would make each a keyed lookup.
  outsideRange(rec.value, 'value', out);
  outsideRange(rec.restingHR, 'restingHR', out);
  outsideRange(rec.averageHR, 'averageHR', out);
  outsideRange(rec.maxHR, 'maxHR', out);
  outsideRange(rec.minHR, 'minHR', out);
  const min = rec.minHR;
  const max = rec.maxHR;
  if (typeof min === 'number' && typeof max === 'number' && min > max) {
    out.push({ kind: 'warning', path: '/minHR', message: `minHR ${min} bpm is above maxHR ${max} bpm` });
  }
  const zones = rec.zones;
  if (!Array.isArray(zones)) return;
  for (let i = 0; i < zones.length; i++) {
    const zone: unknown = zones[i];
    if (zone === null || typeof zone !== 'object') continue;
    const { min: zmin, max: zmax, name } = zone as Record<string, unknown>;
    if (typeof zmin === 'number' && typeof zmax === 'number' && zmin > zmax) {
      const label = typeof name === 'string' ? describeValue(name) : String(i);
      const message = `zone ${label} has min ${zmin} bpm above its max ${zmax} bpm`;
      out.push({ kind: 'warning', path: `/zones/${i}/min`, message });
    }
  }
}

function isPercent(unit: unknown): boolean {
  if (unit === 'percent' || unit === '%') return true;
  return typeof unit === 'string' && unit.length === 7 && unit.toLowerCase() === 'percent';
}

function bodyFat(rec: Record<string, unknown>, out: Finding[]): void {
  const v = rec.value;
  if (typeof v === 'number' && isPercent(rec.unit) && (v < BODY_FAT_MIN || v > BODY_FAT_MAX)) {
    out.push({
      kind: 'warning',
      path: '/value',
      message: `value ${v} % is outside the plausible range of body fat, ${BODY_FAT_MIN}–${BODY_FAT_MAX} %`,
    });
  }
}

/** The plausibility checks of each kind; a new kind must say which apply to it. */
export const PLAUSIBILITY: { readonly [K in ResourceKind]: Rule } = {
  heartRate: (rec, def, clock, out) => {
    common(rec, def, clock, out);
    heartRates(rec, out);
  },
  activity: common,
  bodyFat: (rec, def, clock, out) => {
    common(rec, def, clock, out);
    bodyFat(rec, out);
  },
};
