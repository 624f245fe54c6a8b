/**
 * Ported from plugin/pkg/admission/defaulttolerationseconds/admission_test.go TestForgivenessAdmission (v1.35 table):
 * which tolerations the plugin appends, and which it leaves alone.
 */
import { describe, expect, it } from 'vitest';
import type { Pod, Toleration } from '../../../src/k8s/objects.ts';
import { applyDefaultTolerationSeconds } from '../../../src/engine/admission/defaulttolerationseconds.ts';

const notReady = (s = 300): Toleration => ({
  key: 'node.kubernetes.io/not-ready',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: s,
});
const unreachable = (s = 300): Toleration => ({
  key: 'node.kubernetes.io/unreachable',
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: s,
});
const pod = (tolerations?: Toleration[]): Pod => ({
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'foo' },
  spec: { containers: [{ name: 'c' }], ...(tolerations ? { tolerations } : {}) },
});
const foo: Toleration = { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule', tolerationSeconds: 700 };

describe('DefaultTolerationSeconds (defaulttolerationseconds/admission_test.go TestForgivenessAdmission)', () => {
  it.each<[string, Toleration[] | undefined, Toleration[]]>([
    ['pod has no tolerations: both added', undefined, [notReady(), unreachable()]],
    ['pod has tolerations, none for not-ready or unreachable: both added', [foo], [foo, notReady(), unreachable()]],
    ['pod tolerates not-ready:NoExecute: unreachable added', [notReady(700)], [notReady(700), unreachable()]],
    ['pod tolerates unreachable:NoExecute: not-ready added', [unreachable(700)], [unreachable(700), notReady()]],
    ['pod tolerates both: no change', [notReady(700), unreachable(700)], [notReady(700), unreachable(700)]],
    [
      'pod tolerates unreachable with any effect: not-ready added',
      [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 700 }],
      [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 700 }, notReady()],
    ],
    [
      'pod has a wildcard toleration: no change',
      [{ operator: 'Exists', tolerationSeconds: 700 }],
      [{ operator: 'Exists', tolerationSeconds: 700 }],
    ],
    [
      'a NoSchedule toleration of not-ready does not count',
      [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }],
      [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }, notReady(), unreachable()],
    ],
  ])('%s', (_name, given, want) => {
    expect(applyDefaultTolerationSeconds(pod(given)).spec.tolerations).toEqual(want);
  });

  it('returns the pod itself when nothing is added', () => {
    const p = pod([notReady(), unreachable()]);
    expect(applyDefaultTolerationSeconds(p)).toBe(p);
  });
});
