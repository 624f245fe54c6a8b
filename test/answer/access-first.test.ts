/**
 * The access policy applied first, in the Answerer itself (console and Slack alike): a channel that sees
 * nothing is refused before the text is parsed or the cluster read; the length caps come before any
 * parsing; source errors reach a channel as reason and resource; affinity terms reaching other
 * namespaces are refused before simulation, saying which.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AskContext } from '../../src/answer/answerer.ts';
import { errorGap, sourceGaps, unansweredGap, warningGap } from '../../src/answer/gaps.ts';
import { createAnswerer, MAX_MESSAGE_BYTES, MAX_QUESTION_CHARS } from '../../src/answer/index.ts';
import { foreignAffinityTerm } from '../../src/answer/manifest-scope.ts';
import { refusalAnswer, Visibility } from '../../src/answer/policy.ts';
import { FileSource } from '../../src/cluster/file-source.ts';
import type { ClusterSource, SourceWarning } from '../../src/cluster/source.ts';
import type { KObject } from '../../src/k8s/snapshot.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const demo = new FileSource(DEMO);

/** A source that counts its reads (a read is what "applied first" must avoid). */
function counting(): ClusterSource & { loads: number } {
  const s = {
    kind: 'file' as const,
    loads: 0,
    describe: () => 'counting',
    load: async () => {
      s.loads++;
      return demo.load();
    },
    ready: async () => true,
    close: async () => {},
  };
  return s;
}

describe('a channel that sees nothing: refused before anything is read', () => {
  const a = createAnswerer();
  it.each([
    ['question', 'hi'],
    ['question', 'help'],
    ['question', 'what if gpu-a-1 goes down?'],
    ['question', 'x'.repeat(50_000)],
    ['quota', 'team-a'],
    ['quota', undefined],
  ] as const)('%s(%j) → the refusal, the cluster never read', async (method, text) => {
    const source = counting();
    const ctx: AskContext = { source, allowedNamespaces: [], now: NOW };
    const r = method === 'question' ? await a.question(text!, ctx) : await a.quota(text, ctx);
    expect(r).toEqual(refusalAnswer());
    expect(source.loads).toBe(0);
  });

  it('a message → silence, the cluster never read', async () => {
    const source = counting();
    expect(
      await a.message(
        'Error creating: pods "w-1" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
        { source, allowedNamespaces: [] },
      ),
    ).toBeNull();
    expect(source.loads).toBe(0);
  });
});

describe('length caps before parsing', () => {
  const a = createAnswerer();
  it(`a question over ${MAX_QUESTION_CHARS} characters → "too long", the cluster never read`, async () => {
    const source = counting();
    const r = await a.question(`what if web scales to 8 ${'a '.repeat(20_000)}`, {
      source,
      allowedNamespaces: ['team-a'],
    });
    expect(r.replies[0]!.headline).toBe('That question is too long for me to read (40,024 characters)');
    expect(r.replies[0]!.lines).toEqual([
      'I read questions of up to 12,000 characters. Paste a long error or manifest as a plain message instead of an @mention, or shorten it.',
    ]);
    expect(source.loads).toBe(0);
  });

  it('a question of exactly the cap is read', async () => {
    const r = await a.question(`what if web scales to 8 in team-a?${' '.repeat(MAX_QUESTION_CHARS - 34)}`, {
      source: demo,
      now: NOW,
    });
    expect(r.replies[0]!.kind).toBe('whatif');
  });

  it('a message over 1 MiB → "too long", the cluster never read; at 1 MiB it is read', async () => {
    const source = counting();
    const over = await a.message('x'.repeat(MAX_MESSAGE_BYTES + 1), { source });
    expect(over!.replies[0]!.headline).toBe('That message is too long for me to read (1.0 MiB)');
    expect(source.loads).toBe(0);
    // multi-byte: 400,000 × "é" (2 bytes) = 800,000 bytes, under the cap though 3 × length would not be
    expect(await a.message('é'.repeat(400_000), { source })).toBeNull();
    expect(source.loads).toBe(1);
  });

  it('/quota with something that is not a namespace name → usage, nothing read', async () => {
    const source = counting();
    expect((await a.quota('x'.repeat(64), { source })).replies[0]!.headline).toBe('Usage: /quota NAMESPACE');
    expect((await a.quota('Team_A', { source })).replies[0]!.headline).toBe('Usage: /quota NAMESPACE');
    expect(source.loads).toBe(0);
  });
});

