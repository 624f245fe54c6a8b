import { describe, expect, it } from 'vitest';
import { findQuota } from '../../src/parse/quota.ts';
import { normalizePaste } from '../../src/parse/normalize.ts';

const find = (text: string) => findQuota(normalizePaste(text));

describe('findQuota', () => {
  // Classes from the blind set (test/fixtures/paste-wild).
  it.each([
    [
      'a condition message glued on with a colon',
      'pods "p" is forbidden: exceeded quota: default-4w42q, requested: limits.cpu=2250m, used: limits.cpu=7250m, limited: limits.cpu=8:Deployment does not have minimum availability.',
      {
        quota: 'default-4w42q',
        resources: { 'limits.cpu': { requested: '2250m', used: '7250m', limited: '8' } },
        exceeding: ['limits.cpu'],
      },
    ],
    [
      'retyped as "exceeds quota:"',
      'Error creating: pods "c-x9kzp" is forbidden: exceeds quota: namespace-quota, requested: requests.cpu=500m, used: requests.cpu=9800m, limited: requests.cpu=10000m',
      {
        quota: 'namespace-quota',
        resources: { 'requests.cpu': { requested: '500m', used: '9800m', limited: '10000m' } },
        exceeding: ['requests.cpu'],
      },
    ],
    [
      'must specify repeated per resource',
      'pods "my-pod" is forbidden: failed quota: production-quota: must specify limits.cpu for: nginx; must specify limits.memory for: nginx',
      { quota: 'production-quota', resources: { 'limits.cpu': ['nginx'], 'limits.memory': ['nginx'] } },
    ],
  ])('%s', (_name, text, facts) => {
    expect(find(text).map((m) => m.facts)).toEqual([facts]);
  });

  it.each([
    [
      'v1.35 exceeded (kubernetes.io quota-memory-cpu example)',
      'pods "quota-mem-cpu-demo-2" is forbidden: exceeded quota: mem-cpu-demo, requested: requests.memory=700Mi, used: requests.memory=600Mi, limited: requests.memory=1Gi',
      {
        quota: 'mem-cpu-demo',
        resources: { 'requests.memory': { requested: '700Mi', used: '600Mi', limited: '1Gi' } },
        exceeding: ['requests.memory'],
      },
    ],
    [
      'fabric8 trailing period',
      'pods "x" is forbidden: exceeded quota: q, requested: count/pods=1, used: count/pods=3, limited: count/pods=3.',
      {
        quota: 'q',
        resources: { 'count/pods': { requested: '1', used: '3', limited: '3' } },
        exceeding: ['count/pods'],
      },
    ],
    [
      'double trailing period',
      'services "s" is forbidden: exceeded quota: q, requested: services=1, used: services=5, limited: services=5..',
      { quota: 'q', resources: { services: { requested: '1', used: '5', limited: '5' } }, exceeding: ['services'] },
    ],
    [
      'spaces inside a token',
      'pods "x" is forbidden: exceeded quota: q, requested: count/ingresses.networking.k8s.io          =1, used: count/ingresses.networking.k8s.io=2, limited: count/ingresses.networking.k8s.io=2',
      {
        quota: 'q',
        resources: { 'count/ingresses.networking.k8s.io': { requested: '1', used: '2', limited: '2' } },
        exceeding: ['count/ingresses.networking.k8s.io'],
      },
    ],
    [
      '1G fits under 1Gi (compared by value)',
      'pods "x" is forbidden: exceeded quota: q, requested: requests.memory=1G, used: requests.memory=0, limited: requests.memory=1Gi',
      { quota: 'q', resources: { 'requests.memory': { requested: '1G', used: '0', limited: '1Gi' } }, exceeding: [] },
    ],
    [
      'a value that does not parse is kept as exceeding',
      'pods "x" is forbidden: exceeded quota: q, requested: requests.cpu=bogus, used: requests.cpu=0, limited: requests.cpu=1',
      {
        quota: 'q',
        resources: { 'requests.cpu': { requested: 'bogus', used: '0', limited: '1' } },
        exceeding: ['requests.cpu'],
      },
    ],
    [
      'canonical values never start with 0: `pods=016 times` is `0` + `16 times`',
      'pods "d" is forbidden: exceeded quota: force-sleep, requested: pods=1, used: pods=0, limited: pods=016 times in the last 10 minutes',
      { quota: 'force-sleep', resources: { pods: { requested: '1', used: '0', limited: '0' } }, exceeding: ['pods'] },
    ],
    [
      '1.1 without a quota name (PR #16941)',
      'Error creating: Pod "nginx-" is forbidden: cpu quota is 200m, current usage is 200m, requesting 100m.',
      { quota: null, resources: { cpu: { requested: '100m', used: '200m', limited: '200m' } }, exceeding: ['cpu'] },
    ],
  ])('exceeded: %s', (_name, text, facts) => {
    const [m] = find(text);
    expect(m?.kind).toBe('quota-exceeded');
    expect(m?.facts).toEqual(facts);
  });

  it.each([
    [
      'comma list (<1.24)',
      'pods "nginx" is forbidden: failed quota: compute-resources: must specify limits.cpu,limits.memory,requests.cpu,requests.memory',
      'compute-resources',
      { 'limits.cpu': [], 'limits.memory': [], 'requests.cpu': [], 'requests.memory': [] },
      '<1.24',
    ],
    [
      'per container (>=1.24, PR #107210)',
      'pods "p" is forbidden: failed quota: compute: must specify cpu for: bar,foo; memory for: bar,foo',
      'compute',
      { cpu: ['bar', 'foo'], memory: ['bar', 'foo'] },
      '>=1.24',
    ],
    [
      'bare keys, quota named quota',
      'pods "nginx-pod" is forbidden: failed quota: quota: must specify memory',
      'quota',
      { memory: [] },
      '<1.24',
    ],
    [
      '1.2 capitalised',
      'pods "hellopods0" is forbidden: Failed quota: default: must specify cpu,memory',
      'default',
      { cpu: [], memory: [] },
      '1.2',
    ],
    [
      '1.1 explicit request',
      'Pod "nginx-" is forbidden: cpu is limited by quota, must make explicit request.',
      null,
      { cpu: [] },
      '1.1',
    ],
  ])('must specify: %s', (_name, text, quota, resources, version) => {
    const [m] = find(text);
    expect(m).toMatchObject({ kind: 'quota-must-specify', facts: { quota, resources }, version });
  });

  it.each([
    [
      'new form',
      'pods "p" is forbidden: status unknown for quota: pods-quota, resources: pods',
      { quota: 'pods-quota', resources: ['pods'] },
    ],
    [
      'old form',
      'Error from server (Forbidden): status unknown for quota: compute-quota',
      { quota: 'compute-quota', resources: [] },
    ],
  ])('status unknown: %s', (_name, text, facts) => {
    expect(find(text)[0]).toMatchObject({ kind: 'quota-status-unknown', facts });
  });

  it.each([
    [
      'consume',
      'pods "not-allowed-pod" is forbidden: insufficient quota to consume: requests.cpu',
      { resources: ['requests.cpu'] },
    ],
    [
      'scopes',
      'insufficient quota to match these scopes: [{PriorityClass In [another-priorityclass-name cluster-services]}]',
      { scopes: ['PriorityClass In [another-priorityclass-name cluster-services]'] },
    ],
  ])('insufficient quota: %s', (_name, text, facts) => {
    expect(find(text)[0]).toMatchObject({ layer: 'quota', kind: 'quota-insufficient', facts });
  });

  it('reads the object from the envelope and the message without kubectl noise', () => {
    const [m] = find(
      'Error from server (Forbidden): error when creating "pod.yaml": pods "mypod" is forbidden: exceeded quota: app, requested: requests.memory=1G, used: requests.memory=0, limited: requests.memory=500m',
    );
    expect(m?.object).toEqual({ resource: 'pods', name: 'mypod' });
    expect(m?.message).toBe(
      'pods "mypod" is forbidden: exceeded quota: app, requested: requests.memory=1G, used: requests.memory=0, limited: requests.memory=500m',
    );
  });

  it('v1.0 `Limited to N pods`', () => {
    expect(find('pods "hello-openshift2" is forbidden: Limited to 3 pods')[0]).toMatchObject({
      kind: 'quota-exceeded',
      object: { resource: 'pods', name: 'hello-openshift2' },
      facts: { quota: null, resources: { pods: { requested: null, used: null, limited: '3' } }, exceeding: ['pods'] },
    });
  });
});
