// Copy as code: an exchange (or a request the CLI would send) as a cURL command, a JavaScript
// `fetch` or a Python `requests` call that a developer pastes into a terminal or their own code,
// or as a `health-data` command (cliCommand.ts) for a script or a CI job.
// The token is an environment variable minted from the client id and secret in the environment,
// unless the caller passes the live token on purpose; the secret is never written.

import { HealthDataError } from '../errors';
import type { Exchange, TokenPresentation } from '../service';
import { cliSnippet } from './cliCommand';
import { isPlainShellText, jsString, pythonString, shellQuote } from './quoting';
import type { CodeRequest, Snippet, SnippetLanguage, SnippetOptions } from './snippetTypes';

export const SNIPPET_LANGUAGES: readonly { readonly language: SnippetLanguage; readonly label: string }[] = [
  { language: 'curl', label: 'cURL' },
  { language: 'fetch', label: 'JavaScript / TypeScript fetch' },
  { language: 'python', label: 'Python requests' },
  { language: 'cli', label: 'health-data CLI' },
];

/** The environment variables a snippet reads. */
export const TOKEN_VARIABLE = 'HEALTH_DATA_TOKEN';
export const CLIENT_ID_VARIABLE = 'HEALTH_DATA_CLIENT_ID';
export const CLIENT_SECRET_VARIABLE = 'HEALTH_DATA_CLIENT_SECRET';

/** The path of the token endpoint under `{auth_url}` (service.md 5.1). */
export const TOKEN_PATH = '/v1/admin/token';


const REDACTED = '[redacted]';
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers a snippet leaves to its HTTP library. */
const LIBRARY_HEADERS = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'user-agent', 'transfer-encoding']);

/**
 * An absolute http(s) URL as printable ASCII: anything else percent-encoded as UTF-8 (a lone
 * surrogate as U+FFFD). Not parsed and re-serialised, which would turn an encoded `%2E%2E` id into
 * a `..` segment and collapse it.
 */
