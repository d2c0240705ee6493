// Exchanges: every request the client makes, kept whole (status, headers, body, each attempt and
// why it was retried) with every credential redacted, against the sandbox with its faults.
import * as assert from 'node:assert/strict';
import { Exchange, endpointOf, redactBody, redactHeader } from '../../../../src/core/service';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, SECRET, TODAY, sandboxForSuite } from '../../support/client';

const LIST = '/v1/human/activities/summaries';
const ITEM = `${LIST}/${TODAY}`;

describe('client: exchanges', () => {
  const watch = new LeakWatch();
  let sandbox: Sandbox;
  sandboxForSuite(watch, (started) => (sandbox = started));

  /** A client that keeps its exchanges, each also kept by the leak watch as text. */
  const recording = (options: Parameters<LeakWatch['client']>[1] = {}) => {
    const exchanges: Exchange[] = [];
    const client = watch.client(sandbox, {
      ...options,
      onExchange: (e) => {
        exchanges.push(e);
        watch.texts.push(JSON.stringify(e));
      },
    });
    return { client, exchanges };
  };

  it('a token mint and a record: method, redacted URL and headers, status, response headers, body, timing', async () => {
    const { client, exchanges } = recording();
    const record = await client.getRecord('activity', TODAY);
    assert.deepEqual(
      exchanges.map((e) => [e.purpose, e.method, e.endpoint, e.resource, e.status]),
      [
        ['token', 'POST', 'token', undefined, 200],
        ['data', 'GET', 'getByDate', 'activity', 200],
      ],
    );
    const [mint, data] = exchanges;
    // The secret went out and the token came back, but neither is kept.
    assert.match(mint.requestBody ?? '', /"client_secret":\s*"\[redacted\]"/);
    assert.match(mint.responseBody ?? '', /"client_token":\s*"\[redacted\]"/);
    assert.ok(!JSON.stringify(mint).includes(SECRET));
    assert.ok(!JSON.stringify(mint).includes(client.currentToken!.token));
    assert.equal(data.url, `${sandbox.baseUrl}${ITEM}`);
    assert.equal(data.requestHeaders.Authorization, 'Bearer [redacted]');
    assert.deepEqual(JSON.parse(data.responseBody ?? ''), record);
    assert.equal(data.responseBytes, Buffer.byteLength(data.responseBody ?? ''));
    assert.match(data.contentType ?? '', /^application\/json/);
    assert.ok(data.requestId && data.responseHeaders['x-request-id'] === data.requestId);
    assert.equal(data.attempts.length, 1);
    assert.equal(data.attempts[0].status, 200);
    assert.ok(data.durationMs >= data.attempts[0].durationMs);
    assert.ok(Date.parse(data.startedAt) <= Date.now());
    assert.notEqual(mint.id, data.id);
  });

  it('every page of a list is an exchange with its paging headers', async () => {
    const { client, exchanges } = recording();
    const result = await client.list('activity', { limit: 10, startDate: '2026-03-01', endDate: TODAY });
    const pages = exchanges.filter((e) => e.endpoint === 'list');
    assert.ok(pages.length >= 2, `${pages.length} pages`);
    assert.equal(pages.reduce((n, e) => n + (JSON.parse(e.responseBody ?? '[]') as unknown[]).length, 0) >= result.records.length, true);
    assert.ok(pages.every((e) => e.resource === 'activity' && e.status === 200));
    assert.ok(pages.some((e) => e.responseHeaders['x-total-count'] !== undefined || e.responseHeaders.link !== undefined));
  });

  it('429 with Retry-After, then success: two attempts, the first with its reason and wait', async () => {
    sandbox.addFault({ fault: '429', path: ITEM, retryAfter: 1, times: 1 });
    const { client, exchanges } = recording({ maxRetryAfterMs: 50 });
    await client.getRecord('activity', TODAY);
    const data = exchanges.find((e) => e.endpoint === 'getByDate')!;
    assert.deepEqual(data.attempts.map((a) => a.status), [429, 200]);
    assert.match(data.attempts[0].retryReason ?? '', /429/);
    assert.equal(typeof data.attempts[0].waitMs, 'number');
    assert.equal(data.attempts[1].retryReason, undefined);
    assert.equal(data.status, 200);
    assert.equal(data.error, undefined);
  });

  for (const status of ['429', '503'] as const) {
    it(`${status} with Retry-After: the wait before the next attempt is the one asked for (capped by maxRetryAfterMs), not the backoff`, async () => {
      sandbox.addFault({ fault: status, path: ITEM, retryAfter: 1, times: 1 });
      const { client, exchanges } = recording({ maxRetryAfterMs: 50 });
      await client.getRecord('activity', TODAY);
      const data = exchanges.find((e) => e.endpoint === 'getByDate')!;
      assert.deepEqual(data.attempts.map((a) => a.status), [Number(status), 200]);
      assert.equal(data.attempts[0].waitMs, 50);
      // Without Retry-After, the backoff of this client (5 ms base) is what it waits.
      sandbox.addFault({ fault: status, path: ITEM, times: 1 });
      const again = recording({ maxRetryAfterMs: 50 });
      await again.client.getRecord('activity', TODAY);
      const plain = again.exchanges.find((e) => e.endpoint === 'getByDate')!;
      assert.ok((plain.attempts[0].waitMs ?? 0) < 50, String(plain.attempts[0].waitMs));
    });
  }

  it('a failure that outlasts the retries: the exchange carries the error the caller got, and the last reply', async () => {
    sandbox.addFault({ fault: '503', path: ITEM });
    const { client, exchanges } = recording({ maxRetries: 1 });
    const err = await watch.rejects(client.getRecord('activity', TODAY), 'http');
    const data = exchanges.find((e) => e.endpoint === 'getByDate')!;
    assert.deepEqual(data.attempts.map((a) => a.status), [503, 503]);
    assert.deepEqual(data.error, { kind: 'http', message: err.message });
    assert.equal(data.status, 503);
    assert.match(data.responseBody ?? '', /sandbox fault 503/);
  });

  it('a truncated body: each attempt says it was cut short, and the exchange ends in the error', async () => {
    sandbox.addFault({ fault: 'truncated', path: ITEM });
    const { client, exchanges } = recording({ maxRetries: 1 });
    await watch.rejects(client.getRecord('activity', TODAY), 'network', /cut short/);
    const data = exchanges.find((e) => e.endpoint === 'getByDate')!;
    assert.equal(data.attempts.length, 2);
    assert.ok(data.attempts.every((a) => /cut short/.test(a.error ?? '')));
    assert.equal(data.error?.kind, 'network');
  });

  it('a token presented in the query: the URL keeps the parameter, never its value', async () => {
    const { client, exchanges } = recording({ presentation: { mode: 'query', parameter: 'access_token' } });
    await client.getRecord('activity', TODAY);
    const data = exchanges.find((e) => e.endpoint === 'getByDate')!;
    assert.equal(data.url, `${sandbox.baseUrl}${ITEM}?access_token=[redacted]`);
    assert.ok(!JSON.stringify(data).includes(client.currentToken!.token));
  });

  it('a listener that throws does not fail the request', async () => {
    const client = watch.client(sandbox, {
      onExchange: () => {
        throw new Error('listener failed');
      },
    });
    const record = (await client.getRecord('activity', TODAY)) as { date: string };
    assert.equal(record.date, TODAY);
  });
});

