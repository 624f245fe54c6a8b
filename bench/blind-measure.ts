/**
 * Blind measure of the paste parser (issue #17, acceptance "layer right ≥ 97%, exact facts ≥ 97%"): run a
 * JSONL set of real pasted messages through `parsePaste` and compare with the labels a careful platform
 * engineer gave them.
 *
 *   node --import tsx bench/blind-measure.ts SET.jsonl [--json] [--show]
 *
 * One item a line: `{"id", "source", "text", "expect": [{"layer", "kind", "facts"?, "object"?, "namespace"?}]}`
 * (`kind: null` leaves the kind open).
 * - layer right: the layers of our findings, in order, are the expected ones (an empty `expect` wants no finding);
 * - exact facts: layer right, every kind is the expected one, and every key the label gives for facts,
 *   object and namespace is deep-equal to ours (keys the label leaves out are not checked).
 * Prints both percentages and every miss with what we found; `--show` prints our findings for every item.
 * Exits 0 whatever the figures: it measures, it does not gate (test/parse/paste-wild.test.ts does).
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { parsePaste } from '../src/parse/index.ts';
import type { Finding } from '../src/parse/index.ts';

export interface BlindExpect {
  layer: string;
  /** Null where the kind is left open (a look-alike whose kind another parser owns). */
  kind: string | null;
  facts?: Record<string, unknown>;
  object?: Record<string, unknown>;
  namespace?: string;
}
export interface BlindItem {
  id: string;
  source: string;
  text: string;
  expect: BlindExpect[];
  /** Why a parser outside the measured slice still misreads it (test/parse/paste-wild.test.ts skips it). */
  pending?: string;
}
export interface BlindResult {
  id: string;
  layerRight: boolean;
  factsRight: boolean;
  /** What differs, one line each (empty when both are right). */
  diffs: string[];
  got: Finding[];
}

/** Compare one item's findings with its labels. */
export function judge(item: BlindItem): BlindResult {
  const got = parsePaste(item.text).findings;
  const diffs: string[] = [];
  const gotLayers = got.map((f) => f.layer);
  const wantLayers = item.expect.map((e) => e.layer);
  const layerRight = isDeepStrictEqual(gotLayers, wantLayers);
  if (!layerRight) diffs.push(`layers: want [${wantLayers.join(', ')}] got [${gotLayers.join(', ')}]`);
  if (layerRight) {
    item.expect.forEach((e, i) => {
      const g = got[i]!;
      if (e.kind !== null && g.kind !== e.kind) diffs.push(`finding ${i} kind: want ${e.kind} got ${g.kind}`);
      const facts = g.facts as unknown as Record<string, unknown>;
      for (const [k, v] of Object.entries(e.facts ?? {}))
        if (!isDeepStrictEqual(facts[k], v))
          diffs.push(`finding ${i} facts.${k}: want ${JSON.stringify(v)} got ${JSON.stringify(facts[k])}`);
      const obj = (g.object ?? {}) as Record<string, unknown>;
      for (const [k, v] of Object.entries(e.object ?? {}))
        if (!isDeepStrictEqual(obj[k], v))
          diffs.push(`finding ${i} object.${k}: want ${JSON.stringify(v)} got ${JSON.stringify(obj[k])}`);
      if (e.namespace !== undefined && g.namespace !== e.namespace)
        diffs.push(`finding ${i} namespace: want ${e.namespace} got ${g.namespace}`);
    });
  }
  return { id: item.id, layerRight, factsRight: layerRight && diffs.length === 0, diffs, got };
}

export function readSet(path: string): BlindItem[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as BlindItem);
}

function pct(n: number, d: number): string {
  return d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`;
}

function main(argv: string[]): void {
  const path = argv.find((a) => !a.startsWith('--'));
  if (!path) {
    process.stderr.write('usage: node --import tsx bench/blind-measure.ts SET.jsonl [--json] [--show]\n');
    process.exitCode = 2;
    return;
  }
  const items = readSet(path);
  const results = items.map(judge);
  const layer = results.filter((r) => r.layerRight).length;
  const facts = results.filter((r) => r.factsRight).length;
  if (argv.includes('--json')) {
    process.stdout.write(
      `${JSON.stringify({ items: items.length, layerRight: layer, factsRight: facts, misses: results.filter((r) => !r.factsRight).map((r) => ({ id: r.id, diffs: r.diffs })) })}\n`,
    );
    return;
  }
  const show = argv.includes('--show');
  for (const [i, r] of results.entries()) {
    if (r.factsRight && !show) continue;
    const item = items[i]!;
    process.stdout.write(`${r.factsRight ? 'ok  ' : 'MISS'} ${r.id}  ${item.source}\n`);
    for (const d of r.diffs) process.stdout.write(`     ${d}\n`);
    if (!r.factsRight || show)
      for (const f of r.got) process.stdout.write(`     got ${f.layer}/${f.kind} ${JSON.stringify(f.facts)}\n`);
  }
  process.stdout.write(
    `${path}: ${items.length} items, layer right ${layer} (${pct(layer, items.length)}), exact facts ${facts} (${pct(facts, items.length)})\n`,
  );
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) main(process.argv.slice(2));
