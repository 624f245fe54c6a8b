/**
 * The classes of text the fifth blind set (test/fixtures/paste-wild/held5.jsonl, issue #17) missed, read in
 * general, each positive next to a negative:
 * - LimitRanger's 1.1/1.2 capitalised wording (`Minimum CPU usage per pod is 250m`,
 *   plugin/pkg/admission/limitranger/admission.go of that era): the resource is the lowercase `cpu`;
 * - a LimitRange message printed one clause a table cell (`| maximum storage usage per PersistentVolumeClaim
 *   is 1Gi |` ⏎ `| request is 5Gi |`): the next cell is its `actual`;
 * - an `is forbidden` envelope retyped without its colon, with the quoted name;
 * - the kubelet's eviction message (pkg/kubelet/eviction/helpers.go containerMessageFmt) split over source
 *   string literals (`"…using 1843Mi, "+` ⏎ `"request is 512Mi…"`);
 * - Pod Security controls one a line under the message, and a `)` of the prose around it
 *   (staging/src/k8s.io/pod-security-admission/admission: forbidden reasons joined by `, `);
 * - FitError reason lists cut after a `,`, inside a source row (`…cpu", levelWarn},`), or inside a Go `%v` of
 *   conditions (`…rules.}]`); a template whose counts are placeholders (`{n} Insufficient cpu`) is none;
 * - the pre-1.24 must-specify list (`strings.Join(…, ",")`) retyped with blanks after its commas;
 * - reason names a program declares (`"Evicted",`, `TypeOOM = "OOMKilled"`, `OOMKilled bool`): no incident.
 */
import { describe, expect, it } from 'vitest';
import { type Said, said } from '../support/said.ts';

type Facts = Record<string, unknown>;
const lr = (violations: Facts[], object?: Said['object']): Said => ({
  layer: 'limitrange',
  kind: 'limitrange',
  facts: { violations },
  ...(object ? { object } : {}),
});
const evicted = (facts: Facts): Said => ({ layer: 'runtime', kind: 'runtime', facts: { reason: 'Evicted', ...facts } });
const psa = (controls: Facts[], object?: Said['object']): Said => ({
  layer: 'other',
  kind: 'pod-security',
  facts: { level: 'baseline', version: 'latest', controls, enforced: true },
  ...(object ? { object } : {}),
});
const unsched = (total: number, reasons: Facts[]): Said => ({
  layer: 'scheduler',
  kind: 'unschedulable',
  facts: { total, reasons },
});

