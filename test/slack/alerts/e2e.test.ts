/**
 * Proactive mode end to end on loopback: the API stand-in (real client-node watches on it) emits the demo's
 * FailedCreate and FailedScheduling events as watch events; the real Bolt app posts through the Slack
 * stand-in; the Lease and the incidents ConfigMap live on a strict Lease/ConfigMap stand-in.
 * Issue #19's acceptance: exactly one post per incident in the owning channel within 10 s, a thread reply
 * when it changes, a resolution when the quota is raised (and the ReplicaSet controller, played here,
 * creates the pods), nothing in channels that do not own the namespace, and neither a restart nor a
 * second replica posts anything twice.
 */
import { CoordinationV1Api, CoreV1Api } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnswerer } from '../../../src/answer/index.ts';
import { parsePolicy } from '../../../src/answer/policy.ts';
import { readStateFiles } from '../../../src/cluster/file-source.ts';
import { LiveSource } from '../../../src/cluster/live-source.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import type { Pod } from '../../../src/k8s/objects.ts';
import { type Harness, startHarness } from '../harness.ts';
import { FakeApiServer } from '../../support/fake-apiserver.ts';
import { type FakeLeases, startFakeLeases } from '../../support/fake-leases.ts';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.ts';

const NS = 'quota-doctor';
const POLICY = `
channels:
  - id: C0TEAMA
    namespaces: [team-a]
    alerts: { pendingAfter: 1s }
  - id: C0TEAMB
    namespaces: [team-b]
    alerts: true
  - id: C0PLATFORM
    namespaces: ["*"]
`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!().catch(() => undefined);
});

function demoObjects(): { objects: KObject[]; events: KObject[] } {
  const s = readStateFiles('manifests/demo').snapshot;
  const objects: KObject[] = [];
  const events: KObject[] = [];
  for (const kind of [
    'Namespace',
    'Node',
    'PriorityClass',
    'ResourceQuota',
    'LimitRange',
    'Deployment',
    'ReplicaSet',
    'StatefulSet',
    'Job',
    'CronJob',
    'DaemonSet',
    'Pod',
    'PersistentVolumeClaim',
    'PersistentVolume',
    'StorageClass',
  ] as const)
    for (const o of s.list(kind)) objects.push({ ...(o as KObject), kind });
  for (const e of s.list('Event')) events.push({ ...(e as KObject), kind: 'Event' });
  return { objects, events };
}

interface World {
  api: FakeApiServer;
  leases: FakeLeases;
  slack: FakeSlack;
  events: KObject[];
}

async function world(): Promise<World> {
  const { objects, events } = demoObjects();
  const api = await FakeApiServer.start({ objects });
  const leases = await startFakeLeases();
  leases.seedLease(NS, 'quota-doctor-leader');
  leases.seedConfigMap(NS, 'quota-doctor-incidents');
  const slack = await startFakeSlack();
  cleanups.push(async () => {
    await slack.close();
    await leases.close();
    await api.close();
  });
  return { api, leases, slack, events };
}

async function replica(w: World, identity: string): Promise<Harness> {
  const source = new LiveSource({
    kubeConfig: w.api.kubeConfig(),
    requestTimeoutMs: 3000,
    syncTimeoutMs: 5000,
    staleAfterMs: 30_000,
    watchTimeoutSeconds: 60,
    backoff: { initialMs: 10, maxMs: 100 },
  });
  const kc = w.leases.kubeConfig();
  const h = await startHarness({
    fake: w.slack,
    source,
    answerer: createAnswerer(),
    policy: parsePolicy(POLICY),
    deadlineMs: 8000,
    alerts: {
      namespace: NS,
      identity,
      intervalMs: 200,
      apis: () => ({ leases: kc.makeApiClient(CoordinationV1Api), configMaps: kc.makeApiClient(CoreV1Api) }),
    },
  });
  let stopped = false;
  const stop = h.stop.bind(h);
  h.stop = async () => {
    if (stopped) return;
    stopped = true;
    await stop();
  };
  cleanups.push(() => h.stop());
  return h;
}

const posts = (slack: FakeSlack) =>
  slack.callsTo('chat.postMessage').map((c) => ({
    channel: String(c.params.channel),
    thread: c.params.thread_ts === undefined ? '' : String(c.params.thread_ts),
    text: String(c.params.text).split(' — ')[0]!,
  }));

async function until(pred: () => boolean, ms: number, what: string): Promise<number> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return Date.now() - t0;
}

const TEAM_A = [
  'team-a: api: pod api-6b9f4c7d8-gnt9f Pending',
  "team-a: exporter can't create pods (LimitRange): 0/1 pods",
  "team-a: worker can't create pods (ResourceQuota): 2/3 pods",
];

