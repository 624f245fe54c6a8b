/**
 * Classes of text from the pending items of held15–held17, read in session 8 (test/fixtures/paste-wild/README.md): a
 * lead's sentence over two lines, an elision between examples, a reader's possibility, a general subject's "fails like
 * this", a condition over a series, a table of causes, a Japanese condition, kubectl edit's reopened file, a code span
 * that closes inside a denial, a status item under prose. Each row is a text of its own shape; the fixtures hold the
 * pastes they came from.
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

const read = (text: string) => parsePaste(text).findings.map((f) => [f.layer, f.kind, f.facts]);
const layers = (text: string) => parsePaste(text).findings.map((f) => f.layer);

const QUOTA =
  'Error from server (Forbidden): error when creating "site.yaml": ingresses.networking.k8s.io "sas-themes" is forbidden: exceeded quota: gke-resource-quotas, requested: count/ingresses.networking.k8s.io=1, used: count/ingresses.networking.k8s.io=100, limited: count/ingresses.networking.k8s.io=100';
const EVENT =
  '`Warning FailedCreate 2s (x4 over 20s) replicaset-controller Error creating: pods "ephpod-668668fc76-4rm6p" is forbidden: failed quota: ephtest: must specify limits.cpu`';

describe('leads over examples (LABELLING.md §2.1–§2.2)', () => {
  it.each([
    [
      "a lead's sentence that began on the line above (A004's shape)",
      'wrong command. For example, the following output says that you must configure\nroute traffic percent to sum to 100:\n\n```\nadmission webhook "webhook.knative.dev" denied the request: mutation failed: The route must have traffic percent sum equal to 100.\n```',
      [],
    ],
    [
      "the writer's own sentence over two lines stays a report",
      'After the upgrade we ran the apply again and the following output says that we must configure\nroute traffic percent to sum to 100:\n\n```\nadmission webhook "webhook.knative.dev" denied the request: mutation failed: The route must have traffic percent sum equal to 100.\n```',
      ['other'],
    ],
    [
      'an elision (`...`) between the examples under a lead (D017)',
      `* When running the "apply" command, you might get an error message from the GKE service like :\n\n    ${QUOTA}\n    ${QUOTA.replace('sas-themes', 'sas-thumbnails')}\n    ...\n    ${QUOTA.replace('sas-themes', 'sas-web')}`,
      [],
    ],
    [
      "a reader's possibility (`you might get an error`) over a named object's message (D017)",
      `When running the apply command, you may get an error message:\n\n${QUOTA}`,
      [],
    ],
    [
      'a general subject\'s "fails like this" (D018)',
      '## When admission is blocked\n\nA pod create that hits the quota fails like this:\n\n```\nError from server (Forbidden): pods "my-pod" is forbidden:\nexceeded quota: object-count-quota,\nrequested: count/pods=1, used: count/pods=10, limited: count/pods=10\n```',
      [],
    ],
    [
      'a condition over a series (`x4 over 20s`) it names (B053)',
      `If user didn't set CPU/Memory limits in their pod but they have been limited by ResourceQuota, user gets the following error.\n\n${EVENT}`,
      [],
    ],
    [
      'the same series under a lived lead stays a report',
      `After I removed the limits from the pod spec, the ReplicaSet stopped creating pods:\n\n${EVENT}`,
      ['quota'],
    ],
    [
      'a Japanese condition (`…が表示された場合：`) over an envelope and its list (k071)',
      '# 以下のエラーメッセージが表示された場合：\n# The Deployment "metrics-server" is invalid:\n# * spec.template.spec.containers[0].ports[1].name: Duplicate value: "https"\n#\n# これは重複してインストールした可能性があります。',
      [],
    ],
    [
      'a get-events step under "will fail" shows its run (v059)',
      'Once the quota on the namespace is full, newer pods will fail\n\n```\n$ kubectl  get events\n...\nError creating: pods "nginx-fb556779d-xmsgv" is forbidden: \nexceeded quota: resource-quota, requested: limits.cpu=500m, used: limits.cpu=2, limited: limits.cpu=2\n```',
      ['quota'],
    ],
  ])('%s', (_name, text, want) => {
    expect(layers(text)).toEqual(want);
  });
});

describe('a table of causes (LABELLING.md §2.1 "a table … mapping a message to a cause or a fix")', () => {
  it.each([
    [
      "a table with a cause column, its cells flattened one a line (B025's shape)",
      "Informações sobre o evento |\nCausa e solução |\n---|---|\n0/2 nodes are available: 2 Insufficient cpu. |\nOs recursos do nó são insuficientes. |\n0/1 nodes are available: 1 node(s) had taints that the pod didn't tolerate. |\nTaints existem no nó. |",
      [],
    ],
    [
      'a Symptom | Likely cause | Fix table (z126)',
      '| Symptom | Likely cause | Fix |\n|---------|-------------|-----|\n| Predictor pod `Pending: Insufficient amd.com/gpu` | Another pod holds the GPU | find and delete the GPU holder |',
      [],
    ],
    [
      'a table of pods and events (no cause column) stays a report',
      '| Pod | Event |\n|---|---|\n| web-1 | 0/3 nodes are available: 3 Insufficient cpu. |',
      ['scheduler'],
    ],
  ])('%s', (_name, text, want) => {
    expect(layers(text)).toEqual(want);
  });
});

describe("kubectl edit's reopened file, code spans, status items", () => {
  it.each([
    [
      'the comment block of the file kubectl edit reopens: one finding per field error (D014)',
      '# Please edit the object below.\n#\n# services "svc1" was not valid:\n# * spec.clusterIP: Invalid value: "10.0.0.146.1": field is immutable\n# * spec.clusterIP: Invalid value: "10.0.0.146.1": must be empty, \'None\', or a valid IP address\n#\napiVersion: v1\nkind: Service',
      [
        [
          'api-validation',
          'api-validation',
          { resource: null, value: '10.0.0.146.1', limit: null, field: 'spec.clusterIP' },
        ],
        [
          'api-validation',
          'api-validation',
          { resource: null, value: '10.0.0.146.1', limit: null, field: 'spec.clusterIP' },
        ],
      ],
    ],
    [
      'a code span that closes inside the denial: the prose after it is not its reason',
      'I got `admission webhook "vpod.kb.io" denied the request: bad pod`, and then it retried.',
      [['other', 'webhook-denied', { webhook: 'vpod.kb.io', reason: 'bad pod' }]],
    ],
    [
      "a Go test's struct and its expected string: one denial (D015)",
      '\t\t\tMessage: `admission webhook "my.webhook" denied the request without explanation`,\n\t\t\tCode:    422,\n\t\t}}),\n\t\t`Error from server: error when creating "configmap.yaml": admission webhook "my.webhook" denied the request without explanation`,\n\t\tDefaultErrorExitCode,',
      [['other', 'webhook-denied', { webhook: 'my.webhook', reason: 'without explanation' }]],
    ],
    [
      'a status item under prose, its fence gone: its `name:` is the container (C022)',
      '100 was too little and 200 was enough\n\n```\n    lastState:\n      terminated:\n        exitCode: 137\n        reason: OOMKilled\n    name: secret-puller\n    ready: false\n```',
      [['runtime', 'runtime', { reason: 'OOMKilled', container: 'secret-puller' }]],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});
