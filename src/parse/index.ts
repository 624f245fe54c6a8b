/**
 * Pasted text → findings: which layer stopped a pod, with the numbers the message gives.
 *
 * Pipeline: cap the input (`maxBytes`), normalize it into logical lines (normalize.ts), run every layer
 * parser over the same normalized text, attach the surrounding context (namespace, controller, pod),
 * dedupe repeats, and order the findings the way the API server and scheduler meet an object:
 * validation → LimitRanger → ResourceQuota → scheduler → runtime → look-alikes.
 * Never throws: on an internal failure it returns what was found so far.
 */

import { resourceOf } from '../k8s/objects.ts';
import { withBackticks } from './backticks.ts';
import { PasteContext } from './context.ts';
import { type Finding, factRecord, type Match } from './finding.ts';
import { LAYERS } from '../k8s/layers.ts';
import { findLimitRange } from './limitrange.ts';
import { findLookalikes } from './lookalikes.ts';
import { extractManifests, type ExtractedManifest } from './manifests.ts';
import { lowerAscii, normalizeLines } from './normalize.ts';
import { findQuota } from './quota.ts';
import { conditionRefusal, findRuntime } from './runtime.ts';
import { findScheduler } from './scheduler.ts';
import { placeholderQuantities, searchedFor, withoutExamples, withoutTemplateSiblings } from './placeholder.ts';
import { withoutTalk } from './talk.ts';
import { lineEnd, lineStart, scanPaste, trimEndOf } from './scan.ts';
import { findValidation } from './validation.ts';

export type * from './finding.ts';
export type { ExtractedManifest } from './manifests.ts';
export { extractManifests } from './manifests.ts';
export { normalizePaste } from './normalize.ts';

export interface ParsedPaste {
  findings: Finding[];
  manifests: ExtractedManifest[];
  truncated?: boolean;
}

export const DEFAULT_MAX_BYTES = 1024 * 1024;

/** UTF-8 size of one character of `text` at `i` (a lone surrogate is written as U+FFFD: 3 bytes), and its code units. */
function charAt(text: string, i: number): [bytes: number, units: number] {
  const c = text.charCodeAt(i);
  if (c < 0x80) return [1, 1];
  if (c < 0x800) return [2, 1];
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return [4, 2];
  }
  return [3, 1];
}

/** Is `i` between the two halves of a surrogate pair of `text`? */
function splitsPair(text: string, i: number): boolean {
  if (i <= 0 || i >= text.length) return false;
  const c = text.charCodeAt(i - 1);
  const d = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff;
}

/** The first `maxBytes` UTF-8 bytes of `text` (never splitting a character). */
function capBytes(text: string, maxBytes: number): { text: string; truncated: boolean } {
  // A UTF-16 code unit is at most 3 UTF-8 bytes: short texts need no counting.
  if (text.length * 3 <= maxBytes) return { text, truncated: false };
  const total = Buffer.byteLength(text, 'utf8');
  if (total <= maxBytes) return { text, truncated: false };
  // Cutting the last `total - maxBytes` code units removes at least that many bytes: a prefix that fits.
  // From there, grow by a third of the remaining room at a time (a code unit is at most 3 bytes), sizing
  // each piece natively: no JavaScript loop over the paste, no encoded copy of it.
  const n = text.length;
  let i = Math.max(0, n - (total - maxBytes));
  if (splitsPair(text, i)) i--;
  let bytes = Buffer.byteLength(text.slice(0, i), 'utf8');
  while (maxBytes - bytes >= 3) {
    let next = Math.min(n, i + Math.floor((maxBytes - bytes) / 3));
    if (splitsPair(text, next)) next--;
    if (next <= i) break;
    bytes += Buffer.byteLength(text.slice(i, next), 'utf8');
    i = next;
  }
  // The last few bytes of room, a character at a time.
  while (i < n) {
    const [size, units] = charAt(text, i);
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += units;
  }
  return i < n ? { text: text.slice(0, i), truncated: true } : { text, truncated: false };
}

