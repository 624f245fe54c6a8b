/**
 * `kubectl quota-doctor …`: kubectl finds plugins as `kubectl-<name>` executables on PATH (a `-` in the
 * command is `_` in the file name). The package's bin `kubectl-quota_doctor` is that executable.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
const hasKubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

describe('kubectl plugin', () => {
  it('the package declares the kubectl-quota_doctor bin', () => {
    expect(pkg.bin['kubectl-quota_doctor']).toBe('bin/quota-doctor.js');
  });

  it.skipIf(!hasKubectl)('kubectl quota-doctor quota team-a --state manifests/demo answers through kubectl', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qd-plugin-'));
    symlinkSync(join(root, pkg.bin['kubectl-quota_doctor']!), join(dir, 'kubectl-quota_doctor'));
    const out = execFileSync(
      'kubectl',
      ['quota-doctor', 'quota', 'team-a', '--state', join(root, 'manifests/demo'), '--json'],
      {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
        cwd: root,
      },
    );
    const json = JSON.parse(out) as { namespace: string; quotas: { name: string }[] };
    expect(json.namespace).toBe('team-a');
    expect(json.quotas.map((q) => q.name)).toEqual(['team-quota']);
  });
});
