/**
 * createAnswerer(): the one entry point Slack, the console and the CLI share. Silence for chit-chat,
 * help for what it does not understand, and the access policy enforced before anything is shown.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AskContext } from '../../src/answer/answerer.ts';
import { createAnswerer } from '../../src/answer/index.ts';
import { REFUSAL_HEADLINE } from '../../src/answer/policy.ts';
import { reconcileQuotaStatus } from '../../src/engine/quota-ledger.ts';
import { parseQuestion } from '../../src/parse/question.ts';
import { FileSource } from '../../src/cluster/file-source.ts';
import type { ClusterSource } from '../../src/cluster/source.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { node, pod, snapshotOf } from '../support/builders.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const source = new FileSource(DEMO);
const a = createAnswerer();
const ctx = (extra: Partial<AskContext> = {}): AskContext => ({ source, now: NOW, ...extra });

const WORKER =
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';

/** Words of team-a's data that a refusal must never show. */
const TEAM_A_WORDS = ['team-a', 'team-quota', 'worker', 'web', 'api-', 'pods=10', 'general-'];

function expectRefusal(answer: unknown): void {
  const a0 = answer as { replies: { kind: string; headline: string }[]; namespaces: string[] };
  expect(a0.replies).toHaveLength(1);
  expect(a0.replies[0]!.kind).toBe('refusal');
  expect(a0.replies[0]!.headline).toBe(REFUSAL_HEADLINE);
  expect(a0.namespaces).toEqual([]);
  const text = JSON.stringify(answer);
  for (const w of TEAM_A_WORDS) expect(text, w).not.toContain(w);
}

