/**
 * No fix is ever offered that re-simulation rejects. For every paste fixture (against the demo cluster)
 * and for states of our own where the paste matches the state, each returned fix must be verified and
 * say what it leads to; where the change is mechanical (quota patch, scale, set resources, toleration)
 * it is re-applied here, independently of src/engine/fixes.ts, and the pod is admitted again.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/answer/diagnose.ts';
import { readStateFiles } from '../../src/cluster/file-source.ts';
import { admitObject, commitAdmission } from '../../src/engine/admit.ts';
import { verifyCandidates } from '../../src/engine/fixes.ts';
import { computeQuotaUsed, reconcileQuotaStatus } from '../../src/engine/quota-ledger.ts';
import { schedulePod } from '../../src/engine/scheduler/schedule.ts';
import { expandWorkload } from '../../src/engine/workloads.ts';
import { isWorkloadKind, type Pod } from '../../src/k8s/objects.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import type { Fix } from '../../src/answer/types.ts';
import type { JsonFinding } from '../../src/answer/diagnose.ts';
import { limitRange, node, pod, quota, snapshotOf } from '../support/builders.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const PASTES = fileURLToPath(new URL('../fixtures/pastes', import.meta.url));
const OWN = fileURLToPath(new URL('../fixtures/states/engine', import.meta.url));
const DEMO_NOW = Date.parse('2026-03-10T09:40:00Z');

const SHORT: Record<string, string> = {
  deploy: 'Deployment',
  statefulset: 'StatefulSet',
  rs: 'ReplicaSet',
  job: 'Job',
};

/** The pod a finding is about, found in the state without the code under test. */
function subjectPod(state: Snapshot, f: JsonFinding, ns: string): { pod: Pod; existing: boolean } | null {
  const name = f.object?.name;
  if (name && (f.object?.resource === 'pods' || !f.object?.resource)) {
    const p = state.get('Pod', ns, name);
    if (p) return { pod: structuredClone(p), existing: true };
    const fromWorkload = (kind: string, w: string) => {
      const o = isWorkloadKind(kind) ? state.get(kind, ns, w) : undefined;
      const p0 = o ? expandWorkload(o, { replicas: 1, nodes: [] }).pods[0] : undefined;
      return p0 ? { pod: { ...p0, metadata: { ...p0.metadata, name } } as Pod, existing: false } : null;
    };
    const rs = /^(.*)-[a-z0-9]{5}$/.exec(name)?.[1];
    for (const k of ['ReplicaSet', 'Job', 'DaemonSet']) {
      const hit = rs ? fromWorkload(k, rs) : null;
      if (hit) return hit;
    }
    const sts = /^(.*)-\d+$/.exec(name)?.[1];
    const hit = sts ? fromWorkload('StatefulSet', sts) : null;
    if (hit) return hit;
  }
  // Not in the state: the pod the message describes (one container `app` with the amounts it names, or
  // the containers a must-specify message names, with nothing set).
  const meta = { name: name ?? 'pasted-pod', namespace: ns };
  if (f.kind === 'quota-exceeded') {
    const requests: Record<string, string> = {};
    const limits: Record<string, string> = {};
    for (const [k, v] of Object.entries((f.facts.resources ?? {}) as Record<string, { requested?: string }>)) {
      const m = /^(requests\.|limits\.)?(cpu|memory|ephemeral-storage)$/.exec(k);
      if (m && v.requested) (m[1] === 'limits.' ? limits : requests)[m[2]!] = v.requested;
      else if (k.startsWith('requests.') && k.includes('/') && v.requested)
        requests[k.slice(9)] = limits[k.slice(9)] = v.requested;
    }
    const resources = {
      ...(Object.keys(requests).length ? { requests } : {}),
      ...(Object.keys(limits).length ? { limits } : {}),
    };
    return {
      pod: { apiVersion: 'v1', kind: 'Pod', metadata: meta, spec: { containers: [{ name: 'app', resources }] } } as Pod,
      existing: false,
    };
  }
  if (f.kind === 'quota-must-specify') {
    const names = [...new Set(Object.values((f.facts.resources ?? {}) as Record<string, string[]>).flat())];
    return {
      pod: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: meta,
        spec: { containers: (names.length ? names : ['app']).map((n) => ({ name: n })) },
      } as Pod,
      existing: false,
    };
  }
  return null;
}

