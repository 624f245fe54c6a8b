/**
 * Ported from plugin/pkg/admission/runtimeclass/admission_test.go (v1.35) TestSetOverhead, TestSetScheduling,
 * TestValidate and TestRuntimeClassAdmission ("runtimeClass not found"), and from
 * pkg/util/tolerations/tolerations_test.go TestIsSuperset / TestMergeTolerations.
 */
import { describe, expect, it } from 'vitest';
import type { Pod, RuntimeClass, Toleration } from '../../../src/k8s/objects.ts';
import { Snapshot } from '../../../src/k8s/snapshot.ts';
import {
  admitRuntimeClass,
  isSuperset,
  mergeTolerations,
  validateRuntimeClass,
} from '../../../src/engine/admission/runtimeclass.ts';

const rc = (extra: Partial<RuntimeClass> = {}): RuntimeClass => ({
  kind: 'RuntimeClass',
  metadata: { name: 'foo' },
  handler: 'bar',
  ...extra,
});
const pod = (spec: Partial<Pod['spec']> = {}): Pod => ({
  kind: 'Pod',
  metadata: { name: 'podname', namespace: 'default' },
  spec: { containers: [{ name: 'c' }], runtimeClassName: 'foo', ...spec },
});
const state = (...classes: RuntimeClass[]): Snapshot => {
  const s = new Snapshot();
  for (const c of classes) s.put(c);
  return s;
};
const overhead = { overhead: { podFixed: { cpu: '100m', memory: '100Mi' } } };

describe('RuntimeClass setOverhead (runtimeclass/admission_test.go TestSetOverhead)', () => {
  it.each<[string, RuntimeClass, Partial<Pod['spec']>, Record<string, string> | undefined, string | undefined]>([
    ['overhead, no pod overhead: set', rc(overhead), {}, { cpu: '100m', memory: '100Mi' }, undefined],
    [
      'overhead, the same pod overhead: kept',
      rc(overhead),
      { overhead: { cpu: '0.1', memory: '100Mi' } },
      { cpu: '100m', memory: '100Mi' },
      undefined,
    ],
    [
      'overhead, a different pod overhead: refused',
      rc(overhead),
      { overhead: { cpu: '10', memory: '10Gi' } },
      { cpu: '10', memory: '10Gi' },
      "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
    ],
    ['no overhead in the class: none set', rc(), {}, undefined, undefined],
  ])('%s', (_n, cls, spec, want, error) => {
    const r = admitRuntimeClass(pod(spec), state(cls));
    expect(r.error).toBe(error);
    expect(r.pod.spec.overhead).toEqual(want);
  });
});

describe('RuntimeClass setScheduling (runtimeclass/admission_test.go TestSetScheduling)', () => {
  const tol = (key: string, effect = 'NoSchedule'): Toleration => ({ key, operator: 'Exists', effect });
  it.each<
    [string, RuntimeClass, Partial<Pod['spec']>, Record<string, string> | undefined, Toleration[] | undefined, string?]
  >([
    ['nil scheduling: unchanged', rc(), { nodeSelector: { foo: 'bar' } }, { foo: 'bar' }, undefined],
    ['node selector only in the class', rc({ scheduling: { nodeSelector: { foo: 'bar' } } }), {}, { foo: 'bar' }, []],
    [
      'node selectors merged',
      rc({ scheduling: { nodeSelector: { foo: 'bar' } } }),
      { nodeSelector: { fizz: 'buzz' } },
      { fizz: 'buzz', foo: 'bar' },
      [],
    ],
    [
      'conflicting node selector: refused',
      rc({ scheduling: { nodeSelector: { foo: 'bar' } } }),
      { nodeSelector: { foo: 'conflict' } },
      { foo: 'conflict' },
      undefined,
      'conflict: runtimeClass.scheduling.nodeSelector[foo] = bar; pod.spec.nodeSelector[foo] = conflict',
    ],
    [
      'tolerations merged',
      rc({ scheduling: { tolerations: [tol('foo'), tol('bar')] } }),
      { tolerations: [tol('foo'), tol('fizz')] },
      undefined,
      [tol('foo'), tol('fizz'), tol('bar')],
    ],
  ])('%s', (_n, cls, spec, selector, tolerations, error) => {
    const r = admitRuntimeClass(pod(spec), state(cls));
    expect(r.error).toBe(error);
    expect(r.pod.spec.nodeSelector).toEqual(selector);
    expect(r.pod.spec.tolerations).toEqual(tolerations);
  });
});

