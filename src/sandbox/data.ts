// Synthetic, deterministic records for the sandbox: three kinds of human with the sources and
// quirks seen in real replies (zeros where a source lacks a field, heart rate days without
// `value`, scale readings late in the evening local time). Every (seed, human, date) has its own
// random stream, so a day's records stay the same when `days` or `today` moves.

import { formatDate, isCalendarDate } from '../core/dates';
import { ACTIVITY_NUMBER_FIELDS } from '../core/resources';
import type { ActivitySummary, BodyFatReading, HeartRateSummary, Zone } from '../core/types';
import { Random } from './random';

export interface DatasetOptions {
  seed?: string | number;
  /** YYYY-MM-DD, the newest date with data; default today's UTC date. */
  today?: string;
  /**
   * Nothing is dated after this instant (ms): a reading due later today has not happened yet,
   * and no record is created or updated in the future. Default: now when `today` is left to
   * default, else no limit (so an explicit `today` gives the same data at any time of day).
   */
  now?: number;
  /** How many dates, ending with `today`; 1..3650, default 90. */
  days?: number;
  /** 1..10, default 3. Humans cycle through the three profiles below. */
  humans?: number;
}

/** The generated records by kind (the keys are the ResourceKinds), newest first. */
export interface Dataset {
  heartRate: HeartRateSummary[];
  activity: ActivitySummary[];
  bodyFat: BodyFatReading[];
  /** humanIds in order: humans[0] is the one a client token's by-date and latest calls concern. */
  humans: string[];
}

export const DEFAULT_SEED = 'health-data';
export const DEFAULT_DAYS = 90;
export const DEFAULT_HUMANS = 3;
export const MAX_DAYS = 3650;
export const MAX_HUMANS = 10;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The smart scale of the first profile reports in this zone (US Eastern, standard time). */
const SCALE_TZ_OFFSET = '-05:00';
const SCALE_OFFSET_MINUTES = -300;

interface Human {
  index: number;
  humanId: string;
  userId: string;
  steps: number;
  strideMeters: number;
  restingHR: number;
  bodyFat: number;
  basalCalories: number;
}

interface Day {
  date: string;
  startMs: number;
  /** Whole days since 1970-01-01, for slow waves that wander over weeks and months. */
  dayNumber: number;
  weekend: boolean;
  rng: Random;
  human: Human;
  /** The latest instant any time of this day's records may have. */
  nowMs: number;
}

type ActivityNumbers = Pick<ActivitySummary, (typeof ACTIVITY_NUMBER_FIELDS)[number]>;
interface ActivityDraft { source: string; numbers: ActivityNumbers; sourceData: Record<string, unknown>; extra?: Record<string, number> }
interface HeartRateDraft { source: string; value?: number; zones: Zone[]; restingHR: number; averageHR: number; maxHR: number; minHR: number; sourceData: Record<string, unknown> }
interface ReadingDraft { source: string; instantMs: number; timestamp: string; tzOffset?: string; unit: string; value: number }

interface Profile {
  activity(day: Day): ActivityDraft;
  /** Some days a second source reports the same day for the same human (summing double counts). */
  secondActivity?(day: Day): ActivityDraft | undefined;
  heartRate?(day: Day, activity: ActivityNumbers): HeartRateDraft;
  scale?(day: Day): ReadingDraft[];
}

/** The id (shaped like a Mongo ObjectId: creation second + random) and the service's times. */
interface Stamps { id: string; createdAt: string; updatedAt: string }

