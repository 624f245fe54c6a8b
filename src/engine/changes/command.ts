/**
 * A change as the one command a person runs (kubectl 1.32+), and back. `parseCommand(renderCommand(c))`
 * is `c` for every change that has a command (test/engine/changes/command.test.ts): the command we
 * print is the command we simulate. A node-pool change (`addNode`) has none: it renders as ''.
 *
 * Patches that have a more specific meaning parse to it: a merge patch of a ResourceQuota's
 * `spec.hard` is a `quota` change, of a LimitRange's `spec.limits` a `limitRange` change, of a
 * template's `priorityClassName` a `priorityClass` change, of a Deployment's `spec.strategy` a
 * `rolloutStrategy` change.
 */
import type { KObject } from '../../k8s/snapshot.ts';
import type { Change, IntOrPercent, ObjectRef, PatchType } from './types.ts';

/** kubectl's short resource names, as we print them. */
const SHORT: Record<string, string> = {
  Deployment: 'deploy',
  StatefulSet: 'statefulset',
  ReplicaSet: 'rs',
  Job: 'job',
  DaemonSet: 'ds',
  CronJob: 'cronjob',
  Pod: 'pod',
  Node: 'node',
  ResourceQuota: 'resourcequota',
  LimitRange: 'limitrange',
  PriorityClass: 'priorityclass',
  PersistentVolumeClaim: 'pvc',
  Namespace: 'namespace',
};

/** kubectl's short name of a kind (`deploy`, `rs`, `pvc`), else its lower-case name. */
export function shortKind(kind: string): string {
  return SHORT[kind] ?? kind.toLowerCase();
}

/** `deploy/web`: a kind and a name as kubectl takes them. */
export function shortRef(kind: string, name: string): string {
  return `${shortKind(kind)}/${name}`;
}

/** Every spelling kubectl accepts for the kinds we name (singular, plural, short). */
const KIND_OF: Record<string, string> = {};
for (const [kind, names] of Object.entries({
  Deployment: ['deploy', 'deployment', 'deployments', 'deployment.apps', 'deployments.apps'],
  StatefulSet: ['sts', 'statefulset', 'statefulsets', 'statefulset.apps', 'statefulsets.apps'],
  ReplicaSet: ['rs', 'replicaset', 'replicasets', 'replicaset.apps', 'replicasets.apps'],
  Job: ['job', 'jobs', 'job.batch', 'jobs.batch'],
  DaemonSet: ['ds', 'daemonset', 'daemonsets', 'daemonset.apps', 'daemonsets.apps'],
  CronJob: ['cj', 'cronjob', 'cronjobs', 'cronjob.batch', 'cronjobs.batch'],
  Pod: ['po', 'pod', 'pods'],
  Node: ['no', 'node', 'nodes'],
  ResourceQuota: ['quota', 'resourcequota', 'resourcequotas'],
  LimitRange: ['limits', 'limitrange', 'limitranges'],
  PriorityClass: ['pc', 'priorityclass', 'priorityclasses', 'priorityclass.scheduling.k8s.io'],
  PersistentVolumeClaim: ['pvc', 'persistentvolumeclaim', 'persistentvolumeclaims'],
  Namespace: ['ns', 'namespace', 'namespaces'],
}))
  for (const n of names) KIND_OF[n] = kind;

const CLUSTER_SCOPED: readonly string[] = ['Node', 'PriorityClass', 'Namespace'];

/** `deploy/api`. */
export function refText(ref: ObjectRef): string {
  return shortRef(ref.kind, ref.name);
}

/** A word the shell passes through unchanged needs no quotes; anything else goes in single quotes. */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_\-.,=/:%@+]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function ns(namespace: string | undefined): string {
  return namespace ? `-n ${shellQuote(namespace)} ` : '';
}

/** `cpu=770m,memory=1Gi`: cpu and memory first, then the rest by name. */
function resourceArg(list: Record<string, string>): string {
  const rank = (k: string) => (k === 'cpu' ? 0 : k === 'memory' ? 1 : 2);
  const keys = Object.keys(list).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return keys.map((k) => `${k}=${list[k]}`).join(',');
}

