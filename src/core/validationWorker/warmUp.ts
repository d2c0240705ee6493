// Runs every piece of payload validation once on a small made-up payload, so the first real
// validation finds the validators loaded and its code already compiled by V8.

import { RESOURCES } from '../resources';
import { prepareValidator, validatePayloadText } from '../validation';

/** Records of every kind with their identifying fields (values that draw findings, to place them too). */
function warmUpText(): string {
  const records: Record<string, unknown>[] = [];
  for (let i = 0; i < 40; i++) {
    for (const r of RESOURCES) {
      const record: Record<string, unknown> = { id: `warm-up-${i}`, userId: 'u', extra: i };
      for (const field of r.signatureFields) record[field] = i % 2 === 0 ? i : `${i}`;
      records.push(record);
    }
  }
  return JSON.stringify({ data: records }, null, 1);
}

/** Loads the validators and validates a small payload once (some tens of milliseconds on a quiet machine). */
export function warmUpValidation(): void {
  prepareValidator();
  const text = warmUpText();
  validatePayloadText(text);
}
