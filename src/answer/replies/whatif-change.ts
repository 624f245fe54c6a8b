/**
 * A what-if answered by converging a change (engine/whatif/change.ts): what now runs, each affected
 * workload's outcome, what was preempted — the asker's namespaces by name, everyone else's as counts —
 * and the one command that makes the change.
 */
import { refText } from '../../engine/changes/command.ts';
import type { Change } from '../../engine/changes/types.ts';
import type { WorkloadOutcome } from '../../engine/converge.ts';
import { changeAnswerJson, type ChangeAnswer } from '../../engine/whatif/change.ts';
import type { Visibility } from '../policy.ts';
import { emptyReply, type Answer, type Fix } from '../types.ts';
import { shortRef } from '../../engine/changes/command.ts';

function describe(c: Change): string {
  switch (c.kind) {
    case 'uncordon':
      return `${c.node} uncordoned`;
    case 'cordon':
      return `${c.node} cordoned`;
    case 'drain':
      return `${c.node} drained`;
    case 'addNode':
      return `${c.count} node${c.count === 1 ? '' : 's'} like ${c.like} added`;
    case 'priorityClass':
      return `${refText(c.target)} gets priorityClass ${c.className}`;
    case 'scale':
      return `${refText(c.target)} scaled to ${c.replicas}`;
    case 'recreatePod':
      return c.priorityClassName !== undefined
        ? `pod/${c.name} re-created with priorityClass ${c.priorityClassName}`
        : `pod/${c.name} re-created with ${resourceWords(c)}`;
    default:
      return `${c.kind} change`;
  }
}

function resourceWords(c: Extract<Change, { kind: 'recreatePod' }>): string {
  const part = (which: string, l?: Record<string, string>) =>
    Object.entries(l ?? {}).map(([r, v]) => `${which}.${r} ${v}`);
  return [...part('requests', c.requests), ...part('limits', c.limits)].join(', ') || 'no change';
}

/**
 * A re-created bare Pod is nobody's workload: its own fate — bound (where), or Pending with the
 * scheduler's message — and whether it ends bound.
 */
function recreatedLine(a: ChangeAnswer): { line: string | null; bound: boolean } {
  const c = a.change;
  if (c.kind !== 'recreatePod') return { line: null, bound: true };
  const key = `${c.namespace}/${c.name}`;
  const pod = a.state.get('Pod', c.namespace, c.name);
  if (pod?.spec.nodeName) {
    // A pod that was Pending before is already said ("now schedules on …").
    if (a.nowScheduled.some((s) => s.pod === key)) return { line: null, bound: true };
    return { line: `${key} runs on ${pod.spec.nodeName}`, bound: true };
  }
  let message: string | undefined;
  for (const e of a.events) if (e.type === 'FailedScheduling' && e.pod === key) message = e.message;
  return { line: `${key} is admitted but stays Pending${message ? `: ${message}` : ''}`, bound: false };
}

function workloadLine(w: WorkloadOutcome): string {
  const ref = `${w.namespace}/${shortRef(w.kind, w.name)}`;
  const running = `${w.scheduled}/${w.wanted} running`;
  if (w.complete) return `${ref}: ${running} ✓`;
  const why = w.failedCreate ?? w.pending[0]?.message;
  return `${ref}: ${running}${w.updated < w.wanted ? `, ${w.updated}/${w.wanted} of the new template` : ''} — does not complete${why ? `: ${why}` : ''}`;
}

function who(c: Change): Fix['who'] {
  return c.kind === 'scale' ||
    c.kind === 'setResources' ||
    c.kind === 'rolloutStrategy' ||
    c.kind === 'deletePod' ||
    c.kind === 'recreatePod'
    ? 'app-team'
    : 'platform';
}

function preemptedWords(a: ChangeAnswer): string[] {
  return a.preempted.map((p) => `preempts ${p.pod} on ${p.node} (its controller, if any, re-creates it)`);
}

export function changeAnswer(a: ChangeAnswer, vis: Visibility): Answer {
  const nsOf = (key: string) => key.slice(0, key.indexOf('/'));
  const r = emptyReply('whatif', '🔮', describe(a.change));
  // The JSON names every namespace's pods: only for an asker who sees everything (the CLI, an operator).
  const json = vis.seesEverything ? changeAnswerJson(a) : undefined;
  const recreated = a.refused ? { line: null, bound: false } : recreatedLine(a);
  const done = !a.refused && a.workloads.every((w) => w.complete) && !a.bounded && recreated.bound;
  const n = a.nowScheduled.length;
  const outcome = n
    ? `${n} Pending pod${n === 1 ? ' schedules' : 's schedule'}; every affected workload completes`
    : 'every affected workload completes';
  // Offered as a fix only when it ends well (and in the JSON in diagnose's shape).
  if (json && done)
    json.fixes.push({
      who: who(a.change),
      summary: describe(a.change),
      change: a.command,
      verified: true,
      outcome,
      sideEffects: preemptedWords(a),
    });
  if (a.refused) {
    r.lines.push(`The API server refuses it: ${a.refused}`);
    return { replies: [r], namespaces: [], json };
  }
  const mineNow = a.nowScheduled.filter((s) => vis.allows(nsOf(s.pod)));
  const othersNow = a.nowScheduled.length - mineNow.length;
  if (recreated.line) r.lines.push(recreated.line);
  else if (a.nowScheduled.length === 0) r.lines.push('No Pending pod schedules because of it.');
  for (const s of mineNow.slice(0, 8)) r.lines.push(`${s.pod} now schedules on ${s.node}`);
  if (mineNow.length > 8) r.lines.push(`… and ${mineNow.length - 8} more`);
  if (othersNow > 0)
    r.lines.push(`${othersNow} Pending pod${othersNow === 1 ? '' : 's'} of other namespaces schedule too.`);
  const visible = a.workloads.filter(
    (w) => vis.allows(w.namespace) && !(w.kind === 'DaemonSet' && w.complete && w.created === 0),
  );
  for (const w of visible) r.lines.push(workloadLine(w));
  const hidden = a.workloads.filter((w) => !vis.allows(w.namespace) && !w.complete).length;
  if (hidden > 0) r.lines.push(`${hidden} workload${hidden === 1 ? '' : 's'} of other namespaces do not complete.`);
  if (a.preempted.length) {
    const mine = a.preempted.filter((p) => vis.allows(nsOf(p.pod)));
    r.lines.push(
      `Preempted: ${a.preempted.length} pod${a.preempted.length === 1 ? '' : 's'}${mine.length ? ` (${mine.map((p) => p.pod).join(', ')})` : ''}.`,
    );
  }
  if (a.bounded) r.gaps.push(`The controllers had not settled after ${a.steps} steps: the outcome is where they were.`);
  // Offered as a fix only when it ends well; otherwise the command is shown as what was simulated.
  if (done)
    r.fixes.push({
      who: who(a.change),
      summary: describe(a.change),
      ...(a.command ? { change: a.command } : {}),
      verified: true,
      outcome,
    });
  else if (a.command) r.lines.push(`Simulated: ${a.command}`);
  const namespaces = [...new Set([...visible.map((w) => w.namespace), ...mineNow.map((s) => nsOf(s.pod))])];
  return { replies: [r], namespaces, json };
}
