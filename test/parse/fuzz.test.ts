/**
 * parsePaste must never throw and must stay linear-ish: seeded random bytes, mutated real pastes, and
 * 1 MB inputs built to provoke backtracking (many keywords, long runs of one character, one huge line).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';
import { prng } from '../support/prng.ts';

const dir = join(import.meta.dirname, '..', 'fixtures', 'pastes');
const pastes = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => f.endsWith('.txt'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
  : [];
const seeds = [
  'pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2',
  '0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
  'pods "b" is forbidden: [maximum cpu usage per Pod is 2, but limit is 2400m., maximum memory usage per Pod is 2Gi, but limit is 2306867200.]',
  'The Pod "w" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
  '```yaml\napiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n```',
  ...pastes,
];

const TOKENS = [
  'exceeded quota:',
  ' requested: ',
  ' used: ',
  ' limited: ',
  'a=1,',
  'failed quota: ',
  ': must specify ',
  ' for: ',
  'usage per ',
  ' is ',
  ', but request is ',
  ' max limit to request ratio per ',
  'nodes are available:',
  '0/3 ',
  ' preemption: ',
  'is forbidden: ',
  '"',
  '[',
  ']',
  '{',
  '}',
  '.',
  ',',
  ' ',
  '\n',
  '│',
  '&gt;',
  '`',
  '\\"',
  "''",
  'Invalid value: ',
  'must be equal to ',
  'fit failure on node (',
  'OOMKilled',
  "Quota '",
  'admission webhook "',
  'apiVersion: v1\nkind: Pod\n',
  '---\n',
  'Name: x\n',
  '-n ns ',
];

function mutate(text: string, rnd: () => number): string {
  const chars = [...text];
  const n = 1 + Math.floor(rnd() * 12);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(rnd() * (chars.length + 1));
    const op = rnd();
    if (op < 0.3) chars.splice(at, 1 + Math.floor(rnd() * 5));
    else if (op < 0.7) chars.splice(at, 0, TOKENS[Math.floor(rnd() * TOKENS.length)]!);
    else chars.splice(at, 0, String.fromCharCode(Math.floor(rnd() * 0x3000)));
  }
  return chars.join('');
}

function randomBytes(rnd: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(String.fromCharCode(rnd() < 0.9 ? 32 + Math.floor(rnd() * 95) : Math.floor(rnd() * 0x800)));
  return out.join('');
}

function timed(text: string): number {
  const t0 = performance.now();
  const r = parsePaste(text);
  const ms = performance.now() - t0;
  expect(Array.isArray(r.findings)).toBe(true);
  return ms;
}

const MB = 1024 * 1024;
const big: [string, () => string][] = [
  ['random printable', () => randomBytes(prng(1), MB)],
  ['random with newlines every ~80', () => randomBytes(prng(2), MB).replace(/(.{80})/g, '$1\n')],
  ['one keyword-dense line', () => 'exceeded quota: '.repeat(MB / 16)],
  ['usage per, no newline', () => 'usage per '.repeat(MB / 10)],
  ['dots', () => '.'.repeat(MB)],
  [
    'repeated real paste',
    () => `${seeds.join('\n')}\n`.repeat(Math.ceil(MB / (seeds.join('\n').length + 1))).slice(0, MB),
  ],
  [
    'mutated real pastes, 1 MB',
    () => {
      const rnd = prng(3);
      const parts: string[] = [];
      let size = 0;
      while (size < MB) {
        const p = mutate(seeds[Math.floor(rnd() * seeds.length)]!, rnd);
        parts.push(p);
        size += p.length + 1;
      }
      return parts.join('\n');
    },
  ],
  ['nodes are available with counts', () => `0/3 nodes are available: ${'1 Insufficient cpu, '.repeat(MB / 20)}`],
  ['forbidden envelopes', () => 'pods "x" is forbidden: '.repeat(MB / 23)],
  ['fit failures', () => 'fit failure on node (n): Insufficient cpu\n'.repeat(MB / 42)],
  [
    'deep YAML',
    () =>
      `apiVersion: v1\nkind: Pod\n${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i % 200)}k${i}:`).join('\n')}`,
  ],
];

describe('fuzz', () => {
  it('never throws on mutated real pastes and random bytes (seeded)', () => {
    const rnd = prng(42);
    let slowest = 0;
    for (let i = 0; i < 1500; i++) {
      const text = i % 3 === 0 ? randomBytes(rnd, Math.floor(rnd() * 4000)) : mutate(seeds[i % seeds.length]!, rnd);
      slowest = Math.max(slowest, timed(text));
    }
    expect(slowest).toBeLessThan(200);
  });

  it.each(big)('1 MB input: %s, well under a second', (_name, make) => {
    const text = make();
    // One warm-up run: the bound is about the parser, not about compiling it.
    timed(text);
    // The fastest of three runs: what the parser costs, not how often another suite took the core meanwhile.
    const ms = Math.min(timed(text), timed(text), timed(text));
    // What a 1 MB paste costs is measured by `npm run bench` (bench/parse.ts: 50–180 ms median on an idle 2-core
    // machine, by shape). This bound is for what a benchmark does not stop: work that grows faster than the
    // paste (a quadratic scan costs seconds here); a slower CI machine must not fail it.
    expect(ms).toBeLessThan(1000);
  });

  it('caps input above maxBytes', () => {
    expect(parsePaste('a'.repeat(2 * MB)).truncated).toBe(true);
  });
});
