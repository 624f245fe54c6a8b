/**
 * applyChange against the real kubectl client: the rendered command run as `kubectl … --local -f <object>
 * -o json` on the object from the state gives the same spec as applyChange stores, and the same refusal
 * where kubectl refuses (JSON Patch's evanphx/json-patch messages). Skipped when kubectl is not on PATH.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readStateFiles } from '../../../src/cluster/file-source.ts';
import { applyChange } from '../../../src/engine/changes/apply.ts';
import { renderCommand, shellWords } from '../../../src/engine/changes/command.ts';
import type { Change, ObjectRef } from '../../../src/engine/changes/types.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { node, snapshotOf } from '../../support/builders.ts';

const DEMO = fileURLToPath(new URL('../../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
const demo = readStateFiles(DEMO, { now: NOW }).snapshot;
const dir = mkdtempSync(join(tmpdir(), 'qd-apply-'));

const api: ObjectRef = { kind: 'Deployment', namespace: 'team-a', name: 'api' };
const reportGen: ObjectRef = { kind: 'Deployment', namespace: 'team-b', name: 'report-gen' };
const redis: ObjectRef = { kind: 'StatefulSet', namespace: 'team-a', name: 'redis' };

/** The rendered command as kubectl runs it offline: `--local -f <file> -o json` instead of the API server. */
function kubectlLocal(c: Change, obj: KObject): { json?: KObject; error?: string } {
  const file = join(dir, 'object.json');
  writeFileSync(file, JSON.stringify(obj));
  const words = shellWords(renderCommand(c))!;
  expect(words[0]).toBe('kubectl');
  let args = words.slice(1);
  if (args[0] === '-n') args = args.slice(2);
  if (args[0] === 'patch') args = ['patch', '--local', '-f', file, ...args.slice(2)];
  else if (args[0] === 'set' && args[1] === 'resources')
    args = ['set', 'resources', '--local', '-f', file, ...args.slice(3)];
  else throw new Error(`not a local command: ${args.join(' ')}`);
  const r = spawnSync('kubectl', [...args, '-o', 'json'], { encoding: 'utf8' });
  if (r.status !== 0) return { error: r.stderr.trim().replace(/^error: /, '') };
  // kubectl prints the Go zero value of metadata.creationTimestamp; the API server stores none.
  return {
    json: JSON.parse(r.stdout.replace(/"creationTimestamp": null,?/g, '').replace(/,(\s*})/g, '$1')) as KObject,
  };
}

function stored(state: ReturnType<typeof applyChange>, ref: ObjectRef): KObject | undefined {
  if ('error' in state) return undefined;
  return state.state.get(ref.kind, ref.namespace, ref.name);
}

const CASES: { name: string; change: Change; ref: ObjectRef }[] = [
  {
    name: 'set resources: cpu and memory in one command',
    change: { kind: 'setResources', target: api, container: 'api', requests: { cpu: '770m', memory: '1000000000' } },
    ref: api,
  },
  {
    name: 'set resources: limits and requests, quantities made canonical',
    change: {
      kind: 'setResources',
      target: reportGen,
      container: 'app',
      requests: { cpu: '0.25' },
      limits: { cpu: '0.5', memory: '512Mi' },
    },
    ref: reportGen,
  },
  {
    name: 'set resources on a StatefulSet',
    change: { kind: 'setResources', target: redis, container: 'redis', requests: { memory: '300Mi' } },
    ref: redis,
  },
  {
    name: 'JSON patch: add the tolerations list',
    change: {
      kind: 'patch',
      target: api,
      type: 'json',
      body: [
        {
          op: 'add',
          path: '/spec/template/spec/tolerations',
          value: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        },
      ],
    },
    ref: api,
  },
  {
    name: 'JSON patch: replace a request, remove a limit, test a value',
    change: {
      kind: 'patch',
      target: api,
      type: 'json',
      body: [
        { op: 'test', path: '/spec/replicas', value: 3 },
        { op: 'replace', path: '/spec/template/spec/containers/0/resources/requests/cpu', value: '500m' },
        { op: 'add', path: '/spec/template/spec/containers/0/resources/limits', value: { cpu: '1' } },
        { op: 'remove', path: '/spec/template/spec/containers/0/resources/limits/cpu' },
      ],
    },
    ref: api,
  },
  {
    name: 'JSON patch: replace of a missing object key sets it (evanphx v4)',
    change: {
      kind: 'patch',
      target: api,
      type: 'json',
      body: [{ op: 'replace', path: '/spec/minReadySeconds', value: 5 }],
    },
    ref: api,
  },
  {
    name: 'merge patch: strategy, a null deletes',
    change: {
      kind: 'patch',
      target: api,
      type: 'merge',
      body: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } },
    },
    ref: api,
  },
  {
    name: 'merge patch: a list is replaced whole',
    change: {
      kind: 'patch',
      target: api,
      type: 'merge',
      body: { spec: { template: { spec: { containers: [{ name: 'api', image: 'api:2' }] } } } },
    },
    ref: api,
  },
  {
    name: 'strategic merge: containers merge by name',
    change: {
      kind: 'patch',
      target: api,
      type: 'strategic',
      body: {
        spec: {
          template: {
            spec: {
              containers: [
                { name: 'api', resources: { requests: { cpu: '600m' } } },
                { name: 'sidecar', image: 's' },
              ],
            },
          },
        },
      },
    },
    ref: api,
  },
  {
    name: 'strategic merge: tolerations have no merge key and are replaced',
    change: {
      kind: 'patch',
      target: api,
      type: 'strategic',
      body: { spec: { template: { spec: { tolerations: [{ key: 'a', operator: 'Exists' }] } } } },
    },
    ref: api,
  },
  {
    name: 'strategic merge: $patch delete of a container',
    change: {
      kind: 'patch',
      target: api,
      type: 'strategic',
      body: {
        spec: {
          template: {
            spec: {
              containers: [
                { name: 'api', $patch: 'delete' },
                { name: 'b', image: 'b' },
              ],
            },
          },
        },
      },
    },
    ref: api,
  },
  { name: 'priorityClass', change: { kind: 'priorityClass', target: api, className: 'high' }, ref: api },
  {
    name: 'rollout strategy',
    change: { kind: 'rolloutStrategy', target: api, strategy: 'RollingUpdate', maxSurge: 0, maxUnavailable: 1 },
    ref: api,
  },
];

