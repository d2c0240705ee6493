// The exchange view's model on exchanges a real client made against the sandbox: a list page
// as its records with the record view's findings, a single record, a token mint, an error reply,
// a body that is not JSON; the headers developers look for first; the attempts; and the
// protocol's check of what the webview sends.
import * as assert from 'node:assert/strict';
import { Exchange } from '../../../../src/core/service';
import { validate, checkClientTokenReply } from '../../../../src/core/validation';
import { KEY_HEADERS, MAX_BODY_TEXT, MAX_RECORD_FINDINGS, buildExchangeView, compareZeros, buildRecordViewModel, parseExchangeWebviewMessage } from '../../../../src/core/views';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, TODAY, sandboxForSuite, sandboxWith } from '../../support/client';

describe('exchange view model', () => {
  const watch = new LeakWatch();
  let sandbox: Sandbox;
  sandboxForSuite(watch, (started) => (sandbox = started));
  const options = { check: (r: unknown, k: Parameters<typeof validate>[1]) => validate(r, k), checkTokenReply: checkClientTokenReply, resendable: true };

  const run = async (call: (c: ReturnType<LeakWatch['client']>) => Promise<unknown>, clientOptions: Parameters<LeakWatch['client']>[1] = {}) => {
    const exchanges: Exchange[] = [];
    const client = watch.client(sandbox, { ...clientOptions, onExchange: (e) => exchanges.push(e) });
    await call(client).catch(() => undefined);
    return exchanges;
  };

  it('a list page opens as its records, each with the findings the record view shows (zeros said from the page\'s other records), and their sum', async () => {
    const [, page] = await run((c) => c.list('activity', { startDate: '2026-03-01', endDate: TODAY, all: false, limit: 10 }));
    const { model, records } = buildExchangeView(page, options);
    assert.equal(model.body.type, 'records');
    if (model.body.type !== 'records') return;
    const parsed = JSON.parse(page.responseBody!) as unknown[];
    assert.equal(model.body.records.length, parsed.length);
    assert.deepEqual(records, parsed);
    let explained = 0;
    parsed.forEach((record, i) => {
      // Each 0 as compareZeros says it against the same page, in the reply's words.
      const findings = compareZeros(record, validate(record, 'activity').findings, parsed).findings.map((f) => (f.kind === 'zero' ? { ...f, message: f.message.replace(/ loaded$/, ' in this reply') } : f));
      explained += findings.filter((f) => f.message.endsWith(' in this reply')).length;
      const recordView = buildRecordViewModel(record, 'activity', findings);
      const row = model.body.type === 'records' ? model.body.records[i] : undefined;
      assert.equal(row?.title, recordView.title);
      assert.deepEqual(row?.counts, recordView.counts);
      // The row's findings are the record view's first MAX_RECORD_FINDINGS, its total theirs.
      assert.equal(row?.findingsTotal, recordView.findingsTotal);
      assert.deepEqual(row?.findings.map((f) => [f.kind, f.path, f.message]), recordView.findings.slice(0, MAX_RECORD_FINDINGS).map((f) => [f.kind, f.path, f.message]));
    });
    assert.ok(explained > 0, 'no zero said from the page');
    const zeroSum = model.body.records.reduce((n, r) => n + r.counts.zero, 0);
    assert.equal(model.body.counts.zero, zeroSum);
    assert.equal(model.body.wrapper, 'array');
    // The paging headers first, in their order; all of them after.
    assert.deepEqual(model.keyHeaders.map(([name]) => name), KEY_HEADERS.filter((h) => page.responseHeaders[h] !== undefined));
    assert.ok(model.keyHeaders.some(([name]) => name === 'x-total-count'));
    assert.equal(model.responseHeaders.length, Object.keys(page.responseHeaders).length);
    assert.equal(model.requestHeaders.find(([n]) => n === 'Authorization')?.[1], 'Bearer [redacted]');
    assert.match(model.title, /^GET \/v1\/human\/activities\/summaries\?.*limit=10.* · 200$/);
    assert.equal(model.outcome, 'ok');
  });

  it('lists a record\'s findings in the order of its fields, as the record view does, not the validator\'s', async () => {
    // A record the service sends with `steps` as text: the schema error comes first from the
    // validator, the deprecated `userId` (written before `steps`) after it.
    const base = sandbox.dataset.activity[0] as unknown as Record<string, unknown>;
    const broken = { ...base, id: 'order-of-fields', steps: 'many' };
    const other = await sandboxWith({ extraRecords: { heartRate: [], activity: [broken], bodyFat: [] } });
    try {
      const exchanges: Exchange[] = [];
      const client = watch.client(other, { onExchange: (e) => exchanges.push(e) });
      await client.getRecord('activity', 'order-of-fields');
      const got = exchanges.find((e) => e.url.includes('order-of-fields'))!;
      const { model } = buildExchangeView(got, options);
      assert.equal(model.body.type, 'record');
      if (model.body.type !== 'record') return;
      const paths = model.body.record.findings.map((f) => f.path);
      const validatorPaths = validate(broken, 'activity').findings.map((f) => f.path);
      assert.ok(validatorPaths.indexOf('/steps') < validatorPaths.indexOf('/userId'), 'the validator reports the error first');
      const keys = Object.keys(broken);
      const position = (path: string) => keys.indexOf(path.split('/')[1]);
      assert.deepEqual(paths.map(position), [...paths.map(position)].sort((a, b) => a - b), paths.join(' '));
      assert.ok(paths.indexOf('/userId') < paths.indexOf('/steps'));
      const recordView = buildRecordViewModel(broken, 'activity', validate(broken, 'activity').findings);
      assert.deepEqual(paths, recordView.findings.map((f) => f.path));
    } finally {
      await other.close();
    }
  });

  it('a single record with its findings; a token mint with the reply check; an error reply as text; a body cut short as none, an HTML error page as text', async () => {
    const [mint, one] = await run((c) => c.getRecord('heartRate', TODAY));
    const record = buildExchangeView(one, options).model;
    assert.equal(record.body.type, 'record');
    if (record.body.type === 'record') {
      const parsed = JSON.parse(one.responseBody!);
      assert.deepEqual(record.body.record.counts, buildRecordViewModel(parsed, 'heartRate', validate(parsed, 'heartRate').findings).counts);
    }
    const token = buildExchangeView(mint, options).model;
    assert.equal(token.body.type, 'record');
    assert.ok(token.requestBody?.includes('[redacted]'));

    const [missing] = await run((c) => c.getRecord('activity', 'nope'), {}).then((x) => x.slice(1));
    const notFound = buildExchangeView(missing, options).model;
    assert.equal(notFound.body.type, 'text');
    assert.equal(notFound.outcome, 'clientError');

    sandbox.addFault({ fault: '429', path: '/activities', retryAfter: 1, times: 1 });
    const [, retried] = await run((c) => c.getRecord('activity', TODAY), { maxRetryAfterMs: 20 });
    const r = buildExchangeView(retried, options).model;
    assert.equal(r.attempts.length, 2);
    assert.equal(r.attempts[0].status, 429);
    assert.match(r.attempts[0].retryReason ?? '', /429/);
    assert.equal(r.outcome, 'retried');

    sandbox.addFault({ fault: 'truncated', path: '/activities' });
    const [, cut] = await run((c) => c.getRecord('activity', TODAY), { maxRetries: 0 });
    const c = buildExchangeView(cut, options).model;
    // The body never arrived whole: none is shown, and the error says why.
    assert.equal(c.body.type, 'none');
    assert.equal(c.outcome, 'failed');
    const html = buildExchangeView({ ...cut, status: 502, responseBody: '<html><body>Bad gateway</body></html>' }, options).model;
    assert.ok(html.body.type === 'text' && html.body.problem, 'an HTML page shows as text, with why it is not JSON');
    assert.match(c.error?.message ?? '', /cut short/);
  });

  it('a single record\'s zeros said by the host\'s comparison, with its sentence; without one, or for a mint, an error or a list, as they were', async () => {
    const [mint, one] = await run((c) => c.getRecord('activity', TODAY));
    const parsed = JSON.parse(one.responseBody!) as Record<string, unknown>;
    const calls: Array<[unknown, string]> = [];
    const compared = {
      ...options,
      compareZeros: (record: unknown, kind: string, findings: readonly { kind: string; path: string; message: string }[]) => {
        calls.push([record, kind]);
        return { findings: findings.map((f) => (f.kind === 'zero' ? { ...f, message: `${f.message}, compared` } : f)) as never, basis: 'Zeros compared with the others.' };
      },
    };
    const zeroDay = { ...one, responseBody: JSON.stringify({ ...parsed, steps: 0, distance: 0 }) };
    const view = buildExchangeView(zeroDay, compared).model.body;
    assert.ok(view.type === 'record');
    assert.equal(view.zeroBasis, 'Zeros compared with the others.');
    assert.equal(view.record.findings.find((f) => f.path === '/steps')?.message, '0 — this source may not provide steps, compared');
    assert.equal(view.record.counts.zero, validate(JSON.parse(zeroDay.responseBody), 'activity').findings.filter((f) => f.kind === 'zero').length);
    assert.deepEqual(calls.map(([, kind]) => kind), ['activity']);
    // No comparison given: the schema's words, no sentence.
    const plain = buildExchangeView(zeroDay, options).model.body;
    assert.ok(plain.type === 'record' && plain.zeroBasis === undefined);
    assert.equal(plain.record.findings.find((f) => f.path === '/steps')?.message, '0 — this source may not provide steps');
    // A record without zeros, a token mint and an error reply ask for no comparison.
    calls.length = 0;
    const noZeros = buildExchangeView({ ...one, responseBody: JSON.stringify({ ...parsed, steps: 1, distance: 1, vigorous: 1, moderate: 1, light: 1, sedentary: 1, calories: 1, duration: 1 }) }, compared).model.body;
    assert.ok(noZeros.type === 'record' && noZeros.zeroBasis === undefined);
    buildExchangeView(mint, compared);
    buildExchangeView({ ...zeroDay, status: 500 }, compared);
    assert.deepEqual(calls, []);
  });

  it('shows at most MAX_BODY_TEXT characters of a body and says so', async () => {
    const [, page] = await run((c) => c.list('activity', { all: false, limit: 500 }));
    const big: Exchange = { ...page, responseBody: JSON.stringify([...Array(40)].flatMap(() => JSON.parse(page.responseBody!))) };
    const { model } = buildExchangeView(big, options);
    assert.ok(model.body.type === 'records' && model.body.textCut && model.body.text.length === MAX_BODY_TEXT);
  });

  it('takes from the webview only the messages it may send', () => {
    assert.deepEqual(parseExchangeWebviewMessage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseExchangeWebviewMessage({ type: 'action', requestId: 1, action: 'openBody' }), { type: 'action', requestId: 1, action: 'openBody' });
    assert.deepEqual(parseExchangeWebviewMessage({ type: 'action', requestId: 2, action: 'openRecord', index: 3 }), { type: 'action', requestId: 2, action: 'openRecord', index: 3 });
    for (const bad of [null, [], { type: 'action', requestId: -1, action: 'openBody' }, { type: 'action', requestId: 1, action: 'rm -rf' }, { type: 'action', requestId: 1, action: 'openRecord' }, { type: 'action', requestId: 1, action: 'openRecord', index: 1.5 }, { type: 'eval' }]) {
      assert.equal(parseExchangeWebviewMessage(bad), undefined, JSON.stringify(bad));
    }
  });
});
