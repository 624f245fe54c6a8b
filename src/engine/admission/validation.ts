/**
 * The slice of API object validation that concerns resources (pkg/apis/core/validation,
 * ValidateResourceRequirements): request ≤ limit, extended resources request = limit, no negatives.
 * A failure is HTTP 422 `Pod "<name>" is invalid: …` and stops the request before validating admission.
 */
import type { Container, Pod } from '../../k8s/objects.ts';
import { byteCompare, resourceList } from '../../quantity.ts';

export interface FieldError {
  field: string;
  resource: string;
  value: string;
  limit?: string;
  detail: string;
  text: string;
}

/** Resource names the API treats as native (overcommittable); everything with a domain is extended. */
function isExtended(name: string): boolean {
  return name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.');
}

function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-');
}

function validateContainer(c: Container, path: string, out: FieldError[]): void {
  const requests = resourceList(c.resources?.requests);
  const limits = resourceList(c.resources?.limits);
  const reqPath = `${path}.resources.requests`;
  const limPath = `${path}.resources.limits`;
  for (const [name, list, p] of [
    ['limits', limits, limPath],
    ['requests', requests, reqPath],
  ] as const) {
    void name;
    for (const k of [...list.keys()].sort(byteCompare)) {
      const q = list.get(k)!;
      if (q.sign() < 0) {
        const detail = 'must be greater than or equal to 0';
        out.push({
          field: `${p}[${k}]`,
          resource: k,
          value: q.toString(),
          detail,
          text: `${p}[${k}]: Invalid value: "${q}": ${detail}`,
        });
      }
    }
  }
  for (const k of [...requests.keys()].sort(byteCompare)) {
    const req = requests.get(k)!;
    const lim = limits.get(k);
    // Hugepages and extended resources cannot be overcommitted (helper.IsOvercommitAllowed): their
    // request must equal the limit, and a request needs a limit.
    const overcommit = !isExtended(k) && !isHugePages(k);
    if (lim) {
      const detail =
        !overcommit && !req.eq(lim)
          ? `must be equal to ${k} limit of ${lim}`
          : req.cmp(lim) > 0
            ? `must be less than or equal to ${k} limit of ${lim}`
            : undefined;
      if (detail !== undefined) {
        out.push({
          field: reqPath,
          resource: k,
          value: req.toString(),
          limit: lim.toString(),
          detail,
          text: `${reqPath}: Invalid value: "${req}": ${detail}`,
        });
      }
    } else if (!overcommit) {
      const detail = 'Limit must be set for non overcommitable resources';
      out.push({ field: limPath, resource: k, value: '', detail, text: `${limPath}: Required value: ${detail}` });
    }
  }
  // Hugepages only come with cpu or memory (ValidateResourceRequirements).
  const hasHuge = [...requests.keys(), ...limits.keys()].some(isHugePages);
  const hasCpuMem = [...requests.keys(), ...limits.keys()].some((k) => k === 'cpu' || k === 'memory');
  if (hasHuge && !hasCpuMem) {
    const detail = 'HugePages require cpu or memory';
    out.push({
      field: `${path}.resources`,
      resource: 'hugepages',
      value: '',
      detail,
      text: `${path}.resources: Forbidden: ${detail}`,
    });
  }
}

/** Field errors of a pod's resources; empty when valid. */
export function validatePodResources(pod: Pod): FieldError[] {
  const out: FieldError[] = [];
  pod.spec.containers.forEach((c, i) => {
    validateContainer(c, `spec.containers[${i}]`, out);
  });
  (pod.spec.initContainers ?? []).forEach((c, i) => {
    validateContainer(c, `spec.initContainers[${i}]`, out);
  });
  return out;
}

/** `Pod "<name>" is invalid: <e>` or `… is invalid: [e1, e2]` (StatusError for field.ErrorList). */
export function invalidMessage(kind: string, name: string, errors: FieldError[]): string {
  const texts = errors.map((e) => e.text);
  return `${kind} "${name}" is invalid: ${texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`}`;
}
