// csv-stringify and csv-parse publish their synchronous entries only through package "exports",
// which this project's moduleResolution ("node") does not read (Node and esbuild do). These are
// the parts of their published types that the project uses.

declare module 'csv-stringify/sync' {
  export interface StringifyOptions {
    header?: boolean;
    columns?: readonly string[];
    record_delimiter?: 'unix' | 'windows' | string;
    quoted_empty?: boolean;
    quoted_match?: RegExp;
    quoted?: boolean;
    escape_formulas?: boolean;
  }
  export function stringify(input: ReadonlyArray<ReadonlyArray<string | number | undefined>>, options?: StringifyOptions): string;
}

declare module 'csv-parse/sync' {
  export interface CastContext {
    column: number | string;
    quoting: boolean;
    header: boolean;
    index: number;
    lines: number;
  }
  export interface ParseOptions {
    cast?: (value: string, context: CastContext) => unknown;
    relax_column_count?: boolean;
    bom?: boolean;
  }
  export function parse(input: string, options?: ParseOptions): unknown[][];
}