describe('message', () => {
  it.each(['lunch at noon?', 'deploying web now, brb', '   ', 'the quota meeting moved to 3pm'])(
    'stays silent for %j',
    async (text) => {
      expect(await a.message(text, ctx())).toBeNull();
    },
  );

  it('answers a pasted error against the state (team-a found from the quota name)', async () => {
    const r = await a.message(WORKER, ctx());
    expect(r).not.toBeNull();
    expect(r!.namespaces).toEqual(['team-a']);
    expect(r!.replies[0]!.headline).toBe(
      'Rejected at admission — ResourceQuota team-quota — pod worker-5d8c7b9f4-glpms (team-a)',
    );
    // 10 + 1 − 10 = 1 over; every fix re-simulated
    expect(r!.replies[0]!.lines).toContain('pods: over by 1 — free 1 in the namespace, or raise the quota to 11.');
    expect(r!.replies[0]!.fixes.length).toBeGreaterThan(0);
    for (const f of r!.replies[0]!.fixes)
      expect(f).toMatchObject({ verified: true, outcome: expect.stringMatching(/admitted and scheduled/) });
    expect(r!.replies[0]!.fixes.map((f) => f.summary)).toContain('raise team-quota pods to 11');
  });

  it.each([
    // The channel's default (team-b) has no team-quota; team-a, which the channel may also see, does.
    ['a channel that sees team-a and team-b, default team-b', ['team-a', 'team-b'], 'team-b', 'team-a'],
    // The channel sees only team-b: the guess never reaches into team-a; the answer stays in team-b's name.
    ['a channel that sees only team-b, default team-b', ['team-b'], 'team-b', 'team-b'],
  ])('%s: the paste is read in %j → %s', async (_n, allowed, dflt, want) => {
    const r = await a.message(WORKER, ctx({ allowedNamespaces: allowed, defaultNamespace: dflt }));
    expect(r!.namespaces).toEqual([want]);
    expect(r!.replies[0]!.headline).toBe(
      `Rejected at admission — ResourceQuota team-quota — pod worker-5d8c7b9f4-glpms (${want})`,
    );
  });

  it('a channel that may not see team-a, without a default: read from the text alone, as a made-up name would be (no existence oracle)', async () => {
    const real = await a.message(WORKER, ctx({ allowedNamespaces: ['team-b'] }));
    const madeUp = await a.message(
      WORKER.replaceAll('worker-5d8c7b9f4-glpms', 'zzzzzz-5d8c7b9f4-abcde').replaceAll('team-quota', 'zzzz-quota'),
      ctx({ allowedNamespaces: ['team-b'] }),
    );
    expect(real!.namespaces).toEqual([]);
    expect(real!.replies[0]!.headline).toBe(
      'Rejected at admission — ResourceQuota team-quota — pod worker-5d8c7b9f4-glpms',
    );
    expect(real!.replies[0]!.fixes).toEqual([]);
    expect(
      JSON.stringify(madeUp)
        .replaceAll('zzzzzz-5d8c7b9f4-abcde', 'worker-5d8c7b9f4-glpms')
        .replaceAll('zzzz-quota', 'team-quota'),
    ).toBe(JSON.stringify(real));
  });

  it('refuses when the paste names team-a and the channel may not see it, naming none of its data', async () => {
    expectRefusal(
      await a.message(
        `$ kubectl -n team-a get pods\n${WORKER}`
          .replaceAll('worker', 'w')
          .replaceAll('team-quota', 'q')
          .replace('pods=10', 'p'),
        ctx({ allowedNamespaces: ['team-b'] }),
      ),
    );
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
    expect(r.replies[0]!.lines).toContain(
      'what if api scales to 8 in team-a?   ·   can I add 3 more replicas of api in team-a?',
    );
    // requests.cpu 8 × 2; the LimitRange's max cpu 2 × 2
    expect(r.replies[0]!.lines).toContain('raise requests.cpu of team-quota to 16 in team-a');
    expect(r.replies[0]!.lines).toContain('what if the limitrange defaults max cpu is 4 in team-a?');
  });

  it('a question holding an error is a diagnosis', async () => {
    const r = await a.question(`why? ${WORKER}`, ctx());
    expect(r.replies[0]!.kind).toBe('diagnosis');
  });

  it('what if web scales to 8 in team-a: all 4 refused on pods (10/10), raise to 14 (worker, short too, competes)', async () => {
    const r = await a.question('what if web scales to 8 in team-a?', ctx());
    expect(r.namespaces).toEqual(['team-a']);
    expect(r.replies[0]!.headline).toBe(
      'web 4 → 8 replicas in team-a (100m cpu / 128Mi memory each, after LimitRange defaults)',
    );
    expect(r.replies[0]!.lines[0]).toBe('+4 pods: 0 admitted, 4 rejected');
    // used 10 + 1 × 4 rejected = 14, converged on top of the scale: web's ReplicaSet takes the four; worker's
    // (refused its third pod before the snapshot) is refused again — it competes for the same quota.
    expect(r.replies[0]!.lines.slice(2)).toEqual([
      'To get all 8: raise team-quota pods to 14  ✓ verified: all 4 admitted and scheduled',
      `   kubectl -n team-a patch resourcequota/team-quota --type merge -p '{"spec":{"hard":{"pods":"14"}}}'`,
      '   team-a/deploy/worker stays 1 pod short: it competes for the same quota (raise by 1 more for both)',
      'Command: kubectl -n team-a scale deploy/web --replicas=8',
    ]);
  });

  it('why is api pending: the Pending pod, diagnosed with verified fixes', async () => {
    const r = await a.question('why is api pending in team-a?', ctx());
    expect(r.replies[0]!.headline).toBe(
      'Admitted, but no node fits — scheduler (0/10 nodes) — pod api-6b9f4c7d8-gnt9f (team-a)',
    );
    // The Pending replica never ran: dropping it costs nothing running (engine/fixes/ ranks it first).
    expect(r.replies[0]!.fixes[0]).toMatchObject({
      summary: 'scale deploy/api 3 → 2: drops the Pending replica (costs no running capacity: 2 run as now)',
      verified: true,
      outcome: '2/2 pods of deploy/api admitted and scheduled (general-a-2, general-b-2)',
    });
  });

  it.each([
    'what if web scales to 8 in team-a?',
    'roll out web in team-a',
    'what if web requests 250m cpu in team-a',
    'raise requests.cpu of team-quota to 20 in team-a',
    'what if the limitrange max cpu is 4 in team-a',
    'what if web rolls out with 500m cpu in team-a',
    'why is api pending in team-a?',
    'quota team-a',
  ])('refuses %j for a team-b channel', async (text) => {
    expectRefusal(await a.question(text, ctx({ allowedNamespaces: ['team-b'], defaultNamespace: 'team-b' })));
  });

  it("a node what-if in a team-b channel: team-b's own pods by name, everyone else's as counts", async () => {
    // general-c-1: 5 pods; team-b's frontend lands elsewhere; of the other 4, batch's nightly-etl pod is stranded,
    // and team-a's redis-0 is re-created by its StatefulSet only to be refused by pods 10/10: the evictions free
    // three team-a slots, and worker's ReplicaSet, short of a pod before, takes one of them (converged).
    const r = await a.question(
      'what if general-c-1 goes down?',
      ctx({ allowedNamespaces: ['team-b'], defaultNamespace: 'team-b' }),
    );
    expect(r.namespaces).toEqual(['team-b']);
    expect(r.replies[0]!.headline).toBe('general-c-1 goes down (unreachable, pods evicted): 5 pods to place elsewhere');
    expect(r.replies[0]!.lines).toEqual([
      'Yours: 1 pod — 1 lands elsewhere, 0 stay Pending',
      '   land elsewhere: team-b/frontend-79c8d6b5f4-hwdsw',
      'Other namespaces: 4 pods — 2 land elsewhere, 2 stay Pending.',
    ]);
    for (const w of [...TEAM_A_WORDS.filter((x) => x !== 'general-'), 'batch', 'nightly-etl'])
      expect(JSON.stringify(r), w).not.toContain(w);
  });
});

