/**
 * Classes blind set 6 (test/fixtures/paste-wild/held6.jsonl) missed at its opening, read in general: kubectl's own
 * result line after a Pod Security warning is no control, a warning in a single-quoted literal ends at its closing
 * quote, and a webhook denial whose name and reason are both placeholders is a template, not a refusal.
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

const warning = (controls: { control: string; detail?: string }[]) => [
  { layer: 'other', kind: 'pod-security', facts: { level: 'baseline', version: 'latest', controls, enforced: false } },
];
const HOSTPATH = [{ control: 'hostPath volumes', detail: 'volume "hostpath-volume"' }];

describe('held6 classes: a taint elided as {...}', () => {
  it('ends no sentence (held6 w057, github file, search index id 71541169382)', () => {
    const f = parsePaste(
      '0/20 nodes are available: 12 Insufficient memory, 3 node(s) had untolerated taint {...}. preemption: 0/20 nodes are available: 20 Preemption is not helpful for scheduling.',
    ).findings;
    expect(f.map((x) => x.facts)).toEqual([
      {
        total: 20,
        reasons: [
          { count: 12, reason: 'Insufficient memory' },
          { count: 3, reason: 'node(s) had untolerated taint {...}' },
        ],
        preemption: { total: 20, reasons: [{ count: 20, reason: 'Preemption is not helpful for scheduling' }] },
      },
    ]);
  });
});

describe('held6 classes: Invalid value retyped without its colon, the value still quoted', () => {
  it.each([
    // held6 w020 (github file, search index id 70902716004)
    ['quoted', 'requests: Invalid value "48Mi": must be less than or equal to memory limit of 6Mi', '48Mi'],
    ['bare (as before)', 'requests: Invalid value 48Mi: must be less than or equal to memory limit of 6Mi', '48Mi'],
  ])('%s', (_name, text, value) => {
    expect(parsePaste(text).findings.map((f) => f.facts)).toMatchObject([{ resource: 'memory', value, limit: '6Mi' }]);
  });
});

describe('held6 classes: a page flattened without blanks (held6 w109, github file, search index id 52281193687)', () => {
  const refusal = (limited: string) =>
    `exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=1, limited: requests.nvidia.com/gpu=${limited}`;
  it.each([
    [
      'the next envelope glued on',
      `${refusal('1')}Error from server (Forbidden): error when creating "gpu-pod.yaml": pods "gpu-pod-f7z2w" is forbidden: ${refusal('1')}`,
    ],
    ['a page button glued on', `pods "gpu-pod-f7z2w" is forbidden: ${refusal('1')}Copy to ClipboardCopied!`],
  ])('%s: one refusal, limited 1', (_name, text) => {
    expect(parsePaste(text).findings.map((f) => f.facts)).toEqual([
      {
        quota: 'gpu-quota',
        resources: { 'requests.nvidia.com/gpu': { requested: '1', used: '1', limited: '1' } },
        exceeding: ['requests.nvidia.com/gpu'],
      },
    ]);
  });
});

describe('held6 classes: status unknown for quota quoted without its name', () => {
  it.each([
    // held6 w064 (github file, search index id 66584394024)
    [
      'double quotes',
      '# admission rejects the License create with "Forbidden ... status unknown for quota". Retry.',
      1,
    ],
    ['single quotes', "the create fails with 'status unknown for quota' until the controller catches up", 1],
    ['named (as before)', 'status unknown for quota: f5-quota, resources: pods', 1],
    ['prose without a quote', 'a status unknown for quota error is transient', 0],
  ])('%s', (_name, text, n) => {
    const f = parsePaste(text).findings;
    expect(f.map((x) => x.kind)).toEqual(Array(n).fill('quota-status-unknown'));
  });
});

describe('held6 classes: a headless rule reported in another language', () => {
  const RULE = '(`cpu request must be less than or equal to cpu limit of 0`)';
  it.each([
    // held6 w192 (github file, search index id 67027308685): Ukrainian "validation errors"
    ['Ukrainian', `спричиняло помилки валідації ${RULE}`, 1],
    ['Chinese', `部署时报错 ${RULE}`, 1],
    ['Japanese', `適用するとエラー ${RULE}`, 1],
    ['French', `une erreur de validation ${RULE}`, 1],
    // no word of a failure before it: another program's check, a table of rules
    ['no failure said', `правило ${RULE}`, 0],
  ])('%s', (_name, text, n) => {
    const f = parsePaste(text).findings;
    expect(f).toMatchObject(Array(n).fill({ kind: 'api-validation', facts: { resource: 'cpu', limit: '0' } }));
    expect(f).toHaveLength(n);
  });
});

describe('held6 classes', () => {
  it.each([
    [
      // held6 w070 (github file, search index id 7393179923)
      'kubectl apply output after the warning',
      '    # kubectl apply -f psa-nginx.yaml\n    Warning: would violate PodSecurity "baseline:latest": hostPath volumes (volume "hostpath-volume")\n    pod/psa-nginx created\n',
      warning(HOSTPATH),
    ],
    [
      'a deployment configured after the warning',
      'Warning: would violate PodSecurity "baseline:latest":\n  hostPath volumes (volume "hostpath-volume")\n  deployment.apps/web configured\n',
      warning(HOSTPATH),
    ],
    [
      // still a control list one a line (the layout classes4b reads)
      'controls one a line stay',
      'Warning: would violate PodSecurity "baseline:latest":\n  hostPath volumes (volume "hostpath-volume")\n  privileged (container "c" must not set securityContext.privileged=true)\n',
      warning([
        ...HOSTPATH,
        { control: 'privileged', detail: 'container "c" must not set securityContext.privileged=true' },
      ]),
    ],
    [
      // held6 w072 (github file, search index id 71379800382)
      'a warning in a single-quoted literal',
      `    $line = 'Warning: would violate PodSecurity "baseline:latest": hostPath volumes (volume "h")';\n`,
      warning([{ control: 'hostPath volumes', detail: 'volume "h"' }]),
    ],
    [
      // held6 w149 (github file, search index id 55623901189)
      'a webhook denial template',
      '   └─ admission webhook "<name>" denied the request: <...>\n',
      [],
    ],
    [
      'a real webhook is still read when its reason is text',
      'admission webhook "<name>" denied the request: image tag latest is not allowed\n',
      [
        {
          layer: 'other',
          kind: 'webhook-denied',
          facts: { webhook: '<name>', reason: 'image tag latest is not allowed' },
        },
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(parsePaste(text).findings).toMatchObject(want);
    expect(parsePaste(text).findings).toHaveLength(want.length);
  });
});
