// Reading an export's CSV back into records with csv-parse, the way a user's own tooling would,
// so the tests check the text csv-stringify wrote and not our own idea of it.
import { parse } from 'csv-parse/sync';
import { recordFromCsv } from '../../../src/core/export';
import type { ResourceKind } from '../../../src/core/resources';

export function readCsv(kind: ResourceKind, text: string): { columns: string[]; records: Array<Record<string, unknown>> } {
  const rows = parse(text, { bom: true, cast: (value, context) => ({ text: value, quoted: context.quoting }) }) as Array<Array<{ text: string; quoted: boolean }>>;
  const [header, ...body] = rows;
  const columns = (header ?? []).map((c) => c.text);
  return { columns, records: body.map((cells) => recordFromCsv(kind, columns, cells)) };
}
