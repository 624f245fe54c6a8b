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
