/**
 * `/quota NAMESPACE` and "quota in team-a": every quota named with its scopes, bars per quota resource,
 * who holds the tightest resource (only the pods that quota counts), Pending pods that hold quota, the
 * default pod and which quota stops it, workloads, free capacity per node for the resources the
 * namespace uses (free GPUs per GPU node), and workloads failing to create pods.
 *
 * The Slack reply stays short (a handful of nodes, "and N more"); `quota NS --nodes` adds the full
 * per-node table (nodesReply) in the terminal.
 */
import { Quantity } from '../../quantity.ts';
import type { FailedCreate, Headroom, NodeCapacity, QuotaHeadroom } from '../../engine/headroom.ts';
import { emptyReply, type Answer, type Reply } from '../types.ts';

/** Nodes named in the short reply. */
export const SUMMARY_NODES = 5;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What a quota's scopes count, in words. */
export function scopeWords(scopes: string[]): string {
  if (scopes.length === 0) return 'counts every pod';
  const words = scopes.map((s) => {
    const m = /^(\S+)(?: (In|NotIn|Exists|DoesNotExist) ?(.*))?$/.exec(s);
    const name = m?.[1] ?? s;
    const op = m?.[2];
    const values = m?.[3] ?? '';
    switch (name) {
      case 'BestEffort':
        return 'only pods with no requests or limits (BestEffort)';
      case 'NotBestEffort':
        return 'only pods with requests or limits (NotBestEffort)';
      case 'Terminating':
        return 'only pods with activeDeadlineSeconds (Terminating)';
      case 'NotTerminating':
        return 'only pods without activeDeadlineSeconds (NotTerminating)';
      case 'PriorityClass':
        if (op === 'In') return `only pods of PriorityClass ${values.split(',').join(' or ')}`;
        if (op === 'NotIn') return `only pods not of PriorityClass ${values.split(',').join(' or ')}`;
        if (op === 'Exists') return 'only pods with a PriorityClass';
        return 'only pods without a PriorityClass';
      case 'CrossNamespacePodAffinity':
        return 'only pods with cross-namespace pod affinity';
      default:
        return `scope ${s}`;
    }
  });
  return `counts ${words.join(' and ')}`;
}

/** "0", "stopped by besteffort pods (2 / 2 used)": how many more fit and which quota (or the nodes) stops them. */
function fitText(h: Headroom, f: { fits: number; limitedBy: string | null; quota?: string }): string {
  const n = `${f.fits >= h.cap ? `${h.cap}+` : f.fits} more fit`;
  if (!f.limitedBy) return n;
  if (f.limitedBy === 'nodes') return `${n}, stopped by node capacity`;
  const q = f.quota ? h.quotas.find((x) => x.name === f.quota) : undefined;
  const v = q?.resources[f.limitedBy];
  return `${n}, stopped by ${f.quota ? `${f.quota} ` : ''}${f.limitedBy}${v ? ` (${v.used} / ${v.hard} used)` : ''}`;
}

/** "team-quota (counts every pod): pods full — held by deploy/web 4 · deploy/api 3 (1 Pending) …" */
function quotaLine(q: QuotaHeadroom): string {
  let line = `Quota ${q.name} ${scopeWords(q.scopes)}`;
  const t = q.tightest ? q.resources[q.tightest] : undefined;
  if (q.tightest && t) {
    const full = Quantity.parse(t.free).sign() <= 0;
    line += `; ${q.tightest} ${full ? 'is full' : `${t.used} / ${t.hard}`}`;
    if (q.holders.length) {
      const shown = q.holders
        .slice(0, 4)
        .map((x) => `${x.ref} ${x.total}${x.pending ? ` (${x.pending} Pending)` : ''}`)
        .join(' · ');
      line += ` — held by ${shown}${q.holders.length > 4 ? ` · and ${q.holders.length - 4} more` : ''}`;
    } else line += ' — no pod it counts holds any';
  }
  return `${line}.`;
}

/** "⚠ Pending pods hold 5 of gpu-quota's 8 requests.nvidia.com/gpu: finetune-7b-jmngj, notebook-priya (…)." */
function pendingHeldLine(q: QuotaHeadroom): string | null {
  if (q.pending.pods.length === 0) return null;
  const key = q.tightest && q.pending.resources[q.tightest] ? q.tightest : Object.keys(q.pending.resources)[0];
  if (!key) return null;
  const names =
    q.pending.pods.slice(0, 3).join(', ') + (q.pending.pods.length > 3 ? ` and ${q.pending.pods.length - 3} more` : '');
  return `⚠ ${q.pending.pods.length === 1 ? 'A Pending pod holds' : `${q.pending.pods.length} Pending pods hold`} ${q.pending.resources[key]} of ${q.name}'s ${q.resources[key]?.used ?? '0'} ${key} used: ${names} (Pending pods count without running).`;
}