function resourceFlags(requests?: Record<string, string>, limits?: Record<string, string>): string {
  let out = '';
  if (limits && Object.keys(limits).length) out += ` --limits=${shellQuote(resourceArg(limits))}`;
  if (requests && Object.keys(requests).length) out += ` --requests=${shellQuote(resourceArg(requests))}`;
  return out;
}

function patchCommand(target: ObjectRef, type: PatchType, body: unknown): string {
  return `kubectl ${ns(target.namespace)}patch ${refText(target)} --type ${type} -p ${shellQuote(JSON.stringify(body))}`;
}

function strategyBody(c: Extract<Change, { kind: 'rolloutStrategy' }>): unknown {
  if (c.strategy === 'Recreate') return { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } };
  const ru: Record<string, IntOrPercent> = {};
  if (c.maxSurge !== undefined) ru.maxSurge = c.maxSurge;
  if (c.maxUnavailable !== undefined) ru.maxUnavailable = c.maxUnavailable;
  return { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: ru } } };
}

/** The exact command that makes the change ('' for a node-pool change). */
export function renderCommand(c: Change): string {
  switch (c.kind) {
    case 'scale':
      return `kubectl ${ns(c.target.namespace)}scale ${refText(c.target)} --replicas=${c.replicas}`;
    case 'setResources':
      return `kubectl ${ns(c.target.namespace)}set resources ${refText(c.target)} -c ${shellQuote(c.container)}${resourceFlags(c.requests, c.limits)}`;
    case 'patch':
      return patchCommand(c.target, c.type, c.body);
    case 'apply': {
      const body =
        c.objects.length === 1 ? c.objects[0] : { apiVersion: 'v1', kind: 'List', items: c.objects, metadata: {} };
      return `echo ${shellQuote(JSON.stringify(body))} | kubectl apply -f -`;
    }
    case 'cordon':
      return `kubectl cordon ${shellQuote(c.node)}`;
    case 'uncordon':
      return `kubectl uncordon ${shellQuote(c.node)}`;
    case 'drain':
      return `kubectl drain ${shellQuote(c.node)} --ignore-daemonsets --delete-emptydir-data${c.force ? ' --force' : ''}`;
    case 'quota':
      return patchCommand({ kind: 'ResourceQuota', namespace: c.namespace, name: c.name }, 'merge', {
        spec: { hard: c.hard },
      });
    case 'limitRange':
      return patchCommand({ kind: 'LimitRange', namespace: c.namespace, name: c.name }, 'merge', {
        spec: { limits: c.limits },
      });
    case 'priorityClass':
      return patchCommand(c.target, 'merge', { spec: { template: { spec: { priorityClassName: c.className } } } });
    case 'rolloutStrategy':
      return patchCommand(c.target, 'merge', strategyBody(c));
    case 'addNode':
      return '';
    case 'deletePod':
      return `kubectl ${ns(c.namespace)}delete pod ${shellQuote(c.name)}`;
    case 'recreatePod': {
      const get = `kubectl ${ns(c.namespace)}get pod ${shellQuote(c.name)} -o json`;
      const edit =
        c.container === undefined
          ? `kubectl patch --local -f - --type merge -p ${shellQuote(JSON.stringify(recreatePriorityBody(c.priorityClassName ?? '')))}`
          : `kubectl set resources --local -f - -c ${shellQuote(c.container)}${resourceFlags(c.requests, c.limits)}`;
      return `${get} | ${edit} -o json | kubectl replace --force -f -`;
    }
  }
}

/**
 * The merge patch that gives a pod to be re-created another PriorityClass: the old class's `priority` and
 * `preemptionPolicy` removed (null), as Priority admission computes them from the new class and refuses a
 * pod that carries other values (plugin/pkg/admission/priority/admission.go admitPod).
 */
export function recreatePriorityBody(className: string): { spec: Record<string, string | null> } {
  return { spec: { priorityClassName: className, priority: null, preemptionPolicy: null } };
}

