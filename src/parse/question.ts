/**
 * What-if and help questions (the @mention grammar): a small deterministic grammar, forgiving in wording.
 * "what if web scales to 8", "can deploy/api go to 12 replicas in team-a?", "what if node-3 goes down",
 * "raise requests.cpu of team-quota to 20", "what if web requests 250m cpu", "roll out web", "why is web pending?",
 * "what if the limitrange max cpu is 4", "what if web rolls out with 500m cpu", "roll out web with image web:2.15".
 */

/** A change to the pod template in a rollout question (the engine's TemplateChange, spelled out here). */
export type TemplateChangeQ =
  | { field: 'requests' | 'limits'; resource: string; value: string; container?: string }
  | { field: 'image'; value: string; container?: string };

export type LimitRangeFieldQ = 'min' | 'max' | 'default' | 'defaultRequest' | 'maxLimitRequestRatio';
export type LimitRangeTypeQ = 'Container' | 'Pod' | 'PersistentVolumeClaim';

export type Question =
  | { type: 'scale'; workload: string; kind?: string; replicas?: number; delta?: number; namespace?: string }
  | { type: 'quota'; quota?: string; resource: string; value: string; namespace?: string }
  | { type: 'requests'; workload: string; kind?: string; which: 'requests' | 'limits'; resource: string; value: string; container?: string; namespace?: string }
  | { type: 'drain'; node: string; how: 'drain' | 'down' }
  | { type: 'rollout'; workload: string; kind?: string; namespace?: string; changes?: TemplateChangeQ[] }
  | { type: 'limitrange'; limitRange?: string; field: LimitRangeFieldQ; limitType?: LimitRangeTypeQ; resource: string; value: string; namespace?: string }
  | { type: 'why'; name: string; namespace?: string }
  | { type: 'headroom'; namespace?: string }
  | { type: 'help' };

const KIND_ALIASES: Record<string, string> = {
  deploy: 'Deployment', deployment: 'Deployment', deployments: 'Deployment',
  sts: 'StatefulSet', statefulset: 'StatefulSet', statefulsets: 'StatefulSet',
  rs: 'ReplicaSet', replicaset: 'ReplicaSet', job: 'Job', ds: 'DaemonSet', daemonset: 'DaemonSet',
};

const NAME = '[a-z0-9]([-a-z0-9.]*[a-z0-9])?';

function workloadRef(word: string): { workload: string; kind?: string } {
  const m = /^([a-z]+)\/(.+)$/.exec(word);
  if (m && KIND_ALIASES[m[1]!]) return { workload: m[2]!, kind: KIND_ALIASES[m[1]!] };
  return { workload: word };
}

function namespaceOf(text: string): string | undefined {
  return new RegExp(`(?:\\bin|\\bnamespace|-n|\\bns)\\s+(?:namespace\\s+)?(${NAME})\\b`).exec(text)?.[1] ?? undefined;
}

const RESOURCE_WORDS: Record<string, string> = { cpu: 'cpu', cpus: 'cpu', cores: 'cpu', core: 'cpu', memory: 'memory', mem: 'memory', ram: 'memory' };

