/** "I can't find workload workrs. Did you mean worker?": a name that is not there, with the closest visible names. */
import type { Answer } from '../types.ts';
import { emptyReply } from '../types.ts';

function orList(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

/** `suggestions` must come from what the asker may see (handlers/suggest.ts). */
export function notFoundSuggesting(what: string, suggestions: string[], namespaces: string[]): Answer {
  const r = emptyReply('info', 'ℹ️', `I can't find ${what}.`);
  if (suggestions.length) r.lines.push(`Did you mean ${orList(suggestions)}?`);
  else r.lines.push('Check the name (and the namespace: add "in <namespace>").');
  return { replies: [r], namespaces };
}
