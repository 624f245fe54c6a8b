import { describe, expect, it } from 'vitest';
import { findValidation } from '../../src/parse/validation.ts';
import { normalizePaste } from '../../src/parse/normalize.ts';

const find = (text: string) => findValidation(normalizePaste(text));

describe('findValidation', () => {
  it.each([
    [
      '>=1.27 with limit',
      'The Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      { resource: 'pods', name: 'web' },
      { resource: 'cpu', value: '2', limit: '1', field: 'spec.containers[0].resources.requests' },
      '>=1.27',
    ],
    [
      '<1.27 without limit',
      'The Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit',
      { resource: 'pods', name: 'web' },
      { resource: 'cpu', value: '2', limit: null, field: 'spec.containers[0].resources.requests' },
      '<1.27',
    ],
    [
      'extended resource equal',
      'The Pod "gpu" is invalid: spec.containers[0].resources.requests: Invalid value: "1": must be equal to nvidia.com/gpu limit of 2',
      { resource: 'pods', name: 'gpu' },
      { resource: 'nvidia.com/gpu', value: '1', limit: '2', field: 'spec.containers[0].resources.requests' },
      undefined,
    ],
    [
      'limit must be set',
      'The Pod "gpu" is invalid: spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
      { resource: 'pods', name: 'gpu' },
      { resource: null, value: null, limit: null, field: 'spec.containers[0].resources.limits' },
      undefined,
    ],
    [
      'Kind.group envelope',
      'Error: Deployment.apps "nautobot" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "600m": must be less than or equal to cpu limit',
      { resource: 'deployments.apps', name: 'nautobot' },
      { resource: 'cpu', value: '600m', limit: null, field: 'spec.template.spec.containers[0].resources.requests' },
      '<1.27',
    ],
  ])('%s', (_name, text, object, facts, version) => {
    const [m] = find(text);
    expect(m).toMatchObject({ layer: 'api-validation', kind: 'api-validation', object, facts });
    expect(m?.version).toBe(version);
  });

  // Classes from the blind set (test/fixtures/paste-wild): the field path left out of the copy.
  it.each([
    [
      'two field errors copied without their paths',
      'Invalid value: "250m": must be less than or equal to cpu limit of 10m\nInvalid value: "256Mi": must be less than or equal to memory limit of 64Mi',
      [
        { resource: 'cpu', value: '250m', limit: '10m', field: null },
        { resource: 'memory', value: '256Mi', limit: '64Mi', field: null },
      ],
    ],
    [
      'an elided path before the older greater-or-equal wording',
      'Error from server (BadRequest): ... Invalid value: "128Mi": must be greater than or equal to memory request',
      [{ resource: 'memory', value: null, limit: '128Mi', field: null }],
    ],
    [
      'a value glued to a word is not a field error',
      'xInvalid value: "2": must be less than or equal to cpu limit of 1',
      [{ resource: 'cpu', value: null, limit: '1', field: null }],
    ],
  ])('%s', (_name, text, facts) => {
    expect(find(text).map((m) => m.facts)).toEqual(facts);
  });

  it('a `[e1, e2]` list gives one finding per field error, both with the envelope object (and the `orequal` typo)', () => {
    const ms = find(
      'The Deployment "w" is invalid: [spec.template.spec.containers[0].resources.requests: Invalid value: "8704M": must be less than orequal to memory limit, spec.template.spec.containers[1].resources.requests: Invalid value: "600m": must be less than or equal to cpu limit]',
    );
    expect(ms.map((m) => [m.object, m.facts])).toEqual([
      [
        { resource: 'deployments', name: 'w' },
        {
          resource: 'memory',
          value: '8704M',
          limit: null,
          field: 'spec.template.spec.containers[0].resources.requests',
        },
      ],
      [
        { resource: 'deployments', name: 'w' },
        { resource: 'cpu', value: '600m', limit: null, field: 'spec.template.spec.containers[1].resources.requests' },
      ],
    ]);
  });
});
