/**
 * LiveSource at scale, against the loopback fake API server with a synthetic cluster:
 *   node --expose-gc --import tsx bench/live.ts [--nodes 5000 --pods 150000]
 *
 * Measures the time to warm the cache (cold start: paged lists of every resource), the heap the cache
 * holds once full (after gc when run with --expose-gc), and the latency of a warm answer (load() plus
 * a trivial read), next to the two obvious approaches:
 *   - list everything per question: listPodForAllNamespaces + listNode through client-node, each time;
 *   - client-node's `topNodes(api)`: listNode, then one pod list per node (spec.nodeName selector).
 * `runLiveBench({nodes, pods})` returns the figures (bench/run.ts calls it).
 */
import { CoreV1Api, topNodes } from '@kubernetes/client-node';
import { pathToFileURL } from 'node:url';
import { FakeApiServer } from '../test/support/fake-apiserver.ts';
import { LiveSource } from '../src/cluster/live-source.ts';
import type { KObject } from '../src/k8s/snapshot.ts';

export interface LiveBenchResult {
  nodes: number;
  pods: number;
  namespaces: number;
  /** Cold start: first load() until every resource is listed (ms). */
  warmMs: number;
  /** Requests the cold start made (paged lists + watches). */
  coldRequests: number;
  /** Heap growth with the cache full, after gc when available (MB). */
  cacheHeapMB: number;
  gcAvailable: boolean;
  /** load() + a trivial read with the cache warm (ms): median and p99. */
  warmAnswerMedianMs: number;
  warmAnswerP99Ms: number;
  /** Same, with a watch event landing between answers (the copy-on-write path) (ms). */
  warmAnswerAfterChangeMedianMs: number;
  /** Requests made by all warm answers together. */
  warmRequests: number;
  /** List all pods and nodes per question (ms per question). */
  listEverythingMs: number;
  /**
   * client-node topNodes per question (ms), and its request count. In 1.4 it lists every pod once per
   * node (util.js `podsForNode`: listPodForAllNamespaces with no selector, filtered client-side), so
   * above `topNodesBudgetMs` it is estimated as listNode + nodes × one full pod list (`topNodesEstimated`).
   */
  topNodesMs: number;
  topNodesRequests: number;
  topNodesEstimated: boolean;
  /** How many times slower each obvious approach is than a warm answer. */
  ratioListEverything: number;
  ratioTopNodes: number;
}

/** A synthetic pod as the API server returns it: with the fields a real one has and we drop. */
function syntheticPod(i: number, ns: string, node: string): KObject {
  const app = `app-${i % 50}`;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `${app}-${i.toString(36)}`,
      namespace: ns,
      uid: `00000000-0000-0000-0000-${i.toString().padStart(12, '0')}`,
      creationTimestamp: '2025-01-01T00:00:00Z',
      labels: { app, 'pod-template-hash': '5d9c7b' },
      annotations: { 'prometheus.io/scrape': 'true' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: `${app}-5d9c7b`,
          uid: 'rs-uid',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      managedFields: [
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2025-01-01T00:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': {} } },
        },
      ],
    },
    spec: {
      nodeName: node,
      serviceAccountName: 'default',
      containers: [
        {
          name: 'app',
          image: `registry.example.com/${app}:1.2.3`,
          env: [
            { name: 'LOG_LEVEL', value: 'info' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          ],
          ports: [{ containerPort: 8080, protocol: 'TCP' }],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
          livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 },
          volumeMounts: [
            { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
          ],
        },
      ],
      volumes: [
        {
          name: 'kube-api-access',
          projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }] },
        },
      ],
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      priority: 0,
    },
    status: {
      phase: 'Running',
      qosClass: 'Burstable',
      podIP: '10.0.0.1',
      hostIP: '192.168.0.1',
      startTime: '2025-01-01T00:00:00Z',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }],
      containerStatuses: [
        {
          name: 'app',
          ready: true,
          restartCount: 0,
          image: `registry.example.com/${app}:1.2.3`,
          imageID: 'sha256:abc',
          state: { running: { startedAt: '2025-01-01T00:00:00Z' } },
        },
      ],
    },
  };
}

