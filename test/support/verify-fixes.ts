/**
 * Applies a fix as a person would, with the real kubectl client, to a copy of a state: the object a
 * printed command names is read from the copy, `kubectl … --local -o json` edits it client-side, and
 * the result is stored back (scale, which has no --local, as the merge patch `kubectl scale` sends; a
 * node pool or (un)cordon change straight on the copy). Shared by test/demo/verified-fixes.test.ts
 * (the demo stories) and test/demo/verified-fixes-other.test.ts (another cluster).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { decodeValue } from '../../src/k8s/decode.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';

export const HAVE_KUBECTL = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

const KIND_OF: Record<string, string> = {
  ds: 'DaemonSet',
  daemonset: 'DaemonSet',
  cronjob: 'CronJob',
  cj: 'CronJob',
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
export function words(line: string): string[] {
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

export function kubectl(args: string[], input?: string): KObject {
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
export function target(state: Snapshot, ns: string, ref: string): KObject {
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
export function applyCommand(state: Snapshot, cmd: string): void {
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
export function addNodeLike(state: Snapshot, summary: string): void {
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

export function applyFix(state: Snapshot, fix: { change?: string; summary: string }): void {
  if (!fix.change) {
    addNodeLike(state, fix.summary);
    return;
  }
  // A combination is one line of commands joined by `&&`, applied in order; one that also adds a node
  // (a node-pool change has no command) says so in its summary.
  const parts = fix.change.split(' && ');
  for (const p of parts) applyCommand(state, p);
  if (/add (\d+ nodes?|a node) like /.test(fix.summary)) addNodeLike(state, fix.summary);
}
