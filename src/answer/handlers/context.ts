/**
 * What every question handler gets (./index.ts dispatches): the asker's context, the snapshot read once
 * for the question, and what could not be read (gaps). Also the lookups handlers share: what the asker
 * may see, and the namespaces a name is looked up in.
 */
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { Question } from '../../parse/question.ts';
import type { AskContext } from '../answerer.ts';
import { sourceGaps, unansweredGap, type Audience } from '../gaps.ts';
import { readsOf, type Reads } from '../../engine/completeness.ts';
import { clusterGaps } from '../staleness.ts';
import { Visibility } from '../policy.ts';
import { cannotSimulateAnswer } from '../replies/cluster-unanswered.ts';
import type { Answer } from '../types.ts';

export interface Loaded {
  state?: Snapshot;
  gaps: string[];
  /** What the load could not read (../verdicts.ts decides what an answer needed of it). */
  reads?: Reads;
  /** The gaps of the source's warnings alone (stale, skipped): what an answer says besides what it needed. */
  warningGaps?: string[];
  /** Layers whose inputs were not read (a paste checked without placement: `scheduler`). */
  unread?: ReadonlySet<'limitrange' | 'quota' | 'scheduler'>;
}

export const visibilityOf = (ctx: AskContext): Visibility => Visibility.of(ctx.allowedNamespaces);
export const audienceOf = (ctx: AskContext): Audience => ctx.audience ?? 'operator';

/** Source errors and the cache's staleness become gaps; for a channel, reduced to reason and resource (../gaps.ts). */
export async function loadState(
  ctx: AskContext,
  namespaces?: string[],
  opts: { placement?: boolean } = {},
): Promise<Loaded> {
  // Without placement (an admission-only question about named namespaces) nothing cluster-wide is read.
  const placement = opts.placement === false && namespaces?.length ? false : undefined;
  try {
    const r = await ctx.source.load({
      signal: ctx.signal,
      ...(namespaces ? { namespaces } : {}),
      ...(placement === false ? { placement } : {}),
    });
    // The cluster's health in one line (../staleness.ts): nothing read → no state; a watch down > 60 s → its age.
    const c = clusterGaps(r, ctx.now ?? Date.now(), audienceOf(ctx));
    if (c.unreadable) return { gaps: c.lines };
    return {
      state: r.snapshot,
      gaps: [...c.lines, ...sourceGaps(c.rest, visibilityOf(ctx), audienceOf(ctx))],
      reads: readsOf(r.errors, namespaces, placement ?? true),
      warningGaps: [
        ...c.lines,
        ...sourceGaps({ errors: [], warnings: c.rest.warnings }, visibilityOf(ctx), audienceOf(ctx)),
      ],
    };
  } catch (e) {
    return { gaps: [unansweredGap(e, audienceOf(ctx))] };
  }
}

/** The namespaces a name is looked up in: the explicit one, else the visible ones (the default first). */
export function visibleNamespaces(state: Snapshot | undefined, ctx: AskContext, explicit?: string): string[] {
  const vis = visibilityOf(ctx);
  if (explicit) return vis.allows(explicit) ? [explicit] : [];
  const all = state ? state.namespaces() : [];
  const list = ctx.defaultNamespace ? [ctx.defaultNamespace, ...all.filter((n) => n !== ctx.defaultNamespace)] : all;
  return vis.visible(list);
}

/** The question of one type. */
export type QuestionOf<K extends Question['type']> = Extract<Question, { type: K }>;

export interface Env extends Loaded {
  ctx: AskContext;
}

/** A handler's Env once the cluster answered: the snapshot is there. */
export interface StateEnv extends Env {
  state: Snapshot;
  opts: { now?: number };
  /** Adds the read's gaps to every reply of `a` (and returns it). */
  withGaps(a: Answer): Answer;
}

export type Handler<Q extends Question> = (q: Q, env: Env) => Answer;
export type StateHandler<Q extends Question> = (q: Q, env: StateEnv) => Answer;

/** A handler that needs the snapshot: without one, the "cannot simulate that now" reply with the gaps. */
export function needsState<Q extends Question>(h: StateHandler<Q>): Handler<Q> {
  return (q, env) => {
    const { state, gaps } = env;
    if (!state) return cannotSimulateAnswer(gaps);
    const withGaps = (a: Answer): Answer => {
      for (const r of a.replies) r.gaps.push(...gaps);
      return a;
    };
    return h(q, { ...env, state, opts: { now: env.ctx.now }, withGaps });
  };
}
