/**
 * Bad input never crashes quota-doctor: the same hostile corpus (./inputs.ts — seeded random bytes,
 * mutated real pastes, deep nesting, alias bombs, 5 MB pastes, 100,000 documents, invalid UTF-8, absurd
 * quantities, wrong shapes, unknown kinds, a Secret) goes through
 *   1. `quota-doctor diagnose` (CLI in-process, over manifests/demo),
 *   2. `quota-doctor simulate -f FILE` (CLI in-process, over manifests/demo),
 *   3. the Slack message path (the real Bolt app, the fake Slack, createAnswerer over manifests/demo),
 *      and the message shortcut for the hand-made worst cases (it always answers).
 * Each must answer without an exception escaping, within a time bound, with a clear reply: the CLI exits
 * 0 with output or 2 with exactly one stderr line; Slack answers exactly once what the parser recognises,
 * stays silent on the rest, never posts "Something went wrong", and every payload fits Slack's limits.
 * A size cap that cut the input says so.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAnswerer } from '../../src/answer/index.ts';
import { FileSource } from '../../src/cluster/file-source.ts';
import { parsePaste } from '../../src/parse/index.ts';
import { STACK_TRACE, run } from '../cli/harness.ts';
import { CHANNEL_PLATFORM, messageEvent, startHarness, type Harness } from '../slack/harness.ts';
import { mutate, PASTE, prng, randomBytes, realPastes, specialInputs, type Input } from './inputs.ts';

const DEMO_ABS = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
/** Per input, every path. Inputs over 1 MiB parse YAML for `simulate -f` at ~1.5 s/MB (yaml package), so they get more. */
const BOUND_MS = 5_000;
const BOUND_BIG_SIMULATE_MS = 15_000;
const MiB = 1024 * 1024;
/** Bolt's HTTPReceiver refuses bodies over 4 MB with 413 (HTTPModuleFunctions `defaultBodyLimit`); Slack caps message text at 40,000 characters anyway. */
const BOLT_BODY_LIMIT = 4 * 1024 * 1024;

/** Posts through `send`; a body over Bolt's limit must be refused (413, or the socket closed mid-upload), never answered. */
async function sendOrRefused<T extends { status: number }>(bytes: number, send: () => Promise<T>): Promise<T | 'refused'> {
  if (bytes <= BOLT_BODY_LIMIT) return send();
  try {
    const r = await send();
    expect(r.status).toBe(413);
  } catch (e) {
    expect(String((e as { cause?: unknown }).cause ?? e)).toMatch(/ECONNRESET|EPIPE|other side closed/);
  }
  return 'refused';
}

const rnd = prng(0x9a7d0c7);
const special = specialInputs();
const corpus: Input[] = [
  ...special,
  ...randomBytes(rnd, 40, 4096),
  ...realPastes().map((p) => ({ name: `mutated ${p.name}`, text: mutate(p.text, rnd) })),
];

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
    expect(r.stderr.endsWith('\n') && r.stderr.split('\n').length === 2, `${what}: not one stderr line: ${r.stderr.slice(0, 300)}`).toBe(true);
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
    for (const [inp, argv] of [...corpus.map((i) => [i, ['diagnose']] as const), ...special.map((i) => [i, ['diagnose', '--state', 'manifests/demo']] as const)]) {
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
    const found = await run(['diagnose', '--state', 'manifests/demo'], (PASTE + '\n').repeat(40_000));
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
    const r = await run(['simulate', '-f', '-', '--state', 'manifests/demo', '--json'], special.find((s) => s.name === 'replicas: 1e9')!.text);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { results: unknown[]; warnings: string[] };
    expect(out.results.length).toBe(20_001);
    expect(out.warnings).toContain('Deployment team-a/d: simulated 20000 of its 1000000000 pods (quota-doctor simulates at most 20000 pods at once)');
  });

  it('a pasted manifest with a bad field is explained, not an internal error', async () => {
    const r = await run(['diagnose', '--state', 'manifests/demo'], special.find((s) => s.name === 'cpu: "1.5.5"')!.text);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pasted manifest (Pod team-a/web): spec.containers[0].resources.requests.cpu: invalid quantity "1.5.5"');
  });
});

