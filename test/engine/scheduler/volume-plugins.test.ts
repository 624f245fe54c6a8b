/**
 * VolumeRestrictions, VolumeZone, NodeVolumeLimits and VolumeBinding, table-driven, rows ported from
 * their upstream test files (v1.35; each table names its file and test function, each row keeps the
 * upstream row name). Each plugin runs alone (`plugins: [X]`, DRA off) through a whole attempt so the
 * assertion is the exact FailedScheduling text, or through the default list where the interplay of the
 * PreFilters is the point.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../src/k8s/objects.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { schedulePod, type ScheduleOptions } from '../../../src/engine/scheduler/schedule.ts';
import type { SchedulerPlugin } from '../../../src/engine/scheduler/plugin.ts';
import { NodeVolumeLimits } from '../../../src/engine/scheduler/plugins/node-volume-limits.ts';
import { VolumeBinding } from '../../../src/engine/scheduler/plugins/volume-binding.ts';
import {
  ERR_REASON_DISK_CONFLICT,
  ERR_REASON_RWOP_CONFLICT,
  VolumeRestrictions,
} from '../../../src/engine/scheduler/plugins/volume-restrictions.ts';
import { labelZonesToSet, VolumeZone } from '../../../src/engine/scheduler/plugins/volume-zone.ts';
import { projectObject } from '../../../src/cluster/projection.ts';
import { node, pod, snapshotOf } from '../../support/builders.ts';

const NOT_HELPFUL = (n: number) =>
  `preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;
const NO_VICTIMS = (n: number) =>
  `preemption: 0/${n} nodes are available: ${n} No preemption victims found for incoming pod.`;

function run(objects: KObject[], incoming: Pod, plugins?: readonly SchedulerPlugin[], extra: ScheduleOptions = {}) {
  return schedulePod(snapshotOf(...objects), incoming, {
    draEnabled: false,
    ...(plugins ? { plugins } : {}),
    ...extra,
  });
}

/** A pod with raw volumes (inline disks, claims). */
function withVolumes(name: string, volumes: Array<Record<string, unknown>>, o: { node?: string } = {}): Pod {
  const p = pod(name, o.node ? { node: o.node } : {});
  p.spec.volumes = volumes.map((v, i) => ({ name: `v${i}`, ...v }));
  return p;
}
const claimVol = (claimName: string) => ({ persistentVolumeClaim: { claimName } });

function claim(name: string, spec: Record<string, unknown> = {}, annotations?: Record<string, string>): KObject {
  const bound = typeof spec.volumeName === 'string' && spec.volumeName !== '';
  return {
    kind: 'PersistentVolumeClaim',
    metadata: {
      name,
      namespace: 'default',
      ...(annotations || bound
        ? { annotations: { ...(bound ? { 'pv.kubernetes.io/bind-completed': 'yes' } : {}), ...annotations } }
        : {}),
    },
    spec,
  };
}
function volume(name: string, labels: Record<string, string> = {}, spec: Record<string, unknown> = {}): KObject {
  return { kind: 'PersistentVolume', metadata: { name, labels }, spec };
}

