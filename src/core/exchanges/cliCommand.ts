// Copy as code, as a `health-data` command: a request as the CLI sends it, for a script or a CI
// job. The CLI mints its own token from HEALTH_DATA_CLIENT_ID and HEALTH_DATA_CLIENT_SECRET; the
// snippet exports the service's addresses first. A query parameter the CLI has no option for is
// named in a comment above the command, never dropped without a word; a request the CLI cannot
// make at all is refused with the reason.

import { isCalendarDate } from '../dates';
import { HealthDataError } from '../errors';
import { DATE_SEGMENT, ResourceDefinition, resource } from '../resources';
import { endpointOf } from '../service/exchange';
import { MAX_PAGE_SIZE, TokenPresentation } from '../service/client';
import { splitUrl } from '../service/transport';
import { isSinceValue } from '../service/requestTargets';
import { shellArg, shellQuote } from './quoting';
import type { CodeRequest, Snippet, SnippetOptions } from './snippetTypes';

/** The environment variable the CLI takes a token from for its data calls. */
const CLI_ACCESS_TOKEN_VARIABLE = 'HEALTH_DATA_ACCESS_TOKEN';

/** A list's query parameters by the CLI's options, in the order the command writes them. */
const LIST_OPTIONS: readonly (readonly [param: string, option: string, carried: (value: string) => boolean])[] = [
  ['start_date', '--from', isCalendarDate],
  ['end_date', '--to', isCalendarDate],
  ['source', '--source', (v) => v.trim() !== '' && v === v.trim()],
  ['limit', '--limit', (v) => /^[1-9]\d{0,2}$/.test(v) && Number(v) <= MAX_PAGE_SIZE],
  ['offset', '--offset', (v) => /^(0|[1-9]\d{0,14})$/.test(v)],
  ['updated_since', '--updated-since', (v) => v === v.trim() && isSinceValue(v)],
  ['created_since', '--created-since', (v) => v === v.trim() && isSinceValue(v)],
  ['humanId', '--human', (v) => v.trim() !== '' && v === v.trim()],
];

const refuse = (why: string): never => {
  throw new HealthDataError('usage', `This request cannot be copied as a health-data command: ${why} Copy it as cURL instead.`);
};

/** The snippet of `request` as an exported address or two and one `health-data` command. */
export function cliSnippet(request: CodeRequest, options: SnippetOptions): Snippet {
  const url = partsOf(request.url);
  const exported: string[] = [];
  const notes: string[] = [];
  let command: string;
  let base: string;
  let notCarried: string[] = [];
  if (request.purpose === 'token') {
    // The mint itself: the CLI's `token` mints from the auth address.
    base = options.baseUrl ?? `${url.origin}${url.pathname.replace(/\/v1\/admin\/token\/?$/, '')}`;
    command = 'health-data token';
  } else {
    const made = dataCommand(url);
    base = `${url.origin}${made.prefix}`;
    command = `${made.command}${tokenOptions(options.presentation)}`;
    notCarried = made.notCarried;
    if (made.notCarried.length > 0) {
      // Raw pairs of the printable URL: no space or line break can end the comment early.
      notes.push(`# Not carried over (the CLI has no option for them): ${made.notCarried.join(' ')}`);
    }
  }
  exported.push(`export HEALTH_DATA_BASE_URL=${shellQuote(base)}`);
  const auth = options.authUrl.replace(/\/+$/, '');
  if (auth !== base.replace(/\/+$/, '')) exported.push(`export HEALTH_DATA_AUTH_URL=${shellQuote(auth)}`);
  const live = request.purpose === 'data' && options.liveToken !== undefined && options.liveToken !== '' ? options.liveToken : undefined;
  const prelude = [
    live === undefined
      ? '# health-data (npm link, or node dist/cli.js) mints its token from $HEALTH_DATA_CLIENT_ID and $HEALTH_DATA_CLIENT_SECRET.'
      : `# The live token is in ${CLI_ACCESS_TOKEN_VARIABLE}: treat this like a password.`,
    ...exported,
    ...(live === undefined ? [] : [`export ${CLI_ACCESS_TOKEN_VARIABLE}=${shellQuote(live)}`]),
  ].join('\n');
  const requestText = [...notes, command].join('\n');
  return { language: 'cli', text: `${prelude}\n\n${requestText}\n`, prelude, request: requestText, notCarried };
}

