/**
 * Flags shared by the commands: the cluster source (`--state`, `--kubeconfig`, `--context`,
 * `--k8s-version`), accepted anywhere on the line as kubectl's global flags are; the output format
 * (`-o json|yaml`, `--json`); and the one error of a source that is bad usage rather than a gap: an
 * unreadable `--state`.
 */
import { Option, type Command } from 'commander';
import type { SourceFlags } from '../answer/sources.ts';
import { UsageError } from '../answer/errors.ts';
import type { Io } from './io.ts';

export type Flags = SourceFlags & { namespace?: string; json?: boolean; output?: string; k8sVersion?: string };

/** The source flags as options (the program and every command that reads a cluster carry the same set). */
function sourceOptions(): Option[] {
  return [
    new Option('--state <path>', 'a file or folder of Kubernetes objects instead of the live cluster'),
    new Option('--kubeconfig <path>', 'kubeconfig file (live cluster)'),
    new Option('--context <name>', 'kubeconfig context (live cluster)'),
    // No default here: without the flag, the live cluster's /version decides, else 1.35 (the engine's).
    new Option(
      '--k8s-version <version>',
      "Kubernetes version whose wording to use (default: the cluster's, else 1.35)",
    ),
  ];
}

/** The attribute names of the source flags, as commander stores them. */
export const SOURCE_KEYS = ['state', 'kubeconfig', 'context', 'k8sVersion'] as const;

export function addSourceOptions(cmd: Command): Command {
  for (const o of sourceOptions()) cmd.addOption(o);
  return cmd;
}

/**
 * The source flags on the program too, so that `quota-doctor --state X quota team-a` and
 * `quota-doctor quota team-a --state X` mean the same. Commander lets the program read its own options
 * anywhere on the line (positional options are off); this hook hands what it read to the command that
 * runs, whose own value wins when given. A command that reads no cluster (`serve`, `start`, `completion`)
 * refuses them rather than ignoring them.
 */
export function addGlobalSourceOptions(program: Command): void {
  for (const o of sourceOptions()) program.addOption(o);
  program.hook('preAction', (root, action) => {
    for (const key of SOURCE_KEYS) {
      const source = root.getOptionValueSource(key);
      if (source === undefined || source === 'default') continue;
      const declared = action.options.some((o) => o.attributeName() === key);
      if (!declared) {
        const flag = key === 'k8sVersion' ? '--k8s-version' : `--${key}`;
        throw new UsageError(`${flag} does not apply to ${action.name()}`);
      }
      const own = action.getOptionValueSource(key);
      if (own === undefined || own === 'default')
        action.setOptionValueWithSource(key, root.getOptionValue(key), source);
    }
  });
}

/** A `--state` that could not be read is exit 2 with its message, not a warning under an answer. */
export function failOnUnreadableState(errors: readonly { resource: string; message: string }[]): void {
  const state = errors.find((e) => e.resource === 'state');
  if (state) throw new UsageError(state.message);
}

export const OUTPUT_FORMATS = ['json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `-o json|yaml` (kubectl's spelling) and `--json`, kept as `-o json`. */
export function addOutputOptions(cmd: Command): Command {
  return cmd
    .addOption(
      new Option('-o, --output <format>', 'print the answer as data (docs/contract.md)').choices(OUTPUT_FORMATS),
    )
    .option('--json', 'same as -o json');
}

/** The data format asked for, or undefined for text. `--json -o yaml` is a contradiction, not a choice. */
export function outputFormat(flags: Flags): OutputFormat | undefined {
  if (flags.json && flags.output !== undefined && flags.output !== 'json')
    throw new UsageError(`--json and -o ${flags.output} contradict each other`);
  if (flags.json) return 'json';
  return flags.output === 'json' || flags.output === 'yaml' ? flags.output : undefined;
}

/** Prints the contract's JSON value as JSON or as YAML with the same content (YAML.parse gives the JSON back). */
export async function printData(io: Io, format: OutputFormat, value: unknown): Promise<void> {
  const json = JSON.stringify(value, null, 2);
  if (format === 'json') {
    io.stdout(`${json}\n`);
    return;
  }
  // The YAML library is loaded only here, not by every start (`--help` included).
  const { stringify } = await import('yaml');
  // Through JSON first, so YAML holds exactly what JSON would (no undefined, no Dates, no class instances);
  // lineWidth 0: long messages stay on one line, as in the JSON.
  io.stdout(stringify(JSON.parse(json), { lineWidth: 0 }));
}
