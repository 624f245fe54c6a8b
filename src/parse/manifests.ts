/**
 * Kubernetes manifests inside a paste: fenced ```yaml / ```json / ``` blocks, or bare YAML documents
 * (a run of YAML-looking lines that contains `apiVersion:` and `kind:`), or bare JSON objects.
 *
 * Parsing uses the `yaml` package (YAML 1.2 core schema: `500m` stays a string, `on` stays "on").
 * `parseAllDocuments` never throws and reports errors per document; `toJS` can throw on an alias bomb,
 * so it runs with a small `maxAliasCount` inside a try. There is no size option in `yaml`: every block
 * and the number of documents are capped here before parsing. A document that fails is an error value
 * next to the documents that parsed.
 */

import { parseAllDocuments } from 'yaml';
import { cleanLine } from './normalize.ts';

export type ManifestSource = 'fenced' | 'yaml' | 'json';

export type ExtractedManifest =
  | {
      ok: true;
      /** A plain object with string `apiVersion` and `kind`. */
      object: Record<string, unknown> & { apiVersion: string; kind: string };
      source: ManifestSource;
      /** 1-based line of the paste where the block starts. */
      line: number;
    }
  | { ok: false; error: string; source: ManifestSource; line: number };

/** Largest document we hand to the YAML parser, and the most entries we return from one paste. */
export const MAX_BLOCK_BYTES = 64 * 1024;
/**
 * YAML parsing costs about 0.4 ms per KB (warm; several times that cold): all documents of one paste
 * share this budget, so that a 1 MB paste of manifests stays within the parse-time target.
 */
export const MAX_YAML_BYTES = 24 * 1024;
export const MAX_DOCUMENTS = 100;
const MAX_ALIASES = 10;

/**
 * Kinds quota-doctor simulates (and Lists of them): their documents may use the whole YAML budget.
 * A document of another kind (ConfigMap, RBAC, CRDs…) is parsed only while half the budget is unused.
 */
const SIMULATED_KINDS = new Set([
  'Pod',
  'Deployment',
  'ReplicaSet',
  'StatefulSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'PersistentVolumeClaim',
  'Service',
  'ResourceQuota',
  'LimitRange',
  'Namespace',
  'List',
]);

/** The top-level `kind:` of a YAML document, read without parsing it (undefined when not found). */
function kindOf(doc: string): string | undefined {
  const m = /^kind:[ \t]*["']?([A-Za-z][A-Za-z0-9]{0,62})["']?[ \t]*(?:#.*)?$/m.exec(doc);
  return m ? m[1] : undefined;
}

function parseFirst(kind: string | undefined): boolean {
  return kind === undefined || SIMULATED_KINDS.has(kind) || kind.endsWith('List');
}

interface Block {
  text: string;
  source: ManifestSource;
  line: number;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Kinds that are API responses, not manifests (a pasted `Status` body is an error, read by the parsers). */
const NOT_MANIFEST = new Set(['Status']);

function toManifest(v: unknown, source: ManifestSource, line: number): ExtractedManifest | undefined {
  if (!isObject(v)) return undefined;
  if (typeof v.apiVersion !== 'string' || typeof v.kind !== 'string' || NOT_MANIFEST.has(v.kind)) return undefined;
  return { ok: true, object: v as Record<string, unknown> & { apiVersion: string; kind: string }, source, line };
}

/** Does this text look like it holds a manifest at all? (Cheap test before any parsing.) */
function mentionsManifest(s: string): boolean {
  return /(?:^|[\s{,"'])apiVersion["']?\s*:/m.test(s) && /(?:^|[\s{,"'])kind["']?\s*:/m.test(s);
}

/** A YAML block cut into its documents at column-0 `---` / `...` markers (what the YAML parser does too). */
function documentsOf(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  let start = 0;
  let startLine = 0;
  let line = 0;
  let pos = 0;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl;
    const isStart = text.startsWith('---', pos) && (end === pos + 3 || /\s/.test(text[pos + 3]!));
    const isEnd = text.startsWith('...', pos) && text.slice(pos + 3, end).trim() === '';
    if (isStart && pos > start) {
      out.push({ text: text.slice(start, pos), line: startLine });
      start = pos;
      startLine = line;
    }
    if (isEnd) {
      out.push({ text: text.slice(start, end), line: startLine });
      start = end + 1;
      startLine = line + 1;
    }
    if (nl < 0) break;
    pos = nl + 1;
    line++;
  }
  if (start < text.length) out.push({ text: text.slice(start), line: startLine });
  return out;
}

function parseYamlBlock(b: Block, out: ExtractedManifest[], budget: { left: number }): void {
  for (const d of documentsOf(b.text)) {
    if (out.length >= MAX_DOCUMENTS) return;
    // A document that names no apiVersion and kind cannot be a manifest: not worth parsing.
    if (!mentionsManifest(d.text)) continue;
    const kind = kindOf(d.text);
    const size = d.text.length;
    const reserve = parseFirst(kind) ? 0 : MAX_YAML_BYTES / 2;
    if (size > MAX_BLOCK_BYTES || size > budget.left - reserve) {
      out.push({
        ok: false,
        error: `document${kind ? ` (${kind})` : ''} of ${size} bytes over the parse budget, not parsed`,
        source: b.source,
        line: b.line + d.line,
      });
      continue;
    }
    budget.left -= size;
    parseYamlDocuments({ text: d.text, source: b.source, line: b.line + d.line }, out);
  }
}

function parseYamlDocuments(b: Block, out: ExtractedManifest[]): void {
  let docs: ReturnType<typeof parseAllDocuments>;
  // `yaml` reports every syntax error as an Error object: without stack traces they cost a tenth
  // (a pasted shell transcript that mentions apiVersion and kind is a document full of errors).
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    docs = parseAllDocuments(b.text, { prettyErrors: false });
  } catch (e) {
    out.push({ ok: false, error: e instanceof Error ? e.message : String(e), source: b.source, line: b.line });
    return;
  } finally {
    Error.stackTraceLimit = limit;
  }
  const list = Array.isArray(docs) ? docs : [];
  for (const doc of list.slice(0, MAX_DOCUMENTS)) {
    const line = b.line + (doc.range ? countLines(b.text, doc.range[0]) : 0);
    if (doc.errors.length > 0) {
      out.push({ ok: false, error: doc.errors[0]!.message, source: b.source, line });
      continue;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIASES });
    } catch (e) {
      out.push({ ok: false, error: e instanceof Error ? e.message : String(e), source: b.source, line });
      continue;
    }
    const m = toManifest(value, b.source, line);
    if (m) out.push(m);
  }
}