/** `get` or `list` of the data request at `url`, where the service's paths start (`prefix`), and the parameters left out. */
function dataCommand(url: SplitUrl): { command: string; prefix: string; notCarried: string[] } {
  const path = url.pathname;
  const { endpoint, resource: kind } = endpointOf('GET', path);
  if (kind === undefined || endpoint === 'other' || endpoint === 'token') return refuse(`the CLI has no command for ${shortPath(path)}.`);
  const def = resource(kind);
  const query = url.search.length > 1 ? url.search.slice(1).split('&').filter(Boolean) : [];
  if (endpoint === 'list') {
    const notCarried: string[] = [];
    const parts = [`health-data list ${def.cliName}`];
    const seen = new Map<string, string[]>();
    for (const pair of query) {
      const eq = pair.indexOf('=');
      const name = decodeOrRefuse(eq < 0 ? pair : pair.slice(0, eq));
      seen.set(name, [...(seen.get(name) ?? []), pair]);
    }
    for (const [param, option, carried] of LIST_OPTIONS) {
      const pairs = seen.get(param);
      if (pairs === undefined) continue;
      seen.delete(param);
      const value = pairs.length === 1 ? decodeOrRefuse(pairs[0].slice(pairs[0].indexOf('=') + 1).replace(/\+/g, ' ')) : undefined;
      if (value !== undefined && carried(value)) parts.push(optionWord(option, value));
      else notCarried.push(...pairs);
    }
    // The CLI sends both dates or neither.
    const dated = parts.filter((p) => /^--(from|to)[ =]/.test(p)).length;
    if (dated === 1) return refuse('it has only one of start_date and end_date, and the CLI sends both or neither.');
    for (const pairs of seen.values()) notCarried.push(...pairs);
    return { command: parts.join(' '), prefix: path.slice(0, path.length - def.listPath.length), notCarried };
  }
  if (query.length > 0) return refuse(`the CLI sends no query parameters with one record (${shortPath(url.search)}).`);
  if (endpoint === 'getLatest') return { command: `health-data get ${def.cliName}`, prefix: path.slice(0, path.length - def.latestPath!.length), notCarried: [] };
  const at = path.indexOf(`${def.itemPath}/`);
  const key = decodeOrRefuse(path.slice(at + def.itemPath.length + 1));
  return { command: `health-data get ${def.cliName} ${recordKey(def, key)}`, prefix: path.slice(0, at), notCarried: [] };
}

/** An id or date as `get` takes it: quoted when needed, after `--` when it starts like an option. */
function recordKey(def: ResourceDefinition, key: string): string {
  if (key === '' || key !== key.trim()) return refuse('its id is empty or starts or ends with a space, which the CLI takes off.');
  if (def.byDate && DATE_SEGMENT.test(key) && !isCalendarDate(key)) return refuse(`${key} reads as a date to the CLI but is no real one.`);
  return key.startsWith('-') ? `-- ${shellArg(key)}` : plainOrQuoted(key);
}

/** The CLI's options for the token settings, when they are not its defaults (Authorization: Bearer). */
function tokenOptions(presentation: TokenPresentation): string {
  if (presentation.mode === 'query') {
    if (presentation.parameter !== 'access_token') return refuse(`the token goes in the query parameter ${presentation.parameter}, and the CLI's --token-in-query uses access_token.`);
    return ' --token-in-query';
  }
  let out = '';
  if (presentation.headerName.toLowerCase() !== 'authorization') out += ` ${optionWord('--auth-header', presentation.headerName)}`;
  if (presentation.scheme !== 'Bearer') out += ` ${presentation.scheme === '' ? "--auth-scheme ''" : optionWord('--auth-scheme', presentation.scheme)}`;
  return out;
}

function decodeOrRefuse(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return refuse('its URL holds a % that starts no valid escape.');
  }
}

/** An option and its value; after `=` when the value starts with a dash, which the CLI would take for another option. */
function optionWord(option: string, value: string): string {
  return value.startsWith('-') ? `${option}=${shellArg(value)}` : `${option} ${plainOrQuoted(value)}`;
}

/** A word a shell reads as itself, bare; anything else quoted (shellArg). */
function plainOrQuoted(text: string): string {
  return /^[A-Za-z0-9_.:@%+=,/-]+$/.test(text) && !text.startsWith('-') ? text : shellArg(text);
}

interface SplitUrl {
  /** `http://host:port` */
  readonly origin: string;
  readonly pathname: string;
  /** `?a=1&b=2`, or ''. */
  readonly search: string;
}

/**
 * A printable URL's parts as written (the transport's splitUrl: not parsed by URL, which would
 * read an encoded `%2E%2E` id as a `..` segment), and its scheme, host and port before them.
 */
function partsOf(url: string): SplitUrl {
  const { path, query } = splitUrl(url);
  const authority = url.indexOf('://') + 3;
  const end = url.slice(authority).search(/[/?#]/);
  return { origin: end < 0 ? url : url.slice(0, authority + end), pathname: path, search: query };
}

const shortPath = (text: string): string => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
