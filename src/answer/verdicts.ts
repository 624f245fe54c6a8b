/**
 * Verdicts only from what was read (issue #16): the engine's completeness rules (engine/completeness.ts)
 * as answer/ hands them to the CLI, the MCP tools and the Answerer, which may not import the engine.
 */
import type { Snapshot } from '../k8s/snapshot.ts';
import type { FitCount, Headroom } from '../engine/headroom.ts';
import { headroomJson } from '../engine/headroom.ts';
import {
  headroomNeeds,
  incompleteOf,
  namespaceAbsenceKnown,
  schedulerNeeds,
  unreadCluster,
  unreadIn,
  type Incomplete,
  type Reads,
  type Unread,
} from '../engine/completeness.ts';
import { parsePaste } from '../parse/index.ts';
import type { Question } from '../parse/question.ts';
import type { AskContext } from './answerer.ts';
import { loadState, type Loaded } from './handlers/context.ts';
import { quotaAnswer } from './handlers/headroom.ts';
import { headroomReply } from './replies/headroom.ts';
import { notFound } from './replies/not-found.ts';
import { unreadGaps, type Audience } from './gaps.ts';
import { Visibility } from './policy.ts';
import { emptyReply, type Answer } from './types.ts';

export {
  causeOf,
  drainNeeds,
  headroomNeeds,
  incompleteOf,
  missingOf,
  namespaceAbsenceKnown,
  readsOf,
  runVerdict,
  schedulerNeeds,
  simVerdicts,
  unreadCluster,
  unreadIn,
  type Cause,
  type Incomplete,
  type Reads,
  type ResultVerdict,
  type Unread,
  type Verdict,
} from '../engine/completeness.ts';

/** An answer qualified by what it stands on: the unread resources it needed, and whether its verdict is decided. */
export interface QualifiedAnswer {
  answer: Answer;
  /** docs/contract.md `incomplete`: what the answer needed and could not read. */
  incomplete: Incomplete[];
  /** True when the part the question is about could not be decided (CLI exit 3). */
  undecided: boolean;
  /** The answer is "not found", said on a read that could tell. */
  absent?: boolean;
}

/** A fit count stands without placement only when admission alone stops the next pod (a full quota, a refusal). */
const fitStands = (f: FitCount) => f.fits === 0 && f.limitedBy !== 'nodes';

/** A fit count as `quota --json` prints it: with `fits` null (undecided), no `limitedBy` nor `quota` either. */
function decidedFit(
  f: FitCount,
  fits: number | null,
): { fits: number | null; limitedBy: string | null; rest: { quota?: string } } {
  if (fits === null) return { fits: null, limitedBy: null, rest: {} };
  return { fits, limitedBy: f.limitedBy, rest: f.quota ? { quota: f.quota } : {} };
}

/** A node no cluster has: rendered in place of the real ones, the lines that name nodes change. */
function probeNode(h: Headroom): Headroom['nodes'][number] {
  const one = { allocatable: '1', requested: '0', free: '1' };
  return {
    name: '~probe',
    status: [],
    taints: [],
    pods: { allocatable: 1, count: 0 },
    resources: Object.fromEntries(['cpu', 'memory', ...h.nodeResources].map((r) => [r, one])),
  };
}

/** The fit-dependent values of a headroom set to `n` where they are not decided (to find the lines they print). */
function withUnknownFits(h: Headroom, n: number): Headroom {
  const blank = <T extends FitCount>(f: T): T =>
    fitStands(f) ? f : { ...f, fits: n, limitedBy: n === 0 ? 'nodes' : null, quota: undefined };
  return { ...h, defaultPod: blank(h.defaultPod), workloads: h.workloads.map(blank), largestSchedulablePod: null };
}

/**
 * `/quota NS` and `quota NS` from what was read: no headroom at all when the namespace's quotas or
 * LimitRanges were not read (every number depends on them); "namespace not found" only when the namespace
 * list was read; without nodes or every namespace's pods, the quota bars stand and what placement decides
 * (how many more pods fit, the largest pod that schedules) is said to be unknown, once.
 */