export function generateDataset(options: DatasetOptions = {}): Dataset {
  const seed = String(options.seed ?? DEFAULT_SEED);
  const days = checkedCount('days', options.days ?? DEFAULT_DAYS, MAX_DAYS);
  const humanCount = checkedCount('humans', options.humans ?? DEFAULT_HUMANS, MAX_HUMANS);
  const today = options.today ?? formatDate(Date.now());
  if (!isCalendarDate(today)) throw new Error(`today must be a real date written YYYY-MM-DD, got "${today}"`);

  const humans = Array.from({ length: humanCount }, (_, index) => makeHuman(seed, index));
  const dataset: Dataset = { heartRate: [], activity: [], bodyFat: [], humans: humans.map((h) => h.humanId) };
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  const nowMs = options.now ?? (options.today === undefined ? Date.now() : Number.POSITIVE_INFINITY);

  // Newest date first, humans in order within a date: the lists' order, so nothing sorts later.
  for (let d = 0; d < days; d++) {
    const startMs = todayMs - d * DAY_MS;
    const date = formatDate(startMs);
    const weekday = new Date(startMs).getUTCDay();
    const readings: Array<{ instantMs: number; record: BodyFatReading }> = [];
    for (const human of humans) {
      const day: Day = { date, startMs, dayNumber: Math.round(startMs / DAY_MS), weekend: weekday === 0 || weekday === 6, human, rng: new Random(`${seed}|${human.index}|${date}`), nowMs };
      const profile = PROFILES[human.index % PROFILES.length];
      const activity = profile.activity(day);
      dataset.activity.push(activityRecord(day, activity));
      if (profile.heartRate) dataset.heartRate.push(heartRateRecord(day, profile.heartRate(day, activity.numbers)));
      for (const draft of profile.scale?.(day) ?? []) {
        if (draft.instantMs <= nowMs) readings.push({ instantMs: draft.instantMs, record: bodyFatRecord(day, draft) });
      }
      if (profile.secondActivity) {
        // A random stream of its own, so the records drawn above stay what they were before.
        const side: Day = { ...day, rng: new Random(`${seed}|${human.index}|${date}|second source`) };
        const second = profile.secondActivity(side);
        if (second) dataset.activity.push(activityRecord(side, second));
      }
    }
    // Every reading of this pass belongs to `date` locally, so newest-instant-first within the
    // date keeps the whole list newest first.
    readings.sort((a, b) => b.instantMs - a.instantMs);
    for (const r of readings) dataset.bodyFat.push(r.record);
  }
  return dataset;
}

