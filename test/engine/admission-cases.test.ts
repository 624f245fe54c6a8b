/**
 * Every admission case of test/fixtures/cases/ (layers api-defaulting, limitrange, quota) through `simulate`,
 * the function the CLI's `simulate` command calls: the public sample (k8s-cases.jsonl, or QUOTA_DOCTOR_CASES),
 * the rows ported from upstream's own unit-test tables (upstream-admission.jsonl) and the cases derived from
 * the v1.35 admission chain (upstream-admission-chain.jsonl, whose `scheduler` cases are admitted, then
 * scheduled). Every scheduler case's pod must also pass admission: a pod the API server refuses never
 * reaches the scheduler (the S-013 mistake: a priority set without its class).
 */
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../src/k8s/snapshot.ts';
import { simulate } from '../../src/engine/simulate.ts';
import { evaluatorFor } from '../../src/engine/admission/resourcequota.ts';
import { Quantity } from '../../src/quantity.ts';
import {
  caseSnapshot,
  loadCases,
  normalizeBracketed,
  readCases,
  UPSTREAM_ADMISSION_CASES,
  UPSTREAM_ADMISSION_CHAIN_CASES,
  UPSTREAM_SCHEDULER_CASES,
  type Case,
} from '../support/cases.ts';
import type { LimitedResource } from '../../src/engine/admission/resourcequota.ts';

const ADMISSION = new Set(['api-defaulting', 'limitrange', 'quota']);
const chainCases = readCases(UPSTREAM_ADMISSION_CHAIN_CASES);
const cases = [...loadCases(), ...readCases(UPSTREAM_ADMISSION_CASES), ...chainCases].filter((c) =>
  ADMISSION.has(c.layer),
);
const chainSchedulerCases = chainCases.filter((c) => c.layer === 'scheduler');
const schedulerObjects = [...loadCases(), ...readCases(UPSTREAM_SCHEDULER_CASES)].filter(
  (c) => c.layer === 'scheduler' && c.input.object,
);

/** Quantities compare by value: canonicalise both sides of a resource map. */
function canon(m: Record<string, unknown> | undefined | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m ?? {})) out[k] = `${Quantity.parse(v).nanos}`;
  return out;
}

function runCase(c: Case, schedule = false) {
  const input = c.input;
  const snapshot = caseSnapshot(input);
  const object = { kind: 'Pod', ...(input.object as KObject) };
  const now = typeof input.now === 'string' ? Date.parse(input.now) : undefined;
  return simulate(snapshot, [object], {
    namespace: input.namespace as string | undefined,
    operation: input.operation as 'CREATE' | 'UPDATE' | undefined,
    subresource: input.subresource as string | undefined,
    oldObject: input.oldObject as KObject | undefined,
    dryRun: input.dryRun as boolean | undefined,
    now,
    featureGates: input.featureGates as Record<string, boolean> | undefined,
    limitedResources: (input.admissionConfig as { limitedResources?: LimitedResource[] } | undefined)?.limitedResources,
    k8sVersion: c.k8sVersion,
    skipScheduling: !schedule,
  });
}