export function syntheticCluster(nodes: number, pods: number): { objects: KObject[]; namespaces: number } {
  const namespaces = Math.max(1, Math.ceil(pods / 300));
  const objects: KObject[] = [];
  for (let n = 0; n < nodes; n++) {
    objects.push({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: `node-${n}`,
        labels: { 'kubernetes.io/hostname': `node-${n}`, 'topology.kubernetes.io/zone': `z${n % 3}` },
      },
      spec: {},
      status: {
        allocatable: { cpu: '16', memory: '64Gi', pods: '110' },
        capacity: { cpu: '16', memory: '64Gi', pods: '110' },
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastHeartbeatTime: '2025-01-01T00:00:00Z',
            reason: 'KubeletReady',
            message: 'kubelet is posting ready status',
          },
        ],
        nodeInfo: { kubeletVersion: 'v1.35.0', osImage: 'Ubuntu 24.04', containerRuntimeVersion: 'containerd://2.0.0' },
        images: [{ names: ['registry.k8s.io/pause:3.10'], sizeBytes: 320000 }],
      },
    });
  }
  for (let s = 0; s < namespaces; s++) {
    const ns = `team-${s}`;
    objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    objects.push({
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'compute', namespace: ns },
      spec: { hard: { 'requests.cpu': '100', 'requests.memory': '200Gi', pods: '500' } },
      status: {
        hard: { 'requests.cpu': '100', 'requests.memory': '200Gi', pods: '500' },
        used: { 'requests.cpu': '30', 'requests.memory': '38400Mi', pods: '300' },
      },
    });
    objects.push({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'defaults', namespace: ns },
      spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } }] },
    });
  }
  for (let i = 0; i < pods; i++) objects.push(syntheticPod(i, `team-${i % namespaces}`, `node-${i % nodes}`));
  return { objects, namespaces };
}

function gc(): boolean {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) return false;
  g();
  g();
  return true;
}

