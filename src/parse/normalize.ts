/**
 * Undo the noise people add around Kubernetes messages before any parser looks at them, and glue back
 * messages that a terminal, a YAML emitter or a table border broke over several lines.
 *
 * Everything here is line-by-line and linear in the input: no regular expression has a nested
 * unbounded quantifier, and the join decision only looks at a bounded window around the break.
 */

import { MAX_MESSAGE } from './finding.ts';

/** A run of characters outside ASCII (`[^\0-\x7f]`, written as the range above it). */
const NON_ASCII_RUN_RE = /([\u0080-\uffff]+)/;

/** ASCII-only lower case: same length as the input, so offsets found in it are offsets in the input. */
export function lowerAscii(s: string): string {
  // Fast path: toLowerCase never shortens a string, and it only lengthens it for one character (U+0130
  // 'İ'); without that one every offset still lines up with the input.
  if (!s.includes('\u0130')) return s.toLowerCase();
  // Else only ASCII letters change: the runs between non-ASCII characters are lowered whole (far fewer
  // pieces than one replacement per upper-case run).
  const parts = s.split(NON_ASCII_RUN_RE);
  for (let i = 0; i < parts.length; i += 2) parts[i] = parts[i]!.toLowerCase();
  return parts.join('');
}

const ENTITY: Record<string, string> = {
  gt: '>',
  lt: '<',
  amp: '&',
  quot: '"',
  apos: "'",
  '#39': "'",
  '#x27': "'",
  '#34': '"',
};

/**
 * Phrases that begin or sit inside a message one of the layer parsers reads (lower case). A break that
 * leaves one of them open is continued on the next line; a join that creates one is a better match.
 */
export const ANCHORS = [
  'exceeded quota',
  'failed quota',
  'must specify',
  'status unknown for quota',
  'insufficient quota',
  'quota is',
  'limited by quota',
  'usage per',
  'ratio per',
  'is forbidden',
  'is invalid',
  'invalid value',
  'less than or equal',
  'less than orequal',
  'must be equal to',
  'must be set for non overcommitable',
  'nodes are available',
  'nodes available:',
  'nodes are unavailable',
  'no nodes available',
  'failed to fit',
  'fit failure',
  'failed to find fit',
  'preemption:',
  'insufficient ',
  'untolerated taint',
  "didn't tolerate",
  'oomkilled',
  'oom killed',
  'evicted',
  'low on resource',
  'exit code',
  'denied the request',
  'trigger scale-up',
  "quota '",
  'toomanyloadbalancers',
  'exceedsgpuquota',
  'memorypressure',
  'throttling',
  'create pod',
  'error creating',
  'filter plugin for pod',
  'has unbound immediate',
  'priorityclass with name',
  'must not be provided',
  'violates podsecurity',
  'violate podsecurity',
  'incompatible with nodepool',
  'admission webhook',
];