describe('quota', () => {
  it('team-a: pods 10/10 tightest, the default pod 100m/128Mi refused on pods', async () => {
    const r = await a.quota('team-a', ctx());
    expect(r.namespaces).toEqual(['team-a']);
    const reply = r.replies[0]!;
    expect(reply.headline).toBe('team-a — 1 ResourceQuota, 1 LimitRange');
    expect(reply.bars!.find((b) => b.label === 'pods')).toEqual({
      label: 'pods',
      used: '10',
      hard: '10',
      free: '0',
      fraction: 1,
      note: '← tightest',
    });
    // requests.cpu 8 − 4100m = 3900m
    expect(reply.bars!.find((b) => b.label === 'requests.cpu')).toMatchObject({
      used: '4100m',
      hard: '8',
      free: '3900m',
    });
    expect(reply.lines).toContain(
      'A pod with no resources gets 100m cpu / 128Mi memory → limits 500m cpu / 512Mi memory (LimitRange defaults): 0 more fit, stopped by team-quota pods (10 / 10 used).',
    );
    expect(reply.lines).toContain('⚠ 1 Pending pod: api-6b9f4c7d8-gnt9f');
  });

  it('refuses a namespace outside the policy before reading anything', async () => {
    let loads = 0;
    const counting: ClusterSource = {
      kind: 'file',
      describe: () => 'x',
      load: async () => {
        loads++;
        return source.load();
      },
      ready: async () => true,
      close: async () => {},
    };
    expectRefusal(await a.quota('team-a', { source: counting, allowedNamespaces: ['team-b'] }));
    expect(loads).toBe(0);
  });

  it('an unknown namespace is "not found"; no namespace asks for one', async () => {
    expect((await a.quota('nope', ctx())).replies[0]!.headline).toBe("I can't find namespace nope.");
    expect((await a.quota(undefined, ctx())).replies[0]!.headline).toBe('Usage: /quota NAMESPACE');
  });

  it('works on a tiny inline source: no quota → stopped by node capacity', async () => {
    // n1 2 CPU / 4Gi, 110 pods, one pod bound → 109 slots; a pod with no resources only needs a slot.
    const snapshot = snapshotOf(
      node('n1', { cpu: '2', memory: '4Gi' }),
      pod('one', { namespace: 'solo', cpu: '1', node: 'n1' }) as KObject,
    );
    const inline: ClusterSource = {
      kind: 'file',
      describe: () => 'inline',
      load: async () => ({ snapshot, errors: [], warnings: [] }),
      ready: async () => true,
      close: async () => {},
    };
    const r = await createAnswerer().quota('solo', { source: inline });
    expect(r.replies[0]!.lines).toContain(
      'No ResourceQuota in this namespace: only LimitRanges and the nodes limit it.',
    );
    expect(r.replies[0]!.lines).toContain(
      'A pod with no resources gets no requests → limits none: 109 more fit, stopped by node capacity.',
    );
    // n1 2000m − 1000m = 1000m, 4Gi
    expect(r.replies[0]!.lines).toContain('Free cpu / memory on untainted nodes: n1 1 / 4Gi.');
  });

  it('a source that fails says so instead of answering', async () => {
    const broken: ClusterSource = {
      kind: 'live',
      describe: () => 'x',
      load: async () => {
        throw new Error('connection refused');
      },
      ready: async () => false,
      close: async () => {},
    };
    const r = await createAnswerer().quota('team-a', { source: broken });
    expect(r.replies[0]!.kind).toBe('error');
    expect(r.replies[0]!.gaps).toEqual(['the cluster did not answer: connection refused']);
  });
});

