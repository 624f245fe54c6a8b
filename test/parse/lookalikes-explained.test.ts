/**
 * Look-alike facts (issue #17, Deliver 5): Gatekeeper constraints and messages, Kyverno policies, rules and
 * messages (both wordings), Pod Security controls, Karpenter NodePools, autoscaler reason counts, Priority
 * and decode errors. Fixtures: test/fixtures/lookalikes (sources in its README.md) and test/fixtures/pastes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const found = (text: string) =>
  parsePaste(text)
    .findings.filter((x) => x.layer === 'other' || x.kind === 'api-validation')
    .map((x) => ({
      kind: x.kind,
      ...(x.object ? { object: x.object } : {}),
      ...(x.namespace ? { namespace: x.namespace } : {}),
      facts: x.facts,
    }));

describe('look-alike facts', () => {
  it.each([
    [
      'lookalikes/decode-with-context.txt',
      [
        {
          kind: 'api-validation',
          object: { resource: 'deployments' },
          facts: { resource: 'memory', value: '1.5 GB', limit: null, field: 'resources.limits' },
        },
      ],
    ],
    [
      'lookalikes/deploykf-kyverno-blocked.txt',
      [
        {
          kind: 'webhook-denied',
          object: { resource: 'jobs', name: 'deploykf-auth-generate-secrets' },
          namespace: 'deploykf-auth',
          facts: {
            webhook: 'validate.kyverno.svc-ignore',
            reason:
              "resource Job/deploykf-auth/deploykf-auth-generate-secrets was blocked due to the following policies require-requests-limits: autogen-validate-resources: 'validation error: CPU and memory resource requests and limits are required. rule autogen-validate-resources failed at path /spec/template/spec/containers/1/resources/limits/' restrict-image-registries: autogen-validate-allow-registries: 'validation failure: failed to check deny preconditions: failed to substitute variables in condition value: failed to resolve allowedregistries.data.registries | parse_yaml(@) at path :'",
            engine: 'kyverno',
            violations: [
              {
                name: 'require-requests-limits',
                rule: 'autogen-validate-resources',
                message:
                  'validation error: CPU and memory resource requests and limits are required. rule autogen-validate-resources failed at path /spec/template/spec/containers/1/resources/limits/',
              },
              {
                name: 'restrict-image-registries',
                rule: 'autogen-validate-allow-registries',
                message:
                  'validation failure: failed to check deny preconditions: failed to substitute variables in condition value: failed to resolve allowedregistries.data.registries | parse_yaml(@) at path :',
              },
            ],
            resource: 'Job/deploykf-auth/deploykf-auth-generate-secrets',
          },
        },
      ],
    ],
    [
      'lookalikes/devlake-quantity-suffix.txt',
      [
        {
          kind: 'api-validation',
          object: { resource: 'deployments' },
          facts: { resource: null, value: null, limit: null, field: null },
        },
      ],
    ],
    [
      'lookalikes/karpenter-exceed-limits-log.txt',
      [
        {
          kind: 'karpenter',
          object: { resource: 'pods', name: 'web-746d677b76-lghl4' },
          namespace: 'team-a',
          facts: {
            nodepools: [
              { nodepool: 'kb-demo', reason: 'did not tolerate kaas.acquia.io/pool=management:NoSchedule' },
              {
                nodepool: 'stable-multi-az-xxlarge',
                reason: 'all available instance types exceed limits for nodepool',
              },
            ],
          },
        },
      ],
    ],
    [
      'lookalikes/karpenter-trino-no-instance-type.txt',
      [
        {
          kind: 'karpenter',
          facts: {
            nodepools: [
              {
                nodepool: 'default',
                reason:
                  'no instance type satisfied resources {"cpu":"29500m","memory":"246400Mi","pods":"6"} and requirements karpenter.k8s.aws/ec2nodeclass In [default], karpenter.sh/capacity-type In [on-demand], karpenter.sh/nodepool In [default], node.kubernetes.io/instance-type In [r5a.8xlarge] (no instance type has enough resources)',
              },
            ],
          },
        },
      ],
    ],
    [
      'lookalikes/kyverno-policy-violation.txt',
      [
        {
          kind: 'webhook-denied',
          object: { resource: 'deployments', name: 'api' },
          namespace: 'team-a',
          facts: {
            webhook: 'validate.kyverno.svc-fail',
            reason: 'policy Deployment/team-a/api for resource violation:',
            engine: 'kyverno',
            violations: [
              {
                name: 'require-requests-limits',
                rule: 'autogen-validate-resources',
                message:
                  'validation error: CPU and memory resource requests and limits are required. rule autogen-validate-resources failed at path /spec/template/spec/containers/0/resources/limits/',
              },
            ],
            resource: 'Deployment/team-a/api',
          },
        },
      ],
    ],
    [
      'lookalikes/metal-stack-podsecurity.txt',
      [
        {
          kind: 'pod-security',
          object: { resource: 'pods', name: 'droptailer-867cfb7555-8gzmv' },
          facts: {
            level: 'restricted',
            version: 'latest',
            controls: [
              {
                control: 'runAsNonRoot != true',
                detail: 'pod or container "droptailer" must set securityContext.runAsNonRoot=true',
              },
              {
                control: 'seccompProfile',
                detail:
                  'pod or container "droptailer" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"',
              },
            ],
            enforced: true,
          },
        },
      ],
    ],
    [
      'lookalikes/podsecurity-would-violate.txt',
      [
        {
          kind: 'pod-security',
          facts: {
            level: 'restricted',
            version: 'latest',
            controls: [
              {
                control: 'allowPrivilegeEscalation != false',
                detail: 'containers "gather", "copy" must set securityContext.allowPrivilegeEscalation=false',
              },
              {
                control: 'unrestricted capabilities',
                detail: 'containers "gather", "copy" must set securityContext.capabilities.drop=["ALL"]',
              },
              {
                control: 'runAsNonRoot != true',
                detail: 'pod or containers "gather", "copy" must set securityContext.runAsNonRoot=true',
              },
              {
                control: 'seccompProfile',
                detail:
                  'pod or containers "gather", "copy" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"',
              },
            ],
            enforced: false,
          },
        },
      ],
    ],
    [
      'lookalikes/priority-class-typo.txt',
      [
        {
          kind: 'priority',
          object: { resource: 'pods', name: 'api-7c5d8f9b4-x2k9q' },
          facts: { reason: 'class-not-found', priorityClass: 'hihg-priority' },
        },
      ],
    ],
    [
      'lookalikes/stackrox-decode-no-value.txt',
      [
        {
          kind: 'api-validation',
          object: { resource: 'deployments' },
          facts: { resource: null, value: null, limit: null, field: null },
        },
      ],
    ],
    [
      'pastes/078-autoscaler-max-node-group-size.txt',
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
      'pastes/079-autoscaler-klog-event-max-limit.txt',
      [
        {
          kind: 'autoscaler',
          object: { resource: 'pods', name: 'hello-world-699d84fcc5-7c4pr' },
          namespace: 'default',
          facts: { reason: 'NotTriggerScaleUp', reasons: [{ count: 1, reason: 'max limit reached' }] },
        },
      ],
    ],
    [
      'pastes/081-gatekeeper-no-limits-multiline.txt',
      [
        {
          kind: 'webhook-denied',
          facts: {
            webhook: 'validation.gatekeeper.sh',
            reason: '[container-must-have-limits] container <streamdal-console> has no resource limits',
            engine: 'gatekeeper',
            violations: [
              { name: 'container-must-have-limits', message: 'container <streamdal-console> has no resource limits' },
              { name: 'container-must-meet-ratio', message: 'container <streamdal-console> has no resource limits' },
              { name: 'container-must-meet-ratio', message: 'container <streamdal-console> has no resource requests' },
              {
                name: 'container-must-have-requests',
                message: 'container <streamdal-console> has no resource requests',
              },
            ],
          },
        },
      ],
    ],
    [
      'pastes/082-gatekeeper-eidf-userpodlimits.txt',
      [
        {
          kind: 'webhook-denied',
          facts: {
            webhook: 'validation.gatekeeper.sh',
            reason:
              '[userpodlimits] container <cudasample> has no cpu limit, please see https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/ [userpodlimits] container <cudasample> has no memory limit, please see https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
            engine: 'gatekeeper',
            violations: [
              {
                name: 'userpodlimits',
                message:
                  'container <cudasample> has no cpu limit, please see https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
              },
              {
                name: 'userpodlimits',
                message:
                  'container <cudasample> has no memory limit, please see https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
              },
            ],
          },
        },
      ],
    ],
    [
      'pastes/085-gatekeeper-helm-upgrade.txt',
      [
        {
          kind: 'webhook-denied',
          facts: {
            webhook: 'validation.gatekeeper.sh',
            reason: '[denied by require-resource-requests] Container "ck8s-user-demo" has no resource requests',
            engine: 'gatekeeper',
            violations: [
              { name: 'require-resource-requests', message: 'Container "ck8s-user-demo" has no resource requests' },
            ],
          },
        },
      ],
    ],
    [
      'pastes/123-openshift-release-ephemeral-storage-autoscaler.txt',
      [{ kind: 'autoscaler', facts: { reason: 'NotTriggerScaleUp', reasons: [] } }],
    ],
    [
      'pastes/175-k8s-priority-must-not-be-provided.txt',
      [
        {
          kind: 'priority',
          object: { resource: 'pods', name: 'hello' },
          facts: { reason: 'priority-set', priorityClass: null, priority: 1, computed: 0 },
        },
      ],
    ],
  ])('%s', (file, expected) => {
    expect(found(readFileSync(join(fixtures, file), 'utf8'))).toEqual(expected);
  });

  it.each([
    [
      'Kyverno, one rule, unquoted message',
      'admission webhook "validate.kyverno.svc-fail" denied the request:\nresource Deployment/default/nginx-test was blocked due to the following policies:\n  disallow-latest-tag:\n    check-image-tag: latest tag is not allowed',
      [{ name: 'disallow-latest-tag', rule: 'check-image-tag', message: 'latest tag is not allowed' }],
    ],
    [
      'Kyverno, two rules of one policy',
      "admission webhook \"validate.kyverno.svc-fail\" denied the request:\n\npolicy Pod/team-a/web for resource violation:\n\npod-security:\n  require-run-as-nonroot: 'validation error: runAsNonRoot must be true.'\n  drop-all: 'validation error: capabilities must drop ALL.'",
      [
        {
          name: 'pod-security',
          rule: 'require-run-as-nonroot',
          message: 'validation error: runAsNonRoot must be true.',
        },
        { name: 'pod-security', rule: 'drop-all', message: 'validation error: capabilities must drop ALL.' },
      ],
    ],
  ])('%s', (_n, text, expected) => {
    const f = parsePaste(text).findings[0]!;
    expect(f.kind === 'webhook-denied' ? f.facts.violations : undefined).toEqual(expected);
  });
});
