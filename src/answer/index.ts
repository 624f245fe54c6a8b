/**
 * The Answerer: text in, Answer out, for Slack, the console and the CLI alike. Reads the cluster
 * through the ClusterSource (errors become stated gaps), calls the pure engine, and applies the access
 * policy (./policy.ts, `Visibility`) first: every method resolves what the asker may see before it
 * parses or reads anything (a channel that sees nothing gets the refusal and nothing else), caps the
 * text's length before parsing it, looks names up only in visible namespaces, and checks what the answer
 * names again before it is returned.
 *
 * Questions are dispatched by type (./handlers/index.ts); every reply is worded in ./replies/.
 */
import { parseQuestion } from '../parse/question.ts';
import type { Answerer, AskContext } from './answerer.ts';
import { diagnose, recognises, simulationReply } from './diagnose.ts';
import type { Answer } from './types.ts';
import { guardAnswer, refusalAnswer } from './policy.ts';
import { DEFAULT_MAX_BYTES } from '../parse/index.ts';
import { answerQuestion } from './handlers/index.ts';
import { audienceOf, loadState, visibilityOf, type Loaded } from './handlers/context.ts';
import { helpFor } from './handlers/help.ts';
import { quotaAnswer } from './handlers/headroom.ts';
import { noHeadroomAnswer } from './replies/cluster-unanswered.ts';
import { headroomUnreadableAnswer } from './replies/headroom.ts';
import { tooLongAnswer } from './replies/too-long.ts';
import { usageAnswer } from './replies/usage.ts';
import { loadForPaste, qualifiedQuota } from './verdicts.ts';

export { diagnose } from './diagnose.ts';
export { quotaAnswer } from './handlers/headroom.ts';
export { headroomReply } from './replies/headroom.ts';

/** Characters an @mention question (or a console line read as one) may have; longer is refused before parsing. */
export const MAX_QUESTION_CHARS = 12_000;
/** Bytes a pasted message may have (the paste parser's own cap, parse/index.ts); longer is refused before parsing. */
export const MAX_MESSAGE_BYTES = DEFAULT_MAX_BYTES;

function overCap(text: string, what: 'question' | 'message'): Answer | null {
  if (what === 'question') {
    return text.length > MAX_QUESTION_CHARS
      ? tooLongAnswer(
          'question',
          `${text.length.toLocaleString('en-US')} characters`,
          `${MAX_QUESTION_CHARS.toLocaleString('en-US')} characters`,
        )
      : null;
  }
  // UTF-16 length ≥ bytes / 3: only a text that may be over the byte cap is measured.
  if (text.length * 3 <= MAX_MESSAGE_BYTES) return null;
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes > MAX_MESSAGE_BYTES
    ? tooLongAnswer('message', `${(bytes / 1024 / 1024).toFixed(1)} MiB`, '1 MiB')
    : null;
}

const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * Every method, in this order: (1) what the asker may see — a channel that sees nothing gets the refusal
 * (`message`: silence, since telling a paste from chatter would mean parsing it); (2) the length cap, before
 * any parsing; (3) names looked up in visible namespaces only; (4) the answer's namespaces checked again.
 */
export function createAnswerer(): Answerer {
  const diagnoseIn = (text: string, ctx: AskContext, loaded: Loaded) =>
    diagnose({
      text,
      state: loaded.state,
      namespace: ctx.defaultNamespace,
      now: ctx.now,
      gaps: loaded.gaps,
      ...(loaded.unread ? { unread: loaded.unread } : {}),
      ...(loaded.reads ? { unreadResources: loaded.reads.unread.map((u) => u.resource) } : {}),
      allowedNamespaces: visibilityOf(ctx).list(),
      audience: audienceOf(ctx),
    });
  return {
    async message(text, ctx) {
      const vis = visibilityOf(ctx);
      if (vis.seesNothing) return null;
      if (!text.trim()) return null;
      const tooLong = overCap(text, 'message');
      if (tooLong) return tooLong;
      const d = diagnoseIn(text, ctx, await loadForPaste(ctx, text));
      if (!d.recognised) return null;
      return guardAnswer(d.answer, vis);
    },
    async question(text, ctx) {
      const vis = visibilityOf(ctx);
      if (vis.seesNothing) return refusalAnswer();
      const tooLong = overCap(text, 'question');
      if (tooLong) return tooLong;
      const q = parseQuestion(text);
      // A question that holds an error or a manifest is a diagnosis — even when its words ("exceeded
      // quota: …") also read like a question (its "in …" is then not a namespace the asker named).
      if (q.type === 'help' || recognises(text)) {
        const loaded = q.type === 'help' && !recognises(text) ? await loadState(ctx) : await loadForPaste(ctx, text);
        const d = diagnoseIn(text, ctx, loaded);
        if (d.recognised) return guardAnswer(d.answer, vis);
        if (q.type === 'help') return helpFor(loaded.state, ctx);
      }
      // A namespace the asker named and may not see: refused before anything is read.
      if ('namespace' in q && q.namespace && !vis.allows(q.namespace)) return refusalAnswer();
      return guardAnswer(await answerQuestion(q, ctx), vis);
    },
    async quota(namespace, ctx) {
      const vis = visibilityOf(ctx);
      if (vis.seesNothing) return refusalAnswer();
      const ns = namespace ?? ctx.defaultNamespace;
      if (!ns) return usageAnswer('/quota');
      // The cap of a namespace name (a DNS label), before it is used for anything.
      if (!NAMESPACE.test(ns)) return usageAnswer('/quota');
      if (!vis.allows(ns)) return refusalAnswer();
      const { state, gaps, reads, warningGaps } = await loadState(ctx, [ns]);
      if (!state) return noHeadroomAnswer(ns, gaps);
      let a: Answer;
      try {
        // Qualified by what was read (./verdicts.ts): its gaps are the unread resources it needed.
        if (reads) return guardAnswer(qualifiedQuota(state, ns, reads, ctx, warningGaps ?? []), vis);
        a = quotaAnswer(state, ns, ctx.now);
      } catch {
        // An object the API returned with a value no API server accepts (a quantity like "1.5.5") used to
        // throw here, and every /quota of that namespace became "Something went wrong".
        a = headroomUnreadableAnswer(ns);
      }
      for (const r of a.replies) r.gaps.push(...gaps);
      return guardAnswer(a, vis);
    },
  };
}

export { simulationReply };
