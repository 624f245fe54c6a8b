/**
 * The Answerer: text in, Answer out, for Slack, the console and the CLI alike. Reads the cluster
 * through the ClusterSource (errors become stated gaps), calls the pure engine, and enforces the access
 * policy on every answer before anything is shown.
 */
import type { Snapshot } from '../k8s/snapshot.ts';
import { Quantity } from '../quantity.ts';
import { parseQuestion, type Question } from '../parse/question.ts';
import { computeHeadroom, type Headroom } from '../engine/headroom.ts';
import { findWorkload, whatIfDrain, whatIfLimitRange, whatIfQuota, whatIfRequests, whatIfRollout, whatIfScale, type LimitRangeChangeAnswer, type PodShapeFit, type PodTally, type RolloutAnswer } from '../engine/whatif.ts';
import type { Answerer, AskContext } from './answerer.ts';
import { diagnose, recognises, simulationReply } from './diagnose.ts';
import { emptyReply, type Answer, type Reply } from './types.ts';
import { MAX_ANSWER_PODS, MAX_SCALE_PODS, outOfRangeReply } from './bounds.ts';
import type { LimitRange, ResourceQuota, Workload } from '../k8s/objects.ts';
import type { KObject } from '../k8s/snapshot.ts';

export { diagnose } from './diagnose.ts';

interface Loaded {
  state?: Snapshot;
  gaps: string[];
}

async function loadState(ctx: AskContext): Promise<Loaded> {
  try {
    const r = await ctx.source.load({ signal: ctx.signal });
    const gaps = r.errors.map((e) => `couldn't read ${e.resource}${e.namespace ? ` in ${e.namespace}` : ''}${e.reason ? ` (${e.reason})` : ''}: ${e.message}`);
    // A live cache that is behind (watch down) or objects skipped for their shape are gaps too: the answer
    // may miss them. Only these two kinds of warning (cluster/live-source.ts) — others, like the quota
    // reconcile notes, name objects of every namespace and must not reach a channel.
    for (const w of r.warnings) if (/: not being updated since |object\(s\) skipped, their shape was not readable/.test(w)) gaps.push(w);
    return { state: r.snapshot, gaps };
  } catch (e) {
    return { gaps: [`the cluster did not answer: ${e instanceof Error ? e.message : String(e)}`] };
  }
}

export function refusal(): Answer {
  const r = emptyReply('refusal', '🔒', "Sorry — this channel can't ask about that namespace.");
  r.lines.push('Ask in your team\'s channel, or ask the platform team to add it to this channel\'s access policy.');
  return { replies: [r], namespaces: [] };
}

function allowed(ctx: AskContext, ns: string): boolean {
  return !ctx.allowedNamespaces || ctx.allowedNamespaces.includes('*') || ctx.allowedNamespaces.includes(ns);
}

/** Refuses an answer that touches a namespace the asker may not see. */
export function enforcePolicy(answer: Answer, ctx: AskContext): Answer {
  if (answer.namespaces.every((ns) => allowed(ctx, ns))) return answer;
  return refusal();
}

function visibleNamespaces(state: Snapshot | undefined, ctx: AskContext, explicit?: string): string[] {
  if (explicit) return [explicit];
  const all = state ? state.namespaces() : [];
  const list = ctx.defaultNamespace ? [ctx.defaultNamespace, ...all.filter((n) => n !== ctx.defaultNamespace)] : all;
  return list.filter((ns) => allowed(ctx, ns));
}

