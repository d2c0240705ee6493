// `health-data run FILE`: the saved requests of a file the extension exported (Export Saved
// Requests…), or the requests of an .http file or a Postman collection that the service serves,
// sent again through this environment's connection, one after another, each reply validated, a
// verdict per request in text, JSON or JUnit XML; exit 1 when any failed. A smoke test of an
// integration for CI, written in the editor.

import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HealthDataError } from '../core/errors';
import { type FailOn, parseFailOn } from '../core/reports/failOn';
import { type Exchange } from '../core/service';
import {
  HistoryEntry,
  MAX_SAVED_FILE_BYTES,
  SavedRunResult,
  foreignAsSaved,
  foreignFormatOf,
  readForeignRequests,
  readSavedRequestsFile,
  resultLines,
  runJson,
  runJunit,
  runSavedRequest,
  savedNamed,
  uncheckedText,
  sendDraft,
} from '../core/workbench';
import type { Connection } from './connection';
import { FileTargetError, checkWriteTarget, whyNotReadAfterName, whyNotWritten } from './fileTargets';
import { Output, paint, printable } from './output';

export const RUN_FORMATS = ['text', 'json', 'junit'] as const;
export type RunFormat = (typeof RUN_FORMATS)[number];

export interface RunFlags {
  readonly json?: boolean;
  readonly format?: string;
  readonly out?: string;
  readonly only?: string[];
  readonly 'fail-on'?: string[];
}

/** What `run` checked before connecting: the requests to send, how to report them. */
export interface RunPlan {
  readonly file: string;
  readonly requests: HistoryEntry[];
  /** Requests of an .http file or a Postman collection that are none of the service's, each a line saying why. */
  readonly skipped: readonly string[];
  /** Requests of an .http file with httpYac assertions the run does not check, each a line saying which. */
  readonly unchecked: readonly string[];
  readonly format: RunFormat;
  readonly failOn: FailOn;
  readonly out?: string;
}

/**
 * Reads the file and checks every flag, so a wrong file or flag is named before the address or
 * the credentials are asked for.
 */
