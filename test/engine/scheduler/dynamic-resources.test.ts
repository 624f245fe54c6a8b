/**
 * DynamicResources, table-driven; rows ported from dynamicresources/dynamicresources_test.go testPlugin
 * (row names kept) and extended with the allocator behaviours the engine models (counts, All,
 * firstAvailable, selectors). Each attempt runs the default plugin list with DRA on, so the assertion is
 * the whole FailedScheduling text, PostFilter included.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../src/k8s/objects.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { compileSelector, type CelDevice } from '../../../src/engine/scheduler/dra-cel.ts';
import { schedulePod } from '../../../src/engine/scheduler/schedule.ts';
import { simulate } from '../../../src/engine/simulate.ts';
import { renderSimulation } from '../../../src/render/text.ts';
import { Quantity } from '../../../src/quantity.ts';
import { node, pod, snapshotOf } from '../../support/builders.ts';

const NOT_HELPFUL = (n: number) =>
  `preemption: 0/${n} nodes are available: ${n} Preemption is not helpful for scheduling.`;
const DRIVER = 'some-driver';
const CLASS = 'my-resource-class';
const CLAIM = 'my-pod-my-resource';

function podWithClaims(claims: Array<Record<string, unknown>>, status?: Record<string, unknown>): Pod {
  const p = pod('my-pod');
  p.metadata.uid = '1234';
  p.spec.resourceClaims = claims;
  if (status) p.status = { ...p.status, ...status };
  return p;
}
const podWithClaimName = () => podWithClaims([{ name: 'my-resource', resourceClaimName: CLAIM }]);

function deviceClass(name = CLASS, selectors: string[] = []): KObject {
  return {
    kind: 'DeviceClass',
    apiVersion: 'resource.k8s.io/v1',
    metadata: { name },
    spec: { selectors: selectors.map((expression) => ({ cel: { expression } })) },
  };
}

interface Req {
  name?: string;
  className?: string;
  count?: number;
  all?: boolean;
  selectors?: string[];
  firstAvailable?: Array<{ name: string; className?: string; count?: number; selectors?: string[] }>;
}
function exact(r: Req | { name: string; className?: string; count?: number; selectors?: string[] }) {
  return {
    deviceClassName: r.className ?? CLASS,
    ...('all' in r && r.all ? { allocationMode: 'All' } : { allocationMode: 'ExactCount', count: r.count ?? 1 }),
    ...(r.selectors ? { selectors: r.selectors.map((expression) => ({ cel: { expression } })) } : {}),
  };
}
function claim(name: string, requests: Req[], extra: Record<string, unknown> = {}): KObject {
  return {
    kind: 'ResourceClaim',
    apiVersion: 'resource.k8s.io/v1',
    metadata: { name, namespace: 'default', uid: `${name}-uid` },
    spec: {
      devices: {
        requests: requests.map((r, i) =>
          r.firstAvailable
            ? {
                name: r.name ?? `req-${i + 1}`,
                firstAvailable: r.firstAvailable.map((s) => ({ name: s.name, ...exact(s) })),
              }
            : { name: r.name ?? `req-${i + 1}`, exactly: exact(r) },
        ),
      },
    },
    ...extra,
  };
}
function allocated(
  name: string,
  devices: string[],
  o: { nodeSelectorHost?: string; reservedFor?: Array<Record<string, string>>; adminAccess?: boolean } = {},
): KObject {
  return claim(name, [{}], {
    status: {
      allocation: {
        devices: {
          results: devices.map((d) => ({
            request: 'req-1',
            driver: DRIVER,
            pool: 'worker',
            device: d,
            ...(o.adminAccess ? { adminAccess: true } : {}),
          })),
        },
        ...(o.nodeSelectorHost
          ? {
              nodeSelector: {
                nodeSelectorTerms: [
                  { matchFields: [{ key: 'metadata.name', operator: 'In', values: [o.nodeSelectorHost] }] },
                ],
              },
            }
          : {}),
      },
      ...(o.reservedFor ? { reservedFor: o.reservedFor } : {}),
    },
  });
}
function slice(
  nodeName: string,
  devices: Array<string | { name: string; attributes?: Record<string, unknown>; capacity?: Record<string, unknown> }>,
  pool = 'worker',
  generation = 1,
): KObject {
  return {
    kind: 'ResourceSlice',
    apiVersion: 'resource.k8s.io/v1',
    metadata: { name: `${nodeName}-${pool}-${generation}` },
    spec: {
      driver: DRIVER,
      nodeName,
      pool: { name: pool, generation, resourceSliceCount: 1 },
      devices: devices.map((d) => (typeof d === 'string' ? { name: d } : d)),
    },
  };
}

const worker = node('worker');
const message = (objects: KObject[], p: Pod) => schedulePod(snapshotOf(...objects), p).message;

describe('DynamicResources (dynamicresources_test.go testPlugin)', () => {
  it.each([
    ['empty', [], pod('foo'), null],
    [
      'missing-class',
      [claim(CLAIM, [{}])],
      podWithClaimName(),
      `0/1 nodes are available: request req-1: device class ${CLASS} does not exist. no new claims to deallocate, ${NOT_HELPFUL(1)}`,
    ],
    [
      'claim-with-prioritized-list-unknown-device-class',
      [claim(CLAIM, [{ firstAvailable: [{ name: 'subreq-1', className: 'does-not-exist' }] }])],
      podWithClaimName(),
      `0/1 nodes are available: request req-1/subreq-1: device class does-not-exist does not exist. no new claims to deallocate, ${NOT_HELPFUL(1)}`,
    ],
    [
      'no-resources',
      [deviceClass(), claim(CLAIM, [{}])],
      podWithClaimName(),
      `0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, ${NOT_HELPFUL(1)}`,
    ],
    ['with-resources', [deviceClass(), claim(CLAIM, [{}]), slice('worker', ['instance-1'])], podWithClaimName(), null],
    [
      'exhausted-resources',
      [deviceClass(), claim(CLAIM, [{}]), allocated('other', ['instance-1']), slice('worker', ['instance-1'])],
      podWithClaimName(),
      `0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, ${NOT_HELPFUL(1)}`,
    ],
    [
      'structured-ignore-allocated-admin-access',
      [
        deviceClass(),
        claim(CLAIM, [{}]),
        allocated('other', ['instance-1'], { adminAccess: true }),
        slice('worker', ['instance-1']),
      ],
      podWithClaimName(),
      null,
    ],
    [
      'wrong-topology',
      [allocated(CLAIM, ['instance-1'], { nodeSelectorHost: 'other-node' })],
      podWithClaimName(),
      `0/1 nodes are available: 1 resourceclaim not available on the node. deallocation of ResourceClaim completed, ${NOT_HELPFUL(1)}`,
    ],
    [
      'wrong-topology, reserved by another pod: still not schedulable',
      [
        allocated(CLAIM, ['instance-1'], {
          nodeSelectorHost: 'other-node',
          reservedFor: [{ resource: 'pods', name: 'other', uid: 'x' }],
        }),
      ],
      podWithClaimName(),
      `0/1 nodes are available: 1 resourceclaim not available on the node. still not schedulable, ${NOT_HELPFUL(1)}`,
    ],
    ['good-topology', [allocated(CLAIM, ['instance-1'], { nodeSelectorHost: 'worker' })], podWithClaimName(), null],
    [
      'reserved-okay',
      [allocated(CLAIM, ['instance-1'], { reservedFor: [{ resource: 'pods', name: 'my-pod', uid: '1234' }] })],
      podWithClaimName(),
      null,
    ],
    [
      'claim-with-prioritized-list (second alternative fits)',
      [
        deviceClass(),
        claim(CLAIM, [
          {
            firstAvailable: [
              { name: 'subreq-1', count: 2 },
              { name: 'subreq-2', count: 1 },
            ],
          },
        ]),
        slice('worker', ['instance-1']),
      ],
      podWithClaimName(),
      null,
    ],
  ])('%s', (_n, objects, p, want) => {
    const r = schedulePod(snapshotOf(worker, ...objects), p);
    expect(r.message).toBe(want);
    expect(r.scheduled).toBe(want === null);
  });

  it.each([
    [
      'missing-claim (template, status not set)',
      podWithClaims([{ name: 'my-resource', resourceClaimTemplateName: 'tmpl' }]),
      [],
      'pod "default/my-pod": ResourceClaim not created yet',
    ],
    [
      'deleted-claim',
      podWithClaims([{ name: 'my-resource', resourceClaimName: CLAIM }]),
      [
        {
          ...allocated(CLAIM, ['instance-1']),
          metadata: { name: CLAIM, namespace: 'default', deletionTimestamp: '2025-01-01T00:00:00Z' },
        },
      ],
      `resourceclaim "${CLAIM}" is being deleted`,
    ],
    [
      'wrong-claim (template claim not owned by the pod)',
      podWithClaims([{ name: 'my-resource', resourceClaimTemplateName: 'tmpl' }], {
        resourceClaimStatuses: [{ name: 'my-resource', resourceClaimName: CLAIM }],
      }),
      [
        {
          ...allocated(CLAIM, ['instance-1']),
          metadata: {
            name: CLAIM,
            namespace: 'default',
            ownerReferences: [{ kind: 'Pod', name: 'my-pod', uid: '1234123', controller: true }],
          },
        },
      ],
      `ResourceClaim default/${CLAIM} was not created for pod default/my-pod (pod is not owner)`,
    ],
    ['claim missing', podWithClaimName(), [], `resourceclaim.resource.k8s.io "${CLAIM}" not found`],
  ])('PreEnqueue %s: never attempted, no FailedScheduling event', (_n, p, objects, reason) => {
    const r = schedulePod(snapshotOf(worker, ...objects), p);
    expect(r).toMatchObject({ scheduled: false, message: null, preEnqueue: { plugin: 'DynamicResources', reason } });
  });

  it('claim-template with its generated claim owned by the pod is scheduled', () => {
    const p = podWithClaims([{ name: 'my-resource', resourceClaimTemplateName: 'tmpl' }], {
      resourceClaimStatuses: [{ name: 'my-resource', resourceClaimName: CLAIM }],
    });
    const c = claim(CLAIM, [{}]);
    c.metadata = { ...c.metadata, ownerReferences: [{ kind: 'Pod', name: 'my-pod', uid: '1234', controller: true }] };
    expect(schedulePod(snapshotOf(worker, deviceClass(), c, slice('worker', ['gpu-0'])), p).node).toBe('worker');
  });

  it('DRA off: the claims are not looked at, no DRA PostFilter text', () => {
    const r = schedulePod(
      snapshotOf(node('worker', { cpu: '1' }), claim(CLAIM, [{}])),
      { ...podWithClaimName() },
      { draEnabled: false },
    );
    expect(r.scheduled).toBe(true);
  });
});

describe('DynamicResources allocator: devices per node', () => {
  const gpus = (n: string, count: number) =>
    slice(
      n,
      Array.from({ length: count }, (_, i) => `gpu-${i}`),
    );
  it.each([
    ['count 2 of 2 free', [gpus('worker', 2)], [{ count: 2 }], true],
    ['count 3 of 2', [gpus('worker', 2)], [{ count: 3 }], false],
    [
      'count 2 with one held by another claim',
      [gpus('worker', 2), allocated('other', ['gpu-0'])],
      [{ count: 2 }],
      false,
    ],
    ['allocationMode All, all free', [gpus('worker', 4)], [{ all: true }], true],
    ['allocationMode All, one held', [gpus('worker', 4), allocated('other', ['gpu-3'])], [{ all: true }], false],
    ['allocationMode All, no device on the node', [gpus('elsewhere', 4)], [{ all: true }], false],
    ['two requests share the node devices', [gpus('worker', 3)], [{ count: 2 }, { count: 1 }], true],
    ['two requests, one device short', [gpus('worker', 2)], [{ count: 2 }, { count: 1 }], false],
    [
      'a stale pool generation is ignored',
      [slice('worker', ['old-0', 'old-1'], 'worker', 1), slice('worker', ['new-0'], 'worker', 2)],
      [{ count: 2 }],
      false,
    ],
    [
      'selectors: backtracking picks the device the second request cannot use',
      [
        slice('worker', [
          { name: 'big', attributes: { model: { string: 'a100' } } },
          { name: 'small', attributes: { model: { string: 't4' } } },
        ]),
      ],
      [{}, { selectors: [`device.attributes["${DRIVER}"].model == "a100"`] }],
      true,
    ],
  ])('%s', (_n, objects, requests, fits) => {
    const r = schedulePod(snapshotOf(worker, deviceClass(), claim(CLAIM, requests), ...objects), podWithClaimName());
    expect(r.scheduled).toBe(fits);
    if (!fits)
      expect(r.message).toBe(
        `0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, ${NOT_HELPFUL(1)}`,
      );
  });

  it('counts per node: the node whose slice has the free devices wins, the other fails', () => {
    const objects = [node('a'), node('b'), deviceClass(), claim(CLAIM, [{ count: 2 }]), gpus('a', 1), gpus('b', 2)];
    expect(schedulePod(snapshotOf(...objects), podWithClaimName()).node).toBe('b');
  });

  it('a DeviceClass selector filters devices', () => {
    const objects = [
      worker,
      deviceClass(CLASS, [
        `device.driver == "${DRIVER}"`,
        `device.capacity["${DRIVER}"].memory.compareTo(quantity("40Gi")) >= 0`,
      ]),
      claim(CLAIM, [{}]),
      slice('worker', [{ name: 'g', capacity: { memory: { value: '16Gi' } } }]),
    ];
    expect(message(objects, podWithClaimName())).toBe(
      `0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, ${NOT_HELPFUL(1)}`,
    );
  });

  it.each([
    ['a selector outside the subset', [`device.attributes["${DRIVER}"].model.startsWith("a")`]],
    [
      'an attribute the device lacks (a CEL runtime error upstream)',
      [`device.attributes["${DRIVER}"].healthy == true`],
    ],
  ])('unknown, never a guess: %s', (_n, selectors) => {
    const objects = [worker, deviceClass(), claim(CLAIM, [{ selectors }]), slice('worker', ['gpu-0'])];
    const r = schedulePod(snapshotOf(...objects), podWithClaimName());
    expect(r.message).toBeNull();
    expect(r.unknown).toMatch(/CEL selector not judged|does not judge/);
  });

  it('simulate carries the unknown through: no verdict from a selector it does not read, in JSON and in text', () => {
    const objects = [
      worker,
      deviceClass(),
      claim(CLAIM, [{ selectors: [`device.attributes["${DRIVER}"].model.startsWith("a")`] }]),
      slice('worker', ['gpu-0']),
    ];
    const out = simulate(snapshotOf(...objects), [{ ...(podWithClaimName() as KObject), kind: 'Pod' }]);
    const s = out.results[0]!.scheduling!;
    expect([s.scheduled, s.message, typeof s.unknown]).toEqual([false, null, 'string']);
    expect(renderSimulation(out.results, [])).toContain('placement unknown:');
  });
});

describe('dra-cel subset', () => {
  const dev: CelDevice = {
    driver: 'gpu.example.com',
    attributes: new Map<string, string | number | boolean>([
      ['gpu.example.com/model', 'a100'],
      ['gpu.example.com/index', 3],
      ['gpu.example.com/healthy', true],
    ]),
    capacity: new Map([['gpu.example.com/memory', Quantity.parse('40Gi')]]),
  };
  it.each([
    ['device.driver == "gpu.example.com"', true],
    ["device.driver != 'gpu.example.com'", false],
    ['device.attributes["gpu.example.com"].model == "a100"', true],
    ['device.attributes["gpu.example.com"].index >= 2 && device.attributes["gpu.example.com"].healthy == true', true],
    ['(device.attributes["gpu.example.com"].index < 2)', false],
    ['device.capacity["gpu.example.com"].memory.compareTo(quantity("40Gi")) >= 0', true],
    ['device.capacity["gpu.example.com"].memory.compareTo(quantity("80Gi")) >= 0', false],
    ['device.attributes["gpu.example.com"].missing == 1 && device.driver == "other"', false],
    ['device.attributes["gpu.example.com"].missing == 1', null],
    ['true', true],
  ])('%s → %s', (expr, want) => {
    expect(compileSelector(expr)!(dev)).toBe(want);
  });
  it.each([
    ['a || b'],
    ['device.attributes["x"].model in ["a"]'],
    ['device.attributes["x"].v.isGreaterThan(semver("1.0.0"))'],
  ])('not compiled: %s', (expr) => {
    expect(compileSelector(expr)).toBeNull();
  });
});
