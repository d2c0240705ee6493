// The sandbox serving recordings (`health-data sandbox --replay a.har b.har`): the recorded
// records instead of generated ones, exact replies for recorded single-record requests, and 404s
// that name the recordings for anything they do not hold.

import { localDateOf } from '../core/dates';
import { ReplayData, replayKey, RecordedReply } from '../core/recording';
import { RESOURCES, ResourceDefinition, ResourceKind } from '../core/resources';
import type { RecordBase } from '../core/types';
import type { SandboxContext } from './context';
import type { Dataset } from './data';
import type { Exchange } from './http';
import type { ListQuery } from './query';

/** The dataset a replay serves: the recorded records; humans in the order they were met. */
export function replayDataset(replay: ReplayData): Dataset {
  const dataset = { humans: replay.humans.length ? [...replay.humans] : ['no-human-recorded'] } as Dataset;
  for (const { kind } of RESOURCES) (dataset as unknown as Record<ResourceKind, unknown[]>)[kind] = [...replay.records[kind]];
  return dataset;
}

const recordingNames = (replay: ReplayData): string => replay.sources.join(', ');

/** `message`, saying that the recordings do not hold it when the sandbox replays. */
export function notRecorded(ctx: SandboxContext, message: string): string {
  return ctx.replay ? `${message}: not in the recording ${recordingNames(ctx.replay)}` : message;
}

export function recordedReply(ctx: SandboxContext, ex: Exchange): RecordedReply | undefined {
  return ctx.replay?.replies.get(replayKey(ex.path, ex.url.searchParams));
}

/**
 * Why a replay cannot answer a list: the recordings hold no such list, or the date range asked
 * for lies outside the dates they hold. Undefined when it can (an empty page is an answer).
 */
export function replayListProblem(ctx: SandboxContext, def: ResourceDefinition, query: ListQuery): string | undefined {
  const replay = ctx.replay;
  if (!replay) return undefined;
  const all = ctx.store.list(def.kind, {}) as readonly RecordBase[];
  if (all.length === 0) return `No ${def.label.toLowerCase()} were recorded in ${recordingNames(replay)}`;
  if (query.startDate !== undefined && query.endDate !== undefined) {
    const newest = localDateOf(all[0], def.kind) ?? '';
    const oldest = localDateOf(all[all.length - 1], def.kind) ?? '';
    if (query.endDate < oldest || query.startDate > newest) {
      return `${query.startDate} to ${query.endDate} is outside the ${def.label.toLowerCase()} recorded in ${recordingNames(replay)} (${oldest} to ${newest})`;
    }
  }
  return undefined;
}
