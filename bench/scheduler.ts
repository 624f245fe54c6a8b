/**
 * Scheduler micro benchmark: a synthetic 5,000-node / 150,000-pod snapshot, then 1,000 replicas of one
 * pod placed one after another (schedulePod + bindPod). Run: node --import tsx bench/scheduler.ts
 */
import { Snapshot } from '../src/k8s/snapshot.ts';
import type { Node, Pod } from '../src/k8s/objects.ts';
import { nodeInfoIndex } from '../src/engine/scheduler/node-info.ts';
import { bindPod, findLargestFreeNodes, schedulePod } from '../src/engine/scheduler/schedule.ts';

const NODES = Number(process.env.BENCH_NODES ?? 5000);
const PODS = Number(process.env.BENCH_PODS ?? 150_000);
const REPLICAS = Number(process.env.BENCH_REPLICAS ?? 1000);

/** mulberry32: a small deterministic generator (same figures on every run). */
let seed = 42;
function nextRandom(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

let peakHeap = 0;
function sampleHeap(): void {
  const used = process.memoryUsage().heapUsed;
  if (used > peakHeap) peakHeap = used;
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

function makeNode(i: number): Node {
  const name = `node-${String(i).padStart(5, '0')}`;
  return {
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': `zone-${i % 3}` } },
    spec: {},
    status: { allocatable: { cpu: '32', memory: '128Gi', pods: '110' } },
  };
}

function makePod(i: number, nodeName: string | null, cpuMilli: number, memMi: number): Pod {
  return {
    kind: 'Pod',
    metadata: { name: `pod-${i}`, namespace: `ns-${i % 50}`, labels: { app: `app-${i % 500}` } },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'x',
          resources: { requests: { cpu: `${cpuMilli}m`, memory: `${memMi}Mi` }, limits: { memory: `${memMi}Mi` } },
        },
      ],
      ...(nodeName ? { nodeName } : {}),
      priority: 0,
    },
    status: { phase: nodeName ? 'Running' : 'Pending' },
  };
}

const t0 = performance.now();
const snapshot = new Snapshot();
for (let i = 0; i < NODES; i++) snapshot.put(makeNode(i));
for (let i = 0; i < PODS; i++) {
  const n = Math.floor(nextRandom() * NODES);
  snapshot.put(
    makePod(
      i,
      `node-${String(n).padStart(5, '0')}`,
      100 + Math.floor(nextRandom() * 9) * 100,
      128 * (1 + Math.floor(nextRandom() * 8)),
    ),
  );
}
sampleHeap();
const t1 = performance.now();
nodeInfoIndex(snapshot);
sampleHeap();
const t2 = performance.now();

const placed = new Map<string, number>();
let failed = 0;
let slowest = 0;
for (let r = 0; r < REPLICAS; r++) {
  const s = performance.now();
  const p = makePod(PODS + r, null, 500, 1024);
  const result = schedulePod(snapshot, p);
  if (result.scheduled) {
    bindPod(snapshot, p, result.node!);
    placed.set(result.node!, (placed.get(result.node!) ?? 0) + 1);
  } else failed++;
  slowest = Math.max(slowest, performance.now() - s);
  if (r % 100 === 0) sampleHeap();
}
const t3 = performance.now();

// A what-if fork: cheap, and a bind in the fork leaves the parent untouched.
const f0 = performance.now();
const fork = snapshot.fork();
const forkNode = schedulePod(fork, makePod(PODS + REPLICAS, null, 500, 1024)).node!;
bindPod(fork, makePod(PODS + REPLICAS, null, 500, 1024), forkNode);
const f1 = performance.now();

// An unschedulable pod: every node evaluated, FitError and preemption simulation.
const u0 = performance.now();
const huge = schedulePod(snapshot, makePod(PODS + REPLICAS + 1, null, 64000, 1024));
const u1 = performance.now();

const h0 = performance.now();
findLargestFreeNodes(snapshot, 10);
const h1 = performance.now();
sampleHeap();

const mem = process.memoryUsage();
console.log(`nodes ${NODES}, assigned pods ${PODS}, replicas ${REPLICAS}`);
console.log(`snapshot build (put ${NODES + PODS} objects): ${(t1 - t0).toFixed(0)} ms`);
console.log(`node-info index build: ${(t2 - t1).toFixed(0)} ms`);
console.log(
  `place ${REPLICAS} replicas: ${(t3 - t2).toFixed(0)} ms (${((t3 - t2) / REPLICAS).toFixed(2)} ms/pod, slowest ${slowest.toFixed(1)} ms), ${placed.size} distinct nodes, ${failed} failed`,
);
console.log(`fork + schedule + bind in fork: ${(f1 - f0).toFixed(1)} ms`);
console.log(`unschedulable pod (all nodes + preemption): ${(u1 - u0).toFixed(0)} ms → ${huge.message?.slice(0, 120)}`);
console.log(`largest free nodes (top 10): ${(h1 - h0).toFixed(1)} ms`);
console.log(`peak heapUsed (sampled) ${mb(peakHeap)}; now heapUsed ${mb(mem.heapUsed)}, rss ${mb(mem.rss)}`);
