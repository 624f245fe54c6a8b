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

import type { BodyOf, Match } from './finding.ts';

/** What this module finds: runtime findings. */
export type RuntimeMatch = Match<BodyOf<'runtime'>>;
import { lowerAscii } from './normalize.ts';
import { lineEnd, lineStart, scanMany } from './scan.ts';

function wordAt(lower: string, k: number, len: number): boolean {
  const before = k === 0 ? ' ' : lower[k - 1]!;
  const after = lower[k + len] ?? ' ';
  return !/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after);
}

function runtime(text: string, k: number, reason: string, messageFrom?: number): RuntimeMatch {
  const ls = messageFrom ?? lineStart(text, k);
  const le = Math.min(lineEnd(text, k), ls + 500);
  return {
    layer: 'runtime',
    kind: 'runtime',
    facts: { reason },
    message: text.slice(ls, le).trim(),
    start: k,
    end: le,
  };
}

/** All runtime findings in normalized `text` (one per occurrence; `index.ts` dedupes per reason and pod). */
export function findRuntime(text: string, lowerText?: string): RuntimeMatch[] {
  const lower = lowerText ?? lowerAscii(text);
  const out: RuntimeMatch[] = [];
  const table: [string, (k: number) => RuntimeMatch | undefined][] = [];
  const on = (needle: string, f: (k: number) => RuntimeMatch | undefined): void => {
    table.push([needle, f]);
  };
  on('oomkilled', (k) => (wordAt(lower, k, 9) ? runtime(text, k, 'OOMKilled') : undefined));
  on('oom killed', (k) => {
    const m = runtime(text, k, 'OOMKilled');
    m.version = '2014';
    return m;
  });
  on('memory cgroup out of memory', (k) => runtime(text, k, 'OOMKilled'));
  // OOM kills in prose and in the kernel's own words: OpenShift builds (`OutOfMemoryKilled: The build pod
  // was killed due to an out of memory condition`), the oom-killer's `X invoked oom-killer: gfp_mask=…`
  // and `Out of memory: Killed process N (name)` (the cgroup form is matched above).
  on('outofmemorykilled', (k) => (wordAt(lower, k, 17) ? runtime(text, k, 'OOMKilled') : undefined));
  on('killed due to an out of memory condition', (k) => runtime(text, k, 'OOMKilled'));
  on('invoked oom-killer', (k) => runtime(text, k, 'OOMKilled'));
  on('out of memory: kill', (k) =>
    lower.slice(Math.max(0, k - 14), k) === 'memory cgroup ' ? undefined : runtime(text, k, 'OOMKilled'),
  );
  on('the node was low on resource:', (k) => {
    const m = runtime(text, k, 'Evicted', k);
    if (/has larger consumption of/i.test(m.message)) m.version = 'new wording';
    else if (/which exceeds its request of/i.test(m.message)) m.version = 'old wording';
    return m;
  });
  on('evicted', (k) => (wordAt(lower, k, 7) ? runtime(text, k, 'Evicted') : undefined));
  on('the node had condition: [', (k) => {
    // The kubelet rejected or evicted the pod for the node condition: the pod's status reason is Evicted.
    return runtime(text, k, 'Evicted', k);
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
    const m = /^OutOf([a-z][a-z0-9./-]{0,60})\b/.exec(text.slice(k, k + 70));
    return m ? runtime(text, k, m[0]) : undefined;
  });
  on("node didn't have enough resource: ", (k) => {
    // Only when no `OutOf…` reason is on the line: then name it the way the kubelet does.
    const ls = lineStart(text, k);
    if (/\bOutOf[a-z]/.test(text.slice(ls, k))) return undefined;
    const m = /^([a-z][a-z0-9./-]{0,60})/.exec(text.slice(k + "node didn't have enough resource: ".length, k + 100));
    return m ? runtime(text, k, `OutOf${m[1]!}`) : undefined;
  });
  on('exit code', (k) => {
    const m = /^exit code:?\s{0,20}137\b/.exec(lower.slice(k, k + 40));
    return m ? runtime(text, k, 'ExitCode137') : undefined;
  });
  on('exitcode', (k) =>
    /^exitcode"?:\s{0,5}137\b/.test(lower.slice(k, k + 30)) ? runtime(text, k, 'ExitCode137') : undefined,
  );
  on('exited with code 137', (k) => runtime(text, k, 'ExitCode137'));
  on('cputhrottlinghigh', (k) => runtime(text, k, 'CPUThrottling'));
  on('throttling of cpu', (k) => runtime(text, k, 'CPUThrottling'));
  on('cpu throttling', (k) => runtime(text, k, 'CPUThrottling'));
  scanMany(lower, table, out);
  return out.sort((a, b) => a.start - b.start);
}
