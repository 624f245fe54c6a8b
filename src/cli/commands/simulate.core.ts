/**
 * `simulate`'s and `check`'s implementation (their registration, cheap, is in simulate.ts): loaded by the
 * action with a dynamic import, and by the MCP `simulate` and `check` tools and the GitHub Action.
 */
import { decodeText, formatProblem } from '../../k8s/decode.ts';
import type { KObject } from '../../k8s/snapshot.ts';
import { openSource, warningText, type ClusterSource } from '../../answer/sources.ts';
import type { SimResult } from '../../answer/types.ts';
import { simulate, simResultsToJson } from '../../answer/simulation.ts';
import { renderSimulation } from '../../render/text.ts';
import { UsageError } from '../../answer/errors.ts';
import { boundWorkloads, MAX_CLI_PODS } from '../../answer/bounds.ts';
import { redactSecrets } from '../../answer/redact.ts';
import { unreadGaps } from '../../answer/gaps.ts';
import {
  incompleteOf,
  missingOf,
  readsOf,
  runVerdict,
  simVerdicts,
  type Incomplete,
  type ResultVerdict,
  type Verdict,
} from '../../answer/verdicts.ts';
import { Visibility } from '../../answer/policy.ts';
import { readManifests, type Io } from '../io.ts';
import { failOnUnreadableState, outputFormat, printData, type Flags } from '../options.ts';

/** Manifest text → objects to admit (unknown kinds kept: they are charged by the object-count quota). */
export function decodeManifest(text: string, source: string): KObject[] {
  const d = decodeText(text, source, { keepUnknownKinds: true, maxBytes: 16 * 1024 * 1024, maxDocuments: 10_000 });
  if (d.errors.length > 0) throw new UsageError(formatProblem(d.errors[0]!));
  return d.objects;
}

/** What a simulation run decided: the engine's results, each one's verdict, and what it could not read. */
export interface SimulationRun {
  results: SimResult[];
  /** Per result, in order: which parts stand on what was read (engine/completeness.ts). */
  verdicts: ResultVerdict[];
  warnings: string[];
  /** One line per unread resource a verdict needed (answer/gaps.ts). */
  gaps: string[];
  incomplete: Incomplete[];
  /** `check`'s verdict: fails (exit 1) on read data, unknown (exit 3), passes (exit 0). */
  verdict: Verdict;
  /** verdict === 'fails' (kept for callers that read a boolean). */
  failed: boolean;
}

/**
 * The command's core, shared with the MCP `simulate` and `check` tools: the objects admitted (and scheduled)
 * against the source, with every warning, and each verdict qualified by what was read: a part that needs a
 * resource the source could not read is `unknown`, never passed or failed from its absence.
 */
export async function simulateWith(
  source: ClusterSource,
  objects: KObject[],
  opts: { namespace?: string; k8sVersion?: string; operation?: 'CREATE' | 'UPDATE' },
): Promise<SimulationRun> {
  // The object's namespace, else -n, else the kubeconfig context's, else default (docs/contract.md).
  const fallback = opts.namespace ?? source.contextNamespace?.();
  const namespaces = [...new Set(objects.map((o) => o.metadata.namespace ?? fallback ?? 'default'))];
  const loaded = await source.load({ namespaces });
  failOnUnreadableState(loaded.errors);
  // `replicas: 1000000000` expanded to a billion pods and ran out of heap: simulate at most MAX_CLI_PODS, and say so.
  // A Secret in the manifest is admitted by kind and name only: `--json` prints each object as stored,
  // and printed its `data`/`stringData` values (SECURITY.md: never echoed, not even the user's own).
  const bounded = boundWorkloads(objects.map(redactSecrets), MAX_CLI_PODS);
  const out = simulate(loaded.snapshot, bounded.objects, {
    namespace: fallback,
    k8sVersion: opts.k8sVersion ?? loaded.serverVersion,
    now: Date.now(),
    operation: opts.operation,
  });
  const reads = readsOf(loaded.errors, namespaces);
  const verdicts = simVerdicts(out.results, reads);
  const missing = missingOf(verdicts);
  const warnings = [...loaded.warnings.map(warningText), ...bounded.warnings, ...out.warnings];
  const verdict = runVerdict(verdicts);
  return {
    results: out.results,
    verdicts,
    warnings,
    gaps: unreadGaps(missing, Visibility.everything(), 'operator'),
    incomplete: incompleteOf(missing),
    verdict,
    failed: verdict === 'fails',
  };
}

