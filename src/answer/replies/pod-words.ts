/** Words the what-if replies share: a pod shape per pod, and how a batch of new pods fared. */
import type { PodTally } from '../../engine/whatif/index.ts';

/** `250m cpu / 256Mi memory`, or `no requests`. */
export function perPodText(x: Record<string, string>): string {
  return (
    Object.entries(x)
      .map(([k, v]) => `${v} ${k}`)
      .join(' / ') || 'no requests'
  );
}

/** `+3 pods: 2 admitted, 1 rejected`, the top rejections, then where the admitted ones schedule. */
export function tallyLines(t: PodTally): string[] {
  const out: string[] = [];
  out.push(`+${t.attempted} pod${t.attempted === 1 ? '' : 's'}: ${t.admitted} admitted, ${t.rejected} rejected`);
  for (const x of t.rejections.slice(0, 3)) out.push(`   ${x.count} × ${x.message}`);
  if (t.admitted) {
    const nodes = Object.entries(t.nodes).map(([n, c]) => (c > 1 ? `${n} ×${c}` : n));
    out.push(
      `Of the ${t.admitted}: ${t.scheduled} schedule${nodes.length ? ` (${nodes.slice(0, 8).join(', ')}${nodes.length > 8 ? ` and ${nodes.length - 8} more nodes` : ''})` : ''}, ${t.pending} stay Pending`,
    );
    for (const x of t.pendingMessages.slice(0, 2)) out.push(`   ${x.count} × ${x.message}`);
  }
  return out;
}
