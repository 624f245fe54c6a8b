/** A number no Kubernetes component can hold (../../parse/question.ts): said before anything is read. */
import { outOfRangeReply } from '../bounds.ts';
import type { Handler, QuestionOf } from './context.ts';

export const invalid: Handler<QuestionOf<'invalid'>> = (q) => ({
  replies: [outOfRangeReply(q.reason)],
  namespaces: [],
});
