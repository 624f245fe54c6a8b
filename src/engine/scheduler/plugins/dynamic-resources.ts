/**
 * DynamicResources (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go), with
 * structured parameters (resource.k8s.io/v1, GA and on by default since 1.34), as far as the engine can
 * judge without guessing.
 *
 * PreEnqueue (`draPreEnqueue`): every `spec.resourceClaims[]` entry must resolve to an existing claim
 * (by name, or through `status.resourceClaimStatuses` for a template), not being deleted, owned by the
 * pod when generated from a template. Otherwise the pod is never attempted: no FailedScheduling event.
 *
 * PreFilter (rejections UnschedulableAndUnresolvable, statusUnschedulable): the state is written first
 * (so PostFilter finds it); no claims → Skip; an allocated claim reserved for 256 consumers, not this
 * pod → `resourceclaim in use`; an unallocated claim's request naming a missing DeviceClass →
 * `request <req>: device class <class> does not exist` (`<req>/<sub>` for a firstAvailable entry).
 *
 * Filter (UnschedulableAndUnresolvable): the unallocated claims are allocated together on the node
 * (devices of the node's ResourceSlices, newest pool generation only, minus the devices that allocated
 * claims anywhere already hold; class and request selectors; ExactCount with `count` (default 1) or
 * All; firstAvailable alternatives in order; backtracking like the structured allocator) →
 * `cannot allocate all claims`; then an allocated claim whose `allocation.nodeSelector` excludes the
 * node → `resourceclaim not available on the node` (remembered for PostFilter).
 *
 * PostFilter (`draPostFilter`, before DefaultPreemption): no state (an earlier PreFilter was
 * UnschedulableAndUnresolvable) → `not found`, an error that ends the phase; no claims → `no new claims
 * to deallocate`; an unavailable claim reserved by nobody else → `deallocation of ResourceClaim
 * completed`; else `still not schedulable`.
 *
 * Not judged (the answer is "unknown", never a guess): CEL selectors outside dra-cel.ts's subset or
 * failing on a device, `constraints` (matchAttribute), incomplete pools for allocationMode All, device
 * taints, consumable capacity, partitionable devices (counters), extended-resource claims, binding
 * conditions, in-flight allocations of other scheduling cycles.
 */
import { z } from 'zod';
import type { NodeSelectorTerm, Pod, ResourceClaim, ResourceSlice } from '../../../k8s/objects.ts';
import type { Snapshot } from '../../../k8s/snapshot.ts';
import { Quantity } from '../../../quantity.ts';
import { stateKey, type CycleState, type StateData } from '../cycle-state.ts';
import { compileSelector, qualify, type CelDevice, type CelProgram } from '../dra-cel.ts';
import { matchesNodeSelectorTerms } from '../label-selectors.ts';
import type { NodeInfo } from '../node-info.ts';
import type { SchedulerPlugin } from '../plugin.ts';
import { OK, unresolvable, type PluginStatus, type PreFilterOutcome } from '../plugin-status.ts';

export const NAME = 'DynamicResources';
export const ERR_CANNOT_ALLOCATE = 'cannot allocate all claims';
export const ERR_NOT_AVAILABLE = 'resourceclaim not available on the node';
export const ERR_IN_USE = 'resourceclaim in use';
export const POST_NO_CLAIMS = 'no new claims to deallocate';
export const POST_DEALLOCATED = 'deallocation of ResourceClaim completed';
export const POST_STILL = 'still not schedulable';
export const POST_STATE_NOT_FOUND = 'not found';
/** resourceapi.ResourceClaimReservedForMaxSize. */
export const RESERVED_FOR_MAX = 256;
/** Search steps before the engine gives up and answers "unknown". */
const MAX_STEPS = 20_000;

const podClaimsSchema = z.array(
  z.looseObject({
    name: z.string(),
    resourceClaimName: z.string().nullish(),
    resourceClaimTemplateName: z.string().nullish(),
  }),
);
const claimStatusesSchema = z.array(z.looseObject({ name: z.string(), resourceClaimName: z.string().nullish() }));

function podResourceClaims(pod: Pod): z.infer<typeof podClaimsSchema> {
  const r = podClaimsSchema.safeParse(pod.spec.resourceClaims ?? []);
  return r.success ? r.data : [];
}

/** One device of a ResourceSlice, as the allocator sees it. */
interface Device extends CelDevice {
  id: string;
  pool: string;
  name: string;
  /** perDeviceNodeSelection: the device's own placement. */
  nodeName?: string;
  allNodes?: boolean;
  nodeSelector?: readonly NodeSelectorTerm[];
}

interface Alternative {
  /** Request name as upstream prints it (`req` or `req/sub`). */
  name: string;
  programs: CelProgram[];
  all: boolean;
  count: number;
  adminAccess: boolean;
}