describe('LimitRange: capitalised resource names, table cells, an envelope without its colon (limitranger/admission.go)', () => {
  it.each<[string, string, Said[]]>([
    [
      '1.1/1.2 capitalised CPU reads as cpu',
      'Error from server: Pod "web" is forbidden: Minimum CPU usage per pod is 250m, but requested 10m',
      [
        lr([{ scope: 'Pod', resource: 'cpu', bound: 'min', limit: '250m', actual: '10m' }], {
          resource: 'pods',
          name: 'web',
        }),
      ],
    ],
    [
      'a retyped Memory reads as memory',
      'pods "web" is forbidden: Maximum Memory usage per Container is 512Mi, but limit is 1Gi',
      [
        lr([{ scope: 'Container', resource: 'memory', bound: 'max', limit: '512Mi', actual: '1Gi' }], {
          resource: 'pods',
          name: 'web',
        }),
      ],
    ],
    [
      'negative: an extended resource keeps its case',
      'pods "web" is forbidden: maximum example.com/GPU usage per Container is 1, but limit is 2',
      [
        lr([{ scope: 'Container', resource: 'example.com/GPU', bound: 'max', limit: '1', actual: '2' }], {
          resource: 'pods',
          name: 'web',
        }),
      ],
    ],
    [
      'one clause a table cell: the next cell is the actual',
      '| Forbidden |\n| maximum storage usage per PersistentVolumeClaim is 2Gi |\n| request is 10Gi |',
      [lr([{ scope: 'PersistentVolumeClaim', resource: 'storage', bound: 'max', limit: '2Gi', actual: '10Gi' }])],
    ],
    [
      'negative: a next cell that is no clause gives no actual',
      '| maximum storage usage per PersistentVolumeClaim is 2Gi |\n| the claim asked for 10Gi |',
      [lr([{ scope: 'PersistentVolumeClaim', resource: 'storage', bound: 'max', limit: '2Gi', actual: null }])],
    ],
    [
      'an envelope retyped without its colon names the object',
      'pods "demo" is forbidden maximum memory usage per Pod is 128Mi, but limit is 1073741824',
      [
        lr([{ scope: 'Pod', resource: 'memory', bound: 'max', limit: '128Mi', actual: '1073741824' }], {
          resource: 'pods',
          name: 'demo',
        }),
      ],
    ],
    [
      'negative: without the quoted name it names none',
      'it says pods is forbidden maximum memory usage per Pod is 128Mi, but limit is 1073741824',
      [lr([{ scope: 'Pod', resource: 'memory', bound: 'max', limit: '128Mi', actual: '1073741824' }])],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('the eviction message split over source string literals (eviction/helpers.go containerMessageFmt)', () => {
  it.each<[string, string, Said[]]>([
    [
      'joined with "+ across lines',
      '\tevicted("The node was low on resource: memory. Container web was using 900Mi, "+\n\t\t"which exceeds its request of 256Mi.")',
      [evicted({ resource: 'memory', container: 'web', used: '900Mi', request: '256Mi' })],
    ],
    [
      'negative: another expression between the literals is a program building it (LABELLING.md §2.3)',
      '\tevicted("The node was low on resource: memory. Container web was using 900Mi, " + other + "request is 1Gi, has larger consumption of memory.")',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('Pod Security controls one a line, and a ) of the prose around the message (pod-security-admission)', () => {
  it.each<[string, string, Said[]]>([
    [
      'one control a line under the message',
      'Error: pods "api" is forbidden: violates PodSecurity "baseline:latest": \n  hostPath volumes (volume "data")\n  privileged (container "app" must not set securityContext.privileged=true)\n\nthen nothing ran',
      [
        psa(
          [
            { control: 'hostPath volumes', detail: 'volume "data"' },
            { control: 'privileged', detail: 'container "app" must not set securityContext.privileged=true' },
          ],
          { resource: 'pods', name: 'api' },
        ),
      ],
    ],
    [
      'negative: an unindented line after the controls is none',
      'pods "api" is forbidden: violates PodSecurity "baseline:latest": hostPath volumes\nThe namespace enforces baseline.',
      [psa([{ control: 'hostPath volumes' }], { resource: 'pods', name: 'api' })],
    ],
    [
      'a ) that closes the prose around the message',
      'provisioning fails (`violates PodSecurity "baseline:latest": hostPath volumes`). Both namespaces need the label.',
      [psa([{ control: 'hostPath volumes' }])],
    ],
    [
      'negative: a ) the detail opened stays',
      'violates PodSecurity "baseline:latest": hostPath volumes (volume "x")',
      [psa([{ control: 'hostPath volumes', detail: 'volume "x"' }])],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('FitError reason lists cut short, in a source row or a condition list; templates are none', () => {
  it.each<[string, string, Said[]]>([
    [
      'a list cut after its comma',
      'Warning  FailedScheduling  73s  default-scheduler  0/3 nodes are available: 3 Insufficient memory,',
      [unsched(3, [{ count: 3, reason: 'Insufficient memory' }])],
    ],
    [
      'the rest of a source row after the closing quote',
      '\t\t{"wait", ReasonQueued, "waiting: 0/4 nodes are available: 4 Insufficient cpu", levelWarn},',
      [unsched(4, [{ count: 4, reason: 'Insufficient cpu' }])],
    ],
    [
      'inside a Go %v of a condition list',
      "pod updated Pending [{PodScheduled False 0/5 nodes are available: 2 Insufficient pods, 3 node(s) didn't satisfy existing pods anti-affinity rules.}]",
      [
        unsched(5, [
          { count: 2, reason: 'Insufficient pods' },
          { count: 3, reason: "node(s) didn't satisfy existing pods anti-affinity rules" },
        ]),
      ],
    ],
    [
      'negative: a template whose counts are placeholders',
      '        f"0/10 nodes are available: {rint(1,5)} Insufficient cpu, {rint(1,5)} Insufficient memory",',
      [],
    ],
    [
      'the same line with counts is a message',
      '        "0/10 nodes are available: 3 Insufficient cpu, 2 Insufficient memory",',
      [
        unsched(10, [
          { count: 3, reason: 'Insufficient cpu' },
          { count: 2, reason: 'Insufficient memory' },
        ]),
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('must specify: the pre-1.24 list retyped with blanks after its commas (resourcequota/controller.go)', () => {
  it.each<[string, string, Said[]]>([
    [
      'every name of the list',
      'pods "w" is forbidden: failed quota: q1: must specify requests.cpu, requests.memory.',
      [
        {
          layer: 'quota',
          kind: 'quota-must-specify',
          facts: { quota: 'q1', resources: { 'requests.cpu': [], 'requests.memory': [] } },
          object: { resource: 'pods', name: 'w' },
        },
      ],
    ],
    [
      'negative: a word after the comma that no quota counts ends the list',
      'pods "w" is forbidden: failed quota: q1: must specify limits.cpu, and then it stopped',
      [
        {
          layer: 'quota',
          kind: 'quota-must-specify',
          facts: { quota: 'q1', resources: { 'limits.cpu': [] } },
          object: { resource: 'pods', name: 'w' },
        },
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('reason names a program declares report no incident', () => {
  it.each<[string, string, Said[]]>([
    ['a list element', 'watched = [\n    "FailedMount",\n    "Evicted",\n    "BackOff",\n]', []],
    ['a constant', 'const (\n\tIncidentOOM = "OOMKilled"\n)', []],
    ['a struct field', 'type Exit struct {\n\tOOMKilled     bool      `json:"oom_killed,omitempty"`\n}', []],
    [
      'negative: an object field assigned the reason reports it',
      'status.reason = "OOMKilled"',
      [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled' } }],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('Priority admission: a placeholder class, a message split over literals (plugin/pkg/admission/priority)', () => {
  it.each<[string, string, unknown[]]>([
    [
      'a placeholder for the class: the refusal, no class named',
      'it leads to: Error creating: pods "..." is forbidden: no PriorityClass with name ... was found',
      [{ layer: 'other', kind: 'priority', reason: 'class-not-found', priorityClass: null }],
    ],
    [
      'negative: a named class is kept',
      'Error creating: pods "web-1" is forbidden: no PriorityClass with name high was found',
      [{ layer: 'other', kind: 'priority', reason: 'class-not-found', priorityClass: 'high' }],
    ],
    [
      'the integer split over two source literals',
      '    "the plugin rejects it: \'the integer value of priority "\n    "(0) must not be provided in pod spec\'."',
      [{ layer: 'other', kind: 'priority', reason: 'priority-set', priorityClass: null, priority: 0 }],
    ],
    [
      'negative: without the integer it is still the refusal',
      'the integer value of priority must not be provided in pod spec',
      [{ layer: 'other', kind: 'priority', reason: 'priority-set', priorityClass: null }],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text).map((s) => ({ layer: s.layer, kind: s.kind, ...(s.facts as Facts) }))).toEqual(want);
  });
});

describe('the lists of an exceeded-quota refusal quoted without their head (resourcequota/controller.go)', () => {
  it.each<[string, string, Said[]]>([
    [
      'requested, used, limited: the quota is not named',
      'Our rejection said `requested: requests.cpu=500m, used: requests.cpu=2, limited: requests.cpu=2`, so the pod needs more.',
      [
        {
          layer: 'quota',
          kind: 'quota-exceeded',
          facts: {
            quota: null,
            resources: { 'requests.cpu': { requested: '500m', used: '2', limited: '2' } },
            exceeding: ['requests.cpu'],
          },
        },
      ],
    ],
    ['negative: a requested: without the other lists', 'requested: requests.cpu=500m and it was granted', []],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe("EC2's VcpuLimitExceeded sentence wrapped over lines", () => {
  it.each<[string, string, Said[]]>([
    [
      'wrapped after "than your"',
      'error launching instance: You have requested more vCPU capacity than your\ncurrent vCPU limit of 64 allows for the instance bucket.',
      [{ layer: 'other', kind: 'cloud-quota', facts: { provider: 'aws', quota: 'VcpuLimitExceeded' } }],
    ],
    ['negative: another capacity sentence', 'You have requested more vCPU capacity than we expected.', []],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('the kernel victim line retyped in lower case or split over source literals (mm/oom_kill.c)', () => {
  const oom = (facts: Facts): Said => ({ layer: 'runtime', kind: 'runtime', facts: { reason: 'OOMKilled', ...facts } });
  it.each<[string, string, Said[]]>([
    [
      'lower case, without the pid',
      '        msg = "memory cgroup out of memory: killed process (git). credentials expired"',
      [oom({ process: 'git' })],
    ],
    [
      'a Python literal split before the name',
      '    text = (\n        "Sep 15 12:08:17 host kernel: Out of memory: Killed process 571 "\n        "(python) total-vm:2071252kB, anon-rss:257104kB file-rss:1576kB\\n"\n    )',
      [oom({ process: 'python', used: '257104Ki' })],
    ],
    [
      'negative: two list items are not one literal',
      'lines = [\n    "Out of memory: Killed process 571 ",\n    "(python) total-vm:2071252kB, anon-rss:257104kB",\n]',
      [oom({})],
    ],
  ])('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});

describe('a placeholder class without the envelope is a catalogue entry', () => {
  it('negative: a table of messages', () => {
    expect(
      said('| Message | Cause |\n| --- | --- |\n| `no PriorityClass with name ... was found` | missing class |'),
    ).toEqual([]);
  });
});
