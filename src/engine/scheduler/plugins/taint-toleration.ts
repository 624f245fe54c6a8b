/**
 * TaintToleration Filter (pkg/scheduler/framework/plugins/tainttoleration): the first taint of the node
 * with effect NoSchedule or NoExecute that no toleration tolerates rejects the pod,
 * UnschedulableAndUnresolvable. PreferNoSchedule only affects scoring.
 *
 * Wording by version (docs/kubernetes-semantics.md §6.7): ≥1.34.2 `node(s) had untolerated taint(s)` (PR #134740 hides
 * the key/value); 1.24–1.34.1 `node(s) had untolerated taint {<key>: <value>}`; ≤1.23
 * `node(s) had taint {<key>: <value>}, that the pod didn't tolerate`.
 */
import type { Taint, Toleration } from '../../../k8s/objects.ts';
import type { CycleState } from '../cycle-state.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import type { NodeInfo } from '../node-info.ts';
import { OK, unresolvable, type PluginStatus } from '../plugin-status.ts';
import type { SchedulerProfile } from '../version.ts';

export const NAME = 'TaintToleration';
export const ERR_REASON_UNTOLERATED = 'node(s) had untolerated taint(s)';

/** v1.Toleration.ToleratesTaint: effect and key must match when set; Exists ignores the value. */
export function toleratesTaint(t: Toleration, taint: { key: string; value?: string | null; effect: string }): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function isTaintTolerated(tolerations: readonly Toleration[], taint: Taint): boolean {
  return tolerations.some((t) => toleratesTaint(t, taint));
}

/** v1helper.FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc (NoSchedule, NoExecute). */
export function findUntoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[]): Taint | null {
  for (const taint of taints) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!isTaintTolerated(tolerations, taint)) return taint;
  }
  return null;
}

export function formatTaintReason(taint: Taint, profile: SchedulerProfile): string {
  const kv = `{${taint.key}: ${taint.value ?? ''}}`;
  switch (profile.taintMessage) {
    case 'hidden':
      return ERR_REASON_UNTOLERATED;
    case 'untolerated':
      return `node(s) had untolerated taint ${kv}`;
    case 'legacy':
      return `node(s) had taint ${kv}, that the pod didn't tolerate`;
  }
}

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  const pod = state.pod;
  if (node.taints.length === 0) return OK;
  const taint = findUntoleratedTaint(node.taints, pod.spec.tolerations ?? []);
  if (!taint) return OK;
  return unresolvable(NAME, formatTaintReason(taint, state.profile));
}

export const TaintToleration: SchedulerPlugin = { name: NAME, filter };
