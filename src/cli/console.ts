/**
 * `npm start` without Slack tokens: the same bot in a terminal. Interactive on a TTY (a greeting with
 * three things to try from the demo's own troubles); piped stdin is read whole as one message,
 * answered, and the process exits (`kubectl describe pod web | npm start -s`).
 */
import { createInterface } from 'node:readline';
import { createAnswerer } from '../answer/index.ts';
import { openSource, type SourceFlags } from '../answer/sources.ts';
import { renderAnswer } from '../render/text.ts';
import type { Io } from './io.ts';
import type { AskContext } from '../answer/answerer.ts';
import type { Answer } from '../answer/types.ts';
import type { ClusterSource } from '../answer/sources.ts';
import type { Snapshot } from '../k8s/snapshot.ts';

const GREETING_EXAMPLES = [
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
  '/quota team-a',
  'what if web scales to 8 in team-a?',
];

/** A console line: `/quota NS` is the slash command; anything else is a question or a paste. */
export async function answerLine(line: string, ctx: AskContext): Promise<Answer> {
  const answerer = createAnswerer();
  const m = /^\/quota(?:\s+(\S+))?\s*$/.exec(line.trim());
  if (m) return answerer.quota(m[1], ctx);
  const asMessage = await answerer.message(line, ctx);
  return asMessage ?? answerer.question(line, ctx);
}

const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob'] as const;

/**
 * The namespace a console question means when it names none: the oldest namespace (creationTimestamp,
 * then name) with a workload, leaving out the system ones (kube-*): on the demo, team-a — so the README's
 * `raise requests.cpu of team-quota to 20` works in a fresh console.
 */
export function consoleDefaultNamespace(state: Snapshot): string | undefined {
  const created = (ns: string) => {
    const t = state.get('Namespace', undefined, ns)?.metadata.creationTimestamp;
    return t ? (typeof t === 'string' ? t : new Date(t).toISOString()) : '9999';
  };
  return state
    .namespaces()
    .filter((ns) => !ns.startsWith('kube-') && WORKLOAD_KINDS.some((k) => state.count(k, ns) > 0))
    .sort((a, b) => (created(a) < created(b) ? -1 : created(a) > created(b) ? 1 : a < b ? -1 : a > b ? 1 : 0))[0];
}

/** `-n` when given, else consoleDefaultNamespace of the cluster as first read (none when it cannot be read). */
async function defaultNamespaceOf(source: ClusterSource, flag: string | undefined): Promise<string | undefined> {
  if (flag) return flag;
  try {
    return consoleDefaultNamespace((await source.load()).snapshot);
  } catch {
    return undefined;
  }
}

/** How long input must pause before what came is one message (a terminal paste arrives within milliseconds). */
export const PASTE_IDLE_MS = 60;

/**
 * Console lines → messages. A paste is one message whatever blank lines it holds: lines are gathered
 * until the input idles for `idleMs` (a terminal delivers a paste in one burst; a person types Enter
 * after a pause), and a blank line inside the burst is kept as part of it. A message that looks
 * unfinished when the input idles (it starts like a YAML manifest, or its last line ends in `:` or `{`:
 * pastes may pause) waits for a blank line typed after a pause. An empty Enter with nothing gathered
 * just re-prompts. The clock and timers are injectable, so the rule is tested without a terminal.
 */
export class PasteReader {
  private buffer: string[] = [];
  private last = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly onMessage: (text: string) => void,
    private readonly onIdleEmpty: () => void = () => {},
    private readonly idleMs = PASTE_IDLE_MS,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** One line as readline gives it (without its newline). */
  line(line: string): void {
    const t = this.clock();
    const paused = t - this.last >= this.idleMs;
    this.last = t;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (line.trim() === '') {
      if (this.buffer.length === 0) {
        if (paused) this.onIdleEmpty();
        return;
      }
      // Enter after a pause ends the message; a blank line inside a burst belongs to the paste.
      if (paused) {
        this.flush();
        return;
      }
      this.buffer.push(line);
      this.arm();
      return;
    }
    this.buffer.push(line);
    this.arm();
  }

  /** The input ended (Ctrl-D, EOF): what was gathered is one last message. */
  end(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
  }

  private arm(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.unfinished()) this.flush();
    }, this.idleMs);
  }

  private unfinished(): boolean {
    const lines = this.buffer.filter((l) => l.trim() !== '');
    if (!lines.length) return false;
    return /^\s*(apiVersion|kind|---)/.test(lines[0]!) || /[:{]\s*$/.test(lines[lines.length - 1]!);
  }

  private flush(): void {
    const text = this.buffer.join('\n').trim();
    this.buffer = [];
    if (text) this.onMessage(text);
  }
}

export async function runConsole(io: Io, flags: SourceFlags & { namespace?: string }): Promise<number> {
  const source = await openSource({ ...flags, watch: io.isTTY });
  // -n, else the kubeconfig context's namespace, else the oldest namespace with workloads.
  const contextNs = flags.namespace ? undefined : source.contextNamespace?.();
  const defaultNamespace = await defaultNamespaceOf(source, flags.namespace ?? contextNs);
  const ctx: AskContext = { source, defaultNamespace, now: Date.now() };
  const why = flags.namespace ? '' : contextNs ? " (the kubeconfig context's)" : ' (the oldest with workloads)';
  const nsLine = defaultNamespace
    ? `Namespace: ${defaultNamespace}${why} when a question names none — say "in <namespace>" or start with -n.`
    : 'No namespace assumed: say "in <namespace>" or start with -n.';
  try {
    if (!io.isTTY) {
      const text = await io.readStdin();
      if (!text.trim()) {
        io.stdout('Nothing to answer: paste an error, an event, a manifest, or ask a question.\n');
        return 0;
      }
      io.stdout(`${renderAnswer(await answerLine(text, { ...ctx, now: Date.now() }))}\n`);
      return 0;
    }
    io.stdout(
      `quota-doctor console — ${source.describe()}\n${nsLine}\nPaste an error or a manifest, or ask. Try:\n${GREETING_EXAMPLES.map((e) => `  ${e}`).join('\n')}\nA paste is one message, blank lines and all (a manifest ends with a blank line); Ctrl-D quits.\n\n`,
    );
    const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: 'quota-doctor> ' });
    let busy = Promise.resolve();
    let closed = false;
    const reader = new PasteReader(
      (text) => {
        if (/^(quit|exit)$/i.test(text)) {
          rl.close();
          return;
        }
        busy = busy.then(async () => {
          try {
            io.stdout(`${renderAnswer(await answerLine(text, { ...ctx, now: Date.now() }))}\n\n`);
          } catch (e) {
            io.stdout(`⚠️ ${e instanceof Error ? e.message : String(e)}\n\n`);
          }
          if (!closed) rl.prompt();
        });
      },
      () => rl.prompt(),
    );
    rl.on('line', (line) => reader.line(line));
    rl.prompt();
    await new Promise<void>((resolve) => rl.once('close', () => resolve()));
    closed = true;
    reader.end();
    await busy;
    return 0;
  } finally {
    await source.close();
  }
}
