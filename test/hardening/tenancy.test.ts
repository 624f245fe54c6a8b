/**
 * Nobody sees what their channel may not (issue 13, "one access policy, applied first"): every entry
 * point (channel message, thread reply, @mention, @mention in a thread, `/quota`, the message shortcut,
 * a DM, an unlisted channel) × every probe, through the real Bolt receiver and the real Answerer over
 * manifests/demo, with a cluster source whose errors and warnings name other namespaces' objects.
 *
 * A leak is any name of an object in a namespace the channel may not see (or that namespace's name) in
 * anything posted for the request — thread replies, ephemerals, response_url posts, the ack — that the
 * asker did not type themselves. Every probe is counted; the summary line prints the count and the leaks.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerer } from '../../src/answer/index.ts';
import { refusalAnswer } from '../../src/answer/policy.ts';
import { FileSource, readStateFiles } from '../../src/cluster/file-source.ts';
import type { ClusterSource, SourceResult } from '../../src/cluster/source.ts';
import { stringify as stringifyYaml } from 'yaml';
import { renderBlocks } from '../../src/render/blocks.ts';
import { CHANNEL_A, CHANNEL_NO_DEFAULT, messageEvent, startHarness, type Harness } from '../slack/harness.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const demo = readStateFiles(DEMO).snapshot;

const UNLISTED = 'C0STRANGER';
const DM = 'D0ALICEDM';

/** What each channel of test/slack/harness.ts's policy may see. */
const VISIBLE: Record<string, readonly string[]> = {
  [CHANNEL_A]: ['team-a'],
  [CHANNEL_NO_DEFAULT]: ['team-a', 'team-c'],
  [UNLISTED]: [],
  [DM]: [],
};

const KINDS = [
  'Pod',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'Job',
  'CronJob',
  'DaemonSet',
  'ResourceQuota',
  'LimitRange',
  'Event',
  'PersistentVolumeClaim',
  'Service',
  'ConfigMap',
  'Secret',
];
const namesIn = (ns: string) =>
  KINDS.flatMap((k) => demo.list(k, ns))
    .map((o) => o.metadata.name ?? '')
    .filter((n) => n !== '');
/** Names anyone may see: nodes and PriorityClasses are cluster-wide. */
const CLUSTER_NAMES = new Set(['Node', 'PriorityClass'].flatMap((k) => demo.list(k)).map((o) => o.metadata.name ?? ''));
/**
 * Object names that are also words of the bot's own wording ("LimitRange defaults", "the default pod",
 * "answering from the cache", "couldn't compute"): looked for only as parts of longer names (their pods,
 * ReplicaSets and events are still in the list).
 */
const OUR_WORDS = new Set(['default', 'defaults', 'cache', 'compute']);

