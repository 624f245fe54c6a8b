/**
 * `quota-doctor check -f MANIFEST --state PATH`: exit 0 when everything is admitted and scheduled, 1 with
 * the reasons on stdout when anything would be refused or stay Pending (docs/contract.md), in-process.
 */
import { describe, expect, it } from 'vitest';
import { MANIFESTS, STATES, run } from './harness.ts';

const M = `${MANIFESTS}/cli`;
const S = STATES;

describe('check', () => {
  it('--help exits 0 with the usage on stdout', async () => {
    const r = await run(['check', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: quota-doctor check \[options\]/);
    expect(r.stderr).toBe('');
  });

  it('exits 0 when every object is admitted and scheduled', async () => {
    const r = await run(['check', '-f', `${M}/small.yaml`, '--state', `${S}/two-quotas.yaml`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Pod team-a/small');
  });

  it.each([
    {
      why: 'a quota refusal',
      manifest: 'web.yaml',
      state: 'budget-folder',
      reason: 'pods "web" is forbidden: exceeded quota: budget, requested: pods=1, used: pods=2, limited: pods=2',
    },
    {
      why: 'a LimitRange refusal',
      manifest: 'too-large.yaml',
      state: 'limitrange',
      reason: 'pods "too-large" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    },
    {
      why: 'an unschedulable pod',
      manifest: 'cpu-10000.yaml',
      state: 'big-cpu-list.yaml',
      reason:
        '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
    },
    {
      why: 'one of four replicas refused',
      manifest: 'web-4-replicas.yaml',
      state: 'pods-3.yaml',
      reason:
        /pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: pods-3, requested: pods=1, used: pods=3, limited: pods=3\n/,
    },
  ])('exits 1 with the reason on stdout for $why', async ({ manifest, state, reason }) => {
    const r = await run(['check', '-f', `${M}/${manifest}`, '--state', `${S}/${state}`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    if (typeof reason === 'string') expect(r.stdout).toContain(`${reason}\n`);
    else expect(r.stdout).toMatch(reason);
  });

  it('simulate answers the same inputs with exit 0 (only check says "would fail")', async () => {
    const r = await run(['simulate', '-f', `${M}/web.yaml`, '--state', `${S}/budget-folder`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pods "web" is forbidden: exceeded quota: budget');
  });
});
