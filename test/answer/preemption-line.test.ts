/**
 * What a reply says about preemption. DefaultPreemption only evicts pods of LOWER priority
 * (pkg/scheduler/framework/plugins/defaultpreemption, SelectVictimsOnNode: podPriority < preemptorPriority),
 * and a FailedScheduling message carries a `preemption:` part only when it found no victims (a PostFilter
 * that nominates adds no text: pkg/scheduler/schedule_one.go). So a paste never says preemption could help;
 * with the state, the engine's own preemption decides: the victims it would evict, or why there are none.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/answer/diagnose.ts';
import { enginePreemptionLine, preemptionLine } from '../../src/answer/replies/diagnosis.ts';
import type { KObject } from '../../src/k8s/snapshot.ts';
import { node, pod, priorityClass, snapshotOf } from '../support/builders.ts';

describe('preemptionLine: the reasons of DefaultPreemption failure message', () => {
  it.each<[string, { count: number | null; reason: string }[], string]>([
    [
      'es-3: the anti-affinity blockers are of the same priority',
      [
        { count: 3, reason: "node(s) didn't match pod anti-affinity rules" },
        { count: 9, reason: 'Preemption is not helpful for scheduling' },
      ],
      "Preemption cannot help: no node would fit it after evicting lower-priority pods — on 3 nodes it would still not fit with every lower-priority pod evicted (node(s) didn't match pod anti-affinity rules): what blocks it there is not of lower priority; 9 nodes fail for a reason no eviction changes.",
    ],
    [
      'the demo api pod: no lower-priority pod anywhere it could go',
      [
        { count: 4, reason: 'Preemption is not helpful for scheduling' },
        { count: 6, reason: 'No preemption victims found for incoming pod' },
      ],
      'Preemption cannot help: no node would fit it after evicting lower-priority pods — 6 nodes hold no lower-priority pod to evict; 4 nodes fail for a reason no eviction changes.',
    ],
    [
      'finetune: Insufficient GPUs even with every lower-priority pod gone',
      [
        { count: 2, reason: 'Insufficient nvidia.com/gpu' },
        { count: 8, reason: 'Preemption is not helpful for scheduling' },
      ],
      'Preemption cannot help: no node would fit it after evicting lower-priority pods — on 2 nodes it would still not fit with every lower-priority pod evicted (Insufficient nvidia.com/gpu): what blocks it there is not of lower priority; 8 nodes fail for a reason no eviction changes.',
    ],
    [
      'one node, a count lost in a fragment',
      [{ count: null, reason: 'No preemption victims found for incoming pod' }],
      'Preemption cannot help: no node would fit it after evicting lower-priority pods — some nodes hold no lower-priority pod to evict.',
    ],
    [
      'preemptionPolicy Never',
      [{ count: 10, reason: 'not eligible due to preemptionPolicy=Never.' }],
      'Preemption cannot help: its preemptionPolicy is Never, so it never evicts other pods.',
    ],
    [
      'a victim still terminating on the nominated node',
      [{ count: 10, reason: 'not eligible due to a terminating pod on the nominated node.' }],
      'Preemption cannot help yet: a pod it preempted is still terminating on its nominated node.',
    ],
  ])('%s', (_name, reasons, line) => {
    expect(preemptionLine(reasons)).toBe(line);
    expect(line).not.toMatch(/could free room/);
  });

  it.each<[string, { nominatedNode?: string; victims?: string[] }, string | undefined]>([
    [
      'victims in the asker namespace and elsewhere',
      { nominatedNode: 'n1', victims: ['team/low-a', 'other/low-b', 'other/low-c'] },
      'Preemption would make room now: it evicts 3 lower-priority pods on n1 (team/low-a, 2 pods of other namespaces).',
    ],
    [
      'one victim',
      { nominatedNode: 'n2', victims: ['team/low-a'] },
      'Preemption would make room now: it evicts 1 lower-priority pod on n2 (team/low-a).',
    ],
    ['no victims, no reasons: nothing to say', {}, undefined],
  ])('enginePreemptionLine: %s', (_name, schedule, line) => {
    expect(enginePreemptionLine(schedule, undefined, 'team')).toBe(line);
  });
});

/** n1 (1 CPU) is full with `blocker` (priority `blockerPriority`); `web` (priority 1000, 1 CPU) is Pending. */
function state(blockerPriority: number) {
  return snapshotOf(
    node('n1', { cpu: '1', memory: '4Gi' }),
    priorityClass('high', 1000) as KObject,
    priorityClass('low', 10) as KObject,
    priorityClass('same', 1000) as KObject,
    pod('blocker', {
      namespace: 'team',
      cpu: '1',
      node: 'n1',
      priority: blockerPriority,
      priorityClassName: blockerPriority === 10 ? 'low' : 'same',
      phase: 'Running',
    }) as KObject,
    pod('web', { namespace: 'team', cpu: '1', priority: 1000, priorityClassName: 'high', phase: 'Pending' }) as KObject,
  );
}

// The paste from an earlier moment, when no lower-priority pod was on n1.
const PASTE =
  'pod/web: 0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';

describe("diagnose: the reply's preemption line is the engine's verdict on the state", () => {
  it.each<[string, number | undefined, string]>([
    [
      'no state: the paste says preemption found no victims',
      undefined,
      'Preemption cannot help: no node would fit it after evicting lower-priority pods — 1 node holds no lower-priority pod to evict.',
    ],
    [
      'the blocker is of lower priority now: the engine finds the victim',
      10,
      'Preemption would make room now: it evicts 1 lower-priority pod on n1 (team/blocker).',
    ],
    [
      'the blocker has the same priority: no victim (podPriority < preemptorPriority fails)',
      1000,
      'Preemption cannot help: no node would fit it after evicting lower-priority pods — 1 node holds no lower-priority pod to evict.',
    ],
  ])('%s', (_name, blockerPriority, line) => {
    const out = diagnose({
      text: PASTE,
      namespace: 'team',
      ...(blockerPriority === undefined ? {} : { state: state(blockerPriority) }),
    });
    const lines = out.answer.replies[0]!.lines.filter((l) => l.startsWith('Preemption'));
    expect(lines).toEqual([line]);
  });
});
