/**
 * Who and where a message is about, read from the text *around* it rather than from the message:
 * the namespace of a `kubectl … -n NS` command or a kube-ps1 prompt `(⎈ |ctx:NS)`, a `describe` header
 * (`Name:`, `Namespace:`, `Controlled By:`), an events table row (`replicaset/web-7c5d`, a NAMESPACE
 * column, the pre-1.14 NAME/KIND columns `web-7c5d.15a8… ReplicaSet`), an Event's `involvedObject`,
 * klog's `pod="ns/name"`, and the StatefulSet controller's `create Pod X in StatefulSet Y failed error:`.
 */

const KIND_OF_PREFIX: Record<string, string> = {
  pod: 'Pod',
  pods: 'Pod',
  po: 'Pod',
  replicaset: 'ReplicaSet',
  replicasets: 'ReplicaSet',
  rs: 'ReplicaSet',
  statefulset: 'StatefulSet',
  statefulsets: 'StatefulSet',
  sts: 'StatefulSet',
  job: 'Job',
  jobs: 'Job',
  daemonset: 'DaemonSet',
  daemonsets: 'DaemonSet',
  ds: 'DaemonSet',
  replicationcontroller: 'ReplicationController',
  replicationcontrollers: 'ReplicationController',
  rc: 'ReplicationController',
  deployment: 'Deployment',
  deployments: 'Deployment',
  deploy: 'Deployment',
  cronjob: 'CronJob',
  cronjobs: 'CronJob',
  cj: 'CronJob',
  deploymentconfig: 'DeploymentConfig',
  dc: 'DeploymentConfig',
  service: 'Service',
  services: 'Service',
  svc: 'Service',
  persistentvolumeclaim: 'PersistentVolumeClaim',
  persistentvolumeclaims: 'PersistentVolumeClaim',
  pvc: 'PersistentVolumeClaim',
  horizontalpodautoscaler: 'HorizontalPodAutoscaler',
  hpa: 'HorizontalPodAutoscaler',
  ingress: 'Ingress',
  ingresses: 'Ingress',
};
const CONTROLLER_KINDS = new Set([
  'ReplicaSet',
  'StatefulSet',
  'Job',
  'DaemonSet',
  'ReplicationController',
  'Deployment',
  'CronJob',
  'DeploymentConfig',
]);
const EVENT_KINDS = new Set(['Pod', ...CONTROLLER_KINDS]);

export interface Ref {
  kind: string;
  name: string;
}

interface Mark {
  pos: number;
  namespace?: string;
  ref?: Ref;
}

/** A `kubectl describe` block or an Event's involvedObject: facts that hold until the next one. */
interface Block {
  pos: number;
  name?: string;
  namespace?: string;
  kind?: string;
  controlledBy?: string;
  involved?: Partial<Ref> & { namespace?: string };
  podLike?: boolean;
  controllerLike?: string;
}

export interface ContextAt {
  namespace?: string;
  pod?: string;
  controller?: Ref;
  /** The first object the message's own line names (an events-table OBJECT column), any kind. */
  lineRef?: Ref;
}

