/**
 * The Answerer: text in, Answer out, for Slack, the console and the CLI alike. Reads the cluster
 * through the ClusterSource (errors become stated gaps), calls the pure engine, and applies the access
 * policy (./policy.ts, `Visibility`) first: every method resolves what the asker may see before it
 * parses or reads anything (a channel that sees nothing gets the refusal and nothing else), caps the
 * text's length before parsing it, looks names up only in visible namespaces, and checks what the answer
 * names again before it is returned.
 */
import type { Snapshot } from '../k8s/snapshot.ts';
import { Quantity } from '../quantity.ts';
import { parseQuestion, type Question } from '../parse/question.ts';
import { computeHeadroom, type Headroom } from '../engine/headroom.ts';
import { findWorkload, whatIfDrain, type DrainAnswer, whatIfLimitRange, whatIfQuota, whatIfRequests, whatIfRollout, whatIfScale, type LimitRangeChangeAnswer, type PodShapeFit, type PodTally, type RolloutAnswer } from '../engine/whatif.ts';
import type { Answerer, AskContext } from './answerer.ts';
import { diagnose, recognises, simulationReply } from './diagnose.ts';
import { emptyReply, type Answer, type Reply } from './types.ts';
import { MAX_ANSWER_PODS, MAX_SCALE_PODS, outOfRangeReply } from './bounds.ts';
import { guardAnswer, refusalAnswer, Visibility } from './policy.ts';
import { sourceGaps, unansweredGap, type Audience } from './gaps.ts';
import { DEFAULT_MAX_BYTES } from '../parse/index.ts';
import type { LimitRange, Pod, ResourceQuota, Workload } from '../k8s/objects.ts';
import type { KObject } from '../k8s/snapshot.ts';

export { diagnose } from './diagnose.ts';

interface Loaded {
  state?: Snapshot;
  gaps: string[];
}

const visibilityOf = (ctx: AskContext): Visibility => Visibility.of(ctx.allowedNamespaces);
const audienceOf = (ctx: AskContext): Audience => ctx.audience ?? 'operator';

/** Source errors and the cache's staleness become gaps; for a channel, reduced to reason and resource (./gaps.ts). */
async function loadState(ctx: AskContext): Promise<Loaded> {
  try {
    const r = await ctx.source.load({ signal: ctx.signal });
    return { state: r.snapshot, gaps: sourceGaps(r, visibilityOf(ctx), audienceOf(ctx)) };
  } catch (e) {
    return { gaps: [unansweredGap(e, audienceOf(ctx))] };
  }
}

/** The namespaces a name is looked up in: the explicit one, else the visible ones (the default first). */
function visibleNamespaces(state: Snapshot | undefined, ctx: AskContext, explicit?: string): string[] {
  const vis = visibilityOf(ctx);
  if (explicit) return vis.allows(explicit) ? [explicit] : [];
  const all = state ? state.namespaces() : [];
  const list = ctx.defaultNamespace ? [ctx.defaultNamespace, ...all.filter((n) => n !== ctx.defaultNamespace)] : all;
  return vis.visible(list);
}

/** Characters an @mention question (or a console line read as one) may have; longer is refused before parsing. */
export const MAX_QUESTION_CHARS = 12_000;
/** Bytes a pasted message may have (the paste parser's own cap, parse/index.ts); longer is refused before parsing. */
export const MAX_MESSAGE_BYTES = DEFAULT_MAX_BYTES;

function tooLongAnswer(what: 'question' | 'message', size: string, allowed: string): Answer {
  const r = emptyReply('info', 'ℹ️', `That ${what} is too long for me to read (${size})`);
  r.lines.push(`I read ${what}s of up to ${allowed}.${what === 'question' ? ' Paste a long error or manifest as a plain message instead of an @mention, or shorten it.' : ' Paste the error itself, or the one manifest it is about.'}`);
  return { replies: [r], namespaces: [] };
}

