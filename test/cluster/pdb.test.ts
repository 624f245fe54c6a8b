/**
 * PodDisruptionBudgets (policy/v1) are read like every other kind: decoded through their schema from a
 * state file or a paste, listed and watched by LiveSource with the real @kubernetes/client-node against
 * the loopback stand-in, granted read-only by the bot's ClusterRole, and a user without `list` on them
 * gets the API server's 403 as one error value, the rest of the cluster read.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ALL_RESOURCES, RESOURCES, collectionPath } from '../../src/cluster/api-resources.ts';
import { createLiveSource, LiveSource } from '../../src/cluster/live-source.ts';
import { projectObject } from '../../src/cluster/projection.ts';
import type { SourceResult } from '../../src/cluster/source.ts';
import { decodeText, formatProblem } from '../../src/k8s/decode.ts';
import { RESOURCE_OF_KIND, isKnownKind } from '../../src/k8s/objects.ts';
import type { KObject } from '../../src/k8s/snapshot.ts';
import { FakeApiServer } from '../support/fake-apiserver.ts';
import { KubeApiServer, type Rule } from '../support/kube-apiserver.ts';

const pdb = (name: string, spec: Record<string, unknown>, status?: Record<string, unknown>): KObject => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name, namespace: 'team-a' },
  spec: { selector: { matchLabels: { app: name } }, ...spec },
  ...(status ? { status } : {}),
});

describe('PodDisruptionBudget: a known kind (src/k8s/objects.ts schemaByKind, decode.ts)', () => {
  it('is known, policy/v1 poddisruptionbudgets, namespaced, listed and watched by LiveSource', () => {
    expect(isKnownKind('PodDisruptionBudget')).toBe(true);
    expect(RESOURCE_OF_KIND.PodDisruptionBudget).toEqual({ resource: 'poddisruptionbudgets', group: 'policy' });
    expect(ALL_RESOURCES).toContain('poddisruptionbudgets');
    const d = RESOURCES.poddisruptionbudgets;
    expect([d.kind, d.group, d.version, d.namespaced]).toEqual(['PodDisruptionBudget', 'policy', 'v1', true]);
    expect(collectionPath(d)).toBe('/apis/policy/v1/poddisruptionbudgets');
    expect(collectionPath(d, 'team-a')).toBe('/apis/policy/v1/namespaces/team-a/poddisruptionbudgets');
  });

  const yaml = (spec: string, status = '') =>
    `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: api, namespace: team-a}\nspec: ${spec}\n${status}`;
  it.each<[string, string, number, string[]]>([
    ['minAvailable as a number', yaml('{minAvailable: 2, selector: {matchLabels: {app: api}}}'), 1, []],
    ['maxUnavailable as a percentage', yaml('{maxUnavailable: "25%", selector: {matchLabels: {app: api}}}'), 1, []],
    [
      'unhealthyPodEvictionPolicy AlwaysAllow',
      yaml('{minAvailable: 1, unhealthyPodEvictionPolicy: AlwaysAllow}'),
      1,
      [],
    ],
    [
      'the status the disruption controller writes',
      yaml(
        '{minAvailable: 2}',
        'status: {currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 0, expectedPods: 3, observedGeneration: 1}\n',
      ),
      1,
      [],
    ],
    [
      'an unknown eviction policy',
      yaml('{minAvailable: 1, unhealthyPodEvictionPolicy: Sometimes}'),
      0,
      [
        'in.yaml (PodDisruptionBudget team-a/api): spec.unhealthyPodEvictionPolicy: Invalid option: expected one of "IfHealthyBudget"|"AlwaysAllow"',
      ],
    ],
    [
      'minAvailable as a list',
      yaml('{minAvailable: [1]}'),
      0,
      ['in.yaml (PodDisruptionBudget team-a/api): spec.minAvailable: Invalid input'],
    ],
    [
      'disruptionsAllowed as text',
      yaml('{minAvailable: 1}', 'status: {disruptionsAllowed: "none"}\n'),
      0,
      [
        'in.yaml (PodDisruptionBudget team-a/api): status.disruptionsAllowed: Invalid input: expected number, received string',
      ],
    ],
  ])('%s', (_name, text, objects, errors) => {
    const d = decodeText(text, 'in.yaml');
    expect(d.objects.length).toBe(objects);
    expect(d.warnings).toEqual([]);
    expect(d.errors.map(formatProblem)).toEqual(errors);
  });

  it('the live projection keeps spec and status whole, with the apiVersion list items lack', () => {
    const raw = {
      metadata: { name: 'api', namespace: 'team-a', resourceVersion: '7', managedFields: [{ manager: 'kubectl' }] },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'api' } } },
      status: { currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 0, expectedPods: 3 },
    };
    expect(projectObject('PodDisruptionBudget', raw)).toEqual({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'api', namespace: 'team-a', resourceVersion: '7' },
      spec: { minAvailable: 2, selector: { matchLabels: { app: 'api' } } },
      status: { currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 0, expectedPods: 3 },
    });
  });
});

describe('LiveSource lists and watches PodDisruptionBudgets (real client-node, fake API server)', () => {
  let fake: FakeApiServer;
  let src: LiveSource;
  afterEach(async () => {
    await src?.close();
    await fake?.close();
  });

  const budgets = (r: SourceResult) =>
    r.snapshot
      .list('PodDisruptionBudget')
      .map((o) => `${o.metadata.namespace}/${o.metadata.name} allowed=${o.status?.disruptionsAllowed ?? '-'}`)
      .sort();

  async function eventually(ok: (r: SourceResult) => boolean): Promise<SourceResult> {
    const until = Date.now() + 5000;
    for (;;) {
      const r = await src.load();
      if (ok(r)) return r;
      if (Date.now() > until) throw new Error(`not seen in 5 s: ${JSON.stringify(budgets(r))}`);
      await new Promise((res) => setTimeout(res, 20));
    }
  }

  it('one list at /apis/policy/v1/poddisruptionbudgets; added, updated and deleted budgets follow the watch', async () => {
    fake = await FakeApiServer.start({
      objects: [pdb('api', { minAvailable: 2 }, { disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 })],
    });
    src = new LiveSource({
      kubeConfig: fake.kubeConfig(),
      requestTimeoutMs: 2000,
      syncTimeoutMs: 2000,
      watchTimeoutSeconds: 30,
      backoff: { initialMs: 10, maxMs: 50 },
    });
    const first = await src.load();
    expect(first.errors).toEqual([]);
    expect(budgets(first)).toEqual(['team-a/api allowed=0']);
    const got = first.snapshot.get('PodDisruptionBudget', 'team-a', 'api');
    expect(got?.spec?.minAvailable).toBe(2);
    expect(got?.spec?.selector).toEqual({ matchLabels: { app: 'api' } });
    expect(fake.counts.get('/apis/policy/v1/poddisruptionbudgets')).toBeGreaterThanOrEqual(1);

    fake.apply(pdb('web', { maxUnavailable: '25%' }, { disruptionsAllowed: 1 }));
    expect(budgets(await eventually((r) => budgets(r).length === 2))).toEqual([
      'team-a/api allowed=0',
      'team-a/web allowed=1',
    ]);
    fake.apply(pdb('api', { minAvailable: 2 }, { disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2 }));
    expect(budgets(await eventually((r) => budgets(r)[0] === 'team-a/api allowed=1'))).toEqual([
      'team-a/api allowed=1',
      'team-a/web allowed=1',
    ]);
    fake.remove('PodDisruptionBudget', 'team-a', 'web');
    expect(budgets(await eventually((r) => budgets(r).length === 1))).toEqual(['team-a/api allowed=1']);
  });
});

describe('RBAC: the strict stand-in, a user without list on poddisruptionbudgets', () => {
  let kube: KubeApiServer;
  const dir = mkdtempSync(join(tmpdir(), 'qd-pdb-'));
  beforeAll(async () => {
    kube = await KubeApiServer.start({ state: 'manifests/demo' });
    const all = ALL_RESOURCES.filter((r) => r !== 'poddisruptionbudgets');
    const read = (resources: string[]): Rule[] => [{ verbs: ['get', 'list', 'watch'], resources }];
    kube.addToken('no-pdb', { name: 'no-pdb' });
    kube.bindCluster('no-pdb', read(all));
    kube.addToken('reader', { name: 'reader' });
    kube.bindCluster('reader', read([...ALL_RESOURCES]));
  });
  afterAll(async () => kube.close());

  it.each<[string, string, string[], number]>([
    ['granted every resource the bot reads', 'reader', [], 1],
    [
      'granted all but poddisruptionbudgets',
      'no-pdb',
      [
        'poddisruptionbudgets Forbidden: poddisruptionbudgets.policy is forbidden: User "no-pdb" cannot list resource "poddisruptionbudgets" in API group "policy" at the cluster scope',
      ],
      0,
    ],
  ])('%s', async (_name, token, errors, count) => {
    const kc = join(dir, `${token}.config`);
    writeFileSync(kc, kube.kubeconfigYaml({ token }));
    const s = createLiveSource({ kubeconfig: kc, env: {}, watch: false });
    try {
      const r = await s.load();
      expect(r.errors.map((e) => `${e.resource} ${e.cause}: ${e.message}`)).toEqual(errors);
      expect(r.snapshot.list('PodDisruptionBudget').map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(
        count ? ['team-a/api'] : [],
      );
      // Everything else was read: the demo's nodes and pods are there either way.
      expect(r.snapshot.count('Node')).toBe(10);
    } finally {
      await s.close();
    }
  });
});
