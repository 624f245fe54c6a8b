/**
 * Which kube-scheduler release the engine imitates. Only user-visible differences are modelled
 * (docs/kubernetes-semantics.md §0.3 and §6.7): message wording, the FitError punctuation, and the two behaviour
 * changes that alter messages (NodeResourcesFit "unresolvable" since 1.34, DRA PostFilter since 1.34).
 */
import { compareVersions, parseVersion } from '../version.ts';

export interface ProfileOptions {
  /** Kubernetes version to imitate, e.g. "1.35", "1.34.1", "1.27". Default "1.35". */
  k8sVersion?: string;
  /** DynamicResources plugin enabled (GA and on by default since 1.34). Default: true for ≥ 1.34. */
  draEnabled?: boolean;
  /** Filter every node even once enough feasible ones were found (headroom needs the full picture). */
  evaluateAllNodes?: boolean;
}

/** The version-dependent switches, resolved once per scheduling attempt. */
export interface SchedulerProfile {
  version: readonly [number, number, number];
  draEnabled: boolean;
  /** ≥1.34.2: `node(s) had untolerated taint(s)` (PR #134740, backported to 1.34.2). */
  taintMessage: 'hidden' | 'untolerated' | 'legacy';
  /** ≥1.34: NodeResourcesFit is UnschedulableAndUnresolvable when the request exceeds allocatable (PR #131345). */
  fitUnresolvable: boolean;
  /** ≥1.33: `node(s) didn't match PersistentVolume's node affinity` (PR #129887). */
  pvAffinityMessage: 'new' | 'old';
  /** PostFilter text: ≥1.28 appended as " <msg>"; 1.24–1.27 as " <msg>." (PR #117588); ≤1.23 not shown. */
  postFilterFormat: 'plain' | 'dotted' | 'absent';
  /** PreFilter rejection: ≥1.25 ` <msg>.` without counts; ≤1.24 counted per node like a filter reason. */
  preFilterCounted: boolean;
  /** ≤1.21: InterPodAffinity also adds `node(s) didn't match pod affinity/anti-affinity`. */
  interPodGenericReason: boolean;
}

export function resolveProfile(opts: ProfileOptions = {}): SchedulerProfile {
  const v = parseVersion(opts.k8sVersion);
  const atLeast = (major: number, minor: number, patch = 0) => compareVersions(v, [major, minor, patch]) >= 0;
  return {
    version: v,
    draEnabled: opts.draEnabled ?? atLeast(1, 34),
    taintMessage: atLeast(1, 34, 2) ? 'hidden' : atLeast(1, 24) ? 'untolerated' : 'legacy',
    fitUnresolvable: atLeast(1, 34),
    pvAffinityMessage: atLeast(1, 33) ? 'new' : 'old',
    postFilterFormat: atLeast(1, 28) ? 'plain' : atLeast(1, 24) ? 'dotted' : 'absent',
    preFilterCounted: !atLeast(1, 25),
    interPodGenericReason: !atLeast(1, 22),
  };
}
