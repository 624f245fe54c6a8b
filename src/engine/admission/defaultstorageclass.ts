/**
 * DefaultStorageClass admission (plugin/pkg/admission/storage/storageclass/setdefault/admission.go `Admit`,
 * v1.35): a PVC created without `storageClassName` (nor the beta annotation) gets the default StorageClass.
 * With several defaults, pkg/volume/util GetDefaultClass takes the newest (creationTimestamp), then the first
 * by name. Either annotation marks a default (storageclass.kubernetes.io/is-default-class, or its beta form).
 */
import type { PersistentVolumeClaim, StorageClass } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';

const DEFAULT_ANNOTATIONS = [
  'storageclass.kubernetes.io/is-default-class',
  'storageclass.beta.kubernetes.io/is-default-class',
];
const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

function isDefault(sc: StorageClass): boolean {
  return DEFAULT_ANNOTATIONS.some((a) => sc.metadata.annotations?.[a] === 'true');
}

function created(sc: StorageClass): number {
  const t = sc.metadata.creationTimestamp;
  const ms = typeof t === 'string' ? Date.parse(t) : t instanceof Date ? t.getTime() : Number.NaN;
  return Number.isNaN(ms) ? 0 : ms;
}

/** GetDefaultClass: the default StorageClass, or undefined. */
export function defaultStorageClassOf(snapshot: Snapshot): StorageClass | undefined {
  return snapshot
    .list('StorageClass')
    .filter(isDefault)
    .sort((a, b) => created(b) - created(a) || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1))[0];
}

export function admitDefaultStorageClass(pvc: PersistentVolumeClaim, snapshot: Snapshot): PersistentVolumeClaim {
  if (pvc.spec.storageClassName !== undefined && pvc.spec.storageClassName !== null) return pvc;
  if (pvc.metadata.annotations?.[BETA_CLASS_ANNOTATION]) return pvc;
  const def = defaultStorageClassOf(snapshot);
  if (!def) return pvc;
  return { ...pvc, spec: { ...pvc.spec, storageClassName: def.metadata.name } };
}
