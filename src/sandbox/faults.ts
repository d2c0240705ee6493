// Fault injection: the ways real services and the proxies in front of them misbehave, so the
// client's retries, timeouts and error messages can be seen working. Rules come from options,
// the CLI (`503:times=2:path=/activities`), the admin endpoint, or one request's header.

export type FaultName = 'latency' | '429' | '500' | '502' | '503' | 'html' | 'malformed-json'
  | 'truncated' | 'slow-body' | 'reset' | 'expired-token' | 'revoked-token' | 'status-in-body'
  | 'no-expires-in' | 'non-jwt-token' | 'repeat-page' | 'link-loop' | 'oldest-first';

export interface FaultRule {
  fault: FaultName;
  /** Applies only when the request's path and query contain this substring. */
  path?: string;
  /** Applies to this many matching requests, then is used up (default: forever). */
  times?: number;
  /** Seconds, for 429 and 503 (omit to send no Retry-After header). */
  retryAfter?: number;
  /** For 'latency' (delay before the response) and 'slow-body' (time to trickle the body). */
  latencyMs?: number;
}

/** What a request is, for deciding which faults can touch it. */
export type Endpoint = 'token' | 'record' | 'list';

/**
 * Which requests each fault can apply to. 'any' faults reach the token endpoint only when a
 * rule's `path` or a request's own header asks for it: a bare `503` should break data calls,
 * not the mint that must come before them.
 */
const SCOPE: Record<FaultName, 'any' | 'token' | 'data' | 'list'> = {
  latency: 'any', '429': 'any', '500': 'any', '502': 'any', '503': 'any', html: 'any',
  'malformed-json': 'any', truncated: 'any', 'slow-body': 'any', reset: 'any',
  'expired-token': 'data', 'revoked-token': 'data', 'status-in-body': 'data',
  'no-expires-in': 'token', 'non-jwt-token': 'token',
  'repeat-page': 'list', 'link-loop': 'list', 'oldest-first': 'list',
};

// Written out rather than Object.keys(SCOPE): integer-like keys ('429') would come first.
export const FAULT_NAMES: readonly FaultName[] = [
  'latency', '429', '500', '502', '503', 'html', 'malformed-json', 'truncated', 'slow-body', 'reset',
  'expired-token', 'revoked-token', 'status-in-body', 'no-expires-in', 'non-jwt-token', 'repeat-page', 'link-loop',
  'oldest-first',
];
export const DEFAULT_LATENCY_MS = 2000;
const MAX_LATENCY_MS = 600_000;

/** The faults one request gets: a delay first, then at most one fault that shapes the reply. */
export interface ChosenFaults {
  latency?: FaultRule;
  outcome?: FaultRule;
}

function applies(rule: FaultRule, endpoint: Endpoint, target: string, explicit: boolean): boolean {
  if (rule.path !== undefined && !target.includes(rule.path)) return false;
  switch (SCOPE[rule.fault]) {
    case 'token': return endpoint === 'token';
    case 'data': return endpoint !== 'token';
    case 'list': return endpoint === 'list';
    case 'any': return endpoint !== 'token' || explicit || rule.path !== undefined;
  }
}

/** Fills the empty slots of `chosen` from `rules`; returns the rules it took. */
function choose(rules: readonly FaultRule[], endpoint: Endpoint, target: string, explicit: boolean, chosen: ChosenFaults): FaultRule[] {
  const taken: FaultRule[] = [];
  for (const rule of rules) {
    if (!applies(rule, endpoint, target, explicit)) continue;
    const slot = rule.fault === 'latency' ? 'latency' : 'outcome';
    if (chosen[slot]) continue;
    chosen[slot] = rule;
    taken.push(rule);
  }
  return taken;
}

/** The standing rules of a sandbox, each used up after its `times`. */
export class FaultBook {
  private rules: Array<{ rule: FaultRule; left: number }> = [];

  add(rule: FaultRule): FaultRule {
    const checked = checkFaultRule(rule);
    this.rules.push({ rule: checked, left: checked.times ?? Infinity });
    return checked;
  }

  /** Removes every rule; returns how many there were. */
  clear(): number {
    const n = this.rules.length;
    this.rules = [];
    return n;
  }

  /** The rules still standing, `times` being what is left of each. */
  list(): FaultRule[] {
    return this.rules.map(({ rule, left }) => (left === Infinity ? { ...rule } : { ...rule, times: left }));
  }

