/**
 * Paste-parser benchmark: `parsePaste` over 1 MB inputs of several shapes (issue acceptance: any 1 MB
 * input parsed in under 100 ms). Each shape is built once, then parsed `RUNS` times after a warm-up;
 * the figures are the median and the maximum of those runs.
 *
 *   node --import tsx bench/parse.ts          prints a table
 *   node --import tsx bench/parse.ts --json   prints the rows as JSON
 *   node --import tsx bench/parse.ts --warmups N   N untimed runs per shape instead of 1
 *
 * `runParseBench()` is what `npm run bench` calls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parsePaste } from '../src/parse/index.ts';
import { prng } from '../test/support/prng.ts';

export interface ParseBenchRow {
  shape: string;
  medianMs: number;
  maxMs: number;
}

const MB = 1024 * 1024;
const RUNS = 7;

function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

function randomPrintable(rnd: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(String.fromCharCode(32 + Math.floor(rnd() * 95)));
  return out.join('');
}

function fixtures(): string {
  const dir = join(fileURLToPath(new URL('.', import.meta.url)), '..', 'test', 'fixtures', 'pastes');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

const SMALL_MANIFEST = `apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: team-a
spec:
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests:
        cpu: 500m
        memory: 256Mi
      limits:
        cpu: "1"
        memory: 512Mi
---
`;

const KEYWORD_LINES = [
  'pods "web-1" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=9, limited: requests.cpu=10',
  'Error creating: pods "w-" is forbidden: failed quota: q: must specify limits.cpu for: app; limits.memory for: app',
  'pods "b" is forbidden: [maximum cpu usage per Pod is 2, but limit is 2400m., maximum memory usage per Pod is 2Gi, but limit is 2306867200.]',
  '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
  'The Pod "w" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
  '  Warning  Evicted  3m  kubelet  The node was low on resource: memory. Container app was using 1Gi, which exceeds its request of 0.',
  'Last State: Terminated Reason: OOMKilled Exit Code: 137 status unknown for quota: q, resources: pods',
  'Quota \'CPUS\' exceeded.  Limit: 24.0 in region us-central1. admission webhook "x" denied the request: no',
].join('\n');

/** The shapes measured: name → 1 MB of text. */
export function parseBenchShapes(): [string, () => string][] {
  return [
    ['fixtures repeated to 1 MB', () => repeatTo(`${fixtures()}\n`, MB)],
    ['random printable, 1 MB', () => randomPrintable(prng(1), MB)],
    ['random 80-column lines, 1 MB', () => randomPrintable(prng(2), MB).replace(/(.{79})./g, '$1\n')],
    ['one small manifest repeated to 1 MB', () => repeatTo(SMALL_MANIFEST, MB)],
    [
      '1 MB of one long line',
      () =>
        repeatTo(
          'pods "x" is forbidden: exceeded quota: q, requested: cpu=1, used: cpu=2, limited: cpu=2 0/3 nodes are available: 3 Insufficient cpu, ',
          MB,
        ),
    ],
    ['keyword-dense lines, 1 MB', () => repeatTo(`${KEYWORD_LINES}\n`, MB)],
  ];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

/**
 * Median and maximum `parsePaste` time per shape (after `warmups` untimed runs each). The first runs of
 * a process are slower while V8 optimizes the parsers: with one warm-up the maximum is the first timed
 * run, in practice.
 */
export function runParseBench(runs = RUNS, warmups = 1): ParseBenchRow[] {
  const rows: ParseBenchRow[] = [];
  for (const [shape, make] of parseBenchShapes()) {
    const text = make();
    for (let i = 0; i < warmups; i++) parsePaste(text);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      parsePaste(text);
      times.push(performance.now() - t0);
    }
    rows.push({ shape, medianMs: round(median(times)), maxMs: round(Math.max(...times)) });
  }
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const w = process.argv.indexOf('--warmups');
  const warmups = w > 0 ? Number(process.argv[w + 1]) : 1;
  const rows = runParseBench(RUNS, Number.isInteger(warmups) && warmups >= 0 ? warmups : 1);
  if (process.argv.includes('--json')) console.log(JSON.stringify(rows, null, 2));
  else {
    const w = Math.max(...rows.map((r) => r.shape.length));
    console.log(`${'shape'.padEnd(w)}  median ms  max ms`);
    for (const r of rows)
      console.log(`${r.shape.padEnd(w)}  ${String(r.medianMs).padStart(9)}  ${String(r.maxMs).padStart(6)}`);
  }
}
