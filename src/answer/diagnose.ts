/**
 * A paste → findings (parse/) → checked against the state now and fixed (engine/) → replies and the
 * `diagnose --json` form of docs/contract.md. With no state, it explains from the text alone.
 */
import type { KObject, Snapshot } from '../k8s/snapshot.ts';
import type { Pod } from '../k8s/objects.ts';
import { WORKLOAD_KINDS } from '../k8s/objects.ts';
import { Quantity, resourceList } from '../quantity.ts';
import { parsePaste, type Finding, type FindingBody } from '../parse/index.ts';
import { simulate, simResultsToJson, type SimOptions, type SimResult } from '../engine/simulate.ts';
import { locatePod, podRequesting, podWithContainers } from '../engine/diagnose/subject.ts';
import { fixesFor, nodeGaps, parseMustSpecify, quotaCounts, quotaHolders } from '../engine/fixes/index.ts';
import { subjectOf } from '../engine/diagnose/goal.ts';
import { replayPod } from '../engine/diagnose/replay.ts';
import { findingNow, replayable, type NowInputs, type NowVerdict } from '../engine/diagnose/now.ts';
import { podUsage } from '../engine/admission/evaluators/pods.ts';
import type { Answer, Fix, Reply } from './types.ts';
import { emptyReply } from './types.ts';
import { redactDeep, redactSecrets } from './redact.ts';
import { decodeValue, formatProblem } from '../k8s/decode.ts';
import { boundWorkloads, MAX_ANSWER_PODS } from './bounds.ts';
import { refusalAnswer, Visibility } from './policy.ts';
import { foreignAffinityTerm } from './manifest-scope.ts';
import type { Audience } from './gaps.ts';
import { enginePreemptionLine, explain, explained, notWorkingLines, textReply } from './replies/diagnosis.ts';
import { annotate, asTied, needsTie, tie } from './tie.ts';
import { runtimeLines, runtimeState } from './replies/runtime.ts';

export interface DiagnoseInput {
  text: string;
  /** The cluster now, if any (a state file or the live cache). */
  state?: Snapshot;
  /** Namespace assumed when the text names none. */
  namespace?: string;
  now?: number;
  k8sVersion?: string;
  /** What could not be seen (from the source). */
  gaps?: string[];
  /**
   * Namespaces the asker may see (the channel's policy); undefined = all. Guesses stay inside them; a
   * finding or manifest in another namespace is not checked against the state, and a manifest whose
   * affinity terms select pods outside them is refused before it is simulated (./manifest-scope.ts).
   */
  allowedNamespaces?: readonly string[];
  /** `channel`: internal error text is not shown (./gaps.ts). Default `operator`. */
  audience?: Audience;
  /** Layers whose inputs the source could not read: a finding's `now` that depends on one is `unknown`. */
  unread?: NowInputs['unread'];
  /** Resources the source could not read (`runtimeclasses`): a reply that needs one says it is unknown. */
  unreadResources?: readonly string[];
}

/** A finding of `diagnose --json` (docs/contract.md): keyed by `kind` like the parser's, with its facts typed. */
export type JsonFinding = FindingBody & {
  object?: { resource?: string; name?: string };
  namespace?: string;
  /** The subject replayed against the state as it is (engine/diagnose/now.ts). */
  now: NowVerdict;
  explanation: string;
  fixes: Fix[];
};

export interface DiagnoseOutput {
  answer: Answer;
  json: { findings: JsonFinding[]; manifests: unknown[] };
  recognised: boolean;
  /** The paste was longer than the parser's cap (1 MiB): only the start was read. */
  truncated: boolean;
}

export const TRUNCATED_GAP = 'The paste was longer than 1 MiB: only the first 1 MiB was read.';

/** A stand-in pod with the amounts the message names (when the state does not have the object). */
function synthesizePod(f: Finding, ns: string): Pod | null {
  if (f.kind === 'quota-exceeded') return podRequesting(f.object?.name, ns, f.facts.resources);
  if (f.kind === 'quota-must-specify')
    return podWithContainers(f.object?.name, ns, [...new Set(Object.values(f.facts.resources).flat())]);
  return null;
}

