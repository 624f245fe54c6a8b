/**
 * API validation of container resources (pkg/apis/core/validation ValidateResourceRequirements):
 * request ≤ limit, non-overcommitable resources (extended, hugepages) need request = limit and a limit,
 * hugepages need cpu or memory. A failure is 422 `Pod "<name>" is invalid: …`.
 */
import { describe, expect, it } from 'vitest';
import { Snapshot, type KObject } from '../../src/k8s/snapshot.ts';
import { admitObject } from '../../src/engine/admit.ts';
import { pod as podOf } from '../support/builders.ts';

/** Pod `ns/p` whose one container has exactly these requests and limits. */
function pod({ requests, limits }: { requests?: Record<string, string>; limits?: Record<string, string> }): KObject {
  return podOf('p', { namespace: 'ns', requests, limits }) as KObject;
}

describe('validation of container resources', () => {
  it.each([
    [
      'request above limit',
      { requests: { cpu: '2' }, limits: { cpu: '1' } },
      'Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    ],
    [
      'extended request ≠ limit',
      { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '2' } },
      'Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2',
    ],
    [
      'extended request without limit',
      { requests: { 'nvidia.com/gpu': '1' } },
      'Pod "p" is invalid: spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    ],
    [
      'hugepages request without limit',
      { requests: { 'hugepages-2Mi': '2Mi', memory: '1Gi' } },
      'Pod "p" is invalid: spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
    ],
    [
      'hugepages without cpu or memory',
      { limits: { 'hugepages-2Mi': '2Mi' } },
      'Pod "p" is invalid: spec.containers[0].resources: Forbidden: HugePages require cpu or memory',
    ],
    [
      'several errors in brackets',
      { requests: { cpu: '2', memory: '2Gi' }, limits: { cpu: '1', memory: '1Gi' } },
      'Pod "p" is invalid: [spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1, spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi]',
    ],
  ])('%s', (_name, resources, message) => {
    const r = admitObject(pod(resources), new Snapshot());
    expect([r.allowed, r.layer, r.httpStatus, r.message]).toEqual([false, 'api-validation', 422, message]);
  });

  it.each([
    ['limit only (request defaults to it)', { limits: { 'nvidia.com/gpu': '1', cpu: '1' } }],
    [
      'hugepages with memory, request = limit',
      { requests: { 'hugepages-2Mi': '2Mi', memory: '1Gi' }, limits: { 'hugepages-2Mi': '2Mi', memory: '1Gi' } },
    ],
    ['request equal to limit', { requests: { cpu: '1' }, limits: { cpu: '1' } }],
  ])('%s is valid', (_name, resources) => {
    expect(admitObject(pod(resources), new Snapshot()).allowed).toBe(true);
  });
});

/** Pod `ns/p` with one plain container and these spec fields. */
function podWith(spec: Record<string, unknown>, requests?: Record<string, string>): KObject {
  const p = podOf('p', { namespace: 'ns', requests }) as KObject & { spec: Record<string, unknown> };
  return { ...p, spec: { ...p.spec, ...spec } };
}

describe('validation of pod scheduling and resource fields (pkg/apis/core/validation/validation.go, v1.35)', () => {
  it.each<[string, KObject, string]>([
    [
      'integer-only extended resource (ValidateResourceQuantityValue), limits then requests',
      pod({ limits: { 'example.com/foo': '500m' } }),
      'Pod "p" is invalid: [spec.containers[0].resources.limits[example.com/foo]: Invalid value: "500m": must be an integer, spec.containers[0].resources.requests[example.com/foo]: Invalid value: "500m": must be an integer]',
    ],
    [
      'negative quantity',
      pod({ requests: { memory: '-1' } }),
      'Pod "p" is invalid: spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0',
    ],
    [
      'unknown unprefixed resource name (validateContainerResourceName)',
      pod({ requests: { cpus: '1' } }),
      'Pod "p" is invalid: [spec.containers[0].resources.requests[cpus]: Invalid value: "cpus": must be a standard resource type or fully qualified, spec.containers[0].resources.requests[cpus]: Invalid value: "cpus": must be a standard resource for containers]',
    ],
    [
      'tolerationSeconds without NoExecute (ValidateTolerations)',
      podWith({ tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }] }),
      'Pod "p" is invalid: spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
    ],
    [
      'empty key with Equal',
      podWith({ tolerations: [{ operator: 'Equal', effect: 'NoSchedule' }] }),
      'Pod "p" is invalid: spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    ],
    [
      'invalid label value with Equal',
      podWith({ tolerations: [{ key: 'a', operator: 'Equal', value: 'bad value', effect: 'NoSchedule' }] }),
      "Pod \"p\" is invalid: spec.tolerations[0].operator: Invalid value: \"bad value\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    ],
    [
      'unsupported operator',
      podWith({ tolerations: [{ key: 'a', operator: 'Gt', value: '1' }] }),
      'Pod "p" is invalid: spec.tolerations[0].operator: Unsupported value: "Gt": supported values: "Equal", "Exists"',
    ],
    [
      'unsupported effect (validateTaintEffect)',
      podWith({ tolerations: [{ key: 'a', operator: 'Exists', effect: 'Evict' }] }),
      'Pod "p" is invalid: spec.tolerations[0].effect: Unsupported value: "Evict": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    ],
    [
      'activeDeadlineSeconds out of range (InclusiveRangeError)',
      podWith({ activeDeadlineSeconds: 2147483648 }),
      'Pod "p" is invalid: spec.activeDeadlineSeconds: Invalid value: 2147483648: must be between 1 and 2147483647, inclusive',
    ],
    [
      'pod-level requests below the containers (validatePodResourceConsistency)',
      podWith({ resources: { requests: { memory: '64Mi' } } }, { memory: '128Mi' }),
      'Pod "p" is invalid: spec.resources.requests[memory]: Invalid value: "64Mi": must be greater than or equal to aggregate container requests of 128Mi',
    ],
    [
      'pod-level extended resource (validatePodResourceName)',
      podWith({ resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } } }),
      'Pod "p" is invalid: [spec.resources.limits[example.com/gpu]: Unsupported value: "example.com/gpu": supported values: "cpu", "hugepages-", "memory", spec.resources.requests[example.com/gpu]: Unsupported value: "example.com/gpu": supported values: "cpu", "hugepages-", "memory"]',
    ],
  ])('%s', (_name, object, message) => {
    const r = admitObject(object, new Snapshot());
    expect([r.allowed, r.layer, r.httpStatus, r.message]).toEqual([false, 'api-validation', 422, message]);
  });

  it.each<[string, KObject]>([
    ['a whole extended resource', pod({ limits: { 'example.com/foo': '2' } })],
    [
      'tolerationSeconds with NoExecute',
      podWith({ tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] }),
    ],
    ['activeDeadlineSeconds 1', podWith({ activeDeadlineSeconds: 1 })],
    [
      'pod-level requests covering the containers',
      podWith({ resources: { requests: { memory: '256Mi' } } }, { memory: '128Mi' }),
    ],
  ])('valid: %s', (_name, object) => {
    expect(admitObject(object, new Snapshot()).allowed).toBe(true);
  });
});