/** What PreFilter computed; Filter records unavailable claims and "unknown" verdicts in it. */
export class DynamicResourcesState implements StateData {
  claims: ResourceClaim[] = [];
  /** The requests of the unallocated claims (claim order, then request order), each with its alternatives. */
  toAllocate: Alternative[][] = [];
  unavailableClaims = new Set<number>();
  /** Why the engine could not judge (first reason), if it could not. */
  unknown: string | null = null;
  /** Devices held anywhere and the newest slices, read once per attempt (Filter runs per node). */
  held: Set<string> | null = null;
  slices: ResourceSlice[] | null = null;
  clone(): DynamicResourcesState {
    return this; // Filter's records are the attempt's, shared as upstream's mutex-guarded state
  }
}

export const DRA_STATE_KEY = stateKey<DynamicResourcesState>(NAME);

/** resourceclaim.Name + the claim lookups of foreachPodResourceClaim; the error text, or the claims. */
export function resolvePodClaims(snapshot: Snapshot, pod: Pod): { claims: ResourceClaim[] } | { error: string } {
  const ns = pod.metadata.namespace ?? '';
  const podName = pod.metadata.name ?? '';
  const statuses = claimStatusesSchema.safeParse(pod.status?.resourceClaimStatuses ?? []);
  const claims: ResourceClaim[] = [];
  for (const pc of podResourceClaims(pod)) {
    let claimName: string | null | undefined;
    let mustCheckOwner = false;
    if (pc.resourceClaimName) claimName = pc.resourceClaimName;
    else if (pc.resourceClaimTemplateName) {
      const st = statuses.success ? statuses.data.find((s) => s.name === pc.name) : undefined;
      if (!st) return { error: `pod "${ns}/${podName}": ResourceClaim not created yet` };
      claimName = st.resourceClaimName;
      mustCheckOwner = true;
    } else {
      return {
        error: `pod "${ns}/${podName}", spec.resourceClaim "${pc.name}": unsupported ResourceClaim API`,
      };
    }
    if (!claimName) continue; // no claim needed
    const claim = snapshot.get('ResourceClaim', ns, claimName);
    if (!claim) return { error: `resourceclaim.resource.k8s.io "${claimName}" not found` };
    if (claim.metadata.deletionTimestamp) return { error: `resourceclaim "${claimName}" is being deleted` };
    if (mustCheckOwner) {
      const owned = (claim.metadata.ownerReferences ?? []).some(
        (o) =>
          o.controller === true &&
          o.kind === 'Pod' &&
          o.name === podName &&
          (pod.metadata.uid === undefined || o.uid === undefined || o.uid === pod.metadata.uid),
      );
      if (!owned)
        return {
          error: `ResourceClaim ${ns}/${claimName} was not created for pod ${ns}/${podName} (pod is not owner)`,
        };
    }
    claims.push(claim);
  }
  return { claims };
}

/** PreEnqueue: null when the pod may be attempted, else the rejection reason. */
export function draPreEnqueue(snapshot: Snapshot, pod: Pod): string | null {
  if (podResourceClaims(pod).length === 0) return null;
  const r = resolvePodClaims(snapshot, pod);
  return 'error' in r ? r.error : null;
}

function isReservedForPod(pod: Pod, claim: ResourceClaim): boolean {
  return (claim.status?.reservedFor ?? []).some(
    (r) =>
      (r.uid && pod.metadata.uid ? r.uid === pod.metadata.uid : r.name === pod.metadata.name) && r.resource === 'pods',
  );
}

function selectorPrograms(
  selectors: ReadonlyArray<{ cel?: { expression: string } | null }> | null | undefined,
  state: DynamicResourcesState,
): CelProgram[] {
  const out: CelProgram[] = [];
  for (const s of selectors ?? []) {
    const expr = s.cel?.expression;
    if (expr === undefined) continue;
    const p = compileSelector(expr);
    if (!p) {
      state.unknown ??= `CEL selector not judged by the engine: ${expr}`;
      continue;
    }
    out.push(p);
  }
  return out;
}

