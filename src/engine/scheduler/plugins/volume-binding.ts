/**
 * VolumeBinding (pkg/scheduler/framework/plugins/volumebinding: volume_binding.go, binder.go).
 *
 * PreFilter (whole pod, UnschedulableAndUnresolvable), podHasPVCs first: a missing claim
 * `persistentvolumeclaim "<name>" not found`, a generic ephemeral volume whose claim does not exist yet
 * (`waiting for ephemeral volume controller to create the persistentvolumeclaim "<name>"`) or is not
 * owned by the pod (`PVC <ns>/<name> was not created for pod <ns>/<pod> (pod is not owner)`), a Lost
 * claim (`persistentvolumeclaim "<name>" bound to non-existent persistentvolume "<pv>"`), a claim being
 * deleted. Then GetPodVolumeClaims: a claim is bound only when fully bound (isPVCFullyBound:
 * `spec.volumeName` set AND the `pv.kubernetes.io/bind-completed` annotation); any other claim that is
 * not a WaitForFirstConsumer claim without a volume name (IsDelayBindingMode; a missing class counts as
 * Immediate, as upstream) is an unbound immediate claim → `pod has unbound immediate
 * PersistentVolumeClaims`. GetEligibleNodes: when bound PVs pin `kubernetes.io/hostname In [...]`
 * (GetLocalPersistentVolumeNodeNames), only those nodes are evaluated (PreFilterResult).
 *
 * Filter (per node, UnschedulableAndUnresolvable, reasons in FindPodVolumes' order): a bound claim's PV
 * node affinity must match (`node(s) didn't match PersistentVolume's node affinity` since 1.33, PR
 * #129887; before: `node(s) had volume node affinity conflict`); a WaitForFirstConsumer claim of a
 * class without a provisioner (`kubernetes.io/no-provisioner`) needs an available matching PV on the node
 * (`node(s) didn't find available persistent volumes to bind`); a bound claim naming a missing PV gives
 * `node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)`.
 * Not modelled: storage capacity tracking (`node(s) did not have enough free storage`), CSI translation.
 */
import type { PersistentVolume, PersistentVolumeClaim, Pod } from '../../../k8s/objects.ts';
import { Quantity } from '../../../quantity.ts';
import { stateKey, type CycleState, type StateData } from '../cycle-state.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import { matchesNodeSelectorTerms } from '../label-selectors.ts';
import { claimClass } from './volume-zone.ts';
import type { NodeInfo } from '../node-info.ts';
import { OK, unresolvable, type PluginStatus, type PreFilterOutcome } from '../plugin-status.ts';

export const NAME = 'VolumeBinding';
export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_REASON_NODE_CONFLICT = "node(s) didn't match PersistentVolume's node affinity";
export const ERR_REASON_NODE_CONFLICT_OLD = 'node(s) had volume node affinity conflict';
export const ERR_REASON_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
export const ERR_REASON_UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';
/** pvutil.AnnBindCompleted: set by the PV controller once the claim's binding is complete. */
export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
const LABEL_HOSTNAME = 'kubernetes.io/hostname';

const NO_PROVISIONER = 'kubernetes.io/no-provisioner';

interface DelayedClaim {
  claim: PersistentVolumeClaim;
  /** PVs that could bind it (class, access modes, size), before the node check. */
  candidates: PersistentVolume[];
  /** A provisioner exists: dynamic provisioning can satisfy it on any node (capacity not modelled). */
  provisionable: boolean;
}

/** What PreFilter stores: the pod's claims, bound and delayed (immutable, shared by clones). */
export class VolumeBindingState implements StateData {
  readonly bound: Array<{ claim: PersistentVolumeClaim; pv: PersistentVolume | undefined }> = [];
  readonly delayed: DelayedClaim[] = [];
  clone(): VolumeBindingState {
    return this;
  }
}

const PRE_FILTER_STATE_KEY = stateKey<VolumeBindingState>(`PreFilter${NAME}`);

