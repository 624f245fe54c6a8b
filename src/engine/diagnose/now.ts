/**
 * `now` of a finding (docs/contract.md): its subject replayed against the state as it is — `passes`
 * when it would be admitted and scheduled today, `fails` when it would not, `unknown` when the state
 * lacks what the answer needs. This is the one place that decides it: verification (engine/fixes/)
 * asks the same question of a changed state, and what could not be read is plugged in through
 * `NowInputs` (an unread layer turns a verdict that depends on it into `unknown`).
 */
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { SimOptions, SimResult } from '../simulate.ts';
import { goalNow, type FixSubject } from './goal.ts';

export type NowVerdict = 'passes' | 'fails' | 'unknown';

/** The layers of the path whose inputs the source could not read (LimitRanges, quotas, nodes/pods). */
export type ReadLayer = 'limitrange' | 'quota' | 'scheduler';

export interface NowInputs {
  /** Layers whose inputs were not (completely) read: a verdict that needs one is `unknown`. */
  unread?: ReadonlySet<ReadLayer>;
}

/** Whether a finding of this layer has a subject the engine can replay (not a runtime or look-alike one). */
export function replayable(layer: string): boolean {
  return layer === 'api-validation' || layer === 'limitrange' || layer === 'quota' || layer === 'scheduler';
}

/**
 * The verdict of one replay. A refusal stands when the layer that refused and those before it were read
 * (a pod refused by a full `pods` quota is refused whatever the nodes hold); an admission that may have
 * missed an unread layer, and any scheduling verdict without the nodes and pods, is `unknown`.
 */
export function nowOfReplay(r: SimResult | undefined, inputs: NowInputs = {}): NowVerdict {
  if (!r) return 'unknown';
  const unread = inputs.unread ?? new Set<ReadLayer>();
  if (!r.admission.allowed) {
    const at = r.admission.layer;
    if (at === 'limitrange' && unread.has('limitrange')) return 'unknown';
    if (at === 'quota' && (unread.has('quota') || unread.has('limitrange'))) return 'unknown';
    return 'fails';
  }
  if (unread.has('limitrange') || unread.has('quota')) return 'unknown';
  if (!r.scheduling) return 'passes';
  if (unread.has('scheduler')) return 'unknown';
  return r.scheduling.scheduled ? 'passes' : 'fails';
}

/**
 * `now` of a finding: the replay decides what the unread inputs leave undecided; a workload or a bare
 * Pod of the state is then judged by its goal with the controllers run once over the state as it is
 * (a Deployment scaled but not yet reconciled is reconciled), a stand-in by its replay alone.
 */
export function findingNow(
  state: Snapshot,
  subject: FixSubject,
  replay: SimResult | undefined,
  opts: SimOptions,
  inputs: NowInputs = {},
): NowVerdict {
  const verdict = nowOfReplay(replay, inputs);
  if (verdict === 'unknown') return verdict;
  return goalNow(state, subject, opts, replay).reached ? 'passes' : 'fails';
}