/** Shell words, `|` as its own word; single and double quotes and backslashes as sh reads them. */
export function shellWords(cmd: string): string[] | null {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < cmd.length; i++) {
    const ch = cmd[i]!;
    if (ch === "'") {
      const end = cmd.indexOf("'", i + 1);
      if (end < 0) return null;
      cur += cmd.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (ch === '"') {
      i++;
      for (; i < cmd.length && cmd[i] !== '"'; i++) {
        if (cmd[i] === '\\' && i + 1 < cmd.length && '"\\$`'.includes(cmd[i + 1]!)) i++;
        cur += cmd[i];
      }
      if (i >= cmd.length) return null;
      inWord = true;
    } else if (ch === '\\') {
      if (i + 1 < cmd.length) cur += cmd[++i];
      inWord = true;
    } else if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else if (ch === '|') {
      if (inWord) out.push(cur);
      out.push('|');
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (inWord) out.push(cur);
  return out;
}

interface Parsed {
  namespace?: string;
  args: string[];
  flags: Map<string, string>;
  bools: Set<string>;
}

const VALUE_FLAGS: readonly string[] = [
  '-n',
  '--namespace',
  '-c',
  '--containers',
  '--type',
  '-p',
  '--patch',
  '--replicas',
  '--requests',
  '--limits',
  '-o',
  '--output',
  '-f',
  '--filename',
];

/** One kubectl invocation's words (after `kubectl`): positional args, flags with values, boolean flags. */
function parseKubectl(words: string[]): Parsed | null {
  const args: string[] = [];
  const flags = new Map<string, string>();
  const bools = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith('-') && w !== '-') {
      const eq = w.indexOf('=');
      const name = eq > 0 ? w.slice(0, eq) : w;
      if (eq > 0) flags.set(name, w.slice(eq + 1));
      else if (VALUE_FLAGS.includes(name)) {
        const v = words[++i];
        if (v === undefined) return null;
        flags.set(name, v);
      } else bools.add(name);
    } else args.push(w);
  }
  const alias: Record<string, string> = {
    '--namespace': '-n',
    '--containers': '-c',
    '--patch': '-p',
    '--output': '-o',
    '--filename': '-f',
  };
  for (const [long, short] of Object.entries(alias)) {
    const v = flags.get(long);
    if (v !== undefined) {
      flags.set(short, v);
      flags.delete(long);
    }
  }
  return { namespace: flags.get('-n'), args, flags, bools };
}

/** `deploy/api`, or `deploy api` (two words): the ref and how many words it took. */
function parseRef(args: string[], at: number, namespace: string | undefined): { ref: ObjectRef; used: number } | null {
  const a = args[at];
  if (!a) return null;
  let type: string;
  let name: string | undefined;
  let used = 1;
  const slash = a.indexOf('/');
  if (slash > 0) {
    type = a.slice(0, slash);
    name = a.slice(slash + 1);
  } else {
    type = a;
    name = args[at + 1];
    used = 2;
  }
  const kind = KIND_OF[type.toLowerCase()];
  if (!kind || !name) return null;
  const ref: ObjectRef = { kind, name };
  if (!CLUSTER_SCOPED.includes(kind)) ref.namespace = namespace ?? 'default';
  return { ref, used };
}