function claimNames(pod: Pod): Array<{ claim: string; ephemeral: boolean }> {
  const out: Array<{ claim: string; ephemeral: boolean }> = [];
  for (const v of pod.spec.volumes ?? []) {
    if (v.persistentVolumeClaim) out.push({ claim: v.persistentVolumeClaim.claimName, ephemeral: false });
    // Generic ephemeral volume: the claim is named <pod>-<volume> (ephemeral.VolumeClaimName).
    else if (v.ephemeral !== undefined && v.ephemeral !== null)
      out.push({ claim: `${pod.metadata.name ?? ''}-${v.name}`, ephemeral: true });
  }
  return out;
}

function storageRequest(claim: PersistentVolumeClaim): Quantity {
  return Quantity.tryParse(claim.spec.resources?.requests?.storage) ?? Quantity.zero();
}

/** pvutil.FindMatchingVolume, simplified: same class, unclaimed or pre-bound to this claim, big enough, access modes. */
function isCandidatePV(pv: PersistentVolume, claim: PersistentVolumeClaim): boolean {
  if ((pv.spec.storageClassName ?? '') !== (claim.spec.storageClassName ?? '')) return false;
  if (pv.metadata.deletionTimestamp) return false;
  const ref = pv.spec.claimRef;
  if (ref && (ref.name !== claim.metadata.name || (ref.namespace ?? '') !== (claim.metadata.namespace ?? '')))
    return false;
  const phase = pv.status?.phase;
  if (phase && phase !== 'Available' && !(ref && phase === 'Bound')) return false;
  const capacity = Quantity.tryParse(pv.spec.capacity?.storage) ?? Quantity.zero();
  if (capacity.cmp(storageRequest(claim)) < 0) return false;
  const modes: unknown = pv.spec.accessModes;
  const pvModes = new Set(Array.isArray(modes) ? modes.filter((m): m is string => typeof m === 'string') : []);
  for (const m of claim.spec.accessModes ?? []) if (!pvModes.has(m)) return false;
  return true;
}

function pvNodeAffinityMatches(pv: PersistentVolume, node: NodeInfo): boolean {
  const terms = pv.spec.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return true;
  return matchesNodeSelectorTerms(terms, node);
}

/** binder.isPVCFullyBound. */
export function isPVCFullyBound(pvc: PersistentVolumeClaim): boolean {
  return !!pvc.spec.volumeName && pvc.metadata.annotations?.[ANN_BIND_COMPLETED] !== undefined;
}

/** ephemeral.VolumeIsForPod: same namespace and controlled by the pod (uid when both have one). */
function ephemeralClaimIsForPod(pod: Pod, pvc: PersistentVolumeClaim): boolean {
  if ((pvc.metadata.namespace ?? '') !== (pod.metadata.namespace ?? '')) return false;
  return (pvc.metadata.ownerReferences ?? []).some(
    (o) =>
      o.controller === true &&
      o.kind === 'Pod' &&
      o.name === pod.metadata.name &&
      (pod.metadata.uid === undefined || o.uid === undefined || o.uid === pod.metadata.uid),
  );
}

function intersect(a: ReadonlySet<string>, b: ReadonlySet<string>): Set<string> {
  return new Set([...a].filter((x) => b.has(x)));
}

/** util.GetLocalPersistentVolumeNodeNames: hostnames pinned by `kubernetes.io/hostname In` (null: none). */
export function localPVNodeNames(pv: PersistentVolume): Set<string> | null {
  const terms = pv.spec.nodeAffinity?.required?.nodeSelectorTerms;
  if (!terms) return null;
  let result: Set<string> | null = null;
  for (const term of terms) {
    let nodes: Set<string> | null = null;
    for (const e of term.matchExpressions ?? []) {
      if (e.key !== LABEL_HOSTNAME || e.operator !== 'In') continue;
      const values = new Set(e.values ?? []);
      nodes = nodes === null ? values : intersect(nodes, values);
    }
    if (nodes) result = new Set([...(result ?? []), ...nodes]);
  }
  return result && result.size > 0 ? result : null;
}

