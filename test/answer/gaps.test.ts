/**
 * Source warnings as reply gaps (src/answer/gaps.ts), decided on the warning's type: a channel gets a
 * stale or skipped resource by its typed fields (resource, the namespace when it may see it, since when,
 * the reason), never the free-text message; reconcile notes and unread objects reach no reply. The
 * operator's text is `warningText`, the wording the sources wrote as prose before they were typed.
 */
import { describe, expect, it } from 'vitest';
import { sourceGaps, warningGap, type Audience } from '../../src/answer/gaps.ts';
import { Visibility } from '../../src/answer/policy.ts';
import { labelOf, reconciledWarnings, warningText, type SourceWarning } from '../../src/cluster/source.ts';

const SINCE = '2026-03-10T09:30:00.000Z';
const stale = (over: Partial<Extract<SourceWarning, { kind: 'stale' }>> = {}): SourceWarning => ({
  kind: 'stale',
  resource: 'pods',
  namespace: 'team-a',
  since: SINCE,
  reason: 'Forbidden',
  message: 'pods "payroll-7c5d" is forbidden: User "x" cannot list resource "pods" in the namespace "team-b"',
  next: 'reconnecting',
  ...over,
});
const skipped = (over: Partial<Extract<SourceWarning, { kind: 'skipped' }>> = {}): SourceWarning => ({
  kind: 'skipped',
  resource: 'pods',
  namespace: 'team-a',
  count: 2,
  ...over,
});
const reconciled: SourceWarning = { kind: 'reconciled', namespace: 'team-b', quota: 'payroll-quota' };
const unread: SourceWarning = {
  kind: 'unread',
  source: 'state/team-b.yaml',
  object: 'ConfigMap team-b/payroll-settings',
};

describe('warningText: the operator wording', () => {
  it.each<[string, SourceWarning, string]>([
    [
      'stale, reconnecting',
      stale(),
      `pods in team-a: not being updated since ${SINCE} (Forbidden: pods "payroll-7c5d" is forbidden: User "x" cannot list resource "pods" in the namespace "team-b"); answering from the cache, reconnecting`,
    ],
    [
      'stale silent watch, relisting, cluster-wide',
      stale({
        namespace: undefined,
        resource: 'nodes',
        reason: 'Stale',
        message: 'no event and no bookmark for 3m0s',
        next: 'relisting',
      }),
      `nodes: not being updated since ${SINCE} (Stale: no event and no bookmark for 3m0s); answering from the cache, relisting`,
    ],
    ['skipped in a namespace', skipped(), 'pods in team-a: 2 object(s) skipped, their shape was not readable'],
    [
      'skipped cluster-wide',
      skipped({ namespace: undefined, resource: 'nodes', count: 1 }),
      'nodes: 1 object(s) skipped, their shape was not readable',
    ],
    [
      'reconciled',
      reconciled,
      'ResourceQuota team-b/payroll-quota: status.used computed from the objects in the state',
    ],
    ['unread', unread, 'state/team-b.yaml: skipped ConfigMap team-b/payroll-settings: kind not read by quota-doctor'],
  ])('%s', (_name, w, want) => {
    expect(warningText(w)).toBe(want);
  });

  it('labels: a resource, or a resource in a namespace', () => {
    expect([labelOf('pods', undefined), labelOf('pods', ''), labelOf('pods', 'team-a')]).toEqual([
      'pods',
      'pods',
      'pods in team-a',
    ]);
  });

  it('reconciled quotas become one warning each', () => {
    expect(
      reconciledWarnings([
        { namespace: 'a', name: 'q1' },
        { namespace: 'b', name: 'q2' },
      ]),
    ).toEqual([
      { kind: 'reconciled', namespace: 'a', quota: 'q1' },
      { kind: 'reconciled', namespace: 'b', quota: 'q2' },
    ]);
    expect(reconciledWarnings([])).toEqual([]);
  });
});

