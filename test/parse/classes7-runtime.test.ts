/**
 * The runtime classes of text the fifth development set (/work/wt/dev5.jsonl, issue #17 Deliver 6) missed, read
 * in general, each positive next to a negative:
 * - the kernel's victim line (mm/oom_kill.c __oom_kill_process: `%s: Killed process %d (%s) total-vm:%lukB,
 *   anon-rss:%lukB, …`, one line) wrapped by a terminal or a comment block, retyped without its pid, or as
 *   `Kill process N (x) total-vm:…`: `process` and `used` (anon-rss) read across the wrap;
 * - the kubelet's eviction message (pkg/kubelet/eviction/helpers.go containerMessageFmt `Container %s was using
 *   %s, which exceeds its request of %s. `) wrapped inside a `#` comment block, or with a writer's placeholder
 *   for the container (`<container-name>`: the numbers hold, no container is named);
 * - the container of a status item cut above its `{` (`"lastState": {…}` then `"name": "x"` at the same level)
 *   or written as a Go map literal (`[]any{map[string]any{` ⏎ `"name": "api", "ready": true,`);
 * - `kubectl describe` quoted whole as shell comments (`# Limits:` ⏎ `#   memory: 256Mi`), next to a manifest
 *   whose commented-out `# limits:` is not set;
 * - a matcher's source (`re.compile(r"… Memory cgroup out of memory …\s+…")`), which reports no kill;
 * - an OOM kill's message in a tool's words: `Container x exceeded memory limit (512Mi) and was terminated`.
 */
import { describe, expect, it } from 'vitest';
import { type Said, said } from '../support/said.ts';

type Facts = Record<string, unknown>;
const runtime = (facts: Facts, object?: Said['object']): Said => ({
  layer: 'runtime',
  kind: 'runtime',
  facts,
  ...(object ? { object } : {}),
});
const oom = (facts: Facts = {}, object?: Said['object']): Said => runtime({ reason: 'OOMKilled', ...facts }, object);
const evicted = (facts: Facts): Said => runtime({ reason: 'Evicted', ...facts });