/**
 * A small namespace `ro`: node r1 (`nodeCpu`, 16Gi); deploy/api 4 × 100m/128Mi (limits the same), maxSurge 1 /
 * maxUnavailable 0; ro-quota pods `podsHard` (4 used); LimitRange limits: Container default 200m/256Mi,
 * defaultRequest 100m/128Mi, max cpu 1.
 */
function smallState(podsHard: string, nodeCpu = '8'): Snapshot {
  const tpl = {
    metadata: { labels: { app: 'api' } },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'api',
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '100m', memory: '128Mi' } },
        },
      ],
    },
  };
  const objs: KObject[] = [
    node('r1', { cpu: nodeCpu, memory: '16Gi' }) as KObject,
    {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'ro-quota', namespace: 'ro' },
      spec: { hard: { pods: podsHard } },
    },
    {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'limits', namespace: 'ro' },
      spec: {
        limits: [
          {
            type: 'Container',
            max: { cpu: '1' },
            default: { cpu: '200m', memory: '256Mi' },
            defaultRequest: { cpu: '100m', memory: '128Mi' },
          },
        ],
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api', namespace: 'ro' },
      spec: {
        replicas: 4,
        selector: { matchLabels: { app: 'api' } },
        template: tpl,
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'api-7c5d9',
        namespace: 'ro',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'api', controller: true }],
      },
      spec: { replicas: 4, selector: { matchLabels: { app: 'api' } }, template: tpl },
    },
  ];
  for (const sfx of ['aaaaa', 'bbbbb', 'ccccc', 'ddddd']) {
    const p = pod(`api-7c5d9-${sfx}`, { namespace: 'ro', cpu: '100m', memory: '128Mi', node: 'r1' });
    p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api-7c5d9', controller: true }];
    objs.push(p as KObject);
  }
  const snap = snapshotOf(...objs);
  reconcileQuotaStatus(snap);
  return snap;
}

function inlineCtx(snapshot: Snapshot, extra: Partial<AskContext> = {}): AskContext {
  const inline: ClusterSource = {
    kind: 'file',
    describe: () => 'inline',
    load: async () => ({ snapshot, errors: [], warnings: [] }),
    ready: async () => true,
    close: async () => {},
  };
  return { source: inline, now: NOW, ...extra };
}

