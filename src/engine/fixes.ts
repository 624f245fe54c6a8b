/**
 * Minimal fixes with exact amounts, each **re-simulated** before it is offered: a candidate changes a
 * fork of the state (or the object), the object goes through admission and the scheduler again, and
 * only candidates that then pass are returned (`verified: true`, with what they lead to).
 */
import type { Pod, ResourceQuota } from '../k8s/objects.ts';
import type { KObject, Snapshot } from '../k8s/snapshot.ts';
import { Quantity, byteCompare, type ResourceList } from '../quantity.ts';
import type { LimitViolation } from './admission/limitranger.ts';
import { evaluatorFor, quotaMatches, type QuotaFailure } from './admission/resourcequota.ts';
import { podUsage } from './admission/evaluators/pods.ts';
import { clone } from './defaults.ts';
import { simulate, type SimOptions, type SimResult } from './simulate.ts';
import { freeResources, nodeInfoIndex } from './scheduler/node-info.ts';
import { isTerminal } from './pod-resources.ts';
import { releasePod } from './release.ts';
import { withQuotaHard } from './quota-ledger.ts';
import { admitObject } from './admit.ts';
import { LAYERS } from '../k8s/layers.ts';
import { largestNode } from './capacity.ts';

/** Who can make a fix: the team that owns the workload, or the platform team (quotas, nodes). */
export type FixWho = 'app-team' | 'platform';

export interface VerifiedFix {
  who: FixWho;
  summary: string;
  change?: string;
  verified: true;
  outcome: string;
}

interface Candidate {
  who: FixWho;
  summary: string;
  change?: string;
  /** The state and object to re-simulate. */
  apply: (state: Snapshot) => { state: Snapshot; object: KObject };
  /** Require scheduling to succeed too (default true). */
  needSchedule?: boolean;
  /**
   * The layer this candidate fixes. When re-simulation then stops at a *later* layer, the candidate is
   * still offered — it fixes this error — and its outcome names the next blocker.
   */
  fixes?: 'api-validation' | 'limitrange' | 'quota';
}

/** Where the failing pod comes from, so a fix can name the right thing to change. */
export interface PodOrigin {
  /** `deploy/web`, `statefulset/db`, `pod/x` … for kubectl commands. */
  ref?: string;
}

function outcomeOf(r: SimResult): string {
  if (!r.admission.allowed) return 'rejected';
  if (!r.scheduling) return 'admitted';
  if (r.scheduling.scheduled) return `admitted, schedules on ${r.scheduling.node}`;
  return 'admitted, still Pending';
}

/** Runs candidates; keeps those that pass. */
export function verifyCandidates(base: Snapshot, candidates: Candidate[], opts: SimOptions, max = 4): VerifiedFix[] {
  const out: VerifiedFix[] = [];
  for (const c of candidates) {
    if (out.length >= max) break;
    nodeInfoIndex(base);
    const { state, object } = c.apply(base.fork());
    const res = simulate(state, [object], { ...opts, dryRun: false }).results;
    const r = res[res.length - 1];
    if (!r) continue;
    const stoppedAt = !r.admission.allowed
      ? r.admission.layer
      : r.scheduling && !r.scheduling.scheduled
        ? 'scheduler'
        : null;
    if (stoppedAt === null || (stoppedAt === 'scheduler' && c.needSchedule === false)) {
      out.push({ who: c.who, summary: c.summary, change: c.change, verified: true, outcome: outcomeOf(r) });
    } else if (c.fixes && LAYERS[stoppedAt].rank > LAYERS[c.fixes].rank) {
      const next =
        stoppedAt === 'scheduler' ? 'no node fits yet' : (r.admission.message ?? '').replace(/^.*? is forbidden: /, '');
      out.push({
        who: c.who,
        summary: c.summary,
        change: c.change,
        verified: true,
        outcome: `passes ${LAYERS[c.fixes].name}; next: ${LAYERS[stoppedAt].name} — ${next}`,
      });
    }
  }
  return out;
}

function containerNames(pod: Pod): string[] {
  return pod.spec.containers.map((c) => c.name);
}

