/* Health Data Explorer: TypeScript declarations of the health-data service's records.
 * Generated from the JSON Schemas (health-data schemas) by json-schema-to-typescript; do not edit:
 * run `npm run types`. Fields the schemas do not define are allowed (sources add fields). */

/**
 * A record of the health-data service: a heart rate summary, an activity summary or a body fat reading.
 */
export type HealthDataRecord = HeartRateSummary | ActivitySummary | BodyFatReading;

/**
 * One day's heart rate summary of a user, from a wrist-worn fitness tracker (GET /v1/human/heart_rate/summaries). Fields not listed here are allowed: sources add fields.
 */
export interface HeartRateSummary {
  /**
   * Id of the record on the service.
   */
  id: string;
  /**
   * Deprecated: use humanId. The user's identifier under its old name; the service announced its removal.
   *
   * @deprecated Use `humanId` instead.
   */
  userId?: string;
  /**
   * Unique identifier of the user.
   */
  humanId: string;
  /**
   * Id of the data source that reported the record, such as fitbit.
   */
  source: string;
  /**
   * Additional data from the source that does not fit the model; free-form.
   */
  sourceData: {
    [k: string]: unknown;
  };
  /**
   * Time the record was created on the service, an RFC 3339 date-time with offset.
   */
  createdAt: string;
  /**
   * Time the record was last updated on the service, an RFC 3339 date-time with offset.
   */
  updatedAt: string;
  /**
   * Day the summary belongs to, YYYY-MM-DD.
   */
  date: string;
  /**
   * The measurement of the day, in bpm.
   */
  value: number;
  /**
   * Heart rate zones of the day, as the source defines them.
   */
  zones: HeartRateZone[];
  /**
   * Resting heart rate for the day, in bpm.
   */
  restingHR?: number;
  /**
   * Average heart rate for the day, in bpm.
   */
  averageHR?: number;
  /**
   * Highest reading recorded for the day, in bpm.
   */
  maxHR?: number;
  /**
   * Lowest reading recorded for the day, in bpm.
   */
  minHR?: number;
  [k: string]: unknown;
}
/**
 * A heart rate zone of a day's heart rate summary. Zones are defined by the source; names and ranges vary.
 */
export interface HeartRateZone {
  /**
   * Name of the zone, such as Fat Burn.
   */
  name: string;
  /**
   * Lowest heart rate of the zone, in bpm.
   */
  min: number;
  /**
   * Highest heart rate of the zone, in bpm.
   */
  max: number;
  /**
   * Time the heart rate stayed in the zone, in seconds.
   */
  duration: number;
  /**
   * Calories burned within the zone.
   */
  caloriesBurned: number;
  [k: string]: unknown;
}
/**
 * One day's activity summary of a user (GET /v1/human/activities/summaries). The service sends 0 for each of the eight numbers the source does not provide. Fields not listed here are allowed: sources add fields.
 */
export interface ActivitySummary {
  /**
   * Id of the record on the service.
   */
  id: string;
  /**
   * Deprecated: use humanId. The user's identifier under its old name; the service announced its removal.
   *
   * @deprecated Use `humanId` instead.
   */
  userId?: string;
  /**
   * Unique identifier of the user.
   */
  humanId: string;
  /**
   * Id of the data source that reported the record, such as fitbit.
   */
  source: string;
  /**
   * Additional data from the source that does not fit the model; free-form.
   */
  sourceData: {
    [k: string]: unknown;
  };
  /**
   * Time the record was created on the service, an RFC 3339 date-time with offset.
   */
  createdAt: string;
  /**
   * Time the record was last updated on the service, an RFC 3339 date-time with offset.
   */
  updatedAt: string;
  /**
   * Date of the activity, YYYY-MM-DD.
   */
  date: string;
  /**
   * Duration of the activity, in seconds. 0 when the source does not provide it.
   *
   * @default 0 — the service sends 0 when the source does not provide duration.
   */
  duration: number;
  /**
   * Distance covered, in meters. 0 when the source does not provide it.
   *
   * @default 0 — the service sends 0 when the source does not provide distance.
   */
  distance: number;
  /**
   * Steps taken during the activity. 0 when the source does not provide them.
   *
   * @default 0 — the service sends 0 when the source does not provide steps.
   */
  steps: number;
  /**
   * Vigorous activity, in minutes. 0 when the source does not provide it.
   *
   * @default 0 — the service sends 0 when the source does not provide vigorous.
   */
  vigorous: number;
  /**
   * Moderate activity, in minutes. 0 when the source does not provide it.
   *
   * @default 0 — the service sends 0 when the source does not provide moderate.
   */
  moderate: number;
  /**
   * Light activity, in minutes. 0 when the source does not provide it.
   *
   * @default 0 — the service sends 0 when the source does not provide light.
   */
  light: number;
  /**
   * Sedentary time, in minutes. 0 when the source does not provide it.
   *
   * @default 0 — the service sends 0 when the source does not provide sedentary.
   */
  sedentary: number;
  /**
   * Estimated calories burned during the activity. 0 when the source does not provide them.
   *
   * @default 0 — the service sends 0 when the source does not provide calories.
   */
  calories: number;
  [k: string]: unknown;
}
/**
 * A body fat measurement at one point in time, from a smart scale (GET /v1/human/body_fat/readings). Fields not listed here are allowed: sources add fields.
 */
export interface BodyFatReading {
  /**
   * Id of the record on the service.
   */
  id: string;
  /**
   * Deprecated: use humanId. The user's identifier under its old name; the service announced its removal.
   *
   * @deprecated Use `humanId` instead.
   */
  userId?: string;
  /**
   * Unique identifier of the user.
   */
  humanId: string;
  /**
   * Id of the data source that reported the record, such as withings.
   */
  source: string;
  /**
   * Additional data from the source that does not fit the model; free-form. Optional here: the spec's table omits it, real replies carry {}.
   */
  sourceData?: {
    [k: string]: unknown;
  };
  /**
   * Time the measurement was created on the service, an RFC 3339 date-time with offset.
   */
  createdAt: string;
  /**
   * Time the measurement was last updated on the service, an RFC 3339 date-time with offset.
   */
  updatedAt: string;
  /**
   * Original date and time of the measurement, an RFC 3339 date-time with offset.
   */
  timestamp: string;
  /**
   * An offset from UTC written +hh:mm or -hh:mm, from -12:00 to +14:00. The reading belongs to the local date of timestamp shifted by it (UTC when absent).
   */
  tzOffset?: string;
  /**
   * Unit of value, such as percent or %.
   */
  unit: string;
  /**
   * The body fat measurement, in the unit given by unit.
   */
  value: number;
  [k: string]: unknown;
}