describe('question: rolling out a new template (small state)', () => {
  it('api with 200m cpu, pods 4/4, maxSurge 1 / maxUnavailable 0: stalls on ro-quota; maxSurge 0 and Recreate verified', async () => {
    const r = await createAnswerer().question('what if api rolls out with 200m cpu in ro?', inlineCtx(smallState('4')));
    expect(r.namespaces).toEqual(['ro']);
    const reply = r.replies[0]!;
    expect(reply.headline).toBe(
      'api rolls out in ro with requests.cpu=200m: RollingUpdate, maxSurge 1, maxUnavailable 0',
    );
    // 200m > the 100m limit → the limit goes to 200m with it (LimitRange max cpu 1: fine)
    expect(reply.lines[0]).toBe(
      'Per pod: 100m cpu / 128Mi memory → 200m cpu / 128Mi memory (after LimitRange defaults)',
    );
    expect(reply.lines[1]).toBe('Round 1: 1 surge pod next to the 4 running:');
    expect(reply.lines[2]).toBe('   +1 pod: 0 admitted, 1 rejected');
    // the surge pod refused (pods 4/4); 4 + 1 − 4 − (1 − 0) = 0 old may go; nothing frees quota → stuck
    // (counted in converge's controller steps since the rollout runs through engine/converge.ts)
    expect(reply.lines).toContain('✗ Stalls after 3 controller steps: 0 of 4 new pods running, 4 old still running.');
    expect(reply.lines).toContain('   ro-quota pods: 4 of 4 used, a new pod needs 1');
    // maxSurge 0 / maxUnavailable 1: 1 old out, then 4 × (1 in, 1 out) → 5 rounds, 3 running at least
    expect(reply.fixes).toEqual([
      {
        who: 'app-team',
        summary: 'maxSurge 0, maxUnavailable 1 (replace in place)',
        change: `kubectl -n ro patch deploy/api --type merge -p '{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":0,"maxUnavailable":1}}}}'`,
        verified: true,
        outcome: 'completes in 14 controller steps, never fewer than 3 running',
      },
      {
        who: 'app-team',
        summary: 'strategy Recreate (all 4 down at once)',
        change: `kubectl -n ro patch deploy/api --type merge -p '{"spec":{"strategy":{"type":"Recreate","rollingUpdate":null}}}'`,
        verified: true,
        outcome: 'completes in 5 controller steps, never fewer than 0 running',
      },
    ]);
  });

  it('with one pod free (pods 5) the same rollout completes: 4 rounds, 5 pods at most', async () => {
    const r = await createAnswerer().question('roll out api with image api:2 in ro', inlineCtx(smallState('5')));
    const reply = r.replies[0]!;
    expect(reply.headline).toBe('api rolls out in ro with image=api:2: RollingUpdate, maxSurge 1, maxUnavailable 0');
    expect(reply.lines[0]).toBe(
      'Per pod: 100m cpu / 128Mi memory → 100m cpu / 128Mi memory (after LimitRange defaults)',
    );
    // each round: 1 new in (pods 5/5), then 4 + 1 − 4 − 0 = 1 old out (pods 4) → 4 rounds, never below 4 running
    expect(reply.lines).toContain(
      '✓ Completes in 15 controller steps: at most 5 pods at once, never fewer than 4 running.',
    );
    expect(reply.fixes).toEqual([]);
  });
});

