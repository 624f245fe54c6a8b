/**
 * The classes of text the third blind set missed (issue #17, Deliver 6), read in general: a FitError reason
 * without its frame or count (pkg/scheduler/framework/types.go FitError.Error prints `0/N nodes are available:
 * <n reason>, …`; people quote one reason alone), the scheduler's pre-1.19 log lines (pkg/scheduler/factory/
 * factory.go MakeDefaultErrorFunc: `Error scheduling %v/%v: %v; retrying`, `Unable to schedule %v/%v: no nodes
 * are registered to the cluster; waiting`), the kernel's oom-killer wordings (mm/oom_kill.c, mm/memcontrol.c),
 * the kubelet's local-storage evictions (pkg/kubelet/eviction/helpers.go), quota refusals in list items
 * (plugin/pkg/admission/resourcequota), and the negatives next to each: catalogues of reason names, other
 * software's `Insufficient …` messages, OOM talked about in general.
 */
import { describe, expect, it } from 'vitest';
import { runtimeLines } from '../../src/answer/replies/runtime.ts';
import { parsePaste } from '../../src/parse/index.ts';
import { type Said, said } from '../support/said.ts';

const bare = (reason: string): Said => ({
  layer: 'scheduler',
  kind: 'unschedulable',
  facts: { total: null, reasons: [{ count: null, reason }] },
});
const PVC = 'pod has unbound immediate PersistentVolumeClaims';

