/**
 * Two replicas, one answer — as two real OS processes: `node bin/quota-doctor.js serve` twice (the bin runs
 * the sources through tsx when there is no fresh dist/), configured only by the environment the Deployment
 * gives them (Slack tokens, SLACK_API_URL, PORT, QUOTA_DOCTOR_STATE, QUOTA_DOCTOR_CONFIG,
 * QUOTA_DOCTOR_DEDUPE_NAMESPACE, KUBECONFIG), behind one fake Slack (test/support/fake-slack.ts) and one
 * strict Lease server (test/support/fake-leases.ts), all on loopback. Nothing is shared between the two
 * processes but the Leases. test/slack/replicas.test.ts proves the same inside one Node process.
 *
 * "Both have processed" is observed, not slept on: the reply reaches the fake Slack, and the other
 * process's /metrics counts the dropped redelivery; then a quiet period shows no second reply comes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_BUCKETS } from '../../src/slack/lease-dedupe.ts';
import { startFakeLeases, type FakeLeases } from '../support/fake-leases.ts';
import { startFakeSlack, type FakeSlack } from '../support/fake-slack.ts';
import { postSigned, type PostResult } from '../support/sign.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BOT_TOKEN = 'xoxb-2222222222-3333333333-ProCeSsEsBoTtOkEn';
const SIGNING_SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const NS = 'quota-doctor';
const PREFIX = 'quota-doctor-dedupe-';
const CHANNEL = 'C0TEAMA';
/** The demo cluster's team-a story (manifests/demo/README.md): a paste the bot answers in thread. */
const PASTE =
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';
const START_MS = 25_000;
const REPLY_MS = 15_000;
const QUIET_MS = 1_000;

interface Replica {
  name: string;
  child: ChildProcess;
  base: string;
  output: string[];
  exited?: { code: number | null; signal: NodeJS.Signals | null };
}

let fake: FakeSlack;
let leases: FakeLeases;
let dir = '';
const replicas: Replica[] = [];
const figures: string[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

function launch(name: string, port: number, env: NodeJS.ProcessEnv): Replica {
  const child = spawn(process.execPath, [join(ROOT, 'bin/quota-doctor.js'), 'serve'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const r: Replica = { name, child, base: `http://127.0.0.1:${port}`, output: [] };
  child.stdout?.setEncoding('utf8').on('data', (d: string) => r.output.push(d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => r.output.push(d));
  child.on('exit', (code, signal) => {
    r.exited = { code, signal };
  });
  return r;
}

/** Polls until `pred` holds; throws with both processes' output when it does not within `ms`. */
async function until(what: string, ms: number, pred: () => boolean | Promise<boolean>): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (await pred()) return performance.now() - t0;
    const dead = replicas.find((r) => r.exited);
    if (dead) throw new Error(`${dead.name} exited (${JSON.stringify(dead.exited)}):\n${dead.output.join('')}`);
    if (performance.now() - t0 > ms) {
      throw new Error(
        `timed out after ${ms} ms waiting for ${what}\n${replicas.map((r) => `--- ${r.name}\n${r.output.join('')}`).join('\n')}`,
      );
    }
    await new Promise((res) => setTimeout(res, 50));
  }
}

async function get(r: Replica, path: string): Promise<{ status: number; text: string }> {
  try {
    const res = await fetch(`${r.base}${path}`, { signal: AbortSignal.timeout(2000) });
    return { status: res.status, text: await res.text() };
  } catch {
    return { status: 0, text: '' };
  }
}

/** quota_doctor_slack_duplicates_total{type="message"} on one process's /metrics. */
async function duplicates(r: Replica): Promise<number> {
  const { text } = await get(r, '/metrics');
  const m = /^quota_doctor_slack_duplicates_total\{type="message"\} (\d+)$/m.exec(text);
  return m ? Number(m[1]) : 0;
}

/** A signed Events API delivery of a channel message, as Slack sends it (a retry carries x-slack-retry-num). */
function deliver(r: Replica, ts: string, eventId: string, retryNum?: number): Promise<PostResult> {
  const body = JSON.stringify({
    token: 'legacyVerificationTok3n',
    team_id: 'T0FAKE',
    api_app_id: 'A0QD',
    event: { type: 'message', channel: CHANNEL, channel_type: 'channel', user: 'U0BOB', text: PASTE, ts },
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: 'T0FAKE', user_id: fake.botUserId, is_bot: true }],
  });
  return postSigned(`${r.base}/slack/events`, SIGNING_SECRET, body, {
    kind: 'json',
    ...(retryNum !== undefined ? { retryNum, retryReason: 'http_timeout' } : {}),
  });
}

