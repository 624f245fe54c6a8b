/** `/quota` without a usable namespace. `hasDefault` (Slack) adds a line on whether the channel has a default. */
import { emptyReply, type Answer } from '../types.ts';

export function usageAnswer(command: string, hasDefault?: boolean): Answer {
  const r = emptyReply('help', '❓', `Usage: ${command} NAMESPACE`);
  if (hasDefault !== undefined)
    r.lines.push(
      hasDefault
        ? "Name one namespace, or none for this channel's default."
        : 'This channel has no default namespace, so name one.',
    );
  return { replies: [r], namespaces: [] };
}
