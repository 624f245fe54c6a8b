/**
 * A seeded generator of realistic clusters at any size: node pools across zones (a tainted GPU pool, a
 * cordoned node, control-plane nodes), namespaces with quotas and LimitRanges, Deployments with their
 * ReplicaSets and pods (names as the controllers make them), Pending pods with FailedScheduling events.
 *
 *   node --import tsx bench/generate.ts --nodes 500 --pods 15000 --out /tmp/cluster   (writes state files)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KObject, Snapshot } from '../src/k8s/snapshot.ts';
import { generateNameSuffix } from '../src/engine/admit.ts';
import { podTemplateHash } from '../src/engine/workloads.ts';
import { prng as rng } from '../test/support/prng.ts';

export interface GenOptions {
  nodes: number;
  pods: number;
  seed?: number;
  /** Pods in the largest namespace (the bench's headroom target). Default 2,000. */
  bigNamespacePods?: number;
}

export interface Generated {
  objects: KObject[];
  /** The namespace with `bigNamespacePods` pods. */
  bigNamespace: string;
  /** A Deployment in it (what-if target). */
  bigWorkload: string;
  /** A Pending pod with its FailedScheduling message. */
  pending: { namespace: string; name: string; message: string } | null;
  counts: { nodes: number; pods: number; namespaces: number };
}

const ZONES = ['a', 'b', 'c'];
const SHAPES = [
  { type: 'm6i.xlarge', cpu: '3920m', memory: '14848Mi' },
  { type: 'm6i.2xlarge', cpu: '7910m', memory: '30208Mi' },
  { type: 'm6i.4xlarge', cpu: '15890m', memory: '61440Mi' },
];
const CPU_CHOICES = ['10m', '50m', '100m', '100m', '200m'];
const MEM_CHOICES = ['64Mi', '128Mi', '128Mi', '256Mi', '512Mi'];

export function generateCluster(opts: GenOptions): Generated {
  const rand = rng(opts.seed ?? 42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const objects: KObject[] = [];
  const nodeNames: string[] = [];
  const nodeCap: { cpu: number; mem: number; usedCpu: number; usedMem: number; pods: number }[] = [];
  const gpuNodes = Math.max(1, Math.floor(opts.nodes * 0.02));
  for (let i = 0; i < opts.nodes; i++) {
    const zone = ZONES[i % 3]!;
    const gpu = i < gpuNodes;
    const cp = !gpu && i < gpuNodes + 3;
    const shape = gpu ? SHAPES[2]! : SHAPES[i % 3]!;
    const pool = gpu ? 'gpu' : cp ? 'control-plane' : 'general';
    const name = `${pool}-${zone}-${i}`;
    const taints: { key: string; value?: string; effect: string }[] = gpu
      ? [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }]
      : cp
        ? [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]
        : [];
    const cordoned = !gpu && !cp && i % 97 === 5;
    if (cordoned) taints.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
    nodeNames.push(name);
    nodeCap.push({ cpu: parseInt(shape.cpu, 10), mem: parseInt(shape.memory, 10), usedCpu: 0, usedMem: 0, pods: 0 });
    objects.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          'kubernetes.io/hostname': name,
          'topology.kubernetes.io/zone': `eu-west-1${zone}`,
          'node.kubernetes.io/instance-type': shape.type,
          pool,
          ...(cp ? { 'node-role.kubernetes.io/control-plane': '' } : {}),
        },
      },
      spec: { ...(cordoned ? { unschedulable: true } : {}), ...(taints.length ? { taints } : {}) },
      status: {
        allocatable: { cpu: shape.cpu, memory: shape.memory, pods: '110', ...(gpu ? { 'nvidia.com/gpu': '4' } : {}) },
        capacity: { cpu: shape.cpu, memory: shape.memory, pods: '110' },
      },
    });
  }
  const general = nodeNames.map((n, i) => ({ n, i })).filter(({ n }) => n.startsWith('general'));
  // Namespaces: one big one, the rest ~300 pods each.
  const big = Math.min(opts.bigNamespacePods ?? 2000, opts.pods);
  const nsCount = 1 + Math.max(1, Math.ceil((opts.pods - big) / 300));
  let remaining = opts.pods;
  let bigWorkload = '';
  let pending: Generated['pending'] = null;
  let cursor = 0;
  for (let n = 0; n < nsCount && remaining > 0; n++) {
    const ns = n === 0 ? 'team-big' : `team-${n}`;
    const podsHere = n === 0 ? big : Math.min(remaining, 300);
    remaining -= podsHere;
    objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { team: ns } } });
    objects.push({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'defaults', namespace: ns },
      spec: {
        limits: [
          {
            type: 'Container',
            default: { cpu: '500m', memory: '512Mi' },
            defaultRequest: { cpu: '100m', memory: '128Mi' },
            max: { cpu: '4', memory: '16Gi' },
          },
        ],
      },
    });
    const used = { cpu: 0, mem: 0, pods: 0, limCpu: 0, limMem: 0 };
    let made = 0;
    let w = 0;
    while (made < podsHere) {
      const replicas = Math.min(podsHere - made, n === 0 && w === 0 ? 400 : 1 + Math.floor(rand() * 40));
      const name = `svc-${w}`;
      if (n === 0 && w === 0) bigWorkload = name;
      const cpu = pick(CPU_CHOICES);
      const mem = pick(MEM_CHOICES);
      const template = {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'registry.example/app:1',
              resources: { requests: { cpu, memory: mem }, limits: { cpu, memory: mem } },
            },
          ],
        },
      };
      const hash = podTemplateHash(template);
      const rs = `${name}-${hash}`;
      objects.push({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, namespace: ns },
        spec: { replicas, selector: { matchLabels: { app: name } }, template },
      });
      objects.push({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name: rs,
          namespace: ns,
          labels: { app: name, 'pod-template-hash': hash },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, controller: true }],
        },
        spec: { replicas, selector: { matchLabels: { app: name } }, template },
      });
      const cpuM = cpu.endsWith('m') ? parseInt(cpu, 10) : parseInt(cpu, 10) * 1000;
      const memMi = mem.endsWith('Gi') ? parseInt(mem, 10) * 1024 : parseInt(mem, 10);
      for (let r = 0; r < replicas; r++) {
        const podName = `${rs}-${generateNameSuffix(`${ns}/${rs}/${r}`)}`;
        // Place on the next general node with room; a few stay Pending.
        let node: string | undefined;
        for (let tries = 0; tries < general.length; tries++) {
          const g = general[cursor % general.length]!;
          cursor++;
          const c = nodeCap[g.i]!;
          if (
            g.n.includes('-') &&
            objects[g.i]!.spec &&
            (objects[g.i]!.spec as { unschedulable?: boolean }).unschedulable
          )
            continue;
          if (c.usedCpu + cpuM <= c.cpu && c.usedMem + memMi <= c.mem && c.pods < 110) {
            c.usedCpu += cpuM;
            c.usedMem += memMi;
            c.pods++;
            node = g.n;
            break;
          }
        }
        const isPending = !node || rand() < 0.002;
        const pod: KObject = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: podName,
            namespace: ns,
            labels: { app: name, 'pod-template-hash': hash },
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, controller: true }],
            uid: `uid-${ns}-${podName}`,
          },
          spec: {
            ...template.spec,
            ...(isPending ? {} : { nodeName: node }),
            priority: 0,
            tolerations: [
              { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
            ],
          },
          status: { phase: isPending ? 'Pending' : 'Running', qosClass: 'Guaranteed' },
        };
        if (isPending && node) {
          const c = nodeCap[nodeNames.indexOf(node)]!;
          c.usedCpu -= cpuM;
          c.usedMem -= memMi;
          c.pods--;
        }
        objects.push(pod);
        if (isPending) {
          const message = `0/${opts.nodes} nodes are available: ${gpuNodes} node(s) had untolerated taint(s), ${opts.nodes - gpuNodes} Insufficient cpu. no new claims to deallocate, preemption: 0/${opts.nodes} nodes are available: ${opts.nodes} Preemption is not helpful for scheduling.`;
          if (!pending) pending = { namespace: ns, name: podName, message };
          objects.push({
            apiVersion: 'v1',
            kind: 'Event',
            metadata: { name: `${podName}.${generateNameSuffix(podName)}`, namespace: ns },
            involvedObject: { kind: 'Pod', name: podName, namespace: ns },
            reason: 'FailedScheduling',
            type: 'Warning',
            message,
            count: 3,
            lastTimestamp: '2026-11-30T04:00:00Z',
          });
        }
        used.cpu += cpuM;
        used.mem += memMi;
        used.limCpu += cpuM;
        used.limMem += memMi;
        used.pods++;
      }
      made += replicas;
      w++;
    }
    const hard = {
      'requests.cpu': String(Math.ceil((used.cpu * 1.2) / 1000)),
      'requests.memory': `${Math.ceil((used.mem * 1.2) / 1024)}Gi`,
      pods: String(Math.ceil(used.pods * 1.1) + 5),
    };
    objects.push({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'team-quota', namespace: ns },
      spec: { hard },
      status: {
        hard,
        used: { 'requests.cpu': `${used.cpu}m`, 'requests.memory': `${used.mem}Mi`, pods: String(used.pods) },
      },
    });
  }
  return {
    objects,
    bigNamespace: 'team-big',
    bigWorkload,
    pending,
    counts: { nodes: opts.nodes, pods: opts.pods, namespaces: nsCount },
  };
}

