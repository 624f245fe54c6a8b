/**
 * Bad input never crashes quota-doctor: the same hostile corpus (./inputs.ts — seeded random bytes,
 * mutated real pastes, deep nesting, alias bombs, 5 MB pastes, 100,000 documents, invalid UTF-8, absurd
 * quantities, wrong shapes, unknown kinds, a Secret) goes through
 *   1. `quota-doctor diagnose` (CLI in-process, over manifests/demo),
 *   2. `quota-doctor simulate -f FILE` (CLI in-process, over manifests/demo),
 *   3. the Slack message path (the real Bolt app, the fake Slack, createAnswerer over manifests/demo),
 *      and the message shortcut for the hand-made worst cases (it always answers): ./bad-input-slack.test.ts,
 *      a file of its own so the two halves run in parallel.
 * Each must answer without an exception escaping, within a time bound, with a clear reply: the CLI exits
 * 0 with output or 2 with exactly one stderr line; Slack answers exactly once what the parser recognises,
 * stays silent on the rest, never posts "Something went wrong", and every payload fits Slack's limits.
 * A size cap that cut the input says so.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STACK_TRACE, run } from '../cli/harness.ts';
import { fuzzCorpus, PASTE } from './inputs.ts';

/** Per input, every path. Inputs over 1 MiB parse YAML for `simulate -f` at ~1.5 s/MB (yaml package), so they get more (2.3 s measured for the 5 MB worst case). */
const BOUND_MS = 5_000;
const BOUND_BIG_SIMULATE_MS = 8_000;
const MiB = 1024 * 1024;
const { special, corpus } = fuzzCorpus();

const slowest: Record<string, { ms: number; name: string }> = {};
function record(path: string, name: string, ms: number): void {
  if (!slowest[path] || ms > slowest[path].ms) slowest[path] = { ms: Math.round(ms), name };
}

function expectClearCliResult(r: { code: number; stdout: string; stderr: string }, what: string): void {
  expect([0, 2], `${what}: exit ${r.code}, stderr ${r.stderr.slice(0, 300)}`).toContain(r.code);
  if (r.code === 0) {
    expect(r.stdout.trim(), `${what}: empty stdout`).not.toBe('');
  } else {
    expect(r.stdout, what).toBe('');
    expect(
      r.stderr.endsWith('\n') && r.stderr.split('\n').length === 2,
      `${what}: not one stderr line: ${r.stderr.slice(0, 300)}`,
    ).toBe(true);
    expect(r.stderr, what).not.toMatch(STACK_TRACE);
  }
  // A crash inside the engine used to surface as "internal error: Cannot read properties of undefined".
  expect(r.stderr, `${what}: ${r.stderr}`).not.toMatch(/internal error/);
}

describe('bad input: CLI in-process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'qd-hardening-'));
  beforeAll(() => {
    // No kubeconfig anywhere: `diagnose` without --state must not wander off to a real cluster.
    vi.stubEnv('KUBECONFIG', '');
    vi.stubEnv('HOME', dir);
    vi.stubEnv('KUBERNETES_SERVICE_HOST', '');
    vi.stubEnv('QUOTA_DOCTOR_STATE', '');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    console.log(`hardening bad-input CLI: ${corpus.length} inputs × 2 paths; slowest ${JSON.stringify(slowest)}`);
  });

  it(`diagnose answers all ${corpus.length} inputs from the text alone, and the ${special.length} worst cases against manifests/demo too`, async () => {
    // Every CLI run re-reads its --state (~80 ms for the demo): the bulk goes without one.
    for (const [inp, argv] of [
      ...corpus.map((i) => [i, ['diagnose']] as const),
      ...special.map((i) => [i, ['diagnose', '--state', 'manifests/demo']] as const),
    ]) {
      const t0 = performance.now();
      const r = await run([...argv], inp.text);
      const ms = performance.now() - t0;
      record('diagnose', inp.name, ms);
      expect(ms, inp.name).toBeLessThan(BOUND_MS);
      expectClearCliResult(r, `diagnose ${inp.name}`);
    }
  });

  it(`simulate -f answers all ${corpus.length} inputs`, async () => {
    for (const [i, inp] of corpus.entries()) {
      const file = join(dir, `input-${i}.yaml`);
      writeFileSync(file, inp.text);
      const t0 = performance.now();
      const r = await run(['simulate', '-f', file, '--state', 'manifests/demo']);
      const ms = performance.now() - t0;
      record('simulate', inp.name, ms);
      expect(ms, inp.name).toBeLessThan(Buffer.byteLength(inp.text) > MiB ? BOUND_BIG_SIMULATE_MS : BOUND_MS);
      expectClearCliResult(r, `simulate ${inp.name}`);
    }
  });

  it('the cut is stated: a 5 MB paste is read to 1 MiB and the answer says so, found or not', async () => {
    const found = await run(['diagnose', '--state', 'manifests/demo'], `${PASTE}\n`.repeat(40_000));
    expect(found.code).toBe(0);
    expect(found.stdout).toContain('team-quota');
    expect(found.stdout).toContain('only the first 1 MiB was read');
    const nothing = await run(['diagnose'], 'x'.repeat(5 * MiB));
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toContain('Nothing recognised');
    expect(nothing.stdout).toContain('only the first 1 MiB was read');
  });

  it('100,000 documents are refused before parsing them (too many documents), in well under a second', async () => {
    const file = join(dir, 'docs.yaml');
    writeFileSync(file, special.find((s) => s.name === '100,000-document YAML')!.text);
    const t0 = performance.now();
    const r = await run(['simulate', '-f', file]);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/too many YAML documents \(more than 10000\)/);
  });

  it('replicas: 1000000000 is simulated up to a cap, and the cut is said (it used to run out of heap)', async () => {
    const r = await run(
      ['simulate', '-f', '-', '--state', 'manifests/demo', '--json'],
      special.find((s) => s.name === 'replicas: 1e9')!.text,
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { results: unknown[]; warnings: string[] };
    expect(out.results.length).toBe(20_001);
    expect(out.warnings).toContain(
      'Deployment team-a/d: simulated 20000 of its 1000000000 pods (quota-doctor simulates at most 20000 pods at once)',
    );
  });

  it('a pasted manifest with a bad field is explained, not an internal error', async () => {
    const r = await run(
      ['diagnose', '--state', 'manifests/demo'],
      special.find((s) => s.name === 'cpu: "1.5.5"')!.text,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'pasted manifest (Pod team-a/web): spec.containers[0].resources.requests.cpu: invalid quantity "1.5.5"',
    );
  });
});
