/** "I can't find …": a name (workload, node, namespace, object) that is not there, or not where the asker may look. */
import type { Answer } from '../types.ts';
import { emptyReply } from '../types.ts';

export function notFound(what: string, namespaces: string[]): Answer {
  const r = emptyReply('info', 'ℹ️', `I can't find ${what}.`);
  r.lines.push('Check the name (and the namespace: add "in <namespace>").');
  return { replies: [r], namespaces };
}
