/**
 * `-f` as kubectl takes it (docs/contract.md "Reading manifests"): a folder (its *.yaml, *.yml, *.json,
 * sorted; subfolders with -R), repeated `-f`, `-f -`. All the objects are one run, in order — what
 * `kubectl apply -f DIR` does — so the equivalence with one run per file is shown on manifests that do not
 * depend on each other, and the dependence itself on two pods that share a quota.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { DEMO, ROOT, json, run } from './harness.ts';

interface SimJson {
  results: {
    kind: string;
    namespace: string | null;
    name: string;
    admission: { allowed: boolean; layer: string | null; message: string | null };
    scheduling: { scheduled: boolean; node: string | null; message?: string | null } | null;
  }[];
  warnings: string[];
}

/** What a verdict is: admitted or refused (by which layer, with which message), scheduled or Pending (why). */
const verdicts = (out: SimJson) =>
  out.results.map((r) => [
    `${r.kind} ${r.namespace ?? ''}/${r.name}`,
    r.admission.allowed,
    r.admission.layer,
    r.admission.message,
    r.scheduling === null ? null : r.scheduling.scheduled,
    r.scheduling === null ? null : (r.scheduling.message ?? null),
  ]);

const pod = (name: string, ns: string | undefined, resources: string, extra = '') =>
  [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    `  name: ${name}`,
    ...(ns ? [`  namespace: ${ns}`] : []),
    'spec:',
    ...(extra ? [`  ${extra}`] : []),
    '  containers:',
    '  - name: app',
    '    image: nginx',
    `    resources: ${resources}`,
    '',
  ].join('\n');

const TINY = '{ requests: { cpu: 10m, memory: 16Mi }, limits: { cpu: 10m, memory: 16Mi } }';

/**
 * The 50 manifests, against manifests/demo (see its README): each verdict is the same whatever runs before
 * it. Admitted pods go to `default` (no quota, no LimitRange; 10m each, a few hundred millicores free per
 * node); team-a is out of pods (10/10), so every pod there is refused by team-quota and charges nothing;
 * a 3-CPU limit is over the team-a LimitRange max of 2; team-b's `compute` quota refuses a pod without
 * limits; 64 CPUs or a missing node pool stay Pending whatever else is placed (and charge no quota in default).
 */
const KINDS: readonly { key: string; text: (i: number) => string; failed: boolean }[] = [
  { key: 'admitted', text: (i) => pod(`ok-${i}`, 'default', TINY), failed: false },
  { key: 'quota', text: (i) => pod(`full-${i}`, 'team-a', TINY), failed: true },
  {
    key: 'limitrange',
    text: (i) => pod(`big-limit-${i}`, 'team-a', '{ requests: { cpu: 500m }, limits: { cpu: "3" } }'),
    failed: true,
  },
  {
    key: 'must-specify',
    text: (i) => pod(`no-limits-${i}`, 'team-b', '{ requests: { cpu: 100m, memory: 64Mi } }'),
    failed: true,
  },
  { key: 'pending-cpu', text: (i) => pod(`huge-${i}`, 'default', '{ requests: { cpu: "64" } }'), failed: true },
  {
    key: 'pending-selector',
    text: (i) => pod(`nowhere-${i}`, 'default', TINY, 'nodeSelector: { pool: no-such-pool }'),
    failed: true,
  },
  { key: 'no-namespace', text: (i) => pod(`plain-${i}`, undefined, TINY), failed: false },
  {
    key: 'two-documents',
    text: (i) => `${pod(`pair-ok-${i}`, 'default', TINY)}---\n${pod(`pair-full-${i}`, 'team-a', TINY)}`,
    failed: true,
  },
];
const EXT = ['yaml', 'yml', 'json'] as const;