export function printableUrl(url: string, what = 'URL'): string {
  if (!/^https?:\/\/[^/?#\s]/i.test(url)) throw new HealthDataError('usage', `The ${what} is not an http:// or https:// address, so it cannot be copied as code.`);
  let out = '';
  for (const ch of url) {
    const code = ch.codePointAt(0) ?? 0;
    if (code > 0x20 && code < 0x7f) out += ch;
    else if (code >= 0xd800 && code <= 0xdfff) out += '%EF%BF%BD';
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** The URL without the token's query parameter (redacted in an exchange, or named by the settings). */
function withoutTokenParam(url: string, presentation: TokenPresentation): string {
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const q = base.indexOf('?');
  if (q < 0) return base;
  const tokenParam = presentation.mode === 'query' ? presentation.parameter : 'access_token';
  const kept = base
    .slice(q + 1)
    .split('&')
    .filter((pair) => {
      if (!pair) return false;
      const [name, value = ''] = pair.split('=');
      return name !== tokenParam && name !== 'access_token' && !value.includes(REDACTED) && !value.includes('%5Bredacted%5D');
    });
  return kept.length ? `${base.slice(0, q)}?${kept.join('&')}` : base.slice(0, q);
}

/** An exchange as the request a snippet sends: the token's header and parameter taken out. */
export function requestOfExchange(exchange: Exchange, presentation: TokenPresentation): CodeRequest {
  const purpose = exchange.purpose === 'token' || exchange.method === 'POST' ? 'token' : 'data';
  if (exchange.method !== 'GET' && exchange.method !== 'POST') throw new HealthDataError('usage', 'Only GET and POST exchanges can be copied as code.');
  const url = printableUrl(withoutTokenParam(String(exchange.url ?? ''), presentation));
  if (purpose === 'token') return { purpose, method: 'POST', url, headers: MINT_HEADERS };
  const tokenHeader = presentation.mode === 'header' ? presentation.headerName.toLowerCase() : undefined;
  const headers: (readonly [string, string])[] = [];
  for (const [name, value] of Object.entries(exchange.requestHeaders ?? {})) {
    const lower = name.toLowerCase();
    if (lower === tokenHeader || lower === 'authorization' || LIBRARY_HEADERS.has(lower) || String(value).includes(REDACTED)) continue;
    headers.push(checkedHeader(name, String(value)));
  }
  return { purpose, method: 'GET', url, headers };
}

/** A data GET as the client would send it (the CLI's `--curl`, which sends nothing). */
export function dataRequest(url: string): CodeRequest {
  return { purpose: 'data', method: 'GET', url: printableUrl(url), headers: [['Accept', 'application/json']] };
}

function checkedHeader(name: string, value: string): readonly [string, string] {
  if (!HEADER_NAME.test(name)) throw new HealthDataError('usage', 'A request header has a name HTTP does not allow, so the exchange cannot be copied as code.');
  if (/[\u0000-\u001f\u007f]/.test(value)) throw new HealthDataError('usage', `The request header ${name} holds a control character, which no HTTP request can carry.`);
  return [name, value];
}

const MINT_HEADERS: readonly (readonly [string, string])[] = [
  ['Content-Type', 'application/json'],
  ['Cache-Control', 'no-cache'],
];

/** The snippet of a request in one language. */
export function codeSnippet(request: CodeRequest, options: SnippetOptions): Snippet {
  if (options.language === 'cli') return cliSnippet(request, options);
  const mintUrl = request.purpose === 'token' ? request.url : `${printableUrl(options.authUrl.replace(/\/+$/, ''), 'token address')}${TOKEN_PATH}`;
  const live = request.purpose === 'data' && options.liveToken !== undefined && options.liveToken !== '' ? options.liveToken : undefined;
  const writer = WRITERS[options.language];
  if (!writer) throw new HealthDataError('usage', `There is no snippet language "${String(options.language).slice(0, 30)}": use curl, fetch, python or cli.`);
  const prelude = writer.prelude;
  const mint = live === undefined ? writer.mint(mintUrl) : undefined;
  const requestText = request.purpose === 'token' ? '' : writer.request(request, options.presentation, live);
  const text = `${[prelude, mint, requestText].filter((part) => part).join('\n\n')}\n`;
  return { language: options.language, text, prelude, mint, request: requestText };
}

interface Writer {
  readonly prelude: string;
  mint(url: string): string;
  request(request: CodeRequest, presentation: TokenPresentation, liveToken: string | undefined): string;
}

/** How the token reads in a language: the variable, or the live token as a literal. */
type TokenText = (liveToken: string | undefined) => string;

/** The token's header value: its scheme (from the settings, quoted like any value), then the token. */
function schemePrefix(presentation: TokenPresentation): string {
  return presentation.mode === 'header' && presentation.scheme ? `${presentation.scheme} ` : '';
}

const curlWriter: Writer = {
  prelude: '',
  mint: (url) =>
    [
      `# Mint a client token from $${CLIENT_ID_VARIABLE} and $${CLIENT_SECRET_VARIABLE} (needs curl and jq).`,
      `export ${TOKEN_VARIABLE}="$(curl -sS -X POST ${shellQuote(url)} \\`,
      ...MINT_HEADERS.map(([name, value]) => `  -H ${shellQuote(`${name}: ${value}`)} \\`),
      `  --data "$(jq -n --arg id "$${CLIENT_ID_VARIABLE}" --arg secret "$${CLIENT_SECRET_VARIABLE}" '{type: "client", client_id: $id, client_secret: $secret}')" \\`,
      `  | jq -r .client_token)"`,
    ].join('\n'),
  request: (request, presentation, liveToken) => {
    const token: TokenText = (live) => (live === undefined ? `"$${TOKEN_VARIABLE}"` : shellQuote(live));
    let url = shellQuote(request.url);
    const lines: string[] = [];
    if (presentation.mode === 'query') {
      url = `${shellQuote(`${request.url}${request.url.includes('?') ? '&' : '?'}${encodeURIComponent(presentation.parameter)}=`)}${token(liveToken)}`;
    }
    lines.push(`curl -sS ${url}`);
    for (const [name, value] of request.headers) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
    if (presentation.mode === 'header') {
      const prefix = `${presentation.headerName}: ${schemePrefix(presentation)}`;
      // Plain text reads best inside the double quotes that carry the variable.
      lines.push(liveToken === undefined && isPlainShellText(prefix) ? `  -H "${prefix}$${TOKEN_VARIABLE}"` : `  -H ${shellQuote(prefix)}${token(liveToken)}`);
    }
    return lines.join(' \\\n');
  },
};

const fetchWriter: Writer = {
  prelude: '',
  mint: (url) =>
    [
      `// Mint a client token from ${CLIENT_ID_VARIABLE} and ${CLIENT_SECRET_VARIABLE}.`,
      `const mint = await fetch(${jsString(url)}, {`,
      `  method: 'POST',`,
      `  headers: { ${MINT_HEADERS.map(([n, v]) => `${jsString(n)}: ${jsString(v)}`).join(', ')} },`,
      `  body: JSON.stringify({`,
      `    type: 'client',`,
      `    client_id: process.env.${CLIENT_ID_VARIABLE},`,
      `    client_secret: process.env.${CLIENT_SECRET_VARIABLE},`,
      `  }),`,
      `});`,
      'if (!mint.ok) throw new Error(`Token request failed: ${mint.status} ${await mint.text()}`);',
      `process.env.${TOKEN_VARIABLE} = (await mint.json()).client_token;`,
    ].join('\n'),
  request: (request, presentation, liveToken) => {
    const token = liveToken === undefined ? `process.env.${TOKEN_VARIABLE}` : jsString(liveToken);
    let url = jsString(request.url);
    if (presentation.mode === 'query') {
      const joiner = request.url.includes('?') ? '&' : '?';
      url = `${jsString(`${request.url}${joiner}${encodeURIComponent(presentation.parameter)}=`)} + encodeURIComponent(${liveToken === undefined ? `${token} ?? ''` : token})`;
    }
    const headers = request.headers.map(([n, v]) => `    ${jsString(n)}: ${jsString(v)},`);
    if (presentation.mode === 'header') {
      const prefix = schemePrefix(presentation);
      headers.push(`    ${jsString(presentation.headerName)}: ${prefix ? `${jsString(prefix)} + ` : ''}${token},`);
    }
    return [
      `const response = await fetch(${url}, {`,
      `  headers: {`,
      ...headers,
      `  },`,
      `});`,
      `console.error(response.status, response.statusText);`,
      `console.log(await response.text());`,
    ].join('\n');
  },
};

const pythonWriter: Writer = {
  prelude: 'import os\nimport sys\n\nimport requests',
  mint: (url) =>
    [
      `# Mint a client token from ${CLIENT_ID_VARIABLE} and ${CLIENT_SECRET_VARIABLE}.`,
      `mint = requests.post(`,
      `    ${pythonString(url)},`,
      `    headers={${MINT_HEADERS.map(([n, v]) => `${pythonString(n)}: ${pythonString(v)}`).join(', ')}},`,
      `    json={`,
      `        'type': 'client',`,
      `        'client_id': os.environ['${CLIENT_ID_VARIABLE}'],`,
      `        'client_secret': os.environ['${CLIENT_SECRET_VARIABLE}'],`,
      `    },`,
      `    timeout=30,`,
      `)`,
      `mint.raise_for_status()`,
      `os.environ['${TOKEN_VARIABLE}'] = mint.json()['client_token']`,
    ].join('\n'),
  request: (request, presentation, liveToken) => {
    const token = liveToken === undefined ? `os.environ['${TOKEN_VARIABLE}']` : pythonString(liveToken);
    const headers = request.headers.map(([n, v]) => `        ${pythonString(n)}: ${pythonString(v)},`);
    if (presentation.mode === 'header') {
      const prefix = schemePrefix(presentation);
      headers.push(`        ${pythonString(presentation.headerName)}: ${prefix ? `${pythonString(prefix)} + ` : ''}${token},`);
    }
    const lines = [`response = requests.get(`, `    ${pythonString(request.url)},`, `    headers={`, ...headers, `    },`];
    if (presentation.mode === 'query') lines.push(`    params={${pythonString(presentation.parameter)}: ${token}},`);
    lines.push(`    timeout=30,`, `)`, `print(response.status_code, response.reason, file=sys.stderr)`, `print(response.text)`);
    return lines.join('\n');
  },
};

const WRITERS: Readonly<Record<Exclude<SnippetLanguage, 'cli'>, Writer>> = { curl: curlWriter, fetch: fetchWriter, python: pythonWriter };
