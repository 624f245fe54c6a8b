/**
 * A pasted error replayed on the state as it is: the pod it is about (located or stood in for) is taken
 * out of the state when it is there, then run again through admission and the scheduler.
 */
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import type { Pod } from '../../k8s/objects.ts';
import { simulate, type SimOptions, type SimResult } from '../simulate.ts';
import { releasePod } from '../release.ts';
import { nodeInfoIndex } from '../scheduler/node-info.ts';

export interface Replay {
  /** The state the pod was replayed on (without the pod itself when it was there). */
  base: Snapshot;
  /** The pod as submitted again: in `ns`, without node, status, uid or resourceVersion. */
  submitted: Pod;
  /** What happens to the pod now. */
  now: SimResult;
  /** The pod as the API server stores it (LimitRange defaults filled in): what quota and the scheduler count. */
  admitted: KObject & Pod;
}

/** The object simulate stored for a pod: a Pod. */
function isPod(o: KObject): o is KObject & Pod {
  return o.kind === 'Pod' && typeof o.spec === 'object' && o.spec !== null;
}

/**
 * Replays `pod` in `ns`: `existing` says the state holds it (it is released first, so it does not count
 * against itself). Undefined when simulate returns no result for a Pod.
 */
export function replayPod(
  state: Snapshot,
  pod: Pod,
  existing: boolean,
  ns: string,
  opts: SimOptions,
): Replay | undefined {
  nodeInfoIndex(state);
  const base = existing ? releasePod(state.fork(), pod) : state;
  const fresh = {
    ...pod,
    metadata: { ...pod.metadata, namespace: ns, resourceVersion: undefined, uid: undefined },
    spec: { ...pod.spec, nodeName: undefined },
    status: undefined,
  } satisfies Pod;
  const now = simulate(base, [fresh], opts).results.at(-1);
  if (!now || !isPod(now.object)) return undefined;
  return { base, submitted: fresh, now, admitted: now.object };
}
