// Where a record panel's data came from, and what its host (RecordViews) gives it: kept apart from
// the panel itself, which loads on the first record opened (dist/recordPanel.js), while this is
// needed at activation (the serializer, a restored insights panel).

import type * as vscode from 'vscode';
import { textField, RecordSource } from '../../core/views';
import { ResourceKind, resource } from '../../core/resources';
import type { Session } from '../account/session';
import type { Environment } from '../account/environments';

export interface PanelHost {
  readonly extensionUri: vscode.Uri;
  readonly session: Session;
  /** The panel closed: forget it (a RecordPanel, known here by its key alone). */
  closed(panel: { readonly key: string }): void;
  /** The exchange whose reply held this record, when the history knows it. */
  producerOf(kind: ResourceKind | undefined, record: unknown): string | undefined;
  /** The records of a kind the Records view has loaded, to compare a record's zeros with; undefined when none are. */
  recordsToCompare(kind: ResourceKind): LoadedRecordsOfKind | undefined;
}

/** The Records view's records, which a record's zeros are compared with, and when they change. */
export interface LoadedRecordsSource {
  of(kind: ResourceKind): LoadedRecordsOfKind | undefined;
  readonly onDidChange: vscode.Event<ResourceKind | undefined>;
}

/** The records of one kind the Records view holds for its filters, and where they come from. */
export interface LoadedRecordsOfKind {
  readonly records: readonly unknown[];
  /** The environment they were loaded from. */
  readonly environment: string | undefined;
  /** The environment and the filters, as the Records view says them: `Local sandbox · the last 30 days (…) · all sources`. */
  readonly scope: string;
}

/** How a record can be fetched again: its id, else its date, else (body fat) the latest. */
export function sourceOf(kind: ResourceKind | undefined, record: unknown): RecordSource {
  const id = textField(record, 'id');
  if (id !== undefined && id.trim() !== '') return { id };
  const date = textField(record, 'date');
  if (kind && resource(kind).byDate && date) return { date };
  return {};
}

/** The data host of an address (`api.example.com`, `127.0.0.1:8787`), or the address itself. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** The environment a record comes from, as a panel keeps it. */
export function originOf(env: Environment | undefined): Pick<RecordSource, 'environment' | 'host'> {
  return env ? { environment: env.name, host: hostOf(env.baseUrl) } : {};
}

/** What Re-fetch (or a restored insights panel) must settle first when the panel's environment is not the one in use. */
export type OriginProblem =
  | { readonly type: 'inactive'; readonly active: Environment | undefined }
  | { readonly type: 'gone'; readonly active: Environment | undefined }
  | { readonly type: 'moved'; readonly active: Environment; readonly host: string };

/** Why the environment in use is not `origin` (where a panel's data came from), if it is not. */
export function originProblem(session: Session, origin: Pick<RecordSource, 'environment' | 'host'>): OriginProblem | undefined {
  const { environment, host } = origin;
  if (environment === undefined) return undefined;
  const active = session.active;
  if (!session.environments.some((e) => e.name === environment)) return { type: 'gone', active };
  if (active?.name !== environment) return { type: 'inactive', active };
  // The sandbox takes a new port at each start and serves the same data: still the same service.
  const now = hostOf(active.baseUrl);
  if (host !== undefined && now !== host && active.origin !== 'sandbox') return { type: 'moved', active, host: now };
  return undefined;
}

/** A payload opened as it is (a file, a reply): its name, and no record of it to look up in the history. */
export interface PayloadOrigin {
  /** What the payload is called in the panel's title (a file name, `GET /v1/…`). */
  readonly name: string;
}

