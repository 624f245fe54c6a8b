/**
 * Issue 13 through the answerer, on the demo cluster: a number beyond what Kubernetes holds is one clear
 * refusal naming the limit (it was "Something went wrong"); a huge scale-up is capped, says the cap, and
 * answers within 250 ms (it held the event loop 1.6–3 s); "uncordon" is not answered as a drain.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { AskContext } from '../../src/answer/answerer.ts';
import { MAX_SCALE_PODS } from '../../src/answer/bounds.ts';
import { createAnswerer } from '../../src/answer/index.ts';
import { FileSource } from '../../src/cluster/file-source.ts';
import type { ClusterSource } from '../../src/cluster/source.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const NOW = Date.parse('2026-03-10T09:40:00Z');

/** The demo cluster read once (the bot's live cache is read once too): the timing is the answer's. */
async function cachedDemo(): Promise<ClusterSource> {
  const loaded = await new FileSource(DEMO).load();
  return {
    kind: 'file',
    describe: () => DEMO,
    load: async () => loaded,
    ready: async () => true,
    close: async () => {},
  };
}

const ctx = async (): Promise<AskContext> => ({
  source: await cachedDemo(),
  now: NOW,
  defaultNamespace: 'team-a',
  allowedNamespaces: ['team-a'],
});

describe('issue 13 through the answerer (demo cluster)', () => {
  it.each([
    [
      'raise requests.cpu of team-quota to 1e308',
      '1e308 is more than Kubernetes can count: quantities are read as int64 milli-units (MilliValue()), at most 9223372036854775807m — about 9.2 × 10^15, a little over 8Pi.',
    ],
    [
      'what if web scales to 99999999999999999999',
      '99999999999999999999 replicas is more than Kubernetes allows: spec.replicas is an int32, at most 2147483647.',
    ],
    [
      'what if web scales to 1e30',
      '1e30 replicas is more than Kubernetes allows: spec.replicas is an int32, at most 2147483647.',
    ],
  ])('%j: one refusal naming the limit', async (text, line) => {
    const a = await createAnswerer().question(text, await ctx());
    expect(a!.replies).toHaveLength(1);
    expect(a!.replies[0]).toMatchObject({
      kind: 'info',
      headline: "I can't simulate that number.",
      lines: [line],
      fixes: [],
      gaps: [],
    });
    expect(a!.namespaces).toEqual([]);
  });

  it('"what if web scales to 10000000": capped at MAX_SCALE_PODS, the cap said, ≤ 250 ms warm', async () => {
    const c = await ctx();
    const answerer = createAnswerer();
    await answerer.question('what if web scales to 9', c);
    const t0 = performance.now();
    const a = await answerer.question('what if web scales to 10000000', c);
    const ms = performance.now() - t0;
    const r = a!.replies[0]!;
    // web has 4 pods; team-quota pods 10/10: the first new pod is refused, and so is every other.
    expect(r.headline).toBe(
      `web 4 → ${4 + MAX_SCALE_PODS} replicas in team-a (100m cpu / 128Mi memory each, after LimitRange defaults)`,
    );
    expect(r.lines[0]).toBe(`+${MAX_SCALE_PODS} pods: 0 admitted, ${MAX_SCALE_PODS} rejected`);
    expect(r.lines[1]).toMatch(
      new RegExp(
        `^   ${MAX_SCALE_PODS} × pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10$`,
      ),
    );
    expect(r.gaps).toEqual([
      `You asked for 10000000 replicas; I simulated the first ${MAX_SCALE_PODS} new pods only (at most ${MAX_SCALE_PODS} per scale question).`,
    ]);
    expect(ms).toBeLessThanOrEqual(250);
  });

  it('"uncordon general-c-2" is not answered as a drain: the uncordon is simulated', async () => {
    const a = await createAnswerer().question('uncordon general-c-2', await ctx());
    expect(a!.replies[0]!.kind).toBe('whatif');
    expect(a!.replies[0]!.headline).toBe('general-c-2 uncordoned');
  });
});
