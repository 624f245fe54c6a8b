/**
 * The GitHub Action's entry script, run the way the runner runs action.yml's step: `node bin/action.js`
 * in the workspace, inputs as INPUT_* variables, outputs appended to the GITHUB_OUTPUT file. The
 * workspace holds a folder with one refused and one admitted manifest; the cluster is manifests/demo, as
 * a state snapshot or served by the loopback fake API server through a kubeconfig given as content.
 * Plus the line finder (locateObjects) on the shapes a manifest file takes.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { locateObjects, workflowCommand } from '../src/action.ts';
import { FakeApiServer } from './support/fake-apiserver.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEMO = join(ROOT, 'manifests/demo');

/** team-a's quota (team-quota) is full: pods=10 of 10. */
const REFUSED = `# A pod team-a has no room for.
apiVersion: v1
kind: Pod
metadata:
  namespace: team-a
  name: extra
spec:
  containers:
  - name: c
    image: busybox
    resources:
      requests: {cpu: 10m, memory: 16Mi}
      limits: {cpu: 10m, memory: 16Mi}
`;
const ADMITTED = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: team-b
data: {a: b}
---
apiVersion: v1
kind: Pod
metadata:
  name: probe
  namespace: team-b
spec:
  containers:
  - name: c
    image: busybox
    resources:
      requests: {cpu: 10m, memory: 16Mi}
      limits: {cpu: 10m, memory: 16Mi}