/**
 * `simulate --json` of a run (docs/contract.md): each result with its `verdict`; a part that is unknown is
 * not printed as a decision (`admission.allowed: null` when admission is unknown, `scheduling: null` when
 * the scheduler part is); `warnings` then one line per unread resource; `incomplete` lists them.
 */
export function simulationJson(run: SimulationRun): {
  results: unknown[];
  warnings: string[];
  incomplete: Incomplete[];
} {
  const base = simResultsToJson({ results: run.results, warnings: [...run.warnings, ...run.gaps] });
  return {
    results: base.results.map((r, i) => {
      const v = run.verdicts[i]!;
      const json = r as Record<string, unknown>;
      const admissionUnknown = v.verdict === 'unknown' && (v.limitrange === 'unknown' || v.quota === 'unknown');
      return {
        ...json,
        ...(admissionUnknown ? { admission: { allowed: null, layer: null, message: null } } : {}),
        ...(v.scheduler === 'unknown' ? { scheduling: null } : {}),
        verdict: v.verdict,
      };
    }),
    warnings: base.warnings,
    incomplete: run.incomplete,
  };
}

/** `Kind ns/name` as the simulate lines name an object. */
const idOf = (r: SimResult) => (r.namespace ? `${r.kind} ${r.namespace}/${r.name}` : `${r.kind} ${r.name}`);

/** What an unknown result's line says was not read. */
function notRead(v: ResultVerdict): string {
  const what = [...new Set(v.missing.map((u) => (u.namespace ? `${u.resource} in ${u.namespace}` : u.resource)))];
  return what.length ? ` (${what.join(', ')} not read)` : '';
}

/**
 * `simulate`'s (and `check`'s) text: decided results as renderSimulation prints them, an undecided one as
 * `? Kind ns/name: …unknown`, then the warnings and one line per unread resource, then `check`'s summary.
 */
export function simulationText(run: SimulationRun, check: boolean): string {
  const out: string[] = [];
  run.results.forEach((r, i) => {
    const v = run.verdicts[i]!;
    if (v.verdict !== 'unknown') {
      out.push(renderSimulation([r], []));
      return;
    }
    if (v.limitrange === 'unknown' || v.quota === 'unknown') out.push(`? ${idOf(r)}: admission unknown${notRead(v)}`);
    else out.push(`? ${idOf(r)}: admitted; whether it schedules is unknown${notRead(v)}`);
  });
  for (const w of run.warnings) out.push(`⚠ ${w}`);
  for (const g of run.gaps) out.push(`⚠ ${g}`);
  if (check) {
    const n = run.results.length;
    const failed = run.verdicts.filter((v) => v.verdict === 'fails').length;
    const unknown = run.verdicts.filter((v) => v.verdict === 'unknown').length;
    if (failed > 0) out.push(`check failed: ${failed} of ${n} object(s) would be rejected or stay Pending`);
    else if (unknown > 0)
      out.push(`check could not decide: ${unknown} of ${n} object(s) need what could not be read (exit 3)`);
    else out.push(`check passed: ${n} object(s) admitted and scheduled`);
  }
  return out.join('\n');
}

/** The exit status of a run: `check` 1 when anything fails on read data, 3 when undecided; `simulate` 3 when undecided. */
export function simulationCode(run: SimulationRun, check: boolean): number {
  if (check && run.verdict === 'fails') return 1;
  return run.verdicts.some((v) => v.verdict === 'unknown') ? 3 : 0;
}

/** `simulate` and `check` flags as commander parses them (`file` collected from every `-f`). */
export type SimulateFlags = Flags & { file: string[]; recursive?: boolean; operation?: 'create' | 'update' };

/** The `simulate` (or `check`) command's run: its exit code; `check` turns a failure into exit 1. */
export async function runSimulate(opts: SimulateFlags, io: Io, check: boolean): Promise<number> {
  const format = outputFormat(opts);
  const files = await readManifests(opts.file, !!opts.recursive, io);
  const objects = files.flatMap((f) => decodeManifest(f.text, f.source));
  const source = await openSource(opts);
  try {
    const run = await simulateWith(source, objects, {
      namespace: opts.namespace,
      k8sVersion: opts.k8sVersion,
      operation: opts.operation === 'update' ? 'UPDATE' : opts.operation === 'create' ? 'CREATE' : undefined,
    });
    if (format) await printData(io, format, simulationJson(run));
    else io.stdout(`${simulationText(run, check)}\n`);
    return simulationCode(run, check);
  } finally {
    await source.close();
  }
}