function countLines(s: string, upTo: number): number {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0 && i < upTo; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** A line that can belong to a bare YAML document. */
const YAML_LINE_RE = /^(?:\s*#.*|---.*|\.\.\.\s*|\s*-(?:\s.*)?|\s*["']?[^\s:"'][^:]{0,200}["']?:(?:\s.*)?|\s+\S.*)$/;

/**
 * Split the paste into candidate blocks: fenced code blocks, and outside fences, runs of YAML-looking
 * lines around an `apiVersion:` or `kind:` line, and `{`-started JSON objects.
 */
function* blocksOf(lines: string[]): Generator<Block> {
  let i = 0;
  while (i < lines.length) {
    const fence = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(lines[i]!);
    if (fence) {
      const marker = fence[1]!;
      const lang = fence[2]!.toLowerCase();
      const body: string[] = [];
      const rest = lines[i]!.slice(fence[0].length);
      let j = i + 1;
      // A one-line fence ```…``` holds no manifest worth parsing.
      if (rest.includes(marker)) {
        i++;
        continue;
      }
      while (j < lines.length && !lines[j]!.trimStart().startsWith(marker)) body.push(lines[j++]!);
      const text = body.join('\n');
      if (
        ['yaml', 'yml', 'json', '', 'sh', 'shell', 'console', 'bash', 'text', 'txt'].includes(lang) &&
        mentionsManifest(text)
      ) {
        const trimmed = text.trim();
        const source: ManifestSource = 'fenced';
        if ((lang === 'json' || trimmed.startsWith('{')) && trimmed.startsWith('{'))
          yield { text: trimmed, source, line: i + 2 };
        else if (lang === 'yaml' || lang === 'yml' || lang === '') yield { text, source, line: i + 2 };
        else yield* bareBlocks(body, i + 1);
      }
      i = j + 1;
      continue;
    }
    // Outside fences: collect lines up to the next fence and look for bare documents in them.
    let j = i;
    while (j < lines.length && !(isFenceHint(lines[j]!) && /^\s*(```|~~~)/.test(lines[j]!))) j++;
    yield* bareBlocks(lines.slice(i, j), i);
    i = j;
  }
}

function isFenceHint(l: string): boolean {
  return l.includes('```') || l.includes('~~~');
}

/** Bare YAML documents and JSON objects among `lines` (whose first line is paste line `offset` + 1). */
function* bareBlocks(lines: string[], offset: number): Generator<Block> {
  let i = 0;
  // Never walk back into a block already taken (keeps the scan linear).
  let floor = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (/^\s*\{\s*$|^\s*\{\s*"/.test(line)) {
      // A JSON object: up to the line whose brace balance returns to zero (strings are respected).
      let depth = 0;
      let inStr = false;
      let esc = false;
      let j = i;
      let done = false;
      let size = 0;
      for (; j < lines.length && !done && size <= MAX_BLOCK_BYTES; j++) {
        const l = lines[j]!;
        size += l.length + 1;
        for (const c of l) {
          if (inStr) {
            if (esc) esc = false;
            else if (c === '\\') esc = true;
            else if (c === '"') inStr = false;
          } else if (c === '"') inStr = true;
          else if (c === '{' || c === '[') depth++;
          else if (c === '}' || c === ']') {
            depth--;
            if (depth === 0) {
              done = true;
              break;
            }
          }
        }
      }
      const text = lines.slice(i, j).join('\n');
      if (done && mentionsManifest(text)) yield { text, source: 'json', line: offset + i + 1 };
      i = Math.max(j, i + 1);
      floor = i;
      continue;
    }
    if (/^(\s*)(?:-\s+)?(?:apiVersion|kind):\s*\S/.test(line) || /^---\s*$/.test(line)) {
      // Walk back to the start of this document (lines of the same YAML run), then forward to its end.
      let s = i;
      while (
        s > floor &&
        lines[s - 1]!.trim() !== '' &&
        YAML_LINE_RE.test(lines[s - 1]!) &&
        !/^\s*\{/.test(lines[s - 1]!)
      )
        s--;
      let e = i + 1;
      let size = 0;
      while (e < lines.length && size <= MAX_BLOCK_BYTES) {
        const l = lines[e]!;
        if (l.trim() === '') {
          // A blank line inside a document is fine if YAML continues after it.
          const n = lines[e + 1];
          if (n === undefined || !/^(?:\s+\S|---|apiVersion:|kind:|metadata:|spec:|data:|status:)/.test(n)) break;
        } else if (!YAML_LINE_RE.test(l)) break;
        size += l.length + 1;
        e++;
      }
      const body = lines.slice(s, e);
      // Remove a common indentation (pastes indented inside prose or a list).
      let indent = Number.POSITIVE_INFINITY;
      for (const l of body) if (l.trim() !== '') indent = Math.min(indent, /^\s*/.exec(l)![0].length);
      const text = body.map((l) => l.slice(Math.min(indent, /^\s*/.exec(l)![0].length))).join('\n');
      if (mentionsManifest(text)) yield { text, source: 'yaml', line: offset + s + 1 };
      i = Math.max(e, i + 1);
      floor = i;
      continue;
    }
    i++;
  }
}

/**
 * Manifests found in a paste. Never throws: a document that does not parse is an `ok: false` entry.
 * Slack quoting and HTML entities are undone first (as for the message parsers); fences are kept.
 * `physicalLines`, when the caller has them: `splitLines(text)` (not modified).
 */
export function extractManifests(text: string, physicalLines?: string[]): ExtractedManifest[] {
  const out: ExtractedManifest[] = [];
  try {
    if (!mentionsManifest(text)) return out;
    const raw = physicalLines ?? splitLines(text);
    // Unquoting is per line; skip it when no line could need it.
    const lines = /^[ \t]*>|&(?:gt|lt|amp|quot|#39);|[│┃║]/m.test(text) ? raw.map(unquoteLine) : raw;
    const budget = { left: MAX_YAML_BYTES };
    for (const b of blocksOf(lines)) {
      if (out.length >= MAX_DOCUMENTS) break;
      if (b.source === 'json') {
        try {
          const m = toManifest(JSON.parse(b.text), 'json', b.line);
          if (m) out.push(m);
        } catch {
          // Not strict JSON (trailing commas, comments): YAML is a superset of JSON, try it as such.
          parseYamlBlock({ ...b, source: 'json' }, out, budget);
        }
      } else if (b.text.trimStart().startsWith('{')) {
        try {
          const m = toManifest(JSON.parse(b.text), b.source, b.line);
          if (m) out.push(m);
        } catch {
          parseYamlBlock(b, out, budget);
        }
      } else parseYamlBlock(b, out, budget);
    }
  } catch (e) {
    out.push({ ok: false, error: e instanceof Error ? e.message : String(e), source: 'yaml', line: 1 });
  }
  return out.slice(0, MAX_DOCUMENTS);
}

/** Physical lines (`\r\n`, `\r` or `\n`); the plain split when there is no carriage return. */
export function splitLines(text: string): string[] {
  return text.includes('\r') ? text.split(/\r\n|\r|\n/) : text.split('\n');
}

/** Undo Slack quoting and entities but keep fences and indentation (YAML needs both). */
function unquoteLine(raw: string): string {
  let s = raw;
  if (s.includes('&'))
    s = s.replace(
      /&(gt|lt|amp|quot|#39);/g,
      (_m, e: string) => ({ gt: '>', lt: '<', amp: '&', quot: '"', '#39': "'" })[e] ?? _m,
    );
  if (s.charCodeAt(0) === 62) s = s.replace(/^>[ ]?/, '');
  // Box borders (k9s) would break YAML indentation; strip them the same way the message parsers do.
  if (/[│┃║]/.test(s)) s = cleanLine(s);
  return s;
}
