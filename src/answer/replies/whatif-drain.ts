/** "what if node-3 goes down / is drained": where its pods land, which stay Pending, as the asker may see it. */
import type { Unread } from '../../engine/completeness.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { DrainAnswer } from '../../engine/whatif/index.ts';
import { causeWords } from '../gaps.ts';
import type { Visibility } from '../policy.ts';
import { emptyReply, type Answer } from '../types.ts';

/** Evictions a PodDisruptionBudget refuses: the drain does not finish (kubectl drain retries every 5 s). */
function refusedLines(lines: string[], refused: DrainAnswer['refusedEvictions']): void {
  if (!refused.length) return;
  lines.push(
    `✗ The drain does not finish: ${refused.length} eviction${refused.length === 1 ? '' : 's'} refused by a PodDisruptionBudget (429); the pod${refused.length === 1 ? ' stays' : 's stay'} on the cordoned node and kubectl drain keeps retrying`,
  );
  for (const e of refused.slice(0, 5)) lines.push(`   ${e.pod}: ${e.message}${e.cause ? ` (${e.cause})` : ''}`);
}

/**
 * The one line of a drain whose PodDisruptionBudgets were not read: the evictions were simulated as if no
 * budget refuses one, so the drain's finishing is unknown (never "it goes through"). No namespace named:
 * the reply's gaps say which reads failed, as the asker may see them.
 */
export function budgetsUnknownLine(missing: readonly Unread[]): string {
  const why = [...new Set(missing.map(causeWords))].join('; ');
  return `? Disruption budgets unknown: PodDisruptionBudgets were not read (${why}), so every eviction is shown as allowed and the drain may not finish`;
}

/** A drain / "goes down" what-if as the asker may see it: their pods by name, everyone else's as counts. */
export function drainAnswer(state: Snapshot, d: DrainAnswer, how: 'drain' | 'down', vis: Visibility): Answer {
  const r = emptyReply(
    'whatif',
    '🔮',
    `${d.node} ${how === 'drain' ? 'drained (cordoned, pods evicted)' : 'goes down (unreachable, pods evicted)'}: ${d.pods} pod${d.pods === 1 ? '' : 's'} to place elsewhere`,
  );
  const nsOf = (key: string) => key.slice(0, key.indexOf('/'));
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (vis.seesEverything) {
    const landed = Object.values(d.rescheduled).reduce((a, b) => a + b, 0);
    r.lines.push(
      `${landed} land elsewhere${
        landed
          ? ` (${Object.entries(d.rescheduled)
              .map(([n, c]) => `${n} ×${c}`)
              .join(', ')})`
          : ''
      }, ${d.stranded.length} stay Pending`,
    );
    for (const s of d.stranded.slice(0, 5)) r.lines.push(`   ${s.pod}: ${s.message}`);
    if (d.stranded.length > 5) r.lines.push(`   … and ${d.stranded.length - 5} more`);
    if (d.deleted.length)
      r.lines.push(
        `Deleted for good (no controller re-creates them): ${d.deleted.slice(0, 8).join(', ')}${d.deleted.length > 8 ? ` and ${d.deleted.length - 8} more` : ''}`,
      );
    refusedLines(r.lines, d.refusedEvictions);
    if (d.command) r.lines.push(`Command: ${d.command}`);
    return { replies: [r], namespaces: [...new Set(d.stranded.map((s) => nsOf(s.pod)))] };
  }
  // The asker's pods on the node (the ones whatIfDrain moved: bound there, not finished, not DaemonSet).
  const mine: string[] = [];
  for (const ns of vis.list() ?? []) {
    for (const p of state.iterate('Pod', ns)) {
      if (p.spec?.nodeName !== d.node || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
      if (p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet')) continue;
      mine.push(`${ns}/${p.metadata.name ?? ''}`);
    }
  }
  const strandedMine = d.stranded.filter((s) => vis.allows(nsOf(s.pod)));
  const strandedOthers = d.stranded.length - strandedMine.length;
  const others = Math.max(0, d.pods - mine.length);
  const stuck = new Set([...strandedMine.map((s) => s.pod), ...d.deleted, ...d.refusedEvictions.map((e) => e.pod)]);
  const movedMine = mine.filter((p) => !stuck.has(p)).sort();
  r.lines.push(
    mine.length === 0
      ? "None of the pods there are in this channel's namespaces."
      : `Yours: ${plural(mine.length, 'pod', 'pods')} — ${movedMine.length} land${movedMine.length === 1 ? 's' : ''} elsewhere, ${strandedMine.length} stay${strandedMine.length === 1 ? 's' : ''} Pending`,
  );
  if (movedMine.length)
    r.lines.push(
      `   land elsewhere: ${movedMine.slice(0, 8).join(', ')}${movedMine.length > 8 ? ` and ${movedMine.length - 8} more` : ''}`,
    );
  // The counts first (a notification shows the first lines), then why each of the asker's pods is stuck.
  if (others > 0)
    r.lines.push(
      `Other namespaces: ${plural(others, 'pod', 'pods')} — ${others - strandedOthers} land${others - strandedOthers === 1 ? 's' : ''} elsewhere, ${strandedOthers} stay${strandedOthers === 1 ? 's' : ''} Pending.`,
    );
  for (const s of strandedMine.slice(0, 5)) r.lines.push(`   ${s.pod}: ${s.message}`);
  if (strandedMine.length > 5) r.lines.push(`   … and ${strandedMine.length - 5} more`);
  const deletedMine = d.deleted.filter((p) => vis.allows(nsOf(p)));
  if (deletedMine.length)
    r.lines.push(`   deleted for good (no controller re-creates them): ${deletedMine.join(', ')}`);
  refusedLines(
    r.lines,
    d.refusedEvictions.filter((e) => vis.allows(nsOf(e.pod))),
  );
  if (d.command) r.lines.push(`Command: ${d.command}`);
  return { replies: [r], namespaces: [...new Set(mine.map(nsOf))] };
}
