// A pasted cURL command, URL or request line read as one of the service's requests: the words
// as bash splits them (checked against bash itself, with a curl that prints its arguments), the
// request as curl sends it (real curl against the sandbox), our own Copy as Code read back to the
// request it came from, and what is not kept named without repeating a token or a secret.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { DEFAULT_PRESENTATION, Exchange, HealthDataClient, TokenPresentation } from '../../../../src/core/service';
import { codeSnippet, requestOfExchange } from '../../../../src/core/exchanges';
import { draftFromExchange, draftFromUrl, draftTarget, looksLikePastedRequest, readPastedRequest, sendDraft, shellCommands } from '../../../../src/core/workbench';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, TODAY, sandboxForSuite, sleep } from '../../support/client';
import { fakeCurlFolder, runProgram } from '../../support/programs';

const H = 'https://api.example.com';
const LIST = `${H}/v1/human/activities/summaries`;

/** The arguments bash hands to curl for `command` (a curl that prints them). */
function bashArgs(command: string): string[] {
  const run = spawnSync('bash', ['-c', command], { env: { ...process.env, PATH: `${fakeCurlFolder()}:${process.env.PATH}`, TOKEN: 'T' }, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as string[];
}

describe('workbench: a pasted request', function () {
  this.timeout(60_000);
  const watch = new LeakWatch();
  let sandbox: Sandbox;
  sandboxForSuite(watch, (started) => (sandbox = started));

  it('splits words as bash does: quotes, escapes, $\'…\' strings and line continuations', () => {
    const commands = [
      `curl 'http://h/v1/a?x=1&y=2' -H 'A: it'"'"'s'`,
      `curl "http://h/v1/a?q=\\"quoted\\" \\$HOME" \\\n  -H "B: two  spaces" \\\n  --compressed`,
      `curl $'http://h/v1/a?t=tab\\there&u=\\u00e9\\x41'`,
      `curl http://h/v1/a\\ b -d'x=1' -sSL`,
      `curl "http://h/v1/$"`,
    ];
    for (const command of commands) {
      const words = shellCommands(command).top[0];
      assert.equal(words[0], 'curl');
      assert.deepEqual(words.slice(1), bashArgs(command), command);
    }
    // Windows line ends, which bash would not continue: read as the same command.
    assert.deepEqual(shellCommands(`curl -X GET 'http://h/v1/a' \\\r\n -H 'C: d'`).top, [['curl', '-X', 'GET', 'http://h/v1/a', '-H', 'C: d']]);
  });

  it('reads a browser\'s Copy as cURL, also once a one-line box has taken its line breaks away', () => {
    const copied = [
      `curl '${LIST}?start_date=2026-11-01&end_date=2026-11-20&limit=3' \\`,
      `  -H 'accept: application/json' \\`,
      `  -H 'authorization: Bearer eyJhbGciOi.secret-looking.token' \\`,
      `  -H 'x-request-id: 5f0c' \\`,
      `  -H 'sec-ch-ua-platform: "Linux"' \\`,
      `  --compressed`,
    ].join('\n');
    for (const text of [copied, copied.replace(/[\r\n]/g, '')]) {
      assert.ok(looksLikePastedRequest(text));
      const read = readPastedRequest(text);
      assert.deepEqual(read.draft, { endpoint: 'list', kind: 'activity', params: { start_date: '2026-11-01', end_date: '2026-11-20', limit: '3' } });
      assert.equal(read.target, 'GET /v1/human/activities/summaries?start_date=2026-11-01&end_date=2026-11-20&limit=3');
      assert.equal(read.origin, H);
      assert.equal(read.form, 'curl');
      assert.deepEqual(read.notes, ["The command's token is left out: the extension adds its own.", 'Headers left out (the extension sends its own): x-request-id, sec-ch-ua-platform.']);
      assert.ok(!JSON.stringify(read).includes('secret-looking'), 'the token is never repeated');
    }
  });

  it('reads Windows cmd quoting, -G data, --data-urlencode, --url-query and -o', () => {
    const cmd = `curl ^"${LIST}?limit=3^&offset=5^" ^\n  -H ^"accept: */*^" ^\n  --compressed`;
    assert.deepEqual(readPastedRequest(cmd).draft?.params, { limit: '3', offset: '5' });
    const get = readPastedRequest(`curl -G ${LIST} -d start_date=2026-11-01 -d end_date=2026-11-02 --data-urlencode 'source=Withings Café' --url-query humanId=h1 -o out.json`);
    assert.deepEqual(get.draft?.params, { start_date: '2026-11-01', end_date: '2026-11-02', source: 'Withings Café', humanId: 'h1' });
    assert.deepEqual(get.notes, []);
    assert.deepEqual(readPastedRequest(`curl -sSfL --max-time 10 "${LIST}?limit=2" > out.json 2>&1`).draft?.params, { limit: '2' });
  });

  it('reads a URL, a request line, an id percent-encoded, the latest reading, and the token mint without its secret', () => {
    assert.deepEqual(readPastedRequest(`${H}/v1/human/heart_rate/summaries/abc%20def`).draft, { endpoint: 'getById', kind: 'heartRate', id: 'abc def' });
    assert.equal(readPastedRequest(`${H}/v1/human/heart_rate/summaries/abc%20def`).form, 'url');
    const line = readPastedRequest(`GET ${H}/v1/human/heart_rate/summaries/2026-11-20 HTTP/1.1\nAccept: application/json`);
    assert.deepEqual(line.draft, { endpoint: 'getByDate', kind: 'heartRate', date: '2026-11-20' });
    assert.equal(line.form, 'line');
    assert.deepEqual(readPastedRequest('/v1/human/body_fat').draft, { endpoint: 'getLatest', kind: 'bodyFat' });
    for (const mint of [
      `curl -X POST ${H}/v1/admin/token -H 'Content-Type: application/json' -d '{"type":"client","client_id":"app-1","client_secret":"s3cr3t-value"}'`,
      `curl -u app-1:s3cr3t-value --json '{"type":"client"}' ${H}/v1/admin/token`,
    ]) {
      const read = readPastedRequest(mint);
      assert.deepEqual(read.draft, { endpoint: 'token' });
      assert.equal(read.target, 'POST /v1/admin/token');
      assert.deepEqual(read.notes, ["The client id and secret in the command are left out: a token is minted with the environment's client id and stored secret."]);
      assert.ok(!JSON.stringify(read).includes('s3cr3t-value'));
    }
  });

  it('says what it does not keep: another method, a body, parameters, options, a second command', () => {
    const put = readPastedRequest(`curl -X DELETE ${H}/v1/human/heart_rate/summaries/abc`);
    assert.deepEqual(put.draft, { endpoint: 'getById', kind: 'heartRate', id: 'abc' });
    assert.deepEqual(put.notes, ["The endpoint is a GET: the command's DELETE is not kept."]);
    const posted = readPastedRequest(`curl '${LIST}?page_token=zz&humanId=h2&created_since=2026-11-01' -d limit=3 -F file=@x -b c=1 --frobnicate -W`);
    assert.deepEqual(posted.draft?.params, { humanId: 'h2', created_since: '2026-11-01' });
    assert.deepEqual(posted.notes, [
      "The endpoint is a GET: the command's POST is not kept.",
      "The command's body is left out: the endpoint takes none.",
      'Parameters the endpoint does not take, left out: page_token.',
      'curl options left out: --form, --cookie.',
      'curl options not read: --frobnicate, -W.',
    ]);
    const two = readPastedRequest(`curl ${H}/v1/human/body_fat/latest\ncurl '${LIST}?limit=1'`);
    assert.deepEqual(two.draft, { endpoint: 'list', kind: 'activity', params: { limit: '1' } });
    assert.deepEqual(two.notes, ['The text holds 2 curl commands: the last one is read.']);
    const query = readPastedRequest(`${LIST}?access_token=abc.def&limit=4`, ['access_token']);
    assert.deepEqual(query.notes, ["The request's token is left out: the extension adds its own."]);
    const custom = readPastedRequest(`curl ${LIST} -H 'X-Health-Token: abc'`, [], ['X-Health-Token']);
    assert.deepEqual(custom.notes, ["The command's token is left out: the extension adds its own."]);
  });

  it('names what is wrong with a text that is no request of the service, and never throws', () => {
    const problems: [string, RegExp][] = [
      ['', /Paste a cURL command/],
      ['   ', /Paste a cURL command/],
      [`curl '${LIST}`, /' that is never closed/],
      [`curl "${LIST}`, /" that is never closed/],
      [`curl $(echo ${LIST}`, /\$\( that is never closed/],
      ['curl -sS -H "A: b"', /has no URL/],
      ['echo hello', /no curl command/],
      [`curl ftp://h/v1/human/activities/summaries`, /not an http/],
      [`curl ${H}/v1/human/heart_rate/summary`, /GET \/v1\/human\/heart_rate\/summary is not one of the service's endpoints: did you mean \/v1\/human\/heart_rate\/summaries\?/],
      [`curl -X POST ${H}/v1/admin/tokens`, /did you mean \/v1\/admin\/token\?/],
      [`curl ${H}/v2/something/else`, /is not one of the service's endpoints\.$/],
      [`curl ${'$('.repeat(50_000)}`, /too deep/],
    ];
    for (const [text, problem] of problems) {
      const read = readPastedRequest(text);
      assert.equal(read.draft, undefined, text.slice(0, 60));
      assert.match(read.problem ?? '', problem, text.slice(0, 60));
    }
    const long = readPastedRequest(`curl ${H}/v1/${'x'.repeat(100_000)}`);
    assert.match(long.problem ?? '', /^GET \/v1\/x{70,}…? is not one/);
    assert.ok(long.problem!.length < 200);
    for (const text of ['heart', '14', '2026-11-01..2026-11-20', 'activity summaries', 'curling']) assert.equal(looksLikePastedRequest(text), false, text);
    for (const text of ['curl -s x', 'https://x', 'GET /v1/x', '# mint\nexport T="$(curl -sS x)"']) assert.equal(looksLikePastedRequest(text), true, text);
  });

  it('reads a human filter, created_since and a parameter it cannot send from a URL', () => {
    const read = draftFromUrl('GET', `${LIST}?humanId=h1&created_since=2026-11-01T00:00:00Z&page_token=zz&page_token=yy&access_token=%5Bredacted%5D&limit=2`);
    assert.deepEqual(read.draft, { endpoint: 'list', kind: 'activity', params: { humanId: 'h1', created_since: '2026-11-01T00:00:00Z', limit: '2' } });
    assert.deepEqual(read.leftOut, ['page_token']);
    assert.deepEqual(draftFromUrl('GET', `${H}/v1/human/heart_rate/summaries/abc?humanId=h1`).leftOut, ['humanId']);
  });

  const recording = (presentation: TokenPresentation = DEFAULT_PRESENTATION) => {
    const exchanges: Exchange[] = [];
    const client: HealthDataClient = watch.client(sandbox, { presentation, onExchange: (e) => exchanges.push(e) });
    return { client, exchanges };
  };

  it('reads our own Copy as Code back to the request it came from, and sends it as curl would', async () => {
    const { client, exchanges } = recording();
    const humanId = sandbox.dataset.activity[0].humanId;
    await client.list('activity', { startDate: '2026-03-01', endDate: TODAY, source: 'fitbit', humanId, createdSince: '2026-01-01', limit: 2, offset: 1, all: false });
    await client.list('heartRate', { limit: 3, updatedSince: '2026-03-01T00:00:00Z', all: false });
    await client.getRecord('heartRate', TODAY);
    await client.getRecord('bodyFat', 'it\'s "odd" $(x)').catch(() => undefined);
    await client.getLatest('bodyFat');
    await client.mintClientToken();
    const token = client.currentToken!.token;
    assert.ok(exchanges.length >= 6);
    // The exchanges made before the loop (each resend adds its own).
    for (const exchange of [...exchanges]) {
      const original = draftFromExchange(exchange);
      assert.ok(original, exchange.url);
      const snippet = codeSnippet(requestOfExchange(exchange, DEFAULT_PRESENTATION), { language: 'curl', presentation: DEFAULT_PRESENTATION, authUrl: sandbox.authUrl });
      for (const text of [snippet.text, snippet.text.replace(/[\r\n]/g, ''), snippet.request || snippet.text]) {
        // On one line, a mint alone is swallowed by its comment and a quote left open (a data request after it is read).
        if (text === snippet.text.replace(/[\r\n]/g, '') && exchange.endpoint === 'token') continue;
        const read = readPastedRequest(text);
        assert.deepEqual(read.draft, original, `${exchange.url}: ${read.problem ?? ''}`);
        assert.equal(read.origin, new URL(exchange.url).origin);
        if (exchange.endpoint !== 'token') assert.deepEqual(read.notes, ["The command's token is left out: the extension adds its own."], exchange.url);
      }
      if (exchange.endpoint === 'token') continue;
      // What real curl asks the sandbox for is what the draft sends.
      const lastBefore = sandbox.requests[sandbox.requests.length - 1];
      const run = await runProgram('bash', ['-c', snippet.request], { HEALTH_DATA_TOKEN: token });
      assert.equal(run.code, 0, run.stderr);
      // The sandbox's log keeps its last entries: the newest is curl's once it has come.
      for (let i = 0; sandbox.requests[sandbox.requests.length - 1] === lastBefore && i < 100; i++) await sleep(10);
      const byCurl = sandbox.requests[sandbox.requests.length - 1];
      assert.notEqual(byCurl, lastBefore);
      const resent = exchanges.length;
      await sendDraft(client, readPastedRequest(snippet.request).draft!).catch(() => undefined);
      const byDraft = exchanges.slice(resent).find((e) => e.endpoint !== 'token')!;
      const sent = new URL(byDraft.url);
      // The same id either way (curl keeps the snippet's `'`, the client writes it `%27`).
      assert.equal(decodeURIComponent(sent.pathname), decodeURIComponent(byCurl.path), exchange.url);
      assert.deepEqual(Object.fromEntries(sent.searchParams), byCurl.query, exchange.url);
      assert.equal(draftTarget(draftFromExchange(byDraft)!), draftTarget(original));
    }
  });

  it('reads the query-parameter presentation\'s snippet, token left out', async () => {
    const presentation: TokenPresentation = { mode: 'query', parameter: 'access_token' };
    const { client, exchanges } = recording(presentation);
    await client.list('bodyFat', { limit: 3, all: false });
    const exchange = exchanges.find((e) => e.endpoint === 'list')!;
    const snippet = codeSnippet(requestOfExchange(exchange, presentation), { language: 'curl', presentation, authUrl: sandbox.authUrl });
    const read = readPastedRequest(snippet.request, ['access_token']);
    assert.deepEqual(read.draft, { endpoint: 'list', kind: 'bodyFat', params: { limit: '3' } });
    assert.deepEqual(read.notes, ["The command's token is left out: the extension adds its own."]);
  });
});