let dir: string;
let folder: string;
const files: string[] = [];
const failedByFile: boolean[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'qd-files-'));
  folder = join(dir, 'manifests');
  mkdirSync(folder);
  for (let i = 0; i < 50; i++) {
    const kind = KINDS[i % KINDS.length]!;
    const ext = EXT[i % EXT.length]!;
    const text = ext === 'json' ? jsonOf(kind.text(i)) : kind.text(i);
    const file = join(folder, `m${String(i).padStart(2, '0')}-${kind.key}.${ext}`);
    writeFileSync(file, text);
    files.push(file);
    failedByFile.push(kind.failed);
  }
  // Not read from a folder: other extensions, and a subfolder without -R.
  writeFileSync(join(folder, 'notes.txt'), 'not a manifest');
  writeFileSync(join(folder, 'm99.YAML'), pod('upper-case-ext', 'default', TINY));
  mkdirSync(join(folder, 'sub'));
  writeFileSync(join(folder, 'sub', 'nested.yaml'), pod('nested', 'team-a', TINY));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Our generated YAML as JSON: one object, or a `kind: List` for two documents (converted by the yaml package). */
function jsonOf(yamlText: string): string {
  const docs = parseAllDocuments(yamlText).map((d) => d.toJS() as unknown);
  return JSON.stringify(docs.length === 1 ? docs[0] : { apiVersion: 'v1', kind: 'List', items: docs });
}

const sim = (command: 'simulate' | 'check', ...f: string[]) => [
  command,
  ...f.flatMap((p) => ['-f', p]),
  '-n',
  'default',
  '--state',
  DEMO,
  '--json',
];

describe('-f over a folder of 50 manifests (against manifests/demo)', () => {
  it('the generated files parse as the manifests they were written from', async () => {
    const r = await run(sim('simulate', files[1]!, files[2]!));
    expect(r.stderr).toBe('');
    expect(verdicts(json<SimJson>(r)).map((v) => v[0])).toEqual(['Pod team-a/full-1', 'Pod team-a/big-limit-2']);
  });

  it('check -f DIR: the same objects and verdicts as one run per file, exit 1 iff a per-file run exits 1', async () => {
    const perFile = [];
    const codes = [];
    for (const f of files) {
      const r = await run(sim('check', f));
      expect(r.stderr, f).toBe('');
      perFile.push(...verdicts(json<SimJson>(r)));
      codes.push(r.code);
    }
    expect(codes).toEqual(failedByFile.map((f) => (f ? 1 : 0)));

    const whole = await run(sim('check', folder));
    expect(whole.stderr).toBe('');
    expect(whole.code).toBe(codes.includes(1) ? 1 : 0);
    const combined = verdicts(json<SimJson>(whole));
    expect(combined).toEqual(perFile);
    // 50 files cycling through the 8 KINDS: kinds 0 and 1 seven times, the others six; six files of two
    // documents: 56 objects. The tally by outcome, worked out from KINDS (must-specify is a quota refusal).
    expect(combined).toHaveLength(56);
    const tally = (pred: (v: (typeof combined)[number]) => boolean) => combined.filter(pred).length;
    expect({
      admittedScheduled: tally((v) => v[1] === true && v[4] === true),
      pending: tally((v) => v[1] === true && v[4] === false),
      quota: tally((v) => v[2] === 'quota'),
      limitrange: tally((v) => v[2] === 'limitrange'),
    }).toEqual({ admittedScheduled: 7 + 6 + 6, pending: 6 + 6, quota: 7 + 6 + 6, limitrange: 6 });
  }, 300_000);

  it('simulate -f DIR --json is byte for byte simulate of the files concatenated, and of -f repeated for each', async () => {
    const concat = join(dir, 'all.yaml');
    writeFileSync(concat, files.map((f) => readFileSync(f, 'utf8')).join('\n---\n'));
    const whole = await run(sim('simulate', folder));
    const one = await run(sim('simulate', concat));
    const repeated = await run(sim('simulate', ...files));
    expect([whole.code, one.code, repeated.code]).toEqual([0, 0, 0]);
    expect(whole.stdout).toBe(one.stdout);
    expect(repeated.stdout).toBe(whole.stdout);
    expect(whole.stdout.length).toBeGreaterThan(10_000);
  }, 60_000);

  it('a folder is read in name order, not other extensions, not subfolders without -R; with -R the subfolder where its name sorts', async () => {
    const names = async (...extra: string[]) =>
      verdicts(json<SimJson>(await run([...sim('simulate', folder), ...extra]))).map((v) => String(v[0]));
    const flat = await names();
    expect(flat.slice(0, 3)).toEqual(['Pod default/ok-0', 'Pod team-a/full-1', 'Pod team-a/big-limit-2']);
    expect(flat.slice(-3)).toEqual(['Pod team-a/pair-full-47', 'Pod default/ok-48', 'Pod team-a/full-49']);
    expect(flat.filter((n) => /upper-case-ext|nested/.test(n))).toEqual([]);
    const deep = await names('-R');
    // "sub" sorts after "m99.YAML" and "notes.txt" (neither read): the nested pod comes last.
    expect(deep).toEqual([...flat, 'Pod team-a/nested']);
  }, 60_000);
});

