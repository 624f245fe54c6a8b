/**
 * "what's wrong?": the open incidents of the namespaces the asker may see (src/answer/handlers/overview.ts),
 * the same ones proactive mode posts (src/answer/incidents.ts), one line each, on the demo cluster; a
 * channel sees only its own namespaces; without the events (or any namespace input) it is undecided, never
 * "nothing wrong". The question forms, and the "what's wrong with W" that stays a "why".
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AskContext } from '../../src/answer/answerer.ts';
import { createAnswerer } from '../../src/answer/index.ts';
import { questionGate, questionNamespaces } from '../../src/answer/verdicts.ts';
import { FileSource, readStateFiles } from '../../src/cluster/file-source.ts';
import { parseQuestion } from '../../src/parse/question.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const source = new FileSource(DEMO);
const a = createAnswerer();

describe('the question forms', () => {
  it.each<[string, unknown]>([
    ["what's wrong?", { type: 'overview' }],
    ['what is wrong', { type: 'overview' }],
    ["what's broken in team-a?", { type: 'overview', namespace: 'team-a' }],
    ['any problems with my cluster?', { type: 'overview' }],
    ['are there any issues in ml', { type: 'overview', namespace: 'ml' }],
    ['is anything failing right now', { type: 'overview' }],
    ['<@U0QD> what is going on in namespace batch', { type: 'overview', namespace: 'batch' }],
    // a workload named after "with": its own diagnosis
    ["what's wrong with report-gen", { type: 'why', name: 'report-gen' }],
    ['what is going on with deploy/api', { type: 'why', name: 'api' }],
    ["why isn't report-gen running", { type: 'why', name: 'report-gen' }],
    ["why can't worker start in team-a", { type: 'why', name: 'worker', namespace: 'team-a' }],
    ['why does report-gen have no pods', { type: 'why', name: 'report-gen' }],
    ['report-gen has no pods', { type: 'why', name: 'report-gen' }],
    // not an overview
    ['any problem is a problem', { type: 'help' }],
  ])('%j → %j', (text, want) => {
    expect(parseQuestion(text)).toEqual(want);
  });
});

const ALL_LINES = [
  "batch: nightly-etl-29551740 can't create pods (ResourceQuota): 8/10 pods — since 2026-03-10 01:00 UTC, 65 times",
  'batch: pod reindex-backfill Pending — since 2026-03-10 09:12 UTC, 6 times',
  'batch: ResourceQuota batch-low: requests.cpu 20/22 (90%)',
  'ml: finetune-7b: pod finetune-7b-jmngj Pending — since 2026-03-10 08:14 UTC, 17 times',
  'ml: pod notebook-priya Pending — since 2026-03-10 09:02 UTC, 9 times',
  'team-a: api: pod api-6b9f4c7d8-gnt9f Pending — since 2026-03-10 07:58 UTC, 21 times',
  "team-a: exporter can't create pods (LimitRange): 0/1 pods — since 2026-03-10 09:20 UTC, 14 times",
  "team-a: worker can't create pods (ResourceQuota): 2/3 pods — since 2026-03-10 09:05 UTC, 11 times",
  "team-b: report-gen can't create pods (ResourceQuota): 0/2 pods — since 2026-03-10 08:30 UTC, 18 times",
];

describe('answers on the demo cluster', () => {
  it.each<[string, Partial<AskContext>, { namespaces: string[]; headline: string; lines: string[] }]>([
    [
      "what's wrong?",
      {},
      {
        namespaces: ['batch', 'ml', 'team-a', 'team-b'],
        headline: '9 open problems in 8 namespaces',
        lines: [
          ...ALL_LINES,
          'Ask "why is nightly-etl-29551740 failing?" (or paste its message) for the numbers and verified fixes.',
        ],
      },
    ],
    [
      // the channel's default namespace does not narrow it: every namespace the channel may see
      'any problems?',
      { allowedNamespaces: ['team-a', 'team-b'], defaultNamespace: 'team-b' },
      {
        namespaces: ['team-a', 'team-b'],
        headline: '4 open problems in team-a and team-b',
        lines: [
          ...ALL_LINES.slice(5),
          'Ask "why is api pending?" (or paste its message) for the numbers and verified fixes.',
        ],
      },
    ],
    [
      "what's wrong in team-b",
      {},
      {
        namespaces: ['team-b'],
        headline: '1 open problem in team-b',
        lines: [
          ALL_LINES[8]!,
          'Ask "why is report-gen failing?" (or paste its message) for the numbers and verified fixes.',
        ],
      },
    ],
    [
      'anything broken in kube-system',
      {},
      {
        namespaces: [],
        headline: 'Nothing wrong in kube-system',
        lines: ['No workload has pods refused, no pod has been Pending over 5 minutes, no quota is at 90% or more.'],
      },
    ],
  ])('%j %j', async (text, extra, want) => {
    const r = await a.question(text, { source, now: NOW, ...extra });
    expect(r.replies).toHaveLength(1);
    const reply = r.replies[0]!;
    expect({ namespaces: r.namespaces, headline: reply.headline, lines: reply.lines }).toEqual(want);
  });
});

describe('a verdict only from what was read', () => {
  const { snapshot } = readStateFiles(DEMO, { now: NOW });
  const unread = (resource: string, namespace?: string) => ({
    resource,
    namespace,
    reason: 'Forbidden',
    cause: 'Forbidden' as const,
    message: `${resource} is forbidden`,
  });
  const gate = (text: string, reads: Parameters<typeof questionGate>[1]['reads'], ctx: Partial<AskContext> = {}) =>
    questionGate(parseQuestion(text), { state: snapshot, reads, gaps: [] }, { source, now: NOW, ...ctx });

  it('every namespace read: the handler answers', () => {
    expect(gate("what's wrong?", { unread: [], namespaces: [], placement: true })).toBeNull();
  });

  it.each<[string, string, ReturnType<typeof unread>[], Partial<AskContext>, boolean]>([
    ['events of team-a unread', "what's wrong?", [unread('events', 'team-a')], {}, true],
    ['events unread cluster-wide', "what's wrong in ml", [unread('events')], {}, true],
    ['pods of ml unread, team-a asked', "what's wrong in team-a", [unread('pods', 'ml')], {}, false],
    // a channel that sees team-a only is not held up by a namespace it may not see
    [
      'events of ml unread, a team-a channel',
      'any problems?',
      [unread('events', 'ml')],
      { allowedNamespaces: ['team-a'] },
      false,
    ],
    // nodes are not an input of an overview
    ['nodes unread', "what's wrong?", [unread('nodes')], {}, false],
  ])('%s → undecided: %s', (_name, text, list, ctx, undecided) => {
    const r = gate(text, { unread: list, namespaces: [], placement: true }, ctx);
    expect(r !== null).toBe(undecided);
  });

  it('the load reads every namespace the asker may see, not only the channel default', () => {
    const ctx: AskContext = { source, allowedNamespaces: ['team-a', 'team-b'], defaultNamespace: 'team-b' };
    expect(questionNamespaces(parseQuestion('any problems?'), ctx)).toEqual(['team-a', 'team-b']);
    expect(questionNamespaces(parseQuestion('any problems in team-a?'), ctx)).toEqual(['team-a']);
  });
});

describe('"why is W pending?" when nothing failed: what the state holds of its pods', () => {
  it.each<[string, string[]]>([
    ['why is web pending?', ['No failure events for web in team-a.', 'web: 4/4 pods running, none Pending.']],
    ['why is redis pending?', ['No failure events for redis in team-a.', 'redis: 1/1 pods running, none Pending.']],
    // a DaemonSet has no replica count: its pods as they are
    [
      'why is kube-proxy pending in kube-system?',
      ['No failure events for kube-proxy in kube-system.', 'kube-proxy: 10 pods running, none Pending.'],
    ],
  ])('%j', async (text, want) => {
    const r = await a.question(text, { source, now: NOW });
    const reply = r.replies[0]!;
    expect([reply.headline, ...reply.lines]).toEqual(want);
  });
});

describe('"is W ok?" about a workload, not a node', () => {
  it.each<[string, Partial<AskContext>, string[]]>([
    ['is web healthy?', {}, ['No failure events for web in team-a.', 'web: 4/4 pods running, none Pending.']],
    ['is apii ok?', {}, ["I can't find node apii.", 'Did you mean api?']],
    // a workload the channel may not see is neither diagnosed nor suggested
    [
      'is notebook-priya ok?',
      { allowedNamespaces: ['team-a'] },
      ["I can't find node notebook-priya.", 'Check the name (and the namespace: add "in <namespace>").'],
    ],
  ])('%j %j', async (text, extra, want) => {
    const r = await a.question(text, { source, now: NOW, ...extra });
    const reply = r.replies[0]!;
    expect([reply.headline, ...reply.lines]).toEqual(want);
  });

  it('"is api ok?" is the diagnosis of the Pending api pod', async () => {
    const r = await a.question('is api ok?', { source, now: NOW });
    expect(r.replies[0]!.headline).toBe(
      'Admitted, but no node fits — scheduler (0/10 nodes) — pod api-6b9f4c7d8-gnt9f (team-a)',
    );
  });
});
