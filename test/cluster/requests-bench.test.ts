/**
 * bench/requests.ts as a test: the demo figures of "requests per CLI run" (issue #16, Acceptance) are
 * exact, and the exec credential plugin runs once per run. 23 lists (one per resource the CLI reads,
 * each fitting one page of 500) + GET /version = 24 requests, no watch. At 1feafe6 (before the issue's
 * client work) the same bench measured 19 requests reaching the server (16 lists, 3 of the 16 watches it
 * opened and dropped, no /version) and 32 plugin runs per CLI run.
 */
import { describe, expect, it } from 'vitest';
import { demoTarget, measureTarget } from '../../bench/requests.ts';

describe('requests per CLI run, demo cluster (bench/requests.ts)', () => {
  it('check, quota, diagnose of team-a: 24 requests (23 lists + /version), no watch, the exec plugin run once', async () => {
    const rows = await measureTarget(demoTarget());
    expect(rows).toEqual([
      {
        cluster: 'demo',
        command: 'check -f pod.yaml (team-a)',
        requests: 24,
        lists: 23,
        watches: 0,
        version: 1,
        execRuns: 1,
        exitCode: 1,
      },
      {
        cluster: 'demo',
        command: 'quota team-a',
        requests: 24,
        lists: 23,
        watches: 0,
        version: 1,
        execRuns: 1,
        exitCode: 0,
      },
      {
        cluster: 'demo',
        command: 'diagnose paste.txt -n team-a',
        requests: 24,
        lists: 23,
        watches: 0,
        version: 1,
        execRuns: 1,
        exitCode: 0,
      },
    ]);
  }, 60_000);
});
