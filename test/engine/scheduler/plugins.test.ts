/**
 * Each filter plugin through a whole scheduling attempt, asserting the exact FailedScheduling text
 * (DRA disabled unless stated, so the text stays short: "preemption: …" follows the reasons).
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../src/k8s/objects.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { schedulePod, type ScheduleOptions } from '../../../src/engine/scheduler/schedule.ts';
import { node, pod, snapshotOf } from '../../support/builders.ts';

const NOT_HELPFUL = (n: number) =>
  `preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;

function messageOf(objects: KObject[], incoming: Pod, opts: ScheduleOptions = { draEnabled: false }): string | null {
  return schedulePod(snapshotOf(...objects), incoming, opts).message;
}

function placeOf(objects: KObject[], incoming: Pod): string | null {
  return schedulePod(snapshotOf(...objects), incoming).node;
}

describe('NodeUnschedulable', () => {
  it('rejects cordoned nodes, unresolvable', () => {
    expect(messageOf([node('n1', { unschedulable: true })], pod('web'))).toBe(
      `0/1 nodes are available: 1 node(s) were unschedulable. ${NOT_HELPFUL(1)}`,
    );
  });
  it('lets a pod tolerating node.kubernetes.io/unschedulable through', () => {
    expect(
      placeOf(
        [node('n1', { unschedulable: true })],
        pod('web', {
          tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
        }),
      ),
    ).toBe('n1');
  });
});

describe('NodeName', () => {
  it('fits only the named node', () => {
    const p = pod('web');
    p.spec.nodeName = 'n2';
    expect(messageOf([node('n1')], p)).toBe(
      `0/1 nodes are available: 1 node(s) didn't match the requested node name. ${NOT_HELPFUL(1)}`,
    );
  });
});

describe('TaintToleration', () => {
  const cp = node('cp', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] });
  const gpu = node('gpu', { taints: [{ key: 'gpu', value: 'true', effect: 'NoExecute' }] });
  it.each([
    ['1.35', `0/2 nodes are available: 2 node(s) had untolerated taint(s). ${NOT_HELPFUL(2)}`],
    ['1.34.2', `0/2 nodes are available: 2 node(s) had untolerated taint(s). ${NOT_HELPFUL(2)}`],
    [
      '1.34.1',
      `0/2 nodes are available: 1 node(s) had untolerated taint {gpu: true}, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. ${NOT_HELPFUL(2)}`,
    ],
    [
      '1.27',
      `0/2 nodes are available: 1 node(s) had untolerated taint {gpu: true}, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. ${NOT_HELPFUL(2)}.`,
    ],
    [
      '1.23',
      "0/2 nodes are available: 1 node(s) had taint {gpu: true}, that the pod didn't tolerate, 1 node(s) had taint {node-role.kubernetes.io/control-plane: }, that the pod didn't tolerate.",
    ],
  ])('wording for %s', (k8sVersion, want) => {
    expect(messageOf([cp, gpu], pod('web'), { k8sVersion, draEnabled: false })).toBe(want);
  });
  it.each([
    ['Exists on the key', [{ key: 'gpu', operator: 'Exists' }], 'gpu'],
    ['Equal with the value and effect', [{ key: 'gpu', operator: 'Equal', value: 'true', effect: 'NoExecute' }], 'gpu'],
    ['empty key with Exists tolerates everything', [{ operator: 'Exists' }], 'gpu'],
  ])('tolerates: %s', (_n, tolerations, want) => {
    expect(placeOf([gpu], pod('web', { tolerations }))).toBe(want);
  });
  it('ignores PreferNoSchedule', () => {
    expect(placeOf([node('n1', { taints: [{ key: 'x', effect: 'PreferNoSchedule' }] })], pod('web'))).toBe('n1');
  });
  it('a wrong value does not tolerate', () => {
    expect(placeOf([gpu], pod('web', { tolerations: [{ key: 'gpu', value: 'false' }] }))).toBeNull();
  });
});

describe('NodeAffinity', () => {
  const nodes = [
    node('a', { labels: { zone: 'z1', gen: '5', disk: 'ssd' } }),
    node('b', { labels: { zone: 'z2', gen: '3' } }),
    node('c', { labels: { zone: 'z3' } }),
  ];
  const required = (...matchExpressions: Array<{ key: string; operator: string; values?: string[] }>) => ({
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions }] } },
  });
  it.each([
    ['In', required({ key: 'zone', operator: 'In', values: ['z2'] }), 'b'],
    ['NotIn', required({ key: 'zone', operator: 'NotIn', values: ['z1', 'z2'] }), 'c'],
    ['Exists', required({ key: 'disk', operator: 'Exists' }), 'a'],
    ['DoesNotExist', required({ key: 'gen', operator: 'DoesNotExist' }), 'c'],
    ['Gt', required({ key: 'gen', operator: 'Gt', values: ['4'] }), 'a'],
    ['Lt', required({ key: 'gen', operator: 'Lt', values: ['4'] }), 'b'],
  ])('operator %s', (_op, affinity, want) => {
    expect(placeOf(nodes, pod('web', { affinity }))).toBe(want);
  });
  it('nodeSelector and affinity must both match', () => {
    expect(
      messageOf(
        nodes,
        pod('web', {
          nodeSelector: { disk: 'ssd' },
          affinity: required({ key: 'zone', operator: 'In', values: ['z2'] }),
        }),
      ),
    ).toBe(`0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector. ${NOT_HELPFUL(3)}`);
  });
  it('terms are ORed; an empty term matches nothing', () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{}, { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z3'] }] }],
        },
      },
    };
    expect(placeOf(nodes, pod('web', { affinity }))).toBe('c');
  });
  it('metadata.name narrowing: other nodes are absent', () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['b'] }] }],
        },
      },
    };
    const r = schedulePod(snapshotOf(...nodes), pod('ds', { affinity, cpu: '10' }), { draEnabled: false });
    expect(r.message).toBe(
      `0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. ${NOT_HELPFUL(3)}`,
    );
    expect(r.nodeStatuses.get('a')).toEqual({
      plugin: 'NodeAffinity',
      code: 'unresolvable',
      reasons: ["node(s) didn't satisfy plugin(s) [NodeAffinity]"],
    });
  });
  it('conflicting metadata.name pins reject at PreFilter', () => {
    const affinity = {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [
            {
              matchFields: [
                { key: 'metadata.name', operator: 'In', values: ['a'] },
                { key: 'metadata.name', operator: 'In', values: ['b'] },
              ],
            },
          ],
        },
      },
    };
    expect(messageOf(nodes, pod('ds', { affinity }))).toBe(
      `0/3 nodes are available: pod affinity terms conflict. ${NOT_HELPFUL(3)}`,
    );
    // With DRA on (1.35 default) the DynamicResources PostFilter fails on its missing PreFilter state.
    expect(messageOf(nodes, pod('ds', { affinity }), {})).toBe(
      '0/3 nodes are available: pod affinity terms conflict. not found',
    );
  });
});

describe('NodePorts', () => {
  it('rejects a used host port, Unschedulable (preemption is tried)', () => {
    expect(
      messageOf([node('n1'), pod('a', { node: 'n1', hostPorts: [8080] })], pod('web', { hostPorts: [8080] })),
    ).toBe(
      "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
    );
  });
  it('a different port fits', () => {
    expect(placeOf([node('n1'), pod('a', { node: 'n1', hostPorts: [8080] })], pod('web', { hostPorts: [8081] }))).toBe(
      'n1',
    );
  });
});

describe('NodeResourcesFit', () => {
  it.each([
    [
      'request > free but ≤ allocatable: Unschedulable',
      [node('n1', { cpu: '2' }), pod('a', { node: 'n1', cpu: '1500m' })],
      pod('web', { cpu: '1' }),
      '1.35',
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    ],
    [
      'request > allocatable: unresolvable since 1.34',
      [node('n1', { cpu: '2' })],
      pod('web', { cpu: '3' }),
      '1.35',
      `0/1 nodes are available: 1 Insufficient cpu. ${NOT_HELPFUL(1)}`,
    ],
    [
      'request > allocatable before 1.34: preemption tried',
      [node('n1', { cpu: '2' })],
      pod('web', { cpu: '3' }),
      '1.33',
      '0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    ],
    [
      'hugepages and extended resources',
      [node('n1', { allocatable: { 'hugepages-2Mi': '1Gi' } })],
      pod('web', { requests: { 'hugepages-2Mi': '2Gi', 'example.com/foo': '1' } }),
      '1.35',
      `0/1 nodes are available: 1 Insufficient example.com/foo, 1 Insufficient hugepages-2Mi. ${NOT_HELPFUL(1)}`,
    ],
    [
      'Too many pods even when requesting nothing',
      [node('n1', { pods: '1' }), pod('a', { node: 'n1' })],
      pod('web'),
      '1.35',
      '0/1 nodes are available: 1 Too many pods. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    ],
  ])('%s', (_n, objects, incoming, k8sVersion, want) => {
    expect(messageOf(objects, incoming, { k8sVersion, draEnabled: false })).toBe(want);
  });
  it('equality fits', () => {
    expect(placeOf([node('n1', { cpu: '2' }), pod('a', { node: 'n1', cpu: '1' })], pod('web', { cpu: '1' }))).toBe(
      'n1',
    );
  });
  it('memory is compared in bytes rounded up: 1.5Gi fits a 1536Mi hole', () => {
    expect(
      placeOf(
        [node('n1', { memory: '2Gi' }), pod('a', { node: 'n1', memory: '512Mi' })],
        pod('web', { memory: '1.5Gi' }),
      ),
    ).toBe('n1');
  });
});

describe('VolumeBinding', () => {
  // A claim with spec.volumeName is bound only with the PV controller's bind-completed annotation
  // (binder.go isPVCFullyBound); `half: true` leaves it out.
  const pvc = (name: string, spec: Record<string, unknown>, half = false): KObject => ({
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace: 'default',
      ...(spec.volumeName && !half ? { annotations: { 'pv.kubernetes.io/bind-completed': 'yes' } } : {}),
    },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
  });
  const pv = (name: string, zone: string, claim?: string): KObject => ({
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      capacity: { storage: '1Gi' },
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'local',
      ...(claim ? { claimRef: { namespace: 'default', name: claim } } : {}),
      nodeAffinity: {
        required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: [zone] }] }] },
      },
    },
    status: { phase: claim ? 'Bound' : 'Available' },
  });
  const sc = (name: string, mode: string, provisioner = 'kubernetes.io/no-provisioner'): KObject => ({
    kind: 'StorageClass',
    metadata: { name },
    provisioner,
    volumeBindingMode: mode,
  });
  const nodes = [node('a', { labels: { zone: 'a' } }), node('b', { labels: { zone: 'b' } })];
  const web = pod('db', { volumes: [{ name: 'data', claimName: 'data' }] });

  it.each([
    ['missing claim', [], '1.35', `0/2 nodes are available: persistentvolumeclaim "data" not found. ${NOT_HELPFUL(2)}`],
    [
      'unbound immediate claim',
      [pvc('data', {})],
      '1.35',
      `0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${NOT_HELPFUL(2)}`,
    ],
    [
      'bound PV in another zone (1.33+)',
      [pvc('data', { volumeName: 'pv-c', storageClassName: 'local' }), pv('pv-c', 'c', 'data')],
      '1.35',
      `0/2 nodes are available: 2 node(s) didn't match PersistentVolume's node affinity. ${NOT_HELPFUL(2)}`,
    ],
    [
      'bound PV in another zone (1.32)',
      [pvc('data', { volumeName: 'pv-c', storageClassName: 'local' }), pv('pv-c', 'c', 'data')],
      '1.32',
      `0/2 nodes are available: 2 node(s) had volume node affinity conflict. ${NOT_HELPFUL(2)}`,
    ],
    [
      // VolumeZone's PreFilter (after VolumeBinding's) looks the PV up first: the lister's NotFound text.
      'bound to a missing PV',
      [pvc('data', { volumeName: 'gone' })],
      '1.35',
      `0/2 nodes are available: persistentvolume "gone" not found. ${NOT_HELPFUL(2)}`,
    ],
    [
      'volumeName set but binding not completed (no bind-completed annotation)',
      [pvc('data', { volumeName: 'pv-c', storageClassName: 'local' }, true), pv('pv-c', 'c', 'data')],
      '1.35',
      `0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${NOT_HELPFUL(2)}`,
    ],
    [
      'WaitForFirstConsumer claim pre-bound but not completed counts as immediate',
      [
        pvc('data', { volumeName: 'pv-c', storageClassName: 'local' }, true),
        sc('local', 'WaitForFirstConsumer'),
        pv('pv-c', 'c', 'data'),
      ],
      '1.35',
      `0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${NOT_HELPFUL(2)}`,
    ],
    [
      'Lost claim',
      [{ ...pvc('data', { volumeName: 'pv-c' }), status: { phase: 'Lost' } }],
      '1.35',
      `0/2 nodes are available: persistentvolumeclaim "data" bound to non-existent persistentvolume "pv-c". ${NOT_HELPFUL(2)}`,
    ],
    [
      'WaitForFirstConsumer without a matching local PV',
      [pvc('data', { storageClassName: 'local' }), sc('local', 'WaitForFirstConsumer'), pv('pv-c', 'c')],
      '1.35',
      `0/2 nodes are available: 2 node(s) didn't find available persistent volumes to bind. ${NOT_HELPFUL(2)}`,
    ],
  ])('%s', (_n, objects, k8sVersion, want) => {
    expect(messageOf([...nodes, ...objects], web, { k8sVersion, draEnabled: false })).toBe(want);
  });
  it('WaitForFirstConsumer picks the node of an available local PV', () => {
    expect(
      placeOf(
        [...nodes, pvc('data', { storageClassName: 'local' }), sc('local', 'WaitForFirstConsumer'), pv('pv-b', 'b')],
        web,
      ),
    ).toBe('b');
  });
  it('WaitForFirstConsumer with a provisioner fits anywhere', () => {
    expect(
      placeOf(
        [...nodes, pvc('data', { storageClassName: 'csi' }), sc('csi', 'WaitForFirstConsumer', 'ebs.csi.aws.com')],
        web,
      ),
    ).toBe('a');
  });
});

describe('PodTopologySpread', () => {
  const zones = [node('a1', { labels: { zone: 'a' } }), node('b1', { labels: { zone: 'b' } }), node('nz')];
  const spread = (o: { maxSkew?: number; minDomains?: number } = {}) => [
    {
      maxSkew: o.maxSkew ?? 1,
      topologyKey: 'zone',
      whenUnsatisfiable: 'DoNotSchedule',
      labelSelector: { matchLabels: { app: 'web' } },
      ...(o.minDomains ? { minDomains: o.minDomains } : {}),
    },
  ];
  const existing = [
    pod('w1', { node: 'a1', labels: { app: 'web' } }),
    pod('other-ns', { node: 'b1', namespace: 'x', labels: { app: 'web' } }),
  ];
  it('skew: zone a has 1, zone b 0 → only b fits; the unlabelled node is unresolvable', () => {
    const r = schedulePod(
      snapshotOf(...zones, ...existing),
      pod('w2', { labels: { app: 'web' }, topologySpreadConstraints: spread() }),
    );
    expect(r.node).toBe('b1');
    expect(r.nodeStatuses.get('a1')).toEqual({
      plugin: 'PodTopologySpread',
      code: 'unschedulable',
      reasons: ["node(s) didn't match pod topology spread constraints"],
    });
    expect(r.nodeStatuses.get('nz')!.reasons).toEqual([
      "node(s) didn't match pod topology spread constraints (missing required label)",
    ]);
  });
  it('minDomains above the domain count makes the global minimum 0', () => {
    const objs = [...zones, ...existing, pod('w0', { node: 'b1', labels: { app: 'web' } })];
    expect(
      messageOf(objs, pod('w2', { labels: { app: 'web' }, topologySpreadConstraints: spread({ minDomains: 3 }) })),
    ).toBe(
      "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), 2 node(s) didn't match pod topology spread constraints. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
    );
  });
  it('nodeAffinityPolicy Honor: nodes the pod cannot use do not form domains', () => {
    // Only zone a is selectable; zone b (0 pods) is not a domain, so the minimum is zone a's own count.
    expect(
      placeOf(
        [...zones, ...existing],
        pod('w2', { labels: { app: 'web' }, nodeSelector: { zone: 'a' }, topologySpreadConstraints: spread() }),
      ),
    ).toBe('a1');
  });
});

describe('InterPodAffinity', () => {
  const nodes = [node('a1', { labels: { zone: 'a' } }), node('b1', { labels: { zone: 'b' } })];
  const term = (matchLabels: Record<string, string>, extra: Record<string, unknown> = {}) => ({
    labelSelector: { matchLabels },
    topologyKey: 'zone',
    ...extra,
  });
  it('required affinity: goes next to a matching pod', () => {
    expect(
      placeOf(
        [...nodes, pod('db', { node: 'b1', labels: { app: 'db' } })],
        pod('web', {
          affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'db' })] } },
        }),
      ),
    ).toBe('b1');
  });
  it('required affinity with no match anywhere: unresolvable', () => {
    expect(
      messageOf(
        nodes,
        pod('web', {
          affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'db' })] } },
        }),
      ),
    ).toBe(`0/2 nodes are available: 2 node(s) didn't match pod affinity rules. ${NOT_HELPFUL(2)}`);
  });
  it('the first pod of a self-affine group may go anywhere', () => {
    expect(
      placeOf(
        nodes,
        pod('web', {
          labels: { app: 'web' },
          affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'web' })] } },
        }),
      ),
    ).toBe('a1');
  });
  it('anti-affinity: Unschedulable, preemption sees no victims', () => {
    const objs = [
      ...nodes,
      pod('w1', { node: 'a1', labels: { app: 'web' } }),
      pod('w2', { node: 'b1', labels: { app: 'web' } }),
    ];
    expect(
      messageOf(
        objs,
        pod('w3', {
          labels: { app: 'web' },
          affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'web' })] } },
        }),
      ),
    ).toBe(
      "0/2 nodes are available: 2 node(s) didn't match pod anti-affinity rules. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
    );
  });
  it("existing pods' anti-affinity", () => {
    const guard = pod('guard', {
      node: 'a1',
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'web' })] } },
    });
    const r = schedulePod(snapshotOf(...nodes, guard), pod('web', { labels: { app: 'web' } }));
    expect(r.node).toBe('b1');
    expect(r.nodeStatuses.get('a1')!.reasons).toEqual(["node(s) didn't satisfy existing pods anti-affinity rules"]);
  });
  it('namespaceSelector uses Namespace labels; default is the own namespace', () => {
    const ns: KObject = { kind: 'Namespace', metadata: { name: 'data', labels: { team: 'db' } } };
    const objs = [...nodes, ns, pod('db', { node: 'b1', namespace: 'data', labels: { app: 'db' } })];
    const own = pod('web', {
      affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'db' })] } },
    });
    expect(placeOf(objs, own)).toBeNull();
    const bySelector = pod('web', {
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            term({ app: 'db' }, { namespaceSelector: { matchLabels: { team: 'db' } } }),
          ],
        },
      },
    });
    expect(placeOf(objs, bySelector)).toBe('b1');
    const byName = pod('web', {
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'db' }, { namespaces: ['data'] })],
        },
      },
    });
    expect(placeOf(objs, byName)).toBe('b1');
  });
  it('before 1.22 the generic reason came first', () => {
    expect(
      messageOf(
        nodes,
        pod('web', {
          affinity: { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term({ app: 'db' })] } },
        }),
        { k8sVersion: '1.21' },
      ),
    ).toBe(
      "0/2 nodes are available: 2 node(s) didn't match pod affinity rules, 2 node(s) didn't match pod affinity/anti-affinity.",
    );
  });
});
