/**
 * Proactive mode under load (issue #19): 1,000 incidents in one hour across 200 namespaces, each owned by
 * its own alerting channel (postsPerHour 3). The hour is played as 60 rounds of the notifier (one per
 * simulated minute, the real rate limiter's hour never ends inside it): each round ~17 new workloads start
 * failing to create pods, and those failing for 10 rounds get their pods (resolved). The answerer is a stub
 * (answers are measured by `diagnoseMs`); what is measured is the notifier itself.
 *   posts / suppressed / resolutions  over the hour: posts are capped at 3 per channel
 *   roundMs           median and max time of one round (detect + post + save)
 *   heapMB            heap after gc, before the hour and after it (bounded: the store keeps ≤ 2,000 posts)
 *   storeKB           the size of the incidents ConfigMap's data at the end (limit 1 MiB)
 */
import { performance } from 'node:perf_hooks';
import type { Answerer } from '../src/answer/answerer.ts';
import { parsePolicy } from '../src/answer/policy.ts';
import { type Answer, emptyReply } from '../src/answer/types.ts';
import type { ClusterSource, SourceResult } from '../src/cluster/source.ts';
import { type KObject, Snapshot } from '../src/k8s/snapshot.ts';
import { Notifier, type SlackPayload } from '../src/slack/alerts/notifier.ts';
import { MemoryStore } from '../src/slack/alerts/store.ts';

export interface AlertsBench {
  namespaces: number;
  incidents: number;
  posts: number;
  suppressed: number;
  resolutions: number;
  roundMedianMs: number;
  roundMaxMs: number;
  heapBeforeMB: number;
  heapAfterMB: number;
  storeKB: number;
}

const NS = 200;
const PER_NS = 5;
const ROUNDS = 60;
const RESOLVE_AFTER = 10;

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
}

const heapMB = () => Math.round((process.memoryUsage().heapUsed / 1048576) * 10) / 10;

function workload(ns: string, name: string, at: string): KObject[] {
  const labels = { app: name };
  const rs = `${name}-5d8c7b9f4`;
  return [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: ns },
      spec: {
        replicas: 2,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'x' }] } },
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: rs, namespace: ns, ownerReferences: [{ kind: 'Deployment', name, controller: true }] },
      spec: { replicas: 2, selector: { matchLabels: labels }, template: { metadata: { labels } } },
    },
    pod(ns, rs, `${rs}-aaaa1`),
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${rs}.17f0`, namespace: ns },
      involvedObject: { kind: 'ReplicaSet', name: rs, namespace: ns },
      reason: 'FailedCreate',
      type: 'Warning',
      count: 3,
      firstTimestamp: at,
      lastTimestamp: at,
      message: `Error creating: pods "${rs}-x7k2p" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=10, limited: pods=10`,
    },
  ];
}

function pod(ns: string, rs: string, name: string): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, ownerReferences: [{ kind: 'ReplicaSet', name: rs, controller: true }] },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] },
    status: { phase: 'Running' },
  };
}

class Source implements ClusterSource {
  readonly kind = 'file' as const;
  constructor(readonly snapshot: Snapshot) {}
  describe() {
    return 'bench';
  }
  async load(): Promise<SourceResult> {
    return { snapshot: this.snapshot, errors: [], warnings: [] };
  }
  async ready() {
    return true;
  }
  async close() {}
}

const stubAnswer: Answer = {
  replies: [
    { ...emptyReply('diagnosis', ':no_entry:', 'Refused by ResourceQuota compute: pods 10/10'), lines: ['stub'] },
  ],
  namespaces: [],
};

export async function runAlertsBench(): Promise<AlertsBench> {
  const namespaces = Array.from({ length: NS }, (_, i) => `team-${String(i).padStart(3, '0')}`);
  const policy = parsePolicy(
    `channels:\n${namespaces
      .map(
        (ns, i) => `  - id: C${String(i).padStart(6, '0')}\n    namespaces: [${ns}]\n    alerts: { postsPerHour: 3 }\n`,
      )
      .join('')}`,
  );
  const snapshot = new Snapshot();
  const source = new Source(snapshot);
  const answerer: Answerer = {
    message: async () => stubAnswer,
    question: async () => stubAnswer,
    quota: async () => stubAnswer,
  };
  let posts = 0;
  let resolutions = 0;
  let seq = 0;
  const poster = {
    post: async (_c: string, p: SlackPayload, thread?: string) => {
      if (thread && p.text.startsWith('✅')) resolutions++;
      else posts++;
      return `1700000000.${String(++seq).padStart(6, '0')}`;
    },
    update: async () => true,
  };
  const store = new MemoryStore();
  const t0 = Date.parse('2026-12-01T09:00:00Z');
  let now = t0;
  const notifier = new Notifier({
    policy,
    source: async () => source,
    answerer,
    poster,
    store,
    leader: null,
    now: () => now,
  });
  // The 1,000 incidents in the order they start: ~17 a round.
  const slots = namespaces.flatMap((ns) => Array.from({ length: PER_NS }, (_, k) => ({ ns, name: `w${k}` })));
  const started: { ns: string; name: string; round: number }[] = [];
  gc();
  const heapBeforeMB = heapMB();
  const times: number[] = [];
  let suppressed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    now = t0 + round * 60_000;
    const at = new Date(now).toISOString();
    const from = Math.floor((round * slots.length) / ROUNDS);
    const to = Math.floor(((round + 1) * slots.length) / ROUNDS);
    for (const s of slots.slice(from, to)) {
      for (const o of workload(s.ns, s.name, at)) snapshot.put(o);
      started.push({ ...s, round });
    }
    for (const s of started)
      if (s.round === round - RESOLVE_AFTER)
        snapshot.put(pod(s.ns, `${s.name}-5d8c7b9f4`, `${s.name}-5d8c7b9f4-bbbb2`));
    const t = performance.now();
    const r = await notifier.tick();
    times.push(performance.now() - t);
    suppressed += r.suppressed;
  }
  gc();
  const heapAfterMB = heapMB();
  const state = await store.load();
  times.sort((a, b) => a - b);
  return {
    namespaces: NS,
    incidents: slots.length,
    posts,
    suppressed,
    resolutions,
    roundMedianMs: Math.round(times[Math.floor(times.length / 2)]! * 10) / 10,
    roundMaxMs: Math.round(times.at(-1)! * 10) / 10,
    heapBeforeMB,
    heapAfterMB,
    storeKB: Math.round(JSON.stringify(state).length / 102.4) / 10,
  };
}

export function alertsBenchTable(b: AlertsBench): string {
  return [
    `proactive mode: ${b.incidents} incidents in one hour across ${b.namespaces} namespaces (postsPerHour 3), 60 rounds`,
    `  posts ${b.posts}  suppressed ${b.suppressed}  resolutions ${b.resolutions}`,
    `  round median ${b.roundMedianMs} ms  max ${b.roundMaxMs} ms`,
    `  heap ${b.heapBeforeMB} MB → ${b.heapAfterMB} MB  store ${b.storeKB} KB`,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(alertsBenchTable(await runAlertsBench()));
}
