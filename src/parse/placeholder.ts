/**
 * A message written as a template: where the API server prints a quantity, the text holds a placeholder
 * (`maximum cpu usage per Pod is X, but limit is Y`, `requested: cpu=N`, `<limit>`, `xxx`). Docs and runbooks
 * list messages that way ("messages like: …"); such a text reports nothing.
 *
 * Only the quantities the server itself prints are read this way: a LimitRange's bound and the object's value,
 * a quota's requested, used and limited. A validation error's value is the user's own (`Invalid value: "2Gb"`),
 * so only an angle-bracketed name counts there.
 */
import { factRecord, type Match } from './finding.ts';
import { lineEnd } from './scan.ts';

/** A printed quantity starts with a digit, a sign or a dot; a placeholder with a letter or a bracket. */
const SERVER_PLACEHOLDER_RE = /^(?:[A-Za-z_][A-Za-z_-]*|<[^<>]{1,40}>|\[[^[\]]{1,40}\]|\{.*)$/;

/** `… but provided ratio is X`, `… per Pod is N.`: a lone capital where the server prints a number. */
const LONE_LETTER_RE = /\b(?:is|of|ratio is)[ \t]+[A-Z](?=$|[\s`'".,;)\]])/;
const USER_PLACEHOLDER_RE = /^<[^<>]{1,40}>$/;

const RUNTIME_PLACEHOLDER_RE =
  /\b(?:limit|quantity:|available:|using|request is|limit of containers|victim process:)[ \t]+\\?["'`]?(?:\[[a-z_ -]{1,30}\]|<[a-z_ -]{1,30}>|(?:\.\.\.|\u2026)(?=["'`\s]|$))/i;

const SCHED_PLACEHOLDER_RE =
  /\b0\/(?:<[^<>\s]{1,20}>|[NMXn])\s+nodes?\b|available:[ \t]+(?:\.\.\.|\u2026)[ \t]+(?:node\(s\)|Insufficient )|(?:^|[\s:,(])(?:<[^<>\s]{1,20}>|[NMX]) (?:node\(s\)|Insufficient |nodes? (?:had|didn't|were|are))/;

function isPlaceholder(v: unknown, re: RegExp): boolean {
  return typeof v === 'string' && re.test(v.trim());
}

/** Whether a match's printed quantities are placeholders: the text is a template of the message. */
export function placeholderQuantities(m: Match, text: string): boolean {
  const facts = factRecord(m);
  switch (m.kind) {
    case 'limitrange': {
      const violations = facts.violations as Array<Record<string, unknown>> | undefined;
      return (
        (violations ?? []).some(
          (v) => isPlaceholder(v.limit, SERVER_PLACEHOLDER_RE) || isPlaceholder(v.actual, SERVER_PLACEHOLDER_RE),
        ) || LONE_LETTER_RE.test(text.slice(m.start, Math.min(m.end + 48, lineEnd(text, m.end))))
      );
    }
    case 'cloud-quota':
      // `Quota 'CPUS' exceeded. Limit: X in region …`: the provider prints the limit as a number.
      return /\blimit:?[ \t]+(?:[A-Z]|<[^<>]{1,30}>|\{[^{}]{0,30}\})(?=$|[\s`'".,;)])/i.test(
        text.slice(m.start, Math.min(m.end + 60, lineEnd(text, m.end))),
      );
    case 'quota-exceeded': {
      const resources = facts.resources as Record<string, Record<string, unknown>> | undefined;
      return Object.values(resources ?? {}).some((r) =>
        ['requested', 'used', 'limited'].some((k) => isPlaceholder(r[k], SERVER_PLACEHOLDER_RE)),
      );
    }
    case 'api-validation':
      return isPlaceholder(facts.value, USER_PLACEHOLDER_RE) || isPlaceholder(facts.limit, USER_PLACEHOLDER_RE);
    case 'runtime':
      // `exceeded its local ephemeral storage limit "[some_size]"`, `Threshold quantity: <q>`, `Container <c> was
      // using <n>`: where the kubelet prints a quantity, a name in brackets.
      return RUNTIME_PLACEHOLDER_RE.test(text.slice(m.start, Math.min(text.length, m.end + 200, lineEnd(text, m.end))));
    case 'unschedulable':
      // `0/<nodes> nodes are available: <n> Insufficient memory`, `N node(s) had untolerated taint`: a count the
      // scheduler prints as a number.
      return SCHED_PLACEHOLDER_RE.test(text.slice(Math.max(0, m.start - 12), Math.min(text.length, m.end)));
    default:
      return false;
  }
}

/**
 * Words right before a message that make it a search pattern or a comparison, not a report: `grep "…"`,
 * `grep -E "OOMKilled|Evicted"`, `strings.Contains(msg, "…")`, `.includes('…')`, `re.search(r"…"`, `=~ /…/`,
 * `reason == "OOMKilled"`, `case "OOMKilled":`, a metric's label matcher (`kube_pod_status_reason{reason="Evicted"}`).
 */
const PATTERN_BEFORE_RE =
  /(?:\b(?:e?grep|rg|ag|findstr|select-string|awk)(?:\s+-{1,2}[\w-]+(?:[= ][\w,]+)?)*\s+|\b(?:contains|includes|match(?:es|string)?|search|test|indexof|has(?:prefix|suffix)|startswith|endswith|containsstring|containssubstring|equalfold|find(?:all)?|count|index|replace(?:all)?|split)\s*\((?:[^()"'`]{0,40},\s*)?r?|[=!]~\s*|[=!]==?\s*|\bcase\s+|\b(?:assert_?equals?|assert\.equal|assertequals?|tobe|toequal|equal)\s*\(?\s*|\bin\s+\[?\s*|\b[a-z_][a-z0-9_:]*\{(?:[a-z_]\w*=~?"[^"{}]*",\s*)*[a-z_]\w*=~?)["'`/]$/i;

/**
 * Advice that names what to look for (`Check for Insufficient cpu`, `messages like "exceeded quota"`). A symptom
 * listed as seen (`Describe pod errors such as: \`node(s) had volume node affinity conflict\``) is a report.
 */
const ADVICE_BEFORE_RE =
  /\b(?:check(?:ing)? for|look(?:ing)? (?:out )?for|watch (?:out )?for|search(?:ing)? for|grep(?:ping)? for|filter(?:ing)? (?:on|for|by)|(?:errors?|messages?) like):?\s*["'`*]*$/i;

const ALTERNATIVES_RE = /(?:[^"'`|\s][^"'`|]{0,60}\|)+$/;

const BARE_KINDS = new Set([
  'unschedulable',
  'runtime',
  'quota-exceeded',
  'quota-must-specify',
  'quota-status-unknown',
]);

/** A reason or a clause without numbers: for a runtime finding, one whose facts are its reason alone. */
export function bare(m: Match, text: string): boolean {
  // A name written as a placeholder (`prometheus-xxx`, `<pod>`) names no object.
  if (!BARE_KINDS.has(m.kind) || (m.object?.name && !/x{3,}|[<*]/i.test(m.object.name))) return false;
  const facts = factRecord(m);
  if (m.layer === 'runtime') return Object.keys(facts).every((k) => k === 'reason');
  if (m.layer === 'quota') {
    const resources = facts.resources as Record<string, unknown> | unknown[] | undefined;
    const named = Array.isArray(resources)
      ? false
      : Object.values(resources ?? {}).some((v) => (Array.isArray(v) ? v.length > 0 : true));
    if (facts.quota !== null || named) return false;
  }
  return !/\d/.test(text.slice(m.start, m.end));
}

/**
 * Whether the message sits in a search pattern or a comparison (see PATTERN_BEFORE_RE). Only a bare one: a reason
 * or a clause without numbers (`"Insufficient cpu"`, `"OOMKilled"`, `"must specify limits.cpu"`). A whole message
 * with its numbers and names in a test's assertion (`strings.Contains(out.Message, "maximum storage usage per
 * PersistentVolumeClaim is 2Gi, but request is 3Gi")`) is one the test saw printed.
 */
export function searchedFor(m: Match, text: string): boolean {
  if (m.kind === 'cloud-quota') return listedCode(m, text);
  if (!bare(m, text)) return false;
  const from = Math.max(0, m.start - 80);
  let ls = text.lastIndexOf('\n', m.start - 1) + 1;
  if (ls < from) ls = from;
  // An alternative of a pattern (`grep -E "OOMKilled|Evicted"`) is searched for as the first one is.
  const before = text.slice(ls, m.start).replace(ALTERNATIVES_RE, '');
  return (
    PATTERN_BEFORE_RE.test(before) ||
    ADVICE_BEFORE_RE.test(before) ||
    listedName(m, text, before) ||
    declaredFragment(m, text, before) ||
    metadataValue(text, ls, before)
  );
}

/**
 * A reason's name quoted alone as an element of a list or a map's key (`"Evicted": true, "NodeAffinity": true`,
 * `- "UnexpectedAdmissionError"`, `["OOMKilled", "Error"]`): code or config that lists names. A status prints the
 * name as a value (`reason: OOMKilled`, `"reason": "Evicted"`), never alone in quotes.
 */
const STATUS_NAME_RE =
  /["'](?:Evicted|OOMKilled|NodeAffinity|NodeLost|Shutdown|UnexpectedAdmissionError|TopologyAffinityError|CrashLoopBackOff|ImagePullBackOff|ErrImagePull|Error|Completed|ContainerCannotRun|DeadlineExceeded|OutOf[a-z][\w./-]*|Preempting|Terminated|Failed|Unknown|Pending|Running|Succeeded)["']/g;

function listedName(m: Match, text: string, before: string): boolean {
  if (m.layer !== 'runtime') return false;
  const q = before.at(-1);
  if (q !== '"' && q !== "'") return false;
  const word = /^[A-Za-z][A-Za-z0-9]{2,40}/.exec(text.slice(m.start, m.start + 42));
  if (!word || text[m.start + word[0].length] !== q) return false;
  const after = text.slice(m.start + word[0].length + 1, m.start + word[0].length + 4);
  if (!/^\s*(?:[:,\])}]|$)/.test(after) || !/(?:^\s*(?:-\s*)?|[,[{(]\s*)$/.test(before.slice(0, -1))) return false;
  // Among other quoted status names: a list of them. Alone among other keys it is a state's flag (docker
  // inspect's `"OOMKilled": true` next to `"Status": "exited"`).
  const around = text.slice(Math.max(0, m.start - 200), Math.min(text.length, m.start + 200));
  let names = 0;
  for (const _ of around.matchAll(STATUS_NAME_RE)) if (++names >= 2) return true;
  return false;
}

/** A page's own metadata keys (front matter, a catalogue entry's fields). */
const TITLE_KEY_RE = /^[ \t]*(?:-[ \t]+)?["']?(?:title|subtitle|slug|heading|headline)["']?[ \t]*:[^\n:]*$/i;
const META_KEY_RE =
  /^[ \t]*(?:-[ \t]+)?["']?(?:description|summary|error_message|error_text|symptom|keywords|question)["']?[ \t]*:[ \t]*["'`]?$/i;
const SIBLING_KEY_RE =
  /^[ \t]*["']?(?:title|category|categories|tags|severity|slug|date|author|weight|draft|recovery_time|k8s_versions|difficulty|layout)["']?[ \t]*:/im;

/**
 * A message as the value of a page's metadata: a title (`title: "Fix OOMKilled pods"`) or a field of an entry
 * whose other keys are metadata (`error_message: "node(s) exceed max volume count"` next to `title:`,
 * `category:`, `severity:`) names a kind of problem, not one that happened.
 */
function metadataValue(text: string, ls: number, before: string): boolean {
  if (TITLE_KEY_RE.test(before)) return true;
  if (!META_KEY_RE.test(before)) return false;
  const around = text.slice(Math.max(0, ls - 400), Math.min(text.length, ls + 400));
  return SIBLING_KEY_RE.test(around);
}

/**
 * A list of messages where one is a template (`- "… maximum cpu usage per Pod is X, but limit is Y"` under
 * "messages like:"): its other entries without numbers (`- "… is forbidden: exceeded quota"`) are the same
 * list's, written as kinds of messages, not reports. Entries are list items within three lines of the template.
 */
export function withoutTemplateSiblings(matches: Match[], templates: readonly number[], text: string): Match[] {
  const item = (k: number): number | undefined => {
    const ls = text.lastIndexOf('\n', k - 1) + 1;
    return /^[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t]/.test(text.slice(ls, ls + 12)) ? ls : undefined;
  };
  const candidates = templates.slice(0, 200).filter((t) => item(t) !== undefined);
  if (candidates.length === 0) return matches;
  // Line numbers by a binary search over the line starts, found once.
  const starts: number[] = [0];
  for (let p = text.indexOf('\n'); p >= 0; p = text.indexOf('\n', p + 1)) starts.push(p + 1);
  const lineNo = (k: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= k) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const listed = candidates.map(lineNo);
  if (listed.length === 0) return matches;
  return matches.filter((m) => {
    if (!bare(m, text) || item(m.start) === undefined) return true;
    const n = lineNo(m.start);
    return !listed.some((t) => Math.abs(t - n) <= 3);
  });
}

/**
 * A header that introduces examples of messages in a document (`You'll see messages like:`, `# Common events:`,
 * `Example error messages:`), not the writer's own (`I get errors like:` is a report).
 */
const EXAMPLES_HEADER_RE =
  /(?:\b(?:common|typical|example|sample|possible)\s+(?:error\s+|warning\s+|failure\s+)?(?:events|errors|messages)|\b(?:common|typical|possible|frequent|known|likely)\s+(?:[\w-]+\s+){0,2}(?:causes|reasons|issues|problems|symptoms|failures)|\blook\s+for\s+(?:the\s+|an?\s+)?(?:events?|errors?|messages?|lines?|reasons?|output|entr(?:y|ies))(?:\s+like(?:\s+this)?)?|\byou(?:'|\u2019|\s+wi)ll\s+(?:see|get)\s+(?:messages|errors|events|something)(?:\s+like)?|\byou\s+(?:may|might|can|could)\s+see\s+(?:messages|errors|events)(?:\s+like)?)\.?\s*:\s*$/i;
const FIRST_PERSON_RE = /\b(?:i|we|my|our|i'm|i've|we're)\b/i;
/** A blank line, also inside a box drawn with `│` borders. */
const BLANK_RE = /^[ \t\u2502|]*$/;

/**
 * Findings in the block under such a header: from the first line after it that holds text (blanks and fences
 * skipped) to the next blank line, at most twelve lines.
 */
export function withoutExamples(matches: Match[], text: string): Match[] {
  const blocks: [number, number][] = [];
  let headers = 0;
  // Lines ending in a colon, found by the colons: a line is looked at whole only when it ends in one.
  for (let c = text.indexOf(':'); c >= 0 && headers < 50; c = text.indexOf(':', c + 1)) {
    let after = c + 1;
    // A header in a box drawn with `│` (a CLI's help panel) ends at the border.
    while (text[after] === ' ' || text[after] === '\t' || text[after] === '\u2502' || text[after] === '|') after++;
    if (after < text.length && text[after] !== '\n') continue;
    const ls = text.lastIndexOf('\n', c) + 1;
    if (c - ls > 200) continue;
    const line = text
      .slice(ls, c + 1)
      .replace(/^[ \t\u2502|]*(?:#+|\/\/|>|[-*])?[ \t]*/, '')
      .replace(/\*\*/g, '');
    if (!EXAMPLES_HEADER_RE.test(line) || FIRST_PERSON_RE.test(line)) continue;
    headers++;
    let p = after + 1;
    let lines = 0;
    // Blanks and fence lines right after the header.
    for (;;) {
      const e = text.indexOf('\n', p);
      const l = text.slice(p, e < 0 ? text.length : e);
      if (e < 0 || !(BLANK_RE.test(l) || /^[ \t]*(?:```|~~~)/.test(l)) || ++lines > 3) break;
      p = e + 1;
    }
    const start = p;
    lines = 0;
    while (p < text.length && lines < 12) {
      const e = text.indexOf('\n', p);
      const l = text.slice(p, e < 0 ? text.length : e);
      if (BLANK_RE.test(l)) break;
      lines++;
      p = e < 0 ? text.length : e + 1;
    }
    blocks.push([start, p]);
  }
  if (blocks.length === 0) return matches;
  return matches.filter((m) => !blocks.some(([a, b]) => m.start >= a && m.start < b));
}

/** `const errQuotaMessageString = \`exceeded quota:\``, `QUOTA_MSG = "must specify"`: a constant holding the words. */
const DECLARATION_BEFORE_RE =
  /^[ \t]*(?:(?:export|const|var|let|final|static|private|public|readonly)[ \t]+)*[A-Za-z_$][\w$.]*(?:[ \t]+[A-Za-z_]\w*)?[ \t]*(?::=|=)[ \t]*["'`]?$/;

/**
 * A bare message (no numbers, no names) that is a constant's whole value: a program keeps the words to match
 * them. The value ends its line (a closing quote, `;` or `,` at most after it).
 */
function declaredFragment(m: Match, text: string, before: string): boolean {
  if (!DECLARATION_BEFORE_RE.test(before)) return false;
  // A declaration (a keyword, `:=`, a name for words kept to match): an object's field set to a reason
  // (`status.reason = "OOMKilled"`) is a status being written.
  if (
    !/\b(?:const|var|let|final|static|readonly)\b|:=|(?:msg|message|string|str|pattern|text|substring|marker)["'`]?[ \t]*=/i.test(
      before,
    )
  )
    return false;
  let e = m.end;
  while (e < text.length && text[e] !== '\n' && e - m.end < 40) e++;
  return /^[^A-Za-z0-9]*$/.test(text.slice(m.end, e).replace(/[ \t]*(?:\/\/|#).*$/, ''));
}

/**
 * A cloud provider's error code named in a list of codes (`VcpuLimitExceeded, InstanceLimitExceeded,
 * InsufficientInstanceCapacity`): guidance naming codes, not an error returned.
 */
function listedCode(m: Match, text: string): boolean {
  const code = factRecord(m).quota;
  if (typeof code !== 'string' || !/^[A-Z][a-z]+(?:[A-Z][a-z]*)+$/.test(code)) return false;
  const ls = text.lastIndexOf('\n', m.start - 1) + 1;
  const at = text.indexOf(code, ls);
  if (at < 0 || at - ls > 2000) return false;
  const before = text.slice(Math.max(ls, at - 60), at);
  const after = text.slice(at + code.length, at + code.length + 60);
  return /[A-Z][a-z]+(?:[A-Z][a-z]*)+,[ \t]+$/.test(before) || /^,[ \t]+[A-Z][a-z]+(?:[A-Z][a-z]*)+\b/.test(after);
}