export function headroomReply(h: Headroom): Reply {
  const r = emptyReply('headroom', '📊', `${h.namespace} — ${h.quotas.length} ResourceQuota${h.quotas.length === 1 ? '' : 's'}, ${new Set(h.limitRanges.map((l) => l.name)).size} LimitRange${new Set(h.limitRanges.map((l) => l.name)).size === 1 ? '' : 's'}`);
  let tightest: { label: string; fraction: number } | null = null;
  r.bars = [];
  for (const q of h.quotas) {
    for (const [k, v] of Object.entries(q.resources)) {
      const hard = Quantity.parse(v.hard);
      const used = Quantity.parse(v.used);
      const fraction = hard.sign() > 0 ? Number((used.nanos * 1000n) / hard.nanos) / 1000 : 1;
      const label = h.quotas.length > 1 ? `${q.name}: ${k}` : k;
      r.bars.push({ label, used: v.used, hard: v.hard, free: v.free, fraction });
      if (!tightest || fraction > tightest.fraction) tightest = { label, fraction };
    }
  }
  if (tightest && tightest.fraction >= 0.5) for (const b of r.bars) if (b.label === tightest.label) b.note = '← tightest';
  if (h.quotas.length === 0) r.lines.push('No ResourceQuota in this namespace: only LimitRanges and the nodes limit it.');
  const dp = h.defaultPod;
  const shape = `${Object.entries(dp.requests).map(([k, v]) => `${v} ${k}`).join(' / ') || 'no requests'} → limits ${Object.entries(dp.limits).map(([k, v]) => `${v} ${k}`).join(' / ') || 'none'}`;
  if (dp.message) r.lines.push(`A pod with no resources is refused here: ${dp.message}`);
  else r.lines.push(`A pod with no resources gets ${shape}${h.limitRanges.length ? ' (LimitRange defaults)' : ''}: ${dp.fits >= h.cap ? `${h.cap}+` : dp.fits} more fit${dp.limitedBy ? `, stopped by ${dp.limitedBy === 'nodes' ? 'node capacity' : dp.limitedBy}` : ''}.`);
  if (h.workloads.length) {
    const parts = h.workloads.slice(0, 8).map((w) => `${w.name} (${w.replicas} × ${Object.values(w.perPod).join('/') || 'no requests'}): ${w.message ? `refused (${w.limitedBy})` : `+${w.fits >= h.cap ? `${h.cap}+` : w.fits}${w.limitedBy ? `, then ${w.limitedBy === 'nodes' ? 'nodes' : w.limitedBy}` : ''}`}`);
    r.lines.push(parts.join(' · ') + (h.workloads.length > 8 ? ` · and ${h.workloads.length - 8} more` : ''));
  }
  if (h.largestSchedulablePod) r.lines.push(`Largest pod that schedules now: ${h.largestSchedulablePod.cpu} CPU / ${h.largestSchedulablePod.memory}, on ${h.largestSchedulablePod.node}.`);
  if (h.pending.length) r.lines.push(`⚠ ${h.pending.length} Pending pod${h.pending.length === 1 ? '' : 's'}: ${h.pending.slice(0, 5).map((p) => p.name).join(', ')}${h.pending.length > 5 ? ` and ${h.pending.length - 5} more` : ''}`);
  return r;
}

function tallyLines(t: PodTally): string[] {
  const out: string[] = [];
  out.push(`+${t.attempted} pod${t.attempted === 1 ? '' : 's'}: ${t.admitted} admitted, ${t.rejected} rejected`);
  for (const x of t.rejections.slice(0, 3)) out.push(`   ${x.count} × ${x.message}`);
  if (t.admitted) {
    const nodes = Object.entries(t.nodes).map(([n, c]) => (c > 1 ? `${n} ×${c}` : n));
    out.push(`Of the ${t.admitted}: ${t.scheduled} schedule${nodes.length ? ` (${nodes.slice(0, 8).join(', ')}${nodes.length > 8 ? ` and ${nodes.length - 8} more nodes` : ''})` : ''}, ${t.pending} stay Pending`);
    for (const x of t.pendingMessages.slice(0, 2)) out.push(`   ${x.count} × ${x.message}`);
  }
  return out;
}

