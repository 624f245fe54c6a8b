/**
 * `whatif`'s implementation (the command's registration, cheap, is in whatif.ts): loaded by its action with
 * a dynamic import, and by the MCP `whatif` tool.
 */
import { openSource, type ClusterSource } from '../../answer/sources.ts';
import type { Answer } from '../../answer/types.ts';
import { createAnswerer } from '../../answer/index.ts';
import { renderAnswer } from '../../render/text.ts';
import { incompleteOfAnswer, isUndecided } from '../../answer/verdicts.ts';
import type { Io } from '../io.ts';
import { outputFormat, printData, type Flags } from '../options.ts';

/**
 * The command's core, shared with the MCP `whatif` tool: the question answered by the Answerer, which applies
 * the access policy itself (`allowedNamespaces`; the CLI passes none: it sees everything).
 */
export function whatifWith(
  source: ClusterSource,
  input: {
    question: string;
    namespace?: string;
    allowedNamespaces?: readonly string[];
    audience?: 'channel' | 'operator';
  },
): Promise<Answer> {
  return createAnswerer().question(input.question, {
    source,
    defaultNamespace: input.namespace,
    now: Date.now(),
    allowedNamespaces: input.allowedNamespaces,
    audience: input.audience,
  });
}

/** The `whatif` command's run: its exit code. */
export async function runWhatif(words: string[], flags: Flags, io: Io): Promise<number> {
  const format = outputFormat(flags);
  const source = await openSource(flags);
  try {
    const answer = await whatifWith(source, {
      question: words.join(' '),
      namespace: flags.namespace ?? source.contextNamespace?.(),
    });
    // --json: the replies, and for a what-if answered by a change the change, its outcome per object and
    // the fixes in diagnose's shape (docs/contract.md); `incomplete`, what the answer needed and could not read.
    if (format)
      await printData(io, format, {
        replies: answer.replies,
        ...(answer.json && answer.replies[0]?.kind === 'whatif' ? { whatif: answer.json } : {}),
        // "what's wrong?": every open incident of the namespaces it covers.
        ...(answer.json && answer.replies[0]?.kind !== 'whatif' && isIncidents(answer.json) ? answer.json : {}),
        incomplete: incompleteOfAnswer(answer),
      });
    else io.stdout(`${renderAnswer(answer)}\n`);
    // Exit 3: what the answer needs could not be read (answer/verdicts.ts).
    return isUndecided(answer) ? 3 : 0;
  } finally {
    await source.close();
  }
}

function isIncidents(v: unknown): v is { incidents: unknown[] } {
  return typeof v === 'object' && v !== null && Array.isArray((v as { incidents?: unknown }).incidents);
}