const NS = '[a-z0-9][a-z0-9-]{0,62}';
const CMD_NS_RE = new RegExp(`(?:^|\\s)(?:-n|--namespace)(?:=|\\s+)(${NS})(?![\\w.-])`);
/** kubectl also takes the shorthand flag with its value attached: `kubectl -nistio-system describe …`. */
const CMD_NS_ATTACHED_RE = new RegExp(
  `(?:^|[\\s$#>%*])(?:kubectl|oc|k)\\s(?:[^|;&\\n]{0,200}\\s)?-n(${NS})(?![\\w.-])`,
);
const PS1_RE = new RegExp(`\\(⎈ ?\\|[^:)\\n]{1,200}:(${NS})\\)`);
/** An object name as pasted: DNS names, plus redactions like `egg-<id here>`. */
const NAME = '[a-z0-9](?:[a-z0-9.-]|<[^<>\\n]{1,40}>){0,252}';
const REF_RE = new RegExp(
  `(?:^|[\\s(])(pods?|po|replicasets?|rs|statefulsets?|sts|jobs?|daemonsets?|ds|replicationcontrollers?|rc|deployments?|deploy|cronjobs?|cj|deploymentconfig|dc|services?|svc|persistentvolumeclaims?|pvc|horizontalpodautoscaler|hpa|ingress(?:es)?)/(${NAME})`,
  'gi',
);
const OLD_EVENT_RE =
  /(?:^|\s)([a-z0-9][a-z0-9.-]{0,252})\.[0-9a-f]{8,20}\s+(Pod|ReplicaSet|StatefulSet|Job|DaemonSet|ReplicationController|Deployment|CronJob|PersistentVolumeClaim|Service|DeploymentConfig)\s/;