/** Extended resources (nvidia.com/gpu, …) the namespace uses. */
function extendedOf(h: Headroom): string[] {
  return h.nodeResources.filter((r) => r !== 'cpu' && r !== 'memory' && r !== 'ephemeral-storage');
}

const takesPods = (n: NodeCapacity) =>
  n.status.length === 0 && !n.taints.some((t) => /:(NoSchedule|NoExecute)$/.test(t));

/** Free capacity per node, short: free GPUs per GPU node, else cpu / memory on the nodes that take ordinary pods. */
function nodeLines(h: Headroom): string[] {
  const out: string[] = [];
  for (const r of extendedOf(h)) {
    const withIt = h.nodes.filter((n) => Quantity.parse(n.resources[r]?.allocatable ?? '0').sign() > 0);
    if (withIt.length === 0) {
      out.push(`No node has ${r} allocatable.`);
      continue;
    }
    const sorted = [...withIt].sort(
      (a, b) =>
        Quantity.parse(b.resources[r]!.free).cmp(Quantity.parse(a.resources[r]!.free)) || (a.name < b.name ? -1 : 1),
    );
    const shown = sorted.slice(0, SUMMARY_NODES).map((n) => {
      const v = n.resources[r]!;
      const notes = [...n.status, ...n.taints.filter((t) => /:(NoSchedule|NoExecute)$/.test(t))];
      return `${n.name} ${v.free} of ${v.allocatable}${notes.length ? ` (${notes.join(', ')})` : ''}`;
    });
    const total = withIt.reduce((s, n) => s.add(Quantity.parse(n.resources[r]!.free)), Quantity.zero());
    out.push(
      `Free ${r} per node: ${shown.join(' · ')}${sorted.length > shown.length ? ` · and ${sorted.length - shown.length} more` : ''} — the most on one node is ${sorted[0]!.resources[r]!.free}, ${total} in all.`,
    );
  }
  const open = h.nodes
    .filter(takesPods)
    .sort(
      (a, b) =>
        Quantity.parse(b.resources.cpu!.free).cmp(Quantity.parse(a.resources.cpu!.free)) ||
        Quantity.parse(b.resources.memory!.free).cmp(Quantity.parse(a.resources.memory!.free)) ||
        (a.name < b.name ? -1 : 1),
    );
  if (open.length) {
    const shown = open
      .slice(0, SUMMARY_NODES)
      .map((n) => `${n.name} ${n.resources.cpu!.free} / ${n.resources.memory!.free}`);
    out.push(
      `Free cpu / memory on untainted nodes: ${shown.join(' · ')}${open.length > shown.length ? ` · and ${open.length - shown.length} more` : ''}.`,
    );
  } else out.push('No untainted, schedulable node: every node is tainted, cordoned or NotReady.');
  const down = h.nodes.filter((n) => n.status.length > 0).map((n) => `${n.name} ${n.status.join(', ')}`);
  if (down.length)
    out.push(
      `Not taking pods: ${down.slice(0, SUMMARY_NODES).join(' · ')}${down.length > SUMMARY_NODES ? ` · and ${down.length - SUMMARY_NODES} more` : ''}.`,
    );
  return out;
}

function since(iso: string | null): string {
  const m = iso ? /T(\d\d:\d\d)/.exec(iso) : null;
  return m ? ` since ${m[1]}` : '';
}

function failedCreateLine(f: FailedCreate[]): string | null {
  if (f.length === 0) return null;
  const shown = f
    .slice(0, 3)
    .map((x) => `${x.ref} — ${x.cause}, ${plural(x.count, 'time')}${since(x.first)}`)
    .join(' · ');
  return `⚠ Failing to create pods: ${shown}${f.length > 3 ? ` · and ${f.length - 3} more` : ''}.`;
}

