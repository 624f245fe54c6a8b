/**
 * The diagnosis reply of one finding, from the text alone: headline, path line, table, advice and the
 * explanation (docs/replies.md). answer/diagnose.ts adds what the state says and the verified fixes.
 */
import type { Finding } from '../../parse/index.ts';
import { Quantity } from '../../quantity.ts';
import { LAYERS, PATH_STATIONS } from '../../k8s/layers.ts';
import { freeOf } from '../../engine/diagnose/subject.ts';
import type { Fix, Reply } from '../types.ts';
import { emptyReply } from '../types.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { runtimeLines } from './runtime.ts';
import { lookalikeText, type LookalikeText } from './lookalike.ts';
import { priorityText } from './priority.ts';
import { policyViolationText, runtimeClassText } from './runtimeclass.ts';
import { decodeText, isDecodeError } from './decode.ts';

/**
 * What to change for an API validation refusal, by the rule its message names (pkg/apis/core/validation): a
 * request above its limit is one rule among several, and the others print no request nor limit.
 */
function validationLine(f: Finding & { kind: 'api-validation' }): string {
  const { resource, value, limit } = f.facts;
  const m = f.message;
  if (m.includes('pod updates may not change fields other than'))
    return "A running pod's spec cannot change (only images, activeDeadlineSeconds, added tolerations, a grace period): change the workload's template, or delete and recreate the pod.";
  if (m.includes('Pod QoS is immutable'))
    return `The change would move the pod out of its QoS class${value ? ` (${value})` : ''}: a running pod keeps its QoS class; recreate it with the new resources.`;
  if (m.includes('must be an integer'))
    return `${str(resource)} ${str(value)} is not a whole number: extended resources are counted in whole units.`;
  if (m.includes('must be a standard resource for quota'))
    return `${str(resource)} is no resource a ResourceQuota tracks: use requests.cpu, limits.memory, pods, services, count/<resource>.<group>, or requests.<extended resource>.`;
  if (m.includes('must be a standard resource'))
    return `${str(resource)} is no resource name Kubernetes knows: use cpu, memory, ephemeral-storage, hugepages-<size>, or a domain-qualified extended resource.`;
  if (m.includes('must be greater than zero'))
    return `${str(resource)} ${str(value)} must be greater than zero: a PersistentVolumeClaim must request some storage.`;
  if (m.includes('is not positive integer multiple of'))
    return `${str(resource)} ${str(value)} is not a whole number of pages of that size.`;
  if (m.includes('HugePages require cpu or memory'))
    return 'A container that asks for hugepages must also request or limit cpu or memory.';
  if (m.includes('Limit must be set for non overcommitable resources'))
    return 'An extended resource needs a limit, and its request (if set) must equal it.';
  if (/must be equal to \S+ limit/.test(m))
    return `${str(resource)} request ${str(value)} must equal its limit${limit ? ` ${str(limit)}` : ''}: extended resources are not overcommitted.`;
  if (/field is immutable|is immutable after creation|is immutable\b/.test(m))
    return `${f.facts.field ?? 'This field'} cannot change on an existing object: put it back as it was, or delete and recreate the object (for a Deployment's selector or a Job's template, under a new name or after \`kubectl delete\`).`;
  if (/strict decoding error: (?:unknown|duplicate) field/.test(m))
    return `The manifest has a field the API does not know or gives one twice (${f.facts.field ?? 'see the message'}): fix its spelling or indentation; \`kubectl explain\` shows the field names.`;
  if (/: Required value\b/.test(m)) return `Set ${f.facts.field ?? 'the field'}: the API server requires it.`;
  if (resource === null || !/less than or ?equal|greater than or equal to \S+ request/i.test(m))
    return `The API server refused the object's ${f.facts.field ?? 'spec'}${value !== null ? ` (value ${value})` : ''}: see its message below.`;
  return `${str(resource)} request${value ? ` ${str(value)}` : ''} is above its limit${limit ? ` ${str(limit)}` : ''}: set the request ≤ the limit, or raise the limit.`;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/** What a finding means, in a sentence or two (`explanation` of `diagnose --json`). */
export function explain(f: Finding): string {
  switch (f.kind) {
    case 'quota-exceeded':
      return `The namespace's ResourceQuota ${str(f.facts.quota)} would go over its hard limit for ${f.facts.exceeding.join(', ') || 'a resource'}; the API server refused to create the object. Quota counts requests and limits as declared, not actual usage.`;
    case 'quota-must-specify':
      return `ResourceQuota ${str(f.facts.quota)} tracks resources every container must declare; containers without them are refused. Set them, or let a LimitRange default them.`;
    case 'quota-status-unknown':
      return `ResourceQuota ${str(f.facts.quota)} has no usage recorded yet for what it tracks (a new quota, or the quota controller is behind); objects are refused until it catches up. This is a controller problem, not a lack of capacity.`;
    case 'limitrange':
      return 'A LimitRange in the namespace bounds each container or pod; the values after defaulting fall outside it, so admission refused the object.';
    case 'api-validation':
      if (isDecodeError(f))
        return 'The request body did not decode: a resource quantity is not written the way Kubernetes reads quantities, so the object never reached validation or admission.';
      if (
        (f.facts.resource === null && f.facts.limit === null) ||
        !/less than or ?equal|greater than or equal to \S+ request|must be equal to \S+ limit|non overcommitable/i.test(
          f.message,
        )
      )
        return "The API server's validation refused the object before admission: the field named is written in a way the API does not accept. Not quota, LimitRange or the scheduler.";
      return 'The API server validates every container: a request may not exceed its limit (and extended resources need request = limit).';
    case 'priority':
      return 'The Priority admission plugin refused the pod: its PriorityClass is missing or its spec sets priority itself. Not quota or LimitRange.';
    case 'runtimeclass':
      return 'The RuntimeClass admission plugin refused the pod: its RuntimeClass is missing, or its spec sets an overhead or a nodeSelector the class contradicts. Not quota or LimitRange.';
    case 'policy-violation':
      return "Kyverno reports that the object breaks one of the cluster's policies (a PolicyViolation event: admitted in Audit mode, refused when blocked). Not quota or LimitRange.";
    case 'pod-security':
      return "Pod Security admission checks each pod against the namespace's Pod Security Standard level; it is about securityContext, not resources.";
    case 'webhook-denied':
      return "An admission webhook (a policy engine such as Gatekeeper or Kyverno) refused the object: the cluster's own policy, not ResourceQuota, LimitRange or scheduling.";
    case 'admission-policy':
      return `ValidatingAdmissionPolicy ${f.facts.policy} (the cluster's own CEL rule) refused the object: "${f.facts.message}". Not quota, LimitRange or scheduling: its owner, the platform team, can change the policy or its binding.`;
    case 'autoscaler':
      return 'cluster-autoscaler declined to add a node for the Pending pod; its node groups decide what it can add. Not quota or LimitRange.';
    case 'kueue':
      return "Kueue has not admitted the workload: its ClusterQueue has no unused quota (or borrowing room) for the pod set in any flavor it may use, so the job stays suspended and no pod is created. Not the namespace's ResourceQuota, LimitRange or the scheduler.";
    case 'admission-plugin':
      return `The ${f.facts.plugin} admission plugin refused the pod on its securityContext, not its resources. Not quota, LimitRange or scheduling.`;
    case 'karpenter':
      return 'Karpenter could not launch a node that fits the pod; its NodePools decide what can be launched. Not quota or LimitRange.';
    case 'unschedulable':
      return 'The pod was admitted (quota and LimitRange passed) but no node can take it now; it stays Pending until something changes.';
    case 'runtime':
      return runtimeWords(f.facts.reason);
    default:
      return `This looks like ${f.kind.replace(/-/g, ' ')}, not Kubernetes quota, LimitRange or scheduling: the fix is outside the namespace's quota.`;
  }
}

/**
 * The fixes re-simulation found do not end the incident, one line each with the reason (the reply
 * offers only the verified ones; `diagnose --json` lists them all with `verified: false`).
 */
export function notWorkingLines(fixes: readonly Fix[]): string[] {
  return fixes.filter((f) => !f.verified).map((f) => `✗ Not enough: ${f.summary}${f.outcome ? ` — ${f.outcome}` : ''}`);
}

function runtimeWords(reason: string): string {
  switch (reason) {
    case 'OOMKilled':
    case 'ExitCode137':
      return 'The container used more memory than its limit and the kernel killed it (OOMKilled, exit 137). Raise the memory limit or reduce usage; requests and quota do not prevent this.';
    case 'Evicted':
      return 'The kubelet evicted the pod because the node ran short of a resource; pods using more than their requests go first. Set requests close to real usage.';
    case 'CPUThrottling':
      return 'The container hits its CPU limit and is throttled; it is slow, not stopped. Raise or remove the CPU limit.';
    case 'NodeAffinity':
      return "The kubelet refused the pod when it reached the node (NodeAffinity): the node's labels no longer match the pod's node selector or affinity (labels changed after scheduling, or the pod set spec.nodeName itself). The pod is Failed and not retried; its controller creates a replacement. Delete the Failed pods, and fix the node's labels or the pod's selector.";
    case 'TopologyAffinityError':
      return "The kubelet's Topology Manager refused the pod (TopologyAffinityError): under its policy it cannot give the pod's CPUs and devices from one NUMA node, which the scheduler does not see. Request fewer CPUs or devices per container, or run it on nodes with that much free on one NUMA node.";
    case 'UnexpectedAdmissionError':
      return "The kubelet could not admit the pod (UnexpectedAdmissionError): its device or CPU manager could not allocate what the scheduler counted on (a device plugin restarted, or reports fewer devices than the node's allocatable). The pod is Failed and not retried; its controller creates a replacement. Delete the Failed pods; if it repeats on a node, check that node's device plugin.";
    case 'SysctlForbidden':
      return "The kubelet refused the pod when it reached the node (SysctlForbidden): the pod's securityContext sets a sysctl the node's kubelet does not allow (an unsafe sysctl needs the kubelet's --allowed-unsafe-sysctls; a namespaced one is refused with hostNetwork or hostIPC). The pod is Failed and not retried; its controller creates a replacement. Drop the sysctl, or ask the platform team for nodes that allow it and select them.";
    case 'Preempted':
      return 'The scheduler preempted this pod: it was deleted to make room for a pod of higher priority. Its controller creates a replacement, which stays Pending while no room is left. Give the workload a higher PriorityClass, or keep room for the preemptor.';
    default:
      if (reason.startsWith('OutOf') && reason.length > 5)
        return `The kubelet refused the pod when it reached the node (${reason}): the node no longer had the ${reason.slice(5)} the scheduler counted on — pods the scheduler did not see took it (static pods, pods that set spec.nodeName) or a device plugin reports fewer devices. The pod is Failed and not retried; its controller creates a replacement. Delete the Failed pods; if it repeats on a node, look there for pods that bypass the scheduler.`;
      return `A runtime problem (${reason || 'node or container'}): it happened after scheduling, so quota and LimitRange are not the cause.`;
  }
}

/**
 * The path line of a layer's finding: the stations before the one that refused passed, the refusing one
 * failed, the rest unknown. API validation comes before every station: all unknown. Runtime and
 * look-alikes have no path.
 */
function pathFor(layer: Finding['layer']): Reply['path'] {
  if (layer === 'api-validation') return PATH_STATIONS.map((station) => ({ layer: station, state: 'unknown' }));
  const at = LAYERS[layer].station;
  if (at === null) return undefined;
  const i = PATH_STATIONS.indexOf(at);
  return PATH_STATIONS.map((station, j) => ({ layer: station, state: j < i ? 'pass' : j === i ? 'fail' : 'unknown' }));
}

function iconFor(layer: string): string {
  return layer === 'scheduler' ? '⏳' : layer === 'runtime' ? '💥' : layer === 'other' ? 'ℹ️' : '🚫';
}

/** `deployments` → `deployment`, `ingresses` → `ingress`, `networkpolicies` → `networkpolicy`. */
function singular(resource: string): string {
  if (resource.endsWith('ies')) return `${resource.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(resource)) return resource.slice(0, -2);
  return resource.endsWith('s') ? resource.slice(0, -1) : resource;
}

function objectWords(f: Finding, ns: string | undefined): string {
  const what = f.object?.name
    ? `${f.object.resource === 'pods' || !f.object.resource ? 'pod' : singular(f.object.resource)} ${f.object.name}`
    : f.controller
      ? `pods of ${f.controller.kind} ${f.controller.name}`
      : '';
  return [what, ns ? (what ? `(${ns})` : `in ${ns}`) : ''].filter(Boolean).join(' ');
}

/** The reply for one finding, from the text alone. */
export function textReply(f: Finding, ns: string | undefined): Reply {
  let headline: string = LAYERS[f.layer].headline;
  if (f.kind === 'quota-exceeded' || f.kind === 'quota-must-specify' || f.kind === 'quota-status-unknown')
    headline += ` ${str(f.facts.quota)}`;
  if (f.layer === 'scheduler' && typeof f.facts.total === 'number') headline += ` (0/${f.facts.total} nodes)`;
  if (f.layer === 'runtime') headline += `: ${f.facts.reason}`;
  if (f.layer === 'other') headline = `${headline} (${f.kind})`;
  const obj = objectWords(f, ns);
  const r = emptyReply('diagnosis', iconFor(f.layer), obj ? `${headline} — ${obj}` : headline);
  r.path = pathFor(f.layer);
  r.raw = f.message;
  switch (f.kind) {
    case 'quota-exceeded': {
      const res = f.facts.resources;
      r.table = {
        columns: ['resource', 'requested', 'used', 'hard', 'free'],
        rows: Object.entries(res).map(([k, v]) => [
          k,
          str(v.requested),
          str(v.used),
          str(v.limited),
          freeOf(str(v.used), str(v.limited)),
        ]),
      };
      const exceeding = f.facts.exceeding;
      for (const k of exceeding) {
        const v = res[k];
        const over =
          v && Quantity.tryParse(v.used) && Quantity.tryParse(v.requested) && Quantity.tryParse(v.limited)
            ? Quantity.parse(v.used!).add(Quantity.parse(v.requested!)).sub(Quantity.parse(v.limited!))
            : null;
        if (!over || over.sign() <= 0) continue;
        const isCount =
          k === 'pods' ||
          k.startsWith('count/') ||
          /^(services|persistentvolumeclaims|configmaps|secrets|replicationcontrollers|resourcequotas)(\.|$)/.test(k);
        const free = freeOf(str(v!.used), str(v!.limited));
        r.lines.push(
          `${k}: over by ${over} — ${isCount ? '' : `request ≤ ${free}, `}free ${over} in the namespace, or raise the quota to ${Quantity.parse(v!.used!).add(Quantity.parse(v!.requested!))}.`,
        );
      }
      if (exceeding.includes('pods'))
        r.lines.push('`pods` counts every non-terminal pod, Pending ones too; Succeeded/Failed pods do not count.');
      r.why = 'Quota counts requests, not usage: idle pods hold it too.';
      break;
    }
    case 'quota-must-specify': {
      for (const [k, c] of Object.entries(f.facts.resources))
        r.lines.push(`missing ${k}${c.length ? ` on ${c.join(', ')}` : ''}`);
      r.lines.push(
        'Set them in each container, or ask the platform team for a LimitRange with defaults (then every pod gets them).',
      );
      break;
    }
    case 'limitrange': {
      const vs = f.facts.violations;
      r.table = {
        columns: ['scope', 'resource', 'bound', 'allowed', 'actual'],
        rows: vs.map((v) => [v.scope, v.resource, v.bound, v.limit, v.actual ?? 'not set']),
      };
      for (const v of vs) r.lines.push(limitRangeAdvice(v));
      break;
    }
    case 'api-validation':
      if (isDecodeError(f)) break;
      r.lines.push(validationLine(f));
      break;
    case 'unschedulable': {
      const reasons = f.facts.reasons;
      r.table = { columns: ['nodes', 'reason'], rows: reasons.map((x) => [String(x.count), x.reason]) };
      for (const x of reasons) {
        const hint = schedulerHint(x.reason);
        if (hint) r.lines.push(hint);
      }
      // A preemption part in the message is DefaultPreemption's failure: a PostFilter that found victims
      // adds no text (pkg/scheduler/schedule_one.go). So the paste alone never says preemption could help.
      const pre = f.facts.preemption;
      if (pre?.reasons?.length) r.lines.push(preemptionLine(pre.reasons));
      r.lines.push('Quota is not the problem here: raising it will not help.');
      break;
    }
    case 'runtime':
      r.lines.push(...runtimeLines(f, ns));
      break;
    default:
      break;
  }
  explained(r, f, ns);
  return r;
}

const NO_VICTIMS = 'No preemption victims found for incoming pod';
const NOT_HELPFUL = 'Preemption is not helpful for scheduling';

/**
 * Why preemption cannot place the pod, from the reasons of DefaultPreemption's failure message
 * (pkg/scheduler/framework/preemption: PodEligibleToPreemptOthers, nodesWherePreemptionMightHelp, and
 * SelectVictimsOnNode, which removes every pod of LOWER priority and runs the filters again): nodes with no
 * lower-priority pod, nodes whose failure no eviction fixes, and nodes that would still not fit with
 * every lower-priority pod gone (what blocks it there is of the same or higher priority).
 */
export function preemptionLine(reasons: readonly { count: number | null; reason: string }[]): string {
  const ineligible = reasons.find((x) => x.reason.startsWith('not eligible due to '));
  if (ineligible)
    return /preemptionPolicy=Never/.test(ineligible.reason)
      ? 'Preemption cannot help: its preemptionPolicy is Never, so it never evicts other pods.'
      : 'Preemption cannot help yet: a pod it preempted is still terminating on its nominated node.';
  // A count the paste lost (a fragment) is "some nodes".
  const nodes = (list: readonly { count: number | null }[]) => {
    if (list.some((x) => x.count === null)) return 'some nodes';
    const n = list.reduce((a, x) => a + (x.count ?? 0), 0);
    return `${n} node${n === 1 ? '' : 's'}`;
  };
  const none = reasons.filter((x) => x.reason === NO_VICTIMS);
  const unhelpful = reasons.filter((x) => x.reason === NOT_HELPFUL);
  const still = reasons.filter((x) => x.reason !== NO_VICTIMS && x.reason !== NOT_HELPFUL);
  const parts: string[] = [];
  const one = (list: readonly { count: number | null }[]) => nodes(list) === '1 node';
  if (none.length) parts.push(`${nodes(none)} ${one(none) ? 'holds' : 'hold'} no lower-priority pod to evict`);
  if (still.length)
    parts.push(
      `on ${nodes(still)} it would still not fit with every lower-priority pod evicted (${still.map((x) => x.reason).join(', ')}): what blocks it there is not of lower priority`,
    );
  if (unhelpful.length)
    parts.push(`${nodes(unhelpful)} ${one(unhelpful) ? 'fails' : 'fail'} for a reason no eviction changes`);
  return `Preemption cannot help: no node would fit it after evicting lower-priority pods — ${parts.join('; ')}.`;
}

/**
 * The engine's preemption verdict for the pod replayed now: the victims it would evict (named in the
 * asker's namespace, counted elsewhere), or why it finds none (preemptionLine of its own message).
 */
export function enginePreemptionLine(
  schedule: { nominatedNode?: string; victims?: readonly string[] },
  preemptionReasons: readonly { count: number | null; reason: string }[] | undefined,
  ns: string,
): string | undefined {
  if (schedule.nominatedNode) {
    const victims = schedule.victims ?? [];
    const mine = victims.filter((v) => v.startsWith(`${ns}/`));
    const others = victims.length - mine.length;
    const named = [...mine, ...(others ? [`${others} pod${others === 1 ? '' : 's'} of other namespaces`] : [])];
    return `Preemption would make room now: it evicts ${victims.length} lower-priority pod${victims.length === 1 ? '' : 's'} on ${schedule.nominatedNode} (${named.join(', ')}).`;
  }
  return preemptionReasons?.length ? preemptionLine(preemptionReasons) : undefined;
}

/** The explained text of a look-alike, a Priority refusal or a decode error; undefined for the other kinds. */
function explainedText(f: Finding, ns: string | undefined, state?: Snapshot): LookalikeText | undefined {
  if (f.kind === 'priority') return priorityText(f, state);
  if (f.kind === 'runtimeclass') return runtimeClassText(f, state);
  if (f.kind === 'policy-violation') return policyViolationText(f);
  if (f.kind === 'api-validation' && isDecodeError(f)) return decodeText(f);
  return lookalikeText(f, ns, state);
}

/**
 * Gives a look-alike, Priority or decode finding its own headline and lines (docs/replies.md "Look-alikes");
 * with the state, what it adds (the namespace's Pod Security labels, the PriorityClasses that exist).
 */
export function explained(r: Reply, f: Finding, ns: string | undefined, state?: Snapshot): void {
  const t = explainedText(f, ns, state);
  if (!t) return;
  const obj = objectWords(f, ns);
  r.headline = obj ? `${t.headline} — ${obj}` : t.headline;
  r.lines = [...t.lines];
}

function limitRangeAdvice(v: {
  scope: string;
  resource: string;
  bound: string;
  limit: string;
  actual: string | null;
}): string {
  const who =
    v.scope === 'Pod'
      ? 'the pod (sum of containers)'
      : v.scope === 'PersistentVolumeClaim'
        ? 'the claim'
        : 'each container';
  if (v.bound === 'max')
    return `${v.resource}: ${who} may use at most ${v.limit}${v.actual ? `, has ${v.actual}` : ' and must set a limit'} → set it ≤ ${v.limit}.`;
  if (v.bound === 'min')
    return `${v.resource}: ${who} must request at least ${v.limit}${v.actual ? `, has ${v.actual}` : ' and must set a request'} → set it ≥ ${v.limit}.`;
  return `${v.resource}: limit/request of ${who} may be at most ${v.limit}${v.actual ? `, is ${v.actual}` : ''} → raise the request or lower the limit.`;
}

function schedulerHint(reason: string): string | null {
  if (/^Insufficient /i.test(reason))
    return `${reason}: those nodes have too little free ${reason.slice(13)} for the pod's requests (requests of pods already there count, not their usage).`;
  if (/untolerated taint|taint.*didn't tolerate|had taint/i.test(reason)) {
    if (/unreachable|not-ready/.test(reason))
      return `${reason}: those nodes are down or not ready — a node problem, not capacity.`;
    return `${reason}: those nodes are reserved (tainted); the pod needs a toleration to use them.`;
  }
  if (/node affinity|node selector|nodeSelector/i.test(reason))
    return `${reason}: the pod's nodeSelector/affinity excludes those nodes.`;
  if (/unschedulable/i.test(reason)) return `${reason}: those nodes are cordoned.`;
  if (/Too many pods/i.test(reason)) return `${reason}: those nodes hold their maximum number of pods.`;
  if (/anti-affinity/i.test(reason)) return `${reason}: pod anti-affinity keeps it off those nodes.`;
  if (/free ports/i.test(reason)) return `${reason}: a hostPort the pod wants is taken there.`;
  if (/PersistentVolume|volume/i.test(reason))
    return `${reason}: its volume can only be used from other nodes or zones.`;
  return null;
}
