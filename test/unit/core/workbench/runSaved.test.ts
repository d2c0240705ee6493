// A saved request that expects a refusal passes only when the refusal is the service's own:
// `{statusCode, error, message}` as the conventions give it. The sandbox's real refusals (404,
// 429, 503, an unknown user token's 401) pass the check; the same replies changed as a proxy or a
// broken deployment would change them each fail with a sentence that says what is wrong.
import * as assert from 'node:assert/strict';
import { Exchange } from '../../../../src/core/service';
import { errorReplyProblem } from '../../../../src/core/workbench';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, sandboxForSuite } from '../../support/client';

describe('the refusal a saved request expects', () => {
  const watch = new LeakWatch();
  let sandbox: Sandbox;
  sandboxForSuite(watch, (started) => (sandbox = started));

  /** The last exchange of a call that the sandbox refused. */
  const refusal = async (run: (client: ReturnType<LeakWatch['client']>) => Promise<unknown>, options: Parameters<LeakWatch['client']>[1] = {}): Promise<Exchange> => {
    const exchanges: Exchange[] = [];
    const client = watch.client(sandbox, { maxRetries: 0, ...options, onExchange: (e) => exchanges.push(e) });
    await assert.rejects(run(client));
    return exchanges.at(-1)!;
  };

  it('takes the service\'s own error bodies, of every status it refuses with', async () => {
    const gone = await refusal((c) => c.getRecord('heartRate', 'no-such-id'));
    assert.equal(gone.status, 404);
    assert.equal(errorReplyProblem(gone, 404), undefined);
    sandbox.addFault({ fault: '429', path: '/activities', retryAfter: 1 });
    sandbox.addFault({ fault: '503', path: '/body_fat' });
    try {
      const limited = await refusal((c) => c.list('activity', { all: false, limit: 1 }));
      assert.equal(limited.status, 429);
      assert.equal(errorReplyProblem(limited, 429), undefined);
      const down = await refusal((c) => c.getLatest('bodyFat'));
      assert.equal(down.status, 503);
      assert.equal(errorReplyProblem(down, 503), undefined);
    } finally {
      sandbox.clearFaults();
    }
    // A user access token the service does not know.
    const unknown = await refusal((c) => c.getRecord('heartRate', 'no-such-id'), { userAccessToken: 'not-a-token-the-service-issued' });
    assert.equal(unknown.status, 401);
    assert.equal(errorReplyProblem(unknown, 401), undefined);
  });

  it('names what keeps a reply from being the service\'s error', async () => {
    const gone = await refusal((c) => c.getRecord('heartRate', 'no-such-id'));
    const body = JSON.parse(gone.responseBody!) as Record<string, unknown>;
    const as = (responseBody: string | undefined, contentType = 'application/json') => errorReplyProblem({ responseBody, contentType }, 404);
    const form = '{statusCode, error, message}';
    assert.equal(as(undefined), `The 404 reply has no body: the service's errors are JSON ${form}.`);
    assert.equal(as('  '), `The 404 reply has no body: the service's errors are JSON ${form}.`);
    assert.equal(as('<html><body>Not here</body></html>', 'text/html'), `The 404 reply is an HTML page (a proxy's or a gateway's?), not the service's JSON error ${form}.`);
    assert.equal(as('Not Found', 'text/plain'), `The 404 reply is not JSON, so not the service's error ${form}.`);
    assert.equal(as('[]'), `The 404 reply is not the service's error ${form}: it is a list.`);
    assert.equal(as('"Not Found"'), `The 404 reply is not the service's error ${form}: it is not an object.`);
    assert.equal(as(JSON.stringify({ ...body, statusCode: 400 })), `The 404 reply breaks the service's error form ${form}: statusCode 400, not 404.`);
    assert.equal(as(JSON.stringify({ ...body, statusCode: '404' })), `The 404 reply breaks the service's error form ${form}: statusCode "404", not 404.`);
    const { statusCode: _s, message: _m, ...bare } = body;
    assert.equal(as(JSON.stringify(bare)), `The 404 reply breaks the service's error form ${form}: no statusCode, no message.`);
    assert.equal(as(JSON.stringify({ ...body, error: '', message: 7 })), `The 404 reply breaks the service's error form ${form}: error not a text, message not a text.`);
    // A request id and other fields beside the three are the service's to add.
    assert.equal(as(JSON.stringify({ ...body, requestId: 'abc', detail: 'more' })), undefined);
  });
});