function setContainerValue(
  pod: Pod,
  container: string,
  which: 'requests' | 'limits',
  resource: string,
  value: string,
): Pod {
  const out = clone(pod);
  for (const c of [...out.spec.containers, ...(out.spec.initContainers ?? [])]) {
    if (c.name !== container) continue;
    const res = (c.resources ??= {});
    const list = (res[which] ??= {});
    list[resource] = value;
  }
  return out;
}

function kubectlSetResources(
  ns: string,
  ref: string | undefined,
  container: string,
  which: 'requests' | 'limits',
  resource: string,
  value: string,
): string | undefined {
  if (!ref || ref.startsWith('pod/')) return undefined;
  return `kubectl -n ${ns} set resources ${ref} -c ${container} --${which}=${resource}=${value}`;
}

function quotaPatch(ns: string, quota: string, resource: string, value: string): string {
  return `kubectl -n ${ns} patch resourcequota ${quota} --type merge -p '{"spec":{"hard":{"${resource}":"${value}"}}}'`;
}

/** The container carrying the most of a resource (the one to lower). */
function biggestContainer(
  pod: Pod,
  which: 'requests' | 'limits',
  resource: string,
): { name: string; value: Quantity } | null {
  let best: { name: string; value: Quantity } | null = null;
  for (const c of pod.spec.containers) {
    const v = Quantity.tryParse(c.resources?.[which]?.[resource]);
    if (v && (!best || v.cmp(best.value) > 0)) best = { name: c.name, value: v };
  }
  return best;
}

/** Owner workload of a pod, as `kind/name` of the top controller (Deployment for ReplicaSet pods). */
export function ownerOf(state: Snapshot, pod: Pod): { kind: string; name: string } | null {
  const ref = pod.metadata.ownerReferences?.find((o) => o.controller) ?? pod.metadata.ownerReferences?.[0];
  if (!ref) return null;
  if (ref.kind === 'ReplicaSet') {
    const rs = state.get('ReplicaSet', pod.metadata.namespace, ref.name);
    const dep = rs?.metadata.ownerReferences?.find((o) => o.kind === 'Deployment');
    if (dep) return { kind: 'Deployment', name: dep.name };
    // Without the ReplicaSet object, a `<deploy>-<hash>` name still names its Deployment.
    const m = /^(.*)-[a-z0-9]{5,10}$/.exec(ref.name);
    if (!rs && m && state.get('Deployment', pod.metadata.namespace, m[1]!)) return { kind: 'Deployment', name: m[1]! };
  }
  return { kind: ref.kind, name: ref.name };
}

/** Owners a fix may scale down. */
function scalable(kind: string): kind is 'Deployment' | 'StatefulSet' | 'ReplicaSet' {
  return kind === 'Deployment' || kind === 'StatefulSet' || kind === 'ReplicaSet';
}

const SHORT_KIND: Record<string, string> = {
  Deployment: 'deploy',
  StatefulSet: 'statefulset',
  ReplicaSet: 'rs',
  Job: 'job',
  DaemonSet: 'ds',
  CronJob: 'cronjob',
};

export function refOf(kind: string, name: string): string {
  return `${SHORT_KIND[kind] ?? kind.toLowerCase()}/${name}`;
}

export interface Holder {
  ref: string;
  kind: string;
  name: string;
  pods: number;
  pending: number;
  perPod: Quantity;
  total: Quantity;
}

/**
 * Who holds a quota resource in a namespace: pods grouped by owner, largest first. With `quota`, only the
 * pods that quota counts (its scopes: a PriorityClass-scoped quota counts only that class's pods).
 */
