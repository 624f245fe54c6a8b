/**
 * The import rules of docs/architecture.md ("Layers and who may import whom"), checked on every `src/**\/*.ts`,
 * and the rule that the import graph of `src/` has no cycles.
 *
 * Every import counts: static, `import type`, `export … from`, dynamic `import()` and `import('…')` types
 * (a type dependency is still a dependency; docs/architecture.md says where only types are allowed).
 *
 * Reading of the table: `src/k8s` and `src/quantity.ts` are the shared vocabulary (k8s is built on
 * quantity) and may be imported by every layer except those two themselves; `src/serve.ts` (the bot)
 * and `src/config.ts` are the composition root. The CLI (`src/cli/`) is the entry point: its `serve` and
 * `start` commands run `src/serve.ts`, which never imports the CLI back.
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Edge {
  /** `src/engine/simulate.ts` */
  from: string;
  /** A repository path (`src/k8s/objects.ts`) or a package / builtin (`yaml`, `node:fs`). */
  to: string;
  typeOnly: boolean;
}

function listTs(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

function importsOf(file: string): Edge[] {
  const sf = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const edges: Edge[] = [];
  const add = (spec: string, typeOnly: boolean): void => {
    const to = spec.startsWith('.')
      ? relative(ROOT, join(ROOT, dirname(file), spec))
          .split(sep)
          .join('/')
      : spec;
    edges.push({ from: file, to, typeOnly });
  };
  const visit = (n: ts.Node): void => {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const c = n.importClause;
      const allNamedAreTypes =
        !!c &&
        !c.name &&
        !!c.namedBindings &&
        ts.isNamedImports(c.namedBindings) &&
        c.namedBindings.elements.length > 0 &&
        c.namedBindings.elements.every((e) => e.isTypeOnly);
      add(n.moduleSpecifier.text, !!c && (c.isTypeOnly || allNamedAreTypes));
    } else if (ts.isExportDeclaration(n) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) {
      add(n.moduleSpecifier.text, n.isTypeOnly);
    } else if (
      ts.isImportEqualsDeclaration(n) &&
      ts.isExternalModuleReference(n.moduleReference) &&
      ts.isStringLiteral(n.moduleReference.expression)
    ) {
      add(n.moduleReference.expression.text, n.isTypeOnly);
    } else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = n.arguments;
      // A computed specifier would hide a dependency from this test: record it so a rule flags it.
      add(arg && ts.isStringLiteralLike(arg) ? arg.text : '<computed import()>', false);
    } else if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'require') {
      const [arg] = n.arguments;
      add(arg && ts.isStringLiteralLike(arg) ? arg.text : '<computed require()>', false);
    } else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument) && ts.isStringLiteral(n.argument.literal)) {
      add(n.argument.literal.text, true);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return edges;
}

const FILES = listTs('src');
const EDGES = FILES.flatMap(importsOf);

/** `src/engine/admission/x.ts` → `src/engine`; `src/quantity.ts` → `src/quantity.ts`. */
function layerOf(path: string): string {
  const parts = path.split('/');
  return parts.length === 2 ? path : `${parts[0]}/${parts[1]}`;
}

const isRepoPath = (to: string): boolean =>
  to.startsWith('src/') || to.startsWith('bin/') || to.startsWith('test/') || !/^[@a-z<]/i.test(to);
const bare = (to: string): string => to.replace(/^node:/, '');
const isBuiltin = (to: string): boolean => to.startsWith('node:') || builtinModules.includes(to.split('/')[0]!);
/** Builtins that do no I/O and read no clock or environment. Everything else counts as node I/O. */
const PURE_BUILTINS = new Set([
  'assert',
  'assert/strict',
  'buffer',
  'path',
  'path/posix',
  'path/win32',
  'querystring',
  'string_decoder',
  'url',
  'util',
  'util/types',
  'punycode',
]);
const isNodeIo = (to: string): boolean => isBuiltin(to) && !PURE_BUILTINS.has(bare(to));

const show = (e: Edge): string => `${e.from} → ${e.to}${e.typeOnly ? ' (type)' : ''}`;
const VOCABULARY = ['src/k8s', 'src/quantity.ts'];