describe('source errors in a reply', () => {
  const vis = Visibility.of(['team-a']);
  const e = {
    resource: 'pods',
    namespace: 'team-b',
    reason: 'Forbidden',
    message: 'pods "payroll-7c5d" is forbidden: cannot list in "team-b"',
  };
  it.each([
    [e, 'channel', "couldn't read pods in a namespace this channel doesn't see (Forbidden)"],
    [{ ...e, namespace: 'team-a' }, 'channel', "couldn't read pods in team-a (Forbidden)"],
    [{ ...e, namespace: undefined }, 'channel', "couldn't read pods (Forbidden)"],
    [
      { ...e, reason: 'gone: payroll-7c5d <html>' },
      'channel',
      "couldn't read pods in a namespace this channel doesn't see (error)",
    ],
    [{ ...e, reason: undefined }, 'channel', "couldn't read pods in a namespace this channel doesn't see (error)"],
    [
      { ...e, resource: 'pods "payroll-7c5d"' },
      'channel',
      "couldn't read objects in a namespace this channel doesn't see (Forbidden)",
    ],
    [e, 'operator', `couldn't read pods in team-b (Forbidden): ${e.message}`],
  ] as const)('%j for the %s → %s', (err, audience, want) => {
    expect(errorGap(err, vis, audience)).toBe(want);
  });

  it.each<[SourceWarning, string | undefined]>([
    [
      {
        kind: 'stale',
        resource: 'replicasets',
        namespace: 'team-b',
        since: '2026-03-10T09:30:00.000Z',
        reason: 'Forbidden',
        message: 'replicasets "toolbox-1" is forbidden',
        next: 'reconnecting',
      },
      "replicasets in a namespace this channel doesn't see: not being updated since 2026-03-10T09:30:00.000Z (Forbidden); answering from the cache, reconnecting",
    ],
    [
      {
        kind: 'stale',
        resource: 'nodes',
        since: 'unknown',
        reason: 'Timeout',
        message: 'watch nodes: nothing received for 300000 ms',
        next: 'reconnecting',
      },
      'nodes: not being updated since unknown (Timeout); answering from the cache, reconnecting',
    ],
    [
      { kind: 'skipped', resource: 'pods', namespace: 'team-a', count: 2 },
      'pods in team-a: 2 object(s) skipped, their shape was not readable',
    ],
    [{ kind: 'reconciled', namespace: 'team-b', quota: 'compute' }, undefined],
  ])('warning %j → %j', (w, want) => {
    expect(warningGap(w, vis, 'channel')).toBe(want);
  });

  it('each line once; a source that threw says only that, to a channel', () => {
    expect(sourceGaps({ errors: [e, { ...e, namespace: 'ml' }], warnings: [] }, vis, 'channel')).toEqual([
      "couldn't read pods in a namespace this channel doesn't see: 403 Forbidden",
    ]);
    expect(unansweredGap(new Error('connect ECONNREFUSED 10.0.0.1:6443 (team-b)'), 'channel')).toBe(
      'the cluster did not answer',
    );
    expect(unansweredGap(new Error('connect ECONNREFUSED'), 'operator')).toBe(
      'the cluster did not answer: connect ECONNREFUSED',
    );
  });
});