export function quotaHolders(
  state: Snapshot,
  ns: string,
  resource: string,
  now?: number,
  quota?: ResourceQuota,
): Holder[] {
  const groups = new Map<string, Holder>();
  for (const pod of state.iterate('Pod', ns)) {
    if (isTerminal(pod)) continue;
    if (quota) {
      const ev = evaluatorFor(pod);
      if (!ev || !quotaMatches(ev, quota, pod)) continue;
    }
    const u = podUsage(pod, { now }).get(resource);
    if (!u || u.isZero()) continue;
    const owner = ownerOf(state, pod) ?? { kind: 'Pod', name: pod.metadata.name ?? '' };
    const key = `${owner.kind}/${owner.name}`;
    let h = groups.get(key);
    if (!h)
      groups.set(
        key,
        (h = {
          ref: refOf(owner.kind, owner.name),
          kind: owner.kind,
          name: owner.name,
          pods: 0,
          pending: 0,
          perPod: u,
          total: Quantity.zero(u.format),
        }),
      );
    h.pods++;
    if (!pod.spec.nodeName) h.pending++;
    h.total = h.total.add(u);
    if (u.cmp(h.perPod) > 0) h.perPod = u;
  }
  return [...groups.values()].sort((a, b) => b.total.cmp(a.total) || byteCompare(a.ref, b.ref));
}

function removeWorkloadPods(state: Snapshot, ns: string, holder: Holder, count: number): Snapshot {
  // Scaling down removes pods (Pending ones first, as the ReplicaSet controller prefers unscheduled pods)
  // and gives their usage back to every matching quota.
  const pods = [...state.iterate('Pod', ns)]
    .filter((p) => {
      const o = ownerOf(state, p);
      return o && o.kind === holder.kind && o.name === holder.name && !isTerminal(p);
    })
    // Then the newest first (the controller's ActivePods ranking ends on creation time, newer deleted first).
    .sort(
      (a, b) =>
        Number(!!a.spec.nodeName) - Number(!!b.spec.nodeName) ||
        byteCompare(String(b.metadata.creationTimestamp ?? ''), String(a.metadata.creationTimestamp ?? '')) ||
        byteCompare(b.metadata.name ?? '', a.metadata.name ?? ''),
    )
    .slice(0, count);
  for (const p of pods) releasePod(state, p);
  return state;
}