/** Removes pods and recomputes every quota of the namespace from the objects (the quota controller). */
function removePods(state: Snapshot, ns: string, names: string[]): void {
  for (const n of names) state.remove('Pod', ns, n);
  for (const q of state.list('ResourceQuota', ns)) {
    const used = Object.fromEntries([...computeQuotaUsed(state, q)].map(([k, v]) => [k, v.toString()]));
    state.put({ ...q, status: { ...(q.status ?? {}), used } } as KObject);
  }
}

function setResource(p: Pod, container: string, which: 'requests' | 'limits', res: string, value: string): void {
  for (const c of p.spec.containers) if (c.name === container) ((c.resources ??= {})[which] ??= {})[res] = value;
}

/** Owner workload of a pod (ReplicaSet → Deployment), by kind/name. */
function ownerKey(state: Snapshot, p: Pod & KObject): string | null {
  const ref = p.metadata.ownerReferences?.find((o) => o.controller) ?? p.metadata.ownerReferences?.[0];
  if (!ref) return null;
  if (ref.kind === 'ReplicaSet') {
    const rs = state.get('ReplicaSet', p.metadata.namespace, ref.name);
    const d = rs?.metadata.ownerReferences?.find((o) => o.kind === 'Deployment');
    if (d) return `Deployment/${d.name}`;
    const m = /^(.*)-[a-z0-9]{5,10}$/.exec(ref.name);
    if (!rs && m && state.get('Deployment', p.metadata.namespace, m[1]!)) return `Deployment/${m[1]}`;
  }
  return `${ref.kind}/${ref.name}`;
}

/**
 * Re-applies a fix by hand to a fork and the subject pod. Returns false when the fix is not mechanical
 * here (new node, new LimitRange, …).
 */
function reapply(state: Snapshot, ns: string, p: Pod, fix: Fix): boolean {
  let applied = false;
  for (const line of (fix.change ?? '').split('\n')) {
    let m: RegExpExecArray | null;
    if ((m = /^kubectl -n (\S+) patch resourcequota (\S+) --type merge -p '(.*)'$/.exec(line))) {
      const patch = JSON.parse(m[3]!) as { spec: { hard: Record<string, string> } };
      const q = state.get('ResourceQuota', m[1], m[2]!)!;
      expect(q, `quota ${m[2]} exists`).toBeDefined();
      state.put({
        ...q,
        spec: { ...q.spec, hard: { ...q.spec?.hard, ...patch.spec.hard } },
        status: { ...q.status, hard: { ...q.status?.hard, ...patch.spec.hard } },
      } as KObject);
      applied = true;
    } else if ((m = /^kubectl -n (\S+) scale (\w+)\/(\S+) --replicas=(\d+)$/.exec(line))) {
      const from = Number(/ (\d+) → \d+/.exec(fix.summary)![1]);
      const drop = from - Number(m[4]);
      const key = `${SHORT[m[2]!]}/${m[3]}`;
      // The ReplicaSet controller removes unscheduled pods first, then the most recently created.
      const created = (x: Pod & KObject) => Date.parse(String(x.metadata.creationTimestamp ?? '1970-01-01T00:00:00Z'));
      const owned = state
        .list('Pod', m[1])
        .filter((x) => ownerKey(state, x) === key && x.status?.phase !== 'Succeeded' && x.status?.phase !== 'Failed')
        .sort(
          (a, b) =>
            Number(!!a.spec.nodeName) - Number(!!b.spec.nodeName) ||
            created(b) - created(a) ||
            (a.metadata.name! < b.metadata.name! ? 1 : -1),
        );
      expect(owned.length, `${key} has ≥ ${drop} pods`).toBeGreaterThanOrEqual(drop);
      removePods(
        state,
        m[1]!,
        owned.slice(0, drop).map((x) => x.metadata.name!),
      );
      applied = true;
    } else if ((m = /^kubectl -n \S+ set resources \S+ -c (\S+) --(requests|limits)=([^=]+)=(\S+)$/.exec(line))) {
      setResource(p, m[1]!, m[2] as 'requests' | 'limits', m[3]!, m[4]!);
      applied = true;
    } else if ((m = /^spec\.(?:template\.spec\.)?tolerations: (\[.*\])$/.exec(line))) {
      p.spec.tolerations = [...(p.spec.tolerations ?? []), ...JSON.parse(m[1]!)];
      applied = true;
    } else if ((m = /^kubectl -n \S+ patch \S+ --type json -p '(\[.*\])'$/.exec(line))) {
      // JSON patch adding tolerations to the template (append with /-, or the whole list when there was none).
      for (const op of JSON.parse(m[1]!) as { op: string; path: string; value: unknown }[]) {
        expect(op.op).toBe('add');
        if (op.path === '/spec/template/spec/tolerations/-')
          p.spec.tolerations = [...(p.spec.tolerations ?? []), op.value as never];
        else if (op.path === '/spec/template/spec/tolerations') p.spec.tolerations = op.value as never;
        else throw new Error(`unexpected patch path ${op.path}`);
      }
      applied = true;
    }
  }
  if (!fix.change) {
    // "lower requests.cpu of app to ≤ 3500m (fits n1)" — a pod without a workload has no kubectl line.
    // "… and requests.memory of app to ≤ 18421Mi (fits general-b-3)" — every part.
    for (const m of fix.summary.startsWith('lower ')
      ? fix.summary.matchAll(/(requests|limits)\.(\S+) of (?:container )?(\S+) to ≤ (\S+)/g)
      : []) {
      setResource(p, m[3]!, m[1] as 'requests' | 'limits', m[2]!, m[4]!);
      applied = true;
    }
  }
  void ns;
  return applied;
}

