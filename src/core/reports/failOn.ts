// Which findings fail a run (`--fail-on`), and the tally of a run that says whether it failed.
// Errors always fail, as do files that could not be validated: a CI check that lets an invalid
// record through is no check.

import { FINDING_KINDS, type FindingKind } from '../validation';
import type { ReportFinding, ReportRecord } from './model';

export type FailOn = ReadonlySet<FindingKind>;
export const DEFAULT_FAIL_ON: FailOn = new Set<FindingKind>(['error']);

/** `['warning,deprecated']`, `['zero', 'unknown']` → the kinds; throws an Error naming the kinds for anything else. */
export function parseFailOn(values: readonly string[] | undefined): FailOn {
  const kinds = new Set<FindingKind>(['error']);
  for (const value of values ?? []) {
    for (const part of value.split(',')) {
      const name = part.trim().toLowerCase();
      if (!(FINDING_KINDS as readonly string[]).includes(name)) {
        throw new Error(`--fail-on takes ${FINDING_KINDS.join(', ')} (one or more, comma-separated), not "${part.trim().slice(0, 30)}"`);
      }
      kinds.add(name as FindingKind);
    }
  }
  return kinds;
}

/** Whether a finding fails the run: an error, or a kind --fail-on names. */
export function findingFails(finding: Pick<ReportFinding, 'kind'>, failOn: FailOn): boolean {
  return finding.kind === 'error' || failOn.has(finding.kind);
}

export function recordFails(record: ReportRecord, failOn: FailOn): boolean {
  return !record.valid || record.findings.some((f) => findingFails(f, failOn));
}

/** Counts of a run, added to as it goes. */
export class ReportTally {
  files = 0;
  problems = 0;
  records = 0;
  invalid = 0;
  failing = 0;
  readonly counts: Record<FindingKind, number> = { error: 0, warning: 0, zero: 0, deprecated: 0, unknown: 0 };

  constructor(readonly failOn: FailOn = DEFAULT_FAIL_ON) {}

  file(): void {
    this.files++;
  }

  problem(): void {
    this.problems++;
  }

  /** Adds a record; true when it fails the run. */
  record(record: ReportRecord): boolean {
    this.records++;
    if (!record.valid) this.invalid++;
    for (const f of record.findings) this.counts[f.kind]++;
    const fails = recordFails(record, this.failOn);
    if (fails) this.failing++;
    return fails;
  }

  get failed(): boolean {
    return this.problems > 0 || this.failing > 0;
  }
}