function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : dflt;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const g = generateCluster({
    nodes: Number(arg('nodes', '500')),
    pods: Number(arg('pods', '15000')),
    seed: Number(arg('seed', '42')),
  });
  const out = arg('out', 'bench/out/cluster');
  mkdirSync(out, { recursive: true });
  const byKind = new Map<string, KObject[]>();
  for (const o of g.objects) {
    const list = byKind.get(o.kind!) ?? [];
    list.push(o);
    byKind.set(o.kind!, list);
  }
  for (const [kind, items] of byKind)
    writeFileSync(join(out, `${kind.toLowerCase()}s.json`), JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  process.stdout.write(
    `wrote ${g.objects.length} objects (${g.counts.nodes} nodes, ${g.counts.pods} pods, ${g.counts.namespaces} namespaces) to ${out}\n`,
  );
}

/**
 * The bench's `fixesMs` case (bench/run.ts, bench/fixes-profile.ts): the big namespace's `team-quota` full
 * on pods (hard = used) in a fork of `state` (the state itself untouched), and a ReplicaSet's refusal of it.
 */
export function quotaFullCase(state: Snapshot, g: Generated): { state: Snapshot; refusal: string } {
  const rq = state.get('ResourceQuota', g.bigNamespace, 'team-quota');
  const usedPods = String(rq?.status?.used?.pods ?? '');
  if (!rq || !usedPods) throw new Error('bench: no team-quota with used pods in the big namespace');
  const full = state.fork();
  const hardFull = { ...(rq.spec?.hard ?? {}), pods: usedPods };
  full.put({
    ...rq,
    kind: 'ResourceQuota',
    spec: { ...rq.spec, hard: hardFull },
    status: { ...rq.status, hard: hardFull },
  });
  const refusal = `Error creating: pods "${g.bigWorkload}-7c9d8b6f5-abcde" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=${usedPods}, limited: pods=${usedPods}`;
  return { state: full, refusal };
}