function helpAnswer(state: Snapshot | undefined, ctx: AskContext): Answer {
  // Examples drawn from the namespace at hand: its workloads, quota, LimitRange and a node.
  const ns = visibleNamespaces(state, ctx)[0] ?? 'team-a';
  const workloads = state ? ['Deployment', 'StatefulSet'].flatMap((k) => state.list<Workload & KObject>(k, ns)).map((o) => o.metadata.name ?? '') : [];
  const w = workloads[0] ?? 'web';
  const w2 = workloads[1] ?? w;
  const node = state?.list('Node')[0]?.metadata.name ?? 'node-1';
  const quota = state?.list<ResourceQuota & KObject>('ResourceQuota', ns)[0];
  const hard = quota?.status?.hard ?? quota?.spec?.hard ?? {};
  const qRes = ['requests.cpu', 'requests.memory', 'pods'].find((k) => k in hard) ?? Object.keys(hard)[0] ?? 'requests.cpu';
  const qNow = Quantity.tryParse(hard[qRes]);
  const qTo = qNow && qNow.sign() > 0 ? qNow.times(2).toString() : '20';
  const lr = state?.list<LimitRange & KObject>('LimitRange', ns)[0];
  const maxCpu = Quantity.tryParse(lr?.spec.limits.find((i) => i.type === 'Container')?.max?.cpu);
  const r = emptyReply('help', '❓', 'Paste an error, an event or a manifest — or ask:');
  r.lines.push(
    `what if ${w} scales to 8 in ${ns}?`,
    `what if ${w} requests 250m cpu in ${ns}?`,
    `raise ${qRes} of ${quota?.metadata.name ?? 'team-quota'} to ${qTo} in ${ns}`,
    maxCpu ? `what if the limitrange ${lr!.metadata.name} max cpu is ${maxCpu.times(2)} in ${ns}?` : `what if the limitrange${lr ? ` ${lr.metadata.name}` : ''} defaultRequest cpu were 250m in ${ns}?`,
    `what if ${node} goes down?`,
    `roll out ${w} in ${ns}`,
    `what if ${w2} rolls out with 500m cpu in ${ns}?`,
    `why is ${w} pending?`,
    `quota ${ns}   (or /quota ${ns} in Slack)`,
  );
  return { replies: [r], namespaces: [] };
}

function shapeText(p: PodShapeFit): string {
  const list = (x: Record<string, string>) => Object.entries(x).map(([k, v]) => `${v} ${k}`).join(' / ');
  return `${list(p.requests) || 'no requests'} → limits ${list(p.limits) || 'none'}`;
}

function fitText(p: PodShapeFit): string {
  return p.message ? 'refused' : `${p.fits}${p.limitedBy ? ` (${p.limitedBy === 'nodes' ? 'node capacity' : p.limitedBy})` : ''}`;
}

function perPodText(x: Record<string, string>): string {
  return Object.entries(x).map(([k, v]) => `${v} ${k}`).join(' / ') || 'no requests';
}

/** A LimitRange change: what the default pod gets and how many fit, which workloads' next pods still pass. */
function limitRangeReply(a: LimitRangeChangeAnswer): Reply {
  const r = emptyReply('whatif', '🔮', `LimitRange ${a.limitRange}${a.created ? ' (new)' : ''} in ${a.namespace}: ${a.type} ${a.field} ${a.resource} ${a.from ?? 'unset'} → ${a.to}`);
  if (a.invalid.length) {
    r.lines.push('✗ The API server would refuse this LimitRange (422 Invalid):', ...a.invalid.map((p) => `   ${p}`));
    return r;
  }
  if (a.filled.length) r.lines.push(`Stored with ${a.filled.join(', ')} filled in by the API server's defaulting.`);
  const b = a.defaultPodBefore;
  const f = a.defaultPodAfter;
  if (f.message) r.lines.push(`✗ A pod with no resources would be refused: ${f.message.replace(/^pods "[^"]*" is forbidden: /, '')}`);
  else r.lines.push(`A pod with no resources gets ${shapeText(f)}${shapeText(b) === shapeText(f) ? ' (unchanged)' : ` (was ${shapeText(b)})`}: ${fitText(b)} → ${fitText(f)} more fit.`);
  const broken = a.workloads.filter((w) => w.before.limitRange === 'pass' && w.after.limitRange === 'fail');
  const mended = a.workloads.filter((w) => w.before.limitRange === 'fail' && w.after.limitRange === 'pass');
  const still = a.workloads.filter((w) => w.before.limitRange === 'fail' && w.after.limitRange === 'fail');
  const fine = a.workloads.filter((w) => w.after.limitRange === 'pass' && w.before.limitRange === 'pass');
  for (const w of broken.slice(0, 5)) r.lines.push(`✗ New pods of ${w.ref} would be refused: ${w.after.message}`);
  if (broken.length > 5) r.lines.push(`   … and ${broken.length - 5} more`);
  for (const w of mended.slice(0, 5)) r.lines.push(`✓ New pods of ${w.ref} would pass again (refused now: ${w.before.message})`);
  for (const w of still.slice(0, 5)) r.lines.push(`✗ ${w.ref} is refused either way: ${w.after.message}`);
  if (fine.length) {
    const parts = fine.slice(0, 8).map((w) => `${w.ref}${perPodText(w.perPodBefore) !== perPodText(w.perPodAfter) ? ` (${perPodText(w.perPodBefore)} → ${perPodText(w.perPodAfter)} per pod)` : ''}`);
    r.lines.push(`✓ Still admitted by the LimitRange: ${parts.join(', ')}${fine.length > 8 ? ` and ${fine.length - 8} more` : ''}.`);
    for (const quota of new Set(fine.map((w) => w.after.quota).filter((x): x is string => !!x))) {
      const held = fine.filter((w) => w.after.quota === quota);
      r.lines.push(`   (${quota} is full: the next pod of ${held.length === fine.length && held.length > 1 ? 'each' : held.map((w) => w.ref).join(', ')} is refused by quota either way, not by the LimitRange.)`);
    }
  }
  r.lines.push(`Existing pods are untouched: LimitRanger checks pods only when they are created — the ${a.existingPods} running in ${a.namespace} keep running${broken.length ? '; a refused workload fails at its next pod (rollout, rescale, eviction)' : ''}.`);
  if (!broken.length && !(f.message && !b.message)) {
    r.fixes.push({ who: 'platform', summary: `${a.created ? 'create' : 'set'} LimitRange ${a.limitRange} ${a.type} ${a.field}.${a.resource} ${a.created ? '=' : 'to'} ${a.to}`, change: a.patch, verified: true, outcome: `${f.fits} default pods fit; no workload's next pod newly refused` });
  }
  return r;
}

