/**
 * The RuntimeClass admission plugin's refusals (plugin/pkg/admission/runtimeclass/admission.go, v1.35; the
 * engine's copy is src/engine/admission/runtimeclass.ts). Each is `admission.NewForbidden`, so the API
 * server prints `pods "<name>" is forbidden: <message>`:
 *
 * - prepareObjects: `pod rejected: RuntimeClass "<name>" not found` (the lister, then a live GET, found none);
 * - setOverhead / validateOverhead: `pod rejected: Pod's Overhead doesn't match RuntimeClass's defined
 *   Overhead` (the pod sets `spec.overhead` other than its class's `overhead.podFixed`);
 * - validateOverhead: `pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead`;
 * - setScheduling: `conflict: runtimeClass.scheduling.nodeSelector[<key>] = <class value>;
 *   pod.spec.nodeSelector[<key>] = <pod value>`.
 *
 * Admission, but neither quota nor LimitRange: layer `other`, kind `runtimeclass` (docs/contract.md), as the
 * Priority plugin's refusals are. The fix is the pod's runtimeClassName or the class itself.
 */

import type { Match, RuntimeClassFacts } from './finding.ts';
import { lowerAscii } from './normalize.ts';
import { scanMany, trimEndOf } from './scan.ts';
import { enveloped } from './subject.ts';

/** Blanks, or one line break, between two words of a wrapped message. */
const GAP = String.raw`[ \t]*(?:\r?\n)?[ \t]*`;
const OVERHEAD_MISMATCH_RE = new RegExp(`^Pod's Overhead doesn't match RuntimeClass's${GAP}defined${GAP}Overhead`, 'i');
const OVERHEAD_WITHOUT_RE = new RegExp(
  `^Pod Overhead set without corresponding${GAP}RuntimeClass${GAP}defined${GAP}Overhead`,
  'i',
);

function refusal(text: string, at: number, end: number, facts: RuntimeClassFacts): Match {
  // `pod rejected: ` is part of the message; the envelope before it names the pod.
  const head = text.slice(Math.max(0, at - 'pod rejected: '.length), at).toLowerCase() === 'pod rejected: ';
  const from = head ? at - 'pod rejected: '.length : at;
  return enveloped(text, from, end, { layer: 'other', kind: 'runtimeclass', facts });
}

/**
 * The needles of the RuntimeClass refusals and their readers, for a scan of `text` (lookalikes.ts adds
 * them to its own single pass over the paste, so the paste is not scanned once more for four needles).
 */
export function runtimeClassTable(text: string): [string, (k: number) => Match | undefined][] {
  return [
    [
      'runtimeclass "',
      (k) => {
        // `RuntimeClass "kata" not found` (its name as the pod's runtimeClassName gave it, any text a paste put there; a page may wrap it before `found`).
        const m = /^RuntimeClass "([^"\n]{0,253})"\s{1,3}not\s{1,40}found/i.exec(text.slice(k, k + 300));
        if (!m) return undefined;
        return refusal(text, k, k + m[0].length, { reason: 'class-not-found', runtimeClass: m[1]! });
      },
    ],
    [
      // Retyped without the quotes (`pod rejected: RuntimeClass nvidia not found`): read only after the
      // plugin's own `pod rejected: ` head, the name a DNS subdomain.
      'pod rejected: runtimeclass ',
      (k) => {
        const m = /^pod rejected: RuntimeClass ([a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?) not found/i.exec(
          text.slice(k, k + 300),
        );
        if (!m) return undefined;
        return refusal(text, k, k + m[0].length, { reason: 'class-not-found', runtimeClass: m[1]! });
      },
    ],
    [
      // A page may wrap the sentence anywhere (`… RuntimeClass's defined` ⏎ `Overhead`): the words, each
      // separated by blanks or one line break.
      "pod's overhead doesn't match runtimeclass's",
      (k) => {
        const m = OVERHEAD_MISMATCH_RE.exec(text.slice(k, k + 120));
        return m ? refusal(text, k, k + m[0].length, { reason: 'overhead-mismatch', runtimeClass: null }) : undefined;
      },
    ],
    [
      'pod overhead set without corresponding',
      (k) => {
        const m = OVERHEAD_WITHOUT_RE.exec(text.slice(k, k + 120));
        return m
          ? refusal(text, k, k + m[0].length, { reason: 'overhead-without-class', runtimeClass: null })
          : undefined;
      },
    ],
    [
      'conflict: runtimeclass.scheduling.nodeselector[',
      (k) => {
        const m =
          /^conflict: runtimeClass\.scheduling\.nodeSelector\[([^\]\n]{1,317})\] = ([^;\n]{0,63}); pod\.spec\.nodeSelector\[\1\] = ([^\s"'`,;]{0,63})/i.exec(
            text.slice(k, k + 900),
          );
        if (!m) return undefined;
        return refusal(text, k, k + m[0].length, {
          reason: 'node-selector-conflict',
          runtimeClass: null,
          nodeSelector: { key: m[1]!, runtimeClass: m[2]!.trim(), pod: trimEndOf(m[3]!, '.') },
        });
      },
    ],
  ];
}

/** All RuntimeClass admission refusals in normalized `text`. */
export function findRuntimeClass(text: string, lowerText?: string): Match[] {
  const out: Match[] = [];
  scanMany(lowerText ?? lowerAscii(text), runtimeClassTable(text), out);
  return out.sort((a, b) => a.start - b.start);
}