/** Every name a channel may not be shown: other namespaces and everything in them. */
function forbiddenNames(channel: string): string[] {
  const visible = VISIBLE[channel]!;
  const seen = new Set(visible.flatMap(namesIn));
  const out = new Set<string>();
  for (const ns of demo.namespaces()) {
    if (visible.includes(ns)) continue;
    for (const n of [ns, ...namesIn(ns)]) if (!seen.has(n) && !CLUSTER_NAMES.has(n) && !OUR_WORDS.has(n)) out.add(n);
  }
  return [...out];
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function leaksIn(shown: string, asked: string, channel: string): string[] {
  return forbiddenNames(channel).filter(
    (n) => !asked.includes(n) && new RegExp(`(^|[^a-z0-9-])${escapeRe(n)}($|[^a-z0-9-])`).test(shown),
  );
}

/** The demo cluster, with the faults a live cluster has: errors and a stale watch naming team-b's and ml's objects. */
class LeakySource implements ClusterSource {
  readonly kind = 'live';
  private readonly inner = new FileSource(DEMO);
  /** Off: the demo read completely (a what-if whose inputs were not read is undecided, whoever asks). */
  faults = true;
  describe(): string {
    return 'demo + faults';
  }
  async load(): Promise<SourceResult> {
    const r = await this.inner.load();
    if (!this.faults) return r;
    return {
      snapshot: r.snapshot,
      errors: [
        {
          resource: 'pods',
          namespace: 'team-b',
          reason: 'Forbidden',
          message:
            'pods "frontend-79c8d6b5f4-hwdsw" is forbidden: User "system:serviceaccount:qd:bot" cannot list resource "pods" in API group "" in the namespace "team-b"',
        },
        {
          resource: 'persistentvolumeclaims',
          reason: 'InternalError',
          message:
            'Internal error occurred: etcdserver: request timed out reading /registry/ml/finetune-7b-jmngj (notebook-priya)',
        },
        {
          resource: 'events',
          namespace: 'ml',
          reason: 'the server said: notebook-priya is <b>gone</b>',
          message: 'inference-7f9c6d5b8-w7mh2',
        },
      ],
      warnings: [
        {
          kind: 'stale',
          resource: 'replicasets',
          namespace: 'team-b',
          since: '2026-03-10T09:30:00.000Z',
          reason: 'Forbidden',
          message: 'replicasets "toolbox-6c4d8f7b9" is forbidden in team-b',
          next: 'reconnecting',
        },
        { kind: 'skipped', resource: 'pods', namespace: 'ml', count: 2 },
        { kind: 'reconciled', namespace: 'batch', quota: 'batch-low' },
        { kind: 'unread', source: 'state/ml.yaml', object: 'ConfigMap ml/finetune-7b-jmngj' },
      ],
    };
  }
  async ready(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {}
}

type Entry = 'message' | 'thread' | 'mention' | 'mention-thread' | 'shortcut' | 'command';
interface Probe {
  group: string;
  entry: Entry;
  channel: string;
  text: string;
}
interface Tried extends Probe {
  shown: string;
  texts: string[];
  leaks: string[];
}

const REFUSAL_TEXT = renderBlocks(refusalAnswer()).text;

const SEES_NOTHING_TEXTS = [
  'hi',
  'help',
  'quota team-a',
  'what if web scales to 8 in team-a?',
  'what if gpu-a-1 goes down?',
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
];
const DRAIN_TEXTS = [
  'what if gpu-a-1 goes down?',
  'what if general-c-1 goes down?',
  'drain general-b-3',
  'what if general-a-1 goes down?',
  'what if general-b-2 is drained?',
  'lose node general-c-2',
];

type Json = Record<string, unknown>;
const container = { name: 'a', image: 'x', resources: { requests: { cpu: '100m', memory: '64Mi' } } };
const pod = (name: string, spec: Json): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'team-a', labels: { app: 'probe', tier: 'web' } },
  spec: { containers: [container], ...spec },
});
const term = (extra: Json, selector: Json = { matchLabels: { app: 'frontend' } }): Json => ({
  labelSelector: selector,
  topologyKey: 'kubernetes.io/hostname',
  ...extra,
});
const required = (which: 'podAffinity' | 'podAntiAffinity', t: Json): Json => ({
  affinity: { [which]: { requiredDuringSchedulingIgnoredDuringExecution: [t] } },
});
const AFFINITY_REFUSED: [string, Json][] = [
  ['podAffinity namespaces [team-b]', pod('probe-ns', required('podAffinity', term({ namespaces: ['team-b'] })))],
  ['podAffinity namespaceSelector {}', pod('probe-all', required('podAffinity', term({ namespaceSelector: {} })))],
  [
    'podAffinity namespaceSelector team: b',
    pod(
      'probe-sel',
      required(
        'podAffinity',
        term(
          { namespaceSelector: { matchLabels: { team: 'b' } } },
          { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
        ),
      ),
    ),
  ],
  [
    'podAntiAffinity namespaces [ml] (preferred)',
    pod('probe-anti', {
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            { weight: 100, podAffinityTerm: term({ namespaces: ['ml'] }, { matchLabels: { app: 'inference' } }) },
          ],
        },
      },
    }),
  ],
  [
    'podAntiAffinity required, matchLabelKeys, namespaces [team-a, team-b]',
    pod(
      'probe-mlk',
      required(
        'podAntiAffinity',
        term({ matchLabelKeys: ['tier'], namespaces: ['team-a', 'team-b'] }, { matchLabels: { app: 'probe' } }),
      ),
    ),
  ],
  [
    'podAffinity namespaceSelector metadata.name NotIn [team-a]',
    pod(
      'probe-notin',
      required(
        'podAffinity',
        term({
          namespaceSelector: {
            matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'NotIn', values: ['team-a'] }],
          },
        }),
      ),
    ),
  ],
  [
    'podAffinity namespaces [team-zz] (no such namespace)',
    pod('probe-none', required('podAffinity', term({ namespaces: ['team-zz'] }))),
  ],
  [
    'Deployment template, namespaceSelector {}',
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'probe-dep', namespace: 'team-a' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'probe' } },
        template: {
          metadata: { labels: { app: 'probe' } },
          spec: {
            containers: [container],
            ...required('podAffinity', term({ namespaceSelector: {} }, { matchLabels: { app: 'cache' } })),
          },
        },
      },
    },
  ],
];
/** Terms that stay inside team-a: simulated, answered. */
const AFFINITY_ALLOWED: [string, Json][] = [
  ['podAffinity own namespace', pod('probe-own', required('podAffinity', term({}, { matchLabels: { app: 'web' } })))],
  [
    'namespaceSelector pinned to team-a',
    pod(
      'probe-pinned',
      required(
        'podAffinity',
        term(
          { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } } },
          { matchLabels: { app: 'web' } },
        ),
      ),
    ),
  ],
  [
    'topologySpread with matchLabelKeys',
    pod('probe-spread', {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'kubernetes.io/hostname',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'probe' } },
          matchLabelKeys: ['tier'],
        },
      ],
    }),
  ],
];
/** A paste as a person makes it: a YAML block in a message; one line of JSON in an @mention (Slack's text is one line there). */
const asPaste = (o: Json, entry: Entry) =>
  entry === 'mention' || entry === 'mention-thread' ? JSON.stringify(o) : `\`\`\`yaml\n${stringifyYaml(o)}\`\`\``;

