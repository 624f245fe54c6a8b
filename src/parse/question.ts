/**
 * What-if and help questions (the @mention grammar): a small deterministic grammar, forgiving in wording.
 * "what if web scales to 8", "can deploy/api go to 12 replicas in team-a?", "what if node-3 goes down",
 * "raise requests.cpu of team-quota to 20", "what if web requests 250m cpu", "roll out web", "why is web pending?",
 * "what if the limitrange max cpu is 4", "what if web rolls out with 500m cpu", "roll out web with image web:2.15".
 *
 * Bounded work per message (issue 13). A 40,000-character mention (Slack's limit) used to hold the event
 * loop for 33–56 s: rules that begin with a name (`[a-z0-9][-a-z0-9.]*…`) were tried at every character,
 * and each try ran to the end of the word — quadratic in a long word. Now:
 * - only the first MAX_QUESTION_CHARS characters are read (cut at a space, never inside a word);
 * - every rule begins with a keyword, or with a name at the start of a word (a lookbehind: not right after
 *   a character a name can hold), so a run of name characters is entered once per rule, not once per
 *   character;
 * - every quantifier stays inside one word or one fixed keyword, the repeated group of "why" takes at most
 *   8 words, and nothing unbounded is followed by something it could also match: a failed try gives back
 *   at most one word. Each rule is linear in the text, capped or not.
 * test/parse/question-fuzz.test.ts holds it to ≤ 50 ms on generated 40,000-character inputs, capped and
 * uncapped; bench/question.ts prints the figures.
 *
 * Numbers no Kubernetes component can hold — replicas beyond int32, quantities whose MilliValue() is beyond
 * int64, values that are not quantities at all — make an `invalid` question with the reason, never an answer.
 */
import { Quantity, QuantityError } from '../quantity.ts';

/** A change to the pod template in a rollout question (the engine's TemplateChange, spelled out here). */
export type TemplateChangeQ =
  | { field: 'requests' | 'limits'; resource: string; value: string; container?: string }
  | { field: 'image'; value: string; container?: string };

export type LimitRangeFieldQ = 'min' | 'max' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio';
export type LimitRangeTypeQ = 'Container' | 'Pod' | 'PersistentVolumeClaim';

export type Question =
  | { type: 'scale'; workload: string; kind?: string; replicas?: number; delta?: number; namespace?: string }
  | { type: 'quota'; quota?: string; resource: string; value: string; namespace?: string }
  | {
      type: 'requests';
      workload: string;
      kind?: string;
      which: 'requests' | 'limits';
      resource: string;
      value: string;
      container?: string;
      namespace?: string;
    }
  | { type: 'drain'; node: string; how: 'drain' | 'down' }
  /** "uncordon node-3", "what if node-3 is uncordoned": not a drain (the answer layer may not answer it yet: help). */
  | { type: 'uncordon'; node: string }
  /** "what if api gets priorityClass high": the workload's template gets the class (a rollout). */
  | { type: 'priorityClass'; workload: string; kind?: string; className: string; namespace?: string }
  /** "add a node like general-a-1", "add 2 nodes like general-a-1". */
  | { type: 'addNode'; like: string; count: number }
  | { type: 'rollout'; workload: string; kind?: string; namespace?: string; changes?: TemplateChangeQ[] }
  | {
      type: 'limitrange';
      limitRange?: string;
      field: LimitRangeFieldQ;
      limitType?: LimitRangeTypeQ;
      resource: string;
      value: string;
      namespace?: string;
    }
  | { type: 'why'; name: string; namespace?: string }
  /** "what's wrong (in team-a)?", "any problems?": the open incidents of the namespaces the asker may see. */
  | { type: 'overview'; namespace?: string }
  | { type: 'headroom'; namespace?: string }
  | AskedQuestion
  /** A question whose number no Kubernetes component can hold: `reason` says which and the limit. */
  | { type: 'invalid'; reason: string }
  | { type: 'help' };

/** Characters of a message the grammar reads; the rest is not looked at (the entry point may say so). */
export const MAX_QUESTION_CHARS = 2_000;
/** spec.replicas is an int32 in every workload API. */
export const MAX_REPLICAS = 2_147_483_647;
const MAX_INT64 = (1n << 63n) - 1n;

const KIND_ALIASES: Record<string, string> = {
  deploy: 'Deployment',
  deployment: 'Deployment',
  deployments: 'Deployment',
  sts: 'StatefulSet',
  statefulset: 'StatefulSet',
  statefulsets: 'StatefulSet',
  rs: 'ReplicaSet',
  replicaset: 'ReplicaSet',
  job: 'Job',
  ds: 'DaemonSet',
  daemonset: 'DaemonSet',
};

