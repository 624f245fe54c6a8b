/**
 * PersistentVolumeClaim quota evaluator (pkg/quota/v1/evaluator/core/persistent_volume_claims.go).
 */
import type { PersistentVolumeClaim } from '../../../k8s/objects.ts';
import { Quantity, type ResourceList } from '../../../quantity.ts';
import { matchesRequirement } from '../scopes.ts';
import type { Evaluator } from './types.ts';

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const BETA_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

export function pvcStorageClass(pvc: PersistentVolumeClaim): string {
  return pvc.spec.storageClassName ?? pvc.metadata.annotations?.[BETA_CLASS_ANNOTATION] ?? '';
}

function roundUpToByte(q: Quantity): Quantity {
  const whole = q.value();
  return q.isInteger() ? q : Quantity.fromInt(whole, q.format);
}

export function pvcUsage(pvc: PersistentVolumeClaim): ResourceList {
  const one = Quantity.fromInt(1);
  const out: ResourceList = new Map([
    ['persistentvolumeclaims', one],
    ['count/persistentvolumeclaims', one],
  ]);
  const cls = pvcStorageClass(pvc);
  if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, one);
  let storage = Quantity.tryParse(pvc.spec.resources?.requests?.storage);
  const allocated = Quantity.tryParse(pvc.status?.allocatedResources?.storage);
  if (storage) storage = roundUpToByte(storage);
  if (allocated && (!storage || roundUpToByte(allocated).cmp(storage) > 0)) storage = roundUpToByte(allocated);
  if (storage) {
    out.set('requests.storage', storage);
    if (cls) out.set(`${cls}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
  }
  return out;
}

function isPvcResource(name: string): boolean {
  return (
    name === 'persistentvolumeclaims' ||
    name === 'count/persistentvolumeclaims' ||
    name === 'requests.storage' ||
    name.endsWith(`${STORAGE_CLASS_SUFFIX}requests.storage`) ||
    name.endsWith(`${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`)
  );
}

export const pvcEvaluator: Evaluator = {
  resource: 'persistentvolumeclaims',
  group: '',
  handles: (operation, subresource) =>
    (operation === 'CREATE' || operation === 'UPDATE') && (subresource === '' || subresource === 'status'),
  matchingResources: (names) => names.filter(isPvcResource),
  matchesScope(req, obj) {
    if (req.scopeName !== 'VolumeAttributesClass') return false;
    const pvc = obj as PersistentVolumeClaim;
    const name = pvc.spec.volumeAttributesClassName ?? '';
    if (req.operator === 'Exists') return name !== '';
    return matchesRequirement(
      name ? { VolumeAttributesClass: name } : {},
      'VolumeAttributesClass',
      req.operator,
      req.values ?? [],
    );
  },
  constraints: () => null,
  usage: (obj) => pvcUsage(obj as PersistentVolumeClaim),
};
