/** `/quota NAMESPACE` and "quota in team-a": bars per quota resource, the default pod, workloads, Pending pods. */
import { Quantity } from '../../quantity.ts';
import type { Headroom } from '../../engine/headroom.ts';
import { emptyReply, type Answer, type Reply } from '../types.ts';

export function headroomReply(h: Headroom): Reply {
  const r = emptyReply(
    'headroom',
    '📊',
    `${h.namespace} — ${h.quotas.length} ResourceQuota${h.quotas.length === 1 ? '' : 's'}, ${new Set(h.limitRanges.map((l) => l.name)).size} LimitRange${new Set(h.limitRanges.map((l) => l.name)).size === 1 ? '' : 's'}`,
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
      `A pod with no resources gets ${shape}${h.limitRanges.length ? ' (LimitRange defaults)' : ''}: ${dp.fits >= h.cap ? `${h.cap}+` : dp.fits} more fit${dp.limitedBy ? `, stopped by ${dp.limitedBy === 'nodes' ? 'node capacity' : dp.limitedBy}` : ''}.`,
    );
  if (h.workloads.length) {
    const parts = h.workloads
      .slice(0, 8)
      .map(
        (w) =>
          `${w.name} (${w.replicas} × ${Object.values(w.perPod).join('/') || 'no requests'}): ${w.message ? `refused (${w.limitedBy})` : `+${w.fits >= h.cap ? `${h.cap}+` : w.fits}${w.limitedBy ? `, then ${w.limitedBy === 'nodes' ? 'nodes' : w.limitedBy}` : ''}`}`,
      );
    r.lines.push(parts.join(' · ') + (h.workloads.length > 8 ? ` · and ${h.workloads.length - 8} more` : ''));
  }
  if (h.largestSchedulablePod)
    r.lines.push(
      `Largest pod that schedules now: ${h.largestSchedulablePod.cpu} CPU / ${h.largestSchedulablePod.memory}, on ${h.largestSchedulablePod.node}.`,
    );
  if (h.pending.length)
    r.lines.push(
      `⚠ ${h.pending.length} Pending pod${h.pending.length === 1 ? '' : 's'}: ${h.pending
        .slice(0, 5)
        .map((p) => p.name)
        .join(', ')}${h.pending.length > 5 ? ` and ${h.pending.length - 5} more` : ''}`,
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