interface Rule {
  /** Layer the rule is about (`src/engine`, `src/quantity.ts`). */
  layer: string;
  /** docs/architecture.md's words for the row. */
  says: string;
  /** Repository layers it may import (itself always). Undefined: any. */
  mayImportLayers?: readonly string[];
  /** Layers only reachable with `import type`. */
  typeOnlyLayers?: readonly string[];
  /** npm packages it may import. Undefined: any (the package rules below still apply). */
  mayImportPackages?: readonly string[];
  /** No node I/O builtins (fs, http, net, child_process, …). */
  noNodeIo?: boolean;
  /** Named builtins it must not import (with or without `node:`). */
  neverBuiltins?: readonly string[];
}

const RULES: Rule[] = [
  { layer: 'src/quantity.ts', says: 'imports nothing', mayImportLayers: [], mayImportPackages: [], noNodeIo: true },
  {
    layer: 'src/k8s',
    says: 'may import quantity; never engine, I/O',
    mayImportLayers: ['src/quantity.ts'],
    noNodeIo: true,
  },
  {
    layer: 'src/parse',
    says: 'imports only k8s, quantity (and yaml); never I/O, engine',
    mayImportLayers: VOCABULARY,
    mayImportPackages: ['yaml'],
    noNodeIo: true,
  },
  {
    layer: 'src/engine',
    says: 'pure: k8s, quantity; never node I/O, client-node, Bolt, parse, cluster, slack',
    mayImportLayers: VOCABULARY,
    noNodeIo: true,
  },
  { layer: 'src/cluster', says: 'may import k8s; never engine, slack', mayImportLayers: VOCABULARY },
  {
    layer: 'src/answer',
    says: 'may import parse, engine, cluster, k8s; never Bolt',
    mayImportLayers: [...VOCABULARY, 'src/parse', 'src/engine', 'src/cluster'],
  },
  {
    layer: 'src/render',
    says: 'may import answer types, k8s; no I/O',
    mayImportLayers: [...VOCABULARY, 'src/answer'],
    typeOnlyLayers: ['src/answer'],
    neverBuiltins: ['fs', 'fs/promises', 'http', 'https', 'http2', 'net', 'tls', 'child_process', 'dgram', 'readline'],
  },
  {
    // The settings slack/ is handed (SlackConfig, RateSpec) are declared beside their zod schema in the
    // composition root's config.ts: slack/ may name those types, never run config code.
    layer: 'src/slack',
    says: 'may import answer, render (and the types of config.ts); never engine internals',
    mayImportLayers: [...VOCABULARY, 'src/answer', 'src/render', 'src/config.ts'],
    typeOnlyLayers: ['src/config.ts'],
  },
  {
    layer: 'src/cli',
    says: 'may import answer, render, slack, and serve.ts (for `serve` / `start`), mcp (for `mcp`), contract',
    mayImportLayers: [
      ...VOCABULARY,
      'src/answer',
      'src/render',
      'src/slack',
      'src/serve.ts',
      'src/mcp',
      'src/contract',
    ],
  },
  {
    layer: 'src/action.ts',
    says: 'the GitHub Action: runs `check` through the CLI',
    mayImportLayers: [...VOCABULARY, 'src/cli', 'src/answer'],
  },
  {
    // The MCP server's tools are the CLI commands' cores (`src/cli/commands/*.core.ts` `…With`): never Slack or the bot.
    layer: 'src/mcp',
    says: 'may import answer, render, contract, and the CLI commands it serves as tools; never slack, serve.ts, engine internals',
    mayImportLayers: [...VOCABULARY, 'src/answer', 'src/render', 'src/contract', 'src/cli'],
  },
  {
    layer: 'src/contract',
    says: 'the JSON contract as zod schemas: imports only zod',
    mayImportLayers: [],
    mayImportPackages: ['zod'],
    noNodeIo: true,
  },
  {
    layer: 'src/serve.ts',
    says: 'composition root of the bot: config, answer, slack, …; never the CLI that runs it',
    mayImportLayers: [
      ...VOCABULARY,
      'src/config.ts',
      'src/parse',
      'src/engine',
      'src/cluster',
      'src/answer',
      'src/render',
      'src/slack',
    ],
  },
];

/** Packages only one layer may import. */
const OWNED_PACKAGES: { pkg: string; owner: string }[] = [
  { pkg: '@kubernetes/client-node', owner: 'src/cluster' },
  { pkg: '@slack/bolt', owner: 'src/slack' },
];

