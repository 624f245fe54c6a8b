import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/answer/errors.ts';
import {
  AccessPolicy,
  guardAnswer,
  loadPolicy,
  parsePolicy,
  refusalAnswer,
  REFUSAL_LINE,
  Visibility,
} from '../../src/answer/policy.ts';
import { renderBlocks } from '../../src/render/blocks.ts';
import { assertWithinSlackLimits } from '../support/slack-limits.ts';

const POLICY = `
channels:
  - id: C012AB3CD
    name: "#team-a"
    namespaces: [team-a, team-a-batch]
    defaultNamespace: team-a
  - id: C0PLATFORM
    namespaces: ["*"]
    context: prod-eu
  - id: G0PRIVATE
    namespaces: [team-b]
`;

describe('policyFor', () => {
  const p = parsePolicy(POLICY, 'policy.yaml');

  it.each([
    ['C012AB3CD', { allowedNamespaces: ['team-a', 'team-a-batch'], defaultNamespace: 'team-a' }],
    ['C0PLATFORM', { context: 'prod-eu' }],
    ['G0PRIVATE', { allowedNamespaces: ['team-b'] }],
    ['C0UNLISTED', { allowedNamespaces: [] }],
  ])('%s → %j', (channel, access) => {
    expect(p.policyFor(channel)).toEqual(access);
  });

  it('no file → everything visible, no default, the default context', () => {
    expect(loadPolicy(undefined).policyFor('C0ANY')).toEqual({});
    expect(AccessPolicy.open().configured).toBe(false);
  });

  it('`default` applies to unlisted channels', () => {
    const q = parsePolicy('channels: []\ndefault:\n  namespaces: [shared]\n  defaultNamespace: shared\n');
    expect(q.policyFor('C0ANY')).toEqual({ allowedNamespaces: ['shared'], defaultNamespace: 'shared' });
  });

  it('hands out copies (a caller cannot widen the policy by mutating the result)', () => {
    const a = p.policyFor('C012AB3CD');
    a.allowedNamespaces!.push('team-z');
    expect(p.policyFor('C012AB3CD').allowedNamespaces).toEqual(['team-a', 'team-a-batch']);
  });

  it('keeps channel names as labels and lists every context', () => {
    expect(p.channelName('C012AB3CD')).toBe('#team-a');
    expect(p.channelName('C0PLATFORM')).toBeUndefined();
    expect(p.contexts()).toEqual([undefined, 'prod-eu']);
  });
});

describe('Visibility: the one access decision', () => {
  it.each([
    [['team-a'], 'team-a', true],
    [['team-a'], 'team-b', false],
    [['team-a'], 'team-a-batch', false],
    [[], 'team-a', false],
    [undefined, 'anything', true],
    [['*'], 'anything', true],
    [['team-a', '*'], 'team-b', true],
  ])('of(%j).allows(%s) → %s', (list, ns, ok) => {
    expect(Visibility.of(list).allows(ns)).toBe(ok);
  });

  it.each([
    [[], true, false],
    [['team-a'], false, false],
    [undefined, false, true],
    [['*'], false, true],
  ])('of(%j): seesNothing %s, seesEverything %s', (list, nothing, everything) => {
    const v = Visibility.of(list);
    expect([v.seesNothing, v.seesEverything]).toEqual([nothing, everything]);
  });

  it('lists each forbidden namespace once, keeps the visible ones in order', () => {
    const v = Visibility.of(['team-a']);
    expect(v.forbidden(['team-a', 'team-b', 'team-b', 'kube-system'])).toEqual(['team-b', 'kube-system']);
    expect(v.visible(['kube-system', 'team-a', 'team-b'])).toEqual(['team-a']);
    expect(Visibility.everything().forbidden(['x'])).toEqual([]);
    expect(Visibility.of(['b', 'a']).list()).toEqual(['a', 'b']);
    expect(Visibility.everything().list()).toBeUndefined();
  });

  it('the policy hands out the same decision per channel (unlisted: nothing)', () => {
    const p = parsePolicy(POLICY, 'policy.yaml');
    expect(p.visibilityFor('C012AB3CD').list()).toEqual(['team-a', 'team-a-batch']);
    expect(p.visibilityFor('C0PLATFORM').seesEverything).toBe(true);
    expect(p.visibilityFor('C0UNLISTED').seesNothing).toBe(true);
    expect(p.visibilityFor('D0SOMEDM').seesNothing).toBe(true);
    expect(AccessPolicy.open().visibilityFor('D0SOMEDM').seesEverything).toBe(true);
  });

  it('guardAnswer: the answer when all it names is visible, the refusal otherwise', () => {
    const answer = { replies: [], namespaces: ['team-a'] };
    expect(guardAnswer(answer, Visibility.of(['team-a']))).toBe(answer);
    expect(guardAnswer(answer, Visibility.of(['team-b']))).toEqual(refusalAnswer());
  });
});

