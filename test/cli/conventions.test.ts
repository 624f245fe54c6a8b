/**
 * kubectl's conventions (docs/contract.md "Running it"): `--version`, `-o json|yaml` beside `--json`,
 * `-n` where a namespace makes sense, the source flags before or after the command, shell completion,
 * and help that names the docs in the repository. In-process, except one real `--version` subprocess.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as yamlParse } from 'yaml';
import { addGlobalSourceOptions, addSourceOptions, type Flags } from '../../src/cli/options.ts';
import { DEMO, MANIFESTS, ROOT, run, runBin } from './harness.ts';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const PASTE =
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';

describe('--version', () => {
  it.each([['--version'], ['-V']])('%s prints the package.json version, exit 0', async (flag) => {
    expect(await run([flag])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('the installed bin too', () => {
    expect(runBin(['--version'])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });
});

describe('-o json|yaml', () => {
  const commands: { name: string; argv: string[]; stdin?: string }[] = [
    { name: 'simulate', argv: ['simulate', '-f', `${MANIFESTS}/cli/web.yaml`, '--state', DEMO] },
    { name: 'check', argv: ['check', '-f', `${MANIFESTS}/cli/web.yaml`, '--state', DEMO] },
    { name: 'diagnose', argv: ['diagnose', '-n', 'team-a', '--state', DEMO], stdin: PASTE },
    { name: 'quota', argv: ['quota', 'team-a', '--state', DEMO] },
    { name: 'whatif', argv: ['whatif', 'what if web scales to 8', '-n', 'team-a', '--state', DEMO] },
  ];

  it.each(commands)('$name: -o json is --json byte for byte; -o yaml holds the same value', async ({ argv, stdin }) => {
    const legacy = await run([...argv, '--json'], stdin);
    const oJson = await run([...argv, '-o', 'json'], stdin);
    const oYaml = await run([...argv, '--output', 'yaml'], stdin);
    expect([legacy.stderr, oJson.stderr, oYaml.stderr]).toEqual(['', '', '']);
    expect(oJson).toEqual(legacy);
    expect(oYaml.code).toBe(legacy.code);
    expect(yamlParse(oYaml.stdout)).toEqual(JSON.parse(legacy.stdout));
    expect(oYaml.stdout.trimStart().startsWith('{')).toBe(false);
  });

  it('quota -o yaml, exactly (manifests/demo: team-a out of pods)', async () => {
    const r = await run(['quota', 'team-a', '--state', DEMO, '-o', 'yaml']);
    expect(r.stdout.split('\n').slice(0, 12)).toEqual([
      'namespace: team-a',
      'quotas:',
      '  - name: team-quota',
      '    scopes: []',
      '    resources:',
      '      limits.cpu:',
      '        hard: "16"',
      '        used: 10500m',
      '        free: 5500m',
      '      limits.memory:',
      '        hard: 32Gi',
      '        used: 10752Mi',
    ]);
  });

  it('a long message stays on one line in YAML, as in JSON', async () => {
    const r = await run(['simulate', '-f', `${MANIFESTS}/cli/web.yaml`, '--state', DEMO, '-o', 'yaml']);
    expect(r.stdout).toContain(
      '    message: \'pods "web" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10\'\n',
    );
  });
});

describe('-n', () => {
  it.each([
    ['quota -n team-a', ['quota', '-n', 'team-a']],
    ['quota --namespace team-a', ['quota', '--namespace', 'team-a']],
    ['quota team-a -n team-a', ['quota', 'team-a', '-n', 'team-a']],
  ])('%s answers as quota team-a', async (_title, argv) => {
    const positional = await run(['quota', 'team-a', '--state', DEMO, '--json']);
    expect(positional.code).toBe(0);
    expect(await run([...argv, '--state', DEMO, '--json'])).toEqual(positional);
  });
});

describe('source flags anywhere on the line', () => {
  it.each([
    ['before the command', ['--state', DEMO, 'quota', 'team-a', '--json']],
    ['between command and argument', ['quota', '--state', DEMO, 'team-a', '--json']],
    ['after everything', ['quota', 'team-a', '--json', '--state', DEMO]],
    ['as --state=PATH before', [`--state=${DEMO}`, 'quota', 'team-a', '--json']],
  ])('%s', async (_title, argv) => {
    const r = await run(argv);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe((await run(['quota', 'team-a', '--state', DEMO, '--json'])).stdout);
  });

  it('check with --state before the command and -f after: the same verdict and exit 1', async () => {
    const after = await run(['check', '-f', `${MANIFESTS}/cli/web.yaml`, '--state', DEMO]);
    const before = await run(['--state', DEMO, 'check', '-f', `${MANIFESTS}/cli/web.yaml`]);
    expect(after.code).toBe(1);
    expect(before).toEqual(after);
  });

  /** The program and one command, as buildProgram wires them: what the command's action is given. */
  async function flagsFor(argv: string[]): Promise<Flags> {
    let seen: Flags = {};
    const program = new Command('p').exitOverride();
    addGlobalSourceOptions(program);
    addSourceOptions(program.command('c').option('-n, --namespace <ns>')).action((flags: Flags) => void (seen = flags));
    await program.parseAsync(argv, { from: 'user' });
    return seen;
  }

  it.each([
    [['c'], {}],
    [['--kubeconfig', '/k', '--context', 'prod', 'c'], { kubeconfig: '/k', context: 'prod' }],
    [['--k8s-version', '1.33', 'c', '-n', 'x'], { namespace: 'x', k8sVersion: '1.33' }],
    [['c', '--k8s-version', '1.32', '--context', 'dev'], { context: 'dev', k8sVersion: '1.32' }],
    [['--state', '/s', 'c', '--kubeconfig', '/k'], { state: '/s', kubeconfig: '/k' }],
  ])('%j → the command gets %j', async (argv, expected) => {
    expect(await flagsFor(argv)).toEqual(expected);
  });
});

