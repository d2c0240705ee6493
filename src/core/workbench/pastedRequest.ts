// A request pasted as text, read as one of the service's requests: a cURL command (from the
// service's documentation, a browser's "Copy as cURL", another API tool, or our own Copy as
// Code), a URL, or a request line (`GET https://…`, as `.http` files and our logs write them).
// The words are split as a POSIX shell splits them (quotes, `$'…'`, line continuations, also a
// paste whose line breaks a one-line box removed), then curl's options are read, then the URL is
// matched to an endpoint (draftFromUrl). What the text carried that a draft does not send (its
// token, the client id and secret, other headers, other parameters, a body) is named in notes,
// by name only: a token or a secret is never repeated, and the client adds its own token.

import { HealthDataError } from '../errors';
import { endpointOf } from '../service';
import { type RequestDraft, choiceOf, draftFromUrl, draftTarget, endpointChoices, splitUrl } from './requestDraft';

/** What curl would send, as far as a draft cares. */
export interface PastedCommand {
  readonly method: string;
  readonly url: string;
  readonly headers: readonly (readonly [string, string])[];
  /** The data options' values, joined with `&` as curl joins them. */
  readonly body?: string;
  /** `-u`/`--user` was given (credentials: never kept). */
  readonly user: boolean;
  /** `--oauth2-bearer` was given (a token: never kept). */
  readonly bearer: boolean;
  /** Options that change what curl sends and that a draft cannot carry (`--form`, `--cookie`). */
  readonly dropped: readonly string[];
  /** Options this reader does not know. */
  readonly unknown: readonly string[];
  /** How the text was written. */
  readonly form: 'curl' | 'url' | 'line';
  /** curl commands the text holds (a snippet may mint a token first). */
  readonly commands: number;
}

/** A pasted request read as a draft, or why it cannot be one. */
export interface PastedDraft {
  readonly draft?: RequestDraft;
  /** The method and path with query a draft sends (`GET /v1/…?limit=3`); with a draft only. */
  readonly target?: string;
  /** `scheme://host[:port]` the text addressed, when it gave one. */
  readonly origin?: string;
  readonly form?: PastedCommand['form'];
  /** Why there is no draft. */
  readonly problem?: string;
  /** What was not kept, one sentence each. */
  readonly notes: readonly string[];
}

