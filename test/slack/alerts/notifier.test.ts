/**
 * The notifier on the demo cluster with the real answerer: one post per incident in the channel that owns
 * the namespace, the same reply a paste would get, silence on repeats, a thread reply on change, a
 * resolution line when it clears, and the noise controls (quiet hours, posts per hour, mutes, unread data).
 */
import { describe, expect, it } from 'vitest';
import { createAnswerer } from '../../../src/answer/index.ts';
import { parsePolicy } from '../../../src/answer/policy.ts';
import type { ClusterSource, SourceError, SourceResult } from '../../../src/cluster/source.ts';
import { readStateFiles } from '../../../src/cluster/file-source.ts';
import type { Pod } from '../../../src/k8s/objects.ts';
import type { Snapshot } from '../../../src/k8s/snapshot.ts';
import { inQuietHours, Notifier, type SlackPayload } from '../../../src/slack/alerts/notifier.ts';
import { MemoryStore } from '../../../src/slack/alerts/store.ts';

const NOW = Date.parse('2026-03-10T10:00:00Z');

class MutableSource implements ClusterSource {
  readonly kind = 'file' as const;
  errors: SourceError[] = [];
  loads = 0;
  constructor(public snapshot: Snapshot) {}
  describe() {
    return 'demo';
  }
  async load(): Promise<SourceResult> {
    this.loads++;
    return { snapshot: this.snapshot, errors: this.errors, warnings: [] };
  }
  async ready() {
    return true;
  }
  async close() {}
}

interface Sent {
  channel: string;
  thread?: string;
  text: string;
  blocks: SlackPayload['blocks'];
}

function poster() {
  const sent: Sent[] = [];
  let n = 0;
  return {
    sent,
    post: async (channel: string, p: SlackPayload, thread?: string) => {
      sent.push({ channel, ...(thread ? { thread } : {}), text: p.text, blocks: p.blocks });
      return `1700000000.${String(++n).padStart(6, '0')}`;
    },
    update: async () => true,
  };
}

const POLICY = `
channels:
  - id: C0TEAMA
    namespaces: [team-a]
    alerts: { pendingAfter: 5m }
  - id: C0TEAMB
    namespaces: [team-b]
  - id: C0ML
    namespaces: [ml]
    alerts: { quietHours: "09:00-11:00" }
`;

function setup(policyText = POLICY, now = () => NOW) {
  const source = new MutableSource(readStateFiles('manifests/demo').snapshot);
  const p = poster();
  const store = new MemoryStore();
  const notifier = new Notifier({
    policy: parsePolicy(policyText),
    source: async () => source,
    answerer: createAnswerer(),
    poster: p,
    store,
    leader: null,
    now,
  });
  return { source, p, store, notifier };
}

const headlines = (sent: Sent[]) =>
  sent.map((s) => [s.channel, s.thread ?? '', (s.blocks[0] as { text: { text: string } }).text.text]);