describe('proactive mode end to end', () => {
  it('one post per incident in the owning channel within 10 s; thread on change; resolution; nothing elsewhere', async () => {
    const w = await world();
    await replica(w, 'pod-a');
    // No events yet: nothing is wrong as far as anyone can tell.
    await new Promise((r) => setTimeout(r, 600));
    expect(posts(w.slack)).toEqual([]);

    for (const e of w.events) w.api.apply(e);
    const took = await until(() => posts(w.slack).length >= 4, 10_000, 'the four posts');
    expect(took).toBeLessThan(10_000);
    await new Promise((r) => setTimeout(r, 800));
    const first = posts(w.slack);
    expect(first.filter((p) => p.channel === 'C0TEAMA').map((p) => [p.thread, p.text])).toEqual(
      TEAM_A.map((t) => ['', t]),
    );
    expect(first.filter((p) => p.channel === 'C0TEAMB').map((p) => [p.thread, p.text])).toEqual([
      ['', "team-b: report-gen can't create pods (ResourceQuota): 0/2 pods"],
    ]);
    expect(first.filter((p) => p.channel !== 'C0TEAMA' && p.channel !== 'C0TEAMB')).toEqual([]);

    // The worker Deployment is scaled to 4 and its controller scales the ReplicaSet (played here): one
    // reply in the worker thread.
    const demo = readStateFiles('manifests/demo').snapshot;
    const dep = demo.get('Deployment', 'team-a', 'worker')!;
    w.api.apply({ ...(dep as KObject), kind: 'Deployment', spec: { ...dep.spec, replicas: 4 } });
    const rs = demo.get('ReplicaSet', 'team-a', 'worker-5d8c7b9f4')!;
    w.api.apply({ ...(rs as KObject), kind: 'ReplicaSet', spec: { ...rs.spec, replicas: 4 } });
    await until(() => posts(w.slack).length >= 5, 10_000, 'the change reply');
    const change = posts(w.slack)[4]!;
    expect(change.channel).toBe('C0TEAMA');
    expect(change.thread).not.toBe('');
    expect(change.text).toBe("team-a: worker can't create pods (ResourceQuota): 2/4 pods");

    // The platform raises pods to 20; the ReplicaSet controller (played here) creates the two pods.
    const q = demo.get('ResourceQuota', 'team-a', 'team-quota')!;
    w.api.apply({
      ...(q as KObject),
      kind: 'ResourceQuota',
      spec: { ...q.spec, hard: { ...q.spec?.hard, pods: '20' } },
    });
    const like = demo.list('Pod', 'team-a').find((p) => p.metadata.name?.startsWith('worker-5d8c7b9f4-'))!;
    for (const name of ['worker-5d8c7b9f4-new01', 'worker-5d8c7b9f4-new02']) {
      const p: Pod = structuredClone(like);
      p.metadata = { ...p.metadata, name, uid: `uid-${name}` };
      delete p.metadata.resourceVersion;
      w.api.apply({ ...(p as KObject), kind: 'Pod' });
    }
    await until(() => posts(w.slack).length >= 6, 10_000, 'the resolution');
    const resolution = posts(w.slack)[5]!;
    expect([resolution.channel, resolution.thread === change.thread, resolution.text]).toEqual([
      'C0TEAMA',
      true,
      '✅ worker is back to 4/4',
    ]);
    await new Promise((r) => setTimeout(r, 800));
    expect(posts(w.slack)).toHaveLength(6);
    const stored = JSON.parse(
      String((w.leases.configMap(NS, 'quota-doctor-incidents')!.data as Record<string, string>)['incidents.json']),
    );
    expect((stored.posted as { key: string }[]).map((p) => p.key).sort()).toEqual([
      'team-a/Deployment/api/scheduler/FailedScheduling',
      'team-a/Deployment/exporter/limitrange/limitrange:Container.cpu.ratio',
      'team-b/Deployment/report-gen/quota/must-specify:compute:limits.cpu,limits.memory',
    ]);
  }, 60_000);

  it('two replicas post each incident once; a restart posts nothing again', async () => {
    const w = await world();
    for (const e of w.events) w.api.apply(e);
    const a = await replica(w, 'pod-a');
    await replica(w, 'pod-b');
    await until(() => posts(w.slack).length >= 4, 10_000, 'the four posts');
    await new Promise((r) => setTimeout(r, 1000));
    expect(
      posts(w.slack)
        .map((p) => p.text)
        .sort(),
    ).toEqual([...TEAM_A, "team-b: report-gen can't create pods (ResourceQuota): 0/2 pods"].sort());
    // The leader goes away (released on stop); the other takes over and posts nothing new.
    await a.stop();
    await new Promise((r) => setTimeout(r, 1500));
    // A fresh replica after a restart: the ConfigMap says it was all posted.
    await replica(w, 'pod-c');
    await new Promise((r) => setTimeout(r, 1500));
    expect(posts(w.slack)).toHaveLength(4);
    const holder = (w.leases.get(NS, 'quota-doctor-leader')!.spec as { holderIdentity?: string }).holderIdentity;
    expect(['pod-b', 'pod-c']).toContain(holder);
  }, 60_000);
});
