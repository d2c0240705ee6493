// Which findings fail a run (`--fail-on`), and the tally of a run that says whether it failed.
// Errors always fail, as do files that could not be validated: a CI check that lets an invalid
// record through is no check.

import { FINDING_KINDS, type FindingKind, isUndetectedKind } from '../validation';
import type { RuleKind } from '../validation/failRules';
import type { ReportFinding, ReportRecord } from './model';

export { FAIL_RULES, type FailRule, type RuleKind, failRulesOf } from '../validation/failRules';

/** What `--fail-on` and `--omit` take: every kind of finding and `unusual` (RuleKind). */
export const RULE_KINDS: readonly RuleKind[] = [...FINDING_KINDS, 'unusual'];

export type FailOn = ReadonlySet<RuleKind>;
export const DEFAULT_FAIL_ON: FailOn = new Set<RuleKind>(['error']);

/** The rule kinds named by a repeatable, comma-separated flag; throws an Error naming `allowed` for anything else. */
function kindsOf(flag: string, values: readonly string[] | undefined, allowed: readonly RuleKind[], check?: (kind: RuleKind) => void): Set<RuleKind> {
  const kinds = new Set<RuleKind>();
  for (const value of values ?? []) {
    for (const part of value.split(',')) {
      const name = part.trim().toLowerCase() as RuleKind;
      check?.(name);
      if (!allowed.includes(name)) throw new Error(`${flag} takes ${allowed.join(', ')} (one or more, comma-separated), not "${part.trim().slice(0, 30)}"`);
      kinds.add(name);
    }
  }
  return kinds;
}

/** `['warning,deprecated']`, `['zero', 'unknown']`, `['unusual']` → the kinds; throws an Error naming the kinds for anything else. */
export function parseFailOn(values: readonly string[] | undefined): FailOn {
  return new Set<RuleKind>(['error', ...kindsOf('--fail-on', values, RULE_KINDS)]);
}

/** Kinds of finding left out of a report (`--omit`): never errors, never a kind that fails the run. */
export type OmitKinds = ReadonlySet<RuleKind>;

/**
 * `['zero,unknown']` → the kinds; throws an Error in words for an unknown kind, for `error` (an
 * invalid record is always reported) and for a kind --fail-on names (a run would fail on what the
 * report does not show).
 */
export function parseOmit(values: readonly string[] | undefined, failOn: FailOn = DEFAULT_FAIL_ON): OmitKinds {
  return kindsOf(
    '--omit',
    values,
    RULE_KINDS.filter((k) => k !== 'error'),
    (name) => {
      if (name === 'error') throw new Error('--omit cannot leave errors out: an invalid record is always reported');
      if (failOn.has(name)) throw new Error(`--omit ${name} and --fail-on ${name} cannot go together: the run would fail on findings the report leaves out`);
      if (name === 'unusual' && failOn.has('zero')) {
        throw new Error('--omit unusual and --fail-on zero cannot go together: a 0 that stands out is a zero, so the run would fail on findings the report leaves out');
      }
    },
  );
}

/** `1 unusual zero`, `2 unusual zeros`: zeros that stand out, as the closing lines count them. */
export function unusualZeros(n: number): string {
  return `${n} unusual zero${n === 1 ? '' : 's'}`;
}

/** What a rule reads of a finding: its kind, and whether it is a 0 that stands out. */
type RuledFinding = { readonly kind: FindingKind; readonly standsOut?: boolean };

/** Whether `--omit` leaves a finding out: a 0 that stands out only with `unusual`, any other by its kind. */
export function isOmitted(finding: RuledFinding, omit: OmitKinds): boolean {
  return finding.standsOut === true ? omit.has('unusual') : omit.has(finding.kind);
}

/** A record's findings without the omitted kinds (the same list when none is omitted). */
export function withoutOmitted<F extends RuledFinding>(findings: readonly F[], omit: OmitKinds): readonly F[] {
  if (omit.size === 0) return findings;
  let keep = 0;
  for (const f of findings) if (!isOmitted(f, omit)) keep++;
  return keep === findings.length ? findings : findings.filter((f) => !isOmitted(f, omit));
}

