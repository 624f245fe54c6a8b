/**
 * `quota-doctor mcp`: the CLI's commands as Model Context Protocol tools over stdio (docs/contract.md, "MCP").
 *
 * Five tools — `diagnose`, `simulate`, `check`, `quota`, `whatif` — each the core of the CLI command of the
 * same name (src/cli/commands/*.core.ts `…With`), so a tool's `structuredContent` is what `<command> --json`
 * prints and its text is what the command prints without `--json`. Input and output schemas are the zod
 * schemas of the JSON contract (src/contract/schemas.ts).
 *
 * The access policy is the bot's (src/answer/policy.ts): an allow-list of namespaces (`--namespaces`,
 * default every namespace, as the CLI) becomes one `Visibility`; a call that names, reads or would show a
 * namespace outside it gets the one refusal (`refusalAnswer`), as an error result that names nothing else.
 */
import { readFileSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ClusterSource } from '../answer/sources.ts';
import { UsageError } from '../answer/errors.ts';
import { guardAnswer, refusalAnswer, Visibility } from '../answer/policy.ts';
import { foreignAffinityTerm } from '../answer/manifest-scope.ts';
import type { Answer } from '../answer/types.ts';
import { renderAnswer } from '../render/text.ts';
import { incompleteOfAnswer } from '../answer/verdicts.ts';
import {
  checkInputSchema,
  checkOutputSchema,
  diagnoseInputSchema,
  diagnoseOutputSchema,
  quotaInputSchema,
  quotaOutputSchema,
  simulateInputSchema,
  simulateOutputSchema,
  whatifInputSchema,
  whatifOutputSchema,
} from '../contract/schemas.ts';
import { diagnoseText, diagnoseWith } from '../cli/commands/diagnose.core.ts';
import { decodeManifest, simulateWith, simulationJson, simulationText } from '../cli/commands/simulate.core.ts';
import { quotaWith } from '../cli/commands/quota.core.ts';
import { whatifWith } from '../cli/commands/whatif.core.ts';

export interface McpOptions {
  /** The cluster, opened once for the server's life; undefined when none was named and none can be reached. */
  source: ClusterSource | undefined;
  /** Why there is no source (said by the tools that need one). */
  noSource?: string;
  /** Namespaces the tools may see; undefined = every namespace (the CLI's default). */
  allowedNamespaces?: readonly string[];
  k8sVersion?: string;
}

export const TOOL_NAMES = ['diagnose', 'simulate', 'check', 'quota', 'whatif'] as const;

