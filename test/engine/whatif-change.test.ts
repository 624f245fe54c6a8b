/**
 * What-if questions answered by converging a change (engine/whatif/change.ts → engine/converge.ts) on the
 * demo cluster (manifests/demo/README.md): "what if general-c-2 is uncordoned", "what if api gets
 * priorityClass high", "add a node like general-a-1" — the grammar, the outcome, the reply.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AskContext } from '../../src/answer/answerer.ts';
import { createAnswerer } from '../../src/answer/index.ts';
import { FileSource, readStateFiles } from '../../src/cluster/file-source.ts';
import { whatIfChange } from '../../src/engine/whatif/change.ts';
import { parseQuestion } from '../../src/parse/question.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');
const demo = readStateFiles(DEMO, { now: NOW }).snapshot;
const source = new FileSource(DEMO);
const ctx = (extra: Partial<AskContext> = {}): AskContext => ({ source, now: NOW, ...extra });

describe('grammar: what-if changes', () => {
  it.each([
    ['what if api gets priorityClass high', { type: 'priorityClass', workload: 'api', className: 'high' }],
    [
      'what if deploy/api gets priority class high in team-a',
      { type: 'priorityClass', workload: 'api', kind: 'Deployment', className: 'high', namespace: 'team-a' },
    ],
    ['give api priorityclass high', { type: 'priorityClass', workload: 'api', className: 'high' }],
    ['set the priorityClassName of api to high', { type: 'priorityClass', workload: 'api', className: 'high' }],
    ['add a node like general-a-1', { type: 'addNode', like: 'general-a-1', count: 1 }],
    ['what if we add 3 nodes like general-b-3?', { type: 'addNode', like: 'general-b-3', count: 3 }],
    ['add another node like node general-a-1', { type: 'addNode', like: 'general-a-1', count: 1 }],
    ['what if general-c-2 is uncordoned', { type: 'uncordon', node: 'general-c-2' }],
  ])('%s', (text, q) => {
    expect(parseQuestion(text)).toEqual(q);
  });
});

describe('what-if changes on the demo cluster', () => {
  it('uncordon general-c-2: the Pending api pod schedules there, api completes', () => {
    const a = whatIfChange(demo, { kind: 'uncordon', node: 'general-c-2' }, { now: NOW });
    expect(a.command).toBe('kubectl uncordon general-c-2');
    expect(a.nowScheduled).toEqual([{ pod: 'team-a/api-6b9f4c7d8-gnt9f', node: 'general-c-2' }]);
    expect(a.workloads.find((w) => w.name === 'api')).toMatchObject({ wanted: 3, scheduled: 3, complete: true });
    expect(a.evicted).toEqual([]);
  });

  it('api gets priorityClass high: a template change, the surge pod refused by pods 10/10', () => {
    const a = whatIfChange(
      demo,
      { kind: 'priorityClass', target: { kind: 'Deployment', namespace: 'team-a', name: 'api' }, className: 'high' },
      { now: NOW },
    );
    const api = a.workloads.find((w) => w.name === 'api')!;
    expect(api).toMatchObject({ wanted: 3, updated: 0, complete: false });
    expect(api.failedCreate).toMatch(/exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10$/);
  });

  it('add a node like general-a-1: the Pending api pod lands on it, kube-proxy gets a pod there', () => {
    const a = whatIfChange(demo, { kind: 'addNode', like: 'general-a-1', count: 1 }, { now: NOW });
    expect(a.command).toBe('');
    expect(a.nowScheduled).toEqual([{ pod: 'team-a/api-6b9f4c7d8-gnt9f', node: 'general-a-1-new-1' }]);
    expect(a.workloads.find((w) => w.name === 'kube-proxy')).toMatchObject({ created: 1, complete: true });
  });

  it('the reply: what now runs, the command as a verified fix', async () => {
    const r = await createAnswerer().question('what if general-c-2 is uncordoned', ctx());
    expect(r!.replies[0]).toMatchObject({
      kind: 'whatif',
      headline: 'general-c-2 uncordoned',
      lines: ['team-a/api-6b9f4c7d8-gnt9f now schedules on general-c-2', 'team-a/deploy/api: 3/3 running ✓'],
      fixes: [
        {
          who: 'platform',
          summary: 'general-c-2 uncordoned',
          change: 'kubectl uncordon general-c-2',
          verified: true,
          outcome: '1 Pending pod schedules; every affected workload completes',
        },
      ],
    });
  });

  it('a change that does not end well is no fix: the command is shown as simulated', async () => {
    const r = await createAnswerer().question('what if api gets priorityClass high in team-a', ctx());
    const reply = r!.replies[0]!;
    expect(reply.fixes).toEqual([]);
    expect(reply.lines.at(-1)).toBe(
      `Simulated: kubectl -n team-a patch deploy/api --type merge -p '{"spec":{"template":{"spec":{"priorityClassName":"high"}}}}'`,
    );
  });

  it('a channel sees its own pods by name and only counts of the rest; no JSON with other namespaces', async () => {
    const r = await createAnswerer().question(
      'what if general-c-2 is uncordoned',
      ctx({ allowedNamespaces: ['team-b'] }),
    );
    expect(r!.replies[0]!.lines).toEqual(['1 Pending pod of other namespaces schedule too.']);
    expect(r!.json).toBeUndefined();
  });
});
