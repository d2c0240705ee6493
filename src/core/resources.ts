// The one table that drives the three resources: the client, the sandbox, the CLI, the tree and
// the tests all read it. A fourth resource is one new row here and one schema file.

export type ResourceKind = 'heartRate' | 'activity' | 'bodyFat';

export interface ResourceDefinition {
  readonly kind: ResourceKind;
  /** Name on the command line: `health-data get activity …`. */
  readonly cliName: string;
  /** Plural label, as in the tree root. */
  readonly label: string;
  /** Singular label, as in a record's title. */
  readonly singular: string;
  /** Short label for panel titles: `Activity 2026-11-20 · fitbit`. */
  readonly shortLabel: string;
  /** List endpoint under {base_url}. */
  readonly listPath: string;
  /** Single-record endpoint prefix: `${itemPath}/${encodeURIComponent(id)}`. */
  readonly itemPath: string;
  /** Whether `${itemPath}/YYYY-MM-DD` returns the record of that date. */
  readonly byDate: boolean;
  /** Endpoint that returns the latest record, where the service has one. */
  readonly latestPath?: string;
  /** `$id` of the JSON Schema in src/core/schemas. */
  readonly schemaId: string;
  /** The field that dates a record: a calendar date, or a timestamp shifted by `tzOffset`. */
  readonly datingField: 'date' | 'timestamp';
  /** Fields the service sends as 0 when the source does not provide them. */
  readonly zeroDefaultFields: readonly string[];
  /**
   * The number a record is known by in a label, with its unit; `names` says which number it is
   * where a record has several of the same unit ("resting 66 bpm", not "66 bpm" beside value 75).
   * `instead`: numbers to show, the first not 0, when the field is a 0 of a source known (from its
   * other records) not to provide it ("747 kcal", not "0 steps" for a source without a step counter).
   */
  readonly headline: {
    readonly field: string;
    readonly unit: string;
    readonly fallback?: readonly string[];
    readonly names?: Readonly<Record<string, string>>;
    readonly instead?: ReadonlyArray<{ readonly field: string; readonly unit: string }>;
  };
  /** Fields whose presence identifies the kind of an untyped payload. */
  readonly signatureFields: readonly string[];
  /** Fields a tooltip shows, after id, source and humanId. */
  readonly keyFields: readonly string[];
  /** Codicon id for the tree. */
  readonly icon: string;
  /** The array of heart rate zones the record view shows as a table, for kinds that have one. */
  readonly zonesField?: string;
  /** The charts "Show Trends" draws: one series per source and field, a min–max band per source. */
  readonly trendCharts: readonly TrendChartDefinition[];
}

export interface TrendChartDefinition {
  /** Unique among all charts: the DOM id and the tests' handle. */
  readonly id: string;
  readonly title: string;
  readonly unit: string;
  readonly fields: readonly string[];
  /** Two fields drawn as a shaded band, lower then upper. */
  readonly band?: readonly [string, string];
}

export const ACTIVITY_NUMBER_FIELDS = [
  'duration',
  'distance',
  'steps',
  'vigorous',
  'moderate',
  'light',
  'sedentary',
  'calories',
] as const;

