/**
 * No double casts in `src/` (issue 14: "no `as unknown as` in src/"). `x as unknown as T` tells the
 * compiler to stop checking; the typed snapshot (`Snapshot.list('Pod')` is a `Pod[]`), the kind guards of
 * k8s/objects.ts (`isKind`, `isWorkload`) and narrower signatures (`admitObject(pod)` admits a `Pod`) say
 * the same thing in a way it checks.
 *
 * Found on the syntax tree, so a comment or a string that quotes the pattern is not a hit: an `as T`
 * (or `<T>x`) whose operand is itself asserted to `unknown` (or `any`), parentheses or not.
 *
 * PENDING is a temporary allow-list for a file another change of issue 14 rewrites; it can only shrink:
 * an entry whose file no longer double-casts fails here until it is deleted.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** file → why it still double-casts (none: the list can only shrink, and it is empty). */
const PENDING: Record<string, string> = {};

function listTs(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

function unwrap(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  return e;
}

function isTopType(t: ts.TypeNode): boolean {
  return t.kind === ts.SyntaxKind.UnknownKeyword || t.kind === ts.SyntaxKind.AnyKeyword;
}

/** Lines (1-based) of every `… as unknown as T` (or `as any as T`, `<T><unknown>x`) in a source text. */
function doubleCasts(text: string, fileName = 'x.ts'): number[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const inner = unwrap(node.expression);
      if ((ts.isAsExpression(inner) || ts.isTypeAssertionExpression(inner)) && isTopType(inner.type)) {
        lines.push(sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1);
      }
    }
    node.forEachChild(visit);
  };
  visit(sf);
  return lines;
}

describe('the double-cast finder', () => {
  const cases: [string, string, number[]][] = [
    ['as unknown as', 'const a = x as unknown as Pod;', [1]],
    ['as any as', 'const a = x as any as Pod;', [1]],
    ['parenthesised', 'const a = (x as unknown) as Pod;', [1]],
    ['angle brackets', 'const a = <Pod>(<unknown>x);', [1]],
    ['inside a call, on line 2', 'f(1,\n  g(x as unknown as KObject));', [2]],
    ['two on one line', 'const a = [x as unknown as A, y as unknown as B];', [1, 1]],
    ['a single cast to unknown', 'const a = x as unknown;', []],
    ['a single cast', 'const a = x as Pod;', []],
    ['two casts, neither to unknown', 'const a = (x as KObject) as Pod;', []],
    ['a comment', '// x as unknown as Pod\nconst a = 1;', []],
    ['a string', "const s = 'x as unknown as Pod';", []],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal, on purpose
    ['a template', 'const s = `${a} as unknown as Pod`;', []],
  ];
  it.each(cases)('%s', (_name, text, want) => {
    expect(doubleCasts(text)).toEqual(want);
  });
});

describe('src/ has no `as unknown as`', () => {
  const files = listTs('src');
  const hits = new Map(files.map((f) => [f, doubleCasts(readFileSync(join(ROOT, f), 'utf8'), f)] as const));

  it('reads the whole tree', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain('src/k8s/snapshot.ts');
  });

  it('outside the pending list: none', () => {
    const found = [...hits]
      .filter(([f, l]) => l.length > 0 && !(f in PENDING))
      .flatMap(([f, l]) => l.map((n) => `${f}:${n}`));
    expect(found).toEqual([]);
  });

  it('every pending file still has one (delete its entry once it has none)', () => {
    const done = Object.keys(PENDING).filter((f) => (hits.get(f)?.length ?? 0) === 0);
    expect(done).toEqual([]);
  });
});