interface Checked {
  fixes: number;
  reapplied: number;
}

/** Every fix verified with an outcome; mechanical ones re-applied and admitted (and scheduled where promised). */
function checkFixes(state: Snapshot, findings: JsonFinding[], opts: { now?: number }, label: string): Checked {
  const out: Checked = { fixes: 0, reapplied: 0 };
  for (const f of findings) {
    for (const fix of f.fixes) {
      out.fixes++;
      expect(fix.verified, `${label}: ${fix.summary}`).toBe(true);
      expect(fix.outcome, `${label}: ${fix.summary}`).toMatch(/^(admitted|passes )/);
      const ns = f.namespace!;
      const subject = subjectPod(state, f, ns);
      if (!subject) continue;
      const fork = state.fork();
      const p = structuredClone(subject.pod) as Pod;
      if (subject.existing) removePods(fork, ns, [p.metadata.name!]);
      p.spec.nodeName = undefined;
      delete (p as { status?: unknown }).status;
      if (!reapply(fork, ns, p, fix)) continue;
      out.reapplied++;
      const adm = admitObject(p as KObject, fork, { now: opts.now });
      const passes = /^passes (LimitRange|validation|ResourceQuota); next: (\S+)/.exec(fix.outcome!);
      if (passes) {
        // It fixes its own layer; admission may stop at a later one (named in the outcome).
        const order = ['api-validation', 'limitrange', 'quota'];
        const fixed = { validation: 'api-validation', LimitRange: 'limitrange', ResourceQuota: 'quota' }[
          passes[1] as 'validation'
        ]!;
        if (!adm.allowed)
          expect(order.indexOf(adm.layer!), `${label}: ${fix.summary} → ${adm.message}`).toBeGreaterThan(
            order.indexOf(fixed),
          );
        continue;
      }
      expect(adm.allowed, `${label}: ${fix.summary} → ${adm.message}`).toBe(true);
      const onNode = /schedules on (\S+)$/.exec(fix.outcome!)?.[1];
      if (onNode && onNode !== 'new-node') {
        commitAdmission(fork, adm);
        const s = schedulePod(fork, adm.object as unknown as Pod);
        expect(s.scheduled, `${label}: ${fix.summary} → ${s.message}`).toBe(true);
        expect(s.node, `${label}: ${fix.summary}`).toBe(onNode);
      }
    }
  }
  return out;
}

