/**
 * The runtime reply with numbers (issue #17, Deliver 4): which container, its memory limit (or, for an
 * eviction, its request), what it used when the paste or the state says, and the one change that fits —
 * a `kubectl set resources` command rounded up to a sensible unit, or "lower the app's own cap below the
 * limit" — checked against the namespace's LimitRange max and quota headroom when the state is known.
 *
 * Never a number the paste or the state does not hold: the command's amount is the paste's own usage (or
 * the limit it was killed at) rounded up to the next step (64Mi below 1Gi, 256Mi below 8Gi, then 1Gi).
 *
 * Eviction ranks pods by whether their usage exceeds their request, then priority, then usage above the
 * request (pkg/kubelet/eviction/helpers.go, rankMemoryPressure / exceedMemoryRequests): the request is
 * what keeps a pod off the top of that list, so the fix is the request, not the limit.
 */
import type { AppCap, Finding, FactsOf } from '../../parse/index.ts';
import type { Container, LimitRange, Pod, ResourceQuota } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import { ownerOf, quotaCounts } from '../../engine/fixes/index.ts';
import { shortRef } from '../../engine/changes/command.ts';
import { appCapIn, evictionNumbers } from '../../parse/runtime.ts';

type RuntimeFinding = Extract<Finding, { kind: 'runtime' }>;

const MI = 1024n * 1024n;
const GI = 1024n * MI;

/** What the state says of the runtime finding's object: its workload, container and resources, and the namespace's bounds. */
export interface RuntimeState {
  /** `deploy/web`, `sts/db`: what `kubectl set resources` changes. */
  workload?: string;
  /** Replicas of the workload (how many pods a quota change multiplies). */
  replicas?: number;
  /** The container, when the state has exactly one or the finding names one the pod has. */
  container?: string;
  limit?: string;
  request?: string;
  /** The resource a change is about, per LimitRange: the smallest Container max (and its object). */
  limitRangeMax?: Partial<Record<'limit' | 'request', { name: string; max: string }>>;
  /** Quotas that count the pod and track `limits.<r>` / `requests.<r>`: name, resource, free. */
  quotas: { name: string; resource: string; free: Quantity }[];
  /** The paste named no pod: the pods of the namespace whose status shows the same (the first is answered). */
  tied?: { pod: string; others: string[] };
  /** What the pod's own eviction message (status.message) says, when the paste does not. */
  eviction?: { container?: string; used?: string; request?: string; resource?: string };
  /** The app's own memory cap in the container's command or args (`--maxmemory 2gb`, `-Xmx4g`). */
  appCap?: AppCap;
}

/**
 * The app's own memory cap as the container's spec sets it: its command and args as one command line. The env is
 * not read: an env value is never echoed (GOMEMLIMIT is read only from a paste).
 */
function appCapOfContainer(c: Container): AppCap | undefined {
  const spec = c as { command?: unknown; args?: unknown };
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return appCapIn([...strings(spec.command), ...strings(spec.args)].join(' '));
}

/** The `terminated.reason` of a container state (`{terminated: {reason}}`). */
function terminatedReason(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null) return undefined;
  const t = (state as { terminated?: unknown }).terminated;
  if (typeof t !== 'object' || t === null) return undefined;
  const r = (t as { reason?: unknown }).reason;
  return typeof r === 'string' ? r : undefined;
}

/** The container of a pod the kernel OOM-killed (its state or last state says `OOMKilled`). */
function oomKilledContainer(pod: Pod): string | undefined {
  return (pod.status?.containerStatuses ?? []).find(
    (c) => terminatedReason(c.state) === 'OOMKilled' || terminatedReason(c.lastState) === 'OOMKilled',
  )?.name;
}

/** Whether a pod's status shows the finding's reason. */
function showsReason(pod: Pod, reason: string): boolean {
  if (reason === 'Evicted') return pod.status?.reason === 'Evicted';
  return oomKilledContainer(pod) !== undefined;
}