describe('-f - and repeated -f', () => {
  it('stdin is read where its -f stands', async () => {
    const r = await run(
      ['simulate', '-f', files[0]!, '-f', '-', '-f', files[1]!, '--state', DEMO, '--json'],
      pod('from-stdin', 'default', TINY),
    );
    expect(r.stderr).toBe('');
    expect(verdicts(json<SimJson>(r)).map((v) => v[0])).toEqual([
      'Pod default/ok-0',
      'Pod default/from-stdin',
      'Pod team-a/full-1',
    ]);
  });

  it("--filename (kubectl's long name) and -f join one list, in the order given", async () => {
    const r = await run([
      'simulate',
      '--filename',
      files[2]!,
      '-f',
      files[0]!,
      `--filename=${files[1]!}`,
      '--state',
      DEMO,
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(verdicts(json<SimJson>(r)).map((v) => v[0])).toEqual([
      'Pod team-a/big-limit-2',
      'Pod default/ok-0',
      'Pod team-a/full-1',
    ]);
  });

  it('-n is the namespace of objects that name none (as kubectl apply -n)', async () => {
    const r = await run(
      ['simulate', '-f', '-', '-n', 'team-a', '--state', DEMO, '--json'],
      pod('plain', undefined, TINY),
    );
    expect(verdicts(json<SimJson>(r))).toEqual([
      [
        'Pod team-a/plain',
        false,
        'quota',
        'pods "plain" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10',
        null,
        null,
      ],
    ]);
  });
});

describe('one run, as kubectl apply -f DIR: objects see the ones before them', () => {
  let d: string;
  beforeAll(() => {
    d = mkdtempSync(join(tmpdir(), 'qd-shared-'));
    const quota = [
      'apiVersion: v1',
      'kind: ResourceQuota',
      'metadata: { name: one-pod, namespace: default }',
      'spec: { hard: { pods: "1" } }',
      '',
    ].join('\n');
    writeFileSync(join(d, 'state.yaml'), `${quota}---\n${readNodes()}`);
    mkdirSync(join(d, 'm'));
    writeFileSync(join(d, 'm', 'a.yaml'), pod('first', 'default', TINY));
    writeFileSync(join(d, 'm', 'b.yaml'), pod('second', 'default', TINY));
  });
  afterAll(() => rmSync(d, { recursive: true, force: true }));

  /** The demo's nodes and namespaces, so the pods have somewhere to go. */
  function readNodes(): string {
    return ['00-namespaces.yaml', '10-nodes.yaml'].map((f) => `# ${f}\n${readDemo(f)}`).join('\n---\n');
  }

  it('each file alone is admitted; together the second is refused by the quota the first filled', async () => {
    const alone = [];
    for (const f of ['a.yaml', 'b.yaml']) {
      const r = await run(['check', '-f', join(d, 'm', f), '--state', join(d, 'state.yaml'), '--json']);
      alone.push([r.code, verdicts(json<SimJson>(r)).map((v) => [v[0], v[1]])]);
    }
    expect(alone).toEqual([
      [0, [['Pod default/first', true]]],
      [0, [['Pod default/second', true]]],
    ]);
    const together = await run(['check', '-f', join(d, 'm'), '--state', join(d, 'state.yaml'), '--json']);
    expect(together.code).toBe(1);
    expect(verdicts(json<SimJson>(together)).map((v) => [v[0], v[1], v[3]])).toEqual([
      ['Pod default/first', true, null],
      [
        'Pod default/second',
        false,
        'pods "second" is forbidden: exceeded quota: one-pod, requested: pods=1, used: pods=1, limited: pods=1',
      ],
    ]);
  });
});

function readDemo(file: string): string {
  return readFileSync(join(ROOT, DEMO, file), 'utf8');
}