describe('every paste fixture against the demo cluster (team-a)', () => {
  const demo = readStateFiles(DEMO, { now: DEMO_NOW }).snapshot;
  reconcileQuotaStatus(demo, DEMO_NOW);
  const files = readdirSync(PASTES)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  const total: Checked = { fixes: 0, reapplied: 0 };

  it.each(files)('%s: only verified fixes, each re-applied where mechanical', (file) => {
    const text = readFileSync(`${PASTES}/${file}`, 'utf8');
    const d = diagnose({ text, state: demo, namespace: 'team-a', now: DEMO_NOW });
    const c = checkFixes(demo, d.json.findings, { now: DEMO_NOW }, file);
    total.fixes += c.fixes;
    total.reapplied += c.reapplied;
  });

  it('the sweep is not vacuous: fixes were offered and most were re-applied by hand', () => {
    expect(total.fixes).toBeGreaterThan(50);
    expect(total.reapplied).toBeGreaterThan(total.fixes / 2);
  });
});

describe('states of our own where the paste matches the state', () => {
  const cases = readdirSync(OWN, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  // folder → namespace, the fix summaries expected (each worked out in test/answer/diagnose.test.ts or here)
  const expected: Record<string, { ns: string; fixes: string[] }> = {
    'huge-cpu': {
      ns: 'big',
      fixes: ['lower requests.cpu of app to ≤ 3500m (fits n1)', 'add a node with ≥ 10k CPU allocatable'],
    },
    'lr-defaults': {
      ns: 'lr',
      fixes: [
        'lower requests.cpu of container app to ≤ 200m',
        'scale deploy/batch 3 → 2 (frees 600m of requests.cpu)',
        'raise lr-quota requests.cpu to 2300m',
      ],
    },
    // m1: 8Gi − 3Gi = 5Gi free < 6Gi; m2 tainted for GPUs; new node: 1 CPU / 6Gi, pool general (from m1).
    'memory-short': {
      ns: 'mem',
      fixes: [
        'lower requests.memory of app to ≤ 5Gi (fits m1)',
        'tolerate nvidia.com/gpu=present:NoSchedule (1 node) — only if the pod belongs on them',
        'add a node with ≥ 1 CPU and ≥ 6Gi memory allocatable to pool general',
      ],
    },
    // limits must not go below the requests (200m / 256Mi): the 500m / 512Mi defaults are above them.
    'must-specify': {
      ns: 'ms',
      fixes: [
        'set limits.cpu=500m on app, limits.memory=512Mi on app',
        'add a LimitRange with container defaults (cpu limit 500m, memory limit 512Mi) so every pod gets them',
      ],
    },
    'pods-full': { ns: 'pq', fixes: ['scale deploy/web 2 → 1 (frees 1 of pods)', 'raise pq-quota pods to 4'] },
    ratio: { ns: 'rt', fixes: ['set requests.cpu of app to 200m', 'set limits.cpu of app to 1'] },
  };

  it('has a fixture per expected case', () => {
    expect(cases).toEqual(Object.keys(expected).sort());
  });

  it.each(cases)('%s', (dir) => {
    const loaded = readStateFiles(`${OWN}/${dir}`);
    expect(loaded.errors).toEqual([]);
    // The quota controller's status.used for quotas the files give without it (a no-op when already done).
    reconcileQuotaStatus(loaded.snapshot);
    const text = readFileSync(`${OWN}/${dir}/paste.txt`, 'utf8');
    // No -n: the namespace is found from the pod or its controller in the state.
    const d = diagnose({ text, state: loaded.snapshot });
    expect(d.json.findings).toHaveLength(1);
    expect(d.json.findings[0]!.namespace).toBe(expected[dir]!.ns);
    expect(d.json.findings[0]!.fixes.map((x) => x.summary)).toEqual(expected[dir]!.fixes);
    const c = checkFixes(loaded.snapshot, d.json.findings, {}, dir);
    // all but "add a node" / "add a LimitRange" are re-applied by hand
    const mechanical = expected[dir]!.fixes.filter((x) => !x.startsWith('add a ')).length;
    expect(c.reapplied).toBe(mechanical);
  });
});

describe('verifyCandidates keeps only what re-simulation passes', () => {
  // n1 1 CPU; quota q: pods 2 (1 used), requests.cpu 1 (500m used); LimitRange max cpu 2.
  function state(): Snapshot {
    const s = snapshotOf(
      node('n1', { cpu: '1', memory: '4Gi' }),
      quota('q', {
        namespace: 'v',
        hard: { pods: '2', 'requests.cpu': '1' },
        used: { pods: '1', 'requests.cpu': '500m' },
      }),
      limitRange('lr', { namespace: 'v', container: { max: { cpu: '2' } } }),
      pod('old', { namespace: 'v', cpu: '500m', node: 'n1' }) as KObject,
    );
    return s;
  }
  const withCpu = (name: string, request: string, limit: string) =>
    pod(name, { namespace: 'v', cpu: request, limits: { cpu: limit } }) as KObject;
  const as = (object: KObject) => (s: Snapshot) => ({ state: s, object });

  it.each([
    // 400m: 500m + 400m = 900m ≤ 1 → admitted; node 1000 − 500 = 500m ≥ 400m → n1
    {
      label: 'passes',
      c: { who: 'app-team' as const, summary: 'ok', apply: as(withCpu('a', '400m', '1')) },
      out: 'admitted, schedules on n1',
    },
    // 600m: 1100m > 1 → quota refuses
    {
      label: 'quota refuses',
      c: { who: 'app-team' as const, summary: 'q', apply: as(withCpu('b', '600m', '1')) },
      out: null,
    },
    // limit 3 > max 2 → LimitRange refuses, even though it "fixes quota"
    {
      label: 'refused before its layer',
      c: { who: 'app-team' as const, summary: 'lr', apply: as(withCpu('c', '100m', '3')), fixes: 'quota' as const },
      out: null,
    },
    // limit 3 → LimitRange … but one that fixes api-validation and stops at limitrange is still offered
    {
      label: 'fixes validation, stops at LimitRange',
      c: {
        who: 'app-team' as const,
        summary: 'v',
        apply: as(withCpu('d', '100m', '3')),
        fixes: 'api-validation' as const,
      },
      out: 'passes validation; next: LimitRange — maximum cpu usage per Container is 2, but limit is 3',
    },
    // 500m: quota 1000m ≤ 1 ok; node 500m free ≥ 500m → n1 (equality fits)
    {
      label: 'equality fits',
      c: { who: 'platform' as const, summary: 'eq', apply: as(withCpu('e', '500m', '1')) },
      out: 'admitted, schedules on n1',
    },
  ])('$label', ({ c, out }) => {
    const got = verifyCandidates(state(), [c], {});
    if (out === null) expect(got).toEqual([]);
    else expect(got).toEqual([{ who: c.who, summary: c.summary, change: undefined, verified: true, outcome: out }]);
  });

  it('a Pending result is dropped unless the candidate does not need scheduling', () => {
    // raise requests.cpu to 2 and ask 900m: quota 1400m ≤ 2 ok, node 500m free < 900m → Pending
    const raise = (s: Snapshot) => {
      const q = s.get('ResourceQuota', 'v', 'q')!;
      s.put(quota('q', { namespace: 'v', hard: { pods: '2', 'requests.cpu': '2' }, used: q.status!.used! }));
      return { state: s, object: withCpu('f', '900m', '1') };
    };
    expect(verifyCandidates(state(), [{ who: 'platform', summary: 'raise', apply: raise }], {})).toEqual([]);
    expect(
      verifyCandidates(state(), [{ who: 'platform', summary: 'raise', apply: raise, needSchedule: false }], {}),
    ).toEqual([
      { who: 'platform', summary: 'raise', change: undefined, verified: true, outcome: 'admitted, still Pending' },
    ]);
  });

  it('never changes the base state, and stops at max', () => {
    const s = state();
    const cands = ['a', 'b', 'c'].map((n) => ({
      who: 'app-team' as const,
      summary: n,
      apply: as(withCpu(n, '100m', '1')),
    }));
    expect(verifyCandidates(s, cands, {}, 2).map((x) => x.summary)).toEqual(['a', 'b']);
    expect(s.count('Pod', 'v')).toBe(1);
    expect(s.get('ResourceQuota', 'v', 'q')!.status!.used).toEqual({ pods: '1', 'requests.cpu': '500m' });
  });
});