/** A DNS name: one inner group. */
const NAME = '[a-z0-9]([-a-z0-9.]*[a-z0-9])?';
/** A workload, with an optional kind/ prefix: two groups. */
const W = `((?:[a-z]+/)?${NAME})`;
/** Where a rule that begins with a name may begin: not right after a character the name could hold. */
const AT_W = '(?<![-a-z0-9./])';
const AT_NAME = '(?<![-a-z0-9.])';
// A workload name right after "scale[s]": not the "up"/"down"/"to" of "scales up to 6".
const SW = `(?!(?:up|down|to)\\s)${W}`;
/** A replica count as typed: "8", and "2.5" or "1e30" so they can be refused rather than read as 2 or 1. */
const REPL = '(\\d+(?:\\.\\d*)?(?:e[-+]?\\d+)?)';
const RES = '((?:requests\\.|limits\\.|count\\/)?[a-z0-9.\\-/]+)';
const QTY_RE = '([0-9.]+(?:[eE][-+]?[0-9]+)?(?:ki|mi|gi|ti|pi|ei|m|k|g|t|p|e)?)';
const RES_RE = '(cpus?|cores?|memory|mem|ram)';

const NAMESPACE_RE = new RegExp(`(?:\\bin|\\bnamespace|-n|\\bns)\\s+(?:namespace\\s+)?(${NAME})\\b`);
const SCALE_RES = [
  new RegExp(`(?:scale|scales|scaled|scaling)\\s+(?:up\\s+|down\\s+)?${SW}\\s+(?:up\\s+|down\\s+)?to\\s+${REPL}`),
  new RegExp(`${AT_W}${W}\\s+(?:scales?|scaled|goes|go|went|grows?|is scaled)\\s+(?:up\\s+|down\\s+)?to\\s+${REPL}`),
  new RegExp(`${AT_W}${W}\\s+(?:has|had|gets|got|with|at|to)\\s+${REPL}\\s+replicas`),
];
const DELTA_RE = new RegExp(`${AT_W}${W}\\s+([+-]\\d+)(?:\\s+replicas?)?\\b`);
const ADD_RE = new RegExp(`(add|remove)\\s+(\\d+)\\s+replicas?\\s+(?:to|from)\\s+${W}`);
const UNCORDON_RES = [
  new RegExp(`\\buncordon(?:s|ed)?\\s+(?:node\\s+)?(${NAME})`),
  new RegExp(`${AT_NAME}(?:node\\s+)?(${NAME})\\s+(?:is|was|were|gets?|got)\\s+uncordoned`),
];
// What-if changes (issue 15): each rule reads one change; the answer converges it (engine/converge.ts).
const PRIORITY_CLASS_RES = [
  new RegExp(`${AT_W}${W}\\s+(?:gets?|got|with|has|uses?)\\s+(?:the\\s+)?priority\\s*class(?:name)?\\s+(${NAME})`),
  new RegExp(`(?:set|change)\\s+(?:the\\s+)?priority\\s*class(?:name)?\\s+of\\s+${W}\\s+to\\s+(${NAME})`),
  new RegExp(`(?:give|set)\\s+(?!the\\s)${W}\\s+(?:the\\s+)?priority\\s*class(?:name)?\\s+(?:to\\s+)?(${NAME})`),
];
const ADD_NODE_RE = new RegExp(
  `\\badd(?:s|ed|ing)?\\s+(?:(a|an|one|another|\\d{1,3})\\s+)?(?:more\\s+)?nodes?\\s+(?:like|shaped like|of the shape of|as)\\s+(?:node\\s+)?(${NAME})`,
);
const DRAIN_RES = [
  // \b: "uncordon node-3" is not "cordon node-3".
  new RegExp(`\\b(?:drain|cordon|lose|lost|kill|remove)\\s+(?:node\\s+)?(${NAME})`),
  new RegExp(
    `${AT_NAME}(?:node\\s+)?(${NAME})\\s+(?:goes|went|is|were|was)\\s+(?:down|away|drained|lost|gone|cordoned)`,
  ),
  new RegExp(`${AT_NAME}(?:node\\s+)?(${NAME})\\s+(?:dies|died|fails|failed|crashes|crashed)\\b`),
];
const QUOTA_OF_RE = new RegExp(
  `(?:raise|lower|set|change|increase|decrease|bump)\\s+(?:the\\s+)?(?:quota\\s+)?${RES}\\s+(?:of|in|on)\\s+(?:quota\\s+)?(${NAME})\\s+to\\s+${QTY_RE}\\b`,
);
const QUOTA_IS_RE = new RegExp(
  `${AT_NAME}(?:quota\\s+)?(${NAME})\\s+${RES}\\s+(?:is|were|was|=|becomes|to)\\s+${QTY_RE}\\b`,
);
const QUOTA_SET_RE = new RegExp(
  `(?:raise|lower|set|change|increase|decrease|bump)\\s+(?:the\\s+)?(?:quota\\s+)?((?:requests\\.|limits\\.)[a-z0-9.\\-/]+|pods|services|persistentvolumeclaims)\\s+to\\s+${QTY_RE}\\b`,
);
const ROLLOUT_RES = [
  new RegExp(`(?:roll\\s*out|rollout|redeploy|restart|update)\\s+(?:restart\\s+)?(?:of\\s+)?${W}`),
  new RegExp(`new\\s+(?:version|template|release|revision|build)\\s+of\\s+${W}`),
  new RegExp(
    `${AT_W}(?!(?:the|a|our|my|its)\\s)${W}(?:'s|')?\\s+(?:rolls?\\s+out|is\\s+rolled\\s+out|redeploys?|restarts?|new\\s+(?:version|template|release|revision|build|image|rollout))`,
  ),
];
const REQUESTS_RE = new RegExp(
  `${AT_W}${W}\\s+(?:requests?|asks? for|needs?|uses?|limits?|gets?)\\s+${QTY_RE}\\s+(?:of\\s+)?(cpus?|cores?|memory|mem|ram)\\b`,
);
const SET_REQUESTS_RE = new RegExp(
  `(?:set|change)\\s+(cpu|memory)\\s+(requests?|limits?)\\s+(?:of|for|on)\\s+${W}\\s+to\\s+${QTY_RE}`,
);
const WHY_RE = new RegExp(
  `why\\s+(?:is|are|does|do|did|was|can't|cannot|won't|isn't|aren't|doesn't|don't|didn't|wasn't|couldn't)\\s+(?:(?:my|the|pod|deploy|deployment)\\s+){0,8}${W}\\s+(?:pods?\\s+)?(?:still\\s+)?(?:pending|stuck|not|rejected|failing|fail|running|start|starting|scheduled|scheduling|schedule|scale|scaling|ready|working|up|come|coming|created|creating|have)\\b`,
);
/**
 * "what's wrong?", "what is broken in team-a", "any problems with my cluster", "anything failing on our
 * namespaces": the whole text, so "what's wrong with report-gen" stays a "why" (WRONG_WITH_RE).
 */
