import { describe, expect, it } from 'vitest';
import { findLookalikes } from '../../src/parse/lookalikes.ts';
import { normalizePaste } from '../../src/parse/normalize.ts';

const find = (text: string) => findLookalikes(normalizePaste(text)).map((m) => ({ kind: m.kind, facts: m.facts }));

describe('findLookalikes', () => {
  it.each([
    [
      'GCE quota',
      "googleapi: Error 403: Quota 'SSD_TOTAL_GB' exceeded. Limit: 100.0 in region us-west1., quotaExceeded",
      [{ kind: 'cloud-quota', facts: { provider: 'gcp', quota: 'SSD_TOTAL_GB', limit: '100.0', region: 'us-west1' } }],
    ],
    [
      'GCE global',
      " - Quota 'GPUS_ALL_REGIONS' exceeded. Limit: 0.0 globally.",
      [{ kind: 'cloud-quota', facts: { provider: 'gcp', quota: 'GPUS_ALL_REGIONS', limit: '0.0' } }],
    ],
    [
      'gcloud regional',
      'ResponseError: code=403, message=Insufficient regional quota to satisfy request: resource "SSD_TOTAL_GB": request requires \'900.0\'',
      [{ kind: 'cloud-quota', facts: { provider: 'gcp', quota: 'SSD_TOTAL_GB' } }],
    ],
    [
      'AWS ELB, hard-wrapped',
      'Error syncing load balancer: failed to ensure load b\nalancer: TooManyLoadBalancers: Exceeded quota of account 809251082950',
      [{ kind: 'cloud-quota', facts: { provider: 'aws', quota: 'TooManyLoadBalancers' } }],
    ],
    [
      'Gatekeeper denial that reads like LimitRange',
      'admission webhook "validation.gatekeeper.sh" denied the request: [container-must-have-limits] container <app> has no cpu limit',
      [
        {
          kind: 'webhook-denied',
          facts: {
            webhook: 'validation.gatekeeper.sh',
            reason: '[container-must-have-limits] container <app> has no cpu limit',
            engine: 'gatekeeper',
            violations: [{ name: 'container-must-have-limits', message: 'container <app> has no cpu limit' }],
          },
        },
      ],
    ],
    [
      'webhook down',
      'Internal error occurred: failed calling webhook\n"ivpol.mutate.kyverno.svc-fail": ... context deadline exceeded',
      [{ kind: 'webhook-unavailable', facts: { webhook: 'ivpol.mutate.kyverno.svc-fail' } }],
    ],
    [
      'autoscaler',
      "pod didn't trigger scale-up: 12 node(s) didn't match Pod's node affinity/selector, 3 max node group size reached",
      [
        {
          kind: 'autoscaler',
          facts: {
            reason: 'NotTriggerScaleUp',
            reasons: [
              { count: 12, reason: "node(s) didn't match Pod's node affinity/selector" },
              { count: 3, reason: 'max node group size reached' },
            ],
          },
        },
      ],
    ],
    [
      'GPU quota extender',
      '0/2 nodes are available: 2 ExceedsGPUQuota.',
      [{ kind: 'extender-quota', facts: { extender: 'gpu-admission', reason: 'ExceedsGPUQuota' } }],
    ],
    [
      'volcano gang',
      '1/1 tasks in gang unschedulable: pod group is not ready, 1 Pending, 1 minAvailable',
      [{ kind: 'volcano', facts: { scheduler: 'volcano', gang: true } }],
    ],
    ['Tekton wrapper is not a look-alike finding', 'TaskRun Pod exceeded available resources', []],
  ])('%s', (_name, text, expected) => {
    expect(find(text)).toEqual(expected);
  });
});
