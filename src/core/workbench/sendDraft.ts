// A request draft (the New Request form's, or one read back from a saved request) sent through a
// service client, which adds the token: the extension's New Request, Send Again and Edit and
// Resend, and the CLI's `run`, all send through here.

import type { Exchange, HealthDataClient } from '../service';
import type { RequestDraft } from './requestDraft';

const given = (v: string | undefined): string | undefined => (v?.trim() ? v.trim() : undefined);

/** Sends one draft; resolves to what the client returns (a token, a record, a page), rejects as the client does. */
export async function sendDraft(client: HealthDataClient, draft: RequestDraft, signal?: AbortSignal): Promise<unknown> {
  const p = draft.params ?? {};
  switch (draft.endpoint) {
    case 'token':
      return client.mintClientToken({ signal });
    case 'getLatest':
      return client.getLatest(draft.kind!, { signal });
    case 'getById':
      return client.getRecord(draft.kind!, (draft.id ?? '').trim(), { signal });
    case 'getByDate':
      return client.getRecord(draft.kind!, (draft.date ?? '').trim(), { signal });
    case 'list':
      return client.list(
        draft.kind!,
        {
          startDate: given(p.start_date),
          endDate: given(p.end_date),
          source: given(p.source),
          humanId: given(p.humanId),
          updatedSince: given(p.updated_since),
          createdSince: given(p.created_since),
          ...(given(p.limit) ? { limit: Number(p.limit) } : {}),
          ...(given(p.offset) ? { offset: Number(p.offset) } : {}),
          all: false,
        },
        { signal },
      );
  }
}

/** Of the exchanges a draft's send made, the one of the endpoint asked for (a token mint may have gone out first). */
export function exchangeOfDraft<E extends Exchange>(made: readonly E[], draft: RequestDraft): E | undefined {
  return [...made].reverse().find((e) => e.endpoint === draft.endpoint && (draft.endpoint === 'token' || e.resource === draft.kind));
}
