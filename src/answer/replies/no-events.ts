/** "why is web pending?" when the namespace holds no failure event about it. */
import { emptyReply, type Reply } from '../types.ts';

export function noEventsReply(name: string, ns: string): Reply {
  return emptyReply('info', 'ℹ️', `No failure events for ${name} in ${ns}.`);
}
