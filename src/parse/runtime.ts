/**
 * Runtime problems: the pod was admitted and scheduled, then the kubelet or the kernel stopped it.
 * quota-doctor names these but does not simulate them (docs/architecture.md "Out of scope for the engine").
 *
 * - `OOMKilled` (container termination reason set by the kubelet from the runtime's OOM flag; reported
 *   as `OOM Killed` in 2014), kernel `Memory cgroup out of memory: Killed process`;
 * - eviction, pod status reason `Evicted`, message from pkg/kubelet/eviction/helpers.go:
 *   `The node was low on resource: memory. Container X was using U, which exceeds its request of R.` (old)
 *   and `… Threshold quantity: …, available: …. Container X was using U, request is R, has larger
 *   consumption of memory.` (new), or admission's `The node had condition: [MemoryPressure].`;
 * - node conditions / events: `MemoryPressure`, `NodeHasInsufficientMemory`, `EvictionThresholdMet`,
 *   and the same for disk and PIDs;
 * - `Exit Code: 137` (SIGKILL: often the OOM killer, also a liveness-probe kill);
 * - the kube-prometheus `CPUThrottlingHigh` alert and "CPU throttling" reports.
 */

import type { AppCap, BodyOf, Match, RuntimeFacts } from './finding.ts';
import { Quantity } from '../quantity.ts';
import { lowerAscii } from './normalize.ts';
import { lineEnd, lineStart, proseRow, scanMany } from './scan.ts';

/** What this module finds: runtime findings. */
export type RuntimeMatch = Match<BodyOf<'runtime'>>;

function wordAt(lower: string, k: number, len: number): boolean {
  const before = k === 0 ? ' ' : lower[k - 1]!;
  const after = lower[k + len] ?? ' ';
  return !/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after);
}

function runtime(text: string, k: number, reason: string, messageFrom?: number): RuntimeMatch {
  const ls = messageFrom ?? lineStart(text, k);
  const le = Math.min(lineEnd(text, k), ls + 500);
  const m: RuntimeMatch = {
    layer: 'runtime',
    kind: 'runtime',
    facts: { reason },
    message: text.slice(ls, le).trim(),
    start: k,
    end: le,
  };
  // `default/myapp-7d9f8c6b5-x2h4k: The node was low on resource: memory.` (a pod's `namespace/name: message`,
  // as a jq or a script lists failed pods): that pod's problem.
  const from = messageFrom ?? k;
  const owner = ownerBefore(text, from);
  if (owner && !NOT_A_NAMESPACE.has(owner[1]!)) {
    m.object = { resource: 'pods', name: owner[2]! };
    if (owner[1] !== 'pod' && owner[1] !== 'pods') m.namespace = owner[1]!;
  }
  return m;
}

/** `namespace/pod:` (the word right before a message, anchored at both ends). */
const OWNER_PREFIX_RE = /^([a-z0-9][a-z0-9-]{0,62})\/([a-z0-9][a-z0-9.-]{0,252}):$/;

