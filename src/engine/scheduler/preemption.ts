/**
 * DefaultPreemption PostFilter (pkg/scheduler/framework/plugins/defaultpreemption and
 * pkg/scheduler/framework/preemption/preemption.go; docs/kubernetes-semantics.md §6.5), simulated over every node:
 *
 * 1. PodEligibleToPreemptOthers: `preemptionPolicy: Never` → `not eligible due to preemptionPolicy=Never.`;
 *    a lower-priority pod still terminating by preemption on the pod's nominated node →
 *    `not eligible due to a terminating pod on the nominated node.`
 * 2. nodesWherePreemptionMightHelp: nodes whose status was UnschedulableAndUnresolvable (and absent
 *    nodes, whose status is the PreFilter's or the narrowing's) → `Preemption is not helpful for scheduling`.
 * 3. SelectVictimsOnNode (on copies of the node and the cycle state, through the framework's
 *    removePod / addPod so every plugin's PreFilter state follows): remove every pod of lower priority (none → `No preemption victims found for
 *    incoming pod`), run the filters (still failing → that plugin's reasons), then reprieve victims from
 *    the most important down (higher priority, then earlier start), keeping each one that still lets the
 *    pod fit. PodDisruptionBudgets are not modelled (no PDB violates).
 * 4. No candidate → `preemption: ` + a nested FitError over all nodes. Otherwise pickOneNodeForPreemption
 *    (fewest PDB violations, lowest highest-victim priority, lowest priority sum, fewest victims, latest
 *    start of the highest-priority victims; then node name instead of upstream's random offset).
 * Upstream stops the dry run after max(10% of nodes, 100) candidates from a random offset; evaluating all
 * nodes is the deterministic choice of docs/kubernetes-semantics.md §9.
 */
import type { CycleState } from './cycle-state.ts';
import { formatFitError } from './fit-error.ts';
import type { Framework } from './framework.ts';
import { cloneNodeInfo, type NodeInfo, type PodEntry } from './node-info.ts';
import { unresolvable, type PluginStatus } from './plugin-status.ts';

export const NAME = 'DefaultPreemption';
export const ERR_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
export const ERR_NO_VICTIMS = 'No preemption victims found for incoming pod';
export const ERR_POLICY_NEVER = 'not eligible due to preemptionPolicy=Never.';
export const ERR_TERMINATING_ON_NOMINATED = 'not eligible due to a terminating pod on the nominated node.';

/** What the main filtering pass found, as preemption reads it (framework.NodeToStatus). */
export interface Diagnosis {
  numAllNodes: number;
  /** Explicit statuses of evaluated nodes that failed. */
  statuses: ReadonlyMap<string, PluginStatus>;
  /** Status of nodes never evaluated (PreFilter rejection or narrowing), if any. */
  absent: PluginStatus | null;
}

export interface PreemptionOutcome {
  /** DefaultPreemption's PostFilter message (`preemption: …`), null when a victim set was found. */
  message: string | null;
  nominatedNode?: string;
  /** Victims, most important first. */
  victims?: PodEntry[];
}

interface Candidate {
  node: string;
  victims: PodEntry[];
}

