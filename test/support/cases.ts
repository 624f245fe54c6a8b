/**
 * Loads the conformance cases of ../shared/cases (or QUOTA_DOCTOR_CASES) and turns one into the same
 * inputs the CLI's `simulate` builds: a snapshot and the objects to admit.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Case {
  id: string;
  source: string;
  layer: string;
  confidence: string;
  k8sVersion: string;
  input: Record<string, unknown>;
  expected: Record<string, unknown>;
  note?: string;
}

export function casesDir(): string {
  const env = process.env.QUOTA_DOCTOR_CASES;
  if (env) return env;
  return fileURLToPath(new URL('../../../shared/cases', import.meta.url));
}

export function loadCases(): Case[] {
  const dir = casesDir();
  if (!existsSync(dir)) throw new Error(`conformance cases not found at ${dir} (set QUOTA_DOCTOR_CASES)`);
  const files = dir.endsWith('.jsonl') ? [dir] : readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f));
  const out: Case[] = [];
  for (const f of files) {
    for (const line of readFileSync(f, 'utf8').split('\n')) if (line.trim()) out.push(JSON.parse(line) as Case);
  }
  return out;
}

/** `[m1, m2]` LimitRange aggregates compare as sets (Kubernetes orders them by map iteration). */
export function normalizeBracketed(message: string): string {
  const m = /^(.*? is forbidden: )\[(.*)\]$/.exec(message);
  if (!m) return message;
  return `${m[1]}[${m[2]!.split(/, (?=(?:minimum|maximum|[a-z0-9./-]+ max limit))/).sort().join(', ')}]`;
}