/** Whether a finding fails the run: an error, a kind --fail-on names, or a 0 that stands out with `--fail-on unusual`. */
export function findingFails(finding: RuledFinding, failOn: FailOn): boolean {
  return finding.kind === 'error' || failOn.has(finding.kind) || (finding.standsOut === true && failOn.has('unusual'));
}

/** What a tally reads of a record: a report's record, or a streamed one (core/streaming, whose kind is null when unknown). */
export type TalliedRecord = Pick<ReportRecord, 'valid'> & { readonly kind?: string | null; readonly findings: ReadonlyArray<Pick<ReportFinding, 'kind' | 'message' | 'standsOut'>> };

export function recordFails(record: TalliedRecord, failOn: FailOn): boolean {
  return !record.valid || record.findings.some((f) => findingFails(f, failOn));
}

/** A tally's counts of records, as a batch counted on a worker thread carries them (plain data). */
export type TallyCounts = Pick<ReportTally, 'records' | 'invalid' | 'failing' | 'undetected' | 'counts' | 'standingOut'>;

/** Counts of a run, added to as it goes. */
export class ReportTally {
  files = 0;
  /** Files with a problem: not validated at all, or (`partial` of them) only in part. */
  problems = 0;
  /** Files whose problem came after some of their records were counted (FileProblem.partial). */
  partial = 0;
  /** `records` when the current file began. */
  private recordsBeforeFile = 0;
  records = 0;
  invalid = 0;
  failing = 0;
  /** Records whose kind could not be detected (isUndetectedKind): checked against no schema. */
  undetected = 0;
  readonly counts: Record<FindingKind, number> = { error: 0, warning: 0, zero: 0, deprecated: 0, unknown: 0 };
  /** Of `counts.zero`, the zeros that stand out (ReportFinding.standsOut): reported at a warning's level. */
  standingOut = 0;

  constructor(
    readonly failOn: FailOn = DEFAULT_FAIL_ON,
    /** Kinds of finding the report leaves out (`--omit`): not counted, and said so at the end. */
    readonly omitted: OmitKinds = new Set(),
  ) {}

  file(): void {
    this.files++;
    this.recordsBeforeFile = this.records;
  }

  /** Adds the current file's problem; true when records of the file were counted before it (validated in part). */
  problem(): boolean {
    this.problems++;
    const partial = this.records > this.recordsBeforeFile;
    if (partial) this.partial++;
    return partial;
  }

  /** Adds a record; true when it fails the run (recordFails, in one pass over its findings). */
  record(record: TalliedRecord): boolean {
    this.records++;
    let fails = !record.valid;
    const findings = record.findings;
    if (fails) {
      this.invalid++;
      // The detection's error is the record's only finding.
      if (record.kind == null && findings.length === 1 && isUndetectedKind(findings[0])) this.undetected++;
    }
    for (let i = 0; i < findings.length; i++) {
      const f = findings[i];
      this.counts[f.kind]++;
      if (f.standsOut === true) this.standingOut++;
      if (findingFails(f, this.failOn)) fails = true;
    }
    if (fails) this.failing++;
    return fails;
  }

  /**
   * The zeros of a streamed file judged once it was read (the grouped text): `all` its zero
   * findings (counted as records came, none left out), `standing` those that stand out among
   * their source's records, `passing` the records with one that failed nothing else. Counted as
   * `record` counts the findings of a file read whole: under --omit unusual the standing ones are
   * left out, under --omit zero the others; the standing ones fail the run under --fail-on unusual.
   */
  zerosJudgedLate(all: number, standing: number, passing: number): void {
    if (this.omitted.has('unusual')) {
      this.counts.zero -= standing;
      return;
    }
    if (this.omitted.has('zero')) this.counts.zero -= all - standing;
    this.standingOut += standing;
    if (this.failOn.has('unusual')) this.failing += passing;
  }

  /** Adds the records of another tally (a batch counted on a worker thread: plain data). */
  addRecords(other: TallyCounts): void {
    this.records += other.records;
    this.invalid += other.invalid;
    this.undetected += other.undetected;
    this.failing += other.failing;
    this.standingOut += other.standingOut;
    for (const kind of FINDING_KINDS) this.counts[kind] += other.counts[kind];
  }

  get failed(): boolean {
    return this.problems > 0 || this.failing > 0;
  }
}