export function qualifiedHeadroom(
  state: Snapshot,
  ns: string,
  reads: Reads,
  opts: { now?: number; audience?: Audience; visibility?: Visibility; nodes?: boolean } = {},
): QualifiedAnswer & { json?: Record<string, unknown> } {
  const audience = opts.audience ?? 'operator';
  const visibility = opts.visibility ?? Visibility.everything();
  const needs = headroomNeeds(reads, ns);
  if (needs.admission.length) {
    const r = emptyReply('error', '⚠️', `I can't tell the headroom of ${ns}: its quotas and LimitRanges were not read.`);
    r.gaps.push(...unreadGaps(needs.admission, visibility, audience));
    return { answer: { replies: [r], namespaces: [ns] }, incomplete: incompleteOf(needs.admission), undecided: true };
  }
  if (!state.hasNamespace(ns) && namespaceAbsenceKnown(reads))
    return { answer: notFound(`namespace ${ns}`, [ns]), incomplete: [], undecided: false, absent: true };
  const a = quotaAnswer(state, ns, opts.now, { nodes: opts.nodes });
  const h = a.json as Headroom | undefined;
  const missing: Unread[] = [...needs.placement, ...needs.workloads, ...needs.pods];
  if (!h) return { answer: a, incomplete: [], undecided: false };
  const json = headroomJson(h);
  if (missing.length === 0) return { answer: a, incomplete: [], undecided: false, json: { ...json, incomplete: [] } };
  const placementUnknown = needs.placement.length > 0;
  // The per-node table (`--nodes`) holds only what placement reads: without it, not printed.
  const rest = placementUnknown ? [] : a.replies.slice(1);
  // A line stands when it reads the same whatever the unread data would have said: rendered again with
  // the undecided values changed (fit counts, nodes; the quota holders and Pending pods when the
  // namespace's pods were not read), a line that changes is left out.
  const base = placementUnknown ? withUnknownFits(h, 0) : h;
  const variants: Headroom[] = [];
  if (placementUnknown) {
    variants.push(withUnknownFits(h, 1), { ...base, nodes: [] }, { ...base, nodes: [probeNode(h)] });
  }
  if (needs.pods.length) {
    variants.push({
      ...base,
      quotas: base.quotas.map((q) => ({
        ...q,
        holders: [{ ref: '~', pods: 1, pending: 0, total: '1' }],
        pending: { pods: ['~'], resources: Object.fromEntries(Object.keys(q.resources).map((r) => [r, '1'])) },
      })),
      pending: [{ name: '~' }],
    });
  }
  const shown = headroomReply(base);
  const others = variants.map((v) => headroomReply(v).lines);
  const reply = { ...shown, lines: shown.lines.filter((l) => others.every((o) => o.includes(l))) };
  if (placementUnknown)
    reply.lines.push(
      'How many more pods fit, and the largest pod that schedules, are unknown: placement was not read.',
    );
  if (needs.pods.length)
    reply.lines.push(`Who holds the quota, and which pods are Pending, are unknown: pods in ${ns} were not read.`);
  reply.gaps.push(...unreadGaps(missing, visibility, audience));
  const unknownFit = (f: FitCount) => (placementUnknown && !fitStands(f) ? null : f.fits);
  const patched: Record<string, unknown> = {
    ...json,
    defaultPod: (({ fits, limitedBy, rest }) => ({ fits, limitedBy, ...rest }))(
      decidedFit(h.defaultPod, unknownFit(h.defaultPod)),
    ),
    largestSchedulablePod: placementUnknown ? null : json.largestSchedulablePod,
    workloads: needs.workloads.length
      ? null
      : h.workloads.map((w, i) => {
          const { kind, name, replicas, perPod } = (json.workloads as Record<string, unknown>[])[i] ?? {};
          const fit = decidedFit(w, unknownFit(w));
          return { kind, name, replicas, perPod, moreReplicasFit: fit.fits, limitedBy: fit.limitedBy, ...fit.rest };
        }),
    pendingPods: needs.pods.length ? null : json.pendingPods,
    nodes: placementUnknown ? null : json.nodes,
    incomplete: incompleteOf(missing),
  };
  return {
    answer: { ...a, replies: [reply, ...rest], json: h },
    incomplete: incompleteOf(missing),
    undecided: false,
    json: patched,
  };
}

/**
 * The namespaces a paste is about, read before the cluster is (so a tenant's load reads them namespace by
 * namespace): each finding's and manifest's own, else `assumed` (-n); `guess` when some finding names none
 * and no namespace is assumed (its namespace is then guessed from every namespace's objects).
 */
export function pasteNamespaces(text: string, assumed?: string): { namespaces: string[]; guess: boolean } {
  const p = parsePaste(text);
  const out = new Set<string>();
  let guess = false;
  for (const f of p.findings) {
    const ns = f.namespace ?? assumed;
    if (ns) out.add(ns);
    else guess = true;
  }
  if (p.manifests.length) out.add(assumed ?? 'default');
  for (const m of p.manifests) {
    const meta = m.ok ? m.object.metadata : undefined;
    const ns = typeof meta === 'object' && meta !== null && 'namespace' in meta ? meta.namespace : undefined;
    if (typeof ns === 'string' && ns) out.add(ns);
  }
  return { namespaces: [...out], guess };
}

