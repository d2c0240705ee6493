// The records of the service as TypeScript types, named in the service's words (section 2 of
// the spec). Payloads from the wire are `unknown` until the validator has looked at them.

export interface RecordBase {
  id: string;
  /** Deprecated by the service in favour of humanId. */
  userId?: string;
  humanId: string;
  source: string;
  sourceData?: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  [field: string]: unknown;
}

export interface Zone {
  name: string;
  min: number;
  max: number;
  /** Seconds in the zone. */
  duration: number;
  caloriesBurned: number;
  /** Sources add fields to zones too. */
  [field: string]: unknown;
}

export interface HeartRateSummary extends RecordBase {
  /** Required of a summary (the schema says so); a body fat reading may leave it out. */
  sourceData: Record<string, unknown>;
  date: string;
  value: number;
  zones: Zone[];
  restingHR?: number;
  averageHR?: number;
  maxHR?: number;
  minHR?: number;
}

export interface ActivitySummary extends RecordBase {
  sourceData: Record<string, unknown>;
  date: string;
  duration: number;
  distance: number;
  steps: number;
  vigorous: number;
  moderate: number;
  light: number;
  sedentary: number;
  calories: number;
}

export interface BodyFatReading extends RecordBase {
  timestamp: string;
  tzOffset?: string;
  unit: string;
  value: number;
}

export type HealthRecord = HeartRateSummary | ActivitySummary | BodyFatReading;

export interface ClientTokenReply {
  client_token: string;
  expires_in: number;
}
