/**
 * The DaemonSet controller (pkg/controller/daemon/daemon_controller.go, manage + NodeShouldRunDaemonPod):
 * one pod per node that should run it — the pod's node selector and required node affinity match, every
 * NoSchedule/NoExecute taint tolerated (with the tolerations the controller adds) — pinned to its node by
 * a required `metadata.name` matchFields term; a pod on a node that should not run it is deleted.
 */
import type { Node, Pod, PodTemplate } from '../../k8s/objects.ts';
import type { ObjectRef } from '../changes/types.ts';
import { matchesRequiredNodeAffinity, readRequiredNodeAffinity } from '../scheduler/plugins/node-affinity.ts';
import { findUntoleratedTaint } from '../scheduler/plugins/taint-toleration.ts';
import { type ControllerContext, isActive, refKey } from './context.ts';
import { podFromTemplate } from './replica_set.ts';

/** Tolerations the DaemonSet controller adds to its pods (pkg/controller/daemon/util AddOrUpdateDaemonPodTolerations). */
export const DAEMONSET_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

/** NodeShouldRunDaemonPod's predicates for a pod of the template on this node. */
export function shouldRun(pod: Pod, node: Node): boolean {
  const aff = readRequiredNodeAffinity(pod);
  const labels = (node.metadata.labels ?? {}) as Record<string, string>;
  if (!matchesRequiredNodeAffinity(aff, { name: node.metadata.name ?? '', labels })) return false;
  return findUntoleratedTaint(node.spec?.taints ?? [], pod.spec.tolerations ?? []) === null;
}

/**
 * How many pods a DaemonSet wants: the nodes that should run one (NodeShouldRunDaemonPod on the pod
 * NewPod builds, with the daemon tolerations AddOrUpdateDaemonPodTolerations adds — so a cordoned node
 * still wants its pod).
 */
export function daemonWanted(nodes: Iterable<Node>, template: PodTemplate): number {
  const spec = template.spec ?? { containers: [] };
  const probe = {
    metadata: {},
    spec: { ...spec, tolerations: [...(spec.tolerations ?? []), ...DAEMONSET_TOLERATIONS] },
  } as Pod;
  let n = 0;
  for (const node of nodes) if (shouldRun(probe, node)) n++;
  return n;
}

function daemonPod(ctx: ControllerContext, ref: ObjectRef, template: PodTemplate, nodeName: string): Pod {
  const pod = podFromTemplate(ctx, { ...ref, apiVersion: 'apps/v1' }, template, ref.name);
  pod.spec.affinity = {
    ...(pod.spec.affinity ?? {}),
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
      },
    },
  };
  pod.spec.tolerations = [...(pod.spec.tolerations ?? []), ...DAEMONSET_TOLERATIONS];
  return pod;
}

/** The node a daemon pod is pinned to (its matchFields term), else where it runs. */
function nodeOf(p: Pod): string | null {
  const terms = p.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const t of terms)
    for (const f of t.matchFields ?? []) if (f.key === 'metadata.name' && f.values?.[0]) return f.values[0];
  return p.spec.nodeName ?? null;
}

export function syncDaemonSet(ctx: ControllerContext, r: ObjectRef): boolean {
  const ds = ctx.state.get('DaemonSet', r.namespace ?? 'default', r.name);
  if (!ds) return false;
  const ref: ObjectRef = {
    kind: 'DaemonSet',
    namespace: ds.metadata.namespace ?? 'default',
    name: ds.metadata.name ?? '',
  };
  const pods = ctx.podsOf(ref).filter(isActive);
  const byNode = new Map<string, Pod>();
  for (const p of pods) {
    const n = nodeOf(p);
    if (n) byNode.set(n, p);
  }
  let changed = false;
  let message: string | null = null;
  let refused = 0;
  let created = 0;
  for (const node of ctx.state.list('Node')) {
    const name = node.metadata.name ?? '';
    const probe = daemonPod(ctx, ref, ds.spec.template, name);
    const run = shouldRun(probe, node);
    const have = byNode.get(name);
    if (run && !have) {
      const err = ctx.createPod(ref, probe);
      if (err) {
        refused++;
        message ??= err;
      } else {
        created++;
        changed = true;
      }
    } else if (!run && have) {
      ctx.deletePod(have, { type: 'Killing', pod: `${ref.namespace}/${have.metadata.name ?? ''}`, by: ref });
      changed = true;
    }
  }
  if (created) ctx.events.push({ type: 'SuccessfulCreate', object: ref, count: created });
  if (message !== null) {
    ctx.events.push({ type: 'FailedCreate', object: ref, message, count: refused, layer: ctx.lastRefusalLayer });
    ctx.blocked.set(refKey(ref), ref);
  } else ctx.blocked.delete(refKey(ref));
  return changed;
}