describe('warningGap: what each audience sees', () => {
  const teamA = Visibility.of(['team-a']);
  const everything = Visibility.everything();
  const hidden = " in a namespace this channel doesn't see";
  it.each<[string, SourceWarning, Visibility, Audience, string | undefined]>([
    [
      'stale, visible namespace',
      stale(),
      teamA,
      'channel',
      `pods in team-a: not being updated since ${SINCE} (Forbidden); answering from the cache, reconnecting`,
    ],
    [
      'stale, namespace not visible',
      stale({ namespace: 'team-b' }),
      teamA,
      'channel',
      `pods${hidden}: not being updated since ${SINCE} (Forbidden); answering from the cache, reconnecting`,
    ],
    [
      'stale, cluster-wide resource',
      stale({ namespace: undefined, resource: 'nodes' }),
      teamA,
      'channel',
      `nodes: not being updated since ${SINCE} (Forbidden); answering from the cache, reconnecting`,
    ],
    [
      'stale, relisting: a channel reads "reconnecting" as before',
      stale({ reason: 'Stale', message: 'no event and no bookmark for 3m0s', next: 'relisting' }),
      teamA,
      'channel',
      `pods in team-a: not being updated since ${SINCE} (Stale); answering from the cache, reconnecting`,
    ],
    [
      'stale, reason not a StatusReason',
      stale({ reason: 'the server said: <b>payroll</b>' }),
      teamA,
      'channel',
      `pods in team-a: not being updated since ${SINCE} (error); answering from the cache, reconnecting`,
    ],
    [
      'stale, resource not an API resource',
      stale({ resource: 'pods "payroll-7c5d"' }),
      teamA,
      'channel',
      `objects in team-a: not being updated since ${SINCE} (Forbidden); answering from the cache, reconnecting`,
    ],
    [
      'stale, namespace not a DNS label',
      stale({ namespace: 'Team_B' }),
      everything,
      'channel',
      `pods${hidden}: not being updated since ${SINCE} (Forbidden); answering from the cache, reconnecting`,
    ],
    [
      'stale, every namespace visible',
      stale({ namespace: 'team-b' }),
      everything,
      'channel',
      `pods in team-b: not being updated since ${SINCE} (Forbidden); answering from the cache, reconnecting`,
    ],
    [
      'stale, operator: everything',
      stale({ namespace: 'team-b', next: 'relisting' }),
      teamA,
      'operator',
      warningText(stale({ namespace: 'team-b', next: 'relisting' })),
    ],
    [
      'skipped, visible namespace',
      skipped(),
      teamA,
      'channel',
      'pods in team-a: 2 object(s) skipped, their shape was not readable',
    ],
    [
      'skipped, namespace not visible',
      skipped({ namespace: 'ml' }),
      teamA,
      'channel',
      `pods${hidden}: 2 object(s) skipped, their shape was not readable`,
    ],
    [
      'skipped, cluster-wide',
      skipped({ namespace: undefined, resource: 'persistentvolumes', count: 7 }),
      teamA,
      'channel',
      'persistentvolumes: 7 object(s) skipped, their shape was not readable',
    ],
    [
      'skipped, operator',
      skipped({ namespace: 'ml' }),
      teamA,
      'operator',
      'pods in ml: 2 object(s) skipped, their shape was not readable',
    ],
    ['reconciled, channel', reconciled, everything, 'channel', undefined],
    ['reconciled, operator', reconciled, everything, 'operator', undefined],
    ['unread, channel', unread, everything, 'channel', undefined],
    ['unread, operator', unread, everything, 'operator', undefined],
  ])('%s', (_name, w, vis, audience, want) => {
    expect(warningGap(w, vis, audience)).toBe(want);
  });

  it('a channel never gets the message, nor an object name from it', () => {
    const all = [
      stale(),
      stale({ namespace: 'team-b' }),
      stale({ reason: 'payroll-7c5d' }),
      skipped({ namespace: 'payroll' }),
      reconciled,
      unread,
    ];
    const shown = all.map((w) => warningGap(w, teamA, 'channel') ?? '').join('\n');
    expect(shown).not.toMatch(/payroll|forbidden:|User "x"|team-b/);
    // The same warnings, to the operator, do name them.
    expect(all.map((w) => warningGap(w, teamA, 'operator') ?? '').join('\n')).toMatch(/payroll-7c5d.*team-b/);
  });
});

describe('sourceGaps', () => {
  const vis = Visibility.of(['team-a']);
  it('errors first, then warnings, each line once; notes left out', () => {
    const error = {
      resource: 'nodes',
      reason: 'Forbidden',
      message: 'nodes is forbidden: User "x" cannot list resource "nodes"',
    };
    const warnings = [stale({ namespace: 'team-b' }), reconciled, stale({ namespace: 'ml' }), skipped(), unread];
    expect(sourceGaps({ errors: [error], warnings }, vis, 'channel')).toEqual([
      "couldn't read nodes: 403 Forbidden",
      `pods in a namespace this channel doesn't see: not being updated since ${SINCE} (Forbidden); answering from the cache, reconnecting`,
      'pods in team-a: 2 object(s) skipped, their shape was not readable',
    ]);
    expect(sourceGaps({ errors: [], warnings }, vis, 'operator')).toEqual([
      warningText(warnings[0]!),
      warningText(warnings[2]!),
      warningText(warnings[3]!),
    ]);
    expect(sourceGaps({ errors: [], warnings: [] }, vis, 'channel')).toEqual([]);
  });
});
