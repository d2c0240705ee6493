// The hand-written record types of src/core and the declarations generated from the JSON Schemas
// (types/health-data.d.ts, `npm run types`) describe the same records: each is assignable to the
// other, so a schema change that the core's types miss fails `tsc` (this file is compiled by it).
import * as assert from 'node:assert/strict';
import type * as Generated from '../../../types/health-data';
import type * as Core from '../../../src/core/types';

type Assignable<A, B> = [A] extends [B] ? true : false;
type Both<A, B> = Assignable<A, B> extends true ? Assignable<B, A> : false;

const agree: {
  heartRate: Both<Core.HeartRateSummary, Generated.HeartRateSummary>;
  activity: Both<Core.ActivitySummary, Generated.ActivitySummary>;
  bodyFat: Both<Core.BodyFatReading, Generated.BodyFatReading>;
  zone: Both<Core.Zone, Generated.HeartRateSummary['zones'][number]>;
} = { heartRate: true, activity: true, bodyFat: true, zone: true };

describe('core record types', () => {
  it('agree with the declarations generated from the schemas (checked by tsc)', () => {
    assert.deepEqual(Object.values(agree), [true, true, true, true]);
  });
});
