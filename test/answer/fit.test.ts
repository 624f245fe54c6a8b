/**
 * "how many more W fit?" on small states (src/answer/handlers/fit.ts): the headroom count where the nodes bind,
 * and the simulation's number where the count and the scheduler disagree (a rule the count does not see).
 */
import { describe, expect, it } from 'vitest';
import { createAnswerer } from '../../src/answer/index.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { FileSource } from '../../src/cluster/file-source.ts';
import type { KObject } from '../../src/k8s/snapshot.ts';
import { deployment, node, pod, replicaSet } from '../support/builders.ts';

const a = createAnswerer();
const ns = 'apps';

/** deploy/app with `pods` bound pods of 1 cpu / 1Gi, on the nodes given; its pods carry `template` extras. */
function app(bound: string[], extra: Record<string, unknown> = {}): KObject[] {
  const template = {
    metadata: { labels: { app: 'app' } },
    spec: {
      containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: '1', memory: '1Gi' } } }],
      ...extra,
    },
  };
  return [
    deployment('app', { namespace: ns, replicas: bound.length, template }),
    replicaSet('app-5d9c7b6f4', { namespace: ns, owner: 'app', replicas: bound.length, template }),
    ...bound.map((n, i) => {
      const p = pod(`app-5d9c7b6f4-x${i}`, {
        namespace: ns,
        cpu: '1',
        memory: '1Gi',
        owner: { kind: 'ReplicaSet', name: 'app-5d9c7b6f4' },
        node: n,
      });
      return {
        ...p,
        metadata: { ...p.metadata, labels: { app: 'app' } },
        spec: { ...(p.spec as object), ...extra },
        status: { phase: 'Running' },
      };
    }),
  ];
}

async function ask(text: string, objects: KObject[]): Promise<string[]> {
  // The state as `kubectl get -o yaml` files, read the way the CLI and the console read one.
  const dir = mkdtempSync(join(tmpdir(), 'fit-'));
  writeFileSync(join(dir, 'state.yaml'), objects.map((o) => stringify(o)).join('---\n'));
  const source = new FileSource(dir);
  try {
    const r = await a.question(text, { source, defaultNamespace: ns });
    return r.replies[0]!.lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('how many more fit: the nodes bind', () => {
  it('no quota: the free room of each node, floor per node', async () => {
    // n1 4 cpu − 1 bound = 3 free: 3 pods; n2 4 free: 4 pods; 7 in all (memory 8Gi each: 7Gi and 8Gi free).
    expect(
      await ask('how many more app pods fit?', [node('n1', { cpu: '4' }), node('n2', { cpu: '4' }), ...app(['n1'])]),
    ).toEqual([
      '7 more (1 → 8, 1 cpu / 1Gi memory each) — then no node has room for another.',
      '✓ verified: all 7 admitted and scheduled.',
      'Command: kubectl -n apps scale deploy/app --replicas=8',
    ]);
  });

  // The count leaves out n1 (the bound pod repels the new ones there) and counts n2's room, 4; but the new pods repel
  // each other too, which only the scheduler run sees: one more, on n2.
  it('a rule the count does not see (required pod anti-affinity per hostname): the simulation says how many', async () => {
    const anti = {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { app: 'app' } }, topologyKey: 'kubernetes.io/hostname' },
          ],
        },
      },
    };
    const got = await ask('how many more app pods fit?', [
      node('n1', { cpu: '4' }),
      node('n2', { cpu: '4' }),
      ...app(['n1'], anti),
    ]);
    expect(got[0]).toBe(
      "1 more schedule (1 → 2, 1 cpu / 1Gi memory each): of 4 the quota and the nodes' free room would take, 4 are admitted and 1 find a node.",
    );
    expect(got.at(-1)).toBe('Ask "what if app scales to 2" to check that number.');
  });
});
