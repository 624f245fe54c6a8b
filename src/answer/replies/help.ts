/** The help reply: example questions, in names from the asker's own namespace when it has them (../handlers/help.ts). */
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
}

export function helpAnswer(ex: HelpExamples): Answer {
  const { namespace: ns, workload: w, otherWorkload: w2, node } = ex;
  const lr = ex.limitRange;
  const r = emptyReply('help', '❓', 'Paste an error, an event or a manifest — or ask:');
  r.lines.push(
    `what if ${w} scales to 8 in ${ns}?`,
    `what if ${w} requests 250m cpu in ${ns}?`,
    `raise ${ex.quotaResource} of ${ex.quota} to ${ex.quotaTo} in ${ns}`,
    lr?.maxCpuDoubled
      ? `what if the limitrange ${lr.name} max cpu is ${lr.maxCpuDoubled} in ${ns}?`
      : `what if the limitrange${lr ? ` ${lr.name}` : ''} defaultRequest cpu were 250m in ${ns}?`,
    `what if ${node} goes down?`,
    `roll out ${w} in ${ns}`,
    `what if ${w2} rolls out with 500m cpu in ${ns}?`,
    `why is ${w} pending?`,
    `quota ${ns}   (or /quota ${ns} in Slack)`,
  );
  return { replies: [r], namespaces: [] };
}
