/**
 * `quota-doctor <command>`: argv → answer → text or JSON (docs/contract.md). Exit 0 answered, 1 "would
 * fail" (check), 2 bad usage or unreadable input — one clear line on stderr, never a stack trace.
 */
import { Command, CommanderError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { decodeText, formatProblem } from '../k8s/decode.ts';
import type { KObject } from '../k8s/snapshot.ts';
import { openSource, type SourceFlags } from '../answer/sources.ts';
import { simulate, simResultsToJson } from '../answer/simulation.ts';
import { renderSimulation } from '../render/text.ts';
import { UsageError } from '../answer/errors.ts';
import { boundWorkloads, MAX_CLI_PODS } from '../answer/bounds.ts';
import { redactSecrets } from '../answer/redact.ts';
import { registerCommands } from './commands.ts';

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  readStdin: () => Promise<string>;
  isTTY: boolean;
}

const defaultIo: Io = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  isTTY: !!process.stdin.isTTY,
};

/** Reads a file argument (`-` for stdin). */
export async function readInput(path: string, io: Io): Promise<string> {
  if (path === '-') return io.readStdin();
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message}`);
  }
}

/** Manifest text → objects to admit (unknown kinds kept: they are charged by the object-count quota). */
export function decodeManifest(text: string, source: string): KObject[] {
  const d = decodeText(text, source, { keepUnknownKinds: true, maxBytes: 16 * 1024 * 1024, maxDocuments: 10_000 });
  if (d.errors.length > 0) throw new UsageError(formatProblem(d.errors[0]!));
  return d.objects;
}

export function addSourceOptions(cmd: Command): Command {
  return cmd
    .option('--state <path>', 'a file or folder of Kubernetes objects instead of the live cluster')
    .option('--kubeconfig <path>', 'kubeconfig file (live cluster)')
    .option('--context <name>', 'kubeconfig context (live cluster)')
    .addOption(new Option('--k8s-version <version>', 'Kubernetes version whose wording to use').default('1.35'));
}

async function runSimulate(opts: SourceFlags & { file: string; namespace?: string; json?: boolean; k8sVersion?: string }, io: Io, check: boolean): Promise<number> {
  const text = await readInput(opts.file, io);
  const objects = decodeManifest(text, opts.file === '-' ? '<stdin>' : opts.file);
  const source = await openSource(opts);
  try {
    const loaded = await source.load({ namespaces: [...new Set(objects.map((o) => o.metadata.namespace ?? opts.namespace ?? 'default'))] });
    if (loaded.errors.some((e) => e.resource === 'state')) throw new UsageError(loaded.errors.find((e) => e.resource === 'state')!.message);
    // `replicas: 1000000000` expanded to a billion pods and ran out of heap: simulate at most MAX_CLI_PODS, and say so.
    // A Secret in the manifest is admitted by kind and name only: `--json` prints each object as stored,
    // and printed its `data`/`stringData` values (SECURITY.md: never echoed, not even the user's own).
    const bounded = boundWorkloads(objects.map(redactSecrets), MAX_CLI_PODS);
    const out = simulate(loaded.snapshot, bounded.objects, { namespace: opts.namespace, k8sVersion: opts.k8sVersion, now: Date.now() });
    const warnings = [...loaded.warnings, ...loaded.errors.map((e) => `could not read ${e.resource}${e.namespace ? ` in ${e.namespace}` : ''}: ${e.message}`), ...bounded.warnings, ...out.warnings];
    const failed = out.results.some((r) => !r.admission.allowed || (r.scheduling !== null && !r.scheduling.scheduled));
    if (opts.json) io.stdout(JSON.stringify(simResultsToJson({ results: out.results, warnings }), null, 2) + '\n');
    else io.stdout(renderSimulation(out.results, warnings, { check }) + '\n');
    return check && failed ? 1 : 0;
  } finally {
    await source.close();
  }
}

export function buildProgram(io: Io, setCode: (n: number) => void): Command {
  const program = new Command('quota-doctor')
    .description('Why was my pod rejected, or why is it Pending — and the smallest change that fixes it.')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr, outputError: (s, write) => write(s) })
    .showHelpAfterError(false);

  for (const check of [false, true]) {
    const cmd = addSourceOptions(
      program
        .command(check ? 'check' : 'simulate')
        .description(check ? 'CI check: exit 1 when any object would be rejected or stay unschedulable' : 'admit (and schedule) the objects of a manifest, as the API server and scheduler would')
        .requiredOption('-f, --file <manifest>', 'manifest file (multi-document YAML or JSON; - for stdin)')
        .option('-n, --namespace <ns>', 'namespace for objects that name none')
        .option('--json', 'print JSON (docs/contract.md)'),
    );
    cmd.action(async (opts) => setCode(await runSimulate(opts, io, check)));
  }
  registerCommands(program, io, setCode);
  return program;
}

export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  // No command is bad usage (exit 2, one line), not a request for help (commander would print the whole help on stderr).
  if (argv.length === 0) {
    io.stderr('quota-doctor: missing command (simulate, check, diagnose, quota, whatif, console, start, serve); see quota-doctor --help\n');
    return 2;
  }
  let code = 0;
  const program = buildProgram(io, (n) => (code = n));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return e.exitCode === 0 ? 0 : 2;
      return 2;
    }
    if (e instanceof UsageError) {
      io.stderr(`quota-doctor: ${e.message}\n`);
      return 2;
    }
    io.stderr(`quota-doctor: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}
