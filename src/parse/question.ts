/**
 * What-if and help questions (the @mention grammar): a small deterministic grammar, forgiving in wording.
 * "what if web scales to 8", "can deploy/api go to 12 replicas in team-a?", "what if node-3 goes down",
 * "raise requests.cpu of team-quota to 20", "what if web requests 250m cpu", "roll out web", "why is web pending?".
 */

export type Question =
  | { type: 'scale'; workload: string; kind?: string; replicas?: number; delta?: number; namespace?: string }
  | { type: 'quota'; quota?: string; resource: string; value: string; namespace?: string }
  | { type: 'requests'; workload: string; kind?: string; which: 'requests' | 'limits'; resource: string; value: string; container?: string; namespace?: string }
  | { type: 'drain'; node: string }
  | { type: 'rollout'; workload: string; kind?: string; namespace?: string }
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
    if (!/^(the|a|one)$/.test(m[1]!)) return { type: 'drain', node: m[1]! };
  }
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
  // Requests / limits of a workload.
  if ((m = new RegExp(`${W}\\s+(?:requests?|asks? for|needs?|uses?|limits?|gets?)\\s+${QTY}\\s+(?:of\\s+)?(cpus?|cores?|memory|mem|ram)\\b`).exec(text))) {
    const which = /limit/.test(m[0]) ? 'limits' : 'requests';
    return withNs({ type: 'requests', ...workloadRef(m[1]!), which, resource: RESOURCE_WORDS[m[4]!]!, value: fixCase(m[3]!) });
  }
  if ((m = new RegExp(`(?:set|change)\\s+(cpu|memory)\\s+(requests?|limits?)\\s+(?:of|for|on)\\s+${W}\\s+to\\s+${QTY}`).exec(text))) {
    return withNs({ type: 'requests', ...workloadRef(m[3]!), which: m[2]!.startsWith('limit') ? 'limits' : 'requests', resource: m[1]!, value: fixCase(m[5]!) });
  }
  // Rollout.
  if ((m = new RegExp(`(?:roll\\s*out|rollout|redeploy|restart|update)\\s+(?:restart\\s+)?(?:of\\s+)?${W}`).exec(text)) || (m = new RegExp(`${W}\\s+(?:rolls?\\s+out|is\\s+rolled\\s+out|redeploys?|restarts?)`).exec(text))) {
    return withNs({ type: 'rollout', ...workloadRef(m[1]!) });
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

/** Quantity suffixes are case-sensitive (`Mi`, `m`), users type them in any case. */
function fixCase(q: string): string {
  const m = /^([0-9.]+(?:[eE][-+]?[0-9]+)?)(ki|mi|gi|ti|pi|ei|m|k|g|t|p|e)?$/.exec(q);
  if (!m || !m[2]) return q;
  const s = m[2];
  const map: Record<string, string> = { ki: 'Ki', mi: 'Mi', gi: 'Gi', ti: 'Ti', pi: 'Pi', ei: 'Ei', m: 'm', k: 'k', g: 'G', t: 'T', p: 'P', e: 'E' };
  return m[1] + (map[s] ?? s);
}
