/**
 * The verdict matrix of issue #16 (failure mode × command), shared by test/hardening/verdicts.test.ts (the
 * fake API server) and verdicts-strict.test.ts (the strict stand-in): the commands, as the CLI and the
 * Slack app call them, the claims that stand on data, the count of wrong verdicts, and a runner that fills
 * the matrix a few failure modes at a time (each mode has its own server; the cells wait on timeouts and
 * retries far more than they compute, so modes overlap).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type Io } from '../../src/cli/program.ts';
import { createAnswerer } from '../../src/answer/index.ts';
import { renderAnswer } from '../../src/render/text.ts';
import { createLiveSource } from '../../src/cluster/live-source.ts';

export const PASTE =
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';

export type Cell = { code: number; out: string };
export type Command = { name: string; run: (kubeconfig: string) => Promise<Cell> };

/** The CLI in process, its output (stdout and stderr) gathered. */
export async function runCli(argv: string[], stdin = ''): Promise<Cell> {
  let out = '';
  const io: Io = {
    stdout: (s) => void (out += s),
    stderr: (s) => void (out += s),
    readStdin: async () => stdin,
    isTTY: false,
  };
  return { code: await main(argv, io), out };
}

/** The eight commands of the matrix; pod files are written to a fresh temporary directory. */
export function matrixCommands(requestTimeoutMs: number): { dir: string; commands: Command[] } {
  const dir = mkdtempSync(join(tmpdir(), 'qd-verdicts-'));
  const refused = join(dir, 'refused.yaml');
  const admitted = join(dir, 'admitted.yaml');
  writeFileSync(
    refused,
    'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: team-a}\nspec: {containers: [{name: c, image: x}]}\n',
  );
  writeFileSync(
    admitted,
    'apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: team-b}\nspec: {containers: [{name: c, image: x, resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}}]}\n',
  );
  const answerer = createAnswerer();
  /** The Slack app's calls (src/slack: `/quota` → answerer.quota, a channel message → answerer.message), code 3 for "I can't". */
  const slack = (what: 'quota' | 'paste') => async (kubeconfig: string) => {
    const source = createLiveSource({ kubeconfig, env: {}, requestTimeoutMs, watch: false });
    try {
      const ctx = { source, audience: 'channel' as const, allowedNamespaces: ['team-a'], defaultNamespace: 'team-a' };
      const a = what === 'quota' ? await answerer.quota('team-a', ctx) : await answerer.message(PASTE, ctx);
      const out = a ? renderAnswer(a) : '';
      return { code: a?.replies.some((r) => r.kind === 'error') ? 3 : 0, out };
    } finally {
      await source.close();
    }
  };
  const commands: Command[] = [
    { name: 'check (quota refuses)', run: (k) => runCli(['check', '-f', refused, '--kubeconfig', k]) },
    { name: 'check (quota admits)', run: (k) => runCli(['check', '-f', admitted, '--kubeconfig', k]) },
    { name: 'simulate', run: (k) => runCli(['simulate', '-f', admitted, '--kubeconfig', k]) },
    { name: 'diagnose', run: (k) => runCli(['diagnose', '-', '-n', 'team-a', '--kubeconfig', k], PASTE) },
    { name: 'quota', run: (k) => runCli(['quota', 'team-a', '--kubeconfig', k]) },
    { name: 'whatif', run: (k) => runCli(['whatif', 'what if web scales to 8 in team-a', '--kubeconfig', k]) },
    { name: 'slack /quota', run: slack('quota') },
    { name: 'slack paste', run: slack('paste') },
  ];
  return { dir, commands };
}

/** Claims that stand on data: made from data that was not read, each is a wrong verdict. */
export const CLAIMS: readonly RegExp[] = [
  /no nodes available|0\/0 nodes/,
  /not found|I can't find/,
  /is not in team-a now/,
  /Largest pod that schedules now/,
  /more fit, stopped by node capacity/,
  /Free cpu \/ memory on untainted nodes|No untainted, schedulable node/,
  /no pod it counts holds any|held by /,
  /check passed/,
  /✓ verified/,
];

/**
 * Fills the matrix: `serve(mode)` starts that mode's server and returns its kubeconfig and a close; the
 * commands of one mode run one after another, up to `parallel` modes at once. Keys are `mode|command`.
 */
export async function fillMatrix<M extends string>(
  modes: readonly M[],
  commands: readonly Command[],
  serve: (mode: M) => Promise<{ kubeconfig: string; close: () => Promise<void> }>,
  parallel = 3,
): Promise<Map<string, Cell>> {
  const cells = new Map<string, Cell>();
  const queue = [...modes];
  const worker = async () => {
    for (let mode = queue.shift(); mode !== undefined; mode = queue.shift()) {
      const { kubeconfig, close } = await serve(mode);
      try {
        for (const c of commands) cells.set(`${mode}|${c.name}`, await c.run(kubeconfig));
      } finally {
        await close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, modes.length) }, worker));
  return cells;
}

/** The wrong verdicts: a cell that decides (not 3) differently from the full read, or makes a claim it does not. */
export function wrongVerdicts<M extends string>(
  cells: ReadonlyMap<string, Cell>,
  modes: readonly M[],
  commands: readonly Command[],
  claims: readonly RegExp[] = CLAIMS,
): { cells: number; wrong: string[] } {
  const wrong: string[] = [];
  let n = 0;
  for (const mode of modes) {
    if (mode === 'none') continue;
    for (const c of commands) {
      n++;
      const truth = cells.get(`none|${c.name}`);
      const got = cells.get(`${mode}|${c.name}`);
      if (!truth || !got) {
        wrong.push(`${mode} × ${c.name}: not run`);
        continue;
      }
      const decidedWrong = got.code !== 3 && got.code !== truth.code;
      const claim = claims.find((re) => re.test(got.out) && !re.test(truth.out));
      if (decidedWrong || claim)
        wrong.push(`${mode} × ${c.name}: exit ${got.code} (truth ${truth.code})${claim ? ` claims ${claim}` : ''}`);
    }
  }
  return { cells: n, wrong };
}
