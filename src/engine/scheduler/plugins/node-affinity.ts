/**
 * NodeAffinity (pkg/scheduler/framework/plugins/nodeaffinity): `spec.nodeSelector` AND the required
 * node affinity terms (ORed). Filter reason `node(s) didn't match Pod's node affinity/selector`,
 * UnschedulableAndUnresolvable.
 *
 * PreFilter (as upstream): when every term pins `metadata.name` with `In` (DaemonSet pods do), only the
 * union of those names is evaluated and the other nodes are "absent" with
 * `node(s) didn't satisfy plugin(s) [NodeAffinity]`; if the terms pin names whose intersection is empty
 * the pod is rejected outright with `pod affinity terms conflict`.
 */
import type { NodeSelectorTerm, Pod } from '../../../k8s/objects.ts';
import { stateKey, type CycleState, type StateData } from '../cycle-state.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import { matchesNodeSelectorTerms, type SelectableNode } from '../label-selectors.ts';
import type { NodeInfo } from '../node-info.ts';
import { OK, unresolvable, type PluginStatus, type PreFilterOutcome } from '../plugin-status.ts';

export const NAME = 'NodeAffinity';
export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
export const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

export interface NodeAffinityState {
  nodeSelector: Readonly<Record<string, string>> | null;
  /** null = no required node affinity. */
  terms: readonly NodeSelectorTerm[] | null;
}

/** What PreFilter stores: the pod's required node affinity (immutable, shared by clones). */
class PreFilterState implements StateData {
  constructor(readonly required: NodeAffinityState) {}
  clone(): PreFilterState {
    return this;
  }
}

const PRE_FILTER_STATE_KEY = stateKey<PreFilterState>(`PreFilter${NAME}`);

/** nodeaffinity.GetRequiredNodeAffinity(pod). Null when the pod constrains nothing. */
export function readRequiredNodeAffinity(pod: Pod): NodeAffinityState | null {
  const sel = pod.spec.nodeSelector;
  const nodeSelector = sel && Object.keys(sel).length > 0 ? sel : null;
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  // Upstream GetRequiredNodeAffinity keys on the NodeSelector object, not its terms: a present
  // `requiredDuringScheduling…` with nil or empty `nodeSelectorTerms` matches no node
  // (node_affinity_test.go "Pod with a nil []NodeSelectorTerm in affinity, can't match …").
  const terms = required ? (required.nodeSelectorTerms ?? []) : null;
  if (!nodeSelector && !terms) return null;
  return { nodeSelector, terms };
}

/** RequiredNodeAffinity.Match. */
export function matchesRequiredNodeAffinity(state: NodeAffinityState | null, node: SelectableNode): boolean {
  if (!state) return true;
  if (state.nodeSelector) {
    for (const [k, v] of Object.entries(state.nodeSelector)) if (node.labels[k] !== v) return false;
  }
  if (state.terms) return matchesNodeSelectorTerms(state.terms, node);
  return true;
}

function intersect(a: Set<string> | null, b: Set<string>): Set<string> {
  if (a === null) return b;
  const out = new Set<string>();
  for (const x of a) if (b.has(x)) out.add(x);
  return out;
}

/** PreFilter: the node-name narrowing of upstream `PreFilter` (metadata.name `In` in every term). */
function preFilter(state: CycleState): PreFilterOutcome {
  const required = readRequiredNodeAffinity(state.pod);
  if (required) state.write(PRE_FILTER_STATE_KEY, new PreFilterState(required));
  const terms = required?.terms;
  if (!terms) return {};
  let nodeNames: Set<string> | null = null;
  for (const t of terms) {
    let termNames: Set<string> | null = null;
    for (const r of t.matchFields ?? []) {
      if (r.key !== 'metadata.name' || r.operator !== 'In') continue;
      // Requirements in a term are ANDed: intersect.
      termNames = intersect(termNames, new Set(r.values ?? []));
    }
    // A term without a name pin lets every node through (terms are ORed).
    if (termNames === null) return {};
    // Upstream checks each term inside the loop: a term whose name pins intersect to nothing rejects
    // the pod with errReasonConflict, even if another (earlier or later) term pins a real node.
    if (termNames.size === 0) return { status: unresolvable(NAME, ERR_REASON_CONFLICT) };
    nodeNames = nodeNames === null ? termNames : new Set([...nodeNames, ...termNames]);
  }
  if (nodeNames !== null) return { nodeNames };
  return {};
}

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  const s = state.read(PRE_FILTER_STATE_KEY);
  if (!s) return OK;
  if (matchesRequiredNodeAffinity(s.required, node)) return OK;
  return unresolvable(NAME, ERR_REASON_POD);
}

export const NodeAffinity: SchedulerPlugin = { name: NAME, preFilter, filter };