/** JSON of `v` with object keys sorted (a hand-written walk: a `JSON.stringify` replacer is several times slower). */
function stableKey(v: unknown): string {
  if (v === null || typeof v !== 'object') return v === undefined ? 'null' : JSON.stringify(v);
  if (Array.isArray(v)) {
    let out = '[';
    // (A hole is written as nothing, as `map` then `join` would.)
    for (let i = 0; i < v.length; i++)
      out += (i > 0 ? ',' : '') + (!(i in v) ? '' : v[i] === undefined ? 'null' : stableKey(v[i]));
    return `${out}]`;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  // Most objects are built with their keys in order already: sort only when not.
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) if (keys[i - 1]! > keys[i]!) sorted = false;
  if (!sorted) keys.sort();
  let out = '{';
  let first = true;
  for (const k of keys) {
    const x = o[k];
    if (x === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(k)}:${stableKey(x)}`;
    first = false;
  }
  return `${out}}`;
}

/** A finding in the field order of docs/contract.md, without parser bookkeeping. */
function toFinding(m: Match): Finding {
  const { start: _start, end: _end, object, controller, namespace, version, ...body } = m;
  const ordered = {
    layer: body.layer,
    kind: body.kind,
    ...(object && Object.keys(object).length > 0 ? { object } : {}),
    ...(controller ? { controller } : {}),
    ...(namespace ? { namespace } : {}),
    facts: body.facts,
    message: body.message,
    ...(version ? { version } : {}),
  };
  // Assigning the body again keeps the key order above and gives the type checker kind and facts together.
  return Object.assign(ordered, body);
}

/**
 * A match with every field present, in one order: the parsers build theirs in a dozen shapes, and the
 * steps below (context, sort, dedupe) then meet thousands of objects of a single shape.
 */
function uniform(m: Match): Match {
  const ordered = {
    layer: m.layer,
    kind: m.kind,
    object: m.object,
    controller: m.controller,
    namespace: m.namespace,
    facts: m.facts,
    message: m.message,
    version: m.version,
    start: m.start,
    end: m.end,
  };
  return Object.assign(ordered, m);
}

/** Attach namespace, controller and (for scheduler/runtime messages, which do not name it) the pod. */
function withContext(matches: Match[], ctx: PasteContext): void {
  for (const m of matches) {
    const c = ctx.at(m.start);
    if (c.namespace && !m.namespace) m.namespace = c.namespace;
    if (c.controller && !m.controller) m.controller = c.controller;
    if (!m.object && c.pod && (m.layer === 'scheduler' || m.layer === 'runtime'))
      m.object = { resource: 'pods', name: c.pod };
    // A look-alike is about whatever object its event row names (a Service's load balancer, a PVC's disk).
    if (!m.object && c.lineRef && m.layer === 'other')
      m.object = { resource: resourceOf(c.lineRef.kind).resource, name: c.lineRef.name };
  }
}

/**
 * Runtime and look-alike words inside a message another parser read (`NodeUnderMemoryPressure (1)` in a
 * FailedScheduling text, `Evicted` inside a quota name) are part of that message, not a finding.
 */
function dropNested(matches: Match[]): Match[] {
  const outer = matches.filter((m) => m.layer !== 'runtime' && m.layer !== 'other').sort((a, b) => a.start - b.start);
  if (outer.length === 0) return matches;
  return matches.filter((m) => {
    if (m.layer !== 'runtime') return true;
    // Binary search the last outer match starting at or before m.start.
    let lo = 0;
    let hi = outer.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (outer[mid]!.start <= m.start) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo - 1; i >= 0 && i >= lo - 8; i--) if (m.start < outer[i]!.end) return false;
    return true;
  });
}

/**
 * A webhook that relays an admission refusal (`admission webhook "resourcesquotas.quota.kubesphere.io"
 * denied the request: pods "x" is forbidden: exceeded quota: argo, …`) is that refusal: the quota or
 * LimitRange finding read inside the denial is the problem, the webhook only its messenger.
 */
function dropRelays(matches: Match[]): Match[] {
  // Pod Security admission's own webhook (`pod-security-webhook.kubernetes.io … violates PodSecurity …`)
  // and a webhook relaying a RuntimeClass refusal are those refusals too; a policy engine that checks the
  // Pod Security Standards itself (Kyverno's podSecurity rules) stays the engine's denial.
  const relayed = (m: Match, inner: Match): boolean =>
    inner.layer === 'quota' ||
    inner.layer === 'limitrange' ||
    inner.kind === 'runtimeclass' ||
    (inner.kind === 'pod-security' && m.kind === 'webhook-denied' && m.facts.engine === undefined);
  const inner = matches.filter(
    (m) => m.layer === 'quota' || m.layer === 'limitrange' || m.kind === 'runtimeclass' || m.kind === 'pod-security',
  );
  if (inner.length === 0) return matches;
  return matches.filter(
    (m) => m.kind !== 'webhook-denied' || !inner.some((q) => q.start > m.start && q.start < m.end && relayed(m, q)),
  );
}

/**
 * Facts compared without an order that carries no meaning: LimitRanger lists a Pod's violations in map
 * order, so the same pod recreated prints them in another order (`[min cpu …, min memory …]` then
 * `[min memory …, min cpu …]`): one problem.
 */
function orderless(m: Match): object {
  if (m.kind !== 'limitrange' || m.facts.violations.length < 2) return m.facts;
  return { ...m.facts, violations: m.facts.violations.map((x) => stableKey(x)).sort() };
}

/**
 * An object's name without what its controller generated: a trailing `-`, then up to two segments that hold a
 * digit or are a pod's five-character suffix (`api-7c5d8-x2k9q` → `api`, `web-0` → `web`, `database-10` →
 * `database`, `gateway-quota-551394438-` → `gateway-quota`).
 */
function nameStem(name: string): string {
  let s = name.endsWith('-') ? name.slice(0, -1) : name;
  for (let i = 0; i < 2; i++) {
    const m = /-([a-z0-9]{1,20})$/.exec(s);
    // A segment with a digit, a pod's five characters, or a longer run of the alphabet Kubernetes generates
    // names from (apimachinery util/rand: `bcdfghjklmnpqrstvwxz2456789`, no vowels): `es-wxpnzfhqbt`.
    if (!m || !(/\d/.test(m[1]!) || m[1]!.length === 5 || /^[bcdfghjklmnpqrstvwxz]{6,10}$/.test(m[1]!))) break;
    s = s.slice(0, m.index);
  }
  return s;
}

/**
 * The rule a field error's message ends with (`must be a standard resource for quota`): two rules that refuse one
 * field are two messages (LABELLING.md §3), the same rule printed again (an Event, the Status's `causes`) is one.
 */
function ruleOf(message: string): string {
  const tail = message.slice(-200);
  const at = Math.max(tail.lastIndexOf('": '), tail.lastIndexOf(': '));
  return `|${trimEndOf(
    tail
      .slice(at < 0 ? 0 : at + 2)
      .trim()
      .toLowerCase(),
    '.,;]"\'',
  )}`;
}

/**
 * One finding per distinct problem: the same facts (pods that differ only by a generated suffix, the
 * same event repeated). Runtime and look-alike findings are per object. A repeat may name what the first
 * occurrence did not (object, namespace, controller): those are merged into the first.
 */
function dedupe(matches: Match[], factsJson: Map<object, string>): Match[] {
  const first = new Map<string, Match>();
  const out: Match[] = [];
  // Facts of repeated messages serialize alike: sort keys once per distinct serialization.
  const keys = new Map<string, string>();
  const factsKey = (facts: object): string => {
    const raw = factsJson.get(facts) ?? JSON.stringify(facts);
    let k = keys.get(raw);
    if (k === undefined) {
      k = stableKey(facts);
      keys.set(raw, k);
    }
    return k;
  };
  const oomPods = new Set(
    matches.filter((m) => m.layer === 'runtime' && m.facts.reason === 'OOMKilled').map((m) => m.object?.name ?? ''),
  );
  // Reasons some runtime finding names a pod for: a mention of the same reason without a pod (`pod's status
  // is Evicted` above the `get pods` row that shows it) is that pod's problem, not another one.
  // Only when its facts agree with that pod's: another container's numbers (two pods' evictions in one
  // `describe`, the first one's Name: cut off) are another pod's problem.
  const named = matches.filter((m) => m.layer === 'runtime' && m.object?.name);
  const agrees = (m: Match): boolean =>
    named.some((n) => {
      const nf = factRecord(n);
      return Object.entries(m.facts).every(([k, v]) => {
        const w = nf[k];
        return k === 'reason' ? w === v : w === undefined || JSON.stringify(w) === JSON.stringify(v);
      });
    });
  // A reason quoted alone in prose (`describe showed: 1 node(s) had taints that the pod didn't tolerate.`)
  // that a whole FitError in the same paste already lists, with the same count, is that message again.
  const framedReasons = new Set(
    matches.flatMap((m) =>
      m.layer === 'scheduler' && m.facts.total !== null ? m.facts.reasons.map((r) => `${r.count}|${r.reason}`) : [],
    ),
  );
  // A frame quoted without its reasons (`mark: ['FailedScheduling', '0/6 nodes are available', …]` after the whole
  // event) when a whole message of that many nodes is in the paste: that message named again.
  const framedTotals = new Set(
    matches.flatMap((m) =>
      m.layer === 'scheduler' && m.facts.total !== null && m.facts.reasons.length > 0 ? [m.facts.total] : [],
    ),
  );
  // A copy cut inside its preemption part (`…, preemption: 0/17 nodes` at the paste's end) beside the whole message.
  const withPreemption = new Set(
    matches.flatMap((m) =>
      m.layer === 'scheduler' && m.facts.preemption && m.facts.preemption.reasons.length > 0
        ? [`${m.facts.total}|${m.facts.preemption.total}|${JSON.stringify(m.facts.reasons)}`]
        : [],
    ),
  );
  // A look-alike named in prose without its object (`describing the replicaset shows a \`SecurityContext.RunAsUser is
  // forbidden\` error:`) next to the same refusal of a named object is that refusal again.
  const namedOthers = new Set(
    matches.filter((m) => m.layer === 'other' && m.object?.name).map((m) => `${m.kind}|${factsKey(m.facts)}`),
  );
  for (const m of matches) {
    if (m.layer === 'other' && !m.object && namedOthers.has(`${m.kind}|${factsKey(m.facts)}`)) continue;
    if (
      m.layer === 'scheduler' &&
      m.facts.preemption?.reasons.length === 0 &&
      withPreemption.has(`${m.facts.total}|${m.facts.preemption.total}|${JSON.stringify(m.facts.reasons)}`)
    )
      continue;
    if (
      m.layer === 'scheduler' &&
      m.facts.total !== null &&
      m.facts.reasons.length === 0 &&
      m.facts.preemption === undefined &&
      framedTotals.has(m.facts.total)
    )
      continue;
    if (
      m.layer === 'scheduler' &&
      m.facts.total === null &&
      m.facts.reasons.length > 0 &&
      m.facts.reasons.every((r) => framedReasons.has(`${r.count}|${r.reason}`))
    )
      continue;
    // …but the kubelet's refusal for a node condition is its own message, whoever else was evicted.
    if (m.layer === 'runtime' && !m.object?.name && named.length > 0 && agrees(m) && !conditionRefusal(m.message))
      continue;
    // Exit code 137 next to an OOMKilled of the same pod is the same kill, not a second problem.
    if (
      m.layer === 'runtime' &&
      m.facts.reason === 'ExitCode137' &&
      (oomPods.has(m.object?.name ?? '') || oomPods.has(''))
    )
      continue;
    // A look-alike is per object: its name (pods of one controller one object), else the kind the text names
    // (`kubectl run` refused, then `failed to create deployment:` by the same policy: two objects refused).
    // A runtime problem is per object, pods of one controller one object (LABELLING.md §3: three `Evicted` rows of
    // `api-7f9d4b-…` with one eviction message are one eviction problem).
    const who =
      m.layer === 'runtime'
        ? nameStem(m.object?.name ?? '')
        : m.layer === 'other'
          ? m.object?.name
            ? nameStem(m.object.name)
            : m.object?.resource
              ? `${m.object.resource}/`
              : ''
          : '';
    const key = `${m.layer}|${m.kind}|${who}|${denialKey(m) ?? factsKey(orderless(m))}${m.layer === 'api-validation' ? ruleOf(m.message) : ''}`;
    const prev = first.get(key);
    if (prev) {
      // The same denial copied again (a wrapped status string, then the `jsonpath` output of it): the whole copy.
      if (prev.kind === 'webhook-denied' && m.kind === 'webhook-denied' && cutDenial(prev) && !cutDenial(m)) {
        prev.facts = m.facts;
        prev.message = m.message;
      }
      // The same refusal of another controller's object (`replicationcontrollers "database-10"` and
      // `"frontend-2"`, each refused by the same quota) is that controller's problem too: one finding each.
      const a = prev.object?.name;
      const b = m.object?.name;
      // Generated names are those of objects a controller creates (pods, ReplicaSets, a DeploymentConfig's
      // ReplicationControllers, a CronJob's Jobs): claims named `cassandra-pvc-1`, `-2`, `-3` are three.
      const generated = GENERATED_RESOURCES.has(m.object?.resource ?? 'pods');
      if (
        a &&
        b &&
        m.layer !== 'runtime' &&
        m.layer !== 'other' &&
        a !== b &&
        (!generated || nameStem(a) !== nameStem(b))
      ) {
        const k2 = `${key}|${generated ? nameStem(b) : b}`;
        if (!first.has(k2)) {
          first.set(k2, m);
          out.push(m);
        }
        continue;
      }
      if (prev.namespace && m.namespace && prev.namespace !== m.namespace) {
        // The same message in another namespace is another problem.
        const k2 = `${key}|${m.namespace}`;
        if (!first.has(k2)) {
          first.set(k2, m);
          out.push(m);
        }
        continue;
      }
      if (!prev.object && m.object) prev.object = m.object;
      if (!prev.namespace && m.namespace) prev.namespace = m.namespace;
      if (!prev.controller && m.controller) prev.controller = m.controller;
      continue;
    }
    first.set(key, m);
    out.push(m);
  }
  return out;
}

