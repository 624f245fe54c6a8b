import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { simulate, type SimOptions } from '../simulate.ts';

/** Applying manifests is plain `simulate`. */
export function whatIfApply(state: Snapshot, objects: KObject[], opts: SimOptions = {}) {
  return simulate(state, objects, opts);
}
