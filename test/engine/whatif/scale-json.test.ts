/**
 * The scale what-if on the demo cluster (manifests/demo/README.md, "What if web scales?") through
 * converge, and its `whatif --json` form (docs/contract.md, `whatif`): the command, the outcome per
 * workload, the quota raise as a fix in diagnose's shape — and the command parses back to the change.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readStateFiles } from '../../../src/cluster/file-source.ts';
import { parseCommand } from '../../../src/engine/changes/command.ts';
import { changeAnswerJson, findWorkload, scaleFixes, whatIfScale } from '../../../src/engine/whatif/index.ts';

const DEMO = fileURLToPath(new URL('../../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const demo = readStateFiles(DEMO, { now: NOW }).snapshot;
const REFUSAL = 'exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';

describe('whatif scale through converge (demo)', () => {
  it('web 4 → 8: all four refused by pods 10/10; pods 14 admits them (worker, short too, competes)', () => {
    const w = findWorkload(demo, 'web', undefined, ['team-a'])!;
    const a = whatIfScale(demo, w, 8, { now: NOW });
    expect(a.tally).toMatchObject({ attempted: 4, admitted: 0, rejected: 4, scheduled: 0, pending: 0 });
    expect(a.toGetAll).toEqual(['raise team-quota pods to 14']);
    expect(a.withRaisedQuota).toMatchObject({ attempted: 4, admitted: 4, rejected: 0, scheduled: 4 });
    const json = changeAnswerJson(a.converged, scaleFixes(a));
    expect(json.change).toEqual({
      kind: 'scale',
      target: { kind: 'Deployment', namespace: 'team-a', name: 'web' },
      replicas: 8,
      command: 'kubectl -n team-a scale deploy/web --replicas=8',
    });
    expect(parseCommand(json.change.command)).toEqual(a.converged.change);
    expect(json.outcome).toEqual([
      {
        kind: 'Deployment',
        namespace: 'team-a',
        name: 'web',
        wanted: 8,
        admitted: 4,
        scheduled: 4,
        updated: 4,
        created: 0,
        refused: expect.stringMatching(new RegExp(`^pods "web-7c5d8f9b6-[a-z0-9]{5}" is forbidden: ${REFUSAL}$`)),
        pending: [],
        stalled: true,
      },
    ]);
    expect(json.fixes).toEqual([
      {
        who: 'platform',
        summary: 'raise team-quota pods to 14',
        change: `kubectl -n team-a patch resourcequota/team-quota --type merge -p '{"spec":{"hard":{"pods":"14"}}}'`,
        verified: true,
        outcome: 'all 4 new pods admitted and scheduled',
        sideEffects: [
          'team-a/deploy/worker stays 1 pod short: it competes for the same quota (raise by 1 more for both)',
        ],
      },
    ]);
    expect(parseCommand(json.fixes[0]!.change)).toEqual(a.raise![0]);
  });

  it('worker 2 → 3 (its spec already): the ReplicaSet short of a pod tries again and is refused', () => {
    const w = findWorkload(demo, 'worker', undefined, ['team-a'])!;
    const a = whatIfScale(demo, w, 3, { now: NOW });
    expect(a.from).toBe(2);
    expect(a.tally).toMatchObject({ attempted: 1, admitted: 0, rejected: 1 });
    expect(a.toGetAll).toEqual(['raise team-quota pods to 11']);
    expect(a.withRaisedQuota).toMatchObject({ admitted: 1, scheduled: 1, rejected: 0 });
  });

  it('web 4 → 2: a scale-down frees two pods; worker takes one of them', () => {
    const w = findWorkload(demo, 'web', undefined, ['team-a'])!;
    const a = whatIfScale(demo, w, 2, { now: NOW });
    expect(a.converged.evicted).toHaveLength(2);
    expect(a.converged.workloads.find((x) => x.name === 'worker')).toMatchObject({ created: 1, complete: true });
  });
});