export function headroomReply(h: Headroom): Reply {
  const lrNames = new Set(h.limitRanges.map((l) => l.name)).size;
  const r = emptyReply(
    'headroom',
    '📊',
    `${h.namespace} — ${plural(h.quotas.length, 'ResourceQuota')}, ${plural(lrNames, 'LimitRange')}`,
  );
  let tightest: { label: string; fraction: number } | null = null;
  r.bars = [];
  for (const q of h.quotas) {
    for (const [k, v] of Object.entries(q.resources)) {
      const hard = Quantity.parse(v.hard);
      const used = Quantity.parse(v.used);
      const fraction = hard.sign() > 0 ? Number((used.nanos * 1000n) / hard.nanos) / 1000 : 1;
      const label = h.quotas.length > 1 ? `${q.name}: ${k}` : k;
      r.bars.push({ label, used: v.used, hard: v.hard, free: v.free, fraction });
      if (!tightest || fraction > tightest.fraction) tightest = { label, fraction };
    }
  }
  if (tightest && tightest.fraction >= 0.5)
    for (const b of r.bars) if (b.label === tightest.label) b.note = '← tightest';
  if (h.quotas.length === 0)
    r.lines.push('No ResourceQuota in this namespace: only LimitRanges and the nodes limit it.');
  for (const q of h.quotas.slice(0, 4)) r.lines.push(quotaLine(q));
  if (h.quotas.length > 4) r.lines.push(`and ${h.quotas.length - 4} more ResourceQuotas.`);
  for (const q of h.quotas) {
    const l = pendingHeldLine(q);
    if (l) r.lines.push(l);
  }
  const dp = h.defaultPod;
  const shape = `${
    Object.entries(dp.requests)
      .map(([k, v]) => `${v} ${k}`)
      .join(' / ') || 'no requests'
  } → limits ${
    Object.entries(dp.limits)
      .map(([k, v]) => `${v} ${k}`)
      .join(' / ') || 'none'
  }`;
  if (dp.message) r.lines.push(`A pod with no resources is refused here: ${dp.message}`);
  else
    r.lines.push(
      `A pod with no resources gets ${shape}${h.limitRanges.some((l) => Object.keys(l.default).length + Object.keys(l.defaultRequest).length > 0) ? ' (LimitRange defaults)' : ''}: ${fitText(h, dp)}.`,
    );
  if (h.workloads.length) {
    const parts = h.workloads
      .slice(0, 8)
      .map(
        (w) =>
          `${w.name} (${w.replicas} × ${Object.values(w.perPod).join('/') || 'no requests'}): ${w.message ? `refused (${w.limitedBy})` : `+${w.fits >= h.cap ? `${h.cap}+` : w.fits}${w.limitedBy ? `, then ${w.limitedBy === 'nodes' ? 'nodes' : `${w.quota && h.quotas.length > 1 ? `${w.quota} ` : ''}${w.limitedBy}`}` : ''}`}`,
      );
    r.lines.push(parts.join(' · ') + (h.workloads.length > 8 ? ` · and ${h.workloads.length - 8} more` : ''));
  }
  r.lines.push(...nodeLines(h));
  if (h.pending.length)
    r.lines.push(
      `⚠ ${plural(h.pending.length, 'Pending pod')}: ${h.pending
        .slice(0, 5)
        .map((p) => p.name)
        .join(', ')}${h.pending.length > 5 ? ` and ${h.pending.length - 5} more` : ''}`,
    );
  const fc = failedCreateLine(h.failedCreate);
  if (fc) r.lines.push(fc);
  return r;
}

/** `quota NS --nodes`: allocatable, requested and free per node for the resources the namespace uses, with taints. */
export function nodesReply(h: Headroom): Reply {
  const r = emptyReply(
    'headroom',
    '🖥',
    `Nodes — ${h.nodeResources.join(', ')} (what ${h.namespace} uses): allocatable / requested / free`,
  );
  const columns = ['node', 'status', 'pods'];
  for (const res of h.nodeResources) columns.push(`${res} alloc`, `${res} req`, `${res} free`);
  columns.push('taints');
  r.table = {
    columns,
    rows: h.nodes.map((n) => {
      const row = [n.name, n.status.join(',') || 'Ready', `${n.pods.count}/${n.pods.allocatable}`];
      for (const res of h.nodeResources) {
        const v = n.resources[res];
        row.push(v?.allocatable ?? '0', v?.requested ?? '0', v?.free ?? '0');
      }
      row.push(n.taints.join(', ') || '—');
      return row;
    }),
  };
  r.lines.push(
    'Requested counts every pod bound to the node (all namespaces), as the scheduler does; memory in Mi, rounded down.',
  );
  return r;
}

/** A namespace whose objects hold a value no API server accepts: no numbers rather than wrong ones. */
export function headroomUnreadableAnswer(ns: string): Answer {
  const r = emptyReply('error', '⚠️', `I couldn't compute the headroom of ${ns}`);
  r.lines.push(
    'An object in this namespace has a value I cannot read (for example a malformed quantity), so the numbers would be wrong.',
  );
  return { replies: [r], namespaces: [ns] };
}
