/**
 * createAnswerer(): the one entry point Slack, the console and the CLI share. Silence for chit-chat,
 * help for what it does not understand, and the access policy enforced before anything is shown.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AskContext } from '../../src/answer/answerer.ts';
import { createAnswerer } from '../../src/answer/index.ts';
import { FileSource } from '../../src/cluster/file-source.ts';
import type { ClusterSource } from '../../src/cluster/source.ts';
import type { KObject } from '../../src/k8s/snapshot.ts';
import { node, pod, snapshotOf } from '../support/builders.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const source = new FileSource(DEMO);
const a = createAnswerer();
const ctx = (extra: Partial<AskContext> = {}): AskContext => ({ source, now: NOW, ...extra });

const WORKER = 'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';

/** Words of team-a's data that a refusal must never show. */
const TEAM_A_WORDS = ['team-a', 'team-quota', 'worker', 'web', 'api-', 'pods=10', 'general-'];

function expectRefusal(answer: unknown): void {
  const a0 = answer as { replies: { kind: string; headline: string }[]; namespaces: string[] };
  expect(a0.replies).toHaveLength(1);
  expect(a0.replies[0]!.kind).toBe('refusal');
  expect(a0.replies[0]!.headline).toBe("Sorry — this channel can't ask about that namespace.");
  expect(a0.namespaces).toEqual([]);
  const text = JSON.stringify(answer);
  for (const w of TEAM_A_WORDS) expect(text, w).not.toContain(w);
}

describe('message', () => {
  it.each(['lunch at noon?', 'deploying web now, brb', '   ', 'the quota meeting moved to 3pm'])('stays silent for %j', async (text) => {
    expect(await a.message(text, ctx())).toBeNull();
  });

  it('answers a pasted error against the state (team-a found from the quota name)', async () => {
    const r = await a.message(WORKER, ctx());
    expect(r).not.toBeNull();
    expect(r!.namespaces).toEqual(['team-a']);
    expect(r!.replies[0]!.headline).toBe('Rejected at admission — ResourceQuota team-quota — pod worker-5d8c7b9f4-glpms (team-a)');
    // 10 + 1 − 10 = 1 over; every fix re-simulated
    expect(r!.replies[0]!.lines).toContain('pods: over by 1 — free 1 in the namespace, or raise the quota to 11.');
    expect(r!.replies[0]!.fixes.length).toBeGreaterThan(0);
    for (const f of r!.replies[0]!.fixes) expect(f).toMatchObject({ verified: true, outcome: expect.stringMatching(/^admitted/) });
    expect(r!.replies[0]!.fixes.map((f) => f.summary)).toContain('raise team-quota pods to 11');
  });

  it('refuses when the channel may not see team-a, naming none of its data', async () => {
    expectRefusal(await a.message(WORKER, ctx({ allowedNamespaces: ['team-b'] })));
  });

  it('allows a wildcard policy', async () => {
    expect((await a.message(WORKER, ctx({ allowedNamespaces: ['*'] })))!.replies[0]!.kind).toBe('diagnosis');
  });
});

describe('question', () => {
  it('help for what it does not understand', async () => {
    const r = await a.question('lunch at noon?', ctx({ defaultNamespace: 'team-a', allowedNamespaces: ['team-a'] }));
    expect(r.replies[0]!.kind).toBe('help');
    expect(r.replies[0]!.headline).toBe('Paste an error, an event or a manifest — or ask:');
    // examples from the channel's own namespace: its first Deployment and quota
    expect(r.replies[0]!.lines).toContain('what if api scales to 8 in team-a?');
    expect(r.replies[0]!.lines).toContain('raise requests.cpu of team-quota to 20 in team-a');
  });

  it('a question holding an error is a diagnosis', async () => {
    const r = await a.question(`why? ${WORKER}`, ctx());
    expect(r.replies[0]!.kind).toBe('diagnosis');
  });

  it('what if web scales to 8 in team-a: all 4 refused on pods (10/10), raise to 14', async () => {
    const r = await a.question('what if web scales to 8 in team-a?', ctx());
    expect(r.namespaces).toEqual(['team-a']);
    expect(r.replies[0]!.headline).toBe('web 4 → 8 replicas in team-a (100m cpu / 128Mi memory each, after LimitRange defaults)');
    expect(r.replies[0]!.lines[0]).toBe('+4 pods: 0 admitted, 4 rejected');
    // used 10 + 1 × 4 rejected = 14
    expect(r.replies[0]!.lines).toContain('To get all 8: raise team-quota pods to 14');
  });

  it('why is api pending: the Pending pod, diagnosed with verified fixes', async () => {
    const r = await a.question('why is api pending in team-a?', ctx());
    expect(r.replies[0]!.headline).toBe('Admitted, but no node fits — scheduler (0/10 nodes) — pod api-6b9f4c7d8-gnt9f (team-a)');
    // needs 1 CPU; general-a-1 has 770m free → lower to 770m
    expect(r.replies[0]!.fixes[0]).toMatchObject({ summary: 'lower requests.cpu of api to ≤ 770m (fits general-a-1)', verified: true, outcome: 'admitted, schedules on general-a-1' });
  });

  it.each([
    'what if web scales to 8 in team-a?',
    'roll out web in team-a',
    'what if web requests 250m cpu in team-a',
    'raise requests.cpu of team-quota to 20 in team-a',
    'why is api pending in team-a?',
    'quota team-a',
  ])('refuses %j for a team-b channel', async (text) => {
    expectRefusal(await a.question(text, ctx({ allowedNamespaces: ['team-b'], defaultNamespace: 'team-b' })));
  });

  it('refuses a drain whose stranded pods are in a namespace the channel may not see', async () => {
    // general-c-1 holds team-a pods (web, api) that would have nowhere to go
    expectRefusal(await a.question('what if general-c-1 goes down?', ctx({ allowedNamespaces: ['team-b'], defaultNamespace: 'team-b' })));
  });
});