/** Fixes for `exceeded quota` against the current state. */
export function quotaExceededFixes(
  state: Snapshot,
  pod: Pod,
  failure: Extract<QuotaFailure, { type: 'exceeded' }>,
  origin: PodOrigin,
  opts: SimOptions,
): VerifiedFix[] {
  const ns = pod.metadata.namespace ?? 'default';
  const candidates: Candidate[] = [];
  // The pod as admission saw it: a value the pod does not set may come from LimitRange defaults, and
  // lowering it means setting it explicitly.
  const defaulted = admitObject(pod, state, { ...opts, dryRun: true }).object;
  // 1. Request less: the most the object may request now, per exceeded compute resource.
  let lowered: Pod | null = pod;
  const lowerParts: string[] = [];
  const lowerCmds: string[] = [];
  for (const r of failure.exceeded) {
    const m = /^(requests\.|limits\.)?(cpu|memory|ephemeral-storage)$/.exec(r);
    if (!m || !lowered) {
      lowered = null;
      break;
    }
    const which = m[1] === 'limits.' ? 'limits' : 'requests';
    const free = failure.hard.get(r)!.sub(failure.used.get(r) ?? Quantity.zero());
    const over = failure.requested.get(r)!.sub(free);
    const big = biggestContainer(lowered, which, m[2]!) ?? biggestContainer(defaulted, which, m[2]!);
    if (!big || free.sign() <= 0 || big.value.cmp(over) <= 0) {
      lowered = null;
      break;
    }
    const target = big.value.sub(over);
    lowered = setContainerValue(lowered, big.name, which, m[2]!, target.toString());
    // Requests above a lowered limit would be invalid: lower the request with it.
    if (which === 'limits') {
      const req = Quantity.tryParse(
        lowered.spec.containers.find((c) => c.name === big.name)?.resources?.requests?.[m[2]!],
      );
      if (req && req.cmp(target) > 0)
        lowered = setContainerValue(lowered, big.name, 'requests', m[2]!, target.toString());
    }
    lowerParts.push(`${which === 'limits' ? 'limits' : 'requests'}.${m[2]} of container ${big.name} to ≤ ${target}`);
    const cmd = kubectlSetResources(ns, origin.ref, big.name, which, m[2]!, target.toString());
    if (cmd) lowerCmds.push(cmd);
  }
  if (lowered && lowerParts.length > 0) {
    const p = lowered;
    candidates.push({
      who: 'app-team',
      summary: `lower ${lowerParts.join(' and ')}`,
      change: lowerCmds.join('\n') || undefined,
      apply: (s) => ({ state: s, object: p }),
    });
  }
  // 2. Free quota: scale down the workload that frees enough with the fewest replicas.
  const primary = failure.exceeded[0]!;
  const need = failure.used.get(primary)!.add(failure.requested.get(primary)!).sub(failure.hard.get(primary)!);
  const ownRef = origin.ref;
  const counted = state.get('ResourceQuota', ns, failure.quota) ?? undefined;
  const holders = quotaHolders(state, ns, primary, opts.now, counted).filter(
    (h) => h.ref !== ownRef && scalable(h.kind),
  );
  const scaleOptions = holders
    .map((h) => {
      const k = Number((need.nanos + h.perPod.nanos - 1n) / h.perPod.nanos);
      return { h, k };
    })
    .filter(({ h, k }) => k >= 1 && k <= h.pods)
    .sort((a, b) => a.k - b.k || b.h.pending - a.h.pending);
  for (const { h, k } of scaleOptions.slice(0, 2)) {
    const w = scalable(h.kind) ? state.get(h.kind, ns, h.name) : undefined;
    const replicas = w?.spec.replicas ?? h.pods;
    const to = Math.max(0, replicas - k);
    candidates.push({
      who: 'app-team',
      summary: `scale ${h.ref} ${replicas} → ${to} (frees ${h.perPod.times(k)} of ${primary})`,
      change: `kubectl -n ${ns} scale ${h.ref} --replicas=${to}`,
      apply: (s) => ({ state: removeWorkloadPods(s, ns, h, k), object: pod }),
    });
  }
  // 3. Raise the quota to exactly what admits the object.
  const raised = failure.exceeded.map((r) => ({ r, v: failure.used.get(r)!.add(failure.requested.get(r)!) }));
  candidates.push({
    who: 'platform',
    summary: `raise ${failure.quota} ${raised.map(({ r, v }) => `${r} to ${v}`).join(', ')}`,
    change: raised.map(({ r, v }) => quotaPatch(ns, failure.quota, r, v.toString())).join('\n'),
    apply: (s) => {
      for (const { r, v } of raised) withQuotaHard(s, ns, failure.quota, r, v);
      return { state: s, object: pod };
    },
    needSchedule: false,
  });
  return verifyCandidates(state, candidates, opts);
}

