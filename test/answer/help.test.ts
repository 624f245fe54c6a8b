/**
 * Help (issue #17 item 4): one example for every question form the grammar answers, and each example, run
 * through the question grammar (src/parse/question.ts), is the question it stands for.
 */
import { describe, expect, it } from 'vitest';
import { helpAnswer, helpExampleList, type HelpExample, type HelpExamples } from '../../src/answer/replies/help.ts';
import { parseQuestion, type Question } from '../../src/parse/question.ts';

const demo: HelpExamples = {
  namespace: 'team-a',
  workload: 'api',
  otherWorkload: 'web',
  node: 'general-c-2',
  quota: 'team-quota',
  quotaResource: 'requests.cpu',
  quotaTo: '16',
  limitRange: { name: 'defaults', maxCpuDoubled: '4' },
  priorityClass: 'high-priority',
};
const placeholders: HelpExamples = {
  namespace: 'NAMESPACE',
  workload: 'WORKLOAD',
  otherWorkload: 'WORKLOAD',
  node: 'NODE',
  quota: 'QUOTA',
  quotaResource: 'requests.cpu',
  quotaTo: '20',
};

describe('help examples parse to the question they show', () => {
  const expected: Question[] = [
    { type: 'scale', workload: 'api', replicas: 8, namespace: 'team-a' },
    { type: 'scale', workload: 'api', delta: 3, namespace: 'team-a' },
    { type: 'requests', workload: 'api', which: 'requests', resource: 'cpu', value: '250m', namespace: 'team-a' },
    { type: 'quota', resource: 'requests.cpu', quota: 'team-quota', value: '16', namespace: 'team-a' },
    { type: 'limitrange', field: 'max', resource: 'cpu', value: '4', limitRange: 'defaults', namespace: 'team-a' },
    { type: 'left', resource: 'cpu', namespace: 'team-a' },
    { type: 'fit', workload: 'api', namespace: 'team-a' },
    { type: 'drain', node: 'general-c-2', how: 'down' },
    { type: 'node', node: 'general-c-2' },
    { type: 'uncordon', node: 'general-c-2' },
    { type: 'addNode', like: 'general-c-2', count: 1 },
    { type: 'nodeNeeded', namespace: 'team-a' },
    { type: 'rollout', workload: 'api', namespace: 'team-a' },
    {
      type: 'rollout',
      workload: 'web',
      changes: [{ field: 'requests', resource: 'cpu', value: '500m' }],
      namespace: 'team-a',
    },
    { type: 'priorityClass', workload: 'api', className: 'high-priority', namespace: 'team-a' },
    { type: 'priority', workload: 'api', namespace: 'team-a' },
    { type: 'priority' },
    { type: 'why', name: 'api' },
    { type: 'overview', namespace: 'team-a' },
    { type: 'headroom', namespace: 'team-a' },
  ];
  /** Every example and every alternative, in the order shown. */
  const flat = (list: HelpExample[]) =>
    list.flatMap((e) => [{ text: e.text, asks: e.asks }, ...(e.also ? [e.also] : [])]);
  const examples = flat(helpExampleList(demo));

  it('one example per form, in order', () => {
    expect(examples.map((e) => e.text)).toHaveLength(expected.length);
  });

  it.each(examples.map((e, i) => [e.text, e.asks, expected[i]!] as const))('%s', (text, asks, question) => {
    const q = parseQuestion(text);
    expect(q.type).toBe(asks);
    expect(q).toEqual(question);
  });

  it.each(flat(helpExampleList(placeholders)).map((e) => [e.text, e.asks] as const))(
    'placeholders: %s',
    (text, asks) => {
      expect(parseQuestion(text).type).toBe(asks);
    },
  );

  it('covers every question form the grammar answers', () => {
    const answered: Question['type'][] = [
      'scale',
      'requests',
      'quota',
      'limitrange',
      'left',
      'fit',
      'drain',
      'node',
      'uncordon',
      'addNode',
      'nodeNeeded',
      'rollout',
      'priorityClass',
      'priority',
      'why',
      'overview',
      'headroom',
    ];
    expect([...new Set(examples.map((e) => e.asks))].sort()).toEqual([...answered].sort());
  });
});

describe('help reply', () => {
  it('lists the examples in at most 15 lines (what Slack shows), the note after its question', () => {
    const r = helpAnswer(demo).replies[0]!;
    expect(r.headline).toBe('Paste an error, an event or a manifest — or ask:');
    expect(r.lines.length).toBeLessThanOrEqual(15);
    expect(r.lines).toEqual([
      'what if api scales to 8 in team-a?   ·   can I add 3 more replicas of api in team-a?',
      'what if api requests 250m cpu in team-a?',
      'raise requests.cpu of team-quota to 16 in team-a',
      'what if the limitrange defaults max cpu is 4 in team-a?',
      'how much cpu is left in team-a?   ·   how many more api pods fit in team-a?',
      'what if general-c-2 goes down?',
      'is general-c-2 back?   ·   what if general-c-2 is uncordoned?',
      'add a node like general-c-2   ·   would another node help in team-a?',
      'roll out api in team-a',
      'what if web rolls out with 500m cpu in team-a?',
      'what if api gets priorityClass high-priority in team-a?',
      'what priority does api have in team-a?   ·   which PriorityClasses can I use?',
      "why is api pending?   ·   what's wrong in team-a?",
      'quota team-a   (or /quota team-a in Slack)',
    ]);
  });
});