/** A rollout: the strategy, round 1's surge, whether it completes or where it stalls, and the settings that fit. */
function rolloutReply(a: RolloutAnswer): Reply {
  const w = a.workload;
  const how = a.strategy === 'Recreate' ? 'Recreate' : w.kind === 'StatefulSet' ? 'RollingUpdate, one pod at a time' : `${a.strategy}, maxSurge ${a.maxSurge}, maxUnavailable ${a.maxUnavailable}`;
  const r = emptyReply('whatif', '🔮', `${w.name} rolls out in ${w.namespace}${a.change ? ` with ${a.change}` : ' (restart, same template)'}: ${how}`);
  if (a.unsupported) {
    r.lines.push(a.unsupported);
    return r;
  }
  for (const c of a.unknownContainers) r.lines.push(`No container ${c} in the template: nothing changed there.`);
  if (a.change) r.lines.push(`Per pod: ${perPodText(a.perPodBefore)} → ${perPodText(a.perPodAfter)} (after LimitRange defaults)`);
  if (w.kind === 'Deployment' && a.strategy !== 'Recreate' && a.maxSurge > 0) {
    r.lines.push(`Round 1: ${a.maxSurge} surge pod${a.maxSurge === 1 ? '' : 's'} next to the ${a.replicas} running:`, ...tallyLines(a.surgeTally).map((l) => `   ${l}`));
  }
  const run = a.run;
  if (run.completed) {
    r.lines.push(`✓ Completes in ${run.rounds} round${run.rounds === 1 ? '' : 's'}: at most ${run.peakPods} pods at once, never fewer than ${run.minRunning} running.`);
    if (run.refusedCreates) r.lines.push(`   ${run.refusedCreates} pod creation${run.refusedCreates === 1 ? '' : 's'} refused on the way (FailedCreate) — old pods still leave within maxUnavailable.`);
  } else if (run.stall) {
    const s = run.stall;
    r.lines.push(`✗ Stalls after ${run.rounds} round${run.rounds === 1 ? '' : 's'}: ${s.newRunning} of ${a.target} new pods running, ${s.oldPods} old still running${s.newPending ? `, ${s.newPending} new Pending` : ''}.`);
    for (const b of s.blockers.slice(0, 3)) r.lines.push(`   ${b}`);
  }
  for (const alt of a.alternatives) {
    const label = alt.setting.strategy === 'Recreate' ? `strategy Recreate (all ${a.target} down at once)` : `maxSurge 0, maxUnavailable ${alt.setting.maxUnavailable} (replace in place)`;
    if (alt.run.completed) {
      r.fixes.push({ who: 'app-team', summary: label, change: alt.patch, verified: true, outcome: `completes in ${alt.run.rounds} round${alt.run.rounds === 1 ? '' : 's'}, never fewer than ${alt.run.minRunning} running` });
    } else r.lines.push(`With ${label}: stalls too${alt.run.stall?.blockers[0] ? ` — ${alt.run.stall.blockers[0].replace(/\.$/, '')}` : ''}.`);
  }
  if (!run.completed && a.advice && !r.fixes.length) r.lines.push(a.advice);
  return r;
}

