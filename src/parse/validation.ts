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

import type { ApiValidationFacts, Match } from './finding.ts';
import { lowerAscii } from './normalize.ts';
import { bare, findWithin, lineEnd, lineStart, scanMany, wordBefore } from './scan.ts';
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
    if (field && TEMPLATE_FIELD_RE.test(field)) return { field: null, value: null, length: -1 };
    return field ? { field, value: null, length: field.length + label.length } : undefined;
  }
  if (!w.endsWith(': ')) return undefined;
  let word = 'Invalid value: ';
  let j = w.lastIndexOf(word);
  // Retyped without the colon (`requests: Invalid value 64Mi: must be …`, `requests: Invalid value "48Mi": …`): the
  // value is one word, or one quoted string.
  const loose = / Invalid value ("[^"\n]{1,64}"|[^\s:"'`]{1,64}): $/.exec(w);
  if (loose && loose.index + 1 > j) {
    word = 'Invalid value ';
    j = loose.index + 1;
  }
  if (j < 0) return undefined;
  let value = w.slice(j + word.length, w.length - 2);
  if (value.length > 100 || value.includes('\n')) return undefined;
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  const at = j - 2;
  let field =
    at >= 0 && (w.startsWith(label, at) || (word === 'Invalid value ' && w.startsWith(': ', at)))
      ? fieldBefore(w, at)
      : undefined;
  let colon = at;
  if (!field) {
    // The path on a line of its own above (`…resources.requests:` ⏎ ⏎ `Invalid value: "64Mi":` ⏎ `must be …`,
    // a page that broke the error at each colon): a colon, then only line breaks and blanks, then the value.
    let i = j;
    while (i > 0 && j - i < 12 && (w[i - 1] === ' ' || w[i - 1] === '\t' || w[i - 1] === '\n' || w[i - 1] === '\r'))
      i--;
    if (i < j && w[i - 1] === ':' && w.slice(i, j).includes('\n')) {
      // A path, not a lead's last word (`… results in the following error:` ⏎ `Invalid value: …`).
      const above = fieldBefore(w, i - 1);
      if (above && (/[.[]/.test(above) || /^(?:spec|metadata|status|data)$/.test(above))) {
        field = above;
        colon = i - 1;
      }
    }
  }
  if (field && TEMPLATE_FIELD_RE.test(field)) return undefined;
  if (field) return { field, value, length: w.length - colon + field.length };
  // The path left out (`Invalid value: "250m": must be …` copied from the middle of a list, `...` in
  // its place): the value is still the one the rule refused.
  // `message=Invalid value: …` (a Java client's StatusCause) is the same field error, its field given apart.
  return j === 0 || /[\s.:([,=]/.test(w[j - 1]!) ? { field: null, value, length: w.length - j } : undefined;
}
/**
 * A field path holding a template's placeholder (`limits[{res}]`, `{{ .path }}`): the program that prints the
 * error, not an error printed.
 */
const TEMPLATE_FIELD_RE = /\[\{[^{}\s]{0,40}\}\]|\{\{|^\{/;

const DETAIL_RE =
  /must be (?:less than or ?equal to|equal to) ([A-Za-z0-9][A-Za-z0-9./_-]{0,252})(?: limit(?: of ([^\s,\]'"`]{1,64}))?|(?=[ \t]*(?:\r?\n|$)))/iy;

const KUBECTL_INVALID_RE =
  /(?:^|[\s:])([a-z][a-z0-9-]{0,62}s(?:\.[a-z0-9.-]{1,200})?) "([^"\n]{1,253})" (?:is invalid|was not valid):[ \t]*\[?$/;

/** The envelope (`The Pod "x" is invalid: [`) of a field error that starts at `fieldStart`, skipping earlier errors of a list. */
function envelopeOf(text: string, fieldStart: number): ReturnType<typeof envelopeBefore> {
  const direct = envelopeBefore(text, fieldStart);
  if (direct.object) return direct;
  // kubectl edit's and set's own envelope names the resource, not the kind (`error: pods "web" is invalid:`).
  const w = text.slice(Math.max(0, fieldStart - 300), fieldStart);
  const r = KUBECTL_INVALID_RE.exec(w);
  if (r)
    return { start: fieldStart - w.length + r.index + r[0].indexOf(r[1]!), object: { resource: r[1]!, name: r[2]! } };
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
  // kubectl edit writes the same list into the comment block of the file it reopens (`# pods "x" was not
  // valid:` ⏎ `# * spec: Forbidden: …`).
  let ls = text.lastIndexOf('\n', fieldStart - 1);
  if (/^[ \t]*(?:#[ \t]*)?[*-][ \t]+$/.test(text.slice(ls + 1, fieldStart))) {
    for (let n = 0; n < 64 && ls > 0; n++) {
      const prev = text.lastIndexOf('\n', ls - 1);
      const line = text.slice(prev + 1, ls);
      if (/^[ \t]*(?:#[ \t]*)?[*-][ \t]+\S/.test(line)) {
        ls = prev;
        continue;
      }
      const t = line.trimEnd();
      const edit = KUBECTL_INVALID_RE.exec(t);
      if (edit) return { start: fieldStart, object: { resource: edit[1]!, name: edit[2]! } };
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

/** A field error found from `fieldStart` to `end`, inside its envelope (`The Pod "x" is invalid: …`) when it has one. */
function fieldError(text: string, fieldStart: number, end: number, facts: ApiValidationFacts, version?: string): Match {
  const { start, object } = envelopeOf(text, fieldStart);
  const m: Match = {
    layer: 'api-validation',
    kind: 'api-validation',
    facts,
    message: text.slice(start, end).trim(),
    start,
    end,
  };
  if (version) m.version = version;
  if (object) m.object = object;
  return m;
}

/**
 * A rule's text without its `<field>: Invalid value: …` head is a refusal only where the line (or the one
 * above) says something failed (`New error - "must be … of 64Mi"`, `Error from server …`, `is invalid:`):
 * else it is the same words in another program — a test's expected string (`field.Invalid(…, "must be …")`,
 * `pytest.raises(…, match="…")`), a CRD's CEL message, a table of rules, an operator's own check.
 */
const REPORTED_RE =
  /\b(?:error|errors|fail(?:s|ed|ing|ure)?|reject(?:s|ed)?|refus(?:es|ed)|denied|denies|forbidden|invalid|badrequest|unprocessable)\b|invalid value|kubectl (?:apply|create|replace|edit|patch|set|run|scale)\b[^\n]{0,40}$/i;

/** The same in the languages pastes come with (error, failed, rejected): `помилки валідації (…)`, `报错：…`, `エラー`. */
const REPORTED_INTL_RE =
  /помилк|ошибк|відхил|отклон|错误|錯誤|报错|報錯|失败|失敗|拒绝|エラー|拒否|에러|실패|거부|\berreur|échec|\bfehler|fehlgeschlagen|\berrore|fallit|falló|rechaz/i;

function reported(text: string, k: number): boolean {
  const ls = lineStart(text, k, 2048);
  const from = ls > 0 ? lineStart(text, ls - 1, 2048) : ls;
  const before = text.slice(Math.max(from, k - 400), k);
  return REPORTED_RE.test(before) || REPORTED_INTL_RE.test(before);
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
  const limit = d[2] !== undefined ? unglued(bare(d[2])) : null;
  const value = before ? before.value : null;
  const version =
    /^must be less/i.test(d[0]) && / limit/i.test(d[0]) ? (d[2] !== undefined ? '>=1.27' : '<1.27') : undefined;
  return fieldError(
    text,
    fieldStart,
    end,
    // Retyped `CPU` or `Memory` after its head is the resource Kubernetes names `cpu`, `memory`.
    {
      resource: /^(?:cpu|memory|ephemeral-storage)$/i.test(d[1]!) ? d[1]!.toLowerCase() : d[1]!,
      value,
      limit: limit === '' ? null : limit,
      field: before ? before.field : null,
    },
    version,
  );
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

/** The resource a field path ends with (`spec.containers[0].resources.limits[cpu]` → `cpu`, a PV's `spec.capacity[storage]`, a quota's `spec.hard[requests.cpu]`). */
function resourceOfField(field: string | null): string | null {
  return field
    ? (/(?:requests|limits|resources|capacity|allocatable|hard)\[([A-Za-z0-9][A-Za-z0-9./_-]{0,252})\]$/.exec(
        field,
      )?.[1] ?? null)
    : null;
}

function limitMustBeSet(text: string, k: number): Match | undefined {
  const before = fieldErrorBefore(text.slice(Math.max(0, k - 340), k), ': Required value: ');
  if (before?.length === -1) return undefined;
  if (!before && !reported(text, k)) return undefined;
  const end = k + 'Limit must be set for non overcommitable resources'.length;
  const fieldStart = before ? k - before.length : k;
  return fieldError(text, fieldStart, end, {
    resource: null,
    value: null,
    limit: null,
    field: before ? before.field : null,
  });
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
  // Headless, `CPU` or `Memory` is another program's own check (Kubernetes prints the resource's name, `cpu`).
  if (!before && /^(?:CPU|Cpu|Memory|MEMORY)$/.test(d[1]!)) return undefined;
  const fieldStart = before ? k - before.length : k;
  // The value printed is the limit; the request it is below is not printed.
  const facts = { resource: d[1]!, value: null, limit: before?.value ?? null, field: before ? before.field : null };
  return fieldError(text, fieldStart, end, facts, '<1.20');
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
  const onLimit = d[4] !== undefined || d[1]?.toLowerCase() === 'limits';
  // The old `… to request`: the value printed is the limit (as with `… to <res> request` above).
  const facts =
    d[4] !== undefined
      ? { resource, value: null, limit: before.value, field: before.field }
      : { resource, value: onLimit ? null : before.value, limit: onLimit ? before.value : null, field: before.field };
  return fieldError(text, fieldStart, end, facts, d[4] !== undefined ? '<1.20' : undefined);
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
  return fieldError(text, k - head[0].length, end, { resource, value: null, limit: head[2]!, field: head[1]! });
}

/**
 * The other field errors on a resource list entry, each read only after its `<path>[<res>]: Invalid value:
 * "<v>": ` head (pkg/apis/core/validation/validation.go):
 * - `must be an integer` — an extended resource (or hugepages count) with a fraction (isNotIntegerErrorMsg;
 *   the value is printed in canonical form, `0.5` as `500m`);
 * - `must be a standard resource type or fully qualified` / `must be a standard resource for containers` —
 *   a resource name that is no resource (validateResourceName, validateContainerResourceName; the value
 *   printed is the name itself, quoted or not).
 * - `must be greater than zero` — a PersistentVolumeClaim's `spec.resources[storage]` of 0
 *   (ValidatePositiveQuantityValue).
 * The two name errors of one entry are one problem: they share every fact.
 */
function entryError(text: string, k: number, detail: string): Match | undefined {
  const before = fieldErrorBefore(text.slice(Math.max(0, k - 420), k), ': Invalid value: ');
  const resource = resourceOfField(before?.field ?? null);
  if (!before || !resource) return undefined;
  const facts = { resource, value: before.value, limit: null, field: before.field };
  return fieldError(text, k - before.length, k + detail.length, facts);
}

/**
 * A hugepages quantity that is no whole number of pages: `<path>[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not
 * positive integer multiple of hugepages-2Mi` (validateResourceQuantityHugePageValue). `k` is at the blank after
 * the quantity the detail repeats.
 */
function notMultiple(text: string, k: number): Match | undefined {
  const q = wordBefore(text, k, /[^\s"':]/, 64);
  if (!q) return undefined;
  const detail = /^ is not positive integer multiple of [A-Za-z0-9.-]{1,64}/.exec(text.slice(k, k + 120));
  return detail ? entryError(text, k - q.length, `${q}${detail[0]}`) : undefined;
}

/**
 * A field error read only after its `<field>: Invalid value: "<v>": ` head, whatever its field: `metadata:
 * Invalid value: "BestEffort": Pod QoS is immutable` (ValidatePodUpdate: a resize that would change the pod's
 * QoS class; the value is the class). No resource is printed.
 */
function afterHead(text: string, k: number, detail: string): Match | undefined {
  const before = fieldErrorBefore(text.slice(Math.max(0, k - 420), k), ': Invalid value: ');
  if (!before?.field) return undefined;
  const facts = { resource: null, value: before.value, limit: null, field: before.field };
  return fieldError(text, k - before.length, k + detail.length, facts);
}

/** The end of a sentence that introduces a refusal somebody got (`… rejected by the API server with:`). */
const REFUSAL_LEAD_RE =
  /\b(?:rejected|refused|fails?|failed|errors? out|errored|returns?|returned|got|gets|says?|said|prints?|printed|responds?|responded)\b[^.\n]{0,60}(?:\bwith|:)$/i;

const STANDARD_RE = /must be a standard resource (?:type or fully qualified|for containers|for quota)/y;

/**
 * A resource name the API does not know (pkg/apis/core/validation: validateContainerResourceName `must be a standard
 * resource for containers`, validateResourceQuotaResourceName `must be a standard resource for quota`,
 * validateResourceName `must be a standard resource type or fully qualified`), on a container's resources, a
 * LimitRange's `max`/`min`/`default…` or a quota's `hard`: `spec.limits[0].max[pids]: Invalid value: "pids": must be
 * a standard resource for containers`. Retyped as `pids: must be a standard resource for containers` (the name for
 * the path), the resource is that name.
 */
function standardResource(text: string, k: number): Match | undefined {
  STANDARD_RE.lastIndex = k;
  const d = STANDARD_RE.exec(text);
  if (!d) return undefined;
  const own = entryError(text, k, d[0]);
  if (own) return own;
  const before = fieldErrorBefore(text.slice(Math.max(0, k - 420), k), ': Invalid value: ');
  const named = before?.field ? /\[([A-Za-z0-9][A-Za-z0-9./_-]{0,252})\]$/.exec(before.field)?.[1] : undefined;
  if (before && named) {
    const facts = { resource: named, value: before.value, limit: null, field: before.field };
    return fieldError(text, k - before.length, k + d[0].length, facts);
  }
  // Its path cut off (`Invalid value: "gpu": must be a standard resource type or fully qualified, spec.…` at a copy's
  // start): the value refused is the resource's name.
  if (before && !before.field && before.value && /^[A-Za-z0-9][A-Za-z0-9./_-]{0,252}$/.test(before.value)) {
    const facts = { resource: before.value, value: before.value, limit: null, field: null };
    return fieldError(text, k - before.length, k + d[0].length, facts);
  }
  const short = /(?:^|[\s"'`(])([a-z0-9](?:[a-z0-9./_-]{0,252}[a-z0-9])?): $/.exec(text.slice(Math.max(0, k - 260), k));
  if (!short) return undefined;
  // Only as the refusal somebody got (`Attempts to add it are rejected by the API server with:` ⏎ `"pids: must be …"`):
  // the rule named in a sentence (`LimitRange does not take pids: "pids: must be …"`) is no report.
  const lead = text
    .slice(Math.max(0, k - short[1]!.length - 2 - 240), k - short[1]!.length - 2)
    .replace(/(?:^|\n)[ \t]*(?:\/\/|#)[ \t]*/g, '\n')
    .replace(/[\s"'`(]+$/, '');
  if (!REFUSAL_LEAD_RE.test(lead)) return undefined;
  const facts = { resource: short[1]!, value: null, limit: null, field: null };
  return fieldError(text, k - short[1]!.length - 2, k + d[0].length, facts);
}

/**
 * ValidatePodUpdate's refusal of a changed pod spec (a resource edited on a running pod, without the resize
 * subresource): `The Pod "x" is invalid: spec: Forbidden: pod updates may not change fields other than
 * \`spec.containers[*].image\`, …` (pkg/apis/core/validation/validation.go). Read only after its
 * `<field>: Forbidden: ` head: the same words in prose (`Note: pod updates may not change …`) are no refusal.
 * No resource nor value is printed; the field is the one the head names (`spec`).
 */
function forbiddenHead(text: string, k: number): { field: string; start: number } | undefined {
  const from = Math.max(0, k - 340);
  const w = text.slice(from, k).trimEnd();
  if (!w.endsWith('Forbidden:')) return undefined;
  const head = w.slice(0, -'Forbidden:'.length).trimEnd();
  if (!head.endsWith(':')) return undefined;
  // At most one line break between the field's colon and `Forbidden:` (`spec: ` ⏎ `Forbidden: …`).
  if (w.slice(head.length).split('\n').length > 2) return undefined;
  const field = fieldBefore(head, head.length - 1);
  if (!field || TEMPLATE_FIELD_RE.test(field) || !/^[A-Za-z]/.test(field)) return undefined;
  return { field, start: from + head.length - 1 - field.length };
}

function forbiddenField(text: string, k: number, detail: string): Match | undefined {
  const head = forbiddenHead(text, k);
  if (!head) return undefined;
  // The detail is what the text prints (`HugePages require cpu or memory`), in its case: a lowercased copy is
  // another program's own check.
  if (!text.startsWith(detail, k)) return undefined;
  return fieldError(text, head.start, k + detail.length, {
    resource: null,
    value: null,
    limit: null,
    field: head.field,
  });
}

/**
 * A resource field error cut right after its head (`Pod "build" is invalid: spec.containers[0].resources.
 * limits[memory]: Invalid value` at the end of a line or string): the rule is not printed, the field and its
 * resource are.
 */
function cutHead(text: string, k: number): Match | undefined {
  // `k` is at `invalid value`; the head ends the line, or the string that holds it.
  const end = k + 'Invalid value'.length;
  if (!/^["'`]?[ \t]*(?:\r?\n|$)/.test(text.slice(end, end + 8))) return undefined;
  if (text[k - 1] !== ' ' || text[k - 2] !== ':' || text[k - 3] !== ']') return undefined;
  const field = fieldBefore(text, k - 2);
  const resource = resourceOfField(field ?? null);
  if (!field || !resource || !/\.(?:limits|requests)\[[^\]]+\]$/.test(field) || TEMPLATE_FIELD_RE.test(field))
    return undefined;
  const m = fieldError(text, k - 2 - field.length, end, { resource, value: null, limit: null, field });
  // Only an API server's error: inside its `is invalid:` envelope.
  return m.object ? m : undefined;
}

/** `Pod in version "v1" cannot be handled as a Pod: ` before `at` on its line: the object kind, and where it starts. */
function handledAsBefore(text: string, at: number): { start: number; kind: string } | undefined {
  let from = lineStart(text, at, 4096);
  let line = text.slice(from, at);
  // The envelope ending the line above (`* StatefulSet in version "v1" cannot be handled as a StatefulSet:` ⏎
  // `  quantities must match …`, Helm's error list wrapped at the colon).
  if (from > 1 && /^[ \t]*$/.test(line) && text[from - 2] === ':') {
    const prev = lineStart(text, from - 1, 4096);
    line = `${text.slice(prev, from - 1)} `;
    from = prev;
  }
  const i = line.lastIndexOf(' cannot be handled as a');
  if (i < 0) return undefined;
  // The version's quotes may be a JSON string's (`"message":"Job in version \\"v1\\" cannot be handled …`).
  const head = /([A-Z][A-Za-z0-9]*) in version \\?"[^"\\\n]*\\?"\s*$/.exec(line.slice(0, i));
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

/** A first-person account of a container's cpu or memory request or limit (the words in either order). */
const QUANTITY_ACCOUNT_RE =
  /\b(?:I|we)\b[\s\S]{0,300}\b(?:cpu|memory)\b[`'"]?\s+(?:requests?|limits?)\b|\b(?:I|we)\b[\s\S]{0,300}\b(?:requests?|limits?)\s+(?:of|for)\s+[`'"]?(?:cpu|memory)\b/i;

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
  // A writer's own account around it that says which container quantity it was (`I had a typo in a \`cpu\` request
  // … The error I get is \`quantities must match …\``) is the API server's refusal of that manifest too.
  if (
    !env &&
    !kubectl &&
    !DECODE_CONTEXT_RE.test(text.slice(lineStart(text, k, 2048), k) + tail.slice(0, 300)) &&
    !QUANTITY_ACCOUNT_RE.test(text.slice(Math.max(0, k - 400), k))
  )
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

/**
 * The API server's strict decoding (1.25+, `fieldValidation=Strict`, kubectl's default since 1.27): `Deployment in
 * version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.
 * containers[0].resource"` (apimachinery pkg/runtime/serializer/json, NewStrictDecodingError). The first field
 * named is the fact; the object never reached validation. Only after the decoder's envelope.
 */
const STRICT_RE = /strict decoding error: (?:unknown field|duplicate field) "([^"\n]{1,300})"/y;

function strictDecoding(text: string, k: number): Match | undefined {
  STRICT_RE.lastIndex = k;
  const d = STRICT_RE.exec(text);
  if (!d) return undefined;
  const env = handledAsBefore(text, k);
  if (!env) return undefined;
  // The rest of its list (`, unknown field "x"`) is the same message.
  let end = STRICT_RE.lastIndex;
  const more = /^(?:, (?:unknown|duplicate) field "[^"\n]{1,300}")*/.exec(text.slice(end, end + 4000));
  end += more?.[0].length ?? 0;
  const m: Match = {
    layer: 'api-validation',
    kind: 'api-validation',
    facts: { resource: null, value: null, limit: null, field: d[1]! },
    message: text.slice(env.start, end).trim(),
    start: env.start,
    end,
  };
  m.object = { resource: kindToResource(env.kind) };
  return m;
}

/** `Pod` → `pods`, `Deployment` → `deployments` (the kinds a manifest with resources has). */
function kindToResource(kind: string): string {
  const lower = kind.toLowerCase();
  return lower.endsWith('s') ? `${lower}es` : `${lower}s`;
}

type Rule = [string, (text: string, k: number) => Match | undefined];

/**
 * Rarer needles, each group joining the pass only when the paste holds the word every rule of the group needs
 * (one `includes` per group): most pastes then pay nothing for them.
 */
const RARE: [gate: string, rules: Rule[]][] = [
  // Read only after a `<field>: Forbidden: ` head.
  [
    'forbidden:',
    [
      [
        'pod updates may not change fields other than',
        (text, k) => forbiddenField(text, k, 'pod updates may not change fields other than'),
      ],
      ['hugepages require cpu or memory', (text, k) => forbiddenField(text, k, 'HugePages require cpu or memory')],
    ],
  ],
  // Read only after (or at) a `<field>: Invalid value` head.
  ['strict decoding error', [['strict decoding error: ', strictDecoding]]],
  [
    'invalid value',
    [
      ['invalid value', cutHead],
      [' is not positive integer multiple of ', notMultiple],
      ['pod qos is immutable', (text, k) => afterHead(text, k, 'Pod QoS is immutable')],
    ],
  ],
];

/** The `must be …` rule that starts at `k`, if it is one of ours. */
function mustBe(text: string, lower: string, k: number): Match | undefined {
  const r = k + 'must be '.length;
  if (lower.startsWith('less than or', r) || lower.startsWith('equal to ', r)) return lessOrEqual(text, k);
  if (lower.startsWith('greater than or equal to ', r)) return greaterOrEqual(text, k);
  if (lower.startsWith('an integer', r)) return entryError(text, k, 'must be an integer');
  // A PersistentVolumeClaim's storage request of 0 (ValidatePersistentVolumeClaimSpec: ValidatePositiveQuantityValue).
  if (lower.startsWith('greater than zero', r)) return entryError(text, k, 'must be greater than zero');
  if (lower.startsWith('a standard resource ', r)) return standardResource(text, k);
  return undefined;
}

/**
 * The error types of apimachinery's field errors (pkg/util/validation/field/errors.go, ErrorType.String()).
 * Any field's error inside an API server's `<Kind> "<name>" is invalid: ` envelope is a validation refusal,
 * whatever rule printed it (`spec.selector: Invalid value: v1.LabelSelector{…}: field is immutable`,
 * `spec.progressDeadlineSeconds: Invalid value: 0: must be greater than minReadySeconds`,
 * `spec.template.spec.containers[0].image: Required value`, `spec: Forbidden: is immutable after creation`).
 */
const FIELD_ERROR_TYPES = [
  'Invalid value',
  'Required value',
  'Forbidden',
  'Unsupported value',
  'Duplicate value',
  'Not found',
  'Too long',
  'Too many',
  'Internal error',
];
const GENERIC_HEAD_RE = new RegExp(
  `\\[?[ \\t]*([A-Za-z][\\w.\\[\\]*/-]{0,250}): (${FIELD_ERROR_TYPES.join('|')})\\b`,
  'y',
);

/** A printed invalid value at `at`: a quoted string, or up to the `: ` that ends it outside braces. */
function printedValue(text: string, at: number, end: number): { value: string; end: number } | undefined {
  if (text[at] === '"') {
    let i = at + 1;
    while (i < end && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= end) return undefined;
    return { value: text.slice(at + 1, i).replace(/\\(["\\])/g, '$1'), end: i + 1 };
  }
  let depth = 0;
  for (let i = at; i < end && i - at < 400; i++) {
    const c = text[i];
    if (c === '{' || c === '[' || c === '(') depth++;
    else if (c === '}' || c === ']' || c === ')') depth--;
    else if (depth <= 0 && c === ':' && text[i + 1] === ' ')
      return i > at ? { value: text.slice(at, i), end: i } : undefined;
  }
  const rest = text.slice(at, end).trim();
  return rest && depth === 0 && !/\s/.test(rest) ? { value: rest, end } : undefined;
}

/** Every field error after an `is invalid: ` envelope (one finding each), where no rule of ours read it. */
function genericFieldErrors(text: string, lower: string, found: readonly Match[]): Match[] {
  const out: Match[] = [];
  let budget = 200;
  // kubectl edit's reopened file says `was not valid:` (`# services "svc1" was not valid:` ⏎ `# * spec.clusterIP: …`).
  const envelope = /" (?:is invalid|was not valid):/g;
  for (let e = envelope.exec(lower); e && budget-- > 0; e = envelope.exec(lower)) {
    const k = e.index;
    const after = k + e[0].length + 1;
    const le = lineEnd(text, k, 4000);
    const p = after;
    // A custom resource refused by its CRD's schema, before 1.15 (`The CronTab "x" is invalid: []: Invalid value:
    // map[string]interface {}{…}: validation failure list:` ⏎ `spec.replicas in body should be …`): one refusal of
    // the whole object, its fields listed under it.
    if (text.startsWith('[]: Invalid value: ', p) && !found.some((m) => m.start <= p && p < m.end)) {
      // The schema's patterns in the list after it (`should match '^(\d+|\*)…'`) are the CRD's, not a regex of ours.
      const list = findWithin(text, 'validation failure list:', p, le);
      out.push(
        fieldError(text, p, list >= 0 ? list + 'validation failure list:'.length : le, {
          resource: null,
          value: null,
          limit: null,
          field: null,
        }),
      );
      continue;
    }
    out.push(...fieldErrorList(text, p, le, found));
    // kubectl's list of several errors, one a line under the envelope (`The ConfigMap "x" is invalid:` ⏎ `* data:
    // Forbidden: field is immutable when \`immutable\` is set` ⏎ `* immutable: …`).
    if (/^[ \t]*$/.test(text.slice(after, le))) out.push(...bulletErrors(text, le, found));
    // The field path elided where the writer cut it (`Job.batch "x" is invalid: (...) : field is immutable`,
    // `is invalid: …: field is immutable`): a refusal all the same, its field unknown.
    const elided = ELIDED_FIELD_RE.exec(text.slice(after, le));
    if (elided) {
      const fieldStart = after;
      if (!found.some((m) => m.start < le && fieldStart < m.end) && !out.some((m) => m.start <= k && k < m.end))
        out.push(fieldError(text, fieldStart, le, { resource: null, value: null, limit: null, field: null }));
    }
  }
  return out;
}

/**
 * The field errors of one list, from `p` to the line's end `le` (`f1: Invalid value: …, f2: Required value`): each one
 * its own finding, except where a match of ours already reads it.
 */
function fieldErrorList(text: string, from: number, le: number, found: readonly Match[]): Match[] {
  const out: Match[] = [];
  let p = from;
  for (let n = 0; n < 16 && p < le; n++) {
    GENERIC_HEAD_RE.lastIndex = p;
    const h = GENERIC_HEAD_RE.exec(text);
    if (!h) break;
    const fieldStart = h.index + h[0].indexOf(h[1]!);
    const field = h[1]!.replace(/[.,]$/, '');
    let end = GENERIC_HEAD_RE.lastIndex;
    let value: string | null = null;
    if (
      (h[2] === 'Invalid value' || h[2] === 'Unsupported value' || h[2] === 'Duplicate value') &&
      text.startsWith(': ', end)
    ) {
      const v = printedValue(text, end + 2, le);
      if (v) {
        value = v.value;
        end = v.end;
      }
    }
    // The detail runs to the next field error of the list (`, spec.x: Required value`) or the list's end.
    const next = text
      .slice(end, le)
      .search(
        /, (?=[A-Za-z][\w.[\]*/-]{0,250}: (?:Invalid value|Required value|Forbidden|Unsupported value|Duplicate value|Not found|Too long|Too many|Internal error)\b)|\](?=[ \t]*$)/,
      );
    const stop = next < 0 ? le : end + next;
    // A resource field's rules are all read above (test/parse/wordings.test.ts holds every upstream one): an
    // unknown rule there is no Kubernetes message (`…limits[memory]: Invalid value: "512": must be a quantity
    // with a valid suffix` is a blog's own, held4 y082).
    // An update's refusal of a resource field is upstream's whatever the field (ValidatePersistentVolumeClaimUpdate:
    // `spec.resources.requests.storage: Forbidden: field can not be less than previous value`).
    const resourceField =
      /(?:^|\.)(?:resources|limits|requests|overhead)(?:\[|\.|$)/.test(field) && h[2] !== 'Forbidden';
    // A match of ours starts at the envelope, before every error of the list: one that ends inside this error is it.
    const overlaps = resourceField || found.some((m) => m.end > fieldStart && m.end <= stop);
    if (
      !overlaps &&
      !TEMPLATE_FIELD_RE.test(field) &&
      !/^<|[<>]/.test(field) &&
      (value === null || !/^<[^<>]{1,40}>$/.test(value))
    ) {
      const m = fieldError(text, fieldStart, stop, { resource: null, value, limit: null, field });
      // An Event the event recorder could not write (`Server rejected event '…': 'Event "x" is invalid:
      // series.count: …'`) is a component's own log line: nobody's object was refused.
      if (!/^events\b/.test(m.object?.resource ?? '')) out.push(m);
    }
    p = stop + (text[stop] === ',' ? 2 : 1);
  }
  return out;
}

/** The `* field: Type…` lines right under the envelope's line ending at `le`, each a field error. */
function bulletErrors(text: string, le: number, found: readonly Match[]): Match[] {
  const out: Match[] = [];
  let ls = le + 1;
  for (let n = 0; n < 64 && ls < text.length; n++) {
    const e = lineEnd(text, ls, 4000);
    const bullet = /^[ \t]*(?:#[ \t]*)?\*[ \t]+/.exec(text.slice(ls, Math.min(e, ls + 16)));
    if (!bullet) break;
    out.push(...fieldErrorList(text, ls + bullet[0].length, e, found));
    ls = e + 1;
  }
  return out;
}

/** An elision where the field path was, then a field error's detail. */
const ELIDED_FIELD_RE =
  /^(?:\(\.{3}\)|\[\.{3}\]|\.{3}|\u2026)[ \t]*:[ \t]*(?:field is immutable|Invalid value|Required value|Forbidden|Unsupported value|may not be|must be)\b/;

/**
 * A resource list entry's field error on a tool's `Error: ` line, its envelope gone (cdk8s' synth, a CI step: `Error:
 * spec.containers[0].resources.limits[cpu]: Invalid value`): the API's validation of that quantity, as the tool
 * relays it. Only a container's `requests[…]`/`limits[…]` path: other fields' errors without their envelope are
 * any program's.
 */
const ERROR_LINE_FIELD_RE =
  /^[ \t>*-]*(?:Error|error|ERROR)(?: from server(?: \([A-Za-z]+\))?)?: ((?:[A-Za-z][\w.]*(?:\[\d+\])?\.){1,8}(?:requests|limits)\[([A-Za-z0-9][A-Za-z0-9./_-]{0,252})\]): Invalid value(?:: "([^"\n]{1,64})")?/gm;

function errorLineFieldErrors(text: string, found: readonly Match[]): Match[] {
  const out: Match[] = [];
  ERROR_LINE_FIELD_RE.lastIndex = 0;
  for (let m = ERROR_LINE_FIELD_RE.exec(text), n = 0; m && n < 50; m = ERROR_LINE_FIELD_RE.exec(text), n++) {
    const fieldStart = m.index + m[0].indexOf(m[1]!);
    const end = lineEnd(text, fieldStart);
    if (found.some((f) => f.start < end && fieldStart < f.end)) continue;
    out.push(fieldError(text, fieldStart, end, { resource: m[2]!, value: m[3] ?? null, limit: null, field: m[1]! }));
  }
  return out;
}

/** The end of the decoder's envelope (`… cannot be handled as a Job: `), read where its words start. */
const HANDLED_AS_RE = / cannot be handled as an? [A-Z][A-Za-z0-9]{0,62}: ?/y;
/** Go's JSON decoder naming the field it could not fill (`cannot unmarshal string into Go struct field PodSpec.spec.template.spec.imagePullSecrets of type …`). */
const GO_STRUCT_FIELD_RE = /\bGo struct field [A-Z][A-Za-z0-9]{0,62}\.([a-z][\w.[\]]{0,250}?) of type\b/;

/**
 * Any other refusal of the decoder (LABELLING.md §1): the request body did not decode into its kind, so the object
 * never reached validation (`Job in version "v1" cannot be handled as a Job: json: cannot unmarshal string into Go
 * struct field …`, `… v1.JobSpec.Parallelism: readUint32: unexpected character`, `… strict decoding error` cut
 * short, a field error the decoder's defaulting printed). The field where the detail names one; else unknown.
 */
function decoderRefusals(text: string, lower: string, found: readonly Match[]): Match[] {
  const out: Match[] = [];
  let budget = 50;
  for (
    let k = lower.indexOf(' cannot be handled as a');
    k >= 0 && budget-- > 0;
    k = lower.indexOf(' cannot be handled as a', k + 1)
  ) {
    HANDLED_AS_RE.lastIndex = k;
    if (!HANDLED_AS_RE.exec(text)) continue;
    const detailAt = HANDLED_AS_RE.lastIndex;
    // Only with its head (`Job in version "v1"`): the words alone are any program's.
    const env = handledAsBefore(text, detailAt);
    if (!env || !/ in version /.test(text.slice(env.start, k + 1))) continue;
    const start = env.start;
    const le = Math.min(lineEnd(text, start, 4000), start + 2000);
    if (found.some((m) => m.start < le && start < m.end) || out.some((m) => m.start === start)) continue;
    let field: string | null = null;
    let value: string | null = null;
    GENERIC_HEAD_RE.lastIndex = detailAt;
    const g = GENERIC_HEAD_RE.exec(text);
    if (g && g.index === detailAt) {
      field = g[1]!.replace(/[.,]$/, '');
      const at = GENERIC_HEAD_RE.lastIndex;
      if (g[2] !== 'Required value' && g[2] !== 'Forbidden' && text.startsWith(': ', at))
        value = printedValue(text, at + 2, le)?.value ?? null;
    } else field = GO_STRUCT_FIELD_RE.exec(text.slice(detailAt, le))?.[1] ?? null;
    if (field && (TEMPLATE_FIELD_RE.test(field) || /[<>]/.test(field))) continue;
    const m: Match = {
      layer: 'api-validation',
      kind: 'api-validation',
      facts: { resource: resourceOfField(field), value, limit: null, field },
      message: text.slice(start, le).trim(),
      start,
      end: le,
    };
    m.object = { resource: kindToResource(env.kind) };
    out.push(m);
  }
  return out;
}

/** All resource field errors in normalized `text`. */
export function findValidation(text: string, lowerText?: string): Match[] {
  const lower = lowerText ?? lowerAscii(text);
  const out: Match[] = [];
  const table: [string, (k: number) => Match | undefined][] = [
    // One needle for the five `must be …` rules: each more needle slows the one pass over every paste.
    ['must be ', (k) => mustBe(text, lower, k)],
    ['limit must be set for non overcommitable resources', (k) => limitMustBeSet(text, k)],
    ['limit cannot be smaller than request', (k) => smallerThanRequest(text, k)],
    ['quantities must match', (k) => decodeError(text, k)],
    ["unable to parse quantity's suffix", (k) => decodeError(text, k)],
  ];
  for (const [gate, rules] of RARE)
    if (lower.includes(gate)) for (const [needle, f] of rules) table.push([needle, (k) => f(text, k)]);
  scanMany(lower, table, out);
  if (lower.includes('" is invalid:') || lower.includes('" was not valid:'))
    out.push(...genericFieldErrors(text, lower, out));
  if (lower.includes(' cannot be handled as a')) out.push(...decoderRefusals(text, lower, out));
  if (lower.includes('error: ') && lower.includes(': invalid value')) out.push(...errorLineFieldErrors(text, out));
  return withoutEchoes(out).sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * A field error the same paste prints twice — the Status `message` and its `details.causes[]` entry
 * (`causes=[StatusCause(field=…, message=Invalid value: "1": must be less than or equal to cpu limit…)]`,
 * apimachinery's NewInvalid puts each field error in both) — is one error: a match whose every known fact
 * equals another match's, the other knowing more, is that other one again.
 */
function ruleHead(message: string): string {
  const tail = message.slice(-200);
  const at = tail.lastIndexOf('": ');
  return tail
    .slice(at < 0 ? 0 : at + 3)
    .slice(0, 40)
    .toLowerCase();
}

function withoutEchoes(out: Match[]): Match[] {
  if (out.length < 2) return out;
  // The rule is part of it: two rules refusing one value (`must be a standard resource type or fully qualified`, then
  // `… for containers`) are two errors, whichever copy lost its path.
  const tuple = (m: Match): (string | null)[] | undefined =>
    m.kind === 'api-validation'
      ? [m.facts.resource, m.facts.value, m.facts.limit, m.facts.field, ruleHead(m.message)]
      : undefined;
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
