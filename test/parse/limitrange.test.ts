import { describe, expect, it } from 'vitest';
import { findLimitRange } from '../../src/parse/limitrange.ts';
import { normalizePaste } from '../../src/parse/normalize.ts';

const find = (text: string) => findLimitRange(normalizePaste(text));

describe('findLimitRange', () => {
  it.each([
    [
      'v1.35 min request',
      'pods "constraints-mem-demo-3" is forbidden: minimum memory usage per Container is 500Mi, but request is 100Mi',
      [{ scope: 'Container', resource: 'memory', bound: 'min', limit: '500Mi', actual: '100Mi' }],
      undefined,
    ],
    [
      'trailing period (docs)',
      'pods "constraints-mem-demo-2" is forbidden: maximum memory usage per Container is 1Gi, but limit is 1536Mi.',
      [{ scope: 'Container', resource: 'memory', bound: 'max', limit: '1Gi', actual: '1536Mi' }],
      '<1.20',
    ],
    [
      '~1.5 max against request',
      'pods "x-" is forbidden: maximum cpu usage per Container is 16, but request is 17.',
      [{ scope: 'Container', resource: 'cpu', bound: 'max', limit: '16', actual: '17' }],
      '<1.20',
    ],
    [
      'ratio %f',
      'pods "burst" is forbidden: memory max limit to request ratio per Container is 2, but provided ratio is 3.413333',
      [{ scope: 'Container', resource: 'memory', bound: 'ratio', limit: '2', actual: '3.413333' }],
      undefined,
    ],
    [
      'ratio without limit',
      'pods "req-only" is forbidden: cpu max limit to request ratio per Container is 10, but no limit is specified or limit is 0',
      [{ scope: 'Container', resource: 'cpu', bound: 'ratio', limit: '10', actual: null }],
      undefined,
    ],
    [
      'no request (two spaces)',
      'pods "no-req" is forbidden: minimum cpu usage per Pod is 100m.  No request is specified',
      [{ scope: 'Pod', resource: 'cpu', bound: 'min', limit: '100m', actual: null }],
      undefined,
    ],
    [
      'PVC',
      'persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi',
      [{ scope: 'PersistentVolumeClaim', resource: 'storage', bound: 'max', limit: '10Gi', actual: '20Gi' }],
      undefined,
    ],
    [
      'bracketed, `.,` separators, raw bytes',
      'pods "busybox2" is forbidden: [maximum cpu usage per Pod is 2, but limit is 2400m., maximum memory usage per Pod is 2Gi, but limit is 2306867200.]',
      [
        { scope: 'Pod', resource: 'cpu', bound: 'max', limit: '2', actual: '2400m' },
        { scope: 'Pod', resource: 'memory', bound: 'max', limit: '2Gi', actual: '2306867200' },
      ],
      '<1.20',
    ],
    [
      '1.1 capitalised, joined by `. `',
      'pods "x" is forbidden: [Minimum cpu usage per pod is 250m, but request is 100m. Maximum memory usage per container is 1Gi, but limit is 2Gi]',
      [
        { scope: 'Pod', resource: 'cpu', bound: 'min', limit: '250m', actual: '100m' },
        { scope: 'Container', resource: 'memory', bound: 'max', limit: '1Gi', actual: '2Gi' },
      ],
      '1.1-1.2',
    ],
  ])('%s', (_name, text, violations, version) => {
    const ms = find(text);
    expect(ms).toHaveLength(1);
    expect(ms[0]!.facts).toEqual({ violations });
    expect(ms[0]!.version).toBe(version);
  });

  it('keeps the envelope as the start of the message', () => {
    const [m] = find(
      'Error from server (Forbidden): error when creating "p.yaml": pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 2',
    );
    expect(m?.object).toEqual({ resource: 'pods', name: 'p' });
    expect(m?.message).toBe('pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 2');
  });

  it('separate messages on separate lines are separate findings', () => {
    expect(
      find(
        'pods "a" is forbidden: maximum cpu usage per Pod is 1, but limit is 2\npods "b" is forbidden: minimum cpu usage per Pod is 1, but request is 500m',
      ),
    ).toHaveLength(2);
  });
});