describe('exchange redaction and endpoints', () => {
  it('redacts credential fields in bodies, escaped quotes included, and every known secret', () => {
    const body = '{"client_id":"app","client_secret":"s\\"e\\"cret","note":"known-secret-1 here"}';
    const redacted = redactBody(body, ['known-secret-1']);
    assert.equal(JSON.parse(redacted).client_secret, '[redacted]');
    assert.equal(JSON.parse(redacted).client_id, 'app');
    assert.ok(!redacted.includes('known-secret-1'));
  });

  it('redacts credential headers whatever they hold, keeping the scheme word', () => {
    assert.equal(redactHeader('Authorization', 'Bearer abc.def', []), 'Bearer [redacted]');
    assert.equal(redactHeader('authorization', 'abc.def', []), '[redacted]');
    assert.equal(redactHeader('Cookie', 'a=b', []), '[redacted]');
    assert.equal(redactHeader('X-Token', 'tok-123', ['tok-123']), '[redacted]');
    assert.equal(redactHeader('Accept', 'application/json', ['tok-123']), 'application/json');
  });

  it('names the endpoint and resource from the resource table', () => {
    assert.deepEqual(endpointOf('POST', '/v1/admin/token'), { endpoint: 'token' });
    assert.deepEqual(endpointOf('GET', LIST), { endpoint: 'list', resource: 'activity' });
    assert.deepEqual(endpointOf('GET', ITEM), { endpoint: 'getByDate', resource: 'activity' });
    assert.deepEqual(endpointOf('GET', `${LIST}/abc%2F1`), { endpoint: 'getById', resource: 'activity' });
    assert.deepEqual(endpointOf('GET', '/v1/human/body_fat'), { endpoint: 'getLatest', resource: 'bodyFat' });
    assert.deepEqual(endpointOf('GET', '/v1/human/body_fat/readings/r1'), { endpoint: 'getById', resource: 'bodyFat' });
    assert.deepEqual(endpointOf('GET', '/v1/elsewhere'), { endpoint: 'other' });
  });
});
