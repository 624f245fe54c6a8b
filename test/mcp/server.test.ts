/**
 * `quota-doctor mcp` driven by the SDK's own client over stdio, the way an MCP client (Claude Desktop, an
 * agent) runs it: `node bin/quota-doctor.js mcp --state manifests/demo`. Each tool's structuredContent is
 * compared byte for byte (after JSON normalisation) with `<command> --json` on the same input, and its text
 * with the command's plain output; with `--namespaces team-a`, anything about another namespace is refused.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  checkOutputSchema,
  diagnoseOutputSchema,
  quotaOutputSchema,
  simulateOutputSchema,
  whatifOutputSchema,
} from '../../src/contract/schemas.ts';
import { refusalAnswer } from '../../src/answer/policy.ts';
import { renderAnswer } from '../../src/render/text.ts';
import { DEMO, MANIFESTS, ROOT, run, runBin } from '../cli/harness.ts';

const PASTE =
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';
const TEAM_B_PASTE =
  'Error creating: pods "report-gen-6d8f7b9c4-87lqz" is forbidden: failed quota: compute: must specify limits.cpu for: app; limits.memory for: app';
const REFUSAL = renderAnswer(refusalAnswer());
const VERSION = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string }).version;

interface Result {
  isError: boolean;
  text: string;
  structured: string | undefined;
}

async function connect(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['bin/quota-doctor.js', 'mcp', ...args],
    cwd: ROOT,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'quota-doctor-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A tool call as the client sees it: the error flag, the text, the structured content as `--json` would print it. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  const r = await client.callTool({ name, arguments: args });
  const content = z.array(z.object({ type: z.string(), text: z.string() })).parse(r.content);
  return {
    isError: r.isError === true,
    text: content.map((c) => c.text).join('\n'),
    structured: r.structuredContent === undefined ? undefined : `${JSON.stringify(r.structuredContent, null, 2)}\n`,
  };
}

async function cli(argv: string[], stdin = ''): Promise<{ code: number; stdout: string }> {
  const r = await run(argv, stdin);
  expect(r.stderr).toBe('');
  return { code: r.code, stdout: r.stdout };
}

let open: Client;
let teamA: Client;

beforeAll(async () => {
  [open, teamA] = await Promise.all([connect(['--state', DEMO]), connect(['--state', DEMO, '--namespaces', 'team-a'])]);
}, 60_000);

afterAll(async () => {
  await Promise.all([open?.close(), teamA?.close()]);
});

describe('initialize and tools/list', () => {
  it('the server names itself and offers tools', () => {
    expect([open.getServerVersion(), open.getServerCapabilities()?.tools !== undefined]).toEqual([
      { name: 'quota-doctor', version: VERSION },
      true,
    ]);
  });

  it('lists the five tools, each with its input schema and the contract schema as output schema', async () => {
    const { tools } = await open.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(tools.map((t) => t.name)).toEqual(['diagnose', 'simulate', 'check', 'quota', 'whatif']);
    const expected = [
      ['diagnose', ['text'], ['namespace', 'text'], diagnoseOutputSchema],
      ['simulate', ['manifest'], ['manifest', 'namespace'], simulateOutputSchema],
      ['check', ['manifest'], ['manifest', 'namespace'], checkOutputSchema],
      ['quota', ['namespace'], ['namespace'], quotaOutputSchema],
      ['whatif', ['question'], ['namespace', 'question'], whatifOutputSchema],
    ] as const;
    for (const [name, required, properties, output] of expected) {
      const t = byName.get(name)!;
      expect([
        name,
        t.inputSchema.type,
        t.inputSchema.required,
        Object.keys(t.inputSchema.properties ?? {}).sort(),
        typeof t.description,
      ]).toEqual([name, 'object', required, properties, 'string']);
      expect(t.outputSchema).toEqual(z.toJSONSchema(output, { target: 'draft-7', io: 'output' }));
    }
  });
});

describe('each tool returns what the CLI command prints', () => {
  it('diagnose on a pasted quota error: the findings of diagnose --json, byte for byte, and its text', async () => {
    const [r, json, text] = await Promise.all([
      call(open, 'diagnose', { text: PASTE }),
      cli(['diagnose', '--state', DEMO, '--json'], PASTE),
      cli(['diagnose', '--state', DEMO], PASTE),
    ]);
    expect(r.structured).toBe(json.stdout);
    expect(`${r.text}\n`).toBe(text.stdout);
    const findings = diagnoseOutputSchema.parse(JSON.parse(r.structured!)).findings;
    expect(findings.map((f) => [f.layer, f.kind, f.namespace, f.object?.name, f.fixes.length])).toEqual([
      ['quota', 'quota-exceeded', 'team-a', 'worker-5d8c7b9f4-glpms', 4],
    ]);
    expect(r.isError).toBe(false);
  });

  it.each([
    ['nothing recognised', 'hello there', undefined],
    [
      'a default namespace',
      'Error creating: pods "x" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=1, used: requests.nvidia.com/gpu=8, limited: requests.nvidia.com/gpu=8',
      'ml',
    ],
  ])('diagnose, %s', async (_, text, namespace) => {
    const nsArgs = namespace ? ['-n', namespace] : [];
    const [r, json, plain] = await Promise.all([
      call(open, 'diagnose', { text, ...(namespace ? { namespace } : {}) }),
      cli(['diagnose', '--state', DEMO, '--json', ...nsArgs], text),
      cli(['diagnose', '--state', DEMO, ...nsArgs], text),
    ]);
    expect([r.structured, `${r.text}\n`, r.isError]).toEqual([json.stdout, plain.stdout, false]);
  });

  it.each(['team-a', 'team-b', 'ml'])('quota %s: quota --json', async (ns) => {
    const [r, json, plain] = await Promise.all([
      call(open, 'quota', { namespace: ns }),
      cli(['quota', ns, '--state', DEMO, '--json']),
      cli(['quota', ns, '--state', DEMO]),
    ]);
    expect([r.structured, `${r.text}\n`, r.isError]).toEqual([json.stdout, plain.stdout, false]);
  });

  it.each([
    ['web.yaml', 'fail', 1],
    ['web-4-replicas.yaml', 'fail', 1],
    ['web-no-namespace.yaml', 'pass', 0],
  ])('simulate and check %s: simulate --json; check adds verdict %s (exit %i)', async (file, verdict, code) => {
    const path = `${MANIFESTS}/cli/${file}`;
    const manifest = readFileSync(`${ROOT}${path}`, 'utf8');
    const [sim, chk, json, checkPlain] = await Promise.all([
      call(open, 'simulate', { manifest }),
      call(open, 'check', { manifest }),
      cli(['simulate', '-f', path, '--state', DEMO, '--json']),
      cli(['check', '-f', path, '--state', DEMO]),
    ]);
    expect(sim.structured).toBe(json.stdout);
    const expected: unknown = { ...(JSON.parse(json.stdout) as object), verdict };
    expect([JSON.parse(chk.structured!), `${chk.text}\n`, checkPlain.code, sim.isError, chk.isError]).toEqual([
      expected,
      checkPlain.stdout,
      code,
      false,
      false,
    ]);
  });

  it.each([
    'what if web scales to 8 in team-a?',
    'what if general-a-1 goes down?',
    'raise pods of team-quota to 14 in team-a',
  ])('whatif %s: whatif --json', async (question) => {
    const [r, json, plain] = await Promise.all([
      call(open, 'whatif', { question }),
      cli(['whatif', question, '--state', DEMO, '--json']),
      cli(['whatif', question, '--state', DEMO]),
    ]);
    expect([r.structured, `${r.text}\n`, r.isError]).toEqual([json.stdout, plain.stdout, false]);
  });
});

describe("bad input is an error result with the CLI's line, never a crash", () => {
  it('quota of a namespace that does not exist', async () => {
    const r = await call(open, 'quota', { namespace: 'nope' });
    expect(r).toEqual({ isError: true, text: 'quota-doctor: namespace nope not found', structured: undefined });
  });

  it('a manifest that is not YAML: the line `simulate -f` writes on stderr', async () => {
    const bad = 'kind: Pod\nmetadata: [\n';
    const [r, c] = await Promise.all([
      call(open, 'simulate', { manifest: bad }),
      run(['simulate', '-f', '-', '--state', DEMO], bad),
    ]);
    expect([r.isError, r.text, c.code]).toEqual([true, c.stderr.trimEnd().replace('<stdin>', '<manifest>'), 2]);
  });

  it('a namespace argument that is not a namespace name is refused by the input schema', async () => {
    const r = await call(open, 'quota', { namespace: 'Team_A' });
    expect([r.isError, r.text.includes('Input validation error'), r.structured]).toEqual([true, true, undefined]);
  });

  it('the server still answers after errors', async () => {
    expect((await call(open, 'quota', { namespace: 'team-a' })).isError).toBe(false);
  });
});

describe('--namespaces team-a: the one refusal for everything else, naming nothing of it', () => {
  const teamB = ['team-b', 'report-gen', 'compute', 'frontend', 'toolbox', 'cache'];
  const namesNothing = (r: Result) => teamB.filter((w) => r.text.includes(w) || (r.structured ?? '').includes(w));

  it.each([
    ['diagnose of a team-b pod, its namespace given', 'diagnose', { text: TEAM_B_PASTE, namespace: 'team-b' }],
    [
      'diagnose of team-b describe output',
      'diagnose',
      {
        text: `Name:         report-gen-6d8f7b9c4-87lqz\nNamespace:    team-b\nEvents:\n  Warning  FailedCreate  replicaset-controller  ${TEAM_B_PASTE}`,
      },
    ],
    [
      'diagnose of a team-b manifest',
      'diagnose',
      {
        text: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: team-b\nspec:\n  containers:\n  - name: app\n    image: nginx\n',
      },
    ],
    ['quota team-b', 'quota', { namespace: 'team-b' }],
    ['quota of a namespace that does not exist (no existence oracle)', 'quota', { namespace: 'nope' }],
    ['whatif in team-b', 'whatif', { question: 'what if frontend scales to 3 in team-b?' }],
    ['whatif with namespace team-b', 'whatif', { question: 'what if frontend scales to 3', namespace: 'team-b' }],
    [
      'simulate of a team-b pod',
      'simulate',
      {
        manifest:
          'apiVersion: v1\nkind: Pod\nmetadata: { name: p, namespace: team-b }\nspec: { containers: [ { name: a, image: nginx } ] }\n',
      },
    ],
    [
      'check of a pod in default (not listed)',
      'check',
      { manifest: readFileSync(`${ROOT}${MANIFESTS}/cli/web-no-namespace.yaml`, 'utf8') },
    ],
  ])('%s', async (_, tool, args) => {
    const r = await call(teamA, tool, args);
    expect([r.isError, r.text, r.structured, namesNothing(r)]).toEqual([true, REFUSAL, undefined, []]);
  });

  it('team-a itself is answered as the CLI answers it', async () => {
    const [d, q, json, quota] = await Promise.all([
      call(teamA, 'diagnose', { text: PASTE }),
      call(teamA, 'quota', { namespace: 'team-a' }),
      cli(['diagnose', '--state', DEMO, '--json'], PASTE),
      cli(['quota', 'team-a', '--state', DEMO, '--json']),
    ]);
    expect([d.structured, q.structured]).toEqual([json.stdout, quota.stdout]);
  });
});

describe('the process', () => {
  it.each([
    [',', 'quota-doctor: --namespaces: no namespace given (leave it out to allow every namespace)\n'],
    ['team-a,Team_B', 'quota-doctor: --namespaces: Team_B is not a namespace name (lowercase letters, digits and -)\n'],
  ])('--namespaces %j is bad usage: exit 2, one line', (list, stderr) => {
    const r = runBin(['mcp', '--state', DEMO, '--namespaces', list]);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', stderr]);
  });

  it('a --state that cannot be read is exit 2 before serving', () => {
    const r = runBin(['mcp', '--state', 'no/such/dir']);
    expect([r.code, r.stdout, r.stderr.split('\n').length]).toEqual([2, '', 2]);
  });

  it('ends with exit 0 when the client closes stdin, writing nothing but protocol on stdout', () => {
    const r = runBin(['mcp', '--state', DEMO]);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      0,
      '',
      'quota-doctor mcp: serving on stdio (state manifests/demo)\n',
    ]);
  });

  it('without any cluster, diagnose answers from the text and the other tools say there is none', async () => {
    const client = await connect([], { KUBECONFIG: `${ROOT}no/such/kubeconfig`, HOME: `${ROOT}no/such/home` });
    try {
      const [d, json, q] = await Promise.all([
        call(client, 'diagnose', { text: PASTE }),
        cli(['diagnose', '--state', `${MANIFESTS}/cli/small.yaml`, '--json'], PASTE),
        call(client, 'quota', { namespace: 'team-a' }),
      ]);
      expect(JSON.parse(d.structured!).findings[0].fixes).toEqual([]);
      expect(JSON.parse(d.structured!).findings[0].facts).toEqual(JSON.parse(json.stdout).findings[0].facts);
      expect([q.isError, q.text.startsWith('quota-doctor: no cluster: ')]).toEqual([true, true]);
    } finally {
      await client.close();
    }
  }, 30_000);
});