describe('Notifier', () => {
  it('posts each team-a incident once, in team-a only, with the reply a paste gets and the buttons', async () => {
    const { p, notifier } = setup();
    const r = await notifier.tick();
    expect(r).toMatchObject({ leading: true, posted: 3, updated: 0, resolved: 0 });
    expect(headlines(p.sent)).toEqual([
      [
        'C0TEAMA',
        '',
        ':rotating_light: *team-a: api: pod api-6b9f4c7d8-gnt9f Pending* — since 2026-03-10 07:58 UTC, 21 times',
      ],
      [
        'C0TEAMA',
        '',
        ":rotating_light: *team-a: exporter can't create pods (LimitRange): 0/1 pods* — since 2026-03-10 09:20 UTC, 14 times",
      ],
      [
        'C0TEAMA',
        '',
        ":rotating_light: *team-a: worker can't create pods (ResourceQuota): 2/3 pods* — since 2026-03-10 09:05 UTC, 11 times",
      ],
    ]);
    // The worker post carries the diagnosis (quota, numbers) and the three buttons.
    const worker = p.sent[2]!;
    expect(worker.text).toContain('team-quota');
    const actions = worker.blocks.at(-1) as { type: string; elements: { action_id: string; value: string }[] };
    expect(actions.type).toBe('actions');
    expect(actions.elements.map((e) => e.action_id)).toEqual(['qd_recheck', 'qd_nodes', 'qd_mute']);
    expect(actions.elements[0]!.value).toBe('team-a/Deployment/worker/quota/exceeded:team-quota:pods');
  });

  it('a second round posts nothing; a change goes to the thread; a fix posts the resolution line', async () => {
    const { p, notifier, source } = setup();
    await notifier.tick();
    const first = p.sent.length;
    // Suppressed: team-a's 3 as duplicates, ml's 2 for its quiet hours (09:00-11:00; it is 10:00).
    expect(await notifier.tick()).toMatchObject({ posted: 0, updated: 0, resolved: 0, suppressed: 5 });
    expect(p.sent.length).toBe(first);

    // The exporter ReplicaSet now has its pod: resolved. The worker RS gets one more pod: 3/3, resolved.
    const s = source.snapshot;
    for (const [ns, prefix, name] of [['team-a', 'worker-5d8c7b9f4-', 'worker-5d8c7b9f4-zz001']] as const) {
      const like = s.list('Pod', ns).find((x) => x.metadata.name?.startsWith(prefix))!;
      const copy = structuredClone(like) as Pod;
      copy.metadata.name = name;
      s.put(copy);
    }
    const r = await notifier.tick();
    expect(r).toMatchObject({ posted: 0, resolved: 1 });
    expect(headlines(p.sent.slice(first))).toEqual([['C0TEAMA', '1700000000.000003', '✅ worker is back to 3/3']]);
    // Resolved incidents are forgotten: nothing more about them.
    expect(await notifier.tick()).toMatchObject({ posted: 0, resolved: 0 });
  });

  it('other numbers for the same incident: one reply in its thread, then silence', async () => {
    const { p, notifier, source } = setup();
    await notifier.tick();
    const first = p.sent.length;
    const rs = structuredClone(source.snapshot.get('ReplicaSet', 'team-a', 'worker-5d8c7b9f4')!);
    rs.spec = { ...rs.spec!, replicas: 4 };
    source.snapshot.put(rs);
    expect(await notifier.tick()).toMatchObject({ posted: 0, updated: 1 });
    expect(headlines(p.sent.slice(first))).toEqual([
      [
        'C0TEAMA',
        '1700000000.000003',
        ":arrows_counterclockwise: *Changed:* *team-a: worker can't create pods (ResourceQuota): 2/4 pods* — since 2026-03-10 09:05 UTC, 11 times",
      ],
    ]);
    expect(await notifier.tick()).toMatchObject({ posted: 0, updated: 0 });
  });

  it('a restart with the same store posts nothing twice', async () => {
    const a = setup();
    await a.notifier.tick();
    const again = new Notifier({
      policy: parsePolicy(POLICY),
      source: async () => a.source,
      answerer: createAnswerer(),
      poster: a.p,
      store: a.store,
      leader: null,
      now: () => NOW,
    });
    expect(await again.tick()).toMatchObject({ posted: 0 });
    expect(a.p.sent).toHaveLength(3);
  });

  it('quiet hours hold the ml posts; after them they go out', async () => {
    let t = NOW; // 10:00 UTC, inside 09:00-11:00
    const { p, notifier } = setup(POLICY, () => t);
    await notifier.tick();
    expect(p.sent.filter((s) => s.channel === 'C0ML')).toHaveLength(0);
    t = Date.parse('2026-03-10T11:00:00Z');
    await notifier.tick();
    expect(p.sent.filter((s) => s.channel === 'C0ML').map((s) => s.text.split(' — ')[0])).toEqual([
      'ml: finetune-7b: pod finetune-7b-jmngj Pending',
      'ml: pod notebook-priya Pending',
    ]);
  });

  it('posts per hour: the rest wait for the next hour, nothing is lost', async () => {
    const policy = `
channels:
  - id: C0PLATFORM
    namespaces: ["*"]
    alerts: { postsPerHour: 4 }
`;
    const { p, notifier } = setup(policy);
    const r = await notifier.tick();
    expect(r).toMatchObject({ posted: 4 });
    expect(r.suppressed).toBe(4);
    expect(p.sent).toHaveLength(4);
  });

  it('a mute silences one incident in one channel', async () => {
    const { p, notifier, store } = setup();
    await notifier.mute('C0TEAMA', 'team-a/Deployment/worker/quota/exceeded:team-quota:pods');
    await notifier.tick();
    expect(p.sent.map((s) => s.text.split(' — ')[0])).toEqual([
      'team-a: api: pod api-6b9f4c7d8-gnt9f Pending',
      "team-a: exporter can't create pods (LimitRange): 0/1 pods",
    ]);
    expect((await store.load())!.mutes).toEqual([
      { channel: 'C0TEAMA', key: 'team-a/Deployment/worker/quota/exceeded:team-quota:pods', until: NOW + 86_400_000 },
    ]);
  });

  it('data that could not be read resolves nothing and posts nothing', async () => {
    const { p, notifier, source } = setup();
    await notifier.tick();
    const posted = p.sent.length;
    source.snapshot = readStateFiles('manifests/demo').snapshot;
    for (const pod of source.snapshot.list('Pod', 'team-a'))
      source.snapshot.remove('Pod', 'team-a', pod.metadata.name!);
    source.errors = [{ resource: 'pods', namespace: 'team-a', reason: 'Forbidden', message: 'pods is forbidden' }];
    const r = await notifier.tick();
    expect(r).toMatchObject({ posted: 0, resolved: 0 });
    expect(p.sent.length).toBe(posted);
  });

  it('no channel with alerts: nothing is read at all', async () => {
    const { notifier, source } = setup('channels:\n  - id: C0TEAMA\n    namespaces: [team-a]\n');
    expect(await notifier.tick()).toMatchObject({ skipped: 'no channel takes alerts' });
    expect(source.loads).toBe(0);
  });

  it('a follower posts nothing', async () => {
    const source = new MutableSource(readStateFiles('manifests/demo').snapshot);
    const p = poster();
    const n = new Notifier({
      policy: parsePolicy(POLICY),
      source: async () => source,
      answerer: createAnswerer(),
      poster: p,
      store: new MemoryStore(),
      leader: { tick: async () => false, release: async () => {} },
      now: () => NOW,
    });
    expect(await n.tick()).toMatchObject({ leading: false, skipped: 'not the leader', posted: 0 });
    expect(source.loads).toBe(0);
  });
});

describe('inQuietHours', () => {
  const at = (hhmm: string) => Date.parse(`2026-03-10T${hhmm}:00Z`);
  it.each([
    [[22 * 60, 7 * 60], '23:30', true],
    [[22 * 60, 7 * 60], '06:59', true],
    [[22 * 60, 7 * 60], '07:00', false],
    [[22 * 60, 7 * 60], '12:00', false],
    [[9 * 60, 11 * 60], '09:00', true],
    [[9 * 60, 11 * 60], '11:00', false],
  ] as [[number, number], string, boolean][])('%j at %s → %s', (q, hhmm, want) => {
    expect(inQuietHours(q, at(hhmm))).toBe(want);
  });
});
