/**
 * Text (YAML or JSON, single objects, multi-document streams, `kind: List` and `*List`) → validated
 * Kubernetes objects. Pure: the caller reads files. Errors are values naming the source and field path.
 */
import { LineCounter, parseAllDocuments } from 'yaml';
import type { z } from 'zod';
import { isKnownKind, schemaByKind } from './objects.ts';
import type { KObject } from './snapshot.ts';

export interface DecodeProblem {
  /** File name (or "<stdin>") and, when known, document index. */
  source: string;
  /** The field path inside the object, e.g. `spec.containers[0].resources.limits.cpu`. */
  path?: string;
  message: string;
}

/** An object skipped because its kind is not one quota-doctor reads (`describeObject`: `ConfigMap team-a/settings`). */
export interface DecodeSkipped {
  source: string;
  object: string;
}

export interface Decoded {
  objects: KObject[];
  warnings: DecodeSkipped[];
  errors: DecodeProblem[];
}

export interface DecodeOptions {
  /** Cap on the text size (bytes); larger input is an error. Default 64 MiB. */
  maxBytes?: number;
  /** Cap on the number of documents. Default 200,000. */
  maxDocuments?: number;
  /** Kinds outside `schemaByKind` are kept (with a warning) instead of skipped: manifests to admit. */
  keepUnknownKinds?: boolean;
}

const MAX_ALIASES = 50;
/**
 * Lists inside lists: a real file nests at most a `List` of `*List`s. Beyond this an input is hostile
 * (`[[[[…]]]]` 10,000 deep overflowed the stack of the recursive walk below: a RangeError escaped).
 */
const MAX_NESTING = 8;

export function formatProblem(p: DecodeProblem): string {
  return p.path ? `${p.source}: ${p.path}: ${p.message}` : `${p.source}: ${p.message}`;
}

/** Formats a zod issue path as Kubernetes field paths read: `spec.containers[0].name`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out;
}

function describeObject(o: Record<string, unknown>): string {
  const meta = (o.metadata ?? {}) as Record<string, unknown>;
  const name =
    typeof meta.name === 'string' ? meta.name : typeof meta.generateName === 'string' ? `${meta.generateName}*` : '?';
  return `${String(o.kind)} ${typeof meta.namespace === 'string' ? `${meta.namespace}/` : ''}${name}`;
}

export function decodeText(text: string, source: string, opts: DecodeOptions = {}): Decoded {
  const out: Decoded = { objects: [], warnings: [], errors: [] };
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  if (Buffer.byteLength(text) > maxBytes) {
    out.errors.push({ source, message: `input is larger than ${Math.round(maxBytes / 1024 / 1024)} MiB` });
    return out;
  }
  if (text.trim() === '') {
    out.errors.push({ source, message: 'empty: no Kubernetes objects found' });
    return out;
  }
  const raws: { value: unknown; doc: number }[] = [];
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      raws.push({ value: JSON.parse(text), doc: 0 });
    } catch {
      // JSON that does not parse may still be YAML (JSON is a subset); fall through.
    }
  }
  if (raws.length === 0) {
    // `parseAllDocuments` parses every document before we can count them (100,000 small documents took
    // 7 s): count the `---` separators first, a cheap upper bound, and refuse before parsing.
    const maxDocuments = opts.maxDocuments ?? 200_000;
    let separators = 0;
    const sep = /^---/gm;
    while (sep.exec(text) !== null) if (++separators > maxDocuments) break;
    if (separators > maxDocuments) {
      out.errors.push({ source, message: `too many YAML documents (more than ${maxDocuments})` });
      return out;
    }
    // `prettyErrors` (the default) adds the line and a source excerpt to *every* error, which is quadratic:
    // 5 MB of `a: b: c: …` on one line (954 errors) took 9–18 s instead of 2. We report only the first
    // error of a document, so its line and column are computed here, once, the way yaml's
    // `prettifyError` words them.
    const lineCounter = new LineCounter();
    const docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: false, lineCounter });
    const list = Array.isArray(docs) ? docs : [docs];
    if (list.length > (opts.maxDocuments ?? 200_000)) {
      out.errors.push({ source, message: `too many YAML documents (${list.length})` });
      return out;
    }
    list.forEach((doc, i) => {
      if (doc.errors.length > 0) {
        const e = doc.errors[0]!;
        const at = e.pos[0] >= 0 ? lineCounter.linePos(e.pos[0]) : undefined;
        const message = `${e.message.split('\n')[0]!.replace(/:\s*$/, '')}${at ? ` at line ${at.line}, column ${at.col}` : ''}`;
        out.errors.push({
          source: list.length > 1 ? `${source} (document ${i + 1})` : source,
          message: `invalid YAML: ${message}`,
        });
        return;
      }
      try {
        const value: unknown = doc.toJS({ maxAliasCount: MAX_ALIASES });
        if (value !== null && value !== undefined) raws.push({ value, doc: i });
      } catch (e) {
        out.errors.push({
          source,
          message: `invalid YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
        });
      }
    });
  }
  const multi = raws.length > 1;
  for (const { value, doc } of raws) collect(value, multi ? `${source} (document ${doc + 1})` : source, out, opts);
  // An empty `kind: List` (kubectl get of nothing) or a file of skipped kinds is not an error.
  const emptyList = raws.some(({ value }) => isList(value));
  if (out.objects.length === 0 && out.errors.length === 0 && out.warnings.length === 0 && !emptyList) {
    out.errors.push({ source, message: 'no Kubernetes objects found' });
  }
  return out;
}

function isList(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const kind = (value as Record<string, unknown>).kind;
  return typeof kind === 'string' && kind.endsWith('List');
}

/**
 * One parsed value (an object, a List, or an array of them) → validated objects, as `decodeText` does for
 * each document. For values parsed elsewhere (manifests found in a paste) that must meet the same schemas.
 */
