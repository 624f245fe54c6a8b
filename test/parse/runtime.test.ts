import { describe, expect, it } from 'vitest';
import { findRuntime } from '../../src/parse/runtime.ts';
import { normalizePaste } from '../../src/parse/normalize.ts';

const reasons = (text: string) => [...new Set(findRuntime(normalizePaste(text)).map((m) => m.facts.reason))];

describe('findRuntime', () => {
  it.each([
    [
      'OOMKilled in describe',
      '    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137',
      ['OOMKilled', 'ExitCode137'],
    ],
    ['2014 wording', '"reason": "OOM Killed"', ['OOMKilled']],
    [
      'eviction, old wording',
      'The node was low on resource: memory. Container egg was using 5053216Ki, which exceeds its request of 0.',
      ['Evicted'],
    ],
    [
      'eviction, new wording',
      'Message: The node was low on resource: ephemeral-storage. Threshold quantity: 100Mi, available: 87608Ki. Container app was using 2Gi, request is 0, has larger consumption of ephemeral-storage.',
      ['Evicted'],
    ],
    [
      'node condition eviction',
      'Warning   Evicted   pod/egg-2   The node had condition: [MemoryPressure].',
      ['Evicted'],
    ],
    [
      'node event',
      'Normal  NodeHasInsufficientMemory  kubelet  Node n1 status is now: NodeHasInsufficientMemory',
      ['MemoryPressure'],
    ],
    ['exit 137 alone', 'Last State: Terminated\n  Reason: Error\n  Exit Code: 137', ['ExitCode137']],
    [
      'CPU throttling alert',
      '[FIRING:1] CPUThrottlingHigh: 47.3% throttling of CPU in namespace team-a',
      ['CPUThrottling'],
    ],
    [
      'kubelet admission',
      "Warning  OutOfcpu  43m  kubelet  Node didn't have enough resource: cpu, requested: 1000, used: 94939, capacity: 95690",
      ['OutOfcpu'],
    ],
    ['no false positive in prose', 'we evaluated the eviction policy', []],
  ])('%s', (_name, text, expected) => {
    expect(reasons(text)).toEqual(expected);
  });
});
