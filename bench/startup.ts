/**
 * Startup of the CLI, as a user's shell pays it: `node bin/quota-doctor.js …` as a fresh process, run N
 * times after W warm-ups (the page cache and V8's code cache settle), hyperfine-style wall time per run,
 * median and max. Two entries, the same bin:
 *   compiled  a package laid out as published (bin/, dist/ built by `tsc -p tsconfig.build.json`, no src/)
 *   tsx       a checkout with no dist/ (the bin's fallback: the sources compiled by tsx at each start)
 * Both are temporary folders next to the checkout's node_modules, so neither depends on whether this
 * checkout has run `npm run build`. Commands: `--help` (start-up alone) and a `check` on the demo state;
 * first, `node -e ''` (node's own start-up, the floor) so a figure taken on a loaded machine can be read.
 *
 * `npm run bench` prints it after the other tables; alone: `node --import tsx bench/startup.ts [--json]`.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface StartupRow {
  command: string;
  entry: 'compiled' | 'tsx' | 'node';
  runs: number;
  medianMs: number;
  maxMs: number;
}

const COMMANDS: { name: string; argv: string[]; code: number }[] = [
  { name: '--help', argv: ['--help'], code: 0 },
  { name: 'check demo', argv: ['check', '-f', 'examples/web-deployment.yaml', '--state', 'manifests/demo'], code: 1 },
];

function tempPackage(kind: 'compiled' | 'tsx'): string {
  const dir = mkdtempSync(join(tmpdir(), `qd-startup-${kind}-`));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(ROOT, 'bin/quota-doctor.js'), join(dir, 'bin/quota-doctor.js'));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  symlinkSync(join(ROOT, 'manifests'), join(dir, 'manifests'), 'dir');
  if (kind === 'tsx') symlinkSync(join(ROOT, 'src'), join(dir, 'src'), 'dir');
  else {
    const tsc = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        join(ROOT, 'tsconfig.build.json'),
        '--outDir',
        join(dir, 'dist'),
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (tsc.status !== 0) throw new Error(`bench: tsc failed: ${tsc.stdout}${tsc.stderr}`);
  }
  return dir;
}

function wall(dir: string | null, argv: string[], code: number): number {
  const t = performance.now();
  // Plain `node`, no --import tsx or bench flags: what `npx quota-doctor` starts.
  const r = spawnSync(process.execPath, dir === null ? ['-e', ''] : [join(dir, 'bin/quota-doctor.js'), ...argv], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '' },
  });
  const ms = performance.now() - t;
  if (r.status !== code)
    throw new Error(`bench: ${argv.join(' ')} exited ${r.status}, expected ${code}: ${r.stderr.slice(0, 300)}`);
  return ms;
}

const r1 = (x: number) => Math.round(x * 10) / 10;

export function runStartupBench(runs = 10, warmups = 2): StartupRow[] {
  const dirs = { compiled: tempPackage('compiled'), tsx: tempPackage('tsx') };
  try {
    const rows: StartupRow[] = [];
    const measure = (dir: string | null, argv: string[], code: number): { medianMs: number; maxMs: number } => {
      for (let i = 0; i < warmups; i++) wall(dir, argv, code);
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(wall(dir, argv, code));
      if (process.env.BENCH_TIMES)
        process.stderr.write(`    ${dir ?? 'node'} ${argv.join(' ')} runs: ${times.map(r1).join(' ')}\n`);
      const sorted = [...times].sort((a, b) => a - b);
      return { medianMs: r1(sorted[Math.floor(sorted.length / 2)]!), maxMs: r1(sorted.at(-1)!) };
    };
    rows.push({ command: "-e ''", entry: 'node', runs, ...measure(null, [], 0) });
    for (const c of COMMANDS) {
      for (const entry of ['compiled', 'tsx'] as const)
        rows.push({ command: c.name, entry, runs, ...measure(dirs[entry], c.argv, c.code) });
    }
    return rows;
  } finally {
    for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true });
  }
}

export function startupBenchTable(rows: StartupRow[]): string {
  const runs = rows[0]?.runs ?? 0;
  const w = Math.max(...rows.map((r) => r.command.length));
  const lines = [
    `CLI startup, node bin/quota-doctor.js as a new process (ms, ${runs} runs after warm-ups; target --help compiled ≤ 300)`,
  ];
  for (const r of rows)
    lines.push(
      `  ${r.command.padEnd(w)}  ${r.entry.padEnd(8)}  median ${String(r.medianMs).padStart(7)}  max ${String(r.maxMs).padStart(7)}`,
    );
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = runStartupBench();
  process.stdout.write(process.argv.includes('--json') ? `${JSON.stringify(rows)}\n` : startupBenchTable(rows));
}
