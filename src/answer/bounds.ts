/**
 * How much one answer may simulate. The engine expands a workload into one pod per replica
 * (docs/contract.md), so `replicas: 1000000000` in a pasted Deployment, or "what if web scales to
 * 1000000000", allocated pods until the process ran out of heap (the whole Slack app died with it).
 * About 50 µs and 10 KB per simulated pod: 5,000 pods is under half a second and ~70 MB; the CLI, run
 * by its own user on their own machine, gets more room. The cut is always said, never silent.
 */
import type { KObject } from '../k8s/snapshot.ts';
import { emptyReply, type Reply } from './types.ts';

/** Pods one Slack/console answer simulates at most (all workloads of a paste together). */
export const MAX_ANSWER_PODS = 5_000;
/**
 * New pods one scale question ("what if web scales to 10000000") simulates at most; the reply says so.
 * Refused pods cost nothing past the first (engine/whatif.ts: interchangeable pods are refused alike),
 * nor does the scheduler past the first unschedulable one, but each admitted and placed pod runs
 * admission and the scheduler: about 0.3 ms at 500 nodes, 0.9 ms at 5,000 (bench/run.ts, hugeScaleMs).
 * 500 keeps one answer under half a second of event loop on a 5,000-node cluster (the old cap, 5,000
 * pods, took 1.6–3 s on the 10-node demo).
 */
export const MAX_SCALE_PODS = 500;
/** Pods one `simulate`/`check` run simulates at most. */
export const MAX_CLI_PODS = 20_000;

type Rec = Record<string, unknown>;

function isRec(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The replica-like count a workload asks for, and a copy with it set to `n`. */
function countOf(o: KObject): { count: number; withCount: (n: number) => KObject } | null {
  const spec = isRec(o.spec) ? o.spec : undefined;
  if (!spec) return null;
  const num = (v: unknown, dflt: number) => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, v) : dflt);
  switch (o.kind) {
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet':
      return { count: num(spec.replicas, 1), withCount: (n) => ({ ...o, spec: { ...spec, replicas: n } }) };
    case 'Job':
      return { count: num(spec.parallelism, 1), withCount: (n) => ({ ...o, spec: { ...spec, parallelism: n } }) };
    case 'CronJob': {
      const jt = isRec(spec.jobTemplate) ? spec.jobTemplate : undefined;
      const js = jt && isRec(jt.spec) ? jt.spec : undefined;
      if (!jt || !js) return null;
      return {
        count: num(js.parallelism, 1),
        withCount: (n) => ({ ...o, spec: { ...spec, jobTemplate: { ...jt, spec: { ...js, parallelism: n } } } }),
      };
    }
    default:
      return null;
  }
}

/**
 * Caps the pods the objects expand to at `maxPods` in total (in order: later workloads get what is
 * left). Objects are copied, never changed in place; each cut is a warning naming the object.
 */
export function boundWorkloads(objects: KObject[], maxPods: number): { objects: KObject[]; warnings: string[] } {
  let left = maxPods;
  const warnings: string[] = [];
  const out = objects.map((o) => {
    if (o.kind === 'Pod') {
      left--;
      return o;
    }
    const c = countOf(o);
    if (!c) return o;
    if (c.count <= Math.max(0, left)) {
      left -= c.count;
      return o;
    }
    const n = Math.max(0, left);
    left = 0;
    const id = `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name ?? ''}`;
    warnings.push(
      `${id}: simulated ${n} of its ${c.count} pods (quota-doctor simulates at most ${maxPods} pods at once)`,
    );
    return c.withCount(n);
  });
  return { objects: out, warnings };
}

/** A question with a number beyond what Kubernetes holds (`invalid` of parse/question.ts): the reason, the limit. */
export function outOfRangeReply(reason: string): Reply {
  const r = emptyReply('info', 'ℹ️', "I can't simulate that number.");
  r.lines.push(reason);
  return r;
}
