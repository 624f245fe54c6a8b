/**
 * `quota NS --nodes` (the full per-node table, after the headroom) and the console's default namespace
 * (the oldest namespace with workloads: team-a on manifests/demo), through the real CLI.
 */
import { describe, expect, it } from 'vitest';
import { DEMO, json, run } from './harness.ts';

const squash = (s: string) => s.replace(/[ \t]+/g, ' ');

describe('quota NS --nodes', () => {
  it('prints the headroom, then one row per node with allocatable / requested / free of what ml uses and taints', async () => {
    const r = await run(['quota', 'ml', '--nodes', '--state', DEMO]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = squash(r.stdout);
    expect(out).toContain('📊 ml — 1 ResourceQuota, 0 LimitRanges');
    expect(out).toContain('🖥 Nodes — cpu, memory, nvidia.com/gpu (what ml uses): allocatable / requested / free');
    expect(out).toContain(
      ' node status pods cpu alloc cpu req cpu free memory alloc memory req memory free nvidia.com/gpu alloc nvidia.com/gpu req nvidia.com/gpu free taints\n',
    );
    expect(out).toContain(
      ' gpu-b-1 Ready 3/110 47810m 4 43810m 186699Mi 16Gi 170315Mi 4 1 3 nvidia.com/gpu=present:NoSchedule\n',
    );
    expect(out).toContain(
      ' general-c-2 cordoned 1/110 3920m 0 3920m 14775Mi 0 14775Mi 0 0 0 node.kubernetes.io/unschedulable:NoSchedule\n',
    );
    // headroom first, the table after it
    expect(out.indexOf('📊 ml')).toBeLessThan(out.indexOf('🖥 Nodes'));
  });

  it('without --nodes: no table, the short per-node lines only', async () => {
    const r = await run(['quota', 'ml', '--state', DEMO]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('🖥 Nodes');
    expect(squash(r.stdout)).toContain(
      'Free nvidia.com/gpu per node: gpu-b-1 3 of 4 (nvidia.com/gpu=present:NoSchedule) · gpu-a-1 2 of 4 (nvidia.com/gpu=present:NoSchedule) — the most on one node is 3, 5 in all.',
    );
  });

  it('--json holds every node and the failing workloads, with or without --nodes', async () => {
    for (const extra of [[], ['--nodes']]) {
      const r = await run(['quota', 'batch', '--state', DEMO, '--json', ...extra]);
      expect(r.code).toBe(0);
      const out = json<{
        nodes: { name: string }[];
        nodeResources: string[];
        failedCreate: { ref: string; count: number }[];
      }>(r);
      expect(out.nodes).toHaveLength(10);
      expect(out.nodeResources).toEqual(['cpu', 'memory']);
      expect(out.failedCreate.map((f) => [f.ref, f.count])).toEqual([['job/nightly-etl-29551740', 65]]);
    }
  });
});

describe('console: the default namespace', () => {
  it.each<[string, string]>([
    // the README example works in a fresh console: team-quota is team-a's
    ['raise requests.cpu of team-quota to 20', '🔮 team-quota requests.cpu 8 → 20 in team-a'],
    // a question naming no namespace is about team-a, the oldest with workloads
    ['how many pods are left', '📊 team-a: how many pods are left'],
    ['what if web scales to 8', '🔮 web 4 → 8 replicas in team-a'],
  ])('%j → %j', async (line, first) => {
    const r = await run(['console', '--state', DEMO], line);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]!.startsWith(first)).toBe(true);
  });

  it('-n wins over the default', async () => {
    const r = await run(['console', '--state', DEMO, '-n', 'team-b'], 'how many pods are left');
    expect(r.stdout.split('\n')[0]).toBe('📊 team-b: how many pods are left');
  });
});
