// The option parser's complaints (node:util parseArgs) in the CLI's own words: the option named
// as the user typed it, the command's nearest option when the typed one is a slip away from it,
// and the commands an option belongs to when it was given to another one.

import { andList, printable } from './output';

/** A command's options as parseArgs takes them. */
export type OptionTable = Readonly<Record<string, { readonly type: 'string' | 'boolean' }>>;

/** How far a typed option name may be from a real one (edits) to be offered as what was meant. */
const MAX_SLIP = 2;

/**
 * The message for a parseArgs error of `command` (whose options are `commands[command]`, given
 * `args`); the parser's own message, trimmed, for an error it does not recognise.
 */
export function argsProblem(err: unknown, command: string, commands: Readonly<Record<string, OptionTable>>, args: readonly string[] = []): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  const quoted = /'([^']*)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && quoted !== undefined) return unknownOption(quoted, command, commands);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && quoted !== undefined) {
    // `-h, --help` or `--out <value>`: the long name.
    const name = /--[A-Za-z0-9-]+/.exec(quoted)?.[0];
    if (name !== undefined) {
      if (/argument missing/.test(message)) return `${name} needs a value.`;
      if (/ambiguous/.test(message)) {
        // `--offset -1`: a number, not an option; it goes after an equals sign, as it is.
        const at = args.indexOf(name);
        const next = at >= 0 ? args[at + 1] : undefined;
        if (next !== undefined && /^-\d[\d.]*$/.test(next)) return `${name} ${next}: a value that starts with a dash goes after an equals sign: ${name}=${next}.`;
        return `${name} needs a value, and what follows it is another option. A value that starts with a dash goes after an equals sign: ${name}=-value.`;
      }
      if (/does not take an argument/.test(message)) return `${name} takes no value: give it alone.`;
    }
  }
  return message.replace(/\. To specify a positional.*$/s, '.');
}

function unknownOption(typed: string, command: string, commands: Readonly<Record<string, OptionTable>>): string {
  const shown = printable(typed, 40);
  const start = `Unknown option ${shown} for ${command}`;
  if (!typed.startsWith('--')) return `${start}.`;
  const name = typed.slice(2);
  const near = nearest(name, Object.keys(commands[command] ?? {}));
  if (near !== undefined) return `${start}: did you mean --${near}?`;
  const owners = Object.keys(commands).filter((c) => c !== command && Object.prototype.hasOwnProperty.call(commands[c], name));
  if (owners.length > 0) return `${start}: it is an option of ${andList(owners)}.`;
  return `${start}.`;
}

/** The option `typed` most likely meant: one it starts (3 letters or more), else the fewest edits away, at most MAX_SLIP. */
function nearest(typed: string, names: readonly string[]): string | undefined {
  if (typed.length >= 3) {
    const extended = names.filter((n) => n.startsWith(typed));
    if (extended.length === 1) return extended[0];
  }
  let best: string | undefined;
  let bestDistance = MAX_SLIP + 1;
  for (const n of names) {
    const d = editDistance(typed, n, bestDistance);
    if (d < bestDistance) {
      best = n;
      bestDistance = d;
    }
  }
  // One edit from a two-letter name is any two-letter word: offer it only past that.
  return best !== undefined && bestDistance < Math.min(typed.length, best.length) ? best : undefined;
}

/** Levenshtein distance of two short words; `limit` or more once it is known to reach it. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) >= limit) return limit;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      const d = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      next.push(d);
      if (d < least) least = d;
    }
    if (least >= limit) return limit;
    row = next;
  }
  return Math.min(row[b.length], limit);
}
