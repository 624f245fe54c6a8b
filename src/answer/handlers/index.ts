/**
 * Questions → answers: one handler per question type, in a table the type checker keeps complete (a
 * question type without a handler does not compile). Adding a question: its handler file here, one entry
 * in HANDLERS, its reply under ../replies/. A handler that needs the cluster is wrapped in `needsState`.
 */
import type { Question } from '../../parse/question.ts';
import type { AskContext } from '../answerer.ts';
import type { Answer } from '../types.ts';
import { left, node, nodeNeeded, priority } from './asked.ts';
import { loadState, type Env, type QuestionOf } from './context.ts';
import { addNode } from './add-node.ts';
import { namespaceUnknown, questionGate, questionNamespaces, questionPlacement } from '../verdicts.ts';
import { drain } from './drain.ts';
import { headroom } from './headroom.ts';
import { help } from './help.ts';
import { invalid } from './invalid.ts';
import { limitrange } from './limitrange.ts';
import { priorityClass } from './priority-class.ts';
import { quota } from './quota.ts';
import { requests } from './requests.ts';
import { rollout } from './rollout.ts';
import { scale } from './scale.ts';
import { uncordon } from './uncordon.ts';
import { resolveNames } from './resolve.ts';
import { why } from './why.ts';
import { overview } from './overview.ts';
import { fit } from './fit.ts';

export type Handlers = { [K in Question['type']]: (q: QuestionOf<K>, env: Env) => Answer };

export const HANDLERS: Handlers = {
  help,
  headroom,
  drain,
  quota,
  limitrange,
  scale,
  requests,
  rollout,
  why,
  uncordon,
  priorityClass,
  addNode,
  invalid,
  left,
  node,
  priority,
  nodeNeeded,
  overview,
  fit,
};

function dispatch<K extends Question['type']>(type: K, q: QuestionOf<K>, env: Env): Answer {
  return HANDLERS[type](q, env);
}

/** Reads the cluster once, then answers with the question type's handler. */
export async function answerQuestion(q: Question, ctx: AskContext): Promise<Answer> {
  // A number no Kubernetes component can hold: answered before anything is read.
  if (q.type === 'invalid') return HANDLERS.invalid(q, { gaps: [], ctx });
  const loaded = await loadState(ctx, questionNamespaces(q, ctx), { placement: questionPlacement(q) });
  // Never a verdict, a number or "not found" from what was not read (../verdicts.ts).
  // One gate for every audience (CLI, console, channels): a what-if whose inputs were not read is
  // undecided, said in one line per unread input, whoever asks.
  const gated = questionGate(q, loaded, ctx);
  if (gated) return gated;
  // Past the gate, what the answer needed was read: its gaps are the source's warnings.
  const env = { ...loaded, gaps: loaded.warningGaps ?? loaded.gaps, ctx };
  // Names resolved next (./resolve.ts): "did you mean" from the visible names, quotas across namespaces.
  if (loaded.state) {
    // "namespace not found" only from a read of the namespace list (../verdicts.ts namespaceUnknown).
    const unknown = namespaceUnknown(q, loaded, ctx);
    if (unknown) return unknown;
    const r = resolveNames(q, loaded.state, ctx);
    if ('answer' in r) {
      for (const reply of r.answer.replies) reply.gaps.push(...env.gaps);
      return r.answer;
    }
    return dispatch(r.question.type, r.question, env);
  }
  return dispatch(q.type, q, env);
}
