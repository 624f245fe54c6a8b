/** A question or message over its cap (answer/index.ts), refused before it is parsed. */
import { emptyReply, type Answer } from '../types.ts';

export function tooLongAnswer(what: 'question' | 'message', size: string, allowed: string): Answer {
  const r = emptyReply('info', 'ℹ️', `That ${what} is too long for me to read (${size})`);
  r.lines.push(
    `I read ${what}s of up to ${allowed}.${what === 'question' ? ' Paste a long error or manifest as a plain message instead of an @mention, or shorten it.' : ' Paste the error itself, or the one manifest it is about.'}`,
  );
  return { replies: [r], namespaces: [] };
}
