/**
 * The real entry point, `node bin/quota-doctor.js …` (what `npx quota-doctor` runs after `npm ci`): exit
 * codes reach the shell and bad input prints one line, no stack trace. Few on purpose: each costs ~1 s.
 */
import { describe, expect, it } from 'vitest';
import { MANIFESTS, STACK_TRACE, STATES, runBin } from './harness.ts';

describe('node bin/quota-doctor.js', () => {
  it('simulate --help exits 0', () => {
    const r = runBin(['simulate', '--help']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: quota-doctor simulate \[options\]/);
  });

  it('check exits 1 on a quota refusal, the reason on stdout', () => {
    const r = runBin(['check', '-f', `${MANIFESTS}/cli/web.yaml`, '--state', `${STATES}/budget-folder`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('pods "web" is forbidden: exceeded quota: budget, requested: pods=1, used: pods=2, limited: pods=2\n');
  });

  it.each([
    { what: 'a bad quantity', file: `${MANIFESTS}/bad/cpu-1.5.5.yaml`, field: 'spec.containers[0].resources.requests.cpu' },
    { what: 'a YAML alias bomb', file: `${MANIFESTS}/bad/billion-laughs.yaml`, field: '' },
  ])('exits 2 on $what: one line naming the file, no stack trace', ({ file, field }) => {
    const r = runBin(['simulate', '-f', file, '--state', `${STATES}/pods-3.yaml`, '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stderr.split('\n')).toEqual([expect.stringMatching(/^quota-doctor: /), '']);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain(field);
  });

  it('start without Slack env, stdin piped: the console answers the paste on the demo cluster and exits 0', () => {
    const r = runBin(['start'], 'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10\n');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ResourceQuota team-quota');
    expect(r.stdout).toContain('worker-5d8c7b9f4-glpms');
    // The demo cluster was read: the fixes name team-a's own workloads and quota.
    expect(r.stdout).toContain("kubectl -n team-a patch resourcequota team-quota --type merge -p '{\"spec\":{\"hard\":{\"pods\":\"11\"}}}'");
  });
});
