/**
 * The commands beyond simulate/check: diagnose, quota, whatif, console, start and serve.
 */
import type { Command } from 'commander';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { openSource, type SourceFlags } from '../answer/sources.ts';
import { UsageError } from '../answer/errors.ts';
import { diagnose, TRUNCATED_GAP } from '../answer/diagnose.ts';
import { createAnswerer, quotaAnswer } from '../answer/index.ts';
import { headroomJson, type Headroom } from '../answer/simulation.ts';
import { renderAnswer } from '../render/text.ts';
import type { ClusterSource } from '../answer/sources.ts';
import type { Io } from './main.ts';
import { addSourceOptions, readInput } from './main.ts';
import { runConsole } from './console.ts';

/** The bundled demo cluster (manifests/demo), for the console without a cluster. */
export function demoStatePath(): string {
  return fileURLToPath(new URL('../../manifests/demo', import.meta.url));
}

type Flags = SourceFlags & { namespace?: string; json?: boolean; k8sVersion?: string };

/** Opens a source, or none when the command can answer from the text alone (diagnose). */
async function maybeSource(flags: Flags, optional: boolean): Promise<ClusterSource | undefined> {
  try {
    return await openSource(flags);
  } catch (e) {
    if (optional) return undefined;
    throw e;
  }
}

export function registerCommands(program: Command, io: Io, setCode: (n: number) => void): void {
  addSourceOptions(
    program
      .command('diagnose')
      .description('explain pasted text (errors, events, describe output, manifests): which layer, the numbers, verified fixes')
      .argument('[file]', 'file to read (- or nothing: stdin)')
      .option('-n, --namespace <ns>', 'namespace when the text names none')
      .option('--json', 'print JSON (docs/contract.md)'),
  ).action(async (file: string | undefined, flags: Flags) => {
    const text = await readInput(file ?? '-', io);
    const explicit = !!(flags.state || process.env.QUOTA_DOCTOR_STATE || flags.kubeconfig || flags.context);
    const source = await maybeSource(flags, !explicit);
    try {
      const loaded = source ? await source.load() : undefined;
      if (loaded?.errors.some((e) => e.resource === 'state')) throw new UsageError(loaded.errors.find((e) => e.resource === 'state')!.message);
      const gaps = loaded?.errors.map((e) => `couldn't read ${e.resource}: ${e.message}`) ?? [];
      const out = diagnose({ text, state: loaded?.snapshot, namespace: flags.namespace, now: Date.now(), k8sVersion: flags.k8sVersion, gaps });
      if (flags.json) io.stdout(JSON.stringify(out.json, null, 2) + '\n');
      else {
        const nothing = 'Nothing recognised: no quota, LimitRange, scheduling or runtime error and no manifest in the text.';
        // A cap that cut the text is said even when nothing was found in the part that was read.
        io.stdout((out.recognised ? renderAnswer(out.answer) : out.truncated ? `${nothing}\n⚠ ${TRUNCATED_GAP}` : nothing) + '\n');
      }
      setCode(0);
    } finally {
      await source?.close();
    }
  });

  addSourceOptions(
    program
      .command('quota')
      .description('headroom of a namespace: quotas, LimitRange defaults, how many more pods fit')
      .argument('<namespace>')
      .option('--json', 'print JSON (docs/contract.md)'),
  ).action(async (ns: string, flags: Flags) => {
    const source = await openSource(flags);
    try {
      const loaded = await source.load({ namespaces: [ns] });
      if (loaded.errors.some((e) => e.resource === 'state')) throw new UsageError(loaded.errors.find((e) => e.resource === 'state')!.message);
      if (!loaded.snapshot.hasNamespace(ns)) throw new UsageError(`namespace ${ns} not found`);
      const a = quotaAnswer(loaded.snapshot, ns, Date.now());
      if (flags.json) io.stdout(JSON.stringify(headroomJson(a.json as Headroom), null, 2) + '\n');
      else io.stdout(renderAnswer(a) + '\n');
      setCode(0);
    } finally {
      await source.close();
    }
  });

  addSourceOptions(
    program
      .command('whatif')
      .description('answer a what-if: "what if web scales to 8", "what if node-3 goes down", …')
      .argument('<question...>')
      .option('-n, --namespace <ns>', 'namespace when the question names none')
      .option('--json', 'print JSON'),
  ).action(async (words: string[], flags: Flags) => {
    const source = await openSource(flags);
    try {
      const answer = await createAnswerer().question(words.join(' '), { source, defaultNamespace: flags.namespace, now: Date.now() });
      if (flags.json) io.stdout(JSON.stringify({ replies: answer.replies }, null, 2) + '\n');
      else io.stdout(renderAnswer(answer) + '\n');
      setCode(0);
    } finally {
      await source.close();
    }
  });

  addSourceOptions(
    program
      .command('console')
      .description('chat with the bot in the terminal (the demo cluster unless --state or a kubeconfig is given)')
      .option('-n, --namespace <ns>', 'default namespace'),
  ).action(async (flags: Flags) => {
    setCode(await runConsole(io, flags));
  });

  program
    .command('start')
    .description('Slack app when SLACK_BOT_TOKEN is set, else the local console on the demo cluster')
    .action(async () => {
      if (process.env.SLACK_BOT_TOKEN) {
        const { serve } = await import('../main.ts');
        setCode(await serve(io));
      } else {
        const state = process.env.QUOTA_DOCTOR_STATE ?? (existsSync(demoStatePath()) ? demoStatePath() : undefined);
        setCode(await runConsole(io, { state }));
      }
    });

  program
    .command('serve')
    .description('run the Slack app (HTTP or Socket Mode, from the environment)')
    .action(async () => {
      const { serve } = await import('../main.ts');
      setCode(await serve(io));
    });
}
