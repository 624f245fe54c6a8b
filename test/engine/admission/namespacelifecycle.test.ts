/**
 * Ported from staging/src/k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle/admission_test.go (v1.35):
 * TestAdmissionNamespaceDoesNotExist, TestAdmissionNamespaceActive, TestAdmissionNamespaceTerminating and the
 * immortal namespaces; plus the engine's rule that a state without Namespace objects says nothing.
 */
import { describe, expect, it } from 'vitest';
import { Snapshot } from '../../../src/k8s/snapshot.ts';
import type { Operation } from '../../../src/engine/admission/evaluators/types.ts';
import { admitNamespaceLifecycle } from '../../../src/engine/admission/namespacelifecycle.ts';

function state(namespaces: [name: string, phase: string][]): Snapshot {
  const s = new Snapshot();
  for (const [name, phase] of namespaces) s.put({ kind: 'Namespace', metadata: { name }, status: { phase } });
  return s;
}
const TERMINATING = 'unable to create new content in namespace test because it is being terminated';

describe('NamespaceLifecycle (namespace/lifecycle/admission_test.go)', () => {
  it.each<[string, [string, string][], string, Operation, string | null]>([
    ['namespace does not exist: create', [['other', 'Active']], 'test', 'CREATE', 'namespaces "test" not found'],
    ['namespace does not exist: update', [['other', 'Active']], 'test', 'UPDATE', 'namespaces "test" not found'],
    ['namespace does not exist: delete is allowed', [['other', 'Active']], 'test', 'DELETE', null],
    ['namespace active: create', [['test', 'Active']], 'test', 'CREATE', null],
    ['namespace terminating: create', [['test', 'Terminating']], 'test', 'CREATE', TERMINATING],
    ['namespace terminating: update is allowed', [['test', 'Terminating']], 'test', 'UPDATE', null],
    ['namespace terminating: delete is allowed', [['test', 'Terminating']], 'test', 'DELETE', null],
    ['immortal namespace default', [['other', 'Active']], 'default', 'CREATE', null],
    ['immortal namespace kube-system', [['other', 'Active']], 'kube-system', 'CREATE', null],
    ['a state without Namespace objects says nothing', [], 'test', 'CREATE', null],
  ])('%s', (_n, namespaces, ns, op, want) => {
    expect(admitNamespaceLifecycle(state(namespaces), ns, op)?.message ?? null).toBe(want);
  });

  it('not found is a 404, terminating a 403', () => {
    expect(admitNamespaceLifecycle(state([['x', 'Active']]), 'test', 'CREATE')?.httpStatus).toBe(404);
    expect(admitNamespaceLifecycle(state([['test', 'Terminating']]), 'test', 'CREATE')?.httpStatus).toBe(403);
  });

  it('a namespace holding objects exists even without its Namespace object', () => {
    const s = state([['other', 'Active']]);
    s.put({ kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'test' } });
    expect(admitNamespaceLifecycle(s, 'test', 'CREATE')).toBeNull();
  });
});