/** Whether a pasted object has the metadata an object of the state has. */
function hasMetadata(o: Record<string, unknown>): o is Record<string, unknown> & KObject {
  return typeof o.metadata === 'object' && o.metadata !== null;
}

/** A pasted manifest with Secret data never echoed (./redact.ts); one without metadata is left to the decoder's errors. */
function pastedObject(o: Record<string, unknown> & { apiVersion: string; kind: string }): Record<string, unknown> {
  if (hasMetadata(o)) return redactSecrets(o);
  return o.kind === 'Secret' ? { apiVersion: o.apiVersion, kind: o.kind } : o;
}

/** Every fix tried, verified or not (QUOTA_DOCTOR_TRACE_FIXES=1 prints them to stderr: debugging only). */
const fixTrace =
  typeof process !== 'undefined' && process.env.QUOTA_DOCTOR_TRACE_FIXES === '1'
    ? (f: Fix) => process.stderr.write(`fix tried: ${JSON.stringify(f)}\n`)
    : undefined;

/** What the state says of a finding: its verdict now and the verified fixes. */
interface Checked {
  now: NowVerdict;
  fixes: Fix[];
}

/** Adds state-backed numbers and verified fixes to a reply. */
function enrichWithState(
  r: Reply,
  f: Finding,
  state: Snapshot,
  ns: string,
  opts: SimOptions,
  inputs: NowInputs,
): Checked {
  const none: Checked = { now: 'unknown', fixes: [] };
  if (!replayable(f.layer)) return none;
  const located = locatePod(state, f, ns);
  const pod = located?.pod ?? synthesizePod(f, ns);
  if (!pod) return none;
  // Re-run the pod now: what would happen today?
  const replay = replayPod(state, pod, located?.existing === true, ns, opts);
  if (!replay) return none;
  const { base, submitted: fresh, now, admitted } = replay;
  const subject = subjectOf(state, pod, located?.existing === true, ns);
  const verdict = findingNow(state, subject, now, opts, inputs);
  const ctx = { state, base, subject, pod: fresh, admitted, ns, opts };
  const failure = now.detail.admission.quota?.failure;
  if (!now.admission.allowed && now.admission.message && differsFrom(f, now)) {
    r.lines.unshift(`Now it would be refused differently: ${now.admission.message.replace(/^.*? is forbidden: /, '')}`);
  }
  const lrSet = admitted.metadata?.annotations?.['kubernetes.io/limit-ranger'];
  if (lrSet && (f.kind === 'quota-exceeded' || failure?.type === 'exceeded')) {
    r.lines.push(
      `LimitRange defaults count too: ${lrSet.replace(/^LimitRanger plugin set: /, '')} (the pod did not set them).`,
    );
  }
  if (f.kind === 'quota-exceeded') {
    const quota = f.facts.quota ?? '';
    const q = state.get('ResourceQuota', ns, quota);
    if (q) {
      const res = f.facts.resources;
      const changes: string[] = [];
      for (const [k, v] of Object.entries(res)) {
        const nowUsed = Quantity.tryParse(q.status?.used?.[k]);
        const then = Quantity.tryParse(v.used);
        if (nowUsed && then && !nowUsed.eq(then)) {
          const d = nowUsed.sub(then);
          changes.push(`${k} used ${nowUsed} (${d.sign() > 0 ? '+' : ''}${d} since the error)`);
        }
      }
      if (changes.length) r.lines.unshift(`Now: ${changes.join(', ')}.`);
      const primary = f.facts.exceeding[0];
      if (primary) {
        const holders = quotaHolders(state, ns, primary, opts.now, quotaCounts(state, ns, quota));
        if (holders.length) {
          const shown = holders
            .slice(0, 4)
            .map(
              (h) =>
                `${h.ref} ${h.pods} × ${h.perPod} = ${h.total}${h.pending ? ` (${h.pending} Pending — they count without running)` : ''}`,
            );
          r.lines.push(
            `Holding ${primary}: ${shown.join(' · ')}${holders.length > 4 ? ` · and ${holders.length - 4} more` : ''}`,
          );
        }
      }
    } else {
      r.gaps.push(`ResourceQuota ${quota} is not in ${ns} now`);
    }
  }
  // Nodes or other namespaces' pods not read (issue #16): what admission decides stands; nothing the
  // scheduler would say is said, and no fix is offered (each is verified through the scheduler).
  if (inputs.unread?.has('scheduler')) {
    if (now.admission.allowed && f.layer !== 'scheduler')
      r.lines.unshift('Now it would be admitted; whether it schedules is unknown (placement could not be read).');
    return { now: verdict, fixes: [] };
  }
  if (now.admission.allowed && (now.scheduling?.scheduled ?? true) && f.layer !== 'scheduler') {
    r.lines.unshift(
      `Now it would pass: the state changed since this error (${now.scheduling?.node ? `admitted, schedules on ${now.scheduling.node}` : 'admitted'}). Retrying should work.`,
    );
    return { now: verdict, fixes: [] };
  }
  if (now.scheduling && !now.scheduling.scheduled && now.detail.schedule) {
    const statuses = now.detail.schedule.nodeStatuses;
    const gaps = nodeGaps(base, admitted, statuses);
    const insufficient = gaps.filter((g) => g.short && Object.keys(g.short).length);
    if (insufficient.length) {
      insufficient.sort((a, b) => Quantity.parse(b.free?.cpu ?? '0').cmp(Quantity.parse(a.free?.cpu ?? '0')));
      const top = insufficient[0]!;
      const req = podUsage(admitted);
      r.lines.push(
        `${insufficient.length} node${insufficient.length === 1 ? '' : 's'} short on resources — needs ${req.get('requests.cpu') ?? '0'} CPU / ${req.get('requests.memory') ?? '0'} memory; most free: ${top.node} with ${top.free?.cpu} CPU / ${top.free?.memory} (short ${Object.entries(
          top.short ?? {},
        )
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')})`,
      );
    }
    if (now.scheduling.message && f.message && !sameHistogram(now.scheduling.message, f.message))
      r.lines.unshift(`Now the scheduler would say: ${now.scheduling.message}`);
    // Preemption as the engine's DefaultPreemption decides it on the state (victims only of lower priority:
    // SelectVictimsOnNode), in place of what the paste's text alone allowed.
    const sched = now.detail.schedule;
    const engineReasons = sched.nominatedNode
      ? undefined
      : parsePaste(now.scheduling.message ?? '').findings.find((x) => x.kind === 'unschedulable')?.facts.preemption
          ?.reasons;
    const line = enginePreemptionLine(sched, engineReasons, ns);
    if (line) {
      const i = r.lines.findIndex((l) => l.startsWith('Preemption '));
      if (i >= 0) r.lines[i] = line;
      else r.lines.push(line);
    }
  }
  const { fixes, lines } = fixesFor(ctx, now, fixTrace);
  r.lines.push(...lines);
  // A verified fix is a reply's Fix as it is (the same fields, in the same order): no converter.
  return { now: verdict, fixes };
}