async function answerQuestion(q: Question, ctx: AskContext): Promise<Answer> {
  // A number no Kubernetes component can hold (parse/question.ts): said before anything is read.
  if (q.type === 'invalid') return { replies: [outOfRangeReply(q.reason)], namespaces: [] };
  const { state, gaps } = await loadState(ctx);
  if (q.type === 'help') return helpAnswer(state, ctx);
  if (!state) {
    const r = emptyReply('error', '⚠️', 'The cluster did not answer, so I cannot simulate that now.');
    r.gaps.push(...gaps);
    return { replies: [r], namespaces: [] };
  }
  const withGaps = (a: Answer): Answer => {
    for (const r of a.replies) r.gaps.push(...gaps);
    return a;
  };
  const opts = { now: ctx.now };
  if (q.type === 'headroom') {
    const ns = q.namespace ?? ctx.defaultNamespace;
    if (!ns) return helpAnswer(state, ctx);
    return withGaps(quotaAnswer(state, ns));
  }
  if (q.type === 'drain') {
    const d = whatIfDrain(state, q.node, opts, q.how);
    if (!d) return notFound(`node ${q.node}`, []);
    const r = emptyReply('whatif', '🔮', `${q.node} ${q.how === 'drain' ? 'drained (cordoned, pods evicted)' : 'goes down (unreachable, pods evicted)'}: ${d.pods} pod${d.pods === 1 ? '' : 's'} to place elsewhere`);
    const landed = Object.values(d.rescheduled).reduce((a, b) => a + b, 0);
    r.lines.push(`${landed} land elsewhere${landed ? ` (${Object.entries(d.rescheduled).map(([n, c]) => `${n} ×${c}`).join(', ')})` : ''}, ${d.stranded.length} stay Pending`);
    for (const s of d.stranded.slice(0, 5)) r.lines.push(`   ${s.pod}: ${s.message}`);
    if (d.stranded.length > 5) r.lines.push(`   … and ${d.stranded.length - 5} more`);
    // Node names are cluster-wide; stranded pods name namespaces — the policy applies to those.
    return withGaps({ replies: [r], namespaces: [...new Set(d.stranded.map((s) => s.pod.split('/')[0]!))] });
  }
  if (q.type === 'quota') {
    const ns = q.namespace ?? ctx.defaultNamespace ?? visibleNamespaces(state, ctx)[0];
    if (!ns) return helpAnswer(state, ctx);
    const quotaName = q.quota ?? state.list<ResourceQuota & KObject>('ResourceQuota', ns).find((x) => q.resource in (x.status?.hard ?? x.spec?.hard ?? {}))?.metadata.name;
    if (!quotaName) return notFound(`a ResourceQuota with ${q.resource} in ${ns}`, [ns]);
    const a = whatIfQuota(state, ns, quotaName, q.resource, q.value, opts);
    if (!a) return notFound(`ResourceQuota ${quotaName} in ${ns}`, [ns]);
    const r = emptyReply('whatif', '🔮', `${quotaName} ${q.resource} ${a.from ?? 'unset'} → ${a.to} in ${ns}`);
    r.lines.push(`Pods of the default shape that fit: ${a.defaultPodBefore} → ${a.defaultPodAfter}${a.limitedByAfter ? ` (then stopped by ${a.limitedByAfter})` : ''}.`);
    r.fixes.push({ who: 'platform', summary: `set ${quotaName} ${q.resource} to ${a.to}`, change: `kubectl -n ${ns} patch resourcequota ${quotaName} --type merge -p '{"spec":{"hard":{"${q.resource}":"${a.to}"}}}'`, verified: true, outcome: `${a.defaultPodAfter} default pods fit` });
    return withGaps({ replies: [r], namespaces: [ns] });
  }
  if (q.type === 'limitrange') {
    const ns = q.namespace ?? ctx.defaultNamespace ?? visibleNamespaces(state, ctx)[0];
    if (!ns) return helpAnswer(state, ctx);
    if (!state.hasNamespace(ns)) return notFound(`namespace ${ns}`, [ns]);
    const a = whatIfLimitRange(state, ns, q.limitRange, q.field, q.limitType, q.resource, q.value, opts);
    if (!a) return notFound(`LimitRange ${q.limitRange} in ${ns}`, [ns]);
    return withGaps({ replies: [limitRangeReply(a)], namespaces: [ns] });
  }
  if (q.type === 'scale' || q.type === 'requests' || q.type === 'rollout' || q.type === 'why') {
    const name = q.type === 'why' ? q.name : q.workload;
    const kind = q.type === 'why' ? undefined : q.kind;
    const namespaces = visibleNamespaces(state, ctx, q.namespace);
    const w = findWorkload(state, name, kind, namespaces);
    if (q.type === 'why') {
      // "why is web pending?": the workload's Pending pod, or the pod itself, diagnosed from its events.
      const ns = w?.namespace ?? namespaces.find((n) => state.get('Pod', n, name)) ?? q.namespace ?? ctx.defaultNamespace;
      if (!ns) return notFound(name, []);
      const podName = w ? state.list('Pod', ns).find((p) => !(p as { spec?: { nodeName?: string } }).spec?.nodeName && p.metadata.name?.startsWith(name))?.metadata.name : name;
      const events = state.list<KObject & { message?: string; reason?: string; involvedObject?: { kind?: string; name?: string } }>('Event', ns).filter((e) => e.involvedObject?.name && (e.involvedObject.name === podName || e.involvedObject.name.startsWith(name)));
      if (!events.length) {
        const r = emptyReply('info', 'ℹ️', `No failure events for ${name} in ${ns}.`);
        return withGaps({ replies: [r], namespaces: [ns] });
      }
      const last = events[events.length - 1]!;
      // A pod's event message does not name the pod (a FailedScheduling text never does): say which one, as
      // `kubectl get events` would, so the diagnosis can find it in the state and verify fixes for it.
      const about = last.involvedObject?.kind === 'Pod' && last.involvedObject.name ? `Warning  ${last.reason ?? 'FailedScheduling'}  pod/${last.involvedObject.name}  ` : '';
      const d = diagnose({ text: `${about}${last.message ?? ''}`, state, namespace: ns, now: ctx.now, gaps });
      d.answer.namespaces.push(ns);
      return d.answer;
    }
    if (!w) return notFound(`workload ${name}`, q.namespace ? [q.namespace] : []);
    if (q.type === 'scale') {
      const current = whatIfScale(state, w, 0, opts).from;
      const asked = Math.max(0, q.replicas ?? current + (q.delta ?? 0));
      // "scales to 1000000000" simulated a billion pods and ran the process out of heap (./bounds.ts).
      const target = Math.min(asked, current + MAX_SCALE_PODS);
      const a = whatIfScale(state, w, target, opts);
      const r = emptyReply('whatif', '🔮', `${w.name} ${a.from} → ${a.to} replicas in ${w.namespace} (${Object.entries(a.perPod).map(([k, v]) => `${v} ${k}`).join(' / ') || 'no requests'} each, after LimitRange defaults)`);
      if (a.to > a.from) r.lines.push(...tallyLines(a.tally));
      else r.lines.push(`Scaling down frees ${a.from - a.to} pod${a.from - a.to === 1 ? '' : 's'}.`);
      if (a.toGetAll?.length) {
        const v = a.withRaisedQuota;
        const verified = v ? (v.rejected === 0 ? (v.pending === 0 ? `  ✓ verified: all ${v.admitted} admitted and scheduled` : `  ✓ verified for quota: all ${v.admitted} admitted; ${v.pending} would still wait for a node`) : `  (still ${v.rejected} refused: ${v.rejections[0]?.message ?? ''})`) : '';
        r.lines.push(`To get all ${a.to}: ${a.toGetAll.join('; ')}${verified}`);
      }
      if (target < asked) r.gaps.push(`You asked for ${asked} replicas; I simulated the first ${MAX_SCALE_PODS} new pods only (at most ${MAX_SCALE_PODS} per scale question).`);
      return withGaps({ replies: [r], namespaces: [w.namespace] });
    }
    if (q.type === 'requests') {
      const a = whatIfRequests(state, w, q.which, q.resource, q.value, q.container, opts);
      const r = emptyReply('whatif', '🔮', `${w.name} with ${a.change} (all ${a.tally.attempted} pods replaced) in ${w.namespace}`);
      r.lines.push(...tallyLines(a.tally));
      return withGaps({ replies: [r], namespaces: [w.namespace] });
    }
    // A rollout creates up to every replica again, once per setting re-simulated (about 5): bound it (./bounds.ts).
    const wanted = (w.object as { spec?: { replicas?: number | null } }).spec?.replicas ?? 1;
    if (wanted > MAX_ANSWER_PODS / 5) {
      const r = emptyReply('info', 'ℹ️', `${w.name} has ${wanted} replicas: too many to simulate its rollout pod by pod here.`);
      r.lines.push(`I simulate rollouts of up to ${MAX_ANSWER_PODS / 5} replicas; ask about a scale-down first, or run it on a smaller copy.`);
      return withGaps({ replies: [r], namespaces: [w.namespace] });
    }
    const a = whatIfRollout(state, w, opts, q.changes ?? []);
    return withGaps({ replies: [rolloutReply(a)], namespaces: [w.namespace] });
  }
  return helpAnswer(state, ctx);
}

