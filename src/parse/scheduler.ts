/**
 * kube-scheduler FailedScheduling messages in every era (docs/kubernetes-semantics.md §6.4–6.7, docs/messages-in-the-wild.md):
 *
 * - 1.9+: `0/N nodes are available: <n reason>, <m reason>.` built by `FitError.Error()`
 *   (pkg/scheduler/framework/types.go): entries sorted as strings and joined by ", ". A reason may
 *   itself contain ", " (old taint text `had taint {k: v}, that the pod didn't tolerate`), so entries
 *   are split only on ", " followed by a digit. PreFilter rejections print their text without counts.
 * - 1.24+: ` preemption: 0/N nodes are available: …` (its own N), `..` at the end in 1.25–1.27
 *   (fixed by PR #117588), `no new claims to deallocate, ` before it since DRA is on by default (1.34),
 *   or `preemption: not eligible due to …`.
 * - 1.8–1.10: `No nodes are available that match all of the predicates: Reason (n), …`;
 *   1.6–1.7 the same with `following predicates::`; 1.6 `fit failure summary on nodes : …`.
 * - 1.3–1.5: `pod (NAME) failed to fit in any node` and one `fit failure on node (N): Reason` per node.
 * - v0.x: `Error scheduling: failed to find fit for pod: {…}Node 127.0.0.1: PodFitsPorts`.
 * - zero nodes: `no nodes available to schedule pods`.
 */

import { MAX_MESSAGE, type BodyOf, type Match, type ReasonCount, type UnschedulableFacts } from './finding.ts';

/** What this module finds: unschedulable findings. */
export type SchedulerMatch = Match<BodyOf<'unschedulable'>>;
import { lowerAscii } from './normalize.ts';
import { findAllNeedles, findWithin, lineEnd, lineStart, trimEndOf } from './scan.ts';

export type { ReasonCount } from './finding.ts';
/** The facts of an `unschedulable` finding. */
export type Unschedulable = UnschedulableFacts;

/** An elision, then a counted entry of FitError's list. */
const ELIDED_NEXT_RE = /^ (?:\.{3}|\u2026) \d{1,9} (?:node\(s\) |Insufficient |Too many pods)/;

/** Offset just past the first sentence-ending `.` (a period followed by space, quote or end) in [i, end). */
function sentenceEnd(text: string, i: number, end: number): number {
  for (let p = i; p < end; p++) {
    if (text[p] === '\u2026') {
      // `…conflict… The disk lives on …`: an ellipsis glued to the last reason, prose after it, ends the list.
      if (/[a-z)]/.test(text[p - 1] ?? '') && text[p + 1] === ' ' && /[A-Z]/.test(text[p + 2] ?? '')) return p;
      continue;
    }
    if (text[p] !== '.') continue;
    // `{...}`: a taint's key and value elided (`3 node(s) had untolerated taint {...}.`) ends nothing.
    if (text[p - 1] === '{' && text.startsWith('...}', p)) {
      p += 3;
      continue;
    }
    // ` ... ` where the user elided entries (`2 Insufficient cpu, ... 3 Too many pods`) ends nothing.
    if (text[p + 1] === '.' && text[p + 2] === '.' && text[p - 1] === ' ' && text[p + 3] === ' ') {
      p += 2;
      continue;
    }
    // Nor does the period of an entry the writer's elision follows, more entries after it (`… taint {x: }. ... 4
    // node(s) didn't match …`).
    if (ELIDED_NEXT_RE.test(text.slice(p + 1, p + 48))) continue;
    const c = text[p + 1];
    // `.; ` too: the old scheduler's log line `Unable to schedule ns/name: no fit: <FitError>.; waiting`
    // (pkg/scheduler/factory/factory.go MakeDefaultErrorFunc, 1.9–1.18).
    // `., ` too: a vendor scheduler appends `, reject the pod X … even after PostFilter.` (kuscia).
    // `._` / `.*`: markdown emphasis closing around the message (`_0/1 nodes are available: …._`).
    if (
      p + 1 >= end ||
      c === ' ' ||
      c === '\t' ||
      c === '"' ||
      c === "'" ||
      c === '`' ||
      c === '.' ||
      c === ')' ||
      c === ',' ||
      c === ';' ||
      c === '_' ||
      c === '*' ||
      // `.#`: AsciiDoc's highlight closing around the message (`#0/9 nodes are available: … tolerate.#`); `.(`: the
      // writer's gloss glued after it (`2 Insufficient memory.(内存不足)`).
      c === '#' ||
      c === '(' ||
      // `….}]`: a Go `%v` of a condition list closing after the message (`[{PodScheduled False 0/135 nodes … rules.}]`).
      (c === '}' && (text[p + 2] === ']' || p + 2 >= end)) ||
      // A closing quote or bracket of another script (`「0/1 nodes are available: 1 Too many pods.」`).
      /[\u300d\u300f\u201d\u2019\uff09\u3011\u00bb\u203a]/.test(c!)
    )
      return p;
    // `…/selector.The magic words` (prose glued to the message by a page's text extraction): a capital
    // starting a word right after the period. Reasons never have one there: resource and taint keys are
    // DNS names (lower case) before any dot.
    // Any script's capital (`…3 Insufficient cpu.Это подтверждает…`).
    if (/\p{Lu}/u.test(c!) && /\p{Ll}/u.test(text[p + 2] ?? '') && /[a-z)]/.test(text[p - 1] ?? '')) return p;
  }
  return -1;
}

/**
 * The end of a message's last reason without what closes the text around it: markdown or Slack emphasis
 * (`*Error*: 0/1 nodes are available: 1 Insufficient cpu*`), and the end of a JSON or code string
 * (`{"log":"… 1 Insufficient cpu"}`) — a quote that no quote in the message opened.
 */
function closeOfQuote(raw: string): string {
  let main = trimEndOf(raw.trim(), '*_ ');
  // A Python triple-quoted string's close after the message's last line (`… affinity/selector` then its quotes).
  if (main.endsWith('"""') || main.endsWith("'''")) main = trimEndOf(main.slice(0, -3), ' ');
  // A source literal's close may carry the rest of its row (`…7 Insufficient cpu", waitLineNeutral},`).
  const close = /"(?:,\s*[A-Za-z_$][\w.$]*)?(?:\s*[\]})])*[,;]?$/.exec(main);
  return close && (main.split('"').length - 1) % 2 === 1 ? main.slice(0, close.index).trimEnd() : main;
}

/**
 * Prose the writer went on with after a message that has no closing period (`… 1 Insufficient cpu and the pod
 * never started.`, `… 2 Too many pods — so I scaled the pool`): a conjunction and a word prose starts a clause
 * with, or a dash between blanks; a note in another script (`…: }（节点处于 MemoryPressure…）`); and the old
 * scheduler log's own tail (`…; retrying`, `…; waiting`). FitError's reasons never hold one
 * (pkg/scheduler/framework/plugins/*: `Insufficient <resource>`, `node(s) …`, `Too many pods`, the PreFilter texts).
 */