function violationsOf(rule: Rule): string[] {
  const out: string[] = [];
  for (const e of EDGES.filter((x) => layerOf(x.from) === rule.layer)) {
    if (isRepoPath(e.to)) {
      const target = layerOf(e.to);
      if (target === rule.layer) continue;
      if (rule.mayImportLayers && !rule.mayImportLayers.includes(target)) out.push(show(e));
      else if (rule.typeOnlyLayers?.includes(target) && !e.typeOnly) out.push(`${show(e)}: only types may be imported`);
    } else if (isBuiltin(e.to)) {
      if (rule.noNodeIo && isNodeIo(e.to)) out.push(show(e));
      else if (rule.neverBuiltins?.includes(bare(e.to))) out.push(show(e));
    } else if (rule.mayImportPackages) {
      const pkg = e.to.startsWith('@') ? e.to.split('/').slice(0, 2).join('/') : e.to.split('/')[0]!;
      if (!rule.mayImportPackages.includes(pkg)) out.push(show(e));
    }
  }
  return out;
}

describe('the import graph is read', () => {
  it('finds the sources and their imports (static, type, re-export, dynamic)', () => {
    expect(FILES.length).toBeGreaterThan(50);
    expect(EDGES).toContainEqual({
      from: 'src/cluster/live-source.ts',
      to: '@kubernetes/client-node',
      typeOnly: false,
    });
    expect(EDGES).toContainEqual({ from: 'src/answer/sources.ts', to: 'src/cluster/live-source.ts', typeOnly: false });
    expect(EDGES.some((e) => e.from === 'src/engine/simulate.ts' && e.to.startsWith('src/k8s/') && e.typeOnly)).toBe(
      true,
    );
  });

  it('every relative import names a file that exists', () => {
    const missing = EDGES.filter((e) => isRepoPath(e.to) && !existsSync(join(ROOT, e.to))).map(show);
    expect(missing).toEqual([]);
  });

  it('no computed import() or require()', () => {
    expect(EDGES.filter((e) => e.to.startsWith('<computed')).map(show)).toEqual([]);
  });
});

describe('docs/architecture.md import rules', () => {
  it.each(RULES)('$layer: $says', (rule) => {
    expect(violationsOf(rule)).toEqual([]);
  });

  it('every source file is under a rule, or is config.ts', () => {
    const ruled = new Set(RULES.map((r) => r.layer));
    expect(FILES.filter((f) => !ruled.has(layerOf(f)) && f !== 'src/config.ts')).toEqual([]);
  });

  it.each(OWNED_PACKAGES)('only $owner imports $pkg', ({ pkg, owner }) => {
    const outside = EDGES.filter((e) => (e.to === pkg || e.to.startsWith(`${pkg}/`)) && layerOf(e.from) !== owner).map(
      show,
    );
    expect(outside).toEqual([]);
  });

  // Spelled out, as the brief for the engine lists them, so a failure names the rule directly.
  it.each([
    ['node I/O builtins', (e: Edge) => isNodeIo(e.to)],
    ['@kubernetes/client-node', (e: Edge) => e.to.startsWith('@kubernetes/client-node')],
    ['@slack/bolt', (e: Edge) => e.to.startsWith('@slack/bolt')],
    ['src/parse', (e: Edge) => e.to.startsWith('src/parse/')],
    ['src/cluster', (e: Edge) => e.to.startsWith('src/cluster/')],
    ['src/slack', (e: Edge) => e.to.startsWith('src/slack/')],
    ['src/answer', (e: Edge) => e.to.startsWith('src/answer/')],
    ['src/render', (e: Edge) => e.to.startsWith('src/render/')],
    ['src/cli', (e: Edge) => e.to.startsWith('src/cli/')],
  ] as const)('src/engine/** never imports %s', (_, bad) => {
    expect(EDGES.filter((e) => e.from.startsWith('src/engine/') && bad(e)).map(show)).toEqual([]);
  });

  it('src/render/** imports no node:fs or node:http', () => {
    const io = EDGES.filter(
      (e) => e.from.startsWith('src/render/') && ['fs', 'fs/promises', 'http', 'https'].includes(bare(e.to)),
    ).map(show);
    expect(io).toEqual([]);
  });
});

/** The import graph of `src/`: file → the `src/` files it imports (type-only imports included). */
function graphOf(edges: readonly Edge[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const e of edges) {
    if (!e.to.startsWith('src/')) continue;
    const next = graph.get(e.from) ?? [];
    if (!next.includes(e.to)) next.push(e.to);
    graph.set(e.from, next);
  }
  return graph;
}

