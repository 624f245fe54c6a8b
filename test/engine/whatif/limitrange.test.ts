/**
 * The LimitRange what-if as a change through the controllers: the edit is stored (defaulted as the
 * registry does), running pods are not re-admitted (LimitRanger acts on create and update only), and the
 * controllers short of pods retry, their new pods defaulted and validated by the new LimitRange
 * (plugin/pkg/admission/limitranger). A default that gives BestEffort pods requests moves their new pods
 * from a BestEffort-scoped quota to a NotBestEffort one (pkg/quota/v1/evaluator/core/pods.go).
 */
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../src/engine/changes/command.ts';
import { changeAnswerJson, limitRangeFixes, whatIfLimitRange } from '../../../src/engine/whatif/index.ts';
import { reconcileQuotaStatus } from '../../../src/engine/quota-ledger.ts';
import type { KObject, Snapshot } from '../../../src/k8s/snapshot.ts';
import { deployment, node, pod, replicaSet, snapshotOf } from '../../support/builders.ts';

function lr(limits: unknown[]): KObject {
  return { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits', namespace: 'lr' }, spec: { limits } };
}

/** be: 2 pods with no resources (BestEffort) on n1; quotas be-quota (BestEffort) and nbe-quota (NotBestEffort). */
function bestEffortState(): Snapshot {
  const objs: KObject[] = [
    node('n1', { cpu: '4', memory: '8Gi' }) as KObject,
    lr([{ type: 'PersistentVolumeClaim', max: { storage: '10Gi' } }]),
    {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'be-quota', namespace: 'lr' },
      spec: { hard: { pods: '10' }, scopes: ['BestEffort'] },
    },
    {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'nbe-quota', namespace: 'lr' },
      spec: { hard: { pods: '10', 'requests.cpu': '2' }, scopes: ['NotBestEffort'] },
    },
    deployment('be', { namespace: 'lr', replicas: 2 }),
    replicaSet('be-5c8d7', { namespace: 'lr', owner: 'be', replicas: 2 }),
  ];
  for (const sfx of ['aaaaa', 'bbbbb']) {
    const p = pod(`be-5c8d7-${sfx}`, { namespace: 'lr', node: 'n1', labels: { app: 'be' } });
    p.spec.containers[0]!.resources = {};
    p.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'be-5c8d7', controller: true }];
    objs.push(p as KObject);
  }
  const s = snapshotOf(...objs);
  reconcileQuotaStatus(s);
  return s;
}

/** big: 1 replica of 1500m, refused by max cpu 1 before the snapshot (its ReplicaSet has no pod). */
function refusedState(): Snapshot {
  return snapshotOf(
    node('n1', { cpu: '4', memory: '8Gi' }) as KObject,
    lr([{ type: 'Container', max: { cpu: '1' }, default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } }]),
    deployment('big', { namespace: 'lr', replicas: 1, requests: { cpu: '1500m' }, limits: { cpu: '1500m' } }),
    replicaSet('big-7f9c4', {
      namespace: 'lr',
      owner: 'big',
      replicas: 1,
      requests: { cpu: '1500m' },
      limits: { cpu: '1500m' },
    }),
  );
}

describe('whatIfLimitRange through converge', () => {
  it('a Container defaultRequest cpu 100m: be stops being BestEffort — a side effect, its running pods untouched', () => {
    const a = whatIfLimitRange(bestEffortState(), 'lr', undefined, 'defaultRequest', 'Container', 'cpu', '100m')!;
    expect(a.workloads.map((w) => [w.ref, w.qosBefore, w.qosAfter, w.perPodAfter])).toEqual([
      ['deploy/be', 'BestEffort', 'Burstable', { cpu: '100m' }],
    ]);
    expect(a.sideEffects).toEqual([
      'new pods of deploy/be stop being BestEffort (now Burstable, 100m cpu requested): counted by nbe-quota (NotBestEffort) instead of be-quota (BestEffort); its 2 running pods stay BestEffort until re-created',
    ]);
    // The edit re-admits nothing: no pod created, none deleted.
    expect(a.converged.created).toEqual([]);
    expect(a.converged.evicted).toEqual([]);
    expect(a.patch).toBe(
      `kubectl -n lr patch limitrange/limits --type json -p '[{"op":"add","path":"/spec/limits/-","value":{"type":"Container","defaultRequest":{"cpu":"100m"}}}]'`,
    );
    expect(parseCommand(a.patch)).toEqual(a.change);
    const [fix] = limitRangeFixes(a);
    expect(fix).toMatchObject({ who: 'platform', verified: true, sideEffects: a.sideEffects, change: a.patch });
  });

  it('max cpu 1 → 2: big, refused before, retries and its pod is admitted and bound (converged)', () => {
    const a = whatIfLimitRange(refusedState(), 'lr', undefined, 'max', 'Container', 'cpu', '2')!;
    expect(a.workloads.map((w) => [w.ref, w.before.limitRange, w.after.limitRange])).toEqual([
      ['deploy/big', 'fail', 'pass'],
    ]);
    const json = changeAnswerJson(a.converged, limitRangeFixes(a));
    expect(json.change).toEqual({
      kind: 'patch',
      target: { kind: 'LimitRange', namespace: 'lr', name: 'limits' },
      type: 'json',
      body: [{ op: 'add', path: '/spec/limits/0/max/cpu', value: '2' }],
      command: `kubectl -n lr patch limitrange/limits --type json -p '[{"op":"add","path":"/spec/limits/0/max/cpu","value":"2"}]'`,
    });
    expect(json.outcome).toEqual([
      {
        kind: 'Deployment',
        namespace: 'lr',
        name: 'big',
        wanted: 1,
        admitted: 1,
        scheduled: 1,
        updated: 1,
        created: 1,
        refused: null,
        pending: [],
        stalled: false,
      },
    ]);
    expect(json.fixes).toEqual([
      {
        who: 'platform',
        summary: 'set LimitRange limits Container max.cpu to 2',
        change: json.change.command,
        verified: true,
        // the default pod (100m) on n1's 4 CPU, measured against the state the edit starts from
        outcome: "40 default pods fit; no workload's next pod newly refused",
        sideEffects: [],
      },
    ]);
  });

  it('an invalid LimitRange (max below the default) is refused: nothing converged', () => {
    const a = whatIfLimitRange(refusedState(), 'lr', undefined, 'max', 'Container', 'cpu', '400m')!;
    expect(a.invalid).toEqual(['spec.limits[0].default[cpu]: default value 500m is greater than max value 400m']);
    expect(a.converged.refused).toBe(
      'LimitRange "limits" is invalid: spec.limits[0].default[cpu]: default value 500m is greater than max value 400m',
    );
    expect(a.converged.created).toEqual([]);
    expect(limitRangeFixes(a)).toEqual([]);
  });
});
