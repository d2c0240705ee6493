// Lists of records made from the fixtures with a different mistake in most of them (a missing
// field, a wrong type, an unknown field, a zero, no kind to detect, not an object), for tests
// that compare two ways of validating the same payload.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './repo';

const FIXTURES = ['heart-rate-wrist-tracker', 'activity-wrist-tracker', 'body-fat-smart-scale'].map(
  (name) => readFileSync(join(repoRoot, 'test', 'fixtures', `${name}.json`), 'utf8'),
);

export function variedRecords(count: number): unknown[] {
  const records: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const record = JSON.parse(FIXTURES[i % FIXTURES.length]) as Record<string, unknown>;
    const keys = Object.keys(record);
    record.id = `record-${i}`;
    switch (i % 7) {
      case 1:
        delete record[keys[4]];
        break;
      case 2:
        record[keys[5]] = 'text';
        break;
      case 3:
        record.surprise = i;
        break;
      case 4:
        record[keys[6]] = 0;
        break;
      case 5:
        records.push({ id: `record-${i}`, note: 'no field tells the kind' });
        continue;
      case 6:
        records.push(i);
        continue;
    }
    records.push(record);
  }
  return records;
}
