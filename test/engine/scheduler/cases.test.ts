/**
 * Every `layer: "scheduler"` conformance case of test/fixtures/cases/k8s-cases.jsonl (or QUOTA_DOCTOR_CASES):
 * full scheduling cases build a snapshot from input.nodes / pods / persistentVolumeClaims /
 * persistentVolumes and schedule input.object; `fitError` cases exercise the message assembly alone.
 * Also runs test/fixtures/cases/upstream-scheduler.jsonl: rows ported from kube-scheduler's own unit-test
 * tables (each case cites its upstream file and test name), and upstream-volumes-dra.jsonl: rows derived
 * from the v1.35 volume plugins and DynamicResources (state fields csiNodes, csiDrivers, resourceClaims,
 * deviceClasses, resourceSlices).
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../src/k8s/objects.ts';
import { Snapshot, type KObject } from '../../../src/k8s/snapshot.ts';
import { formatFitError, type FitErrorInput } from '../../../src/engine/scheduler/fit-error.ts';
import { schedulePod, type ScheduleOptions } from '../../../src/engine/scheduler/schedule.ts';
import {
  loadCases,
  readCases,
  UPSTREAM_SCHEDULER_CASES,
  UPSTREAM_VOLUMES_DRA_CASES,
  VOLUME_DRA_STATE_FIELDS,
} from '../../support/cases.ts';

interface SchedulerCase {
  id: string;
  source?: string;
  layer: string;
  k8sVersion?: string;
  input: {
    nodes?: KObject[];
    pods?: KObject[];
    persistentVolumeClaims?: KObject[];
    persistentVolumes?: KObject[];
    storageClasses?: KObject[];
    priorityClasses?: KObject[];
    csiNodes?: KObject[];
    csiDrivers?: KObject[];
    resourceClaims?: KObject[];
    deviceClasses?: KObject[];
    resourceSlices?: KObject[];
    object?: Pod;
    fitError?: FitErrorInput & { nodeReasons: Record<string, string[]> };
  };
  expected: {
    allowed: boolean;
    message?: string;
    messageDRADisabled?: string;
    scheduledNode?: string;
    nominatedNodeName?: string;
    victims?: string[];
  };
}

const isScheduler = (c: SchedulerCase): boolean => c.layer === 'scheduler';

function buildSnapshot(c: SchedulerCase): Snapshot {
  const s = new Snapshot();
  const put = (kind: string, objs: KObject[] | undefined) => {
    for (const o of objs ?? []) s.put({ ...o, kind });
  };
  put('Node', c.input.nodes);
  put('Pod', c.input.pods);
  put('PersistentVolumeClaim', c.input.persistentVolumeClaims);
  put('PersistentVolume', c.input.persistentVolumes);
  put('StorageClass', c.input.storageClasses);
  put('PriorityClass', c.input.priorityClasses);
  for (const [field, kind] of VOLUME_DRA_STATE_FIELDS) put(kind, c.input[field]);
  return s;
}

function optionsOf(c: SchedulerCase, extra: ScheduleOptions = {}): ScheduleOptions {
  return { ...(c.k8sVersion && c.k8sVersion !== '1.35' ? { k8sVersion: c.k8sVersion } : {}), ...extra };
}

function runCase(c: SchedulerCase): void {
  if (c.input.fitError) {
    expect(formatFitError(c.input.fitError, optionsOf(c))).toBe(c.expected.message);
    return;
  }
  const pod = c.input.object!;
  const result = schedulePod(buildSnapshot(c), pod, optionsOf(c));
  expect(result.scheduled).toBe(c.expected.allowed);
  if (c.expected.scheduledNode !== undefined) expect(result.node).toBe(c.expected.scheduledNode);
  if (c.expected.message !== undefined) expect(result.message).toBe(c.expected.message);
  if (c.expected.nominatedNodeName !== undefined) expect(result.nominatedNode).toBe(c.expected.nominatedNodeName);
  if (c.expected.victims !== undefined) expect(result.victims).toEqual(c.expected.victims);
  if (c.expected.messageDRADisabled !== undefined) {
    const off = schedulePod(buildSnapshot(c), pod, optionsOf(c, { draEnabled: false }));
    expect(off.message).toBe(c.expected.messageDRADisabled);
  }
}

const cases = loadCases<SchedulerCase>().filter(isScheduler);
const upstreamCases = readCases<SchedulerCase>(UPSTREAM_SCHEDULER_CASES).filter(isScheduler);
const volumeDraCases = readCases<SchedulerCase>(UPSTREAM_VOLUMES_DRA_CASES).filter(isScheduler);

describe('scheduler conformance cases', () => {
  it('finds the scheduler cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => runCase(c));
});

describe('scheduler cases ported from upstream unit tests', () => {
  it('finds the upstream cases', () => {
    expect(upstreamCases.length).toBeGreaterThan(0);
    expect(new Set(upstreamCases.map((c) => c.id)).size).toBe(upstreamCases.length);
  });

  it.each(upstreamCases.map((c) => [`${c.id} ${c.source}`, c] as const))('%s', (_id, c) => runCase(c));
});

describe('scheduler cases derived from the v1.35 volume plugins and DynamicResources', () => {
  it('finds at least 20 cases, ids unique', () => {
    expect(volumeDraCases.length).toBeGreaterThanOrEqual(20);
    expect(new Set(volumeDraCases.map((c) => c.id)).size).toBe(volumeDraCases.length);
  });

  it.each(volumeDraCases.map((c) => [`${c.id} ${c.source}`, c] as const))('%s', (_id, c) => runCase(c));
});