describe('conformance: admission cases', () => {
  it('loads the sample', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const exp = c.expected;
    if (c.input.usageOf) {
      const obj = c.input.usageOf as KObject;
      const now = typeof c.input.now === 'string' ? Date.parse(c.input.now) : undefined;
      const ev = evaluatorFor(obj, {
        podLevelResources: (c.input.featureGates as Record<string, boolean> | undefined)?.PodLevelResources,
      });
      const usage = Object.fromEntries([...ev!.usage(obj, { now })].map(([k, v]) => [k, `${v.nanos}`]));
      expect(usage).toEqual(canon(exp.usage as Record<string, unknown>));
      return;
    }
    const out = runCase(c);
    const r = out.results[0]!;
    expect(r.admission.allowed).toBe(exp.allowed);
    if (typeof exp.message === 'string')
      expect(normalizeBracketed(r.admission.message ?? '')).toBe(normalizeBracketed(exp.message));
    if (typeof exp.messagePattern === 'string') expect(r.admission.message).toMatch(new RegExp(exp.messagePattern));
    if (typeof exp.httpStatus === 'number') expect(r.detail.admission.httpStatus).toBe(exp.httpStatus);
    if (exp.mutatedResources) {
      const mr = exp.mutatedResources as Record<
        'containers' | 'initContainers',
        Record<string, { requests?: Record<string, unknown>; limits?: Record<string, unknown> }>
      >;
      const spec = (
        r.object as unknown as {
          spec: {
            containers: { name: string; resources?: { requests?: object; limits?: object } }[];
            initContainers?: { name: string; resources?: { requests?: object; limits?: object } }[];
          };
        }
      ).spec;
      for (const group of ['containers', 'initContainers'] as const) {
        for (const [name, want] of Object.entries(mr[group] ?? {})) {
          const got = (spec[group] ?? []).find((x) => x.name === name)!;
          expect(canon(got.resources?.requests as Record<string, unknown>)).toEqual(canon(want.requests));
          expect(canon(got.resources?.limits as Record<string, unknown>)).toEqual(canon(want.limits));
        }
      }
    }
    if (exp.annotations) expect(r.object.metadata.annotations).toMatchObject(exp.annotations as object);
    if (exp.mutatedSpec) expect(r.object.spec).toMatchObject(exp.mutatedSpec as object);
    if ('usageDelta' in exp) {
      const want = Object.fromEntries(
        Object.entries((exp.usageDelta as Record<string, Record<string, unknown>>) ?? {})
          .filter(([, v]) => Object.keys(v).length > 0)
          .map(([q, v]) => [q, canon(v)]),
      );
      const got = Object.fromEntries(Object.entries(r.quotaUsage).map(([q, v]) => [q, canon(v)]));
      expect(got).toEqual(want);
    }
    if (exp.quotaUsedAfter) {
      for (const [q, want] of Object.entries(exp.quotaUsedAfter as Record<string, Record<string, unknown>>)) {
        const quota = out.state.get('ResourceQuota', r.namespace, q)!;
        expect(canon(quota.status?.used)).toEqual(canon(want));
      }
    }
    if (exp.storedLimitRange) {
      const want = exp.storedLimitRange as { spec: { limits: Record<string, unknown>[] } };
      const got = r.object as unknown as { spec: { limits: Record<string, unknown>[] } };
      expect(got.spec.limits.length).toBe(want.spec.limits.length);
      want.spec.limits.forEach((item, i) => {
        for (const key of ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio']) {
          expect([key, canon(got.spec.limits[i]![key] as Record<string, unknown>)]).toEqual([
            key,
            canon(item[key] as Record<string, unknown>),
          ]);
        }
      });
    }
  });
});

describe('conformance: admission chain, then the scheduler', () => {
  it.each(chainSchedulerCases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const exp = c.expected;
    const r = runCase(c, true).results[0]!;
    expect([r.admission.allowed, r.admission.message]).toEqual([true, null]);
    expect(r.scheduling?.scheduled).toBe(exp.allowed);
    if (typeof exp.message === 'string') expect(r.scheduling?.message).toBe(exp.message);
    if (typeof exp.scheduledNode === 'string') expect(r.scheduling?.node).toBe(exp.scheduledNode);
    if (exp.mutatedSpec) expect(r.object.spec).toMatchObject(exp.mutatedSpec as object);
  });
});

describe('conformance: every scheduler case is a pod the API server admits', () => {
  it.each(schedulerObjects.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const r = runCase(c).results[0]!;
    // A row marked `admissible: false` is a unit-test pod validation refuses: it must stay refused (422).
    if ((c as Case & { admissible?: boolean }).admissible === false)
      expect([r.admission.allowed, r.detail.admission.httpStatus]).toEqual([false, 422]);
    else expect([r.admission.allowed, r.admission.message]).toEqual([true, null]);
  });
});
