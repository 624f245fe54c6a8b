/**
 * The engine keeps no state of its own between calls (issue 14: "no module-level caches in the engine").
 * Whatever it remembers belongs to a snapshot (`Snapshot.derive`) or is passed in explicitly, so two
 * snapshots never share an answer and nothing can go stale behind a caller's back.
 *
 * Checked on every `src/engine/**\/*.ts`, from the syntax tree: at module level (top-level statements
 * and class `static` fields) no `let` / `var`, and no `new Map(` / `new WeakMap(` / `new Set(` /
 * `new WeakSet(` outside a function body. Code inside functions and methods runs per call and is free.
 *
 * CONSTANTS is the only allow-list: lookup tables built once and never written. Each entry says why;
 * the test also checks that no file of `src/` calls a writing method on it by name.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `file: name` → why it is a constant (a table read with `has`/`get`, never written). */
const CONSTANTS: Record<string, string> = {
  'src/engine/admission/evaluators/pods.ts: POD_RESOURCES':
    'the resource names the pod evaluator charges (quota/v1/evaluator/core/pods.go)',
  'src/engine/admission/evaluators/pods.ts: VALIDATION_SET':
    'the names a must-specify quota can require of a container',
  'src/engine/admission/evaluators/count.ts: LEGACY_NAMES':
    'the four resources whose legacy quota names predate count/<resource>',
  'src/engine/admission/evaluators/services.ts: SERVICE_RESOURCES': 'the resource names the service evaluator charges',
  'src/engine/scheduler/node-info.ts: NO_SCALARS':
    'the empty scalar map shared by request vectors without extended resources; entries are never written',
};

/**
 * Module-level caches awaiting removal (none left: the scheduler keeps its pools on the NodeInfoIndex
 * and its compiled terms on the PodEntry). Listed so that no new one can appear, and so that removing one fails here
 * until its line is deleted: the list can only shrink.
 */
const PENDING: Record<string, string> = {};

const MUTABLE = new Set(['Map', 'WeakMap', 'Set', 'WeakSet']);

function listTs(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

/** `new Map(` … reachable without entering a function: runs once, when the module loads. */
function constructsMutable(node: ts.Node): string | null {
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return null;
  if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && MUTABLE.has(node.expression.text))
    return node.expression.text;
  let found: string | null = null;
  node.forEachChild((c) => {
    found ??= constructsMutable(c);
  });
  return found;
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));
}

/** Module-level state of one source text, as `name: why` lines. */
function moduleState(fileName: string, text: string): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      const flags = st.declarationList.flags;
      const keyword =
        flags & ts.NodeFlags.Let ? 'let' : flags & ts.NodeFlags.Const || flags & ts.NodeFlags.Using ? null : 'var';
      for (const d of st.declarationList.declarations) {
        for (const n of bindingNames(d.name)) {
          if (keyword) out.push(`${n}: ${keyword}`);
          else {
            const made = d.initializer ? constructsMutable(d.initializer) : null;
            if (made) out.push(`${n}: new ${made}`);
          }
        }
      }
    } else if (ts.isClassDeclaration(st)) {
      for (const m of st.members) {
        if (
          !ts.isPropertyDeclaration(m) ||
          !m.modifiers?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword) ||
          !m.initializer
        )
          continue;
        const made = constructsMutable(m.initializer);
        if (made) out.push(`${st.name?.text ?? 'class'}.${m.name.getText(sf)}: static new ${made}`);
      }
    } else {
      // A top-level expression (`cache.set(…)` at load time, an IIFE) also runs once: anything it builds is module state.
      if (ts.isExpressionStatement(st)) {
        const made = constructsMutable(st.expression);
        if (made) out.push(`(statement): new ${made}`);
      }
    }
  }
  return out;
}

describe('the detector', () => {
  it.each<[string, string, string[]]>([
    ['a module-level Map', 'const cache = new Map<string, number>();', ['cache: new Map']],
    ['a WeakMap inside an object literal', 'export const memo = { byPod: new WeakMap() };', ['memo: new WeakMap']],
    ['a Set', 'const seen = new Set(["a"]);', ['seen: new Set']],
    ['a WeakSet', 'const s = new WeakSet();', ['s: new WeakSet']],
    ['a let counter', 'let calls = 0;', ['calls: let']],
    ['a var', 'var x = 1, y = 2;', ['x: var', 'y: var']],
    ['a destructured let', 'let [a, b] = [1, 2];', ['a: let', 'b: let']],
    [
      'a static cache on a class',
      'class C { static byKey = new Map(); other = new Map(); }',
      ['C.byKey: static new Map'],
    ],
    ['a Map made at load time by a statement', 'new Map().set(1, 2);', ['(statement): new Map']],
    ['a Map made per call', 'export function f() { const m = new Map(); let n = 0; return [m, n]; }', []],
    ['a factory arrow', 'const make = () => new Map();', []],
    ['a method of a class', 'class D { m() { return new Set(); } }', []],
    [
      'a frozen array and a string table',
      "const A = Object.freeze(['x']); const T: Record<string, string> = { a: 'b' };",
      [],
    ],
    ['Map as a type only', 'const m: Map<string, string> | undefined = undefined;', []],
  ])('%s', (_what, src, want) => {
    expect(moduleState('x.ts', src)).toEqual(want);
  });
});

describe('the engine holds no module-level state', () => {
  const files = listTs('src/engine');
  const found = files.flatMap((f) =>
    moduleState(f, readFileSync(join(ROOT, f), 'utf8')).map((line) => `${f}: ${line}`),
  );
  const key = (line: string): string => line.slice(0, line.lastIndexOf(': '));

  it('scans the engine (a scan of nothing would pass)', () => {
    expect(files.length).toBeGreaterThan(30);
    expect(files).toContain('src/engine/headroom.ts');
    expect(files).toContain('src/engine/quota-ledger.ts');
  });

  it('every piece of module-level state is an allow-listed constant or a listed pending removal', () => {
    const unexplained = found.filter((line) => !(key(line) in CONSTANTS) && !(key(line) in PENDING));
    expect(unexplained).toEqual([]);
  });

  it('every allow-list entry still exists (a stale entry goes with the code it excused)', () => {
    const keys = new Set(found.map(key));
    expect(Object.keys(CONSTANTS).filter((k) => !keys.has(k))).toEqual([]);
    expect(Object.keys(PENDING).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('no allow-listed constant is written anywhere in src/', () => {
    const sources = listTs('src').map((f) => ({ f, text: readFileSync(join(ROOT, f), 'utf8') }));
    const writes: string[] = [];
    for (const k of Object.keys(CONSTANTS)) {
      const name = k.slice(k.lastIndexOf(': ') + 2);
      const re = new RegExp(`\\b${name}\\s*\\.\\s*(set|add|delete|clear)\\s*\\(`);
      for (const { f, text } of sources) if (re.test(text)) writes.push(`${f} writes ${name}`);
    }
    expect(writes).toEqual([]);
  });
});