/** The next step at or above `bytes` (strictly above when `above`): 64Mi below 1Gi, 256Mi below 8Gi, else 1Gi. */
export function roundUpMemory(bytes: bigint, above: boolean): bigint {
  const step = bytes < GI ? 64n * MI : bytes < 8n * GI ? 256n * MI : GI;
  const n = above ? bytes / step + 1n : (bytes + step - 1n) / step;
  return (n === 0n ? 1n : n) * step;
}

/** `512Mi`, `2Gi`: binary units a person would type. */
export function formatMemory(bytes: bigint): string {
  if (bytes % GI === 0n) return `${bytes / GI}Gi`;
  if (bytes % MI === 0n) return `${bytes / MI}Mi`;
  return Quantity.fromInt(bytes, 'BinarySI').toString();
}

/** A pasted amount with a readable form beside it when the paste's is not (`48458972Ki (46.2Gi)`). */
export function readable(q: string): string {
  const v = Quantity.tryParse(q);
  if (!v) return q;
  const b = v.value();
  if (b % MI === 0n || b < MI) return v.toString() === q ? q : `${q} (${v})`;
  const approx = b >= GI ? `${(Number(b) / Number(GI)).toFixed(1)}Gi` : `${Math.round(Number(b) / Number(MI))}Mi`;
  return `${q} (${approx})`;
}

function bytesOf(q: string | undefined): bigint | undefined {
  const v = q === undefined ? undefined : Quantity.tryParse(q);
  return v ? v.value() : undefined;
}

/** `deploy/W` from a pod name the paste gives, when the state cannot say (`web-7c5d8f9b4-x2k9q`, `db-0`). */
function workloadFromName(f: RuntimeFinding): string | undefined {
  if (f.controller) {
    if (f.controller.kind === 'ReplicaSet') {
      const m = /^(.*)-[a-z0-9]{5,10}$/.exec(f.controller.name);
      return m ? `deploy/${m[1]}` : `rs/${f.controller.name}`;
    }
    return shortRef(f.controller.kind, f.controller.name);
  }
  const name = f.object?.name;
  if (!name) return undefined;
  const rs = /^(.*)-[a-z0-9]{6,10}-[a-z0-9]{5}$/.exec(name);
  if (rs) return `deploy/${rs[1]}`;
  const sts = /^(.*)-\d{1,4}$/.exec(name);
  if (sts) return shortRef('StatefulSet', sts[1]!);
  return undefined;
}

function resourceOfFinding(f: RuntimeFinding): string {
  return f.facts.reason === 'Evicted' ? (f.facts.resource ?? 'memory') : 'memory';
}

