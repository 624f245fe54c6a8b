/**
 * The CLI's `simulate` / `check` and `quota --json` go through here, so cli/ stays argv → answer → render.
 */
export { simulate, simResultsToJson } from '../engine/simulate.ts';
export { headroomJson, type Headroom } from '../engine/headroom.ts';