const REFUSED: { name: string; change: Change; ref: ObjectRef }[] = [
  {
    name: 'JSON patch appending to a missing tolerations list',
    change: {
      kind: 'patch',
      target: api,
      type: 'json',
      body: [
        { op: 'add', path: '/spec/template/spec/tolerations/-', value: { key: 'nvidia.com/gpu', operator: 'Exists' } },
      ],
    },
    ref: api,
  },
  {
    name: 'JSON patch removing a missing key',
    change: { kind: 'patch', target: api, type: 'json', body: [{ op: 'remove', path: '/spec/paused' }] },
    ref: api,
  },
  {
    name: 'JSON patch at an index past the end',
    change: {
      kind: 'patch',
      target: api,
      type: 'json',
      body: [{ op: 'add', path: '/spec/template/spec/containers/5', value: {} }],
    },
    ref: api,
  },
  {
    name: 'JSON patch replace under a missing parent',
    change: { kind: 'patch', target: api, type: 'json', body: [{ op: 'replace', path: '/spec/a/b', value: 1 }] },
    ref: api,
  },
  {
    name: 'JSON patch failed test',
    change: { kind: 'patch', target: api, type: 'json', body: [{ op: 'test', path: '/spec/replicas', value: 9 }] },
    ref: api,
  },
  {
    name: 'set resources of a container that is not there',
    change: { kind: 'setResources', target: api, container: 'nope', requests: { cpu: '1' } },
    ref: api,
  },
  {
    name: 'set resources with a bad quantity',
    change: { kind: 'setResources', target: api, container: 'api', requests: { cpu: 'lots' } },
    ref: api,
  },
];

describe.skipIf(!hasKubectl)('applyChange = kubectl --local', () => {
  it.each(CASES)('$name', ({ change, ref }) => {
    const before = demo.get(ref.kind, ref.namespace, ref.name)!;
    const k = kubectlLocal(change, before);
    expect(k.error).toBeUndefined();
    const ours = stored(applyChange(demo, change), ref);
    expect(ours?.spec).toEqual(k.json?.spec);
    expect(ours?.metadata.labels).toEqual(k.json?.metadata.labels);
  });

  it.each(REFUSED)('refused as kubectl refuses: $name', ({ change, ref }) => {
    const before = demo.get(ref.kind, ref.namespace, ref.name)!;
    const k = kubectlLocal(change, before);
    expect(k.error).toBeDefined();
    const ours = applyChange(demo, change);
    expect(ours).toEqual({ error: k.error });
  });
});

