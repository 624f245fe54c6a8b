/** An explicit ask (not a plain channel message, which stays unanswered) about text that holds nothing recognised. */
import { emptyReply, type Answer } from '../types.ts';

export function noFindingAnswer(): Answer {
  const r = emptyReply('info', 'ℹ️', "I didn't find a Kubernetes error, event or manifest in that message");
  r.lines.push('Paste the exact error (kubectl output, an event, or the manifest), or ask me with an @mention.');
  return { replies: [r], namespaces: [] };
}
