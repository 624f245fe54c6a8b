/**
 * Issue #15 on the other cluster (test/fixtures/clusters/other): the fix that ends each incident, as the
 * one command it prints, and verified through the controllers (engine/fixes/verify.ts). Exact commands:
 * a quota raise that covers every controller waiting on the quota (a DaemonSet's missing pods too), a
 * lowered request that keeps the LimitRange limit/request ratio, the set-resources fix of an API
 * validation refusal combined with freeing the quota, and scaling the subject to what the quota admits.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../../src/answer/diagnose.ts';
import { readStateFiles } from '../../../src/cluster/file-source.ts';
import { keepLimitRatio } from '../../../src/engine/fixes/pod-edit.ts';
import { limitRange, pod, snapshotOf } from '../../support/builders.ts';

const OTHER = fileURLToPath(new URL('../../fixtures/clusters/other', import.meta.url));
const NOW = Date.parse('2026-04-14T14:00:00Z');
const base = readStateFiles(OTHER).snapshot;

const fixesOf = (ns: string, text: string) =>
  diagnose({ text, state: base.fork(), namespace: ns, now: NOW }).json.findings.flatMap((f) => f.fixes);

describe('the other cluster: the verified fix of each incident, exactly', () => {
  it.each([
    [
      '17 prometheus-1: pods and limits.memory raised for node-exporter’s 3 waiting pods too',
      'monitoring',
      'create Pod prometheus-1 in StatefulSet prometheus failed error: pods "prometheus-1" is forbidden: exceeded quota: monitoring-quota, requested: limits.memory=12Gi,pods=1, used: limits.memory=13440Mi,pods=10, limited: limits.memory=20Gi,pods=10',
      [
        'kubectl -n monitoring scale statefulset/prometheus --replicas=1',
        `kubectl -n monitoring patch resourcequota/monitoring-quota --type merge -p '{"spec":{"hard":{"limits.memory":"26112Mi","pods":"14"}}}'`,
      ],
    ],
    [
      '18 node-exporter: the DaemonSet’s own template (3 pods missing), prometheus-1 waits too',
      'monitoring',
      'Error creating: pods "node-exporter-fhwvt" is forbidden: exceeded quota: monitoring-quota, requested: pods=1, used: pods=10, limited: pods=10',
      [`kubectl -n monitoring patch resourcequota/monitoring-quota --type merge -p '{"spec":{"hard":{"pods":"14"}}}'`],
    ],
    [
      '19 grafana: must specify, combined with the pods raise',
      'monitoring',
      'Error creating: pods "grafana-wknnwn-8hhwz" is forbidden: failed quota: monitoring-quota: must specify limits.cpu for: grafana; limits.memory for: grafana',
      [
        `kubectl -n monitoring patch resourcequota/monitoring-quota --type merge -p '{"spec":{"hard":{"pods":"15"}}}' && kubectl -n monitoring set resources deploy/grafana -c grafana --limits=cpu=500m,memory=512Mi`,
        `kubectl -n monitoring patch resourcequota/monitoring-quota --type merge -p '{"spec":{"hard":{"pods":"15"}}}' && echo '{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"quota-doctor-defaults","namespace":"monitoring"},"spec":{"limits":[{"type":"Container","default":{"cpu":"500m","memory":"512Mi"}}]}}' | kubectl apply -f -`,
      ],
    ],
    [
      '16 adhoc-query: the lowered memory request brings the limit down to request × 4 (data-limits ratio)',
      'data',
      "0/12 nodes are available: 2 Insufficient cpu, 2 Insufficient memory, 3 node(s) had untolerated taint(s), 7 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling.",
      [
        'kubectl -n data get pod adhoc-query -o json | kubectl set resources --local -f - -c duckdb --limits=memory=17980Mi --requests=cpu=470m,memory=4495Mi -o json | kubectl replace --force -f -',
      ],
    ],
    [
      '03 checkout: request above the default limit — set the limit (or lower the request) after dropping recommender’s Pending replicas; scaling cart to 0 (it stops serving) ranks after the quota raise',
      'shop',
      'Error creating: Pod "checkout-2nzxrc-kzdxz" is invalid: spec.containers[0].resources.requests: Invalid value: "300m": must be less than or equal to cpu limit of 250m',
      [
        'kubectl -n shop scale deploy/recommender --replicas=0 && kubectl -n shop set resources deploy/checkout -c checkout --limits=cpu=300m',
        'kubectl -n shop scale deploy/recommender --replicas=0 && kubectl -n shop set resources deploy/checkout -c checkout --requests=cpu=250m',
        `kubectl -n shop patch resourcequota/shop-compute --type merge -p '{"spec":{"hard":{"requests.memory":"19Gi"}}}' && kubectl -n shop set resources deploy/checkout -c checkout --limits=cpu=300m`,
        `kubectl -n shop patch resourcequota/shop-compute --type merge -p '{"spec":{"hard":{"requests.memory":"19Gi"}}}' && kubectl -n shop set resources deploy/checkout -c checkout --requests=cpu=250m`,
      ],
    ],
    [
      '10 query: scale to the 4 pods search-business admits; the raise alone preempts ledger pods that come back Pending, so it comes with a node for the preemptor (and monitoring-quota for that node’s node-exporter); scaling es to 0 last',
      'search',
      'Error creating: pods "query-5rv9qjk-rshfj" is forbidden: exceeded quota: search-business, requested: pods=1,requests.cpu=500m, used: pods=8,requests.cpu=5, limited: pods=8,requests.cpu=5',
      [
        'kubectl -n search scale deploy/query --replicas=4',
        `kubectl -n search patch resourcequota/search-business --type merge -p '{"spec":{"hard":{"pods":"11","requests.cpu":"7500m"}}}' && kubectl -n monitoring patch resourcequota/monitoring-quota --type merge -p '{"spec":{"hard":{"pods":"11"}}}'`,
        `kubectl -n search scale statefulset/es --replicas=0 && kubectl -n monitoring patch resourcequota/monitoring-quota --type merge -p '{"spec":{"hard":{"pods":"11"}}}'`,
      ],
    ],
  ] as const)('%s', (_name, ns, text, want) => {
    expect(
      fixesOf(ns, text)
        .filter((x) => x.verified)
        .map((x) => x.change),
    ).toEqual(want);
  });

  it('scaling the subject down says what it costs and ranks after the fixes that keep replicas', () => {
    const fixes = fixesOf(
      'search',
      'Error creating: pods "query-5rv9qjk-rshfj" is forbidden: exceeded quota: search-business, requested: pods=1,requests.cpu=500m, used: pods=8,requests.cpu=5, limited: pods=8,requests.cpu=5',
    );
    expect(fixes.find((x) => x.verified)?.summary).toBe(
      'scale deploy/query 5 → 4: runs the 4 pods the quota admits now (gives up 1 wanted replica)',
    );
  });
});

describe('keepLimitRatio (plugin/pkg/admission/limitranger limitRequestRatioConstraint)', () => {
  const lr = (ratio: Record<string, string>) =>
    limitRange('lr', { namespace: 'ns', container: { maxLimitRequestRatio: ratio } });
  it.each([
    ['memory ratio 4: 4495Mi × 4', { memory: '4' }, 'memory', { memory: '4495Mi' }, { memory: '20Gi' }, '17980Mi'],
    ['memory within the ratio: unchanged', { memory: '4' }, 'memory', { memory: '6Gi' }, { memory: '20Gi' }, '20Gi'],
    ['cpu ratio 2: 470m × 2', { cpu: '2' }, 'cpu', { cpu: '470m' }, { cpu: '3' }, '940m'],
    ['cpu ratio 1.5 rounds down to a milli: 333m × 1.5', { cpu: '1.5' }, 'cpu', { cpu: '333m' }, { cpu: '2' }, '499m'],
    ['no ratio for the resource: unchanged', { cpu: '2' }, 'memory', { memory: '1Gi' }, { memory: '20Gi' }, '20Gi'],
  ] as const)('%s', (_n, ratio, res, requests, limits, want) => {
    const state = snapshotOf(lr(ratio));
    const p = pod('p', { namespace: 'ns', requests, limits });
    const out = keepLimitRatio(state, 'ns', p, p, 'c', res);
    expect(out.spec.containers[0]!.resources?.limits?.[res]).toBe(want);
  });

  it('a limit the LimitRange defaults (the admitted pod) is set explicitly', () => {
    const state = snapshotOf(lr({ memory: '2' }));
    const p = pod('p', { namespace: 'ns', requests: { memory: '1Gi' } });
    const admitted = pod('p', { namespace: 'ns', requests: { memory: '1Gi' }, limits: { memory: '4Gi' } });
    expect(keepLimitRatio(state, 'ns', p, admitted, 'c', 'memory').spec.containers[0]!.resources?.limits).toEqual({
      memory: '2Gi',
    });
  });
});
