// Shared by the recording tests: a recording made against the sandbox through the real client
// (faults on), the HAR checked against the HAR 1.2 schema, and the leak scan.
import * as assert from 'node:assert/strict';
import * as harValidator from 'har-validator';
import type { HarLog } from '../../../src/core/recording';
import type { Sandbox } from '../../../src/sandbox/server';

/** Passes when `har` is valid HAR (har-validator's schema); fails with its errors otherwise. */
export async function assertValidHar(har: unknown): Promise<void> {
  try {
    await harValidator.har(har);
  } catch (err) {
    assert.fail(`not valid HAR: ${JSON.stringify((err as { errors?: unknown }).errors ?? String(err)).slice(0, 2000)}`);
  }
}

/** Every identifier of the sandbox's people and records: ids, humanIds, userIds. */
export function originalIdentifiers(sandbox: Pick<Sandbox, 'dataset'>): string[] {
  const out = new Set<string>(sandbox.dataset.humans);
  for (const kind of ['heartRate', 'activity', 'bodyFat'] as const) {
    for (const r of sandbox.dataset[kind]) {
      out.add(r.id);
      out.add(r.humanId);
      if (typeof r.userId === 'string') out.add(r.userId);
    }
  }
  return [...out];
}

/** Zero hits of any secret, token or original identifier in `text`; the message never shows one. */
export function assertNoLeak(text: string, what: string, secrets: readonly string[], identifiers: readonly string[]): void {
  assert.ok(secrets.length > 0 && identifiers.length > 0);
  const secretHits = secrets.filter((s) => text.includes(s)).length;
  assert.equal(secretHits, 0, `${what}: ${secretHits} secrets or tokens found`);
  assert.doesNotMatch(text, /eyJ[\w-]{4,}\.[\w-]{4,}\./, `${what}: a JWT`);
  const idHits = identifiers.filter((id) => text.includes(id));
  assert.equal(idHits.length, 0, `${what}: ${idHits.length} original identifiers found (e.g. one of ${idHits[0]?.length} characters)`);
}

/** The records of the recorded list replies of a path, in list order (by offset). */
export function recordedListRecords(har: HarLog, listPath: string): Array<Record<string, unknown>> {
  const pages = har.log.entries
    .filter((e) => e.request.method === 'GET' && new URL(e.request.url).pathname === listPath && e.response.status === 200)
    .map((e) => ({ offset: Number(new URL(e.request.url).searchParams.get('offset') ?? 0), records: JSON.parse(e.response.content.text ?? '[]') as Array<Record<string, unknown>> }))
    .sort((a, b) => a.offset - b.offset);
  const seen = new Set<unknown>();
  const out: Array<Record<string, unknown>> = [];
  for (const page of pages) {
    for (const r of page.records) {
      if (seen.has(r.id)) continue;
      seen.add(r.id);
      out.push(r);
    }
  }
  return out;
}