export function runPlanOf(positionals: readonly string[], flags: RunFlags): RunPlan {
  if (positionals.length === 0) throw new HealthDataError('usage', 'Name the file of saved requests to run (Export Saved Requests… in the extension writes one).');
  if (positionals.length > 1) throw new HealthDataError('usage', `run takes one file of saved requests, not ${positionals.length}: ${positionals.slice(1).join(' ').slice(0, 60)}`);
  const format = flags.json ? 'json' : (flags.format ?? 'text');
  if (flags.json && flags.format !== undefined && flags.format !== 'json') throw new HealthDataError('usage', `--json and --format ${printable(flags.format, 20)} disagree: give one.`);
  if (!(RUN_FORMATS as readonly string[]).includes(format)) throw new HealthDataError('usage', `--format for run is text, json or junit, not "${printable(format, 20)}".`);
  let failOn: FailOn;
  try {
    failOn = parseFailOn(flags['fail-on']);
  } catch (err) {
    throw new HealthDataError('usage', err instanceof Error ? err.message : String(err));
  }
  const file = positionals[0];
  if (flags.out !== undefined) {
    if (resolve(flags.out) === resolve(file)) throw new FileTargetError(`--out ${printable(flags.out, 80)} is the file of saved requests: write the report elsewhere.`);
    checkWriteTarget('--out', flags.out);
  }
  const name = printable(file, 80);
  let text: string;
  try {
    const stat = statSync(file);
    if (stat.isFile() && stat.size > MAX_SAVED_FILE_BYTES) throw new FileTargetError(`${name} is ${(stat.size / 1024 / 1024).toFixed(1)} MB: a file of saved requests is never that large, so it was not read.`);
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch (err) {
    if (err instanceof HealthDataError) throw err;
    if (err instanceof TypeError) throw new FileTargetError(`${name} is not UTF-8 text, so it is not a file of saved requests.`);
    throw new FileTargetError(`${name} ${whyNotReadAfterName(err)}.`);
  }
  let requests: HistoryEntry[];
  const skipped: string[] = [];
  const notChecked = new Map<HistoryEntry, string>();
  try {
    const format = foreignFormatOf(file, text);
    if (format) {
      // Another tool's requests: those the service serves, each under its name; the others named.
      requests = [];
      for (const [i, request] of readForeignRequests(format, text).entries()) {
        const entry = foreignAsSaved(request, i);
        const unchecked = uncheckedText(request);
        if (entry && unchecked) notChecked.set(entry, `"${printable(request.name, 60)}": ${unchecked}`);
        if (entry) requests.push(entry);
        else skipped.push(`skipped "${printable(request.name, 60)}": ${request.read.problem ?? ''}`);
      }
    } else ({ requests } = readSavedRequestsFile(text));
  } catch (err) {
    throw new FileTargetError(`${name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (requests.length === 0) throw new FileTargetError(`${name} holds no ${skipped.length ? 'request the service serves' : 'saved request'}: nothing to run.${skipped.length ? ` ${skipped[0]}` : ''}`);
  if (flags.only?.length) {
    const named = savedNamed(requests, flags.only);
    if (named.missing !== undefined) {
      const names = requests.map((r) => `"${r.savedAs}"`);
      throw new HealthDataError('usage', `--only "${printable(named.missing, 60)}": ${name} has no saved request of that name (it has ${names.slice(0, 8).join(', ')}${names.length > 8 ? `, and ${names.length - 8} more` : ''}).`);
    }
    requests = named.requests;
  }
  const unchecked = requests.flatMap((r) => notChecked.get(r) ?? []);
  return { file, requests, skipped, unchecked, format: format as RunFormat, failOn, ...(flags.out !== undefined ? { out: flags.out } : {}) };
}

/** Sends the plan's requests one after another; prints each verdict (text) or the report; 1 when any failed. */
export async function runCommand(conn: Connection, exchanges: Exchange[], o: Output, plan: RunPlan, signal: AbortSignal): Promise<number> {
  const results: SavedRunResult[] = [];
  const text = plan.format === 'text';
  const lines: string[] = [];
  const say = (line: string): void => {
    if (plan.out !== undefined) lines.push(line);
    else o.out(line);
  };
  for (const line of [...plan.skipped, ...plan.unchecked]) o.err(line);
  for (const entry of plan.requests) {
    if (signal.aborted) break;
    const result = await runSavedRequest(entry, {
      send: (draft, s) => sendDraft(conn.client, draft, s),
      takeExchanges: () => exchanges.splice(0),
      failOn: plan.failOn,
      signal,
      secrets: conn.secrets,
    });
    if (signal.aborted) break;
    results.push(result);
    if (text) {
      const verdict = (word: string) => (result.verdict === 'passed' ? paint(o, 'green', word) : paint(o, ['red', 'bold'], word));
      for (const line of resultLines(result, { verdict, clean: printable })) say(line);
    }
  }
  const failed = results.filter((r) => r.verdict === 'failed').length;
  const count = results.length === 1 ? '1 saved request' : `${results.length} saved requests`;
  const closing = signal.aborted
    ? `Interrupted after ${count} of ${plan.requests.length}: ${results.length - failed} passed, ${failed} failed.`
    : `${count}: ${results.length - failed} passed, ${failed} failed.`;
  let report: string;
  if (plan.format === 'json') report = runJson(results);
  else if (plan.format === 'junit') report = runJunit(plan.file, results);
  else report = `${lines.join('\n')}${lines.length ? '\n' : ''}${closing}\n`;
  if (plan.out !== undefined) {
    try {
      writeFileSync(plan.out, report);
    } catch (err) {
      throw new HealthDataError('usage', `Could not write the report to ${printable(plan.out, 80)}: ${whyNotWritten(err)}`);
    }
    o.err(`${closing} Report: ${printable(plan.out, 80)}`);
  } else if (text) {
    o.out(closing);
  } else {
    o.write(report);
    o.err(closing);
  }
  return failed > 0 || signal.aborted ? 1 : 0;
}