const OVERVIEW_RE = new RegExp(
  `^(?:so\\s+|ok\\s+|hey\\s+)?(?:what(?:'s|\\s+is|\\s+are)\\s+(?:wrong|broken|failing|on\\s+fire|going\\s+on|happening|the\\s+problems?|the\\s+issues?)|(?:are\\s+there\\s+|is\\s+there\\s+|do\\s+we\\s+have\\s+)?any\\s+(?:problems?|issues?|incidents?|trouble|failures?)|(?:is\\s+)?anything\\s+(?:wrong|broken|failing|on\\s+fire))(?:\\s+(?:with|in|on|for)\\s+(?:my|the|our)\\s+(?:cluster|namespaces?|team|pods|apps?|workloads))?(?:\\s+(?:right\\s+)?now)?(?:\\s+(?:in|on|for)\\s+(?:namespace\\s+)?${NAME})?(?:\\s+(?:right\\s+)?now|\\s+today)?$`,
);
/** "what's wrong with report-gen", "what is going on with api": the same as "why is W failing". */
const WRONG_WITH_RE = new RegExp(
  `\\bwhat(?:'s|\\s+is)\\s+(?:wrong|up|going\\s+on|happening)\\s+with\\s+(?:(?:my|the|pod|deploy|deployment)\\s+){0,3}${W}`,
);
/** "report-gen has no pods": begins with a name at a word's start (see the file comment). */
const NO_PODS_RE = new RegExp(`${AT_W}${W}\\s+(?:has|have|got|shows?)\\s+no\\s+(?:running\\s+)?pods\\b`);
const HEADROOM_RE = new RegExp(`(?:^|\\b)(?:quota|headroom|room|capacity)\\s+(?:for\\s+|in\\s+|of\\s+)?(${NAME})\\b`);
const CHANGE_RE = new RegExp(
  `(?:(requests?|limits?)\\s+(?:of\\s+)?|(?<![0-9.]))${QTY_RE}\\s+(?:of\\s+)?${RES_RE}(?:\\s+(requests?|limits?))?\\b`,
  'g',
);

/** Thrown inside the grammar for a number no Kubernetes component can hold; parseQuestion returns it. */
class Invalid {
  constructor(readonly reason: string) {}
}

function workloadRef(word: string): { workload: string; kind?: string } {
  const m = /^([a-z]+)\/(.+)$/.exec(word);
  if (m && KIND_ALIASES[m[1]!]) return { workload: m[2]!, kind: KIND_ALIASES[m[1]!] };
  return { workload: word };
}

function namespaceOf(text: string): string | undefined {
  return NAMESPACE_RE.exec(text)?.[1] ?? undefined;
}

const RESOURCE_WORDS: Record<string, string> = {
  cpu: 'cpu',
  cpus: 'cpu',
  cores: 'cpu',
  core: 'cpu',
  memory: 'memory',
  mem: 'memory',
  ram: 'memory',
};

