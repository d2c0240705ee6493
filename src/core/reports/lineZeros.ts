// The zeros of records read a line at a time (NDJSON of a size read whole) said from the other
// records of the text, as the Problems panel says a list's (views/zeroContext): a record checked
// from its line has only its own words ("0 — this source may not provide steps").

import type { PositionedFinding, RecordReport } from '../streaming';
import { ZeroTally, type ZeroPlace } from '../views/zeroContext';

/** A line's record as an object, or undefined when the line holds none. */
function objectOf(line: string | undefined): object | undefined {
  if (line === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The records checked from `text` with each 0 said from the text's other records of the same
 * kind and source (`0 — googlefit does not provide steps: 0 on all its 17 other records in this
 * file`), and `standsOut` on a 0 that stands out; records not on a line of their own (pointer
 * other than '') and their findings stay as they are, as does any record whose words do not change.
 */
export function explainLineZeros(records: readonly RecordReport[], text: string, where: ZeroPlace): readonly RecordReport[] {
  if (!records.some((r) => r.pointer === '' && r.findings.some((f) => f.kind === 'zero'))) return records;
  const lines = text.split('\n');
  const objects = records.map((r) => (r.pointer === '' ? objectOf(lines[r.line - 1]) : undefined));
  const tally = new ZeroTally(where);
  records.forEach((r, i) => tally.add(r.kind ?? undefined, objects[i]));
  return records.map((r, i) => {
    const record = objects[i];
    if (record === undefined || !r.findings.some((f) => f.kind === 'zero')) return r;
    let changed = false;
    const findings = r.findings.map((f): PositionedFinding => {
      const said = f.kind === 'zero' ? tally.sayZero(r.kind ?? undefined, record, { kind: f.kind, path: f.path, message: f.message }) : undefined;
      if (said === undefined || said.message === f.message) return f;
      changed = true;
      return said.standsOut ? { ...f, message: said.message, standsOut: true } : { ...f, message: said.message };
    });
    return changed ? { ...r, findings } : r;
  });
}
