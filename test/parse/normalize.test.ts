import { describe, expect, it } from 'vitest';
import { cleanLine, normalizePaste } from '../../src/parse/normalize.ts';

describe('cleanLine', () => {
  it.each([
    [
      'Slack quote + entities',
      '&gt; pods &quot;x&quot; is forbidden: a &amp; b &lt;c&gt;',
      'pods "x" is forbidden: a & b <c>',
    ],
    ['nested quote', '> > exceeded quota: q', 'exceeded quota: q'],
    ['inline code', '`Error creating: pods "x" is forbidden`', 'Error creating: pods "x" is forbidden'],
    [
      'fence with text',
      '```0/3 nodes are available: 3 Insufficient cpu.```',
      '0/3 nodes are available: 3 Insufficient cpu.',
    ],
    ['k9s borders', '│ Warning FailedScheduling 0/3 nodes │', 'Warning FailedScheduling 0/3 nodes'],
    ['k9s frame line', '└──────────────┘', ''],
    [
      'JSON escapes',
      '"message": "pods \\"x\\" is forbidden: \\u003cnone\\u003e"',
      '"message": "pods "x" is forbidden: <none>"',
    ],
    [
      'YAML doubled quote',
      "message: '0/3 nodes: 3 node(s) didn''t match'",
      "message: '0/3 nodes: 3 node(s) didn't match'",
    ],
    ['event aggregation', '(combined from similar events): Error creating: x', 'Error creating: x'],
    [
      'describe repeat count',
      'Warning  FailedScheduling  46s (x6 over 2m5s)  default-scheduler  0/1',
      'Warning  FailedScheduling  46s   default-scheduler  0/1',
    ],
    [
      'kubectl prefix',
      'Error from server (Forbidden): error when creating "f.yaml": pods "x" is forbidden: y',
      'pods "x" is forbidden: y',
    ],
    [
      'old kubectl prefix',
      'Error from server: error when creating "/tmp/t": pods "x" is forbidden: y',
      'pods "x" is forbidden: y',
    ],
    ['HTML code tags', '<code>> kubectl describe jobs</code>', 'kubectl describe jobs'],
  ])('%s', (_name, input, expected) => {
    expect(cleanLine(input)).toBe(expected);
  });
});

describe('normalizePaste', () => {
  it.each([
    [
      'word cut by a terminal',
      'failed to ensure load b\nalancer: TooManyLoadBalancers',
      'failed to ensure load balancer: TooManyLoadBalancers',
    ],
    [
      'k9s cut inside a word',
      '│ 2 No p │\n│ reemption victims found for incoming pod. │',
      '2 No preemption victims found for incoming pod.',
    ],
    [
      'message continued after a comma (docs)',
      'exceeded quota: mem-cpu-demo,\nrequested: requests.memory=700Mi,used: requests.memory=600Mi',
      'exceeded quota: mem-cpu-demo, requested: requests.memory=700Mi,used: requests.memory=600Mi',
    ],
    [
      'YAML folded scalar',
      '    message: \'unable to create pods: pods "p-" is forbidden:\n      exceeded quota: pod-demo, requested: pods=1, used: pods=2, limited: pods=2\'\n    reason: FailedCreate',
      '    message: \'unable to create pods: pods "p-" is forbidden: exceeded quota: pod-demo, requested: pods=1, used: pods=2, limited: pods=2\'\n    reason: FailedCreate',
    ],
    [
      'separate records stay separate',
      '0/3 nodes are available: 3 Insufficient cpu\n9m44s  Warning  FailedScheduling  x',
      '0/3 nodes are available: 3 Insufficient cpu\n9m44s  Warning  FailedScheduling  x',
    ],
    ['unrelated lines stay separate', 'hello\nworld', 'hello\nworld'],
  ])('%s', (_name, input, expected) => {
    expect(normalizePaste(input)).toBe(expected);
  });
});