`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A workspace: k8s/apps/admitted.yaml, k8s/refused.yaml, a README the action must skip, plus `extra` files. */
function workspace(extra: Record<string, string> = {}): string {
  const ws = mkdtempSync(join(tmpdir(), 'qd-action-'));
  dirs.push(ws);
  const files: Record<string, string> = {
    'k8s/apps/admitted.yaml': ADMITTED,
    'k8s/refused.yaml': REFUSED,
    'k8s/README.md': '# not a manifest\n',
    ...extra,
  };
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(ws, p, '..'), { recursive: true });
    writeFileSync(join(ws, p), text);
  }
  return ws;
}

interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: string;
}

/** `node bin/action.js` with cwd = GITHUB_WORKSPACE = ws (async: the fake API server answers meanwhile). */
function runAction(ws: string, inputs: Record<string, string>): Promise<ActionRun> {
  const outputFile = join(ws, '.github-output');
  writeFileSync(outputFile, '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: ws,
    GITHUB_WORKSPACE: ws,
    GITHUB_OUTPUT: outputFile,
    RUNNER_TEMP: ws,
    GITHUB_ACTIONS: 'true',
  };
  for (const [k, v] of Object.entries(inputs)) env[`INPUT_${k.toUpperCase()}`] = v;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/action.js')], {
      cwd: ws,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, outputs: readFileSync(outputFile, 'utf8') }));
  });
}

const REFUSED_ANNOTATION =
  '::error file=k8s/refused.yaml,line=6,title=quota-doctor%3A Pod team-a/extra%3A rejected by ResourceQuota::pods "extra" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10\n';

describe('bin/action.js, as the runner runs it', () => {
  it.each([
    {
      what: 'one refused and one admitted manifest (a folder, recursive): the refused object annotated on its metadata.name line, exit 1',
      inputs: { path: 'k8s' },
      code: 1,
      stdout: `${REFUSED_ANNOTATION}quota-doctor: 3 object(s) checked from 2 file(s); 1 would be rejected or stay Pending\n`,
      outputs: 'result=failed\nrefused=1\n',
    },
    {
      what: 'the admitted folder alone: no annotation, exit 0',
      inputs: { path: 'k8s/apps' },
      code: 0,
      stdout: 'quota-doctor: 2 object(s) checked from 1 file(s); 0 would be rejected or stay Pending\n',
      outputs: 'result=passed\nrefused=0\n',
    },
    {
      what: 'one file as the path',
      inputs: { path: 'k8s/refused.yaml' },
      code: 1,
      stdout: `${REFUSED_ANNOTATION}quota-doctor: 1 object(s) checked from 1 file(s); 1 would be rejected or stay Pending\n`,
      outputs: 'result=failed\nrefused=1\n',
    },
    {
      what: 'a path that does not exist: exit 2, one error annotation',
      inputs: { path: 'nope' },
      code: 2,
      stdout: `::error title=quota-doctor::{WS}/nope: no such file or folder\n`,
      outputs: 'result=error\nrefused=0\n',
    },
    {
      what: "a state that does not exist: exit 2, check's message",
      inputs: { path: 'k8s', state: 'no-state' },
      code: 2,
      stdout: `::error title=quota-doctor::{WS}/no-state: no such file or directory\n`,
      outputs: 'result=error\nrefused=0\n',
    },
  ])('$what', async ({ inputs, code, stdout, outputs }) => {
    const ws = workspace();
    const r = await runAction(ws, { state: DEMO, ...inputs, ...(inputs.state ? { state: inputs.state } : {}) });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(stdout.replaceAll('{WS}', ws));
    expect(r.outputs).toBe(outputs);
    expect(r.code).toBe(code);
  });

  it('a Deployment whose pods are refused: one annotation on the Deployment, naming its first pod and counting the rest', async () => {
    const ws = workspace({ 'k8s/web.yaml': readFileSync(join(ROOT, 'examples/web-deployment.yaml'), 'utf8') });
    const r = await runAction(ws, { path: 'k8s', state: DEMO });
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines).toEqual([
      REFUSED_ANNOTATION.trimEnd(),
      expect.stringMatching(
        /^::error file=k8s\/web\.yaml,line=6,title=quota-doctor%3A Pod team-a\/web-canary-[a-z0-9]+-[a-z0-9]{5}%3A rejected by ResourceQuota::pods "web-canary-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10%0A\(1 more object\(s\) of this manifest fail too\)$/,
      ),
      'quota-doctor: 6 object(s) checked from 3 file(s); 3 would be rejected or stay Pending',
      '',
    ]);
    expect(r.outputs).toBe('result=failed\nrefused=2\n');
    expect(r.code).toBe(1);
  });

  it('a file that is not valid YAML: annotated with its name, nothing checked, exit 2', async () => {
    const ws = workspace({ 'k8s/broken.yaml': 'kind: Pod\nmetadata: {name: [\n' });
    const r = await runAction(ws, { path: 'k8s', state: DEMO });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^::error file=k8s\/broken\.yaml,title=quota-doctor%3A unreadable manifest::k8s\/broken\.yaml[^\n]*\n$/,
    );
    expect(r.outputs).toBe('result=error\nrefused=0\n');
    expect(r.code).toBe(2);
  });

  it('kubeconfig given as content (a secret): the live cluster (fake API server with manifests/demo) gives the same annotations as the state', async () => {
    const fake = await FakeApiServer.start({ state: 'manifests/demo' });
    try {
      const ws = workspace();
      const kcDir = mkdtempSync(join(tmpdir(), 'qd-action-kc-'));
      dirs.push(kcDir);
      const content = readFileSync(fake.writeKubeconfig(join(kcDir, 'config')), 'utf8');
      const r = await runAction(ws, { path: 'k8s', kubeconfig: content });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(
        `${REFUSED_ANNOTATION}quota-doctor: 3 object(s) checked from 2 file(s); 1 would be rejected or stay Pending\n`,
      );
      expect(r.outputs).toBe('result=failed\nrefused=1\n');
      expect(r.code).toBe(1);
    } finally {
      await fake.close();
    }
  });
});

describe('locateObjects: the line an annotation points at', () => {
  it.each([
    {
      shape: 'metadata.name after other keys',
      text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  labels: {a: b}\n  name: web\n',
      want: [{ kind: 'Pod', name: 'web', line: 5 }],
    },
    {
      shape: 'several documents, comments and a leading ---',
      text: '# c\n---\nkind: Pod\nmetadata:\n  name: a\n---\n# second\nkind: Service\nmetadata: {name: b}\n',
      want: [
        { kind: 'Pod', name: 'a', line: 5 },
        { kind: 'Service', name: 'b', line: 9 },
      ],
    },
    {
      shape: "no name (generateName): the object's first line",
      text: '---\n\nkind: Pod\nmetadata:\n  generateName: w-\n',
      want: [{ kind: 'Pod', name: '', line: 3 }],
    },
    {
      shape: 'JSON',
      text: '{\n  "kind": "Pod",\n  "metadata": {\n    "name": "j"\n  }\n}\n',
      want: [{ kind: 'Pod', name: 'j', line: 4 }],
    },
    {
      shape: 'a List: each item',
      text: 'kind: List\nitems:\n- kind: Pod\n  metadata:\n    name: p1\n- kind: Pod\n  metadata:\n    name: p2\n',
      want: [
        { kind: 'Pod', name: 'p1', line: 5 },
        { kind: 'Pod', name: 'p2', line: 8 },
      ],
    },
  ])('$shape', ({ text, want }) => {
    expect(locateObjects(text, 'f.yaml')).toEqual(want.map((w) => ({ file: 'f.yaml', ...w })));
  });
});

describe('workflowCommand escaping (the runner decodes %25, %0D, %0A; and %3A, %2C in properties)', () => {
  it.each([
    {
      message: 'a: b, c',
      props: { file: 'k8s/a,b.yaml', line: 3, title: 'x: y' },
      want: '::error file=k8s/a%2Cb.yaml,line=3,title=x%3A y::a: b, c\n',
    },
    { message: '100% full\r\nnext', props: {}, want: '::error::100%25 full%0D%0Anext\n' },
  ])('$want', ({ message, props, want }) => {
    expect(workflowCommand('error', message, props)).toBe(want);
  });
});

// The example workflow is copied by users; it must use this repository's action and its real inputs.
describe('action.yml and examples/ci/github-workflow.yml', () => {
  it('the example passes only inputs action.yml declares, and the composite step passes every input as INPUT_*', () => {
    const action = readFileSync(join(ROOT, 'action.yml'), 'utf8');
    const example = readFileSync(join(ROOT, 'examples/ci/github-workflow.yml'), 'utf8');
    const declared = [
      ...action.slice(action.indexOf('\ninputs:'), action.indexOf('\noutputs:')).matchAll(/^ {2}([a-z-]+):$/gm),
    ].map((m) => m[1]);
    expect(declared).toEqual(['path', 'kubeconfig', 'context', 'state', 'namespace', 'node-version']);
    const withBlock = example.slice(example.indexOf('with:'), example.indexOf('- if:'));
    for (const m of withBlock.matchAll(/^ {10}#? ?([a-z-]+):/gm)) expect(declared).toContain(m[1]);
    for (const name of declared.filter((n) => n !== 'node-version'))
      expect(action).toContain(`INPUT_${name.toUpperCase()}: \${{ inputs.${name} }}`);
    expect(action).toContain('run: node "$GITHUB_ACTION_PATH/bin/action.js"');
  });
});
