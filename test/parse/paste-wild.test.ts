/**
 * Real pastes from public threads, files and pages (test/fixtures/paste-wild/dev.jsonl, issue #17 Deliver 6):
 * the DEV half of the blind set `bench/blind-measure.ts` measures. Each item's findings must have exactly
 * the expected layers in order, the expected kinds, and every facts/object key the label gives.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judge, readSet } from '../../bench/blind-measure.ts';

const sets = [
  { file: 'dev.jsonl', count: 103 },
  { file: 'dev2.jsonl', count: 60 },
  // The held-out half of the second blind set, measured blind once (86.7% layer, 83.3% facts) and then
  // opened: since then a table like the others.
  { file: 'held2.jsonl', count: 60 },
  // Real pastes of the classes the second measure missed (autoscaler reasons, cloud quotas, Pod Security
  // broken or elided, the Priority plugin's namespace rule), found after it through the search index.
  { file: 'classes3.jsonl', count: 23 },
  // The third blind set (160 real pastes, ids xNNN), measured blind twice (83.8% layer, 81.3% facts) and
  // then opened: its misses carry `pending` until the parser reads them.
  { file: 'held3.jsonl', count: 160 },
  // Real pastes of the admission classes held3 missed (RuntimeClass admission, Pod Security without a
  // version, a refusal relayed by a webhook, Gatekeeper, Kyverno PolicyViolation events, a StatusCause echo,
  // must-specify clauses over lines, NotTriggerScaleUp quoted, a bare 'exceeded quota').
  { file: 'classes4b.jsonl', count: 34 },

  // Real pastes of classes the third measure missed (bare scheduler reasons, the old scheduler's log lines,
  // quota refusals in lists, kernel OOM and storage-limit eviction wordings, OOM talked about in general).
  { file: 'classes4a.jsonl', count: 36 },
  // The fourth blind set (165 real pastes, ids yNNN), measured blind once after the parser work above
  // (92.7% layer, 88.5% facts) and then opened: its misses carry `pending` until the parser reads them.
  { file: 'held4.jsonl', count: 165 },
  // A fifth development set (195 real pastes, ids eNNN of its own), measured as it was collected (74.1% layer,
  // 61.1% facts on its first 54) while the classes of test/parse/classes6.test.ts were read in general.
  { file: 'dev5.jsonl', count: 195 },
  // The fifth blind set (215 real pastes, ids zNNN), measured blind once after the parser work of dev5
  // (90.7% layer, 84.2% facts) and then opened: its misses carry `pending` until the parser reads them.
  { file: 'held5.jsonl', count: 215 },
  // A development set of the scheduler layer (89 real pastes, ids sNNN): FailedScheduling in every format, every
  // in-tree plugin's reason, code and catalogues that hold them; measured before the parser work of
  // test/parse/classes9-sched.test.ts (83.1% layer, 73.0% facts).
  { file: 'dev6s.jsonl', count: 89 },
  // A development set of admission and validation pastes (67, ids aNNN: quota scopes and must-specify, LimitRange,
  // pod-update and extended-resource field errors, Priority, RuntimeClass), measured before its parser work
  // (first 48: 60.4% layer, 58.3% facts) while test/parse/classes9-adm.test.ts read its classes in general.
  { file: 'dev6a.jsonl', count: 67 },
  // A development set of runtime and look-alike pastes (87 real pastes, ids rNNN), measured before the parser
  // work of test/parse/classes9-rt.test.ts (74.7% layer, 64.4% facts): kubelet admission rejections,
  // preemption victims, SystemOOM, evictions, ValidatingAdmissionPolicy, Gatekeeper, cloud quotas, negatives.
  { file: 'dev6r.jsonl', count: 87 },
  // The sixth blind set (178 real pastes, ids wNNN), built outside the repository while the dev6 sets' parser work
  // went on, measured blind once after it (92.7% layer, 89.9% facts) and then opened: its misses carry `pending`.
  { file: 'held6.jsonl', count: 178 },
  // The seventh blind set (200 real pastes, ids vNNN), built outside the repository in isolation, measured blind once
  // after this session's parser work (88.0% layer, 81.5% facts) and then opened: its misses carry `pending`.
  { file: 'held7.jsonl', count: 200 },
  // The eighth blind set (200 real pastes, ids uNNN), built in isolation while held7 was being read, measured blind
  // once after that work (83.0% layer, 74.5% facts) and then opened: its misses carry `pending`.
  { file: 'held8.jsonl', count: 200 },
  // The ninth blind set (100 real pastes from issue threads and web pages, ids mNNN), built in isolation by the
  // labelling guide (LABELLING.md), its labels audited by a second reader who saw neither the parser nor its output
  // (one changed), measured blind once (87.0% layer, 83.0% facts) and then opened: its misses carry `pending`.
  { file: 'held9.jsonl', count: 100 },
  // The tenth blind set (100 real pastes from files of the public-repository index, ids kNNN), built beside held9 the
  // same way (three labels changed by its auditor), measured blind once after held9's opening and the parser work it
  // led to (83.0% layer, 77.0% facts) and then opened: its misses carry `pending`.
  { file: 'held10.jsonl', count: 100 },
  // The eleventh blind set (119 real pastes: 100 files of the public-repository index, ids pNNN, and 19 issue threads,
  // ids QNNN), built the same way in isolation, its labels audited blind (one changed), measured blind once at b417553
  // (p: 79.0% layer, 75.0% facts; Q: 94.7% / 84.2%) and then opened: its misses carry `pending`.
  { file: 'held11.jsonl', count: 119 },
  // The twelfth blind set (123 real pastes from files of the public-repository index: 63 doc-style, ids gNNN, 60 of
  // terminal sessions and tool output, ids hNNN), built and audited the same way (one label changed in each half),
  // measured blind once at f409117 after held11's work (g: 84.1% layer, 79.4% facts; h: 86.7% / 81.7%) and opened.
  { file: 'held12.jsonl', count: 123 },
  // The thirteenth blind set (126 real pastes from files of the public-repository index: 66 doc-style, ids jNNN, 60
  // of output, ids nNNN), built and audited the same way (two labels changed, none), measured blind once at 01a9767
  // after held12's work (j: 83.3% layer, 75.8% facts; n: 95.0% / 86.7%) and opened.
  { file: 'held13.jsonl', count: 126 },
  // The fourteenth blind set (82 real pastes: 36 files of the index, ids rNNN, 46 issue threads, ids tNNN), built and
  // audited the same way (one label changed), measured blind once each (r at 05626f6: 69.4% layer, 69.4% facts; t at
  // 591024a: 76.1% / 71.7%) and opened: its misses carry `pending`.
  { file: 'held14.jsonl', count: 82 },
  // The fifteenth blind set (53 real pastes from issue threads and one vendor page, ids BNNN), built and audited the
  // same way (one label changed), measured blind once at f6dadfe (86.8% layer, 79.2% facts) and opened.
  { file: 'held15.jsonl', count: 53 },
  // The sixteenth blind set (51 real pastes from files of whole repositories and the index, ids ANNN), built and
  // audited the same way (three labels changed), measured blind once at f6dadfe (72.5% layer, 66.7% facts) and opened.
  { file: 'held16.jsonl', count: 51 },
  // The seventeenth blind set (60 real pastes: 33 from issue threads and pages, ids CNNN, 27 from files of fetched
  // repositories and the index, ids DNNN), built and audited the same way (no label changed), measured blind once at
  // 30b16e4 (C: 72.7% layer, 69.7% facts; D: 85.2% / 85.2%) and opened.
  { file: 'held17.jsonl', count: 60 },
] as const;

describe.each(sets)('pastes from the wild (test/fixtures/paste-wild/$file)', ({ file, count }) => {
  const items = readSet(join(import.meta.dirname, '..', 'fixtures', 'paste-wild', file));

  it('holds its items, each with a source', () => {
    expect(items.length).toBe(count);
    expect(items.filter((i) => i.source.trim() === '')).toEqual([]);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  });

  const ready = items.filter((i) => i.pending === undefined);
  const pending = items.filter((i) => i.pending !== undefined);

  it.each(ready.map((i) => [`${i.id} ${i.source}`, i] as const))('%s', (_name, item) => {
    expect(judge(item).diffs).toEqual([]);
  });

  it.skip.each(pending.map((i) => [`${i.id}: ${i.pending}`, i] as const))('%s', (_name, item) => {
    expect(judge(item).diffs).toEqual([]);
  });
});
