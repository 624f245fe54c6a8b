/** What a fix is, in the engine: who makes it, the exact change, and what re-simulation found. */
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';

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

/** Where the failing pod comes from, so a fix can name the right thing to change. */
export interface PodOrigin {
  /** `deploy/web`, `statefulset/db`, `pod/x` … for kubectl commands. */
  ref?: string;
}

/** A fix before verification: what to change and how to re-simulate it. */
export interface Candidate {
  who: FixWho;
  summary: string;
  change?: string;
  /** The state and object to re-simulate. */
  apply: (state: Snapshot) => { state: Snapshot; object: KObject };
  /** Require scheduling to succeed too (default true). */
  needSchedule?: boolean;
  /**
   * The layer this candidate fixes. When re-simulation then stops at a *later* layer, the candidate is
   * shown as not ending the incident, with the next blocker named.
   */
  fixes?: 'api-validation' | 'limitrange' | 'quota';
  /** What else the change does, known before re-simulation (a LimitRange default moving pods between quotas). */
  sideEffects?: string[];
}
