/**
 * The real entry point, `node bin/quota-doctor.js …` (what `npx quota-doctor` runs after `npm ci`): exit
 * codes reach the shell and bad input prints one line, no stack trace. Few on purpose: each costs ~1 s.
 *
 * The bin runs dist/ (compiled by `npm run build`) when present and not older than src/, else the sources
 * through tsx. Both paths are run here: the choice with stub entry points in a temporary package, and the
 * real compiled CLI built by tsc into a temporary package laid out as the published one (no src/).
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFESTS, ROOT, STACK_TRACE, STATES, runBin } from './harness.ts';

/** A package folder with the real bin, the real package.json and the checkout's node_modules. */
function tempPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'qd-bin-'));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(ROOT, 'bin/quota-doctor.js'), join(dir, 'bin/quota-doctor.js'));
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

function runIn(dir: string, argv: string[], stdin = ''): { code: number; stdout: string; stderr: string } {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('SLACK_') || k.startsWith('QUOTA_DOCTOR_')) delete env[k];
  const r = spawnSync(process.execPath, [join(dir, 'bin/quota-doctor.js'), ...argv], {
    cwd: ROOT,
    input: stdin,
    encoding: 'utf8',
    env,
    timeout: 30_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** An entry point that says which one ran, and the argv it got. */
const stub = (which: string) =>
  `export async function main(argv) { process.stdout.write(${JSON.stringify(which)} + ' ' + argv.join(' ') + '\\n'); return 3; }\n`;

describe('node bin/quota-doctor.js', () => {
  it('simulate --help exits 0', () => {
    const r = runBin(['simulate', '--help']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: quota-doctor simulate \[options\]/);
  });

  it('check exits 1 on a quota refusal, the reason on stdout', () => {
    const r = runBin(['check', '-f', `${MANIFESTS}/cli/web.yaml`, '--state', `${STATES}/budget-folder`]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'pods "web" is forbidden: exceeded quota: budget, requested: pods=1, used: pods=2, limited: pods=2\n',
    );
  });

  it.each([
    {
      what: 'a bad quantity',
      file: `${MANIFESTS}/bad/cpu-1.5.5.yaml`,
      field: 'spec.containers[0].resources.requests.cpu',
    },
    { what: 'a YAML alias bomb', file: `${MANIFESTS}/bad/billion-laughs.yaml`, field: '' },
  ])('exits 2 on $what: one line naming the file, no stack trace', ({ file, field }) => {
    const r = runBin(['simulate', '-f', file, '--state', `${STATES}/pods-3.yaml`, '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stderr.split('\n')).toEqual([expect.stringMatching(/^quota-doctor: /), '']);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain(field);
  });

  it('start without Slack env, stdin piped: the console answers the paste on the demo cluster and exits 0', () => {
    const r = runBin(
      ['start'],
      'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10\n',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ResourceQuota team-quota');
    expect(r.stdout).toContain('worker-5d8c7b9f4-glpms');
    // The demo cluster was read: the fixes name team-a's own workloads and quota.
    expect(r.stdout).toContain(
      'kubectl -n team-a patch resourcequota/team-quota --type merge -p \'{"spec":{"hard":{"pods":"11"}}}\'',
    );
  });
});

describe('bin/quota-doctor.js chooses dist/ or the sources', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const T0 = new Date('2026-01-01T00:00:00Z');
  const T1 = new Date('2026-01-02T00:00:00Z');

  it.each([
    { layout: 'dist/ and no src/ (the published package, the image)', dist: T0, src: null, ran: 'dist' },
    { layout: 'src/ and no dist/ (a checkout straight after npm ci): tsx', dist: null, src: T0, ran: 'src' },
    { layout: 'dist/ built after the last src/ change', dist: T1, src: T0, ran: 'dist' },
    { layout: 'src/ changed since the build (a stale dist/): tsx', dist: T0, src: T1, ran: 'src' },
  ])('$layout runs $ran, argv and exit code passed through', ({ dist, src, ran }) => {
    const dir = tempPackage();
    dirs.push(dir);
    if (src) {
      mkdirSync(join(dir, 'src/cli'), { recursive: true });
      // Type annotations: only tsx can run this file, so "src" proves the tsx path ran.
      writeFileSync(
        join(dir, 'src/cli/program.ts'),
        stub('src').replace('main(argv)', 'main(argv: string[]): Promise<number>'),
      );
      utimesSync(join(dir, 'src/cli/program.ts'), src, src);
    }
    if (dist) {
      mkdirSync(join(dir, 'dist/cli'), { recursive: true });
      writeFileSync(join(dir, 'dist/cli/program.js'), stub('dist'));
      utimesSync(join(dir, 'dist/cli/program.js'), dist, dist);
    }
    const r = runIn(dir, ['check', '-f', 'x.yaml']);
    expect(r).toEqual({ code: 3, stdout: `${ran} check -f x.yaml\n`, stderr: '' });
  });
});

describe('the compiled CLI (tsc -p tsconfig.build.json into a package laid out as published: bin, dist, manifests/demo, no src)', () => {
  let dir = '';
  beforeAll(() => {
    dir = tempPackage();
    symlinkSync(join(ROOT, 'manifests'), join(dir, 'manifests'), 'dir');
    const tsc = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '-p',
        join(ROOT, 'tsconfig.build.json'),
        '--outDir',
        join(dir, 'dist'),
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--help: the same text as the sources print', () => {
    const compiled = runIn(dir, ['--help']);
    expect(compiled.code).toBe(0);
    expect(compiled.stderr).toBe('');
    expect(compiled.stdout).toMatch(/^Usage: quota-doctor \[options\] \[command\]\n/);
    expect(compiled.stdout).toBe(runBin(['--help']).stdout);
  });

  it('check exits 1 on a quota refusal, the same output as the sources', () => {
    const argv = ['check', '-f', `${MANIFESTS}/cli/web.yaml`, '--state', `${STATES}/budget-folder`];
    const compiled = runIn(dir, argv);
    expect(compiled.code).toBe(1);
    expect(compiled.stderr).toBe('');
    expect(compiled.stdout).toContain(
      'pods "web" is forbidden: exceeded quota: budget, requested: pods=1, used: pods=2, limited: pods=2\n',
    );
    expect(compiled).toEqual(runBin(argv));
  });

  it('start without Slack env: the console loads manifests/demo next to dist/ (dynamic import of serve rewritten too)', () => {
    const r = runIn(
      dir,
      ['start'],
      'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10\n',
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'kubectl -n team-a patch resourcequota/team-quota --type merge -p \'{"spec":{"hard":{"pods":"11"}}}\'',
    );
  });

  it('a live-cluster command reaches the dynamically imported live source (exit 2 on an unreadable kubeconfig, one line)', () => {
    const kubeconfig = join(dir, 'no-such-kubeconfig');
    expect(runIn(dir, ['quota', 'team-a', '--kubeconfig', kubeconfig])).toEqual({
      code: 2,
      stdout: '',
      stderr: `quota-doctor: kubeconfig ${kubeconfig}: no such file\n`,
    });
  });
});

describe('npm pack: the tarball holds what a user needs and nothing else', () => {
  it('bin, dist/, the demo state, the contract and the top-level docs; no src/, tests, bench or fixtures', () => {
    // --ignore-scripts: no prepack build here, so dist/ is listed only if this checkout has built it.
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    const [pack] = JSON.parse(r.stdout) as { name: string; files: { path: string }[] }[];
    expect(pack!.name).toBe('@quota-doctor/cli');
    const files = pack!.files.map((f) => f.path);
    expect(files.filter((p) => !p.startsWith('dist/') && !p.startsWith('manifests/demo/')).sort()).toEqual([
      'CHANGELOG.md',
      'README.md',
      'SECURITY.md',
      'bin/quota-doctor.js',
      'docs/contract.md',
      'package.json',
    ]);
    expect(files.filter((p) => p.startsWith('dist/') && !p.endsWith('.js'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['manifests/demo/30-team-a.yaml', 'manifests/demo/README.md']));
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
      scripts: Record<string, string>;
    };
    expect(pkg.bin).toEqual({ 'quota-doctor': 'bin/quota-doctor.js', 'kubectl-quota_doctor': 'bin/quota-doctor.js' });
    // The published tarball always carries a fresh dist/: npm pack and npm publish build first.
    expect(pkg.scripts).toMatchObject({ build: 'tsc -p tsconfig.build.json', prepack: 'npm run build' });
  });
});
