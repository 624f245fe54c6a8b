/**
 * Replies to the questions on-call people ask (../handlers/asked.ts): what is left of a resource, whether a
 * node is back, what priority a workload has (and which PriorityClasses exist), what a new node would take.
 */
import type { NewNodeAnswer, NodeCapacity, QuotaHeadroom } from '../../engine/headroom.ts';
import type { Node, PriorityClass } from '../../k8s/objects.ts';
import { Quantity } from '../../quantity.ts';
import { emptyReply, type Reply } from '../types.ts';

const q = (s: string | undefined) => Quantity.parse(s ?? '0');
const blocking = (t: string) => /:(NoSchedule|NoExecute)$/.test(t);

/** The quota keys that limit a resource: `requests.cpu`, `cpu`, `limits.cpu`; `pods`, `count/pods`. */
export function quotaKeysOf(resource: string): string[] {
  if (resource === 'pods') return ['pods', 'count/pods'];
  return [`requests.${resource}`, resource, `limits.${resource}`];
}

function hhmm(iso: unknown): string | null {
  const m = typeof iso === 'string' ? /T(\d\d:\d\d)/.exec(iso) : null;
  return m ? m[1]! : null;
}

/** "how much GPU is left in ml": each quota that limits it, free per node, and what one new pod can ask for. */
export function leftReply(ns: string, resource: string, quotas: QuotaHeadroom[], nodes: NodeCapacity[]): Reply {
  const lines: string[] = [];
  let quotaFree: { q: Quantity; quota: string; key: string } | null = null;
  for (const quota of quotas) {
    for (const key of quotaKeysOf(resource)) {
      const v = quota.resources[key];
      if (!v) continue;
      const held = quota.pending.resources[key];
      lines.push(
        `${quota.name}: ${key} ${v.used} / ${v.hard} used, ${v.free} free${held && q(held).sign() > 0 ? ` — ${held} of it held by Pending pods (${quota.pending.pods.join(', ')})` : ''}.`,
      );
      // requests.X and X bound what a pod may request; limits.X only what it may set as a limit.
      if (!key.startsWith('limits.') && (!quotaFree || q(v.free).cmp(quotaFree.q) < 0))
        quotaFree = { q: q(v.free), quota: quota.name, key };
    }
  }
  if (lines.length === 0) lines.push(`No ResourceQuota in ${ns} limits ${resource}: only the nodes do.`);
  const native = resource === 'cpu' || resource === 'memory' || resource === 'ephemeral-storage';
  let roomiest: { node: string; free: Quantity } | null = null;
  if (resource === 'pods') {
    const open = nodes.filter((n) => n.status.length === 0 && !n.taints.some(blocking));
    const slots = open.reduce((s, n) => s + Math.max(0, n.pods.allocatable - n.pods.count), 0);
    lines.push(`Free pod slots on untainted, schedulable nodes: ${slots} on ${open.length} nodes.`);
  } else {
    const candidates = native
      ? nodes.filter((n) => n.status.length === 0 && !n.taints.some(blocking))
      : nodes.filter((n) => q(n.resources[resource]?.allocatable).sign() > 0);
    const sorted = [...candidates].sort(
      (a, b) => q(b.resources[resource]?.free).cmp(q(a.resources[resource]?.free)) || (a.name < b.name ? -1 : 1),
    );
    if (sorted.length === 0) lines.push(native ? 'No untainted, schedulable node.' : `No node has ${resource}.`);
    else {
      const shown = sorted.slice(0, 5).map((n) => {
        const v = n.resources[resource]!;
        const notes = [...n.status, ...n.taints.filter(blocking)];
        return `${n.name} ${v.free} of ${v.allocatable}${!native && notes.length ? ` (${notes.join(', ')})` : ''}`;
      });
      const total = sorted.reduce((s, n) => s.add(q(n.resources[resource]?.free)), Quantity.zero());
      lines.push(
        `Free ${resource} per node${native ? ' (untainted, schedulable)' : ''}: ${shown.join(' · ')}${sorted.length > 5 ? ` · and ${sorted.length - 5} more` : ''}; ${total} in all.`,
      );
      roomiest = { node: sorted[0]!.name, free: q(sorted[0]!.resources[resource]?.free) };
      const down = nodes.filter((n) => n.status.length > 0 && q(n.resources[resource]?.allocatable).sign() > 0);
      if (!native && down.length)
        lines.push(`Not taking pods: ${down.map((n) => `${n.name} (${n.status.join(', ')})`).join(', ')}.`);
    }
  }
  let verdict: string;
  if (resource === 'pods' && quotaFree && quotaFree.q.sign() <= 0)
    verdict = `A new pod is refused by ${quotaFree.quota} (${quotaFree.key} has 0 free).`;
  else if (resource === 'pods' && quotaFree) verdict = `${quotaFree.quota} allows ${quotaFree.q} more pods.`;
  else if (quotaFree && quotaFree.q.sign() <= 0)
    verdict = `A new pod that requests ${resource} is refused by ${quotaFree.quota} (${quotaFree.key} has 0 free)${roomiest && roomiest.free.sign() > 0 ? `, even though ${roomiest.node} has ${roomiest.free} free` : ''}.`;
  else if (roomiest) {
    const most = quotaFree && quotaFree.q.cmp(roomiest.free) < 0 ? quotaFree.q : roomiest.free;
    verdict = `One new pod can request up to ${most} ${resource}: ${quotaFree ? `${quotaFree.quota} allows ${quotaFree.q}, ` : ''}the roomiest node, ${roomiest.node}, has ${roomiest.free} free.`;
  } else if (quotaFree) verdict = `${quotaFree.quota} allows ${quotaFree.q} more ${resource}.`;
  else verdict = `Nothing limits ${resource} in ${ns} but the nodes.`;
  const r = emptyReply(
    'headroom',
    '📊',
    `${ns}: how ${resource === 'pods' ? 'many pods are' : `much ${resource} is`} left`,
  );
  r.lines.push(verdict, ...lines);
  return r;
}