/** What the state holds about the finding's pod (or its workload): undefined when it holds neither. */
export function runtimeState(state: Snapshot, f: RuntimeFinding, ns: string): RuntimeState | undefined {
  const resource = resourceOfFinding(f);
  const name = f.object?.name;
  let pod = name ? state.get('Pod', ns, name) : undefined;
  let tied: RuntimeState['tied'];
  if (!name && !f.controller) {
    // No pod in the paste: the namespace's pods whose status shows the same kill or eviction.
    const hits = state.list('Pod', ns).filter((p) => showsReason(p, f.facts.reason));
    pod = hits[0];
    if (pod) tied = { pod: pod.metadata.name ?? '', others: hits.slice(1).map((p) => p.metadata.name ?? '') };
  }
  let containers: Container[] | undefined = pod?.spec.containers;
  let workload: string | undefined;
  let replicas: number | undefined;
  let counted: Pod | undefined = pod;
  if (pod) {
    const owner = ownerOf(state, pod);
    if (owner) {
      workload = shortRef(owner.kind, owner.name);
      const w = state.get(owner.kind, ns, owner.name);
      const r = (w?.spec as { replicas?: number | null } | undefined)?.replicas;
      if (typeof r === 'number') replicas = r;
    }
  } else {
    const guess = workloadFromName(f);
    const [short, wname] = guess ? guess.split('/') : [];
    const kind =
      short === shortRef('Deployment', '').split('/')[0]
        ? 'Deployment'
        : short === shortRef('StatefulSet', '').split('/')[0]
          ? 'StatefulSet'
          : undefined;
    const w = kind && wname ? state.get(kind, ns, wname) : undefined;
    if (!w || !kind || !wname) return undefined;
    workload = guess;
    const spec = w.spec as { replicas?: number | null; template?: { spec?: { containers?: Container[] } } };
    if (typeof spec.replicas === 'number') replicas = spec.replicas;
    containers = spec.template?.spec?.containers;
    if (containers)
      counted = { apiVersion: 'v1', kind: 'Pod', metadata: { name: wname, namespace: ns }, spec: { containers } };
  }
  const killed = pod && f.facts.reason !== 'Evicted' ? oomKilledContainer(pod) : undefined;
  const message = (pod?.status as { message?: unknown } | undefined)?.message;
  const ev = f.facts.reason === 'Evicted' && typeof message === 'string' ? evictionNumbers(message) : {};
  const wanted = f.facts.container ?? killed ?? ev.container;
  const c =
    containers?.find((x) => x.name === wanted) ?? (containers?.length === 1 && !wanted ? containers[0] : undefined);
  const out: RuntimeState = { quotas: [] };
  if (tied) out.tied = tied;
  if (ev.used) out.eviction = ev;
  if (workload) out.workload = workload;
  if (replicas !== undefined) out.replicas = replicas;
  if (c) {
    out.container = c.name;
    const lim = c.resources?.limits?.[resource];
    const req = c.resources?.requests?.[resource];
    if (lim !== undefined && lim !== null) out.limit = String(lim);
    if (req !== undefined && req !== null) out.request = String(req);
    const cap = appCapOfContainer(c);
    if (cap) out.appCap = cap;
  }
  for (const lr of state.list('LimitRange', ns) as LimitRange[]) {
    for (const item of lr.spec.limits) {
      if (item.type !== 'Container') continue;
      const max = item.max?.[resource];
      if (max === undefined || max === null) continue;
      const prev = out.limitRangeMax?.limit;
      if (!prev || Quantity.parse(String(max)).cmp(Quantity.parse(prev.max)) < 0) {
        out.limitRangeMax = {
          limit: { name: lr.metadata.name ?? '', max: String(max) },
          request: { name: lr.metadata.name ?? '', max: String(max) },
        };
      }
    }
  }
  for (const q of state.list('ResourceQuota', ns) as ResourceQuota[]) {
    const qn = q.metadata.name ?? '';
    const counts = counted ? quotaCounts(state, ns, qn) : undefined;
    if (counts && counted && !counts(counted)) continue;
    for (const key of [`limits.${resource}`, `requests.${resource}`, ...(resource === 'memory' ? ['memory'] : [])]) {
      const hard = Quantity.tryParse(q.spec?.hard?.[key]);
      if (!hard) continue;
      const used = Quantity.tryParse(q.status?.used?.[key]) ?? Quantity.zero();
      out.quotas.push({ name: qn, resource: key, free: hard.sub(used) });
    }
  }
  return out;
}

/** The lines of a runtime reply: numbers, the one change, and what would refuse it. */
export function runtimeLines(f: RuntimeFinding, ns: string | undefined, st?: RuntimeState): string[] {
  const facts = f.facts;
  // A pod found by its status answers as that pod; the eviction message of its status fills what the paste lacks.
  const g = st?.tied ? { ...f, object: { resource: 'pods', name: st.tied.pod } } : f;
  const e = st?.eviction;
  const h: RuntimeFinding =
    e && !facts.used
      ? {
          ...g,
          facts: {
            ...facts,
            ...(e.container && !facts.container ? { container: e.container } : {}),
            ...(e.resource ? { resource: e.resource } : {}),
            used: e.used!,
            ...(e.request ? { request: e.request } : {}),
          },
        }
      : g;
  const out: string[] = [];
  if (st?.tied) {
    const others = st.tied.others;
    out.push(
      `This is pod/${st.tied.pod}${ns ? ` (${ns})` : ''}: its status shows ${facts.reason === 'Evicted' ? 'the eviction' : 'the OOM kill'}${others.length ? ` — and ${others.length} more pod${others.length === 1 ? '' : 's'}: ${others.slice(0, 5).join(', ')}${others.length > 5 ? ', …' : ''}` : ''}.`,
    );
  }
  switch (facts.reason) {
    case 'OOMKilled':
    case 'ExitCode137':
      out.push(...oomLines(h, ns, st));
      break;
    case 'Evicted':
      out.push(...evictionLines(h, ns, st));
      break;
    default:
      break;
  }
  return out;
}

