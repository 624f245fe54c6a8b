/**
 * Ported from plugin/pkg/admission/storage/persistentvolume/resize/admission_test.go TestPVCResizeAdmission and
 * plugin/pkg/admission/storage/storageclass/setdefault/admission_test.go TestAdmission (v1.35).
 */
import { describe, expect, it } from 'vitest';
import type { PersistentVolumeClaim, StorageClass } from '../../../src/k8s/objects.ts';
import { Snapshot } from '../../../src/k8s/snapshot.ts';
import { validatePVCResize } from '../../../src/engine/admission/persistentvolumeclaimresize.ts';
import { admitDefaultStorageClass } from '../../../src/engine/admission/defaultstorageclass.ts';

const sc = (name: string, extra: Partial<StorageClass> = {}): StorageClass => ({
  kind: 'StorageClass',
  metadata: { name },
  provisioner: 'kubernetes.io/glusterfs',
  ...extra,
});
const claim = (size: string, cls: string, phase = 'Bound'): PersistentVolumeClaim => ({
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'claim1', namespace: 'default' },
  spec: { volumeName: 'volume1', resources: { requests: { storage: size } }, storageClassName: cls },
  status: { phase, capacity: { storage: size } },
});
const state = (...classes: StorageClass[]) => {
  const s = new Snapshot();
  for (const c of classes) s.put(c);
  return s;
};
const goldClass = sc('gold', { allowVolumeExpansion: true });
const silverClass = sc('silver', { allowVolumeExpansion: false });
const NOT_EXPANDABLE =
  'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

describe('PersistentVolumeClaimResize (resize/admission_test.go TestPVCResizeAdmission)', () => {
  it.each<[string, PersistentVolumeClaim, PersistentVolumeClaim, string | null]>([
    ['pvc-resize, update, no error', claim('1Gi', 'gold'), claim('2Gi', 'gold'), null],
    ["size decrease is not this plugin's business", claim('2Gi', 'gold'), claim('1Gi', 'gold'), null],
    ['no change', claim('1Gi', 'silver'), claim('1Gi', 'silver'), null],
    ['storage class does not allow expansion', claim('1Gi', 'silver'), claim('2Gi', 'silver'), NOT_EXPANDABLE],
    ['storage class is missing', claim('1Gi', 'bronze'), claim('2Gi', 'bronze'), NOT_EXPANDABLE],
    ['no storage class', claim('1Gi', ''), claim('2Gi', ''), NOT_EXPANDABLE],
    ['storage class changed', claim('1Gi', 'silver'), claim('2Gi', 'gold'), NOT_EXPANDABLE],
    [
      'unbound claim',
      claim('1Gi', 'gold', 'Pending'),
      claim('2Gi', 'gold', 'Pending'),
      'Only bound persistent volume claims can be expanded',
    ],
  ])('%s', (_n, old, next, want) => {
    expect(validatePVCResize(next, old, state(goldClass, silverClass))).toBe(want);
  });
});

describe('DefaultStorageClass (setdefault/admission_test.go TestAdmission)', () => {
  const DEFAULT = { 'storageclass.kubernetes.io/is-default-class': 'true' };
  const BETA_DEFAULT = { 'storageclass.beta.kubernetes.io/is-default-class': 'true' };
  const bare = (cls?: string | null): PersistentVolumeClaim => ({
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'claimWithNoClass', namespace: 'ns' },
    spec: cls === undefined ? {} : { storageClassName: cls },
  });
  const def1 = sc('default1', {
    metadata: { name: 'default1', annotations: DEFAULT, creationTimestamp: '2024-01-01T00:00:00Z' },
  });
  const def2 = sc('default2', {
    metadata: { name: 'default2', annotations: BETA_DEFAULT, creationTimestamp: '2024-06-01T00:00:00Z' },
  });
  const nonDefault = sc('nondefault', { metadata: { name: 'nondefault' } });
  it.each<[string, StorageClass[], string | null | undefined, string | null | undefined]>([
    ['no default, no modification', [nonDefault], undefined, undefined],
    ['one default: set', [def1, nonDefault], undefined, 'default1'],
    ['several defaults: the newest', [def1, def2], undefined, 'default2'],
    ['a claim with a class keeps it', [def1], 'foo', 'foo'],
    ['an empty class is a class', [def1], '', ''],
  ])('%s', (_n, classes, given, want) => {
    expect(admitDefaultStorageClass(bare(given), state(...classes)).spec.storageClassName).toBe(want);
  });
});