function parseResourceList(s: string | undefined): Record<string, string> | undefined | null {
  if (s === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const part of s.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Exactly `{a: {b: …}}` down the given keys: the value at the end, else undefined. */
function only(body: unknown, path: readonly string[]): unknown {
  let cur = body;
  for (const k of path) {
    if (!isRecord(cur)) return undefined;
    const keys = Object.keys(cur);
    if (keys.length !== 1 || keys[0] !== k) return undefined;
    cur = cur[k];
  }
  return cur;
}

function isIntOrPercent(v: unknown): v is IntOrPercent {
  return (typeof v === 'number' && Number.isInteger(v)) || (typeof v === 'string' && /^\d+%$/.test(v));
}

/** The specific change a merge patch stands for, else the plain patch. */
function patchChange(target: ObjectRef, type: PatchType, body: unknown): Change {
  if (type === 'merge') {
    if (target.kind === 'ResourceQuota' && target.namespace) {
      const hard = only(body, ['spec', 'hard']);
      if (isRecord(hard) && Object.values(hard).every((v) => typeof v === 'string'))
        return { kind: 'quota', namespace: target.namespace, name: target.name, hard: hard as Record<string, string> };
    }
    if (target.kind === 'LimitRange' && target.namespace) {
      const limits = only(body, ['spec', 'limits']);
      if (Array.isArray(limits)) return { kind: 'limitRange', namespace: target.namespace, name: target.name, limits };
    }
    const pc = only(body, ['spec', 'template', 'spec', 'priorityClassName']);
    if (typeof pc === 'string' && target.kind !== 'Pod') return { kind: 'priorityClass', target, className: pc };
    const strategy = only(body, ['spec', 'strategy']);
    if (target.kind === 'Deployment' && isRecord(strategy)) {
      const keys = Object.keys(strategy).sort().join(',');
      if (strategy.type === 'Recreate' && keys === 'rollingUpdate,type' && strategy.rollingUpdate === null)
        return { kind: 'rolloutStrategy', target, strategy: 'Recreate' };
      const ru = strategy.rollingUpdate;
      if (strategy.type === 'RollingUpdate' && keys === 'rollingUpdate,type' && isRecord(ru)) {
        const ruKeys = Object.keys(ru);
        if (
          ruKeys.every((k) => k === 'maxSurge' || k === 'maxUnavailable') &&
          ruKeys.every((k) => isIntOrPercent(ru[k]))
        ) {
          const c: Change = { kind: 'rolloutStrategy', target, strategy: 'RollingUpdate' };
          if (ru.maxSurge !== undefined) c.maxSurge = ru.maxSurge as IntOrPercent;
          if (ru.maxUnavailable !== undefined) c.maxUnavailable = ru.maxUnavailable as IntOrPercent;
          return c;
        }
      }
    }
  }
  return { kind: 'patch', target, type, body };
}

/** Splits `a | b | c` into the words of each stage. */
function stages(words: string[]): string[][] {
  const out: string[][] = [[]];
  for (const w of words) {
    if (w === '|') out.push([]);
    else out[out.length - 1]!.push(w);
  }
  return out;
}

function parseJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** The change a command makes, or null when it is not one of the commands `renderCommand` prints. */
export function parseCommand(cmd: string): Change | null {
  const words = shellWords(cmd.trim());
  if (!words || words.length === 0) return null;
  const st = stages(words);
  if (st.length === 2) return parseApply(st[0]!, st[1]!);
  if (st.length === 3) return parseRecreate(st[0]!, st[1]!, st[2]!);
  if (st.length !== 1 || words[0] !== 'kubectl') return null;
  const p = parseKubectl(words.slice(1));
  if (!p) return null;
  const [verb, ...rest] = p.args;
  switch (verb) {
    case 'scale': {
      const r = parseRef(rest, 0, p.namespace);
      const n = Number(p.flags.get('--replicas'));
      if (!r || !Number.isInteger(n) || n < 0 || rest.length !== r.used) return null;
      return { kind: 'scale', target: r.ref, replicas: n };
    }
    case 'set': {
      if (rest[0] !== 'resources') return null;
      const r = parseRef(rest, 1, p.namespace);
      const container = p.flags.get('-c');
      const requests = parseResourceList(p.flags.get('--requests'));
      const limits = parseResourceList(p.flags.get('--limits'));
      if (!r || !container || requests === null || limits === null || rest.length !== 1 + r.used) return null;
      if (!requests && !limits) return null;
      const c: Change = { kind: 'setResources', target: r.ref, container };
      if (requests) c.requests = requests;
      if (limits) c.limits = limits;
      return c;
    }
    case 'patch': {
      const r = parseRef(rest, 0, p.namespace);
      const type = (p.flags.get('--type') ?? 'strategic') as PatchType;
      const raw = p.flags.get('-p');
      if (!r || raw === undefined || !['merge', 'json', 'strategic'].includes(type) || rest.length !== r.used)
        return null;
      const body = parseJson(raw);
      if (body === undefined) return null;
      return patchChange(r.ref, type, body);
    }
    case 'cordon':
    case 'uncordon':
      return rest.length === 1 ? { kind: verb, node: rest[0]! } : null;
    case 'drain': {
      if (rest.length !== 1) return null;
      const c: Change = { kind: 'drain', node: rest[0]! };
      if (p.bools.has('--force')) c.force = true;
      return c;
    }
    case 'delete': {
      const r = parseRef(rest, 0, p.namespace);
      if (!r || r.ref.kind !== 'Pod' || rest.length !== r.used) return null;
      return { kind: 'deletePod', namespace: r.ref.namespace ?? 'default', name: r.ref.name };
    }
    default:
      return null;
  }
}

/** `echo '<json>' | kubectl apply -f -`. */
function parseApply(first: string[], second: string[]): Change | null {
  if (first[0] !== 'echo' || first.length !== 2 || second[0] !== 'kubectl') return null;
  const p = parseKubectl(second.slice(1));
  if (!p || p.args.join(' ') !== 'apply' || p.flags.get('-f') !== '-') return null;
  const body = parseJson(first[1]!);
  if (!isRecord(body)) return null;
  const items = body.kind === 'List' && Array.isArray(body.items) ? body.items : [body];
  const objects: KObject[] = [];
  for (const o of items) {
    if (!isRecord(o) || !isRecord(o.metadata)) return null;
    objects.push(o as KObject);
  }
  return { kind: 'apply', objects };
}

/** `kubectl get pod X -o json | kubectl set resources --local -f - … -o json | kubectl replace --force -f -`. */
function parseRecreate(a: string[], b: string[], c: string[]): Change | null {
  if (a[0] !== 'kubectl' || b[0] !== 'kubectl' || c[0] !== 'kubectl') return null;
  const get = parseKubectl(a.slice(1));
  const set = parseKubectl(b.slice(1));
  const rep = parseKubectl(c.slice(1));
  if (!get || !set || !rep) return null;
  if (get.args[0] !== 'get' || get.flags.get('-o') !== 'json') return null;
  const r = parseRef(get.args, 1, get.namespace);
  if (!r || r.ref.kind !== 'Pod' || get.args.length !== 1 + r.used) return null;
  if (rep.args.join(' ') !== 'replace' || !rep.bools.has('--force') || rep.flags.get('-f') !== '-') return null;
  if (!set.bools.has('--local') || set.flags.get('-f') !== '-' || set.flags.get('-o') !== 'json') return null;
  const base = { kind: 'recreatePod' as const, namespace: r.ref.namespace ?? 'default', name: r.ref.name };
  if (set.args.join(' ') === 'patch') {
    // Only the one body `recreatePriorityBody` prints: another patch is not a change we simulate.
    if (set.flags.get('--type') !== 'merge') return null;
    const body = parseJson(set.flags.get('-p') ?? '');
    const spec = isRecord(body) && Object.keys(body).length === 1 && isRecord(body.spec) ? body.spec : null;
    const className = spec?.priorityClassName;
    if (typeof className !== 'string' || className === '') return null;
    if (JSON.stringify(body) !== JSON.stringify(recreatePriorityBody(className))) return null;
    return { ...base, priorityClassName: className };
  }
  if (set.args.join(' ') !== 'set resources') return null;
  const container = set.flags.get('-c');
  const requests = parseResourceList(set.flags.get('--requests'));
  const limits = parseResourceList(set.flags.get('--limits'));
  if (!container || requests === null || limits === null || (!requests && !limits)) return null;
  const out: Change = { ...base, container };
  if (requests) out.requests = requests;
  if (limits) out.limits = limits;
  return out;
}