/** Strongly connected components (Tarjan), each sorted; only those that hold a cycle (≥ 2 files, or a self-import). */
function cyclicComponents(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const nodes = [...new Set([...graph.keys(), ...[...graph.values()].flat()])].sort();
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(component.sort());
  };
  for (const v of nodes) if (!index.has(v)) connect(v);
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One shortest cycle through the first file of each cyclic component, as `a → b → a`. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return cyclicComponents(graph).map((component) => {
    const inside = new Set(component);
    const start = component[0]!;
    const parent = new Map<string, string>();
    const queue = [start];
    let last: string | undefined;
    search: while (queue.length > 0) {
      const v = queue.shift()!;
      for (const w of graph.get(v) ?? []) {
        if (!inside.has(w)) continue;
        if (w === start) {
          last = v;
          break search;
        }
        if (!parent.has(w)) {
          parent.set(w, v);
          queue.push(w);
        }
      }
    }
    const path = [start];
    for (let v = last!; v !== start; v = parent.get(v)!) path.splice(1, 0, v);
    return [...path, start].join(' → ');
  });
}

/**
 * Known cycles, in files other work is changing: each entry names the imports that close it. The check
 * below runs without them and must find nothing; a second test fails once an entry's imports are gone
 * or no longer close a cycle (then delete the entry).
 */
const KNOWN_CYCLES: { why: string; imports: string[] }[] = [];

const GRAPH = graphOf(EDGES);
const arrow = (from: string, to: string): string => `${from} → ${to}`;

describe('no import cycles in src/', () => {
  it('the cycle finder finds cycles with their path, and none in a graph without one', () => {
    const g = (pairs: [string, string][]): Map<string, string[]> =>
      graphOf(pairs.map(([from, to]) => ({ from: `src/${from}`, to: `src/${to}`, typeOnly: false })));
    expect(
      cyclesOf(
        g([
          ['a', 'b'],
          ['b', 'c'],
          ['c', 'a'],
          ['c', 'd'],
          ['d', 'e'],
        ]),
      ),
    ).toEqual(['src/a → src/b → src/c → src/a']);
    // The shortest way back: a → b → a, not a → c → d → b → a.
    expect(
      cyclesOf(
        g([
          ['a', 'c'],
          ['c', 'd'],
          ['d', 'b'],
          ['a', 'b'],
          ['b', 'a'],
        ]),
      ),
    ).toEqual(['src/a → src/b → src/a']);
    expect(
      cyclesOf(
        g([
          ['x', 'x'],
          ['m', 'n'],
          ['n', 'm'],
          ['m', 'o'],
        ]),
      ),
    ).toEqual(['src/m → src/n → src/m', 'src/x → src/x']);
    expect(
      cyclesOf(
        g([
          ['a', 'b'],
          ['a', 'c'],
          ['b', 'd'],
          ['c', 'd'],
        ]),
      ),
    ).toEqual([]);
    // A type-only import closes a cycle too.
    expect(
      cyclesOf(
        graphOf([
          { from: 'src/p', to: 'src/q', typeOnly: true },
          { from: 'src/q', to: 'src/p', typeOnly: false },
        ]),
      ),
    ).toEqual(['src/p → src/q → src/p']);
  });

  it('the graph holds every src/ import (the CLI reaches the bot, the bot not the CLI)', () => {
    expect(GRAPH.get('src/cli/commands/serve.ts')).toContain('src/serve.ts');
    expect(GRAPH.get('src/serve.ts')!.filter((f) => f.startsWith('src/cli/'))).toEqual([]);
    expect(GRAPH.size).toBeGreaterThan(50);
  });

  it('no cycle (apart from KNOWN_CYCLES)', () => {
    const known = new Set(KNOWN_CYCLES.flatMap((k) => k.imports));
    const withoutKnown = new Map(
      [...GRAPH].map(([from, to]) => [from, to.filter((t) => !known.has(arrow(from, t)))] as const),
    );
    expect(cyclesOf(withoutKnown)).toEqual([]);
  });

  it.skipIf(KNOWN_CYCLES.length === 0).each(KNOWN_CYCLES)(
    'known cycle still there, each import closing it ($why)',
    ({ imports }) => {
      const components = cyclicComponents(GRAPH);
      const closing = imports.filter((i) => {
        const [from, to] = i.split(' → ') as [string, string];
        return (GRAPH.get(from) ?? []).includes(to) && components.some((c) => c.includes(from) && c.includes(to));
      });
      expect(closing).toEqual(imports);
    },
  );
});