const posted = (method: string, ts: string) =>
  fake.callsTo(method).filter((c) => c.params.thread_ts === ts && c.params.channel === CHANNEL).length;
const repliesTo = (ts: string) => posted('chat.postMessage', ts) + posted('chat.postEphemeral', ts);

async function stopAll(): Promise<void> {
  await Promise.all(
    replicas.map(async (r) => {
      if (r.exited || r.child.exitCode !== null) return;
      const gone = new Promise<void>((res) => r.child.once('exit', () => res()));
      r.child.kill('SIGTERM');
      const late = setTimeout(() => r.child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(late);
    }),
  );
}
/** If the worker itself goes away mid-run, take the children with it. */
const killOnExit = () => {
  for (const r of replicas) if (r.child.exitCode === null) r.child.kill('SIGKILL');
};

beforeAll(async () => {
  process.once('exit', killOnExit);
  fake = await startFakeSlack();
  leases = (await startFakeLeases()).seed(NS, PREFIX, LEASE_BUCKETS);
  dir = mkdtempSync(join(tmpdir(), 'qd-procs-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: leases, cluster: {server: "${leases.url}", insecure-skip-tls-verify: true}}]`,
      'users: [{name: bot, user: {token: lease-token}}]',
      'contexts: [{name: leases, context: {cluster: leases, user: bot}}]',
      'current-context: leases',
      '',
    ].join('\n'),
  );
  const policy = join(dir, 'policy.yaml');
  writeFileSync(
    policy,
    `channels:\n  - id: ${CHANNEL}\n    name: "#team-a"\n    namespaces: [team-a]\n    defaultNamespace: team-a\n`,
  );
  // Only what the Deployment would set: nothing inherited (no SLACK_*, no KUBECONFIG, no ~/.kube of the host).
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    QUOTA_DOCTOR_STATE: join(ROOT, 'manifests/demo'),
    QUOTA_DOCTOR_CONFIG: policy,
    QUOTA_DOCTOR_DEDUPE_NAMESPACE: NS,
    QUOTA_DOCTOR_DEDUPE_LEASE_PREFIX: PREFIX,
    // One user pastes 11 times in a few seconds here: the default 10/60 would (rightly) refuse the 11th.
    QUOTA_DOCTOR_RATE_USER: '1000/1',
    QUOTA_DOCTOR_RATE_CHANNEL: '1000/1',
    KUBECONFIG: kubeconfig,
    LOG_LEVEL: 'info',
  };
  const [pa, pb] = [await freePort(), await freePort()];
  const t0 = performance.now();
  replicas.push(launch('process A', pa, env), launch('process B', pb, env));
  for (const r of replicas) {
    await until(`${r.name} to listen`, START_MS, () =>
      r.output.join('').includes('quota-doctor is listening for Slack on /slack/events'),
    );
    await until(`${r.name} /readyz`, START_MS, async () => (await get(r, '/readyz')).status === 200);
  }
  figures.push(`both processes ready in ${Math.round(performance.now() - t0)} ms`);
  expect(fake.callsTo('auth.test')).toHaveLength(2);
  for (const r of replicas) {
    expect(r.output.join('')).toContain('cross-replica dedupe on Leases');
    expect(r.output.join('')).not.toContain('cross-replica dedupe is off');
  }
}, 40_000);

