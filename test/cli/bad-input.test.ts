/**
 * Bad usage and unreadable input: exit 2 and exactly one line on stderr, naming the file (and the field
 * where there is one), never a stack trace (docs/contract.md "Running it"), in-process.
 */
import { describe, expect, it } from 'vitest';
import { MANIFESTS, STACK_TRACE, STATES, run } from './harness.ts';

const BAD = `${MANIFESTS}/bad`;
const STATE = `${STATES}/pods-3.yaml`;
const sim = (file: string, ...more: string[]): string[] => ['simulate', '-f', file, '--state', STATE, ...more];

function expectOneLine(stderr: string): void {
  expect(stderr.endsWith('\n')).toBe(true);
  expect(stderr.split('\n')).toHaveLength(2);
  expect(stderr).not.toMatch(STACK_TRACE);
}

describe('bad input exits 2 with one line on stderr', () => {
  it.each([
    {
      what: 'a quantity that does not parse (cpu: "1.5.5")',
      argv: sim(`${BAD}/cpu-1.5.5.yaml`),
      line: `quota-doctor: ${BAD}/cpu-1.5.5.yaml (Pod team-a/web): spec.containers[0].resources.requests.cpu: invalid quantity "1.5.5"`,
    },
    {
      what: 'a list where a map belongs (resources: {limits: [1,2]})',
      argv: sim(`${BAD}/limits-list.yaml`),
      line: `quota-doctor: ${BAD}/limits-list.yaml (Pod team-a/web): spec.containers[0].resources.limits: `,
    },
    {
      what: 'a YAML alias bomb (billion laughs)',
      argv: sim(`${BAD}/billion-laughs.yaml`),
      line: `quota-doctor: ${BAD}/billion-laughs.yaml: invalid YAML: `,
    },
    { what: 'an empty file', argv: sim(`${BAD}/empty.yaml`), line: `quota-doctor: ${BAD}/empty.yaml: empty` },
    {
      what: 'a missing file',
      argv: sim(`${BAD}/no-such-file.yaml`),
      line: `quota-doctor: ${BAD}/no-such-file.yaml: no such file`,
    },
    {
      what: 'a folder as -f: its first bad file, by name',
      argv: sim(BAD),
      line: `quota-doctor: ${BAD}/billion-laughs.yaml: invalid YAML: `,
    },
    {
      what: 'a missing file after a good one',
      argv: sim(`${MANIFESTS}/cli/web.yaml`, '-f', `${BAD}/no-such-file.yaml`),
      line: `quota-doctor: ${BAD}/no-such-file.yaml: no such file`,
    },
    {
      what: 'a bad file after a good one',
      argv: sim(`${MANIFESTS}/cli/web.yaml`, '-f', `${BAD}/empty.yaml`),
      line: `quota-doctor: ${BAD}/empty.yaml: empty`,
    },
    { what: 'stdin twice', argv: sim('-', '-f', '-'), line: 'quota-doctor: -f -: stdin can be read only once' },
    {
      what: 'an output format kubectl has but we do not',
      argv: sim(`${MANIFESTS}/cli/web.yaml`, '-o', 'wide'),
      line: "error: option '-o, --output <format>' argument 'wide' is invalid. Allowed choices are json, yaml.",
    },
    {
      what: '--json with -o yaml',
      argv: sim(`${MANIFESTS}/cli/web.yaml`, '--json', '-o', 'yaml'),
      line: 'quota-doctor: --json and -o yaml contradict each other',
    },
    {
      what: 'a source flag on a command that reads no cluster',
      argv: ['serve', '--state', STATE],
      line: 'quota-doctor: --state does not apply to serve',
    },
    {
      what: 'a source flag before a command that reads no cluster',
      argv: ['--kubeconfig', '/x', 'completion', 'bash'],
      line: 'quota-doctor: --kubeconfig does not apply to completion',
    },
    {
      what: 'two different namespaces for quota',
      argv: ['quota', 'team-a', '-n', 'team-b', '--state', STATE],
      line: 'quota-doctor: two namespaces: team-a and -n team-b',
    },
    {
      what: 'completion for an unknown shell',
      argv: ['completion', 'fish'],
      line: "error: command-argument value 'fish' is invalid for argument 'shell'. Allowed choices are bash, zsh.",
    },
    {
      what: 'invalid YAML',
      argv: sim(`${BAD}/invalid.yaml`),
      line: `quota-doctor: ${BAD}/invalid.yaml: invalid YAML: `,
    },
    {
      what: 'an unknown flag',
      argv: sim(`${MANIFESTS}/cli/web.yaml`, '--bogus'),
      line: "error: unknown option '--bogus'",
    },
    {
      what: 'no -f',
      argv: ['simulate', '--state', STATE],
      line: "error: required option '-f, --file <path>' not specified",
    },
    {
      what: 'no -f for check',
      argv: ['check', '--state', STATE],
      line: "error: required option '-f, --file <path>' not specified",
    },
    {
      what: '-f without its value',
      argv: ['simulate', '-f'],
      line: "error: option '-f, --file <path>' argument missing",
    },
    {
      what: 'a state path that does not exist',
      argv: ['simulate', '-f', `${MANIFESTS}/cli/web.yaml`, '--state', `${STATES}/no-such-state`],
      line: `quota-doctor: ${STATES}/no-such-state: `,
    },
    {
      what: 'a state file with a bad quantity',
      argv: ['quota', 'team-a', '--state', `${BAD}/cpu-1.5.5.yaml`],
      line: `quota-doctor: ${BAD}/cpu-1.5.5.yaml (Pod team-a/web): spec.containers[0].resources.requests.cpu: invalid quantity "1.5.5"`,
    },
    {
      what: 'quota of a namespace the state lacks',
      argv: ['quota', 'no-such-ns', '--state', STATE],
      line: 'quota-doctor: namespace no-such-ns not found',
    },
    {
      what: 'quota without a namespace',
      argv: ['quota', '--state', STATE],
      line: 'quota-doctor: quota needs a namespace: quota-doctor quota NAMESPACE (or -n NAMESPACE)',
    },
    {
      what: 'diagnose of a missing file',
      argv: ['diagnose', `${BAD}/no-such-paste.txt`],
      line: `quota-doctor: ${BAD}/no-such-paste.txt: no such file`,
    },
    { what: 'an unknown command', argv: ['frobnicate'], line: "error: unknown command 'frobnicate'" },
    { what: 'no command at all', argv: [], line: 'quota-doctor: missing command' },
  ])('$what', async ({ argv, line }) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expectOneLine(r.stderr);
    expect(r.stderr.startsWith(line), `stderr: ${r.stderr}`).toBe(true);
  });

  it('the alias bomb is refused for its aliases, not after expanding them', async () => {
    const r = await run(sim(`${BAD}/billion-laughs.yaml`));
    expect(r.stderr).toMatch(/alias/i);
  });

  it('invalid YAML names the line and column', async () => {
    const r = await run(sim(`${BAD}/invalid.yaml`));
    expect(r.stderr).toMatch(/line 4, column 9/);
  });
});

describe('help exits 0', () => {
  it.each(
    [['simulate', '--help'], ['check', '--help'], ['--help'], ['help', 'simulate']].map((argv) => ({
      argv,
      title: argv.join(' '),
    })),
  )('$title', async ({ argv }) => {
    const r = await run(argv);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: quota-doctor/);
    expect(r.stderr).toBe('');
  });
});
