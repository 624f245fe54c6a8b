/** Fixes for a pod no node fits: request less, more capacity, or (last) tolerate a taint. */
import type { Pod } from '../../k8s/objects.ts';
import type { KObject, Snapshot } from '../../k8s/snapshot.ts';
import { Quantity } from '../../quantity.ts';
import { largestNode } from '../capacity.ts';
import { clone } from '../defaults.ts';
import { freeResources, nodeInfoIndex } from '../scheduler/node-info.ts';
import type { SimOptions } from '../simulate.ts';
import { kubectlSetResources } from './commands.ts';
import { biggestContainer, formatMemoryFloor, podRequestVector, setContainerValue } from './pod-edit.ts';
import type { Candidate, PodOrigin, VerifiedFix } from './types.ts';
import { verifyCandidates } from './verify.ts';

export interface NodeGap {
  node: string;
  reasons: string[];
  /** For Insufficient cpu/memory: free now and how much is missing (canonical strings). */
  free?: Record<string, string>;
  short?: Record<string, string>;
}

/** Per node, what stops the pod and by how much (from the scheduler's per-node statuses). */
export function nodeGaps(state: Snapshot, pod: Pod, statuses: Map<string, { reasons: string[] }>): NodeGap[] {
  const index = nodeInfoIndex(state);
  const req = podRequestVector(pod);
  const out: NodeGap[] = [];
  for (const [node, st] of statuses) {
    const info = index.get(node);
    const gap: NodeGap = { node, reasons: st.reasons };
    if (info && st.reasons.some((r) => r.startsWith('Insufficient'))) {
      const f = freeResources(info);
      gap.free = {
        cpu: Quantity.fromMilli(Math.max(0, f.cpu)).toString(),
        memory: formatMemoryFloor(Math.max(0, f.memory)),
      };
      gap.short = {};
      if (req.cpu > f.cpu) gap.short.cpu = Quantity.fromMilli(req.cpu - Math.max(0, f.cpu)).toString();
      if (req.memory > f.memory)
        gap.short.memory = Quantity.fromInt(req.memory - Math.max(0, f.memory), 'BinarySI').toString();
    }
    out.push(gap);
  }
  return out;
}

