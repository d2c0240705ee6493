// A record's zeros said from the other records of its source that the Records view has loaded,
// and the sentence that says what they were compared with, or why they were not: the record
// view's and the exchange view's (a single record's reply) words, made in one place.

import * as vscode from 'vscode';
import { compareZeros } from '../../core/views';
import { ResourceKind, resource } from '../../core/resources';
import { Finding, truncate } from '../../core/validation';
import type { LoadedRecordsOfKind } from './recordOrigin';

export interface ZerosSaid {
  /** The findings, the zeros reworded when they were compared. */
  readonly findings: readonly Finding[];
  /** What the zeros were compared with, or why not; undefined when there is nothing to say. */
  readonly basis?: string;
}

/**
 * The record's zero findings compared with the Records view's `loaded` records of `kind`, when
 * the record came from (`from`, an environment's name) the environment those were loaded from.
 */
export function zerosFromLoaded(record: unknown, kind: ResourceKind, findings: readonly Finding[], from: string | undefined, loaded: LoadedRecordsOfKind | undefined): ZerosSaid {
  if (!findings.some((f) => f.kind === 'zero') || !loaded || loaded.environment === undefined || from === undefined) return { findings };
  // Another service's records say nothing of this one's sources.
  if (loaded.environment !== from) return { findings, basis: vscode.l10n.t('Zeros not compared: this record came from {0}, and the Records view shows {1}.', from, loaded.environment) };
  const compared = compareZeros(record, findings, loaded.records);
  if (compared.source === undefined) return { findings };
  const source = truncate(compared.source);
  const def = resource(kind);
  const basis =
    compared.compared === 0
      ? vscode.l10n.t('Zeros not compared: the Records view has no other {0} {1} loaded ({2}).', source, def.singular.toLowerCase(), loaded.scope)
      : compared.compared === 1
        ? vscode.l10n.t('Zeros compared with the one other {0} {1} the Records view has loaded ({2}).', source, def.singular.toLowerCase(), loaded.scope)
        : vscode.l10n.t('Zeros compared with the {0} other {1} {2} the Records view has loaded ({3}).', compared.compared, source, def.label.toLowerCase(), loaded.scope);
  return { findings: compared.findings, basis };
}
