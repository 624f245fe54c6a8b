/**
 * Answers as terminal text (the console and the CLI without --json): the same content as Block Kit,
 * in the order of docs/replies.md. Pure: strings in, a string out.
 */
import type { Answer, Fix, PathLayer, PathState, Reply } from '../answer/types.ts';
import type { SimResult } from '../answer/types.ts';
import { barGlyphs, barLines, pathLine, tableLines, WHO_WORDS } from './layout.ts';
import { layerInfo } from '../k8s/layers.ts';

export interface TextOptions {
  /** ANSI colour (TTY only). */
  color?: boolean;
}

export function renderPath(path: { layer: PathLayer; state: PathState }[]): string {
  return pathLine(path);
}

export function renderTable(columns: string[], rows: string[][]): string[] {
  return tableLines(columns, rows);
}

export function renderBar(fraction: number, width = 10): string {
  return barGlyphs(fraction, width);
}

function renderFix(f: Fix, i: number): string[] {
  const out = [`${i + 1}. ${WHO_WORDS[f.who]} · ${f.summary}${f.verified ? `   ✓ ${f.outcome ?? 'verified'}` : ''}`];
  if (f.change) for (const l of f.change.split('\n')) out.push(`   ${l}`);
  if (f.sideEffects?.length) out.push(`   also: ${f.sideEffects.join('; ')}`);
  return out;
}

export function renderReply(r: Reply): string {
  const out: string[] = [`${r.icon} ${r.headline}`];
  const body: string[] = [];
  if (r.path) body.push(pathLine(r.path), '');
  if (r.table && r.table.rows.length > 0) body.push(...tableLines(r.table.columns, r.table.rows), '');
  if (r.bars && r.bars.length > 0) body.push(...barLines(r.bars), '');
  body.push(...r.lines);
  if (r.fixes.length > 0) {
    if (body.length && body[body.length - 1] !== '') body.push('');
    body.push('Fixes');
    r.fixes.forEach((f, i) => {
      body.push(...renderFix(f, i));
    });
  }
  if (r.why) {
    if (body.length && body[body.length - 1] !== '') body.push('');
    body.push(r.why);
  }
  for (const g of r.gaps) body.push(`⚠ ${g}`);
  if (r.raw) {
    if (body.length && body[body.length - 1] !== '') body.push('');
    body.push(`Kubernetes said: ${r.raw}`);
  }
  while (body.length && body[body.length - 1] === '') body.pop();
  for (const l of body) out.push(l === '' ? '' : `   ${l}`);
  return out.join('\n');
}

export function renderAnswer(a: Answer): string {
  return a.replies.map(renderReply).join('\n\n');
}

/** `simulate` / `check` without --json: one block per object. */
export function renderSimulation(results: SimResult[], warnings: string[], opts: { check?: boolean } = {}): string {
  const out: string[] = [];
  for (const r of results) {
    const id = r.namespace ? `${r.kind} ${r.namespace}/${r.name}` : `${r.kind} ${r.name}`;
    if (!r.admission.allowed) {
      out.push(`✗ ${id}: rejected by ${layerWords(r.admission.layer)}`, `    ${r.admission.message}`);
      continue;
    }
    const usage = Object.entries(r.quotaUsage)
      .map(
        ([q, u]) =>
          `${q}: ${Object.entries(u)
            .map(([k, v]) => `${k}=${v}`)
            .join(',')}`,
      )
      .join('; ');
    if (!r.scheduling) out.push(`✓ ${id}: admitted${usage ? ` (charges ${usage})` : ''}`);
    else if (r.scheduling.scheduled)
      out.push(`✓ ${id}: admitted, scheduled on ${r.scheduling.node}${usage ? ` (charges ${usage})` : ''}`);
    else if (r.scheduling.gated) out.push(`⏳ ${id}: admitted, scheduling gated (not attempted)`);
    else if (r.scheduling.preEnqueue)
      out.push(
        `⏳ ${id}: admitted, not attempted by the scheduler: ${r.scheduling.preEnqueue.plugin}: ${r.scheduling.preEnqueue.reason}`,
      );
    else if (r.scheduling.unknown !== undefined)
      out.push(`? ${id}: admitted; placement unknown: ${r.scheduling.unknown}`);
    else {
      out.push(
        `⏳ ${id}: admitted but unschedulable${r.scheduling.nominatedNode ? ` (would preempt on ${r.scheduling.nominatedNode}: ${(r.scheduling.victims ?? []).join(', ')})` : ''}`,
      );
      out.push(`    ${r.scheduling.message}`);
    }
  }
  for (const w of warnings) out.push(`⚠ ${w}`);
  if (opts.check) {
    const bad = results.filter((r) => !r.admission.allowed || (r.scheduling && !r.scheduling.scheduled)).length;
    out.push(
      bad === 0
        ? `check passed: ${results.length} object(s) admitted and scheduled`
        : `check failed: ${bad} of ${results.length} object(s) would be rejected or stay Pending`,
    );
  }
  return out.join('\n');
}

/** How a simulate line names what refused (the LAYERS table), or "the API server" for anything else. */
export function layerWords(layer: string | null): string {
  return layerInfo(layer)?.refusedBy ?? 'the API server';
}
