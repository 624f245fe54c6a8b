import { describe, expect, it } from 'vitest';
import { extractManifests } from '../../src/parse/manifests.ts';

const ok = (text: string) =>
  extractManifests(text).flatMap((m) =>
    m.ok
      ? [`${m.source}:${m.object.kind}/${String((m.object.metadata as { name?: string } | undefined)?.name)}`]
      : [`error:${m.source}`],
  );

describe('extractManifests', () => {
  it.each([
    [
      'fenced yaml, two documents',
      'my pod:\n```yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: b\n```\nthanks',
      ['fenced:Pod/a', 'fenced:Pod/b'],
    ],
    [
      'bare yaml in prose',
      'I applied this\napiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\nspec:\n  hard:\n    pods: "2"\n\nand it failed',
      ['yaml:ResourceQuota/q'],
    ],
    [
      'bare json',
      'here:\n{\n  "apiVersion": "v1",\n  "kind": "Pod",\n  "metadata": {"name": "j"}\n}\n',
      ['json:Pod/j'],
    ],
    ['Slack-quoted yaml', '&gt; apiVersion: v1\n&gt; kind: Pod\n&gt; metadata:\n&gt;   name: q', ['yaml:Pod/q']],
    ['Status is an API response, not a manifest', '{"kind":"Status","apiVersion":"v1","message":"x"}', []],
    ['no manifest', 'exceeded quota: q, requested: pods=1', []],
    ['broken document is an error value', '```yaml\napiVersion: v1\nkind: Pod\nmetadata: [\n```', ['error:fenced']],
  ])('%s', (_name, text, expected) => {
    expect(ok(text)).toEqual(expected);
  });

  it('an alias bomb is an error value, not a hang or a throw', () => {
    const bomb = ['apiVersion: v1', 'kind: ConfigMap', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 8; i++)
      bomb.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
      );
    const t0 = performance.now();
    const out = extractManifests(`\`\`\`yaml\n${bomb.join('\n')}\n\`\`\``);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(out).toHaveLength(1);
    expect(out[0]!.ok).toBe(false);
  });
});