/** Whether `text` is written like a pasted request (a cURL command, a URL, a request line), before reading it. */
export function looksLikePastedRequest(text: string): boolean {
  const t = text.trimStart();
  return /^(?:curl(?:\.exe)?\s|https?:\/\/\S|\/v1\/|(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\S)/i.test(t) || /(?:^|[\s;&|("`$])curl(?:\.exe)?\s+\S/.test(t);
}

/** Reads a pasted request; a text that is not one gives a `problem`, never an exception. */
export function readPastedRequest(text: string, tokenParams: readonly string[] = [], tokenHeaders: readonly string[] = []): PastedDraft {
  const first = readOnce(text, tokenParams, tokenHeaders);
  if (first.draft || /[\r\n]/.test(text)) return first;
  // A one-line box drops a paste's line breaks, so a comment line swallows the commands after it
  // (a Copy as Code snippet's): read again from each curl, the last first.
  const starts = [...text.matchAll(/[\s;&|(`"$](curl(?:\.exe)?\s)/g)].map((m) => m.index + m[0].length - m[1].length).reverse();
  for (const at of starts.slice(0, 20)) {
    const again = readOnce(text.slice(at), tokenParams, tokenHeaders);
    if (again.draft) return again;
  }
  return first;
}

function readOnce(text: string, tokenParams: readonly string[], tokenHeaders: readonly string[]): PastedDraft {
  let command: PastedCommand;
  try {
    command = pastedCommand(text);
  } catch (err) {
    if (err instanceof HealthDataError) return { problem: err.message, notes: [] };
    throw err;
  }
  return draftOfCommand(command, tokenParams, tokenHeaders);
}

// ---- the words ------------------------------------------------------------------------------

/** The text's commands as a shell splits them: those at the top, and those inside `$(…)`. */
export function shellCommands(text: string): { top: string[][]; nested: string[][] } {
  const nested: string[][] = [];
  const { commands } = lexShell(text, 0, 0, nested);
  return { top: commands, nested };
}

/** Substitutions inside substitutions a text may have (a command has one or two). */
const MAX_DEPTH = 16;

/** The commands from `start`; `depth` > 0 inside `$(…)`, which ends at its `)`. */
function lexShell(text: string, start: number, depth: number, nested: string[][]): { commands: string[][]; end: number } {
  if (depth > MAX_DEPTH) throw new HealthDataError('usage', 'The text nests $(…) too deep to be a command.');
  const inSubstitution = depth > 0;
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  let redirect = false;
  const endWord = (): void => {
    if (!inWord) return;
    if (redirect) redirect = false;
    else words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length) commands.push(words);
    words = [];
  };
  const substitution = (at: number): number => {
    const inner = lexShell(text, at, depth + 1, nested);
    nested.push(...inner.commands);
    word += '$(…)';
    inWord = true;
    return inner.end;
  };
  let i = start;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === ')' && inSubstitution) {
      endCommand();
      return { commands, end: i + 1 };
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
    } else if (c === '\n' || c === ';' || c === '|' || c === '&' || c === '(' || c === ')') {
      endCommand();
      i++;
    } else if (c === '>' || c === '<') {
      // A redirection: its target is no word of the command (`> out.json`, `2>&1`).
      endWord();
      redirect = true;
      i++;
      while (text[i] === '>' || text[i] === '&') i++;
      if (/\d/.test(text[i] ?? '') && !/\S/.test(text[i + 1] ?? ' ')) i++;
    } else if (c === '#' && !inWord) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '\\') {
      if (next === '\n') i += 2;
      else if (next === '\r' && text[i + 2] === '\n') i += 3;
      // A continuation whose line break a one-line box removed (`'…' \  -H …`), or a last `\`.
      else if (!inWord && (next === undefined || next === ' ' || next === '\t')) i++;
      else {
        word += next;
        inWord = true;
        i += 2;
      }
    } else if ((c === '`' || c === '^') && !inWord && (next === undefined || /\s/.test(next))) {
      // PowerShell's and cmd's line continuations.
      i++;
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) throw unclosed("'");
      word += text.slice(i + 1, close);
      inWord = true;
      i = close + 1;
    } else if (c === '$' && next === "'") {
      const read = ansiC(text, i + 2);
      word += read.value;
      inWord = true;
      i = read.end;
    } else if (c === '$' && next === '(') {
      i = substitution(i + 2);
    } else if (c === '"') {
      inWord = true;
      i++;
      for (;;) {
        if (i >= text.length) throw unclosed('"');
        const d = text[i];
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && (text[i + 1] === '\n' || text[i + 1] === '\r')) i += text[i + 1] === '\r' && text[i + 2] === '\n' ? 3 : 2;
        else if (d === '\\' && '$`"\\'.includes(text[i + 1] ?? '')) {
          word += text[i + 1];
          i += 2;
        } else if (d === '$' && text[i + 1] === '(') i = substitution(i + 2);
        else {
          word += d;
          i++;
        }
      }
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inSubstitution) throw unclosed('$(');
  endCommand();
  return { commands, end: i };
}

function unclosed(quote: string): HealthDataError {
  return new HealthDataError('usage', `The text has a ${quote} that is never closed: paste the whole command.`);
}

/** A `$'…'` string from `at` (after the quote): its value and where it ends. */
function ansiC(text: string, at: number): { value: string; end: number } {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
  let value = '';
  let i = at;
  for (;;) {
    if (i >= text.length) throw unclosed("$'");
    const c = text[i];
    if (c === "'") return { value, end: i + 1 };
    if (c !== '\\') {
      value += c;
      i++;
      continue;
    }
    const e = text[i + 1] ?? '';
    if (simple[e] !== undefined) {
      value += simple[e];
      i += 2;
      continue;
    }
    const hex = e === 'x' ? /^[0-9a-fA-F]{1,2}/ : e === 'u' ? /^[0-9a-fA-F]{1,4}/ : e === 'U' ? /^[0-9a-fA-F]{1,8}/ : undefined;
    const digits = hex ? hex.exec(text.slice(i + 2)) : /^[0-7]{1,3}/.exec(text.slice(i + 1));
    if (digits) {
      const code = parseInt(digits[0], hex ? 16 : 8);
      value += code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      i += (hex ? 2 : 1) + digits[0].length;
    } else {
      value += `\\${e}`;
      i += 2;
    }
  }
}

// ---- curl's options -------------------------------------------------------------------------

/** curl's short options that take a value. */
const SHORT_WITH_VALUE = new Set('XHduAebomwxEcTrKFUYyzDQCt'.split(''));
/** curl's long options that take a value (those not read are skipped with their value). */
const LONG_WITH_VALUE = new Set(
  (
    'request header data data-raw data-binary data-ascii data-urlencode json form form-string user url url-query user-agent referer cookie ' +
    'cookie-jar output output-dir max-time connect-timeout write-out proxy proxy-user proxy-header cacert capath cert cert-type key key-type pass ' +
    'upload-file range retry retry-delay retry-max-time config resolve connect-to oauth2-bearer limit-rate max-redirs interface dns-servers ' +
    'dump-header trace trace-ascii stderr aws-sigv4 request-target unix-socket abstract-unix-socket quote continue-at time-cond speed-limit ' +
    'speed-time local-port keepalive-time ciphers tls-max noproxy variable expand-url netrc-file preproxy socks4 socks4a socks5 socks5-hostname ' +
    'happy-eyeballs-timeout-ms hsts alt-svc etag-save etag-compare create-file-mode header-file telnet-option mail-from mail-rcpt login-options ' +
    'sasl-authzid service-name tlsuser tlspassword tls13-ciphers pinnedpubkey crlfile engine random-file egd-file dns-interface dns-ipv4-addr ' +
    'dns-ipv6-addr max-filesize ftp-port ftp-account proto proto-default proto-redir ip-tos vlan-priority'
  ).split(' '),
);
/** What a data option's name is, as `-d`'s: how curl sends its value. */
const DATA_OPTIONS = new Set(['data', 'data-raw', 'data-binary', 'data-ascii', 'data-urlencode', 'json']);
const SHORT_LONG: Record<string, string> = { X: 'request', H: 'header', d: 'data', u: 'user', F: 'form', A: 'user-agent', e: 'referer', b: 'cookie', T: 'upload-file', G: 'get', I: 'head' };
/** Options that change the request and that a draft leaves out. */
const DROPPED = new Set(['form', 'form-string', 'upload-file', 'cookie', 'referer', 'user-agent', 'proxy-header', 'header-file', 'request-target', 'aws-sigv4']);

/** The curl command (or URL, or request line) of a pasted text; throws a usage error saying why there is none. */
export function pastedCommand(text: string): PastedCommand {
  let source = text.trim();
  if (!source) throw new HealthDataError('usage', 'Paste a cURL command, a URL or a request line such as GET https://…/v1/human/activities/summaries.');
  const line = /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(\S+)(?:\s+HTTP\/[\d.]+)?\s*(?:\r?\n|$)/i.exec(source);
  if (line) return { method: line[1].toUpperCase(), url: line[2], headers: [], user: false, bearer: false, dropped: [], unknown: [], form: 'line', commands: 0 };
  if (/^(?:https?:\/\/|\/v1\/)\S*$/i.test(source)) return { method: 'GET', url: source, headers: [], user: false, bearer: false, dropped: [], unknown: [], form: 'url', commands: 0 };
  // Windows cmd's quoting (a browser's "Copy as cURL (cmd)"): `^` escapes the next character.
  if (/\^"/.test(source)) source = source.replace(/\^\r?\n/g, ' ').replace(/\^([\s\S])/g, '$1');
  const { top, nested } = shellCommands(source);
  const isCurl = (words: string[]): boolean => {
    const first = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
    return first >= 0 && /(?:^|[/\\])curl(?:\.exe)?$/i.test(words[first]);
  };
  const atTop = top.filter(isCurl);
  const curls = atTop.length ? atTop : nested.filter(isCurl);
  if (!curls.length) throw new HealthDataError('usage', 'The text holds no curl command, URL or request line.');
  const words = curls[curls.length - 1];
  return { ...curlRequest(words.slice(words.findIndex((w) => /curl(?:\.exe)?$/i.test(w)) + 1)), commands: atTop.length + (atTop.length ? 0 : curls.length) };
}

function curlRequest(args: readonly string[]): Omit<PastedCommand, 'commands'> {
  let method: string | undefined;
  let url: string | undefined;
  let get = false;
  let head = false;
  let user = false;
  let bearer = false;
  const headers: [string, string][] = [];
  const data: string[] = [];
  const urlQuery: string[] = [];
  const dropped = new Set<string>();
  const unknown = new Set<string>();
  let jsonBody = false;
  const take = (name: string, value: string): void => {
    if (name === 'request') method = value.toUpperCase();
    else if (name === 'header') {
      const colon = value.indexOf(':');
      if (colon > 0) headers.push([value.slice(0, colon).trim(), value.slice(colon + 1).trim()]);
    } else if (DATA_OPTIONS.has(name)) {
      data.push(name === 'data-urlencode' ? urlEncodedData(value) : value);
      if (name === 'json') jsonBody = true;
    } else if (name === 'url') url ??= value;
    else if (name === 'url-query') urlQuery.push(urlEncodedData(value));
    else if (name === 'user') user = true;
    else if (name === 'oauth2-bearer') bearer = true;
    else if (DROPPED.has(name)) dropped.add(`--${name}`);
  };
  const flag = (name: string): void => {
    if (name === 'get') get = true;
    else if (name === 'head') head = true;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      for (const rest of args.slice(i + 1)) url ??= rest;
      break;
    }
    if (arg.startsWith('--') && arg.length > 2) {
      const name = arg.slice(2);
      if (LONG_WITH_VALUE.has(name)) take(name, args[++i] ?? '');
      else if (name === 'get' || name === 'head') flag(name);
      else if (!KNOWN_FLAGS.has(name.replace(/^no-/, ''))) unknown.add(arg);
    } else if (arg.startsWith('-') && arg.length > 1) {
      // A cluster of short options (`-sSL`); one that takes a value takes the rest or the next word.
      for (let k = 1; k < arg.length; k++) {
        const letter = arg[k];
        const long = SHORT_LONG[letter] ?? letter;
        if (SHORT_WITH_VALUE.has(letter)) {
          const value = k + 1 < arg.length ? arg.slice(k + 1) : (args[++i] ?? '');
          take(long, value);
          break;
        }
        if (letter === 'G' || letter === 'I') flag(long);
        else if (!KNOWN_SHORT_FLAGS.has(letter)) unknown.add(`-${letter}`);
      }
    } else url ??= arg;
  }
  if (url === undefined) throw new HealthDataError('usage', 'The curl command has no URL.');
  let target = url.trim();
  const query = [...(get ? data : []), ...urlQuery].filter((q) => q);
  if (query.length) target += (target.includes('?') ? '&' : '?') + query.join('&');
  if (jsonBody && !headers.some(([n]) => n.toLowerCase() === 'content-type')) headers.push(['Content-Type', 'application/json']);
  const body = !get && data.length ? data.join('&') : undefined;
  return {
    method: method ?? (head ? 'HEAD' : body !== undefined ? 'POST' : 'GET'),
    url: target,
    headers,
    ...(body !== undefined ? { body } : {}),
    user,
    bearer,
    dropped: [...dropped],
    unknown: [...unknown],
    form: 'curl',
  };
}

/** `--data-urlencode`'s value as curl sends it: `name=content` with the content encoded. */
function urlEncodedData(value: string): string {
  const eq = value.indexOf('=');
  if (value.startsWith('@') || (eq < 0 && value.includes('@'))) return value;
  return eq < 0 ? encodeURIComponent(value) : `${value.slice(0, eq)}${eq > 0 ? '=' : ''}${encodeURIComponent(value.slice(eq + 1))}`;
}

const KNOWN_SHORT_FLAGS = new Set('sSviLkgfN#0123456jnqRZlBMpJO'.split(''));
const KNOWN_FLAGS = new Set(
  (
    'silent show-error verbose include location location-trusted insecure globoff fail fail-with-body fail-early compressed compressed-ssh ' +
    'no-buffer buffer http0.9 http1.0 http1.1 http2 http2-prior-knowledge http3 http3-only tlsv1 tlsv1.0 tlsv1.1 tlsv1.2 tlsv1.3 sslv2 sslv3 ' +
    'ipv4 ipv6 raw tr-encoding path-as-is progress-bar remote-name remote-name-all remote-header-name remote-time netrc netrc-optional ' +
    'list-only append basic digest ntlm negotiate anyauth proxy-basic proxy-digest proxy-ntlm proxy-anyauth proxy-insecure ssl ssl-reqd ' +
    'keepalive sessionid alpn npn styled-output parallel parallel-immediate retry-connrefused retry-all-errors junk-session-cookies ' +
    'create-dirs disable disable-eprt disable-epsv ignore-content-length doh-insecure suppress-connect-headers clobber xattr ' +
    'manual help version trace-time ssl-no-revoke ssl-revoke-best-effort ssl-allow-beast false-start tcp-nodelay tcp-fastopen ' +
    'post301 post302 post303 digest-ie crlf use-ascii location-trusted no-progress-meter write-out-json'
  ).split(' '),
);

// ---- the endpoint -----------------------------------------------------------------------------

const QUIET_HEADERS = new Set(['accept', 'accept-encoding', 'accept-language', 'cache-control', 'connection', 'content-type', 'content-length', 'host', 'pragma', 'user-agent', 'origin', 'referer', 'dnt', 'priority']);

/** A curl command's request as a draft, with notes on what was not kept. */
export function draftOfCommand(command: PastedCommand, tokenParams: readonly string[] = [], tokenHeaders: readonly string[] = []): PastedDraft {
  const notes: string[] = [];
  const url = command.url.trim();
  const origin = /^(https?:\/\/[^/?#\s]+)/i.exec(url)?.[1];
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !/^https?:\/\//i.test(url)) return { problem: `The URL is not an http:// or https:// address.`, notes: [], form: command.form };
  const { path } = splitUrl(url);
  // The method the endpoint takes, when the text asked the right path with another one.
  const right = methodOf(path);
  if (!right) return { problem: notAnEndpoint(command.method, path), notes: [], origin, form: command.form };
  // A command's words, or a request's (a URL, a request line, another tool's file).
  const what = command.form === 'curl' ? 'command' : 'request';
  if (command.method !== right) notes.push(`The endpoint is a ${right}: the ${what}'s ${command.method} is not kept.`);
  const method = right;
  const read = draftFromUrl(method, url, tokenParams);
  if (!read.draft) return { problem: notAnEndpoint(command.method, path), notes: [], origin, form: command.form };
  const draft = read.draft;
  if (command.commands > 1) notes.push(`The text holds ${command.commands} curl commands: the last one is read.`);
  const tokenNames = new Set(['authorization', 'proxy-authorization', ...tokenHeaders.map((h) => h.toLowerCase())]);
  const hadToken = command.bearer || command.headers.some(([n]) => tokenNames.has(n.toLowerCase())) || tokenInQuery(url, tokenParams);
  if (hadToken && draft.endpoint !== 'token') notes.push(`The ${what}'s token is left out: the extension adds its own.`);
  else if (hadToken) notes.push(`The ${what}'s authorization is left out: a token is minted with the environment's client id and stored secret.`);
  if (draft.endpoint === 'token' && (command.user || /client_secret|client_id/i.test(command.body ?? ''))) notes.push(`The client id and secret in the ${what} are left out: a token is minted with the environment's client id and stored secret.`);
  else if (command.user) notes.push('The command\'s user and password (-u) are left out.');
  if (command.body !== undefined && draft.endpoint !== 'token') notes.push(`The ${what}'s body is left out: the endpoint takes none.`);
  const other = [...new Set(command.headers.map(([n]) => n).filter((n) => !tokenNames.has(n.toLowerCase()) && !QUIET_HEADERS.has(n.toLowerCase())))];
  if (other.length) notes.push(`Headers left out (the extension sends its own): ${list(other)}.`);
  if (read.leftOut.length) notes.push(`Parameters the endpoint does not take, left out: ${list(read.leftOut)}.`);
  if (command.dropped.length) notes.push(`curl options left out: ${list(command.dropped)}.`);
  if (command.unknown.length) notes.push(`curl options not read: ${list(command.unknown)}.`);
  const choice = choiceOf(draft);
  return { draft, target: `${choice?.method ?? method} ${draftTarget(draft)}`, origin, form: command.form, notes };
}

const list = (names: readonly string[]): string => {
  const shown = names.slice(0, 6).map((n) => (n.length > 40 ? `${n.slice(0, 39)}…` : n));
  return names.length > shown.length ? `${shown.join(', ')} and ${names.length - shown.length} more` : shown.join(', ');
};

function tokenInQuery(url: string, tokenParams: readonly string[]): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  return url
    .slice(q + 1)
    .split('#')[0]
    .split('&')
    .some((pair) => {
      const name = pair.split('=')[0];
      return name === 'access_token' || tokenParams.includes(name);
    });
}

/** The method of the service's endpoint at `path`; undefined when there is none. */
function methodOf(path: string): 'GET' | 'POST' | undefined {
  if (path.endsWith(choiceOf({ endpoint: 'token' })!.path)) return 'POST';
  return endpointOf('GET', path).endpoint === 'other' ? undefined : 'GET';
}

function notAnEndpoint(method: string, path: string): string {
  const shown = path.length > 80 ? `${path.slice(0, 79)}…` : path;
  const near = nearestEndpoint(path);
  return `${method} ${shown} is not one of the service's endpoints${near ? `: did you mean ${near}?` : '.'}`;
}

/** The endpoint path nearest to `path` (a typo, a missing segment), when one is near enough. */
function nearestEndpoint(path: string): string | undefined {
  const asked = path.replace(/\/+$/, '');
  const last = asked.slice(asked.lastIndexOf('/') + 1);
  let best: { path: string; d: number } | undefined;
  for (const { path: template } of endpointChoices()) {
    // A template's `{id}` is matched by whatever the text has there.
    const d = distance(asked, template.replace(/\{[^}]*\}$/, last));
    if (!best || d < best.d) best = { path: template, d };
  }
  return best && best.d > 0 && best.d <= Math.max(3, Math.floor(best.path.length / 6)) ? best.path : undefined;
}

/** Levenshtein distance, for the few short paths of the service. */
function distance(a: string, b: string): number {
  if (a.length > 200 || b.length > 200) return Number.POSITIVE_INFINITY;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}
