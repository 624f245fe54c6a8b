/**
 * One temporary directory for a whole test run (vitest globalSetup): every `os.tmpdir()` of the workers and of the
 * processes they start is under it (TMPDIR), and it is removed when the run ends — the loopback API server's PKI,
 * kubeconfigs and state files of the tests leave nothing behind, whichever worker made them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'quota-doctor-test-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = root;
  return () => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true });
  };
}
