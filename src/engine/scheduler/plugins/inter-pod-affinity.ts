/**
 * InterPodAffinity Filter (pkg/scheduler/framework/plugins/interpodaffinity/filtering.go), required terms
 * only. PreFilter counts, per topology pair (key=value of the node an existing pod runs on):
 * - existingAntiAffinityCounts: existing pods' required anti-affinity terms that match the incoming pod;
 * - affinityCounts: existing pods matching ALL of the incoming pod's affinity terms (one per term);
 * - antiAffinityCounts: existing pods matching each of the incoming pod's anti-affinity terms.
 * Filter, in upstream order:
 * 1. affinity: the node must carry every term's topology key and each pair must count > 0 — unless no
 *    pod anywhere matches and the pod matches its own terms (the first pod of a self-affine group) →
 *    `node(s) didn't match pod affinity rules` (UnschedulableAndUnresolvable);
 * 2. anti-affinity → `node(s) didn't match pod anti-affinity rules` (Unschedulable);
 * 3. existing pods' anti-affinity → `node(s) didn't satisfy existing pods anti-affinity rules` (Unschedulable).
 * Before 1.22 each reason was preceded by `node(s) didn't match pod affinity/anti-affinity`.
 *
 * Term namespaces: `namespaces` ∪ namespaces selected by `namespaceSelector` (labels of the Namespace
 * objects in the snapshot, plus the automatic `kubernetes.io/metadata.name`); neither given → the pod's
 * own namespace. A nil labelSelector matches nothing.
 */
import type { Pod, PodAffinityTerm } from '../../../k8s/objects.ts';
import { stateKey, type CycleState, type StateData } from '../cycle-state.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import { compileAffinityTerm, type AffinityTerm } from '../affinity-term.ts';
import type { Labels } from '../label-selectors.ts';
import type { NodeInfo, PodEntry } from '../node-info.ts';
import { OK, unresolvable, unschedulable, type PluginStatus, type PreFilterOutcome } from '../plugin-status.ts';

export const NAME = 'InterPodAffinity';
export const ERR_REASON_AFFINITY_NOT_MATCH = "node(s) didn't match pod affinity/anti-affinity";
export const ERR_REASON_AFFINITY_RULES = "node(s) didn't match pod affinity rules";
export const ERR_REASON_ANTI_AFFINITY_RULES = "node(s) didn't match pod anti-affinity rules";
export const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES = "node(s) didn't satisfy existing pods anti-affinity rules";

type NamespaceLabels = (ns: string) => Labels;

/** What PreFilter stores; addPod / removePod update the counters of a clone. */
export class InterPodAffinityState implements StateData {
  constructor(
    readonly affinityTerms: AffinityTerm[],
    readonly antiAffinityTerms: AffinityTerm[],
    readonly namespaceLabels: NamespaceLabels,
    readonly affinityCounts = new Map<string, number>(),
    readonly antiAffinityCounts = new Map<string, number>(),
    readonly existingAntiAffinityCounts = new Map<string, number>(),
  ) {}

  clone(): InterPodAffinityState {
    return new InterPodAffinityState(
      this.affinityTerms,
      this.antiAffinityTerms,
      this.namespaceLabels,
      new Map(this.affinityCounts),
      new Map(this.antiAffinityCounts),
      new Map(this.existingAntiAffinityCounts),
    );
  }
}

const PRE_FILTER_STATE_KEY = stateKey<InterPodAffinityState>(`PreFilter${NAME}`);

/** AffinityTerm.Matches. */
function termMatches(t: AffinityTerm, p: { namespace: string; labels: Labels }, nsLabels: NamespaceLabels): boolean {
  if (!t.namespaces.has(p.namespace) && !t.namespaceSelector?.(nsLabels(p.namespace))) return false;
  return t.selector(p.labels);
}