  /**
   * The faults for one request: those of its `X-Sandbox-Fault` header first, then standing
   * rules for whatever is left. Only the standing rules that are used count down.
   */
  take(endpoint: Endpoint, target: string, headerRules: readonly FaultRule[] = []): ChosenFaults {
    const chosen: ChosenFaults = {};
    choose(headerRules, endpoint, target, true, chosen);
    const taken = new Set(choose(this.rules.map((r) => r.rule), endpoint, target, false, chosen));
    if (taken.size === 0) return chosen;
    for (const entry of this.rules) if (taken.has(entry.rule)) entry.left--;
    this.rules = this.rules.filter((r) => r.left > 0);
    return chosen;
  }
}

/**
 * Parses a fault as written on the command line or in the X-Sandbox-Fault header: a name, then
 * `name=value` parameters after `:` or `;` — `503`, `429:retry-after=2`, `latency;ms=3000`,
 * `503:times=2:path=/activities`. Throws an Error that says what is wrong.
 */
export function parseFaultSpec(text: string): FaultRule {
  const [name, ...params] = text.trim().split(/[:;]/).map((p) => p.trim());
  const rule: Record<string, unknown> = { fault: name };
  for (const param of params) {
    if (param === '') continue;
    const eq = param.indexOf('=');
    if (eq <= 0) throw new Error(`fault parameter "${param}" must be written name=value (e.g. times=2)`);
    const key = param.slice(0, eq).trim().toLowerCase();
    const value = param.slice(eq + 1).trim();
    const field = SPEC_PARAMS[key];
    if (!field) throw new Error(`unknown fault parameter "${key}"; known: retry-after, ms, times, path`);
    rule[field] = field === 'path' ? value : specNumber(key, value);
  }
  return checkFaultRule(rule);
}

const SPEC_PARAMS: Record<string, keyof FaultRule | undefined> = {
  'retry-after': 'retryAfter', retryafter: 'retryAfter',
  ms: 'latencyMs', 'latency-ms': 'latencyMs', latencyms: 'latencyMs',
  times: 'times', path: 'path',
};

function specNumber(key: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new Error(`fault parameter ${key} must be a whole number, got "${value}"`);
  return Number(value);
}

/** Several faults in one header, separated by commas: `latency;ms=100, 503`. */
export function parseFaultHeader(text: string): FaultRule[] {
  return text.split(',').filter((part) => part.trim() !== '').map(parseFaultSpec);
}

/** Checks a rule from JSON or from a spec; returns a clean copy or throws a clear Error. */
export function checkFaultRule(value: unknown): FaultRule {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('a fault rule must be an object like {"fault": "503"}');
  const input = value as Record<string, unknown>;
  for (const key of Object.keys(input)) {
    if (!RULE_FIELDS.includes(key)) throw new Error(`unknown fault rule field "${key}"; known: ${RULE_FIELDS.join(', ')}`);
  }
  const fault = input.fault;
  if (typeof fault !== 'string' || !(FAULT_NAMES as readonly string[]).includes(fault)) {
    throw new Error(`unknown fault "${String(fault ?? '')}"; known: ${FAULT_NAMES.join(', ')}`);
  }
  const rule: FaultRule = { fault: fault as FaultName };
  if (input.path !== undefined) {
    if (typeof input.path !== 'string' || input.path === '') throw new Error('fault path must be a non-empty string');
    rule.path = input.path;
  }
  if (input.times !== undefined) rule.times = wholeNumber('times', input.times, 1, Number.MAX_SAFE_INTEGER);
  if (input.retryAfter !== undefined) {
    if (fault !== '429' && fault !== '503') throw new Error(`retry-after applies to 429 and 503, not to ${fault}`);
    rule.retryAfter = wholeNumber('retry-after', input.retryAfter, 0, 86_400);
  }
  if (input.latencyMs !== undefined) {
    if (fault !== 'latency' && fault !== 'slow-body') throw new Error(`ms applies to latency and slow-body, not to ${fault}`);
    rule.latencyMs = wholeNumber('ms', input.latencyMs, 0, MAX_LATENCY_MS);
  }
  return rule;
}

const RULE_FIELDS = ['fault', 'path', 'times', 'retryAfter', 'latencyMs'];

function wholeNumber(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`fault ${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The spec form of a rule, which parseFaultSpec reads back: `503:times=2:path=/activities`. */
export function formatFaultRule(rule: FaultRule): string {
  const parts: string[] = [rule.fault];
  if (rule.retryAfter !== undefined) parts.push(`retry-after=${rule.retryAfter}`);
  if (rule.latencyMs !== undefined) parts.push(`ms=${rule.latencyMs}`);
  if (rule.times !== undefined) parts.push(`times=${rule.times}`);
  if (rule.path !== undefined) parts.push(`path=${rule.path}`);
  return parts.join(':');
}