/** util.MoreImportantPod: higher priority, then earlier start time (pods not started count as "now"). */
export function compareImportance(a: PodEntry, b: PodEntry): number {
  if (a.priority !== b.priority) return b.priority - a.priority;
  if (a.startTime !== b.startTime) {
    if (!a.startTime) return 1;
    if (!b.startTime) return -1;
    return a.startTime < b.startTime ? -1 : 1;
  }
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

function terminatingByPreemption(p: PodEntry): boolean {
  return (
    p.terminating &&
    !!p.pod.status?.conditions?.some((c) => c.type === 'DisruptionTarget' && c.reason === 'PreemptionByScheduler')
  );
}

/** PodEligibleToPreemptOthers; returns the refusal text or null. */
function checkEligibility(state: CycleState, d: Diagnosis): string | null {
  if (state.preemptionPolicy === 'Never') return ERR_POLICY_NEVER;
  const nominated = state.pod.status?.nominatedNodeName;
  if (nominated) {
    const st = d.statuses.get(nominated) ?? d.absent;
    if (st?.code === 'unresolvable') return null;
    const info = state.index.get(nominated);
    for (const p of info?.pods.values() ?? []) {
      if (p.priority < state.priority && terminatingByPreemption(p)) return ERR_TERMINATING_ON_NOMINATED;
    }
  }
  return null;
}

/** SelectVictimsOnNode: the minimal victim set, or the status explaining why the node cannot help. */
export function selectVictimsOnNode(
  fw: Framework,
  state: CycleState,
  info: NodeInfo,
): { victims: PodEntry[] } | { status: PluginStatus } {
  const potential = [...info.pods.values()].filter((p) => p.priority < state.priority);
  if (potential.length === 0) return { status: unresolvable(NAME, ERR_NO_VICTIMS) };
  const s = state.clone();
  const node = cloneNodeInfo(info);
  for (const p of potential) fw.removePod(s, node, p);
  const st = fw.runFiltersWithNominatedPods(s, node);
  if (st.code !== 'ok') return { status: st };
  potential.sort(compareImportance);
  const victims: PodEntry[] = [];
  for (const p of potential) {
    fw.addPod(s, node, p);
    if (fw.runFiltersWithNominatedPods(s, node).code !== 'ok') {
      fw.removePod(s, node, p);
      victims.push(p);
    }
  }
  return { victims };
}

/** GetEarliestPodStartTime over the highest-priority victims ('' = not started = latest). */
function earliestStartOfTopVictims(victims: readonly PodEntry[]): string {
  const top = victims[0]!.priority;
  let earliest: string | null = null;
  for (const v of victims) {
    if (v.priority !== top) continue;
    const t = v.startTime || '\uffff';
    if (earliest === null || t < earliest) earliest = t;
  }
  return earliest ?? '\uffff';
}

/** pickOneNodeForPreemption (no PDBs: criterion 1 ties everywhere). */
function pickOneNode(candidates: Candidate[]): Candidate {
  const OFFSET = 2147483648; // MaxInt32 + 1: keeps negative priorities from lowering the sum.
  let best = candidates;
  const keepMin = (f: (c: Candidate) => number) => {
    const min = Math.min(...best.map(f));
    best = best.filter((c) => f(c) === min);
  };
  keepMin((c) => c.victims[0]?.priority ?? -Infinity);
  keepMin((c) => c.victims.reduce((sum, v) => sum + v.priority + OFFSET, 0));
  keepMin((c) => c.victims.length);
  if (best.length > 1) {
    // biome-ignore lint/complexity/useMathMinMax: the start times are ISO strings, compared as strings
    const latest = best.map((c) => earliestStartOfTopVictims(c.victims)).reduce((a, b) => (a > b ? a : b));
    best = best.filter((c) => earliestStartOfTopVictims(c.victims) === latest);
  }
  return best.sort((a, b) => (a.node < b.node ? -1 : a.node > b.node ? 1 : 0))[0]!;
}

/** DefaultPreemption.PostFilter over the nodes of the index. */
export function preemptPod(fw: Framework, state: CycleState, d: Diagnosis): PreemptionOutcome {
  const refusal = checkEligibility(state, d);
  if (refusal) return { message: `preemption: ${refusal}` };
  const reasons = new Map<string, string[]>();
  const candidates: Candidate[] = [];
  for (const name of state.index.nodeNames()) {
    const st = d.statuses.get(name) ?? d.absent;
    if (!st || st.code === 'unresolvable') {
      reasons.set(name, [ERR_NOT_HELPFUL]);
      continue;
    }
    const r = selectVictimsOnNode(fw, state, state.index.get(name)!);
    if ('status' in r) reasons.set(name, r.status.reasons);
    else candidates.push({ node: name, victims: r.victims });
  }
  if (candidates.length === 0) {
    const nested = formatFitError(
      { numAllNodes: d.numAllNodes, nodeReasons: reasons, absentReasons: [ERR_NOT_HELPFUL] },
      state.profile,
    );
    return { message: `preemption: ${nested}` };
  }
  const chosen = pickOneNode(candidates);
  return { message: null, nominatedNode: chosen.node, victims: chosen.victims };
}