export function decodeValue(value: unknown, source: string, opts: DecodeOptions = {}): Decoded {
  const out: Decoded = { objects: [], warnings: [], errors: [] };
  collect(value, source, out, opts);
  return out;
}

function collect(value: unknown, source: string, out: Decoded, opts: DecodeOptions, depth = 0): void {
  if (depth > MAX_NESTING) {
    out.errors.push({ source, message: `nested more than ${MAX_NESTING} lists deep` });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      collect(v, `${source} [${i}]`, out, opts, depth + 1);
    });
    return;
  }
  if (typeof value !== 'object' || value === null) {
    out.errors.push({
      source,
      message: `expected a Kubernetes object, got ${typeof value === 'string' ? 'a string' : typeof value}`,
    });
    return;
  }
  const o = value as Record<string, unknown>;
  if (typeof o.kind === 'string' && (o.kind === 'List' || (o.kind.endsWith('List') && Array.isArray(o.items)))) {
    const items = Array.isArray(o.items) ? o.items : [];
    const itemKind = o.kind === 'List' ? undefined : o.kind.slice(0, -4);
    items.forEach((item, i) => {
      if (itemKind && typeof item === 'object' && item !== null && !('kind' in item))
        (item as Record<string, unknown>).kind = itemKind;
      collect(item, `${source} items[${i}]`, out, opts, depth + 1);
    });
    return;
  }
  if (typeof o.kind !== 'string') {
    out.errors.push({ source, path: 'kind', message: 'missing: every object needs a kind' });
    return;
  }
  if (typeof o.metadata !== 'object' || o.metadata === null || Array.isArray(o.metadata)) {
    out.errors.push({ source, path: 'metadata', message: `${o.kind} has no metadata` });
    return;
  }
  if (!isKnownKind(o.kind)) {
    if (opts.keepUnknownKinds) out.objects.push(o as KObject);
    else out.warnings.push({ source, object: describeObject(o) });
    return;
  }
  const schema = schemaByKind[o.kind] as z.ZodType;
  const parsed = schema.safeParse(o);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    out.errors.push({
      source: `${source} (${describeObject(o)})`,
      path: fieldPath(issue.path),
      message: issue.message,
    });
    return;
  }
  out.objects.push(parsed.data as KObject);
}