function preFilter(state: CycleState): PreFilterOutcome {
  if (!state.profile.draEnabled) return {};
  const s = new DynamicResourcesState();
  state.write(DRA_STATE_KEY, s);
  const resolved = resolvePodClaims(state.snapshot, state.pod);
  if ('error' in resolved) return { status: unresolvable(NAME, resolved.error) };
  if (resolved.claims.length === 0) return {}; // Skip
  for (const claim of resolved.claims) {
    const allocated = !!claim.status?.allocation;
    if (
      allocated &&
      (claim.status?.reservedFor?.length ?? 0) >= RESERVED_FOR_MAX &&
      !isReservedForPod(state.pod, claim)
    )
      return { status: unresolvable(NAME, ERR_IN_USE) };
    if (allocated) continue;
    if ((claim.spec?.devices?.constraints?.length ?? 0) > 0)
      s.unknown ??= `ResourceClaim ${claim.metadata.name ?? ''}: constraints are not judged by the engine`;
    const requests: Alternative[][] = [];
    for (const req of claim.spec?.devices?.requests ?? []) {
      const entries = req.exactly
        ? [{ name: req.name, r: req.exactly }]
        : (req.firstAvailable ?? []).map((sub) => ({ name: `${req.name}/${sub.name}`, r: sub }));
      const alts: Alternative[] = [];
      for (const { name, r } of entries) {
        const className = r.deviceClassName ?? '';
        if (className === '') {
          s.unknown ??= `request ${name}: unsupported request type`;
          continue;
        }
        const dc = state.snapshot.get('DeviceClass', undefined, className);
        if (!dc) return { status: unresolvable(NAME, `request ${name}: device class ${className} does not exist`) };
        alts.push({
          name,
          programs: [...selectorPrograms(dc.spec?.selectors, s), ...selectorPrograms(r.selectors, s)],
          all: r.allocationMode === 'All',
          count: r.count ?? 1,
          adminAccess: r.adminAccess === true,
        });
      }
      requests.push(alts);
    }
    for (const alts of requests) s.toAllocate.push(alts);
  }
  s.claims = resolved.claims;
  return {};
}

function attributeValue(v: unknown): string | number | boolean | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.string === 'string') return o.string;
  if (typeof o.int === 'number') return o.int;
  if (typeof o.bool === 'boolean') return o.bool;
  if (typeof o.version === 'string') return o.version;
  return undefined;
}

function toDevice(slice: ResourceSlice, d: NonNullable<ResourceSlice['spec']['devices']>[number]): Device {
  const driver = slice.spec.driver;
  const attributes = new Map<string, string | number | boolean>();
  for (const [k, v] of Object.entries(d.attributes ?? {})) {
    const val = attributeValue(v);
    if (val !== undefined) attributes.set(qualify(k, driver), val);
  }
  const capacity = new Map<string, Quantity>();
  for (const [k, v] of Object.entries(d.capacity ?? {})) {
    const raw = typeof v === 'object' && v !== null ? (v as Record<string, unknown>).value : undefined;
    const q = Quantity.tryParse(raw);
    if (q) capacity.set(qualify(k, driver), q);
  }
  const extra = d as Record<string, unknown>;
  const sel = extra.nodeSelector as { nodeSelectorTerms?: NodeSelectorTerm[] } | undefined;
  return {
    id: `${driver}/${slice.spec.pool.name}/${d.name}`,
    driver,
    pool: slice.spec.pool.name,
    name: d.name,
    attributes,
    capacity,
    nodeName: typeof extra.nodeName === 'string' ? extra.nodeName : undefined,
    allNodes: extra.allNodes === true,
    nodeSelector: sel?.nodeSelectorTerms,
  };
}

/** Devices the node can use: slices of the newest generation of each pool, placed on this node. */
/** The slices of the newest generation of each pool, by name. */
function newestSlices(snapshot: Snapshot): ResourceSlice[] {
  const slices = snapshot.list('ResourceSlice');
  const newest = new Map<string, number>();
  for (const sl of slices) {
    const key = `${sl.spec.driver}/${sl.spec.pool.name}`;
    newest.set(key, Math.max(newest.get(key) ?? 0, sl.spec.pool.generation ?? 0));
  }
  return slices
    .filter((sl) => (sl.spec.pool.generation ?? 0) === newest.get(`${sl.spec.driver}/${sl.spec.pool.name}`))
    .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
}

function devicesForNode(slices: readonly ResourceSlice[], node: NodeInfo): Device[] {
  const selectable = { name: node.name, labels: node.labels };
  const out: Device[] = [];
  for (const sl of slices) {
    const perDevice = sl.spec.perDeviceNodeSelection === true;
    const sliceOnNode =
      sl.spec.nodeName === node.name ||
      sl.spec.allNodes === true ||
      (!!sl.spec.nodeSelector && matchesNodeSelectorTerms(sl.spec.nodeSelector.nodeSelectorTerms, selectable));
    if (!perDevice && !sliceOnNode) continue;
    for (const d of sl.spec.devices ?? []) {
      const dev = toDevice(sl, d);
      if (perDevice) {
        const on =
          dev.nodeName === node.name ||
          dev.allNodes === true ||
          (!!dev.nodeSelector && matchesNodeSelectorTerms(dev.nodeSelector, selectable));
        if (!on) continue;
      }
      out.push(dev);
    }
  }
  return out;
}

