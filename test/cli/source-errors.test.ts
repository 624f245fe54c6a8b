/**
 * A source error reads the same in every CLI output (answer/gaps.ts `errorGap`, operator form): the
 * `diagnose` gaps and the `simulate` warnings alike — `couldn't read <resource>: <cause> — <message>`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type Io } from '../../src/cli/program.ts';
import { FakeApiServer } from '../support/fake-apiserver.ts';

async function run(argv: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: Io = {
    stdout: (s) => void (out += s),
    stderr: (s) => void (err += s),
    readStdin: async () => stdin,
    isTTY: false,
  };
  const code = await main(argv, io);
  return { code, out, err };
}

const PASTE =
  'Error creating: pods "web-7c5d8f9b6-abcde" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';

describe('CLI: one wording for what could not be read', () => {
  const NODES = `⚠ couldn't read nodes: 403 Forbidden — nodes is forbidden: User "system:serviceaccount:quota-doctor:quota-doctor" cannot list resource "nodes" in API group "" at the cluster scope`;
  it.each<[string, string[], string, string[], number]>([
    // Were `couldn't read nodes: <message>` (diagnose) and `could not read nodes: <message>` (simulate).
    // The quota refusal stands on the namespace's reads (exit 0); the nodes line says why no fix is verified.
    ['diagnose', ['diagnose', '-', '-n', 'team-a'], PASTE, [NODES], 0],
    // web is refused by team-quota (pods 10/10): a verdict that needs no nodes, so no line about them.
    ['simulate', ['simulate', '-f', 'test/fixtures/manifests/cli/web.yaml', '-n', 'team-a'], '', [], 0],
  ])('%s with nodes forbidden', async (_name, argv, stdin, want, code) => {
    const fake = await FakeApiServer.start({ state: 'manifests/demo' });
    try {
      fake.forbid('nodes');
      const kubeconfig = fake.writeKubeconfig(join(mkdtempSync(join(tmpdir(), 'qd-err-')), 'config'));
      const r = await run([...argv, '--kubeconfig', kubeconfig], stdin);
      const lines = r.out
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.includes('read nodes'));
      expect(r.err).toBe('');
      expect(lines).toEqual(want);
      expect(r.code).toBe(code);
    } finally {
      await fake.close();
    }
  });
});
