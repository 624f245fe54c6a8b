/**
 * A drain what-if decides from what was read (issue #16, "A verdict only from what was read"): the
 * eviction API checks every evicted pod's PodDisruptionBudgets (pkg/registry/core/pod/storage/eviction.go),
 * so when they could not be read (403, throttled past the retries) the reply says in one line that the
 * budgets are unknown — never that the drain goes through — with the read's gap, `incomplete` and exit 3.
 * Against the strict stand-in with the real client-node, over the demo cluster (its `api` budget,
 * minAvailable 2 of 3 with one Pending, allows no eviction: draining general-a-2 cannot finish).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerer } from '../../src/answer/index.ts';
import { incompleteOfAnswer, isUndecided } from '../../src/answer/verdicts.ts';
import { ALL_RESOURCES } from '../../src/cluster/api-resources.ts';
import { createLiveSource } from '../../src/cluster/live-source.ts';
import { KubeApiServer, type Rule } from '../support/kube-apiserver.ts';

const REFUSED =
  '✗ The drain does not finish: 1 eviction refused by a PodDisruptionBudget (429); the pod stays on the cordoned node and kubectl drain keeps retrying';
const unknownLine = (why: string) =>
  `? Disruption budgets unknown: PodDisruptionBudgets were not read (${why}), so every eviction is shown as allowed and the drain may not finish`;

let kube: KubeApiServer;
const dir = mkdtempSync(join(tmpdir(), 'qd-drain-pdb-'));
const read = (resources: string[]): Rule[] => [{ verbs: ['get', 'list', 'watch'], resources }];

beforeAll(async () => {
  kube = await KubeApiServer.start({ state: 'manifests/demo' });
  kube.addToken('reader', { name: 'reader' });
  kube.bindCluster('reader', read([...ALL_RESOURCES]));
  kube.addToken('no-pdb', { name: 'no-pdb' });
  kube.bindCluster('no-pdb', read(ALL_RESOURCES.filter((r) => r !== 'poddisruptionbudgets')));
  kube.addToken('slow', { name: 'slow' });
  kube.bindCluster('slow', read([...ALL_RESOURCES]));
  kube.throttle({ resource: 'poddisruptionbudgets', user: 'slow', times: 100_000, retryAfterSeconds: 1 });
});
afterAll(async () => {
  await kube.close();
  rmSync(dir, { recursive: true, force: true });
});

async function ask(token: string, question: string) {
  const kc = join(dir, `${token}.config`);
  writeFileSync(kc, kube.kubeconfigYaml({ token }));
  const source = createLiveSource({ kubeconfig: kc, env: {}, watch: false, requestTimeoutMs: 3000 });
  try {
    return await createAnswerer().question(question, { source, now: Date.parse('2026-03-10T09:40:00Z') });
  } finally {
    await source.close();
  }
}

describe('what if general-a-2 is drained: the budgets read, forbidden, throttled', () => {
  it.each<{
    name: string;
    token: string;
    question: string;
    has: string[];
    hasNot: string[];
    gaps: string[];
    incomplete: { resource: string; namespace: string | null; reason: string }[];
  }>([
    {
      name: 'read: the api budget refuses the eviction (429), the drain does not finish',
      token: 'reader',
      question: 'what if general-a-2 is drained',
      has: [REFUSED],
      hasNot: [unknownLine('403 Forbidden')],
      gaps: [],
      incomplete: [],
    },
    {
      name: '403: budgets unknown in one line, no refusal claimed, the gap names the read',
      token: 'no-pdb',
      question: 'what if general-a-2 is drained',
      has: [unknownLine('403 Forbidden')],
      hasNot: [REFUSED],
      gaps: [
        'couldn\'t read poddisruptionbudgets: 403 Forbidden — poddisruptionbudgets.policy is forbidden: User "no-pdb" cannot list resource "poddisruptionbudgets" in API group "policy" at the cluster scope',
      ],
      incomplete: [{ resource: 'poddisruptionbudgets', namespace: null, reason: 'Forbidden' }],
    },
    {
      name: '429 past the retries: the same, with its cause',
      token: 'slow',
      question: 'what if general-a-2 is drained',
      has: [unknownLine('429 Too Many Requests (still, after retries)')],
      hasNot: [REFUSED],
      gaps: [
        "couldn't read poddisruptionbudgets: 429 Too Many Requests (still, after retries) — Too many requests, please try again later.",
      ],
      incomplete: [{ resource: 'poddisruptionbudgets', namespace: null, reason: 'TooManyRequests' }],
    },
    {
      name: 'a node going down asks no budget: decided without them',
      token: 'no-pdb',
      question: 'what if general-a-2 goes down',
      has: [],
      hasNot: [REFUSED, unknownLine('403 Forbidden')],
      gaps: [],
      incomplete: [],
    },
  ])('$name', async (c) => {
    const a = await ask(c.token, c.question);
    const r = a.replies[0]!;
    expect(r.kind).toBe('whatif');
    for (const l of c.has) expect(r.lines).toContain(l);
    for (const l of c.hasNot) expect(r.lines).not.toContain(l);
    // The budgets line comes right before the command, once.
    if (c.has.length && c.has[0]!.startsWith('?')) {
      const i = r.lines.indexOf(c.has[0]!);
      expect(r.lines[i + 1]).toBe('Command: kubectl drain general-a-2 --ignore-daemonsets --delete-emptydir-data');
      expect(r.lines.filter((l) => l.startsWith('? Disruption budgets unknown')).length).toBe(1);
    }
    expect(r.gaps).toEqual(c.gaps);
    expect(incompleteOfAnswer(a)).toEqual(c.incomplete);
    expect(isUndecided(a)).toBe(c.incomplete.length > 0);
  });
});
