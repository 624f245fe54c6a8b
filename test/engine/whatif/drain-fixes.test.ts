/**
 * A drain what-if that strands pods offers the fixes diagnose would give them on the drained state, each
 * verified by converging it after the drain (engine/fixes verifyPlans); uncordoning the drained node (which
 * undoes the drain) is never one; a drain that strands nothing offers none.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { FileSource, readStateFiles } from '../../../src/cluster/file-source.ts';
import { createAnswerer } from '../../../src/answer/index.ts';
import { converge } from '../../../src/engine/converge.ts';
import { parseCommand } from '../../../src/engine/changes/command.ts';
import { drainFixes, whatIfDrain } from '../../../src/engine/whatif/index.ts';
import type { KObject, Snapshot } from '../../../src/k8s/snapshot.ts';
import { deployment, node, pod, replicaSet, snapshotOf } from '../../support/builders.ts';

const DEMO = fileURLToPath(new URL('../../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
let demo: Snapshot;
beforeAll(() => {
  demo = readStateFiles(DEMO).snapshot;
});

const shape = (state: Snapshot, node: string, allows?: (ns: string) => boolean) => {
  const d = whatIfDrain(state, node, { now: NOW })!;
  return drainFixes(state, d, { now: NOW }, allows).map((f) => `${f.who} | ${f.change} | ${f.outcome}`);
};

describe('drainFixes on the demo cluster', () => {
  it.each<[string, string, ((ns: string) => boolean) | undefined, string[]]>([
    [
      'general-c-1: redis-0 and the ETL pod stranded',
      'general-c-1',
      undefined,
      [
        'platform | kubectl -n batch patch resourcequota/batch-low --type merge -p \'{"spec":{"hard":{"requests.cpu":"25"}}}\' && kubectl uncordon general-c-2 | 10/10 pods of job/nightly-etl-29551740 admitted and scheduled',
        'platform | kubectl -n batch patch resourcequota/batch-low --type merge -p \'{"spec":{"hard":{"requests.cpu":"25"}}}\' | 10/10 pods of job/nightly-etl-29551740 admitted and scheduled',
        'app-team | kubectl -n team-a scale deploy/api --replicas=2 | 1/1 pods of statefulset/redis admitted and scheduled (general-a-1)',
        'app-team | kubectl -n team-a scale deploy/web --replicas=3 | 1/1 pods of statefulset/redis admitted and scheduled (general-a-1)',
        'platform | kubectl -n team-a patch resourcequota/team-quota --type merge -p \'{"spec":{"hard":{"pods":"11"}}}\' | 1/1 pods of statefulset/redis admitted and scheduled (general-a-1)',
      ],
    ],
    [
      'general-c-1 asked from team-a: only team-a fixes',
      'general-c-1',
      (ns) => ns === 'team-a',
      [
        'app-team | kubectl -n team-a scale deploy/api --replicas=2 | 1/1 pods of statefulset/redis admitted and scheduled (general-a-1)',
        'app-team | kubectl -n team-a scale deploy/web --replicas=3 | 1/1 pods of statefulset/redis admitted and scheduled (general-a-1)',
        'platform | kubectl -n team-a patch resourcequota/team-quota --type merge -p \'{"spec":{"hard":{"pods":"11"}}}\' | 1/1 pods of statefulset/redis admitted and scheduled (general-a-1)',
      ],
    ],
    ['gpu-a-1: everything lands elsewhere, no fix', 'gpu-a-1', undefined, []],
  ])('%s', (_name, n, allows, want) => {
    const got = shape(demo, n, allows);
    expect(got).toEqual(want);
  });

  it('each fix, run after the drain, brings the stranded workload back: its pods all scheduled', () => {
    const d = whatIfDrain(demo, 'general-c-1', { now: NOW })!;
    const fixes = drainFixes(demo, d, { now: NOW });
    expect(fixes.length).toBe(5);
    for (const f of fixes) {
      expect(f.verified).toBe(true);
      if (!f.change) continue;
      const changes = f.change.split(' && ').map((c) => parseCommand(c));
      expect(changes.every((c) => c !== null)).toBe(true);
    }
  });
});

/** app: 2 × 1 CPU on n1 (2 CPU); n2 (2 CPU) cordoned; nothing else fits them. */
function twoNodes(): Snapshot {
  const objs: KObject[] = [
    node('n1', { cpu: '2', memory: '8Gi', labels: { pool: 'p' } }) as KObject,
    node('n2', { cpu: '2', memory: '8Gi', labels: { pool: 'p' }, unschedulable: true }) as KObject,
    deployment('app', { namespace: 'ns', replicas: 2, requests: { cpu: '1' } }),
    replicaSet('app-6d4b8', { namespace: 'ns', owner: 'app', replicas: 2, requests: { cpu: '1' } }),
  ];
  for (const sfx of ['aaaaa', 'bbbbb']) {
    const p = pod(`app-6d4b8-${sfx}`, { namespace: 'ns', cpu: '1', node: 'n1', labels: { app: 'app' } });
    p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'app-6d4b8', controller: true }];
    objs.push(p as KObject);
  }
  return snapshotOf(...objs);
}

describe('drainFixes: never the drained node uncordoned', () => {
  it('draining n1 strands both pods; uncordon n2 brings them back, uncordon n1 is not offered', () => {
    const s = twoNodes();
    const d = whatIfDrain(s, 'n1')!;
    expect(d.stranded.map((x) => x.pod)).toEqual(['ns/app-6d4b8-aaaaa', 'ns/app-6d4b8-bbbbb']);
    const fixes = drainFixes(s, d);
    const changes = fixes.map((f) => f.change);
    expect(changes).toContain('kubectl uncordon n2');
    expect(changes.some((c) => c.includes('kubectl uncordon n1'))).toBe(false);
    const uncordon = fixes.find((f) => f.change === 'kubectl uncordon n2')!;
    expect([uncordon.who, uncordon.verified, uncordon.outcome]).toEqual([
      'platform',
      true,
      '2/2 pods of deploy/app admitted and scheduled (n2)',
    ]);
    // The same command converged on the drained state: both pods bound to n2.
    const after = converge(d.converged.state, [parseCommand('kubectl uncordon n2')!], {
      resync: { namespaces: ['ns'], objects: [{ kind: 'Deployment', namespace: 'ns', name: 'app' }] },
    });
    const bound = [...after.state.iterate('Pod', 'ns')].filter((p) => p.spec.nodeName === 'n2').length;
    expect(bound).toBe(2);
  });
});

describe('the drain reply and whatif --json carry them (answer/handlers/drain.ts)', () => {
  it.each<[string, string, string[] | undefined, number, number | null]>([
    ['the CLI (sees everything)', 'what if general-c-1 is drained', undefined, 5, 5],
    ['#team-a: its own fixes only, no JSON', 'what if general-c-1 is drained', ['team-a'], 3, null],
    ['nothing stranded', 'what if gpu-a-1 is drained', undefined, 0, 0],
  ])('%s', async (_name, question, allowedNamespaces, replyFixes, jsonFixes) => {
    const a = await createAnswerer().question(question, {
      source: new FileSource(DEMO),
      now: NOW,
      ...(allowedNamespaces ? { allowedNamespaces, defaultNamespace: allowedNamespaces[0] } : {}),
    });
    const r = a.replies[0]!;
    expect(r.fixes.length).toBe(replyFixes);
    expect(r.fixes.every((f) => f.verified)).toBe(true);
    const json = a.json as { fixes?: unknown[] } | undefined;
    expect(json ? (json.fixes ?? []).length : null).toBe(jsonFixes);
  });
});
