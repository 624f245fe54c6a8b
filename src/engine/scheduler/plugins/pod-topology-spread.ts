/**
 * PodTopologySpread Filter (pkg/scheduler/framework/plugins/podtopologyspread, filtering.go), for the
 * `whenUnsatisfiable: DoNotSchedule` constraints of the incoming pod.
 *
 * PreFilter counts, per constraint and topology value, the pods in the pod's namespace that match the
 * selector and are not being deleted, over the nodes that carry every constraint's topology key and pass
 * the inclusion policies (nodeAffinityPolicy default Honor = the pod's nodeSelector / required node
 * affinity; nodeTaintsPolicy default Ignore). Filter: a node without the key →
 * `node(s) didn't match pod topology spread constraints (missing required label)`
 * (UnschedulableAndUnresolvable); `count(domain) + selfMatch − globalMin > maxSkew` →
 * `node(s) didn't match pod topology spread constraints` (Unschedulable). With fewer eligible domains
 * than `minDomains` the global minimum is 0.
 */
import type { Pod, TopologySpreadConstraint } from '../../../k8s/objects.ts';
import { stateKey, type CycleState, type StateData } from '../cycle-state.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import { compileLabelSelector, type LabelMatcher, type Labels } from '../label-selectors.ts';
import type { NodeInfo, PodEntry } from '../node-info.ts';
import { OK, unresolvable, unschedulable, type PluginStatus, type PreFilterOutcome } from '../plugin-status.ts';
import { matchesRequiredNodeAffinity, readRequiredNodeAffinity, type NodeAffinityState } from './node-affinity.ts';
import { findUntoleratedTaint } from './taint-toleration.ts';

export const NAME = 'PodTopologySpread';
export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
export const ERR_REASON_NODE_LABEL_NOT_MATCH = `${ERR_REASON_CONSTRAINTS_NOT_MATCH} (missing required label)`;

export interface SpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  minDomains: number;
  selector: LabelMatcher;
  honorNodeAffinity: boolean;
  honorNodeTaints: boolean;
}

/** What PreFilter stores; addPod / removePod update the counts of a clone. */
export class TopologySpreadState implements StateData {
  constructor(
    readonly constraints: SpreadConstraint[],
    /** Per constraint: topology value → number of matching pods (TpValueToMatchNum). */
    readonly counts: Array<Map<string, number>>,
    readonly requiredAffinity: NodeAffinityState | null,
    readonly namespace: string,
  ) {}

  clone(): TopologySpreadState {
    return new TopologySpreadState(
      this.constraints,
      this.counts.map((m) => new Map(m)),
      this.requiredAffinity,
      this.namespace,
    );
  }
}

const PRE_FILTER_STATE_KEY = stateKey<TopologySpreadState>(`PreFilter${NAME}`);

/** The selector with `matchLabelKeys` merged in (the API server does this at creation since 1.34). */
function constraintSelector(c: TopologySpreadConstraint, podLabels: Labels): LabelMatcher {
  const keys = c.matchLabelKeys ?? [];
  if (!c.labelSelector || keys.length === 0) return compileLabelSelector(c.labelSelector);
  const extra = keys
    .filter((k) => Object.hasOwn(podLabels, k))
    .map((k) => ({ key: k, operator: 'In', values: [podLabels[k]!] }));
  return compileLabelSelector({
    ...c.labelSelector,
    matchExpressions: [...(c.labelSelector.matchExpressions ?? []), ...extra],
  });
}

