/**
 * The RuntimeClass admission plugin's refusals explained (plugin/pkg/admission/runtimeclass/admission.go):
 * the class that was not found, the classes that exist and the closest one when the class list was read,
 * "unknown" when it was not, and who acts (the app team's runtimeClassName, the platform team's class).
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/answer/diagnose.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { snapshotOf } from '../support/builders.ts';

const NOT_FOUND =
  'Error from server (Forbidden): error when creating "nginx-runc.yaml": pods "nginx-runc" is forbidden: pod rejected: RuntimeClass "runc" not found';

function runtimeClass(name: string, handler: string): KObject {
  return { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name }, handler } as KObject;
}

function reply(text: string, o: { state?: Snapshot; unreadResources?: string[] } = {}): string[] {
  const r = diagnose({ text, namespace: 'default', ...o }).answer.replies[0]!;
  return [`${r.icon} ${r.headline}`, ...r.lines];
}

const WHO_NOT_QUOTA =
  'Not a ResourceQuota, LimitRange or scheduler decision: raising quota or freeing nodes changes nothing.';

describe('RuntimeClass refusals', () => {
  it.each([
    [
      'the state lists the classes: the name used is a handler of another class (did you mean it)',
      { state: snapshotOf(runtimeClass('native', 'runc'), runtimeClass('gvisor', 'runsc')) },
      [
        'ℹ️ Rejected at admission — RuntimeClass runc not found — pod nginx-runc (default)',
        'No RuntimeClass "runc" exists: the RuntimeClass admission plugin refuses a pod whose runtimeClassName names no RuntimeClass (RuntimeClasses are cluster-wide; the name is the object\'s, not its handler\'s).',
        'RuntimeClasses that exist: gvisor (handler runsc), native (handler runc).',
        'Did you mean native?',
        'Who: the app team fixes runtimeClassName (to native); the platform team installs the RuntimeClass runc (and its handler on the nodes) if the workload needs it.',
        WHO_NOT_QUOTA,
      ],
    ],
    [
      'a typo of a class that exists',
      { state: snapshotOf(runtimeClass('rune', 'runc')) },
      [
        'ℹ️ Rejected at admission — RuntimeClass runc not found — pod nginx-runc (default)',
        'No RuntimeClass "runc" exists: the RuntimeClass admission plugin refuses a pod whose runtimeClassName names no RuntimeClass (RuntimeClasses are cluster-wide; the name is the object\'s, not its handler\'s).',
        'RuntimeClasses that exist: rune (handler runc).',
        'Did you mean rune?',
        'Who: the app team fixes runtimeClassName (to rune); the platform team installs the RuntimeClass runc (and its handler on the nodes) if the workload needs it.',
        WHO_NOT_QUOTA,
      ],
    ],
    [
      'the state holds no class at all',
      { state: snapshotOf() },
      [
        'ℹ️ Rejected at admission — RuntimeClass runc not found — pod nginx-runc (default)',
        'No RuntimeClass "runc" exists: the RuntimeClass admission plugin refuses a pod whose runtimeClassName names no RuntimeClass (RuntimeClasses are cluster-wide; the name is the object\'s, not its handler\'s).',
        'The cluster has no RuntimeClass at all.',
        'Who: the app team fixes runtimeClassName to one that exists; the platform team installs the RuntimeClass runc (and its handler on the nodes) if the workload needs it.',
        WHO_NOT_QUOTA,
      ],
    ],
    [
      'the class list could not be read: unknown, never "no class"',
      { state: snapshotOf(), unreadResources: ['runtimeclasses'] },
      [
        'ℹ️ Rejected at admission — RuntimeClass runc not found — pod nginx-runc (default)',
        'No RuntimeClass "runc" exists: the RuntimeClass admission plugin refuses a pod whose runtimeClassName names no RuntimeClass (RuntimeClasses are cluster-wide; the name is the object\'s, not its handler\'s).',
        'Which RuntimeClasses exist is unknown here (the class list was not read): `kubectl get runtimeclass` lists them.',
        'Who: the app team fixes runtimeClassName to one that exists; the platform team installs the RuntimeClass runc (and its handler on the nodes) if the workload needs it.',
        WHO_NOT_QUOTA,
      ],
    ],
    [
      'no cluster: unknown',
      {},
      [
        'ℹ️ Rejected at admission — RuntimeClass runc not found — pod nginx-runc (default)',
        'No RuntimeClass "runc" exists: the RuntimeClass admission plugin refuses a pod whose runtimeClassName names no RuntimeClass (RuntimeClasses are cluster-wide; the name is the object\'s, not its handler\'s).',
        'Which RuntimeClasses exist is unknown here (the class list was not read): `kubectl get runtimeclass` lists them.',
        'Who: the app team fixes runtimeClassName to one that exists; the platform team installs the RuntimeClass runc (and its handler on the nodes) if the workload needs it.',
        WHO_NOT_QUOTA,
      ],
    ],
  ])('%s', (_name, o, want) => {
    expect(reply(NOT_FOUND, o)).toEqual(want);
  });

  it.each([
    [
      'pods "web" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = gvisor; pod.spec.nodeSelector[sandbox] = kata',
      [
        'ℹ️ Rejected at admission — RuntimeClass: nodeSelector conflict — pod web (default)',
        "The pod's nodeSelector sets sandbox=kata, but its RuntimeClass requires sandbox=gvisor (its scheduling.nodeSelector is merged into the pod's, and a different value is refused).",
        "Fix (app team): drop sandbox from the pod's nodeSelector (the class adds it), or use a RuntimeClass whose nodes match.",
        "Who: the app team fixes the pod; the RuntimeClass's scheduling belongs to the platform team.",
        WHO_NOT_QUOTA,
      ],
    ],
    [
      `pods "web" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`,
      [
        'ℹ️ Rejected at admission — RuntimeClass: spec.overhead must not be set — pod web (default)',
        "The pod spec sets spec.overhead other than its RuntimeClass's overhead.podFixed; only the RuntimeClass admission plugin sets it.",
        'Fix (app team): remove spec.overhead from the manifest (a copy of a running pod carries it) — runtimeClassName is enough.',
        WHO_NOT_QUOTA,
      ],
    ],
  ])('%s', (text, want) => {
    expect(reply(text)).toEqual(want);
  });

  it('the JSON finding carries the contract facts', () => {
    const f = diagnose({ text: NOT_FOUND }).json.findings[0]!;
    expect([f.layer, f.kind, f.object, f.facts, f.now]).toEqual([
      'other',
      'runtimeclass',
      { resource: 'pods', name: 'nginx-runc' },
      { reason: 'class-not-found', runtimeClass: 'runc' },
      'unknown',
    ]);
  });
});
