// Copy as code: the snippets of real exchanges run for real (curl, node's fetch, Python requests)
// against the sandbox and get the bodies the client got; hostile ids and values cannot break
// out of the shell, JavaScript or Python quoting; no snippet holds a token or the secret unless
// the live token was asked for.
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CodeRequest,
  SnippetLanguage,
  Snippet,
  SnippetOptions,
  cliSnippet,
  codeSnippet,
  dataRequest,
  jsString,
  printableUrl,
  pythonString,
  requestOfExchange,
  shellQuote,
} from '../../../../src/core/exchanges';
import { HealthDataError } from '../../../../src/core/errors';
import { DEFAULT_PRESENTATION, Exchange, HealthDataClient, TokenPresentation } from '../../../../src/core/service';
import { Sandbox } from '../../../../src/sandbox/server';
import { LeakWatch, SECRET, TODAY, sandboxForSuite, sandboxWith } from '../../support/client';
import { ProgramRun, fakeCurlFolder, python, runProgram, scratchFile } from '../../support/programs';
import { repoRoot } from '../../support/repo';

const LANGUAGES: SnippetLanguage[] = ['curl', 'fetch', 'python'];
const marker = join(mkdtempSync(join(tmpdir(), 'hde-snippet-')), 'pwned');

/** Ids that try to leave every kind of quoting: quotes, substitutions, escapes, line breaks, NUL. */
const HOSTILE_IDS = [
  `it's`,
  `"double" quoted`,
  `$(touch ${marker})`,
  `\`touch ${marker}\``,
  `'; touch ${marker}; '`,
  `"; require('fs').writeFileSync('${marker}', ''); "`,
  `'+__import__('os').system('touch ${marker}')+'`,
  '${HOME}',
  'line\nbreak',
  'carriage\rreturn',
  'back\\slash\\',
  'line\u2028separator\u2029paragraph',
  'nul\u0000byte',
  '\u202eright-to-left',
  'ü 日本 🙂',
  '%00%27',
];

/** The body without its request id (which differs on every reply). */
function sameBody(actual: string, expected: string | undefined): void {
  const strip = (text: string) => {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (value && typeof value === 'object' && !Array.isArray(value)) delete value.requestId;
    return value;
  };
  assert.deepEqual(strip(actual), strip(expected ?? ''));
}

function ran(run: ProgramRun, what: string): string {
  assert.equal(run.code, 0, `${what} exited ${run.code}: ${run.stderr}`);
  return run.stdout;
}

/** Runs a snippet in its language: bash for cURL, node for fetch (an ES module), python3. */
async function runSnippet(language: SnippetLanguage, code: string, env: NodeJS.ProcessEnv): Promise<ProgramRun> {
  if (language === 'curl') return runProgram('bash', ['-c', code], env);
  if (language === 'fetch') return runProgram(process.execPath, [scratchFile('snippet.mjs', code)], env);
  return runProgram('python3', [scratchFile('snippet.py', code)], env);
}