function notFound(what: string, namespaces: string[]): Answer {
  const r = emptyReply('info', 'ℹ️', `I can't find ${what}.`);
  r.lines.push('Check the name (and the namespace: add "in <namespace>").');
  return { replies: [r], namespaces };
}

export function quotaAnswer(state: Snapshot, ns: string, now?: number): Answer {
  if (!state.hasNamespace(ns)) return notFound(`namespace ${ns}`, [ns]);
  const h = computeHeadroom(state, ns, { now });
  return { replies: [headroomReply(h)], namespaces: [ns], json: h };
}

export function createAnswerer(): Answerer {
  return {
    async message(text, ctx) {
      if (!text.trim()) return null;
      const { state, gaps } = await loadState(ctx);
      const d = diagnose({ text, state, namespace: ctx.defaultNamespace, now: ctx.now, gaps, allowedNamespaces: ctx.allowedNamespaces });
      if (!d.recognised) return null;
      return enforcePolicy(d.answer, ctx);
    },
    async question(text, ctx) {
      const q = parseQuestion(text);
      // A question that holds an error or a manifest is a diagnosis — even when its words ("exceeded
      // quota: …") also read like a question.
      if (q.type === 'help' || recognises(text)) {
        const { state, gaps } = await loadState(ctx);
        const d = diagnose({ text, state, namespace: ctx.defaultNamespace, now: ctx.now, gaps, allowedNamespaces: ctx.allowedNamespaces });
        if (d.recognised) return enforcePolicy(d.answer, ctx);
        if (q.type === 'help') return helpAnswer(state, ctx);
      }
      if ('namespace' in q && q.namespace && !allowed(ctx, q.namespace)) return refusal();
      return enforcePolicy(await answerQuestion(q, ctx), ctx);
    },
    async quota(namespace, ctx) {
      const ns = namespace ?? ctx.defaultNamespace;
      if (!ns) {
        const r = emptyReply('help', '❓', 'Usage: /quota NAMESPACE');
        return { replies: [r], namespaces: [] };
      }
      if (!allowed(ctx, ns)) return refusal();
      const { state, gaps } = await loadState(ctx);
      if (!state) {
        const r = emptyReply('error', '⚠️', 'The cluster did not answer in time.');
        r.gaps.push(...gaps);
        return { replies: [r], namespaces: [ns] };
      }
      let a: Answer;
      try {
        a = quotaAnswer(state, ns, ctx.now);
      } catch {
        // An object the API returned with a value no API server accepts (a quantity like "1.5.5") used to
        // throw here, and every /quota of that namespace became "Something went wrong".
        const r = emptyReply('error', '⚠️', `I couldn't compute the headroom of ${ns}`);
        r.lines.push('An object in this namespace has a value I cannot read (for example a malformed quantity), so the numbers would be wrong.');
        a = { replies: [r], namespaces: [ns] };
      }
      for (const r of a.replies) r.gaps.push(...gaps);
      return enforcePolicy(a, ctx);
    },
  };
}

export { simulationReply };
