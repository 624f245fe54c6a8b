/** "what if node-3 goes down / is drained". */
import { drainNeeds } from '../../engine/completeness.ts';
import { changeAnswerJson, drainFixes, whatIfDrain } from '../../engine/whatif/index.ts';
import { unreadGaps } from '../gaps.ts';
import { notFound } from '../replies/not-found.ts';
import { budgetsUnknownLine, drainAnswer } from '../replies/whatif-drain.ts';
import { partlyUndecided } from '../verdicts.ts';
import { audienceOf, needsState, visibilityOf, type QuestionOf } from './context.ts';

// Node names are cluster-wide: which nodes exist is not any tenant's data (every channel sees them in
// its own scheduler messages, "0/10 nodes are available"), so a node what-if is answered in any channel
// that sees something — but only with the asker's own pods; other namespaces' pods are anonymous totals.
export const drain = needsState<QuestionOf<'drain'>>((q, { state, ctx, opts, withGaps, reads }) => {
  const d = whatIfDrain(state, q.node, opts, q.how);
  if (!d) return notFound(`node ${q.node}`, []);
  const vis = visibilityOf(ctx);
  // The JSON names every namespace's pods: only for an asker who sees everything (the CLI, an operator).
  // What the drain strands gets the fixes diagnose would give it on the drained state, each verified after
  // the drain (only for namespaces the asker may see).
  const fixes = drainFixes(state, d, opts, (ns) => vis.allows(ns));
  const json = vis.seesEverything ? changeAnswerJson(d.converged, fixes, d.refusedEvictions) : undefined;
  const reply = drainAnswer(state, d, q.how, vis);
  reply.replies[0]!.fixes.push(...fixes);
  const a = withGaps({ ...reply, ...(json ? { json } : {}) });
  // A drain asks the eviction API, which checks the PodDisruptionBudgets of each evicted pod's namespace:
  // unread, every eviction looks allowed, so whether the drain finishes is not decided (a node going down
  // asks no budget).
  if (q.how !== 'drain' || !reads) return a;
  const namespaces = [...new Set(d.fates.map((f) => f.pod.slice(0, f.pod.indexOf('/'))))].sort();
  const missing = drainNeeds(reads, namespaces);
  if (!missing.length) return a;
  const r = a.replies[0]!;
  const command = r.lines.findIndex((l) => l.startsWith('Command: '));
  r.lines.splice(command < 0 ? r.lines.length : command, 0, budgetsUnknownLine(missing));
  r.gaps.push(...unreadGaps(missing, vis, audienceOf(ctx)));
  return partlyUndecided(a, missing);
});
