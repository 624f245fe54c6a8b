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
import { errorGap } from '../../answer/gaps.ts';
import { Visibility } from '../../answer/policy.ts';
import { readManifests, type Io } from '../io.ts';
import { failOnUnreadableState, outputFormat, printData, type Flags } from '../options.ts';

/** Manifest text → objects to admit (unknown kinds kept: they are charged by the object-count quota). */
export function decodeManifest(text: string, source: string): KObject[] {
  const d = decodeText(text, source, { keepUnknownKinds: true, maxBytes: 16 * 1024 * 1024, maxDocuments: 10_000 });
  if (d.errors.length > 0) throw new UsageError(formatProblem(d.errors[0]!));
  return d.objects;
}

/**
 * The command's core, shared with the MCP `simulate` and `check` tools: the objects admitted (and scheduled)
 * against the source, with every warning; `failed` is `check`'s verdict (exit 1).
 */
export async function simulateWith(
  source: ClusterSource,
  objects: KObject[],
  opts: { namespace?: string; k8sVersion?: string; operation?: 'CREATE' | 'UPDATE' },
): Promise<{ results: SimResult[]; warnings: string[]; failed: boolean }> {
  // The object's namespace, else -n, else the kubeconfig context's, else default (docs/contract.md).
  const fallback = opts.namespace ?? source.contextNamespace?.();
  const loaded = await source.load({
    namespaces: [...new Set(objects.map((o) => o.metadata.namespace ?? fallback ?? 'default'))],
  });
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
  const warnings = [
    ...loaded.warnings.map(warningText),
    ...loaded.errors.map((e) => errorGap(e, Visibility.everything(), 'operator')),
    ...bounded.warnings,
    ...out.warnings,
  ];
  const failed = out.results.some((r) => !r.admission.allowed || (r.scheduling !== null && !r.scheduling.scheduled));
  return { results: out.results, warnings, failed };
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
    const { results, warnings, failed } = await simulateWith(source, objects, {
      namespace: opts.namespace,
      k8sVersion: opts.k8sVersion,
      operation: opts.operation === 'update' ? 'UPDATE' : opts.operation === 'create' ? 'CREATE' : undefined,
    });
    if (format) await printData(io, format, simResultsToJson({ results, warnings }));
    else io.stdout(`${renderSimulation(results, warnings, { check })}\n`);
    return check && failed ? 1 : 0;
  } finally {
    await source.close();
  }
}
