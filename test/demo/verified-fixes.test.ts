/**
 * "Verified" means the incident ends. For every story paste of manifests/demo/README.md: each fix marked
 * verified is applied with the real kubectl client — `kubectl … --local -o json` on the object as the
 * state holds it (scale, which has no --local, as the merge patch `kubectl scale` sends; a node pool or
 * (un)cordon change straight on the copy) — the results go into a copy of the state, and the same paste
 * is diagnosed again: its finding's `now` must be "passes". Every paste gets at least one verified fix;
 * the Pending api pod is offered "uncordon general-c-2" (platform) and a working app-team fix;
 * reindex-backfill is told that no node can hold it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { diagnose, type JsonFinding } from '../../src/answer/diagnose.ts';
import { readStateFiles } from '../../src/cluster/file-source.ts';
import { decodeValue } from '../../src/k8s/decode.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const DEMO_NOW = Date.parse('2026-03-10T09:40:00Z');
const HAVE_KUBECTL = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

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

const KIND_OF: Record<string, string> = {
  deploy: 'Deployment',
  deployment: 'Deployment',
  statefulset: 'StatefulSet',
  sts: 'StatefulSet',
  rs: 'ReplicaSet',
  job: 'Job',
  pod: 'Pod',
  resourcequota: 'ResourceQuota',
  limitrange: 'LimitRange',
};

/** Splits a command line as the shell would for the quoting kubectl commands use ('…' and "…"). */
function words(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let any = false;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      any = true;
    } else if (/\s/.test(ch)) {
      if (cur || any) out.push(cur);
      cur = '';
      any = false;
    } else cur += ch;
  }
  if (cur || any) out.push(cur);
  return out;
}

function kubectl(args: string[], input?: string): KObject {
  const r = spawnSync('kubectl', args, { encoding: 'utf8', input });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  const d = decodeValue(JSON.parse(r.stdout), 'kubectl');
  expect(d.errors).toEqual([]);
  return d.objects[0]!;
}

const dir = mkdtempSync(join(tmpdir(), 'qd-verified-'));
let fileNo = 0;
function fileOf(o: KObject): string {
  const p = join(dir, `obj-${fileNo++}.json`);
  writeFileSync(p, JSON.stringify(o));
  return p;
}

/** The object a command names, from the state copy. */
function target(state: Snapshot, ns: string, ref: string): KObject {
  const [short, name] = ref.split('/') as [string, string];
  const kind = KIND_OF[short] ?? short;
  const o = state.get(kind, kind === 'Node' ? undefined : ns, name);
  if (!o) throw new Error(`${ref} is not in ${ns}`);
  return o;
}

/**
 * Applies one printed command to the state copy with the real kubectl client: the object it names is
 * read from the copy and kubectl's --local result is stored back.
 */
function applyCommand(state: Snapshot, cmd: string): void {
  // `echo '<object>' | kubectl apply -f -`: the object as kubectl reads it client-side (create and apply
  // need a server even with --dry-run=client; an empty local patch reads and prints it the same way).
  if (/^echo .* \| kubectl apply -f -$/s.test(cmd)) {
    const [, body] = words(cmd.slice(0, cmd.lastIndexOf(' | kubectl apply')));
    const p = join(dir, `obj-${fileNo++}.json`);
    writeFileSync(p, body!);
    state.put(kubectl(['patch', '--local', '-f', p, '--type', 'merge', '-p', '{}', '-o', 'json']));
    return;
  }
  // A bare Pod re-created: `kubectl get pod X -o json | kubectl <edit> --local -f - -o json | kubectl replace --force -f -`.
  const stages = cmd.split(' | ');
  if (stages.length === 3 && /^kubectl -n \S+ get pod \S+ -o json$/.test(stages[0]!)) {
    const [, , ns, , , name] = words(stages[0]!);
    const pod = state.get('Pod', ns, name!)!;
    const edit = words(stages[1]!).slice(1);
    const i = edit.indexOf('-f');
    edit.splice(i, 2, '-f', fileOf(pod));
    const out = kubectl(edit);
    // `replace --force` deletes and creates: the new pod has no node, status or identity of the old one.
    state.remove('Pod', ns, name!);
    state.put({
      ...out,
      metadata: { ...out.metadata, uid: undefined, resourceVersion: undefined, creationTimestamp: undefined },
      spec: { ...(out.spec as Record<string, unknown>), nodeName: undefined },
      status: undefined,
    });
    return;
  }
  const w = words(cmd);
  expect(w[0]).toBe('kubectl');
  const nodeVerb = w[1] === 'uncordon' || w[1] === 'cordon' ? w[1] : undefined;
  if (nodeVerb) {
    // kubectl sets spec.unschedulable; the node lifecycle controller mirrors it as the
    // node.kubernetes.io/unschedulable:NoSchedule taint (TaintNodesByCondition).
    const node = state.get('Node', undefined, w[2]!)!;
    const key = 'node.kubernetes.io/unschedulable';
    const taints = (node.spec?.taints ?? []).filter((t) => t.key !== key);
    if (nodeVerb === 'cordon') taints.push({ key, effect: 'NoSchedule' });
    state.put({ ...node, spec: { ...node.spec, unschedulable: nodeVerb === 'cordon' ? true : undefined, taints } });
    return;
  }
  expect(w[1]).toBe('-n');
  const ns = w[2]!;
  const verb = w[3]!;
  const rest = w.slice(4);
  // `set resources deploy/api …` names the object second; `scale` and `patch` first.
  const ref = verb === 'set' ? rest[1] : rest[0];
  const obj = target(state, ns, ref!);
  const file = fileOf(obj);
  let out: KObject;
  if (verb === 'scale') {
    // `kubectl scale` has no --local: it sends this merge patch to the scale subresource.
    const n = /^--replicas=(\d+)$/.exec(rest[1]!)![1]!;
    out = kubectl([
      'patch',
      '--local',
      '-f',
      file,
      '--type',
      'merge',
      '-p',
      `{"spec":{"replicas":${n}}}`,
      '-o',
      'json',
    ]);
  } else if (verb === 'set') {
    out = kubectl(['set', rest[0]!, '--local', '-f', file, ...rest.slice(2), '-o', 'json']);
  } else if (verb === 'patch') {
    out = kubectl(['patch', '--local', '-f', file, ...rest.slice(1), '-o', 'json']);
  } else throw new Error(`no local form for: ${cmd}`);
  state.put({ ...out, metadata: { ...out.metadata, namespace: ns } });
}

/** A node-pool change (`change: ""`): a node like the one the summary names, straight on the copy. */
function addNodeLike(state: Snapshot, summary: string): void {
  const m = /add (\d+ nodes?|a node) like (\S+)/.exec(summary);
  if (!m) throw new Error(`a change without a command that adds no node: ${summary}`);
  const count = m[1] === 'a node' ? 1 : Number.parseInt(m[1]!, 10);
  const like = state.get('Node', undefined, m[2]!)!;
  for (let i = 1; i <= count; i++) {
    const name = `${m[2]}-new-${i}`;
    state.put({
      ...like,
      metadata: { name, labels: { ...(like.metadata.labels ?? {}), 'kubernetes.io/hostname': name } },
      spec: { ...like.spec, unschedulable: undefined },
    });
  }
}

function applyFix(state: Snapshot, fix: { change?: string; summary: string }): void {
  if (!fix.change) {
    addNodeLike(state, fix.summary);
    return;
  }
  // A combination is one line of commands joined by `&&`, applied in order.
  const parts = fix.change.split(' && ');
  for (const p of parts) applyCommand(state, p);
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