function heapMB(): number {
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

export async function runLiveBench(
  opts: { nodes?: number; pods?: number; topNodesBudgetMs?: number; log?: (s: string) => void } = {},
): Promise<LiveBenchResult> {
  const nodes = opts.nodes ?? 500;
  const pods = opts.pods ?? 15_000;
  const log = opts.log ?? (() => {});
  const { objects, namespaces } = syntheticCluster(nodes, pods);
  const fake = await FakeApiServer.start({ objects });
  objects.length = 0;
  const gcAvailable = gc();
  const heapBefore = heapMB();
  const src = new LiveSource({ kubeConfig: fake.kubeConfig(), syncTimeoutMs: 600_000, requestTimeoutMs: 120_000 });
  try {
    // Cold start.
    let t = performance.now();
    const cold = await src.load();
    const warmMs = performance.now() - t;
    if (cold.errors.length) throw new Error(`cold start errors: ${JSON.stringify(cold.errors)}`);
    if (cold.snapshot.count('Pod') !== pods || cold.snapshot.count('Node') !== nodes)
      throw new Error('cold start: counts do not match');
    // Let the watches open, then measure the heap.
    while (fake.openWatches < src.status().length) await new Promise((r) => setTimeout(r, 10));
    const coldRequests = fake.requestCount();
    log(`warm in ${round(warmMs, 0)} ms with ${coldRequests} requests`);
    gc();
    const cacheHeapMB = heapMB() - heapBefore;

    // Warm answers: load() and a trivial read (requests on one node, as a fit check would sum them).
    fake.resetRequests();
    const answer = async (): Promise<number> => {
      const s = performance.now();
      const { snapshot } = await src.load();
      let milli = 0;
      for (const p of snapshot.iterate('Pod', 'team-0'))
        if ((p.spec as { nodeName?: string }).nodeName === 'node-0') milli += 100;
      void milli;
      return performance.now() - s;
    };
    const warm: number[] = [];
    for (let i = 0; i < 200; i++) warm.push(await answer());
    const afterChange: number[] = [];
    for (let i = 0; i < 50; i++) {
      const before = src.status().find((x) => x.resource === 'pods')!.counts.events;
      fake.apply(syntheticPod(pods + i, 'team-0', 'node-0'));
      while (src.status().find((x) => x.resource === 'pods')!.counts.events === before)
        await new Promise((r) => setImmediate(r));
      afterChange.push(await answer());
    }
    const warmRequests = fake.requests.filter((r) => !r.watch).length;
    log(
      `warm answer median ${round(quantile(warm, 0.5), 3)} ms, p99 ${round(quantile(warm, 0.99), 3)} ms, ${warmRequests} requests`,
    );

    // The obvious approaches, through the same client-node against the same server.
    const core = fake.kubeConfig().makeApiClient(CoreV1Api);
    const rounds = pods >= 100_000 ? 2 : 3;
    t = performance.now();
    for (let i = 0; i < rounds; i++) {
      const [p, n] = await Promise.all([core.listPodForAllNamespaces(), core.listNode()]);
      if (p.items.length < pods || n.items.length !== nodes) throw new Error('list everything: counts do not match');
    }
    const listEverythingMs = (performance.now() - t) / rounds;
    log(`list everything per question ${round(listEverythingMs, 0)} ms`);
    t = performance.now();
    await core.listPodForAllNamespaces();
    const onePodList = performance.now() - t;
    t = performance.now();
    await core.listNode();
    const oneNodeList = performance.now() - t;

    const estimate = oneNodeList + nodes * onePodList;
    let topNodesMs: number;
    let topNodesRequests: number;
    const topNodesEstimated = estimate > (opts.topNodesBudgetMs ?? 60_000);
    if (topNodesEstimated) {
      topNodesMs = estimate;
      topNodesRequests = nodes + 1;
      log(
        `topNodes estimated ${round(topNodesMs, 0)} ms (${nodes} × ${round(onePodList, 0)} ms full pod lists + listNode)`,
      );
    } else {
      fake.resetRequests();
      t = performance.now();
      const top = await topNodes(core);
      topNodesMs = performance.now() - t;
      topNodesRequests = fake.requestCount();
      if (top.length !== nodes) throw new Error('topNodes: counts do not match');
      log(`topNodes ${round(topNodesMs, 0)} ms with ${topNodesRequests} requests`);
    }

    const med = quantile(warm, 0.5);
    return {
      nodes,
      pods,
      namespaces,
      warmMs: round(warmMs, 0),
      coldRequests,
      cacheHeapMB: round(cacheHeapMB, 1),
      gcAvailable,
      warmAnswerMedianMs: round(med, 3),
      warmAnswerP99Ms: round(quantile(warm, 0.99), 3),
      warmAnswerAfterChangeMedianMs: round(quantile(afterChange, 0.5), 3),
      warmRequests,
      listEverythingMs: round(listEverythingMs, 0),
      topNodesMs: round(topNodesMs, 0),
      topNodesRequests,
      topNodesEstimated,
      ratioListEverything: round(listEverythingMs / med, 0),
      ratioTopNodes: round(topNodesMs / med, 0),
    };
  } finally {
    await src.close();
    await fake.close();
  }
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await runLiveBench({ nodes: arg('nodes', 500), pods: arg('pods', 15_000), log: (s) => console.error(s) });
  console.log(
    [
      `live cache: ${r.nodes} nodes, ${r.pods} pods, ${r.namespaces} namespaces`,
      `  cold start (warm the cache)   ${r.warmMs} ms, ${r.coldRequests} requests`,
      `  heap with the cache full      ${r.cacheHeapMB} MB${r.gcAvailable ? '' : ' (no --expose-gc: not collected first)'}`,
      `  warm answer (load + read)     median ${r.warmAnswerMedianMs} ms, p99 ${r.warmAnswerP99Ms} ms, ${r.warmRequests} requests`,
      `  warm answer after a change    median ${r.warmAnswerAfterChangeMedianMs} ms`,
      `  list everything per question  ${r.listEverythingMs} ms  (${r.ratioListEverything}× a warm answer)`,
      `  client-node topNodes          ${r.topNodesEstimated ? '~' : ''}${r.topNodesMs} ms, ${r.topNodesRequests} requests  (${r.ratioTopNodes}× a warm answer)${r.topNodesEstimated ? ' [estimated: nodes × one full pod list]' : ''}`,
    ].join('\n'),
  );
  console.log(JSON.stringify(r));
}
