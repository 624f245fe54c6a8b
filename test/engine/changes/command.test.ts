/**
 * The command we print is the command we simulate: every rendered command parses back to the same change,
 * and the exact text is what a person pastes into a shell with kubectl 1.32+.
 */
import { describe, expect, it } from 'vitest';
import { parseCommand, renderCommand, shellWords } from '../../../src/engine/changes/command.ts';
import type { Change } from '../../../src/engine/changes/types.ts';

const api = { kind: 'Deployment', namespace: 'team-a', name: 'api' };

const TABLE: { change: Change; command: string }[] = [
  { change: { kind: 'scale', target: api, replicas: 2 }, command: 'kubectl -n team-a scale deploy/api --replicas=2' },
  {
    change: { kind: 'scale', target: { kind: 'StatefulSet', namespace: 'team-a', name: 'redis' }, replicas: 0 },
    command: 'kubectl -n team-a scale statefulset/redis --replicas=0',
  },
  {
    change: { kind: 'setResources', target: api, container: 'api', requests: { cpu: '770m', memory: '1Gi' } },
    command: 'kubectl -n team-a set resources deploy/api -c api --requests=cpu=770m,memory=1Gi',
  },
  {
    change: {
      kind: 'setResources',
      target: { kind: 'Deployment', namespace: 'team-b', name: 'report-gen' },
      container: 'app',
      requests: { cpu: '250m' },
      limits: { cpu: '500m', memory: '512Mi' },
    },
    command:
      'kubectl -n team-b set resources deploy/report-gen -c app --limits=cpu=500m,memory=512Mi --requests=cpu=250m',
  },
  {
    change: {
      kind: 'patch',
      target: api,
      type: 'json',
      body: [
        {
          op: 'add',
          path: '/spec/template/spec/tolerations',
          value: [{ key: 'pool', operator: 'Equal', value: "it's", effect: 'NoSchedule' }],
        },
      ],
    },
    command: `kubectl -n team-a patch deploy/api --type json -p '[{"op":"add","path":"/spec/template/spec/tolerations","value":[{"key":"pool","operator":"Equal","value":"it'\\''s","effect":"NoSchedule"}]}]'`,
  },
  {
    change: {
      kind: 'patch',
      target: api,
      type: 'strategic',
      body: { spec: { template: { spec: { containers: [{ name: 'api', image: 'api:2' }] } } } },
    },
    command: `kubectl -n team-a patch deploy/api --type strategic -p '{"spec":{"template":{"spec":{"containers":[{"name":"api","image":"api:2"}]}}}}'`,
  },
  {
    change: {
      kind: 'patch',
      target: { kind: 'Node', name: 'general-c-2' },
      type: 'merge',
      body: { metadata: { labels: { x: 'y' } } },
    },
    command: `kubectl patch node/general-c-2 --type merge -p '{"metadata":{"labels":{"x":"y"}}}'`,
  },
  {
    change: {
      kind: 'apply',
      objects: [
        {
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: { name: 'q', namespace: 'a' },
          spec: { hard: { pods: '5' } },
        },
      ],
    },
    command: `echo '{"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q","namespace":"a"},"spec":{"hard":{"pods":"5"}}}' | kubectl apply -f -`,
  },
  {
    change: {
      kind: 'apply',
      objects: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } },
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p', namespace: 'a' },
          spec: { containers: [{ name: 'c', image: 'i' }] },
        },
      ],
    },
    command: `echo '{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a"}},{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"a"},"spec":{"containers":[{"name":"c","image":"i"}]}}],"metadata":{}}' | kubectl apply -f -`,
  },
  { change: { kind: 'cordon', node: 'general-a-1' }, command: 'kubectl cordon general-a-1' },
  { change: { kind: 'uncordon', node: 'general-c-2' }, command: 'kubectl uncordon general-c-2' },
  {
    change: { kind: 'drain', node: 'general-b-1' },
    command: 'kubectl drain general-b-1 --ignore-daemonsets --delete-emptydir-data',
  },
  {
    change: { kind: 'drain', node: 'general-b-1', force: true },
    command: 'kubectl drain general-b-1 --ignore-daemonsets --delete-emptydir-data --force',
  },
  {
    change: { kind: 'quota', namespace: 'team-a', name: 'team-quota', hard: { pods: '14' } },
    command: `kubectl -n team-a patch resourcequota/team-quota --type merge -p '{"spec":{"hard":{"pods":"14"}}}'`,
  },
  {
    change: {
      kind: 'limitRange',
      namespace: 'team-a',
      name: 'defaults',
      limits: [{ type: 'Container', maxLimitRequestRatio: { cpu: '20' } }],
    },
    command: `kubectl -n team-a patch limitrange/defaults --type merge -p '{"spec":{"limits":[{"type":"Container","maxLimitRequestRatio":{"cpu":"20"}}]}}'`,
  },
  {
    change: { kind: 'priorityClass', target: api, className: 'high' },
    command: `kubectl -n team-a patch deploy/api --type merge -p '{"spec":{"template":{"spec":{"priorityClassName":"high"}}}}'`,
  },
  {
    change: { kind: 'rolloutStrategy', target: api, strategy: 'RollingUpdate', maxSurge: 0, maxUnavailable: 1 },
    command: `kubectl -n team-a patch deploy/api --type merge -p '{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":0,"maxUnavailable":1}}}}'`,
  },
  {
    change: { kind: 'rolloutStrategy', target: api, strategy: 'RollingUpdate', maxSurge: '50%' },
    command: `kubectl -n team-a patch deploy/api --type merge -p '{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"50%"}}}}'`,
  },
  {
    change: { kind: 'rolloutStrategy', target: api, strategy: 'Recreate' },
    command: `kubectl -n team-a patch deploy/api --type merge -p '{"spec":{"strategy":{"type":"Recreate","rollingUpdate":null}}}'`,
  },
  {
    change: { kind: 'deletePod', namespace: 'batch', name: 'reindex-backfill' },
    command: 'kubectl -n batch delete pod reindex-backfill',
  },
  {
    change: {
      kind: 'recreatePod',
      namespace: 'batch',
      name: 'reindex-backfill',
      container: 'app',
      requests: { cpu: '3500m' },
    },
    command:
      'kubectl -n batch get pod reindex-backfill -o json | kubectl set resources --local -f - -c app --requests=cpu=3500m -o json | kubectl replace --force -f -',
  },
];

