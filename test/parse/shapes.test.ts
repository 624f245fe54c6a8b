/**
 * Metamorphic test of the paste parser (issue #17, Deliver 6): a message read right alone is read the same
 * inside the shapes real pastes give it. The messages are those of the dev sets' ready items whose label is
 * one scheduler, quota or LimitRange finding (test/fixtures/paste-wild/dev.jsonl, dev2.jsonl, held2.jsonl,
 * classes3.jsonl): the text `parsePaste` read as that finding, on its own. Each is wrapped in single and
 * double backticks, a `>` quote, a `- ` bullet, a markdown table cell, a klog and a timestamp prefix, Slack's
 * `*bold*`, and prose before and after it on the same line; the findings' layers, kinds and facts must not
 * change.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSet } from '../../bench/blind-measure.ts';
import { parsePaste } from '../../src/parse/index.ts';

const DEV_SETS = ['dev.jsonl', 'dev2.jsonl', 'held2.jsonl', 'classes3.jsonl'];
const LAYERS = new Set(['scheduler', 'quota', 'limitrange']);

type Shape = readonly [name: string, wrap: (m: string) => string];
const SHAPES: readonly Shape[] = [
  ['single backticks', (m) => `\`${m}\``],
  ['double backticks', (m) => `\`\`${m}\`\``],
  ['a > quote', (m) => `> ${m}`],
  ['a - bullet', (m) => `- ${m}`],
  ['a markdown table cell', (m) => `| Warning | FailedScheduling | ${m} |`],
  ['a klog prefix', (m) => `E0312 09:14:07.123456       1 schedule_one.go:1004] ${m}`],
  ['a timestamp prefix', (m) => `2024-03-12T09:14:07.123Z ${m}`],
  ['Slack *bold*', (m) => `*${m}*`],
  ['prose before and after', (m) => `After the rollout we got ${m} and the pod never started.`],
];

/** What a finding says, without where it was found (the message text and the object change with the shape). */
function said(text: string): { layer: string; kind: string; facts: unknown }[] {
  return parsePaste(text).findings.map((f) => ({ layer: f.layer, kind: f.kind, facts: f.facts }));
}

/** The messages: each dev item's single admission or scheduler finding, as `parsePaste` cut it, read alone the same. */
function messages(): { id: string; message: string }[] {
  const out: { id: string; message: string }[] = [];
  for (const file of DEV_SETS) {
    for (const item of readSet(join(import.meta.dirname, '..', 'fixtures', 'paste-wild', file))) {
      if (item.pending !== undefined || item.expect.length !== 1 || !LAYERS.has(item.expect[0]!.layer)) continue;
      const found = parsePaste(item.text).findings;
      if (found.length !== 1) continue;
      const message = found[0]!.message.replace(/\s+/g, ' ').trim();
      const alone = said(message);
      // Only messages whose text alone says what the paste said (some need the lines around them).
      if (alone.length === 1 && JSON.stringify(alone[0]!.facts) === JSON.stringify(found[0]!.facts))
        out.push({ id: item.id, message });
    }
  }
  return out;
}

const cases = messages();

describe('a message reads the same in the shapes pastes give it', () => {
  it('has messages of each layer to wrap', () => {
    const layers = new Set(cases.map((c) => said(c.message)[0]!.layer));
    expect([...layers].sort()).toEqual(['limitrange', 'quota', 'scheduler']);
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  const rows = cases.flatMap((c) => SHAPES.map(([name, wrap]) => [`${c.id} in ${name}`, c.message, wrap] as const));
  it.each(rows)('%s', (_name, message, wrap) => {
    expect(said(wrap(message))).toEqual(said(message));
  });
});
