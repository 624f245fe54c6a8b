/**
 * Each what-if reply prints the one command its change is (engine/changes/command.ts renderCommand):
 * the command parses back to the same change, so the command printed is the change simulated.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readStateFiles } from '../../../src/cluster/file-source.ts';
import { parseCommand, renderCommand } from '../../../src/engine/changes/command.ts';
import {
  findWorkload,
  requestsChange,
  rolloutChange,
  whatIfDrain,
  whatIfLimitRange,
  whatIfQuota,
  whatIfRequests,
  whatIfRollout,
  whatIfScale,
} from '../../../src/engine/whatif/index.ts';

const DEMO = fileURLToPath(new URL('../../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const demo = readStateFiles(DEMO, { now: NOW }).snapshot;
const opts = { now: NOW };
const api = findWorkload(demo, 'api', undefined, ['team-a'])!;
const web = findWorkload(demo, 'web', undefined, ['team-a'])!;

describe('what-if commands parse back to their change', () => {
  it.each([
    ['scale', () => whatIfScale(demo, web, 6, opts).converged, 'kubectl -n team-a scale deploy/web --replicas=6'],
    [
      'requests',
      () => whatIfRequests(demo, api, 'requests', 'cpu', '770m', undefined, opts).converged,
      'kubectl -n team-a set resources deploy/api -c api --requests=cpu=770m',
    ],
    [
      'quota',
      () => whatIfQuota(demo, 'team-a', 'team-quota', 'pods', '14', opts)!.converged,
      `kubectl -n team-a patch resourcequota/team-quota --type merge -p '{"spec":{"hard":{"pods":"14"}}}'`,
    ],
    [
      'drain',
      () => whatIfDrain(demo, 'general-a-1', opts)!.converged,
      'kubectl drain general-a-1 --ignore-daemonsets --delete-emptydir-data',
    ],
    [
      'limitrange (an existing LimitRange: a JSON patch)',
      () => whatIfLimitRange(demo, 'team-a', 'defaults', 'max', 'Container', 'cpu', '4', opts)!.converged,
      `kubectl -n team-a patch limitrange/defaults --type json -p '[{"op":"add","path":"/spec/limits/0/max/cpu","value":"4"}]'`,
    ],
    [
      'limitrange (none yet: kubectl apply of a new one)',
      () => whatIfLimitRange(demo, 'kube-system', undefined, 'max', 'Container', 'cpu', '4', opts)!.converged,
      `echo '{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"limits","namespace":"kube-system"},"spec":{"limits":[{"type":"Container","max":{"cpu":"4"}}]}}' | kubectl apply -f -`,
    ],
    [
      'rollout',
      () => whatIfRollout(demo, api, opts, [{ field: 'requests', resource: 'cpu', value: '770m' }]).converged,
      'kubectl -n team-a set resources deploy/api -c api --requests=cpu=770m',
    ],
  ])('%s', (_, run, command) => {
    const a = run();
    expect(a.command).toBe(command);
    expect(parseCommand(a.command)).toEqual(a.change);
  });

  it.each([
    [
      [],
      `kubectl -n team-a patch deploy/api --type merge -p '{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-10T09:40:00.000Z"}}}}}'`,
    ],
    [
      [{ field: 'requests' as const, resource: 'cpu', value: '500m' }],
      'kubectl -n team-a set resources deploy/api -c api --requests=cpu=500m',
    ],
    [
      [
        { field: 'image' as const, value: 'api:2' },
        { field: 'limits' as const, resource: 'memory', value: '1Gi' },
      ],
      `kubectl -n team-a patch deploy/api --type strategic -p '{"spec":{"template":{"spec":{"containers":[{"name":"api","image":"api:2","resources":{"limits":{"memory":"1Gi"}}}]}}}}'`,
    ],
  ])('rollout %j', (changes, command) => {
    const c = rolloutChange(api, changes, '2026-03-10T09:40:00.000Z');
    expect(renderCommand(c)).toBe(command);
    expect(parseCommand(command)).toEqual(c);
    expect(whatIfRollout(demo, api, opts, changes).command).toBe(command);
  });

  it('a request above the limit: set with the limit in one command', () => {
    const c = requestsChange(api, 'requests', 'cpu', '4', undefined);
    expect(parseCommand(renderCommand(c))).toEqual(c);
    expect(c).toMatchObject({ requests: { cpu: '4' }, limits: { cpu: '4' } });
  });

  it('drain: --force when a pod on the node has no controller', () => {
    const d = whatIfDrain(demo, 'general-a-1', opts)!;
    expect(d.command).toBe('kubectl drain general-a-1 --ignore-daemonsets --delete-emptydir-data');
    expect(parseCommand(d.command)).toEqual({ kind: 'drain', node: 'general-a-1' });
    expect(whatIfDrain(demo, 'general-a-1', opts, 'down')!.command).toBe('');
  });
});