describe('bad input: the Slack message path (real Bolt, fake Slack, real Answerer over manifests/demo)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ answerer: createAnswerer(), source: new FileSource(DEMO_ABS), deadlineMs: 10_000 });
  });
  afterAll(async () => {
    await h?.stop(); // fails if any payload broke a Slack limit
    console.log(`hardening bad-input Slack: ${corpus.length} messages + ${special.length} shortcuts; slowest ${JSON.stringify({ message: slowest.message, shortcut: slowest.shortcut })}`);
  });

  it(`every message is answered once when recognised, silent otherwise, never an error (${corpus.length} inputs)`, async () => {
    let seq = 0;
    let refused = 0;
    for (const inp of corpus) {
      const ts = `1700100000.${String(++seq).padStart(6, '0')}`;
      const t0 = performance.now();
      const res = await sendOrRefused(Buffer.byteLength(JSON.stringify(inp.text)) + 600, () => h.event(messageEvent(inp.text, { channel: CHANNEL_PLATFORM, ts })));
      await h.handle.idle();
      if (res === 'refused') {
        refused++;
        expect(h.fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts), inp.name).toHaveLength(0);
        continue;
      }
      expect(res.status, inp.name).toBe(200);
      const ms = performance.now() - t0;
      record('message', inp.name, ms);
      expect(ms, inp.name).toBeLessThan(BOUND_MS);
      const p = parsePaste(inp.text);
      // A message that @-mentions the bot is the app_mention listener's (Slack fires both): not answered here.
      const recognised = inp.text.trim() !== '' && !inp.text.includes('<@UBOT>') && (p.findings.length > 0 || p.manifests.some((m) => m.ok));
      const posts = h.fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts);
      expect(posts.length, `${inp.name}: ${posts.length} replies`).toBe(recognised ? 1 : 0);
      for (const post of posts) {
        expect(String(post.params.text).trim(), inp.name).not.toBe('');
        expect(String(post.params.text), inp.name).not.toMatch(/Something went wrong/);
      }
    }
    expect(h.logs.filter((l) => /"level":50/.test(l)), 'no error was logged').toEqual([]);
    // Only the 5 MB pastes and the 100,000 documents are over Bolt's body limit.
    expect(refused).toBe(corpus.filter((i) => Buffer.byteLength(JSON.stringify(i.text)) + 600 > BOLT_BODY_LIMIT).length);
  });

  it('a 3.5 MB paste (over the 1 MiB cap, under Bolt\'s 4 MB body limit) is answered and the reply says it was cut', async () => {
    const ts = '1700199999.000001';
    const res = await h.event(messageEvent((PASTE + '\n').repeat(25_000), { channel: CHANNEL_PLATFORM, ts }));
    expect(res.status).toBe(200);
    await h.handle.idle();
    const posts = h.fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts);
    expect(posts).toHaveLength(1);
    expect(JSON.stringify(posts[0]!.params.blocks)).toContain('only the first 1 MiB was read');
  });

  it(`the message shortcut answers every worst case exactly once (${special.length} inputs)`, async () => {
    let seq = 0;
    for (const inp of special) {
      const ts = `1700200000.${String(++seq).padStart(6, '0')}`;
      const t0 = performance.now();
      const r = await sendOrRefused(Buffer.byteLength(encodeURIComponent(JSON.stringify(inp.text))) + 1200, () => h.shortcut({ text: inp.text, ts }, { channel: CHANNEL_PLATFORM }));
      await h.handle.idle();
      if (r === 'refused') {
        expect(h.fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts), inp.name).toHaveLength(0);
        continue;
      }
      expect(r.status, inp.name).toBe(200);
      record('shortcut', inp.name, performance.now() - t0);
      expect(performance.now() - t0, inp.name).toBeLessThan(BOUND_MS);
      const threaded = h.fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts);
      const ephemeral = h.fake.respondsTo(r.id);
      expect(threaded.length + ephemeral.length, inp.name).toBe(1);
      const text = String((threaded[0]?.params ?? ephemeral[0]?.body)?.text ?? '');
      expect(text.trim(), inp.name).not.toBe('');
      expect(text, inp.name).not.toMatch(/Something went wrong/);
    }
  });
});
