/**
 * A message talked about rather than reported (test/fixtures/paste-wild/LABELLING.md §2): named in a conditional
 * sentence (`If the zone has no capacity, the pod is unschedulable with \`node(s) had volume node affinity
 * conflict\``), an entry of a list that maps messages to what to do (`- \`Insufficient google.com/tpu\` → another
 * job is using the node`), given as an example (`(e.g. "0/16 nodes are available: …")`), or under a lead saying what
 * a reader will or may see (`The event message will include something like:`, `If you get:`, `Example output:`).
 * A conditional sentence drops only a bare message (no numbers, no names); an example or a lead drops any (§2.1,
 * "whatever numbers it holds"), except the concrete run of a tutorial's step (§1: the lead right under the command it
 * runs, `you should see`, `Expected output:`, or a `You will get …:` over a message that names its object).
 */
import { factRecord, type Match } from './finding.ts';
import { bare } from './placeholder.ts';

/** The writer speaking of their own case (`If I describe the pod I get …` is a report). */
const FIRST_PERSON_RE = /\b(?:i|we|my|our|me|us|i'm|i've|we're|we've)\b/i;

/** A sentence that opens with a condition, in the languages the sets hold. */
const CONDITIONAL_OPEN_RE =
  /^(?:if|unless|otherwise|in case|should)\b|^(?:如果|若|假如|もし|만약)|^(?:wenn|falls|si|se|если|jeśli|jeżeli)\b/iu;

/**
 * A modal verb before the message in its sentence: what can or would happen (`VMs may fail to start with error
 * …`, `the pod will stay Pending with …`, `this would be unschedulable — …`).
 */
const MODAL_RE =
  /\b(?:may|might|could|would|can|will|should)(?:\s+(?:not|then|also|eventually|just|still|likely|probably|simply|never))*\s+(?:fail|be|stay|remain|see|get|show|report|end up|sit|hang|result|trigger|cause|crash|hit|exceed|run out)\b/i;