/** [real name only in team-b (or ml), made-up name of the same shape]. */
const ORACLE_PAIRS: { q: (n: string) => string; real: string; fake: string }[] = [
  { q: (n) => `what if ${n} scales to 3?`, real: 'frontend', fake: 'frontlet' },
  { q: (n) => `why is ${n} pending?`, real: 'toolbox', fake: 'toolbax' },
  { q: (n) => `why is ${n} pending?`, real: 'cache-5f7d9c8b6d-c867k', fake: 'cachx-5f7d9c8b6d-c867k' },
  { q: (n) => `roll out ${n}`, real: 'report-gen', fake: 'report-gem' },
  { q: (n) => `what if ${n} requests 2 cpu?`, real: 'inference', fake: 'inferenze' },
  { q: (n) => `raise pods of ${n} to 5`, real: 'besteffort', fake: 'bestefford' },
  { q: (n) => `what if the limitrange ${n} max cpu is 4?`, real: 'storage-limits', fake: 'storage-limitz' },
  { q: (n) => `quota ${n}`, real: 'team-b', fake: 'team-q' },
  {
    q: (n) =>
      `Error creating: pods "${n}-6d8f7b9c4-87lqz" is forbidden: failed quota: compute: must specify limits.cpu for: app; limits.memory for: app`,
    real: 'report-gen',
    fake: 'report-gem',
  },
  {
    q: (n) =>
      `Error creating: pods "${n}" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=8, limited: requests.nvidia.com/gpu=8`,
    real: 'notebook-priya',
    fake: 'notebook-prixa',
  },
];