/** "is general-c-2 back?": cordoned or not, Ready or not, its taints, its pods and free capacity. */
export function nodeStatusReply(node: Node, capacity: NodeCapacity | undefined, pods: number): Reply {
  const name = node.metadata.name ?? '';
  const cordoned = node.spec?.unschedulable === true;
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  const isReady = ready?.status === 'True';
  const state = cordoned
    ? 'not back: it is still cordoned (spec.unschedulable), so no new pod is scheduled there'
    : !isReady
      ? `not back: it is ${ready ? 'NotReady' : 'not reporting Ready'}`
      : 'back: schedulable and Ready';
  const r = emptyReply('info', cordoned || !isReady ? '⛔' : '✅', `${name} is ${state}`);
  const cordonTaint = (node.spec?.taints ?? []).find((t) => t.key === 'node.kubernetes.io/unschedulable');
  const since = hhmm(cordonTaint?.timeAdded);
  if (cordoned) r.lines.push(`Cordoned${since ? ` since ${since}` : ''}.`);
  const readyWhy = ready as
    | { status: string; reason?: string; message?: string; lastTransitionTime?: string }
    | undefined;
  r.lines.push(
    `Ready: ${ready?.status ?? 'unknown'}${readyWhy?.reason ? ` (${readyWhy.reason})` : ''}${hhmm(readyWhy?.lastTransitionTime) && !isReady ? ` since ${hhmm(readyWhy?.lastTransitionTime)}` : ''}.`,
  );
  const taints = (node.spec?.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
  r.lines.push(taints.length ? `Taints: ${taints.join(', ')}.` : 'Taints: none.');
  if (capacity) {
    const free = Object.entries(capacity.resources)
      .map(([k, v]) => `${v.free} ${k} of ${v.allocatable}`)
      .join(', ');
    r.lines.push(`${pods} pod${pods === 1 ? '' : 's'} on it; free: ${free}.`);
  }
  if (cordoned)
    r.lines.push(
      `Platform can bring it back with kubectl uncordon ${name} — ask "what if ${name} is uncordoned" to see what would schedule there.`,
    );
  return r;
}

export interface PriorityOf {
  ref: string;
  namespace: string;
  className: string | null;
  value: number;
  preemptionPolicy: string;
  /** Where the value comes from when no class is named. */
  source: 'class' | 'globalDefault' | 'none' | 'missing';
  /** Quotas of its namespace whose PriorityClass scope counts (or skips) its pods. */
  quotas: { name: string; counts: boolean }[];
}

function classRows(classes: PriorityClass[]): string[][] {
  return [...classes]
    .sort((a, b) => b.value - a.value || ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1))
    .map((c) => [
      c.metadata.name ?? '',
      String(c.value),
      c.preemptionPolicy ?? 'PreemptLowerPriority',
      c.globalDefault ? 'yes' : '',
    ]);
}