/**
 * What checking a paste against the cluster reads: each namespace's LimitRanges, quotas and pods
 * (`admission`: without them the paste is explained from its text alone, never from a state that lacks
 * what it names), and placement (`placement`: the subject is replayed through the scheduler, and so is
 * every fix it verifies; without it what admission decides stands and the scheduler's part is unknown).
 */
export function pasteNeeds(
  reads: Reads,
  namespaces: readonly string[],
  guess: boolean,
): { admission: Unread[]; placement: Unread[] } {
  const admission: Unread[] = [];
  const add = (u: Unread | undefined) => {
    if (u && !admission.includes(u)) admission.push(u);
  };
  for (const ns of namespaces) for (const r of ['limitranges', 'resourcequotas', 'pods']) add(unreadIn(reads, r, ns));
  if (guess) for (const r of ['limitranges', 'resourcequotas', 'pods']) add(unreadCluster(reads, r));
  const placement = schedulerNeeds(reads, undefined).filter((u) => !admission.includes(u));
  return { admission, placement };
}

/** Everything checking a paste needs and could not read (pasteNeeds, both parts). */
export function diagnoseNeeds(reads: Reads, namespaces: readonly string[], guess: boolean): Unread[] {
  const n = pasteNeeds(reads, namespaces, guess);
  return [...n.admission, ...n.placement];
}

/** Answers that could not be decided, and what they needed (the CLI's exit 3, `whatif --json`'s `incomplete`). */
const UNDECIDED = new WeakMap<Answer, Incomplete[]>();

/** What an answer needed and could not read: empty for an answer decided on what was read. */
export function incompleteOfAnswer(a: Answer): Incomplete[] {
  return UNDECIDED.get(a) ?? [];
}

/** Whether an answer could not be decided (a what-if on data that was not read). */
export function isUndecided(a: Answer): boolean {
  return UNDECIDED.has(a);
}

/**
 * An answer given whole with one part undecided (a drain whose PodDisruptionBudgets were not read: where
 * the pods land is decided, whether the drain finishes is not): `incomplete` and exit 3, the reply kept.
 */
export function partlyUndecided(a: Answer, missing: readonly Unread[]): Answer {
  if (missing.length) UNDECIDED.set(a, incompleteOf(missing));
  return a;
}

/** The answer when what a question needs could not be read: what was not read, and no verdict. */
export function undecidedAnswer(
  missing: readonly Unread[],
  namespaces: string[],
  visibility: Visibility,
  audience: Audience,
): Answer {
  const r = emptyReply('error', '⚠️', "I can't answer that now: part of what it needs could not be read.");
  r.gaps.push(...unreadGaps(missing, visibility, audience));
  const a: Answer = { replies: [r], namespaces };
  UNDECIDED.set(a, incompleteOf(missing));
  return a;
}

/** What a namespace's workloads and admission read (a what-if simulates the controllers, admission and the scheduler). */
const NAMESPACED = [
  'limitranges',
  'resourcequotas',
  'pods',
  'persistentvolumeclaims',
  'deployments',
  'replicasets',
  'statefulsets',
  'daemonsets',
  'jobs',
  'cronjobs',
];

/**
 * Whether a question's answer places pods on nodes: a LimitRange what-if is decided by admission alone
 * (LimitRanger), so its load reads the namespace's own lists and nothing cluster-wide.
 */
export function questionPlacement(q: Question): boolean {
  return q.type !== 'limitrange';
}

/** The namespaces a question's load reads: the one it names, else the asker's default, else the visible ones. */
export function questionNamespaces(q: Question, ctx: AskContext): string[] | undefined {
  // "what's wrong?" covers every namespace the asker may see, whatever the channel's default.
  if (q.type === 'overview' && !q.namespace) return ctx.allowedNamespaces ? [...ctx.allowedNamespaces] : undefined;
  const named = 'namespace' in q && q.namespace ? q.namespace : ctx.defaultNamespace;
  if (named) return [named];
  return ctx.allowedNamespaces ? [...ctx.allowedNamespaces] : undefined;
}

/**
 * Before a question is answered from a state, whether that state holds what the answer needs: a `headroom`
 * question gets the qualified headroom (qualifiedHeadroom); a LimitRange what-if needs the namespace's
 * LimitRanges; every other what-if its namespace's workloads, quotas, LimitRanges and pods, and placement.
 * Returns the answer to give instead of the handler's, or null to let the handler answer.
 */
