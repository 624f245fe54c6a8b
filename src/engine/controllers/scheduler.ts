/**
 * kube-scheduler's queue around engine/scheduler/schedule.ts (pkg/scheduler/schedule_one.go and
 * internal/queue): pods are taken highest priority first (then oldest, then by name); a pod that fits is
 * bound; a pod that fits only by preemption gets its victims deleted (their controllers re-create them)
 * and `status.nominatedNodeName`, and is tried again next step; a pod that fits nowhere waits
 * (FailedScheduling) until a cluster event could make it fit — a node added or changed, a pod deleted
 * (MoveAllToActiveQueue) — and is then retried.
 */
import type { Pod } from '../../k8s/objects.ts';
import { podPriority } from '../priority.ts';
import { bindPod, schedulePod } from '../scheduler/schedule.ts';
import { type ControllerContext, controllerOf, isActive, podKey } from './context.ts';

/**
 * Unbound active pods of the whole state, keyed, found once when the first cluster event asks for them.
 * By namespace: a namespace the convergence has not written is the state's it came from, whose list is
 * kept with it (Snapshot.memoNs), so the forks of one state each scan only the namespaces they changed.
 */
function allPending(ctx: ControllerContext): string[] {
  const out: string[] = [];
  if (ctx.opts.shareBase === false) return unboundActive(ctx.state.iterate('Pod'));
  for (const ns of ctx.state.storeNamespaces('Pod'))
    for (const k of ctx.state.memoNs('Pod', ns, 'controllers.unbound-active', unboundActive)) out.push(k);
  return out;
}

function unboundActive(pods: IterableIterator<Pod>): string[] {
  const out: string[] = [];
  for (const p of pods) {
    if (!p.spec.nodeName && isActive(p)) out.push(podKey(p));
  }
  return out;
}

/** The status of a pod the kubelet has started: phase Running, PodScheduled and Ready True. */
export function runningStatus(pod: Pod): Pod['status'] {
  const { nominatedNodeName: _n, reason: _r, ...rest } = pod.status ?? {};
  void _n;
  void _r;
  return {
    ...rest,
    phase: 'Running',
    conditions: [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'True' },
    ],
  };
}

/** Queues every unbound active pod of the state (once per convergence), as a scheduler's start does. */
export function queueAllPending(ctx: ControllerContext): void {
  if (ctx.pendingScanned) return;
  ctx.pendingScanned = true;
  for (const k of allPending(ctx)) ctx.schedQueue.add(k);
}

/** One scheduling round over the queue. Returns whether anything was bound or preempted. */
export function runScheduler(ctx: ControllerContext): boolean {
  if (ctx.capacityChanged) {
    ctx.capacityChanged = false;
    queueAllPending(ctx);
    for (const k of ctx.pendingMessage.keys()) ctx.schedQueue.add(k);
  }
  if (ctx.schedQueue.size === 0) return false;
  const pods: { pod: Pod; priority: number }[] = [];
  for (const key of ctx.schedQueue) {
    const slash = key.indexOf('/');
    const p = ctx.state.get('Pod', key.slice(0, slash), key.slice(slash + 1));
    if (p && !p.spec.nodeName && isActive(p)) pods.push({ pod: p, priority: podPriority(ctx.state, p.spec).priority });
  }
  ctx.schedQueue.clear();
  // activeQ order (queuesort.PrioritySort): higher priority first, then the earlier queued (creation), then name.
  pods.sort((a, b) => {
    if (a.priority !== b.priority) return b.priority - a.priority;
    const ca = String(a.pod.metadata.creationTimestamp ?? '');
    const cb = String(b.pod.metadata.creationTimestamp ?? '');
    if (ca !== cb) return ca < cb ? -1 : 1;
    return podKey(a.pod) < podKey(b.pod) ? -1 : 1;
  });
  let changed = false;
  for (const { pod: queued } of pods) {
    const key = podKey(queued);
    // An earlier pod of this round may have preempted or changed it.
    const pod = ctx.state.get('Pod', queued.metadata.namespace, queued.metadata.name ?? '');
    if (!pod || pod.spec.nodeName || !isActive(pod)) continue;
    const r = schedulePod(ctx.state, pod, {
      k8sVersion: ctx.opts.k8sVersion,
      draEnabled: ctx.opts.draEnabled,
      cache: ctx.opts.scheduleCache === false ? undefined : ctx.scheduleCache,
      // Only a pod left unscheduled has its node statuses read (its FailedScheduling message, preemption).
      statusesOnlyWhenUnscheduled: true,
    });
    if (r.scheduled && r.node) {
      // The kubelet starts it: Running and Ready (probes are not modelled), the scheduler's nomination gone.
      const next: Pod = { ...pod, status: runningStatus(pod) };
      bindPod(ctx.state, next, r.node);
      ctx.pendingMessage.delete(key);
      ctx.events.push({ type: 'Scheduled', pod: key, node: r.node });
      const o = controllerOf(pod);
      if (o) ctx.markDirty(o);
      changed = true;
      continue;
    }
    if (r.gated) continue;
    const message = r.message ?? 'not scheduled';
    if (ctx.pendingMessage.get(key) !== message) ctx.events.push({ type: 'FailedScheduling', pod: key, message });
    ctx.pendingMessage.set(key, message);
    if (r.nominatedNode && r.victims?.length) {
      for (const v of r.victims) {
        const slash = v.indexOf('/');
        const victim = ctx.state.get('Pod', v.slice(0, slash), v.slice(slash + 1));
        if (victim) ctx.deletePod(victim, { type: 'Preempted', pod: v, by: key, node: r.nominatedNode });
      }
      const latest = ctx.state.get('Pod', pod.metadata.namespace, pod.metadata.name ?? '') ?? pod;
      ctx.state.put({ ...latest, status: { ...(latest.status ?? {}), nominatedNodeName: r.nominatedNode } });
      ctx.schedQueue.add(key);
      changed = true;
    }
  }
  return changed;
}
