/**
 * The line an API validation refusal gets (src/answer/replies/diagnosis.ts validationLine): what to change, by the
 * rule its message names (pkg/apis/core/validation) — a request above its limit is one rule among several.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/answer/diagnose.ts';

describe('api-validation replies name the rule that refused', () => {
  it.each([
    [
      'a request above its limit',
      'The Pod "w" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      'cpu request 2 is above its limit 1: set the request ≤ the limit, or raise the limit.',
    ],
    [
      'a pod update',
      'The Pod "web-0" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
      "A running pod's spec cannot change (only images, activeDeadlineSeconds, added tolerations, a grace period): change the workload's template, or delete and recreate the pod.",
    ],
    [
      'an extended resource in a fraction',
      'The Pod "gpu" is invalid: spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: "500m": must be an integer',
      'nvidia.com/gpu 500m is not a whole number: extended resources are counted in whole units.',
    ],
  ])('%s', (_name, text, line) => {
    const r = diagnose({ text }).answer.replies[0]!;
    expect(r.lines).toContain(line);
    expect(r.lines.filter((l) => l.includes('request  is above'))).toEqual([]);
  });
});
