/**
 * A bare Pod named in a workload question (notebook-priya in ml, reindex-backfill in batch: no
 * controller) is answered as itself, never "I can't find workload …": its priority and resources are
 * fixed when it is created (pod update validation), so a priority or requests what-if deletes and
 * creates it again (`recreatePod`), and scale / rollout say there is nothing to scale. A controller's
 * pod named by its generated name is answered as the workload that owns it. Exact replies on the demo.
 * The printed re-create command is then run with the real kubectl client and submitted as the API
 * server would: the pod admission produces is the one the engine simulated.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AskContext } from '../../src/answer/answerer.ts';
import { createAnswerer } from '../../src/answer/index.ts';
import { FileSource, readStateFiles } from '../../src/cluster/file-source.ts';
import { admitObject } from '../../src/engine/admit.ts';
import { applyChange } from '../../src/engine/changes/apply.ts';
import { parseCommand, renderCommand } from '../../src/engine/changes/command.ts';
import type { Change } from '../../src/engine/changes/types.ts';
import type { Pod } from '../../src/k8s/objects.ts';
import { HAVE_KUBECTL, applyCommand } from '../support/verify-fixes.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const source = new FileSource(DEMO);
const a = createAnswerer();

const NOTEBOOK_PENDING =
  "ml/notebook-priya is admitted but stays Pending: 0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.";
const ETL_SHORT =
  'batch/job/nightly-etl-29551740: 8/10 running, 8/10 of the new template — does not complete: pods "nightly-etl-29551740-bfxgq" is forbidden: exceeded quota: batch-low, requested: requests.cpu=2500m, used: requests.cpu=20, limited: requests.cpu=22';
const PRIORITY_BODY = `'{"spec":{"priorityClassName":"high","priority":null,"preemptionPolicy":null}}'`;

const CASES: [string, Partial<AskContext>, { namespaces: string[]; headline: string; lines: string[] }][] = [
  [
    'what if notebook-priya gets priorityClass high',
    {},
    {
      namespaces: ['ml'],
      headline: 'pod/notebook-priya re-created with priorityClass high',
      lines: [
        'notebook-priya is a bare Pod (no controller): its priority is set when it is created, so it is deleted and created again with priorityClassName high.',
        // Its trouble is the GPU taint, which no priority changes.
        NOTEBOOK_PENDING,
        `Simulated: kubectl -n ml get pod notebook-priya -o json | kubectl patch --local -f - --type merge -p ${PRIORITY_BODY} -o json | kubectl replace --force -f -`,
      ],
    },
  ],
  [
    'what if reindex-backfill gets priorityClass high',
    {},
    {
      namespaces: ['batch'],
      headline: 'pod/reindex-backfill re-created with priorityClass high',
      lines: [
        'reindex-backfill is a bare Pod (no controller): its priority is set when it is created, so it is deleted and created again with priorityClassName high.',
        // 1500 CPU fits no node: preemption cannot help whatever the priority.
        'batch/reindex-backfill is admitted but stays Pending: 0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.',
        ETL_SHORT,
        `Simulated: kubectl -n batch get pod reindex-backfill -o json | kubectl patch --local -f - --type merge -p ${PRIORITY_BODY} -o json | kubectl replace --force -f -`,
      ],
    },
  ],
  [
    'what if notebook-priya gets priorityClass hgh',
    {},
    {
      namespaces: ['ml'],
      headline: 'pod/notebook-priya re-created with priorityClass hgh',
      lines: [
        'notebook-priya is a bare Pod (no controller): its priority is set when it is created, so it is deleted and created again with priorityClassName hgh.',
        'There is no PriorityClass hgh (did you mean high?): the pod is refused at admission.',
        'The API server refuses it: pods "notebook-priya" is forbidden: no PriorityClass with name hgh was found',
      ],
    },
  ],
  [
    // A workload's class typo gets the same "did you mean".
    'what if api gets priorityClass hgh',
    {},
    {
      namespaces: ['team-a'],
      headline: 'deploy/api gets priorityClass hgh',
      lines: [
        'There is no PriorityClass hgh (did you mean high?): the new pods are refused at admission.',
        'No Pending pod schedules because of it.',
        'team-a/deploy/api: 2/3 running, 0/3 of the new template — does not complete: pods "api-jwp5jkg-pj79q" is forbidden: no PriorityClass with name hgh was found',
        `Simulated: kubectl -n team-a patch deploy/api --type merge -p '{"spec":{"template":{"spec":{"priorityClassName":"hgh"}}}}'`,
      ],
    },
  ],
  [
    'what if notebook-priya requests 2 cpu',
    {},
    {
      namespaces: ['ml'],
      headline: 'pod/notebook-priya re-created with requests.cpu 2',
      lines: [
        'notebook-priya is a bare Pod (no controller): its resources cannot change in place, so it is deleted and created again with requests.cpu 2 for container notebook.',
        NOTEBOOK_PENDING,
        'Simulated: kubectl -n ml get pod notebook-priya -o json | kubectl set resources --local -f - -c notebook --requests=cpu=2 -o json | kubectl replace --force -f -',
      ],
    },
  ],
  [
    'what if reindex-backfill requests 3 cpu',
    {},
    {
      namespaces: ['batch'],
      headline: 'pod/reindex-backfill re-created with requests.cpu 3',
      lines: [
        'reindex-backfill is a bare Pod (no controller): its resources cannot change in place, so it is deleted and created again with requests.cpu 3 for container reindex.',
        // 3 CPU: no schedulable general node has it free (770m at most), and at priority 0 nothing is preempted.
        'batch/reindex-backfill is admitted but stays Pending: 0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/10 nodes are available: 4 Preemption is not helpful for scheduling, 6 No preemption victims found for incoming pod.',
        ETL_SHORT,
        'Simulated: kubectl -n batch get pod reindex-backfill -o json | kubectl set resources --local -f - -c reindex --requests=cpu=3 -o json | kubectl replace --force -f -',
      ],
    },
  ],
  [
    'what if reindex-backfill scales to 3',
    {},
    {
      namespaces: ['batch'],
      headline:
        'reindex-backfill is a bare Pod (no controller): there is nothing to scale — it has no replicas and no pod template.',
      lines: ['To run several, create it under a Deployment (or a Job for run-to-completion work) and scale that.'],
    },
  ],
  [
    'roll out notebook-priya',
    {},
    {
      namespaces: ['ml'],
      headline:
        'notebook-priya is a bare Pod (no controller): there is nothing to roll out — it has no replicas and no pod template.',
      lines: [
        'To change it, ask "what if notebook-priya requests <value> cpu" or "… gets priorityClass <name>": it is deleted and created again.',
      ],
    },
  ],
  [
    // The Pending api pod by its generated name: the Deployment that owns it.
    'what if api-6b9f4c7d8-gnt9f requests 500m cpu',
    {},
    {
      namespaces: ['team-a'],
      headline: 'api with requests.cpu=500m (all 3 pods replaced) in team-a',
      lines: [
        '+3 pods: 0 admitted, 3 rejected',
        '   3 × pods "api-wm4b9c-f6ssz" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
        '✗ The rollout stalls: 0/3 pods of the new template, 3 old still there — pods "api-wm4b9c-f6ssz" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
        'Command: kubectl -n team-a set resources deploy/api -c api --requests=cpu=500m',
      ],
    },
  ],
  [
    'what priority does reindex-backfill have',
    {},
    {
      namespaces: ['batch'],
      headline: 'pod/reindex-backfill (batch) runs at priority 0',
      lines: [
        'No priorityClassName and no globalDefault class: priority 0.',
        'preemptionPolicy PreemptLowerPriority: when Pending it may evict pods of lower priority.',
        'Pods of low (100), default-priority (1000), high (100000), system-cluster-critical (2000000000), system-node-critical (2000001000) may preempt it.',
        'Quota batch-low does not count its pods (its PriorityClass scope is for other classes).',
      ],
    },
  ],
  [
    // A bare Pod's typo is suggested like a workload's.
    'what if notebok-priya gets priorityClass high',
    {},
    { namespaces: [], headline: "I can't find workload notebok-priya.", lines: ['Did you mean notebook-priya?'] },
  ],
  [
    // A channel that may not see ml is told nothing of its pod: not found, and no suggestion.
    'what if notebook-priya gets priorityClass high',
    { allowedNamespaces: ['team-a'] },
    {
      namespaces: [],
      headline: "I can't find workload notebook-priya.",
      lines: ['Check the name (and the namespace: add "in <namespace>").'],
    },
  ],
  [
    'what if notebok-priya gets priorityClass high',
    { allowedNamespaces: ['team-a'] },
    {
      namespaces: [],
      headline: "I can't find workload notebok-priya.",
      lines: ['Check the name (and the namespace: add "in <namespace>").'],
    },
  ],
];

describe('a bare Pod in a workload question: answered as itself', () => {
  it.each(CASES)('%j %j', async (text, extra, want) => {
    const r = await a.question(text, { source, now: NOW, ...extra });
    expect(r.replies).toHaveLength(1);
    const reply = r.replies[0]!;
    expect({ namespaces: r.namespaces, headline: reply.headline, lines: reply.lines }).toEqual(want);
    // A bare Pod left Pending is never offered as a fix.
    expect(reply.fixes).toEqual([]);
  });
});

describe('re-creating a bare Pod with another PriorityClass', () => {
  const change: Change = {
    kind: 'recreatePod',
    namespace: 'batch',
    name: 'reindex-backfill',
    priorityClassName: 'high',
  };
  const cmd = `kubectl -n batch get pod reindex-backfill -o json | kubectl patch --local -f - --type merge -p ${PRIORITY_BODY} -o json | kubectl replace --force -f -`;

  it('renders one command, and that command parses back into the same change', () => {
    expect(renderCommand(change)).toBe(cmd);
    expect(parseCommand(cmd)).toEqual(change);
  });

  it.each([
    // another merge body is not the change we simulate
    `kubectl -n batch get pod reindex-backfill -o json | kubectl patch --local -f - --type merge -p '{"spec":{"priorityClassName":"high"}}' -o json | kubectl replace --force -f -`,
    `kubectl -n batch get pod reindex-backfill -o json | kubectl patch --local -f - --type json -p ${PRIORITY_BODY} -o json | kubectl replace --force -f -`,
    // without --force, replace keeps the pod's immutable spec: refused by the API server
    `kubectl -n batch get pod reindex-backfill -o json | kubectl patch --local -f - --type merge -p ${PRIORITY_BODY} -o json | kubectl replace -f -`,
  ])('%s is not parsed as a re-create', (other) => {
    expect(parseCommand(other)).toBeNull();
  });

  it('the old class values go: the API server computes the new class, as the engine does', () => {
    const { snapshot } = readStateFiles(DEMO, { now: NOW });
    const batchLow: Change = { ...change, name: 'nightly-etl-29551740-vz76b' };
    const r = applyChange(snapshot, batchLow);
    if ('error' in r) throw new Error(r.error);
    const pod = r.state.get('Pod', 'batch', 'nightly-etl-29551740-vz76b')!;
    // It was batch-low (50, Never): now high (100000, PreemptLowerPriority), not refused for the old values.
    expect([pod.spec.priorityClassName, pod.spec.priority, pod.spec.preemptionPolicy]).toEqual([
      'high',
      100000,
      'PreemptLowerPriority',
    ]);
  });

  it.skipIf(!HAVE_KUBECTL)(
    'the printed command, run with the real kubectl and admitted, gives the simulated pod',
    () => {
      const { snapshot } = readStateFiles(DEMO, { now: NOW });
      const engine = applyChange(snapshot, change);
      if ('error' in engine) throw new Error(engine.error);
      const copy = snapshot.fork();
      applyCommand(copy, renderCommand(change));
      const kubectlPod = copy.get('Pod', 'batch', 'reindex-backfill') as Pod;
      expect([kubectlPod.spec.priorityClassName, kubectlPod.spec.priority, kubectlPod.spec.preemptionPolicy]).toEqual([
        'high',
        undefined,
        undefined,
      ]);
      // `replace --force` deletes, then creates: admitted against the state without the old pod.
      const without = snapshot.fork();
      without.remove('Pod', 'batch', 'reindex-backfill');
      const adm = admitObject(kubectlPod, without, { operation: 'CREATE' });
      expect(adm.allowed).toBe(true);
      expect(adm.object.spec).toEqual(engine.state.get('Pod', 'batch', 'reindex-backfill')!.spec);
    },
  );
});