const PROSE_AFTER_RE =
  /; (?:retrying|waiting)\b|,? (?:and|but|so|which|when|while|after|because|since|though|although) (?:the|a|an|it|its|i|i'm|we|my|our|this|that|these|they|then|now|still|nothing|no|there|so|even|only|also|not|is|was|has|had|keeps?)\b| [-\u2013\u2014]{1,2} |\s*[\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af\uff00-\uffef]/i;

/** DynamicResources' own `…: has subrequests, but the DRAPrioritizedList feature is disabled` is no prose. */
const FEATURE_DISABLED_RE = /^,? but the [A-Z][A-Za-z]{2,63} feature is disabled\b/;

function proseCut(s: string): string {
  const m = PROSE_AFTER_RE.exec(s);
  if (m && FEATURE_DISABLED_RE.test(s.slice(m.index))) return s;
  return m ? s.slice(0, m.index).trimEnd() : s;
}

/**
 * What a reason list carries that is the paste's, not the scheduler's: the join of two source literals
 * (`…supabase}, ' + '2 node(s) …`, `available: " + "  1 node(s) …`), a line continuation (Rust's `\` at a line
 * end), a page's line annotations (`…didn't tolerate, #2`), the indentation of a folded YAML scalar
 * (`{test-unschedulable:` ⏎ `      true}`). FitError prints single blanks and none of those. And a list broken
 * one reason a line without its `, ` (`0/2 nodes are available:` ⏎ `1 node(s) didn't have free ports …` ⏎
 * `1 node(s) didn't satisfy plugin(s) [NodeAffinity]`): a count and a reason's first word after a blank start
 * the next entry.
 */
const LITERAL_JOIN_RE = /(["'])[ \t]*\+[ \t]*\1/g;
const LIST_NOISE_RE = /\\(?=\s)|(?:^|\s)#\d{1,4}(?=\s|$|\d)/g;
const UNSEPARATED_ENTRY_RE =
  /(?<=[^,\s]) (?=\d{1,9} (?:node\(s\) |nodes? (?:had|didn't|were|was|is) |Insufficient |Too many pods|cannot allocate all claims|Preemption is not helpful|No preemption victims))/g;

function listed(main: string): string {
  if (main.length < 6) return main;
  let s = main;
  if (s.includes('+')) s = s.replace(LITERAL_JOIN_RE, '');
  if (s.includes('\\') || s.includes('#')) {
    // Annotations count up (`#1`, `#2`, …); one glued to the next line's count (`#31 node had …` from `#3` ⏎
    // `1 node had …`) gives back the digits past its own number.
    let n = 0;
    s = s.replace(LIST_NOISE_RE, (m) => {
      if (m === '\\') return '';
      const own = String(++n);
      const digits = m.trim().slice(1);
      return digits.length > own.length && digits.startsWith(own) ? ` ${digits.slice(own.length)}` : ' ';
    });
  }
  if (s.includes('  ') || s.includes('\t')) s = s.replace(/\s{2,}/g, ' ');
  s = s.trim();
  // An entry's period before the writer's elision (`{x: }. ... 4 node(s) …`) is the separator the elision cut.
  if (s.includes('. ')) s = s.replace(/\. (?=(?:\.{3}|\u2026) \d)/g, ', ');
  return s.replace(UNSEPARATED_ENTRY_RE, ', ');
}

/** `n reason, m reason` → entries; a piece that does not start with a count belongs to the previous reason. */
export function splitHistogram(main: string): ReasonCount[] {
  const out: ReasonCount[] = [];
  for (const raw of main.split(', ')) {
    // An elision (`…`, `...`) where the user cut entries: not part of any reason.
    const piece = raw.trim().replace(/^(?:…|\.{3})\s*/, '');
    if (piece === '' && raw.trim() !== '') continue;
    const m = /^(\d{1,9}) (.*)$/s.exec(piece.trim());
    if (m) out.push({ count: Number(m[1]), reason: m[2]!.trim() });
    else if (out.length > 0) out[out.length - 1]!.reason += `, ${piece}`;
    else out.push({ count: Number.NaN, reason: piece.trim() });
  }
  const last = out[out.length - 1];
  if (last) last.reason = fixedEnd(last.reason);
  return out.filter((r) => r.reason !== '');
}

/**
 * The other reasons whose words never vary (pkg/scheduler/framework/plugins: NodeUnschedulable's, the volume plugins',
 * InterPodAffinity's, NodePorts', the node-condition ones; NodeResourcesFit's are RESOURCE_FIT_RE's below): whatever
 * follows one after a blank is not the scheduler's (`3 node(s) had disk pressure Readiness probe
 * failed: …`, the next line of a folded YAML scalar) when it opens as a sentence does, with a capitalised word; a
 * vendor's own words in lower case (`were unschedulable due to topology spread constraints`) are kept as printed.
 */
const FIXED_REASON_RE =
  /^(?:node\(s\) (?:had (?:disk|memory|pid) pressure|were unschedulable|had volume node affinity conflict|didn't have free ports for the requested pod ports|didn't find available persistent volumes to bind|didn't satisfy existing pods anti-affinity rules|didn't match pod (?:anti-)?affinity rules|didn't match Pod's node affinity\/selector|exceed max volume count)) (?=\p{Lu}\p{Ll})/u;

/**
 * NodeResourcesFit's two reasons end where their words do: no scheduler prints more after them, so a word in any case
 * (`2 Too many pods in the same second they were created`, the writer's sentence after a code span the normalizer
 * opened) is prose.
 */
const RESOURCE_FIT_RE = /^(?:Insufficient [a-z0-9][\w./-]*|Too many pods) (?=\p{L})/u;

function fixedEnd(reason: string): string {
  const m = RESOURCE_FIT_RE.exec(reason) ?? FIXED_REASON_RE.exec(reason);
  return m ? reason.slice(0, m[0].length - 1) : reason;
}

/**
 * Filter plugins' reasons, printed in a histogram only, never as a PreFilter text (NodeResourcesFit, TaintToleration,
 * NodePorts, NodeUnschedulable, InterPodAffinity, PodTopologySpread, NodeVolumeLimits, VolumeBinding's filter): one
 * written without its count lost it to the writer.
 */
const FILTER_REASON_RE =
  /^(?:Insufficient [a-z]|Too many pods\b|node\(s\) (?:had untolerated taint|had taint|didn't have free ports|were unschedulable|didn't match pod (?:anti-)?affinity rules|didn't satisfy existing pods anti-affinity rules|didn't match pod topology spread constraints|exceed max volume count|had volume node affinity conflict))/;

/** The `N` of `0/N` that ends right before `k` (tolerates `0 /3` and `0/ 3`). */
function totalBefore(text: string, k: number): { total: number; start: number } | undefined {
  const w = text.slice(Math.max(0, k - 24), k);
  // `0/1  nodes are available` (a doubled blank in a log line, kube-scheduler journal copies) too.
  const m = /(\d{1,9}) ?\/ ?(\d{1,9})[ \t]{0,3}$/.exec(w);
  if (!m) return undefined;
  return { total: Number(m[2]), start: k - w.length + m.index };
}

interface Sentence {
  total: number | null;
  reasons: ReasonCount[];
  /** Offset after the sentence (after its `.` when there is one). */
  end: number;
}

/**
 * Where another message starts inside a reason list the paste ran on (a table's wrapped column joined as one line:
 * `… 1 Insufficient cpu` ⏎ `   0/2 nodes are available: 2 Insufficient cpu` ⏎ `   NotTriggerScaleUp: 1 max node group
 * size reached`): a new `0/N nodes are available` frame or cluster-autoscaler's event. FitError's reasons hold neither.
 */
const NEXT_MESSAGE_RE =
  /\s\d{1,9} ?\/ ?\d{1,9} nodes are available\b|\s(?:NotTriggerScaleUp|TriggeredScaleUp)\b|\spod didn't trigger scale-up\b/;

/**
 * The close of a single-quoted message (`- kube_events: 'Pod/x FailedScheduling (x25): 0/7 nodes are available: …,
 * 4 node(s) had untolerated taints' at 23:46:10Z`): when a `'` opened on the line before the frame, the first `'`
 * after a word and before a blank, a stop or the end closes it. FitError's own apostrophes (`didn't`, `Pod's`) are
 * followed by a letter.
 */
function singleQuoteClose(text: string, bodyStart: number, end: number): number {
  const before = text.slice(lineStart(text, bodyStart, 2048), bodyStart);
  if (!/(?:^|[\s:=([])'(?=\S)/.test(before)) return -1;
  const m = /(?<=[\w)\]}])'(?=[\s,;.)\]]|$)/.exec(text.slice(bodyStart, end));
  return m ? bodyStart + m.index : -1;
}

/** The reasons sentence after `nodes are available:` at `bodyStart`, up to `end`. */
function readSentence(text: string, total: number, bodyStart: number, end: number): Sentence {
  const next = NEXT_MESSAGE_RE.exec(text.slice(bodyStart, end));
  if (next) end = bodyStart + next.index;
  const quoted = singleQuoteClose(text, bodyStart, end);
  if (quoted >= 0) end = quoted;
  const stop = sentenceEnd(text, bodyStart, end);
  const mainEnd = stop < 0 ? end : stop;
  // A list the paste cut after a separator (`…: 1 node(s) didn't match pod topology spread constraints,`):
  // no reason ends in a comma.
  // A list the writer elided at its head (`0/23 nodes are available: ... 7 Insufficient cpu`): the entries shown.
  // The quote is closed again after the prose cut: the writer's words may follow it (`…selector"。三个原因里`).
  const main = listed(
    closeOfQuote(proseCut(closeOfQuote(text.slice(bodyStart, mainEnd)))).replace(/\s*,$/, ''),
  ).replace(/^(?:\u2026|\.{3})[ \t]*,?[ \t]*(?=\d)/, '');
  let reasons: ReasonCount[];
  if (main === '') reasons = [];
  else if (/^\d/.test(main)) reasons = splitHistogram(main);
  // A Filter plugin's reason always has its count; one written without it lost the count to the writer.
  else reasons = [{ count: FILTER_REASON_RE.test(main) ? null : total, reason: main }];
  // A PreFilter text that is followed by more text without counts stays one reason (docs/kubernetes-semantics.md §6.4 step 2).
  for (const r of reasons) if (r.count !== null && Number.isNaN(r.count)) r.count = total;
  return { total, reasons, end: stop < 0 ? end : stop + 1 };
}

/**
 * The DRA plugin's PostFilter message, which the framework joins before the preemption part with `, `
 * (pkg/scheduler/framework/plugins/dynamicresources: `no new claims to deallocate` until 1.31, `still not
 * schedulable` after, `deallocation of ResourceClaim completed` when it freed a claim): PostFilter text, not a reason.
 */
const DRA_CLAUSES = [
  'no new claims to deallocate, ',
  'still not schedulable, ',
  'deallocation of ResourceClaim completed, ',
];

function versionOf(msg: string, dra: boolean, doubleDot: boolean, preemption: boolean): string | undefined {
  if (msg.includes('untolerated taint(s)')) return '>=1.34.2';
  if (dra) return '>=1.34';
  if (doubleDot) return '1.25-1.27';
  if (msg.includes('untolerated taint {')) return '1.24-1.34.1';
  if (msg.includes("PersistentVolume's node affinity")) return '>=1.33';
  if (msg.includes('volume node affinity conflict')) return '<1.33';
  if (/, that the pod didn't tolerate|had taints that the pod didn't tolerate/.test(msg)) return '<=1.23';
  if (
    /PodToleratesNodeTaints|MatchInterPodAffinity|CheckServiceAffinity|ExistingPodsAntiAffinityRulesNotMatch|MatchNodeSelector/.test(
      msg,
    )
  )
    return '1.9-1.12';
  if (msg.includes("didn't match node selector")) return '<1.20';
  if (preemption) return '>=1.24';
  return undefined;
}

/**
 * A fragment that starts after the first sentence: `pod has unbound immediate PersistentVolumeClaims.
 * preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling` (the user copied
 * from the middle). The preemption FitError covers the same N nodes (§6.5), so N applies to both parts.
 */
function fragment(
  text: string,
  t: { total: number; start: number },
  k: number,
  len: number,
): SchedulerMatch | undefined {
  const pre = text.slice(Math.max(0, t.start - 13), t.start);
  if (!/preemption: ?$/.test(pre)) return undefined;
  const p = t.start - (pre.endsWith(' ') ? 'preemption: '.length : 'preemption:'.length);
  const ls = lineStart(text, p);
  let main = text.slice(ls, p).trim();
  for (const c of DRA_CLAUSES) if (main.endsWith(c.trim())) main = main.slice(0, -c.trim().length).trim();
  main = trimEndOf(main, '. ');
  // `status="no new claims to deallocate, preemption: …"` (klog): the fragment opens a quoted value,
  // nothing before it is a reason.
  if (/["'=]$/.test(main)) main = '';
  const colon = main.lastIndexOf(': ');
  if (colon >= 0 && !/^\d/.test(main)) main = main.slice(colon + 2);
  // An issue title's or a heading's marker before the reason (`# Insufficient nvidia.com/gpu. preemption: …`).
  main = main.replace(/^(?:#{1,6}|[-*>])\s+/, '');
  const end = lineEnd(text, k);
  const s = readSentence(text, t.total, k + len, end);
  // The main part's count is its own, not the preemption part's: a Filter reason cut from its count keeps null.
  const reasons =
    main === ''
      ? []
      : /^\d/.test(main)
        ? splitHistogram(main)
        : [{ count: FILTER_REASON_RE.test(main) ? null : t.total, reason: main }];
  const stop = text[s.end] === '.' ? s.end + 1 : s.end;
  const m: SchedulerMatch = {
    layer: 'scheduler',
    kind: 'unschedulable',
    facts: { total: null, reasons, preemption: { total: s.total, reasons: s.reasons } },
    message: text.slice(ls, stop).trim(),
    start: ls,
    end: stop,
    version: '>=1.24',
  };
  FRAGMENTS.add(m);
  return m;
}

/** Matches made by `fragment` (a PostFilter part without its first sentence). */
const FRAGMENTS = new WeakSet<SchedulerMatch>();

/**
 * A fragment on the same logical line as a whole message with the same preemption part is a copy of
 * that message's tail (klog prints `status="<PostFilter part>" err="<whole message>"`): drop it.
 */
function dropCopiedFragments(text: string, out: SchedulerMatch[]): SchedulerMatch[] {
  if (!out.some((m) => FRAGMENTS.has(m))) return out;
  const key = (m: SchedulerMatch): string =>
    `${lineStart(text, m.start, MAX_MESSAGE)}|${JSON.stringify(m.facts.preemption ?? null)}`;
  const whole = new Set(out.filter((m) => !FRAGMENTS.has(m) && m.facts.preemption).map(key));
  return out.filter((m) => !FRAGMENTS.has(m) || !whole.has(key(m)));
}

/**
 * Where a message quoted inside other text ends: at the quote (or parenthesis) that closes the one
 * right before `0/N` (`"message": "0/3 nodes are available: 3 Insufficient nvidia.com/gpu"}]}`,
 * `mostra "0/6 nodes are available: 6 Insufficient cpu" — o pod…`), and at a table cell border
 * (` | `: a reason never contains one). Quotes inside the message come in pairs that open after a
 * blank (`persistentvolumeclaim "data" not found`) and are skipped; so is an apostrophe in a word.
 */
function embeddedEnd(text: string, msgStart: number, from: number, end: number): number {
  let stop = end;
  const bar = findWithin(text, ' |', from, end);
  if (bar >= 0 && (bar + 2 >= end || text[bar + 2] === ' ')) stop = bar;
  const open = text[msgStart - 1];
  if (open === '"' || open === "'") {
    let depth = 0;
    for (let p = from; p < stop; p++) {
      if (text[p] !== open) continue;
      const prev = text[p - 1] ?? ' ';
      const next = text[p + 1] ?? ' ';
      if (open === "'" && /[A-Za-z]/.test(prev) && /[A-Za-z]/.test(next)) continue;
      if (/[\s:(=[{,]/.test(prev)) depth++;
      else if (depth > 0) depth--;
      else return p;
    }
  } else if (open === '(' || unclosedParen(text, msgStart)) {
    let depth = 0;
    for (let p = from; p < stop; p++) {
      if (text[p] === '(') depth++;
      else if (text[p] === ')' && depth-- === 0) return p;
    }
  }
  return stop;
}

/**
 * A parenthesis opened before the message on its line and not closed before it (`(for example Unschedulable:
 * 0/3 nodes are available: insufficient memory), for …`): the message is inside it. A closed one (`(x3 over
 * 5m)` of an Events row) is not.
 */
function unclosedParen(text: string, msgStart: number): boolean {
  const from = Math.max(lineStart(text, msgStart, 240), msgStart - 240);
  let depth = 0;
  for (let p = msgStart - 1; p >= from; p--) {
    const c = text[p];
    if (c === ')') depth++;
    else if (c === '(' && depth-- === 0) return true;
  }
  return false;
}

/**
 * `0/N nodes are available: …` at `k` (the offset of `nodes are available:`; `len` its length — a retyped
 * copy says `0/3 nodes available: 3 Insufficient cpu.`).
 */
const TEMPLATE_COUNT_RE = /^[ \t]*(?:\{[^{}\n]{0,80}\}|%[dsv]|\$\{[^{}\n]{0,80}\})[ \t]+\S/;

/**
 * The end of the message's line, or of the next one or two when the writer broke the list inside an entry (`… 260
 * Insufficient` ⏎ `   cpu, 599 node(s) didn't match …`, prose wrapped by hand): the line ends in a word no entry
 * ends in (`Insufficient`, `node(s)`, `didn't`) or a separator, and the next starts in lower case or with a count.
 */
function wrappedEnd(text: string, k: number): number {
  let le = lineEnd(text, k);
  for (let n = 0; n < 2 && le < text.length; n++) {
    if (!/(?:\bInsufficient|\bnode\(s\)|\bdidn't|\bhad|,)[ \t]*$/.test(text.slice(Math.max(k, le - 24), le))) break;
    if (!/^\n[ \t>#]*[a-z0-9]/.test(text.slice(le, le + 16))) break;
    le = lineEnd(text, le + 1);
  }
  return le;
}

function fitError(text: string, k: number, len = 'nodes are available:'.length): SchedulerMatch | undefined {
  const t = totalBefore(text, k);
  if (!t) return undefined;
  // A template of the message (`f"0/10 nodes are available: {rint(1,5)} Insufficient cpu"`, `%d Insufficient
  // cpu`): its counts are placeholders, no scheduler printed it.
  if (TEMPLATE_COUNT_RE.test(text.slice(k + len, k + len + 200))) return undefined;
  const frag = fragment(text, t, k, len);
  if (frag) return frag;
  const end = embeddedEnd(text, t.start, k + len, wrappedEnd(text, k));
  const first = readSentence(text, t.total, k + len, end);
  const facts: Unschedulable = { total: t.total, reasons: first.reasons };
  let pos = first.end;
  let dra = false;
  let doubleDot = false;
  let preemption = false;
  // What follows the first sentence is PostFilter text (§6.5): DRA, then preemption, else opaque.
  const rest = (): string => text.slice(pos, Math.min(end, pos + 600));
  let r = rest();
  const lead = /^[ .]*/.exec(r)![0].length;
  const clause = DRA_CLAUSES.find((c) => r.startsWith(c, lead));
  if (clause) {
    dra = true;
    pos += lead + clause.length;
    r = rest();
  }
  // `. , preemption:` (a vendor build joins the PostFilter message with ", ").
  // `Preemption:` capitalised by a writer or a UI that retyped it.
  const pre = /^[ .]*(?:, ?)?[Pp]reemption: /.exec(r);
  if (pre) {
    preemption = true;
    pos += pre[0].length;
    const nested = /^(\d{1,9}) ?\/ ?(\d{1,9})\s{1,12}nodes are available:/.exec(rest());
    // `preemption: 0/6 nodes are available.` with no reason list: the PostFilter FitError had no
    // per-node statuses to print (pkg/scheduler/framework/types.go FitError.Error), not a reason.
    const empty = nested ? null : /^(\d{1,9}) ?\/ ?(\d{1,9}) nodes are available(?=\.|[ \t]*$|["'`,}\]])/.exec(rest());
    if (empty) {
      facts.preemption = { total: Number(empty[2]), reasons: [] };
      pos += empty[0].length;
      if (text[pos] === '.') pos++;
    } else if (nested) {
      const s = readSentence(text, Number(nested[2]), pos + nested[0].length, end);
      facts.preemption = { total: s.total, reasons: s.reasons };
      pos = s.end;
    } else if (/^\d{1,9} ?\/ ?\d{1,9}(?:\s+nodes?(?:\s+are(?:\s+available)?)?)?\s*$/.test(text.slice(pos, end))) {
      // The paste cut inside the preemption part's frame (`…, preemption: 0/17 nodes ` at its end): no reasons read.
      const n = /^\d{1,9} ?\/ ?(\d{1,9})/.exec(text.slice(pos, end))!;
      facts.preemption = { total: Number(n[1]), reasons: [] };
      pos = end;
    } else {
      // `not eligible due to preemptionPolicy=Never.` / `… a terminating pod on the nominated node.`
      const stop = sentenceEnd(text, pos, end);
      const reason = text.slice(pos, stop < 0 ? end : stop).trim();
      facts.preemption = { total: t.total, reasons: reason ? [{ count: t.total, reason }] : [] };
      pos = stop < 0 ? end : stop + 1;
    }
    if (text[pos] === '.') {
      doubleDot = true;
      pos++;
    }
  } else if (/^[ .]*Error running PostFilter plugin /.test(r)) {
    pos = end;
  }
  const message = text.slice(t.start, pos).trim();
  const m: SchedulerMatch = {
    layer: 'scheduler',
    kind: 'unschedulable',
    facts: { ...facts },
    message,
    start: t.start,
    end: pos,
  };
  const version = versionOf(message, dra, doubleDot, preemption);
  if (version) m.version = version;
  return m;
}

/** `Reason (n), Reason (m).` of the 1.6–1.10 wordings. */
function countedAfter(body: string): ReasonCount[] {
  const out: ReasonCount[] = [];
  const re = /\((\d{1,9})\)(?=\s*(?:,|\.|$))/g;
  let prev = 0;
  for (let m = re.exec(body); m; m = re.exec(body)) {
    const reason = body
      .slice(prev, m.index)
      .replace(/^[\s,]+/, '')
      .trim();
    if (reason) out.push({ count: Number(m[1]), reason });
    prev = m.index + m[0].length;
  }
  return out;
}

function predicates(text: string, lower: string, k: number): SchedulerMatch | undefined {
  let end = lineEnd(text, k);
  let colon = findWithin(text, ':', k, Math.min(end, k + 120));
  // Wrapped after `… match all of the` (a terminal or a tool's report broke it): the rest is on the next line.
  if (colon < 0 && end < text.length && end - k < 60) {
    end = lineEnd(text, end + 1);
    colon = findWithin(text, ':', k, Math.min(end, k + 120));
  }
  if (colon < 0) return undefined;
  const bodyStart = text[colon + 1] === ':' ? colon + 2 : colon + 1;
  const stop = sentenceEnd(text, bodyStart, end);
  const bodyEnd = stop < 0 ? end : stop;
  const reasons = countedAfter(text.slice(bodyStart, bodyEnd));
  // The words alone (`if "fit failure summary on nodes" in line:`, a program reading the message): no report.
  if (reasons.length === 0) return undefined;
  const following = lower.startsWith('no nodes are available that match all of the following predicates', k);
  const summary = lower.startsWith('fit failure summary on nodes', k);
  return {
    layer: 'scheduler',
    kind: 'unschedulable',
    facts: { total: null, reasons },
    message: text.slice(k, stop < 0 ? end : stop + 1).trim(),
    start: k,
    end: stop < 0 ? end : stop + 1,
    version: summary ? '1.6' : following ? '1.6-1.7' : '1.8-1.10',
  };
}

/** Aggregate per-node reasons into the histogram a later scheduler would print. */
function histogram(perNode: [string, string][]): Unschedulable {
  const nodes = new Set<string>();
  const counts = new Map<string, number>();
  for (const [node, reason] of perNode) {
    nodes.add(node);
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return { total: nodes.size, reasons: [...counts].map(([reason, count]) => ({ count, reason })) };
}

const FIT_FAILURE_RE = /fit failure on node \(([^)\n]{1,253})\):[ \t]*/gi;

/** 1.3–1.5: `pod (NAME) failed to fit in any node` + `fit failure on node (N): Reason` lines. */
function fitFailures(text: string, k: number, header: { name?: string; start: number } | undefined): SchedulerMatch {
  // One event's lines follow each other: look at most 16 KB ahead, in a slice so the regex is bounded.
  const base = k;
  const seg = text.slice(base, Math.min(text.length, base + 16384));
  const perNode: [string, string][] = [];
  FIT_FAILURE_RE.lastIndex = 0;
  let last = header ? lineEnd(seg, 0) : 0;
  for (let m = FIT_FAILURE_RE.exec(seg); m; m = FIT_FAILURE_RE.exec(seg)) {
    // Stop at a line without a fit failure: the next lines are another event.
    if (seg.slice(last, m.index).split('\n').length > 2) break;
    const reasonStart = FIT_FAILURE_RE.lastIndex;
    const lineStop = lineEnd(seg, reasonStart);
    const next = findWithin(seg, 'fit failure on node (', reasonStart, lineStop);
    const reasonEnd = next < 0 ? lineStop : next;
    perNode.push([m[1]!, trimEndOf(seg.slice(reasonStart, reasonEnd).trim(), '.,')]);
    last = reasonEnd;
    FIT_FAILURE_RE.lastIndex = reasonEnd;
  }
  const start = header ? header.start : k;
  const end = base + Math.max(last, 1);
  const m: SchedulerMatch = {
    layer: 'scheduler',
    kind: 'unschedulable',
    // The old message prints no node total (LABELLING.md §4: `total` only where `0/N` is printed).
    facts: { ...histogram(perNode), total: null },
    message: text.slice(start, end).trim(),
    start,
    end,
    version: '1.3-1.5',
  };
  if (header?.name) m.object = { resource: 'pods', name: header.name };
  return m;
}

/** v0.x: `failed to find fit for pod: {…}Node 127.0.0.1: PodFitsPorts`. */
function findFit(text: string, k: number): SchedulerMatch {
  const end = lineEnd(text, k);
  const body = text.slice(k, end);
  const perNode: [string, string][] = [];
  const re = /Node ([^\s:]{1,253}): ([A-Za-z]{1,100})/g;
  for (let m = re.exec(body); m; m = re.exec(body)) perNode.push([m[1]!, m[2]!]);
  const start = text.slice(Math.max(0, k - 18), k).endsWith('Error scheduling: ') ? k - 18 : k;
  return {
    layer: 'scheduler',
    kind: 'unschedulable',
    facts: { ...histogram(perNode), total: null },
    message: text.slice(start, end).trim(),
    start,
    end,
    version: '<1.3',
  };
}

/** v1.0 (2015): `failedScheduling  Failed for reason PodFitsResources and possibly others`. */
function failedForReason(text: string, k: number): SchedulerMatch | undefined {
  const m = /^failed for reason ([A-Za-z]{1,100})( and possibly others)?/i.exec(text.slice(k, k + 160));
  if (!m) return undefined;
  const end = k + m[0].length;
  return {
    layer: 'scheduler',
    kind: 'unschedulable',
    facts: { total: null, reasons: [{ count: null, reason: m[1]! }] },
    message: text.slice(k, end),
    start: k,
    end,
    version: '1.0',
  };
}

/** Before the VolumeBinding plugin (~1.10): `PersistentVolumeClaim is not bound: "data"`. */
function pvcNotBound(text: string, k: number): SchedulerMatch | undefined {
  const m = /^persistentvolumeclaim is not bound: "([^"\n]{1,253})"/i.exec(text.slice(k, k + 300));
  if (!m) return undefined;
  const end = k + m[0].length;
  return {
    layer: 'scheduler',
    kind: 'unschedulable',
    facts: { total: null, reasons: [{ count: null, reason: m[0] }] },
    message: m[0],
    start: k,
    end,
    version: '<1.10',
  };
}

/**
 * volcano's scheduler: `0/2 nodes are unavailable: 1 plugin NodeUnschedulable predicates failed node(s)
 * were unschedulable, …` and `all nodes are unavailable: …` — a scheduler decision with the same
 * histogram shape, from a non-default scheduler.
 */
function volcano(text: string, lower: string, k: number): SchedulerMatch {
  const t = totalBefore(text, k);
  const start = t ? t.start : lower.slice(Math.max(0, k - 4), k) === 'all ' ? k - 4 : k;
  const end = wrappedEnd(text, k);
  const s = readSentence(text, t ? t.total : Number.NaN, k + 'nodes are unavailable:'.length, end);
  const reasons = s.reasons.map((r) => ({
    count: r.count !== null && Number.isNaN(r.count) ? null : r.count,
    reason: r.reason,
  }));
  return {
    layer: 'scheduler',
    kind: 'unschedulable',
    facts: { total: t ? t.total : null, reasons },
    message: text.slice(start, s.end).trim(),
    start,
    end: s.end,
    version: 'volcano',
  };
}

/**
 * The GKE console's `PodUnschedulable Cannot schedule pods: Insufficient nvidia` — one line per reason,
 * and it splits `nvidia.com/gpu` at the dot into a second line `Cannot schedule pods: com/gpu.`
 * (docs/messages-in-the-wild.md, trap 11). Consecutive lines make one finding; a split resource name is rejoined.
 */
function gkeConsole(text: string, lower: string, k: number): SchedulerMatch {
  const reasons: ReasonCount[] = [];
  let pos = k;
  let end = k;
  const start = lineStart(text, k);
  for (let guard = 0; guard < 50 && pos >= 0; guard++) {
    const le = lineEnd(text, pos);
    const reason = trimEndOf(text.slice(pos + 'cannot schedule pods:'.length, le).trim(), '. ');
    const prev = reasons.at(-1);
    if (
      prev &&
      /^[a-z0-9-]{1,63}\/[A-Za-z0-9._-]{1,63}$/.test(reason) &&
      /^Insufficient [A-Za-z0-9-]{1,63}$/.test(prev.reason)
    )
      prev.reason += `.${reason}`;
    else if (reason) reasons.push({ count: null, reason });
    end = le;
    const nextLine = le + 1;
    pos = findWithin(lower, 'cannot schedule pods:', nextLine, lineEnd(text, nextLine) + 1);
  }
  return {
    layer: 'scheduler',
    kind: 'unschedulable',
    facts: { total: null, reasons },
    message: text.slice(start, end).trim(),
    start,
    end,
    version: 'GKE console',
  };
}

/**
 * 1.16–1.19: a Filter plugin that returned an error instead of Unschedulable (VolumeBinding did, for
 * unbound immediate claims) surfaced as `running "VolumeBinding" filter plugin for pod "web-0": pod has
 * unbound immediate PersistentVolumeClaims` (`error while running …` in 1.16), from RunFilterPlugins in
 * pkg/scheduler/framework/v1alpha1/framework.go. No node count; the plugin's message is the one reason.
 * The other extension points of that framework word their errors the same way (`error while running %q prebind
 * plugin for pod %q: %v`, `… prefilter …`, `… reserve …`, `… permit …`): 1.20+ prints `running PreBind plugin %q: %w`.
 */
const PLUGIN_FOR_POD_RE =
  /^running "([A-Za-z][\w-]{0,63})" (?:filter|prefilter|postfilter|prescore|score|reserve|permit|prebind|bind|postbind) plugin for pod "([^"\n]{1,253})": /;

function filterPluginError(text: string, lower: string, k: number): SchedulerMatch | undefined {
  const end = lineEnd(text, k, 2048);
  const m = PLUGIN_FOR_POD_RE.exec(text.slice(k, end));
  if (!m) return undefined;
  const { reason, stop } = pluginError(text, k + m[0].length, end);
  if (reason === '') return undefined;
  const start = lower.slice(Math.max(0, k - 14), k) === 'error while ' ? k - 14 : k;
  const stopAt = stop < 0 ? end : stop + 1;
  return {
    layer: 'scheduler',
    kind: 'unschedulable',
    object: { resource: 'pods', name: m[2]! },
    facts: { total: null, reasons: [{ count: null, reason }] },
    message: text.slice(start, stopAt).trim(),
    start,
    end: stopAt,
    version: '1.16-1.19',
  };
}

/**
 * A plugin's error from `from` to its sentence's end (or a table cell's ` |`, or `end`): the one reason, and where
 * the sentence and the cell end (-1 when they do not).
 */
function pluginError(text: string, from: number, end: number): { reason: string; stop: number; bar: number } {
  const stop = sentenceEnd(text, from, end);
  const bar = findWithin(text, ' |', from, stop < 0 ? end : stop);
  return { reason: proseCut(closeOfQuote(text.slice(from, bar >= 0 ? bar : stop < 0 ? end : stop))), stop, bar };
}

/**
 * A plugin that returned an error at an extension point other than Filter (pkg/scheduler/framework/runtime/
 * framework.go: `running PreBind plugin "VolumeBinding": binding volumes: timed out waiting for the condition`,
 * `running Reserve plugin %q: %w`, `running PreFilter plugin %q: %w`, …), surfaced as the FailedScheduling
 * event's message: the plugin's error is the one reason; no node count.
 */
const EXTENSION_POINT_RE =
  /running (?:PreEnqueue|PreFilter|PostFilter|PreScore|Score|Reserve|Permit|PreBind|Bind|PostBind) $/;

function extensionPointError(text: string, k: number): SchedulerMatch | undefined {
  const before = text.slice(Math.max(0, k - 24), k + 1);
  const point = EXTENSION_POINT_RE.exec(before);
  if (!point) return undefined;
  const start = k + 1 - point[0].length;
  const end = lineEnd(text, k, 2048);
  const m = /^ plugin "([A-Za-z][\w-]{0,63})": /.exec(text.slice(k, Math.min(end, k + 80)));
  if (!m) return undefined;
  const { reason, stop, bar } = pluginError(text, k + m[0].length, end);
  if (reason === '') return undefined;
  const stopAt = stop < 0 ? (bar >= 0 ? bar : end) : stop + 1;
  return {
    layer: 'scheduler',
    kind: 'unschedulable',
    facts: { total: null, reasons: [{ count: null, reason }] },
    message: text.slice(start, stopAt).trim(),
    start,
    end: stopAt,
  };
}

/**
 * The event's reason with NodeResourcesFit's reason retyped in lower case after it (`Pod app-2k9 Pending:
 * FailedScheduling (insufficient cpu)`, an application's or a chat bot's summary of the event): that reason,
 * without count or total. The capitalised `Insufficient cpu` is bareReasons' (with its catalogue and prose checks).
 */
const AFTER_EVENT_RE =
  /^failedscheduling[ \t]*[:(\u2014-][ \t]*(insufficient (?:cpu|memory|ephemeral-storage|pods|hugepages-\d{1,6}[kmgtp]i|[a-z0-9.-]{1,253}\/[a-z0-9._-]{1,63}))(?=[)\s,.;"']|$)/;

function reasonAfterEvent(text: string, lower: string, k: number): SchedulerMatch | undefined {
  const m = AFTER_EVENT_RE.exec(lower.slice(k, k + 320));
  if (!m) return undefined;
  const start = k + m[0].length - m[1]!.length;
  const end = k + m[0].length;
  const reason = text.slice(start, end);
  if (!reason.startsWith('insufficient') || catalogueNear(text, start, reason) > 0) return undefined;
  return {
    layer: 'scheduler',
    kind: 'unschedulable',
    facts: { total: null, reasons: [{ count: null, reason }] },
    message: reason,
    start,
    end,
  };
}

/**
 * PreFilter texts the scheduler prints instead of a node histogram, known well enough to read without
 * the `0/N nodes are available:` frame when a scheduling word is near (`Warning  FailedScheduling  pod has
 * unbound immediate PersistentVolumeClaims`): VolumeBinding's ErrReasonBoundImmediate
 * (pkg/scheduler/framework/plugins/volumebinding/volume_binding.go), and its first wording, the volume binder's
 * error before `immediate` was added (pkg/controller/volume/persistentvolume/scheduler_binder.go, 1.10–1.11).
 */
const PVC_NEEDLE = 'persistentvolumeclaim "';
const BARE_PREFILTER = [
  'pod has unbound immediate persistentvolumeclaims',
  'pod has unbound persistentvolumeclaims',
  PVC_NEEDLE,
];
const PVC_PREFILTER_RE = /^persistentvolumeclaim "[a-z0-9][a-z0-9.-]{0,252}" (?:not found|is being deleted)/i;

function barePrefilter(
  text: string,
  lower: string,
  covered: readonly SchedulerMatch[],
  pvcAt: readonly number[],
): SchedulerMatch[] {
  const out: SchedulerMatch[] = [];
  // The spans other matches cover: the text inside a framed message is that message's reason.
  const spans = covered.map((c) => [c.start, c.end] as const);
  for (const needle of BARE_PREFILTER) {
    // The claim texts were found with the other anchors; the PreFilter sentence is looked for here.
    const at =
      needle === PVC_NEEDLE
        ? pvcAt.slice(0, MAX_FRAMELESS_ATTEMPTS)
        : occurrences(lower, needle, MAX_FRAMELESS_ATTEMPTS);
    for (const k of at) {
      if (spans.some(([a, b]) => k >= a && k < b)) continue;
      let len = needle.length;
      if (needle === PVC_NEEDLE) {
        // `persistentvolumeclaim "data" not found` / `… is being deleted`: VolumeBinding's PreFilter about the
        // pod's own claims (pkg/scheduler/framework/plugins/volumebinding), printed without a node count.
        const pvc = PVC_PREFILTER_RE.exec(text.slice(k, k + 300));
        if (!pvc) continue;
        len = pvc[0].length;
      }
      // Part of another sentence (`1 pod has unbound …` in an autoscaler event, `the pod has …` in prose); not a
      // log header's level word (`…Z ERROR pod has unbound …`).
      if (
        /[A-Za-z0-9] $/.test(text.slice(Math.max(0, k - 2), k)) &&
        !LINE_LEAD_RE.test(text.slice(lineStart(text, k, 2048), k))
      )
        continue;
      const context = lineAndLineBefore(text, lower, k, lineEnd(text, k, 2048));
      // The event's reason or source, the old scheduler's log line (`Error scheduling ns/name: …; retrying`,
      // pkg/scheduler/factory/factory.go MakeDefaultErrorFunc), or the pod's Pending status near it.
      // Or quoted alone on its line (`the pod failed with :` ⏎ `> pod has unbound …`): the text itself.
      // Or a tool's `error: ` head before it on its line (`# error: pod has unbound immediate PersistentVolumeClaims`).
      if (
        !/failedscheduling|unschedulable|default-scheduler|error scheduling|unable to schedule|pending/.test(context) &&
        !enclosed(text, k, k + len) &&
        !/^[ \t#>*-]*error:[ \t]*$/i.test(text.slice(lineStart(text, k, 2048), k))
      )
        continue;
      const end = k + len;
      // An entry of a catalogue (`| FailedScheduling + unbound immediate PersistentVolumeClaims | … |` among rows
      // naming Insufficient cpu, Too many pods): a table of causes, not a report.
      if (reasonNamesNear(text, k, text.slice(k, end), spans) > 1) continue;
      out.push({
        layer: 'scheduler',
        kind: 'unschedulable',
        facts: { total: null, reasons: [{ count: null, reason: text.slice(k, end) }] },
        message: text.slice(k, end),
        start: k,
        end,
      });
    }
  }
  return out;
}

/** Reason texts a catalogue of causes lists (not event names: an Events table names those). */
const REASON_NAME_RE =
  /Insufficient [A-Za-z0-9][\w./-]{0,252}|node\(s\) [a-z']{2,12} [a-z]{2,20}|Too many pods|unbound (?:immediate )?PersistentVolumeClaims/g;

/**
 * Distinct reason texts on the lines around `start` (at most 3 each way) outside the messages read there
 * (`spans`) and other than `own`: more than one makes a PreFilter text an entry of a catalogue.
 */
function reasonNamesNear(
  text: string,
  start: number,
  own: string,
  spans: readonly (readonly [number, number])[],
): number {
  const [from, to] = threeLinesAround(text, start);
  const names = new Set<string>();
  REASON_NAME_RE.lastIndex = 0;
  const window = text.slice(from, to);
  for (let m = REASON_NAME_RE.exec(window); m; m = REASON_NAME_RE.exec(window)) {
    const at = from + m.index;
    if (spans.some(([a, b]) => at >= a && at < b)) continue;
    const name = trimEndOf(m[0], '.,;:');
    if (!own.includes(name)) names.add(name);
  }
  return names.size;
}

/** Offsets of `needle` in `lower`, at most `max`. */
function occurrences(lower: string, needle: string, max: number): number[] {
  const out: number[] = [];
  for (let k = lower.indexOf(needle); k >= 0 && out.length < max; k = lower.indexOf(needle, k + 1)) out.push(k);
  return out;
}

/**
 * A frameless list without what closes the text around it: blanks, quotes, emphasis, punctuation, and a `)` that
 * no `(` of the list opened (`(3 node(s) had untolerated taint(s))` keeps the reason's `(s)`).
 */
function trimClosers(s: string): string {
  let out = trimEndOf(s, ' `\'"*_:;.');
  while (out.endsWith(')')) {
    let depth = 0;
    for (const c of out) depth += c === '(' ? 1 : c === ')' ? -1 : 0;
    if (depth >= 0) break;
    out = trimEndOf(out.slice(0, -1), ' `\'"*_:;.');
  }
  return out;
}

/** Reasons FitError prints (and the preemption part's), known well enough to trust a list without its frame. */
const KNOWN_REASON_RE =
  /^(?:Insufficient [A-Za-z0-9][\w./-]{0,252}|node\(s\) .{3,200}|Too many pods|Preemption is not helpful for scheduling|No preemption victims found for incoming pod)$/;
const FRAMELESS_START_RE = /(?:^|[\s"'(:=])(\d{1,9}) (?:Insufficient [A-Za-z0-9]|node\(s\) |Too many pods)/g;
const SCHEDULING_WORDS_RE = /pending|failedscheduling|unschedulable|schedul/;
/**
 * What introduces a quoted message in prose right before a lone reason (`the event said \`1 Insufficient
 * memory\``, `I got the error message …`, `fails … due to missing tolerations: …`): the reason is a quote of
 * the scheduler's message, not a count in a sentence.
 */
const QUOTED_AFTER_RE =
  /(?:\b(?:error|errors|message|messages|event|events|said|says|saying|shows?|showed|shown|got|gets|getting|warning|warnings|reason|reports?|reported|complains?|complained|with)|:)\s*["'(]?$/;
/** Words before a reason list on its line that make it the cluster-autoscaler's (NotTriggerScaleUp). */
const AUTOSCALER_BEFORE_RE =
  /trigger scale-up|nottriggerscaleup|scale-up|node group|predicate checking error|can't be scheduled on [^\s,]{1,253}, predicate failed/;

/**
 * A reason list without its `0/N nodes are available:` frame (the user copied only the reasons, or
 * wrote them into prose): `3 Insufficient cpu, 2 node(s) had taints that the pod didn't tolerate.`, or a
 * lone `1 Insufficient memory` next to the word Pending. Every entry must be a reason FitError prints;
 * a single entry also needs a scheduling word on its line or the line before. No total: N is not printed.
 */
/** Whether the text from a message's end to `start` is prose with a quote in it: another quoted list follows. */
function apartAfter(text: string, end: number, start: number): boolean {
  if (start <= end || start - end > 400) return false;
  const gap = text.slice(end, start);
  return /[`"]/.test(gap) && /[A-Za-z]{3,}\s+[A-Za-z]{3,}/.test(gap) && !/\d/.test(gap);
}

function frameless(text: string, lower: string, covered: readonly SchedulerMatch[]): SchedulerMatch[] {
  const out: SchedulerMatch[] = [];
  // The lines whole messages already cover, in order: hits come in order too, so one pointer walks them.
  const spans = covered
    .map((c) => [lineStart(text, c.start, MAX_MESSAGE), lineEnd(text, c.end), c.end] as const)
    .sort((a, b) => a[0] - b[0]);
  let si = 0;
  let attempts = 0;
  FRAMELESS_START_RE.lastIndex = 0;
  for (
    let m = FRAMELESS_START_RE.exec(text);
    m && attempts < MAX_FRAMELESS_ATTEMPTS;
    m = FRAMELESS_START_RE.exec(text)
  ) {
    const start = m.index + m[0].indexOf(m[1]!);
    while (si < spans.length && spans[si]![1] < start) si++;
    // On a whole message's line only when prose in quotes parts it from that message (`0/4 nodes are available:
    // 4 node(s) didn't match …\` — sometimes followed by \`1 Insufficient hugepages-2Mi, 3 node(s) …\``).
    if (si < spans.length && start >= spans[si]![0] && !apartAfter(text, spans[si]![2], start)) continue;
    attempts++;
    // cluster-autoscaler's NotTriggerScaleUp (`pod didn't trigger scale-up: 1 node(s) didn't match …`, `… 2 max
    // node group size reached`) prints the scheduler's reason form about node groups it simulated: a
    // look-alike (lookalikes.ts), not a scheduling decision on nodes.
    if (AUTOSCALER_BEFORE_RE.test(lower.slice(lineStart(text, start, 2048), start))) continue;
    let end = lineEnd(text, start, 2048);
    let joined = false;
    // A list broken after its comma, the next reason on the next line under it (`FailedScheduling: 1 node(s) …,`
    // ⏎ `                  2 node(s) didn't match …`): one list.
    for (let more = 0; more < 10 && /,[ \t]*$/.test(text.slice(Math.max(start, end - 4), end)); more++) {
      const next = /^\n[ \t]{2,}\d{1,6} (?:node\(s\)|Insufficient |Too many )/.exec(text.slice(end, end + 40));
      if (!next) break;
      end = lineEnd(text, end + 1, 2048);
      joined = true;
    }
    // A list printed one reason a line with nothing else on them (a code block of `1 Insufficient a/b` ⏎
    // `1 Insufficient a/c` ⏎ …): one list, as the frame would have printed it after one `0/N nodes are available:`.
    if (
      !joined &&
      /^[ \t]*$/.test(text.slice(lineStart(text, start, 2048), start)) &&
      COUNTED_LINE_RE.test(text.slice(start, end))
    ) {
      for (let more = 0; more < 10; more++) {
        const e = text.indexOf('\n', end + 1);
        const next = text.slice(end + 1, e < 0 ? Math.min(text.length, end + 400) : e);
        if (text[end] !== '\n' || !COUNTED_LINE_RE.test(next)) break;
        end += 1 + next.length;
        joined = true;
      }
    }
    // A list in quotes (a code span in prose, see normalize.ts) ends at its closing quote.
    if (text[start - 1] === '"') {
      const q = findWithin(text, '"', start, end);
      if (q >= 0) end = q;
    }
    // A table cell ends at its border (`| Warning | FailedScheduling | 1 node(s) had … |`).
    const bar = findWithin(text, ' |', start, end);
    if (bar >= 0) end = bar;
    const stop = joined ? -1 : sentenceEnd(text, start, end);
    const body = joined
      ? trimClosers(
          text
            .slice(start, end)
            .replace(/,?[ \t]*\n[ \t]*/g, ', ')
            .trimEnd(),
        )
      : trimClosers(proseCut(text.slice(start, stop < 0 ? end : stop)));
    // A list cut after its comma (the next reason on a line of its own, or gone): no reason ends in one.
    const reasons = splitHistogram(body).map((r) => ({ ...r, reason: trimClosers(r.reason).replace(/,$/, '') }));
    if (
      !reasons.length ||
      !reasons.every((r) => r.count !== null && !Number.isNaN(r.count) && KNOWN_REASON_RE.test(r.reason))
    )
      continue;
    if (reasons.length === 1) {
      // A program's literal (`makePredicateError("1 node(s) didn't find …")`): the source, not a report.
      if (CODE_LITERAL_BEFORE_RE.test(text.slice(Math.max(lineStart(text, start, 2048), start - 48), start))) continue;
      if (
        text[start - 1] !== '"' &&
        !SCHEDULING_WORDS_RE.test(lineAndLineBefore(text, lower, start, end)) &&
        !QUOTED_AFTER_RE.test(lower.slice(Math.max(lineStart(text, start, 2048), start - 48), start)) &&
        // Alone on its line (a code block holding only `1 node(s) didn't have free ports …`), in no catalogue.
        !(
          LINE_LEAD_RE.test(text.slice(lineStart(text, start, 2048), start)) &&
          /^[ \t.]*$/.test(text.slice(start + body.length, lineEnd(text, start, 2048))) &&
          catalogueNear(text, start, reasons[0]!.reason) === 0
        )
      )
        continue;
    }
    const stopAt = joined ? end : start + body.length;
    out.push({
      layer: 'scheduler',
      kind: 'unschedulable',
      facts: { total: null, reasons },
      message: text.slice(start, stopAt).trim(),
      start,
      end: stopAt,
    });
    FRAMELESS_START_RE.lastIndex = stopAt;
  }
  return out.length >= 3 ? withoutCatalogue(text, out) : out;
}

/**
 * Single counted reasons one a line, three or more different ones within a few lines (`| Node cordoned |
 * \`1 node(s) were unschedulable\` |` under rows for affinity and spread, a test table's `clause: "3 node(s) didn't
 * match pod affinity rules"` rows): a table of what each cause prints, not a scheduling decision. A real list
 * has its entries on one line, after one frame.
 */
function withoutCatalogue(text: string, found: SchedulerMatch[]): SchedulerMatch[] {
  const single = found.filter((m) => m.facts.reasons.length === 1);
  if (single.length < 3) return found;
  const lineOf = new Map<SchedulerMatch, number>();
  let line = 0;
  let pos = 0;
  for (const m of single) {
    for (let p = text.indexOf('\n', pos); p >= 0 && p < m.start; p = text.indexOf('\n', p + 1)) line++;
    pos = m.start;
    lineOf.set(m, line);
  }
  const drop = new Set<SchedulerMatch>();
  for (const m of single) {
    const near = single.filter((o) => Math.abs(lineOf.get(o)! - lineOf.get(m)!) <= 4);
    const lines = new Set(near.map((o) => lineOf.get(o)));
    const reasons = new Set(near.map((o) => o.facts.reasons[0]!.reason));
    if (lines.size >= 3 && reasons.size >= 3) for (const o of near) drop.add(o);
  }
  return drop.size ? found.filter((m) => !drop.has(m)) : found;
}

/**
 * The (lower-case) text from the start of the non-blank line before `start`'s line to `end`: where a
 * scheduling word makes a lone reason a scheduler's (`web-0  0/1  Pending` ⏎ ⏎ `1 Insufficient memory`).
 */
function lineAndLineBefore(text: string, lower: string, start: number, end: number): string {
  const ls = lineStart(text, start, 2048);
  let prev = ls - 1;
  while (prev > 0 && ls - prev < 256 && /\s/.test(text[prev - 1]!)) prev--;
  return lower.slice(lineStart(text, Math.max(0, prev), 2048), end);
}

/**
 * A resource FitError names after `Insufficient ` (NodeResourcesFit's `Insufficient <resource name>`,
 * pkg/scheduler/framework/plugins/noderesources/fit.go): the standard ones and extended resources
 * (`vendor.com/name`), never a word that goes on (`Insufficient cpu/memory`, `Insufficient quota`).
 */
const BARE_INSUFFICIENT_RE =
  /Insufficient (cpu|memory|ephemeral-storage|pods|hugepages-[0-9]{1,6}[KMGTP]i|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,10}[a-z]{2,63}\/[A-Za-z0-9](?:[A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)(?![\w/-]|\.[\w])/g;
/**
 * Where a quote, a cell border or a parenthesis closes around a reason, from `from`: `"`, `|`, a `'` not inside a
 * word, a `)` that no `(` of the reason opened. -1 when none does.
 */
function closingOf(reason: string, from: number): number {
  let depth = 0;
  for (let p = from; p < reason.length; p++) {
    const c = reason[p];
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) return p;
      depth--;
    } else if (c === '"' || c === '|') return p;
    else if (c === "'" && !(/[A-Za-z]/.test(reason[p - 1] ?? '') && /[A-Za-z]/.test(reason[p + 1] ?? ''))) return p;
  }
  return -1;
}

/** The other reason texts FitError prints, distinctive enough to read without their count. */
const BARE_OTHER_RE =
  /node\(s\) (?:had|didn't|were|exceed|did not|unavailable)[^\n]{3,200}|Too many pods(?![\w-])|cannot allocate all claims(?![\w-])/g;
/**
 * A reason's words quoted or told without its `N node(s) ` head (`stuck Pending with "didn't have free ports for
 * the requested pod ports"`): the in-tree plugins' reason texts, whole, read only with a scheduling word near
 * (the reason as printed).
 */
const BARE_TAIL_RE =
  /(?<=["'`\s(:])(?<!node\(s\) |nodes |\] )(?:didn't have free ports for the requested pod ports|didn't find available persistent volumes to bind|didn't satisfy existing pods anti-affinity rules|didn't match pod (?:anti-)?affinity rules|didn't match pod topology spread constraints(?: \([^)\n"'`]{1,60}\))?|didn't match Pod's node affinity\/selector|had volume node affinity conflict|had untolerated taint[^"'`\n]{0,120})(?=["'`\s.,;:)]|$)/g;
/** Resources so common in other software's messages (`fprintf("Insufficient memory.")`) that a scheduling word must be near. */
const GENERIC_REASON_RE = /^(?:Insufficient (?:cpu|memory|pods)|Too many pods)$/;
/**
 * Names of reasons, statuses and events that a catalogue lists next to each other (a troubleshooting page's
 * "common causes", a glossary). Two different ones near a bare reason make it an entry of such a list.
 * The Filter plugins that print them (pkg/scheduler/framework/plugins/names/names.go: NodeResourcesFit,
 * NodeVolumeLimits, …) are names of that kind too: a reason next to the plugin that prints it is a table of
 * which plugin says what, not a report.
 */
const CATALOGUE_NAME_RE =
  /Insufficient [A-Za-z0-9][\w./-]{0,252}|node\(s\) [a-z']{2,12} [a-z]{2,20}|Too many pods|PodToleratesNodeTaints|PodFitsResources|MatchNodeSelector|NodeAffinity|ImagePullBackOff|ErrImagePull|CrashLoopBackOff|FailedCreatePodSandBox|FailedMount|FailedAttachVolume|OOMKilled|CreateContainerConfigError|unbound immediate PersistentVolumeClaims|NotTriggerScaleUp|FailedScheduling|NodeResourcesFit|NodeVolumeLimits|(?:EBS|GCEPD|AzureDisk|Cinder)Limits|NodePorts|NodeUnschedulable|TaintToleration|InterPodAffinity|PodTopologySpread|VolumeBinding|VolumeRestrictions|VolumeZone/g;

/** Whether the line above the one at `ls` is a `kubectl describe` or `get events` command (its output below it). */
function underDescribe(text: string, ls: number): boolean {
  if (ls === 0) return false;
  const prev = text.slice(lineStart(text, ls - 1, 2048), ls - 1);
  return /^[\s$>#]*(?:kubectl|oc)\s+(?:[\w-]+\s+){0,3}(?:describe|get\s+events?)\b/.test(prev);
}

/** Is the `#`-marked line at `ls` one of a block of them (a shell or config comment), not a lone heading? */
function commentBlock(text: string, ls: number): boolean {
  const le = lineEnd(text, ls, 2048);
  const next = text.slice(le + 1, le + 8);
  const prevStart = ls > 0 ? lineStart(text, ls - 1, 2048) : -1;
  const prev = prevStart >= 0 ? text.slice(prevStart, ls) : '';
  return /^\s*#(?!#)/.test(next) || /^\s*#(?!#)/.test(prev);
}

/**
 * What may stand before a text alone on its line: blanks, then a list marker (`- `, `1. `), a table cell's border
 * (the closing one normalize.ts took off), or a log record's header (`2026-01-02T03:04:05.678Z ERROR `, klog's
 * `E0102 03:04:05.678901   12345 file.go:123] `).
 */
const LINE_LEAD_RE =
  /^[ \t]*(?:[-*+][ \t]+|\d{1,3}[.)][ \t]+|\|[ \t]*|\d{4}-\d\d-\d\d[T ][\d:.]+Z?[ \t]+(?:(?:ERROR|WARN(?:ING)?|INFO|DEBUG|FATAL)[ \t]+)?|[IWEF]\d{4} [\d:.]{8,15}[ \t]+\d{1,9} [\w.-]{1,80}:\d{1,6}\][ \t]+)?$/;

/** The shape around [start, end): the whole of a quote, a parenthesis, a table cell or a line. */
function enclosed(text: string, start: number, end: number): boolean {
  const before = text[start - 1] ?? '\n';
  let e = end;
  while (text[e] === '.' || text[e] === ' ') e++;
  const after = text[e] ?? '\n';
  if ((before === '"' || before === "'") && after === before) return true;
  if ((before === '(' && after === ')') || (before === '\u300c' && after === '\u300d')) return true;
  const ls = lineStart(text, start, 2048);
  const le = lineEnd(text, start, 2048);
  const lead = text.slice(ls, start);
  const tail = text.slice(e, le);
  // A table cell (its closing border there, or taken off by normalize.ts at the line's end).
  if (/\|\s*$/.test(lead) && /^\s*(?:\||$)/.test(tail)) return true;
  // Alone on its line (a code block holding only the reason), or after a list marker, a log header or a label.
  if (/^["')]?\s*$/.test(tail) && LINE_LEAD_RE.test(lead)) return true;
  return /^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+)?(?:[A-Za-z][\w ]{0,40}:\s*)?["'(]?$/.test(lead) && /^["')]?\s*$/.test(tail);
}

/** A bare reason in quotes of its own (`"…"`, `「…」`), outside every message read, and none of their reasons. */
function apartQuoted(text: string, start: number, words: string, covered: readonly SchedulerMatch[]): boolean {
  const open = text[start - 1];
  const close = open === '\u300c' ? '\u300d' : open === '"' ? '"' : undefined;
  if (close === undefined || text[start + words.length] !== close) return false;
  if (covered.some((c) => c.start <= start && start < c.end)) return false;
  return !covered.some((c) => c.facts.reasons.some((r) => r.reason.includes(words) || words.includes(r.reason)));
}

/** The offsets of the lines around `start`, at most 3 each way (each line looked at up to 2 KB). */
function threeLinesAround(text: string, start: number): [from: number, to: number] {
  let from = lineStart(text, start, 2048);
  for (let i = 0; i < 3 && from > 0; i++) from = lineStart(text, from - 1, 2048);
  let to = lineEnd(text, start, 2048);
  for (let i = 0; i < 3 && to < text.length; i++) to = lineEnd(text, to + 1, 2048);
  return [from, to];
}

/** Distinct reason and status names on the lines around `start` (at most 3 each way), `own` excepted. */
function catalogueNear(text: string, start: number, own: string, covered: readonly SchedulerMatch[] = []): number {
  const [from, to] = threeLinesAround(text, start);
  const names = new Set<string>();
  CATALOGUE_NAME_RE.lastIndex = 0;
  const window = text.slice(from, to);
  for (let m = CATALOGUE_NAME_RE.exec(window); m; m = CATALOGUE_NAME_RE.exec(window)) {
    // A whole message's own reasons name no catalogue entry.
    if (covered.some((c) => c.start <= from + m.index && from + m.index < c.end)) continue;
    const name = trimEndOf(m[0], '.,;:');
    if (!own.includes(name) && !name.startsWith(own) && name !== 'FailedScheduling' && name !== 'NotTriggerScaleUp')
      names.add(name);
  }
  // `FailedScheduling` names the event a bare reason came in, and cluster-autoscaler's `NotTriggerScaleUp` the one
  // beside it (`the scheduler reports \`Insufficient cpu\`; the autoscaler reports \`NotTriggerScaleUp\``), except in
  // a list of other names.
  if (names.size > 0 && window.includes('FailedScheduling')) names.add('FailedScheduling');
  if (names.size > 0 && window.includes('NotTriggerScaleUp')) names.add('NotTriggerScaleUp');
  return names.size;
}

/**
 * A reason FitError prints, without its count and without the `0/N nodes are available:` frame: quoted in
 * prose (`the VM stays \`Pending\` with \`Insufficient hugepages-2Mi\``), alone in a code block, in a table
 * cell, in parentheses (`cannot be scheduled (Insufficient amd.com/gpu)`). It counts when its shape or a
 * scheduling word near says the text reports it; a reason as common as `Insufficient memory` needs the word.
 * Not an entry of a catalogue (several reason or status names listed together), not a reason a whole
 * message of the paste already gives, not a heading. Count and total: null (neither is printed).
 */
function bareReasons(text: string, lower: string, covered: readonly SchedulerMatch[]): SchedulerMatch[] {
  if (
    !text.includes('Insufficient ') &&
    !text.includes('node(s) ') &&
    !text.includes('Too many pods') &&
    !text.includes('cannot allocate all claims') &&
    !text.includes("didn't ") &&
    !text.includes('had ')
  )
    return [];
  let known: Set<string> | undefined;
  const out: SchedulerMatch[] = [];
  const seen = new Set<string>();
  let attempts = 0;
  for (const re of [BARE_INSUFFICIENT_RE, BARE_OTHER_RE, BARE_TAIL_RE]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m && attempts < MAX_FRAMELESS_ATTEMPTS; m = re.exec(text)) {
      attempts++;
      const start = m.index;
      // On the line of a whole message (its reason, or prose about it): that message's.
      const lineFrom = lineStart(text, start, 2048);
      const lineTo = lineEnd(text, start, 2048);
      // Unless it stands in quotes of its own outside that message, a reason that message does not give (`「0/1 nodes
      // are available: 1 Too many pods.」や「node(s) had untolerated taint」`: two messages the writer saw).
      const onMessageLine = covered.some((c) => c.start < lineTo && c.end > lineFrom);
      if (onMessageLine && text[start - 1] !== '\u300c' && text[start - 1] !== '"') continue;
      // A count before it is a frameless list's (read there, or refused there).
      if (/\d[ \t]?$/.test(text.slice(Math.max(0, start - 2), start))) continue;
      const ls = lineStart(text, start, 2048);
      // A markdown heading names a section (`### Pods Pending with Insufficient …`); a comment block's line
      // (`# … hits FailedScheduling` ⏎ `# (Insufficient nvidia.com/gpu) and …`) has marked lines around it.
      // A shell comment right under the command that printed it (`kubectl describe pod x | grep -A4 Events` ⏎ `# node(s)
      // didn't match …`) is that command's output.
      if (/^\s*#{1,6}\s/.test(text.slice(ls, start + 1)) && !commentBlock(text, ls) && !underDescribe(text, ls))
        continue;
      if (AUTOSCALER_BEFORE_RE.test(lower.slice(ls, start))) continue;
      let reason = m[0];
      if (re === BARE_OTHER_RE && reason.startsWith('node(s)')) {
        // To the end of the reason: a sentence end, a closing quote, parenthesis or cell border.
        const le = lineEnd(text, start, 2048);
        const stop = sentenceEnd(text, start, le);
        const to = embeddedEnd(text, start, start, stop < 0 ? le : stop);
        reason = trimEndOf(proseCut(closeOfQuote(text.slice(start, to))), ' `\'"*_:;.,');
        // A quote, parenthesis or cell border closing around it (an apostrophe inside a word is the reason's).
        // A `)` closes something only past the reason's own `(s)` (`untolerated taint(s)`, `pvc(s)`, `plugin(s)`).
        const q = closingOf(reason, 'node(s)'.length);
        if (q >= 0) reason = trimEndOf(reason.slice(0, q), ' ,;:.');
        if (reason.length < 12) continue;
      }
      if (onMessageLine) {
        const q = reason.indexOf('\u300d');
        if (q > 0) reason = reason.slice(0, q);
        if (!apartQuoted(text, start, reason, covered)) continue;
      }
      known ??= new Set(covered.flatMap((c) => c.facts.reasons.map((r) => r.reason)));
      if (known.has(reason) || seen.has(reason)) continue;
      const end = start + reason.length;
      const shaped = enclosed(text, start, end);
      const context = lineAndLineBefore(text, lower, start, lineEnd(text, start, 2048));
      const worded =
        SCHEDULING_WORDS_RE.test(context) ||
        QUOTED_AFTER_RE.test(lower.slice(Math.max(ls, start - 48), start)) ||
        underDescribe(text, ls);
      if (GENERIC_REASON_RE.test(reason) || re === BARE_TAIL_RE ? !worded : !shaped && !worded) continue;
      // Beside a whole message in its own quotes, that message's reasons are no catalogue's names.
      if (catalogueNear(text, start, reason, onMessageLine ? covered : []) > 0) continue;
      if (aboutReason(text, lower, ls, start, end)) continue;
      // The string constant a program prints (`ErrReason = "node(s) didn't have free ports …"`, `return "…";`,
      // `errors.New("…")`): the source of the reason, not a report of it.
      if (CODE_LITERAL_BEFORE_RE.test(text.slice(Math.max(ls, start - 48), start))) continue;
      seen.add(reason);
      out.push({
        layer: 'scheduler',
        kind: 'unschedulable',
        facts: { total: null, reasons: [{ count: null, reason }] },
        message: reason,
        start,
        end,
      });
    }
  }
  return out;
}

/**
 * What stands before a reason a program holds rather than prints: the opening quote of a string literal after
 * an assignment, a call or an index right after a name or a CamelCase one and a blank (`UnschedulableAndUnresolvable
 * ("…")`; not a parenthesis of prose: `(\`Insufficient amd.com/gpu\`)`),
 * or a `return` (`ErrReason = "…"`, `vec!["…".to_string()]`, `errors.New("…")`),
 * after a test's assertion (`assert_equal "cannot allocate all claims", …`, `toBe('…')`), with a plugin's name
 * leading the literal (`"NodeName: node(s) didn't match …"`); or a regular expression's `.*` right before it
 * (`grep -iq "FailedScheduling.*node(s) had volume node affinity conflict"`).
 */
const CODE_LITERAL_BEFORE_RE =
  /(?:(?:=|(?:(?<=[\w$!\]])|(?<=[a-z][A-Z]\w{0,60} ))[([]|\breturn|\bassert\w*!?|\bexpect|\btoBe|\btoEqual|\bEqual|\bContainSubstring)[ \t]*\(?[ \t]*["'`](?:[A-Z][A-Za-z]{1,40}: )?|\.[*+])$/;

/**
 * Prose about a reason name in general, not a report of it: the reason is the subject of a definition
 * (`"Insufficient cpu" means no node has …`, `` `Insufficient memory`: the scheduler found no node … ``,
 * `Insufficient nvidia.com/gpu indicates …`) or the object of a question or a condition (`What does
 * Insufficient cpu mean?`, `If you see \`Insufficient cpu\`, …`). The text after the reason (its closing
 * quote, and a `reason`/`error`/`message` noun, skipped) and the few words before it decide.
 */
const DEFINED_AFTER_RE =
  /^["'`)*_]*[ \t]*(?:(?:reason|error|message|event|condition|status)s?[ \t]+)?(?:means|meaning|indicates|signals|signifies|tells you|suggests|occurs|happens|appears when|shows up when|is (?:reported|shown|raised|printed|returned|emitted|displayed|logged|seen) when|is caused by|(?:errors? )?(?:usually |typically |generally |simply |basically )?(?:means|indicates)|[ \t]*[:\u2014\u2013-][ \t]+(?:the scheduler|no node|there (?:is|are) no|this means|it means|not enough|none of the nodes)\b)/i;
const DEFINED_BEFORE_RE =
  /(?:\bwhat (?:does|do|is|are)|\bif you see|\bwhen you see|\bwhenever you see|\bthe meaning of|\bexplains?|\bdefinition of)[^.!?\n]{0,24}["'`(]?$/;

function aboutReason(text: string, lower: string, ls: number, start: number, end: number): boolean {
  if (DEFINED_AFTER_RE.test(text.slice(end, end + 80))) return true;
  return DEFINED_BEFORE_RE.test(lower.slice(Math.max(ls, start - 60), start));
}

/** Candidate frameless lists looked at, at most: the rest of a huge paste is not read for them. */
const MAX_FRAMELESS_ATTEMPTS = 64;

const ANCHOR_NEEDLES = [
  'nodes are available:',
  'nodes available:',
  'no nodes are available that match all of the',
  'fit failure summary on nodes',
  'failed to fit in any node',
  'fit failure on node (',
  'failed to find fit for pod',
  'no nodes available to schedule pods',
  'no nodes are registered to the cluster',
  'failed for reason ',
  'persistentvolumeclaim ',
  'nodes are unavailable:',
  'cannot schedule pods:',
  'running "',
  'plugin "',
  'failedscheduling',
  'nodes are available',
  ' nodes: ',
];

/** All FailedScheduling findings in normalized `text`. */
export function findScheduler(text: string, lowerText?: string): SchedulerMatch[] {
  const lower = lowerText ?? lowerAscii(text);
  const out: SchedulerMatch[] = [];
  let consumed = 0;
  // Where `persistentvolumeclaim "…"` starts (a PreFilter text barePrefilter reads without its frame).
  const pvcAt: number[] = [];
  const anchors: [number, string][] = [];
  const hits = findAllNeedles(lower, ANCHOR_NEEDLES);
  ANCHOR_NEEDLES.forEach((needle, i) => {
    for (const k of hits[i]!) anchors.push([k, needle]);
  });
  anchors.sort((a, b) => a[0] - b[0]);
  for (const [k, needle] of anchors) {
    if (k < consumed) continue;
    let m: SchedulerMatch | undefined;
    switch (needle) {
      case 'nodes are available:':
        m = fitError(text, k);
        break;
      case 'nodes available:':
        m = fitError(text, k, needle.length);
        break;
      case 'no nodes are available that match all of the':
      case 'fit failure summary on nodes':
        m = predicates(text, lower, k);
        break;
      case 'failed to fit in any node': {
        const w = text.slice(Math.max(0, k - 300), k);
        const h = /pod \(([^()\n]{1,253})\) $/.exec(w);
        const header = { start: h ? k - h[0].length : k, ...(h ? { name: h[1]! } : {}) };
        // 1.6 prints a summary line under the header instead of one line per node (or, joined, right after it:
        // `pod (x) failed to fit in any node fit failure summary on nodes : …`).
        const next = lineEnd(text, k);
        const summary = findWithin(
          lower,
          'fit failure summary on nodes',
          k + 'failed to fit in any node'.length,
          next + 48,
        );
        if (summary >= 0) {
          const p = predicates(text, lower, summary);
          if (p) {
            m = { ...p, start: header.start, message: text.slice(header.start, p.end).trim() };
            if (header.name) m.object = { resource: 'pods', name: header.name };
            break;
          }
        }
        m = fitFailures(text, k, header);
        break;
      }
      case 'failed for reason ':
        m = failedForReason(text, k);
        break;
      case 'persistentvolumeclaim ':
        if (lower.startsWith('persistentvolumeclaim is not bound:', k)) m = pvcNotBound(text, k);
        else if (lower.startsWith(PVC_NEEDLE, k)) pvcAt.push(k);
        break;
      case 'failedscheduling':
        m = reasonAfterEvent(text, lower, k);
        break;
      case 'plugin "':
        if (k > 0 && text[k - 1] === ' ') m = extensionPointError(text, k - 1);
        break;
      case 'nodes are unavailable:':
        m = volcano(text, lower, k);
        break;
      case 'cannot schedule pods:':
        m = gkeConsole(text, lower, k);
        break;
      case 'running "':
        m = filterPluginError(text, lower, k);
        break;
      case 'nodes are available': {
        // `"message": "0/3 nodes are available"` (a quoted message with no reason list; FitError prints its
        // reasons after a colon): the total alone.
        const after = k + needle.length;
        // Also a frame that ends the writer's sentence (`… sat Pending -- \`0/13 nodes are available\`. No node has …`).
        const t = /^\.?(?:["'`]|[ \t]*$)|^\.[ \t]+(?!Insufficient|Too many|Node|Preemption)[A-Z]/m.test(
          text.slice(after, after + 16),
        )
          ? totalBefore(text, k)
          : undefined;
        if (t && text[t.start] === '0' && (t.start === 0 || /["'`\s]/.test(text[t.start - 1]!)))
          m = {
            layer: 'scheduler',
            kind: 'unschedulable',
            facts: { total: t.total, reasons: [] },
            message: text.slice(t.start, after).trim(),
            start: t.start,
            end: after,
          };
        break;
      }
      case ' nodes: ':
        // `0/2 nodes: cannot allocate all claims` (a retyped frame without `are available`).
        if (/(?:^|[\s"'`(])0 ?\/ ?\d{1,9}$/.test(text.slice(Math.max(0, k - 16), k)))
          m = fitError(text, k + 1, 'nodes:'.length);
        break;
      case 'fit failure on node (':
        m = fitFailures(text, k, undefined);
        break;
      case 'failed to find fit for pod':
        m = findFit(text, k);
        break;
      case 'no nodes available to schedule pods':
      // 1.9–1.18 MakeDefaultErrorFunc (pkg/scheduler/factory/factory.go) for ErrNoNodesAvailable:
      // `Unable to schedule ns/name: no nodes are registered to the cluster; waiting`.
      case 'no nodes are registered to the cluster':
        m = {
          layer: 'scheduler',
          kind: 'unschedulable',
          facts: { total: 0, reasons: [] },
          message: text.slice(k, k + needle.length),
          start: k,
          end: k + needle.length,
        };
        break;
    }
    if (m) {
      out.push(m);
      consumed = Math.max(consumed, m.end);
    }
  }
  const kept = dropCopiedFragments(text, out);
  const loose = frameless(text, lower, kept);
  const pre =
    lower.includes(BARE_PREFILTER[0]!) || lower.includes(BARE_PREFILTER[1]!) || pvcAt.length > 0
      ? barePrefilter(text, lower, [...kept, ...loose], pvcAt)
      : [];
  const block = text.includes('\nInsufficient ') ? linedReasons(text, [...kept, ...loose]) : [];
  const bare = bareReasons(text, lower, [...kept, ...loose, ...pre, ...block]);
  return loose.length || pre.length || block.length || bare.length
    ? [...kept, ...loose, ...pre, ...block, ...bare].sort((a, b) => a.start - b.start)
    : kept;
}

/** A line that is one counted reason and nothing else (`1 Insufficient smarter-devices/vchiq`). */
const COUNTED_LINE_RE = /^[ \t]*\d{1,6} (?:node\(s\) |Insufficient |Too many pods)[^,\n]*$/;

/** A line that is one NodeResourcesFit reason, without its count, and nothing else. */
const LINED_REASON_RE = /^(Insufficient [a-z0-9][\w./-]{0,252}|Too many pods)[ \t]*$/;
/** What opens a list of possible reasons rather than a report of them (LABELLING.md §2). */
const CATALOGUE_LEAD_RE =
  /\b(?:common|possible|typical|such as|e\.g\.|for example|examples?|causes?|reasons? (?:like|include)|might|may|can|could|like|includes?|look for|means?|if you see|when|if)\b/i;

/**
 * Lines holding only reasons, one a line and without their counts, under the writer's sentence that reports them
 * (`All of those failed with:` ⏎ `Insufficient smarter-devices/ttyACM0`; three resources "the events showed
 * together"; a code block's fences are gone in the normalized text): one list, counts and total unprinted. Not
 * where that sentence opens a list of what may happen.
 */
function linedReasons(text: string, covered: readonly SchedulerMatch[]): SchedulerMatch[] {
  const out: SchedulerMatch[] = [];
  let attempts = 0;
  for (let k = text.indexOf('\nInsufficient '); k >= 0 && attempts < 50; k = text.indexOf('\nInsufficient ', k + 1)) {
    attempts++;
    const start = k + 1;
    const before = text.slice(lineStart(text, k, 2048), k).trimEnd();
    if (before === '' || !/[:.\u3002\uff1a]$/.test(before) || CATALOGUE_LEAD_RE.test(before)) continue;
    const reasons: string[] = [];
    let end = start;
    for (let p = start; p < text.length && reasons.length < 10; ) {
      const e = lineEnd(text, p, 2048);
      const r = LINED_REASON_RE.exec(text.slice(p, e));
      if (!r) break;
      reasons.push(r[1]!);
      end = p + r[1]!.length;
      p = e + 1;
    }
    if (reasons.length === 0 || covered.some((c) => c.start < end && c.end > start)) continue;
    out.push({
      layer: 'scheduler',
      kind: 'unschedulable',
      facts: { total: null, reasons: reasons.map((reason) => ({ count: null, reason })) },
      message: text.slice(start, end),
      start,
      end,
    });
    k = end;
  }
  return out;
}