/** The requests of several snippets of one language run as one program; each reply's line. */
async function runEach(language: SnippetLanguage, made: readonly Snippet[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const body = made.map((m) => (language === 'fetch' ? `{\n${m.request}\n}` : m.request)).join(language === 'curl' ? '\necho\n' : '\n');
  const out = ran(await runSnippet(language, [made[0].prelude, body].filter(Boolean).join('\n\n'), env), language);
  const replies = out.split('\n').filter((line) => line.startsWith('{') || line.startsWith('['));
  assert.equal(replies.length, made.length, `${language}: ${out}`);
  return replies;
}

describe('exchanges: copy as code', function () {
  this.timeout(60_000);
  const watch = new LeakWatch();
  let sandbox: Sandbox;
  sandboxForSuite(watch, (started) => (sandbox = started));

  const recording = (presentation: TokenPresentation = DEFAULT_PRESENTATION, on: Sandbox = sandbox) => {
    const exchanges: Exchange[] = [];
    const client: HealthDataClient = watch.client(on, {
      presentation,
      onExchange: (e) => {
        exchanges.push(e);
        watch.texts.push(JSON.stringify(e));
      },
    });
    return { client, exchanges, last: () => exchanges[exchanges.length - 1] };
  };

  const snippet = (request: CodeRequest, language: SnippetLanguage, extra: Partial<SnippetOptions> = {}, on: Sandbox = sandbox) => {
    const made = codeSnippet(request, { language, presentation: DEFAULT_PRESENTATION, authUrl: on.authUrl, ...extra });
    if (extra.liveToken === undefined) watch.texts.push(made.text);
    return made;
  };

  it('the copied cURL, fetch and Python, run with the token exported, get the body the client got', async () => {
    const { client, exchanges } = recording();
    const record = (await client.getRecord('activity', TODAY)) as { id: string };
    await client.getRecord('heartRate', record.id).catch(() => undefined);
    await client.getRecord('activity', record.id);
    await client.getLatest('bodyFat');
    await client.list('activity', { startDate: '2026-03-01', endDate: TODAY, limit: 5, all: false });
    const token = client.currentToken!.token;
    const data = exchanges.filter((e) => e.purpose === 'data');
    assert.equal(data.length, 5);
    for (const language of LANGUAGES) {
      if (language === 'python' && !python.requests) continue;
      const made = data.map((exchange) => snippet(requestOfExchange(exchange, DEFAULT_PRESENTATION), language));
      assert.ok(made.every((m) => m.mint), 'a mint command precedes each request');
      const replies = await runEach(language, made, { HEALTH_DATA_TOKEN: token });
      replies.forEach((reply, i) => sameBody(reply, data[i].responseBody));
    }
  });

  it('the whole snippet mints its own token from HEALTH_DATA_CLIENT_ID and HEALTH_DATA_CLIENT_SECRET', async () => {
    const { client, last } = recording();
    await client.getRecord('activity', TODAY);
    const env = { HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: SECRET };
    const mintsBefore = sandbox.requests.filter((r) => r.method === 'POST').length;
    for (const language of LANGUAGES) {
      if (language === 'python' && !python.requests) continue;
      const made = snippet(requestOfExchange(last(), DEFAULT_PRESENTATION), language);
      assert.ok(!made.text.includes(SECRET) && !made.text.includes(client.currentToken!.token));
      sameBody(ran(await runSnippet(language, made.text, env), language), last().responseBody);
    }
    assert.equal(sandbox.requests.filter((r) => r.method === 'POST').length - mintsBefore, python.requests ? 3 : 2, 'each snippet minted once');
  });

  it('respects the token settings: another header without a scheme, or the query parameter', async () => {
    const custom = await sandboxWith({ tokenHeader: { name: 'X-Health-Token', scheme: '' } });
    try {
      const header: TokenPresentation = { mode: 'header', headerName: 'X-Health-Token', scheme: '' };
      const query: TokenPresentation = { mode: 'query', parameter: 'access_token' };
      for (const [presentation, on] of [[header, custom], [query, sandbox]] as const) {
        const { client, last } = recording(presentation, on);
        await client.list('bodyFat', { limit: 3, all: false });
        const exchange = last();
        for (const language of LANGUAGES) {
          const made = codeSnippet(requestOfExchange(exchange, presentation), { language, presentation, authUrl: on.authUrl });
          watch.texts.push(made.text);
          assert.ok(!made.text.includes('[redacted]'), `${language}: the redacted token is not copied`);
          if (presentation.mode === 'header') assert.match(made.request, /X-Health-Token/);
          else assert.match(made.request, /access_token/);
          if (language === 'python' && !python.requests) continue;
          const code = [made.prelude, made.request].filter(Boolean).join('\n\n');
          sameBody(ran(await runSnippet(language, code, { HEALTH_DATA_TOKEN: client.currentToken!.token }), `${language} ${presentation.mode}`), exchange.responseBody);
        }
      }
    } finally {
      await custom.close();
    }
  });

  it('hostile ids reach the service as the one id they are, in every language, and run nothing', async () => {
    const { client, exchanges } = recording();
    await client.getClientToken();
    const token = client.currentToken!.token;
    const paths: string[] = [];
    for (const id of HOSTILE_IDS) {
      await watch.rejects(client.getRecord('bodyFat', id), 'http', /404/);
      paths.push(sandbox.requests[sandbox.requests.length - 1].path);
    }
    const hostile = exchanges.filter((e) => e.purpose === 'data');
    assert.equal(hostile.length, HOSTILE_IDS.length);
    for (const language of LANGUAGES) {
      const made = hostile.map((exchange) => snippet(requestOfExchange(exchange, DEFAULT_PRESENTATION), language));
      for (const m of made) assert.ok(!/[\u0000\u2028\u2029\u202e]/.test(m.text), `${language}: a raw control character in ${m.request}`);
      if (language === 'python' && !python.requests) continue;
      const before = sandbox.requests.length;
      const replies = await runEach(language, made, { HEALTH_DATA_TOKEN: token });
      replies.forEach((reply, i) => sameBody(reply, hostile[i].responseBody));
      // The service read the same paths as from the client (clients differ only in which
      // harmless characters they percent-encode, such as ').
      const seen = sandbox.requests.slice(before).map((r) => decodeURIComponent(r.path));
      assert.deepEqual(seen, paths.map((p) => decodeURIComponent(p)), language);
    }
    assert.equal(existsSync(marker), false, 'a snippet ran code it was given as an id');
  });

  it('hostile values in an exchange arrive as data: the argv of curl, the arguments of fetch and requests', async () => {
    const fake = fakeCurlFolder();
    const values = HOSTILE_IDS.filter((v) => !/[\u0000-\u001f\u007f]/.test(v));
    const requests = values.map((value) => {
      const url = `http://127.0.0.1:9/v1/human/activities/summaries/${value}?source=${value}`;
      const request = requestOfExchange(fakeExchange(url, { Accept: 'application/json', 'X-Trace': value, Authorization: 'Bearer [redacted]' }), DEFAULT_PRESENTATION);
      assert.equal(request.url, printableUrl(url));
      assert.ok(/^[\x21-\x7e]+$/.test(request.url), 'the URL is printable ASCII');
      assert.deepEqual(request.headers, [['Accept', 'application/json'], ['X-Trace', value]]);
      return request;
    });
    const env = { HEALTH_DATA_TOKEN: 'tok-123' };
    const expected = requests.map((request, i) => ({ url: request.url, headers: { Accept: 'application/json', 'X-Trace': values[i], Authorization: 'Bearer tok-123' } }));
    const lines = (out: string, start: string) => out.split('\n').filter((line) => line.startsWith(start)).map((line) => JSON.parse(line) as unknown);

    const curl = requests.map((request) => snippet(request, 'curl').request).join('\necho\n');
    const argv = lines(ran(await runProgram('bash', ['-c', curl], { ...env, PATH: `${fake}:${process.env.PATH}` }), 'fake curl'), '[');
    assert.deepEqual(argv, expected.map((e) => ['-sS', e.url, '-H', 'Accept: application/json', '-H', `X-Trace: ${e.headers['X-Trace']}`, '-H', 'Authorization: Bearer tok-123']));

    const fakeFetch = `globalThis.fetch = async (url, init) => { console.log(JSON.stringify({ url, headers: init.headers })); return { status: 200, statusText: 'OK', ok: true, text: async () => '' }; };\n`;
    const js = requests.map((request) => `{\n${snippet(request, 'fetch').request}\n}`).join('\n');
    assert.deepEqual(lines(ran(await runSnippet('fetch', fakeFetch + js, env), 'fake fetch'), '{'), expected);

    if (python.present) {
      const fakeRequests = [
        'import json, sys, types',
        "fake = types.ModuleType('requests')",
        'class Reply:',
        "    status_code, reason, text = 200, 'OK', ''",
        'def get(url, **kw):',
        "    print(json.dumps({'url': url, 'headers': kw.get('headers')}))",
        '    return Reply()',
        'fake.get = get',
        "sys.modules['requests'] = fake",
        '',
      ].join('\n');
      const py = requests.map((request) => snippet(request, 'python').request).join('\n');
      assert.deepEqual(lines(ran(await runSnippet('python', `${fakeRequests}${snippet(requests[0], 'python').prelude}\n\n${py}`, env), 'fake requests'), '{'), expected);
    }
    assert.equal(existsSync(marker), false);
  });

  it('Python snippets compile (py_compile), with hostile values too', async function () {
    if (!python.present) this.skip();
    const files: string[] = [];
    for (const value of HOSTILE_IDS) {
      const request = requestOfExchange(fakeExchange(`http://127.0.0.1:9/v1/human/body_fat/readings/${encodeURIComponent(value)}`, { Accept: 'application/json' }), DEFAULT_PRESENTATION);
      for (const liveToken of [undefined, value.replace(/\0/g, '')]) {
        const made = codeSnippet(request, { language: 'python', presentation: { mode: 'header', headerName: 'X-Token', scheme: value.replace(/[\0\r\n]/g, '') }, authUrl: 'http://127.0.0.1:9', liveToken });
        files.push(scratchFile('compile.py', made.text));
      }
    }
    ran(await runProgram('python3', ['-m', 'py_compile', ...files]), 'py_compile');
  });

  it('the live token only when asked: then no mint, and the token as a quoted literal', () => {
    const request = dataRequest(`${sandbox.baseUrl}/v1/human/body_fat`);
    const live = `eyJlive.'"\`$(x)`;
    for (const language of LANGUAGES) {
      const without = snippet(request, language);
      assert.ok(without.mint && !without.text.includes(live));
      assert.match(without.text, /HEALTH_DATA_TOKEN/);
      assert.match(without.mint, /HEALTH_DATA_CLIENT_ID[\s\S]*HEALTH_DATA_CLIENT_SECRET/);
      const withToken = codeSnippet(request, { language, presentation: DEFAULT_PRESENTATION, authUrl: sandbox.authUrl, liveToken: live });
      assert.equal(withToken.mint, undefined);
      assert.ok(!withToken.text.includes('HEALTH_DATA_CLIENT_SECRET'));
      const quoted = language === 'curl' ? shellQuote(live) : language === 'fetch' ? jsString(live) : pythonString(live);
      assert.ok(withToken.text.includes(quoted), `${language}: ${withToken.text}`);
    }
  });

  it('a credential the exchange still holds unredacted never reaches a snippet: Authorization, access_token, the token\'s own header or parameter', () => {
    const url = 'http://127.0.0.1:9/v1/human/body_fat?source=omron&access_token=plain-access-token&key=plain-key-token';
    const headers = { Accept: 'application/json', Authorization: 'Bearer plain-bearer-token', 'X-Token': 'plain-header-token' };
    for (const presentation of [DEFAULT_PRESENTATION, { mode: 'header' as const, headerName: 'X-Token', scheme: '' }, { mode: 'query' as const, parameter: 'key' }]) {
      const request = requestOfExchange(fakeExchange(url, headers), presentation);
      const text = JSON.stringify(request);
      assert.ok(!text.includes('plain-access-token'), `access_token kept (${presentation.mode}): ${text}`);
      assert.ok(!text.includes('plain-bearer-token'), `Authorization kept (${presentation.mode}): ${text}`);
      if (presentation.mode === 'header' && presentation.headerName === 'X-Token') assert.ok(!text.includes('plain-header-token'), text);
      if (presentation.mode === 'query') assert.ok(!text.includes('plain-key-token'), text);
      assert.match(request.url, /source=omron/);
    }
  });

  it('the CLI snippet of a token exchange never exports the live token, which only a data request carries', () => {
    const live = 'eyJlive.token.value';
    const mint = cliSnippet(requestOfExchange({ ...fakeExchange('http://127.0.0.1:9/v1/admin/token', {}), purpose: 'token', method: 'POST' }, DEFAULT_PRESENTATION), { language: 'cli', presentation: DEFAULT_PRESENTATION, authUrl: 'http://127.0.0.1:9', liveToken: live });
    assert.ok(!mint.text.includes(live), mint.text);
    const data = cliSnippet(dataRequest('http://127.0.0.1:9/v1/human/body_fat'), { language: 'cli', presentation: DEFAULT_PRESENTATION, authUrl: 'http://127.0.0.1:9', liveToken: live });
    assert.ok(data.text.includes(live), 'a data request does carry it when asked');
  });

  it('a token exchange copies as the mint alone, which exports a working token', async () => {
    const { client, exchanges } = recording();
    await client.mintClientToken();
    const mintExchange = exchanges.find((e) => e.purpose === 'token')!;
    const made = snippet(requestOfExchange(mintExchange, DEFAULT_PRESENTATION), 'curl');
    assert.equal(made.request, '');
    const script = `${made.text}\nprintf %s "$HEALTH_DATA_TOKEN" | wc -c`;
    const out = ran(await runProgram('bash', ['-c', script], { HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: SECRET }), 'mint');
    assert.ok(Number(out.trim()) > 20, out);
  });

  it('refuses what no snippet can carry, with a clear message', () => {
    assert.throws(() => shellQuote('a\0b'), (e: unknown) => e instanceof HealthDataError && /NUL/.test(e.message));
    assert.throws(() => printableUrl('file:///etc/passwd'), /not an http/);
    assert.throws(() => printableUrl('javascript:alert(1)'), /not an http/);
    assert.throws(() => requestOfExchange(fakeExchange('http://h/v1/x', { 'X-Bad': 'a\r\nInjected: yes' }), DEFAULT_PRESENTATION), /control character/);
    assert.throws(() => requestOfExchange(fakeExchange('http://h/v1/x', { 'Bad Name': 'x' }), DEFAULT_PRESENTATION), /name HTTP does not allow/);
    assert.throws(() => codeSnippet(dataRequest('http://h/v1/x'), { language: 'ruby' as SnippetLanguage, presentation: DEFAULT_PRESENTATION, authUrl: 'http://h' }), /no snippet language/);
  });

  describe('as a health-data command', () => {
    /** A folder for PATH with a `health-data` that runs this checkout's CLI (out/src/cli/main.js). */
    const cliFolder = (() => {
      const folder = mkdtempSync(join(tmpdir(), 'hde-cli-bin-'));
      const bin = join(folder, 'health-data');
      writeFileSync(bin, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(join(repoRoot, 'out', 'src', 'cli', 'main.js'))} "$@"\n`);
      chmodSync(bin, 0o755);
      return folder;
    })();
    /** The snippet's command run in bash with --json added: its parsed output. */
    const runCommand = async (made: Snippet, env: NodeJS.ProcessEnv): Promise<unknown> => {
      const out = ran(await runProgram('bash', ['-c', `${made.prelude}\n${made.request} --json`], { PATH: `${cliFolder}:${process.env.PATH}`, ...env }), made.request);
      return JSON.parse(out) as unknown;
    };
    const credentials = (): NodeJS.ProcessEnv => ({ HEALTH_DATA_CLIENT_ID: sandbox.clientId, HEALTH_DATA_CLIENT_SECRET: SECRET });
    /** The records of a reply: a record, a list, or a list in a wrapper. */
    const recordsOf = (body: string | undefined): unknown => {
      const value = JSON.parse(body ?? 'null') as unknown;
      return value && typeof value === 'object' && !Array.isArray(value) && 'data' in value ? (value as { data: unknown }).data : value;
    };

    it('runs as the CLI and gets what the client got: a list page, a record by date and by id, the latest reading', async () => {
      const { client, exchanges } = recording();
      const record = (await client.getRecord('activity', TODAY)) as { id: string };
      await client.getRecord('activity', record.id);
      await client.getLatest('bodyFat');
      await client.list('activity', { startDate: '2026-03-01', endDate: TODAY, source: 'fitbit', limit: 5, offset: 2, updatedSince: '2026-03-01T00:00:00Z', all: false });
      const data = exchanges.filter((e) => e.purpose === 'data');
      assert.equal(data.length, 4);
      const made = data.map((exchange) => snippet(requestOfExchange(exchange, DEFAULT_PRESENTATION), 'cli'));
      assert.deepEqual(
        made.map((m) => m.request),
        [`health-data get activity ${TODAY}`, `health-data get activity ${record.id}`, 'health-data get body-fat', `health-data list activity --from 2026-03-01 --to ${TODAY} --source fitbit --limit 5 --offset 2 --updated-since 2026-03-01T00:00:00Z`],
      );
      for (const m of made) {
        assert.equal(m.mint, undefined, 'the CLI mints its own token');
        assert.match(m.prelude, new RegExp(`^export HEALTH_DATA_BASE_URL='${sandbox.baseUrl}'$`, 'm'));
      }
      assert.ok((recordsOf(data[3].responseBody) as unknown[]).length > 0, 'the page compared has records');
      for (let i = 0; i < made.length; i++) assert.deepEqual(await runCommand(made[i], credentials()), recordsOf(data[i].responseBody), made[i].request);
    });

    it('names in a comment the parameters the CLI has no option for, and refuses what it cannot send', async () => {
      const base = `${sandbox.baseUrl}/v1/human/activities/summaries`;
      // Every parameter the client sends has its option.
      const full = `${base}?start_date=2026-03-01&end_date=${TODAY}&source=googlefit&updated_since=2026-03-01T08%3A00%3A00Z&created_since=2026-03-02&humanId=h1&limit=5&offset=10`;
      assert.equal(
        snippet(dataRequest(full), 'cli').request,
        `health-data list activity --from 2026-03-01 --to ${TODAY} --source googlefit --limit 5 --offset 10 --updated-since 2026-03-01T08:00:00Z --created-since 2026-03-02 --human h1`,
      );
      // One the service may take but the CLI has not: named above the command.
      assert.equal(snippet(dataRequest(`${base}?limit=5&sort=desc&fields=id%2Cdate`), 'cli').request, '# Not carried over (the CLI has no option for them): sort=desc fields=id%2Cdate\nhealth-data list activity --limit 5');
      // A value that starts with a dash follows an equals sign, or the CLI would read an option.
      assert.equal(snippet(dataRequest(`${base}?source=-rf`), 'cli').request, "health-data list activity --source='-rf'");
      // A value the CLI would refuse is left to the comment too, not passed on.
      assert.match(snippet(dataRequest(`${base}?limit=900&source=%20&offset=-1&updated_since=yesterday`), 'cli').request, /^# Not carried over .*: source=%20 limit=900 offset=-1 updated_since=yesterday\nhealth-data list activity$/);
      // The comment cannot end early: the URL it quotes is printable ASCII, its line breaks encoded.
      const broken = snippet(dataRequest(`${base}?humanId=a\nrm -rf x`), 'cli');
      assert.equal(broken.request.split('\n').filter((l) => !l.startsWith('#')).length, 1, broken.request);
      const refusals: Array<[string, RegExp]> = [
        [`${sandbox.baseUrl}/v1/other`, /has no command for \/v1\/other/],
        [`${base}?start_date=2026-03-01`, /only one of start_date and end_date/],
        [`${base}/abc?x=1`, /no query parameters with one record/],
        [`${base}/%zz`, /% that starts no valid escape/],
        [`${base}/2026-02-30`, /reads as a date to the CLI but is no real one/],
        [`${base}/%20abc`, /starts or ends with a space/],
      ];
      for (const [url, why] of refusals) {
        assert.throws(
          () => codeSnippet(dataRequest(url), { language: 'cli', presentation: DEFAULT_PRESENTATION, authUrl: sandbox.authUrl }),
          (e: unknown) => e instanceof HealthDataError && e.kind === 'usage' && why.test(e.message) && /Copy it as cURL instead\.$/.test(e.message),
          url,
        );
      }
      const other = { mode: 'query', parameter: 'token' } as const;
      assert.throws(() => codeSnippet(dataRequest(base), { language: 'cli', presentation: other, authUrl: sandbox.authUrl }), /--token-in-query uses access_token/);
    });

    it('hostile ids and sources reach the service as the one value they are, and run nothing', async () => {
      const { client, exchanges } = recording();
      await client.getClientToken();
      const ids = [...HOSTILE_IDS.filter((id) => !/[\u0000]/.test(id) && id === id.trim()), '-rf', '--all'];
      const paths: string[] = [];
      for (const id of ids) {
        await watch.rejects(client.getRecord('bodyFat', id), 'http', /404/);
        paths.push(sandbox.requests[sandbox.requests.length - 1].path);
      }
      for (const source of [...HOSTILE_IDS.filter((v) => v.trim() === v && !/[\u0000]/.test(v)), '-rf', '--all']) await client.list('activity', { source, limit: 1, all: false });
      const data = exchanges.filter((e) => e.purpose === 'data');
      for (const exchange of data) {
        const made = snippet(requestOfExchange(exchange, DEFAULT_PRESENTATION), 'cli');
        assert.ok(!/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202e]/.test(made.text), `a raw control character in ${made.request}`);
        assert.equal(made.request.split('\n').length, 1, `one line: ${made.request}`);
        const before = sandbox.requests.length;
        const run = await runProgram('bash', ['-c', `${made.prelude}\n${made.request}`], { PATH: `${cliFolder}:${process.env.PATH}`, ...credentials() });
        const gets = sandbox.requests.slice(before).filter((r) => r.method === 'GET');
        const sent = gets.map((r) => decodeURIComponent(r.path));
        // A list: its source as the client sent it (a source with no records has the CLI ask once
        // more without it, to name the sources there are).
        if (exchange.endpoint === 'list') assert.equal(gets[0].query.source, new URL(exchange.url).searchParams.get('source'), made.request);
        else {
          assert.equal(run.code, 1, `${made.request}: ${run.stderr}`);
          // The get exchanges come first, one per id.
          assert.deepEqual(sent, [decodeURIComponent(paths[data.indexOf(exchange)])], made.request);
        }
      }
      assert.equal(existsSync(marker), false, 'a command ran code it was given as a value');
    });

    it('the token settings as the CLI\'s options; the live token in HEALTH_DATA_ACCESS_TOKEN, only when asked', async () => {
      const custom = await sandboxWith({ tokenHeader: { name: 'X-Health-Token', scheme: '' } });
      try {
        const presentation: TokenPresentation = { mode: 'header', headerName: 'X-Health-Token', scheme: '' };
        const { client, last } = recording(presentation, custom);
        await client.list('bodyFat', { limit: 3, all: false });
        const made = codeSnippet(requestOfExchange(last(), presentation), { language: 'cli', presentation, authUrl: custom.authUrl });
        assert.equal(made.request, "health-data list body-fat --limit 3 --auth-header X-Health-Token --auth-scheme ''");
        assert.deepEqual(await runCommand(made, { HEALTH_DATA_CLIENT_ID: custom.clientId, HEALTH_DATA_CLIENT_SECRET: custom.clientSecret }), recordsOf(last().responseBody));
        const query: TokenPresentation = { mode: 'query', parameter: 'access_token' };
        const viaQuery = recording(query);
        await viaQuery.client.getLatest('bodyFat');
        const inQuery = codeSnippet(requestOfExchange(viaQuery.last(), query), { language: 'cli', presentation: query, authUrl: sandbox.authUrl });
        assert.equal(inQuery.request, 'health-data get body-fat --token-in-query');
        assert.deepEqual(await runCommand(inQuery, credentials()), recordsOf(viaQuery.last().responseBody));
        // The live token: exported, quoted, and enough without the client id and secret.
        const live = codeSnippet(requestOfExchange(viaQuery.last(), DEFAULT_PRESENTATION), { language: 'cli', presentation: DEFAULT_PRESENTATION, authUrl: sandbox.authUrl, liveToken: viaQuery.client.currentToken!.token });
        assert.match(live.prelude, /^export HEALTH_DATA_ACCESS_TOKEN='[^']+'$/m);
        assert.match(live.prelude, /treat this like a password/);
        assert.deepEqual(await runCommand(live, {}), recordsOf(viaQuery.last().responseBody));
        const without = snippet(requestOfExchange(viaQuery.last(), DEFAULT_PRESENTATION), 'cli');
        assert.ok(!without.text.includes(viaQuery.client.currentToken!.token) && !without.text.includes('HEALTH_DATA_ACCESS_TOKEN'));
      } finally {
        await custom.close();
      }
    });

    it('a token exchange copies as `health-data token`; another auth address is exported beside the base', async () => {
      const { client, exchanges } = recording();
      await client.mintClientToken();
      const mint = exchanges.find((e) => e.purpose === 'token')!;
      const made = codeSnippet(requestOfExchange(mint, DEFAULT_PRESENTATION), { language: 'cli', presentation: DEFAULT_PRESENTATION, authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl });
      assert.equal(made.request, 'health-data token');
      const out = ran(await runProgram('bash', ['-c', made.text], { PATH: `${cliFolder}:${process.env.PATH}`, ...credentials() }), 'token');
      assert.match(out, /Client token minted\./);
      const elsewhere = codeSnippet(dataRequest(`${sandbox.baseUrl}/v1/human/body_fat`), { language: 'cli', presentation: DEFAULT_PRESENTATION, authUrl: 'https://auth.example/' });
      assert.match(elsewhere.prelude, /^export HEALTH_DATA_AUTH_URL='https:\/\/auth\.example'$/m);
    });
  });

  it('quotes every code unit so the literal reads back as the same string', () => {
    const nasty = `'"\\\`$\n\r\t\u0000\u2028\u2029\u202e\ud800🙂é`;
    assert.equal(eval(jsString(nasty)), nasty);
    assert.ok(/^'[\x20-\x7e]*'$/.test(jsString(nasty)));
    assert.ok(/^'[\x20-\x7e]*'$/.test(pythonString(nasty)));
  });
});

function fakeExchange(url: string, requestHeaders: Record<string, string>): Exchange {
  return {
    id: 'x-test',
    startedAt: new Date(0).toISOString(),
    purpose: 'data',
    method: 'GET',
    url,
    requestHeaders,
    responseHeaders: {},
    durationMs: 1,
    attempts: [],
    endpoint: 'getById',
  };
}
