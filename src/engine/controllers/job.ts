/**
 * The Job controller (pkg/controller/job/job_controller.go, manageJob): wanted active pods are
 * `parallelism`, capped by the completions still to go (completions − succeeded); fewer → create the
 * difference (slow-start batches, as the ReplicaSet controller); more → delete the excess (not ready first).
 * A suspended Job wants none.
 */
import type { Pod } from '../../k8s/objects.ts';
import type { ObjectRef } from '../changes/types.ts';
import { type ControllerContext, isActive, refKey } from './context.ts';
import { podFromTemplate, rankPodsForDeletion, slowStartCreate } from './replica_set.ts';

export function wantedActive(
  spec: { parallelism?: number | null; completions?: number | null; suspend?: boolean | null },
  succeeded: number,
): number {
  if (spec.suspend) return 0;
  const par = Math.max(0, spec.parallelism ?? 1);
  if (spec.completions === undefined || spec.completions === null) return succeeded > 0 ? 0 : par;
  return Math.max(0, Math.min(par, spec.completions - succeeded));
}

export function syncJob(ctx: ControllerContext, r: ObjectRef): boolean {
  const job = ctx.state.get('Job', r.namespace ?? 'default', r.name);
  if (!job) return false;
  const ref: ObjectRef = { kind: 'Job', namespace: job.metadata.namespace ?? 'default', name: job.metadata.name ?? '' };
  const all = ctx.podsOf(ref);
  const active = all.filter(isActive);
  const succeeded = all.filter((p: Pod) => p.status?.phase === 'Succeeded').length;
  const want = wantedActive(job.spec as { parallelism?: number; completions?: number; suspend?: boolean }, succeeded);
  const diff = active.length - want;
  if (diff < 0) {
    const labels = { 'batch.kubernetes.io/job-name': ref.name, 'job-name': ref.name };
    const res = slowStartCreate(ctx, ref, -diff, () =>
      podFromTemplate(ctx, { ...ref, apiVersion: 'batch/v1' }, job.spec.template, ref.name, labels),
    );
    if (res.message !== null) ctx.blocked.set(refKey(ref), ref);
    else ctx.blocked.delete(refKey(ref));
    return res.created > 0;
  }
  ctx.blocked.delete(refKey(ref));
  if (diff > 0) {
    for (const p of rankPodsForDeletion(active, active).slice(0, diff))
      ctx.deletePod(p, { type: 'Killing', pod: `${ref.namespace}/${p.metadata.name ?? ''}`, by: ref });
    return true;
  }
  return false;
}
