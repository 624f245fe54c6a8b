/**
 * The bench's `fixesMs` case alone (bench/run.ts): the big namespace's `team-quota` made full on pods, a
 * ReplicaSet's "exceeded quota" refusal pasted, diagnose with its verified fixes — on the generated cluster
 * put straight into a snapshot (no fake API server), for profiling
 * (`node --cpu-prof --import tsx bench/fixes-profile.ts`). Each run prints its time, the fixes tried (the
 * verify trace: QUOTA_DOCTOR_TRACE_FIXES, counted here, not printed) and the verified ones; the first run
 * on the state also pays what is kept with it (the settled state, engine/fixes/verify.ts).
 *   BENCH_NODES / BENCH_PODS (default 5,000 / 150,000), BENCH_RUNS (default 6), BENCH_SHOW=1 prints the fixes,
 *   BENCH_WARM_PROFILE=<file> writes a CPU profile of the runs after the first (the warm answers) alone.
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { Snapshot } from '../src/k8s/snapshot.ts';
import { reconcileQuotaStatus } from '../src/engine/quota-ledger.ts';
import { nodeInfoIndex } from '../src/engine/scheduler/node-info.ts';
import { generateCluster, quotaFullCase } from './generate.ts';

process.env.QUOTA_DOCTOR_TRACE_FIXES = '1';
let tried = 0;
const write = process.stderr.write.bind(process.stderr);
const show = process.env.BENCH_SHOW === '1';
process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
  if (typeof chunk === 'string' && chunk.startsWith('fix tried: ')) {
    tried++;
    if (!show) return true;
  }
  return write(chunk, ...rest);
}) as typeof process.stderr.write;
const { diagnose } = await import('../src/answer/diagnose.ts');

const nodes = Number(process.env.BENCH_NODES ?? 5000);
const pods = Number(process.env.BENCH_PODS ?? 150_000);
const runs = Number(process.env.BENCH_RUNS ?? 6);
const g = generateCluster({ nodes, pods, seed: 7 });
const s = new Snapshot();
for (const o of g.objects) s.put(o);
reconcileQuotaStatus(s, Date.now());
nodeInfoIndex(s);
const { state: full, refusal } = quotaFullCase(s, g);
const r1 = (x: number) => Math.round(x * 10) / 10;
const warmProfile = process.env.BENCH_WARM_PROFILE;
const session = warmProfile ? new Session() : null;
for (let i = 0; i < runs; i++) {
  if (i === 1 && session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  tried = 0;
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const out = diagnose({ text: refusal, state: full, namespace: g.bigNamespace });
  const ms = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  const fixes = out.json.findings.flatMap((f) => f.fixes ?? []);
  process.stdout.write(
    `run ${i + 1}: ${r1(ms)} ms (cpu ${r1((cpu.user + cpu.system) / 1000)} ms), ${tried} tries, ${fixes.filter((f) => f.verified).length} verified${show ? `\n${fixes.map((f) => `  ${f.verified ? '✓' : '✗'} ${f.change} — ${f.outcome} [${(f.sideEffects ?? []).join('; ')}]`).join('\n')}` : ''}\n`,
  );
}
if (session && warmProfile) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(warmProfile, JSON.stringify(profile));
}