function containerWords(facts: FactsOf<'runtime'>, st?: RuntimeState): string {
  const c = facts.container ?? st?.container;
  return c ? `Container ${c}` : 'The container';
}

function command(f: RuntimeFinding, ns: string | undefined, st: RuntimeState | undefined, what: string): string {
  const workload = st?.workload ?? workloadFromName(f) ?? 'deploy/WORKLOAD';
  const container = f.facts.container ?? st?.container;
  return `kubectl ${ns ? `-n ${ns} ` : ''}set resources ${workload}${container ? ` -c ${container}` : ''} ${what}`;
}

/** What would refuse raising `which` (limit or request) of `resource` from `current` to `target`. */
function refusals(
  st: RuntimeState | undefined,
  which: 'limit' | 'request',
  resource: string,
  current: bigint | undefined,
  target: bigint,
): string[] {
  if (!st) return [];
  const out: string[] = [];
  const lr = st.limitRangeMax?.[which];
  if (lr) {
    const max = bytesOf(lr.max);
    if (max !== undefined && target > max)
      out.push(
        `⚠ Raising it to ${formatMemory(target)} would be refused: LimitRange ${lr.name} allows at most ${lr.max} ${resource} per container (the platform team can raise it).`,
      );
  }
  const key = which === 'limit' ? `limits.${resource}` : `requests.${resource}`;
  const pods = st.replicas ?? 1;
  const more = (target - (current ?? 0n)) * BigInt(pods);
  for (const q of st.quotas) {
    if (q.resource !== key && !(which === 'request' && q.resource === resource)) continue;
    const free = q.free.value();
    if (more > free)
      out.push(
        `⚠ Raising it would be refused by ResourceQuota ${q.name}: ${q.resource} has ${formatMemory(free < 0n ? 0n : free)} free, ${pods} pod${pods === 1 ? '' : 's'} × ${formatMemory(target - (current ?? 0n))} more need ${formatMemory(more)} (the platform team can raise it, or free ${q.resource} in the namespace).`,
      );
  }
  return out;
}

/** Without a container name the command has no `-c`: it then sets every container of the workload. */
function unnamed(facts: FactsOf<'runtime'>, st?: RuntimeState): string[] {
  return facts.container || st?.container
    ? []
    : ['The paste does not name the container: without -c this sets every container; add -c NAME for one.'];
}

