/**
 * API validation (HTTP 422) field errors about resources, from `ValidateResourceRequirements` in
 * pkg/apis/core/validation/validation.go (docs/kubernetes-semantics.md §2.4):
 *   `<path>: Invalid value: "<request>": must be less than or equal to <res> limit of <limit>`
 *   (before 1.27, PR #112925: `… <res> limit` with no value);
 *   `<path>: Invalid value: "<request>": must be equal to <res> limit of <limit>` (extended resources);
 *   `<path>.limits: Required value: Limit must be set for non overcommitable resources`.
 * The envelope is `The Pod "<name>" is invalid: ` (a Kind, not a resource), several errors as `[e1, e2]`.
 *
 * Older servers (before 1.20) reported the same rule on the limit: `<path>.limits: Invalid value: "<limit>":
 * must be greater than or equal to <res> request` (the value is the limit, the request is not printed).
 *
 * Decode-time quantity errors come before validation: the request body does not even decode
 * (apimachinery resource.ParseQuantity, ErrFormatWrong / ErrSuffix, wrapped by the JSON decoder):
 *   `<Kind> in version "v1" cannot be handled as a <Kind>: [v1.Pod.Spec: … v1.ResourceRequirements.Limits:
 *   unmarshalerDecoder: ]quantities must match the regular expression '<re>'[, error found in #N byte of
 *   ...|<json>|..., bigger context ...|<json>|...]`, or `unable to parse quantity's suffix`; kubectl's own
 *   decoder says `unable to decode "<file>": quantities must match …`. The bad value is named only inside
 *   the JSON context, when printed.
 */

import type { Match } from './finding.ts';
import { lowerAscii } from './normalize.ts';
import { bare, lineEnd, lineStart, scanMany, wordBefore } from './scan.ts';
import { envelopeBefore, subjectBefore } from './subject.ts';

/** The field path that ends at `end` of `s` (`spec.containers[0].resources.requests`). */
function fieldBefore(s: string, end: number): string | undefined {
  return wordBefore(s, end, /[\w.[\]{}/-]/, 300, /[A-Za-z]/);
}

/**
 * `<field>: Invalid value: "<v>": ` (or `Required value: `) ending exactly at the end of `w`; found
 * with string scans so the look-back is linear.
 */