/** Parses one question; `help` when nothing matches. */
export function parseQuestion(input: string): Question {
  const text = input
    .replace(/<@[A-Z0-9]+>/g, ' ')
    .replace(/[`*_?!]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
  const ns = namespaceOf(text);
  const W = `((?:[a-z]+/)?${NAME})`;
  // A workload name right after "scale[s]": not the "up"/"down"/"to" of "scales up to 6".
  const SW = `(?!(?:up|down|to)\\s)${W}`;
  const withNs = <T extends object>(q: T): T => (ns ? { ...q, namespace: ns } : q);
  let m: RegExpExecArray | null;

  if (/^(help|usage|what can you do|commands)\b/.test(text) || text === '') return { type: 'help' };

  // Scale: "web scales to 8", "scale web to 8", "web goes to 12 replicas", "web to 8 replicas", "web +3".
  if ((m = new RegExp(`(?:scale|scales|scaled|scaling)\\s+(?:up\\s+|down\\s+)?${SW}\\s+(?:up\\s+|down\\s+)?to\\s+(\\d+)`).exec(text)) ||
      (m = new RegExp(`${W}\\s+(?:scales?|scaled|goes|go|went|grows?|is scaled)\\s+(?:up\\s+|down\\s+)?to\\s+(\\d+)`).exec(text)) ||
      (m = new RegExp(`${W}\\s+(?:has|had|gets|got|with|at|to)\\s+(\\d+)\\s+replicas`).exec(text))) {
    return withNs({ type: 'scale', ...workloadRef(m[1]!), replicas: Number(m[m.length - 1]) });
  }
  if ((m = new RegExp(`${W}\\s+([+-]\\d+)(?:\\s+replicas?)?\\b`).exec(text)) || (m = new RegExp(`(add|remove)\\s+(\\d+)\\s+replicas?\\s+(?:to|from)\\s+${W}`).exec(text))) {
    if (m[1] === 'add' || m[1] === 'remove') return withNs({ type: 'scale', ...workloadRef(m[3]!), delta: (m[1] === 'add' ? 1 : -1) * Number(m[2]) });
    return withNs({ type: 'scale', ...workloadRef(m[1]!), delta: Number(m[m.length - 1]) });
  }
  // Drain / lose a node.
  if ((m = new RegExp(`(?:drain|cordon|lose|lost|kill|remove)\\s+(?:node\\s+)?(${NAME})`).exec(text)) ||
      (m = new RegExp(`(?:node\\s+)?(${NAME})\\s+(?:goes|went|is|were|was)\\s+(?:down|away|drained|lost|gone|cordoned)`).exec(text)) ||
      (m = new RegExp(`(?:node\\s+)?(${NAME})\\s+(?:dies|died|fails|failed|crashes|crashed)\\b`).exec(text))) {
    if (!/^(the|a|one)$/.test(m[1]!)) return { type: 'drain', node: m[1]!, how: /\b(drain|cordon|drained|cordoned)\b/.test(m[0]) ? 'drain' : 'down' };
  }
  // LimitRange value: "what if the limitrange max cpu is 4", "set limitrange defaults default memory to 1Gi".
  const lr = limitRangeQuestion(text);
  if (lr) return withNs(lr);
  // Quota change: "raise requests.cpu of team-quota to 20", "what if team-quota pods is 60", "set pods to 60".
  const RES = '((?:requests\\.|limits\\.|count\\/)?[a-z0-9.\\-/]+)';
  const QTY = '([0-9.]+(?:[eE][-+]?[0-9]+)?(?:ki|mi|gi|ti|pi|ei|m|k|g|t|p|e)?)';
  if ((m = new RegExp(`(?:raise|lower|set|change|increase|decrease|bump)\\s+(?:the\\s+)?(?:quota\\s+)?${RES}\\s+(?:of|in|on)\\s+(?:quota\\s+)?(${NAME})\\s+to\\s+${QTY}\\b`).exec(text))) {
    return withNs({ type: 'quota', resource: m[1]!, quota: m[2]!, value: fixCase(m[4]!) });
  }
  if ((m = new RegExp(`(?:quota\\s+)?(${NAME})\\s+${RES}\\s+(?:is|were|was|=|becomes|to)\\s+${QTY}\\b`).exec(text)) && /quota/.test(text) && /\.|pods|services|count/.test(m[3]!)) {
    // (NAME) holds two groups (NAME has an inner one): quota 1, resource 3, value 4.
    return withNs({ type: 'quota', quota: m[1]!, resource: m[3]!, value: fixCase(m[4]!) });
  }
  if ((m = new RegExp(`(?:raise|lower|set|change|increase|decrease|bump)\\s+(?:the\\s+)?(?:quota\\s+)?((?:requests\\.|limits\\.)[a-z0-9.\\-/]+|pods|services|persistentvolumeclaims)\\s+to\\s+${QTY}\\b`).exec(text))) {
    return withNs({ type: 'quota', resource: m[1]!, value: fixCase(m[2]!) });
  }
  // Rollout, with an optional new template: "roll out web with image x", "what if web rolls out with 500m cpu",
  // "what if web's new version requests 1Gi memory". Before the requests rules: "version requests 1Gi" is not a workload.
  if ((m = new RegExp(`(?:roll\\s*out|rollout|redeploy|restart|update)\\s+(?:restart\\s+)?(?:of\\s+)?${W}`).exec(text)) ||
      (m = new RegExp(`new\\s+(?:version|template|release|revision|build)\\s+of\\s+${W}`).exec(text)) ||
      (m = new RegExp(`(?<![-a-z0-9./])(?!(?:the|a|our|my|its)\\s)${W}(?:'s|')?\\s+(?:rolls?\\s+out|is\\s+rolled\\s+out|redeploys?|restarts?|new\\s+(?:version|template|release|revision|build|image|rollout))`).exec(text))) {
    const changes = templateChanges(text.slice(m.index + m[0].length), input);
    return withNs({ type: 'rollout', ...workloadRef(m[1]!), ...(changes.length ? { changes } : {}) });
  }
  // Requests / limits of a workload.
  if ((m = new RegExp(`${W}\\s+(?:requests?|asks? for|needs?|uses?|limits?|gets?)\\s+${QTY}\\s+(?:of\\s+)?(cpus?|cores?|memory|mem|ram)\\b`).exec(text))) {
    const which = /limit/.test(m[0]) ? 'limits' : 'requests';
    return withNs({ type: 'requests', ...workloadRef(m[1]!), which, resource: RESOURCE_WORDS[m[4]!]!, value: fixCase(m[3]!) });
  }
  if ((m = new RegExp(`(?:set|change)\\s+(cpu|memory)\\s+(requests?|limits?)\\s+(?:of|for|on)\\s+${W}\\s+to\\s+${QTY}`).exec(text))) {
    return withNs({ type: 'requests', ...workloadRef(m[3]!), which: m[2]!.startsWith('limit') ? 'limits' : 'requests', resource: m[1]!, value: fixCase(m[5]!) });
  }
  // Why pending / rejected.
  if ((m = new RegExp(`why\\s+(?:is|are|does|do|did|was|can't|cannot|won't)\\s+(?:(?:my|the|pod|deploy|deployment)\\s+)*${W}\\s+(?:pods?\\s+)?(?:still\\s+)?(?:pending|stuck|not|rejected|failing|fail)`).exec(text))) {
    return withNs({ type: 'why', name: workloadRef(m[1]!).workload });
  }
  if ((m = new RegExp(`(?:^|\\b)(?:quota|headroom|room|capacity)\\s+(?:for\\s+|in\\s+|of\\s+)?(${NAME})\\b`).exec(text)) && !['is', 'the', 'for'].includes(m[1]!)) {
    return { type: 'headroom', namespace: m[1]! };
  }
  if (/\b(quota|headroom|room left|how much room)\b/.test(text)) return withNs({ type: 'headroom' });
  return { type: 'help' };
}

const QTY_RE = '([0-9.]+(?:[eE][-+]?[0-9]+)?(?:ki|mi|gi|ti|pi|ei|m|k|g|t|p|e)?)';
const RES_RE = '(cpus?|cores?|memory|mem|ram)';

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
  const re = new RegExp(`(?:(requests?|limits?)\\s+(?:of\\s+)?)?${QTY_RE}\\s+(?:of\\s+)?${RES_RE}(?:\\s+(requests?|limits?))?\\b`, 'g');
  for (const x of body.matchAll(re)) {
    const word = x[1] ?? x[4] ?? '';
    out.push({ field: word.startsWith('limit') ? 'limits' : 'requests', resource: RESOURCE_WORDS[x[3]!]!, value: fixCase(x[2]!), ...inC });
  }
  return out;
}

const LR_FIELDS: [RegExp, LimitRangeFieldQ][] = [
  [/^(?:default\s*request|defaultrequest)$/, 'defaultRequest'],
  [/^(?:max\s*limit\s*(?:\/|to\s+)?\s*request\s*ratio|maxlimitrequestratio|limit\s*(?:\/|to\s+)\s*request\s+ratio|ratio)$/, 'maxLimitRequestRatio'],
  [/^(?:default(?:\s+limit)?)$/, 'default'],
  [/^(?:max|maximum)$/, 'max'],
  [/^(?:min|minimum)$/, 'min'],
];
const LR_FIELD = '(default\\s*request|defaultrequest|max\\s*limit\\s*(?:/|to\\s+)?\\s*request\\s*ratio|maxlimitrequestratio|limit\\s*(?:/|to\\s+)\\s*request\\s+ratio|ratio|default(?:\\s+limit)?|maximum|max|minimum|min)';
const LR_RES = '(cpus?|cores?|memory|mem|ram|ephemeral-storage|storage|[a-z0-9.-]+/[a-z0-9.-]+)';
const LR_TYPES: Record<string, LimitRangeTypeQ> = { pod: 'Pod', pods: 'Pod', container: 'Container', containers: 'Container', pvc: 'PersistentVolumeClaim', pvcs: 'PersistentVolumeClaim', persistentvolumeclaim: 'PersistentVolumeClaim', claim: 'PersistentVolumeClaim', claims: 'PersistentVolumeClaim' };
const LR_NOT_A_NAME = /^(?:the|a|an|of|in|for|to|is|was|were|per|max|maximum|min|minimum|default|defaultrequest|maxlimitrequestratio|limitrange|ratio|pod|pods|container|containers|pvc|type|value|values|limit|limits|cpu|memory)$/;

/**
 * A LimitRange value: a field word (min, max, default, defaultRequest, maxLimitRequestRatio) next to a
 * resource, a value after is/were/to/=, and a LimitRange name after "limitrange" (or before it) when given.
 * Without the word "limitrange" only the unambiguous fields count ("defaultRequest cpu", "max cpu").
 */
function limitRangeQuestion(text: string): Question | null {
  const mentions = /\blimit\s*ranges?\b|\blr\b/.test(text);
  const fr = new RegExp(`(?:^|\\s)(?:(pods?|containers?|pvcs?|persistentvolumeclaim|claims?)\\s+)?${LR_FIELD}\\s+(?:(?:of|for|on)\\s+)?(?:(pods?|containers?|pvcs?)\\s+)?${LR_RES}(?=[\\s,.]|$)`).exec(text);
  if (!fr) return null;
  const fieldWord = fr[2]!.replace(/\s+/g, ' ');
  const field = LR_FIELDS.find(([re]) => re.test(fieldWord))?.[1];
  if (!field) return null;
  // "what if web limits 1Gi memory" is a requests question; "default"/"min"/"ratio" need the word limitrange.
  if (!mentions && !['defaultRequest', 'max', 'maxLimitRequestRatio'].includes(field)) return null;
  const after = text.slice(fr.index + fr[0].length);
  const val = new RegExp(`^(?:.*?\\s)?(?:is|were|was|=|to|becomes|be|at|of)\\s+${QTY_RE}(?=[\\s,.]|$)`).exec(after.trim()) ?? new RegExp(`\\bto\\s+${QTY_RE}(?=[\\s,.]|$)`).exec(text);
  if (!val) return null;
  const rawRes = fr[4]!;
  const resource = RESOURCE_WORDS[rawRes] ?? rawRes;
  const typeWord = fr[1] ?? fr[3] ?? /\bper\s+(pod|container|pvc)\b/.exec(text)?.[1] ?? /\btype\s+(pod|container|pvc|persistentvolumeclaim)\b/.exec(text)?.[1];
  let name: string | undefined;
  const n1 = new RegExp(`\\b(?:limit\\s*range|lr)\\s+(${NAME})\\b`).exec(text);
  const n2 = new RegExp(`\\b(${NAME})\\s+(?:limit\\s*range|lr)\\b`).exec(text);
  if (n1 && !LR_NOT_A_NAME.test(n1[1]!) && !/^(?:is|to|in)$/.test(n1[1]!)) name = n1[1]!;
  else if (n2 && !LR_NOT_A_NAME.test(n2[1]!) && !/^(?:if|set|raise|lower|change|what|increase|decrease|bump)$/.test(n2[1]!)) name = n2[1]!;
  const q: Question = { type: 'limitrange', field, resource, value: fixCase(val[1]!) };
  if (name) q.limitRange = name;
  if (typeWord && LR_TYPES[typeWord]) q.limitType = LR_TYPES[typeWord];
  return q;
}

/** Quantity suffixes are case-sensitive (`Mi`, `m`), users type them in any case. */
function fixCase(q: string): string {
  const m = /^([0-9.]+(?:[eE][-+]?[0-9]+)?)(ki|mi|gi|ti|pi|ei|m|k|g|t|p|e)?$/.exec(q);
  if (!m || !m[2]) return q;
  const s = m[2];
  const map: Record<string, string> = { ki: 'Ki', mi: 'Mi', gi: 'Gi', ti: 'Ti', pi: 'Pi', ei: 'Ei', m: 'm', k: 'k', g: 'G', t: 'T', p: 'P', e: 'E' };
  return m[1] + (map[s] ?? s);
}