describe('renderCommand / parseCommand', () => {
  it.each(TABLE)('$command', ({ change, command }) => {
    expect(renderCommand(change)).toBe(command);
    expect(parseCommand(command)).toEqual(change);
  });

  it('a node-pool change has no command', () => {
    expect(renderCommand({ kind: 'addNode', like: 'general-a-1', count: 1 })).toBe('');
    expect(parseCommand('')).toBeNull();
  });

  it.each([
    [
      'kubectl -n team-a patch deploy api --type=json -p \'[{"op":"remove","path":"/spec/x"}]\'',
      { kind: 'patch', target: api, type: 'json', body: [{ op: 'remove', path: '/spec/x' }] },
    ],
    [
      'kubectl scale deployment.apps/web --replicas 3 --namespace team-a',
      { kind: 'scale', target: { kind: 'Deployment', namespace: 'team-a', name: 'web' }, replicas: 3 },
    ],
    [
      'kubectl scale deploy/web --replicas=3',
      { kind: 'scale', target: { kind: 'Deployment', namespace: 'default', name: 'web' }, replicas: 3 },
    ],
  ] as const)('other spellings kubectl accepts: %s', (cmd, change) => {
    expect(parseCommand(cmd)).toEqual(change);
  });

  it.each([
    'kubectl -n team-a scale deploy/api',
    'kubectl -n team-a scale deploy/api --replicas=-1',
    'kubectl -n team-a set resources deploy/api -c api',
    "kubectl -n team-a patch deploy/api --type json -p '[{'",
    'kubectl get pods',
    'helm upgrade x',
    "echo 'x",
  ])('not a change: %s', (cmd) => {
    expect(parseCommand(cmd)).toBeNull();
  });

  it('shell words: quotes, escapes, pipes', () => {
    expect(shellWords(`a 'b c' "d \\"e\\"" f\\ g | h`)).toEqual(['a', 'b c', 'd "e"', 'f g', '|', 'h']);
    expect(shellWords(`'unterminated`)).toBeNull();
  });
});