/** A replica count or delta as typed, refused beyond int32 or when not whole. */
function replicas(raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Invalid(`${raw} is not a whole number of replicas.`);
  if (Math.abs(n) > MAX_REPLICAS)
    throw new Invalid(
      `${raw.replace(/^\+/, '')} replicas is more than Kubernetes allows: spec.replicas is an int32, at most ${MAX_REPLICAS}.`,
    );
  return n;
}

/** A quantity as typed (suffix case fixed), refused when it is not one or its MilliValue() is beyond int64. */
function quantity(raw: string): string {
  const v = fixCase(raw);
  const tooLarge = () =>
    new Invalid(
      `${v} is more than Kubernetes can count: quantities are read as int64 milli-units (MilliValue()), at most ${MAX_INT64}m — about 9.2 × 10^15, a little over 8Pi.`,
    );
  let q: Quantity;
  try {
    q = Quantity.parse(v);
  } catch (e) {
    if (
      e instanceof QuantityError &&
      (/: too large$/.test(e.message) || (/: exponent out of range$/.test(e.message) && !/e-/i.test(v)))
    )
      throw tooLarge();
    const why = e instanceof QuantityError ? e.message.replace(/^invalid quantity "[^"]*": /, '') : String(e);
    throw new Invalid(`${v} is not a Kubernetes quantity (${why}). Write it like 500m, 2, 1.5, 512Mi or 2Gi.`);
  }
  if (q.exactMilliCeil() > MAX_INT64) throw tooLarge();
  return v;
}

/** The words the grammar reads: the first MAX_QUESTION_CHARS characters, cut at a space. */
function readable(input: string, maxChars: number): string {
  if (input.length <= maxChars) return input;
  const cut = input.slice(0, maxChars + 1);
  const space = cut.search(/\s\S*$/);
  return space > 0 ? cut.slice(0, space) : '';
}

export interface ParseQuestionOptions {
  /** Characters read (default MAX_QUESTION_CHARS); the tests lift it to show the grammar is linear. */
  maxChars?: number;
}

/** Parses one question; `help` when nothing matches, `invalid` for numbers beyond what Kubernetes holds. */
export function parseQuestion(input: string, options: ParseQuestionOptions = {}): Question {
  const read = readable(input, options.maxChars ?? MAX_QUESTION_CHARS);
  try {
    return grammar(read);
  } catch (e) {
    if (e instanceof Invalid) return { type: 'invalid', reason: e.reason };
    throw e;
  }
}