describe('bad policy files fail with one line (exit 2), never open', () => {
  it.each([
    ['channels: [', /^p\.yaml: not valid YAML: /],
    [
      'channels:\n  - id: C1AB\n    namespaces: [Team_A]\n',
      /^p\.yaml: channels\.0\.namespaces\.0 is not a namespace name/,
    ],
    ['channels:\n  - id: not-an-id\n    namespaces: [a]\n', /^p\.yaml: channels\.0\.id is not a Slack channel id/],
    [
      'channels:\n  - id: C1AB\n    namespaces: [a]\n    defaultNamespace: b\n',
      /^p\.yaml: channels\.0 \(C1AB\): defaultNamespace b is not one of its namespaces$/,
    ],
    [
      'channels:\n  - id: C1AB\n    namespaces: [a]\n  - id: C1AB\n    namespaces: [b]\n',
      /^p\.yaml: channels\.1 \(C1AB\): channel listed twice$/,
    ],
    ['channels:\n  - id: C1AB\n    namespace: [a]\n', /^p\.yaml: channels\.0/],
    ['chanels: []\n', /^p\.yaml: /],
  ])('%j', (text, message) => {
    expect(() => parsePolicy(text, 'p.yaml')).toThrow(UsageError);
    expect(() => parsePolicy(text, 'p.yaml')).toThrow(message);
  });

  it('a missing file is an error, not "everything visible"', () => {
    expect(() => loadPolicy('/nonexistent/policy.yaml')).toThrow('/nonexistent/policy.yaml: no such file');
  });

  it('reads a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qd-policy-'));
    const f = join(dir, 'policy.yaml');
    writeFileSync(f, POLICY);
    expect(loadPolicy(f).policyFor('G0PRIVATE')).toEqual({ allowedNamespaces: ['team-b'] });
  });

  it('an empty file is a policy with no channels: everything closed', () => {
    expect(parsePolicy('').policyFor('C1AB')).toEqual({ allowedNamespaces: [] });
  });
});

describe('the refusal', () => {
  it('is short, polite, names nothing, and fits Slack', () => {
    const a = refusalAnswer();
    expect(a.namespaces).toEqual([]);
    expect(a.replies).toHaveLength(1);
    expect(a.replies[0]!.kind).toBe('refusal');
    expect(a.replies[0]!.headline).toBe("Sorry — this channel isn't set up to see that");
    expect(a.replies[0]!.lines).toEqual([REFUSAL_LINE]);
    const payload = renderBlocks(a);
    assertWithinSlackLimits(payload);
    expect(payload.text.length).toBeLessThan(200);
  });

  it("with a detail about the asker's own text, the same headline and closing line", () => {
    const a = refusalAnswer("Pod x: spec.affinity… — its `namespaces` list names a namespace this channel doesn't see");
    expect(a.replies[0]!.headline).toBe("Sorry — this channel isn't set up to see that");
    expect(a.replies[0]!.lines).toEqual([
      "Pod x: spec.affinity… — its `namespaces` list names a namespace this channel doesn't see",
      REFUSAL_LINE,
    ]);
  });
});