/** Devices held by allocated claims anywhere (admin-access results share, they do not hold). */
function allocatedDevices(snapshot: Snapshot): Set<string> {
  const out = new Set<string>();
  for (const c of snapshot.iterate('ResourceClaim')) {
    for (const r of c.status?.allocation?.devices?.results ?? [])
      if (r.adminAccess !== true) out.add(`${r.driver}/${r.pool}/${r.device}`);
  }
  return out;
}

type Match = boolean | null;

function matches(alt: Alternative, d: Device): Match {
  let failed = false;
  for (const p of alt.programs) {
    const r = p(d);
    if (r === false) return false;
    if (r === null) failed = true;
  }
  return failed ? null : true;
}

/** Backtracking over the requests (and their alternatives) of the claims to allocate. */
function allocate(requests: readonly Alternative[][], devices: readonly Device[], held: ReadonlySet<string>): Match {
  const taken = new Set<string>();
  let steps = 0;
  let unknown = false;
  const candidates = (alt: Alternative): Device[] =>
    devices.filter((d) => {
      const m = matches(alt, d);
      if (m === null) unknown = true;
      return m === true;
    });
  const free = (alt: Alternative, d: Device) => alt.adminAccess || (!held.has(d.id) && !taken.has(d.id));
  const solve = (i: number): boolean => {
    if (++steps > MAX_STEPS) {
      unknown = true;
      return false;
    }
    if (i === requests.length) return true;
    for (const alt of requests[i]!) {
      const cands = candidates(alt);
      if (alt.all) {
        if (cands.length === 0 || !cands.every((d) => free(alt, d))) continue;
        for (const d of cands) if (!alt.adminAccess) taken.add(d.id);
        if (solve(i + 1)) return true;
        for (const d of cands) if (!alt.adminAccess) taken.delete(d.id);
        continue;
      }
      const pick = (from: number, left: number, chosen: Device[]): boolean => {
        if (left === 0) return solve(i + 1);
        for (let k = from; k < cands.length; k++) {
          const d = cands[k]!;
          if (!free(alt, d)) continue;
          if (!alt.adminAccess) taken.add(d.id);
          chosen.push(d);
          if (pick(k + 1, left - 1, chosen)) return true;
          chosen.pop();
          if (!alt.adminAccess) taken.delete(d.id);
          if (steps > MAX_STEPS) return false;
        }
        return false;
      };
      if (pick(0, alt.count, [])) return true;
    }
    return false;
  };
  const ok = solve(0);
  if (ok) return true;
  return unknown ? null : false;
}

function filter(state: CycleState, node: NodeInfo): PluginStatus {
  const s = state.read(DRA_STATE_KEY);
  if (!s || s.claims.length === 0) return OK;
  if (s.unknown) return unresolvable(NAME, 'unknown');
  const unavailable: number[] = [];
  const selectable = { name: node.name, labels: node.labels };
  s.claims.forEach((claim, index) => {
    const sel = claim.status?.allocation?.nodeSelector;
    if (sel && !matchesNodeSelectorTerms(sel.nodeSelectorTerms, selectable)) unavailable.push(index);
  });
  if (s.toAllocate.length > 0) {
    s.slices ??= newestSlices(state.snapshot);
    s.held ??= allocatedDevices(state.snapshot);
    const r = allocate(s.toAllocate, devicesForNode(s.slices, node), s.held);
    if (r === null) {
      s.unknown ??= `the device search on node ${node.name} needs what the engine does not judge`;
      return unresolvable(NAME, 'unknown');
    }
    if (!r) return unresolvable(NAME, ERR_CANNOT_ALLOCATE);
  }
  if (unavailable.length > 0) {
    for (const i of unavailable) s.unavailableClaims.add(i);
    return unresolvable(NAME, ERR_NOT_AVAILABLE);
  }
  return OK;
}

/** Why the engine cannot judge this attempt (DRA), or null. */
export function draUnknown(state: CycleState): string | null {
  return state.read(DRA_STATE_KEY)?.unknown ?? null;
}

/** DynamicResources.PostFilter: its message, and whether it ended the PostFilter phase (an error). */
export function draPostFilter(state: CycleState): { message: string; error: boolean } {
  const s = state.read(DRA_STATE_KEY);
  if (!s) return { message: POST_STATE_NOT_FOUND, error: true };
  if (s.claims.length === 0) return { message: POST_NO_CLAIMS, error: false };
  for (const index of [...s.unavailableClaims].sort((a, b) => a - b)) {
    const reserved = s.claims[index]!.status?.reservedFor ?? [];
    if (reserved.length === 0 || (reserved.length === 1 && isReservedForPod(state.pod, s.claims[index]!)))
      return { message: POST_DEALLOCATED, error: false };
  }
  return { message: POST_STILL, error: false };
}

export const DynamicResources: SchedulerPlugin = { name: NAME, preFilter, filter };
