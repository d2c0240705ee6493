// Saved requests as a file: what Export writes (no credential, no reply body unless asked), what
// Import reads back (checked and redacted, whatever the file holds), and how the imported join
// the saved ones (names kept apart, the same request not twice, Saved's limit kept).
import * as assert from 'node:assert/strict';
import { Exchange } from '../../../../src/core/service';
import {
  HistoryEntry,
  MAX_SAVED_NAME,
  SAVED_FILE_KIND,
  draftFromExchange,
  mergeSavedRequests,
  readSavedRequestsFile,
  savedRequestsFileText,
  toHistoryEntry,
} from '../../../../src/core/workbench';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, SECRET, TODAY, sandboxForSuite } from '../../support/client';

describe('saved requests as a file', () => {
  const watch = new LeakWatch();
  let sandbox: Sandbox;
  sandboxForSuite(watch, (started) => (sandbox = started));
  const EXPORTED_AT = '2026-11-28T03:00:00.000Z';

  /** A list page and a record by date, as the session keeps them, saved by name. */
  const savedExchanges = async (): Promise<{ saved: HistoryEntry[]; token: string }> => {
    const exchanges: Exchange[] = [];
    const client = watch.client(sandbox, { onExchange: (e) => exchanges.push(e) });
    await client.list('activity', { startDate: '2026-03-01', endDate: TODAY, limit: 3, all: false });
    await client.getRecord('heartRate', TODAY);
    const token = client.currentToken!.token;
    const keep = (e: Exchange, name: string) => ({ ...toHistoryEntry(e, { secrets: [SECRET, token], bodyLimit: 1 << 20, environment: 'Local sandbox' }), savedAs: name });
    const list = exchanges.find((e) => e.endpoint === 'list')!;
    const byDate = exchanges.find((e) => e.endpoint === 'getByDate')!;
    const mint = exchanges.find((e) => e.endpoint === 'token')!;
    return { saved: [keep(list, 'March steps'), keep(byDate, 'Heart rate today'), keep(mint, 'Token mint')], token };
  };

  it('writes the saved requests without a secret, a token or a reply body; read back, each is the request it was', async () => {
    const { saved, token } = await savedExchanges();
    const unsaved: HistoryEntry = { ...saved[0], id: 'plain', savedAs: undefined };
    const text = savedRequestsFileText([...saved, unsaved], { replies: false, secrets: [SECRET, token], exportedAt: EXPORTED_AT });
    assert.ok(!text.includes(SECRET) && !text.includes(token), 'no secret or token in the file');
    const file = JSON.parse(text) as { kind: string; version: number; exportedAt: string; requests: Array<Record<string, unknown>> };
    assert.equal(file.kind, SAVED_FILE_KIND);
    assert.equal(file.version, 1);
    assert.equal(file.exportedAt, EXPORTED_AT);
    assert.deepEqual(file.requests.map((r) => r.savedAs), ['March steps', 'Heart rate today', 'Token mint'], 'only the saved ones');
    for (const r of file.requests) {
      assert.equal(r.responseBody, undefined, 'no reply body');
      assert.equal(r.bodyCutBytes, undefined);
    }
    assert.equal((file.requests[0].requestHeaders as Record<string, string>).Authorization, 'Bearer [redacted]');

    const back = readSavedRequestsFile(text);
    assert.equal(back.skipped, 0);
    assert.deepEqual(back.requests.map((e) => e.savedAs), ['March steps', 'Heart rate today', 'Token mint']);
    // Each reads back as the same request: Send Again and Edit and Resend build it from this.
    for (const [i, e] of back.requests.entries()) {
      assert.deepEqual(draftFromExchange(e), draftFromExchange(saved[i]));
      assert.equal(e.status, saved[i].status);
      assert.equal(e.responseBody, undefined);
    }
    assert.equal(draftFromExchange(back.requests[0])?.params?.limit, '3');
  });

  it('keeps the reply bodies only when asked, as the History view keeps them', async () => {
    const { saved, token } = await savedExchanges();
    const text = savedRequestsFileText(saved, { replies: true, secrets: [SECRET, token], exportedAt: EXPORTED_AT });
    const back = readSavedRequestsFile(text);
    assert.equal(back.requests[0].responseBody, saved[0].responseBody);
    assert.equal((JSON.parse(back.requests[0].responseBody!) as unknown[]).length, 3);
    // The mint's reply held the token: redacted when the session kept it, and so in the file.
    assert.ok(!text.includes(token));
  });

  it('says what a file is when it holds no saved requests, and skips the entries that are not any', () => {
    const refused = (text: string, pattern: RegExp) => assert.throws(() => readSavedRequestsFile(text), (err: Error) => pattern.test(err.message), text.slice(0, 40));
    refused('{"kind": ', /^The file is not JSON \(.+\), so it holds no saved requests\.$/);
    refused('[]', /not a file of saved requests: Export Saved Requests… writes one, with "kind": "health-data-explorer\.saved-requests"/);
    refused('{"log": {"entries": []}}', /not a file of saved requests/);
    refused(`{"kind": "${SAVED_FILE_KIND}", "requests": []}`, /has no format version/);
    refused(`{"kind": "${SAVED_FILE_KIND}", "version": 2, "requests": []}`, /in format 2, written by a newer version of the extension; this one reads format 1\. Update the extension/);
    refused(`{"kind": "${SAVED_FILE_KIND}", "version": 1}`, /has no list of requests/);

    const good = makeSaved('a', 'Latest body fat');
    const text = JSON.stringify({
      kind: SAVED_FILE_KIND,
      version: 1,
      requests: [good, { ...good, savedAs: undefined }, { ...good, savedAs: 'two\nlines' }, { ...good, url: 42 }, 'text', null, { ...good, savedAs: 'x'.repeat(MAX_SAVED_NAME + 1) }],
    });
    const back = readSavedRequestsFile(`\ufeff${text}`);
    assert.deepEqual(back.requests.map((e) => e.savedAs), ['Latest body fat']);
    assert.equal(back.skipped, 6);
  });

  it('redacts again what a hand-edited file holds: a token in a header, the address or the body', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const edited = {
      ...makeSaved('a', 'Edited'),
      url: `http://127.0.0.1:1/v1/human/body_fat?access_token=${jwt}`,
      requestHeaders: { Authorization: `Bearer ${jwt}`, 'X-Note': `token ${jwt}` },
      responseBody: `{"token": "${jwt}"}`,
    };
    const back = readSavedRequestsFile(JSON.stringify({ kind: SAVED_FILE_KIND, version: 1, requests: [edited] }));
    assert.ok(!JSON.stringify(back.requests).includes(jwt), JSON.stringify(back.requests));
    assert.equal(back.requests[0].requestHeaders.Authorization, 'Bearer [redacted]');
  });

  it('joins the saved ones: the same request once, a taken name numbered, new ids, Saved\'s limit kept', () => {
    const history = [makeSaved('h1', 'Latest body fat'), makeSaved('h2', 'Steps'), { ...makeSaved('h3', 'x'), savedAs: undefined }];
    const steps = { ...makeSaved('f2', 'STEPS'), url: 'http://other-host/v1/human/activities/summaries?limit=3' };
    const imported = [
      // The same request under the same name (another host, the same path and query): already saved.
      { ...makeSaved('f1', 'latest body fat'), url: 'https://api.example/v1/human/body_fat' },
      steps,
      { ...steps, id: 'f3', url: 'http://other-host/v1/human/activities/summaries?limit=4' },
      makeSaved('f4', 'New one'),
    ];
    let n = 0;
    const merged = mergeSavedRequests(history, imported, { newId: () => `new-${n++}` });
    assert.equal(merged.alreadySaved, 1);
    assert.deepEqual(merged.added.map((e) => e.savedAs), ['STEPS (2)', 'STEPS (3)', 'New one']);
    assert.deepEqual(merged.renamed, [{ from: 'STEPS', to: 'STEPS (2)' }, { from: 'STEPS', to: 'STEPS (3)' }]);
    assert.deepEqual(merged.added.map((e) => e.id), ['new-0', 'new-1', 'new-2']);
    assert.deepEqual(merged.history.map((e) => e.id), ['h1', 'h2', 'h3', 'new-0', 'new-1', 'new-2'], 'the history as it was, the imported after it');
    assert.equal(merged.overLimit, 0);
    // The same file again adds nothing: each request is there, under its name or its number.
    const again = mergeSavedRequests(merged.history, imported, { newId: () => `new-${n++}` });
    assert.deepEqual([again.added.length, again.alreadySaved, again.renamed.length], [0, 4, 0]);

    // A long name keeps within the limit with its number; past the limit the rest are left out.
    const long = 'n'.repeat(MAX_SAVED_NAME);
    const full = mergeSavedRequests([{ ...makeSaved('h', long), url: 'http://x/other' }], [makeSaved('a', long), makeSaved('b', 'B'), makeSaved('c', 'C')], { newId: () => `id${n++}`, max: 2 });
    assert.equal(full.added[0].savedAs, `${'n'.repeat(MAX_SAVED_NAME - 4)} (2)`);
    assert.equal(full.added.length, 1);
    assert.equal(full.overLimit, 2);
  });
});

function makeSaved(id: string, name: string): HistoryEntry {
  return {
    id,
    startedAt: '2026-11-20T10:00:00Z',
    purpose: 'data',
    method: 'GET',
    url: 'http://127.0.0.1:1/v1/human/body_fat',
    requestHeaders: {},
    responseHeaders: {},
    durationMs: 1,
    attempts: [],
    endpoint: 'getLatest',
    resource: 'bodyFat',
    status: 200,
    savedAs: name,
  };
}