describe('question: a LimitRange value (small state)', () => {
  it('defaultRequest cpu 200m on a 1-CPU node: the default pod 100m → 200m, fits 6 (pods) → 3 (node capacity)', async () => {
    const r = await createAnswerer().question(
      'what if defaultRequest cpu were 200m in ro',
      inlineCtx(smallState('10', '1')),
    );
    expect(r.namespaces).toEqual(['ro']);
    const reply = r.replies[0]!;
    expect(reply.headline).toBe('LimitRange limits in ro: Container defaultRequest cpu 100m → 200m');
    // before: pods 10 − 4 = 6, r1 (1000 − 400)/100 = 6 → 6 (pods); after: r1 600/200 = 3 → 3 (node capacity)
    expect(reply.lines[0]).toBe(
      'A pod with no resources gets 200m cpu / 128Mi memory → limits 200m cpu / 256Mi memory (was 100m cpu / 128Mi memory → limits 200m cpu / 256Mi memory): 6 (pods) → 3 (node capacity) more fit.',
    );
    expect(reply.lines[1]).toBe('✓ Still admitted by the LimitRange: deploy/api.');
    expect(reply.lines[2]).toBe(
      'Existing pods are untouched: LimitRanger checks pods only when they are created — the 4 running in ro keep running.',
    );
    expect(reply.fixes).toEqual([
      {
        who: 'platform',
        summary: 'set LimitRange limits Container defaultRequest.cpu to 200m',
        change: `kubectl -n ro patch limitrange/limits --type json -p '[{"op":"add","path":"/spec/limits/0/defaultRequest/cpu","value":"200m"}]'`,
        verified: true,
        outcome: "3 default pods fit; no workload's next pod newly refused",
        sideEffects: [],
      },
    ]);
  });

  it('max cpu 150m below the default 200m: refused by the API server, no fix', async () => {
    const r = await createAnswerer().question(
      'what if the limitrange max cpu is 150m in ro',
      inlineCtx(smallState('10')),
    );
    expect(r.replies[0]!.lines).toEqual([
      '✗ The API server would refuse this LimitRange (422 Invalid):',
      '   spec.limits[0].default[cpu]: default value 200m is greater than max value 150m',
    ]);
    expect(r.replies[0]!.fixes).toEqual([]);
  });

  it('maxLimitRequestRatio cpu 1: api (100m/100m) still passes, the default pod (200m/100m = 2) is refused; no fix', async () => {
    const r = await createAnswerer().question(
      'set limitrange limits maxLimitRequestRatio cpu to 1 in ro',
      inlineCtx(smallState('10')),
    );
    const reply = r.replies[0]!;
    expect(reply.headline).toBe('LimitRange limits in ro: Container maxLimitRequestRatio cpu unset → 1');
    expect(reply.lines[0]).toBe(
      '✗ A pod with no resources would be refused: cpu max limit to request ratio per Container is 1, but provided ratio is 2.000000',
    );
    expect(reply.lines[1]).toBe('✓ Still admitted by the LimitRange: deploy/api.');
    expect(reply.fixes).toEqual([]);
  });

  it("a Pod-level max cpu 300m: api (one 100m container) passes LimitRanger; ro-quota pods 4/4 is named as quota's doing", async () => {
    const r = await createAnswerer().question(
      'what if the pod max cpu of limitrange limits is 300m in ro',
      inlineCtx(smallState('4')),
    );
    const reply = r.replies[0]!;
    expect(reply.headline).toBe('LimitRange limits in ro: Pod max cpu unset → 300m');
    // api: 1 container, limit 100m ≤ 300m → passes LimitRanger; then ro-quota pods 4/4 refuses it
    expect(reply.lines).toContain('✓ Still admitted by the LimitRange: deploy/api.');
    expect(reply.lines).toContain(
      '   (ro-quota is full: the next pod of deploy/api is refused by quota either way, not by the LimitRange.)',
    );
  });

  it('a LimitRange name that is not there', async () => {
    const r = await createAnswerer().question('set limitrange nope max cpu to 2 in ro', inlineCtx(smallState('10')));
    expect(r.replies[0]!.headline).toBe("I can't find LimitRange nope in ro.");
  });
});

describe('question: help drawn from the namespace at hand (small state)', () => {
  it('names api, ro-quota, the LimitRange limits and node r1 — and every example parses', async () => {
    const r = await createAnswerer().question('lunch at noon?', inlineCtx(smallState('4'), { defaultNamespace: 'ro' }));
    const lines = r.replies[0]!.lines;
    expect(lines).toEqual([
      'what if api scales to 8 in ro?   ·   can I add 3 more replicas of api in ro?',
      'what if api requests 250m cpu in ro?',
      // pods 4 × 2
      'raise pods of ro-quota to 8 in ro',
      // max cpu 1 × 2
      'what if the limitrange limits max cpu is 2 in ro?',
      'how much cpu is left in ro?   ·   how many more api pods fit in ro?',
      'what if r1 goes down?',
      'is r1 back?   ·   what if r1 is uncordoned?',
      'add a node like r1   ·   would another node help in ro?',
      'roll out api in ro',
      'what if api rolls out with 500m cpu in ro?',
      // no PriorityClass in the small state: the placeholder
      'what if api gets priorityClass PRIORITYCLASS in ro?',
      'what priority does api have in ro?   ·   which PriorityClasses can I use?',
      "why is api pending?   ·   what's wrong in ro?",
      'quota ro   (or /quota ro in Slack)',
    ]);
    // Each example and its alternative (after ` · `) is a question of its own.
    const types = lines.flatMap((l) => l.split('   ·   ')).map((l) => parseQuestion(l).type);
    expect(types).toEqual([
      'scale',
      'scale',
      'requests',
      'quota',
      'limitrange',
      'left',
      'fit',
      'drain',
      'node',
      'uncordon',
      'addNode',
      'nodeNeeded',
      'rollout',
      'rollout',
      'priorityClass',
      'priority',
      'priority',
      'why',
      'overview',
      'headroom',
    ]);
  });
});
