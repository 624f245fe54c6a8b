/**
 * The rollout what-if through converge on the demo cluster (issue 15: "api rolls out with 770m cpu" — the
 * surge pod is refused by pods 10/10 and the rollout stalls), and its `whatif --json` form: the template
 * change and its command, the outcome per workload, the settings that complete as fixes in diagnose's shape.
 * The Deployment controller is controllers/deployment.ts (upstream pkg/controller/deployment/rolling.go).
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readStateFiles } from '../../../src/cluster/file-source.ts';
import { parseCommand } from '../../../src/engine/changes/command.ts';
import { changeAnswerJson, findWorkload, rolloutFixes, whatIfRollout } from '../../../src/engine/whatif/index.ts';

const DEMO = fileURLToPath(new URL('../../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const demo = readStateFiles(DEMO, { now: NOW }).snapshot;

describe('whatif rollout through converge (demo)', () => {
  it('api with 770m cpu: the surge pod is refused by pods 10/10, the rollout stalls; the fixes parse back', () => {
    const api = findWorkload(demo, 'api', undefined, ['team-a'])!;
    const a = whatIfRollout(demo, api, { now: NOW }, [{ field: 'requests', resource: 'cpu', value: '770m' }]);
    expect(a.run.completed).toBe(false);
    expect(a.surgeTally).toMatchObject({ attempted: 1, admitted: 0, rejected: 1 });
    expect(a.surgeTally.rejections[0]!.message).toMatch(
      /exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10$/,
    );
    const json = changeAnswerJson(a.converged, rolloutFixes(a));
    expect(json.change).toEqual({
      kind: 'setResources',
      target: { kind: 'Deployment', namespace: 'team-a', name: 'api' },
      container: 'api',
      requests: { cpu: '770m' },
      command: 'kubectl -n team-a set resources deploy/api -c api --requests=cpu=770m',
    });
    const apiOutcome = json.outcome.find((o) => o.name === 'api')!;
    expect(apiOutcome).toMatchObject({ kind: 'Deployment', stalled: true, updated: 0 });
    expect(apiOutcome.refused).toMatch(
      /exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10$/,
    );
    expect(json.fixes.length).toBe(a.alternatives.filter((x) => x.run.completed).length);
    for (const f of json.fixes) {
      expect(f).toMatchObject({ who: 'app-team', verified: true });
      expect(parseCommand(f.change)).toMatchObject({ kind: 'rolloutStrategy' });
    }
  });
});
