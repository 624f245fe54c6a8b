/**
 * PersistentVolumeClaimResize admission (plugin/pkg/admission/storage/persistentvolume/resize/admission.go
 * `Validate` and `allowResize`, v1.35): an UPDATE that grows `spec.resources.requests.storage` needs a bound
 * claim whose StorageClass (the same before and after) sets `allowVolumeExpansion: true`.
 * Shrinking or keeping the size is not its business (validation's, see validation.ts validatePVCUpdate).
 */
import type { PersistentVolumeClaim } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import { pvcStorageClass } from './evaluators/pvcs.ts';

function storageOf(pvc: PersistentVolumeClaim): Quantity {
  return Quantity.tryParse(pvc.spec.resources?.requests?.storage) ?? Quantity.zero();
}

/** Null when allowed; otherwise the Forbidden message (unwrapped). */
export function validatePVCResize(
  pvc: PersistentVolumeClaim,
  oldPvc: PersistentVolumeClaim,
  snapshot: Snapshot,
): string | null {
  if (storageOf(pvc).cmp(storageOf(oldPvc)) <= 0) return null;
  if (oldPvc.status?.phase !== 'Bound') return 'Only bound persistent volume claims can be expanded';
  const cls = pvcStorageClass(pvc);
  const oldCls = pvcStorageClass(oldPvc);
  const sc = cls && cls === oldCls ? snapshot.get('StorageClass', undefined, cls) : undefined;
  if (sc?.allowVolumeExpansion !== true)
    return 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';
  return null;
}