describe('the kernel victim line, wrapped, without its pid or retyped (mm/oom_kill.c __oom_kill_process)', () => {
  it.each<[string, string, Said[]]>([
    [
      'wrapped before total-vm',
      'Memory cgroup out of memory: Killed process 4242 (worker)\n    total-vm:1048576kB, anon-rss:524288kB, file-rss:0kB',
      [oom({ used: '512Mi', process: 'worker' })],
    ],
    [
      'wrapped inside a comment block, after total-vm',
      '# Memory cgroup out of memory:\n#   Killed process 9 (php-fpm) total-vm:800000kB,\n#   anon-rss:409600kB, file-rss:12kB',
      [oom({ used: '400Mi', process: 'php-fpm' })],
    ],
    [
      'without its pid (total-vm in GB is not anon-rss)',
      'dmesg showed `Memory cgroup out of memory: Killed process (node) total-vm:3GB` right before the restart',
      [oom({ process: 'node' })],
    ],
    [
      'without its pid, an approximate anon-rss is not read',
      'Memory cgroup out of memory: Killed process (java) anon-rss: ~4GB',
      [oom({ process: 'java' })],
    ],
    [
      'retyped as Kill process N (x) total-vm',
      '[ 88.1] Out of memory: Kill process 77 (ruby) total-vm:2097152kB, anon-rss:1048575kB, file-rss:0kB',
      [oom({ used: '1048575Ki', process: 'ruby' })],
    ],
    [
      'negative: the reaper line after a wrap gives no usage (its anon-rss is what is left)',
      '[ 12.1] Memory cgroup out of memory: Killed process 5 (redis-server)\n[ 12.3] oom_reaper: reaped process 5 (redis-server), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB',
      [oom({ process: 'redis-server' })],
    ],
    [
      'negative: before 5.0 the selected task is not the killed child',
      'Memory cgroup out of memory: Kill process 10 (sh) score 5 or sacrifice child\nKilled process 11 (convert)\n  total-vm:204800kB, anon-rss:102400kB, file-rss:0kB',
      [oom({ used: '100Mi', process: 'convert' })],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('the eviction message wrapped in a comment block, or with a placeholder container (eviction/helpers.go)', () => {
  it.each<[string, string, Said[]]>([
    [
      'wrapped inside # comments',
      'Reason: Evicted\n# Message:  The node was low on resource: memory. Container web was using\n#           900Mi, which exceeds its request of 256Mi.',
      [evicted({ container: 'web', resource: 'memory', request: '256Mi', used: '900Mi' })],
    ],
    [
      'a placeholder container: the numbers, no name',
      'Warning  Evicted  3m  kubelet  The node was low on resource: memory. Container <container-name> was using 3Gi, which exceeds its request of 1Gi.',
      [evicted({ resource: 'memory', request: '1Gi', used: '3Gi' })],
    ],
    [
      'negative: an upper-case placeholder is no container name either',
      'Warning  Evicted  3m  kubelet  The node was low on resource: memory. Container CONTAINER_NAME was using 3Gi, which exceeds its request of 1Gi.',
      [evicted({ resource: 'memory', request: '1Gi', used: '3Gi' })],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('the container of a status item cut above its start, or written as a Go map literal', () => {
  it.each<[string, string, Said[]]>([
    [
      'JSON item cut above its {: the name after lastState at the same level',
      '        "lastState": {\n          "terminated": {\n            "exitCode": 137,\n            "reason": "OOMKilled"\n          }\n        },\n        "name": "ingest",\n        "ready": false,',
      [oom({ container: 'ingest' })],
    ],
    [
      'Go map literal: the name among the keys of the line that opens the item',
      '\tStatus: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{\n\t\tName: "api",\n\t}}},\n\t\t"containerStatuses": []any{map[string]any{\n\t\t\t"name": "sidecar", "restartCount": 3,\n\t\t\t"lastState": map[string]any{"terminated": map[string]any{\n\t\t\t\t"reason": "OOMKilled",\n\t\t\t}},\n\t\t}},',
      [oom({ container: 'sidecar' })],
    ],
    [
      "negative: a name after the item closed is the pod's, not the container's",
      '          "lastState": {\n            "terminated": {\n              "reason": "OOMKilled"\n            }\n          }\n        }\n      ],\n      "name": "my-pod",',
      [oom()],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('kubectl describe quoted whole as shell comments', () => {
  it.each<[string, string, Said[]]>([
    [
      'limits and requests in # comments',
      '# Last State:  Terminated\n#   Reason:     OOMKilled\n#   Exit Code:  137\n# Limits:\n#   memory:  1Gi\n# Requests:\n#   memory:  512Mi',
      [oom({ limit: '1Gi', request: '512Mi' })],
    ],
    [
      'negative: a commented-out limits block in a manifest is not set',
      'spec:\n  containers:\n  - name: app\n    resources:\n      requests:\n        memory: 256Mi\n      # limits:\n      #   memory: 1Gi\nstatus:\n  containerStatuses:\n  - name: app\n    lastState:\n      terminated:\n        reason: OOMKilled',
      [oom({ container: 'app', request: '256Mi' })],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe("a matcher's source reports no kill", () => {
  it.each<[string, string, Said[]]>([
    [
      'negative: a regular expression for the kernel line',
      'pattern = re.compile(r"Memory cgroup out of memory: Killed process (\\d+) \\((\\S+)\\)")',
      [],
    ],
    ['negative: an alternation with a lookahead', 'OOM_RE = /(?:Out of memory|Memory cgroup out of memory)(?=:)/', []],
    [
      'the kernel line itself',
      'Memory cgroup out of memory: Killed process 31 (gunicorn) total-vm:400000kB, anon-rss:262144kB, file-rss:0kB',
      [oom({ used: '256Mi', process: 'gunicorn' })],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe("an OOM kill's message in a tool's words: the container and its memory limit", () => {
  it.each<[string, string, Said[]]>([
    [
      'exceeded memory limit (Q)',
      '{"reason": "OOMKilled", "message": "Container worker exceeded memory limit (1Gi) and was terminated"}',
      [oom({ container: 'worker', limit: '1Gi' })],
    ],
    [
      'exceeded its memory limit of Q',
      'Warning  OOMKilled  pod/api-7d9  container api exceeded its memory limit of 768Mi',
      [oom({ container: 'api', limit: '768Mi' }, { resource: 'pods', name: 'api-7d9' })],
    ],
    [
      'negative: a CPU limit is not the memory limit',
      'Warning  OOMKilled  pod/api-7d9  container api exceeded its cpu limit (2)',
      [oom({}, { resource: 'pods', name: 'api-7d9' })],
    ],
    [
      "negative: the words on another container's line further down",
      'Reason: OOMKilled\nlogs:\n  ok\n  ok\nnote: container cache exceeded memory limit (2Gi) last week',
      [oom()],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});
