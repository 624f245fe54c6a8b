/**
 * Never echo Secret data (the k8sgpt `Sensitive` model) nor literal environment values:
 * - a Secret, at any depth (a `kind: List` of them, as `kubectl get secret -o yaml` prints, a
 *   `SecretList`, Lists inside Lists, or a Secret inside any other value) keeps its kind, name and
 *   namespace; `data`/`stringData` become one marker and the rest of its metadata (labels, annotations —
 *   `last-applied-configuration` holds the whole Secret) is dropped;
 * - every container, initContainer and ephemeralContainer list, at any depth (Pods, templates of
 *   workloads, CronJob job templates, Lists), has its `env[].value`s masked: they decide nothing
 *   about admission or scheduling;
 * - the `kubectl.kubernetes.io/last-applied-configuration` annotation (a copy of the object as applied,
 *   env values included) is masked on every object.
 * It applies both where objects come in (before the engine sees them) and where they leave for output
 * (JSON of `simulate` and `diagnose`). Nothing else is changed; input values are never mutated.
 */
import type { KObject } from '../k8s/snapshot.ts';

export const REDACTED = '[redacted]';

const CONTAINER_LISTS = new Set(['containers', 'initContainers', 'ephemeralContainers']);
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** Deeper than any real object (a List of Lists of workloads is ~15): beyond it the value is replaced. */
const MAX_DEPTH = 64;

type Json = Record<string, unknown>;

function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A Secret manifest: `kind: Secret` with a string apiVersion (a simulate result `{kind, name, …}` is not one). */
function isSecret(o: Json): boolean {
  return o.kind === 'Secret' && typeof o.apiVersion === 'string';
}

function redactSecretObject(o: Json): Json {
  const meta = isRecord(o.metadata) ? o.metadata : {};
  const metadata: Json = {};
  for (const k of ['name', 'generateName', 'namespace'] as const)
    if (typeof meta[k] === 'string') metadata[k] = meta[k];
  const out: Json = { apiVersion: o.apiVersion, kind: o.kind, metadata };
  if (typeof o.type === 'string') out.type = o.type;
  if ('data' in o || 'stringData' in o) out.data = REDACTED;
  return out;
}

function maskContainers(list: unknown[], depth: number): unknown[] {
  return list.map((c) => {
    if (!isRecord(c)) return walk(c, depth + 1);
    const out = walkObject(c, depth + 1);
    if (Array.isArray(c.env)) {
      out.env = c.env.map((e) =>
        isRecord(e) && 'value' in e && e.value !== undefined && e.value !== null
          ? { ...walkObject(e, depth + 3), value: REDACTED }
          : walk(e, depth + 2),
      );
    }
    return out;
  });
}

function walkObject(o: Json, depth: number): Json {
  const out: Json = {};
  // A `SecretList` names its items' kind once (API responses leave `kind` off the items); a simulate
  // result `{kind: 'Secret', name, object}` carries the Secret as decoded, which may have lost it too.
  const secretItems = o.kind === 'SecretList';
  const secretResult = o.kind === 'Secret' && typeof o.apiVersion !== 'string';
  for (const [k, v] of Object.entries(o)) {
    if (secretItems && k === 'items' && Array.isArray(v))
      out[k] = v.map((x) =>
        isRecord(x) ? redactSecretObject({ apiVersion: 'v1', kind: 'Secret', ...x }) : walk(x, depth + 2),
      );
    else if (secretResult && k === 'object' && isRecord(v))
      out[k] = redactSecretObject({ apiVersion: 'v1', kind: 'Secret', ...v });
    else if (CONTAINER_LISTS.has(k) && Array.isArray(v)) out[k] = maskContainers(v, depth);
    else if (k === 'annotations' && isRecord(v) && LAST_APPLIED in v) out[k] = { ...v, [LAST_APPLIED]: REDACTED };
    else out[k] = walk(v, depth + 1);
  }
  return out;
}

function walk(v: unknown, depth: number): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (depth > MAX_DEPTH) return REDACTED;
  if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
  if (isSecret(v as Json)) return redactSecretObject(v as Json);
  return walkObject(v as Json, depth);
}

/** Any value (an object, a List, an array, an output document) with Secrets and env values redacted at every depth. */
export function redactDeep<T>(value: T): T {
  return walk(value, 0) as T;
}

/** One object (or a List of them) as it enters the engine or an output. */
export function redactSecrets(obj: KObject): KObject {
  return redactDeep(obj);
}

/** Masks bearer tokens, Slack tokens and key-like strings in free text before it is logged or shown. */
export function maskTokens(text: string): string {
  return text
    .replace(/xox[abposr]-[A-Za-z0-9-]{6,}/g, 'xox?-[redacted]')
    .replace(/xapp-[A-Za-z0-9-]{6,}/g, 'xapp-[redacted]')
    .replace(/(authorization:\s*bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]')
    .replace(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, '[redacted-jwt]');
}
