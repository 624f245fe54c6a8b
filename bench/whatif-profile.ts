/**
 * The +1,000-replica scale what-if alone, on the bench's generated cluster put straight into a
 * snapshot (no fake API server): for profiling (`node --cpu-prof --import tsx bench/whatif-profile.ts`).
 *   BENCH_NODES / BENCH_PODS (default 5,000 / 150,000), BENCH_RUNS (default 5).
 */
import { Snapshot } from '../src/k8s/snapshot.ts';
import { reconcileQuotaStatus } from '../src/engine/quota-ledger.ts';
import { nodeInfoIndex } from '../src/engine/scheduler/node-info.ts';
import { findWorkload, whatIfScale, workloadPods } from '../src/engine/whatif/index.ts';
import { converge } from '../src/engine/converge.ts';
import { generateCluster } from './generate.ts';
import { createHash } from 'node:crypto';

/** A digest of everything an answer says (states left out: their pods' placements are in the events). */
function digest(x: unknown): string {
  const seen = JSON.stringify(x, (k, v) => (k === 'state' ? undefined : v instanceof Map ? [...v] : v));
  return `${createHash('sha256').update(seen).digest('hex').slice(0, 16)} (${seen.length} chars)`;
}

const nodes = Number(process.env.BENCH_NODES ?? 5000);
const pods = Number(process.env.BENCH_PODS ?? 150_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const g = generateCluster({ nodes, pods, seed: 7 });
const s = new Snapshot();
for (const o of g.objects) s.put(o);
reconcileQuotaStatus(s, Date.now());
nodeInfoIndex(s);
const w = findWorkload(s, g.bigWorkload, 'Deployment', [g.bigNamespace])!;
const r1 = (x: number) => Math.round(x * 10) / 10;
for (let i = 0; i < runs; i++) {
  const cpu0 = process.cpuUsage();
  let t = performance.now();
  const current = workloadPods(s, w).length;
  const a = whatIfScale(s, w, current + 1000);
  const whatif = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  const whatifCpu = (cpu.user + cpu.system) / 1000;
  t = performance.now();
  const d = s.get('Deployment', g.bigNamespace, g.bigWorkload)!;
  const target = { kind: 'Deployment', namespace: g.bigNamespace, name: g.bigWorkload };
  const c = converge(s, [{ kind: 'scale', target, replicas: (d.spec.replicas ?? 1) + 1000 }]);
  const conv = performance.now() - t;
  process.stderr.write(
    `what-if ${r1(whatif)} ms, cpu ${r1(whatifCpu)} ms (${a.tally.admitted} admitted, ${a.withRaisedQuota?.admitted} with the raise; answer ${digest(a)}) converge ${r1(conv)} ms (steps ${c.steps}; ${digest(c)})\n`,
  );
}