/**
 * Look-alikes that their code spans made one (`Message: admission webhook "x" denied the request …,` and the same
 * denial in a backticked literal, cut at its close): the first stays.
 */
function sameAfterBackticks(found: Match[]): Match[] {
  const seen = new Set<string>();
  return found.filter((m) => {
    if (m.layer !== 'other') return true;
    const key = `${m.kind}|${JSON.stringify(m.object ?? null)}|${JSON.stringify(m.facts)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const GENERATED_RESOURCES = new Set(['pods', 'replicasets', 'replicationcontrollers', 'jobs']);

/**
 * A policy engine's denial of an unnamed object is one denial per webhook and rule names, whatever its copies'
 * spacing (`{"privileged":true}` in a status, `{"privileged": true}` in kubectl's output) or cuts.
 */
function denialKey(m: Match): string | undefined {
  if (m.kind !== 'webhook-denied' || m.object?.name || !m.facts.engine || !m.facts.violations?.length) return undefined;
  return `${m.facts.webhook}|${m.facts.engine}|${[...new Set(m.facts.violations.map((v) => v.name))].sort().join(',')}`;
}

/** A denial copy cut before its rule's message (`[psp-privileged-container]` at a wrapped line's end). */
function cutDenial(m: Match): boolean {
  return m.kind === 'webhook-denied' && (m.facts.violations ?? []).some((v) => v.message === '');
}

/**
 * A template placeholder where the message has its numbers or names (`${fmtCpu(r.cpu)}`, Go's `%s`/`%v`, jq's
 * `\\(.requests.memory)`, `{{ .limit }}`): the source code or template that prints a message, not one printed.
 */
const PLACEHOLDER_RE = /\$\{|\$\(|\\\(|%[-+# 0]?\d*[sdvqx]\b|\{\{|#\{|<%=/;

/**
 * A format field where a fact's value is (Rust's and Python's `{}`, `{name}`, `{0}`; Go's `%q`, `%w`): a program
 * that builds the message. Only in a fact's own value: a taint prints `{key: value}`, never a bare name in braces,
 * and Go prints an empty struct after its type's name (`v1.LabelSelector{}`).
 */
const FIELD_VALUE_RE =
  /^\{(?:[A-Za-z_][\w.]{0,40}|\d)?\}?$|(?<![\w{])\{(?:[A-Za-z_]\w{0,40}|\d)?\}(?!\})|%[-+# 0]?\d*[sdvqxw]\b/;

/** apimachinery's field error constructors, called with the rule's words (pkg/util/validation/field/errors.go). */
const FIELD_CALL_RE =
  /\bfield\.(?:Invalid|Required|Forbidden|NotSupported|TooLong|TooLongMaxLength|TooMany|Duplicate|NotFound|InternalError)\(/;

function templated(m: Match, text: string, factsJson: Map<object, string>): boolean {
  // A regular expression that matches the message (`(?:Out of memory|Memory cgroup out of memory)[^:]*:\s+Kill…`).
  // (Not a CRD schema's `pattern` the API server prints in its refusal: `spec.cronSpec in body should match '^(\d+|…'`.)
  const around = text.slice(m.start, Math.min(m.end + 80, lineEnd(text, m.end)));
  if (REGEX_SOURCE_RE.test(around.replace(/\bin body should match '[^'\n]*'/g, ''))) return true;
  if (searchedFor(m, text) || placeholderQuantities(m, text)) return true;
  // A search for the words, whole message or not (`grep -Fq 'maximum ephemeral-storage usage per Container is 4Gi'`).
  if (GREP_BEFORE_RE.test(text.slice(lineStart(text, m.start), m.start))) return true;
  // A test's matcher holding the refusal cut inside it, before its numbers (`matchString := fmt.Sprintf("\\"x\\" is
  // forbidden: exceeded quota: test-quota, requested")`): a substring to look for, not a refusal printed (§2.3).
  if (m.kind === 'quota-exceeded' && Object.keys(m.facts.resources).length === 0) {
    const after = text.slice(m.end, m.end + 24);
    const before = text.slice(lineStart(text, m.start), m.start);
    if (
      /^,\s*requested\\*["'`]/.test(after) &&
      /:=|\b(?:Sprintf|Contains?|ContainSubstring|Substring|match\w*|expect\w*|assert\w*|Should)\b/i.test(before)
    )
      return true;
  }
  // A Go program building the field error (`field.Invalid(path, "2", "must be less than or equal to cpu limit of 1")`).
  if (FIELD_CALL_RE.test(text.slice(lineStart(text, m.start), m.start))) return true;
  // A program concatenating the message (`'… resource '+request.kind+'/tfm-golden/'+n+' was blocked …'`).
  if (CONCAT_RE.test(text.slice(m.start, Math.min(m.end + 200, lineEnd(text, m.end))))) return true;
  if (m.layer === 'runtime') return false;
  if (m.layer !== 'other') {
    let tail = text.slice(m.end, Math.min(m.end + 60, lineEnd(text, m.end)));
    // A message quoted whole (`message: '0/2 nodes are available' }],`): a placeholder after its closing quote is
    // another literal's (`.toBe(\`pod ${POD} …\`)`), not the message's.
    const open = text[m.start - 1];
    if ((open === "'" || open === '"') && tail.startsWith(open)) tail = '';
    if (PLACEHOLDER_RE.test(tail)) return true;
    // Every key and string of the facts, in their JSON: no placeholder can start in one and end in the next
    // (a quote or a comma is between), and none is made by JSON's escapes (`\(` stays one). The JSON is
    // dedupe's too.
    const json = JSON.stringify(m.facts);
    factsJson.set(m.facts, json);
    return PLACEHOLDER_RE.test(json) || fieldValue(m.facts);
  }
  // A look-alike's message with a Go verb in it (`incompatible with nodepool %q, daemonset overhead=%s`) is the
  // format string that prints it.
  if (/%[-+# 0]?\d*[sdvqw]\b/.test(text.slice(m.start, Math.min(m.end + 120, lineEnd(text, m.end))))) return true;
  // A look-alike's quoted message and reason are the engine's own words (a Kyverno message may hold `{{…}}`).
  const walk = (v: unknown, key?: string): boolean => {
    if (m.layer === 'other' && (key === 'message' || key === 'reason')) return false;
    if (typeof v === 'string') return PLACEHOLDER_RE.test(v) || FIELD_VALUE_RE.test(v);
    if (Array.isArray(v)) return v.some((x) => walk(x));
    if (v !== null && typeof v === 'object') return Object.entries(v).some(([k, x]) => walk(k) || walk(x, k));
    return false;
  };
  return walk(m.facts);
}

/** A search tool and its flags right before the opening quote of what it looks for. */
const GREP_BEFORE_RE = /\b(?:e?grep|rg|ag|findstr|select-string)(?:\s+-{1,2}[\w-]+)*\s+["']$/i;
/** A string literal joined with a variable and the next literal (`'…'+request.kind+'…'`, `" + name + "`). */
const CONCAT_RE = /["'`]\s*\+\s*[A-Za-z_$][\w.$[\]]{0,60}\s*\+\s*["'`]/;
/** A writer's placeholder for a name (`<container>`, `<pod-name>`), not kubectl's own `<none>`. */
const ANGLE_PLACEHOLDER_RE = /^<(?!none>|unknown>|nil>)[A-Za-z][\w .-]{0,40}>$/;

/** Whether a string value of the facts, at any depth, is a format field. */
function fieldValue(v: unknown): boolean {
  if (typeof v === 'string') return FIELD_VALUE_RE.test(v) || ANGLE_PLACEHOLDER_RE.test(v);
  if (Array.isArray(v)) return v.some(fieldValue);
  if (v !== null && typeof v === 'object') return Object.values(v).some(fieldValue);
  return false;
}

/** Pieces of a regular expression's source no message holds: `(?:`, `\s+`, `\d+`, `[^…]*`. */
const REGEX_SOURCE_RE = /\(\?[:=!<]|\\[sdwS][+*]|\[\^[^\]]{1,20}\][*+]/;

/** Every finding and manifest in a paste. */
export function parsePaste(text: string, opts?: { maxBytes?: number }): ParsedPaste {
  const result: ParsedPaste = { findings: [], manifests: [] };
  try {
    const input = typeof text === 'string' ? text : String(text ?? '');
    const maxBytes =
      opts?.maxBytes !== undefined && Number.isFinite(opts.maxBytes) && opts.maxBytes >= 0
        ? Math.floor(opts.maxBytes)
        : DEFAULT_MAX_BYTES;
    const capped = capBytes(input, maxBytes);
    if (capped.truncated) result.truncated = true;
    // One split of the paste each for the normalizer, the context scan and the manifest scan.
    const { text: norm, lines, physical } = normalizeLines(capped.text);
    const lower = lowerAscii(norm);
    let matches: Match[] = [];
    const templates: number[] = [];
    const factsJson = new Map<object, string>();
    // The parsers' keyword searches share one scan of the paste.
    scanPaste(lower, () => {
      for (const find of [findValidation, findLimitRange, findQuota, findScheduler, findRuntime, findLookalikes]) {
        try {
          for (const m of find(norm, lower))
            if (!templated(m, norm, factsJson)) matches.push(uniform(m));
            else templates.push(m.start);
        } catch {
          // A parser bug must not hide what the other layers found.
        }
      }
    });
    if (templates.length > 0 && matches.length > 0) matches = withoutTemplateSiblings(matches, templates, norm);
    if (matches.length > 0) matches = withoutExamples(matches, norm);
    if (matches.length > 0) matches = withoutTalk(matches, norm, capped.text);
    // The context scan is per line of the whole paste: only worth it when there is something to place.
    if (matches.length > 0) withContext(matches, new PasteContext(norm, lines));
    matches.sort((a, b) => LAYERS[a.layer].rank - LAYERS[b.layer].rank || a.start - b.start);
    let found = dedupe(dropNested(dropRelays(matches)), factsJson);
    if (withBackticks(found, capped.text)) found = sameAfterBackticks(found);
    result.findings = found.map(toFinding);
    result.manifests = extractManifests(capped.text, physical);
  } catch {
    // Never throw on user text; return what we have.
  }
  return result;
}