describe('tenancy: every entry point × every probe, 0 leaks', () => {
  let h: Harness;
  const source = new LeakySource();
  /** A probe whose answer needs every namespace read: sent with the faults off, so it is decided. */
  async function complete(p: Probe): Promise<Tried> {
    source.faults = false;
    try {
      return await send(p);
    } finally {
      source.faults = true;
    }
  }
  const tried: Tried[] = [];
  let seq = 0;
  beforeAll(async () => {
    h = await startHarness({ answerer: createAnswerer(), source, deadlineMs: 15_000 });
  });
  afterAll(async () => {
    await h?.stop();
    const leaked = tried.filter((t) => t.leaks.length > 0);
    console.log(
      `hardening tenancy: ${tried.length} probes (${[...new Set(tried.map((t) => t.group))].map((g) => `${g} ${tried.filter((t) => t.group === g).length}`).join(', ')}), ${leaked.length} leaked${leaked.length ? `: ${JSON.stringify(leaked.map((t) => [t.entry, t.channel, t.text.slice(0, 40), t.leaks]))}` : ''}`,
    );
  });

  /** Sends one probe through its entry point; returns every payload posted for it (texts and the whole JSON). */
  async function send(p: Probe): Promise<Tried> {
    const before = { calls: h.fake.calls.length, responds: h.fake.responds.length };
    const ts = `1701000000.${String(++seq).padStart(6, '0')}`;
    const parent = `1701000000.${String(++seq).padStart(6, '0')}`;
    let ack: unknown;
    if (p.entry === 'message') await h.event(messageEvent(p.text, { channel: p.channel, ts }));
    else if (p.entry === 'thread') await h.event(messageEvent(p.text, { channel: p.channel, ts, thread_ts: parent }));
    else if (p.entry === 'mention')
      await h.event({ type: 'app_mention', channel: p.channel, user: 'U0BOB', text: `<@UBOT> ${p.text}`, ts });
    else if (p.entry === 'mention-thread')
      await h.event({
        type: 'app_mention',
        channel: p.channel,
        user: 'U0BOB',
        text: `<@UBOT> ${p.text}`,
        ts,
        thread_ts: parent,
      });
    else if (p.entry === 'shortcut') await h.shortcut({ text: p.text, ts }, { channel: p.channel });
    else ack = (await h.command(p.text, { channel: p.channel })).ack;
    await h.handle.idle();
    const calls = h.fake.calls
      .slice(before.calls)
      .filter((c) => c.method.startsWith('chat.'))
      .map((c) => c.params);
    const responds = h.fake.responds.slice(before.responds).map((r) => r.body);
    const payloads = [...(ack !== undefined ? [ack] : []), ...calls, ...responds] as Record<string, unknown>[];
    const shown = JSON.stringify(payloads);
    const t: Tried = {
      ...p,
      shown,
      texts: payloads.map((x) => String(x.text ?? '')),
      leaks: leaksIn(shown, p.text, p.channel),
    };
    tried.push(t);
    return t;
  }

  const everyEntry: Entry[] = ['message', 'thread', 'mention', 'mention-thread', 'shortcut'];

  const seesNothing = [UNLISTED, DM].flatMap((channel) => [
    ...SEES_NOTHING_TEXTS.flatMap((text) =>
      everyEntry.map((entry) => ({ group: 'sees-nothing', entry, channel, text })),
    ),
    ...['', 'team-a', 'team-b', 'kube-system'].map((text) => ({
      group: 'sees-nothing',
      entry: 'command' as const,
      channel,
      text,
    })),
  ]);
  it.each(seesNothing)(
    `(1) sees nothing: $entry in $channel: $text → one refusal (DM) or silence (channel chatter), nothing else`,
    async (p) => {
      const t = await send(p);
      const chatter = (p.entry === 'message' || p.entry === 'thread') && p.channel !== DM;
      // /quota answers in the ack; everything else posts once.
      expect(t.texts).toEqual(chatter ? [] : [REFUSAL_TEXT]);
      expect(t.leaks).toEqual([]);
    },
  );

  const drains = DRAIN_TEXTS.flatMap((text) =>
    (['mention', 'mention-thread'] as const).map((entry) => ({
      group: 'node what-if',
      entry,
      channel: CHANNEL_A,
      text,
    })),
  );
  it.each(drains)('(2) node what-if in #team-a: $entry: $text → own pods by name, others as counts', async (p) => {
    const t = await complete(p);
    expect(t.texts).toHaveLength(1);
    expect(t.texts[0]).toMatch(/^🔮 /);
    const node = /(general-[a-c]-\d|gpu-a-1)/.exec(p.text)![1]!;
    // Pods of other namespaces on that node, counted from the state: the reply says how many, nothing else.
    const onNode = demo
      .list('Pod')
      .filter(
        (x) =>
          x.spec?.nodeName === node &&
          !['Succeeded', 'Failed'].includes(x.status?.phase ?? '') &&
          !x.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet'),
      );
    const others = onNode.filter((x) => x.metadata.namespace !== 'team-a').length;
    if (others > 0)
      expect(t.texts[0]).toMatch(
        new RegExp(`Other namespaces: ${others} pods? — \\d+ lands? elsewhere, \\d+ stays? Pending\\.`),
      );
    else expect(t.texts[0]).not.toContain('Other namespaces');
    expect(t.leaks).toEqual([]);
  });

  const refusedPastes = AFFINITY_REFUSED.flatMap(([name, o]) =>
    everyEntry.map((entry) => ({ group: 'affinity', entry, channel: CHANNEL_A, text: asPaste(o, entry), name })),
  );
  it.each(refusedPastes)(
    '(3) pasted in #team-a, $name: $entry → refused before simulation, naming the term',
    async (p) => {
      const t = await send(p);
      expect(t.texts).toHaveLength(1);
      expect(t.texts[0]).toMatch(
        /^🔒 Sorry — this channel isn't set up to see that\n(Pod|Deployment) probe-[a-z]+: spec\.(template\.spec\.)?affinity\.pod(Anti)?Affinity\.(required|preferred)DuringSchedulingIgnoredDuringExecution\[0\](\.podAffinityTerm)? — its `namespace(s|Selector)`/,
      );
      expect(t.shown).not.toMatch(/Simulated|→ general-|→ gpu-/);
      expect(t.leaks).toEqual([]);
    },
  );

  const allowedPastes = AFFINITY_ALLOWED.flatMap(([name, o]) =>
    everyEntry.map((entry) => ({ group: 'affinity', entry, channel: CHANNEL_A, text: asPaste(o, entry), name })),
  );
  it.each(allowedPastes)('(3) pasted in #team-a, $name: $entry → simulated (the term stays in team-a)', async (p) => {
    const t = await send(p);
    expect(t.texts).toHaveLength(1);
    expect(t.texts[0]).toMatch(/Simulated 1 object/);
    expect(t.leaks).toEqual([]);
  });

  const faults = [
    { group: 'source errors', entry: 'command' as const, channel: CHANNEL_A, text: 'team-a' },
    { group: 'source errors', entry: 'mention' as const, channel: CHANNEL_A, text: 'what if web scales to 8?' },
    { group: 'source errors', entry: 'message' as const, channel: CHANNEL_A, text: SEES_NOTHING_TEXTS[5]! },
    { group: 'source errors', entry: 'shortcut' as const, channel: CHANNEL_A, text: SEES_NOTHING_TEXTS[5]! },
    { group: 'source errors', entry: 'mention-thread' as const, channel: CHANNEL_NO_DEFAULT, text: 'quota team-a' },
  ];
  it.each(faults)(
    "(4) API errors naming other namespaces' objects, $entry in $channel: reduced to reason and resource",
    async (p) => {
      const t = await send(p);
      expect(t.texts.length).toBeGreaterThanOrEqual(1);
      const gaps = t.shown;
      // answer/gaps.ts unreadGaps: the cause, never the server's words. Every answer is verdict-gated and
      // says what it needed: placement (every namespace's pods) for all; a what-if also its claims; events
      // (not needed by any of them) never.
      expect(gaps).toContain("couldn't read pods in a namespace this channel doesn't see: 403 Forbidden");
      if (p.entry === 'mention')
        expect(gaps).toContain("couldn't read persistentvolumeclaims: server error (InternalError)");
      else expect(gaps).not.toMatch(/couldn't read persistentvolumeclaims/);
      expect(gaps).not.toMatch(/couldn't read events/);
      expect(gaps).toContain(
        "replicasets in a namespace this channel doesn't see: not being updated since 2026-03-10T09:30:00.000Z (Forbidden); answering from the cache, reconnecting",
      );
      expect(gaps).not.toMatch(/etcdserver|system:serviceaccount|status\.used recomputed|<b>/);
      expect(t.leaks).toEqual([]);
    },
  );

  /** One reply with the asked name put back to a fixed word: what the asker typed, nothing else, may differ. */
  const normalised = (t: Tried, name: string) => t.texts.map((x) => x.replaceAll(name, 'NAME')).join('\n');
  const oracle = [CHANNEL_NO_DEFAULT, CHANNEL_A].flatMap((channel) =>
    ORACLE_PAIRS.flatMap((pair) => {
      const paste = pair.q('x').startsWith('Error');
      const entries: Entry[] = paste ? ['message', 'mention', 'shortcut'] : ['mention', 'mention-thread'];
      return entries.map((entry) => ({ channel, entry, pair, label: pair.q(pair.real) }));
    }),
  );
  it.each(oracle)(
    '(5) existence oracle in $channel, $entry: "$label" reads the same as a made-up name',
    async ({ channel, entry, pair }) => {
      const real = await send({ group: 'existence oracle', entry, channel, text: pair.q(pair.real) });
      const fake = await send({ group: 'existence oracle', entry, channel, text: pair.q(pair.fake) });
      expect(real.texts).toHaveLength(1);
      expect(normalised(real, pair.real)).toBe(normalised(fake, pair.fake));
      expect(real.leaks).toEqual([]);
    },
  );

  it.each([
    ['team-b', CHANNEL_A],
    ['team-zz', CHANNEL_A],
    ['ml', CHANNEL_NO_DEFAULT],
    ['team-q', CHANNEL_NO_DEFAULT],
  ])(
    '(5) /quota %s from %s → the refusal in the ack, byte for byte the same for a real and a made-up namespace',
    async (ns, channel) => {
      const t = await send({ group: 'existence oracle', entry: 'command', channel, text: ns });
      expect(t.texts).toEqual([REFUSAL_TEXT]);
      expect(t.leaks).toEqual([]);
    },
  );

  const naming: ((entry: Entry) => string)[] = [
    () =>
      '$ kubectl -n team-b create -f frontend.yaml\nError creating: pods "frontend-79c8d6b5f4-zzzzz" is forbidden: exceeded quota: compute, requested: limits.cpu=1, used: limits.cpu=4, limited: limits.cpu=4',
    () =>
      '$ kubectl -n team-b describe pod cache-5f7d9c8b6d-c867k\nLast State: Terminated  Reason: OOMKilled  Exit Code: 137',
    (entry) =>
      asPaste(
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'sneaky', namespace: 'team-b' },
          spec: { containers: [container] },
        },
        entry,
      ),
  ];
  it.each(
    naming.flatMap((text) =>
      (['shortcut', 'thread', 'mention-thread'] as const).map((entry) => ({ text: text(entry), entry })),
    ),
  )('a $entry on a message naming team-b, in #team-a → the refusal only', async ({ text, entry }) => {
    const t = await send({ group: 'names team-b', entry, channel: CHANNEL_A, text });
    expect(t.texts).toEqual([REFUSAL_TEXT]);
    expect(t.leaks).toEqual([]);
  });

  // "Did you mean": typos one edit from a name that exists only in team-b or ml are never answered with it;
  // a typo of a team-a name is.
  const didYouMean: [string, string | null][] = [
    ['what if frontnd scales to 3?', null],
    ['can I add 2 more frontends?', null],
    ['why is notebook-priy pending?', null],
    ['why is toolbx pending?', null],
    ['raise pods of besteffor to 5', null],
    ['what if the limitrange storage-limit max cpu is 4?', null],
    ['what priority does inferenc have?', null],
    ['how much gpu is left in tema-b?', null],
    ['is team-b ok?', null],
    ['what if wbe scales to 3?', 'Did you mean web?'],
    ['raise pods of team-qouta to 12', 'Did you mean team-quota?'],
    ['why is apii pending?', 'Did you mean api?'],
  ];
  it.each(
    didYouMean.flatMap(([text, want]) => [CHANNEL_A, CHANNEL_NO_DEFAULT].map((channel) => ({ text, want, channel }))),
  )('(6) did you mean, in $channel: $text → only names the channel may see', async ({ text, want, channel }) => {
    const t = await complete({ group: 'did you mean', entry: 'mention', channel, text });
    expect(t.texts).toHaveLength(1);
    expect(t.leaks).toEqual([]);
    if (want) expect(t.texts[0]).toContain(want);
    else expect(t.texts[0]).not.toContain('Did you mean');
  });

  it('help in #team-a and in a channel whose namespace has nothing: examples from visible namespaces or placeholders only', async () => {
    const a = await send({ group: 'help', entry: 'mention', channel: CHANNEL_A, text: 'help' });
    expect(a.texts[0]).toContain('what if api scales to 8 in team-a?');
    expect(a.texts[0]).toContain('raise requests.cpu of team-quota to 16 in team-a');
    const c = await send({ group: 'help', entry: 'mention', channel: CHANNEL_NO_DEFAULT, text: 'hello there' });
    expect(c.leaks).toEqual([]);
    expect(a.leaks).toEqual([]);
  });
});
