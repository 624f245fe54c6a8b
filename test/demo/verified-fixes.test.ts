/**
 * "Verified" means the incident ends. For every story paste of manifests/demo/README.md: each fix marked
 * verified is applied with the real kubectl client — `kubectl … --local -o json` on the object as the
 * state holds it (scale, which has no --local, as the merge patch `kubectl scale` sends; a node pool or
 * (un)cordon change straight on the copy) — the results go into a copy of the state, and the same paste
 * is diagnosed again: its finding's `now` must be "passes". Every paste gets at least one verified fix;
 * the Pending api pod is offered "uncordon general-c-2" (platform) and a working app-team fix;
 * reindex-backfill is told that no node can hold it.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { diagnose, type JsonFinding } from '../../src/answer/diagnose.ts';
import { readStateFiles } from '../../src/cluster/file-source.ts';
import type { Snapshot } from '../../src/k8s/snapshot.ts';
import { applyFix, HAVE_KUBECTL } from '../support/verify-fixes.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const DEMO_NOW = Date.parse('2026-03-10T09:40:00Z');

let base: Snapshot;
beforeAll(() => {
  base = readStateFiles(DEMO).snapshot;
});

const API_PENDING =
  '0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/10 nodes are available: 4 Preemption is not helpful for scheduling, 6 No preemption victims found for incoming pod.';
const REINDEX_PENDING =
  '0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 Insufficient cpu. no new claims to deallocate, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.';

/** The pastes of the stories (manifests/demo/README.md), with the namespace they are asked in. */
const STORIES: { story: string; ns: string; paste: string }[] = [
  {
    story: 'team-a is out of pods',
    ns: 'team-a',
    paste:
      'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
  },
  {
    story: 'team-a exporter ratio',
    ns: 'team-a',
    paste:
      'Error creating: pods "exporter-8f6d5c4b9-79btt" is forbidden: cpu max limit to request ratio per Container is 10, but provided ratio is 20.000000',
  },
  { story: 'team-a api after the drain', ns: 'team-a', paste: API_PENDING },
  {
    story: 'team-b must specify limits',
    ns: 'team-b',
    paste:
      'Error creating: pods "report-gen-6d8f7b9c4-87lqz" is forbidden: failed quota: compute: must specify limits.cpu for: app; limits.memory for: app',
  },
  {
    story: 'ml notebook without the toleration',
    ns: 'ml',
    paste:
      "0/10 nodes are available: 1 node(s) were unschedulable, 3 node(s) had untolerated taint(s), 6 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.",
  },
  {
    story: 'ml finetune needs 4 GPUs',
    ns: 'ml',
    paste:
      "0/10 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 2 Insufficient nvidia.com/gpu, 6 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/10 nodes are available: 2 No preemption victims found for incoming pod, 8 Preemption is not helpful for scheduling.",
  },
  {
    story: 'batch ETL stopped by the PriorityClass-scoped quota',
    ns: 'batch',
    paste:
      'Error creating: pods "nightly-etl-29551740-kgtlw" is forbidden: exceeded quota: batch-low, requested: requests.cpu=2500m, used: requests.cpu=20, limited: requests.cpu=22',
  },
  { story: 'batch 1500 CPUs', ns: 'batch', paste: REINDEX_PENDING },
];

function finding(state: Snapshot, s: (typeof STORIES)[number]): { f: JsonFinding; text: string } {
  const out = diagnose({ text: s.paste, state, namespace: s.ns, now: DEMO_NOW });
  expect(out.json.findings.length, s.story).toBe(1);
  const text = out.answer.replies.map((r) => [r.headline, ...r.lines].join('\n')).join('\n');
  return { f: out.json.findings[0]!, text };
}

describe.skipIf(!HAVE_KUBECTL)('demo stories: every verified fix, applied with kubectl, ends the incident', () => {
  it.each(STORIES)('$story: ≥ 1 verified fix, and each one applied makes now "passes"', (s) => {
    const { f } = finding(base, s);
    expect(f.now, 'the incident is on now').toBe('fails');
    const verified = f.fixes.filter((x) => x.verified);
    expect(verified.length, JSON.stringify(f.fixes, null, 1)).toBeGreaterThanOrEqual(1);
    for (const fix of verified) {
      const copy = base.fork();
      applyFix(copy, fix);
      const after = finding(copy, s).f;
      expect(after.now, `${s.story}: ${fix.change || fix.summary}`).toBe('passes');
    }
  });

  it('the Pending api pod is offered "uncordon general-c-2" (platform) and a working app-team fix', () => {
    const { f } = finding(base, STORIES[2]!);
    const verified = f.fixes.filter((x) => x.verified);
    expect(verified).toContainEqual(
      expect.objectContaining({ who: 'platform', change: 'kubectl uncordon general-c-2', verified: true }),
    );
    expect(verified.some((x) => x.who === 'app-team')).toBe(true);
  });

  it('reindex-backfill is told that no node can hold it, and is offered no node', () => {
    const { f, text } = finding(base, STORIES[7]!);
    expect(text).toContain('requests 1500 CPU; the largest node allocates 7910m');
    expect(f.fixes.filter((x) => /add .*node/.test(x.summary))).toEqual([]);
  });
});
