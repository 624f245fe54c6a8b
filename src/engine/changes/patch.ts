/**
 * The three patch types as the API server applies them (k8s.io/apiserver/pkg/endpoints/handlers/patch.go):
 * RFC 6902 JSON Patch with gopkg.in/evanphx/json-patch.v4's rules and messages (the library both the API
 * server and kubectl use), RFC 7386 JSON Merge Patch, and strategic merge patch
 * (k8s.io/apimachinery/pkg/util/strategicpatch) for the list fields whose Go types carry a patch merge key.
 */
import jsonpatch from 'fast-json-patch';
import type { JsonPatchOp } from './types.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepClone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** RFC 7386: objects merge key by key, `null` deletes, anything else (lists included) replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return deepClone(patch);
  const out: Record<string, unknown> = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/**
 * Lists merged by a key under strategic merge patch, by field name (the `patchMergeKey` tags of
 * k8s.io/api: PodSpec.containers/initContainers/ephemeralContainers/volumes/imagePullSecrets/hostAliases,
 * Container.env/ports/volumeMounts/volumeDevices/resizePolicy, ObjectMeta.ownerReferences, NodeSpec has
 * none; `tolerations`, `taints` and `nodeSelectorTerms` have no strategy and are replaced whole).
 */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  imagePullSecrets: 'name',
  env: 'name',
  ports: 'containerPort',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  resizePolicy: 'resourceName',
  hostAliases: 'ip',
  ownerReferences: 'uid',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
  schedulingGates: 'name',
};

/** Lists of scalars merged as sets (`patchStrategy:"merge"` without a key): finalizers. */
const MERGE_SCALARS: readonly string[] = ['finalizers'];

function strategicList(field: string, target: unknown[], patch: unknown[]): unknown[] {
  const key = MERGE_KEYS[field];
  if (MERGE_SCALARS.includes(field)) {
    const out = [...target];
    for (const v of patch) if (!out.some((x) => JSON.stringify(x) === JSON.stringify(v))) out.push(v);
    return out;
  }
  if (!key) return deepClone(patch);
  // `$patch: replace` anywhere in the list replaces it with the other elements.
  if (patch.some((p) => isObj(p) && p.$patch === 'replace'))
    return deepClone(patch.filter((p) => !(isObj(p) && p.$patch === 'replace')));
  const out = target.map((t) => t);
  for (const p of patch) {
    if (!isObj(p)) continue;
    const idx = out.findIndex((t) => isObj(t) && t[key] === p[key]);
    if (p.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = strategicMerge(out[idx], p);
    else out.push(strategicMerge(undefined, p));
  }
  return out;
}

/** Strategic merge patch: maps merge, `null` deletes, keyed lists merge by key, other lists are replaced. */
export function strategicMerge(target: unknown, patch: unknown, field = ''): unknown {
  if (Array.isArray(patch)) return strategicList(field, Array.isArray(target) ? target : [], patch);
  if (!isObj(patch)) return deepClone(patch);
  if (patch.$patch === 'replace') {
    const { $patch: _, ...rest } = patch;
    return deepClone(rest);
  }
  if (patch.$patch === 'delete') return undefined;
  const out: Record<string, unknown> = isObj(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (v === null) delete out[k];
    else {
      const next = strategicMerge(out[k], v, k);
      if (next === undefined) delete out[k];
      else out[k] = next;
    }
  }
  return out;
}

function unescapePointer(t: string): string {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

function splitPointer(path: string): string[] {
  return path === '' ? [] : path.split('/').slice(1).map(unescapePointer);
}

/** The container at `tokens` (all but the last of a path), or undefined when any step is missing. */
function containerAt(doc: unknown, tokens: string[]): unknown {
  let cur = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) {
      const i = Number(t);
      if (!/^-?\d+$/.test(t) || i < 0 || i >= cur.length) return undefined;
      cur = cur[i];
    } else if (isObj(cur)) {
      if (!(t in cur)) return undefined;
      cur = cur[t];
    } else return undefined;
  }
  return cur;
}

/**
 * Checks one operation against the document as evanphx/json-patch v4 would (its error text), and gives
 * the operation fast-json-patch should run for the same effect (v4's `replace` of a missing object key
 * sets it; its `copy` from a missing path copies null; a negative index counts from the end).
 */
