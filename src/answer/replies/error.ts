/** The answerer threw (a bug). Says nothing about the error itself: its message may name objects of other namespaces. */
import { emptyReply, type Answer } from '../types.ts';

export function errorAnswer(): Answer {
  const r = emptyReply('error', '⚠️', 'Something went wrong while answering');
  r.lines.push(
    'Nothing was changed in the cluster. The error is in the quota-doctor logs; try again, or tell the platform team.',
  );
  return { replies: [r], namespaces: [] };
}
