/**
 * The small subset of DRA's CEL device selectors (k8s.io/dynamic-resource-allocation/cel) the engine
 * judges itself. An expression is a conjunction (`&&`, optional outer parentheses, `true`) of:
 *
 *   device.driver == "x"                                  (also !=)
 *   device.attributes["domain"].name == <literal>         (string, int, bool; ==, !=, and <, <=, >, >= on ints)
 *   device.capacity["domain"].name.compareTo(quantity("40Gi")) >= 0   (any of == != < <= > >=)
 *
 * Anything else (`||`, `in`, functions, macros, version comparisons...) is not guessed: compiling it
 * returns null and the caller answers "unknown". A missing attribute makes upstream's evaluation fail
 * with an error (no such key); that too is "unknown" here.
 */
import { Quantity } from '../../quantity.ts';

export interface CelDevice {
  driver: string;
  /** Fully qualified attribute name (`domain/name`) → value ({string}|{int}|{bool}|{version} unwrapped). */
  attributes: ReadonlyMap<string, string | number | boolean>;
  capacity: ReadonlyMap<string, Quantity>;
}

/** true / false, or null when the device lacks what the expression reads (an evaluation error upstream). */
export type CelProgram = (d: CelDevice) => boolean | null;

type Op = '==' | '!=' | '<' | '<=' | '>' | '>=';

function compare(a: number, b: number, op: Op): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

function parseLiteral(s: string): string | number | boolean | undefined {
  const t = s.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (/^-?\d+$/.test(t)) return Number(t);
  const m = /^"((?:[^"\\]|\\.)*)"$/.exec(t) ?? /^'((?:[^'\\]|\\.)*)'$/.exec(t);
  if (m) return m[1]!.replace(/\\(.)/g, '$1');
  return undefined;
}

/** A qualified attribute / capacity name as the API stores it: names without a domain belong to the driver. */
export function qualify(name: string, driver: string): string {
  return name.includes('/') ? name : `${driver}/${name}`;
}

const OP = '(==|!=|<=|>=|<|>)';
const DRIVER_RE = new RegExp(`^device\\.driver\\s*${OP}\\s*(.+)$`);
const ATTR_RE = new RegExp(`^device\\.attributes\\[\\s*"([^"]+)"\\s*\\]\\.([A-Za-z_][A-Za-z0-9_]*)\\s*${OP}\\s*(.+)$`);
const CAP_RE = new RegExp(
  `^device\\.capacity\\[\\s*"([^"]+)"\\s*\\]\\.([A-Za-z_][A-Za-z0-9_]*)\\.compareTo\\(\\s*quantity\\(\\s*"([^"]+)"\\s*\\)\\s*\\)\\s*${OP}\\s*0$`,
);

function compileTerm(term: string): CelProgram | null {
  const t = term.trim();
  if (t === 'true') return () => true;
  let m = DRIVER_RE.exec(t);
  if (m) {
    const op = m[1] as Op;
    const lit = parseLiteral(m[2]!);
    if (typeof lit !== 'string' || (op !== '==' && op !== '!=')) return null;
    return (d) => (op === '==' ? d.driver === lit : d.driver !== lit);
  }
  m = ATTR_RE.exec(t);
  if (m) {
    const key = `${m[1]!}/${m[2]!}`;
    const op = m[3] as Op;
    const lit = parseLiteral(m[4]!);
    if (lit === undefined) return null;
    if (typeof lit !== 'number' && op !== '==' && op !== '!=') return null;
    return (d) => {
      const v = d.attributes.get(key);
      if (v === undefined) return null;
      if (typeof v !== typeof lit) return null; // a type mismatch is an evaluation error upstream
      if (typeof v === 'number' && typeof lit === 'number') return compare(v, lit, op);
      return op === '==' ? v === lit : v !== lit;
    };
  }
  m = CAP_RE.exec(t);
  if (m) {
    const key = `${m[1]!}/${m[2]!}`;
    const q = Quantity.tryParse(m[3]!);
    const op = m[4] as Op;
    if (!q) return null;
    return (d) => {
      const v = d.capacity.get(key);
      if (!v) return null;
      return compare(v.cmp(q), 0, op);
    };
  }
  return null;
}

function stripParens(s: string): string {
  let t = s.trim();
  while (t.startsWith('(') && t.endsWith(')')) {
    // Only strip a pair that encloses the whole expression.
    let depth = 0;
    let encloses = true;
    for (let i = 0; i < t.length; i++) {
      if (t[i] === '(') depth++;
      else if (t[i] === ')') depth--;
      if (depth === 0 && i < t.length - 1) {
        encloses = false;
        break;
      }
    }
    if (!encloses) break;
    t = t.slice(1, -1).trim();
  }
  return t;
}

/** Compiles a selector expression of the subset, or null (not judged). */
export function compileSelector(expression: string): CelProgram | null {
  const expr = stripParens(expression);
  if (expr.includes('||') || expr.includes('?')) return null;
  const terms = expr.split('&&').map((x) => stripParens(x));
  const programs: CelProgram[] = [];
  for (const term of terms) {
    if (term.includes('(') && !CAP_RE.test(term)) return null;
    const p = compileTerm(term);
    if (!p) return null;
    programs.push(p);
  }
  // CEL's && is commutative over errors: any false wins, then an error, else true.
  return (d) => {
    let failed = false;
    for (const p of programs) {
      const r = p(d);
      if (r === false) return false;
      if (r === null) failed = true;
    }
    return failed ? null : true;
  };
}
