/**
 * Per-attempt state shared by the plugins, as kube-scheduler's framework.CycleState
 * (pkg/scheduler/framework/cycle_state.go): the incoming pod projected once, its resolved priority, the
 * version profile, and a keyed store where each plugin keeps what its PreFilter computed
 * (`write(key, data)` / `read(key)`). The framework never knows what a plugin stores: `clone()` copies
 * the store through each entry's own `clone()`, so preemption and nominated pods can update a copy
 * (the plugins' addPod / removePod) without touching the original.
 */
import type { Pod } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { NodeInfoIndex, PodEntry } from './node-info.ts';
import type { SchedulerProfile } from './version.ts';

/** framework.StateData: what a plugin stores in the cycle state. */
export interface StateData {
  /** A copy that later updates of either side do not reach (immutable data may return itself). */
  clone(): StateData;
}

/** framework.StateKey, typed: the key carries the type of the data stored under it. */
export interface StateKey<T extends StateData> {
  readonly name: string;
  /** Type only: never set. */
  readonly type?: T;
}

/** A new key; each plugin makes its own (usually `stateKey('PreFilter' + NAME)`, as upstream). */
export function stateKey<T extends StateData>(name: string): StateKey<T> {
  return Object.freeze({ name });
}

export interface CycleStateInit {
  readonly pod: Pod;
  readonly entry: PodEntry;
  readonly priority: number;
  readonly preemptionPolicy: string;
  readonly profile: SchedulerProfile;
  readonly snapshot: Snapshot;
  readonly index: NodeInfoIndex;
}

export class CycleState implements CycleStateInit {
  readonly pod: Pod;
  /** The incoming pod projected with spec resources only (no status resources: it is not running). */
  readonly entry: PodEntry;
  /** Resolved priority (spec.priority, else its PriorityClass, else the global default, else 0). */
  readonly priority: number;
  readonly preemptionPolicy: string;
  readonly profile: SchedulerProfile;
  readonly snapshot: Snapshot;
  readonly index: NodeInfoIndex;
  readonly #data: Map<StateKey<StateData>, StateData>;

  constructor(init: CycleStateInit, data: Map<StateKey<StateData>, StateData> = new Map()) {
    this.pod = init.pod;
    this.entry = init.entry;
    this.priority = init.priority;
    this.preemptionPolicy = init.preemptionPolicy;
    this.profile = init.profile;
    this.snapshot = init.snapshot;
    this.index = init.index;
    this.#data = data;
  }

  /** CycleState.Read: the data stored under the key, or undefined. */
  read<T extends StateData>(key: StateKey<T>): T | undefined {
    // Only write() stores under a key, with the key's own type.
    return this.#data.get(key) as T | undefined;
  }

  /** CycleState.Write. */
  write<T extends StateData>(key: StateKey<T>, data: T): void {
    this.#data.set(key, data);
  }

  /** CycleState.Delete. */
  delete(key: StateKey<StateData>): void {
    this.#data.delete(key);
  }

  /** CycleState.Clone: every entry through its own clone(). */
  clone(): CycleState {
    const data = new Map<StateKey<StateData>, StateData>();
    for (const [k, v] of this.#data) data.set(k, v.clone());
    return new CycleState(this, data);
  }
}