function preFilter(state: CycleState): PreFilterOutcome {
  const names = claimNames(state.pod);
  if (names.length === 0) return {};
  const ns = state.pod.metadata.namespace ?? '';
  // podHasPVCs: every claim exists, is not lost, not being deleted, and (ephemeral) is the pod's own.
  const claims: PersistentVolumeClaim[] = [];
  for (const { claim: name, ephemeral } of names) {
    const claim = state.snapshot.get('PersistentVolumeClaim', ns, name);
    if (!claim) {
      if (ephemeral)
        return {
          status: unresolvable(
            NAME,
            `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"`,
          ),
        };
      return { status: unresolvable(NAME, `persistentvolumeclaim "${name}" not found`) };
    }
    if (claim.status?.phase === 'Lost')
      return {
        status: unresolvable(
          NAME,
          `persistentvolumeclaim "${name}" bound to non-existent persistentvolume "${claim.spec.volumeName ?? ''}"`,
        ),
      };
    if (claim.metadata.deletionTimestamp)
      return { status: unresolvable(NAME, `persistentvolumeclaim "${name}" is being deleted`) };
    if (ephemeral && !ephemeralClaimIsForPod(state.pod, claim))
      return {
        status: unresolvable(
          NAME,
          `PVC ${ns}/${name} was not created for pod ${ns}/${state.pod.metadata.name ?? ''} (pod is not owner)`,
        ),
      };
    claims.push(claim);
  }
  // GetPodVolumeClaims.
  const result = new VolumeBindingState();
  let immediateUnbound = false;
  for (const claim of claims) {
    if (isPVCFullyBound(claim)) {
      result.bound.push({ claim, pv: state.snapshot.get('PersistentVolume', undefined, claim.spec.volumeName ?? '') });
      continue;
    }
    const className = claimClass(claim);
    const sc = className ? state.snapshot.get('StorageClass', undefined, className) : undefined;
    // IsDelayBindingMode; a pre-bound claim (volumeName set, not complete) counts as immediate.
    if (sc?.volumeBindingMode !== 'WaitForFirstConsumer' || claim.spec.volumeName) {
      immediateUnbound = true;
      continue;
    }
    const candidates = state.snapshot.list('PersistentVolume').filter((pv) => isCandidatePV(pv, claim));
    result.delayed.push({ claim, candidates, provisionable: !!sc.provisioner && sc.provisioner !== NO_PROVISIONER });
  }
  if (immediateUnbound) return { status: unresolvable(NAME, ERR_REASON_UNBOUND_IMMEDIATE) };
  state.write(PRE_FILTER_STATE_KEY, result);
  // GetEligibleNodes: a missing PV cancels the narrowing.
  let eligible: Set<string> | null = null;
  if (result.bound.every((b) => b.pv !== undefined)) {
    for (const { pv } of result.bound) {
      const names = localPVNodeNames(pv!);
      if (!names) continue;
      eligible = eligible === null ? names : intersect(eligible, names);
    }
  }
  return eligible ? { nodeNames: eligible } : {};
}

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  const s = state.read(PRE_FILTER_STATE_KEY);
  if (!s) return OK;
  let boundSatisfied = true;
  let pvsFound = true;
  for (const { pv } of s.bound) {
    // checkBoundClaims stops at the first problem.
    if (!pv) {
      pvsFound = false;
      break;
    }
    if (!pvNodeAffinityMatches(pv, node)) {
      boundSatisfied = false;
      break;
    }
  }
  let unboundSatisfied = true;
  const taken = new Set<string>();
  for (const d of s.delayed) {
    // Smallest fitting PV first (FindMatchingVolume), each PV used once per pod.
    const fit = d.candidates
      .filter((pv) => !taken.has(pv.metadata.name ?? '') && pvNodeAffinityMatches(pv, node))
      .sort((a, b) =>
        (Quantity.tryParse(a.spec.capacity?.storage) ?? Quantity.zero()).cmp(
          Quantity.tryParse(b.spec.capacity?.storage) ?? Quantity.zero(),
        ),
      )[0];
    if (fit) taken.add(fit.metadata.name ?? '');
    else if (!d.provisionable) unboundSatisfied = false;
  }
  const reasons: string[] = [];
  if (!boundSatisfied)
    reasons.push(state.profile.pvAffinityMessage === 'new' ? ERR_REASON_NODE_CONFLICT : ERR_REASON_NODE_CONFLICT_OLD);
  if (!unboundSatisfied) reasons.push(ERR_REASON_BIND_CONFLICT);
  if (!pvsFound) reasons.push(ERR_REASON_PV_NOT_EXIST);
  if (reasons.length === 0) return OK;
  return unresolvable(NAME, ...reasons);
}

export const VolumeBinding: SchedulerPlugin = { name: NAME, preFilter, filter };