describe('VolumeRestrictions (volumerestrictions/volume_restrictions_test.go)', () => {
  const gce = { gcePersistentDisk: { pdName: 'foo' } };
  const gce2 = { gcePersistentDisk: { pdName: 'bar' } };
  const aws = { awsElasticBlockStore: { volumeID: 'foo' } };
  const aws2 = { awsElasticBlockStore: { volumeID: 'bar' } };
  const rbd = { rbd: { monitors: ['a', 'b'], pool: 'foo', image: 'bar', fsType: 'ext4' } };
  const rbd2 = { rbd: { monitors: ['c', 'd'], pool: 'foo', image: 'bar', fsType: 'ext4' } };
  const iscsi = { iscsi: { targetPortal: '127.0.0.1:3260', iqn: 'iqn.2016-12.server:storage.target01', lun: 0 } };
  const iscsi2 = { iscsi: { targetPortal: '127.0.0.1:3260', iqn: 'iqn.2017-12.server:storage.target01', lun: 0 } };
  const conflict = `0/1 nodes are available: 1 ${ERR_REASON_DISK_CONFLICT}. ${NO_VICTIMS(1)}`;
  it.each([
    ['TestGCEDiskConflicts one state', [], [gce], null],
    ['TestGCEDiskConflicts same state', [gce], [gce], conflict],
    ['TestGCEDiskConflicts different state', [gce2], [gce], null],
    [
      'TestGCEDiskConflicts both read-only',
      [{ gcePersistentDisk: { pdName: 'foo', readOnly: true } }],
      [{ gcePersistentDisk: { pdName: 'foo', readOnly: true } }],
      null,
    ],
    ['TestAWSDiskConflicts same state', [aws], [aws], conflict],
    ['TestAWSDiskConflicts different state', [aws2], [aws], null],
    ['TestRBDDiskConflicts same state', [rbd], [rbd], conflict],
    ['TestRBDDiskConflicts different state (no monitor overlap)', [rbd2], [rbd], null],
    ['TestISCSIDiskConflicts same state', [iscsi], [iscsi], conflict],
    ['TestISCSIDiskConflicts different state', [iscsi2], [iscsi], null],
  ])('%s', (_n, existing, incoming, want) => {
    const objects: KObject[] = [node('n1')];
    if (existing.length > 0) objects.push(withVolumes('old', existing, { node: 'n1' }));
    const r = run(objects, withVolumes('new', incoming), [VolumeRestrictions]);
    expect(r.message).toBe(want);
    expect(r.scheduled).toBe(want === null);
  });

  const rwop = (name: string) => claim(name, { accessModes: ['ReadWriteOncePod'] });
  const rwx = claim('claim-with-rwx', { accessModes: ['ReadWriteMany'] });
  it.each([
    [
      'TestAccessModeConflicts failed to get PVC',
      [],
      ['claim-with-rwop-1'],
      `0/1 nodes are available: persistentvolumeclaim "claim-with-rwop-1" not found. ${NOT_HELPFUL(1)}`,
    ],
    [
      'TestAccessModeConflicts no access mode conflict',
      [rwop('claim-with-rwop-1'), rwx, withVolumes('pod-with-rwx', [claimVol('claim-with-rwx')], { node: 'n1' })],
      ['claim-with-rwop-1'],
      null,
    ],
    [
      'TestAccessModeConflicts access mode conflict, unschedulable',
      [
        rwop('claim-with-rwop-1'),
        rwx,
        withVolumes('pod-with-one-pvc', [claimVol('claim-with-rwop-1')], { node: 'n1' }),
      ],
      ['claim-with-rwop-1'],
      `0/1 nodes are available: 1 ${ERR_REASON_RWOP_CONFLICT}. ${NO_VICTIMS(1)}`,
    ],
    [
      'TestAccessModeConflicts two conflicts, unschedulable',
      [
        rwop('claim-with-rwop-1'),
        rwop('claim-with-rwop-2'),
        withVolumes('pod-with-two-pvcs', [claimVol('claim-with-rwop-1'), claimVol('claim-with-rwop-2')], {
          node: 'n1',
        }),
      ],
      ['claim-with-rwop-1', 'claim-with-rwop-2'],
      `0/1 nodes are available: 1 ${ERR_REASON_RWOP_CONFLICT}. ${NO_VICTIMS(1)}`,
    ],
  ])('%s', (_n, objects, claims, want) => {
    const r = run([node('n1'), ...objects], withVolumes('new', claims.map(claimVol)), [VolumeRestrictions]);
    expect(r.message).toBe(want);
  });

  it('a ReadWriteOncePod claim in use on another node blocks every node (cluster-wide)', () => {
    const r = run(
      [node('n1'), node('n2'), rwop('data'), withVolumes('holder', [claimVol('data')], { node: 'n2' })],
      withVolumes('new', [claimVol('data')]),
      [VolumeRestrictions],
    );
    expect(r.message).toBe(`0/2 nodes are available: 2 ${ERR_REASON_RWOP_CONFLICT}. ${NO_VICTIMS(2)}`);
  });

  it('preempting the lower-priority holder frees the claim: the pod is nominated (AddPod/RemovePod)', () => {
    const holder = withVolumes('holder', [claimVol('data')], { node: 'n2' });
    const incoming = withVolumes('new', [claimVol('data')]);
    incoming.spec.priority = 100;
    const r = run([node('n1'), node('n2'), rwop('data'), holder], incoming, [VolumeRestrictions]);
    expect(r.scheduled).toBe(false);
    expect(r.nominatedNode).toBe('n2');
    expect(r.victims).toEqual(['default/holder']);
  });
});