function pairKey(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

function bump(m: Map<string, number>, key: string, delta: number): void {
  const next = (m.get(key) ?? 0) + delta;
  // Upstream deletes pairs that drop to zero; "no pair at all" drives the self-affinity exception.
  if (next === 0) m.delete(key);
  else m.set(key, next);
}

function makeNamespaceLabels(state: CycleState): NamespaceLabels {
  const cache = new Map<string, Labels>();
  return (ns) => {
    let l = cache.get(ns);
    if (!l) {
      const obj = state.snapshot.get('Namespace', undefined, ns);
      l = { ...(obj?.metadata.labels ?? {}), 'kubernetes.io/metadata.name': ns };
      cache.set(ns, l);
    }
    return l;
  };
}

function requiredTerms(pod: Pod, which: 'podAffinity' | 'podAntiAffinity'): PodAffinityTerm[] {
  return pod.spec.affinity?.[which]?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
}

/** Adds (delta 1) or removes (−1) one existing pod's contribution to the three counters. */
function countPod(s: InterPodAffinityState, incoming: PodEntry, p: PodEntry, node: NodeInfo, delta: 1 | -1): void {
  for (const t of p.requiredAntiAffinityTerms) {
    if (!Object.hasOwn(node.labels, t.topologyKey)) continue;
    if (termMatches(t, incoming, s.namespaceLabels))
      bump(s.existingAntiAffinityCounts, pairKey(t.topologyKey, node.labels[t.topologyKey]!), delta);
  }
  if (s.affinityTerms.length > 0 && s.affinityTerms.every((t) => termMatches(t, p, s.namespaceLabels))) {
    for (const t of s.affinityTerms) {
      if (Object.hasOwn(node.labels, t.topologyKey))
        bump(s.affinityCounts, pairKey(t.topologyKey, node.labels[t.topologyKey]!), delta);
    }
  }
  for (const t of s.antiAffinityTerms) {
    if (Object.hasOwn(node.labels, t.topologyKey) && termMatches(t, p, s.namespaceLabels)) {
      bump(s.antiAffinityCounts, pairKey(t.topologyKey, node.labels[t.topologyKey]!), delta);
    }
  }
}

function preFilter(state: CycleState): PreFilterOutcome {
  const pod = state.pod;
  const owner = state.entry;
  const affinityTerms = requiredTerms(pod, 'podAffinity').map((t) => compileAffinityTerm(t, owner, true));
  const antiAffinityTerms = requiredTerms(pod, 'podAntiAffinity').map((t) => compileAffinityTerm(t, owner, true));
  const ownTerms = affinityTerms.length > 0 || antiAffinityTerms.length > 0;
  if (!ownTerms && !state.index.hasRequiredAntiAffinityPods()) return {};
  const s = new InterPodAffinityState(affinityTerms, antiAffinityTerms, makeNamespaceLabels(state));
  for (const name of state.index.nodeNames()) {
    const node = state.index.get(name)!;
    // Without own terms only nodes hosting pods with required anti-affinity matter (PodsWithRequiredAntiAffinity).
    if (!ownTerms && node.podsWithRequiredAntiAffinity === 0) continue;
    for (const p of node.pods.values()) {
      if (!ownTerms && p.requiredAntiAffinityTerms.length === 0) continue;
      countPod(s, owner, p, node, 1);
    }
  }
  state.write(PRE_FILTER_STATE_KEY, s);
  return {};
}

/** PreFilterExtensions.AddPod / RemovePod. */
function updateWithPod(state: CycleState, p: PodEntry, node: NodeInfo, delta: 1 | -1): void {
  const s = state.read(PRE_FILTER_STATE_KEY);
  if (s) countPod(s, state.entry, p, node, delta);
}

function satisfiesPodAffinity(s: InterPodAffinityState, incoming: PodEntry, node: NodeInfo): boolean {
  let podsExist = true;
  for (const t of s.affinityTerms) {
    if (!Object.hasOwn(node.labels, t.topologyKey)) return false;
    if ((s.affinityCounts.get(pairKey(t.topologyKey, node.labels[t.topologyKey]!)) ?? 0) <= 0) podsExist = false;
  }
  if (podsExist) return true;
  // The first pod of a series with affinity to themselves may go anywhere that has the topology keys.
  return s.affinityCounts.size === 0 && s.affinityTerms.every((t) => termMatches(t, incoming, s.namespaceLabels));
}

function satisfiesPodAntiAffinity(s: InterPodAffinityState, node: NodeInfo): boolean {
  for (const t of s.antiAffinityTerms) {
    if (!Object.hasOwn(node.labels, t.topologyKey)) continue;
    if ((s.antiAffinityCounts.get(pairKey(t.topologyKey, node.labels[t.topologyKey]!)) ?? 0) > 0) return false;
  }
  return true;
}

function satisfiesExistingPodsAntiAffinity(s: InterPodAffinityState, node: NodeInfo): boolean {
  if (s.existingAntiAffinityCounts.size === 0) return true;
  for (const [k, v] of Object.entries(node.labels))
    if ((s.existingAntiAffinityCounts.get(pairKey(k, v)) ?? 0) > 0) return false;
  return true;
}

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  const s = state.read(PRE_FILTER_STATE_KEY);
  if (!s) return OK;
  const generic = state.profile.interPodGenericReason ? [ERR_REASON_AFFINITY_NOT_MATCH] : [];
  if (!satisfiesPodAffinity(s, state.entry, node)) return unresolvable(NAME, ...generic, ERR_REASON_AFFINITY_RULES);
  if (!satisfiesPodAntiAffinity(s, node)) return unschedulable(NAME, ...generic, ERR_REASON_ANTI_AFFINITY_RULES);
  if (!satisfiesExistingPodsAntiAffinity(s, node))
    return unschedulable(NAME, ...generic, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES);
  return OK;
}

export const InterPodAffinity: SchedulerPlugin = {
  name: NAME,
  preFilter,
  filter,
  addPod: (state, p, node) => updateWithPod(state, p, node, 1),
  removePod: (state, p, node) => updateWithPod(state, p, node, -1),
};