/** "what priority does api have". */
export function priorityOfReply(p: PriorityOf, classes: PriorityClass[]): Reply {
  const r = emptyReply(
    'info',
    'ℹ️',
    `${p.ref} (${p.namespace}) runs at priority ${p.value}${p.className ? ` — PriorityClass ${p.className}` : ''}`,
  );
  if (p.source === 'missing')
    r.lines.push(`Its priorityClassName ${p.className} names no PriorityClass: new pods are refused until it exists.`);
  else if (p.source === 'globalDefault')
    r.lines.push(`No priorityClassName: it gets the globalDefault class ${p.className} (${p.value}).`);
  else if (p.source === 'none') r.lines.push('No priorityClassName and no globalDefault class: priority 0.');
  r.lines.push(
    p.preemptionPolicy === 'Never'
      ? 'preemptionPolicy Never: it waits for room and never evicts other pods.'
      : 'preemptionPolicy PreemptLowerPriority: when Pending it may evict pods of lower priority.',
  );
  const byValue = [...classes].sort((a, b) => a.value - b.value);
  // Only a class that may preempt (not preemptionPolicy Never) can evict it.
  const higher = byValue
    .filter((c) => c.value > p.value && c.preemptionPolicy !== 'Never')
    .map((c) => `${c.metadata.name} (${c.value})`);
  const lower = byValue.filter((c) => c.value < p.value).map((c) => `pods of ${c.metadata.name} (${c.value})`);
  if (p.value > 0) lower.unshift('pods without a class (0)');
  if (higher.length) r.lines.push(`Pods of ${higher.join(', ')} may preempt it.`);
  if (lower.length && p.preemptionPolicy !== 'Never') r.lines.push(`It may preempt ${lower.join(', ')}.`);
  for (const x of p.quotas)
    r.lines.push(
      x.counts
        ? `Quota ${x.name} counts its pods (PriorityClass scope).`
        : `Quota ${x.name} does not count its pods (its PriorityClass scope is for other classes).`,
    );
  return r;
}

/** "which PriorityClasses can I use". */
export function priorityListReply(
  classes: PriorityClass[],
  scoped: { namespace: string; quota: string; scope: string }[],
): Reply {
  const r = emptyReply(
    'info',
    'ℹ️',
    `${classes.length} PriorityClass${classes.length === 1 ? '' : 'es'} in the cluster`,
  );
  r.table = { columns: ['name', 'value', 'preemption', 'globalDefault'], rows: classRows(classes) };
  const dflt = classes.find((c) => c.globalDefault);
  r.lines.push(
    dflt
      ? `A pod without priorityClassName gets ${dflt.metadata.name} (${dflt.value}).`
      : 'A pod without priorityClassName gets priority 0 (no class is globalDefault).',
  );
  r.lines.push(
    'Any namespace may name any class (set spec.template.spec.priorityClassName), unless the API server limits a class to namespaces with a quota for it (ResourceQuota admission limitedResources, not visible here).',
  );
  for (const s of scoped.slice(0, 5)) r.lines.push(`In ${s.namespace}, quota ${s.quota} applies to ${s.scope}.`);
  return r;
}

/** "add a node": what one more node of each pool would take, and what no node can. */
export function newNodeReply(a: NewNodeAnswer, failing: { namespace: string; ref: string; cause: string }[]): Reply {
  const r = emptyReply(
    'whatif',
    '🔮',
    a.pods.length
      ? `One more node: ${a.pods.filter((p) => p.fitsOn.length).length} of ${a.pods.length} Pending pod${a.pods.length === 1 ? '' : 's'} would schedule`
      : 'One more node: no Pending pod is waiting for one',
  );
  for (const p of a.pods) {
    const who = `${p.name} (${p.namespace})`;
    if (p.beyondEveryNode.length)
      r.lines.push(
        `${who}: no node can ever hold it — ${p.beyondEveryNode.map((b) => `it requests ${b.requested} ${b.resource}, the largest node (${b.node}) allocates ${b.largest}`).join('; ')}. Lower the request; a node will not help.`,
      );
    else if (p.fitsOn.length) {
      const like = p.fitsOn.map((pool) => {
        const s = a.shapes.find((x) => x.pool === pool)!;
        return `${pool} (like ${s.like})`;
      });
      r.lines.push(`${who}: a new node in ${like.join(' or ')} would take it.`);
    } else
      r.lines.push(
        `${who}: no new node of any pool takes it — its node selector, affinity or tolerations match no pool with room (ask "why is ${p.name} pending").`,
      );
  }
  for (const f of failing.slice(0, 3))
    r.lines.push(`${f.ref} (${f.namespace}) cannot create pods: ${f.cause} — a node will not help.`);
  r.lines.push(
    `Pools: ${a.shapes
      .map(
        (s) =>
          `${s.pool} (like ${s.like}: ${s.allocatable.cpu ?? '?'} cpu / ${s.allocatable.memory ?? '?'}${Object.keys(
            s.allocatable,
          )
            .filter((k) => k.includes('/'))
            .map((k) => ` / ${s.allocatable[k]} ${k}`)
            .join('')})`,
      )
      .join(' · ')}. DaemonSet pods a new node would also run are not counted.`,
  );
  return r;
}