describe('applyChange: the API server side', () => {
  it('the input state is never modified', () => {
    const before = JSON.stringify(demo.get('Deployment', 'team-a', 'api'));
    applyChange(demo, { kind: 'setResources', target: api, container: 'api', requests: { cpu: '770m' } });
    expect(JSON.stringify(demo.get('Deployment', 'team-a', 'api'))).toBe(before);
  });

  it.each([
    [
      'a request above the limit (ValidateResourceRequirements)',
      {
        kind: 'setResources',
        target: { kind: 'Deployment', namespace: 'team-a', name: 'exporter' },
        container: 'exporter',
        requests: { cpu: '3' },
      },
      'Deployment.apps "exporter" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "3": must be less than or equal to cpu limit of 2',
    ],
    [
      "a bare pod's resources (immutable)",
      {
        kind: 'setResources',
        target: { kind: 'Pod', namespace: 'batch', name: 'reindex-backfill' },
        container: 'reindex',
        requests: { cpu: '1' },
      },
      'Pod "reindex-backfill" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    ],
    [
      'a Deployment that is not there',
      { kind: 'scale', target: { kind: 'Deployment', namespace: 'team-a', name: 'nope' }, replicas: 1 },
      'deployments.apps "nope" not found',
    ],
    ['a node that is not there', { kind: 'uncordon', node: 'nope' }, 'nodes "nope" not found'],
    [
      'maxSurge 0 with maxUnavailable 0',
      { kind: 'rolloutStrategy', target: api, strategy: 'RollingUpdate', maxSurge: 0, maxUnavailable: 0 },
      'Deployment.apps "api" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0',
    ],
  ] as [string, Change, string][])('refuses %s', (_name, change, message) => {
    expect(applyChange(demo, change)).toEqual({ error: message });
  });

  it('uncordon clears spec.unschedulable and the unschedulable taint; cordon sets both', () => {
    const r = applyChange(demo, { kind: 'uncordon', node: 'general-c-2' });
    if ('error' in r) throw new Error(r.error);
    const n = r.state.get('Node', undefined, 'general-c-2')!;
    expect(n.spec?.unschedulable).toBeUndefined();
    expect((n.spec?.taints ?? []).map((t) => t.key)).not.toContain('node.kubernetes.io/unschedulable');
    const c = applyChange(r.state, { kind: 'cordon', node: 'general-c-2' });
    if ('error' in c) throw new Error(c.error);
    const m = c.state.get('Node', undefined, 'general-c-2')!;
    expect(m.spec?.unschedulable).toBe(true);
    expect(m.spec?.taints).toContainEqual({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
  });

  it('drain refuses a bare pod without --force, evicts with it (DaemonSet pods stay)', () => {
    const s = snapshotOf(
      ...([
        node('n1', { cpu: '4', memory: '8Gi' }),
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'bare', namespace: 'a' },
          spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] },
        },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: 'ds-x',
            namespace: 'a',
            ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', controller: true }],
          },
          spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] },
        },
      ] as KObject[]),
    );
    expect(applyChange(s, { kind: 'drain', node: 'n1' })).toEqual({
      error: 'cannot delete Pods that declare no controller (use --force to override): a/bare',
    });
    const r = applyChange(s, { kind: 'drain', node: 'n1', force: true });
    if ('error' in r) throw new Error(r.error);
    expect(r.deleted).toEqual(['a/bare']);
    expect(r.state.get('Pod', 'a', 'ds-x')).toBeDefined();
  });

  it('quota: spec.hard and status.hard set, a newly tracked resource counted', () => {
    const r = applyChange(demo, {
      kind: 'quota',
      namespace: 'team-a',
      name: 'team-quota',
      hard: { pods: '14', 'count/services': '3' },
    });
    if ('error' in r) throw new Error(r.error);
    const q = r.state.get('ResourceQuota', 'team-a', 'team-quota')!;
    expect(q.spec?.hard?.pods).toBe('14');
    expect(q.status?.hard?.pods).toBe('14');
    expect(q.status?.used?.pods).toBe('10');
    expect(q.status?.used?.['count/services']).toBeDefined();
  });

  it('addNode: a copy of the node, schedulable, its own name', () => {
    const r = applyChange(demo, { kind: 'addNode', like: 'general-c-2', count: 2 });
    if ('error' in r) throw new Error(r.error);
    const a = r.state.get('Node', undefined, 'general-c-2-new-1')!;
    const b = r.state.get('Node', undefined, 'general-c-2-new-2')!;
    expect(a.status?.allocatable).toEqual(demo.get('Node', undefined, 'general-c-2')!.status?.allocatable);
    expect(a.spec?.unschedulable).toBeUndefined();
    expect(b.metadata.labels?.['kubernetes.io/hostname'] ?? 'general-c-2-new-2').toBe('general-c-2-new-2');
  });
});