function oomLines(f: RuntimeFinding, ns: string | undefined, st?: RuntimeState): string[] {
  const facts = f.facts;
  const out: string[] = [];
  const limit = facts.limit ?? st?.limit;
  const request = facts.request ?? st?.request;
  const who = containerWords(facts, st);
  const parts: string[] = [];
  parts.push(limit ? `memory limit ${limit}` : 'no memory limit in the paste');
  if (request) parts.push(`request ${request}`);
  if (facts.used) parts.push(`it used ${readable(facts.used)} when killed`);
  out.push(`${who}${facts.process ? ` (process ${facts.process})` : ''}: ${parts.join(', ')}.`);
  if (facts.limit && st?.limit && st.limit !== facts.limit)
    out.push(`Its limit is ${st.limit} now (the paste says ${facts.limit}).`);
  const limitBytes = bytesOf(limit);
  const cap = facts.appCap ?? st?.appCap;
  const capBytes = bytesOf(cap?.memory);
  const where =
    !facts.appCap && cap ? `, in the container's ${cap.setting.startsWith('GOMEMLIMIT') ? 'env' : 'command line'}` : '';
  if (cap && capBytes !== undefined && limitBytes !== undefined && capBytes >= limitBytes) {
    out.push(
      `The app's own cap ${cap.setting} (${cap.memory}${where}) is at or above the limit ${limit}: the kernel kills it before the app limits itself. Lower the app's cap below ${limit}${cap.heapOnly ? ' (that cap is the heap only: leave room for the rest of the process)' : ''} — or raise the limit above ${cap.memory}.`,
    );
    return out;
  }
  if (cap && capBytes !== undefined && limitBytes !== undefined && cap.heapOnly)
    out.push(
      `${cap.setting} (${cap.memory}${where}) is under the limit ${limit}, but it bounds the heap only: the process uses more than that.`,
    );
  const usedBytes = bytesOf(facts.used);
  const base =
    usedBytes === undefined ? limitBytes : limitBytes === undefined || usedBytes > limitBytes ? usedBytes : limitBytes;
  if (base === undefined) {
    out.push(
      `The paste gives no memory limit or usage: \`kubectl ${ns ? `-n ${ns} ` : ''}get pod ${f.object?.name ?? 'POD'} -o jsonpath='{.spec.containers[*].resources}'\` shows the limit; raise it above what the container needs.`,
    );
    return out;
  }
  const target = roundUpMemory(base, true);
  out.push(
    `Raise the limit above what it used — the next step is ${formatMemory(target)}${usedBytes === undefined ? ` (the paste does not say how much more it needs: it was killed at ${limit})` : ''}:`,
  );
  const what = [`--limits=memory=${formatMemory(target)}`];
  out.push(command(f, ns, st, what.join(' ')));
  out.push(...unnamed(facts, st));
  out.push(...refusals(st, 'limit', 'memory', limitBytes, target));
  return out;
}

function evictionLines(f: RuntimeFinding, ns: string | undefined, st?: RuntimeState): string[] {
  const facts = f.facts;
  const out: string[] = [];
  const resource = facts.resource ?? 'memory';
  const request = facts.request ?? st?.request;
  const who = containerWords(facts, st);
  // The kubelet's local-storage limit evictions (pkg/kubelet/eviction/helpers.go): the pod went over a limit
  // of its own, not the node over a threshold — the request does not help.
  if (!facts.used && resource === 'ephemeral-storage' && facts.limit) {
    out.push(
      `The kubelet evicted the pod for going over its own ephemeral-storage limit of ${facts.limit} (the containers' ephemeral-storage limits, or an emptyDir's sizeLimit), not for node pressure.`,
    );
    out.push('Raise that limit above what the pod writes, or move the data to a volume:');
    out.push(command(f, ns, st, '--limits=ephemeral-storage=SIZE'));
    out.push(...unnamed(facts, st));
    return out;
  }
  if (!facts.used) {
    if (request) out.push(`${who}: ${resource} request ${request}.`);
    out.push(
      `Pods using more ${resource} than they request are evicted first: set the request to what the container really uses (\`kubectl top pod\`).`,
    );
    return out;
  }
  const usedBytes = bytesOf(facts.used);
  const reqBytes = bytesOf(request);
  out.push(
    `${who} used ${readable(facts.used)} of ${resource} with a request of ${request ?? 'none'}${reqBytes === 0n ? ' (no request: first in line)' : ''} — the node ran low on ${resource}, and pods using more than they request are evicted first.`,
  );
  if (usedBytes === undefined) return out;
  const target = roundUpMemory(usedBytes, false);
  const limit = st?.limit ?? facts.limit;
  const limitBytes = bytesOf(limit);
  const what = [`--requests=${resource}=${formatMemory(target)}`];
  if (limitBytes !== undefined && limitBytes < target) what.push(`--limits=${resource}=${formatMemory(target)}`);
  out.push(
    `Set the request to what it uses, ${formatMemory(target)}${what.length > 1 ? ` (and the limit ${limit}, which a request may not exceed)` : ''}:`,
  );
  out.push(command(f, ns, st, what.join(' ')));
  out.push(...unnamed(facts, st));
  out.push(...refusals(st, 'request', resource, reqBytes, target));
  return out;
}
