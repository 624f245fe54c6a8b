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
    [
      'fence with a word that is not a language (Slack)',
      '```no nodes available to schedule pods.```',
      'no nodes available to schedule pods.',
    ],
    [
      'fence with a language and text',
      '```text 0/2 nodes are available: 2 Too many pods.',
      '0/2 nodes are available: 2 Too many pods.',
    ],
    [
      'zero-width characters, no-break spaces',
      '0/3\u200b nodes are available:\u00a03 Insufficient\u2060 cpu.\ufeff',
      '0/3 nodes are available: 3 Insufficient cpu.',
    ],
    [
      'typographic quotes',
      'pods \u201cweb-0\u201d is forbidden: 1 node(s) didn\u2019t match',
      'pods "web-0" is forbidden: 1 node(s) didn\'t match',
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
    // Classes from the blind set (test/fixtures/paste-wild): where a page or a terminal broke a message.
    [
      'preemption part on the next line',
      'FailedScheduling: 0/2 nodes are available: 2 Too many pods. \npreemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
      'FailedScheduling: 0/2 nodes are available: 2 Too many pods. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
    ],
    [
      'shell-commented output continues',
      '# pods "p" is forbidden: failed quota:\n# q: must specify limits.cpu for: app;\n#    must specify limits.memory for: app',
      '# pods "p" is forbidden: failed quota: q: must specify limits.cpu for: app; must specify limits.memory for: app',
    ],
    [
      'soft wrap after an opening word of a list',
      'pods "n" is forbidden: [maximum\ncpu usage per Pod is 1, but limit is 2]',
      'pods "n" is forbidden: [maximum cpu usage per Pod is 1, but limit is 2]',
    ],
    [
      'a quoted file name is not a YAML key: the message goes on after "failed quota:"',
      '"pod.yaml": pods "nginx" is forbidden: failed quota:\nquota-example: must specify cpu,memory',
      '"pod.yaml": pods "nginx" is forbidden: failed quota: quota-example: must specify cpu,memory',
    ],
    [
      'exceeded-quota list broken before used:',
      '"Pod2.yml": pods "d" is forbidden: exceeded quota: q, requested: cpu=1,\nused: cpu=1, limited: cpu=1',
      '"Pod2.yml": pods "d" is forbidden: exceeded quota: q, requested: cpu=1, used: cpu=1, limited: cpu=1',
    ],
    [
      'broken before "is forbidden:" and before "for:"',
      'error: pods "vcluster-r05-0"\nis forbidden: failed quota: vc: must specify limits.cpu\nfor: syncer',
      'error: pods "vcluster-r05-0" is forbidden: failed quota: vc: must specify limits.cpu for: syncer',
    ],
    [
      'broken after the resource of a validation rule',
      'Invalid value: "300m": must be less than or equal to cpu\nlimit of 100m',
      'Invalid value: "300m": must be less than or equal to cpu limit of 100m',
    ],
    [
      'a YAML sibling key still ends the line',
      'message: pods "x" is forbidden: q\nreason: FailedCreate',
      'message: pods "x" is forbidden: q\nreason: FailedCreate',
    ],
  ])('%s', (_name, input, expected) => {
    expect(normalizePaste(input)).toBe(expected);
  });
});
