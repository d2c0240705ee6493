// har-validator (the HAR 1.2 schema of har-schema, checked with its own ajv) ships no types.
declare module 'har-validator' {
  /** Resolves when `data` is a valid HAR document; rejects with the schema errors otherwise. */
  export function har(data: unknown): Promise<unknown>;
}