function checkOp(doc: unknown, op: JsonPatchOp): { op: jsonpatch.Operation } | { error: string } {
  const tokens = splitPointer(op.path);
  const last = tokens[tokens.length - 1] ?? '';
  const parent = containerAt(doc, tokens.slice(0, -1));
  const p = op.path;
  const badIndex = (verb: string, i: string) =>
    `error in ${verb} for path: '${p}': Unable to access invalid index: ${i}: invalid index referenced`;
  const arrayIndex = (arr: unknown[], t: string, forAdd: boolean): number | null => {
    if (forAdd && t === '-') return arr.length;
    if (!/^-?\d+$/.test(t)) return null;
    let i = Number(t);
    if (i < 0) {
      if (i < -arr.length) return null;
      i += arr.length;
    }
    return i > (forAdd ? arr.length : arr.length - 1) ? null : i;
  };
  const rewrite = (i: number): string =>
    [...tokens.slice(0, -1), String(i)].map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  switch (op.op) {
    case 'add': {
      if (tokens.length === 0) return { op: { op: 'replace', path: '', value: op.value } };
      if (!isObj(parent) && !Array.isArray(parent))
        return { error: `add operation does not apply: doc is missing path: "${p}": missing value` };
      if (Array.isArray(parent)) {
        const i = arrayIndex(parent, last, true);
        if (i === null) return { error: badIndex('add', last) };
        return { op: { op: 'add', path: rewrite(i), value: op.value } };
      }
      return { op: { op: 'add', path: p, value: op.value } };
    }
    case 'remove': {
      if (!isObj(parent) && !Array.isArray(parent))
        return { error: `remove operation does not apply: doc is missing path: "${p}": missing value` };
      if (Array.isArray(parent)) {
        const i = arrayIndex(parent, last, false);
        if (i === null) return { error: badIndex('remove', last) };
        return { op: { op: 'remove', path: rewrite(i) } };
      }
      if (!(last in parent))
        return {
          error: `error in remove for path: '${p}': Unable to remove nonexistent key: ${last}: missing value`,
        };
      return { op: { op: 'remove', path: p } };
    }
    case 'replace': {
      if (tokens.length === 0) return { op: { op: 'replace', path: '', value: op.value } };
      if (!isObj(parent) && !Array.isArray(parent))
        return { error: `replace operation does not apply: doc is missing path: ${p}: missing value` };
      if (Array.isArray(parent)) {
        const i = arrayIndex(parent, last, false);
        if (i === null) return { error: `Object to be patched is missing field (${p}: missing value)` };
        return { op: { op: 'replace', path: rewrite(i), value: op.value } };
      }
      return { op: { op: last in parent ? 'replace' : 'add', path: p, value: op.value } };
    }
    case 'test': {
      if (tokens.length > 0 && !isObj(parent) && !Array.isArray(parent))
        return { error: `test operation does not apply: is missing path: ${p}: missing value` };
      const actual = tokens.length === 0 ? doc : containerAt(doc, tokens);
      const want = op.value === undefined ? null : op.value;
      if (JSON.stringify(actual ?? null) !== JSON.stringify(want))
        return { error: `testing value ${p} failed: test failed` };
      return { op: { op: 'test', path: '', value: doc } };
    }
    case 'move':
    case 'copy': {
      const from = op.from ?? '';
      const ft = splitPointer(from);
      const fparent = containerAt(doc, ft.slice(0, -1));
      const flast = ft[ft.length - 1] ?? '';
      const exists =
        (isObj(fparent) && flast in fparent) || (Array.isArray(fparent) && arrayIndex(fparent, flast, false) !== null);
      if (op.op === 'move' && !exists) {
        if (!isObj(fparent) && !Array.isArray(fparent))
          return { error: `move operation does not apply: doc is missing from path: ${from}: missing value` };
        return {
          error: `error in move for path: '${flast}': Unable to remove nonexistent key: ${flast}: missing value`,
        };
      }
      if (!isObj(parent) && !Array.isArray(parent))
        return { error: `${op.op} operation does not apply: doc is missing destination path: ${p}: missing value` };
      if (op.op === 'copy' && !exists) return { op: { op: 'add', path: p, value: null } };
      return { op: { op: op.op, path: p, from } };
    }
  }
}

/** RFC 6902 on a copy of `doc`: the patched document, or the first refusal in evanphx/json-patch's words. */
export function jsonPatch(doc: unknown, ops: unknown): { doc: unknown } | { error: string } {
  if (!Array.isArray(ops)) return { error: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' };
  let cur: unknown = deepClone(doc);
  for (const raw of ops) {
    if (!isObj(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string')
      return { error: `Unexpected kind: ${isObj(raw) ? String(raw.op) : 'unknown'}` };
    if (!['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(raw.op))
      return { error: `Unexpected kind: ${raw.op}` };
    const op: JsonPatchOp = {
      op: raw.op as JsonPatchOp['op'],
      path: raw.path,
      value: raw.value,
      ...(typeof raw.from === 'string' ? { from: raw.from } : {}),
    };
    const checked = checkOp(cur, op);
    if ('error' in checked) return checked;
    if (checked.op.op === 'test') continue;
    cur = jsonpatch.applyOperation(cur as Json, checked.op, false, true, false).newDocument;
  }
  return { doc: cur };
}
