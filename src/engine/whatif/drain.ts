/** "what if node-3 is drained / goes down". */
import type { Pod } from '../../k8s/objects.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { byteCompare } from '../../quantity.ts';
import { isTerminal } from '../pod-resources.ts';
import { schedulePod, bindPod } from '../scheduler/schedule.ts';
import { nodeInfoIndex } from '../scheduler/node-info.ts';
import type { SimOptions } from '../simulate.ts';
import { renderCommand } from '../changes/command.ts';

export interface DrainAnswer {
  node: string;
  pods: number;
  rescheduled: Record<string, number>;
  stranded: { pod: string; message: string }[];
  /** The drain as its one command (`kubectl drain … --force` when a pod has no controller); '' for a node going down. */
  command: string;
}

/** Losing a node: can its pods land elsewhere? (DaemonSet pods are left out: they die with the node.) */
/**
 * `drain`: kubectl cordons the node (spec.unschedulable, the `node.kubernetes.io/unschedulable` taint) and
 * evicts its pods. `down`: the node stops reporting; the node lifecycle controller taints it
 * `node.kubernetes.io/unreachable` (NoSchedule and NoExecute) and its pods are evicted once their
 * tolerationSeconds (300 s by default) run out. Either way the node stays in the scheduler's list, so
 * messages count it (`1 node(s) were unschedulable` / `1 node(s) had untolerated taint(s)`).
 */
export function whatIfDrain(
  state: Snapshot,
  node: string,
  opts: SimOptions = {},
  how: 'drain' | 'down' = 'drain',
): DrainAnswer | null {
  const nodeObj = state.get('Node', undefined, node);
  if (!nodeObj) return null;
  nodeInfoIndex(state);
  const fork = state.fork();
  const pods: Pod[] = [];
  for (const p of state.iterate('Pod')) {
    if (p.spec.nodeName !== node || isTerminal(p)) continue;
    if (p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet')) continue;
    pods.push(p);
  }
  const taints = (nodeObj.spec?.taints ?? []).filter(
    (t) => !t.key.startsWith('node.kubernetes.io/unschedulable') && !t.key.startsWith('node.kubernetes.io/unreachable'),
  );
  const added =
    how === 'drain'
      ? [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]
      : [
          { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
          { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
        ];
  fork.put({
    ...nodeObj,
    spec: {
      ...(nodeObj.spec ?? {}),
      ...(how === 'drain' ? { unschedulable: true } : {}),
      taints: [...taints, ...added],
    },
  });
  for (const p of pods) fork.put({ ...p, spec: { ...p.spec, nodeName: undefined } });
  const bare = pods.some((p) => !p.metadata.ownerReferences?.some((o) => o.controller));
  const command = how === 'drain' ? renderCommand({ kind: 'drain', node, ...(bare ? { force: true } : {}) }) : '';
  const out: DrainAnswer = { node, pods: pods.length, rescheduled: {}, stranded: [], command };
  // Bigger pods first, as a human would place them (and kube-scheduler's queue tends to by priority).
  const ordered = pods
    .slice()
    .sort(
      (a, b) =>
        (b.spec.priority ?? 0) - (a.spec.priority ?? 0) || byteCompare(a.metadata.name ?? '', b.metadata.name ?? ''),
    );
  for (const p of ordered) {
    const unbound = fork.get('Pod', p.metadata.namespace, p.metadata.name ?? '')!;
    const r = schedulePod(fork, unbound, { k8sVersion: opts.k8sVersion, draEnabled: opts.draEnabled });
    if (r.scheduled && r.node) {
      bindPod(fork, unbound, r.node);
      out.rescheduled[r.node] = (out.rescheduled[r.node] ?? 0) + 1;
    } else
      out.stranded.push({ pod: `${p.metadata.namespace}/${p.metadata.name}`, message: r.message ?? 'not schedulable' });
  }
  return out;
}