describe('help names the docs in the repository', () => {
  it('--help ends with the docs, and every file it names exists', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    const docs = r.stdout.slice(r.stdout.indexOf('Docs (in the repository):'));
    const named = [...docs.matchAll(/^ {2}(\S+\.md)\s/gm)].map((m) => m[1]!);
    expect(named).toEqual(['README.md', 'docs/contract.md', 'docs/architecture.md']);
    expect(named.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it.each(['simulate', 'check', 'diagnose', 'quota', 'whatif', 'console', 'start', 'serve', 'mcp', 'completion'])(
    '%s --help links docs/contract.md',
    async (command) => {
      const r = await run([command, '--help']);
      expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
        `Docs: docs/contract.md ("quota-doctor ${command}"), README.md`,
      );
    },
  );
});

describe('completion', () => {
  let dir: string;
  let bashFile: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qd-completion-'));
    bashFile = join(dir, 'quota-doctor.bash');
    const r = await run(['completion', 'bash']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    writeFileSync(bashFile, r.stdout);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('bash -n accepts the bash script', () => {
    const r = spawnSync('bash', ['-n', bashFile], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });

  /** Sources the script in a fresh bash, completes the line (the last word is the one being typed), prints COMPREPLY sorted. */
  function complete(words: string[]): string[] {
    const quoted = words.map((w) => `'${w}'`).join(' ');
    const script = `source '${bashFile}'; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _quota_doctor; printf '%s\\n' "\${COMPREPLY[@]}" | LC_ALL=C sort`;
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script], { cwd: ROOT, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter((l) => l !== '');
  }

  it.each([
    [
      ['quota-doctor', 's'],
      ['serve', 'simulate', 'start'],
    ],
    [
      ['quota-doctor', 'c'],
      ['check', 'completion', 'console'],
    ],
    [['quota-doctor', '--state', 'manifests/demo', 'qu'], ['quota']],
    [
      ['quota-doctor', '--'],
      ['--context', '--help', '--k8s-version', '--kubeconfig', '--state', '--version'],
    ],
    [
      ['quota-doctor', 'check', '-o', ''],
      ['json', 'yaml'],
    ],
    [['quota-doctor', 'quota', 'team-a', '--js'], ['--json']],
    [['quota-doctor', 'simulate', '-R', '--re'], ['--recursive']],
    [
      ['quota-doctor', 'check', '-f', `${MANIFESTS}/cli/web`],
      [
        `${MANIFESTS}/cli/web-4-replicas.yaml`,
        `${MANIFESTS}/cli/web-no-namespace.yaml`,
        `${MANIFESTS}/cli/web.json`,
        `${MANIFESTS}/cli/web.yaml`,
      ],
    ],
    [['quota-doctor', 'quota', '-n', 'te'], []],
    [
      ['quota-doctor', 'completion', ''],
      ['bash', 'zsh'],
    ],
    [
      ['quota-doctor', 'start', '-'],
      ['--help', '--namespace', '-h', '-n'],
    ],
  ])('%j → %j', (words, expected) => {
    expect(complete(words)).toEqual(expected);
  });

  it('every command and every flag of the program is in the bash script', async () => {
    const text = readFileSync(bashFile, 'utf8');
    const { buildProgram } = await import('../../src/cli/program.ts');
    const program = buildProgram(
      { stdout: () => {}, stderr: () => {}, readStdin: async () => '', isTTY: false },
      () => {},
    );
    const missing = program.commands
      .flatMap((c) => [c.name(), ...c.options.filter((o) => !o.hidden).flatMap((o) => [o.short, o.long])])
      .filter((w) => w !== undefined && !new RegExp(`[ "|]${w.replace(/[-]/g, '\\-')}[ "|)]`).test(text));
    expect(missing).toEqual([]);
  });

  it('zsh: a #compdef function with every command, -f repeatable, files after --state', async () => {
    const r = await run(['completion', 'zsh']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('#compdef quota-doctor');
    expect(lines.filter((l) => /^ {4}'[a-z]+:/.test(l)).map((l) => l.trim().split(':')[0])).toEqual([
      "'simulate",
      "'check",
      "'diagnose",
      "'quota",
      "'whatif",
      "'console",
      "'start",
      "'serve",
      "'mcp",
      "'completion",
    ]);
    expect(r.stdout).toContain(
      "'*-f[manifest file or folder (multi-document YAML or JSON; - for stdin); repeat for more]:path:_files'",
    );
    expect(r.stdout).toContain(
      "'--state[a file or folder of Kubernetes objects instead of the live cluster]:path:_files'",
    );
    expect(r.stdout).toContain(
      "        completion) _arguments '-h[display help]' '--help[display help]' '1:shell:(bash zsh)' ;;",
    );
    const hasZsh = spawnSync('zsh', ['--version']).status === 0;
    if (hasZsh) {
      const file = join(dir, '_quota-doctor');
      writeFileSync(file, r.stdout);
      expect(spawnSync('zsh', ['-n', file], { encoding: 'utf8' }).status).toBe(0);
    }
  });
});