function fieldErrorBefore(
  w: string,
  label: ': Invalid value: ' | ': Required value: ',
): { field: string | null; value: string | null; length: number } | undefined {
  if (label === ': Required value: ') {
    if (!w.endsWith(label)) return undefined;
    const field = fieldBefore(w, w.length - label.length);
    return field ? { field, value: null, length: field.length + label.length } : undefined;
  }
  if (!w.endsWith(': ')) return undefined;
  let word = 'Invalid value: ';
  let j = w.lastIndexOf(word);
  // Retyped without the colon and quotes (`requests: Invalid value 64Mi: must be …`): the value is one word.
  const loose = / Invalid value ([^\s:"'`]{1,64}): $/.exec(w);
  if (loose && loose.index + 1 > j) {
    word = 'Invalid value ';
    j = loose.index + 1;
  }
  if (j < 0) return undefined;
  let value = w.slice(j + word.length, w.length - 2);
  if (value.length > 100 || value.includes('\n')) return undefined;
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  const at = j - 2;
  const field =
    at >= 0 && (w.startsWith(label, at) || (word === 'Invalid value ' && w.startsWith(': ', at)))
      ? fieldBefore(w, at)
      : undefined;
  if (field) return { field, value, length: w.length - at + field.length };
  // The path left out (`Invalid value: "250m": must be …` copied from the middle of a list, `...` in
  // its place): the value is still the one the rule refused.
  // `message=Invalid value: …` (a Java client's StatusCause) is the same field error, its field given apart.
  return j === 0 || /[\s.:([,=]/.test(w[j - 1]!) ? { field: null, value, length: w.length - j } : undefined;
}
const DETAIL_RE =
  /must be (?:less than or ?equal to|equal to) ([A-Za-z0-9][A-Za-z0-9./_-]{0,252})(?: limit(?: of ([^\s,\]'"`]{1,64}))?|(?=[ \t]*(?:\r?\n|$)))/iy;

/** The envelope (`The Pod "x" is invalid: [`) of a field error that starts at `fieldStart`, skipping earlier errors of a list. */
function envelopeOf(text: string, fieldStart: number): ReturnType<typeof envelopeBefore> {
  const direct = envelopeBefore(text, fieldStart);
  if (direct.object) return direct;
  // Inside `[e1, e2]`: find the `is invalid: [` that opens the list on this line (bounded look-back).
  const from = Math.max(0, fieldStart - 4096);
  const window = text.slice(from, fieldStart);
  const nl = window.lastIndexOf('\n');
  const open = window.lastIndexOf(' is invalid: [');
  if (open > nl) {
    const subj = subjectBefore(text, from + open + ' is invalid: ['.length);
    if (subj)
      return {
        start: subj.start,
        object: { ...(subj.resource ? { resource: subj.resource } : {}), ...(subj.name ? { name: subj.name } : {}) },
      };
  }
  // A bulleted list under its envelope (kubectl's `The Pod "x" is invalid: ⏎ * field: detail ⏎ * …`,
  // utilerrors.Aggregate printed one error a line): the envelope is the line above the first bullet.
  let ls = text.lastIndexOf('\n', fieldStart - 1);
  if (/^[ \t]*[*-][ \t]+$/.test(text.slice(ls + 1, fieldStart))) {
    for (let n = 0; n < 64 && ls > 0; n++) {
      const prev = text.lastIndexOf('\n', ls - 1);
      const line = text.slice(prev + 1, ls);
      if (/^[ \t]*[*-][ \t]+\S/.test(line)) {
        ls = prev;
        continue;
      }
      const t = line.trimEnd();
      if (t.endsWith(' is invalid:')) {
        const subj = subjectBefore(text, prev + 1 + t.length + 1);
        if (subj)
          return {
            start: fieldStart,
            object: {
              ...(subj.resource ? { resource: subj.resource } : {}),
              ...(subj.name ? { name: subj.name } : {}),
            },
          };
      }
      break;
    }
  }
  return direct;
}

/**
 * A rule's text without its `<field>: Invalid value: …` head is a refusal only where the line (or the one
 * above) says something failed (`New error - "must be … of 64Mi"`, `Error from server …`, `is invalid:`):
 * else it is the same words in another program — a test's expected string (`field.Invalid(…, "must be …")`,
 * `pytest.raises(…, match="…")`), a CRD's CEL message, a table of rules, an operator's own check.
 */
const REPORTED_RE =
  /\b(?:error|errors|fail(?:s|ed|ing|ure)?|reject(?:s|ed)?|refus(?:es|ed)|denied|denies|forbidden|invalid|badrequest|unprocessable)\b|invalid value/i;

function reported(text: string, k: number): boolean {
  const ls = lineStart(text, k, 2048);
  const from = ls > 0 ? lineStart(text, ls - 1, 2048) : ls;
  return REPORTED_RE.test(text.slice(Math.max(from, k - 400), k));
}

function lessOrEqual(text: string, k: number): Match | undefined {
  const before = fieldErrorBefore(text.slice(Math.max(0, k - 420), k), ': Invalid value: ');
  DETAIL_RE.lastIndex = k;
  const d = DETAIL_RE.exec(text);
  if (!d) return undefined;
  // A message cut right after the resource (`… must be less than or equal to memory ` ⏎) is read only
  // after its `field: Invalid value: "x":` head.
  if (!before && !/ limit/i.test(d[0])) return undefined;
  // Without its head nor the limit's value (`must be less than or equal to cpu limit` alone) it is a phrase
  // grepped for, asserted or matched by another program, with nothing of a refusal's numbers; and, headless,
  // `CPU` or `Memory` is another program's wording (Kubernetes prints the resource's own name, `cpu`).
  if (!before && d[2] === undefined) return undefined;
  if (!before && /^(?:CPU|Cpu|Memory|MEMORY)$/.test(d[1]!)) return undefined;
  if (!before && !reported(text, k)) return undefined;
  const end = DETAIL_RE.lastIndex;
  const fieldStart = before ? k - before.length : k;
  const { start, object } = envelopeOf(text, fieldStart);
  const limit = d[2] !== undefined ? unglued(bare(d[2])) : null;
  const value = before ? before.value : null;
  const m: Match = {
    layer: 'api-validation',
    kind: 'api-validation',
    facts: { resource: d[1]!, value, limit: limit === '' ? null : limit, field: before ? before.field : null },
    message: start === fieldStart ? text.slice(fieldStart, end).trim() : text.slice(start, end).trim(),
    start,
    end,
  };
  if (object) m.object = object;
  if (/^must be less/i.test(d[0]) && / limit/i.test(d[0])) m.version = d[2] !== undefined ? '>=1.27' : '<1.27';
  return m;
}

/**
 * A quantity a page glued to the prose after it (`limit of 2` ⏎ `**Why**:` read as `2Why`): a quantity's
 * suffix is at most two letters (`Ki`, `Mi`, `m`), so a capitalised word of three or more after its digits is
 * the next sentence.
 */
function unglued(q: string): string {
  const m = /^([+-]?[0-9][0-9.]*)[A-Z][a-z]{2,}$/.exec(q);
  return m ? m[1]! : q;
}

/** The resource a field path ends with (`spec.containers[0].resources.limits[cpu]` → `cpu`). */
function resourceOfField(field: string | null): string | null {
  return field ? (/(?:requests|limits)\[([A-Za-z0-9][A-Za-z0-9./_-]{0,252})\]$/.exec(field)?.[1] ?? null) : null;
}

function limitMustBeSet(text: string, k: number): Match | undefined {
  const before = fieldErrorBefore(text.slice(Math.max(0, k - 340), k), ': Required value: ');
  if (!before && !reported(text, k)) return undefined;
  const end = k + 'Limit must be set for non overcommitable resources'.length;
  const fieldStart = before ? k - before.length : k;
  const { start, object } = envelopeOf(text, fieldStart);
  const m: Match = {
    layer: 'api-validation',
    kind: 'api-validation',
    facts: { resource: null, value: null, limit: null, field: before ? before.field : null },
    message: text.slice(start, end).trim(),
    start,
    end,
  };
  if (object) m.object = object;
  return m;
}

const GREATER_RE = /must be greater than or equal to ([A-Za-z0-9][A-Za-z0-9./_-]{0,252}) request/iy;
/**
 * The other `must be greater than or equal to …` rules on a resource field, each read only after its
 * `<path>[<res>]: Invalid value: "<v>": ` head:
 * - `aggregate container requests of <q>` / `aggregate container limits of <q>` — pod-level resources
 *   below the sum of the containers' (pkg/apis/core/validation/validation.go, validatePodResourceConsistency);
 * - `0` — a negative quantity (ValidateNonnegativeQuantity);
 * - `request` — the limit below the request, in the wording before the resource was named in it.
 */
const GREATER_OTHER_RE =
  /must be greater than or equal to (?:aggregate container (requests|limits) of ([^\s,\]'"`]{1,64})|(0)\b|(request)\b)/iy;

/** `<path>.limits: Invalid value: "<limit>": must be greater than or equal to <res> request` (before 1.20). */
function greaterOrEqual(text: string, k: number): Match | undefined {
  GREATER_RE.lastIndex = k;
  const d = GREATER_RE.exec(text);
  if (!d) return greaterOther(text, k);
  const end = GREATER_RE.lastIndex;
  const before = fieldErrorBefore(text.slice(Math.max(0, k - 420), k), ': Invalid value: ');
  if (!before && !reported(text, k)) return undefined;
  const fieldStart = before ? k - before.length : k;
  const { start, object } = envelopeOf(text, fieldStart);
  const m: Match = {
    layer: 'api-validation',
    kind: 'api-validation',
    // The value printed is the limit; the request it is below is not printed.
    facts: { resource: d[1]!, value: null, limit: before?.value ?? null, field: before ? before.field : null },
    message: text.slice(start, end).trim(),
    start,
    end,
    version: '<1.20',
  };
  if (object) m.object = object;
  return m;
}

function greaterOther(text: string, k: number): Match | undefined {
  GREATER_OTHER_RE.lastIndex = k;
  const d = GREATER_OTHER_RE.exec(text);
  if (!d) return undefined;
  const before = fieldErrorBefore(text.slice(Math.max(0, k - 420), k), ': Invalid value: ');
  const resource = resourceOfField(before?.field ?? null);
  if (!before || !resource) return undefined;
  const end = GREATER_OTHER_RE.lastIndex;
  const fieldStart = k - before.length;
  const { start, object } = envelopeOf(text, fieldStart);
  const onLimit = d[4] !== undefined || d[1]?.toLowerCase() === 'limits';
  const m: Match = {
    layer: 'api-validation',
    kind: 'api-validation',
    // The old `… to request`: the value printed is the limit (as with `… to <res> request` above).
    facts:
      d[4] !== undefined
        ? { resource, value: null, limit: before.value, field: before.field }
        : { resource, value: onLimit ? null : before.value, limit: onLimit ? before.value : null, field: before.field },
    message: text.slice(start, end).trim(),
    start,
    end,
  };
  if (d[4] !== undefined) m.version = '<1.20';
  if (object) m.object = object;
  return m;
}

/**
 * An older field error printed as `<path>[<res>]: invalid value '<v>', Details: limit cannot be smaller than
 * request` (the limit below the request, its value the limit).
 */
function smallerThanRequest(text: string, k: number): Match | undefined {
  const w = text.slice(Math.max(0, k - 420), k);
  const head = /([\w.[\]{}/-]{1,300}): invalid value '([^'\n]{1,64})', Details: $/i.exec(w);
  if (!head) return undefined;
  const resource = resourceOfField(head[1]!);
  if (!resource) return undefined;
  const end = k + 'limit cannot be smaller than request'.length;
  const fieldStart = k - head[0].length;
  const { start, object } = envelopeOf(text, fieldStart);
  const m: Match = {
    layer: 'api-validation',
    kind: 'api-validation',
    facts: { resource, value: null, limit: head[2]!, field: head[1]! },
    message: text.slice(start, end).trim(),
    start,
    end,
  };
  if (object) m.object = object;
  return m;
}

/** `Pod in version "v1" cannot be handled as a Pod: ` before `at` on its line: the object kind, and where it starts. */
function handledAsBefore(text: string, at: number): { start: number; kind: string } | undefined {
  const from = lineStart(text, at, 4096);
  const line = text.slice(from, at);
  const i = line.lastIndexOf(' cannot be handled as a');
  if (i < 0) return undefined;
  const head = /([A-Z][A-Za-z]*) in version "[^"]*"\s*$/.exec(line.slice(0, i));
  const kind = /^ cannot be handled as an? ([A-Z][A-Za-z]*)/.exec(line.slice(i))?.[1] ?? head?.[1];
  if (!kind) return undefined;
  return { start: from + (head ? head.index : i + 1), kind };
}

const DECODE_FIELD_RE = /v1\.ResourceRequirements\.(Limits|Requests)\b/;

/** The value and its resource in the decoder's `error found in #N byte of ...|ctx|..., bigger context ...|ctx|...`. */
function decodedValue(tail: string): { resource: string | null; value: string | null } {
  const ctx = /error found in #\d+ byte of \.\.\.\|(.*?)\|\.\.\.(?:, bigger context \.\.\.\|(.*?)\|\.\.\.)?/.exec(tail);
  if (!ctx) return { resource: null, value: null };
  const unescaped = (s: string) => s.replace(/\\+"/g, '"');
  const near = unescaped(ctx[1] ?? '');
  const value = /:"([^"]{1,64})"/.exec(near)?.[1] ?? null;
  if (!value) return { resource: null, value: null };
  const big = unescaped(ctx[2] ?? near);
  const esc = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const resource = new RegExp(`"([A-Za-z0-9][A-Za-z0-9./_-]{0,252})":"${esc}"`).exec(big)?.[1] ?? null;
  return { resource, value };
}

const DECODE_RE =
  /(?:quantities must match\s+the regular expression(?: '[^'\n]{1,80}')?|unable to parse quantity's suffix)/iy;

/** What the API server's decode error holds around the quantity error (pkg/runtime/serializer, json-iterator). */
const DECODE_CONTEXT_RE =
  /unmarshalerDecoder|ResourceRequirements|error found in #\d|BadRequest|cannot be handled as|error when (?:creating|applying|replacing)|is invalid/i;

function decodeError(text: string, k: number): Match | undefined {
  DECODE_RE.lastIndex = k;
  const d = DECODE_RE.exec(text);
  if (!d) return undefined;
  const end = DECODE_RE.lastIndex;
  const env = handledAsBefore(text, k);
  // kubectl's own decoder (before 1.5): `unable to decode "pod.yaml": quantities must match …`.
  const kubectl = env ? undefined : /unable to decode "[^"\n]{0,1000}": $/.exec(text.slice(Math.max(0, k - 1100), k));
  const start = env ? env.start : kubectl ? k - kubectl[0].length : k;
  const tail = text.slice(end, Math.min(lineEnd(text, end), end + 2048));
  // The bare error of resource.ParseQuantity (apimachinery's ErrFormatWrong / ErrSuffix) is every Go program's
  // that parses a quantity (an operator's own config check, a test's expected string, apimachinery itself):
  // the API server's says where it decoded it.
  if (!env && !kubectl && !DECODE_CONTEXT_RE.test(text.slice(lineStart(text, k, 2048), k) + tail.slice(0, 300)))
    return undefined;
  const { resource, value } = decodedValue(tail);
  const path = DECODE_FIELD_RE.exec(text.slice(start, k))?.[1];
  const m: Match = {
    layer: 'api-validation',
    kind: 'api-validation',
    facts: { resource, value, limit: null, field: path ? `resources.${path.toLowerCase()}` : null },
    message: text.slice(start, end).trim(),
    start,
    end,
  };
  if (env) m.object = { resource: kindToResource(env.kind) };
  return m;
}

/** `Pod` → `pods`, `Deployment` → `deployments` (the kinds a manifest with resources has). */
function kindToResource(kind: string): string {
  const lower = kind.toLowerCase();
  return lower.endsWith('s') ? `${lower}es` : `${lower}s`;
}

/** All resource field errors in normalized `text`. */
export function findValidation(text: string, lowerText?: string): Match[] {
  const lower = lowerText ?? lowerAscii(text);
  const out: Match[] = [];
  scanMany(
    lower,
    [
      ['must be less than or', (k) => lessOrEqual(text, k)],
      ['must be equal to ', (k) => lessOrEqual(text, k)],
      ['limit must be set for non overcommitable resources', (k) => limitMustBeSet(text, k)],
      ['must be greater than or equal to ', (k) => greaterOrEqual(text, k)],
      ['limit cannot be smaller than request', (k) => smallerThanRequest(text, k)],
      ['quantities must match', (k) => decodeError(text, k)],
      ["unable to parse quantity's suffix", (k) => decodeError(text, k)],
    ],
    out,
  );
  return withoutEchoes(out).sort((a, b) => a.start - b.start);
}

/**
 * A field error the same paste prints twice — the Status `message` and its `details.causes[]` entry
 * (`causes=[StatusCause(field=…, message=Invalid value: "1": must be less than or equal to cpu limit…)]`,
 * apimachinery's NewInvalid puts each field error in both) — is one error: a match whose every known fact
 * equals another match's, the other knowing more, is that other one again.
 */
function withoutEchoes(out: Match[]): Match[] {
  if (out.length < 2) return out;
  const tuple = (m: Match): (string | null)[] | undefined =>
    m.kind === 'api-validation' ? [m.facts.resource, m.facts.value, m.facts.limit, m.facts.field] : undefined;
  // The distinct fact tuples, per resource (a paste of a thousand copies compares a handful).
  const byResource = new Map<string, Map<string, (string | null)[]>>();
  for (const m of out) {
    const t = tuple(m);
    if (!t || t[0] === null) continue;
    let group = byResource.get(t[0]);
    if (!group) byResource.set(t[0], (group = new Map()));
    group.set(JSON.stringify(t), t);
  }
  const knowsMore = (x: (string | null)[], y: (string | null)[]): boolean => {
    let more = false;
    for (let i = 0; i < x.length; i++) {
      if (x[i] === null) {
        if (y[i] !== null) more = true;
      } else if (x[i] !== y[i]) return false;
    }
    return more;
  };
  return out.filter((m) => {
    const t = tuple(m);
    if (!t || t[0] === null) return true;
    for (const other of byResource.get(t[0])!.values()) if (knowsMore(t, other)) return false;
    return true;
  });
}