/** Whether the re-simulated refusal is a different error than the pasted one (the state moved on). */
function differsFrom(f: Finding, now: SimResult): boolean {
  const failure = now.detail.admission.quota?.failure;
  if (f.layer !== now.admission.layer) return true;
  if (f.kind === 'quota-exceeded')
    return failure?.type !== 'exceeded' || (typeof f.facts.quota === 'string' && failure.quota !== f.facts.quota);
  if (f.kind === 'quota-must-specify') return failure?.type !== 'must-specify';
  return false;
}

function sameHistogram(a: string, b: string): boolean {
  const first = (s: string) => s.split(/\.\s/)[0]!.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return first(a) === first(b);
}

export { parseMustSpecify };

/** Everything the paste holds, answered. */
export function diagnose(input: DiagnoseInput): DiagnoseOutput {
  const parsed = parsePaste(input.text);
  const replies: Reply[] = [];
  const json: JsonFinding[] = [];
  const namespaces = new Set<string>();
  const opts: SimOptions = { now: input.now, k8sVersion: input.k8sVersion };
  const visibility = Visibility.of(input.allowedNamespaces);
  const operator = (input.audience ?? 'operator') === 'operator';
  for (const pasted of parsed.findings) {
    // A paste naming no object (or a pod that is gone) is tied to the one whose events say the same (./tie.ts).
    const tied =
      input.state && needsTie(pasted, input.state, visibility)
        ? tie(input.state, pasted, visibility, input.namespace, opts)
        : undefined;
    const f = tied?.matches[0] ? asTied(pasted, tied.matches[0]) : pasted;
    const ns = pickNamespace(f, input.namespace, input.state, visibility);
    if (ns) namespaces.add(ns);
    const r = textReply(f, ns);
    if (f.kind === 'runtime' && input.state && ns && visibility.allows(ns))
      r.lines = runtimeLines(f, ns, runtimeState(input.state, f, ns));
    else if (input.state && f.kind === 'runtimeclass' && !input.unreadResources?.includes('runtimeclasses'))
      explained(r, f, ns, input.state);
    else if (input.state && (f.kind === 'priority' || (f.kind === 'pod-security' && ns && visibility.allows(ns))))
      explained(r, f, ns, input.state);
    let fixes: Fix[] = [];
    let now: NowVerdict = 'unknown';
    // A namespace the asker may not see is never read: the answer is refused as a whole (its namespaces).
    if (input.state && ns && visibility.allows(ns)) {
      try {
        ({ fixes, now } = enrichWithState(r, f, input.state, ns, opts, { unread: input.unread }));
      } catch (e) {
        r.gaps.push(
          operator
            ? `could not check against the cluster: ${e instanceof Error ? e.message : String(e)}`
            : 'could not check against the cluster (an internal error; nothing was changed)',
        );
      }
    } else if (!input.state && f.layer !== 'other' && f.layer !== 'runtime') {
      r.gaps.push('No cluster state: numbers are from the text only; fixes are not verified.');
    }
    // The reply offers what ends the incident; what does not is said in one line each, with the reason.
    r.fixes = fixes.filter((x) => x.verified);
    r.lines.push(...notWorkingLines(fixes));
    if (input.state) annotate(r, f, tied, input.state, ns && visibility.allows(ns) ? ns : undefined);
    for (const g of input.gaps ?? []) r.gaps.push(g);
    replies.push(r);
    const {
      object: _object,
      controller: _controller,
      namespace: _namespace,
      message: _message,
      version: _version,
      ...body
    } = f;
    const ordered = {
      layer: f.layer,
      kind: f.kind,
      ...(f.object ? { object: f.object } : {}),
      ...(ns ? { namespace: ns } : {}),
      now,
      facts: f.facts,
      explanation: explain(f),
      fixes,
    };
    // The body assigned again keeps the key order above (the contract's) and kind and facts together.
    json.push(Object.assign(ordered, body));
    if (!r.why) r.why = explain(f);
  }
  // Manifests in the paste: run them through simulate (Secret data never echoed: only kinds and names).
  // They meet the same schemas as a `simulate -f` file first: `cpu: "1.5.5"`, `containers: {}` or a Pod
  // without metadata used to throw inside the engine (the Slack reply was "Something went wrong").
  const manifests: KObject[] = [];
  const invalid: string[] = [];
  for (const m of parsed.manifests) {
    if (!m.ok) continue;
    const obj = pastedObject(m.object);
    const meta = obj.metadata;
    const pastedNs =
      typeof meta === 'object' && meta !== null && typeof (meta as { namespace?: unknown }).namespace === 'string'
        ? (meta as { namespace: string }).namespace
        : undefined;
    const d = decodeValue(obj, 'pasted manifest', { keepUnknownKinds: true });
    manifests.push(...d.objects);
    if (d.errors.length > 0) {
      invalid.push(...d.errors.map(formatProblem));
      if (pastedNs) namespaces.add(pastedNs);
    }
  }
  if (invalid.length > 0) {
    const r = emptyReply(
      'simulation',
      '🚫',
      `${invalid.length} pasted manifest${invalid.length === 1 ? '' : 's'} would be refused as invalid`,
    );
    r.lines.push(...invalid.slice(0, 5), ...(invalid.length > 5 ? [`… and ${invalid.length - 5} more`] : []));
    replies.push(r);
  }
  // One reply may not simulate a billion replicas (./bounds.ts): the cut is stated.
  const bounded = boundWorkloads(manifests, MAX_ANSWER_PODS);
  let manifestJson: unknown[] = [];
  const manifestNs = input.namespace ?? 'default';
  for (const o of manifests) namespaces.add(o.metadata.namespace ?? manifestNs);
  // Before anything is simulated: a manifest in a namespace the asker may not see is refused with the
  // whole answer; one whose affinity terms reach into such namespaces is refused here, saying which term.
  const outside = visibility.forbidden(manifests.map((o) => o.metadata.namespace ?? manifestNs)).length > 0;
  const foreignTerm = outside ? undefined : foreignAffinityTerm(manifests, visibility);
  if (foreignTerm !== undefined) {
    const refused = refusalAnswer(foreignTerm);
    return {
      answer: refused,
      json: { findings: json, manifests: [] },
      recognised: true,
      truncated: parsed.truncated === true,
    };
  }
  if (manifests.length > 0 && input.state && !outside) {
    const ns = manifestNs;
    try {
      const unplaced = input.unread?.has('scheduler') === true;
      const sim = simulate(input.state, bounded.objects, { ...opts, namespace: ns, skipScheduling: unplaced });
      manifestJson = redactDeep(simResultsToJson(sim).results);
      replies.push(simulationReply(sim.results, [...bounded.warnings, ...sim.warnings], { unplaced }));
      for (const r of sim.results) namespaces.add(r.namespace);
    } catch {
      // Nothing of the error is shown: it may name objects the asker may not see.
      const r = emptyReply(
        'error',
        '⚠️',
        `${manifests.length} manifest${manifests.length === 1 ? '' : 's'} found, but simulating them failed`,
      );
      r.gaps.push('The simulation hit an internal error; nothing was changed in the cluster.');
      replies.push(r);
    }
  } else if (manifests.length > 0 && !outside) {
    const r = emptyReply('simulation', 'ℹ️', `${manifests.length} manifest${manifests.length === 1 ? '' : 's'} found`);
    r.lines.push(...manifests.slice(0, 10).map((m) => `${m.kind} ${m.metadata.name ?? m.metadata.generateName ?? ''}`));
    r.gaps.push('No cluster state to check them against.');
    replies.push(r);
  }
  if (parsed.truncated) for (const r of replies) r.gaps.push(TRUNCATED_GAP);
  return {
    answer: { replies, namespaces: [...namespaces], json: { findings: json, manifests: manifestJson } },
    json: { findings: json, manifests: manifestJson },
    recognised: parsed.findings.length > 0 || manifests.length > 0 || invalid.length > 0,
    truncated: parsed.truncated === true,
  };
}

