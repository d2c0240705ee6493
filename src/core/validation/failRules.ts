// The names of the rules that fail a run besides errors, as `--fail-on` and a saved request's own
// (Set Findings That Fail…) give them. Kept apart from core/reports/failOn.ts, which tallies a run:
// the history reads a saved request's rules at activation, and loads none of the reports with them.

import type { FindingKind } from './findings';

/**
 * What `--fail-on` and `--omit` name: a kind of finding, or `unusual`, a 0 that stands out among
 * its source's other records (ReportFinding.standsOut). A zero that stands out is a `zero` to
 * `--fail-on zero`, but `--omit zero` keeps it: it is reported at a warning's level, and only
 * `--omit unusual` leaves it out.
 */
export type RuleKind = FindingKind | 'unusual';

/** What can fail a run besides errors (which always do): the kinds `--fail-on` takes, and a saved request's own. */
export type FailRule = Exclude<RuleKind, 'error'>;
export const FAIL_RULES: readonly FailRule[] = ['warning', 'zero', 'unusual', 'deprecated', 'unknown'];

/** The rules a stored value names (a saved request's, from storage or a file): known ones, each once, in FAIL_RULES order; undefined for none. */
export function failRulesOf(value: unknown): FailRule[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const rules = FAIL_RULES.filter((r) => value.includes(r));
  return rules.length > 0 ? rules : undefined;
}
