/**
 * `quota-doctor quota NS --kubeconfig K` against the fake API server answers the same JSON as
 * `--state` over the same objects — the live path (real client-node, paged lists, projections) and the
 * file path agree, for several states and namespaces.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/program.ts';
import { capture } from '../support/capture.ts';
import { FakeApiServer } from '../support/fake-apiserver.ts';

async function run(argv: string[]): Promise<{ code: number; json: unknown; err: string }> {
  const io = capture();
  const code = await main(argv, io);
  return { code, json: code === 0 ? JSON.parse(io.out.join('')) : null, err: io.err.join('') };
}

const CASES: [string, string][] = [
  ['manifests/demo', 'team-a'],
  ['manifests/demo', 'team-b'],
  ['manifests/demo', 'ml'],
  ['manifests/demo', 'batch'],
  ['test/fixtures/states/team-a', 'team-a'],
];

describe('quota --kubeconfig (live) answers exactly like --state', () => {
  it.each(CASES)('%s, namespace %s', async (state, ns) => {
    const fake = await FakeApiServer.start({ state });
    try {
      const kubeconfig = fake.writeKubeconfig(join(mkdtempSync(join(tmpdir(), 'qd-live-')), 'config'));
      const fromFile = await run(['quota', ns, '--state', state, '--json']);
      const fromLive = await run(['quota', ns, '--kubeconfig', kubeconfig, '--json']);
      expect(fromFile.err).toBe('');
      expect(fromLive.err).toBe('');
      expect(fromLive.code).toBe(0);
      expect(fromLive.json).toEqual(fromFile.json);
    } finally {
      await fake.close();
    }
  });
});
