/**
 * No fix is offered as verified that does not end the incident. For every paste fixture against the demo
 * cluster, and for states of our own where the paste matches the state, each fix carries the contract's
 * fields; each verified one prints commands that parse back to the changes (the command we print is the
 * command we verify), and the same paste diagnosed on the state those commands converge to has
 * `now: "passes"`. test/demo/verified-fixes.test.ts applies them with the real kubectl instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diagnose, type JsonFinding } from '../../src/answer/diagnose.ts';
import { readStateFiles } from '../../src/cluster/file-source.ts';
import { parseCommand } from '../../src/engine/changes/command.ts';
import type { Change } from '../../src/engine/changes/types.ts';
import { converge } from '../../src/engine/converge.ts';
import { subjectOf } from '../../src/engine/diagnose/goal.ts';
import { planCommand, rankPlans, verifyPlans, type Plan } from '../../src/engine/fixes/index.ts';
import { reconcileQuotaStatus } from '../../src/engine/quota-ledger.ts';
import type { Pod } from '../../src/k8s/objects.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { node, quota, snapshotOf } from '../support/builders.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const PASTES = fileURLToPath(new URL('../fixtures/pastes', import.meta.url));
const OWN = fileURLToPath(new URL('../fixtures/states/engine', import.meta.url));
const DEMO_NOW = Date.parse('2026-03-10T09:40:00Z');

/** The changes a printed fix makes: each `&&` part parsed back; a node-pool change has no command. */
function changesOf(change: string): Change[] | null {
  if (change === '') return [];
  const out: Change[] = [];
  for (const part of change.split(' && ')) {
    const c = parseCommand(part);
    if (!c) return null;
    out.push(c);
  }
  return out;
}

interface Checked {
  fixes: number;
  verified: number;
  replayed: number;
}

/**
 * Every fix has the contract's shape; every verified one parses back, and (commands only: a node-pool
 * change is checked in the kubectl test) re-diagnosing on the converged state says `now: "passes"`.
 */
function checkFixes(
  state: Snapshot,
  findings: JsonFinding[],
  again: (s: Snapshot) => JsonFinding[],
  label: string,
  replay = true,
): Checked {
  const out: Checked = { fixes: 0, verified: 0, replayed: 0 };
  findings.forEach((f, i) => {
    for (const fix of f.fixes) {
      out.fixes++;
      expect(Object.keys(fix), label).toEqual(['who', 'summary', 'change', 'verified', 'outcome', 'sideEffects']);
      expect(fix.outcome, `${label}: ${fix.summary}`).not.toBe('');
      if (!fix.verified) continue;
      out.verified++;
      const changes = changesOf(fix.change ?? '');
      expect(changes, `${label}: ${fix.change} parses back`).not.toBeNull();
      if (!replay || !changes || changes.length === 0) continue;
      const conv = converge(state, changes, { now: DEMO_NOW });
      expect(conv.refused, `${label}: ${fix.change}`).toBeUndefined();
      expect(again(conv.state)[i]?.now, `${label}: ${fix.change}`).toBe('passes');
      out.replayed++;
    }
  });
  return out;
}

describe('every paste fixture against the demo cluster (team-a)', () => {
  const demo = readStateFiles(DEMO, { now: DEMO_NOW }).snapshot;
  reconcileQuotaStatus(demo, DEMO_NOW);
  const files = readdirSync(PASTES)
    .filter((f) => f.endsWith('.txt'))
    .sort();
  const total: Checked = { fixes: 0, verified: 0, replayed: 0 };

  it.each(files)('%s: fixes in the contract shape; verified ones parse back', (file) => {
    const text = readFileSync(`${PASTES}/${file}`, 'utf8');
    const run = (s: Snapshot) => diagnose({ text, state: s, namespace: 'team-a', now: DEMO_NOW }).json.findings;
    // Re-diagnosing on the converged state for every fixture is the slow part: every 8th does it.
    const c = checkFixes(demo, run(demo), run, file, files.indexOf(file) % 8 === 0);
    total.fixes += c.fixes;
    total.verified += c.verified;
    total.replayed += c.replayed;
  });

  it('the sweep is not vacuous: fixes were offered, verified, and replayed', () => {
    expect(total.fixes).toBeGreaterThan(50);
    expect(total.verified).toBeGreaterThan(total.fixes / 2);
    expect(total.replayed).toBeGreaterThan(5);
  });
});

