/**
 * `quota-doctor simulate -f manifest`: admit (and schedule) the objects of a manifest, as the API server
 * and scheduler would. `check` (commands/check.ts) is the same run with exit 1 when anything fails.
 *
 * `-f` as kubectl takes it: repeated, a folder (its *.yaml, *.yml, *.json; subfolders with `-R`), `-`
 * for stdin. All the objects of all the files are one run, in order — what `kubectl apply -f A -f DIR`
 * would do: an object admitted from one file counts against the quota seen by the next.
 */
import { Option, type Command } from 'commander';
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
import { readManifests, type Io, type SetCode } from '../io.ts';
import { addOutputOptions, addSourceOptions, failOnUnreadableState, outputFormat, printData, type Flags } from '../options.ts';

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
export async function simulateWith(source: ClusterSource, objects: KObject[], opts: { namespace?: string; k8sVersion?: string }): Promise<{ results: SimResult[]; warnings: string[]; failed: boolean }> {
  const loaded = await source.load({ namespaces: [...new Set(objects.map((o) => o.metadata.namespace ?? opts.namespace ?? 'default'))] });
  failOnUnreadableState(loaded.errors);
  // `replicas: 1000000000` expanded to a billion pods and ran out of heap: simulate at most MAX_CLI_PODS, and say so.
  // A Secret in the manifest is admitted by kind and name only: `--json` prints each object as stored,
  // and printed its `data`/`stringData` values (SECURITY.md: never echoed, not even the user's own).
  const bounded = boundWorkloads(objects.map(redactSecrets), MAX_CLI_PODS);
  const out = simulate(loaded.snapshot, bounded.objects, { namespace: opts.namespace, k8sVersion: opts.k8sVersion, now: Date.now() });
  const warnings = [...loaded.warnings.map(warningText), ...loaded.errors.map((e) => errorGap(e, Visibility.everything(), 'operator')), ...bounded.warnings, ...out.warnings];
  const failed = out.results.some((r) => !r.admission.allowed || (r.scheduling !== null && !r.scheduling.scheduled));
  return { results: out.results, warnings, failed };
}

type SimulateFlags = Flags & { file: string[]; recursive?: boolean };

/** Collects a repeated option's values in order. */
const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

async function runSimulate(opts: SimulateFlags, io: Io, check: boolean): Promise<number> {
  const format = outputFormat(opts);
  const files = await readManifests(opts.file, !!opts.recursive, io);
  const objects = files.flatMap((f) => decodeManifest(f.text, f.source));
  const source = await openSource(opts);
  try {
    const { results, warnings, failed } = await simulateWith(source, objects, { namespace: opts.namespace, k8sVersion: opts.k8sVersion });
    if (format) printData(io, format, simResultsToJson({ results, warnings }));
    else io.stdout(renderSimulation(results, warnings, { check }) + '\n');
    return check && failed ? 1 : 0;
  } finally {
    await source.close();
  }
}

/** The `simulate` or `check` command: the same flags, the same run; `check` turns a failure into exit 1. */
export function registerSimulation(program: Command, io: Io, setCode: SetCode, check: boolean): void {
  const cmd = addSourceOptions(
    program
      .command(check ? 'check' : 'simulate')
      .description(check ? 'CI check: exit 1 when any object would be rejected or stay unschedulable' : 'admit (and schedule) the objects of a manifest, as the API server and scheduler would')
      .requiredOption('-f, --file <path>', 'manifest file or folder (multi-document YAML or JSON; - for stdin); repeat for more', collect)
      .option('-R, --recursive', 'read the subfolders of a -f folder too')
      .option('-n, --namespace <ns>', 'namespace for objects that name none'),
  );
  addOutputOptions(cmd);
  // kubectl's long name, `--filename`, as a hidden spelling of `--file`: its values join the same list, in order.
  cmd.addOption(new Option('--filename <path>').hideHelp());
  cmd.on('option:filename', (value: string) => cmd.setOptionValueWithSource('file', collect(value, cmd.getOptionValue('file') as string[] | undefined), 'cli'));
  cmd.action(async (opts: SimulateFlags) => setCode(await runSimulate(opts, io, check)));
}

export function register(program: Command, io: Io, setCode: SetCode): void {
  registerSimulation(program, io, setCode, false);
}
