/**
 * `FitError.Error()` (pkg/scheduler/framework/types.go; docs/kubernetes-semantics.md §6.4): the FailedScheduling text.
 *
 *   "0/<N> nodes are available:" + (" <preFilterMsg>." | " <histogram>.") + [" <postFilterMsg>"]
 *
 * The histogram counts every reason of every node with a recorded status, plus the absent-node reasons
 * once per node without a status; entries are "<count> <reason>", sorted by byte value (Go sort.Strings:
 * "10 X" before "2 Y", upper case before lower case) and joined with ", ".
 * Version forms: 1.24–1.27 append the PostFilter text as " <msg>." (hence `..` after a nested message;
 * PR #117588 removed it in 1.28); ≤1.23 showed no PostFilter text; ≤1.24 counted a PreFilter rejection
 * per node like a filter reason.
 */
import { byteCompare } from '../../quantity.ts';
import { resolveProfile, type ProfileOptions, type SchedulerProfile } from './version.ts';

/** ErrNoNodesAvailable: the scheduler snapshot has no nodes at all (not a FitError). */
export const NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

export interface FitErrorInput {
  numAllNodes: number;
  /** Diagnosis.PreFilterMsg: non-empty when a PreFilter rejected the pod. */
  preFilterMsg?: string;
  /** Reasons of every node with a recorded status. */
  nodeReasons: ReadonlyMap<string, readonly string[]> | Readonly<Record<string, readonly string[]>>;
  /** NodeToStatus.AbsentNodesStatus reasons, counted for numAllNodes − |nodeReasons| nodes. */
  absentReasons?: readonly string[];
  /** Diagnosis.PostFilterMsg. */
  postFilterMsg?: string;
}

function entriesOf(m: FitErrorInput['nodeReasons']): Array<readonly string[]> {
  return m instanceof Map ? [...m.values()] : Object.values(m as Record<string, readonly string[]>);
}

/** The histogram part: "<count> <reason>" strings, byte-sorted. */
export function sortReasonsHistogram(input: FitErrorInput): string[] {
  const counts = new Map<string, number>();
  const perNode = entriesOf(input.nodeReasons);
  for (const reasons of perNode) for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const absent = input.numAllNodes - perNode.length;
  if (absent > 0) for (const r of input.absentReasons ?? []) counts.set(r, (counts.get(r) ?? 0) + absent);
  return [...counts].map(([reason, n]) => `${n} ${reason}`).sort(byteCompare);
}

/** FitError.Error() for the given version profile (default: v1.35). */
export function formatFitError(input: FitErrorInput, opts: ProfileOptions | SchedulerProfile = {}): string {
  const profile = 'postFilterFormat' in opts ? opts : resolveProfile(opts);
  let msg = `0/${input.numAllNodes} nodes are available:`;
  const preFilterMsg = input.preFilterMsg ?? '';
  if (preFilterMsg !== '' && !profile.preFilterCounted) {
    msg += ` ${preFilterMsg}.`;
  } else {
    // With a PreFilter rejection every node carries the same status; the histogram is built only when
    // the PreFilter passed (or, ≤1.24, from that per-node status).
    const hist = preFilterMsg !== '' ? [`${input.numAllNodes} ${preFilterMsg}`] : sortReasonsHistogram(input);
    if (hist.length > 0) msg += ` ${hist.join(', ')}.`;
  }
  const post = input.postFilterMsg ?? '';
  if (post !== '') {
    if (profile.postFilterFormat === 'plain') msg += ` ${post}`;
    else if (profile.postFilterFormat === 'dotted') msg += ` ${post}.`;
  }
  return msg;
}
