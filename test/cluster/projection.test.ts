/** Wire JSON → compact projections: what is kept, what is dropped, what is refused. */
import { describe, expect, it } from 'vitest';
import { projectObject, sameProjection } from '../../src/cluster/projection.ts';

describe('projectObject', () => {
  it.each([
    ['no metadata', 'Pod', { spec: { containers: [] } }],
    ['no name', 'Pod', { metadata: { namespace: 'a' }, spec: { containers: [] } }],
    ['pod without containers', 'Pod', { metadata: { name: 'p' }, spec: {} }],
    ['container without name', 'Pod', { metadata: { name: 'p' }, spec: { containers: [{ image: 'x' }] } }],
    ['deployment without template', 'Deployment', { metadata: { name: 'd' }, spec: { replicas: 1 } }],
    ['not an object', 'Node', 'hello'],
  ])('refuses %s', (_what, kind, raw) => {
    expect(projectObject(kind, raw)).toBeUndefined();
  });

  it('keeps what admission and the scheduler read of a pod, and sets kind/apiVersion (list items lack them)', () => {
    const p = projectObject('Pod', {
      metadata: {
        name: 'p',
        namespace: 'n',
        uid: 'u',
        annotations: { a: 'b' },
        labels: { app: 'x' },
        deletionTimestamp: '2025-01-01T00:00:00Z',
        deletionGracePeriodSeconds: 30,
        resourceVersion: '7',
      },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'i',
            env: [{ name: 'K', value: 'v' }],
            resources: { requests: { cpu: '1' }, claims: [{ name: 'gpu' }] },
            ports: [{ containerPort: 80, hostPort: 80 }],
          },
        ],
        overhead: { cpu: '10m' },
        preemptionPolicy: 'Never',
        activeDeadlineSeconds: 60,
        resources: { limits: { cpu: '2' } },
        volumes: [
          { name: 'v', persistentVolumeClaim: { claimName: 'pvc' } },
          { name: 'e', emptyDir: {} },
        ],
        serviceAccountName: 'sa',
      },
      status: {
        phase: 'Running',
        nominatedNodeName: 'n2',
        containerStatuses: [{ name: 'c', ready: true, allocatedResources: { cpu: '1' } }],
        conditions: [{ type: 'Ready', status: 'True' }],
      },
    });
    expect(p).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'p',
        namespace: 'n',
        labels: { app: 'x' },
        deletionTimestamp: '2025-01-01T00:00:00Z',
        deletionGracePeriodSeconds: 30,
        resourceVersion: '7',
      },
      spec: {
        containers: [
          { name: 'c', resources: { requests: { cpu: '1' } }, ports: [{ containerPort: 80, hostPort: 80 }] },
        ],
        overhead: { cpu: '10m' },
        preemptionPolicy: 'Never',
        activeDeadlineSeconds: 60,
        resources: { limits: { cpu: '2' } },
        volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'pvc' } }],
      },
      status: {
        phase: 'Running',
        nominatedNodeName: 'n2',
        containerStatuses: [{ name: 'c', allocatedResources: { cpu: '1' } }],
      },
    });
  });

  it('drops last-applied-configuration and managedFields from small kinds, keeps the rest', () => {
    const lr = projectObject('LimitRange', {
      metadata: {
        name: 'l',
        namespace: 'n',
        managedFields: [{}],
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', keep: 'me' },
      },
      spec: { limits: [{ type: 'Container', default: { cpu: '1' } }] },
    });
    expect(lr).toEqual({
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'l', namespace: 'n', annotations: { keep: 'me' } },
      spec: { limits: [{ type: 'Container', default: { cpu: '1' } }] },
    });
  });

  it('sameProjection ignores only metadata.resourceVersion', () => {
    const a = projectObject('Node', {
      metadata: { name: 'n', resourceVersion: '1' },
      status: { allocatable: { cpu: '4' }, conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: 'T1' }] },
    });
    const b = projectObject('Node', {
      metadata: { name: 'n', resourceVersion: '2' },
      status: { allocatable: { cpu: '4' }, conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: 'T2' }] },
    });
    const c = projectObject('Node', {
      metadata: { name: 'n', resourceVersion: '3' },
      status: { allocatable: { cpu: '8' } },
    });
    expect(sameProjection(a, b)).toBe(true);
    expect(sameProjection(a, c)).toBe(false);
  });
});
