// The ids of the request commands, from the resource table as requests/commands.ts registers them:
// activation registers them before the requests feature is loaded (shared/lazyFeature.ts).
import { RESOURCES } from '../../core/resources';

export function requestCommandIds(): string[] {
  return RESOURCES.flatMap((def) => {
    const prefix = `healthData.${def.kind}`;
    return [...(def.byDate ? [`${prefix}.getByDate`] : []), `${prefix}.getById`, ...(def.latestPath ? [`${prefix}.getLatest`] : []), `${prefix}.list`];
  });
}
