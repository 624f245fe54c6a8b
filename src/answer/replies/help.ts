/** The help reply: example questions, in names from the asker's own namespace when it has them (../handlers/help.ts). */
import type { Question } from '../../parse/question.ts';
import { emptyReply, type Answer } from '../types.ts';

/** The names the examples use: the namespace at hand's own objects, or placeholders (NAMESPACE, WORKLOAD, QUOTA…). */
export interface HelpExamples {
  namespace: string;
  workload: string;
  otherWorkload: string;
  node: string;
  quota: string;
  quotaResource: string;
  quotaTo: string;
  /** The namespace's first LimitRange, and its Container max cpu doubled when it has one. */
  limitRange?: { name: string; maxCpuDoubled?: string };
  /** A PriorityClass of the cluster (not a system- one), for the priority examples. */
  priorityClass?: string;
}

/**
 * One example of help: the question as the asker types it, what it is asked as (the question grammar's
 * type, src/parse/question.ts), a note shown after it that is not part of the question, and another
 * wording of a neighbouring form on the same line (Slack shows at most 15 lines of a reply:
 * src/render/blocks.ts LIMITS.lines). test/answer/help.test.ts runs every example and alternative
 * through the grammar.
 */
export interface HelpExample {
  text: string;
  asks: Question['type'];
  note?: string;
  also?: { text: string; asks: Question['type'] };
}

/** The separator between an example and its alternative on one line. */
export const ALSO = '   ·   ';

/** Every question form the grammar answers, in the names of `ex` (at most 15 lines). */
export function helpExampleList(ex: HelpExamples): HelpExample[] {
  const { namespace: ns, workload: w, otherWorkload: w2, node } = ex;
  const lr = ex.limitRange;
  const pc = ex.priorityClass ?? 'PRIORITYCLASS';
  return [
    {
      text: `what if ${w} scales to 8 in ${ns}?`,
      asks: 'scale',
      also: { text: `can I add 3 more replicas of ${w} in ${ns}?`, asks: 'scale' },
    },
    { text: `what if ${w} requests 250m cpu in ${ns}?`, asks: 'requests' },
    { text: `raise ${ex.quotaResource} of ${ex.quota} to ${ex.quotaTo} in ${ns}`, asks: 'quota' },
    {
      text: lr?.maxCpuDoubled
        ? `what if the limitrange ${lr.name} max cpu is ${lr.maxCpuDoubled} in ${ns}?`
        : `what if the limitrange${lr ? ` ${lr.name}` : ''} defaultRequest cpu were 250m in ${ns}?`,
      asks: 'limitrange',
    },
    {
      text: `how much cpu is left in ${ns}?`,
      asks: 'left',
      also: { text: `how many more ${w} pods fit in ${ns}?`, asks: 'fit' },
    },
    { text: `what if ${node} goes down?`, asks: 'drain' },
    { text: `is ${node} back?`, asks: 'node', also: { text: `what if ${node} is uncordoned?`, asks: 'uncordon' } },
    {
      text: `add a node like ${node}`,
      asks: 'addNode',
      also: { text: `would another node help in ${ns}?`, asks: 'nodeNeeded' },
    },
    { text: `roll out ${w} in ${ns}`, asks: 'rollout' },
    { text: `what if ${w2} rolls out with 500m cpu in ${ns}?`, asks: 'rollout' },
    { text: `what if ${w} gets priorityClass ${pc} in ${ns}?`, asks: 'priorityClass' },
    {
      text: `what priority does ${w} have in ${ns}?`,
      asks: 'priority',
      also: { text: 'which PriorityClasses can I use?', asks: 'priority' },
    },
    { text: `why is ${w} pending?`, asks: 'why', also: { text: `what's wrong in ${ns}?`, asks: 'overview' } },
    { text: `quota ${ns}`, asks: 'headroom', note: `(or /quota ${ns} in Slack)` },
  ];
}

export function helpAnswer(ex: HelpExamples): Answer {
  const r = emptyReply('help', '❓', 'Paste an error, an event or a manifest — or ask:');
  r.lines.push(
    ...helpExampleList(ex).map(
      (e) => `${e.text}${e.also ? `${ALSO}${e.also.text}` : ''}${e.note ? `   ${e.note}` : ''}`,
    ),
  );
  return { replies: [r], namespaces: [] };
}