/** Fixes for `must specify`: give the named containers the missing values (the LimitRange defaults when any). */
export function mustSpecifyFixes(
  state: Snapshot,
  pod: Pod,
  missing: Record<string, string[]>,
  origin: PodOrigin,
  opts: SimOptions,
): VerifiedFix[] {
  const ns = pod.metadata.namespace ?? 'default';
  const lrDefaults = defaultsOf(state, ns);
  let fixed = pod;
  const parts: string[] = [];
  const cmds: string[] = [];
  const fallback: Record<string, string> = { cpu: '100m', memory: '128Mi' };
  const fallbackLimit: Record<string, string> = { cpu: '500m', memory: '512Mi' };
  for (const [res, containers] of Object.entries(missing)) {
    const m = /^(requests\.|limits\.)?(cpu|memory)$/.exec(res);
    if (!m) continue;
    const which = m[1] === 'limits.' ? 'limits' : 'requests';
    const base = m[2]!;
    const preset = (
      which === 'limits'
        ? (lrDefaults.default[base] ?? fallbackLimit[base])
        : (lrDefaults.defaultRequest[base] ?? fallback[base])
    )!;
    for (const c of containers.length ? containers : containerNames(pod)) {
      // A limit below the container's own request is invalid (422): never set one lower than the request.
      const req =
        which === 'limits'
          ? Quantity.tryParse(fixed.spec.containers.find((x) => x.name === c)?.resources?.requests?.[base])
          : null;
      const value = req && req.cmp(Quantity.parse(preset)) > 0 ? req.toString() : preset;
      fixed = setContainerValue(fixed, c, which, base, value);
      // A limit below the request is invalid: raise the limit with it when needed.
      if (which === 'requests') {
        const lim = Quantity.tryParse(fixed.spec.containers.find((x) => x.name === c)?.resources?.limits?.[base]);
        if (lim && lim.cmp(Quantity.parse(value)) < 0) fixed = setContainerValue(fixed, c, 'limits', base, value);
      }
      parts.push(`${which}.${base}=${value} on ${c}`);
      const cmd = kubectlSetResources(ns, origin.ref, c, which, base, value);
      if (cmd) cmds.push(cmd);
    }
  }
  const candidates: Candidate[] = [];
  if (parts.length)
    candidates.push({
      who: 'app-team',
      summary: `set ${parts.join(', ')}`,
      change: cmds.join('\n') || undefined,
      apply: (s) => ({ state: s, object: fixed }),
      needSchedule: false,
      fixes: 'quota',
    });
  // For everyone: a LimitRange that defaults the missing values.
  const lrDefault: Record<string, string> = {};
  const lrDefaultRequest: Record<string, string> = {};
  for (const res of Object.keys(missing)) {
    const m = /^(requests\.|limits\.)?(cpu|memory)$/.exec(res);
    if (!m) continue;
    if (m[1] === 'limits.') lrDefault[m[2]!] = fallback[m[2]!] === '100m' ? '500m' : '512Mi';
    else lrDefaultRequest[m[2]!] = fallback[m[2]!]!;
  }
  for (const [k, v] of Object.entries(lrDefaultRequest))
    if (!(k in lrDefault)) lrDefault[k] = v === '100m' ? '500m' : '512Mi';
  const lr: KObject = {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: 'quota-doctor-defaults', namespace: ns },
    spec: { limits: [{ type: 'Container', default: lrDefault, defaultRequest: lrDefaultRequest }] },
  };
  candidates.push({
    who: 'platform',
    summary: `add a LimitRange with container defaults (${Object.entries(lrDefaultRequest)
      .map(([k, v]) => `${k} request ${v}`)
      .concat(Object.entries(lrDefault).map(([k, v]) => `${k} limit ${v}`))
      .join(', ')}) so every pod gets them`,
    change: `kubectl -n ${ns} apply -f - <<'EOF'\napiVersion: v1\nkind: LimitRange\nmetadata: {name: quota-doctor-defaults}\nspec:\n  limits:\n  - type: Container\n    default: ${JSON.stringify(lrDefault)}\n    defaultRequest: ${JSON.stringify(lrDefaultRequest)}\nEOF`,
    apply: (s) => {
      s.put(lr);
      return { state: s, object: pod };
    },
    needSchedule: false,
  });
  return verifyCandidates(state, candidates, opts);
}

function defaultsOf(
  state: Snapshot,
  ns: string,
): { default: Record<string, string>; defaultRequest: Record<string, string> } {
  const out = { default: {} as Record<string, string>, defaultRequest: {} as Record<string, string> };
  for (const lr of state.list('LimitRange', ns)) {
    for (const item of lr.spec.limits) {
      if (item.type !== 'Container') continue;
      for (const [k, v] of Object.entries(item.default ?? {})) out.default[k] ??= String(v);
      for (const [k, v] of Object.entries(item.defaultRequest ?? {})) out.defaultRequest[k] ??= String(v);
    }
  }
  return out;
}