describe('states of our own where the paste matches the state', () => {
  const cases = readdirSync(OWN, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  // folder → namespace, the fix summaries expected (each worked out in test/answer/diagnose.test.ts or here)
  const expected: Record<string, { ns: string; fixes: string[] }> = {
    // n1 allocates 4 CPU: no node holds 10k CPU, so no node is offered; a bare Pod is re-created.
    'huge-cpu': { ns: 'big', fixes: ['lower requests.cpu of app to ≤ 3500m (fits n1)'] },
    'lr-defaults': {
      ns: 'lr',
      fixes: [
        'lower requests.cpu of container app to ≤ 200m',
        'scale deploy/batch 3 → 2 (frees 600m of requests.cpu; stops 1 running pod)',
        'raise lr-quota requests.cpu to 2300m',
      ],
    },
    // m1: 8Gi − 3Gi = 5Gi free < 6Gi; m2 is tainted for GPUs the pod does not ask for: no toleration.
    'memory-short': {
      ns: 'mem',
      fixes: [
        'lower requests.memory of app to ≤ 5Gi (fits m1)',
        'add a node like m1 to pool general (4 CPU / 8Gi allocatable)',
      ],
    },
    // limits must not go below the requests (200m / 256Mi): the 500m / 512Mi defaults are above them.
    'must-specify': {
      ns: 'ms',
      fixes: [
        'set limits.cpu=500m on app, limits.memory=512Mi on app',
        'add a LimitRange with container defaults (cpu limit 500m, memory limit 512Mi) so every pod of ms gets them',
      ],
    },
    'pods-full': {
      ns: 'pq',
      fixes: [
        'scale deploy/web 2 → 1 (frees 1 of pods; stops 1 running pod)',
        'scale deploy/worker 2 → 1: runs the 1 pod the quota admits now (gives up 1 wanted replica)',
        'raise pq-quota pods to 4',
      ],
    },
    ratio: { ns: 'rt', fixes: ['set requests.cpu of app to 200m', 'set limits.cpu of app to 1'] },
  };

  it('has a fixture per expected case', () => {
    expect(cases).toEqual(Object.keys(expected).sort());
  });

  it.each(cases)('%s', (dir) => {
    const loaded = readStateFiles(`${OWN}/${dir}`);
    expect(loaded.errors).toEqual([]);
    // The quota controller's status.used for quotas the files give without it (a no-op when already done).
    reconcileQuotaStatus(loaded.snapshot);
    const text = readFileSync(`${OWN}/${dir}/paste.txt`, 'utf8');
    // No -n: the namespace is found from the pod or its controller in the state.
    const d = diagnose({ text, state: loaded.snapshot });
    expect(d.json.findings).toHaveLength(1);
    expect(d.json.findings[0]!.namespace).toBe(expected[dir]!.ns);
    expect(d.json.findings[0]!.now).toBe('fails');
    expect(d.json.findings[0]!.fixes.map((x) => x.summary)).toEqual(expected[dir]!.fixes);
    expect(d.json.findings[0]!.fixes.every((x) => x.verified)).toBe(true);
    const again = (s: Snapshot) => diagnose({ text, state: s }).json.findings;
    const c = checkFixes(loaded.snapshot, d.json.findings, again, dir);
    // every fix but "add a node" (no command) is replayed through its parsed commands
    expect(c.replayed).toBe(expected[dir]!.fixes.filter((x) => !x.startsWith('add a node')).length);
  });
});

describe('verifyPlans: verified only when the subject reaches its goal, with nothing new refused or Pending', () => {
  // n1 allocates 2 CPU; quota q in ns v: pods 3. deploy/web (2 × 500m, both on n1) and deploy/api (1 × 800m, on n1).
  function state(): Snapshot {
    const s = snapshotOf(
      node('n1', { cpu: '2', memory: '8Gi' }),
      quota('q', { namespace: 'v', hard: { pods: '3' }, used: { pods: '0' } }),
    );
    const d = (name: string, replicas: number, cpu: string): KObject => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'v' },
      spec: {
        replicas,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: { containers: [{ name, resources: { requests: { cpu } } }] },
        },
      },
    });
    s.put(d('web', 2, '500m'));
    s.put(d('api', 1, '800m'));
    // Let the controllers create their pods (quota 3 pods: all three fit), then count them.
    const conv = converge(s, [
      { kind: 'patch', target: { kind: 'Deployment', namespace: 'v', name: 'web' }, type: 'merge', body: {} },
      { kind: 'patch', target: { kind: 'Deployment', namespace: 'v', name: 'api' }, type: 'merge', body: {} },
    ]);
    return conv.state;
  }
  const web = { kind: 'Deployment', namespace: 'v', name: 'web' };
  const subjectPod = (s: Snapshot) => s.list('Pod', 'v').find((p) => p.metadata.name?.startsWith('web-')) as Pod;
  const plan = (summary: string, changes: Change[], who: 'app-team' | 'platform' = 'app-team', cost = 1): Plan => ({
    who,
    summary,
    changes,
    cost,
  });

  it('the fixture: 3 pods, all on n1, quota full', () => {
    const s = state();
    expect(s.list('Pod', 'v').map((p) => [p.metadata.name?.split('-')[0], p.spec.nodeName])).toEqual([
      ['api', 'n1'],
      ['web', 'n1'],
      ['web', 'n1'],
    ]);
  });

  it.each([
    // web 2 → 3: the new pod is refused by pods 3/3.
    {
      label: 'refused by the quota',
      changes: [{ kind: 'scale', target: web, replicas: 3 }] as Change[],
      verified: false,
      outcome:
        /^2\/3 pods scheduled; a new pod is refused: .*exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3$/,
    },
    // pods 4: admitted, but n1 has 2000 − 1800 = 200m free < 500m → Pending.
    {
      label: 'admitted, then Pending',
      changes: [
        { kind: 'quota', namespace: 'v', name: 'q', hard: { pods: '4' } },
        { kind: 'scale', target: web, replicas: 3 },
      ] as Change[],
      verified: false,
      outcome: /^2\/3 pods scheduled; 1 stays Pending: 0\/1 nodes are available: 1 Insufficient cpu\./,
    },
    // pods 6 and 100m each: 3 × 100m + 800m = 1100m ≤ 2 → all on n1, old pods gone (the rollout completes).
    {
      label: 'raised and lowered: the rollout completes',
      changes: [
        { kind: 'quota', namespace: 'v', name: 'q', hard: { pods: '6' } },
        { kind: 'setResources', target: web, container: 'web', requests: { cpu: '100m' } },
        { kind: 'scale', target: web, replicas: 3 },
      ] as Change[],
      verified: true,
      outcome: /^3\/3 pods of deploy\/web admitted and scheduled \(n1\)$/,
    },
  ])('$label', ({ changes, verified, outcome }) => {
    const s = state();
    const subject = subjectOf(s, subjectPod(s), true, 'v');
    const [fix] = verifyPlans(s, subject, [{ ...plan('p', changes), obvious: true }], {});
    expect(fix?.outcome).toMatch(outcome);
    expect(fix?.verified).toBe(verified);
    expect(fix?.change).toBe(planCommand(plan('p', changes)));
  });

  it('a change that leaves another workload short is not verified, and says which', () => {
    const s = state();
    const subject = subjectOf(s, subjectPod(s), true, 'v');
    // api 800m → 1900m: its new pod cannot fit next to web's 1000m (and the surge needs a 4th pod slot).
    const [fix] = verifyPlans(
      s,
      subject,
      [
        {
          ...plan('api up', [
            {
              kind: 'setResources',
              target: { kind: 'Deployment', namespace: 'v', name: 'api' },
              container: 'api',
              requests: { cpu: '1900m' },
            },
          ]),
          obvious: true,
        },
      ],
      {},
    );
    expect(fix?.verified).toBe(false);
    expect(fix?.outcome).toMatch(/but v\/deploy\/api is left short/);
  });

  it('ranks the app team first, cheapest first, tolerations last; never changes the state', () => {
    const p = (summary: string, who: 'app-team' | 'platform', cost: number, last = false): Plan => ({
      ...plan(summary, [], who, cost),
      last,
    });
    expect(
      rankPlans([
        p('node', 'platform', 3),
        p('tolerate', 'app-team', 1, true),
        p('lower', 'app-team', 1),
        p('pending', 'app-team', 0),
        p('uncordon', 'platform', 0),
      ]).map((x) => x.summary),
    ).toEqual(['pending', 'lower', 'uncordon', 'node', 'tolerate']);
    const s = state();
    const before = s.list('Pod', 'v').length;
    const subject = subjectOf(s, subjectPod(s), true, 'v');
    verifyPlans(s, subject, [plan('x', [{ kind: 'scale', target: web, replicas: 0 }])], {});
    expect(s.list('Pod', 'v').length).toBe(before);
  });
});
