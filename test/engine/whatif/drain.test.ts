/**
 * The drain what-if as a change through the controllers, with PodDisruptionBudgets: the eviction API
 * (pkg/registry/core/pod/storage/eviction.go, checkAndDecrement) refuses an eviction the budget does not
 * allow with 429 "Cannot evict pod as it would violate the pod's disruption budget."; kubectl drain retries
 * every 5 s (k8s.io/kubectl/pkg/drain), so a refused pod goes once the replacements of the pods already
 * evicted are available (the disruption controller recounts: disruption.go updatePdbStatus), or never.
 */
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/engine/changes/command.ts';
import { budgetStatus } from '../../../src/engine/controllers/disruption.ts';
import { changeAnswerJson, whatIfDrain } from '../../../src/engine/whatif/index.ts';
import type { KObject, Snapshot } from '../../../src/k8s/snapshot.ts';
import { deployment, node, pod, replicaSet, snapshotOf } from '../../support/builders.ts';

/** app: 2 replicas of 500m, both on n1 (4 CPU); n2 has `n2Cpu`; a PDB on app=app with `budget`. */
function pdbState(n2Cpu: string, budget: Record<string, unknown> | null): Snapshot {
  const objs: KObject[] = [
    node('n1', { cpu: '4', memory: '8Gi' }) as KObject,
    node('n2', { cpu: n2Cpu, memory: '8Gi' }) as KObject,
    deployment('app', { namespace: 'p', replicas: 2, requests: { cpu: '500m' } }),
    replicaSet('app-6d4b8', { namespace: 'p', owner: 'app', replicas: 2, requests: { cpu: '500m' } }),
  ];
  for (const sfx of ['aaaaa', 'bbbbb']) {
    const p = pod(`app-6d4b8-${sfx}`, { namespace: 'p', cpu: '500m', node: 'n1', labels: { app: 'app' } });
    p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'app-6d4b8', controller: true }];
    objs.push(p as KObject);
  }
  if (budget)
    objs.push({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'app-pdb', namespace: 'p' },
      spec: { selector: { matchLabels: { app: 'app' } }, ...budget },
    });
  return snapshotOf(...objs);
}

const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

describe('budgetStatus (disruption.go getExpectedPodCount / updatePdbStatus)', () => {
  it.each([
    [{ minAvailable: 2 }, { expectedPods: 2, desiredHealthy: 2, currentHealthy: 2, disruptionsAllowed: 0 }],
    [{ minAvailable: 1 }, { expectedPods: 2, desiredHealthy: 1, currentHealthy: 2, disruptionsAllowed: 1 }],
    // percentages round up: 50% of 2 = 1; maxUnavailable 1 of scale 2 → 1 desired
    [{ minAvailable: '50%' }, { expectedPods: 2, desiredHealthy: 1, currentHealthy: 2, disruptionsAllowed: 1 }],
    [{ maxUnavailable: 1 }, { expectedPods: 2, desiredHealthy: 1, currentHealthy: 2, disruptionsAllowed: 1 }],
    [{ maxUnavailable: '10%' }, { expectedPods: 2, desiredHealthy: 1, currentHealthy: 2, disruptionsAllowed: 1 }],
    [{ maxUnavailable: 0 }, { expectedPods: 2, desiredHealthy: 2, currentHealthy: 2, disruptionsAllowed: 0 }],
  ])('%j → %j', (budget, status) => {
    const s = pdbState('4', budget);
    expect(budgetStatus(s, s.get('PodDisruptionBudget', 'p', 'app-pdb')!)).toEqual({ pdb: 'p/app-pdb', ...status });
  });
});

describe('whatIfDrain with a PodDisruptionBudget', () => {
  it('no budget: both evicted at once, both replacements on n2', () => {
    const d = whatIfDrain(pdbState('4', null), 'n1')!;
    expect(d.rescheduled).toEqual({ n2: 2 });
    expect(d.refusedEvictions).toEqual([]);
  });

  it('maxUnavailable 1, room on n2: one eviction per round — the second is allowed once the first replacement runs', () => {
    const d = whatIfDrain(pdbState('4', { maxUnavailable: 1 }), 'n1')!;
    expect(d.command).toBe('kubectl drain n1 --ignore-daemonsets --delete-emptydir-data');
    expect(d.rescheduled).toEqual({ n2: 2 });
    expect(d.stranded).toEqual([]);
    expect(d.refusedEvictions).toEqual([]);
    // two rounds, merged: two pods created in all, the Deployment complete
    expect(d.converged.workloads.map((w) => [w.name, w.created, w.scheduled, w.complete])).toEqual([
      ['app', 2, 2, true],
    ]);
    expect(d.converged.evicted).toEqual(['p/app-6d4b8-aaaaa', 'p/app-6d4b8-bbbbb']);
  });

  it('maxUnavailable 1, n2 too small (400m): the first replacement stays Pending, so the second eviction is refused (429) for good', () => {
    const d = whatIfDrain(pdbState('400m', { maxUnavailable: 1 }), 'n1')!;
    expect(d.stranded.map((s) => s.pod)).toEqual(['p/app-6d4b8-aaaaa']);
    expect(d.refusedEvictions).toEqual([
      {
        pod: 'p/app-6d4b8-bbbbb',
        pdb: 'p/app-pdb',
        message: `error when evicting pods/"app-6d4b8-bbbbb" -n "p" (will retry after 5s): ${VIOLATION}`,
        cause: 'The disruption budget app-pdb needs 1 healthy pods and has 1 currently',
      },
    ]);
    expect(d.fates.map((f) => [f.pod, f.fate])).toEqual([
      ['p/app-6d4b8-aaaaa', 'pending'],
      ['p/app-6d4b8-bbbbb', 'stays'],
    ]);
    const json = changeAnswerJson(d.converged, [], d.refusedEvictions);
    expect(json.change).toEqual({
      kind: 'drain',
      node: 'n1',
      command: 'kubectl drain n1 --ignore-daemonsets --delete-emptydir-data',
    });
    expect(json.evictionsRefused).toEqual([
      { pod: 'p/app-6d4b8-bbbbb', pdb: 'p/app-pdb', message: d.refusedEvictions[0]!.message },
    ]);
    expect(json.outcome).toMatchObject([{ name: 'app', wanted: 2, admitted: 2, scheduled: 1, stalled: true }]);
  });

  it('minAvailable 2: nothing may go — both evictions refused, the node only cordoned', () => {
    const d = whatIfDrain(pdbState('4', { minAvailable: 2 }), 'n1')!;
    expect(d.refusedEvictions.map((r) => [r.pod, r.cause])).toEqual([
      ['p/app-6d4b8-aaaaa', 'The disruption budget app-pdb needs 2 healthy pods and has 2 currently'],
      ['p/app-6d4b8-bbbbb', 'The disruption budget app-pdb needs 2 healthy pods and has 2 currently'],
    ]);
    expect(d.converged.evicted).toEqual([]);
    expect(d.converged.state.get('Node', undefined, 'n1')?.spec).toMatchObject({ unschedulable: true });
  });

  it('the command parses back to the change', () => {
    const d = whatIfDrain(pdbState('4', { maxUnavailable: 1 }), 'n1')!;
    expect(parseCommand(d.command)).toEqual(d.converged.change);
  });
});