/**
 * The namespace a finding is about: the one the text names; else the assumed one (`-n`, the channel's
 * default) when what the text names is there; else the one namespace the state places it in.
 */
function pickNamespace(
  f: Finding,
  assumed: string | undefined,
  state: Snapshot | undefined,
  visibility: Visibility,
): string | undefined {
  if (f.namespace) return f.namespace;
  if (!state) return assumed;
  if (assumed && holds(state, f, assumed)) return assumed;
  // Only the asker's own namespaces are searched. Searching the rest and refusing what is found there was
  // an existence oracle: another team's pod name got a refusal where a made-up name got an answer.
  return guessNamespace(state, f, visibility) ?? assumed;
}

/** The quota a finding's facts name (a ResourceQuota's, or a cloud quota's), if any. */
function quotaNamed(f: Finding): string | undefined {
  return 'quota' in f.facts && typeof f.facts.quota === 'string' ? f.facts.quota : undefined;
}

/** Whether a namespace holds what a finding names (its quota, pod or controller). */
function holds(state: Snapshot, f: Finding, ns: string): boolean {
  const quota = quotaNamed(f);
  if (quota) return !!state.get('ResourceQuota', ns, quota);
  const name = f.object?.name;
  if (name && state.get('Pod', ns, name)) return true;
  if (f.controller && state.get(f.controller.kind, ns, f.controller.name)) return true;
  return !name && !f.controller;
}