function overCap(text: string, what: 'question' | 'message'): Answer | null {
  if (what === 'question') {
    return text.length > MAX_QUESTION_CHARS ? tooLongAnswer('question', `${text.length.toLocaleString('en-US')} characters`, `${MAX_QUESTION_CHARS.toLocaleString('en-US')} characters`) : null;
  }
  // UTF-16 length ≥ bytes / 3: only a text that may be over the byte cap is measured.
  if (text.length * 3 <= MAX_MESSAGE_BYTES) return null;
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes > MAX_MESSAGE_BYTES ? tooLongAnswer('message', `${(bytes / 1024 / 1024).toFixed(1)} MiB`, '1 MiB') : null;
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
  // Examples drawn from the namespace at hand (a visible one: its workloads, quota, LimitRange) and a node
  // (nodes are cluster-wide); generic placeholders where it has none. Never another namespace's names.
  const visible = visibleNamespaces(state, ctx);
  const ns: string | undefined = visible[0] ?? ctx.defaultNamespace ?? visibilityOf(ctx).list()?.[0];
  const nsWord = ns ?? 'NAMESPACE';
  const inNs = ns !== undefined && visibilityOf(ctx).allows(ns) ? ns : undefined;
  const workloads = state && inNs ? ['Deployment', 'StatefulSet'].flatMap((k) => state.list<Workload & KObject>(k, inNs)).map((o) => o.metadata.name ?? '').filter((n) => n !== '') : [];
  const w = workloads[0] ?? 'WORKLOAD';
  const w2 = workloads[1] ?? w;
  const node = state?.list('Node')[0]?.metadata.name ?? 'NODE';
  const quota = inNs ? state?.list<ResourceQuota & KObject>('ResourceQuota', inNs)[0] : undefined;
  const hard = quota?.status?.hard ?? quota?.spec?.hard ?? {};
  const qRes = ['requests.cpu', 'requests.memory', 'pods'].find((k) => k in hard) ?? Object.keys(hard)[0] ?? 'requests.cpu';
  const qNow = Quantity.tryParse(hard[qRes]);
  const qTo = qNow && qNow.sign() > 0 ? qNow.times(2).toString() : '20';
  const lr = inNs ? state?.list<LimitRange & KObject>('LimitRange', inNs)[0] : undefined;
  const maxCpu = Quantity.tryParse(lr?.spec.limits.find((i) => i.type === 'Container')?.max?.cpu);
  const r = emptyReply('help', '❓', 'Paste an error, an event or a manifest — or ask:');
  r.lines.push(
    `what if ${w} scales to 8 in ${nsWord}?`,
    `what if ${w} requests 250m cpu in ${nsWord}?`,
    `raise ${qRes} of ${quota?.metadata.name ?? 'QUOTA'} to ${qTo} in ${nsWord}`,
    maxCpu ? `what if the limitrange ${lr!.metadata.name} max cpu is ${maxCpu.times(2)} in ${nsWord}?` : `what if the limitrange${lr ? ` ${lr.metadata.name}` : ''} defaultRequest cpu were 250m in ${nsWord}?`,
    `what if ${node} goes down?`,
    `roll out ${w} in ${nsWord}`,
    `what if ${w2} rolls out with 500m cpu in ${nsWord}?`,
    `why is ${w} pending?`,
    `quota ${nsWord}   (or /quota ${nsWord} in Slack)`,
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
    // Node names are cluster-wide: which nodes exist is not any tenant's data (every channel sees them in
    // its own scheduler messages, "0/10 nodes are available"), so a node what-if is answered in any channel
    // that sees something — but only with the asker's own pods; other namespaces' pods are anonymous totals.
    const d = whatIfDrain(state, q.node, opts, q.how);
    if (!d) return notFound(`node ${q.node}`, []);
    return withGaps(drainAnswer(state, d, q.how, visibilityOf(ctx)));
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
      const d = diagnose({ text: `${about}${last.message ?? ''}`, state, namespace: ns, now: ctx.now, gaps, allowedNamespaces: visibilityOf(ctx).list(), audience: audienceOf(ctx) });
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

/** A drain / "goes down" what-if as the asker may see it: their pods by name, everyone else's as counts. */
function drainAnswer(state: Snapshot, d: DrainAnswer, how: 'drain' | 'down', vis: Visibility): Answer {
  const r = emptyReply('whatif', '🔮', `${d.node} ${how === 'drain' ? 'drained (cordoned, pods evicted)' : 'goes down (unreachable, pods evicted)'}: ${d.pods} pod${d.pods === 1 ? '' : 's'} to place elsewhere`);
  const nsOf = (key: string) => key.slice(0, key.indexOf('/'));
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (vis.seesEverything) {
    const landed = Object.values(d.rescheduled).reduce((a, b) => a + b, 0);
    r.lines.push(`${landed} land elsewhere${landed ? ` (${Object.entries(d.rescheduled).map(([n, c]) => `${n} ×${c}`).join(', ')})` : ''}, ${d.stranded.length} stay Pending`);
    for (const s of d.stranded.slice(0, 5)) r.lines.push(`   ${s.pod}: ${s.message}`);
    if (d.stranded.length > 5) r.lines.push(`   … and ${d.stranded.length - 5} more`);
    return { replies: [r], namespaces: [...new Set(d.stranded.map((s) => nsOf(s.pod)))] };
  }
  // The asker's pods on the node (the ones whatIfDrain moved: bound there, not finished, not DaemonSet).
  const mine: string[] = [];
  for (const ns of vis.list() ?? []) {
    for (const p of state.iterate<Pod & KObject>('Pod', ns)) {
      if (p.spec?.nodeName !== d.node || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
      if (p.metadata.ownerReferences?.some((o) => o.kind === 'DaemonSet')) continue;
      mine.push(`${ns}/${p.metadata.name ?? ''}`);
    }
  }
  const strandedMine = d.stranded.filter((s) => vis.allows(nsOf(s.pod)));
  const strandedOthers = d.stranded.length - strandedMine.length;
  const others = Math.max(0, d.pods - mine.length);
  const stuck = new Set(strandedMine.map((s) => s.pod));
  const movedMine = mine.filter((p) => !stuck.has(p)).sort();
  r.lines.push(mine.length === 0 ? 'None of the pods there are in this channel\'s namespaces.' : `Yours: ${plural(mine.length, 'pod', 'pods')} — ${movedMine.length} land${movedMine.length === 1 ? 's' : ''} elsewhere, ${strandedMine.length} stay${strandedMine.length === 1 ? 's' : ''} Pending`);
  if (movedMine.length) r.lines.push(`   land elsewhere: ${movedMine.slice(0, 8).join(', ')}${movedMine.length > 8 ? ` and ${movedMine.length - 8} more` : ''}`);
  for (const s of strandedMine.slice(0, 5)) r.lines.push(`   ${s.pod}: ${s.message}`);
  if (strandedMine.length > 5) r.lines.push(`   … and ${strandedMine.length - 5} more`);
  if (others > 0) r.lines.push(`Other namespaces: ${plural(others, 'pod', 'pods')} — ${others - strandedOthers} land${others - strandedOthers === 1 ? 's' : ''} elsewhere, ${strandedOthers} stay${strandedOthers === 1 ? 's' : ''} Pending.`);
  return { replies: [r], namespaces: [...new Set(mine.map(nsOf))] };
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

const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

function usageAnswer(): Answer {
  const r = emptyReply('help', '❓', 'Usage: /quota NAMESPACE');
  return { replies: [r], namespaces: [] };
}

/**
 * Every method, in this order: (1) what the asker may see — a channel that sees nothing gets the refusal
 * (`message`: silence, since telling a paste from chatter would mean parsing it); (2) the length cap, before
 * any parsing; (3) names looked up in visible namespaces only; (4) the answer's namespaces checked again.
 */
export function createAnswerer(): Answerer {
  const diagnoseIn = (text: string, ctx: AskContext, loaded: Loaded) =>
    diagnose({ text, state: loaded.state, namespace: ctx.defaultNamespace, now: ctx.now, gaps: loaded.gaps, allowedNamespaces: visibilityOf(ctx).list(), audience: audienceOf(ctx) });
  return {
    async message(text, ctx) {
      const vis = visibilityOf(ctx);
      if (vis.seesNothing) return null;
      if (!text.trim()) return null;
      const tooLong = overCap(text, 'message');
      if (tooLong) return tooLong;
      const d = diagnoseIn(text, ctx, await loadState(ctx));
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
        const loaded = await loadState(ctx);
        const d = diagnoseIn(text, ctx, loaded);
        if (d.recognised) return guardAnswer(d.answer, vis);
        if (q.type === 'help') return helpAnswer(loaded.state, ctx);
      }
      // A namespace the asker named and may not see: refused before anything is read.
      if ('namespace' in q && q.namespace && !vis.allows(q.namespace)) return refusalAnswer();
      return guardAnswer(await answerQuestion(q, ctx), vis);
    },
    async quota(namespace, ctx) {
      const vis = visibilityOf(ctx);
      if (vis.seesNothing) return refusalAnswer();
      const ns = namespace ?? ctx.defaultNamespace;
      if (!ns) return usageAnswer();
      // The cap of a namespace name (a DNS label), before it is used for anything.
      if (!NAMESPACE.test(ns)) return usageAnswer();
      if (!vis.allows(ns)) return refusalAnswer();
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
      return guardAnswer(a, vis);
    },
  };
}

export { simulationReply };