/** The `namespace/pod: ` word that ends right before `from` (string scans, then one anchored match). */
function ownerBefore(text: string, from: number): RegExpExecArray | null {
  let e = from;
  while (e > 0 && from - e < 8 && (text[e - 1] === ' ' || text[e - 1] === '\t')) e--;
  if (e === from || text[e - 1] !== ':') return null;
  let b = e - 1;
  while (b > 0 && e - b < 320 && !/[\s#>*`(]/.test(text[b - 1]!)) b--;
  return OWNER_PREFIX_RE.exec(text.slice(b, e));
}
/** Kinds a `kind/name: ` prefix names (not a namespace; `pod/x:` names the pod). */
const NOT_A_NAMESPACE = new Set([
  'node',
  'nodes',
  'deployment',
  'deployments',
  'replicaset',
  'statefulset',
  'daemonset',
  'job',
  'cronjob',
  'service',
  'namespace',
  'configmap',
  'secret',
  'http',
  'https',
]);

/** Other status and reason names a prose list puts next to `OOMKilled` (lower case). */
const LIST_NAMES_RE =
  /^(?:insufficient [a-z0-9][\w./-]*|too many pods|crashloopbackoff|imagepullbackoff|errimagepull|evicted|pending|failedscheduling|containercreating|createcontainerconfigerror|error|completed|unschedulable|[a-z ]{0,20}(?:affinity|taints?)[a-z ]{0,20})$/;

/**
 * Is the word at `k` one item of a comma-separated list of status names (`Insufficient memory, OOMKilled,
 * Too many pods, …`)? Such a list names kinds of failure; it reports no container that was killed.
 */
function inNameList(lower: string, k: number, len: number): boolean {
  const ls = lower.lastIndexOf('\n', k) + 1;
  let le = lower.indexOf('\n', k);
  if (le < 0) le = lower.length;
  if (le - ls > 2000) return false;
  const before = lower.slice(ls, k).trimEnd();
  const after = lower.slice(k + len, le).trimStart();
  if (!before.endsWith(',') && !after.startsWith(',')) return false;
  const items = lower
    .slice(ls, le)
    .split(/,|\band\b/)
    .map((x) =>
      x
        .trim()
        .replace(/^.*(?:[-:]|\bof)\s+/, '')
        .replace(/[.;]+$/, ''),
    );
  return items.filter((x) => x !== 'oomkilled' && LIST_NAMES_RE.test(x)).length >= 2;
}

/** Nouns after `OOMKilled` that make it a kind of state talked about (`into OOMKilled states`, `OOMKilled errors`). */
const GENERAL_AFTER_RE =
  /^[ \t]+(?:(?:pods?|containers?|process(?:es)?|task|job)[ \t]+)?(?:states?|errors?|events?|issues?|problems?|failures?|scenarios?|situations?|conditions?|kills|loops?|crash(?:es)?|risks?)\b/;
/** What before it says the kill may happen, not that it did (`to avoid being OOMKilled`, `can get OOMKilled`). */
const GENERAL_BEFORE_RE =
  /\b(?:avoid(?:s|ing)?|prevent(?:s|ing)?|risk(?:s|ing)? (?:of )?|(?:can|could|may|might|would|will)(?: not)? (?:be|get|become))(?: \w+)?[ \t]+$/;

/** A verb before it that reports kills seen (`seeing OOMKilled errors`, `got OOMKilled events`, `there were …`). */
const SEEN_BEFORE_RE =
  /\b(?:see|sees|seeing|saw|seen|get|gets|getting|got|hit|hits|hitting|have|has|having|had|experienc\w+|observ\w+|notic\w+|there (?:are|were|was|is)|keeps?|kept)(?: \w+){0,2}[ \t]+$/;

/**
 * Is the OOM word at `k` about OOM kills in general (a doc's `Running VMs into OOMKilled states … is the most
 * common failure mode`) rather than a kill that happened? Not when a field or status column gives it.
 */
function generalOom(lower: string, k: number, len: number): boolean {
  const before = lower.slice(Math.max(0, k - 40), k);
  if (/(?:reason|status|state)["']?\s*[:=]\s*["']?$/.test(before)) return false;
  if (GENERAL_BEFORE_RE.test(before)) return true;
  // `we keep seeing OOMKilled errors on the api pods` reports kills; `… into OOMKilled states` does not.
  return GENERAL_AFTER_RE.test(lower.slice(k + len, k + len + 16)) && !SEEN_BEFORE_RE.test(before);
}

/**
 * A source line declaring the name (lower case, the name cut out as `@`; normalize may have joined a list's
 * lines and dropped a Go tag's backquotes): a list of quoted names, a constant, a struct field.
 */
const LIT = `["'][^"'\n]{0,60}["']`;
const CODE_NAME_RES = [
  new RegExp(
    `^[ \\t]*(?:[a-z_][\\w.]*[ \\t]*:?=[ \\t]*)?[[({]?[ \\t]*(?:${LIT}[ \\t]*,[ \\t]*)*(["'])@\\1[ \\t]*(?:,[ \\t]*${LIT}[ \\t]*)*,?[ \\t]*[\\])}]?[ \\t]*(?:(?:#|//).*)?$`,
  ),
  /^[ \t]*[a-z_][\w.]*[ \t]*(?::[ \t]*[\w.[\]]+[ \t]*)?:?=[ \t]*(["'`])@\1[ \t]*[,;]?[ \t]*(?:(?:#|\/\/).*)?$/,
  /^[ \t]*@[ \t]+(?:bool|int|int32|int64|string|\*?[a-z_][\w.]*)[ \t]+`?[a-z]+:"[^"\n]*"(?: [a-z]+:"[^"\n]*")*`?[ \t]*$/,
];

/**
 * Is the reason at `k` a name a program declares — a catalogue of reasons (`    "Evicted",`, `TypeOOMKilled =
 * "OOMKilled"`, `OOMKilled bool \`json:"oom_killed"\``)? Such a line names a kind of failure; it reports
 * none. Not a field of an object (`reason: OOMKilled`, `"reason": "OOMKilled"`, `status.reason = "OOMKilled"`).
 */
function codeName(lower: string, k: number, len: number): boolean {
  const ls = lower.lastIndexOf('\n', k - 1) + 1;
  let le = lower.indexOf('\n', k);
  if (le < 0) le = lower.length;
  if (le - ls > 300) return false;
  const line = `${lower.slice(ls, k)}@${lower.slice(k + len, le)}`;
  if (!CODE_NAME_RES.some((re) => re.test(line))) return false;
  return !/^[ \t]*(?:[\w.]*\.)?(?:reason|status|state|phase)[ \t]*[:=]/.test(line);
}

/** All runtime findings in normalized `text` (one per occurrence; `index.ts` dedupes per reason and pod). */
export function findRuntime(text: string, lowerText?: string): RuntimeMatch[] {
  const lower = lowerText ?? lowerAscii(text);
  const out: RuntimeMatch[] = [];
  const table: [string, (k: number) => RuntimeMatch | undefined][] = [];
  const on = (needle: string, f: (k: number) => RuntimeMatch | undefined): void => {
    table.push([needle, f]);
  };
  on('oomkilled', (k) =>
    wordAt(lower, k, 9) &&
    !inNameList(lower, k, 9) &&
    !generalOom(lower, k, 9) &&
    !codeName(lower, k, 9) &&
    !catalogueEntry(lower, k, 9) &&
    // docker/crictl inspect's `"OOMKilled": false` says no kill happened.
    !/^"?[ \t]*[:=][ \t]*false\b/.test(lower.slice(k + 9, k + 20))
      ? runtime(text, k, 'OOMKilled')
      : undefined,
  );
  on('oom killed', (k) => {
    if (!wordAt(lower, k, 10) || generalOom(lower, k, 10)) return undefined;
    const m = runtime(text, k, 'OOMKilled');
    // The 2014 kubelet's reason `OOM Killed`; prose (`was OOM killed`) dates nothing.
    if (/(?:"|reason:\s{0,20})$/.test(lower.slice(Math.max(0, k - 24), k))) m.version = '2014';
    return m;
  });
  // Prose: `the pod was OOM-killed`, `got out of memory killed`, `the container ran out of memory`.
  on('oom-killed', (k) =>
    wordAt(lower, k, 10) && !generalOom(lower, k, 10) && !catalogueEntry(lower, k, 10)
      ? runtime(text, k, 'OOMKilled')
      : undefined,
  );
  // `was killed by the OOM killer`, `got killed by oom-killer` (prose naming what was killed).
  on('killed by the oom', (k) =>
    /^killed by the oom[ -]?killer/.test(lower.slice(k, k + 30)) ? runtime(text, k, 'OOMKilled') : undefined,
  );
  on('killed by oom', (k) =>
    /^killed by oom[ -]?killer/.test(lower.slice(k, k + 26)) ? runtime(text, k, 'OOMKilled') : undefined,
  );
  on('out of memory killed', (k) => (wordAt(lower, k, 20) ? runtime(text, k, 'OOMKilled') : undefined));
  // "ran out of memory" is a kill only when a container, pod or process did: "the node ran out of memory"
  // is node pressure (an eviction or a scheduler message), not this.
  on('ran out of memory', (k) => {
    if (!wordAt(lower, k, 17)) return undefined;
    const before = lower.slice(Math.max(0, k - 40), k);
    const who = /\b(container|pod|process|build|app|job|java|jvm|it|worker|task|service)s?\s+(?:\S+\s+){0,2}$/.test(
      before,
    );
    return who && !/\bnodes?\s+(?:\S+\s+){0,2}$/.test(before) ? runtime(text, k, 'OOMKilled') : undefined;
  });
  on('memory cgroup out of memory', (k) => runtime(text, k, 'OOMKilled'));
  // OOM kills in prose and in the kernel's own words: OpenShift builds (`OutOfMemoryKilled: The build pod
  // was killed due to an out of memory condition`), the oom-killer's `X invoked oom-killer: gfp_mask=…`
  // and `Out of memory: Killed process N (name)` (the cgroup form is matched above).
  on('outofmemorykilled', (k) => (wordAt(lower, k, 17) ? runtime(text, k, 'OOMKilled') : undefined));
  on('killed due to an out of memory condition', (k) => runtime(text, k, 'OOMKilled'));
  on('invoked oom-killer', (k) => runtime(text, k, 'OOMKilled'));
  // cgroup v1 before kernel 4.19 (mm/memcontrol.c mem_cgroup_print_oom_info): `Task in <cgroup> killed as a
  // result of limit of <cgroup>`; 4.19+ (mm/oom_kill.c dump_oom_summary): `oom-kill:constraint=CONSTRAINT_MEMCG,…`.
  on('killed as a result of limit of', (k) => runtime(text, k, 'OOMKilled'));
  on('oom-kill:constraint=', (k) => runtime(text, k, 'OOMKilled'));
  // The reaper freeing a killed task's memory (mm/oom_kill.c oom_reap_task_mm), and prose saying who killed what.
  on('oom_reaper: reaped process ', (k) => runtime(text, k, 'OOMKilled'));
  on('oom killer killed', (k) => runtime(text, k, 'OOMKilled'));
  on('oom-killer killed', (k) => runtime(text, k, 'OOMKilled'));
  // The kill itself, alone (4.x prints it without the `… out of memory:` prefix): `Killed process N (name)
  // total-vm:…` (`, UID N,` before total-vm on some kernels).
  on('killed process ', (k) =>
    (k === 0 || !/[a-z]/.test(lower[k - 1]!)) &&
    /^killed process \d{1,10} \([^)\n]{1,64}\),? (?:uid \d{1,10}, )?total-vm:\d/.test(lower.slice(k, k + 120)) &&
    !/out of memory: $/.test(lower.slice(Math.max(0, k - 16), k))
      ? runtime(text, k, 'OOMKilled')
      : undefined,
  );
  on('out of memory: kill', (k) =>
    lower.slice(Math.max(0, k - 14), k) === 'memory cgroup ' ? undefined : runtime(text, k, 'OOMKilled'),
  );
  // Retyped with the plural (`The node was low on resources: ephemeral storage. Container wait was using 68Ki, …`).
  on('the node was low on resources:', (k) => runtime(text, k, 'Evicted', k));
  on('the node was low on resource:', (k) => {
    const m = runtime(text, k, 'Evicted', k);
    if (/has larger consumption of/i.test(m.message)) m.version = 'new wording';
    else if (/which exceeds its request of/i.test(m.message)) m.version = 'old wording';
    return m;
  });
  on('evicted', (k) =>
    wordAt(lower, k, 7) &&
    !codeName(lower, k, 7) &&
    !catalogueEntry(lower, k, 7) &&
    !countedZero(lower, k) &&
    !drained(lower, k)
      ? runtime(text, k, 'Evicted')
      : undefined,
  );
  // The kubelet's local-storage evictions (pkg/kubelet/eviction/helpers.go: podEphemeralStorageMessageFmt,
  // containerEphemeralStorageMessageFmt, emptyDirMessageFmt), pasted without the `Evicted` reason.
  on('pod ephemeral local storage usage exceeds the total limit of containers', (k) =>
    mentionedAsKind(lower, k) ? undefined : runtime(text, k, 'Evicted', k),
  );
  // The kubelet always names the container (`Container %s exceeded …`): `Container exceeded its local …` is a
  // writer naming the kind of message.
  on('exceeded its local ephemeral storage limit', (k) => {
    const c = /Container ([^\s"'`]{1,80}) $/.exec(text.slice(Math.max(0, k - 90), k));
    if (!c || mentionedAsKind(lower, k - c[0].length)) return undefined;
    return runtime(text, k - c[0].length, 'Evicted', k - c[0].length);
  });
  on('usage of emptydir volume', (k) =>
    /^usage of emptydir volume "[^"\n]{1,253}" exceeds the limit/.test(lower.slice(k, k + 300))
      ? runtime(text, k, 'Evicted', k)
      : undefined,
  );
  on('the node had condition: [', (k) => {
    // The kubelet rejected or evicted the pod for the node condition: the pod's status reason is Evicted.
    return runtime(text, k, 'Evicted', k);
  });
  // The eviction manager's own log line for that refusal (pkg/kubelet/eviction/eviction_manager.go Admit, before
  // structured logging: `Failed to admit pod %v - node has conditions: %v`); the pod's status says the above.
  on('node has conditions: [', (k) => {
    const ls = lineStart(text, k);
    const at = lower.slice(ls, k).lastIndexOf('failed to admit pod ');
    return at >= 0 ? runtime(text, ls + at, 'Evicted', ls + at) : undefined;
  });
  for (const [needle, reason] of [
    ['memorypressure', 'MemoryPressure'],
    ['nodehasinsufficientmemory', 'MemoryPressure'],
    ['diskpressure', 'DiskPressure'],
    ['nodehasdiskpressure', 'DiskPressure'],
    ['pidpressure', 'PIDPressure'],
    ['evictionthresholdmet', 'EvictionThresholdMet'],
  ] as const) {
    on(needle, (k) => {
      if (
        !/[a-z]/.test(lower[k + needle.length] ?? ' ') &&
        !lower.slice(Math.max(0, k - 26), k).endsWith('the node had condition: [')
      ) {
        // A bare condition name is a problem only where it is set: a `describe node` row `DiskPressure  True`
        // or a `NodeHasDiskPressure` / `KubeletHasDiskPressure` reason. `MemoryPressure  False`,
        // `KubeletHasNoDiskPressure` (a healthy node) and prose mentions are not.
        if (needle.endsWith('pressure') && !needle.startsWith('nodehas')) {
          const before = lower.slice(Math.max(0, k - 12), k);
          const set =
            /has$/.test(before) || /^[ \t]+true\b/.test(lower.slice(k + needle.length, k + needle.length + 40));
          if (!set) return undefined;
        }
        return runtime(text, k, reason);
      }
      return undefined;
    });
  }
  // Kubelet admission (pkg/kubelet/lifecycle/predicate.go): the node the scheduler picked no longer has
  // room when the kubelet admits the pod: reason `OutOf<resource>` (`OutOfcpu`, `OutOfmemory`, `OutOfpods`),
  // message `Node didn't have enough resource: cpu, requested: 150, used: 11388, capacity: 11500`.
  on('outof', (k) => {
    if (k > 0 && /[a-z0-9]/.test(lower[k - 1]!)) return undefined;
    // The resource as the node names it, case and all (`OutOfhugepages-1Gi`).
    const m = /^OutOf([a-z][A-Za-z0-9./-]{0,60})\b/.exec(text.slice(k, k + 70));
    return m && !catalogueEntry(lower, k, m[0].length) ? runtime(text, k, m[0]) : undefined;
  });
  on("node didn't have enough resource: ", (k) => {
    // Only when no `OutOf…` reason is on the line: then name it the way the kubelet does.
    const ls = lineStart(text, k);
    if (/\bOutOf[a-z]/.test(text.slice(ls, k))) return undefined;
    const m = /^([a-z][A-Za-z0-9./-]{0,60})/.exec(text.slice(k + "node didn't have enough resource: ".length, k + 100));
    return m ? runtime(text, k, `OutOf${m[1]!}`) : undefined;
  });
  on('exit code', (k) => {
    const m = /^exit code:?\s{0,20}137\b/.exec(lower.slice(k, k + 40));
    return m && !matcherLiteral(text, k) ? runtime(text, k, 'ExitCode137') : undefined;
  });
  on('exitcode', (k) =>
    /^exitcode"?:\s{0,5}137\b/.test(lower.slice(k, k + 30)) ? runtime(text, k, 'ExitCode137') : undefined,
  );
  // docker-compose's `web exited with code 137`: a container of Kubernetes only where the paste speaks of one.
  on('exited with code 137', (k) => (kubernetesWords(lower) ? runtime(text, k, 'ExitCode137') : undefined));
  // Kubelet admission (pkg/kubelet/lifecycle/predicate.go, PredicateFailureError): a pod bound to a node whose
  // labels, name or ports it does not fit is rejected there (phase Failed, reason the predicate's name):
  // `Pod was rejected: Predicate NodeAffinity failed` (1.2x+: `…failed: node(s) didn't match Pod's node
  // affinity/selector`); before 1.18 the names were the old scheduler's (`Predicate MatchNodeSelector failed`).
  on('predicate ', (k) => {
    KUBELET_PREDICATE_RE.lastIndex = k;
    const m = KUBELET_PREDICATE_RE.exec(text);
    if (!m || (k > 0 && /[a-z0-9]/i.test(text[k - 1]!)) || catalogueEntry(lower, k, m[0].length)) return undefined;
    // A matcher's pattern (`r"Predicate NodeAffinity failed.*"`) names the message, no pod was rejected.
    if (/^\.[*+]/.test(text.slice(k + m[0].length, k + m[0].length + 2))) return undefined;
    const at = lower.slice(Math.max(0, k - 18), k).endsWith('pod was rejected: ') ? k - 18 : k;
    return runtime(text, k, m[1] === 'MatchNodeSelector' ? 'NodeAffinity' : m[1]!, at);
  });
  // The predicate's name where the pod shows it: its status reason (`Reason:  NodeAffinity` in describe,
  // `reason: NodeAffinity` in YAML) or the STATUS column of `kubectl get pods` (`0/1  NodeAffinity  0  3d20h`).
  const statusReason = (k: number, reason: string): RuntimeMatch | undefined => {
    if (!wordAt(lower, k, reason.length)) return undefined;
    const ls = lineStart(lower, k);
    const le = lineEnd(lower, k, 600);
    const before = lower.slice(ls, k);
    const after = lower.slice(k + reason.length, le);
    const status = /^[ \t]*reason:[ \t]+$/.test(before) && /^[ \t]*$/.test(after);
    const row = /\b\d{1,3}\/\d{1,3}[ \t]+$/.test(before) && /^[ \t]+\d{1,6}(?:[ \t]|$)/.test(after);
    return status || row ? runtime(text, k, reason) : undefined;
  };
  on('nodeaffinity', (k) => statusReason(k, 'NodeAffinity'));
  // The kubelet's sysctl admission (pkg/kubelet/sysctl: reason `SysctlForbidden`, `forbidden sysctl: %v` with
  // `"net.core.somaxconn" not allowlisted`, before 1.23 `not whitelisted`): the pod sets a sysctl the node forbids.
  on('sysctlforbidden', (k) => statusReason(k, 'SysctlForbidden'));
  on('forbidden sysctl: ', (k) => {
    if (
      matcherLiteral(text, k) ||
      !/^forbidden sysctl: (?:"[a-z0-9_./*-]{1,120}"|[a-z0-9_./-]{1,120}) not/.test(lower.slice(k, k + 160))
    )
      return undefined;
    const at = lower.slice(Math.max(0, k - 18), k).endsWith('pod was rejected: ') ? k - 18 : k;
    return runtime(text, k, 'SysctlForbidden', at);
  });
  // The victim of a preemption (pkg/scheduler/framework/preemption, `Preempted by pod %v on node %v` with the
  // preemptor's UID; 1.1x: `Preempted by %v/%v on node %v`; 1.35's workload-aware `Preempted by podgroup …`;
  // `Preempted by a pod on node %v` where the preemptor is not named).
  on('preempted by ', (k) => {
    if (k > 0 && /[a-z0-9]/.test(lower[k - 1]!)) return undefined;
    const rest = lower.slice(k + 13, k + 120);
    // Some schedulers leave the preemptor out: `Preempted by a pod on node %v`.
    const by =
      /^(?:a pod on node [a-z0-9]|pod(?:group)? (\S{1,80})|([a-z0-9][a-z0-9-]{0,62}\/[a-z0-9][a-z0-9.-]{0,252}) on node\b)/.exec(
        rest,
      );
    if (!by) return undefined;
    // The scheduler's format string (`"Preempted by pod %v on node %v"`) is no preemption (a writer's `<uid>` is
    // a real one's name left out).
    if (/^(?:%|\$\{|\{\{)/.test(by[1] ?? '')) return undefined;
    return runtime(text, k, 'Preempted');
  });
  // The kubelet's own preemption of pods to admit a critical one (pkg/kubelet/preemption: reason `Preempting`),
  // and the scheduler's DisruptionTarget condition on a victim (`default-scheduler: preempting to accommodate a
  // higher priority pod`, reason PreemptionByScheduler).
  on('preempted in order to admit critical pod', (k) =>
    matcherLiteral(text, k) ? undefined : runtime(text, k, 'Preempted'),
  );
  on('preempting to accommodate a higher priority pod', (k) =>
    matcherLiteral(text, k) ? undefined : runtime(text, k, 'Preempted'),
  );
  // The kubelet's Topology Manager refusing a pod it cannot place on one NUMA node (pkg/kubelet/cm/topologymanager:
  // reason `TopologyAffinityError`, `Resources cannot be allocated with Topology locality`).
  on('resources cannot be allocated with topology locality', (k) =>
    matcherLiteral(text, k) ? undefined : runtime(text, k, 'TopologyAffinityError'),
  );
  on('topologyaffinityerror', (k) =>
    wordAt(lower, k, 21) &&
    !codeName(lower, k, 21) &&
    !catalogueEntry(lower, k, 21) &&
    !lower.slice(k, lineEnd(lower, k, 400)).includes('resources cannot be allocated with topology locality')
      ? runtime(text, k, 'TopologyAffinityError')
      : undefined,
  );
  // The kubelet's own admission failing for a reason that is no predicate (pkg/kubelet/lifecycle/predicate.go:
  // reason `UnexpectedAdmissionError`, the device or CPU manager's `Allocate failed due to …, which is unexpected`).
  on('unexpectedadmissionerror', (k) =>
    wordAt(lower, k, 24) &&
    !codeName(lower, k, 24) &&
    !catalogueEntry(lower, k, 24) &&
    !matcherLiteral(text, k) &&
    !constantDeclared(lower, k, 24)
      ? runtime(text, k, 'UnexpectedAdmissionError')
      : undefined,
  );
  // Also `Update plugin resources failed due to %v, which is unexpected.` (1.10+); the %v may be a vendor's device
  // plugin failing its allocation (`unable to find GPU device allocation by scheduler`): still the kubelet's refusal.
  const admissionError = (k: number): RuntimeMatch | undefined => {
    if (matcherLiteral(text, k)) return undefined;
    const le = lineEnd(lower, k, 600);
    // Its status reason on a line of its own (`reason: UnexpectedAdmissionError` below a wrapped message) is read
    // there; the message alone is one where the reason is not printed.
    if (/\bunexpectedadmissionerror\b/.test(lower.slice(Math.max(0, k - 400), Math.min(lower.length, k + 800))))
      return undefined;
    return /which is unexpected/.test(lower.slice(k, Math.min(lower.length, le + 200)))
      ? runtime(text, k, 'UnexpectedAdmissionError')
      : undefined;
  };
  on('allocate failed due to ', admissionError);
  on('update plugin resources failed due to ', admissionError);
  // The kubelet's OOM watcher (pkg/kubelet/oom: a `SystemOOM` event on the node, `System OOM encountered,
  // victim process: %s, pid: %d`; before 1.19 `System OOM encountered`): the kernel killed a process there.
  on('system oom encountered', (k) => {
    const victim = /^system oom encountered, victim process: (\S{1,64}?),?(?:\s|$)/.exec(lower.slice(k, k + 120));
    // The watcher's format string (`victim process: %s, pid: %d`) is no kill.
    if (matcherLiteral(text, k) || (victim && /^(?:%|\$\{|\{\{)/.test(victim[1]!))) return undefined;
    return runtime(text, k, 'OOMKilled');
  });
  on('cputhrottlinghigh', (k) => runtime(text, k, 'CPUThrottling'));
  // Not what a setting prevents (`This … prevents throttling of cpu`, `to avoid CPU throttling`): general prose.
  const prevented = (k: number) => PREVENTED_BEFORE_RE.test(lower.slice(Math.max(0, k - 32), k));
  on('throttling of cpu', (k) => (prevented(k) ? undefined : runtime(text, k, 'CPUThrottling')));
  on('cpu throttling', (k) => (prevented(k) ? undefined : runtime(text, k, 'CPUThrottling')));
  scanMany(lower, table, out);
  out.sort((a, b) => a.start - b.start);
  // A matcher's source (`re.compile(r"(?:Out of memory|Memory cgroup out of memory)[^:]*:\s+Kill…")`) spells
  // the words without any kill having happened.
  for (let n = out.length - 1; n >= 0; n--) if (inPattern(text, out[n]!.start)) out.splice(n, 1);
  dropEvictionExits(lower, out);
  dropEvictionCauses(out);
  withNumbers(text, out);
  return out;
}

/** The kubelet's predicate names in its admission refusal (`Predicate NodeAffinity failed`), sticky at the needle. */
const KUBELET_PREDICATE_RE =
  /predicate (NodeAffinity|NodeName|NodePorts|TaintToleration|MatchNodeSelector|HostName|PodFitsHostPorts|PodToleratesNodeTaints|CheckNodeCondition) failed\b/iy;

/** The node conditions and events an eviction comes from. */
const PRESSURE_REASONS = new Set(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'EvictionThresholdMet']);

/**
 * A node's pressure next to an eviction (`Reason: Evicted` ⏎ `The node had condition: [MemoryPressure]` ⏎
 * `EvictionThresholdMet … Attempting to reclaim memory`) is why the pod was evicted: one problem, the eviction.
 */
function dropEvictionCauses(out: RuntimeMatch[]): void {
  const evictions = out.filter((m) => m.facts.reason === 'Evicted').map((m) => m.start);
  if (evictions.length === 0) return;
  for (let n = out.length - 1; n >= 0; n--) {
    const m = out[n]!;
    if (PRESSURE_REASONS.has(m.facts.reason) && within(evictions, m.start, 4000)) out.splice(n, 1);
  }
}

/** Is some offset of the sorted `starts` within `d` of `at`? */
function within(starts: readonly number[], at: number, d: number): boolean {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! < at) lo = mid + 1;
    else hi = mid;
  }
  return (lo < starts.length && starts[lo]! - at < d) || (lo > 0 && at - starts[lo - 1]! < d);
}

/** Whether a paste speaks of Kubernetes at all (one search a paste: the last answer is kept). */
let lastLower: string | undefined;
let lastK8s = false;
function kubernetesWords(lower: string): boolean {
  if (lower !== lastLower) {
    lastLower = lower;
    lastK8s =
      /\b(?:kubectl|kubelet|kubernetes|k8s|k3s|pods?|namespace|deployment|oomkilled|laststate|containerstatuses)\b/.test(
        lower,
      );
  }
  return lastK8s;
}

/**
 * Exit code 137 that is not a kill of its own: the status the kubelet gives a container it could not find
 * (`reason: ContainerStatusUnknown`, exit code 137), or the SIGKILL of an evicted pod's container next to
 * the eviction itself (the eviction is the problem).
 */
function dropEvictionExits(lower: string, out: RuntimeMatch[]): void {
  const evictions = out.filter((m) => m.facts.reason === 'Evicted').map((m) => m.start);
  for (let n = out.length - 1; n >= 0; n--) {
    const m = out[n]!;
    if (m.facts.reason !== 'ExitCode137') continue;
    const near = lower.slice(Math.max(0, m.start - 300), m.start + 300);
    if (near.includes('containerstatusunknown') || within(evictions, m.start, 1500)) out.splice(n, 1);
  }
}

/**
 * Is the message at `k` inside a string literal a program compares or declares as a matcher
 * (`err != "command terminated with exit code 137"`, `strings.Contains(s, "…")`, `ErrOOMStr = "…"`)?
 * It names a message; it reports none.
 */
export function matcherLiteral(text: string, k: number): boolean {
  const ls = lineStart(text, k, 400);
  const before = text.slice(ls, k);
  const q = Math.max(before.lastIndexOf('"'), before.lastIndexOf("'"), before.lastIndexOf('`'));
  if (q < 0 || /["'`]/.test(before.slice(q + 1))) return false;
  const head = before.slice(0, q);
  return (
    /(?:[!=]==?|\b(?:contains|includes|startswith|endswith|hasprefix|hassuffix|match|matches|search|test|in)\s*\(?\s*(?:[\w.]+\s*,\s*)?)\s*$/i.test(
      head,
    ) ||
    /^\s*(?:const\s+|var\s+|let\s+)?(?:[A-Za-z_]\w*(?:Str|Msg|Message|Pattern|Re|Regex)|Err\w*|[a-z_]*(?:message|msg|pattern|regex)|[A-Z_]*(?:MESSAGE|MSG|PATTERN|REGEX))\s*:?=\s*$/.test(
      head,
    )
  );
}

/**
 * `kubectl drain`'s own line for a pod it evicted through the Eviction API (`pod/web-1 evicted`, `evicting pod
 * default/web-1` before it): the drain a person ran, not the kubelet's eviction under node pressure.
 */
function drained(lower: string, k: number): boolean {
  const ls = lineStart(lower, k);
  return (
    /^[ \t]*pod\/[a-z0-9][a-z0-9.-]{0,252} $/.test(lower.slice(ls, k)) &&
    /^evicted[ \t]*$/.test(lower.slice(k, lineEnd(lower, k, 300)))
  );
}

/** A constant declaring the name (`UnexpectedAdmissionError = "UnexpectedAdmissionError"`): either side of it. */
function constantDeclared(lower: string, k: number, len: number): boolean {
  const ls = lineStart(lower, k);
  const line = lower.slice(ls, lineEnd(lower, k, 400));
  return (
    /^[ \t]*(?:const[ \t]+|var[ \t]+|let[ \t]+|final[ \t]+|static[ \t]+)*[a-z_][\w.]*(?:[ \t]+[a-z_]\w*)?[ \t]*:?=[ \t]*["'`][a-z][\w]*["'`][ \t;,]*(?:\/\/.*)?$/.test(
      line,
    ) && k + len <= ls + line.length
  );
}

/** Is the word at `k` counted as zero (`0 Evicted, 0 OOMKilling`)? None happened. */
function countedZero(lower: string, k: number): boolean {
  return /(?:^|[\s(*`,;])0[ \t]+$/.test(lower.slice(Math.max(0, k - 6), k));
}

/**
 * Is the message at `k` named as a kind of message (`messages like "Container exceeded its local …"`,
 * `… or "Pod ephemeral local storage usage exceeds …"`)? A writer's list of messages reports no eviction.
 */
function mentionedAsKind(lower: string, k: number): boolean {
  const before = lower.slice(Math.max(lineStart(lower, k), k - 80), k);
  return /\b(?:messages?|errors?|events?|warnings?)\s+(?:like|such as)\s+["'`]?$|["'`]\s+or\s+["'`]$/.test(before);
}

/** Words before a runtime trouble that name it as what is prevented or avoided, not what happened. */
const PREVENTED_BEFORE_RE =
  /\b(?:prevents?|preventing|avoids?|avoiding|reduces?|reducing|minimi[sz](?:e|es|ing)|without|disables?|disabling|no more|less|fewer)\s+(?:the\s+|any\s+|unnecessary\s+)?$/;

/** Reason and state names a cheat sheet or an alert table lists (lower case). */
const CATALOGUE_NAMES =
  'oomkilled|evicted|crashloopbackoff|imagepullbackoff|errimagepull|pending|createcontainerconfigerror|error|completed|oom ?killed|oom-killed|containercreating|runcontainererror';
/** `| Pod OOMKilled | Increase memory limit …` (a row naming the reason, then prose about it). */
const CATALOGUE_ROW_RE = new RegExp(
  `^\\s*\\|\\s*[\`*]{0,2}(?:(?:pod|container)\\s+)?(?:${CATALOGUE_NAMES})[\`*]{0,2}\\s*\\|\\s*[^|]*[a-z]{2,}[ \\t]+[a-z]{2,}`,
);
/** `  - OOMKilled   # Container killed …` (a list of names) or `#   OOMKilled  -> describe …` (a name mapped to advice). */
const CATALOGUE_LINE_RE =
  /^[ \t]*(?:(?:#{1,4}|\/\/)[ \t]*)?(?:[-*+][ \t]+@[ \t]+(?:#|\/\/)|(?:[-*+][ \t]+)?@[ \t]+(?:->|=>|\u2192)\s)|@[ \t]{2,}(?:->|=>|\u2192)\s/;

/**
 * The reason defined rather than reported: a list entry that explains it (`- \`OOMKilled\` — the container used
 * more than its limit`, `* **Evicted**: the node ran short`) or a sentence saying what it means (`The reason
 * \`Evicted\` means …`, `OOMKilled indicates …`).
 */
const DEFINITION_RE =
  /^[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t]+[`*"']{0,2}@[`*"']{0,2}[ \t]*(?:[\u2014\u2013:=]|--?)[ \t]+(?:the|a|an|when|if|pod|container|node|kubelet|kernel|process|it|this|means?|indicates?)\b|@[`*"']{0,2}[ \t]+(?:means|indicates|refers to|is (?:when|what|the reason|a (?:status|reason|state))|happens when|occurs when)\b/;

/**
 * Is the reason at `k` an entry of a catalogue (a YAML list of reason names with comments, a cheat sheet
 * mapping names to advice, a table row whose first cell is the reason and whose next cell explains it)?
 */
function catalogueEntry(lower: string, k: number, len: number): boolean {
  const ls = lower.lastIndexOf('\n', k - 1) + 1;
  let le = lower.indexOf('\n', k);
  if (le < 0) le = lower.length;
  if (le - ls > 600) return false;
  const line = lower.slice(ls, le);
  if (line.trimStart().startsWith('|') && (CATALOGUE_ROW_RE.test(line) || proseRow(line, k - ls))) return true;
  const marked = `${lower.slice(ls, k)}@${lower.slice(k + len, le)}`;
  return CATALOGUE_LINE_RE.test(marked) || DEFINITION_RE.test(marked);
}

/** Tokens of a regular expression's source, which no kubelet, kernel or kubectl line prints. */
const PATTERN_TOKEN_RE = /\(\?(?:[:=!]|<[=!])|\\[sdwSDW][+*?{]|\[\^|\.[*+]\??[\\([]/;

/** Is the word at `k` inside a regular expression's source (on its line, within 160 characters)? */
function inPattern(text: string, k: number): boolean {
  const ls = Math.max(lineStart(text, k), k - 160);
  const le = Math.min(lineEnd(text, k), k + 160);
  return PATTERN_TOKEN_RE.test(text.slice(ls, le));
}

// ---- The numbers around a runtime finding (issue #17, Deliver 4) ----

/** Keys of `kubectl get -o yaml` / describe that look like a describe container header (`  app:`). */
const NOT_A_CONTAINER = new Set([
  'containers',
  'initcontainers',
  'resources',
  'limits',
  'requests',
  'terminated',
  'running',
  'waiting',
  'state',
  'status',
  'spec',
  'metadata',
  'env',
  'ports',
  'volumes',
  'volumemounts',
  'labels',
  'annotations',
  'conditions',
  'tolerations',
  'items',
  'data',
  'command',
  'args',
  'securitycontext',
  'mounts',
  'environment',
  'events',
]);

interface Line {
  start: number;
  text: string;
  indent: number;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let at = 0;
  for (const t of text.split('\n')) {
    out.push({ start: at, text: t, indent: t.length - t.trimStart().length });
    at += t.length + 1;
  }
  return out;
}

/**
 * A paste quoted whole as shell or code comments (every line `# …` or `// …`: a runbook's `# Limits:` ⏎
 * `#   memory: 256Mi`) with its markers blanked, so that its blocks read at their own indentation; offsets
 * are kept. A paste where only some lines are comments keeps them: a commented-out `# limits:` is not set.
 */
function uncommented(text: string): string {
  for (const marker of ['#', '//']) {
    const lines = text.split('\n');
    if (lines.every((l) => l.trim() === '' || l.trimStart().startsWith(marker)))
      return lines
        .map((l) => l.replace(marker === '#' ? /^(\s*)#+/ : /^(\s*)\/{2,}/, (m) => ' '.repeat(m.length)))
        .join('\n');
  }
  return text;
}

function lineIndexAt(lines: readonly Line[], k: number): number {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid]!.start <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const QTY = '([0-9]+(?:\\.[0-9]+)?(?:[KMGTPE]i|[kMGTPE]|m)?)';
/** `  app:` (a describe container header). */
const HEADER_RE = /^\s{1,8}([a-z0-9][a-z0-9-]{0,62}):\s*$/;
const DEEP_HEADER_RE = /^\s{9,40}([a-z0-9][a-z0-9-]{0,62}):\s*$/;

/** Whether the nearest line above line `j` with less indentation is `Containers:` (or `Init Containers:`). */
function underContainers(lines: readonly Line[], j: number): boolean {
  const indent = lines[j]!.indent;
  for (let n = j - 1; n >= 0 && n > j - 400; n--) {
    const l = lines[n]!;
    if (l.text.trim() === '' || l.indent >= indent) continue;
    return /^(?:Init )?Containers:$/.test(l.text.trim());
  }
  return false;
}
/** `- name: app`, `name: app`, `"name": "app",`. */
const NAME_RE = /^\s*(?:- )?"?name"?:\s*["']?([a-z0-9][a-z0-9.-]{0,62})["']?,?\s*$/;
// A closing string delimiter may end the line (a describe pasted into a Python triple-quoted string: `memory:  64Mi"""`).
const MEMORY_RE = new RegExp(`^\\s*"?memory"?:\\s*["']?${QTY}["']?,?(?:"""|'''|\\x60)?,?\\s*$`);
const BLOCK_RE = /^\s*(?:- )?"?(limits|requests|Limits|Requests)"?:\s*(\{.*)?$/;
/** A describe block written on one line (`    Limits:      memory: 4Gi`, `Requests: cpu: 1, memory: 2Gi`). */
const INLINE_BLOCK_RE = new RegExp(
  `^\\s*(Limits|Requests):[ \\t]+(?:[a-z][\\w./-]*:[ \\t]*\\S+,?[ \\t]+)*memory:[ \\t]*${QTY}\\b`,
);
/** A resource row of a block (`cpu:  100m`): an old describe printed them at the block's own indentation. */
const RESOURCE_ROW_RE = /^\s*"?[a-z][a-z0-9./-]{0,62}"?:\s+["']?[0-9]/;

/** One container's memory as the paste shows it: limit and request, and where its name was. */
interface ContainerMemory {
  name?: string;
  limit?: string;
  request?: string;
}

/** The name a line gives a container, if it is a container header or a `name:` line. */
function nameOn(l: Line): string | undefined {
  const h = HEADER_RE.exec(l.text);
  if (h && !NOT_A_CONTAINER.has(h[1]!)) return h[1];
  return NAME_RE.exec(l.text)?.[1];
}

/**
 * Memory limits and requests in the paste (describe `Limits:`/`Requests:` blocks, YAML `limits:` maps, JSON
 * `"limits": {"memory": "2Gi"}`), each with the container name seen last before it.
 */
function containerMemory(lines: readonly Line[]): ContainerMemory[] {
  const out: ContainerMemory[] = [];
  let name: string | undefined;
  let current: ContainerMemory | undefined;
  let block: { which: 'limit' | 'request'; indent: number } | undefined;
  for (const l of lines) {
    if (l.text.trim() === '') continue;
    if (block && (l.indent < block.indent || (l.indent === block.indent && !RESOURCE_ROW_RE.test(l.text))))
      block = undefined;
    const one = INLINE_BLOCK_RE.exec(l.text);
    if (one) {
      const which = one[1] === 'Limits' ? 'limit' : 'request';
      if (!current || current.name !== name) {
        current = name === undefined ? {} : { name };
        out.push(current);
      }
      current[which] = one[2]!;
      block = undefined;
      continue;
    }
    const b = BLOCK_RE.exec(l.text);
    if (b) {
      const which = b[1]!.toLowerCase() === 'limits' ? 'limit' : 'request';
      if (!current || current.name !== name) {
        current = name === undefined ? {} : { name };
        out.push(current);
      }
      const inline = b[2] ? new RegExp(`"memory":\\s*"${QTY}"`).exec(b[2]) : null;
      if (inline) current[which] = inline[1]!;
      else block = { which, indent: l.indent };
      continue;
    }
    if (block && current) {
      const m = MEMORY_RE.exec(l.text);
      if (m) current[block.which] = m[1]!;
      continue;
    }
    const n = nameOn(l);
    if (n !== undefined) name = n;
  }
  return out.filter((c) => c.limit !== undefined || c.request !== undefined);
}

/**
 * The container a runtime line at `k` is about: in a `containerStatuses` item, its `name:` (before or
 * after the reason: kubectl's YAML sorts keys, its JSON does not); in `kubectl describe`, the container
 * header above it.
 */
function containerAt(lines: readonly Line[], k: number): string | undefined {
  const i = lineIndexAt(lines, k);
  let indent = lines[i]!.indent;
  let top = i;
  // Walk up the parents (each line with less indentation than the last): a list item (`- `) or a describe
  // container header (`  app:`) ends the walk.
  for (let j = i; j >= 0 && j > i - 200; j--) {
    const l = lines[j]!;
    if (l.text.trim() === '' || (j < i && l.indent >= indent)) continue;
    // The command that printed it or a fence above (`$ oc get pod x -o yaml | grep -A 10 lastState`): the YAML
    // starts below it, as a paste that starts inside the status item.
    if (j < i && /^\s*(?:[$%>] |```|~~~)/.test(l.text)) break;
    indent = l.indent;
    // A YAML list item (`- `) or a JSON object in a list (`{` alone on its line, kubectl -o json).
    const dash = /^(\s*)(?:- |\{\s*$)/.exec(l.text);
    if (dash) {
      const itemIndent = dash[1]!.length;
      const first = NAME_RE.exec(l.text)?.[1];
      if (first) return first;
      let childIndent: number | undefined;
      for (let n = j + 1; n < lines.length && n < j + 80; n++) {
        const x = lines[n]!;
        if (x.text.trim() === '') continue;
        if (x.indent <= itemIndent) break;
        childIndent ??= x.indent;
        if (x.indent === childIndent) {
          const m = NAME_RE.exec(x.text);
          if (m) return m[1];
        }
      }
      return undefined;
    }
    if (j < i) {
      const h = HEADER_RE.exec(l.text);
      if (h && !NOT_A_CONTAINER.has(h[1]!)) return h[1];
      // Deeper in (a describe inside an indented string literal: `        text = """` ⏎ `          processor:`), a
      // header is a container's only right under `Containers:`.
      const deep = DEEP_HEADER_RE.exec(l.text);
      if (deep && !NOT_A_CONTAINER.has(deep[1]!) && underContainers(lines, j)) return deep[1];
      if (/^(Containers|Init Containers):\s*$/.test(l.text.trim())) return undefined;
      // A map that opens on a key's line (`"containerStatuses": []any{map[string]any{` in Go, `[{` in JSON):
      // its own keys may name the container. A pod's top level (indent 0) names no container.
      if (l.indent > 0 && /[{:]\s*$/.test(l.text)) {
        const n = nameAmong(lines, j + 1, l.indent, 1);
        if (n !== undefined) return n;
      }
    }
    // A container status item pasted from its own keys (`lastState:` ⏎ `  terminated:` … ⏎ `name: worker`, cut
    // above its `- `): its top level is the item's, not a pod's.
    if (indent === 0) {
      if (/^(?:lastState|state|containerID|restartCount|"lastState"|"state"):/.test(l.text))
        return nameAmong(lines, 0, -1, 1, 0);
      // Prose above the YAML (`100 was too little and 200 was enough` over an indented status item, its fence
      // gone): the YAML starts below it, as at a command or fence.
      if (j < i && !/^[\w"'-][^:\n]{0,80}:(?:\s|$)/.test(l.text) && /\s\S+\s/.test(l.text.trim())) break;
      return undefined;
    }
    top = j;
  }
  // The paste starts inside the status item (cut above its `{` or `- `): the item's keys are the lines at the
  // outermost level shown, before and after the reason (`"lastState": {…},` then `"name": "kubeshark-worker",`).
  if (i < 200) {
    const level = lines[top]!.indent;
    const after = nameAmong(lines, top, level - 1, 1, level);
    if (after !== undefined) return after;
    return nameAmong(lines, top - 1, level - 1, -1, level);
  }
  return undefined;
}

/** `"name": "api", "ready": true, …` (a JSON or Go map's keys on one line). */
const NAME_FIRST_RE = /^\s*"name":\s*"([a-z0-9][a-z0-9.-]{0,62})"\s*,/;

/**
 * The `name:` among the keys of one map: from line `from`, stepping by `step`, the lines deeper than `parent`
 * at the map's own level (`level`, else the first such line's), until a line at `parent` or shallower.
 */
function nameAmong(
  lines: readonly Line[],
  from: number,
  parent: number,
  step: 1 | -1,
  level?: number,
): string | undefined {
  let own = level;
  for (let n = from, seen = 0; n >= 0 && n < lines.length && seen < 80; n += step, seen++) {
    const x = lines[n]!;
    if (x.text.trim() === '') continue;
    if (x.indent <= parent) return undefined;
    own ??= x.indent;
    if (x.indent !== own || /^\s*- /.test(x.text)) continue;
    const m = NAME_RE.exec(x.text) ?? NAME_FIRST_RE.exec(x.text);
    if (m) return m[1];
  }
  return undefined;
}

/** `-Xmx4g`, `--maxmemory 2gb`, `maxmemory 2gb`, `--max-old-space-size=4096`, `GOMEMLIMIT=3GiB` in the paste. */
export function appCapIn(text: string): AppCap | undefined {
  const jvm = /-Xmx([0-9]{1,7})([kKmMgGtT]?)\b/.exec(text);
  if (jvm) {
    const unit = { '': '', k: 'Ki', m: 'Mi', g: 'Gi', t: 'Ti' }[jvm[2]!.toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
    return { setting: jvm[0], memory: canonical(`${jvm[1]}${unit}`), heapOnly: true };
  }
  const v8 = /--max[-_]old[-_]space[-_]size[= ]([0-9]{1,7})\b/.exec(text);
  if (v8) return { setting: v8[0], memory: canonical(`${v8[1]}Mi`), heapOnly: true };
  // redis.conf units: 1k = 1000 bytes, 1kb = 1024 bytes, 1g = 10^9, 1gb = 2^30 (case-insensitive).
  const redis = /(?:^|[\s"'])(--maxmemory|maxmemory)[=\s]{1,12}"?([0-9]{1,13})(kb|mb|gb|k|m|g|b)?\b/i.exec(text);
  if (redis) {
    const u = (redis[3] ?? '').toLowerCase();
    const unit = { '': '', b: '', k: 'k', kb: 'Ki', m: 'M', mb: 'Mi', g: 'G', gb: 'Gi' }[u] ?? '';
    const setting = redis[0].replace(/^[\s"']/, '').replace(/\s+/g, ' ');
    return { setting, memory: canonical(`${redis[2]}${unit}`), heapOnly: false };
  }
  // Go's runtime/debug: a byte count with B, KiB, MiB, GiB or TiB (`GOMEMLIMIT=3GiB`, or an env `value:` after it).
  const go = /GOMEMLIMIT"?(?:[=:]\s*|,?\s*"?value"?:\s*)["']?([0-9]{1,13})(B|KiB|MiB|GiB|TiB)?\b/.exec(text);
  if (go) {
    const unit = { B: '', KiB: 'Ki', MiB: 'Mi', GiB: 'Gi', TiB: 'Ti' }[go[2] ?? 'B'] ?? '';
    return { setting: `GOMEMLIMIT=${go[1]}${go[2] ?? ''}`, memory: canonical(`${go[1]}${unit}`), heapOnly: false };
  }
  return undefined;
}

function canonical(q: string): string {
  const v = Quantity.tryParse(q);
  return v ? v.toString() : q;
}

/**
 * A paste's lines joined into one: a terminal or a log viewer wraps the kernel's and the kubelet's one-line
 * messages (`Killed process N (x)` ⏎ `total-vm:…kB, anon-rss:…kB`), and a paste quoted as shell or code comments
 * repeats its `#` / `//` / `>` marker on every wrapped line. The number readers below read this form.
 */
function unwrapped(text: string): string {
  // Source string literals joined across lines (`"…Killed process 571 "` ⏎ `"(python) total-vm:…"` in Python,
  // `"…using 1843Mi, "+` ⏎ `"request is 512Mi…"` in Go) read as the one message they spell.
  return text
    .replace(/(["'`])[ \t]*\+?[ \t]*\n[ \t]*\+?[ \t]*\1/g, '')
    .replace(/[ \t]*\n[ \t]*(?:(?:#{1,4}|\/{2,3}|>{1,3})(?=[ \t]|$)[ \t]*)?/g, ' ');
}

/** The kernel's words: the killed process, its anon-rss, and the cgroup's `memory: usage NkB, limit NkB`. */
function kernelNumbers(text: string): { process?: string; used?: string; limit?: string } {
  const out: { process?: string; used?: string; limit?: string } = {};
  // mm/oom_kill.c __oom_kill_process: `%s: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, …` (one
  // line; `, UID N,` before total-vm on some 3.x/4.x kernels). A paste may drop the pid (`Killed process (java)`)
  // or retype it as `Kill process N (x) total-vm:…`; before 5.0 the victim's line came after `… out of memory:
  // Kill process %d (%s) score %u or sacrifice child` (the selected task; the killed one may be its child).
  // Each is read in the unwrapped window of one occurrence of its words (the first that reads), not by
  // unwrapping the whole paste.
  const killed =
    firstInWindows(text, 'illed process ', 1, KILLED_RE) ?? firstInWindows(text, 'Kill process ', 0, KILL_RE);
  if (killed) {
    out.process = killed[1]!;
    if (killed[2]) out.used = canonical(`${killed[2]}Ki`);
  } else {
    const task =
      /oom-kill:constraint=[A-Z_]{1,40}\b[^\n]{0,600}?,task=([^,\s]{1,64}),pid=\d/.exec(text) ??
      /oom_reaper: reaped process \d{1,10} \(([^)\n]{1,64})\)/.exec(text);
    if (task) out.process = task[1]!;
  }
  const cg = firstInWindows(text, 'memory: usage ', 0, CGROUP_USAGE_RE);
  if (cg) {
    out.used = canonical(`${cg[1]}Ki`);
    out.limit = canonical(`${cg[2]}Ki`);
  }
  return out;
}

const RSS = '(?:,? total-vm:\\d{1,20}kB,\\s{0,40}anon-rss:(\\d{1,20})kB)?';
const KILLED_RE = new RegExp(`^[Kk]illed process (?:\\d{1,10} )?\\(([^)\\n]{1,64})\\)(?:,? UID \\d{1,10})?${RSS}`);
const KILL_RE = new RegExp(`^Kill process \\d{1,10} \\(([^)\\n]{1,64})\\)(?= score \\d|,? total-vm:)${RSS}`);
const CGROUP_USAGE_RE = /^memory: usage (\d{1,20})kB, limit (\d{1,20})kB/;

/**
 * The first occurrence of `needle` (found at `back` characters into the words `re` reads) whose unwrapped
 * window `re` matches at its start: at most 50 occurrences, 800 characters each.
 */
function firstInWindows(text: string, needle: string, back: number, re: RegExp): RegExpExecArray | null {
  for (let at = text.indexOf(needle), n = 0; at >= 0 && n < 50; at = text.indexOf(needle, at + needle.length), n++) {
    const from = at - back;
    if (from < 0) continue;
    const m = re.exec(unwrapped(text.slice(from, from + 800)));
    if (m) return m;
  }
  return null;
}

const NUM = '([0-9]+(?:\\.[0-9]+)?[A-Za-z]{0,2})';
/**
 * The eviction message's own numbers (pkg/kubelet/eviction/helpers.go: nodeLowMessageFmt `The node was low
 * on resource: %v. `, then containerMessageFmt, new `Container %s was using %s, request is %s, has larger
 * consumption of %v. ` and old `Container %s was using %s, which exceeds its request of %s.`): the first
 * one in the paste, for every eviction finding of it (the `Reason: Evicted` row and the message are one).
 */
/** Each `The node was low on resource:` message of a paste (its first 50) with its numbers. */
function evictionMessages(text: string): { at: number; facts: Partial<RuntimeFacts> }[] {
  const out: { at: number; facts: Partial<RuntimeFacts> }[] = [];
  // The kubelet's refusal for a node condition is an eviction message too, one with no numbers: a `Reason: Evicted`
  // above it (`Message: Pod The node had condition: [DiskPressure].`) takes none of another pod's.
  const re = /The node was low on resource: |The node had condition: \[/gi;
  for (let m = re.exec(text); m && out.length < 50; m = re.exec(text))
    out.push({
      at: m.index,
      facts: m[0].endsWith('[') ? {} : evictionNumbers(text.slice(m.index, m.index + 1200)),
    });
  return out;
}

/** The eviction message nearest after `k` (a `Reason:` line above its message), else the nearest before it. */
function nearestEviction(evictions: { at: number; facts: Partial<RuntimeFacts> }[], k: number): Partial<RuntimeFacts> {
  const after = evictions.find((e) => e.at >= k);
  const before = evictions.filter((e) => e.at < k).at(-1);
  if (after && (!before || after.at - k <= 600 || k - before.at > after.at - k)) return after.facts;
  return (before ?? after)!.facts;
}

export function evictionNumbers(text: string): Partial<RuntimeFacts> {
  const out: Partial<RuntimeFacts> = {};
  const at = text.search(/The node was low on resources?: /i);
  if (at < 0) return storageLimitNumbers(text);
  // A wrapped message reads as one line (`… Container app was using` ⏎ `#  1250Mi, which exceeds …`); a retyped one
  // may say `resources` and `ephemeral storage`.
  const w = unwrapped(text.slice(at, Math.min(text.length, at + 1200)))
    .replace(/^(The node was low on resource)s:/i, '$1:')
    .replace(/^(The node was low on resource:\s+)ephemeral storage\b/i, '$1ephemeral-storage')
    .replace(/which exceeds (?:it's|the) request of/g, 'which exceeds its request of');
  // The resource may close a quoted string (`podMessage: "The node was low on resource: memory."`) or be
  // spaced out by a terminal's alignment (`low on resource:   ephemeral-storage.`).
  const low = /^The node was low on resource:\s+([a-z][a-z0-9./-]{0,60}?)\.?(?=[\s"'`,;)\]]|$)/i.exec(w);
  if (low) out.resource = low[1]!;
  // The container may be a writer's placeholder (`Container <container名> was using …`, `Container <name>`):
  // the numbers still hold, the name is kept only when it is one (a DNS label). A copy may end at the request
  // (`… request is 128Mi.`, the `has larger consumption of` left out).
  const c = new RegExp(
    `Container (\\S{1,80}?) was using ${NUM},\\s*(?:request is ${NUM}(?:,\\s*has larger consumption of|\\.?(?=[\\s"'\`]|$))|which exceeds its request of ${NUM})`,
  ).exec(w);
  if (c) {
    if (/^[a-z0-9](?:[a-z0-9.-]{0,61}[a-z0-9])?$/.test(c[1]!)) out.container = c[1]!;
    out.used = c[2]!;
    out.request = c[3] ?? c[4]!;
  }
  return out;
}

/**
 * The local-storage limit evictions' numbers (pkg/kubelet/eviction/helpers.go): `Pod ephemeral local storage
 * usage exceeds the total limit of containers 500Mi.`, `Container app exceeded its local ephemeral storage
 * limit "1Gi".` and `Usage of EmptyDir volume "cache" exceeds the limit "1Gi".`: resource `ephemeral-storage`
 * and the limit.
 */
function storageLimitNumbers(text: string): Partial<RuntimeFacts> {
  const at = text.search(/(?:Pod )?ephemeral local storage usage exceeds the\b/i);
  if (at >= 0) {
    // A message split over source literals (`'…usage exceeds the '` ⏎ `'total limit of containers 2Gi.'`) reads whole.
    const pod =
      /^(?:Pod )?ephemeral local storage usage exceeds the total limit(?: of containers(?: ([0-9]+(?:\.[0-9]+)?(?:[KMGTPE]i|[kMGTPE])?)\b)?)?/i.exec(
        unwrapped(text.slice(at, at + 400)),
      );
    if (pod) return pod[1] ? { resource: 'ephemeral-storage', limit: pod[1] } : { resource: 'ephemeral-storage' };
  }
  // The limit may be quoted with escaped quotes (`… storage limit \\"4Gi\\"` inside a quoted string).
  const c =
    /Container ([a-z0-9][a-z0-9.-]{0,62}) exceeded its local ephemeral storage limit(?: \\?"([^"\\\n]{1,32})\\?")?/.exec(
      text,
    );
  if (c) return { container: c[1]!, resource: 'ephemeral-storage', ...(c[2] ? { limit: c[2] } : {}) };
  const e = /Usage of EmptyDir volume "[^"\n]{1,253}" exceeds the limit "([^"\n]{1,32})"/i.exec(text);
  if (e) return { resource: 'ephemeral-storage', limit: e[1]! };
  return {};
}

/** The numbers of an OOM kill as a writer or a tool words them (overLimitAt, overLimitSaid); compiled once. */
const SAID_LIMIT_RE = new RegExp(`\\bmemory limit (?:is|was|of|=|:|set to)\\s{0,3}~?${QTY}\\b`);
const SAID_USED_RE = new RegExp(
  `\\b(?:uses|using|used|consumes|consuming|consumed|peaks? at|peaked at|reache[sd]|grows to|grew to)\\s+(?:about|around|approximately|roughly|up to|~)?\\s*${QTY}\\b`,
);
const LABELLED_LIMIT_RE = new RegExp(`\\b(?:[Cc]urrent |[Mm]emory )?[Ll]imit:\\s{0,3}${QTY}\\b`);
const LABELLED_USAGE_RE = new RegExp(`\\b(?:[Cc]urrent |[Mm]emory |[Pp]eak )?[Uu]sage:\\s{0,3}${QTY}\\b`);
const CONTAINER_OVER_RE = new RegExp(
  `\\b[Cc]ontainer "?([a-z0-9](?:[a-z0-9.-]{0,61}[a-z0-9])?)"? (?:has )?(?:exceeded|exceeds|hit|reached) (?:its |the )?memory limit(?: of)?:?\\s{0,3}[("']?${QTY}\\b`,
);
const NAMED_CONTAINER_OVER_RE = new RegExp(
  `\\b([a-z0-9](?:[a-z0-9.-]{0,61}[a-z0-9])?) container (?:was |got |has been )?(?:terminated|killed|OOMKilled|OOM-killed) (?:for|after|by) exceeding (?:its |the )?memory limit(?: of)?:?\\s{0,3}[("']?${QTY}\\b`,
);
const OVER_LIMIT_RE = new RegExp(
  `\\b(?:exceeded|exceeds|hit|reached) (?:its |the )memory limit(?: of)?:?\\s{0,3}[("']?${QTY}\\b`,
);
const KILLED_AT_LIMIT_RE = new RegExp(
  `\\b(?:OOMKilled|OOM-killed|killed)\\s+(?:against|at|by|on|over)\\s+(?:its|the|a)\\s+${QTY}\\s+(?:memory\\s+)?limit\\b`,
);

/**
 * An OOM kill's message in a writer's or a tool's words, on the kill's line or the next: `Container
 * payment-service-app exceeded memory limit (512Mi) and was terminated`, `container api exceeded its memory
 * limit of 1Gi`. Memory only: `Container x exceeded its local ephemeral storage limit` is an eviction's.
 */
function overLimitAt(text: string, k: number): { container?: string; limit?: string; used?: string } {
  const said = overLimitSaid(text, k);
  // A writer's own numbers on the kill's line (`keeps getting OOMKilled, memory limit is 512Mi and it uses about
  // 600Mi`): the limit after its word, the usage after a verb of using.
  const line = text.slice(lineStart(text, k), Math.min(lineEnd(text, k), k + 400));
  if (!said.limit) {
    const l = SAID_LIMIT_RE.exec(line);
    if (l) said.limit = l[1]!;
  }
  const u = SAID_USED_RE.exec(line);
  if (u) said.used = u[1]!;
  // An alert's description on the kill's line or the next (`"description": "Memory limit exceeded. Current limit:
  // 256Mi. Usage: 257Mi."`): its labelled numbers.
  const near = text.slice(k, Math.min(lineEnd(text, lineEnd(text, k) + 1), k + 600));
  if (/\bmemory limit\b/i.test(near)) {
    const l = LABELLED_LIMIT_RE.exec(near);
    if (!said.limit && l) said.limit = l[1]!;
    const v = LABELLED_USAGE_RE.exec(near);
    if (!said.used && v) said.used = v[1]!;
    // The alert's labels (kube-state-metrics' `container="api"`, an Alertmanager payload's `"container": "api"`)
    // within the lines above the kill.
    if (!said.container && (l || v)) {
      const above = text.slice(Math.max(0, k - 600), k);
      const c = [
        ...above.matchAll(/(?:^|[\s{,])"?container"?\s*(?:=|:)\s*"([a-z0-9](?:[a-z0-9.-]{0,61}[a-z0-9])?)"/g),
      ].pop();
      if (c) said.container = c[1]!;
    }
  }
  return said;
}

function overLimitSaid(text: string, k: number): { container?: string; limit?: string; used?: string } {
  const ls = lineStart(text, k);
  const le = lineEnd(text, k);
  // The tool's words may also be the line before (`Killing: Container x exceeded memory limit (128Mi)` above
  // `OOMKilling: Memory cgroup out of memory: …` in an events list).
  const prev = ls > 0 ? lineStart(text, ls - 1) : ls;
  const w = text.slice(Math.max(prev, k - 400), Math.min(lineEnd(text, le + 1), k + 600));
  const m = CONTAINER_OVER_RE.exec(w);
  if (m) return { container: m[1]!, limit: m[2]! };
  // The name before its noun (`The config-db container was terminated for exceeding its memory limit of 4Gi`).
  const named = NAMED_CONTAINER_OVER_RE.exec(w);
  if (named) return { container: named[1]!, limit: named[2]! };
  // Without the name (`The container was killed because it exceeded its memory limit of 512Mi (OOMKilled).`).
  const n = OVER_LIMIT_RE.exec(w);
  if (n) return { limit: n[1]! };
  // The limit before its word (`it was OOMKilled against its 1Gi limit`, `killed at the 512Mi memory limit`).
  const o = KILLED_AT_LIMIT_RE.exec(w);
  return o ? { limit: o[1]! } : {};
}

/** Adds the numbers the paste holds to the OOM and eviction findings (others keep `{reason}`). */
function withNumbers(text: string, matches: RuntimeMatch[]): void {
  const relevant = matches.filter(
    (m) => m.facts.reason === 'OOMKilled' || m.facts.reason === 'ExitCode137' || m.facts.reason === 'Evicted',
  );
  if (relevant.length === 0) return;
  const lines = linesOf(uncommented(text));
  const memory = containerMemory(lines);
  const kernel = kernelNumbers(text);
  const cap = appCapIn(text);
  const eviction = evictionNumbers(text);
  const evictions = evictionMessages(text);
  // Evictions whose own message is a node condition's (no numbers): no sibling lends them another pod's.
  const conditionOnly = new Set<RuntimeMatch>();
  // A paste of thousands of kills (a log) gets the numbers of its first ones: the rest are repeats.
  for (const m of relevant.slice(0, 500)) {
    const f: RuntimeFacts = { reason: m.facts.reason };
    const evicted = m.facts.reason === 'Evicted';
    // `The node had condition: [DiskPressure].` is its own message: another eviction's numbers are not its.
    // Several pods' evictions in one paste (`kubectl describe pods` of two): each takes its own message's numbers,
    // the one at or after it (its `Reason: Evicted` line stands above its `Message:`).
    // An eviction message is read where it is: its own numbers, whatever other evictions the paste holds.
    const ownKind = evicted ? evictionKind(m.message) : undefined;
    const ev =
      evicted && !conditionRefusal(m.message)
        ? ownKind === 'limit' && evictions.length > 0
          ? storageLimitNumbers(text.slice(m.start, Math.min(text.length, m.start + 1200)))
          : evictions.length > 1
            ? nearestEviction(evictions, m.start)
            : eviction
        : {};
    if (evicted && Object.keys(ev).length === 0 && evictions.length > 1) conditionOnly.add(m);
    const said = evicted ? {} : overLimitAt(text, m.start);
    const container = ev.container ?? containerAt(lines, m.start) ?? said.container ?? containerKeyNear(text, m.start);
    if (container) f.container = container;
    if (ev.resource) f.resource = ev.resource;
    const mine = container ? memory.find((c) => c.name === container) : undefined;
    const own = mine ?? (memory.length === 1 && (!memory[0]!.name || !container) ? memory[0] : undefined);
    // The one container whose resources the paste shows is the one killed (`Containers:` ⏎ `  myapp:` ⏎
    // `    Limits: memory: 4Gi` above a status block that names none).
    if (!container && !evicted && own?.name && memory.length === 1) f.container = own.name;
    const limit =
      ev.limit ??
      (ev.resource && ev.resource !== 'memory' ? undefined : own?.limit) ??
      (said.container === undefined || said.container === container ? said.limit : undefined) ??
      (evicted ? undefined : kernel.limit);
    if (limit) f.limit = limit;
    const request = ev.request ?? (!ev.resource || ev.resource === 'memory' ? own?.request : undefined);
    if (request) f.request = request;
    const used = ev.used ?? (evicted ? undefined : (kernel.used ?? said.used));
    if (used) f.used = used;
    // The kubelet's `SystemOOM` event names its victim on its own line; the kernel's numbers go with it
    // only when they are that process's.
    const victim = /System OOM encountered, victim process: ([^\s,]{1,64})/i.exec(m.message)?.[1];
    if (victim) {
      f.process = victim;
      if (kernel.process !== undefined && kernel.process !== victim) {
        delete f.used;
        if (!own?.limit && !said.limit) delete f.limit;
      }
    } else if (!evicted && kernel.process) f.process = kernel.process;
    if (cap) f.appCap = cap;
    m.facts = f;
  }
  fillFromSiblings(relevant.filter((m) => !conditionOnly.has(m)));
}

/**
 * A log line's own `container_name: base` key beside the reason (Airflow's KubernetesExecutor: `container_name: base,`
 * ⏎ `container_state: terminated, container_reason: OOMKilled`): on the reason's line or the one above it.
 */
function containerKeyNear(text: string, at: number): string | undefined {
  const ls = lineStart(text, at);
  const from = ls > 0 ? lineStart(text, ls - 1) : ls;
  const re = /\bcontainer_?name["']?\s*[:=]\s*["']?([a-z0-9][a-z0-9-]{0,62})\b(?![.\w-])/gi;
  const seg = text.slice(from, lineEnd(text, at));
  let last: string | undefined;
  for (let m = re.exec(seg); m; m = re.exec(seg)) last = m[1];
  return last;
}

/**
 * Whether a runtime match's message is the kubelet's refusal for a node condition (`The node had condition:
 * [DiskPressure].`): an eviction message of its own, with no numbers, whatever other evictions the paste holds.
 */
export function conditionRefusal(message: string): boolean {
  return /the node had condition/i.test(message);
}

/** Which kubelet eviction message a text is: node pressure, or a storage limit; undefined for neither. */
function evictionKind(message: string): 'pressure' | 'limit' | undefined {
  if (/The node was low on resource/i.test(message)) return 'pressure';
  if (
    /ephemeral local storage usage exceeds|exceeded its local ephemeral storage limit|Usage of EmptyDir volume/i.test(
      message,
    )
  )
    return 'limit';
  return undefined;
}

/**
 * A mention of a kill with fewer numbers than another of the same paste (`# OOMKilled — memory limit too low`
 * above the status and events that give the container and its limit) is that kill: when every fact it has
 * agrees with one fuller finding of the same reason, and no other, it takes that finding's facts.
 */
function fillFromSiblings(matches: RuntimeMatch[]): void {
  if (matches.length < 2 || matches.length > 40) return;
  const covers = (a: RuntimeFacts, b: RuntimeFacts): boolean => {
    const of = new Map<string, unknown>(Object.entries(a));
    return (
      Object.keys(b).length < of.size &&
      Object.entries(b).every(([key, v]) => JSON.stringify(of.get(key)) === JSON.stringify(v))
    );
  };
  for (const m of matches) {
    if (m.object?.name) continue;
    // Admission's `The node had condition: [DiskPressure].` is its own refusal: another pod's eviction numbers are
    // not its (`2 pods were evicted: > Pod The node had condition: [MemoryPressure]. and the other > The node was
    // low on resource: memory. Container x was using …`).
    if (conditionRefusal(m.message)) continue;
    // A message of another kind of eviction (node pressure beside a pod over its storage limit) is another one.
    const kind = evictionKind(m.message);
    const fuller = matches.filter(
      (o) =>
        o !== m &&
        !o.object?.name &&
        covers(o.facts, m.facts) &&
        (kind === undefined || evictionKind(o.message) === undefined || evictionKind(o.message) === kind),
    );
    const distinct = new Set(fuller.map((o) => JSON.stringify(o.facts)));
    if (distinct.size === 1) m.facts = { ...fuller[0]!.facts };
  }
}