describe('RuntimeClass Validate (runtimeclass/admission_test.go TestValidate)', () => {
  it.each<[string, RuntimeClass[], Partial<Pod['spec']>, string | null]>([
    [
      'no overhead in the class, overhead set in the pod',
      [rc()],
      { overhead: { cpu: '1' } },
      'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
    ],
    [
      'non-matching overheads',
      [rc(overhead)],
      { overhead: { cpu: '10', memory: '10Gi' } },
      "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead",
    ],
    ['matching overheads', [rc(overhead)], { overhead: { cpu: '100m', memory: '100Mi' } }, null],
    [
      'no runtime class, overhead set',
      [],
      { runtimeClassName: undefined, overhead: { cpu: '1' } },
      'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
    ],
    ['no runtime class, no overhead', [], { runtimeClassName: undefined }, null],
  ])('%s', (_n, classes, spec, want) => {
    expect(validateRuntimeClass(pod(spec), state(...classes))).toBe(want);
  });

  it('a missing class refuses the pod (TestRuntimeClassAdmission "runtimeClass not found")', () => {
    expect(admitRuntimeClass(pod({ runtimeClassName: 'ghost' }), state()).error).toBe(
      'pod rejected: RuntimeClass "ghost" not found',
    );
  });
});

describe('tolerations (pkg/util/tolerations/tolerations_test.go)', () => {
  const t = (x: Toleration): Toleration => x;
  it.each<[string, Toleration, Toleration, boolean]>([
    [
      'equal',
      t({ key: 'foo', operator: 'Equal', value: 'bar' }),
      t({ key: 'foo', operator: 'Equal', value: 'bar' }),
      true,
    ],
    [
      'empty key Exists covers all',
      t({ operator: 'Exists' }),
      t({ key: 'foo', operator: 'Equal', value: 'bar' }),
      true,
    ],
    ['different keys', t({ key: 'foo', operator: 'Exists' }), t({ key: 'bar', operator: 'Exists' }), false],
    [
      'Exists covers Equal',
      t({ key: 'foo', operator: 'Exists' }),
      t({ key: 'foo', operator: 'Equal', value: 'v' }),
      true,
    ],
    [
      'Equal does not cover Exists',
      t({ key: 'foo', operator: 'Equal', value: 'v' }),
      t({ key: 'foo', operator: 'Exists' }),
      false,
    ],
    [
      'empty effect covers every effect',
      t({ key: 'foo', operator: 'Exists' }),
      t({ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }),
      true,
    ],
    [
      'shorter tolerationSeconds does not cover longer',
      t({ key: 'foo', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }),
      t({ key: 'foo', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }),
      false,
    ],
    [
      'no tolerationSeconds covers any',
      t({ key: 'foo', operator: 'Exists', effect: 'NoExecute' }),
      t({ key: 'foo', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 20 }),
      true,
    ],
  ])('isSuperset: %s', (_n, ss, x, want) => {
    expect(isSuperset(ss, x)).toBe(want);
  });

  it('MergeTolerations keeps the first of equals and drops covered ones', () => {
    const a = t({ key: 'foo', operator: 'Exists', effect: 'NoSchedule' });
    const all = t({ operator: 'Exists' });
    expect(mergeTolerations([a], [a])).toEqual([a]);
    expect(mergeTolerations([a], [all])).toEqual([all]);
    expect(mergeTolerations([all, a], [])).toEqual([all]);
  });
});