export function questionGate(q: Question, loaded: Loaded, ctx: AskContext): Answer | null {
  const { state, reads } = loaded;
  if (!state || !reads) return null;
  const visibility = Visibility.of(ctx.allowedNamespaces);
  const audience = ctx.audience ?? 'operator';
  const named = 'namespace' in q && q.namespace ? q.namespace : ctx.defaultNamespace;
  const missing: Unread[] = [];
  const add = (u: Unread | undefined) => {
    if (u && !missing.includes(u)) missing.push(u);
  };
  const namespaced = (resources: readonly string[]) => {
    for (const r of resources) add(named ? unreadIn(reads, r, named) : unreadCluster(reads, r));
  };
  switch (q.type) {
    case 'help':
    case 'invalid':
      return null;
    case 'headroom': {
      if (!named) return null;
      const h = qualifiedHeadroom(state, named, reads, { now: ctx.now, audience, visibility });
      // A namespace that is not there: the resolver's "did you mean" (handlers/resolve.ts).
      if (h.absent) return null;
      if (h.undecided) UNDECIDED.set(h.answer, h.incomplete);
      for (const r of h.answer.replies) r.gaps.push(...(loaded.warningGaps ?? []));
      return h.answer;
    }
    case 'limitrange':
      namespaced(['limitranges']);
      break;
    case 'drain':
    case 'uncordon':
      for (const u of schedulerNeeds(reads, undefined)) add(u);
      break;
    case 'overview':
      // Incidents are read from the namespaces' workloads, pods, quotas and events (no placement): without
      // events, "nothing wrong" would be a verdict from what was not read.
      // Each namespace the answer covers (the named one, else every visible one) must have been read.
      for (const ns of q.namespace ? [q.namespace] : visibility.visible(state.namespaces()))
        for (const r of [...NAMESPACED, 'events']) add(unreadIn(reads, r, ns));
      break;
    default:
      namespaced(NAMESPACED);
      for (const u of schedulerNeeds(reads, undefined)) add(u);
  }
  if (!missing.length) return null;
  const a = undecidedAnswer(missing, named ? [named] : [], visibility, audience);
  for (const r of a.replies) r.gaps.push(...(loaded.warningGaps ?? []));
  return a;
}

/**
 * A question naming a namespace the state does not hold, when the namespace list was not read: whether it
 * exists is not known, so no "namespace not found" (nor "did you mean"); null when the read can tell.
 */
export function namespaceUnknown(q: Question, loaded: Loaded, ctx: AskContext): Answer | null {
  const { state, reads } = loaded;
  const named = 'namespace' in q && q.namespace ? q.namespace : undefined;
  if (!state || !reads || !named || state.hasNamespace(named) || namespaceAbsenceKnown(reads)) return null;
  const missing = unreadCluster(reads, 'namespaces');
  return missing
    ? undecidedAnswer([missing], [named], Visibility.of(ctx.allowedNamespaces), ctx.audience ?? 'operator')
    : null;
}

/**
 * The state a paste is checked against (Slack messages, @mentions that hold an error): read for the
 * namespaces the paste names. Without their admission inputs (pasteNeeds) none, and the paste is explained
 * from its text; without placement the state, with the scheduler layer unread. One line per unread resource.
 */
export async function loadForPaste(ctx: AskContext, text: string): Promise<Loaded> {
  // Parsed on a later turn of the event loop: the caller's own work (a Slack event's ack) goes out first,
  // as it did when the load came before any parsing (test/hardening/load.test.ts, 200 pastes at once).
  await new Promise<void>((resolve) => setImmediate(resolve));
  const { namespaces, guess } = pasteNamespaces(text, ctx.defaultNamespace);
  const loaded = await loadState(ctx, namespaces);
  if (!loaded.state || !loaded.reads) return loaded;
  const needs = pasteNeeds(loaded.reads, namespaces, guess);
  const visibility = Visibility.of(ctx.allowedNamespaces);
  const audience = ctx.audience ?? 'operator';
  const warnings = loaded.warningGaps ?? [];
  if (needs.admission.length)
    return {
      gaps: [...warnings, ...unreadGaps([...needs.admission, ...needs.placement], visibility, audience)],
      reads: loaded.reads,
    };
  if (needs.placement.length)
    return {
      ...loaded,
      gaps: [...warnings, ...unreadGaps(needs.placement, visibility, audience)],
      unread: new Set(['scheduler']),
    };
  return { ...loaded, gaps: warnings };
}

/** `/quota NS` (the Answerer's `quota`): the qualified headroom, with the source's warnings as gaps too. */
export function qualifiedQuota(
  state: Snapshot,
  ns: string,
  reads: Reads,
  ctx: AskContext,
  warningGaps: readonly string[],
): Answer {
  const h = qualifiedHeadroom(state, ns, reads, {
    now: ctx.now,
    audience: ctx.audience ?? 'operator',
    visibility: Visibility.of(ctx.allowedNamespaces),
  });
  for (const r of h.answer.replies) r.gaps.push(...warningGaps);
  if (h.undecided) UNDECIDED.set(h.answer, h.incomplete);
  return h.answer;
}
