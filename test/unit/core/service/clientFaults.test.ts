// The client against a misbehaving sandbox: retries and their budget, Retry-After, timeouts,
// cancellation, broken bodies, HTML pages, errors in the body; and what it tells the log.
import * as assert from 'node:assert/strict';
import http = require('node:http');
import { RequestLogEntry } from '../../../../src/core/service';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, TODAY, requestsTo, sandboxForSuite, sandboxWith, throughFront } from '../../support/client';

const LIST = '/v1/human/activities/summaries';
const ITEM = `${LIST}/${TODAY}`;

describe('client: faults', () => {
  const watch = new LeakWatch();
  let sandbox: Sandbox;
  const calls = () => requestsTo(sandbox, ITEM).filter((r) => r.path === ITEM);

  sandboxForSuite(watch, (started) => (sandbox = started));
  beforeEach(() => sandbox.requests.splice(0));

  it('429 with Retry-After: waits at least that long, then succeeds', async () => {
    sandbox.addFault({ fault: '429', path: ITEM, retryAfter: 1, times: 1 });
    const started = performance.now();
    const record = (await watch.client(sandbox).getRecord('activity', TODAY)) as { date: string };
    const waited = performance.now() - started;
    assert.equal(record.date, TODAY);
    assert.ok(waited >= 1000, `waited ${waited} ms`);
    assert.deepEqual(calls().map((r) => r.status), [429, 200]);
  });

  it('a Retry-After longer than maxRetryAfterMs is capped', async () => {
    // Uncapped, the client would wait an hour and the test would time out.
    sandbox.addFault({ fault: '429', path: ITEM, retryAfter: 3600, times: 1 });
    await watch.client(sandbox, { maxRetryAfterMs: 50 }).getRecord('activity', TODAY);
    assert.deepEqual(calls().map((r) => r.status), [429, 200]);
  });

  for (const status of ['429', '502', '503'] as const) {
    it(`${status} (no Retry-After) twice, then success`, async () => {
      sandbox.addFault({ fault: status, path: ITEM, times: 2 });
      const entries: RequestLogEntry[] = [];
      await watch.client(sandbox, { onRequest: (e) => entries.push(e) }).getRecord('activity', TODAY);
      assert.deepEqual(calls().map((r) => r.status), [Number(status), Number(status), 200]);
      const data = entries.filter((e) => e.method === 'GET');
      assert.deepEqual(data.map((e) => [e.attempt, e.status]), [[1, Number(status)], [2, Number(status)], [3, 200]]);
      assert.ok(data.every((e) => e.requestId && e.path === ITEM && typeof e.durationMs === 'number'));
      assert.match(data[0].error ?? '', new RegExp(`^GET ${ITEM}: ${status}`));
    });
  }

  it('when the retry budget runs out, the error names the status, the service message and the attempts', async () => {
    sandbox.addFault({ fault: '503', path: LIST });
    const err = await watch.rejects(watch.client(sandbox, { maxRetries: 2 }).list('activity'), 'http');
    assert.equal(err.status, 503);
    assert.equal(err.serviceMessage, 'The service failed to answer (sandbox fault 503)');
    assert.ok(err.requestId);
    assert.equal(
      err.message,
      `GET ${LIST}: 503 Service Unavailable: The service failed to answer (sandbox fault 503) (request id ${err.requestId}; 3 attempts)`,
    );
    assert.equal(requestsTo(sandbox, LIST).length, 3);
  });

  it('500 is not retried', async () => {
    sandbox.addFault({ fault: '500', path: ITEM });
    const err = await watch.rejects(watch.client(sandbox).getRecord('activity', TODAY), 'http', /500 Internal Server Error/);
    assert.equal(err.status, 500);
    assert.equal(calls().length, 1);
  });

  it('a reply slower than timeoutMs is a timeout naming the request and the limit', async () => {
    // The reply would take a minute: without the timeout the test itself would time out.
    sandbox.addFault({ fault: 'latency', path: ITEM, latencyMs: 60_000 });
    const err = await watch.rejects(watch.client(sandbox, { timeoutMs: 150 }).getRecord('activity', TODAY), 'timeout');
    assert.equal(err.message, `GET ${ITEM}: no complete reply within 150 ms (timed out)`);
  });

  it('a body that trickles in longer than timeoutMs is a timeout too', async () => {
    sandbox.addFault({ fault: 'slow-body', path: ITEM, latencyMs: 1000 });
    const err = await watch.rejects(watch.client(sandbox, { timeoutMs: 200 }).getRecord('activity', TODAY), 'timeout', /200 ms/);
    assert.equal(err.status, 200, 'the headers had arrived');
    // Within the limit, a slow body is simply read.
    sandbox.clearFaults();
    sandbox.addFault({ fault: 'slow-body', path: ITEM, latencyMs: 100 });
    assert.equal(((await watch.client(sandbox, { timeoutMs: 2000 }).getRecord('activity', TODAY)) as { date: string }).date, TODAY);
  });

  it('an AbortSignal cancels mid-request at once', async () => {
    // The reply would take a minute; only the abort can end the call in time.
    sandbox.addFault({ fault: 'latency', path: ITEM, latencyMs: 60_000 });
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 80);
    await watch.rejects(watch.client(sandbox).getRecord('activity', TODAY, { signal: ctrl.signal }), 'cancelled', /^GET .*: cancelled$/);
    await watch.rejects(watch.client(sandbox).getRecord('activity', TODAY, { signal: ctrl.signal }), 'cancelled');
  });

  it('an AbortSignal cancels the wait between retries', async () => {
    sandbox.addFault({ fault: '503', path: ITEM });
    // A minute between retries: only the abort can end the call in time.
    const client = watch.client(sandbox, { retryBaseDelayMs: 60_000, maxRetryDelayMs: 60_000 });
    await client.getClientToken();
    const ctrl = new AbortController();
    setTimeout(() => ctrl.abort(), 150);
    await watch.rejects(client.getRecord('activity', TODAY, { signal: ctrl.signal }), 'cancelled', /while waiting to retry/);
    assert.equal(calls().length, 1);
  });

  it('dispose() aborts what is in flight and refuses what follows', async () => {
    sandbox.addFault({ fault: 'latency', path: LIST, latencyMs: 1000 });
    const client = watch.client(sandbox);
    await client.getClientToken();
    const pending = client.list('activity');
    setTimeout(() => client.dispose(), 80);
    await watch.rejects(pending, 'cancelled', /disposed/);
    await watch.rejects(client.getRecord('activity', TODAY), 'cancelled', /disposed/);
  });

  it('dispose() during the wait between retries ends the call at once', async () => {
    sandbox.addFault({ fault: '503', path: ITEM });
    // A minute between retries: only the dispose can end the call in time.
    const client = watch.client(sandbox, { retryBaseDelayMs: 60_000, maxRetryDelayMs: 60_000 });
    await client.getClientToken();
    setTimeout(() => client.dispose(), 150);
    await watch.rejects(client.getRecord('activity', TODAY), 'cancelled', /while waiting to retry \(the client was disposed\)/);
    assert.equal(calls().length, 1);
  });

  it('a service that repeats the credentials in its errors: the error, its service message and the log say [redacted]', async () => {
    // A front that hands the mint to the sandbox and answers every data request with a 503 whose
    // message quotes the Authorization header it got (as a careless gateway does).
    const answer = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
      if (req.url?.startsWith('/v1/admin/')) return false;
      const body = JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: `upstream refused ${req.headers.authorization ?? ''} for ${req.url ?? ''}` });
      res.writeHead(503, { 'content-type': 'application/json' }).end(body);
      return true;
    };
    await throughFront(sandbox, { answer }, async (origin) => {
      const logged: RequestLogEntry[] = [];
      const client = watch.client(sandbox, { authUrl: origin, baseUrl: origin, maxRetries: 1, onRequest: (e) => logged.push(e) });
      const err = await watch.rejects(client.getRecord('activity', TODAY), 'http');
      const token = client.currentToken?.token;
      assert.ok(token && token.length > 20);
      const said = [err.message, err.serviceMessage ?? '', ...logged.filter((e) => e.error).map((e) => e.error!)];
      assert.equal(said.length, 4, JSON.stringify(logged));
      for (const text of said) {
        assert.ok(!text.includes(token), `the token in: ${text.slice(0, 120)}`);
        assert.match(text, /upstream refused Bearer \[redacted\]/);
      }
      client.dispose();
    });
  });

  it('malformed JSON is a parse error, not retried', async () => {
    sandbox.addFault({ fault: 'malformed-json', path: ITEM });
    const err = await watch.rejects(watch.client(sandbox).getRecord('activity', TODAY), 'parse');
    assert.equal(err.message, `GET ${ITEM}: the reply is not valid JSON (truncated?) (request id ${err.requestId})`);
    assert.equal(calls().length, 1);
  });

  it('a body cut short is a network error, retried', async () => {
    sandbox.addFault({ fault: 'truncated', path: ITEM, times: 1 });
    await watch.client(sandbox).getRecord('activity', TODAY);
    assert.equal(calls().length, 2);
    sandbox.addFault({ fault: 'truncated', path: ITEM });
    await watch.rejects(watch.client(sandbox, { maxRetries: 1 }).getRecord('activity', TODAY), 'network', /cut short after 200 OK \(truncated body/);
  });

  it('a body cut short is noticed at once when another agent stands in front of the client\'s', async function () {
    // What VS Code's proxy patch (`http.proxySupport`) does in the extension host: http.request()
    // gets a copy of the options with an agent of its own, which hands the request to the
    // client's agent later. Unnoticed, the body would wait for the 20 s timeout and say so.
    this.timeout(40_000);
    class Front extends http.Agent {
      constructor(private readonly inner: http.Agent) {
        super();
      }
      addRequest(req: http.ClientRequest, options: object): void {
        setImmediate(() => (this.inner as unknown as Front).addRequest(req, { ...options }));
      }
    }
    const request = http.request;
    let fronted = 0;
    (http as { request: unknown }).request = (options: http.RequestOptions, callback?: () => void) => {
      fronted++;
      return request({ ...options, agent: new Front(options.agent as http.Agent) }, callback);
    };
    try {
      sandbox.addFault({ fault: 'truncated', path: ITEM });
      await watch.rejects(
        watch.client(sandbox, { maxRetries: 1, timeoutMs: 20_000 }).getRecord('activity', TODAY),
        'network',
        /cut short after 200 OK \(truncated body/,
      );
    } finally {
      (http as { request: unknown }).request = request;
    }
    assert.ok(fronted >= 2, `${fronted} requests went through the front agent`);
    assert.equal(calls().length, 2);
  });

  it('a connection reset is a network error, retried', async () => {
    sandbox.addFault({ fault: 'reset', path: ITEM, times: 2 });
    await watch.client(sandbox).getRecord('activity', TODAY);
    assert.equal(calls().length, 3);
    sandbox.addFault({ fault: 'reset', path: ITEM });
    await watch.rejects(watch.client(sandbox, { maxRetries: 1 }).getRecord('activity', TODAY), 'network', /connection was reset \(ECONNRESET\)|socket hang up/);
  });

  it('a refused connection is a network error, retried up to the budget', async () => {
    const closed = await sandboxWith();
    await closed.close();
    const entries: RequestLogEntry[] = [];
    const client = watch.client(closed, { maxRetries: 2, onRequest: (e) => entries.push(e) });
    await watch.rejects(client.getClientToken(), 'network', /connection was refused \(ECONNREFUSED\)/);
    assert.equal(entries.length, 1, 'the mint is not retried');
    const user = watch.client(closed, { maxRetries: 2, userAccessToken: 'user-token-xyz9', onRequest: (e) => entries.push(e) });
    await watch.rejects(user.getRecord('activity', TODAY), 'network', /ECONNREFUSED.*3 attempts/);
    assert.deepEqual(entries.slice(1).map((e) => e.attempt), [1, 2, 3]);
  });

  it('an HTML error page says so, with its status', async () => {
    sandbox.addFault({ fault: 'html', path: ITEM });
    const err = await watch.rejects(watch.client(sandbox, { maxRetries: 1 }).getRecord('activity', TODAY), 'http');
    assert.match(err.message, new RegExp(`^GET ${ITEM}: 502 Bad Gateway: the server answered with an HTML page, not JSON \\(request id \\w+; 2 attempts\\)$`));
    assert.equal(err.status, 502);
  });
});