/** Fixes for LimitRange violations: the exact value to set, both ways for a ratio. */
export function limitRangeFixes(
  state: Snapshot,
  pod: Pod,
  violations: LimitViolation[],
  origin: PodOrigin,
  opts: SimOptions,
): VerifiedFix[] {
  const ns = pod.metadata.namespace ?? 'default';
  const ways: { parts: string[]; cmds: string[]; pod: Pod }[] = [
    { parts: [], cmds: [], pod },
    { parts: [], cmds: [], pod },
  ];
  const set = (w: (typeof ways)[number], c: string, which: 'requests' | 'limits', res: string, v: Quantity) => {
    w.pod = setContainerValue(w.pod, c, which, res, v.toString());
    w.parts.push(`${which}.${res} of ${c} to ${v}`);
    const cmd = kubectlSetResources(ns, origin.ref, c, which, res, v.toString());
    if (cmd) w.cmds.push(cmd);
  };
  for (const v of violations) {
    if (v.scope !== 'Container' || !v.container) continue;
    if (v.bound === 'max') {
      for (const w of ways) {
        set(w, v.container, 'limits', v.resource, v.limit);
        const req = Quantity.tryParse(
          w.pod.spec.containers.find((c) => c.name === v.container)?.resources?.requests?.[v.resource],
        );
        if (req && req.cmp(v.limit) > 0) set(w, v.container, 'requests', v.resource, v.limit);
      }
    } else if (v.bound === 'min') {
      for (const w of ways) {
        set(w, v.container, 'requests', v.resource, v.limit);
        const lim = Quantity.tryParse(
          w.pod.spec.containers.find((c) => c.name === v.container)?.resources?.limits?.[v.resource],
        );
        if (lim && lim.cmp(v.limit) < 0) set(w, v.container, 'limits', v.resource, v.limit);
      }
    } else if (v.bound === 'ratio' && v.request && v.limitValue) {
      // Raise the request to ≥ limit / ratio (rounded up to a milli), or lower the limit to ≤ request × ratio.
      const needReq = Quantity.fromNanos(ceilDiv(v.limitValue.nanos * 1_000_000_000n, v.limit.nanos), v.request.format);
      const milli = Quantity.fromMilli(needReq.exactMilliCeil(), v.request.format);
      set(
        ways[0]!,
        v.container,
        'requests',
        v.resource,
        v.resource === 'cpu' ? milli : Quantity.fromInt(needReq.value(), v.request.format),
      );
      const maxLim = Quantity.fromNanos((v.request.nanos * v.limit.nanos) / 1_000_000_000n, v.limitValue.format);
      set(
        ways[1]!,
        v.container,
        'limits',
        v.resource,
        v.resource === 'cpu'
          ? Quantity.fromMilli(
              maxLim.exactMilliCeil() - (maxLim.nanos % 1_000_000n === 0n ? 0n : 1n),
              v.limitValue.format,
            )
          : Quantity.fromInt(maxLim.nanos / 1_000_000_000n, v.limitValue.format),
      );
    }
  }
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for (const w of ways) {
    const key = w.parts.join(', ');
    if (!w.parts.length || seen.has(key)) continue;
    seen.add(key);
    const p = w.pod;
    candidates.push({
      who: 'app-team',
      summary: `set ${key}`,
      change: w.cmds.join('\n') || undefined,
      apply: (s) => ({ state: s, object: p }),
      needSchedule: false,
      fixes: 'limitrange',
    });
  }
  return verifyCandidates(state, candidates, opts);
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

export interface NodeGap {
  node: string;
  reasons: string[];
  /** For Insufficient cpu/memory: free now and how much is missing (canonical strings). */
  free?: Record<string, string>;
  short?: Record<string, string>;
}

/** Per node, what stops the pod and by how much (from the scheduler's per-node statuses). */
export function nodeGaps(state: Snapshot, pod: Pod, statuses: Map<string, { reasons: string[] }>): NodeGap[] {
  const index = nodeInfoIndex(state);
  const req = podRequestVector(pod);
  const out: NodeGap[] = [];
  for (const [node, st] of statuses) {
    const info = index.get(node);
    const gap: NodeGap = { node, reasons: st.reasons };
    if (info && st.reasons.some((r) => r.startsWith('Insufficient'))) {
      const f = freeResources(info);
      gap.free = {
        cpu: Quantity.fromMilli(Math.max(0, f.cpu)).toString(),
        memory: formatMemoryFloor(Math.max(0, f.memory)),
      };
      gap.short = {};
      if (req.cpu > f.cpu) gap.short.cpu = Quantity.fromMilli(req.cpu - Math.max(0, f.cpu)).toString();
      if (req.memory > f.memory)
        gap.short.memory = Quantity.fromInt(req.memory - Math.max(0, f.memory), 'BinarySI').toString();
    }
    out.push(gap);
  }
  return out;
}

function podRequestVector(pod: Pod): { cpu: number; memory: number } {
  let cpu = 0;
  let memory = 0;
  const u = podUsage(pod);
  const c = u.get('requests.cpu');
  const m = u.get('requests.memory');
  if (c) cpu = Number(c.milliValue());
  if (m) memory = Number(m.value());
  return { cpu, memory };
}

/** Fixes for a pod no node fits: request less, tolerate, or the capacity to add. */
export function unschedulableFixes(
  state: Snapshot,
  pod: Pod,
  statuses: Map<string, { reasons: string[] }>,
  origin: PodOrigin,
  opts: SimOptions,
): VerifiedFix[] {
  const ns = pod.metadata.namespace ?? 'default';
  const index = nodeInfoIndex(state);
  const req = podRequestVector(pod);
  const candidates: Candidate[] = [];
  // Nodes that fail only on cpu/memory: the largest free one bounds what the pod may request.
  const resourceOnly = [...statuses].filter(
    ([, s]) => s.reasons.length > 0 && s.reasons.every((r) => r === 'Insufficient cpu' || r === 'Insufficient memory'),
  );
  let best: { node: string; cpu: number; memory: number } | null = null;
  for (const [node] of resourceOnly) {
    const info = index.get(node);
    if (!info) continue;
    const f = freeResources(info);
    const cpuOk = req.cpu <= f.cpu;
    const memOk = req.memory <= f.memory;
    // Prefer the node that needs the smallest cut.
    const cut =
      (cpuOk ? 0 : (req.cpu - f.cpu) / Math.max(req.cpu, 1)) +
      (memOk ? 0 : (req.memory - f.memory) / Math.max(req.memory, 1));
    if (f.cpu <= 0 && !cpuOk) continue;
    if (f.memory <= 0 && !memOk) continue;
    if (
      !best ||
      cut <
        (req.cpu > best.cpu ? (req.cpu - best.cpu) / Math.max(req.cpu, 1) : 0) +
          (req.memory > best.memory ? (req.memory - best.memory) / Math.max(req.memory, 1) : 0)
    )
      best = { node, cpu: f.cpu, memory: f.memory };
  }
  if (best && pod.spec.containers.length > 0) {
    let p = pod;
    const parts: string[] = [];
    const cmds: string[] = [];
    for (const [res, want, free] of [
      ['cpu', req.cpu, best.cpu],
      ['memory', req.memory, best.memory],
    ] as const) {
      if (want <= free) continue;
      const big = biggestContainer(p, 'requests', res);
      if (!big) continue;
      const over = want - free;
      const curr = res === 'cpu' ? Number(big.value.milliValue()) : Number(big.value.value());
      if (curr <= over) continue;
      // Memory reads like a request: whole Mi, rounded down (still ≤ what fits).
      const target = res === 'cpu' ? Quantity.fromMilli(curr - over) : Quantity.parse(formatMemoryFloor(curr - over));
      p = setContainerValue(p, big.name, 'requests', res, target.toString());
      parts.push(`requests.${res} of ${big.name} to ≤ ${target}`);
      const cmd = kubectlSetResources(ns, origin.ref, big.name, 'requests', res, target.toString());
      if (cmd) cmds.push(cmd);
    }
    if (parts.length) {
      const fixed = p;
      candidates.push({
        who: 'app-team',
        summary: `lower ${parts.join(' and ')} (fits ${best.node})`,
        change: cmds.join('\n') || undefined,
        apply: (s) => ({ state: s, object: fixed }),
      });
    }
  }
  // Taints: tolerate the taint of the nodes that only fail on it (a choice for the app team, if intended).
  const tainted = [...statuses].filter(([, s]) => s.reasons.some((r) => r.includes('untolerated taint')));
  const taintKeys = new Map<string, { key: string; value?: string | null; effect: string; nodes: number }>();
  for (const [node] of tainted) {
    for (const t of index.get(node)?.taints ?? []) {
      if (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') continue;
      if (t.key.startsWith('node-role.kubernetes.io/') || t.key.startsWith('node.kubernetes.io/')) continue;
      const k = `${t.key}=${t.value ?? ''}:${t.effect}`;
      const e = taintKeys.get(k) ?? { key: t.key, value: t.value, effect: t.effect, nodes: 0 };
      e.nodes++;
      taintKeys.set(k, e);
    }
  }
  for (const t of taintKeys.values()) {
    const tol = {
      key: t.key,
      operator: t.value ? 'Equal' : 'Exists',
      ...(t.value ? { value: t.value } : {}),
      effect: t.effect,
    };
    const p = clone(pod);
    p.spec.tolerations = [...(p.spec.tolerations ?? []), tol];
    candidates.push({
      who: 'app-team',
      summary: `tolerate ${t.key}${t.value ? `=${t.value}` : ''}:${t.effect} (${t.nodes} node${t.nodes === 1 ? '' : 's'}) — only if the pod belongs on them`,
      // A JSON patch appends to the template's tolerations (a merge patch would replace the whole list).
      change:
        origin.ref && !origin.ref.startsWith('pod/')
          ? `kubectl -n ${ns} patch ${origin.ref} --type json -p '[{"op":"add","path":"/spec/template/spec/tolerations${pod.spec.tolerations?.length ? '/-' : ''}","value":${JSON.stringify(pod.spec.tolerations?.length ? tol : [tol])}}]'`
          : `spec.tolerations: [${JSON.stringify(tol)}]`,
      apply: (s) => ({ state: s, object: p }),
    });
  }
  // New capacity: a node shaped like the biggest schedulable one, with at least the request.
  const template = largestNode(state);
  if (template && (req.cpu > 0 || req.memory > 0)) {
    const cpu = Math.max(req.cpu, template.cpu);
    const mem = Math.max(req.memory, template.memory);
    const cpuQ = Quantity.fromMilli(cpu);
    const memQ = Quantity.fromInt(mem, 'BinarySI');
    candidates.push({
      who: 'platform',
      summary: `add a node with ${[req.cpu > 0 ? `≥ ${Quantity.fromMilli(req.cpu)} CPU` : '', req.memory > 0 ? `≥ ${Quantity.fromInt(req.memory, 'BinarySI')} memory` : ''].filter(Boolean).join(' and ')} allocatable${template.pool ? ` to pool ${template.pool}` : ''}`,
      apply: (s) => {
        const base = template.node;
        s.put({
          ...clone(base),
          metadata: {
            ...clone(base.metadata),
            name: 'new-node',
            labels: { ...(base.metadata.labels ?? {}), 'kubernetes.io/hostname': 'new-node' },
          },
          spec: {
            ...(base.spec ?? {}),
            unschedulable: false,
            taints: (base.spec?.taints ?? []).filter((t) => t.effect === 'PreferNoSchedule'),
          },
          status: {
            ...(base.status ?? {}),
            allocatable: { ...(base.status?.allocatable ?? {}), cpu: cpuQ.toString(), memory: memQ.toString() },
          },
        } as KObject);
        return { state: s, object: pod };
      },
    });
  }
  return verifyCandidates(state, candidates, opts);
}

function _toResourceRecord(list: ResourceList): Record<string, string> {
  return Object.fromEntries([...list].sort(([a], [b]) => byteCompare(a, b)).map(([k, v]) => [k, v.toString()]));
}

/** Free memory read as a request bound: whole Mi (rounded down) from 1Mi up, like people write requests. */
export function formatMemoryFloor(bytes: number): string {
  const mi = 1024 * 1024;
  return (
    bytes >= mi
      ? Quantity.fromInt(Math.floor(bytes / mi) * mi, 'BinarySI')
      : Quantity.fromInt(Math.max(0, Math.floor(bytes)), 'BinarySI')
  ).toString();
}
