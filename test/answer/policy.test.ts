import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/answer/errors.ts';
import { AccessPolicy, forbiddenNamespaces, isAllowed, loadPolicy, parsePolicy, refusalAnswer } from '../../src/answer/policy.ts';
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

describe('isAllowed / forbiddenNamespaces', () => {
  it.each([
    [{ allowedNamespaces: ['team-a'] }, 'team-a', true],
    [{ allowedNamespaces: ['team-a'] }, 'team-b', false],
    [{ allowedNamespaces: ['team-a'] }, 'team-a-batch', false],
    [{ allowedNamespaces: [] }, 'team-a', false],
    [{}, 'anything', true],
  ])('%j, %s → %s', (access, ns, ok) => {
    expect(isAllowed(access, ns)).toBe(ok);
  });

  it('lists each forbidden namespace once', () => {
    expect(forbiddenNamespaces({ allowedNamespaces: ['team-a'] }, ['team-a', 'team-b', 'team-b', 'kube-system'])).toEqual(['team-b', 'kube-system']);
    expect(forbiddenNamespaces({}, ['x'])).toEqual([]);
  });
});

describe('bad policy files fail with one line (exit 2), never open', () => {
  it.each([
    ['channels: [', /^p\.yaml: not valid YAML: /],
    ['channels:\n  - id: C1AB\n    namespaces: [Team_A]\n', /^p\.yaml: channels\.0\.namespaces\.0 is not a namespace name/],
    ['channels:\n  - id: not-an-id\n    namespaces: [a]\n', /^p\.yaml: channels\.0\.id is not a Slack channel id/],
    ['channels:\n  - id: C1AB\n    namespaces: [a]\n    defaultNamespace: b\n', /^p\.yaml: channels\.0 \(C1AB\): defaultNamespace b is not one of its namespaces$/],
    ['channels:\n  - id: C1AB\n    namespaces: [a]\n  - id: C1AB\n    namespaces: [b]\n', /^p\.yaml: channels\.1 \(C1AB\): channel listed twice$/],
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
    const payload = renderBlocks(a);
    assertWithinSlackLimits(payload);
    expect(payload.text.length).toBeLessThan(200);
  });
});
