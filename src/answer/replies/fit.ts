/** "how many more api pods fit?": the count, what stops the next one, and the scale that gets them, verified. */
import type { Headroom, WorkloadHeadroom } from '../../engine/headroom.ts';
import type { ScaleAnswer, WorkloadRef } from '../../engine/whatif/index.ts';
import { MAX_SCALE_PODS } from '../bounds.ts';
import { emptyReply, type Reply } from '../types.ts';
import { perPodText } from './pod-words.ts';

/** What stops the pod after the last one that fits, in words (the quota's figures as they are now). */
function stopWords(count: WorkloadHeadroom, h: Headroom): string {
  if (count.limitedBy === 'nodes') return 'no node has room for another';
  const q = h.quotas.find((x) => x.name === count.quota);
  const r = count.limitedBy ? q?.resources[count.limitedBy] : undefined;
  if (q && r && count.limitedBy)
    return `ResourceQuota ${q.name} refuses the next on ${count.limitedBy} (${r.used} / ${r.hard} used now, ${r.free} free)`;
  return `${count.limitedBy ?? 'nothing'} stops the next`;
}

/** A pod's requests in words: `200m cpu / 256Mi memory each`, or that it requests nothing. */
function eachWords(perPod: Record<string, string>): string {
  return Object.keys(perPod).length ? `${perPodText(perPod)} each` : 'pods with no requests';
}

export function fitReply(
  w: WorkloadRef,
  current: number,
  count: WorkloadHeadroom | undefined,
  n: number,
  scaled: ScaleAnswer | undefined,
  h: Headroom,
): Reply {
  const r = emptyReply('whatif', '🔢', `${w.name} in ${w.namespace}: how many more replicas fit`);
  if (!count) {
    r.lines.push(
      `${w.kind} ${w.name} is not scaled by a replica count here: ask "what if ${w.name} scales to N" to simulate one.`,
    );
    return r;
  }
  const each = eachWords(count.perPod);
  if (count.message) {
    r.lines.push(`None: a new pod of ${w.name} is refused outright — ${count.message}`);
    return r;
  }
  if (n === 0) {
    r.lines.push(`None: ${stopWords(count, h)}; ${each}.`);
    return r;
  }
  const t = scaled!.tally;
  const capped = count.fits > MAX_SCALE_PODS;
  if (t.admitted === n && t.scheduled === n) {
    r.lines.push(
      `${capped ? `At least ${n}` : n} more (${current} → ${current + n}, ${each})${capped ? '' : ` — then ${stopWords(count, h)}`}.`,
    );
    r.lines.push(`✓ verified: all ${n} admitted and scheduled.`);
    r.lines.push(`Command: ${scaled!.converged.command}`);
  } else {
    // The count and the simulation disagree (a pod that fits the sum of free room but no single node, say): the
    // simulation's number is the one said.
    r.lines.push(
      `${t.scheduled} more schedule (${current} → ${current + t.scheduled}, ${each}): of ${n} the quota and the nodes' free room would take, ${t.admitted} are admitted and ${t.scheduled} find a node.`,
    );
    for (const x of t.rejections.slice(0, 2)) r.lines.push(`   ${x.count} × ${x.message}`);
    for (const x of t.pendingMessages.slice(0, 2)) r.lines.push(`   ${x.count} Pending: ${x.message}`);
    r.lines.push(`Ask "what if ${w.name} scales to ${current + t.scheduled}" to check that number.`);
  }
  return r;
}