describe('quota', () => {
  it('team-a: pods 10/10 tightest, the default pod 100m/128Mi refused on pods', async () => {
    const r = await a.quota('team-a', ctx());
    expect(r.namespaces).toEqual(['team-a']);
    const reply = r.replies[0]!;
    expect(reply.headline).toBe('team-a — 1 ResourceQuota, 1 LimitRange');
    expect(reply.bars!.find((b) => b.label === 'pods')).toEqual({ label: 'pods', used: '10', hard: '10', free: '0', fraction: 1, note: '← tightest' });
    // requests.cpu 8 − 4100m = 3900m
    expect(reply.bars!.find((b) => b.label === 'requests.cpu')).toMatchObject({ used: '4100m', hard: '8', free: '3900m' });
    expect(reply.lines[0]).toBe('A pod with no resources gets 100m cpu / 128Mi memory → limits 500m cpu / 512Mi memory (LimitRange defaults): 0 more fit, stopped by pods.');
    expect(reply.lines).toContain('⚠ 1 Pending pod: api-6b9f4c7d8-gnt9f');
  });

  it('refuses a namespace outside the policy before reading anything', async () => {
    let loads = 0;
    const counting: ClusterSource = { kind: 'file', describe: () => 'x', load: async () => { loads++; return source.load(); }, ready: async () => true, close: async () => {} };
    expectRefusal(await a.quota('team-a', { source: counting, allowedNamespaces: ['team-b'] }));
    expect(loads).toBe(0);
  });

  it('an unknown namespace is "not found"; no namespace asks for one', async () => {
    expect((await a.quota('nope', ctx())).replies[0]!.headline).toBe("I can't find namespace nope.");
    expect((await a.quota(undefined, ctx())).replies[0]!.headline).toBe('Usage: /quota NAMESPACE');
  });

  it('works on a tiny inline source: no quota → stopped by node capacity', async () => {
    // n1 2 CPU / 4Gi, 110 pods, one pod bound → 109 slots; a pod with no resources only needs a slot.
    const snapshot = snapshotOf(node('n1', { cpu: '2', memory: '4Gi' }), pod('one', { namespace: 'solo', cpu: '1', node: 'n1' }) as KObject);
    const inline: ClusterSource = { kind: 'file', describe: () => 'inline', load: async () => ({ snapshot, errors: [], warnings: [] }), ready: async () => true, close: async () => {} };
    const r = await createAnswerer().quota('solo', { source: inline });
    expect(r.replies[0]!.lines).toContain('No ResourceQuota in this namespace: only LimitRanges and the nodes limit it.');
    expect(r.replies[0]!.lines).toContain('A pod with no resources gets no requests → limits none: 109 more fit, stopped by node capacity.');
    // n1 2000m − 1000m = 1000m, 4Gi
    expect(r.replies[0]!.lines).toContain('Largest pod that schedules now: 1 CPU / 4Gi, on n1.');
  });

  it('a source that fails says so instead of answering', async () => {
    const broken: ClusterSource = { kind: 'live', describe: () => 'x', load: async () => { throw new Error('connection refused'); }, ready: async () => false, close: async () => {} };
    const r = await createAnswerer().quota('team-a', { source: broken });
    expect(r.replies[0]!.kind).toBe('error');
    expect(r.replies[0]!.gaps).toEqual(['the cluster did not answer: connection refused']);
  });
});
