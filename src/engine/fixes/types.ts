/** What a fix is, in the engine: who makes it, the exact change, and what re-simulation found. */
import type { Pod } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { Change } from '../changes/types.ts';
import type { FixSubject } from '../diagnose/goal.ts';
import type { SimOptions } from '../simulate.ts';

/** Who can make a fix: the team that owns the workload, or the platform team (quotas, nodes). */
export type FixWho = 'app-team' | 'platform';

/** A fix as it is offered (docs/contract.md `fixes[]`): a reply's Fix, field for field. */
export interface VerifiedFix {
  who: FixWho;
  summary: string;
  /** The one exact command; `""` for a change no command makes (a node pool's size). */
  change: string;
  /** After the change and convergence, the incident's subject reaches its goal with no new failure. */
  verified: boolean;
  /** What happened: "admitted, schedules on general-a-1", or why it does not end the incident. */
  outcome: string;
  /** What else changes: pods evicted, other workloads' pods that now fail, pods moving between quotas. */
  sideEffects: string[];
}

/**
 * A fix before verification: the changes it makes (one command each, printed joined by `&&`), who makes
 * it and what it costs, ranked by rank.ts and verified by verify.ts.
 */
export interface Plan {
  who: FixWho;
  summary: string;
  changes: Change[];
  /**
   * Cost within its team, lowest first: 0 costs no running capacity (a Pending replica, an idle
   * cordoned node), 1 changes what the workload asks for, 2 takes capacity from running pods or raises a
   * limit, 3 adds a node.
   */
  cost: number;
  /**
   * Stops running pods of a workload of higher priority than the subject, or of another team: ranked
   * after every fix that does not (verification also finds such victims, and says who pays).
   */
  harm?: boolean;
  /** Tolerating a taint: offered after everything else. */
  last?: boolean;
  /**
   * Tried when this plan does not verify, instead of it (not with it): the same change a step further
   * (make room: one more replica of the same workload). The first of a chain that verifies is offered.
   */
  orElse?: Plan;
  /** No follow-ups are combined with it when it does not verify (its orElse chain is its next step). */
  alone?: boolean;
  /** The fix people try first: when it does not work it is shown, with the reason. */
  obvious?: boolean;
  /** What else it changes, known before convergence (pods that move between quotas). */
  sideEffects?: string[];
  /**
   * The subject's pod as the plan makes it (for combinations, and replayed instead of the subject's own
   * pod when the subject is not in the state: a stand-in for the pasted object).
   */
  pod?: Pod;
}

/** What every generator reads: the state as it is, the subject, and its pod before and after defaulting. */
export interface FixContext {
  /** The state as it is (the subject's pod in it when it exists). */
  state: Snapshot;
  /** The state without the subject's own pod: what its pod is measured against when submitted again. */
  base: Snapshot;
  subject: FixSubject;
  /** The pod as submitted (what its owner's template or the paste says). */
  pod: Pod;
  /** The pod as the API server stores it (LimitRange defaults filled in). */
  admitted: Pod;
  ns: string;
  opts: SimOptions;
}
