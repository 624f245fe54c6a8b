/**
 * Loads the conformance cases of test/fixtures/cases/ (README there) and turns one into the same inputs the
 * CLI's `simulate` builds. Paths resolve from this file (import.meta.url), never from the working directory,
 * and nothing outside the repository is read unless QUOTA_DOCTOR_CASES names it.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Snapshot, type KObject } from '../../src/k8s/snapshot.ts';

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

/** The repository's own copy of the cases. */
export const CASES_DIR = fileURLToPath(new URL('../fixtures/cases/', import.meta.url));
/** The public conformance sample (docs/kubernetes-semantics.md §10). */
export const PUBLIC_CASES = join(CASES_DIR, 'k8s-cases.jsonl');
/** Rows ported from upstream's own unit-test tables (same schema). */
export const UPSTREAM_ADMISSION_CASES = join(CASES_DIR, 'upstream-admission.jsonl');
export const UPSTREAM_SCHEDULER_CASES = join(CASES_DIR, 'upstream-scheduler.jsonl');
/** Cases derived from the v1.35 admission chain (lifecycle, priority, runtime class, validation, quota on UPDATE). */
export const UPSTREAM_ADMISSION_CHAIN_CASES = join(CASES_DIR, 'upstream-admission-chain.jsonl');

/**
 * The state a case's `input` describes: each key a list of objects of one kind (the kind is filled in when
 * an object names none). `namespaces` lists Namespace objects (`status.phase: Terminating` for one being
 * deleted); a case without it says nothing about namespaces. `runtimeClasses` are node.k8s.io/v1 RuntimeClasses.
 */
export const CASE_STATE_KEYS: readonly (readonly [key: string, kind: string])[] = [
  ['namespaces', 'Namespace'],
  ['nodes', 'Node'],
  ['pods', 'Pod'],
  ['limitRanges', 'LimitRange'],
  ['resourceQuotas', 'ResourceQuota'],
  ['priorityClasses', 'PriorityClass'],
  ['storageClasses', 'StorageClass'],
  ['runtimeClasses', 'RuntimeClass'],
  ['persistentVolumeClaims', 'PersistentVolumeClaim'],
  ['persistentVolumes', 'PersistentVolume'],
];

/** A snapshot holding every object of the case's state keys (CASE_STATE_KEYS). */
export function caseSnapshot(input: Record<string, unknown>): Snapshot {
  const snapshot = new Snapshot();
  for (const [key, kind] of CASE_STATE_KEYS) {
    for (const o of (input[key] as KObject[] | undefined) ?? []) snapshot.put({ ...o, kind: o.kind ?? kind });
  }
  return snapshot;
}

// --- volume plugins and DRA (scheduler cases) ---
/** Scheduler rows derived from the v1.35 volume plugins and DynamicResources. */
export const UPSTREAM_VOLUMES_DRA_CASES = join(CASES_DIR, 'upstream-volumes-dra.jsonl');
/** `input` fields of the volume-plugin and DRA state, with the kind of their objects. */
export const VOLUME_DRA_STATE_FIELDS = [
  ['csiNodes', 'CSINode'],
  ['csiDrivers', 'CSIDriver'],
  ['resourceClaims', 'ResourceClaim'],
  ['deviceClasses', 'DeviceClass'],
  ['resourceSlices', 'ResourceSlice'],
] as const;
// --- end of volume plugins and DRA ---

/**
 * The files of the public sample: PUBLIC_CASES, or what QUOTA_DOCTOR_CASES names (a `.jsonl` file, or a
 * folder whose `*.jsonl` files are read in name order) to run another set of the same schema.
 */
export function publicCaseFiles(env: string | undefined = process.env.QUOTA_DOCTOR_CASES): string[] {
  if (!env) return [PUBLIC_CASES];
  if (!statSync(env, { throwIfNoEntry: false })?.isDirectory()) return [env];
  return readdirSync(env)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(env, f));
}

/** Every case of one JSON-lines file, in file order. A missing file is an error, never an empty list. */
export function readCases<T = Case>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

/** The public sample's cases (QUOTA_DOCTOR_CASES to replace it). */
export function loadCases<T = Case>(): T[] {
  return publicCaseFiles().flatMap((f) => readCases<T>(f));
}

/** `[m1, m2]` LimitRange aggregates compare as sets (Kubernetes orders them by map iteration). */
export function normalizeBracketed(message: string): string {
  const m = /^(.*? is forbidden: )\[(.*)\]$/.exec(message);
  if (!m) return message;
  return `${m[1]}[${m[2]!
    .split(/, (?=(?:minimum|maximum|[a-z0-9./-]+ max limit))/)
    .sort()
    .join(', ')}]`;
}