function checkedCount(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name} must be a whole number from 1 to ${max}, got ${value}`);
  return value;
}

function makeHuman(seed: string, index: number): Human {
  const rng = new Random(`${seed}|human|${index}`);
  return {
    index,
    humanId: rng.hex(32),
    userId: rng.hex(24),
    steps: rng.int(6000, 11000),
    strideMeters: rng.between(0.68, 0.8),
    restingHR: rng.int(54, 64),
    bodyFat: rng.between(16, 26),
    basalCalories: rng.int(1450, 1900),
  };
}

// The records are written out field by field rather than spread together: object spread makes
// slow dictionary-mode objects, and ten years of data must generate in a blink.

function stamps(day: Day, createdMs: number, updatedMs: number): Stamps {
  // The id comes from the planned creation time, so a record keeps its id whenever the sandbox
  // starts (a panel or a script can fetch it again after a restart).
  const seconds = Math.floor(createdMs / 1000).toString(16).padStart(8, '0');
  // Today's records exist already, but none was created or updated after now.
  createdMs = Math.min(createdMs, day.nowMs);
  updatedMs = Math.min(Math.max(updatedMs, createdMs), day.nowMs);
  return { id: seconds + day.rng.hex(16), createdAt: new Date(createdMs).toISOString(), updatedAt: new Date(updatedMs).toISOString() };
}

/** A day's summary is created that morning and updated up to fifteen hours later. */
function summaryStamps(day: Day): Stamps {
  const createdMs = day.startMs + day.rng.int(5 * HOUR_MS, 10 * HOUR_MS);
  return stamps(day, createdMs, createdMs + day.rng.int(0, 15 * HOUR_MS));
}

function activityFields(day: Day, draft: ActivityDraft): ActivitySummary {
  const { id, createdAt, updatedAt } = summaryStamps(day);
  const n = draft.numbers;
  const { humanId, userId } = day.human;
  return {
    id, humanId, userId, source: draft.source, date: day.date,
    duration: n.duration, distance: n.distance, steps: n.steps, vigorous: n.vigorous, moderate: n.moderate, light: n.light, sedentary: n.sedentary, calories: n.calories,
    sourceData: draft.sourceData, createdAt, updatedAt,
  };
}

function activityRecord(day: Day, draft: ActivityDraft): ActivitySummary {
  const record = activityFields(day, draft);
  if (draft.extra) for (const [name, value] of Object.entries(draft.extra)) record[name] = value;
  return record;
}

function heartRateRecord(day: Day, draft: HeartRateDraft): HeartRateSummary {
  const { id, createdAt, updatedAt } = summaryStamps(day);
  const { humanId, userId } = day.human;
  const record: HeartRateSummary = {
    id, humanId, userId, source: draft.source, date: day.date, value: draft.value ?? 0, zones: draft.zones,
    restingHR: draft.restingHR, averageHR: draft.averageHR, maxHR: draft.maxHR, minHR: draft.minHR,
    sourceData: draft.sourceData, createdAt, updatedAt,
  };
  // The type says `value` is required, as the spec does; the service broke that, so do we.
  if (draft.value === undefined) delete (record as Partial<HeartRateSummary>).value;
  return record;
}

function bodyFatRecord(day: Day, draft: ReadingDraft): BodyFatReading {
  const createdMs = draft.instantMs + day.rng.int(20_000, 1_200_000);
  const updatedMs = createdMs + (day.rng.chance(0.2) ? day.rng.int(1000, HOUR_MS) : 0);
  const { id, createdAt, updatedAt } = stamps(day, createdMs, updatedMs);
  const { humanId, userId } = day.human;
  const { source, timestamp, tzOffset, unit, value } = draft;
  // Two literal shapes, so a reading without an offset has no `tzOffset` key at all.
  return tzOffset === undefined
    ? { id, humanId, userId, source, timestamp, unit, value, sourceData: {}, createdAt, updatedAt }
    : { id, humanId, userId, source, timestamp, tzOffset, unit, value, sourceData: {}, createdAt, updatedAt };
}

/** A slow wave in [-1, 1] over `period` days, so values drift rather than jump. */
function wave(day: Day, period: number, phase = 0): number {
  return Math.sin(2 * Math.PI * (day.dayNumber / period + phase));
}

const clamp = (v: number, min: number, max: number): number => Math.min(max, Math.max(min, v));
const round = (v: number, places: number): number => Math.round(v * 10 ** places) / 10 ** places;

/** `2026-11-20T23:30:00-05:00`: local wall time written with its offset, as the scale sends it. */
function localTimestamp(instantMs: number, offsetMinutes: number, offsetText: string): string {
  return new Date(instantMs + offsetMinutes * 60_000).toISOString().slice(0, 19) + offsetText;
}

const ZERO_ACTIVITY: ActivityNumbers = { duration: 0, distance: 0, steps: 0, vigorous: 0, moderate: 0, light: 0, sedentary: 0, calories: 0 };

/** Human 1: a wrist tracker that sends everything, and a smart scale in another time zone. */
const wristTrackerProfile: Profile = {
  activity(day) {
    const { rng, human } = day;
    const steps = Math.round(clamp(human.steps * (day.weekend ? 1.15 : 1) * (1 + 0.35 * rng.wobble()) + 1500 * wave(day, 29), 2000, 20000));
    const vigorous = rng.chance(0.45) ? rng.int(5, 60) : rng.int(0, 4);
    // A quiet day has no moderate minutes (about 1 day in 5, as trackers report them): a 0 the
    // source measured, common enough that it never stands out among the source's days. (One draw,
    // as before: the days after it keep their values.)
    const drawn = rng.int(0, 45);
    const moderate = drawn < 10 ? 0 : drawn;
    const light = Math.round(clamp(steps / 40 + rng.int(-40, 60), 60, 420));
    const sleep = rng.int(380, 540);
    const floors = rng.int(0, 25);
    return {
      source: 'fitbit',
      numbers: {
        duration: (vigorous + moderate + light) * 60,
        distance: round(steps * human.strideMeters, 1),
        steps,
        vigorous,
        moderate,
        light,
        sedentary: 1440 - sleep - vigorous - moderate - light,
        calories: Math.round(human.basalCalories + steps * 0.03 + vigorous * 8 + moderate * 5 + light * 1.2),
      },
      sourceData: { device: 'Charge 6', floors, elevation: round(floors * 3.048, 1) },
    };
  },
  heartRate(day, activity) {
    const { rng, human } = day;
    const restingHR = Math.round(clamp(human.restingHR + 3 * wave(day, 45, 0.3) + 2 * rng.wobble(), 50, 70));
    const peak = activity.vigorous > 20 ? rng.int(60, Math.min(25, activity.vigorous - 10) * 60) : 0;
    const cardio = Math.min((activity.vigorous + activity.moderate) * 60, rng.int(0, 50 * 60));
    const fatBurn = rng.int(30 * 60, 200 * 60);
    const notWorn = rng.int(0, 90 * 60);
    const zones: Zone[] = [
      zone('Out of Range', 30, 97, 86_400 - notWorn - peak - cardio - fatBurn, 1.2, rng),
      zone('Fat Burn', 97, 135, fatBurn, 5.5, rng),
      zone('Cardio', 135, 164, cardio, 9.5, rng),
      zone('Peak', 164, 220, peak, 12, rng),
    ];
    const maxHR = peak > 0 ? rng.int(164, 192) : cardio > 0 ? rng.int(135, 163) : rng.int(105, 134);
    const averageHR = restingHR + rng.int(6, 14);
    // About one day in ten the real service sent no `value`; the sandbox does the same so the
    // validator's "required field missing" path is seen on realistic data.
    const value = rng.chance(0.1) ? undefined : averageHR;
    return { source: 'fitbit', value, zones, restingHR, averageHR, maxHR, minHR: restingHR - rng.int(3, 12), sourceData: { device: 'Charge 6', zonesVersion: 2 } };
  },
  scale(day) {
    const { rng, human } = day;
    const base = clamp(human.bodyFat + 1.5 * wave(day, 120, 0.1), 12, 30);
    const at = (fromHour: number, toHour: number, extra: number): ReadingDraft => {
      const localMidnightMs = day.startMs - SCALE_OFFSET_MINUTES * 60_000;
      const instantMs = localMidnightMs + rng.int(fromHour * 3600, toHour * 3600 - 1) * 1000;
      const value = round(clamp(base + extra + 0.4 * rng.wobble(), 12, 30), 3);
      const timestamp = localTimestamp(instantMs, SCALE_OFFSET_MINUTES, SCALE_TZ_OFFSET);
      return { source: 'withings', instantMs, timestamp, tzOffset: SCALE_TZ_OFFSET, unit: 'percent', value };
    };
    const drafts = [at(6, 9, 0)];
    if (rng.chance(0.7)) {
      if (rng.chance(0.3)) drafts.push(at(12, 14, 0.15));
      // 19:00 or later at -05:00 is past midnight UTC: the reading's UTC date is the next day.
      drafts.push(at(19, 24, 0.3));
    }
    return drafts;
  },
};

/** Human 2: a phone platform that knows duration, distance and calories only; a scale in UTC. */
function phoneActivity(day: Day): ActivityDraft {
  const { rng } = day;
  const duration = rng.int(600, 5400);
  return {
    source: 'googlefit',
    numbers: { ...ZERO_ACTIVITY, duration, distance: round(duration * rng.between(1.3, 2.3), 1), calories: Math.round((duration / 60) * rng.between(5, 10)) },
    sourceData: {},
  };
}

const phoneProfile: Profile = {
  activity: phoneActivity,
  scale(day) {
    const { rng, human } = day;
    const instantMs = day.startMs + rng.int(6 * 3600, 9 * 3600) * 1000;
    const value = round(clamp(human.bodyFat + 1.2 * wave(day, 90, 0.6) + 0.5 * rng.wobble(), 12, 30), 1);
    return [{ source: 'omron', instantMs, timestamp: new Date(instantMs).toISOString().replace('.000Z', 'Z'), unit: '%', value }];
  },
};

/** Human 3: a step counter (steps, calories, sedentary) and some days a band that sends zeros. */
const stepCounterProfile: Profile = {
  activity(day) {
    const { rng, human } = day;
    if (rng.chance(0.125)) return { source: 'misfit', numbers: { ...ZERO_ACTIVITY }, sourceData: {} };
    const steps = Math.round(clamp((human.steps - 2000) * (1 + 0.6 * rng.wobble()) + 1000 * wave(day, 23), 200, 15000));
    return {
      source: 'moves',
      numbers: { ...ZERO_ACTIVITY, steps, calories: round(steps * rng.between(0.045, 0.06), 2), sedentary: rng.int(200, 900) },
      sourceData: {},
      // A field outside the schema, as sources add them: reported as unknown, never an error.
      extra: { activeMinutes: Math.round(steps / 110) },
    };
  },
};

// Some days a phone platform reports the step counter's day too (duration, distance and
// calories, never steps): two sources for one human on one date, so summing double counts.
stepCounterProfile.secondActivity = (day) => (day.rng.chance(0.2) ? phoneActivity(day) : undefined);

const PROFILES: readonly Profile[] = [wristTrackerProfile, phoneProfile, stepCounterProfile];

function zone(name: string, min: number, max: number, duration: number, caloriesPerMinute: number, rng: Random): Zone {
  return { name, min, max, duration, caloriesBurned: round((duration / 60) * caloriesPerMinute * rng.between(0.9, 1.1), 2) };
}
