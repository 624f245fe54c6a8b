/** answer/staleness.ts: each cluster's health as one reply line, table-driven with exact lines. */
import { describe, expect, it } from 'vitest';
import { ago, clusterGaps, STALE_BOUND_MS, staleLine } from '../../src/answer/staleness.ts';
import type { CacheHealthReport, ResourceHealth, SourceError, SourceWarning } from '../../src/cluster/source.ts';

const NOW = Date.parse('2026-03-10T10:00:00.000Z');
const min = 60_000;
const up = (resource: string, syncedAgo = 1000): ResourceHealth => ({
  resource,
  watchUp: true,
  lastSyncAt: NOW - syncedAgo,
});
const down = (resource: string, forMs: number, why: string, namespace?: string): ResourceHealth => ({
  resource,
  ...(namespace ? { namespace } : {}),
  watchUp: false,
  lastSyncAt: NOW - forMs,
  behindSince: NOW - forMs,
  why,
});
const never = (resource: string, why: string): ResourceHealth => ({ resource, watchUp: false, why });
const report = (resources: ResourceHealth[], cluster = 'prod'): CacheHealthReport => ({ cluster, resources });

describe('ago', () => {
  it.each([
    [0, '0s'],
    [59_999, '59s'],
    [60_000, '1m'],
    [4 * min + 59_000, '4m'],
    [3600_000, '1h'],
    [47 * 3600_000, '47h'],
    [48 * 3600_000, '2d'],
    [-5, '0s'],
  ])('%i ms → %s', (ms, want) => expect(ago(ms)).toBe(want));
});

describe('staleLine: one line when a watch the answer read has been down longer than the bound', () => {
  const cases: Array<{ name: string; resources: ResourceHealth[]; cluster?: string; want?: string }> = [
    { name: 'all current', resources: [up('nodes'), up('pods')] },
    { name: 'down exactly the bound: not yet', resources: [down('nodes', STALE_BOUND_MS, '503')] },
    {
      name: 'the brief’s line',
      resources: [up('pods'), down('nodes', 4 * min, '503')],
      want: 'cluster prod: nodes last synced 4m ago — watch down: 503',
    },
    {
      name: 'two resources, the same age and cause',
      resources: [down('nodes', 4 * min + 1000, 'Unreachable'), down('pods', 4 * min + 2000, 'Unreachable')],
      want: 'cluster prod: pods, nodes last synced 4m ago — watch down: Unreachable',
    },
    {
      name: 'ages differ: a range, oldest first; causes listed once each',
      resources: [down('nodes', 2 * min, '503'), down('pods', 9 * min, '403'), down('services', 3 * min, '503')],
      want: 'cluster prod: pods, services, nodes last synced 2m–9m ago — watch down: 403, 503',
    },
    {
      name: 'more than three: "and N more"',
      resources: ['a', 'b', 'c', 'd', 'e'].map((r) => down(r, 5 * min, 'Unreachable')),
      want: 'cluster prod: a, b, c and 2 more last synced 5m ago — watch down: Unreachable',
    },
    {
      name: 'a silent watch (no event, no bookmark)',
      resources: [down('events', 10 * min, 'Stale')],
      want: 'cluster prod: events last synced 10m ago — watch silent',
    },
    {
      name: 'down and silent together',
      resources: [down('events', 10 * min, 'Stale'), down('nodes', 3 * min, '500')],
      want: 'cluster prod: events, nodes last synced 3m–10m ago — watch down: 500; watch silent',
    },
    {
      name: 'namespaces folded, never named: the oldest sync of the resource counts',
      resources: [down('pods', 2 * min, '403', 'team-a'), down('pods', 7 * min, '403', 'payroll')],
      want: 'cluster prod: pods last synced 7m ago — watch down: 403',
    },
    {
      name: 'a cause that is not a word is not shown',
      resources: [down('nodes', 2 * min, 'x"<script>')],
      want: 'cluster prod: nodes last synced 2m ago — watch down: error',
    },
    {
      name: 'a cluster name that is not a plain name is not shown',
      resources: [down('nodes', 2 * min, '503')],
      cluster: 'has space',
      want: 'cluster cluster: nodes last synced 2m ago — watch down: 503',
    },
    { name: 'never listed: an error, not staleness', resources: [never('nodes', 'Unreachable')] },
  ];
  it.each(cases)('$name', ({ resources, cluster, want }) => {
    expect(staleLine(report(resources, cluster), NOW)?.line).toBe(want);
  });
});

describe('clusterGaps: the cluster lines of a reply, and the gaps left to sourceGaps', () => {
  const err = (resource: string, reason: string, message: string): SourceError => ({ resource, reason, message });
  const stale = (resource: string): SourceWarning => ({
    kind: 'stale',
    resource,
    since: new Date(NOW - 4 * min).toISOString(),
    reason: 'ServiceUnavailable',
    message: 'etcdserver: request timed out',
    next: 'reconnecting',
  });
  const skipped: SourceWarning = { kind: 'skipped', resource: 'pods', count: 2 };

  it.each([
    {
      name: 'no health report (a state file, a one-shot read): nothing changes',
      r: { errors: [err('nodes', 'Forbidden', 'm')], warnings: [stale('nodes')] },
      audience: 'channel' as const,
      want: {
        unreadable: false,
        lines: [],
        rest: { errors: [err('nodes', 'Forbidden', 'm')], warnings: [stale('nodes')] },
      },
    },
    {
      name: 'nothing ever read, refused: one line, no state (channel)',
      r: {
        errors: [err('nodes', 'Unreachable', 'connect ECONNREFUSED 127.0.0.1:9'), err('pods', 'Unreachable', 'x')],
        warnings: [],
        health: report([never('nodes', 'Unreachable'), never('pods', 'Unreachable')], 'prod-b'),
      },
      audience: 'channel' as const,
      want: {
        unreadable: true,
        lines: ["couldn't read any resource of cluster prod-b (Unreachable)"],
        rest: { errors: [], warnings: [] },
      },
    },
    {
      name: 'nothing ever read: the operator gets the first message too',
      r: {
        errors: [err('nodes', 'Unauthorized', 'Unauthorized'), err('pods', 'Timeout', 'pods: no answer')],
        warnings: [],
        health: report([never('nodes', '401'), never('pods', 'Timeout')], 'prod-b'),
      },
      audience: 'operator' as const,
      want: {
        unreadable: true,
        lines: ["couldn't read any resource of cluster prod-b (Unauthorized, Timeout: Unauthorized)"],
        rest: { errors: [], warnings: [] },
      },
    },
    {
      name: 'some read: the errors stay per resource',
      r: {
        errors: [err('nodes', 'Forbidden', 'm')],
        warnings: [],
        health: report([never('nodes', '403'), up('pods')]),
      },
      audience: 'channel' as const,
      want: { unreadable: false, lines: [], rest: { errors: [err('nodes', 'Forbidden', 'm')], warnings: [] } },
    },
    {
      name: 'stale past the bound: one line; the stale warnings it covers go, others stay',
      r: {
        errors: [],
        warnings: [stale('nodes'), stale('pods'), skipped],
        health: report([down('nodes', 4 * min, '503'), down('pods', 30_000, '503')]),
      },
      audience: 'channel' as const,
      want: {
        unreadable: false,
        lines: ['cluster prod: nodes last synced 4m ago — watch down: 503'],
        rest: { errors: [], warnings: [stale('pods'), skipped] },
      },
    },
  ])('$name', ({ r, audience, want }) => {
    expect(clusterGaps(r, NOW, audience)).toEqual(want);
  });
});