const cases: [name: string, text: string, want: Said[]][] = [
  // ---- bare FitError reasons
  ['a reason alone on its line', 'Insufficient nvidia.com/gpu.', [bare('Insufficient nvidia.com/gpu')]],
  [
    'a reason in a code span, Pending near it',
    'The VM then stays `Pending` with `Insufficient hugepages-1Gi` until the node is reconfigured.',
    [bare('Insufficient hugepages-1Gi')],
  ],
  [
    'a reason in a table cell',
    '| `Insufficient amd.com/gpu` | the bench Job must not request a GPU |',
    [bare('Insufficient amd.com/gpu')],
  ],
  [
    'a reason in parentheses after "cannot be scheduled"',
    "- Pod **cannot be scheduled** (node(s) didn't satisfy existing pods anti-affinity rules)",
    [bare("node(s) didn't satisfy existing pods anti-affinity rules")],
  ],
  [
    'a node(s) reason in prose, the prose after it cut',
    "The scheduler says node(s) didn't match Pod's node affinity/selector, so nothing runs.",
    [bare("node(s) didn't match Pod's node affinity/selector")],
  ],
  [
    'a taint reason in a code span',
    'The pod is stuck Pending: `node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }`',
    [bare('node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }')],
  ],
  [
    'a comment block: the reason line is not a heading',
    '# a Job scheduled too early hits FailedScheduling\n# (Insufficient nvidia.com/gpu) and exhausts its backoffLimit',
    [bare('Insufficient nvidia.com/gpu')],
  ],
  [
    'a common resource needs a scheduling word',
    'Pod stays Pending, describe shows Insufficient memory',
    [bare('Insufficient memory')],
  ],
  [
    'a bare reason on the line of the whole message is that message',
    'Events: 0/3 nodes are available: 3 Insufficient cpu. (Insufficient cpu on every node)',
    [
      {
        layer: 'scheduler',
        kind: 'unschedulable',
        facts: { total: 3, reasons: [{ count: 3, reason: 'Insufficient cpu' }] },
      },
    ],
  ],
  // ---- negatives of the same shapes
  ["another program's message", '      fprintf(stderr,"Insufficient memory.\\n");', []],
  ['a quota of another kind', 'toast({ title: "Insufficient quota to submit." });', []],
  ['not a resource name', '常见：`Insufficient cpu/memory`、亲和/污点不匹配', []],
  ['a heading alone', '### Insufficient nvidia.com/gpu', []],
  [
    'a catalogue of reason names',
    "- `Insufficient nvidia.com/gpu` → No GPU capacity in zone\n- `node(s) didn't match Pod's node affinity` → Wrong GPU type",
    [],
  ],
  [
    'names listed in one sentence',
    'Messages that contain `Insufficient cpu`, `Insufficient memory`, or `Insufficient ephemeral-storage` are capacity-remediable.',
    [],
  ],
  // ---- the old scheduler's log lines
  [
    "Error scheduling ns name (before 1.11): the log tail is not a reason, the pod is the line's",
    'E1112 10:00:00.000000 1 factory.go:1] Error scheduling default web: 0/2 nodes are available: 2 Insufficient cpu.; retrying',
    [
      {
        layer: 'scheduler',
        kind: 'unschedulable',
        object: { resource: 'pods', name: 'web' },
        namespace: 'default',
        facts: { total: 2, reasons: [{ count: 2, reason: 'Insufficient cpu' }] },
      },
    ],
  ],
  [
    'Error scheduling ns/name with a PreFilter text',
    'E0108 22:07:45.954949 1 factory.go:660] Error scheduling shop/db-0: pod has unbound immediate PersistentVolumeClaims; retrying',
    [{ ...bare(PVC), object: { resource: 'pods', name: 'db-0' }, namespace: 'shop' }],
  ],
  [
    'no nodes registered: zero nodes',
    'I0101 10:00:00.000000 1 factory.go:1] Unable to schedule shop/web: no nodes are registered to the cluster; waiting',
    [
      {
        layer: 'scheduler',
        kind: 'unschedulable',
        object: { resource: 'pods', name: 'web' },
        namespace: 'shop',
        facts: { total: 0, reasons: [] },
      },
    ],
  ],
  [
    'a PreFilter text quoted alone on its line',
    'the pod failed with :\n> pod has unbound immediate PersistentVolumeClaims\nwhich is quite confusing',
    [bare(PVC)],
  ],
  // ---- kernel OOM and storage-limit evictions
  [
    'cgroup v1 before 5.0: Kill process N (name) score …',
    'Warning OOMKilling  Memory cgroup out of memory: Kill process 4481 (stress) score 1994 or sacrifice child',
    [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled', process: 'stress' } }],
  ],
  [
    'Killed process with a UID before total-vm',
    'kernel: Killed process 18177 (palo_be), UID 0, total-vm:70347780kB, anon-rss:2097152kB, file-rss:0kB, shmem-rss:0kB',
    [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled', used: '2Gi', process: 'palo_be' } }],
  ],
  [
    'cgroup v1: Task in … killed as a result of limit of …, and the cgroup numbers',
    'kernel: Task in /kubepods/pod1/abc killed as a result of limit of /kubepods/pod1/abc\nkernel: memory: usage 524288kB, limit 524288kB, failcnt 189',
    [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled', limit: '512Mi', used: '512Mi' } }],
  ],
  [
    'oom-kill:constraint (4.19+): the task',
    'kernel: oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=x,mems_allowed=0,oom_memcg=/kubepods/pod1,task_memcg=/kubepods/pod1/x,task=java,pid=42,uid=0',
    [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled', process: 'java' } }],
  ],
  [
    "the reaper freeing a killed task's memory",
    '[ 7063.263325] oom_reaper: reaped process 63214 (uwsgi), now anon-rss:0kB, file-rss:0kB, shmem-rss:92kB',
    [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled', process: 'uwsgi' } }],
  ],
  [
    'prose saying what the OOM killer killed',
    'dmesg shows the OOM killer killed java (pid 1234) at 03:00',
    [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled' } }],
  ],
  [
    'prose naming what the OOM killer killed',
    'my container was killed by the OOM killer again',
    [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled' } }],
  ],
  [
    'kills reported in general words',
    'We keep seeing OOMKilled errors on the api pods since Monday.',
    [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled' } }],
  ],
  [
    'an emptyDir over its sizeLimit',
    'Usage of EmptyDir volume "cache" exceeds the limit "1Gi". ',
    [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'Evicted', resource: 'ephemeral-storage', limit: '1Gi' } }],
  ],
  [
    'a container over its ephemeral-storage limit, in a code span',
    '- **Symptom**: `Container kaniko exceeded its local ephemeral storage limit "20Gi".`',
    [
      {
        layer: 'runtime',
        kind: 'runtime',
        facts: { reason: 'Evicted', container: 'kaniko', resource: 'ephemeral-storage', limit: '20Gi' },
      },
    ],
  ],
  [
    'the pod over the sum of its limits, in double backticks',
    '- ``Pod ephemeral local storage usage exceeds the total limit of containers 500Mi.``',
    [
      {
        layer: 'runtime',
        kind: 'runtime',
        facts: { reason: 'Evicted', resource: 'ephemeral-storage', limit: '500Mi' },
      },
    ],
  ],
  ['OOM to avoid', '- [ ] Resource limits set appropriately for JVM to avoid OOMKilled.', []],
  ['OOM prevented', 'This prevents OOMKilled errors.', []],
  ['OOM as a state talked about', 'Running VMs into OOMKilled states is the most common failure mode.', []],
  ['OOM that may happen', 'If the heap grows past the limit the pod can get OOMKilled.', []],
  // ---- quota refusals in list items
  [
    'a refusal split one part per list item',
    '- `exceeded quota: team-q`\n- `requested: pods=1`\n- `used: pods=4`\n- `limited: pods=4`',
    [
      {
        layer: 'quota',
        kind: 'quota-exceeded',
        facts: {
          quota: 'team-q',
          resources: { pods: { requested: '1', used: '4', limited: '4' } },
          exceeding: ['pods'],
        },
      },
    ],
  ],
  [
    'a refusal cut after "exceeded quota"',
    '- `Error creating: pods "web-1" is forbidden: exceeded quota`',
    [
      {
        layer: 'quota',
        kind: 'quota-exceeded',
        object: { resource: 'pods', name: 'web-1' },
        facts: { quota: null, resources: {}, exceeding: [] },
      },
    ],
  ],
  [
    "a named quota and the writer's sentence going on",
    'We got exceeded quota: object-counts and the pod never started.',
    [{ layer: 'quota', kind: 'quota-exceeded', facts: { quota: 'object-counts', resources: {}, exceeding: [] } }],
  ],
  ['a list item that only looks like one', '- Exceeded quota: 143% Year 1, 111% Year 2', []],
];

describe('classes of the third blind set, read in general', () => {
  it.each(cases)('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('a storage-limit eviction is answered as the pod over its own limit', () => {
  it('says so and gives the limit to raise, not the request', () => {
    const f = parsePaste(
      'Warning  Evicted  Pod ephemeral local storage usage exceeds the total limit of containers 5Gi.',
    ).findings[0];
    if (f?.kind !== 'runtime') throw new Error(`expected a runtime finding, got ${f?.kind}`);
    expect(runtimeLines(f, 'shop')).toEqual([
      "The kubelet evicted the pod for going over its own ephemeral-storage limit of 5Gi (the containers' ephemeral-storage limits, or an emptyDir's sizeLimit), not for node pressure.",
      'Raise that limit above what the pod writes, or move the data to a volume:',
      'kubectl -n shop set resources deploy/WORKLOAD --limits=ephemeral-storage=SIZE',
      'The paste does not name the container: without -c this sets every container; add -c NAME for one.',
    ]);
  });
});
