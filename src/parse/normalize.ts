/**
 * Undo the noise people add around Kubernetes messages before any parser looks at them, and glue back
 * messages that a terminal, a YAML emitter or a table border broke over several lines.
 *
 * Everything here is line-by-line and linear in the input: no regular expression has a nested
 * unbounded quantifier, and the join decision only looks at a bounded window around the break.
 */

import { MAX_MESSAGE } from './finding.ts';

/** ASCII-only lower case: same length as the input, so offsets found in it are offsets in the input. */
export function lowerAscii(s: string): string {
  // Fast path: toLowerCase never shortens a string, and it only lengthens it for a few characters
  // (U+0130 'İ'); when the length is unchanged every offset still lines up with the input.
  const l = s.toLowerCase();
  return l.length === s.length ? l : s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

const ENTITY: Record<string, string> = { gt: '>', lt: '<', amp: '&', quot: '"', apos: "'", '#39': "'", '#x27': "'", '#34': '"' };

/**
 * Phrases that begin or sit inside a message one of the layer parsers reads (lower case). A break that
 * leaves one of them open is continued on the next line; a join that creates one is a better match.
 */
export const ANCHORS = [
  'exceeded quota', 'failed quota', 'must specify', 'status unknown for quota', 'insufficient quota',
  'quota is', 'limited by quota', 'usage per', 'ratio per', 'is forbidden', 'is invalid', 'invalid value',
  'less than or equal', 'less than orequal', 'must be equal to', 'must be set for non overcommitable',
  'nodes are available', 'nodes are unavailable', 'no nodes available', 'failed to fit', 'fit failure',
  'failed to find fit', 'preemption:', 'insufficient ', 'untolerated taint', "didn't tolerate", 'oomkilled',
  'oom killed', 'evicted', 'low on resource', 'exit code', 'denied the request', 'trigger scale-up',
  "quota '", 'toomanyloadbalancers', 'exceedsgpuquota', 'memorypressure', 'throttling',
  'create pod', 'error creating',
];

/** Every two- and three-character piece of an anchor: a join can only create an anchor across the break
 * if the characters meeting there occur together in some anchor (an O(1) filter before counting). */
const ANCHOR_GRAMS = new Set<string>();
for (const a of ANCHORS) for (let i = 0; i + 2 <= a.length; i++) {
  ANCHOR_GRAMS.add(a.slice(i, i + 2));
  if (i + 3 <= a.length) ANCHOR_GRAMS.add(a.slice(i, i + 3));
}

/**
 * Words of the messages above, for deciding whether `No p` + `reemption` is one word cut by a
 * terminal (join without a space) or two words (join with one).
 */
const VOCAB = new Set(
  (
    'exceeded exceeds exceeding quota quotas requested requesting request requests used usage limited limit limits ' +
    'forbidden must specify specified minimum maximum per container containers pod pods persistentvolumeclaim ' +
    'persistentvolumeclaims ratio provided nodes node available unavailable insufficient preemption victims found ' +
    'incoming helpful scheduling unschedulable untolerated taint taints tolerate tolerated didn\'t match affinity ' +
    'anti-affinity selector memory cpu ephemeral-storage storage services loadbalancers nodeports load balancer ' +
    'balancers evicted oomkilled pressure memorypressure diskpressure resource resources threshold quantity ' +
    'consumption larger condition unbound immediate volume volumes claims deallocate eligible terminating nominated ' +
    'allocatable topology spread constraints free ports policy status unknown scopes consume creating error server ' +
    'failed predicates following fit failure invalid value equal overcommitable replicationcontrollers ' +
    'replicasets deployments statefulsets secrets configmaps requests.cpu requests.memory limits.cpu ' +
    'limits.memory requests.storage requests.ephemeral-storage limits.ephemeral-storage count/pods ' +
    'persistentvolumeclaims services.loadbalancers services.nodeports nvidia.com/gpu deallocation plugin ' +
    'plugins satisfy schedule scheduler available: forbidden: quota: requested: used: limited: specify: ' +
    'preemption: is are the for of to and but no had have with which was were than cannot'
  ).split(' '),
);

/** A line that starts a new record: never the continuation of the line before it. */
const NEW_RECORD_RE =
  /^(?:\d+(?:\.\d+)?(?:ms|[smhd])\d*[smh]?\s|<unknown>\s|LAST SEEN|NAMESPACE\s|FirstSeen|Warning\s|Normal\s|Events:|Name:|Namespace:|Type\s+Reason|[$%#>]\s|[IWEF]\d{4}\s|\d{4}-\d\d-\d\d[T ]|time="|level=|kubectl\s|oc\s|k\s|helm\s|---|\.\.\.$|```|[-*+]\s|\d+\.\s)/;

/** A YAML mapping key at the start of a line (`reason: FailedCreate`, `"message": …`). */
const YAML_KEY_RE = /^(\s*)(?:-\s+)?["']?[A-Za-z_][\w.-]{0,80}["']?:(?:\s|$)/;

const WRAP_WIDTHS = new Set([80, 100, 120, 132, 140, 150, 160, 180, 200, 220, 240]);

/** Clean one physical line: quotes, entities, borders, fences, escapes, event-aggregation noise. */
export function cleanLine(raw: string): string {
  if (raw === '') return raw;
  let s = raw;
  // Issue trackers and chat exports keep some markup: `<code>`, `</pre>`, `<br>`.
  if (s.includes('<')) s = s.replace(/<\/?(?:code|pre|br|p|tt|kbd|samp)\s?\/?>/gi, '');
  if (s.includes('&')) s = s.replace(/&(gt|lt|amp|quot|apos|#39|#x27|#34);/g, (_m, e: string) => ENTITY[e] ?? _m);
  // Slack and e-mail quoting: one or more leading `>` (after entity decoding `&gt;` is one too).
  s = s.replace(/^(?:[ \t]*>[ \t]?)+/, '');
  // k9s / box-drawing borders: a frame line disappears, a `│ text │` line keeps its text.
  if (/^[\s─━┌┐└┘├┤┬┴┼═╔╗╚╝╟╢╤╧│┃║]+$/.test(s) && /[─━┌┐└┘├┤┬┴┼═╔╗╚╝│┃║]/.test(s)) return '';
  s = s.replace(/^[ \t]*[│┃║][ \t]?/, '').replace(/[ \t]?[│┃║][ \t]*$/, '');
  // Code fences and inline code: the text between backticks is what matters.
  if (/^\s*(?:```|~~~)/.test(s)) s = s.replace(/^\s*(?:```+|~~~+)(?:[A-Za-z][\w+-]*(?=\s|$))?\s*/, '');
  if (s.includes('`')) s = s.replace(/`+/g, '');
  // JSON / Go %q escaping: `\"` (any depth) is a quote; Go's encoder writes < > & as \u003c \u003e \u0026.
  if (s.includes('\\')) {
    s = s
      .replace(/\\+"/g, '"')
      .replace(/\\u003[cC]/g, '<')
      .replace(/\\u003[eE]/g, '>')
      .replace(/\\u0026/g, '&')
      .replace(/\\+n/g, ' ')
      .replace(/\\+t/g, ' ');
  }
  // YAML single-quoted scalars double the quote: `didn''t`.
  if (s.includes("''")) s = s.replace(/([A-Za-z])''([A-Za-z])/g, "$1'$2");
  // Event aggregation and kubectl decorations carry no information for the parsers.
  if (s.includes('(combined from similar events)')) s = s.replace(/\(combined from similar events\):\s*/g, '');
  if (s.includes(' over ')) s = s.replace(/\(x\d{1,9} over [^)\n]{1,24}\)/g, '');
  if (s.includes('Error from server')) {
    s = s.replace(/Error from server(?: \([A-Za-z]{1,40}\))?:\s?(?:error when [a-z]{1,20} "[^"\n]{0,1000}":\s?|:\s)?/g, '');
  }
  return s;
}

/** Last and first word around a break, for the cut-word test. */
function tailWord(s: string): string {
  const m = /[A-Za-z0-9'()/._-]{1,40}$/.exec(s.slice(-40));
  return m ? m[0] : '';
}
function headWord(s: string): string {
  const m = /^[A-Za-z0-9'()/._:-]{1,40}/.exec(s);
  return m ? m[0] : '';
}

function countAnchors(lower: string): number {
  let n = 0;
  for (const a of ANCHORS) if (lower.includes(a)) n++;
  return n;
}

function vocab(word: string): boolean {
  return VOCAB.has(word.toLowerCase().replace(/[.,;:]+$/, ''));
}

/**
 * Is the logical line `cur` in the middle of a message (so the next line continues it)? Only the last
 * 2 KB are looked at: every message we parse is shorter than that up to its open part.
 */
function isOpen(cur: string): boolean {
  const tail = cur.length > 2048 ? cur.slice(-2048) : cur;
  const lower = lowerAscii(tail);
  const t = tail.trimEnd();
  // Specific open messages first (a handful of scans), the generic anchor test only for open endings.
  const q = lower.lastIndexOf('exceeded quota');
  if (q >= 0 && lower.indexOf('limited:', q) < 0) return true;
  const open = lower.lastIndexOf('[');
  if (open >= 0 && lower.indexOf(']', open) < 0 && /usage per|ratio per|invalid value/.test(lower.slice(open))) return true;
  const n = lower.lastIndexOf('nodes are available:');
  if (n >= 0 && !/\.["'`]?$/.test(t)) return true;
  const u = lower.lastIndexOf('usage per');
  if (u >= 0 && !/ is \S/.test(lower.slice(u))) return true;
  const endsOpen = /[:,;=([{/]$/.test(t) || /(?:^|\s)(?:is|but|of|to|per|and|for|no|had|didn't|match|requested|used|limited)$/i.test(t.slice(-12));
  return endsOpen && countAnchors(lower) > 0;
}

/** How to join `cur` and `next`: '' (a word cut in two), ' ' (a message continued), or null (separate). */
function joinDecision(cur: string, next: string, indentOfStart: number, startIsKey: boolean, hardWrapped: boolean): '' | ' ' | null {
  const tail = cur.trimEnd();
  const head = next.trimStart();
  if (tail === '' || head === '') return null;
  if (NEW_RECORD_RE.test(head)) return null;
  if (hardWrapped) return '';
  // In YAML, a key at the indentation of the logical line's first key (or less) is a sibling, not a continuation.
  if (startIsKey) {
    const key = YAML_KEY_RE.exec(next);
    if (key && key[1]!.length <= indentOfStart) return null;
  }
  const endsWord = /[A-Za-z0-9]$/.test(tail);
  const startsWord = /^[A-Za-z0-9]/.test(head);
  if (endsWord && startsWord) {
    const a = tailWord(tail);
    const b = headWord(head);
    const whole = a + b;
    if (vocab(whole) && !(vocab(a) && vocab(b))) return '';
    // Does gluing the two halves create an anchor that neither side had ("matches better")?
    const c1 = tail[tail.length - 1]!.toLowerCase();
    const c2 = head[0]!.toLowerCase();
    if (ANCHOR_GRAMS.has(c1 + c2)) {
      const wa = lowerAscii(tail.slice(-40));
      const wb = lowerAscii(head.slice(0, 40));
      if (countAnchors(wa + wb) > countAnchors(`${wa} ${wb}`)) return '';
    }
  }
  if (/=$/.test(tail) || /^=/.test(head)) return isOpen(cur) ? '' : null;
  if (isOpen(cur)) return ' ';
  // `e` + `xceeds`-style cuts where the first line is not (yet) recognisably a message.
  if (endsWord && startsWord && ANCHOR_GRAMS.has(`${tail[tail.length - 1]!.toLowerCase()} ${head[0]!.toLowerCase()}`)) {
    const wa = lowerAscii(tail.slice(-60));
    const wb = lowerAscii(head.slice(0, 60));
    if (countAnchors(`${wa} ${wb}`) > countAnchors(wa) + countAnchors(wb)) return ' ';
  }
  return null;
}

/**
 * The width a terminal hard-wrapped the paste at, if it looks hard-wrapped: the longest line length,
 * when several lines share it or it is a common terminal width.
 */
function detectWrapWidth(lines: string[]): number | undefined {
  let max = 0;
  let count = 0;
  for (const l of lines) {
    if (l.length > max) {
      max = l.length;
      count = 1;
    } else if (l.length === max) count++;
  }
  if (max < 60) return undefined;
  if (WRAP_WIDTHS.has(max) || (count >= 2 && max >= 80)) return max;
  return undefined;
}

/**
 * Normalize a paste into logical lines (joined by "\n"): each message that was broken over several
 * physical lines becomes one line again.
 */
export function normalizePaste(input: string): string {
  const physical = input.split(/\r\n|\r|\n/);
  const width = detectWrapWidth(physical);
  const out: string[] = [];
  let cur = '';
  let curIndent = 0;
  let curIsKey = false;
  let prevRawLen = -1;
  for (const raw of physical) {
    const line = cleanLine(raw);
    if (cur === '') {
      cur = line;
      curIndent = /^\s*/.exec(line)![0].length;
      curIsKey = YAML_KEY_RE.test(line);
      prevRawLen = raw.length;
      continue;
    }
    const hardWrapped = width !== undefined && prevRawLen === width && raw.length > 0 && !/^\s/.test(raw);
    const d = cur.length + line.length < MAX_MESSAGE ? joinDecision(cur, line, curIndent, curIsKey, hardWrapped) : null;
    if (d === null) {
      out.push(cur);
      cur = line;
      curIndent = /^\s*/.exec(line)![0].length;
      curIsKey = YAML_KEY_RE.test(line);
    } else if (d === '') {
      cur = hardWrapped ? cur + line : cur.trimEnd() + line.trimStart();
    } else {
      cur = `${cur.trimEnd()} ${line.trimStart()}`;
    }
    prevRawLen = raw.length;
  }
  out.push(cur);
  return out.join('\n');
}