function packageVersion(): string {
  try {
    const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    return typeof pkg === 'object' && pkg !== null && 'version' in pkg && typeof pkg.version === 'string'
      ? pkg.version
      : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** The JSON a command prints, as a plain object (what `JSON.parse` of its `--json` output gives). */
function plain(json: unknown): Record<string, unknown> {
  const value: unknown = JSON.parse(JSON.stringify(json));
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('a tool result must be a JSON object');
  return Object.fromEntries(Object.entries(value));
}

function ok(json: unknown, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: plain(json) };
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The one refusal, rendered as the CLI would print it. */
function refused(detail?: string): CallToolResult {
  return failure(renderAnswer(refusalAnswer(detail)));
}

const isRefusal = (a: Answer): boolean => a.replies.some((r) => r.kind === 'refusal');

/** The server, and a promise that settles once no tool call is running (stdin may end before the last reply). */
export function createMcpServer(opts: McpOptions): { server: McpServer; idle: () => Promise<void> } {
  const running = new Set<Promise<CallToolResult>>();
  const visibility = Visibility.of(opts.allowedNamespaces);
  const allowed = visibility.list();
  // With an allow-list the reader may not see everything: internal and API error text is reduced (src/answer/gaps.ts).
  const audience = visibility.seesEverything ? ('operator' as const) : ('channel' as const);
  const server = new McpServer({ name: 'quota-doctor', version: packageVersion() });

  const needSource = (): ClusterSource => {
    if (!opts.source)
      throw new UsageError(opts.noSource ?? 'no cluster: start the server with --state PATH, or with a kubeconfig');
    return opts.source;
  };

  /** A tool's body, with bad input (UsageError) and anything unexpected turned into an error result. */
  const run = async (body: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    if (visibility.seesNothing) return refused();
    try {
      return await body();
    } catch (e) {
      if (e instanceof UsageError) return failure(`quota-doctor: ${e.message}`);
      return failure(
        `quota-doctor: internal error${audience === 'operator' ? `: ${e instanceof Error ? e.message : String(e)}` : ''}`,
      );
    }
  };
  const guarded = (body: () => Promise<CallToolResult>): Promise<CallToolResult> => {
    const p = run(body);
    running.add(p);
    void p.finally(() => running.delete(p));
    return p;
  };

  server.registerTool(
    'diagnose',
    {
      title: 'Diagnose a Kubernetes error',
      description:
        'Explain pasted text (kubectl errors, events, describe output, Status JSON, manifests): which admission layer refused the pod (LimitRange, ResourceQuota) or why it is Pending (scheduler), the numbers, and fixes re-simulated against the cluster. Same JSON as `quota-doctor diagnose --json`.',
      inputSchema: diagnoseInputSchema,
      outputSchema: diagnoseOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ text, namespace }) =>
      guarded(async () => {
        if (namespace !== undefined && !visibility.allows(namespace)) return refused();
        const out = await diagnoseWith(opts.source, {
          text,
          namespace,
          k8sVersion: opts.k8sVersion,
          allowedNamespaces: allowed,
          audience,
        });
        // diagnose refuses a manifest whose affinity reaches outside (saying which term); the guard, anything else.
        if (isRefusal(out.answer)) return failure(renderAnswer(out.answer));
        if (isRefusal(guardAnswer(out.answer, visibility))) return refused();
        return ok(out.json, diagnoseText(out));
      }),
  );

  const simulation =
    (check: boolean) =>
    ({ manifest, namespace }: { manifest: string; namespace?: string }) =>
      guarded(async () => {
        if (namespace !== undefined && !visibility.allows(namespace)) return refused();
        const objects = decodeManifest(manifest, '<manifest>');
        // Before anything is read: every object's namespace visible, and no affinity term reaching outside them.
        if (visibility.forbidden(objects.map((o) => o.metadata.namespace ?? namespace ?? 'default')).length > 0)
          return refused();
        const term = foreignAffinityTerm(objects, visibility);
        if (term !== undefined) return refused(term);
        const run = await simulateWith(needSource(), objects, {
          namespace,
          k8sVersion: opts.k8sVersion,
        });
        if (visibility.forbidden(run.results.map((r) => r.namespace)).length > 0) return refused();
        const json = simulationJson(run);
        const verdict = run.verdict === 'fails' ? 'fail' : run.verdict === 'unknown' ? 'unknown' : 'pass';
        return ok(check ? { ...json, verdict } : json, simulationText(run, check));
      });

  server.registerTool(
    'simulate',
    {
      title: 'Simulate a manifest',
      description:
        'Admit (and schedule) the objects of a manifest as the API server and scheduler would, against the cluster now, without changing it: per object, the admission decision and exact message, quota usage, and the node or the FailedScheduling message. Same JSON as `quota-doctor simulate --json`.',
      inputSchema: simulateInputSchema,
      outputSchema: simulateOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    simulation(false),
  );

  server.registerTool(
    'check',
    {
      title: 'Check a manifest (CI verdict)',
      description:
        'Like simulate, with a verdict: "fail" when any object would be rejected or stay unschedulable (the exit status 1 of `quota-doctor check`), else "pass". Same JSON as `quota-doctor check --json`, plus `verdict`.',
      inputSchema: checkInputSchema,
      outputSchema: checkOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    simulation(true),
  );

  server.registerTool(
    'quota',
    {
      title: 'Namespace headroom',
      description:
        'Headroom of a namespace: its ResourceQuotas (hard, used, free), LimitRange defaults, how many more default pods and replicas of each workload fit, the largest pod that schedules now, Pending pods. Same JSON as `quota-doctor quota NS --json`.',
      inputSchema: quotaInputSchema,
      outputSchema: quotaOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ namespace }) =>
      guarded(async () => {
        if (!visibility.allows(namespace)) return refused();
        const a = await quotaWith(needSource(), namespace);
        if (isRefusal(guardAnswer(a, visibility))) return refused();
        // Undecided (the namespace's quotas could not be read): the lines saying what was not read, no numbers.
        if (a.undecided) return failure(renderAnswer(a));
        return ok(a.data, renderAnswer(a));
      }),
  );

  server.registerTool(
    'whatif',
    {
      title: 'What if …',
      description:
        'Answer a what-if against the cluster, simulated, nothing changed: "what if web scales to 8", "what if web requests 250m cpu", "raise pods of team-quota to 14", "what if the limitrange defaults max cpu is 4", "what if node-3 goes down", "roll out web", "why is web pending", "what is wrong in team-a". Same JSON as `quota-doctor whatif --json`.',
      inputSchema: whatifInputSchema,
      outputSchema: whatifOutputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ question, namespace }) =>
      guarded(async () => {
        if (namespace !== undefined && !visibility.allows(namespace)) return refused();
        const a = await whatifWith(needSource(), { question, namespace, allowedNamespaces: allowed, audience });
        if (isRefusal(a)) return refused();
        // The same JSON as `whatif --json`: the converged change when the what-if is one.
        const whatif = a.json && a.replies[0]?.kind === 'whatif' ? { whatif: a.json } : {};
        return ok({ replies: a.replies, ...whatif, incomplete: incompleteOfAnswer(a) }, renderAnswer(a));
      }),
  );

  const idle = async (): Promise<void> => {
    while (running.size > 0) await Promise.allSettled([...running]);
  };
  return { server, idle };
}

/** Serves over stdio until the client closes stdin (or the transport closes); then closes the source. */
export async function serveStdio(
  opts: McpOptions,
  stdin: Readable = process.stdin,
  stdout: Writable = process.stdout,
): Promise<void> {
  const { server, idle } = createMcpServer(opts);
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  // The replies to calls still running are sent before the transport closes.
  // (A macrotask after the last handler settles: the SDK validates and sends its result in microtasks.)
  const end = () =>
    void idle()
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(() => server.close());
  stdin.once('end', end);
  stdin.once('close', end);
  await server.connect(transport);
  try {
    await closed;
  } finally {
    stdin.off('end', end);
    stdin.off('close', end);
    await opts.source?.close();
  }
}