describe('VolumeZone (volumezone/volume_zone_test.go)', () => {
  const BZ = 'failure-domain.beta.kubernetes.io/zone';
  const BR = 'failure-domain.beta.kubernetes.io/region';
  const Z = 'topology.kubernetes.io/zone';
  const R = 'topology.kubernetes.io/region';
  const pvs = [
    volume('Vol_1', { [BZ]: 'us-west1-a' }),
    volume('Vol_2', { [BR]: 'us-west1', uselessLabel: 'none' }),
    volume('Vol_Stable_1', { [Z]: 'us-west1-a' }),
    volume('Vol_Stable_2', { [R]: 'us-west1', uselessLabel: 'none' }),
    volume('Vol_Stable_3', { [Z]: 'us-west1-a', [R]: 'us-west1-a' }),
    volume('Vol_Multi', { [BZ]: 'us-west1-c__us-west1-a' }),
    volume('Vol_Stable_Multi', { [Z]: 'us-west1-c__us-west1-a' }),
  ];
  const pvcs = [
    claim('PVC_1', { volumeName: 'Vol_1' }),
    claim('PVC_2', { volumeName: 'Vol_2' }),
    claim('PVC_Stable_1', { volumeName: 'Vol_Stable_1' }),
    claim('PVC_Stable_2', { volumeName: 'Vol_Stable_2' }),
    claim('PVC_Stable_3', { volumeName: 'Vol_Stable_3' }),
    claim('PVC_3', { volumeName: 'Vol_Multi' }),
    claim('PVC_Stable_Multi', { volumeName: 'Vol_Stable_Multi' }),
    claim('PVC_4', { volumeName: 'Vol_not_exist' }),
    claim('PVC_EmptySC'),
    claim('PVC_NoSC', { storageClassName: 'Class_0' }),
    claim('PVC_WaitSC', { storageClassName: 'Class_Wait' }),
    claim('PVC_ImmediateSC', { storageClassName: 'Class_Immediate' }),
  ];
  const classes: KObject[] = [
    { kind: 'StorageClass', metadata: { name: 'Class_Immediate' }, provisioner: 'x', volumeBindingMode: 'Immediate' },
    {
      kind: 'StorageClass',
      metadata: { name: 'Class_Wait' },
      provisioner: 'x',
      volumeBindingMode: 'WaitForFirstConsumer',
    },
  ];
  const conflict = `0/1 nodes are available: 1 node(s) had no available volume zone. ${NOT_HELPFUL(1)}`;
  const pre = (m: string) => `0/1 nodes are available: ${m}. ${NOT_HELPFUL(1)}`;
  it.each([
    ['TestSingleZone pod without volume', null, { [BZ]: 'us-west1-a' }, null],
    ['TestSingleZone node without labels', 'PVC_1', {}, null],
    ['TestSingleZone beta zone label matched', 'PVC_1', { [BZ]: 'us-west1-a', uselessLabel: 'none' }, null],
    ['TestSingleZone beta region label matched', 'PVC_2', { [BR]: 'us-west1', uselessLabel: 'none' }, null],
    [
      "TestSingleZone beta region label doesn't match",
      'PVC_2',
      { [BR]: 'no_us-west1', uselessLabel: 'none' },
      conflict,
    ],
    [
      "TestSingleZone beta zone label doesn't match",
      'PVC_1',
      { [BZ]: 'no_us-west1-a', uselessLabel: 'none' },
      conflict,
    ],
    ['TestSingleZone zone label matched', 'PVC_Stable_1', { [Z]: 'us-west1-a', uselessLabel: 'none' }, null],
    ['TestSingleZone region label matched', 'PVC_Stable_2', { [R]: 'us-west1', uselessLabel: 'none' }, null],
    [
      "TestSingleZone region label doesn't match",
      'PVC_Stable_2',
      { [R]: 'no_us-west1', uselessLabel: 'none' },
      conflict,
    ],
    [
      "TestSingleZone zone label doesn't match",
      'PVC_Stable_1',
      { [Z]: 'no_us-west1-a', uselessLabel: 'none' },
      conflict,
    ],
    ['TestSingleZone pv with zone and region, node with only zone', 'PVC_Stable_3', { [Z]: 'us-west1-a' }, conflict],
    ['TestSingleZone pv with zone,node with beta zone', 'PVC_Stable_1', { [BZ]: 'us-west1-a' }, conflict],
    ['TestSingleZone pv with beta label,node with ga label, matched', 'PVC_1', { [Z]: 'us-west1-a' }, null],
    ["TestSingleZone pv with beta label,node with ga label, don't match", 'PVC_1', { [Z]: 'us-west1-b' }, conflict],
    ['TestMultiZone beta zone label matched', 'PVC_3', { [BZ]: 'us-west1-a', uselessLabel: 'none' }, null],
    ["TestMultiZone beta zone label doesn't match", 'PVC_1', { [BZ]: 'us-west1-b', uselessLabel: 'none' }, conflict],
    ['TestMultiZone zone label matched', 'PVC_Stable_Multi', { [Z]: 'us-west1-a', uselessLabel: 'none' }, null],
    ['TestWithBinding label zone failure domain matched', 'PVC_1', { [BZ]: 'us-west1-a' }, null],
    [
      'TestWithBinding unbound volume empty storage class',
      'PVC_EmptySC',
      { [BZ]: 'us-west1-a' },
      pre('PersistentVolumeClaim had no pv name and storageClass name'),
    ],
    // Upstream's fake lister prints `storageclasses.storage.k8s.io`; the informer's lister (what a
    // running scheduler uses) names the resource in the singular.
    [
      'TestWithBinding unbound volume no storage class',
      'PVC_NoSC',
      { [BZ]: 'us-west1-a' },
      pre('storageclass.storage.k8s.io "Class_0" not found'),
    ],
    [
      'TestWithBinding unbound volume immediate binding mode',
      'PVC_ImmediateSC',
      { [BZ]: 'us-west1-a' },
      pre('PersistentVolume had no name'),
    ],
    ['TestWithBinding unbound volume wait binding mode', 'PVC_WaitSC', { [BZ]: 'us-west1-a' }, null],
    [
      'PV not found (lister NotFound)',
      'PVC_4',
      { [BZ]: 'us-west1-a' },
      pre('persistentvolume "Vol_not_exist" not found'),
    ],
  ])('%s', (_n, claimName, labels, want) => {
    const incoming = claimName ? withVolumes('pod_1', [claimVol(claimName)]) : pod('pod_1');
    const host = node('host1', { labels });
    delete host.metadata.labels!['kubernetes.io/hostname'];
    const r = run([host, ...pvs, ...pvcs, ...classes], incoming, [VolumeZone]);
    expect(r.message).toBe(want);
  });

  it.each([
    ['us-west1-a', ['us-west1-a']],
    ['us-west1-c__us-west1-a', ['us-west1-c', 'us-west1-a']],
    [' a __ b ', ['a', 'b']],
    ['a____b', null],
  ])('LabelZonesToSet(%j)', (value, want) => {
    const got = labelZonesToSet(value);
    expect(got === null ? null : [...got]).toEqual(want);
  });
});