function guessNamespace(state: Snapshot, f: Finding, visibility: Visibility): string | undefined {
  const visible = (ns: string) => visibility.allows(ns);
  const name = f.object?.name ?? f.controller?.name;
  // The pod itself, its controller, or the controller its generated name points at
  // (`web-7c5d8f9b4-x2k9q` → ReplicaSet `web-7c5d8f9b4`, `db-3` → StatefulSet `db`).
  const rs = name ? /^(.*)-[a-z0-9]{5}$/.exec(name)?.[1] : undefined;
  const sts = name ? /^(.*)-\d+$/.exec(name)?.[1] : undefined;
  if (name)
    for (const ns of state.namespaces().filter(visible)) {
      if (state.get('Pod', ns, name)) return ns;
      if (f.controller && state.get(f.controller.kind, ns, f.controller.name)) return ns;
      if (rs && ['ReplicaSet', 'Job', 'DaemonSet'].some((k) => state.get(k, ns, rs))) return ns;
      if (sts && state.get('StatefulSet', ns, sts)) return ns;
    }
  const quota = quotaNamed(f);
  if (quota) {
    const hits = state.namespaces().filter((ns) => visible(ns) && state.get('ResourceQuota', ns, quota));
    if (hits.length === 1) return hits[0];
  }
  return undefined;
}