function grammar(input: string): Question {
  const text = input
    .replace(/<@[A-Z0-9]+>/g, ' ')
    .replace(/[`*_?!]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  const ns = namespaceOf(text);
  const withNs = <T extends object>(q: T): T => (ns ? { ...q, namespace: ns } : q);
  let m: RegExpExecArray | null;

  if (/^(help|usage|what can you do|commands)\b/.test(text) || text === '') return { type: 'help' };

  if (OVERVIEW_RE.test(text)) return withNs({ type: 'overview' });

  const asked = askedQuestion(text);
  if (asked) return asked.type === 'node' ? asked : withNs(asked);

  // Scale: "web scales to 8", "scale web to 8", "web goes to 12 replicas", "web to 8 replicas", "web +3".
  if ((m = SCALE_RES[0]!.exec(text)) || (m = SCALE_RES[1]!.exec(text)) || (m = SCALE_RES[2]!.exec(text))) {
    return withNs({ type: 'scale', ...workloadRef(m[1]!), replicas: replicas(m[m.length - 1]!) });
  }
  if ((m = DELTA_RE.exec(text))) return withNs({ type: 'scale', ...workloadRef(m[1]!), delta: replicas(m[3]!) });
  if ((m = ADD_RE.exec(text)))
    return withNs({ type: 'scale', ...workloadRef(m[3]!), delta: (m[1] === 'add' ? 1 : -1) * replicas(m[2]!) });
  // Priority class of a workload; a node of an existing node's shape (what-if changes, issue 15).
  for (const re of PRIORITY_CLASS_RES) {
    if ((m = re.exec(text)))
      return withNs({ type: 'priorityClass', ...workloadRef(m[1]!), className: m[m.length - 2]! });
  }
  if ((m = ADD_NODE_RE.exec(text))) {
    const n = m[1] && /^\d+$/.test(m[1]) ? Number(m[1]) : 1;
    if (n >= 1) return { type: 'addNode', like: m[2]!, count: n };
  }
  // Uncordon: its own question, before the drain rules.
  if ((m = UNCORDON_RES[0]!.exec(text)) || (m = UNCORDON_RES[1]!.exec(text))) {
    if (!/^(the|a|one)$/.test(m[1]!)) return { type: 'uncordon', node: m[1]! };
  }
  // Drain / lose a node.
  if ((m = DRAIN_RES[0]!.exec(text)) || (m = DRAIN_RES[1]!.exec(text)) || (m = DRAIN_RES[2]!.exec(text))) {
    if (!/^(the|a|one)$/.test(m[1]!))
      return { type: 'drain', node: m[1]!, how: /\b(drain|cordon|drained|cordoned)\b/.test(m[0]) ? 'drain' : 'down' };
  }
  // LimitRange value: "what if the limitrange max cpu is 4", "set limitrange defaults default memory to 1Gi".
  const lr = limitRangeQuestion(text);
  if (lr) return withNs(lr);
  // Quota change: "raise requests.cpu of team-quota to 20", "what if team-quota pods is 60", "set pods to 60".
  if ((m = QUOTA_OF_RE.exec(text))) {
    return withNs({ type: 'quota', resource: m[1]!, quota: m[2]!, value: quantity(m[4]!) });
  }
  if ((m = QUOTA_IS_RE.exec(text)) && /quota/.test(text) && /\.|pods|services|count/.test(m[3]!)) {
    // (NAME) holds two groups (NAME has an inner one): quota 1, resource 3, value 4.
    return withNs({ type: 'quota', quota: m[1]!, resource: m[3]!, value: quantity(m[4]!) });
  }
  if ((m = QUOTA_SET_RE.exec(text))) {
    return withNs({ type: 'quota', resource: m[1]!, value: quantity(m[2]!) });
  }
  // Rollout, with an optional new template: "roll out web with image x", "what if web rolls out with 500m cpu",
  // "what if web's new version requests 1Gi memory". Before the requests rules: "version requests 1Gi" is not a workload.
  if ((m = ROLLOUT_RES[0]!.exec(text)) || (m = ROLLOUT_RES[1]!.exec(text)) || (m = ROLLOUT_RES[2]!.exec(text))) {
    const changes = templateChanges(text.slice(m.index + m[0].length), input);
    return withNs({ type: 'rollout', ...workloadRef(m[1]!), ...(changes.length ? { changes } : {}) });
  }
  // Requests / limits of a workload.
  if ((m = REQUESTS_RE.exec(text))) {
    const which = /limit/.test(m[0]) ? 'limits' : 'requests';
    return withNs({
      type: 'requests',
      ...workloadRef(m[1]!),
      which,
      resource: RESOURCE_WORDS[m[4]!]!,
      value: quantity(m[3]!),
    });
  }
  if ((m = SET_REQUESTS_RE.exec(text))) {
    return withNs({
      type: 'requests',
      ...workloadRef(m[3]!),
      which: m[2]!.startsWith('limit') ? 'limits' : 'requests',
      resource: m[1]!,
      value: quantity(m[5]!),
    });
  }
  // Why pending / rejected.
  if ((m = WHY_RE.exec(text) ?? WRONG_WITH_RE.exec(text) ?? NO_PODS_RE.exec(text))) {
    return withNs({ type: 'why', name: workloadRef(m[1]!).workload });
  }
  if ((m = HEADROOM_RE.exec(text)) && !['is', 'the', 'for'].includes(m[1]!)) {
    return { type: 'headroom', namespace: m[1]! };
  }
  if (/\b(quota|headroom|room left|how much room)\b/.test(text)) return withNs({ type: 'headroom' });
  return { type: 'help' };
}

/**
 * The new template of a rollout question, from the words after the workload: "with image x", "with 500m
 * cpu", "requests 1gi memory", "with a 2 cpu limit", "with limits of 1gi memory", "-c app" / "container app".
 * The image is read from the original input (image names keep their case and underscores).
 */
function templateChanges(rest: string, input: string): TemplateChangeQ[] {
  const out: TemplateChangeQ[] = [];
  const container = /(?:-c|\bcontainer)\s+([a-z0-9]([-a-z0-9]*[a-z0-9])?)/.exec(rest)?.[1];
  const inC = container ? { container } : {};
  if (/\bimage\s+\S/.test(rest)) {
    const img = /\bimage\s+[`'"]?([A-Za-z0-9][\w.\-/:@]*)/i.exec(input)?.[1]?.replace(/[.,:]+$/, '');
    if (img) out.push({ field: 'image', value: img, ...inC });
  }
  const body = rest.replace(/\bimage\s+\S+/, ' ');
  for (const x of body.matchAll(CHANGE_RE)) {
    const word = x[1] ?? x[4] ?? '';
    out.push({
      field: word.startsWith('limit') ? 'limits' : 'requests',
      resource: RESOURCE_WORDS[x[3]!]!,
      value: quantity(x[2]!),
      ...inC,
    });
  }
  return out;
}

const LR_FIELDS: [RegExp, LimitRangeFieldQ][] = [
  [/^(?:default\s*request|defaultrequest)$/, 'defaultRequest'],
  [
    /^(?:max\s*limit\s*(?:\/|to\s+)?\s*request\s*ratio|maxlimitrequestratio|limit\s*(?:\/|to\s+)\s*request\s+ratio|ratio)$/,
    'maxLimitRequestRatio',
  ],
  [/^(?:default(?:\s+limit)?)$/, 'default'],
  [/^(?:max|maximum)$/, 'max'],
  [/^(?:min|minimum)$/, 'min'],
];
const LR_FIELD =
  '(default\\s*request|defaultrequest|max\\s*limit\\s*(?:/|to\\s+)?\\s*request\\s*ratio|maxlimitrequestratio|limit\\s*(?:/|to\\s+)\\s*request\\s+ratio|ratio|default(?:\\s+limit)?|maximum|max|minimum|min)';
const LR_RES = '(cpus?|cores?|memory|mem|ram|ephemeral-storage|storage|[a-z0-9.-]+/[a-z0-9.-]+)';
const LR_TYPES: Record<string, LimitRangeTypeQ> = {
  pod: 'Pod',
  pods: 'Pod',
  container: 'Container',
  containers: 'Container',
  pvc: 'PersistentVolumeClaim',
  pvcs: 'PersistentVolumeClaim',
  persistentvolumeclaim: 'PersistentVolumeClaim',
  claim: 'PersistentVolumeClaim',
  claims: 'PersistentVolumeClaim',
};
const LR_NOT_A_NAME =
  /^(?:the|a|an|of|in|for|to|is|was|were|per|max|maximum|min|minimum|default|defaultrequest|maxlimitrequestratio|limitrange|ratio|pod|pods|container|containers|pvc|type|value|values|limit|limits|cpu|memory)$/;
const LR_FIELD_RE = new RegExp(
  `(?:^|\\s)(?:(pods?|containers?|pvcs?|persistentvolumeclaim|claims?)\\s+)?${LR_FIELD}\\s+(?:(?:of|for|on)\\s+)?(?:(pods?|containers?|pvcs?)\\s+)?${LR_RES}(?=[\\s,.]|$)`,
);
// The value: the first "is/were/…/to <quantity>" after the field (at the start or after a space).
const LR_VALUE_RE = new RegExp(`(?:^|\\s)(?:is|were|was|=|to|becomes|be|at|of)\\s+${QTY_RE}(?=[\\s,.]|$)`);
const LR_TO_RE = new RegExp(`\\bto\\s+${QTY_RE}(?=[\\s,.]|$)`);
const LR_NAME_AFTER_RE = new RegExp(`\\b(?:limit\\s*range|lr)\\s+(${NAME})\\b`);
const LR_NAME_BEFORE_RE = new RegExp(`${AT_NAME}(${NAME})\\s+(?:limit\\s*range|lr)\\b`);

/**
 * A LimitRange value: a field word (min, max, default, defaultRequest, maxLimitRequestRatio) next to a
 * resource, a value after is/were/to/=, and a LimitRange name after "limitrange" (or before it) when given.
 * Without the word "limitrange" only the unambiguous fields count ("defaultRequest cpu", "max cpu").
 */
function limitRangeQuestion(text: string): Question | null {
  const mentions = /\blimit\s*ranges?\b|\blr\b/.test(text);
  const fr = LR_FIELD_RE.exec(text);
  if (!fr) return null;
  const fieldWord = fr[2]!.replace(/\s+/g, ' ');
  const field = LR_FIELDS.find(([re]) => re.test(fieldWord))?.[1];
  if (!field) return null;
  // "what if web limits 1Gi memory" is a requests question; "default"/"min"/"ratio" need the word limitrange.
  if (!mentions && !['defaultRequest', 'max', 'maxLimitRequestRatio'].includes(field)) return null;
  const after = text.slice(fr.index + fr[0].length);
  const val = LR_VALUE_RE.exec(after.trim()) ?? LR_TO_RE.exec(text);
  if (!val) return null;
  const rawRes = fr[4]!;
  const resource = RESOURCE_WORDS[rawRes] ?? rawRes;
  const typeWord =
    fr[1] ??
    fr[3] ??
    /\bper\s+(pod|container|pvc)\b/.exec(text)?.[1] ??
    /\btype\s+(pod|container|pvc|persistentvolumeclaim)\b/.exec(text)?.[1];
  let name: string | undefined;
  const n1 = LR_NAME_AFTER_RE.exec(text);
  const n2 = LR_NAME_BEFORE_RE.exec(text);
  if (n1 && !LR_NOT_A_NAME.test(n1[1]!) && !/^(?:is|to|in)$/.test(n1[1]!)) name = n1[1]!;
  else if (
    n2 &&
    !LR_NOT_A_NAME.test(n2[1]!) &&
    !/^(?:if|set|raise|lower|change|what|increase|decrease|bump)$/.test(n2[1]!)
  )
    name = n2[1]!;
  const q: Question = { type: 'limitrange', field, resource, value: quantity(val[1]!) };
  if (name) q.limitRange = name;
  if (typeWord && LR_TYPES[typeWord]) q.limitType = LR_TYPES[typeWord];
  return q;
}

/** Quantity suffixes are case-sensitive (`Mi`, `m`), users type them in any case. */
function fixCase(q: string): string {
  const m = /^([0-9.]+(?:[eE][-+]?[0-9]+)?)(ki|mi|gi|ti|pi|ei|m|k|g|t|p|e)?$/.exec(q);
  if (!m?.[2]) return q;
  const s = m[2];
  const map: Record<string, string> = {
    ki: 'Ki',
    mi: 'Mi',
    gi: 'Gi',
    ti: 'Ti',
    pi: 'Pi',
    ei: 'Ei',
    m: 'm',
    k: 'k',
    g: 'G',
    t: 'T',
    p: 'P',
    e: 'E',
  };
  return m[1] + (map[s] ?? s);
}

// ─── Questions on-call people ask (what is left, can I add N, is a node back, priority, add a node) ───
// One block, tried before the what-if rules: every rule begins with a keyword ("how", "can", "is",
// "what", "which", "priority", "add"…), so each stays linear in the text (see the file comment).

/** "how much GPU is left", "is general-c-2 back", "what priority does api have", "add a node". */
export type AskedQuestion =
  /** "how much GPU/CPU/memory is left (in NS)": `resource` is cpu, memory, pods, ephemeral-storage, gpu or an extended name. */
  | { type: 'left'; resource: string; namespace?: string }
  /** "is general-c-2 back?", "is node X ready": the node's status (cordoned, Ready, taints). */
  | { type: 'node'; node: string }
  /** "what priority does api have" (a workload) or "which PriorityClasses can I use" (none). */
  | { type: 'priority'; workload?: string; kind?: string; namespace?: string }
  /** "add a node", "would another node help": what a new node of each pool would take. */
  | { type: 'nodeNeeded'; namespace?: string }
  /** "how many more api pods fit?", "how far can web scale": the replicas the quota and the nodes still take. */
  | { type: 'fit'; workload: string; kind?: string; namespace?: string };

const LEFT_RES_WORDS: Record<string, string> = {
  gpu: 'gpu',
  gpus: 'gpu',
  cpu: 'cpu',
  cpus: 'cpu',
  core: 'cpu',
  cores: 'cpu',
  memory: 'memory',
  mem: 'memory',
  ram: 'memory',
  pod: 'pods',
  pods: 'pods',
  storage: 'ephemeral-storage',
  'ephemeral-storage': 'ephemeral-storage',
};
const LEFT_RES = '(gpus?|cpus?|cores?|memory|mem|ram|pods?|storage|ephemeral-storage|[a-z0-9.-]+/[a-z0-9.-]+)';
const LEFT_RES_RE = [
  // "how much GPU is left", "how many cpus do we have left", "how much free memory is there in ml"
  new RegExp(
    `\\bhow\\s+(?:much|many)\\s+(?:free\\s+|more\\s+)?${LEFT_RES}\\s+(?:is\\s+|are\\s+|do\\s+(?:i|we|you)\\s+have\\s+|have\\s+(?:i|we)\\s+(?:got\\s+)?|can\\s+(?:i|we)\\s+(?:still\\s+)?(?:use|get|request)\\s*)?(?:still\\s+)?(?:left|free|available|remaining|there|$)`,
  ),
  // "what's left of the GPUs", "free gpus in ml", "gpu left in ml", "any gpus left?"
  new RegExp(`\\b(?:what'?s|what\\s+is)\\s+left\\s+(?:of\\s+)?(?:the\\s+|our\\s+)?${LEFT_RES}`),
  new RegExp(`(?:^|\\s)(?:any\\s+|free\\s+)${LEFT_RES}\\s+(?:left|free|available)`),
  new RegExp(`^(?:free|available|remaining)\\s+${LEFT_RES}(?:\\s|$)`),
];
/** "can I add 3 (more) (replicas of) worker", "could we run 2 more web pods": a scale by +N. */
const CAN_ADD_RE = new RegExp(
  `\\b(?:(?:can|could|may|should)\\s+(?:i|we|you)\\s+)?(?:add|run|start|get|have)\\s+(\\d+(?:\\.\\d*)?(?:e[-+]?\\d+)?)\\s+(?:more\\s+|extra\\s+|additional\\s+|new\\s+)?(?:(?:replicas?|pods?|copies|instances)\\s+(?:of|to|for)\\s+)?(?!(?:more|nodes?|replicas?|pods?)\\b)${W}`,
);
const NODE_STATUS_RES = [
  new RegExp(
    `\\b(?:is|are|was)\\s+(?:node\\s+)?(?!(?:it|the|a|there|my|our|this|that)\\s)(${NAME})\\s+(?:back|up|ready|schedulable|unschedulable|cordoned|uncordoned|healthy|ok|okay|online|available|still\\s+cordoned|still\\s+down|working|fixed)\\b`,
  ),
  new RegExp(`\\b(?:status|state|health)\\s+of\\s+(?:node\\s+)?(${NAME})\\b`),
  new RegExp(`\\bnode\\s+(${NAME})(?:'s)?\\s+(?:status|state|health)\\b`),
];
const PRIORITY_OF_RES = [
  new RegExp(
    `\\bwhat\\s+priority(?:\\s*class)?\\s+(?:does|do|is|has|did)\\s+(?:the\\s+)?(?!(?:i|we|my|our|it)\\s)${W}`,
  ),
  new RegExp(`\\bpriority(?:\\s*class)?\\s+(?:of|for)\\s+(?:the\\s+)?(?!(?:my|our|me|us)\\s)${W}`),
  new RegExp(`${AT_W}${W}(?:'s|')\\s+priority\\b`),
];
const PRIORITY_LIST_RE =
  /\b(?:which|what)\s+priority\s*class(?:es)?\b|\bpriority\s*classes\b|\b(?:which|what)\s+priorities\b|\blist\s+(?:the\s+)?priorit/;
const NODE_NEEDED_RE =
  /\b(?:add|adding|added|another|new|more|extra|one\s+more|buy|provision)\s+(?:a\s+|one\s+|an\s+|\d+\s+)?(?:more\s+|new\s+|extra\s+|bigger\s+|larger\s+)?nodes?\b(?!\s+like\b)/;

/** A workload name where a count word could stand instead ("how many more pods of web"): not one of those words. */
const FW = `(?!(?:more|replicas?|pods?|copies|instances|of|for|can|could)\\b)${W}`;
/** "how many more replicas of web fit", "how many more api pods can I run", "how far can web scale", "max replicas for web". */
const FIT_RES = [
  new RegExp(
    `\\bhow\\s+many\\s+(?:more\\s+|extra\\s+|additional\\s+)?(?:replicas?|pods?|copies|instances)\\s+(?:of|for)\\s+(?:the\\s+)?${FW}(?:\\s+(?:can|could|will|would|do|does|fit|are|is|in)\\b|\\s*[?.!]*\\s*$)`,
  ),
  new RegExp(
    `\\bhow\\s+many\\s+(?:more\\s+|extra\\s+|additional\\s+)?${FW}(?:\\s+(?:replicas?|pods?|copies|instances))?\\s+(?:(?:can|could|will|would|do|does)\\s+(?:i\\s+|we\\s+|you\\s+)?(?:still\\s+)?(?:add|run|fit|start|have|get|schedule|squeeze)|fit|would\\s+fit|will\\s+fit)\\b`,
  ),
  new RegExp(
    `\\bhow\\s+(?:far|high|much|big|wide)\\s+can\\s+(?:i\\s+|we\\s+)?(?:scale\\s+)?${FW}(?:\\s+(?:scale|go|grow))?\\b`,
  ),
  new RegExp(`\\b(?:max|maximum)\\s+(?:replicas|scale|pods)\\s+(?:of|for)\\s+(?:the\\s+)?${FW}`),
];

function askedQuestion(text: string): AskedQuestion | Extract<Question, { type: 'scale' }> | null {
  let m: RegExpExecArray | null;
  for (const re of LEFT_RES_RE) {
    if ((m = re.exec(text))) {
      const word = m[1]!;
      return { type: 'left', resource: LEFT_RES_WORDS[word] ?? word };
    }
  }
  // After the 'left' rules: "how many cores do we have left" is a resource, not a workload.
  for (const re of FIT_RES) if ((m = re.exec(text))) return { type: 'fit', ...workloadRef(m[1]!) };
  if ((m = CAN_ADD_RE.exec(text)) && /\b(?:can|could|may|should)\b|\bmore\b|\bextra\b|\badditional\b/.test(m[0])) {
    const ref = workloadRef(m[2]!);
    return { type: 'scale', ...ref, delta: replicas(m[1]!) };
  }
  for (const re of NODE_STATUS_RES) if ((m = re.exec(text))) return { type: 'node', node: m[1]! };
  if (
    (m = PRIORITY_OF_RES[0]!.exec(text)) ||
    (m = PRIORITY_OF_RES[1]!.exec(text)) ||
    (m = PRIORITY_OF_RES[2]!.exec(text))
  )
    return { type: 'priority', ...workloadRef(m[1]!) };
  if (PRIORITY_LIST_RE.test(text) || /\bpriority\b.*\b(?:can|may)\s+(?:i|we)\s+use\b/.test(text))
    return { type: 'priority' };
  if (NODE_NEEDED_RE.test(text) && !/\b(?:drain|cordon|uncordon|lose|remove|kill)\b/.test(text))
    return { type: 'nodeNeeded' };
  return null;
}