describe('NodeVolumeLimits (nodevolumelimits/csi_test.go TestCSILimits)', () => {
  const ebsDriver = 'ebs.csi.aws.com';
  const csiNode = (name: string, drivers: Array<{ name: string; count?: number }>): KObject => ({
    kind: 'CSINode',
    metadata: { name },
    spec: {
      drivers: drivers.map((d) => ({
        name: d.name,
        nodeID: name,
        ...(d.count !== undefined ? { allocatable: { count: d.count } } : {}),
      })),
    },
  });
  const csiPV = (name: string, driver: string, handle: string) =>
    volume(name, {}, { csi: { driver, volumeHandle: handle } });
  const pvcs = [
    claim('csi-ebs.csi.aws.com-0', { volumeName: 'csi-ebs-0' }),
    claim('csi-ebs.csi.aws.com-1', { volumeName: 'csi-ebs-1' }),
    claim('csi-ebs.csi.aws.com-2', { volumeName: 'csi-ebs-2' }),
    claim('csi-ebs.csi.aws.com-3', { volumeName: 'csi-ebs-3' }),
    claim('csi-other-0', { volumeName: 'csi-other-0' }),
    claim('unbound-ebs', { storageClassName: 'csi-sc' }),
    claim('inline-ebs-pv', { volumeName: 'intree-ebs-0' }),
  ];
  const pvs = [
    csiPV('csi-ebs-0', ebsDriver, 'vol-0'),
    csiPV('csi-ebs-1', ebsDriver, 'vol-1'),
    csiPV('csi-ebs-2', ebsDriver, 'vol-2'),
    csiPV('csi-ebs-3', ebsDriver, 'vol-3'),
    csiPV('csi-other-0', 'other.csi.example.com', 'o-0'),
    volume('intree-ebs-0', {}, { awsElasticBlockStore: { volumeID: 'aws://us-east-1a/vol-9' } }),
  ];
  const sc: KObject = {
    kind: 'StorageClass',
    metadata: { name: 'csi-sc' },
    provisioner: ebsDriver,
    volumeBindingMode: 'WaitForFirstConsumer',
  };
  const exceed = `0/1 nodes are available: 1 node(s) exceed max volume count. ${NO_VICTIMS(1)}`;
  const existingOn = (name: string, claims: string[]) => withVolumes(name, claims.map(claimVol), { node: 'node-1' });
  it.each([
    [
      'fits when the driver is under its limit',
      [existingOn('e0', ['csi-ebs.csi.aws.com-0'])],
      ['csi-ebs.csi.aws.com-1'],
      [{ name: ebsDriver, count: 2 }],
      null,
    ],
    [
      "doesn't when node volume limit <= pods CSI volume",
      [existingOn('e0', ['csi-ebs.csi.aws.com-0', 'csi-ebs.csi.aws.com-1'])],
      ['csi-ebs.csi.aws.com-2'],
      [{ name: ebsDriver, count: 2 }],
      exceed,
    ],
    [
      'should count pending PVCs (unbound claim of a CSI class)',
      [existingOn('e0', ['csi-ebs.csi.aws.com-0'])],
      ['unbound-ebs'],
      [{ name: ebsDriver, count: 1 }],
      exceed,
    ],
    [
      'should not count a volume shared with a pod on the node',
      [existingOn('e0', ['csi-ebs.csi.aws.com-0'])],
      ['csi-ebs.csi.aws.com-0'],
      [{ name: ebsDriver, count: 1 }],
      null,
    ],
    [
      'should count volumes of other drivers separately',
      [existingOn('e0', ['csi-ebs.csi.aws.com-0'])],
      ['csi-other-0'],
      [
        { name: ebsDriver, count: 1 },
        { name: 'other.csi.example.com', count: 1 },
      ],
      null,
    ],
    [
      'no limit when CSINode has no allocatable count',
      [existingOn('e0', ['csi-ebs.csi.aws.com-0', 'csi-ebs.csi.aws.com-1'])],
      ['csi-ebs.csi.aws.com-2'],
      [{ name: ebsDriver }],
      null,
    ],
    [
      'two new volumes over the limit at once',
      [],
      ['csi-ebs.csi.aws.com-0', 'csi-ebs.csi.aws.com-1', 'csi-ebs.csi.aws.com-2'],
      [{ name: ebsDriver, count: 2 }],
      exceed,
    ],
    [
      'in-tree EBS PV counts as the migrated CSI driver',
      [existingOn('e0', ['csi-ebs.csi.aws.com-0'])],
      ['inline-ebs-pv'],
      [{ name: ebsDriver, count: 1 }],
      exceed,
    ],
  ])('%s', (_n, existing, claims, drivers, want) => {
    const r = run(
      [node('node-1'), csiNode('node-1', drivers), sc, ...pvcs, ...pvs, ...existing],
      withVolumes('new', claims.map(claimVol)),
      [NodeVolumeLimits],
    );
    expect(r.message).toBe(want);
  });

  it('without a CSINode the in-tree EBS PV is not migrated, and the node allocatable key still limits CSI', () => {
    const objects = [
      node('node-1', { allocatable: { 'attachable-volumes-csi-ebs.csi.aws.com': '1' } }),
      ...pvcs,
      ...pvs,
      existingOn('e0', ['csi-ebs.csi.aws.com-0']),
    ];
    expect(run(objects, withVolumes('a', [claimVol('inline-ebs-pv')]), [NodeVolumeLimits]).scheduled).toBe(true);
    expect(run(objects, withVolumes('b', [claimVol('csi-ebs.csi.aws.com-1')]), [NodeVolumeLimits]).message).toBe(
      exceed,
    );
  });

  it('a missing claim of the new pod is UnschedulableAndUnresolvable with the lookup text', () => {
    const r = run(
      [node('node-1'), csiNode('node-1', [{ name: ebsDriver, count: 1 }])],
      withVolumes('new', [claimVol('gone')]),
      [NodeVolumeLimits],
    );
    expect(r.message).toBe(
      `0/1 nodes are available: 1 looking up PVC default/gone: persistentvolumeclaim "gone" not found. ${NOT_HELPFUL(1)}`,
    );
  });
});

