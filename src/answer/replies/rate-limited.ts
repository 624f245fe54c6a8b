/** A user or a channel over its rate (slack/rate-limit.ts): when to ask again, in whole seconds (at least 1). */
import { emptyReply, type Answer } from '../types.ts';

export function rateLimitedAnswer(scope: 'user' | 'channel', retryAfterMs: number): Answer {
  const s = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const r = emptyReply(
    'info',
    '⏳',
    scope === 'user'
      ? `You're asking faster than I can check — try again in ${s} s`
      : `This channel is asking faster than I can check — try again in ${s} s`,
  );
  return { replies: [r], namespaces: [] };
}