/** A reply for simulate results (manifests in a paste, what-ifs applying a manifest). */
export function simulationReply(results: SimResult[], warnings: string[], opts: { unplaced?: boolean } = {}): Reply {
  const rejected = results.filter((r) => !r.admission.allowed);
  const pending = results.filter((r) => r.admission.allowed && r.scheduling && !r.scheduling.scheduled);
  const ok = results.length - rejected.length - pending.length;
  const icon = rejected.length ? '🚫' : pending.length ? '⏳' : opts.unplaced ? '❔' : '✅';
  const r = emptyReply(
    'simulation',
    icon,
    opts.unplaced
      ? `Simulated ${results.length} object${results.length === 1 ? '' : 's'}: ${ok} admitted, ${rejected.length} rejected; placement unknown`
      : `Simulated ${results.length} object${results.length === 1 ? '' : 's'}: ${ok} OK, ${rejected.length} rejected, ${pending.length} Pending`,
  );
  for (const x of results.slice(0, 12)) {
    const id = `${x.kind} ${x.namespace}/${x.name}`;
    if (!x.admission.allowed) r.lines.push(`✗ ${id}: ${x.admission.message}`);
    else if (opts.unplaced) r.lines.push(`? ${id}: admitted; whether it schedules is unknown`);
    else if (x.scheduling && !x.scheduling.scheduled) r.lines.push(`⏳ ${id}: ${x.scheduling.message}`);
    else r.lines.push(`✓ ${id}${x.scheduling?.node ? ` → ${x.scheduling.node}` : ''}`);
  }
  if (results.length > 12) r.lines.push(`… and ${results.length - 12} more`);
  r.gaps.push(...warnings.slice(0, 5));
  return r;
}

/** Quick test: does the text hold anything we recognise? (Slack stays silent otherwise.) */
export function recognises(text: string): boolean {
  const p = parsePaste(text);
  return (
    p.findings.length > 0 ||
    p.manifests.some(
      (m) => m.ok && (WORKLOAD_KINDS as readonly string[]).concat(['Pod']).includes(String(m.object.kind)),
    )
  );
}

export { resourceList };