describe('VolumeBinding (volumebinding/volume_binding_test.go TestVolumeBinding, binder.go)', () => {
  const immediate: KObject = {
    kind: 'StorageClass',
    metadata: { name: 'immediate-sc' },
    provisioner: 'p',
    volumeBindingMode: 'Immediate',
  };
  const wait: KObject = {
    kind: 'StorageClass',
    metadata: { name: 'wait-sc' },
    provisioner: 'kubernetes.io/no-provisioner',
    volumeBindingMode: 'WaitForFirstConsumer',
  };
  const hostPV = (name: string, hosts: string[]) =>
    volume(
      name,
      {},
      {
        storageClassName: 'wait-sc',
        capacity: { storage: '1Gi' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: hosts }] },
            ],
          },
        },
      },
    );
  const nodes = [node('node-a'), node('node-b'), node('node-c')];
  it.each([
    [
      'pod has not bound PVCs (immediate)',
      [immediate, claim('pvc-a', { storageClassName: 'immediate-sc' })],
      ['pvc-a'],
      `0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${NOT_HELPFUL(3)}`,
    ],
    [
      'PVC does not exist',
      [],
      ['pvc-a'],
      `0/3 nodes are available: persistentvolumeclaim "pvc-a" not found. ${NOT_HELPFUL(3)}`,
    ],
    [
      'local volumes with node affinity narrow the nodes (GetEligibleNodes)',
      [wait, claim('pvc-a', { storageClassName: 'wait-sc', volumeName: 'pv-a' }), hostPV('pv-a', ['node-a'])],
      ['pvc-a'],
      null,
    ],
    [
      'local volumes pinned to different nodes: no node left',
      [
        wait,
        claim('pvc-a', { storageClassName: 'wait-sc', volumeName: 'pv-a' }),
        claim('pvc-b', { storageClassName: 'wait-sc', volumeName: 'pv-b' }),
        hostPV('pv-a', ['node-a']),
        hostPV('pv-b', ['node-b']),
      ],
      ['pvc-a', 'pvc-b'],
      `0/3 nodes are available: node(s) didn't satisfy plugin VolumeBinding. ${NOT_HELPFUL(3)}`,
    ],
    [
      'a missing StorageClass counts as Immediate (IsDelayBindingMode)',
      [claim('pvc-a', { storageClassName: 'nope' })],
      ['pvc-a'],
      `0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. ${NOT_HELPFUL(3)}`,
    ],
  ])('%s', (_n, objects, claims, want) => {
    const r = run([...nodes, ...objects], withVolumes('pod-a', claims.map(claimVol)), [VolumeBinding]);
    expect(r.message).toBe(want);
  });

  it('the narrowing: a local PV on node-a schedules there, the other nodes are absent', () => {
    const r = run(
      [...nodes, wait, claim('pvc-a', { storageClassName: 'wait-sc', volumeName: 'pv-a' }), hostPV('pv-a', ['node-a'])],
      withVolumes('pod-a', [claimVol('pvc-a')]),
    );
    expect(r.node).toBe('node-a');
  });

  it('nodes outside the narrowing report the absent-node reason next to the filter reasons', () => {
    const full = node('node-a', { cpu: '1' });
    const p = withVolumes('pod-a', [claimVol('pvc-a')]);
    p.spec.containers[0]!.resources = { requests: { cpu: '2' } };
    const r = run(
      [
        full,
        node('node-b'),
        node('node-c'),
        wait,
        claim('pvc-a', { storageClassName: 'wait-sc', volumeName: 'pv-a' }),
        hostPV('pv-a', ['node-a']),
      ],
      p,
    );
    expect(r.message).toBe(
      `0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [VolumeBinding]. ${NOT_HELPFUL(3)}`,
    );
  });

  it('an ephemeral volume claim not owned by the pod', () => {
    const p = pod('pod-a');
    p.spec.volumes = [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } }];
    const r = run([node('node-a'), claim('pod-a-scratch', {})], p, [VolumeBinding]);
    expect(r.message).toBe(
      `0/1 nodes are available: PVC default/pod-a-scratch was not created for pod default/pod-a (pod is not owner). ${NOT_HELPFUL(1)}`,
    );
  });
});

describe('the live cache keeps what the volume plugins read (cluster/projection.ts)', () => {
  it('inline disks and generic ephemeral volumes survive the pod projection; other sources do not', () => {
    const raw = withVolumes(
      'old',
      [
        { gcePersistentDisk: { pdName: 'foo' } },
        { ephemeral: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '1Gi' } } } } } },
        { configMap: { name: 'cfg' } },
        claimVol('data'),
      ],
      { node: 'n1' },
    );
    const projected = projectObject('Pod', raw) as Pod;
    expect(projected.spec.volumes).toEqual([
      { name: 'v0', gcePersistentDisk: { pdName: 'foo' } },
      { name: 'v1', ephemeral: {} },
      { name: 'v3', persistentVolumeClaim: { claimName: 'data' } },
    ]);
    const r = run([node('n1'), projected], withVolumes('new', [{ gcePersistentDisk: { pdName: 'foo' } }]), [
      VolumeRestrictions,
    ]);
    expect(r.message).toBe(`0/1 nodes are available: 1 ${ERR_REASON_DISK_CONFLICT}. ${NO_VICTIMS(1)}`);
  });
});