describe('affinity terms that select pods outside the visible namespaces', () => {
  const vis = Visibility.of(['team-a', 'team-a-batch']);
  const pod = (affinity: unknown): KObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'team-a' },
    spec: { containers: [{ name: 'a' }], affinity },
  });
  const req = (which: string, term: unknown) => ({
    [which]: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {}, topologyKey: 'k' }, term] },
  });
  const T = (extra: Record<string, unknown>) => ({
    labelSelector: { matchLabels: { app: 'x' } },
    topologyKey: 'kubernetes.io/hostname',
    ...extra,
  });
  const REQ1 = 'Pod p: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[1]';
  it.each([
    [
      'namespaces [team-b]',
      pod(req('podAffinity', T({ namespaces: ['team-b'] }))),
      `${REQ1} — its \`namespaces\` list names a namespace this channel doesn't see, so I won't simulate it here.`,
    ],
    [
      'namespaceSelector {}',
      pod(req('podAffinity', T({ namespaceSelector: {} }))),
      `${REQ1} — its \`namespaceSelector\` can select namespaces this channel doesn't see (an empty selector \`{}\` selects every namespace), so I won't simulate it here.`,
    ],
    [
      'namespaceSelector by a team label',
      pod(req('podAffinity', T({ namespaceSelector: { matchLabels: { team: 'a' } } }))),
      `${REQ1} — its \`namespaceSelector\` can select namespaces this channel doesn't see (an empty selector \`{}\` selects every namespace), so I won't simulate it here.`,
    ],
    [
      'metadata.name In [team-a, team-b]',
      pod(
        req(
          'podAffinity',
          T({
            namespaceSelector: {
              matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a', 'team-b'] }],
            },
          }),
        ),
      ),
      `${REQ1} — its \`namespaceSelector\` can select namespaces this channel doesn't see (an empty selector \`{}\` selects every namespace), so I won't simulate it here.`,
    ],
    [
      'anti-affinity, preferred',
      pod({
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: T({ namespaces: ['ml'] }) }],
        },
      }),
      "Pod p: spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm — its `namespaces` list names a namespace this channel doesn't see, so I won't simulate it here.",
    ],
    [
      'a CronJob template',
      {
        apiVersion: 'batch/v1',
        kind: 'CronJob',
        metadata: { name: 'c' },
        spec: {
          jobTemplate: {
            spec: {
              template: {
                spec: {
                  containers: [],
                  affinity: {
                    podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [T({ namespaceSelector: {} })] },
                  },
                },
              },
            },
          },
        },
      },
      "CronJob c: spec.jobTemplate.spec.template.spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0] — its `namespaceSelector` can select namespaces this channel doesn't see (an empty selector `{}` selects every namespace), so I won't simulate it here.",
    ],
    ['own namespace (no namespaces, no selector)', pod(req('podAffinity', T({}))), undefined],
    [
      'namespaces [team-a, team-a-batch]',
      pod(req('podAntiAffinity', T({ namespaces: ['team-a', 'team-a-batch'], matchLabelKeys: ['tier'] }))),
      undefined,
    ],
    [
      'metadata.name pinned to team-a (matchLabels)',
      pod(req('podAffinity', T({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'team-a' } } }))),
      undefined,
    ],
    [
      'metadata.name In [team-a] AND another label',
      pod(
        req(
          'podAffinity',
          T({
            namespaceSelector: {
              matchLabels: { team: 'a' },
              matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['team-a'] }],
            },
          }),
        ),
      ),
      undefined,
    ],
    ['namespaceSelector null', pod(req('podAffinity', T({ namespaceSelector: null }))), undefined],
  ] as const)('%s', (_name, obj, want) => {
    expect(foreignAffinityTerm([obj as KObject], vis)).toBe(want);
  });

  it('everything visible (the CLI): nothing refused', () => {
    expect(
      foreignAffinityTerm([pod(req('podAffinity', T({ namespaceSelector: {} })))], Visibility.everything()),
    ).toBeUndefined();
  });

  it('the Answerer refuses such a paste before simulating, saying which term; the CLI (no policy) simulates it', async () => {
    const yaml =
      'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: team-a}\nspec:\n  containers: [{name: a, image: x}]\n  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{labelSelector: {matchLabels: {app: frontend}}, topologyKey: kubernetes.io/hostname, namespaces: [team-b]}]}}\n';
    const a = createAnswerer();
    const refused = await a.message(yaml, {
      source: demo,
      allowedNamespaces: ['team-a'],
      defaultNamespace: 'team-a',
      now: NOW,
    });
    expect(refused).toEqual(
      refusalAnswer(
        "Pod p: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0] — its `namespaces` list names a namespace this channel doesn't see, so I won't simulate it here.",
      ),
    );
    const open = await a.message(yaml, { source: demo, now: NOW });
    // Simulated: team-a's team-quota is at pods 10/10, so admission refuses it before the scheduler.
    expect(open!.replies[0]!.headline).toBe('Simulated 1 object: 0 OK, 1 rejected, 0 Pending');
    expect(open!.replies[0]!.lines[0]).toMatch(
      /^✗ Pod team-a\/p: pods "p" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10$/,
    );
  });
});