/** Fixes for a pod no node fits: request less, tolerate, or the capacity to add. */
export function unschedulableFixes(
  state: Snapshot,
  pod: Pod,
  statuses: Map<string, { reasons: string[] }>,
  origin: PodOrigin,
  opts: SimOptions,
): VerifiedFix[] {
  const ns = pod.metadata.namespace ?? 'default';
  const index = nodeInfoIndex(state);
  const req = podRequestVector(pod);
  const candidates: Candidate[] = [];
  // Nodes that fail only on cpu/memory: the largest free one bounds what the pod may request.
  const resourceOnly = [...statuses].filter(
    ([, s]) => s.reasons.length > 0 && s.reasons.every((r) => r === 'Insufficient cpu' || r === 'Insufficient memory'),
  );
  let best: { node: string; cpu: number; memory: number } | null = null;
  for (const [node] of resourceOnly) {
    const info = index.get(node);
    if (!info) continue;
    const f = freeResources(info);
    const cpuOk = req.cpu <= f.cpu;
    const memOk = req.memory <= f.memory;
    // Prefer the node that needs the smallest cut.
    const cut =
      (cpuOk ? 0 : (req.cpu - f.cpu) / Math.max(req.cpu, 1)) +
      (memOk ? 0 : (req.memory - f.memory) / Math.max(req.memory, 1));
    if (f.cpu <= 0 && !cpuOk) continue;
    if (f.memory <= 0 && !memOk) continue;
    if (
      !best ||
      cut <
        (req.cpu > best.cpu ? (req.cpu - best.cpu) / Math.max(req.cpu, 1) : 0) +
          (req.memory > best.memory ? (req.memory - best.memory) / Math.max(req.memory, 1) : 0)
    )
      best = { node, cpu: f.cpu, memory: f.memory };
  }
  if (best && pod.spec.containers.length > 0) {
    let p = pod;
    const parts: string[] = [];
    const cmds: string[] = [];
    for (const [res, want, free] of [
      ['cpu', req.cpu, best.cpu],
      ['memory', req.memory, best.memory],
    ] as const) {
      if (want <= free) continue;
      const big = biggestContainer(p, 'requests', res);
      if (!big) continue;
      const over = want - free;
      const curr = res === 'cpu' ? Number(big.value.milliValue()) : Number(big.value.value());
      if (curr <= over) continue;
      // Memory reads like a request: whole Mi, rounded down (still ≤ what fits).
      const target = res === 'cpu' ? Quantity.fromMilli(curr - over) : Quantity.parse(formatMemoryFloor(curr - over));
      p = setContainerValue(p, big.name, 'requests', res, target.toString());
      parts.push(`requests.${res} of ${big.name} to ≤ ${target}`);
      const cmd = kubectlSetResources(ns, origin.ref, big.name, 'requests', res, target.toString());
      if (cmd) cmds.push(cmd);
    }
    if (parts.length) {
      const fixed = p;
      candidates.push({
        who: 'app-team',
        summary: `lower ${parts.join(' and ')} (fits ${best.node})`,
        change: cmds.join('\n') || undefined,
        apply: (s) => ({ state: s, object: fixed }),
      });
    }
  }
  // Taints: tolerate the taint of the nodes that only fail on it (a choice for the app team, if intended).
  const tainted = [...statuses].filter(([, s]) => s.reasons.some((r) => r.includes('untolerated taint')));
  const taintKeys = new Map<string, { key: string; value?: string | null; effect: string; nodes: number }>();
  for (const [node] of tainted) {
    for (const t of index.get(node)?.taints ?? []) {
      if (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') continue;
      if (t.key.startsWith('node-role.kubernetes.io/') || t.key.startsWith('node.kubernetes.io/')) continue;
      const k = `${t.key}=${t.value ?? ''}:${t.effect}`;
      const e = taintKeys.get(k) ?? { key: t.key, value: t.value, effect: t.effect, nodes: 0 };
      e.nodes++;
      taintKeys.set(k, e);
    }
  }
  for (const t of taintKeys.values()) {
    const tol = {
      key: t.key,
      operator: t.value ? 'Equal' : 'Exists',
      ...(t.value ? { value: t.value } : {}),
      effect: t.effect,
    };
    const p = clone(pod);
    p.spec.tolerations = [...(p.spec.tolerations ?? []), tol];
    candidates.push({
      who: 'app-team',
      summary: `tolerate ${t.key}${t.value ? `=${t.value}` : ''}:${t.effect} (${t.nodes} node${t.nodes === 1 ? '' : 's'}) — only if the pod belongs on them`,
      // A JSON patch appends to the template's tolerations (a merge patch would replace the whole list).
      change:
        origin.ref && !origin.ref.startsWith('pod/')
          ? `kubectl -n ${ns} patch ${origin.ref} --type json -p '[{"op":"add","path":"/spec/template/spec/tolerations${pod.spec.tolerations?.length ? '/-' : ''}","value":${JSON.stringify(pod.spec.tolerations?.length ? tol : [tol])}}]'`
          : `spec.tolerations: [${JSON.stringify(tol)}]`,
      apply: (s) => ({ state: s, object: p }),
    });
  }
  // New capacity: a node shaped like the biggest schedulable one, with at least the request.
  const template = largestNode(state);
  if (template && (req.cpu > 0 || req.memory > 0)) {
    const cpu = Math.max(req.cpu, template.cpu);
    const mem = Math.max(req.memory, template.memory);
    const cpuQ = Quantity.fromMilli(cpu);
    const memQ = Quantity.fromInt(mem, 'BinarySI');
    candidates.push({
      who: 'platform',
      summary: `add a node with ${[req.cpu > 0 ? `≥ ${Quantity.fromMilli(req.cpu)} CPU` : '', req.memory > 0 ? `≥ ${Quantity.fromInt(req.memory, 'BinarySI')} memory` : ''].filter(Boolean).join(' and ')} allocatable${template.pool ? ` to pool ${template.pool}` : ''}`,
      apply: (s) => {
        const base = template.node;
        s.put({
          ...clone(base),
          metadata: {
            ...clone(base.metadata),
            name: 'new-node',
            labels: { ...(base.metadata.labels ?? {}), 'kubernetes.io/hostname': 'new-node' },
          },
          spec: {
            ...(base.spec ?? {}),
            unschedulable: false,
            taints: (base.spec?.taints ?? []).filter((t) => t.effect === 'PreferNoSchedule'),
          },
          status: {
            ...(base.status ?? {}),
            allocatable: { ...(base.status?.allocatable ?? {}), cpu: cpuQ.toString(), memory: memQ.toString() },
          },
        } as KObject);
        return { state: s, object: pod };
      },
    });
  }
  return verifyCandidates(state, candidates, opts);
}
