/**
 * Every real paste under test/fixtures/pastes/NNN-*.txt with its NNN-*.json (`{source, findings}`):
 * parsePaste must produce findings whose layer/kind match in order, and every key the fixture gives for
 * facts, object and namespace must be deep-equal to ours (keys the fixture leaves out are not checked).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

interface ExpectedFinding {
  layer: string;
  kind: string;
  object?: Record<string, unknown>;
  namespace?: string;
  facts?: Record<string, unknown>;
}

const dir = join(import.meta.dirname, '..', 'fixtures', 'pastes');
const cases = existsSync(dir)
  ? readdirSync(dir)
      .filter((f) => /^\d{3}-.*\.txt$/.test(f) && existsSync(join(dir, f.replace(/\.txt$/, '.json'))))
      .sort()
  : [];

describe('real pastes (test/fixtures/pastes)', () => {
  it('has fixtures', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases)('%s', (file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const expected = JSON.parse(readFileSync(join(dir, file.replace(/\.txt$/, '.json')), 'utf8')) as {
      findings: ExpectedFinding[];
    };
    const got = parsePaste(text).findings;
    expect(got.map((f) => `${f.layer}/${f.kind}`)).toEqual(expected.findings.map((f) => `${f.layer}/${f.kind}`));
    expected.findings.forEach((e, i) => {
      const g = got[i]!;
      for (const [k, v] of Object.entries(e.facts ?? {}))
        expect(Object.fromEntries(Object.entries(g.facts))[k], `finding ${i} facts.${k}`).toEqual(v);
      for (const [k, v] of Object.entries(e.object ?? {}))
        expect((g.object as Record<string, unknown> | undefined)?.[k], `finding ${i} object.${k}`).toEqual(v);
      if (e.namespace !== undefined) expect(g.namespace, `finding ${i} namespace`).toEqual(e.namespace);
    });
  });
});