export const RESOURCES: readonly ResourceDefinition[] = [
  {
    kind: 'heartRate',
    cliName: 'heart-rate',
    label: 'Heart rate summaries',
    singular: 'Heart rate summary',
    shortLabel: 'Heart rate',
    listPath: '/v1/human/heart_rate/summaries',
    itemPath: '/v1/human/heart_rate/summaries',
    byDate: true,
    schemaId: 'https://health-data-explorer.dev/schemas/heart-rate-summary.schema.json',
    datingField: 'date',
    zeroDefaultFields: [],
    headline: { field: 'restingHR', unit: 'bpm', fallback: ['value', 'averageHR'], names: { restingHR: 'resting', value: 'value', averageHR: 'average' } },
    signatureFields: ['zones', 'restingHR', 'averageHR', 'maxHR', 'minHR'],
    keyFields: ['value', 'restingHR', 'averageHR', 'minHR', 'maxHR'],
    icon: 'pulse',
    zonesField: 'zones',
    trendCharts: [{ id: 'heartRate', title: 'Heart rate per day', unit: 'bpm', fields: ['restingHR', 'averageHR'], band: ['minHR', 'maxHR'] }],
  },
  {
    kind: 'activity',
    cliName: 'activity',
    label: 'Activity summaries',
    singular: 'Activity summary',
    shortLabel: 'Activity',
    listPath: '/v1/human/activities/summaries',
    itemPath: '/v1/human/activities/summaries',
    byDate: true,
    schemaId: 'https://health-data-explorer.dev/schemas/activity-summary.schema.json',
    datingField: 'date',
    zeroDefaultFields: ACTIVITY_NUMBER_FIELDS,
    headline: { field: 'steps', unit: 'steps', instead: [{ field: 'calories', unit: 'kcal' }, { field: 'distance', unit: 'm' }] },
    signatureFields: ['steps', 'distance', 'vigorous', 'moderate', 'light', 'sedentary', 'calories'],
    keyFields: [...ACTIVITY_NUMBER_FIELDS],
    icon: 'flame',
    trendCharts: [
      { id: 'steps', title: 'Steps per day', unit: 'steps', fields: ['steps'] },
      { id: 'calories', title: 'Calories per day', unit: 'kcal', fields: ['calories'] },
      { id: 'distance', title: 'Distance per day', unit: 'm', fields: ['distance'] },
    ],
  },
  {
    kind: 'bodyFat',
    cliName: 'body-fat',
    label: 'Body fat readings',
    singular: 'Body fat reading',
    shortLabel: 'Body fat',
    listPath: '/v1/human/body_fat/readings',
    itemPath: '/v1/human/body_fat/readings',
    byDate: false,
    latestPath: '/v1/human/body_fat',
    schemaId: 'https://health-data-explorer.dev/schemas/body-fat-reading.schema.json',
    datingField: 'timestamp',
    zeroDefaultFields: [],
    headline: { field: 'value', unit: '%' },
    signatureFields: ['timestamp', 'tzOffset', 'unit'],
    keyFields: ['timestamp', 'tzOffset', 'value', 'unit'],
    icon: 'person',
    trendCharts: [{ id: 'bodyFat', title: 'Body fat per reading (local time)', unit: '%', fields: ['value'] }],
  },
];

const byKind = new Map<ResourceKind, ResourceDefinition>(RESOURCES.map((r) => [r.kind, r]));
const byCliName = new Map<string, ResourceDefinition>(RESOURCES.map((r) => [r.cliName, r]));

export function resource(kind: ResourceKind): ResourceDefinition {
  const def = byKind.get(kind);
  if (!def) throw new Error(`Unknown resource kind: ${String(kind)}`);
  return def;
}

/** The fields the charts of a resource read, each once: each chart's fields then its band's, in table order. */
export function trendFields(def: ResourceDefinition): string[] {
  const fields: string[] = [];
  for (const chart of def.trendCharts) for (const f of [...chart.fields, ...(chart.band ?? [])]) if (!fields.includes(f)) fields.push(f);
  return fields;
}

/** Looks a resource up by its CLI name or its kind (`activity`, `heart-rate`, `heartRate`). */
export function findResource(name: string): ResourceDefinition | undefined {
  return byCliName.get(name) ?? byKind.get(name as ResourceKind);
}

export function isResourceKind(value: unknown): value is ResourceKind {
  return typeof value === 'string' && byKind.has(value as ResourceKind);
}

/**
 * The members a list reply may be wrapped in (`{"data": [...]}`), in the order they are looked
 * for; a bare JSON array is what the service specifies (conventions: "Lists").
 */
export const LIST_WRAPPERS = ['data', 'items', 'results'] as const;
export type ListWrapperField = (typeof LIST_WRAPPERS)[number];

/** The service's rule: a final path segment that looks like YYYY-MM-DD is a date, else an id. */
export const DATE_SEGMENT = /^\d{4}-\d{2}-\d{2}$/;