/** Where the sentence that holds `k` starts: after the last sentence end, a line a colon ends, a blank line or a list marker. */
function sentenceStart(text: string, k: number): number {
  const from = Math.max(0, k - 300);
  const window = text.slice(from, k);
  let start = 0;
  for (const m of window.matchAll(
    /[.!?。！？](?:\s|$)|[:：][ \t]*\n|\n[ \t]*\n|\n[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t]+|^[ \t]*[-*+>#][ \t]+/gu,
  ))
    start = m.index + m[0].length;
  return from + start;
}

/** Markdown and quote marks that may open a sentence (`**If** …`, `> If …`). */
const LEAD_RE = /^[\s>*_#-]*/;

/** The words that define a name (English, and a copula in the other languages the sets hold: là, est, ist, это). */
const DEFINES = String.raw`(?:(?:[a-z]+ly[ \t]+)?(?:means|indicates|refers to|signals|signifies|happens when|occurs when|is caused by)\b|is (?:a|the) (?:status|state|reason|signal|termination)\b|là[ \t]|est (?:un|une|le|la)\b|ist (?:ein|eine|der|die|das)\b|это[ \t])`;
/** `Exit code 137 typically means …`, `\`Evicted\` indicates …`: the words defined, right after them. */
const DEFINED_AFTER_RE = new RegExp(`^[\`*"'\u201d]{0,2}[ \t]+${DEFINES}`, 'iu');

const DEFINED_IN_RE = new RegExp(`^[^\n.;:]{1,32}?[ \t]+${DEFINES}`, 'iu');

/** A tool named as what shows the reason in general, right before it. */
const GENERAL_SHOWS_RE =
  /\b(?:kubernetes|kubectl|the kubelet|k8s)\s+(?:shows|displays|reports|prints|marks (?:it|the pod|the container) as)\s+["'`]?$/i;

/** The message inside a definition's sentence (`Exit code 137 typically means … it ran out of memory`). */
const DEFINING_BEFORE_RE =
  /\b(?:[a-z]+ly[ \t]+)?(?:means|indicates|signifies)[ \t]+(?:that[ \t]+)?(?:the|a|an|it|your)\b/i;

function conditional(m: Match, text: string): boolean {
  // The match may run to its line's end (`Exit code 137 typically means the process …`).
  if (DEFINED_AFTER_RE.test(text.slice(m.end, m.end + 60)) || DEFINED_IN_RE.test(text.slice(m.start, m.start + 48)))
    return true;
  const s = sentenceStart(text, m.start);
  // A runtime match in prose may span its line (`create pod that will trigger OOM and be killed by OOM killer`): the
  // words before its reason's own word are the ones that say what kind of sentence it is.
  let upTo = m.start;
  if (m.layer === 'runtime') {
    const w = /oom|kill|evict/i.exec(text.slice(m.start, Math.min(m.end, m.start + 300)));
    if (w) upTo = m.start + w.index;
  }
  const before = text.slice(s, upTo);
  if (FIRST_PERSON_RE.test(before)) return false;
  const sentence = before.replace(LEAD_RE, '');
  // A question about a case (`What to do if a pod keeps failing with OOMKilled (Exit Code 137)?`, a quiz's prompt).
  const rest = text.slice(m.start, Math.min(text.length, m.start + 200));
  const asked = /^[^.!?\n]*\?/.test(rest) && /(?:^|[\s,(])(?:if|если|wenn|falls|si|se)\s|如果|若/iu.test(before);
  // What a tool shows in general (`… shut down hard when Kubernetes shows OOMKilled`) and a question about a term
  // (`What Does OOMKilled Mean in Kubernetes Pods?`): the name, not a pod's state.
  const after = /^[^.!?\n]{0,160}/.exec(text.slice(upTo))![0];
  const named =
    (GENERAL_SHOWS_RE.test(before) && !FIRST_PERSON_RE.test(after)) ||
    (/\bwhat (?:does|do|is)\s+["'`]?$/i.test(before) &&
      /^[\w-]*["'`]?\s+mean\b/i.test(text.slice(upTo, upTo + 40).replace(/^[\w-]+/, '')));
  return (
    named ||
    asked ||
    CONDITIONAL_OPEN_RE.test(sentence) ||
    MODAL_RE.test(before) ||
    DEFINING_BEFORE_RE.test(before) ||
    USUALLY_CJK_RE.test(before)
  );
}

/** What is usually the case, in Chinese (`# → 通常是 "Insufficient aliyun.com/gpu-mem"`, `一般是 …`). */
const USUALLY_CJK_RE =
  /(?:通常|一般|往往|常常|大多|多半|多为|多為)(?:是|为|為|会|會|由)?[^。\n]{0,6}["'\u201c\u300c`]?[ \t]*$/u;

/** A list item that maps a quoted message to advice: `- \`…\` → fix`, `* "…" -> cause`, `- \`…\` => …`. */
const MAPPING_ITEM_RE =
  /^[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t]+(?:\*\*)?[`"'][^\n]{1,300}?[`"'](?:\*\*)?[ \t]*(?:→|->|=>|⇒)[ \t]*\S/;

/**
 * A line's text for the lead and heading tests, or a NUL for one longer than any lead (a 1 MB line is content: slicing
 * it for every match would copy the paste again and again).
 */
function shortLine(text: string, from: number, to: number): string {
  return to - from > 1000 ? '\u0000' : text.slice(from, to);
}

function lineAt(text: string, k: number): [number, number] {
  const ls = text.lastIndexOf('\n', k - 1) + 1;
  const e = text.indexOf('\n', k);
  return [ls, e < 0 ? text.length : e];
}

/** Whether the item at `ls` has a sibling of the same shape right above or below it. */
function mappingList(text: string, ls: number, le: number): boolean {
  if (!MAPPING_ITEM_RE.test(text.slice(ls, le))) return false;
  const prevEnd = ls - 1;
  if (prevEnd > 0) {
    const [ps] = lineAt(text, prevEnd);
    if (MAPPING_ITEM_RE.test(text.slice(ps, prevEnd))) return true;
  }
  if (le < text.length) {
    const [, ne] = lineAt(text, le + 1);
    if (MAPPING_ITEM_RE.test(text.slice(le + 1, ne))) return true;
  }
  return false;
}

/** What opens an example (`e.g.`, `for example`, `for instance`, `i.e.`). */
const EXAMPLE_WORDS = String.raw`(?:e\.\s?g\.|eg\.|for example|for instance|i\.\s?e\.)`;
/**
 * The same in the other languages the sets hold (no word boundary in CJK text). `类似` (like) only after a modal
 * (`会报类似“…”的事件`, it will report an event like …): a lived account says `出现了类似…的错误` too.
 */
const EXAMPLE_WORDS_CJK = String.raw`(?:(?:会|将|可能)[^，。,.\n]{0,12}?类似于?|例如|比如|诸如|譬如|例えば|예를 들어)`;
// `For example, the event "0/1 nodes are available: …" indicates …`: the kind of text named between.
const EXAMPLE_BEFORE_RE = new RegExp(
  `(?:\\b${EXAMPLE_WORDS}|${EXAMPLE_WORDS_CJK})[,:\uff0c\uff1a]?(?:[ \\t]+(?:the |an? |this )?(?:event|error|message|output|status|warning|log)s?[:,]?)?[ \\t]*["'\`*\u201c\u300c]{0,3}$`,
  'iu',
);
const EXAMPLE_PAREN_RE = new RegExp(`^\\([ \\t]*(?:${EXAMPLE_WORDS}|or\\b)`, 'i');

/**
 * A message given as an example (`the \`message\` field shows the condition (e.g. \`"The node was low on resource:
 * memory. …"\` or \`"Pod was rejected: …"\`)`, `for example: \`0/3 nodes are available: …\``): every message inside
 * a parenthesis that opens with `e.g.` or `Or`, or right after the words, numbers or not (LABELLING.md §2.1). Not where
 * the writer speaks of their own case.
 */
function example(m: Match, text: string): boolean {
  const from = Math.max(0, m.start - 300);
  const window = text.slice(from, m.start);
  const open = window.lastIndexOf('(');
  if (open >= 0 && !window.includes(')', open) && EXAMPLE_PAREN_RE.test(window.slice(open)))
    return !FIRST_PERSON_RE.test(window.slice(open));
  const s = sentenceStart(text, m.start);
  const before = text.slice(s, m.start);
  if (FIRST_PERSON_RE.test(before)) return false;
  // A lead in the message's own sentence (`The pod status will look like this: \`OutOfnvidia.com/gpu\``, `The
  // scheduler writes a \`FailedScheduling\` event with a reason: \`0/40 nodes …\``).
  return EXAMPLE_BEFORE_RE.test(before) || EXAMPLE_INLINE_RE.test(before) || WILL_GET_INLINE_RE.test(before);
}

/** `… as you will get the following error \`0/6 nodes are available: …\``: what a reader would get, in the sentence. */
const WILL_GET_INLINE_RE =
  /\b(?:will|would|may|might|could)[ \t]+(?:also[ \t]+)?(?:get|see|hit|receive|encounter|run into)[ \t]+(?:the following|this|these|an?|the)[ \t]+(?:errors?|messages?|events?|warnings?)[ \t]*:?[ \t]*["'`*\u201c]{0,3}$/i;

/**
 * A line that introduces what a reader will or may see (`The event message will include something like:`, `You will
 * see this on the pod's events:`, `Example output:`): guidance (LABELLING.md §2.1), whatever the message under it holds.
 */
/**
 * Leads that say what a message generally looks like or what a component generally writes (`The error typically looks
 * like this:`, `it looks slightly different:`, `The scheduler writes a \`FailedScheduling\` event with a reason:`),
 * also inside the message's own sentence. A bare `messages like:` is not one there: a lived summary says it too.
 */
const GENERAL_LEADS = String.raw`^[\s>*_#-]*(?:an?|any)[ \t][^:\n]{0,80}\b(?:fails?|looks?|reads?|appears?|is rejected|gets? rejected) like this|\bsomething like(?: this)?|\b(?:typically|usually|generally|normally|often|commonly|will|would) looks? (?:something |roughly )?like(?: this)?|\blooks? (?:slightly|a bit|a little|somewhat) different|\b(?:scheduler|kubelet|api ?server|kube-apiserver|controller|kubernetes) (?:writes|emits|generates|produces|raises|records) an? \b[^:\n]{0,80}`;
/** Leads that call what follows an example (`something like:`, `messages like:`, `Example output:`). */
const NAMED_LEADS = String.raw`${GENERAL_LEADS}|\bthe following (?:sample |example )?(?:output|example|snippet|logs?|events?) (?:depicts|shows|illustrates|demonstrates|says)\b[^:\n]{0,200}|[.!?][ \t]+(?:for )?examples?|\b(?:reports|shows|displays|records) (?:that|this|it) as|\b(?:messages?|errors?) like(?: this| these)?|^[\s>*_#-]*(?:typical |sample )?examples?(?: (?:output|errors?|messages?|events?))?`;
/** Leads that say what a reader will get (`If you get:`, `helm upgrade will fail with:`): a tutorial's run may be one. */
const STEP_LEADS = String.raw`^[\s>*_#-]*(?:if|when|whenever) you (?:see|get|encounter|hit|run into|receive)\b[^:\n]{0,80}|(?:\b(?:will|would|may|might|can|could)\b|'ll\b)[^:\n]{0,40}\b(?:see|show|include|get|print|report|display|fail with|encounter|hit|run into|receive)\b[^:\n]{0,120}`;
/** A tutorial's lead over the run its step shows (`you should see`, `Expected output:`). */
const TUTORIAL_RUN_RE = /\bshould see\b|\bexpected\b/i;
const EXAMPLE_NAMED_RE = new RegExp(`(?:${NAMED_LEADS})[ \t]*:`, 'i');
const EXAMPLE_INLINE_RE = new RegExp(`(?:${GENERAL_LEADS})[ \t]*:[ \t]*["'\`*\u201c]{0,3}$`, 'i');
const EXAMPLE_LEAD_RE = new RegExp(`(?:${NAMED_LEADS}|${STEP_LEADS})[ \t]*:[ \t]*$`, 'i');

/** `you might get an error message from the GKE service like :`, `you may see a warning:`: a reader's possibility. */
const MIGHT_GET_RE =
  /\b(?:might|may)[ \t]+(?:also[ \t]+|sometimes[ \t]+)?(?:get|see|encounter|hit|run into|receive|notice)\b[^:\n]{0,60}\b(?:errors?|messages?|warnings?|events?)\b/i;

const CJK_CONDITIONAL_LEAD_RE =
  /^[\s>*_#-]*(?:如果|若是|假如|倘若|もし|만약)[^\n]{0,80}[:：][ \t]*$|^[\s>*_#-]*[^\n]{0,80}(?:た|る|の)場合[ \t]*[はに]?[、,]?[ \t]*[:：]?[ \t]*$/u;
const CJK_LEAD_RE =
  /(?:会|會|将|將)(?:长|長|是)(?:这|這)(?:样|樣)子?[\s:：-]*$|^[\s>*_#-]*(?:假设|假設|假如)[^\n]{0,80}[:：-][ \t]*$|类似(?:于)?(?:以下|下面|如下)[^\n:：]{0,8}[:：][ \t]*$|類似(?:於)?(?:以下|下面|如下)[^\n:：]{0,8}[:：][ \t]*$/u;

const WILL_SEE_LEAD_RE =
  /^[\s>*_#-]*(?:(?:then |and )?you(?:'ll| will) (?:see|get)|(?:тогда |то )?вы (?:увидите|получите)|vous (?:verrez|obtiendrez)|(?:usted )?(?:verás|verá|obtendrás|obtendrá)|(?:você )?(?:verá|receberá)|sie (?:sehen|erhalten) (?:dann|nun)|(?:你|您)?(?:会|會|将|將)(?:会|會)?看到|(?:你|您)?(?:会|會|将|將)(?:会|會)?(?:得到|收到))[^\n.!?。]{0,60}[:：]?[ \t]*$/iu;

const CONDITIONAL_FOLLOWING_RE =
  /^[\s>*_#-]*(?:if|unless|whenever)\b[^\n]{0,200}\bthe following (?:errors?|messages?|events?|output|warnings?)[ \t]*[.:：]?[ \t]*$/i;
const SEARCHED_LEAD_RE =
  /\b(?:look(?:ing)? for|search(?:ing)? for|grep(?:ping)? for|match(?:es|ing)?|alert(?:s|ing)? on|watch(?:ing)? for)\b[^:\n]{0,60}\blike\b[^:\n]{0,12}:[ \t]*$/i;
const MODAL_IF_RE = /\b(?:should|must)\b[^:\n]{0,60}\bif\b[^:\n]{0,160}:[ \t]*$/i;
function modalIf(line: string): boolean {
  return MODAL_IF_RE.test(line) && !/[=!]=|[({;]/.test(line.replace(/`[^`\n]*`/g, ''));
}

const FAQ_AFTER_RE =
  /^[ \t>*_]*(?:this|it|that)[ \t]+(?:error[ \t]+)?(?:may|might|can|could|usually|typically|often|generally)[ \t]+(?:happen|occur|appear|show up|be caused|mean)\b/i;

/** The first line with text after the line that ends at `le` (blank lines skipped: at most `max` lines looked at). */
function nextLine(text: string, le: number, max = 3): string {
  let p = le + 1;
  for (let n = 0; n < max && p < text.length; n++) {
    const e = text.indexOf('\n', p);
    const line = shortLine(text, p, e < 0 ? text.length : e);
    if (line.trim() !== '') return line;
    if (e < 0) break;
    p = e + 1;
  }
  return '';
}

const MAY_HAPPEN_IN_RE =
  /[\w)][.]?["'`\u201d*]{0,3}[ \t]+(?:may|might|could)(?:[ \t]+(?:also|then|sometimes|eventually))?[ \t]+(?:occur|appear|happen|show up)\b/i;
const MAY_HAPPEN_AFTER_RE =
  /^[.\s]{0,2}["'`\u201d*]{0,3}[ \t]*\b(?:may|might|could|can|will|would)(?:[ \t]+(?:also|then|sometimes|eventually))?[ \t]+(?:occur|appear|happen|show up|be (?:shown|displayed|raised|returned|thrown|reported))\b/i;

/** A line with nothing but blanks or a comment or quote marker (`#`, `//`, `>`): a blank line of its block. */
const BARE_MARKER_RE = /^[ \t]*(?:#{1,6}|\/\/|>)?[ \t]*$/;

/** `or` between two examples (`Or, for memory:`). */
const BETWEEN_RE = /^[ \t]*(?:or|and)\b[^\n.]{0,40}:?[ \t]*$/i;

/**
 * Is the line at `ls` under an example lead, over other example lines (messages, `or`) at most a few lines up?
 * `example` for a lead that names examples (`something like:`, `messages like:`, `Example output:`), `step` for one
 * that says what a reader will get (`You will get Error:`), which a tutorial's concrete run may be.
 */
function underExampleLead(
  text: string,
  ls: number,
  messageLines: ReadonlySet<number>,
): 'conditional' | 'example' | 'step' | undefined {
  let end = ls - 1;
  let command = false;
  for (let n = 0; n < 8 && end > 0; n++) {
    const [ps] = lineAt(text, end);
    const line = shortLine(text, ps, end);
    if (
      BARE_MARKER_RE.test(line) ||
      BETWEEN_RE.test(line) ||
      // An elision between the examples (`...`).
      /^[ \t>]*(?:\.{3,}|…)[ \t]*$/.test(line) ||
      messageLines.has(ps) ||
      TABLE_HEAD_RE.test(line) ||
      // The run's own label (`# Output:`, `Result:`) under the command it ran.
      /^[ \t#>*_]*(?:output|result|response)s?[ \t*_]*:[ \t]*$/i.test(line) ||
      // The message's own head on the line above it (`Error: UPGRADE FAILED: cannot patch "x" with kind StatefulSet:`).
      /^[ \t#>]*(?:Error|error|ERROR)\b[^\n]{0,200}:[ \t]*$/.test(line)
    ) {
      end = ps - 1;
      continue;
    }
    // The command the example runs (`kubectl run no-requests …` under `# This will fail if quota exists`).
    // A command that reads what happened (`$ kubectl get events`, `describe`, `logs`) shows a run, not a try.
    if (COMMAND_RE.test(line)) {
      command ||= !/^[\s`$>#]*(?:kubectl|oc|k)\s+(?:-n\s+\S+\s+)?(?:get|describe|logs|events)\b/.test(line);
      end = ps - 1;
      continue;
    }
    // The envelope over its list of field errors (`# The Deployment "metrics-server" is invalid:` ⏎ `# * …`).
    if (/" (?:is invalid|was not valid):[ \t]*$/.test(line)) {
      end = ps - 1;
      continue;
    }
    // A condition's lead that names what follows (`If user didn't set CPU/Memory limits …, user gets the following
    // error.`): conditional prose, whatever the message holds (LABELLING.md §2.2).
    if (CONDITIONAL_FOLLOWING_RE.test(line) && !FIRST_PERSON_RE.test(line)) return 'conditional';
    // What is searched for (`We have been using log based metrics, looking for messages from kubelet like:`): a
    // pattern, whoever searches (LABELLING.md §2.1 "Look for").
    if (SEARCHED_LEAD_RE.test(line)) return 'example';
    if (FIRST_PERSON_RE.test(line)) return undefined;
    // A heading right under the command a tutorial's step runs is that step's run (`$ oc create -f x.yaml` ⏎
    // `Example output`, LABELLING.md §1).
    if (EXAMPLE_HEADING_RE.test(line)) return underCommand(text, ps) ? undefined : 'example';
    if (command && CONDITIONAL_STEP_RE.test(line)) return 'example';
    // A Chinese lead saying what the error will look like (`錯誤訊息會長這樣 -`), or a supposition (`假设 …：`).
    if (CJK_LEAD_RE.test(line)) return 'example';
    // A condition's lead in Chinese or Japanese (`如果创建 Pod 超过配额，就会报错：`), LABELLING.md §2.2's "如果 …":
    // not the writer's own (`我`).
    if (CJK_CONDITIONAL_LEAD_RE.test(line) && !/[我]/u.test(line)) return 'example';
    // `Вы увидите следующие ошибки` (you will see the following errors), its colon left out, in the languages the
    // sets hold: what a reader will get, which a tutorial's run may be.
    if (WILL_SEE_LEAD_RE.test(line)) return 'step';
    // A lead whose sentence began on the line above (`… For example, the following output says that you must
    // configure` ⏎ `route traffic percent to sum to 100:`): the lead is the sentence, not its last line.
    if (!EXAMPLE_LEAD_RE.test(line) && /:[ \t]*$/.test(line) && ps > 0) {
      const [qs] = lineAt(text, ps - 1);
      const above = shortLine(text, qs, ps - 1);
      const joined = `${above.slice(sentenceStart(above, above.length))} ${line.trim()}`;
      if (!/[.!?:][ \t]*$/.test(above) && EXAMPLE_NAMED_RE.test(joined) && !FIRST_PERSON_RE.test(joined))
        return 'example';
    }
    if (!EXAMPLE_LEAD_RE.test(line)) {
      // A writer's line under a `Symptom:` label (`**Symptom**:` ⏎ `The pod remains stuck in Pending with …:`).
      // Not an issue log's symptom of one incident it records (`## Issue 17: Training Job Stuck …` over it, §2.1).
      if (/:[ \t`*]*$/.test(line) && ps > 0) {
        const [qs] = lineAt(text, ps - 1);
        if (SYMPTOM_RE.test(text.slice(qs, ps - 1)) && !numberedIssueAbove(text, qs)) return 'example';
      }
      return blockUnderLead(text, end) ? 'example' : undefined;
    }
    // A tutorial's step shows what it prints (`you should see`, `Expected output:`): a finding (LABELLING.md §1).
    if (TUTORIAL_RUN_RE.test(line)) return undefined;
    // What the writer shows of their own case (`… reported as "Error" you can see this event:`): not a reader's future.
    if (
      /\bcan (?:now )?(?:see|find|notice)[ \t]+(?:this|these|here)\b/i.test(line) &&
      !/\b(?:will|would|may|might)\b/i.test(line)
    )
      return undefined;
    if (EXAMPLE_NAMED_RE.test(line)) return 'example';
    // What a reader might get (`When running the "apply" command, you might get an error message … like :`): a
    // possibility, not the run a step shows.
    if (MIGHT_GET_RE.test(line)) return 'example';
    // …and a lead right under the command the step runs (`kubectl apply -f x.yaml` ⏎ `You will get Error:`) too.
    const [cs] = ps > 0 ? lineAt(text, ps - 1) : [0];
    const above = text.slice(cs, Math.max(cs, ps - 1));
    return ps > 0 && COMMAND_RE.test(above) && !/<[^<>\n]{1,40}>/.test(above) ? undefined : 'step';
  }
  return undefined;
}

/** A line right after the message that calls what is above it an example (`# (example output …)`, `// sample output`). */
const EXAMPLE_MARK_RE =
  /^[ \t]*(?:#|\/\/|<!--|>)?[ \t]*[(*_]*[ \t]*(?:example|sample|illustrative|indicative)[ \t]+(?:output|message|error|event)s?\b/i;

/** A cell that says what to do (`raise \`max\` with the budget`, `check the quota`, `by design`). */
const ADVICE_CELL_RE =
  /^[ \t*_`]*(?:raise|increase|lower|reduce|add|set|remove|delete|check|use|ask|request|fix|scale|move|change|update|tune|adjust|verify|inspect|run|see|by design|expected|working as intended)\b/i;

/**
 * Whether the Markdown table row `row` holds, besides the cell at `at`, a cell of advice: a runbook's "symptom |
 * cause | check | fix" row, not output (kubectl's tables have no `|` borders).
 */
function adviceRow(row: string, at: number): boolean {
  if (!/^[ \t]*\|/.test(row)) return false;
  // The closing border may be gone (the normalizer trims it).
  const inner = row.trim().slice(1);
  const cells = (inner.endsWith('|') ? inner.slice(0, -1) : inner).split('|');
  if (cells.length < 3) return false;
  let offset = row.indexOf('|') + 1;
  let own = -1;
  for (const [i, c] of cells.entries()) {
    if (at >= offset && at <= offset + c.length) own = i;
    offset += c.length + 1;
  }
  return own >= 0 && cells.some((c, i) => i !== own && ADVICE_CELL_RE.test(c));
}

/** A table's header cell that names a cause or fix column, in the languages the sets hold. */
const CAUSE_HEADER_RE =
  /\b(?:causes?|solutions?|fix(?:es)?|resolutions?|remed(?:y|ies|iation)|what to do|meaning|explanation|causa|solução|solucion|solución|ursache|lösung|причина|решение)\b|原因|解决|解決|对策|対策|対処|해결|원인/iu;
/** A Markdown table's separator row (`---|---|`, `| :--- | ---: |`). */
const TABLE_RULE_RE = /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*$/;

/**
 * Whether the line at `ls` is a row of a table (its rows' lines hold `|`) whose header, the lines right above its
 * separator row, names a cause or fix column: a catalogue of messages and what they mean (LABELLING.md §2.1).
 */
function causeTable(text: string, ls: number): boolean {
  let rule = -1;
  for (const [qs, line] of linesAbove(text, ls, 40)) {
    if (TABLE_RULE_RE.test(line)) {
      rule = qs;
      break;
    }
    if (!line.includes('|')) return false;
  }
  if (rule < 0) return false;
  for (const [, line] of linesAbove(text, rule, 4)) {
    if (!line.includes('|')) break;
    if (CAUSE_HEADER_RE.test(line)) return true;
  }
  return false;
}

/** A Markdown heading's level (`### x` → 3), 0 for no heading. */
function headingLevel(line: string): number {
  const h = /^[ \t]*(#{1,6})[ \t]+\S/.exec(line);
  return h ? h[1]!.length : 0;
}

/**
 * Whether the block that holds the line ending at `lineEnd` (the walk starts at that line) sits under a
 * heading or lead that makes it guidance (LABELLING.md §2.1): up over the block's lines to the first heading, label (a
 * line ending in `:`) or blank, at most fifteen; that line, or the one above the blank, is an examples heading (`####
 * 典型事件消息`, `Typical errors:`) or a conditional lead (`If you see the following error then …`); or a heading above
 * it, of a higher level, names a catalogue (`## Erreurs courantes et solutions` over `### 1. Pod refusé`). Not where
 * the writer speaks of their own case. A `Symptom:` label is not one here: an issue log's symptom of one incident is
 * a report (LABELLING.md §2.1).
 */
function blockUnderLead(text: string, lineEnd: number): boolean {
  let blanks = 0;
  for (const [qs, line] of linesAbove(text, lineEnd + 1, 15)) {
    if (BARE_MARKER_RE.test(line)) {
      if (++blanks > 1) return false;
      continue;
    }
    if (FIRST_PERSON_RE.test(line)) return false;
    // The message's own head (`Error from server (Forbidden): pods "x" is forbidden:`) is part of the block.
    if (/^[ \t#>]*(?:Error|error|ERROR)\b[^\n]{0,200}:[ \t]*$/.test(line)) continue;
    // …unless the lead stands right under the command a tutorial's step runs (`$ oc create -f gpu-pod.yaml` ⏎
    // `Example output`): that step's concrete run (LABELLING.md §1).
    if (EXAMPLE_HEADING_RE.test(line) || CONDITIONAL_LEAD_RE.test(line)) return !underCommand(text, qs);
    // A runbook's `Symptoms` section of a class of failure (`### Symptoms` ⏎ the message ⏎ `### Cause`), LABELLING.md
    // §2.1; not an issue log's symptom of one incident it records.
    if (SYMPTOM_LINE_RE.test(line)) return runbookSymptom(text, qs);
    const level = headingLevel(line);
    // A YAML key opening its map (`status:`, `  conditions:`) is a line of the block, not a lead.
    if (/^[ \t-]*[A-Za-z_][\w.-]{0,60}:[ \t]*$/.test(line)) continue;
    const label = /[:：][ \t*`]*$/.test(line);
    if (!level && !label && blanks === 0) continue;
    if (CATALOGUE_HEADING_RE.test(line)) return !underCommand(text, qs);
    // Not a tutorial's `You should see something like:` over its step's run (LABELLING.md §1)…
    if (label && TUTORIAL_RUN_RE.test(line)) return false;
    // …but a lead that names an example, a Chinese "similar to the following", or a rule's condition (`Alerts should
    // trigger if the \`describe\` output has a section of:`): what would be seen, not what was.
    if (label && (modalIf(line) || CJK_LEAD_RE.test(line) || EXAMPLE_NAMED_RE.test(line))) return true;
    return level > 1 && catalogueParent(text, qs, level);
  }
  return false;
}

/** A numbered issue's heading (`## Issue 17: …`, `### 坑 6：…`, `## 问题 11: …`) at most twelve lines above `ls`. */
function numberedIssueAbove(text: string, ls: number): boolean {
  for (const [, line] of linesAbove(text, ls, 12)) if (NUMBERED_ISSUE_RE.test(line)) return true;
  return false;
}

/** The lines above the one at `ls`, nearest first, at most `max`: each line's start and its text. */
function* linesAbove(text: string, ls: number, max: number): Generator<[number, string]> {
  let end = ls - 1;
  for (let n = 0; n < max && end > 0; n++) {
    const [qs] = lineAt(text, end);
    yield [qs, shortLine(text, qs, end)];
    end = qs - 1;
  }
}

const NUMBERED_ISSUE_RE =
  /^[ \t]*#{1,6}[ \t]*(?:issue|problem|bug|defect|incident|pitfall|gotcha|问题|問題|坑|故障|障害|문제)[ \t]*#?[ \t]*\d{1,4}\b/iu;

/**
 * Whether the first line with text above the line at `ls` (at most three up) is a concrete command a step runs: not
 * one with a placeholder (`kubectl describe po web-xxxxxx`, `<pod>`) nor a search (`kubectl get events | grep quota`).
 */
function underCommand(text: string, ls: number): boolean {
  for (const [, line] of linesAbove(text, ls, 3))
    if (line.trim() !== '') return COMMAND_RE.test(line) && !/<[^<>\n]{1,40}>|x{3,}|\|\s*grep\b/i.test(line);
  return false;
}

/** A heading of a level above `level`, over the line at `ls` (at most forty lines up), that names a catalogue. */
function catalogueParent(text: string, ls: number, level: number): boolean {
  for (const [, line] of linesAbove(text, ls, 40)) {
    const l = headingLevel(line);
    if (l === 0 || l >= level) continue;
    if (CATALOGUE_HEADING_RE.test(line) && !FIRST_PERSON_RE.test(line)) return true;
    level = l;
    if (l === 1) return false;
  }
  return false;
}

/** A heading or label that names a catalogue of errors, in the languages the sets hold. */
const CATALOGUE_HEADING_RE =
  /\b(?:common|typical|frequent|known)\s+(?:errors?|issues?|problems?|failures?|pitfalls?|mistakes?)\b|erreurs (?:courantes|fréquentes)|errores (?:comunes|frecuentes)|erros comuns|häufige fehler|типичные ошибки|частые ошибки|распространённые ошибки|常见(?:错误|問題|问题|报错|事件)|典型(?:错误|问题|事件|报错)|よくある(?:エラー|問題)|자주 (?:발생하는|보는) (?:오류|에러|문제)/iu;

/** A conditional lead without its colon (`* If you see the following error then bump the node pool`). */
const CONDITIONAL_LEAD_RE =
  /^[\s>*_#-]*(?:if|when|whenever) (?:you|they) (?:see|get|encounter|hit|run into|receive) (?:the following|this|these|an?|the) (?:errors?|messages?|events?|outputs?)\b/i;

/** kubectl's own result line right after the message (`deployment.apps/go-app created (server dry run)`): a run shown. */
function ranAfter(text: string, le: number): boolean {
  const next = text.slice(le + 1, text.indexOf('\n', le + 1) < 0 ? text.length : text.indexOf('\n', le + 1));
  return /^[ \t]*[a-z][a-z0-9.-]{0,80}\/[a-z0-9][a-z0-9.-]{0,252} (?:created|configured|unchanged|deleted)\b/.test(
    next,
  );
}

/**
 * Whether the message at `k` (its line at `ls`) is in the sentence of a runbook's `Symptom:` label, on its line or on
 * one of the two lines above that the sentence runs over (`**Symptom:** New pods stuck \`Pending\` with` ⏎
 * `\`Insufficient nvidia.com/mig-1g.10gb\`.`).
 */
function symptomSentence(text: string, k: number, ls: number): boolean {
  let at = ls;
  for (let n = 0; n < 3; n++) {
    if (SYMPTOM_RE.test(shortLine(text, at, lineAt(text, at)[1])))
      return at >= sentenceStart(text, k) && !FIRST_PERSON_RE.test(text.slice(at, k)) && runbookSymptom(text, at);
    if (at === 0) break;
    at = lineAt(text, at - 1)[0];
  }
  return false;
}

/** A list item's line (`- …`, `3. …`, `2) …`). */
const LIST_ITEM_RE = /^[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t]/;

/**
 * Whether the list item at `ls` is one of the steps under a label that opens with a condition (`If a pod's request
 * lands in that gap:` ⏎ `1. …` ⏎ `3. kube-scheduler fails with \`Insufficient ephemeral-storage\``): what would happen.
 */
function underConditionalLabel(text: string, ls: number): boolean {
  if (!LIST_ITEM_RE.test(shortLine(text, ls, lineAt(text, ls)[1]))) return false;
  for (const [, line] of linesAbove(text, ls, 12)) {
    if (LIST_ITEM_RE.test(line)) continue;
    if (BARE_MARKER_RE.test(line) || !/[:：][ \t*_]*$/.test(line)) return false;
    return CONDITIONAL_OPEN_RE.test(line.replace(LEAD_RE, '')) && !FIRST_PERSON_RE.test(line);
  }
  return false;
}

/** An issue template's section of what should have happened (`**Describe the results you expected:**`). */
const EXPECTED_HEADING_RE =
  /^[\s>*_#-]*(?:describe the )?(?:results? you expected|expected behaviou?r)\b[^\n]{0,40}:?[\s*_]*$/i;
/** Any other section heading (`Describe the results you received:`, `# Actual Behavior`, `Steps to reproduce:`). */
const SECTION_HEADING_RE =
  /^[ \t]*#{1,6}[ \t]|^[\s>*_-]*(?:describe |steps to |what |how |additional |environment|actual )[^\n]{0,60}:[\s*_]*$/i;

/** Is the line at `ls` inside an issue template's "expected" section (the nearest section heading above it)? */
function underExpectedHeading(text: string, ls: number): boolean {
  for (const [, line] of linesAbove(text, ls, 15)) {
    if (EXPECTED_HEADING_RE.test(line)) return true;
    if (SECTION_HEADING_RE.test(line)) return false;
  }
  return false;
}

/** An Events table's head (`Events:`, `Type  Reason  Age …`, `----  ------`). */
const TABLE_HEAD_RE = /^[ \t#>]*(?:Events:\s*$|Type\s+Reason\b|-{3,}\s+-{3,})/;
/** A command line (`$ kubectl …`, `` `kubectl apply -f x.yaml` ``, `helm upgrade …`). */
const COMMAND_RE = /^[\s`$>#]*(?:kubectl|oc|helm|k)\s/;
/** A heading or comment that names what follows an example (`# Example event indicating scheduling issues`). */
const EXAMPLE_HEADING_RE =
  /^[\s>*_#-]*(?:(?:an? )?(?:typical |sample )?examples?\b[^:\n]{0,60}|(?:common |typical )?(?:error|warning) messages[\s:*]*|(?:an? )?(?:common|typical|sample|example)(?: (?:error|warning|event|scheduler|kubelet))? (?:messages?|errors?|events?)[\s:*]*|(?:典型|常见|常見|示例|样例|範例|例)[^\n:：]{0,12}[\s:：*]*|(?:输出|輸出|出力)(?:示例|样例|範例|例)[\s:：*]*)$/iu;
/** A conditional over the command an example runs (`# This will fail if quota exists for requests.cpu`). */
const CONDITIONAL_STEP_RE = /\b(?:will|would) fail\b|^[\s#>*_-]*if\b/i;
/** A `Symptom:` label (LABELLING.md §2.1). */
const SYMPTOM_WORDS = '(?:symptoms?|symptômes?|síntomas?|sintomas?|symptome?|симптомы|现象|現象|症状|症狀|증상)';
const SYMPTOM_RE = new RegExp(`^[\\s>*_-]*\\**${SYMPTOM_WORDS}\\**[.\\s]*[:：]`, 'iu');
/** A line that is nothing but a `Symptoms` heading or label (`### Symptoms`, `**Symptom:**`, `Symptoms:`). */
const SYMPTOM_LINE_RE = new RegExp(`^[ \\t>#*_-]*${SYMPTOM_WORDS}[ \\t*_]*[:：]?[ \\t*_]*$`, 'iu');
/** A runbook section after the symptom: what causes it or what to do (`### Cause`, `**Solution:**`, `## Triage`). */
const RUNBOOK_WORDS = String.raw`(?:(?:(?:root |likely |probable |possible )?causes?|solutions?|resolutions?|fix(?:es)?|remediation|mitigation|triage|diagnosis|diagnose|workaround|what to do|how to fix|action|causas?|soluci[oó]n|solução|ursachen?|lösung|причин[аы]|решение)\b|(?:原因|根因|解决|解決|排查|处理|處理|対処|対策|修复|修復|원인|해결|조치))`;
const RUNBOOK_SECTION_RE = new RegExp(String.raw`^[ \t>#*_-]*${RUNBOOK_WORDS}[^\n]{0,40}$`, 'iu');
/** A bold label of such a section with its text on the line (`**Cause** : a ResourceQuota is active …`). */
const RUNBOOK_LABEL_RE = new RegExp(String.raw`^[ \t>-]*(?:\*\*)?${RUNBOOK_WORDS}[ \t]*(?:\*\*)?[ \t]*[:：]`, 'iu');

/**
 * Whether the `Symptom` label at `qs` heads a runbook's entry: a cause, fix or triage section follows within thirty
 * lines, and no numbered issue of an issue log stands above it (LABELLING.md §2.1).
 */
function runbookSymptom(text: string, qs: number): boolean {
  if (numberedIssueAbove(text, qs)) return false;
  // A problem the writer records (`### Problem: Pods without resource specs rejected` over it) is a report too, and
  // so is a numbered entry of one (`### 2. k3s-verify pods unschedulable — CCM uninitialized taint`).
  // The guide's own line: `Symptoms:` of a class, an entry's `Symptom:` of its one incident.
  const single = /\bsymptom\b(?!s)/i.test(shortLine(text, qs, lineAt(text, qs)[1]));
  for (const [, line] of linesAbove(text, qs, 4))
    if (
      /^[ \t]*#{1,6}[ \t]*(?:problem|issue)[ \t]*[:：]/i.test(line) ||
      (single && /^[ \t]*#{1,6}[ \t]*\d{1,3}[.)][ \t]/.test(line))
    )
      return false;
  let p = text.indexOf('\n', qs);
  for (let n = 0; n < 30 && p >= 0 && p < text.length; n++) {
    const e = text.indexOf('\n', p + 1);
    const line = shortLine(text, p + 1, e < 0 ? text.length : e);
    if (
      (RUNBOOK_SECTION_RE.test(line) && (headingLevel(line) > 0 || /[:：][ \t*_]*$|^[ \t]*\*\*/.test(line))) ||
      RUNBOOK_LABEL_RE.test(line)
    )
      return true;
    // Prose in the first person (a name such as `my-pod` is not one).
    if (FIRST_PERSON_RE.test(line.replace(/[\w.]*-[\w.-]*/g, ''))) return false;
    p = e;
  }
  return false;
}

/**
 * Whether the raw paste shows the message's event as a series (`42s (x4 over 92s)`, which the normalizer drops): an
 * event that happened, and happened again, is the writer's own run, whatever the lead above it.
 */
function seriesInRaw(raw: string | undefined, m: Match): boolean {
  if (!raw?.includes(' over ')) return false;
  const probe = m.message.trim().slice(0, 40);
  if (probe.length < 12) return false;
  const at = raw.indexOf(probe);
  if (at < 0) return false;
  const ls = raw.lastIndexOf('\n', at) + 1;
  return /\(x\d{1,9} over [^)\n]{1,24}\)/.test(raw.slice(ls, at + probe.length));
}

/**
 * The matches that are reports: entries of a message-to-advice list, examples, messages under an example lead or an
 * issue template's expected section, and bare ones in a conditional sentence, on a heading or among a placeholder's
 * alternatives are dropped.
 */
export function withoutTalk(matches: Match[], text: string, raw?: string): Match[] {
  let budget = 200;
  const messageLines = new Set(matches.slice(0, 200).map((m) => lineAt(text, m.start)[0]));
  return matches.filter((m) => {
    if (budget-- <= 0) return true;
    // A list mapping messages to advice is a catalogue whatever its entries hold.
    const [ls, le] = lineAt(text, m.start);
    if (mappingList(text, ls, le)) return false;
    // An example (`(e.g. "0/16 nodes are available: …")`, `for example \`…\``, under `You will see something like:`):
    // guidance, numbers or not (LABELLING.md §2.1).
    if (example(m, text)) return false;
    // A FAQ entry's title: the message, then what it may mean (`> googleapi: Error 403: …` ⏎ `This may happen if …`).
    if (FAQ_AFTER_RE.test(nextLine(text, le))) return false;
    // What may happen (`otherwise the error \`Pod ephemeral local storage usage exceeds …\` may occur`): conditional
    // prose whatever the message holds (LABELLING.md §2.2). A match may run to its line's end: the words inside it
    // count too (no component's message says them).
    if (MAY_HAPPEN_AFTER_RE.test(text.slice(m.end, m.end + 48)) || MAY_HAPPEN_IN_RE.test(text.slice(m.start, m.end)))
      return false;
    if (underExpectedHeading(text, ls)) return false;
    // The message on its `Symptom:` label's own line (`**Symptom:** New pods stuck \`Pending\` with \`Insufficient …\``).
    if (symptomSentence(text, m.start, ls)) return false;
    const isBare = bare(m, text);
    // One of a placeholder's alternatives (`reason=<Evicted|NodeAffinity|NodeLost|…>`): names a metric may take.
    const reason = factRecord(m).reason;
    const word = typeof reason === 'string' ? reason : undefined;
    const at = word ? text.indexOf(word, m.start) : -1;
    if (isBare && at >= 0 && at < le) {
      const before = /<([^<>\n]*)$/.exec(text.slice(ls, at));
      const after = /^([^<>\n]*)>/.exec(text.slice(at + word!.length, le));
      if (before && after && (before[1]!.includes('|') || after[1]!.includes('|'))) return false;
    }
    // Under a lead, a message of a concrete run stays a report: it names its object (`You will get Error:` ⏎ `… pods
    // "limitrange-test-nginx" is forbidden: …`, a tutorial's step).
    // A condition's lead (`If user didn't set …, user gets the following error.`) holds even over a series: the
    // writer shows what anyone would get.
    const found = underExampleLead(text, ls, messageLines);
    const lead = found === 'conditional' ? 'example' : seriesInRaw(raw, m) ? undefined : found;
    if (
      lead === 'example' ||
      (lead === 'step' && !(m.object?.name && !/[<>]|x{3,}/i.test(m.object.name)) && !ranAfter(text, le))
    )
      return false;
    // A FAQ entry's title: the message on a heading over its cause and fix (`### Le Pod est refusé avec "minimum cpu
    // usage per Container is 50m"` ⏎ `**Cause** : …` ⏎ `**Solution** : …`), LABELLING.md §2.1.
    if (headingLevel(shortLine(text, ls, le)) >= 2 && runbookSymptom(text, ls)) return false;
    // A bare reason on a Markdown heading names a section (`### J02 OOMKilled (Exit Code 137)`; a shell comment has
    // one `#`), LABELLING.md §2.4.
    if (isBare && (m.layer === 'runtime' || m.layer === 'scheduler') && /^[ \t]*#{2,6}[ \t]/.test(text.slice(ls, le)))
      return false;
    // Marked as an example right after it (`# (example output — the exact wording tracks your policy level)`).
    if (EXAMPLE_MARK_RE.test(nextLine(text, le, 2))) return false;
    // A runbook table's row: the message in one cell, its cause or fix in another (LABELLING.md §2.1).
    if (le - ls <= 2000 && adviceRow(text.slice(ls, le), m.start - ls)) return false;
    // …or a row of a table whose header names a cause or fix column (`Informações sobre o evento |` ⏎ `Causa e
    // solução |` ⏎ `---|---|`), however its cells were flattened onto lines.
    if (le - ls <= 2000 && text.slice(ls, le).includes('|') && causeTable(text, ls)) return false;
    // …and a message of a placeholder object (`Deployment "<argo>-repo-server" is invalid: …` after `If GitOps is
    // installed first …`): no object of the writer's either.
    const placeholderName = !!m.object?.name && /<[^<>\n]{1,40}>|x{3,}/i.test(m.object.name);
    return !((isBare || placeholderName) && (conditional(m, text) || underConditionalLabel(text, ls)));
  });
}