afterAll(async () => {
  await stopAll();
  process.off('exit', killOnExit);
  for (const r of replicas) expect(r.exited?.code, `${r.name} exit on SIGTERM\n${r.output.join('')}`).toBe(0);
  await fake?.close();
  await leases?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  console.log(`replicas-processes: ${figures.join('; ')}`);
}, 15_000);

describe('two `quota-doctor serve` processes behind one Slack, sharing only the Leases', () => {
  it('the event to process A, its retry (x-slack-retry-num: 1) to process B: exactly one reply', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const ts = '1701000400.000001';
    const putsBefore = leases.counts.put;
    const t0 = performance.now();
    expect((await deliver(a, ts, 'EvProcOne')).status).toBe(200);
    await until('the reply from A', REPLY_MS, () => repliesTo(ts) >= 1);
    const replied = performance.now() - t0;
    expect((await deliver(b, ts, 'EvProcOne', 1)).status).toBe(200);
    // B is done with the retry once it dropped it (or, were the dedupe broken, answered it a second time).
    await until('B to drop (or answer) the retry', REPLY_MS, async () => (await duplicates(b)) + repliesTo(ts) >= 2);
    await new Promise((res) => setTimeout(res, QUIET_MS));
    expect({
      postMessage: posted('chat.postMessage', ts),
      postEphemeral: posted('chat.postEphemeral', ts),
      duplicatesA: await duplicates(a),
      duplicatesB: await duplicates(b),
      leaseWrites: leases.counts.put - putsBefore,
    }).toEqual({ postMessage: 1, postEphemeral: 0, duplicatesA: 0, duplicatesB: 1, leaseWrites: 1 });
    // It is the bot's real answer on the demo cluster, not an error.
    const reply = fake.callsTo('chat.postMessage').find((c) => c.params.thread_ts === ts);
    expect(JSON.stringify(reply?.params)).toContain('team-quota');
    figures.push(
      `one event A→B(retry): ${repliesTo(ts)} reply (first reply ${Math.round(replied)} ms, total ${Math.round(performance.now() - t0)} ms incl. ${QUIET_MS} ms quiet)`,
    );
  });

  it('10 distinct events, each delivered to both processes at once (original to one, retry to the other): exactly 10 replies', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const N = 10;
    const tss = Array.from({ length: N }, (_, i) => `1701000500.${String(i).padStart(6, '0')}`);
    const [dupA0, dupB0] = [await duplicates(a), await duplicates(b)];
    const conflicts0 = leases.counts.conflicts;
    const t0 = performance.now();
    const sent = await Promise.all(
      tss.flatMap((ts, i) => {
        const [first, other] = i % 2 === 0 ? [a, b] : [b, a];
        return [deliver(first, ts, `EvProcMany${i}`), deliver(other, ts, `EvProcMany${i}`, 1)];
      }),
    );
    expect(sent.map((r) => r.status)).toEqual(Array(2 * N).fill(200));
    const droppedNow = async () => (await duplicates(a)) - dupA0 + ((await duplicates(b)) - dupB0);
    // Every one of the 2N deliveries is accounted for: answered, or dropped as a redelivery.
    await until(
      'every delivery answered or dropped',
      REPLY_MS,
      async () =>
        tss.every((ts) => repliesTo(ts) >= 1) &&
        tss.reduce((n, ts) => n + repliesTo(ts), 0) + (await droppedNow()) >= 2 * N,
    );
    const settled = performance.now() - t0;
    await new Promise((res) => setTimeout(res, QUIET_MS));
    const counts = tss.map(repliesTo);
    const dropped = await droppedNow();
    expect({ counts, dropped, ephemeral: tss.map((ts) => posted('chat.postEphemeral', ts)) }).toEqual({
      counts: Array(N).fill(1),
      dropped: N,
      ephemeral: Array(N).fill(0),
    });
    figures.push(
      `${N} events × 2 processes: ${counts.reduce((x, y) => x + y, 0)} replies, ${dropped} dropped, ${leases.counts.conflicts - conflicts0} Lease conflicts retried, settled in ${Math.round(settled)} ms`,
    );
  });
});