const CMD_RE = /(?:^|[\s$#>%"'])(?:kubectl|oc|k|helm|kubens)\s/;
const URL_NS_RE = new RegExp(`/namespaces/(${NS})/`);
const OBJREF_RE = new RegExp(
  `ObjectReference\\{Kind:"([A-Za-z]{1,60})", Namespace:"(${NS})", Name:"([a-z0-9][a-z0-9.-]{0,252})"`,
);
const ROW_NS_RE = new RegExp(`^\\s*(${NS})\\s+(?:\\d+(?:\\.\\d+)?[smhd]\\w*|<unknown>)\\s+(?:Warning|Normal)\\s`);
const CMD_SUBJECT_RE = new RegExp(
  `(?:kubectl|oc|k)\\s+(?:-n\\s*\\S+\\s+)?(?:describe|get|logs|edit)\\s+(?:-n\\s*\\S+\\s+)?(pods?|po|replicasets?|rs|statefulsets?|sts|jobs?|daemonsets?|ds|deployments?|deploy)(?:/|\\s+(?:-n\\s*\\S+\\s+)?)(${NAME})`,
  'i',
);
/** Words that follow `kubectl describe pod` in prose, never a pod's name there. */
const PROSE_WORDS = new Set([
  'on',
  'the',
  'to',
  'and',
  'with',
  'for',
  'in',
  'of',
  'it',
  'is',
  'that',
  'this',
  'then',
  'again',
  'command',
  'output',
  'shows',
  'says',
  'gives',
]);
const JSON_POD_KEY_RE = /^\s{0,2}"([a-z0-9][a-z0-9.-]{0,252}-[a-z0-9]{5})":\s*\{\s*$/;
const QUOTED_NS_NAME_RE = new RegExp(`(?:for|pod|Pod|object|key)[ =]"(${NS})/(${NAME})"`);
const KLOG_POD_RE = new RegExp(`(?:pod|Pod)="(${NS})/([a-z0-9][a-z0-9.-]{0,252})"`);
const ASSIGNED_RE = new RegExp(`Successfully assigned (${NS})/([a-z0-9][a-z0-9.-]{0,252}) to `);
/**
 * The scheduler's own log line about a pod it could not place (pkg/scheduler/factory/factory.go
 * MakeDefaultErrorFunc): `Error scheduling ns/name: …; retrying`, `Unable to schedule ns/name: no fit: …;
 * waiting` (1.11–1.18), `ns name:` with a blank before 1.11.
 */
const SCHED_LOG_RE = new RegExp(`(?:Error scheduling|Unable to schedule) (${NS})[/ ]([a-z0-9][a-z0-9.-]{0,252}): `);
const STS_RE = /create Pod ([a-z0-9][a-z0-9.-]{0,252}) in StatefulSet ([a-z0-9][a-z0-9.-]{0,252}) failed error:/;
const IN_NS_RE = new RegExp(`(?:in (?:the )?namespace|namespace) "(${NS})"`);
const YAML_NS_RE = new RegExp(`^\\s*-?\\s*["']?namespace["']?\\s*:\\s*["']?(${NS})["']?\\s*,?\\s*$`);
const TABLE_NS_RE = new RegExp(`^\\s*(${NS})\\s`);
const NS_KEY_RE = new RegExp(`["']?namespace["']?\\s*:\\s*["']?(${NS})`);
const GET_PODS_RE = /^([a-z0-9][a-z0-9.-]{0,252})\s+\d{1,3}\/\d{1,3}\s+[A-Za-z:]+\s+\d/;
const GET_PODS_ALL_RE = new RegExp(`^(${NS})\\s+([a-z0-9][a-z0-9.-]{0,252})\\s+\\d{1,3}/\\d{1,3}\\s+[A-Za-z:]+\\s+\\d`);

/**
 * Marks and blocks are built with every field from the start (one object shape each): the scan meets
 * thousands of them, and code optimized for one shape is not thrown away when another one turns up.
 */
function mark(pos: number, namespace: string | undefined, ref: Ref | undefined): Mark {
  return { pos, namespace, ref };
}

function newBlock(pos: number, name: string | undefined): Block {
  return {
    pos,
    name,
    namespace: undefined,
    kind: undefined,
    controlledBy: undefined,
    involved: undefined,
    podLike: undefined,
    controllerLike: undefined,
  };
}

/**
 * Where a literal (or a pattern that never matches a line break) next occurs in the text, for a scan of
 * its lines in order: `in(pos, end)` is `line.includes(k)` for the line at [pos, end), at the cost of one
 * native search per occurrence instead of one per line (most of the words looked for are rare).
 */
class Next {
  private at = -1;
  constructor(
    private readonly text: string,
    private readonly k: string | RegExp,
  ) {}

  in(pos: number, end: number): boolean {
    if (this.at < pos) {
      let i: number;
      if (typeof this.k === 'string') i = this.text.indexOf(this.k, pos);
      else {
        this.k.lastIndex = pos;
        i = this.k.exec(this.text)?.index ?? -1;
      }
      this.at = i < 0 ? Number.POSITIVE_INFINITY : i;
    }
    return this.at < end;
  }
}

/** The words and hints `readLine` tests a line for, as `Next` searches of the whole text. */
function nextsOf(text: string) {
  const n = (k: string | RegExp): Next => new Next(text, k);
  return {
    // CMD_HINT_RE and OLD_EVENT_HINT_RE, with their blank never a line break: the same lines match.
    cmdHint: n(/[lckms][^\S\n]/g),
    oldEventHint: n(/\.[0-9a-f]{8,20}[^\S\n]+[A-Z]/g),
    helm: n('⎈'),
    slash: n('/'),
    klog: n('od="'),
    assigned: n('Successfully assigned '),
    sched: n(' schedul'),
    nsPath: n('/namespaces/'),
    objRef: n('ObjectReference{'),
    quote: n('"'),
    warning: n('Warning'),
    normal: n('Normal'),
    brace: n('{'),
    inSts: n('in StatefulSet'),
    amespace: n('amespace'),
    nsHeader: n('NAMESPACE'),
    involved: n('involvedObject'),
  };
}

export class PasteContext {
  private readonly lineStarts: number[] = [];
  private readonly lineMarks = new Map<number, Mark[]>();
  private readonly nsMarks: Mark[] = [];
  private readonly blocks: Block[] = [];
  private readonly standalone: Mark[] = [];
  private readonly namespaces = new Set<string>();

  /** `lines`: `text.split('\n')`, when the caller has it already. */
  constructor(text: string, lines: string[] = text.split('\n')) {
    // The searches below run over `text`: it must be the lines joined (as the parser's always is).
    let size = lines.length - 1;
    for (const line of lines) size += line.length;
    const next = nextsOf(size === text.length ? text : lines.join('\n'));
    let pos = 0;
    let inNsTable = false;
    let block: Block | undefined;
    let involvedIndent = -1;
    let lineNo = 0;
    for (const line of lines) {
      this.lineStarts.push(pos);
      if (line.length === 0) {
        inNsTable = false;
        pos += 1;
        lineNo++;
        continue;
      }
      const end = pos + line.length;
      this.readLine(line, pos, lineNo, end, next);
      // Tables: a NAMESPACE column makes the first word of each row a namespace.
      if (next.nsHeader.in(pos, end) && /^\s*NAMESPACE\s+(?:LAST SEEN|NAME)\b/.test(line)) inNsTable = true;
      else if (line.trim() === '') inNsTable = false;
      else if (inNsTable) {
        const m = TABLE_NS_RE.exec(line);
        if (m) this.addLine(lineNo, mark(pos, m[1]!, undefined));
      }
      // describe blocks
      // describe fields start with a capital letter at column 0 (cheap test before the expressions)
      const c0 = line.charCodeAt(0);
      const field = c0 >= 65 && c0 <= 90 && line.includes(':');
      const name = field && c0 === 78 ? /^Name:\s+(\S{1,253})\s*$/.exec(line) : null;
      if (name) {
        block = newBlock(pos, name[1]!);
        this.blocks.push(block);
      } else if (block && field) {
        const ns = /^Namespace:\s+(\S{1,63})\s*$/.exec(line);
        if (ns) {
          block.namespace = ns[1]!;
          this.addNs(mark(pos, ns[1]!, undefined));
        }
        const cb = /^Controlled By:\s+(\w{1,60})\/(\S{1,253})/.exec(line);
        if (cb) block.controlledBy = cb[1]!;
        if (/^(?:Containers|Node|IP|QoS Class|Init Containers):/.test(line)) block.podLike = true;
        if (/^Volume Claims:/.test(line)) block.controllerLike = 'StatefulSet';
        else if (/^Completions:/.test(line)) block.controllerLike ??= 'Job';
        else if (/^Desired Number of Nodes Scheduled:/.test(line)) block.controllerLike ??= 'DaemonSet';
        else if (/^StrategyType:/.test(line)) block.controllerLike ??= 'Deployment';
        else if (/^(?:Replicas|Pods Status):/.test(line)) block.controllerLike ??= 'Replicas';
      }
      // Event involvedObject (YAML: an indented block; JSON: keys on the following lines or inline).
      const inv = next.involved.in(pos, end) ? /^(\s*)["']?involvedObject["']?\s*:/.exec(line) : null;
      if (inv) {
        const b = newBlock(pos, undefined);
        b.involved = {};
        this.blocks.push(b);
        block = b;
        involvedIndent = inv[1]!.length;
        this.readInvolved(line.slice(inv[0].length), b);
      } else if (involvedIndent >= 0 && block?.involved) {
        const indent = /^\s*/.exec(line)![0].length;
        if (indent <= involvedIndent && !/^\s*[}\]]/.test(line) && line.trim() !== '') involvedIndent = -1;
        else this.readInvolved(line, block);
        if (/^\s*}/.test(line)) involvedIndent = -1;
      }
      pos += line.length + 1;
      lineNo++;
    }
    const byPos = (a: { pos: number }, b: { pos: number }): number => a.pos - b.pos;
    this.nsMarks.sort(byPos);
    this.blocks.sort(byPos);
    this.standalone.sort(byPos);
  }

  private readInvolved(s: string, b: Block): void {
    const inv = b.involved!;
    const kind = /["']?kind["']?\s*:\s*["']?([A-Za-z]{1,60})/.exec(s);
    if (kind) inv.kind = kind[1]!;
    const name = /["']?name["']?\s*:\s*["']?([a-z0-9][a-z0-9.-]{0,252})/.exec(s);
    if (name) inv.name = name[1]!;
    const ns = NS_KEY_RE.exec(s);
    if (ns) {
      inv.namespace = ns[1]!;
      this.addNs(mark(b.pos, ns[1]!, undefined));
    }
  }

  private addLine(lineNo: number, m: Mark): void {
    const list = this.lineMarks.get(lineNo);
    if (list) list.push(m);
    else this.lineMarks.set(lineNo, [m]);
    if (m.namespace) this.addNs(m);
  }

  private addNs(m: Mark): void {
    this.nsMarks.push(m);
    this.namespaces.add(m.namespace!);
  }

  /** `end`: where the line ends in the text; `next`: the searches of `nextsOf` the text. */
  private readLine(line: string, pos: number, lineNo: number, end: number, next: ReturnType<typeof nextsOf>): void {
    if (line.length === 0) return;
    // `kubectl`, `oc`, `k`, `helm`, `kubens` followed by a blank: a cheap test for the last letter first.
    const isCommand = (next.cmdHint.in(pos, end) && CMD_RE.test(line)) || /^\s*[$#%]\s/.test(line);
    if (isCommand) {
      const m = CMD_NS_RE.exec(line) ?? CMD_NS_ATTACHED_RE.exec(line);
      if (m) this.addNs(mark(pos, m[1]!, undefined));
      const e = /kubens\s+([a-z0-9][a-z0-9-]{0,62})\s*$/.exec(line);
      if (e) this.addNs(mark(pos, e[1]!, undefined));
    }
    if (next.helm.in(pos, end)) {
      const m = PS1_RE.exec(line);
      if (m) this.addNs(mark(pos, m[1]!, undefined));
    }
    const slash = next.slash.in(pos, end);
    if (slash) {
      REF_RE.lastIndex = 0;
      const refs: Mark[] = [];
      for (let m = REF_RE.exec(line); m; m = REF_RE.exec(line)) {
        const kind = KIND_OF_PREFIX[m[1]!.toLowerCase()];
        if (kind) refs.push(mark(pos + m.index, undefined, { kind, name: m[2]!.replace(/[.-]+$/, '') }));
      }
      if (refs.length > 0) {
        // A line that is nothing but `rc/test-1` labels the lines under it (web consoles).
        if (/^\s*\S+\s*$/.test(line)) this.standalone.push(...refs);
        for (const r of refs) this.addLine(lineNo, r);
      }
      const k =
        (next.klog.in(pos, end) ? KLOG_POD_RE.exec(line) : null) ??
        (next.assigned.in(pos, end) ? ASSIGNED_RE.exec(line) : null);
      if (k) this.addLine(lineNo, mark(pos, k[1]!, { kind: 'Pod', name: k[2]! }));
    }
    if (next.sched.in(pos, end)) {
      const k = SCHED_LOG_RE.exec(line);
      if (k) this.addLine(lineNo, mark(pos, k[1]!, { kind: 'Pod', name: k[2]! }));
    }
    if (next.nsPath.in(pos, end)) {
      const u = URL_NS_RE.exec(line);
      if (u) this.addLine(lineNo, mark(pos, u[1]!, undefined));
    }
    if (next.objRef.in(pos, end)) {
      const o = OBJREF_RE.exec(line);
      if (o) this.addLine(lineNo, mark(pos, o[2]!, { kind: o[1]!, name: o[3]! }));
    }
    if (slash && next.quote.in(pos, end)) {
      const q = QUOTED_NS_NAME_RE.exec(line);
      if (q) this.addLine(lineNo, mark(pos, q[1]!, undefined));
    }
    const row = next.warning.in(pos, end) || next.normal.in(pos, end) ? ROW_NS_RE.exec(line) : null;
    if (row) this.addLine(lineNo, mark(pos, row[1]!, undefined));
    if (isCommand) {
      const c = CMD_SUBJECT_RE.exec(line);
      // `When I run kubectl describe pod on the pod, …`: prose about a command names no pod.
      if (c && !PROSE_WORDS.has(c[2]!)) {
        const kind = KIND_OF_PREFIX[c[1]!.toLowerCase()]!;
        const b = newBlock(pos, c[2]!);
        if (kind === 'Pod') b.podLike = true;
        else b.controllerLike = kind;
        this.blocks.push(b);
      }
    }
    const jk = next.brace.in(pos, end) ? JSON_POD_KEY_RE.exec(line) : null;
    if (jk) {
      const b = newBlock(pos, jk[1]!);
      b.podLike = true;
      this.blocks.push(b);
    }
    const old = next.oldEventHint.in(pos, end) ? OLD_EVENT_RE.exec(line) : null;
    if (old) this.addLine(lineNo, mark(pos, undefined, { kind: old[2]!, name: old[1]! }));
    if (next.inSts.in(pos, end)) {
      const s = STS_RE.exec(line);
      if (s) this.addLine(lineNo, mark(pos, undefined, { kind: 'StatefulSet', name: s[2]! }));
    }
    if (next.amespace.in(pos, end)) {
      const n = IN_NS_RE.exec(line);
      if (n) this.addNs(mark(pos, n[1]!, undefined));
      const y = YAML_NS_RE.exec(line);
      if (y) this.addNs(mark(pos, y[1]!, undefined));
    }
    const gp = slash ? GET_PODS_ALL_RE.exec(line) : null;
    if (gp) this.addLine(lineNo, mark(pos, gp[1]!, { kind: 'Pod', name: gp[2]! }));
    else if (slash) {
      const g = GET_PODS_RE.exec(line);
      if (g) this.addLine(lineNo, mark(pos, undefined, { kind: 'Pod', name: g[1]! }));
    }
  }

  private lineOf(pos: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The last element with `pos` ≤ `pos` of a list sorted by pos (binary search). */
  private lastBefore<T extends { pos: number }>(list: T[], pos: number): T | undefined {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.pos <= pos) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 ? list[lo - 1] : undefined;
  }

  /** The context of a message starting at `pos`. */
  at(pos: number): ContextAt {
    const out: ContextAt = {};
    const line = this.lineOf(pos);
    const marks = this.lineMarks.get(line) ?? [];
    for (const m of marks) {
      if (m.namespace && !out.namespace) out.namespace = m.namespace;
      if (m.ref && !out.lineRef) out.lineRef = m.ref;
      if (m.ref?.kind === 'Pod' && !out.pod) out.pod = m.ref.name;
      else if (m.ref && CONTROLLER_KINDS.has(m.ref.kind) && !out.controller) out.controller = m.ref;
    }
    const block = this.lastBefore(this.blocks, pos);
    if (block?.involved) {
      const inv = block.involved;
      if (inv.kind && inv.name && EVENT_KINDS.has(inv.kind)) {
        if (inv.kind === 'Pod') out.pod ??= inv.name;
        else out.controller ??= { kind: inv.kind, name: inv.name };
      }
      if (inv.namespace) out.namespace ??= inv.namespace;
    } else if (block?.name) {
      if (block.podLike) out.pod ??= block.name;
      else if (block.controllerLike) {
        const kind =
          block.controllerLike !== 'Replicas'
            ? block.controllerLike
            : block.controlledBy === 'Deployment'
              ? 'ReplicaSet'
              : block.controlledBy === 'DeploymentConfig'
                ? 'ReplicationController'
                : 'ReplicaSet';
        out.controller ??= { kind, name: block.name };
      }
      if (block.namespace) out.namespace ??= block.namespace;
    }
    if (!out.controller) {
      const s = this.lastBefore(this.standalone, pos);
      if (s?.ref && CONTROLLER_KINDS.has(s.ref.kind) && this.lineOf(s.pos) >= line - 3) out.controller = s.ref;
    }
    if (!out.namespace) {
      const ns = this.lastBefore(this.nsMarks, pos);
      if (ns) out.namespace = ns.namespace!;
      else if (this.namespaces.size === 1) out.namespace = [...this.namespaces][0]!;
    }
    return out;
  }
}
