/**
 * The CLI's `simulate` / `check` and `quota --json` go through here, so cli/ stays argv → answer → render.
 */
import { simResultsToJson as engineJson } from '../engine/simulate.ts';
import { redactDeep } from './redact.ts';

export { simulate } from '../engine/simulate.ts';

/** The JSON of simulated objects, as it leaves for output: Secret data and env values redacted (./redact.ts). */
export function simResultsToJson(out: Parameters<typeof engineJson>[0]): ReturnType<typeof engineJson> {
  return redactDeep(engineJson(out));
}
export { headroomJson, type Headroom } from '../engine/headroom.ts';