export function compileConstraints(pod: Pod): SpreadConstraint[] {
  const labels = pod.metadata.labels ?? {};
  return (pod.spec.topologySpreadConstraints ?? [])
    .filter((c) => c.whenUnsatisfiable === 'DoNotSchedule')
    .map((c) => ({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      minDomains: c.minDomains ?? 1,
      selector: constraintSelector(c, labels),
      honorNodeAffinity: (c.nodeAffinityPolicy ?? 'Honor') === 'Honor',
      honorNodeTaints: (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor',
    }));
}

function hasAllTopologyKeys(labels: Labels, constraints: readonly SpreadConstraint[]): boolean {
  return constraints.every((c) => Object.hasOwn(labels, c.topologyKey));
}

/** matchNodeInclusionPolicies. */
function nodeIncluded(c: SpreadConstraint, pod: Pod, node: NodeInfo, affinity: NodeAffinityState | null): boolean {
  if (c.honorNodeAffinity && !matchesRequiredNodeAffinity(affinity, node)) return false;
  if (c.honorNodeTaints && findUntoleratedTaint(node.taints, pod.spec.tolerations ?? [])) return false;
  return true;
}

function preFilter(state: CycleState): PreFilterOutcome {
  const constraints = compileConstraints(state.pod);
  if (constraints.length === 0) return {};
  const namespace = state.pod.metadata.namespace ?? '';
  const affinity = readRequiredNodeAffinity(state.pod);
  const counts = constraints.map(() => new Map<string, number>());
  for (const name of state.index.nodeNames()) {
    const node = state.index.get(name)!;
    if (!hasAllTopologyKeys(node.labels, constraints)) continue;
    constraints.forEach((c, i) => {
      if (!nodeIncluded(c, state.pod, node, affinity)) return;
      let n = 0;
      for (const p of node.pods.values()) if (!p.terminating && p.namespace === namespace && c.selector(p.labels)) n++;
      const value = node.labels[c.topologyKey]!;
      counts[i]!.set(value, (counts[i]!.get(value) ?? 0) + n);
    });
  }
  state.write(PRE_FILTER_STATE_KEY, new TopologySpreadState(constraints, counts, affinity, namespace));
  return {};
}

/** PreFilterExtensions.AddPod / RemovePod (used by preemption): keep the counts in step with the node. */
function updateWithPod(state: CycleState, p: PodEntry, node: NodeInfo, delta: 1 | -1): void {
  const s = state.read(PRE_FILTER_STATE_KEY);
  if (!s || p.namespace !== s.namespace || !hasAllTopologyKeys(node.labels, s.constraints)) return;
  s.constraints.forEach((c, i) => {
    if (!c.selector(p.labels) || !nodeIncluded(c, state.pod, node, s.requiredAffinity)) return;
    const value = node.labels[c.topologyKey]!;
    s.counts[i]!.set(value, (s.counts[i]!.get(value) ?? 0) + delta);
  });
}

/** preFilterState.minMatchNum: the global minimum, or 0 with fewer domains than minDomains. */
function minMatchNum(counts: Map<string, number>, minDomains: number): number {
  if (counts.size < minDomains) return 0;
  let min = Number.MAX_SAFE_INTEGER;
  for (const v of counts.values()) if (v < min) min = v;
  return min;
}

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  const pod = state.pod;
  const s = state.read(PRE_FILTER_STATE_KEY);
  if (!s) return OK;
  const podLabels = pod.metadata.labels ?? {};
  for (let i = 0; i < s.constraints.length; i++) {
    const c = s.constraints[i]!;
    if (!Object.hasOwn(node.labels, c.topologyKey)) return unresolvable(NAME, ERR_REASON_NODE_LABEL_NOT_MATCH);
    const value = node.labels[c.topologyKey]!;
    const selfMatch = c.selector(podLabels) ? 1 : 0;
    const matchNum = s.counts[i]!.get(value) ?? 0;
    const skew = matchNum + selfMatch - minMatchNum(s.counts[i]!, c.minDomains);
    if (skew > c.maxSkew) return unschedulable(NAME, ERR_REASON_CONSTRAINTS_NOT_MATCH);
  }
  return OK;
}

export const PodTopologySpread: SchedulerPlugin = {
  name: NAME,
  preFilter,
  filter,
  addPod: (state, p, node) => updateWithPod(state, p, node, 1),
  removePod: (state, p, node) => updateWithPod(state, p, node, -1),
};