/** Any anchor, case-insensitively: one scan answers "is there an anchor at all?" (the usual answer is no). */
const ANCHOR_RE = new RegExp(ANCHORS.map((a) => a.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'i');

/** Every two- and three-character piece of an anchor: a join can only create an anchor across the break
 * if the characters meeting there occur together in some anchor (an O(1) filter before counting). */
const ANCHOR_GRAMS = new Set<string>();
for (const a of ANCHORS)
  for (let i = 0; i + 2 <= a.length; i++) {
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
    "incoming helpful scheduling unschedulable untolerated taint taints tolerate tolerated didn't match affinity " +
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

/**
 * A line that starts a new record: never the continuation of the line before it (an event's reason opening
 * its row, `NotTriggerScaleUp pod didn't …`, or a CamelCase word padded as a table column is one).
 */
const NEW_RECORD_RE =
  /^(?:\d+(?:\.\d+)?(?:ms|[smhd])\d*[smh]?\s|<unknown>\s|LAST SEEN|NAMESPACE\s|FirstSeen|Warning\s|Normal\s|Events:|Name:|Namespace:|Type\s+Reason|[$%#>]\s|[IWEF]\d{4}\s|\d{4}-\d\d-\d\d[T ]|time="|level=|kubectl\s|oc\s|k\s|helm\s|---|\.\.\.$|```|[-*+]\s|\d+\.\s|-->\s|\[[\w.-]{1,64}@[\w.-]{1,64}[ :][^\]\n]{0,120}\][#$%]|[\w.-]{1,64}@[\w.-]{1,64}:[^\s]{0,120}[#$%]\s|PS [A-Z]:\\|[\]})][\]})\s,;]*$|(?:FailedScheduling|NotTriggerScaleUp|TriggeredScaleUp|FailedCreate|SuccessfulCreate):?\s|[a-z0-9][a-z0-9.-]{0,252}[ \t]{2,}(?:Pending|Running|ContainerCreating|CrashLoopBackOff|Completed|Terminating|ImagePullBackOff|ErrImagePull|OOMKilled|Evicted)[ \t]|(?:[A-Z][a-z]+){2,4}[ \t]{2,}\S)/;

/** NEW_RECORD_RE at a given offset (`lastIndex`), for a line whose leading blanks are not cut off. */
const NEW_RECORD_STICKY_RE = new RegExp(NEW_RECORD_RE.source.replace(/^\^/, ''), 'y');

/** A YAML mapping key at the start of a line (`reason: FailedCreate`, `"message": …`). */
const _YAML_KEY_RE = /^(\s*)(?:-\s+)?["']?[A-Za-z_][\w.-]{0,80}["']?:(?:\s|$)/;

const WRAP_WIDTHS = new Set([80, 100, 120, 132, 140, 150, 160, 180, 200, 220, 240]);

/** A list item whose text starts with `_` (a rule of cleanLine's may read it as single emphasis). */
const LIST_UNDERSCORE_RE = /^\s*[-+]\s+_/;

/** Sixteen blanks: a run this long inside a line is padding a copy left where a terminal wrapped. */
const PAD = '                ';

/**
 * A word a terminal cut at its width, glued back by a copy with the next line's padding in between
 * (`1 Insufficient i<90 blanks>ntel.com/sriov-gpudevice`): the halves are one word when the left one is a
 * 1–3 letter stub after a blank that is no word of the messages (`no`, `of`, `to` stay apart). Table columns
 * are padded between whole words, so this looks only at stubs.
 */
function gluePadding(s: string): string {
  return s.replace(PAD_STUB_RE, (run, at: number) => {
    const a = tailWord(s, at);
    return a.length <= 3 && !vocab(a) ? '' : run;
  });
}

/** A 1–3 letter stub after a blank, a padding run, a lower-case letter (what gluePadding looks at). */
const PAD_WORD_RE = /[ \t][a-z]{1,3}[ \t]{16,}[a-z]/;
const PAD_STUB_RE = /(?<=[ \t][a-z]{1,3})[ \t]{16,}(?=[a-z])/g;

/**
 * A note someone typed after a line (`3 Insufficient cpu,     ← some nodes lack CPU`, `…  <- here`). Not a
 * `  # …` comment: a config file's comment is often where the message was kept (`default = 1  # Error: …`).
 */
const ARROW_RE = /\u2190|<-/;
const ANNOTATION_RE = /(?<=\S)[ \t]{2,}(?:\u2190|<-{1,2})[ \t].*$/;

/** ANSI colour and cursor codes (a terminal's, or their escaped spelling in a JSON log: `\u001b[31m`). */
const ESC = String.fromCharCode(27);
const BEL = String.fromCharCode(7);
const ANSI_RE = new RegExp(`${ESC}\\[[0-9;?]*[ -/]*[@-~]|${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)`, 'g');
/** A cheap first look for ESCAPED_ANSI_RE. */
const ESCAPED_ANSI_HINT_RE = /\\(?:u001|x1|033|e\[)/i;
const ESCAPED_ANSI_RE = /\\(?:u001[bB]|x1[bB]|033|e)\[[0-9;?]*[A-Za-z]/g;

/** A code fence at the start of a line, its optional info word, and whether text follows on the line. */
const FENCE_RE = /^\s*(?:```+|~~~+)(?:([A-Za-z][\w+-]*)(?=\s|$))?(\s*(?=\S)|\s*$)/;
const CODE_LANGS = new Set(
  (
    'text txt plain plaintext bash sh shell console terminal zsh fish powershell ps1 cmd bat yaml yml json jsonc ' +
    'log logs output none go golang python py js ts javascript typescript java ruby rb rust hcl tf xml html sql ' +
    'ini toml diff dockerfile makefile kotlin scala c cpp csharp cs php perl lua'
  ).split(' '),
);

/**
 * An inline code span holding a scheduler or autoscaler message (`` `2 node(s) had …` ``, `` `0/3 nodes are
 * available: 3 Insufficient cpu` ``, `` `pod didn't trigger scale-up: …` ``, a bare reason `` `Insufficient
 * amd.com/gpu` ``; no quote inside): its bounds stay
 * as double quotes, so that prose after it (`…\`, so I added a node`) is not read as the last reason.
 */
/** A cheap first look for CODE_REASON_RE: a backtick before a count or the autoscaler's words. */
const CODE_REASON_HINT_RE = /`(?:\d|[Pp]od d|NotT|Insufficient |node\(s\) |Too many pods)/;
const CODE_REASON_RE =
  /(?<!`)`((?:(?:\d{1,9} )?(?:Insufficient |node\(s\) |Too many pods)|\d{1,9} ?\/ ?\d{1,9} nodes (?:are )?available|(?:[Pp]od )?didn't trigger scale-up|NotTriggerScaleUp)[^`"\n]{0,2000})`(?!`)/g;

/** A code span opening a message at the end of its line (the text after a lone backtick). */
const CODE_OPEN_RE =
  /^`(?:\d{1,9} (?:Insufficient |node\(s\) )|\d{1,9} ?\/ ?\d{1,9} nodes (?:are )?available|(?:[Pp]od )?didn't trigger scale-up)[^`"]*$/;

/**
 * The backtick of `line` left without a pair (an odd count, no fence): the first one when it closes a span
 * opened above, the last when it opens one; else -1.
 */
function loneBacktick(line: string, closing: boolean): number {
  if (line.includes('``')) return -1;
  let n = 0;
  for (let i = line.indexOf('`'); i >= 0; i = line.indexOf('`', i + 1)) n++;
  if (n % 2 === 0) return -1;
  return closing ? line.indexOf('`') : line.lastIndexOf('`');
}

/**
 * A markdown table row (`| 0/3 nodes are available: 3 Insufficient cpu. |`, `| Warning | FailedScheduling | … |`)
 * without its closing border: the last cell's text ends at the line's end, as an unframed one would (the
 * border is no part of the message it holds). The opening border and the cells' separators stay.
 */
function tableRowEnd(line: string): string {
  const e = trimmedEnd(line);
  if (e < 3 || line.charCodeAt(e - 1) !== 124) return line;
  const b = indentOf(line);
  if (line.charCodeAt(b) !== 124 || b >= e - 1) return line;
  let k = e - 1;
  while (k > b && (line.charCodeAt(k - 1) === 32 || line.charCodeAt(k - 1) === 9)) k--;
  // `||` (an empty last cell) and a separator row (`|---|`) keep theirs.
  if (k === e - 1 || line.charCodeAt(k - 1) === 124 || line.charCodeAt(k - 1) === 45) return line;
  return line.slice(0, k);
}

/**
 * A JSON object's last member on the line a string (`{"message":"0/3 nodes are available: …"}`, a log line's
 * `…,"msg":"pods \"x\" is forbidden: …"}`): its value unquoted after its key, as YAML prints it, so that the
 * string's closing quote and the braces after it are not read as the end of the message's last part. Only a
 * value whose own quotes are all escaped (it is then the whole string) and that holds a blank (a sentence: a
 * name such as `"pod":"team-a/web-7c5d8"` stays a member other parsers read as one).
 */
const JSON_LAST_MEMBER_HINT_RE = /"[ \t]*\}[\s,\]}]*$/;
const JSON_LAST_MEMBER_RE = /"([A-Za-z_][\w.-]{0,40})"[ \t]*:[ \t]*"((?:[^"\\\n]|\\.)*)"[ \t]*\}[\s,\]}]*$/;

/** A list item that is one later part of a quota refusal: `- requested: pods=1`, `- used: …`, `- limited: …`. */
const QUOTA_PART_ITEM_RE =
  /^\s*[-*+]\s+(?:requested|used|limited):\s*[^\s=,]{1,253}=[^\s,]{1,64}(?:,[^\s=,]{1,253}=[^\s,]{1,64}){0,63}\s*$/;
/** A list item ending where a quota refusal goes on: after `exceeded quota: <name>`, or after its `requested:` or `used:` pairs. */
const QUOTA_PART_OPEN_RE =
  /(?:^|\s)[-*+]\s+(?:[^\n]{0,400}exceeded quota:\s*[a-z0-9][a-z0-9.-]{0,252}|[^\n]{0,600}(?:requested|used):\s*[^\s=,]{1,253}=[^\s,]{1,64}(?:,[^\s=,]{1,253}=[^\s,]{1,64}){0,63})\s*$/;

/**
 * A message split into adjacent string literals of source code, on one line or joined from two (Python's
 * `"… 1 Insufficient cpu, " "2 node(s) had …"`, JavaScript's `"…, " + "…"`, C++'s raw `R"(…, )" R"(…)"`): the quotes between the pieces
 * and what joins them are not the message's. Only on a line holding a message's anchor.
 */
const LITERAL_GAP_HINT_RE = /["'][ \t]*\+?[ \t]*R?["']/;
const LITERAL_GAP_RE =
  /(?<=[^"\\])\)"[ \t]*R"\(|(?<=[^"\\])"[ \t]*\+?[ \t]*"(?=[^\s",;)\]}])|(?<=: )'[ \t]*\+?[ \t]+"(?=[A-Za-z])/g;

function literalsJoined(line: string): string {
  if (!LITERAL_GAP_HINT_RE.test(line) || !ANCHOR_RE.test(line)) return line;
  return line.replace(LITERAL_GAP_RE, (gap) => (gap.length > 2 ? '' : gap));
}

/** Zero-width characters (a chat client's or a web page's, invisible in the paste): removed. */
const ZERO_WIDTH_RE = /[\u200b-\u200d\u2060\ufeff]/g;
/** No-break and figure spaces (rich-text copies put them before numbers): plain spaces. */
const HARD_SPACE_RE = /[\u00a0\u2007\u202f]/g;

/** What `mayNeedCleaning` does at an ASCII character: 1 a rule starts from it, 2 it may start a rule's pair. */
const CLEAN_CHAR = new Uint8Array(128);
for (const c of '<&>`~\\*\u001b') CLEAN_CHAR[c.charCodeAt(0)] = 1;
for (const c of "_'(xcr ") CLEAN_CHAR[c.charCodeAt(0)] = 2;

/**
 * Could some rule of `cleanLine` change `raw`? One pass over its characters: a character some rule starts
 * from (markup, entities, fences, escapes, box drawing, typographic quotes and blanks, `*`, ESC, `←`), a pair one does (`__`, `''`, `(x`), a line starting with `_`,
 * or the first letters of a longer trigger (`Error from server`, `(combined from similar events)`, a run of
 * sixteen blanks before a stub, PAD_WORD_RE), checked whole. A line holding a `'` or a `(` has always had
 * every rule applied, so a `- _…_` list item in single emphasis loses it then (and only then).
 */
function mayNeedCleaning(raw: string): boolean {
  let prev = 0;
  let lead = true;
  let spaces = 0;
  let quoteOrParen = false;
  let errorFrom = false;
  let combined = false;
  let pad = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 128) {
      const t = CLEAN_CHAR[c]!;
      if (t === 1) return true;
      if (t === 2) {
        if (c === 95) {
          // `_`: `__`, or a line starting with `_` after blanks.
          if (prev === 95 || lead) return true;
        } else if (c === 39) {
          if (prev === 39) return true;
          quoteOrParen = true;
        } else if (c === 40) quoteOrParen = true;
        else if (c === 120) {
          if (prev === 40) return true;
        } else if (c === 99) {
          if (prev === 40) combined = true;
        } else if (c === 114) {
          if (prev === 69) errorFrom = true;
        } else if (++spaces >= 16) pad = true;
      }
      if (c !== 32) spaces = 0;
    } else {
      if (
        (c >= 0x2500 && c <= 0x257f) ||
        c === 0xa0 ||
        c === 0x2007 ||
        (c >= 0x200b && c <= 0x200d) ||
        c === 0x2018 ||
        c === 0x2019 ||
        (c >= 0x201c && c <= 0x201e) ||
        c === 0x202f ||
        c === 0x2060 ||
        c === 0xfeff ||
        c === 0x2190 ||
        (c >= 0xff01 && c <= 0xff5e)
      )
        return true;
      spaces = 0;
    }
    if (lead && !isBlank(c)) lead = false;
    prev = c;
  }
  return (
    (errorFrom && raw.includes('Error from server')) ||
    (combined && raw.includes('(combined from similar events)')) ||
    (pad && PAD_WORD_RE.test(raw)) ||
    (quoteOrParen && LIST_UNDERSCORE_RE.test(raw))
  );
}

const FULLWIDTH_RE = /[\uff01-\uff5e]/;
const FULLWIDTH_ALL_RE = /[\uff01-\uff5e]/g;

function fullwidthToAscii(ch: string, at: number, s: string): string {
  const a = String.fromCharCode(ch.charCodeAt(0) - 0xfee0);
  // A parenthesis around CJK prose stays the prose's own.
  if ((a === '(' || a === '[') && (s.charCodeAt(at + 1) || 0) >= 0x2e80) return ch;
  if ((a === '(' || a === '[') && at > 0 && !/\s/.test(s[at - 1]!)) return ` ${a}`;
  if ((a === ',' || a === ':' || a === ';') && at + 1 < s.length && !/\s/.test(s[at + 1]!)) return `${a} `;
  return a;
}

/** Clean one physical line: quotes, entities, borders, fences, escapes, event-aggregation noise. */
export function cleanLine(raw: string): string {
  if (raw === '') return raw;
  // Most lines carry none of the characters any rule below looks for: one scan instead of a dozen.
  if (!mayNeedCleaning(raw)) return raw;
  let s = raw;
  // Fullwidth forms (a CJK page's `：`, `，`, `［…］` around a message): their ASCII letters and punctuation.
  // They are spaced as CJK text spaces them: an opening bracket after a word gets a blank before it (`}（注` is
  // prose after the taint), a comma or colon a blank after it.
  if (FULLWIDTH_RE.test(s)) s = s.replace(FULLWIDTH_ALL_RE, fullwidthToAscii);
  if (s.includes(ESC)) s = s.replace(ANSI_RE, '');
  if (s.includes('[') && s.includes('\\') && ESCAPED_ANSI_HINT_RE.test(s)) s = s.replace(ESCAPED_ANSI_RE, '');
  if (ARROW_RE.test(s)) s = s.replace(ANNOTATION_RE, '');
  if (s.includes(PAD) && PAD_WORD_RE.test(s)) s = gluePadding(s);
  if (/[\u00a0\u2007\u200b-\u200d\u2018\u2019\u201c-\u201e\u202f\u2060\ufeff]/.test(s)) {
    s = s.replace(ZERO_WIDTH_RE, '').replace(HARD_SPACE_RE, ' ');
    // Typographic quotes from a chat client's or an editor's autocorrect (`pods “web-0” is forbidden`,
    // `didn’t match`): the API server only ever prints straight ones.
    s = s.replace(/[\u201c\u201d\u201e]/g, '"').replace(/[\u2018\u2019]/g, "'");
  }
  // Issue trackers and chat exports keep some markup: `<code>`, `</pre>`, `<br>`.
  // A page copied as HTML (a highlighter's `<span class="token string">"x"</span>`, a table's `<td>`): the
  // elements' tags go, their text stays (`<pod>`, `<none>` are no HTML element and stay).
  if (s.includes('<'))
    s = s
      .replace(/<\/?(?:code|pre|br|p|tt|kbd|samp)\s?\/?>/gi, '')
      .replace(
        /<\/?(?:span|div|td|tr|th|tbody|thead|table|em|strong|b|i|a|font|mark|li|ul|ol)(?:\s[^<>]{0,300})?>/gi,
        '',
      );
  if (s.includes('&')) s = s.replace(/&(gt|lt|amp|quot|apos|#39|#x27|#34);/g, (_m, e: string) => ENTITY[e] ?? _m);
  // Slack and e-mail quoting: one or more leading `>` (after entity decoding `&gt;` is one too).
  if (s.includes('>')) s = s.replace(/^(?:[ \t]*>[ \t]?)+/, '');
  // k9s / box-drawing borders: a frame line disappears, a `│ text │` line keeps its text.
  if (/[\u2500-\u257f]/.test(s)) {
    if (/^[\s─━┌┐└┘├┤┬┴┼═╔╗╚╝╟╢╤╧│┃║]+$/.test(s) && /[─━┌┐└┘├┤┬┴┼═╔╗╚╝│┃║]/.test(s)) return '';
    s = s.replace(/^[ \t]*[│┃║][ \t]?/, '').replace(/[ \t]?[│┃║][ \t]*$/, '');
  }
  // Code fences and inline code: the text between backticks is what matters.
  if ((s.includes('```') || s.includes('~~~')) && /^\s*(?:```|~~~)/.test(s))
    // A word after the fence is its language only alone on the line or when it is a language name: Slack
    // puts the text right after the fence (```no nodes available to schedule pods.```).
    s = s.replace(FENCE_RE, (_m, lang: string | undefined, rest: string) =>
      lang === undefined || rest === '' || CODE_LANGS.has(lang.toLowerCase()) ? '' : `${lang}${rest}`,
    );
  // A scheduler reason list quoted in prose (`the event said \`1 Insufficient memory\` and …`): the span keeps
  // its bounds as double quotes, so that the words after it are not read as part of the last reason.
  if (s.includes('`')) {
    if (CODE_REASON_HINT_RE.test(s)) s = s.replace(CODE_REASON_RE, '"$1"');
    s = s.replace(/`+/g, '');
  }
  // Markdown emphasis around a message: `**0/3 nodes are available: 3 Insufficient memory.**`, `__…__`
  // (markers that open after a space or the line start and close before a space, punctuation or the line
  // end: `kube__x` stays), and a whole line in `*…*` or `_…_` (`requests.*`, `kube_pod_info` stay).
  // A bold unit followed by a colon (`**133 Insufficient memory**: the node …`) ends there: the
  // closing marker becomes a sentence end, so the prose after it is not read as part of the message.
  // Exactly two stars: `***` is a redaction (`pods "***"`), left alone.
  if (s.includes('**')) s = s.replace(/(?<=[^\s*])\*\*(?=:)/g, '. ').replace(/(?<!\*)\*\*(?!\*)/g, '');
  if (s.includes('__')) s = s.replace(/(^|[\s(])__+(?=\S)|(?<=\S)__+(?=$|[\s).,:;!?])/g, '$1');
  // A whole line in single emphasis (`*0/3 nodes are available: …*`, `_…_`): one anchored, linear match.
  if (s.includes('*') || s.includes('_')) {
    const e = /^(\s*(?:[-+]\s+)?)([*_])(?=[^\s*_])(.*[^\s*_])\2([.,:;!?]?\s*)$/.exec(s);
    if (e) s = `${e[1]}${e[3]}${e[4]}`;
  }
  // JSON / Go %q escaping: `\"` (any depth) is a quote; Go's encoder writes < > & as \u003c \u003e \u0026.
  if (s.includes('\\')) {
    s = s
      .replace(/\\+"/g, '"')
      // Python and shell single-quoted strings: `didn\'t match Pod\'s node affinity`.
      .replace(/\\+'/g, "'")
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
    // The envelope alone on its line (`Error from server (Forbidden):` ⏎ `minimum cpu usage …` ⏎ `minimum memory
    // usage …`) keeps its status: the lines under it are one refusal (LimitRanger's aggregate printed a line each).
    if (/^\s*Error from server \(Forbidden\):\s*$/.test(s)) return '(Forbidden):';
    s = s.replace(
      /Error from server(?: \([A-Za-z]{1,40}\))?:\s?(?:error when [a-z]{1,20} "[^"\n]{0,1000}":\s?|:\s)?/g,
      // Glued to the text before it (a page flattened without blanks: `…gpu=1Error from server …`): a blank stays.
      (_m, at: number) => (at > 0 && /[^\s"'`([{]/.test(s[at - 1]!) ? ' ' : ''),
    );
  }
  return s;
}

/** Last and first word around a break, for the cut-word test (character loops: no `…$` regex). */
function isWordChar(c: number, colon: boolean): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 39 ||
    c === 40 ||
    c === 41 ||
    c === 47 ||
    c === 46 ||
    c === 95 ||
    c === 45 ||
    (colon && c === 58)
  );
}
/** The word that ends at `end` of `s`. */
function tailWord(s: string, end: number): string {
  let i = end;
  while (i > 0 && end - i < 40 && isWordChar(s.charCodeAt(i - 1), false)) i--;
  return s.slice(i, end);
}
/** The word that starts at `start` of `s`. */
function headWord(s: string, start: number): string {
  let i = start;
  while (i < s.length && i - start < 40 && isWordChar(s.charCodeAt(i), true)) i++;
  return s.slice(start, i);
}

/** Anchors by the two-character pieces they contain. */
const ANCHORS_BY_GRAM = new Map<string, string[]>();
for (const a of ANCHORS) {
  for (let i = 0; i + 2 <= a.length; i++) {
    const g = a.slice(i, i + 2);
    const list = ANCHORS_BY_GRAM.get(g) ?? [];
    if (!list.includes(a)) list.push(a);
    ANCHORS_BY_GRAM.set(g, list);
  }
}

/**
 * `countAnchors(wa + wb) > countAnchors(wa + ' ' + wb)`, looking only at the anchors that can differ
 * between the two: an anchor found in one and not the other spans the junction, so it contains the
 * two characters that meet there (`c1 c2` glued, `c1 ' '` or `' ' c2` spaced).
 */
const JUNCTION_CANDIDATES = new Map<string, string[]>();

function gluingAddsAnchors(wa: string, wb: string, c1: string, c2: string): boolean {
  const glued = wa + wb;
  const spaced = `${wa} ${wb}`;
  const key = c1 + c2;
  let candidates = JUNCTION_CANDIDATES.get(key);
  if (!candidates) {
    candidates = [
      ...new Set([
        ...(ANCHORS_BY_GRAM.get(key) ?? []),
        ...(ANCHORS_BY_GRAM.get(`${c1} `) ?? []),
        ...(ANCHORS_BY_GRAM.get(` ${c2}`) ?? []),
      ]),
    ];
    JUNCTION_CANDIDATES.set(key, candidates);
  }
  let diff = 0;
  for (const a of candidates) diff += (glued.includes(a) ? 1 : 0) - (spaced.includes(a) ? 1 : 0);
  return diff > 0;
}

function countAnchors(lower: string): number {
  if (!ANCHOR_RE.test(lower)) return 0;
  let n = 0;
  for (const a of ANCHORS) if (lower.includes(a)) n++;
  return n;
}

function vocab(word: string): boolean {
  // Without its trailing `.,;:` (a loop: no `…$` regex on every word pair of the paste).
  let e = word.length;
  for (let c = word.charCodeAt(e - 1); c === 46 || c === 44 || c === 59 || c === 58; c = word.charCodeAt(e - 1)) e--;
  return VOCAB.has((e === word.length ? word : word.slice(0, e)).toLowerCase());
}

/**
 * Is the logical line `cur` in the middle of a message (so the next line continues it)? Only the last
 * 2 KB are looked at: every message we parse is shorter than that up to its open part.
 */
function isOpen(cur: string): boolean {
  const tail = cur.length > 2048 ? cur.slice(-2048) : cur;
  // Every open message below contains an anchor; most lines contain none.
  if (!ANCHOR_RE.test(tail)) return false;
  const lower = lowerAscii(tail);
  const t = tail.trimEnd();
  // Specific open messages first (a handful of scans), the generic anchor test only for open endings.
  const q = lower.lastIndexOf('exceeded quota');
  if (q >= 0 && lower.indexOf('limited:', q) < 0) return true;
  const open = lower.lastIndexOf('[');
  if (open >= 0 && lower.indexOf(']', open) < 0 && /usage per|ratio per|invalid value/.test(lower.slice(open)))
    return true;
  const n = lower.lastIndexOf('nodes are available:');
  if (n >= 0 && !/\.["'`]?$/.test(t)) return true;
  // Pod Security's control list broken inside a control's `(containers "a", "b" ⏎ must set …)` detail.
  const ps = lower.lastIndexOf('podsecurity "');
  if (ps >= 0 && unclosedParen(lower, ps)) return true;
  const u = lower.lastIndexOf('usage per');
  if (u >= 0 && !/ is \S/.test(lower.slice(u))) return true;
  // `memory max limit to request ratio per Container` ⏎ `is 10, but provided ratio is 96.000000`.
  const r = lower.lastIndexOf('ratio per');
  if (r >= 0 && !/ is \S/.test(lower.slice(r))) return true;
  // `must be less than or equal to cpu` ⏎ `limit of 1`: the resource is not the end of the rule.
  if (/must be (?:less|greater) than or ?equal to [a-z0-9./_-]{1,253}$/.test(lower.trimEnd())) return true;
  const endsOpen =
    /[:,;=([{/]$/.test(t) ||
    /(?:^|[\s[(])(?:is|but|of|to|per|and|for|no|had|has|didn't|match|requested|used|limited|maximum|minimum|must|specify|usage|with|name|was|in|than|or|equal|be|failed|exceeded)$/i.test(
      t.slice(-12),
    );
  return endsOpen;
}

/** Is a `(` after `from` of `s` left open at its end? */
function unclosedParen(s: string, from: number): boolean {
  let depth = 0;
  for (let i = from; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && depth > 0) depth--;
  }
  return depth > 0;
}

function isAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/** Indentation of a line that is a YAML mapping key (what YAML_KEY_RE matches), else -1; no allocation. */
function keyIndent(line: string, indent: number): number {
  let i = indent;
  if (line.charCodeAt(i) === 45) {
    // `- key:` (a list item that is a mapping)
    let j = i + 1;
    while (j < line.length && isBlank(line.charCodeAt(j))) j++;
    if (j === i + 1) return -1;
    i = j;
  }
  let c = line.charCodeAt(i);
  if (c === 34 || c === 39) c = line.charCodeAt(++i);
  if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) return -1;
  i++;
  let n = 0;
  while (i < line.length && n <= 80) {
    c = line.charCodeAt(i);
    if (isAlnum(c) || c === 95 || c === 46 || c === 45) {
      i++;
      n++;
    } else break;
  }
  if (n > 80) return -1;
  c = line.charCodeAt(i);
  if (c === 34 || c === 39) c = line.charCodeAt(++i);
  if (c !== 58) return -1;
  return i + 1 >= line.length || isBlank(line.charCodeAt(i + 1)) ? indent : -1;
}

const CODE_STATEMENT_RE =
  /^(?:[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:[ \t]*:=|[ \t]+[+\-*/]?=[ \t](?![=~]))|(?:const|let|var|return|func|def|assert|expect|raise|throw)[ \t(])/;

/**
 * How to join `cur` and `next`: '' (a word cut in two), ' ' (a message continued), or null (separate).
 * `nextIndent` is where `next` starts after its leading blanks; offsets are used instead of trimmed
 * copies because this runs once per line of the paste.
 */
function joinDecision(
  cur: string,
  next: string,
  indentOfStart: number,
  startIsKey: boolean,
  hardWrapped: boolean,
  nextKeyIndent: number,
  nextIndent: number,
): '' | ' ' | null {
  const te = trimmedEnd(cur);
  const hs = nextIndent;
  if (te === 0 || hs >= next.length) return null;
  NEW_RECORD_STICKY_RE.lastIndex = hs;
  if (NEW_RECORD_STICKY_RE.test(next)) return null;
  // A line that opens in another script than Latin (`Есть идеи, в чём дело?`, `原因が分かりません。`) is the writer's
  // prose: no Kubernetes message, which is ASCII but for the names it quotes, goes on with it.
  if (isOtherScript(next.charCodeAt(hs))) return null;
  // A question (`Any idea why?`, `¿Alguna idea?`): the writer's, after the message; none of the messages ends in one.
  if (next.charCodeAt(trimmedEnd(next) - 1) === 63) return null;
  if (hardWrapped) return '';
  // `… 2 Too many pods. ⏎ preemption: 0/2 nodes are available: …`: the PostFilter part of a FailedScheduling
  // message that a page or terminal put on the next line (it never starts a record of its own).
  if (next.startsWith('preemption:', hs) && preemptionOpen(cur)) return ' ';
  // The DRA plugin's PostFilter text before it (`still not schedulable, preemption: …`) starts no record either.
  const h0 = next.charCodeAt(hs);
  if (
    (h0 === 115 || h0 === 110) &&
    /^(?:still not schedulable|no new claims to deallocate), preemption:/.test(next.slice(hs, hs + 48)) &&
    preemptionOpen(cur)
  )
    return ' ';
  // A message broken before a part that never starts a line of its own: the envelope's `is forbidden:` /
  // `is invalid:` after the object's name, or a must-specify list's `for: <containers>`.
  if (
    (next.startsWith('is forbidden:', hs) || next.startsWith('is invalid:', hs)) &&
    cur.charCodeAt(trimmedEnd(cur) - 1) === 34
  )
    return ' ';
  if (next.startsWith('for: ', hs) && lowerAscii(cur.slice(-2048)).includes('must specify')) return ' ';
  // A must-specify list printed one resource a line (`failed quota: q: must specify limits.cpu for: c` ⏎
  // `must specify limits.memory for: c`): each line is the next resource of the same message.
  if (next.startsWith('must specify ', hs) && mustSpecifyOpen(cur)) return ' ';
  // The envelope broken between the resource and its object's name (`Error creating: pods` ⏎
  // `"x" is forbidden: …`): the quoted name never starts a record of its own.
  if (
    next.charCodeAt(hs) === 34 &&
    ENVELOPE_TAIL_RE.test(cur.slice(Math.max(0, te - 80), te)) &&
    ENVELOPE_HEAD_RE.test(next.slice(hs, hs + 300))
  )
    return ' ';
  if (fieldThenDetail(cur, next, hs)) return ' ';
  // Karpenter joins its NodePools with `; `; a page that puts each on its own line keeps one message.
  if (cur.charCodeAt(te - 1) === 59 && next.startsWith('incompatible with nodepool ', hs)) return ' ';
  // In YAML, a key at the indentation of the logical line's first key (or less) is a sibling, not a continuation
  // — unless the line ends where a message must go on (`… failed quota:` ⏎ `q: must specify …`, `requested:` ⏎
  // `used: …`): a `"pod.yaml": pods "x" is forbidden: …` line only looks like a quoted key.
  if (startIsKey && nextKeyIndent >= 0 && nextKeyIndent <= indentOfStart && !mustContinue(cur, next, hs)) return null;
  const endsWord = isAlnum(cur.charCodeAt(te - 1));
  const startsWord = isAlnum(next.charCodeAt(hs));
  // A wrap inside a quantity of an open quota or LimitRange list (`requests.cpu=15` ⏎ `00m, used: …`,
  // `limits.memory=7G` ⏎ `i, …`): a quantity never holds a blank, so the halves are one.
  if (
    endsWord &&
    QUANTITY_HEAD_RE.test(cur.slice(Math.max(0, te - 40), te)) &&
    QUANTITY_TAIL_RE.test(next.slice(hs, hs + 24)) &&
    isOpen(cur)
  )
    return '';
  if (endsWord && startsWord) {
    const a = tailWord(cur, te);
    const b = headWord(next, hs);
    const whole = a + b;
    if (vocab(whole) && !(vocab(a) && vocab(b))) return '';
    // Does gluing the two halves create an anchor that neither side had ("matches better")?
    const c1 = cur[te - 1]!.toLowerCase();
    const c2 = next[hs]!.toLowerCase();
    if (ANCHOR_GRAMS.has(c1 + c2)) {
      const wa = lowerAscii(cur.slice(Math.max(0, te - 40), te));
      const wb = lowerAscii(next.slice(hs, hs + 40));
      if (gluingAddsAnchors(wa, wb, c1, c2)) return '';
    }
  }
  if (cur.charCodeAt(te - 1) === 61 || next.charCodeAt(hs) === 61) return isOpen(cur) ? '' : null;
  // A statement of code (`client := k8sfake.NewClientset(`, `return err`) after a message held in a literal
  // starts anew: the message ended with its literal.
  if (CODE_STATEMENT_RE.test(next.slice(hs, hs + 80))) return null;
  // A webhook's denial cut mid-sentence (`denied the request: [must-have-limits] container` ⏎ `"app" has no …`):
  // its message goes on where the next line opens with a quote or in lower case.
  if (
    (next.charCodeAt(hs) === 34 || (next.charCodeAt(hs) >= 97 && next.charCodeAt(hs) <= 122)) &&
    !/[.!?]\s*$/.test(cur.slice(Math.max(0, te - 4), te)) &&
    cur.slice(-2048).includes('denied the request: ')
  )
    return ' ';
  if (isOpen(cur)) return ' ';
  // `e` + `xceeds`-style cuts where the first line is not (yet) recognisably a message.
  if (endsWord && startsWord && ANCHOR_GRAMS.has(`${cur[te - 1]!.toLowerCase()} ${next[hs]!.toLowerCase()}`)) {
    const wa = lowerAscii(cur.slice(Math.max(0, te - 60), te));
    const wb = lowerAscii(next.slice(hs, hs + 60));
    if (countAnchors(`${wa} ${wb}`) > countAnchors(wa) + countAnchors(wb)) return ' ';
  }
  return null;
}

/** `cur` is a string literal ending `: '` (a label then its quote) and `line` opens the next literal with that quote. */
function literalBreak(cur: string, line: string): boolean {
  // Offsets, not trimmed copies: this runs once per line of the paste.
  let e = cur.length;
  while (e > 0 && isBlank(cur.charCodeAt(e - 1))) e--;
  const quote = cur.charCodeAt(e - 1);
  if (quote !== 39 && quote !== 34) return false;
  if (cur.charCodeAt(e - 2) !== 32) return false;
  let b = 0;
  while (b < cur.length && isBlank(cur.charCodeAt(b))) b++;
  let h = 0;
  while (h < line.length && isBlank(line.charCodeAt(h))) h++;
  // The next literal may open with the other quote (Python: `'…violates PodSecurity "baseline:v1.31": '` ⏎
  // `"host namespaces (hostNetwork=true)"`, the other quote chosen because the text holds one).
  const next = line.charCodeAt(h);
  if (!((next === 39 || next === 34) && h + 1 < line.length)) return false;
  if (cur.charCodeAt(e - 3) === 58 && cur.charCodeAt(b) === quote) return true;
  // A literal cut mid-sentence, its blank kept before its quote (`'… exceeded quota: example-quota, '` ⏎
  // `"requested: count/secrets=1, …"`; `c('… denied the request: Your pods resources '` ⏎ `'utilization …')`):
  // where the line holds a message's anchor, the literal opens on it, and the next is no JSON key.
  const open = cur.lastIndexOf(String.fromCharCode(quote), e - 2);
  if (open < b || !/[\w,.;:]/.test(cur[e - 3] ?? '') || !ANCHOR_RE.test(cur)) return false;
  if (/^["'][\w.-]{1,63}["'][ \t]*:/.test(line.slice(h, h + 70))) return false;
  // The next literal may open with a quoted name (`'admission webhook '` ⏎ `'"validation.gatekeeper.sh" denied …'`).
  return /[A-Za-z0-9]/.test(line[h + 1] ?? '') || (line[h] === "'" && line[h + 1] === '"');
}

/**
 * Where a string literal closed before a `+` at the line's end ends (the offset of its closing quote), when the next
 * line opens a literal with the same quote and the line holds a message's anchor; 0 otherwise.
 */
function concatBreak(cur: string, line: string): number {
  let e = cur.length;
  while (e > 0 && isBlank(cur.charCodeAt(e - 1))) e--;
  if (cur.charCodeAt(e - 1) !== 43) return 0;
  e--;
  while (e > 0 && isBlank(cur.charCodeAt(e - 1))) e--;
  const quote = cur.charCodeAt(e - 1);
  if (quote !== 39 && quote !== 34) return 0;
  let h = 0;
  while (h < line.length && isBlank(line.charCodeAt(h))) h++;
  if (line.charCodeAt(h) !== quote || !ANCHOR_RE.test(cur)) return 0;
  return e - 1;
}

/** Does the line end in a must-specify message whose last resource was given its containers? (Its last 600 characters.) */
function mustSpecifyOpen(cur: string): boolean {
  const t = lowerAscii(cur.length > 600 ? cur.slice(-600) : cur);
  const i = t.lastIndexOf('must specify ');
  return i >= 0 && MUST_SPECIFY_FOR_RE.test(t.slice(i, i + 300));
}
const MUST_SPECIFY_FOR_RE = /^must specify [a-z0-9./_-]{1,253} for: /;
/** A line that ends with a plural resource word (`Error creating: pods`, `error: pods`). */
const ENVELOPE_TAIL_RE =
  /(?:^|[\s:])(?:pods|persistentvolumeclaims|services|replicationcontrollers|deployments(?:\.apps)?)$/;
/** A line that starts with the object's quoted name and the envelope's verb. */
const ENVELOPE_HEAD_RE = /^"[^"\n]{1,253}" is (?:forbidden|invalid):/;
/** The start of a quantity after `name=` at the end of a line (`=15`, `=7G`, `=1.5`). */
const QUANTITY_HEAD_RE = /[a-z]=\d{1,20}(?:\.\d{0,20})?[numkKMGTPE]?$/;
/** What may finish a quantity at the start of the next line: digits and/or its suffix, then its end. */
const QUANTITY_TAIL_RE = /^(?:\d{1,20}(?:\.\d{1,20})?(?:[numkMGTPE]|[KMGTPE]i)?|[numkMGTPE]|[KMGTPE]i|i)(?=[,;\]\s]|$)/;

/**
 * A break no message can end at: right after the label that introduces its next part (`failed quota:`,
 * `requested:`, `is forbidden:`), or before the `used:` / `limited:` part of an `exceeded quota` list.
 */
function mustContinue(cur: string, next: string, hs: number): boolean {
  const tail = lowerAscii(cur.slice(Math.max(0, cur.length - 40))).trimEnd();
  if (
    /(?:failed quota|exceeded quota|requested|used|limited|is forbidden|nodes are available|must specify):$/.test(tail)
  )
    return true;
  if (fieldThenDetail(cur, next, hs)) return true;
  // `exceeded quota: q,` ⏎ `requested: …` as well as `…, requested: …` ⏎ `used: …`.
  if (!/^(?:requested|used|limited):/i.test(next.slice(hs, hs + 12))) return false;
  const lower = lowerAscii(cur.length > 4096 ? cur.slice(-4096) : cur);
  const q = lower.lastIndexOf('exceeded quota');
  return q >= 0 && lower.indexOf('limited:', q) < 0;
}

/**
 * A field path alone on its line above its error (`spec.containers[0].resources.requests:` ⏎
 * `Invalid value: "100m": must be …`): pkg/apis/core/validation (field.Error.Error) prints them as one
 * `field: detail` text, so the break is never the end of the message.
 */
function fieldThenDetail(cur: string, next: string, hs: number): boolean {
  // The first letter of one of the words below, either case (a cheap test before the expression).
  const c = next.charCodeAt(hs) | 32;
  if (c !== 105 && c !== 117 && c !== 114 && c !== 102 && c !== 100) return false;
  if (!/^(?:invalid|unsupported|required|forbidden|duplicate) value\b/i.test(next.slice(hs, hs + 20))) return false;
  return FIELD_END_RE.test(cur.slice(Math.max(0, trimmedEnd(cur) - 300), trimmedEnd(cur)));
}

/** The end of a line that is only a field path and its colon (`spec.template.spec.containers[1].resources.requests:`). */
const FIELD_END_RE = /(?:^|\s)[a-z][a-z0-9]*(?:\[\d{1,4}\])?(?:\.[a-z][a-z0-9-]*(?:\[\d{1,4}\])?){1,20}:$/i;

/** Does `cur` hold a FailedScheduling message whose preemption part has not come yet? */
function preemptionOpen(cur: string): boolean {
  const lower = lowerAscii(cur.length > 4096 ? cur.slice(-4096) : cur);
  const n = lower.lastIndexOf('nodes are available:');
  return n >= 0 && lower.indexOf('preemption:', n) < 0;
}

/**
 * A marker every line of a block carries: `# ` (a shell comment, as in a README's `# Error from server …`
 * output under a command), `// ` and ` * ` (code comments), `+` / `-` (a diff: `+     pods "x" is forbidden: …`).
 */
const MARKER_RE = /^[ \t]*(?:#+|\/\/+|\*(?=[ \t])|\+|-(?=[ \t]))[ \t]?/;

/** The marker `line` starts with (MARKER_RE), or '' (no allocation for the usual line without one). */
function markerOf(line: string, indent: number): string {
  const c = line.charCodeAt(indent);
  if (c !== 35 && c !== 47 && c !== 42 && c !== 43 && c !== 45) return '';
  const m = MARKER_RE.exec(line);
  // `-` alone before the text is a list item, `--`/`---` a rule: only `+`, `#`, `//`, ` * ` or a `-` diff
  // line (`-  ` + indented text) mark a block.
  if (!m) return '';
  const marker = m[0].trim();
  if (marker === '-' && !/^-[ \t]{2,}/.test(line.slice(indent))) return '';
  if (marker === '//' && line.charCodeAt(indent + 2) === 47 && line.charCodeAt(indent + 3) !== 32) return '';
  return m[0].replace(/[ \t]+$/, '');
}

/** `s.trimEnd().length` without the copy. */
function trimmedEnd(s: string): number {
  let e = s.length;
  while (e > 0 && isBlank(s.charCodeAt(e - 1))) e--;
  return e;
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

/** A character `\\s` matches (JavaScript's white space and line terminators). */
function isBlank(c: number): boolean {
  return (
    c === 32 ||
    c === 9 ||
    c === 10 ||
    c === 11 ||
    c === 12 ||
    c === 13 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Length of the leading white space of `s` (what `/^\\s*\/` matches). */
function indentOf(s: string): number {
  let i = 0;
  while (i < s.length && isBlank(s.charCodeAt(i))) i++;
  return i;
}

/**
 * Where a record starts glued to the text before it, with no blank between (a page whose text was
 * extracted without its line breaks: `… but limit is 4Error: pods "x" is forbidden: …`, `… cpu limit of
 * 10mInvalid value: "256Mi": …`, `… untolerated taint(s)NotTriggerScaleUp pod didn't …`, `… cpu.19m   Warning
 * FailedScheduling …`): after a number (and its unit) or a closing bracket or period, an error envelope, a
 * field error, an event row or an event reason never continues what came before it.
 */
const GLUED_SCAN_RE =
  /Error: |Invalid value: |Warning {2}|Normal {2}|NotTriggerScaleUp |FailedScheduling |FailedCreate |TriggeredScaleUp /g;
/** The rest of an event row's type: blanks, then its CamelCase reason. */
const EVENT_TYPE_RE = /(?:Warning|Normal) {2,}[A-Z][a-z]+[A-Z]/y;
/** An event row's age before its type (`19m`, `2m20s`, `<unknown>`), ending where the blanks before the type start. */
const AGE_BEFORE_RE = /(?:^|[^0-9A-Za-z<>])(\d{1,4}[smhd](?:\d{1,2}[smh])?|<unknown>)$/;

/** May a record start at `q` of `s` glued to what is before it: right after a number (and its unit) or `.)]}`? */
function gluedAt(s: string, q: number, afterNumber: boolean): boolean {
  if (q <= 0) return false;
  const c = s.charCodeAt(q - 1);
  if (c === 46 || c === 41 || c === 93 || c === 125) return true;
  if (!afterNumber) return false;
  for (let k = 1; k <= 3 && q - k >= 0; k++) {
    const d = s.charCodeAt(q - k);
    if (d >= 48 && d <= 57) return true;
    if (!((d >= 65 && d <= 90) || (d >= 97 && d <= 122))) return false;
  }
  return false;
}

/** Where `line` holds a glued record start (see above): the offsets to cut it at, in order. */
function gluedCuts(line: string): number[] {
  const cuts: number[] = [];
  GLUED_SCAN_RE.lastIndex = 0;
  for (let m = GLUED_SCAN_RE.exec(line); m !== null; m = GLUED_SCAN_RE.exec(line)) {
    let q = m.index;
    if (m[0].endsWith('  ')) {
      EVENT_TYPE_RE.lastIndex = q;
      if (!EVENT_TYPE_RE.test(line)) continue;
      // `Warning  Reason`: glued itself, or its row's age glued (`….19m   Warning  FailedCreate …`).
      if (!gluedAt(line, q, true)) {
        let b = q;
        while (b > 0 && line.charCodeAt(b - 1) === 32) b--;
        const age = q - b >= 2 ? AGE_BEFORE_RE.exec(line.slice(Math.max(0, b - 12), b)) : null;
        q = age ? b - age[1]!.length : -1;
        if (q < 0 || !gluedAt(line, q, false)) continue;
      }
    } else if (!gluedAt(line, q, true)) continue;
    if (q > (cuts[cuts.length - 1] ?? 0)) cuts.push(q);
  }
  return cuts;
}

/** A letter of a script a Kubernetes message never holds: Greek, Cyrillic, Hebrew, Arabic, Thai, Hangul, kana, CJK. */
function isOtherScript(c: number): boolean {
  return (
    (c >= 0x0370 && c <= 0x052f) ||
    (c >= 0x0590 && c <= 0x06ff) ||
    (c >= 0x0e00 && c <= 0x0e7f) ||
    (c >= 0x1100 && c <= 0x11ff) ||
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0x3400 && c <= 0x9fff) ||
    (c >= 0xac00 && c <= 0xd7af)
  );
}

/**
 * A sentence in another script after a message's own sentence end on its line (`… hostPath volumes. Есть идеи,
 * в чём дело?`, `… 3 Insufficient cpu. 原因が分かりません。`): the writer's prose, on a line of its own, so that
 * no list of the message (Pod Security's controls, a reason list) reads it as its last item.
 */
const PROSE_AFTER_RE =
  /(?<=[.!?][ \t]{1,4})(?=[\u0370-\u052f\u0590-\u06ff\u0e00-\u0e7f\u1100-\u11ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])/g;
/** A cheap first look for PROSE_AFTER_RE: a sentence end, a blank, then a character outside ASCII. */
const PROSE_AFTER_HINT_RE = /[.!?][ \t]{1,4}[^\0-\x7f]/;

/** A question after a sentence end at a line's end (`…, 4 Insufficient cpu. Any idea why?`): the writer's, not the message's. */
const QUESTION_AFTER_RE = /(?<=[.!][ \t]{1,4})(?=[A-Z\u00bf][^.!?\n]{0,160}\?[ \t]*$)/;
const QUESTION_HINT_RE = /\?[ \t]*$/;

/** The physical lines with every glued record start (gluedCuts) on a line of its own; `lines` itself when none is. */
function unglued(input: string, lines: string[]): string[] {
  // One look at the whole paste first: most hold neither (a cut is never at a line's start, so the paste's
  // cuts are its lines' cuts).
  const glued = gluedCuts(input).length > 0;
  const prose = PROSE_AFTER_HINT_RE.test(input);
  if (!glued && !prose && !input.includes('?')) return lines;
  let out: string[] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    let parts: string[] | undefined;
    if (glued) {
      const cuts = gluedCuts(l);
      if (cuts.length > 0) parts = [0, ...cuts].map((a, k) => l.slice(a, cuts[k]));
    }
    if (prose && PROSE_AFTER_HINT_RE.test(l)) parts = (parts ?? [l]).flatMap((p) => p.split(PROSE_AFTER_RE));
    if (QUESTION_HINT_RE.test(l)) {
      const last = parts ? parts[parts.length - 1]! : l;
      const q = last.search(QUESTION_AFTER_RE);
      if (q > 0) parts = [...(parts ? parts.slice(0, -1) : []), last.slice(0, q), last.slice(q)];
    }
    if (parts !== undefined && parts.length > 1) {
      out ??= lines.slice(0, i);
      out.push(...parts);
    } else out?.push(l);
  }
  return out ?? lines;
}

/**
 * Normalize a paste into logical lines (joined by "\n"): each message that was broken over several
 * physical lines becomes one line again.
 */
export function normalizePaste(input: string): string {
  return normalizeLines(input).text;
}

/**
 * Markdown's code span may run over a line break (`` `node(s) had taints that`` ⏎ ``the pod didn't tolerate`. ``):
 * a prose line that leaves one open (an odd count of backticks, no fence) and the next line that closes it are one
 * line. At most a few hundred joins a paste.
 */
function spansJoined(lines: string[]): string[] {
  let out: string[] | undefined;
  let joins = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (joins < 300 && i + 1 < lines.length && l.length < 400 && oddTicks(l) && oddTicks(lines[i + 1]!)) {
      out ??= lines.slice(0, i);
      // The next line's quote or comment marker is the block's, not the span's (`> …`, `/// …`, `# …`).
      const next = lines[i + 1]!.replace(/^[ \t]*(?:>[ \t>]*|#{1,6}[ \t]|\/{2,4}[ \t]?|\*[ \t]|--[ \t])?[ \t]*/, '');
      out.push(`${l.trimEnd()} ${next}`);
      i++;
      joins++;
      continue;
    }
    out?.push(l);
  }
  return out ?? lines;
}

/** A line with an odd number of single backticks and no fence. */
function oddTicks(l: string): boolean {
  if (!l.includes('`') || l.includes('```')) return false;
  let n = 0;
  for (let i = l.indexOf('`'); i >= 0; i = l.indexOf('`', i + 1)) n++;
  return n % 2 === 1;
}

/** A blank and a backslash ending a line, after text, and the next line's indentation. */
const CONTINUATION_RE = /([^\s\\])[ \t]+\\(?:\r\n|\r|\n)[ \t]*/g;

/**
 * `normalizePaste` and what it splits on the way, so that the callers need not split 1 MB again:
 * `lines` is `text.split('\n')` and `physical` the input's physical lines (`\r\n`, `\r` or `\n`).
 */
export function normalizeLines(input: string): { text: string; lines: string[]; physical: string[] } {
  const splitLines = (s: string): string[] => (s.includes('\r') ? s.split(/\r\n|\r|\n/) : s.split('\n'));
  let physical = splitLines(input);
  const asSplit = physical;
  const width = detectWrapWidth(physical);
  // A paste wrapped at a width has its wraps joined below, code spans and backslashes and all. Else a shell's line
  // continuation (` \` at a line's end: a terminal session wrapped by hand, `… "nginx-pod.yaml": \` ⏎ `pods "nginx" is
  // forbidden: …`) is one line, as the shell reads it, and so is a code span over a line break.
  if (width === undefined) {
    if (input.includes(' \\\n') || input.includes(' \\\r'))
      physical = splitLines(input.replace(CONTINUATION_RE, '$1 '));
    physical = spansJoined(physical);
  }
  const out: string[] = [];
  let cur = '';
  let curIndent = 0;
  let curIsKey = false;
  let prevRawLen = -1;
  // The line before: a line that starts as it did (its first 12 characters) is the next row, not its wrap.
  let prevRaw = '';
  // A paste no rule changed is its own normal form: no need to build it again (1 MB of YAML, say).
  const rows = unglued(input, physical);
  let changed = input.includes('\r') || rows !== physical || physical !== asSplit;
  // Lines left before an inline code span holding a message, opened on an earlier line, must close.
  let spanOpen = 0;
  for (const raw of rows) {
    let src = raw;
    if (raw.includes('`')) {
      // A message in a code span the text wrapped (`` `0/3 nodes are available: 2 `` ⏎ `` Insufficient cpu`, an
      // outage``): both of its backticks become quotes, as CODE_REASON_RE does on one line.
      const close = spanOpen > 0 ? loneBacktick(raw, true) : -1;
      const at = close >= 0 ? close : loneBacktick(raw, false);
      if (close >= 0) {
        src = `${raw.slice(0, at)}"${raw.slice(at + 1)}`;
        spanOpen = 0;
      } else if (at >= 0 && CODE_OPEN_RE.test(raw.slice(at))) {
        src = `${raw.slice(0, at)}"${raw.slice(at + 1)}`;
        spanOpen = 3;
      }
    } else if (spanOpen > 0) spanOpen = raw.trim() === '' ? 0 : spanOpen - 1;
    if (src.length < 4096 && src.includes('}') && JSON_LAST_MEMBER_HINT_RE.test(src))
      src = src.replace(JSON_LAST_MEMBER_RE, (m, key: string, value: string) =>
        value.includes(' ') ? `${key}: ${value}` : m,
      );
    const line = tableRowEnd(cleanLine(src));
    if (line !== raw) changed = true;
    const lineIndent = indentOf(line);
    const lineKey = keyIndent(line, lineIndent);
    if (cur === '') {
      cur = line;
      curIndent = lineIndent;
      curIsKey = lineKey >= 0;
      prevRawLen = raw.length;
      prevRaw = raw;
      continue;
    }
    // A message split into adjacent string literals of source code (Python's implicit concatenation,
    // `'…Invalid value: \\"500m\\": '` ⏎ `'must be greater than …'`): one literal broken after a label,
    // the next opening with the same quote, are one string.
    const q = literalBreak(cur, line);
    if (q && cur.length + line.length < MAX_MESSAGE) {
      cur = cur.trimEnd().slice(0, -1) + line.trimStart().slice(1);
      changed = true;
      prevRawLen = raw.length;
      prevRaw = raw;
      continue;
    }
    // A message concatenated over source lines (Go, Java, JavaScript: `"pod didn't trigger scale-up: …, " +` ⏎
    // `"2 node(s) had untolerated taint …"`): the literals are one string.
    const plus = concatBreak(cur, line);
    if (plus > 0 && cur.length + line.length < MAX_MESSAGE) {
      cur = cur.slice(0, plus) + line.trimStart().slice(1);
      changed = true;
      prevRawLen = raw.length;
      prevRaw = raw;
      continue;
    }
    // A quota refusal split into list items, one part each (`- exceeded quota: q` ⏎ `- requested: pods=1` ⏎
    // `- used: pods=3` ⏎ `- limited: pods=3`): the parts are one message again, joined the way the API server
    // prints them (plugin/pkg/admission/resourcequota: `exceeded quota: %s, requested: %s, used: %s, limited: %s`).
    if (
      line.includes('ed:') &&
      QUOTA_PART_ITEM_RE.test(line) &&
      QUOTA_PART_OPEN_RE.test(cur) &&
      cur.length + line.length < MAX_MESSAGE
    ) {
      cur = `${cur.trimEnd()}, ${line.replace(/^\s*[-*+]\s+/, '').trim()}`;
      changed = true;
      prevRawLen = raw.length;
      prevRaw = raw;
      continue;
    }
    const hardWrapped =
      width !== undefined &&
      prevRawLen === width &&
      raw.length > 0 &&
      // A terminal cuts wherever its width falls, before a blank too (`… 0/254` ⏎ ` nodes are available: …`): one
      // blank, not an indentation, may open the rest.
      !/^(?:\s\s|\t)|^\s$/.test(raw) &&
      !(raw.length >= 12 && raw.startsWith(prevRaw.slice(0, 12)));
    // Output pasted as shell comments (`# pods "x" is forbidden: failed quota: ⏎ # q: must specify …`), code
    // comments or a diff: a marked line continues a marked message as an unmarked one would, its marker off.
    const marker = markerOf(line, lineIndent);
    const marked = marker !== '' && markerOf(cur, curIndent) === marker;
    let d =
      cur.length + line.length < MAX_MESSAGE && !marked
        ? joinDecision(cur, line, curIndent, curIsKey, hardWrapped, lineKey, lineIndent)
        : null;
    if (marked && cur.length + line.length < MAX_MESSAGE) {
      const body = line.replace(MARKER_RE, '');
      const bodyIndent = indentOf(body);
      d = joinDecision(cur, body, curIndent, curIsKey, false, keyIndent(body, bodyIndent), bodyIndent);
      if (d !== null) {
        changed = true;
        cur = d === '' ? cur.trimEnd() + body.trimStart() : `${cur.trimEnd()} ${body.trimStart()}`;
        prevRawLen = raw.length;
        prevRaw = raw;
        continue;
      }
    }
    if (d === null) {
      out.push(cur);
      cur = line;
      curIndent = lineIndent;
      curIsKey = lineKey >= 0;
    } else if (d === '') {
      changed = true;
      cur = hardWrapped ? cur + line : cur.trimEnd() + line.trimStart();
    } else {
      changed = true;
      cur = `${cur.trimEnd()} ${line.trimStart()}`;
    }
    prevRawLen = raw.length;
    prevRaw = raw;
  }
  out.push(cur);
  for (let i = 0; i < out.length; i++) {
    const joined = literalsJoined(out[i]!);
    if (joined !== out[i]) {
      out[i] = joined;
      changed = true;
    }
  }
  // Unchanged, the input has no carriage return and its lines are the physical ones (`out` drops
  // empty lines, which only a change rebuilds the text without).
  return changed ? { text: out.join('\n'), lines: out, physical } : { text: input, lines: physical, physical };
}
