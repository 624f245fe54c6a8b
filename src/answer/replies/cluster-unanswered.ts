/**
 * The cluster gave no snapshot to answer from: a what-if that cannot be simulated, a `/quota` without
 * numbers, or (Slack) the whole answer past its deadline. What could not be read is in `gaps` (../gaps.ts).
 */
import { emptyReply, type Answer } from '../types.ts';

export function cannotSimulateAnswer(gaps: readonly string[]): Answer {
  const r = emptyReply('error', '⚠️', 'The cluster did not answer, so I cannot simulate that now.');
  r.gaps.push(...gaps);
  return { replies: [r], namespaces: [] };
}

export function noHeadroomAnswer(ns: string, gaps: readonly string[]): Answer {
  const r = emptyReply('error', '⚠️', 'The cluster did not answer in time.');
  r.gaps.push(...gaps);
  return { replies: [r], namespaces: [ns] };
}

export function timeoutAnswer(deadlineMs: number): Answer {
  const r = emptyReply('error', '⚠️', 'The cluster did not answer in time');
  const waited = deadlineMs < 1000 ? `${deadlineMs} ms` : `${Math.round(deadlineMs / 1000)} s`;
  r.lines.push(
    `I gave up after ${waited} without an answer from the cluster, so I can't say yet. Try again in a minute; if it keeps happening, the platform team should check the cluster API.`,
  );
  return { replies: [r], namespaces: [] };
}
