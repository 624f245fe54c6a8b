/**
 * Kyverno's policy reports (the wg-policy `PolicyReport` / `ClusterPolicyReport`, wgpolicyk8s.io): a result
 * entry with `result: fail` is a rule the object breaks while it was admitted (an Audit-mode rule; an
 * Enforce rule refuses the object and reports only passes), the same news as a PolicyViolation event:
 * kind `policy-violation`, `blocked: false` (docs/contract.md).
 *
 * Read in the two ways people paste a report:
 * - `kubectl get polr -o yaml` (and `yq`): a `results:` list item, keys in any order, `message:` possibly
 *   folded over several lines, `resources:` (v1alpha2) a list of the objects;
 *   ```
 *   - message: 'validation error: … rule host-namespaces failed at path /spec/hostNetwork/'
 *     policy: disallow-host-namespaces
 *     result: fail
 *     rule: host-namespaces
 *     source: kyverno
 *   ```
 * - `kubectl describe polr`: `Message:`, `Policy:`, `Resources:`, `Result:   fail`, `Rule:`, `Source:` at one
 *   indent, entries one after the other without a marker, each in the describer's (alphabetical) key order.
 *
 * An entry whose `source:` is another tool (Trivy, kube-bench, Falco write the same report format) is not
 * Kyverno's and is left alone; `result: pass|skip|warn|error` is no violation.
 */

import type { PolicyViolationFacts } from './finding.ts';
import { lineEnd, lineStart, trimEndOf } from './scan.ts';

/** One line of the entry: its key's column, the key (lower case), the value after `key:`, a `- ` list marker. */
interface KeyLine {
  start: number;
  end: number;
  col: number;
  key: string | null;
  value: string;
  item: boolean;
  blank: boolean;
}

const KEY = /^( *)(- +)?([A-Za-z][A-Za-z ]{0,30}?):(?:[ \t]+(.*?))?[ \t]*$/;

function keyLine(text: string, start: number): KeyLine {
  const end = lineEnd(text, start, 4000);
  const s = text.slice(start, end);
  if (s.trim() === '' || s.trim() === '---')
    return { start, end, col: 0, key: null, value: '', item: false, blank: true };
  const m = KEY.exec(s);
  const lead = s.length - s.trimStart().length;
  if (!m) return { start, end, col: lead, key: null, value: s.trim(), item: false, blank: false };
  return {
    start,
    end,
    col: m[1]!.length + (m[2]?.length ?? 0),
    key: m[3]!.toLowerCase(),
    value: m[4] ?? '',
    item: m[2] !== undefined,
    blank: false,
  };
}

/** A YAML scalar without its quotes (`'a ''b'''` → `a 'b'`). */
function scalar(v: string): string {
  const s = v.trim();
  if (s.length >= 2 && s.startsWith("'") && s.endsWith("'")) return s.slice(1, -1).replaceAll("''", "'");
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) return s.slice(1, -1).replaceAll('\\"', '"');
  return s;
}

/** Most lines one result entry spans either way from its `result:` line. */
const MAX_LINES = 60;

/** The violation a report entry holds, and the entry's bounds, read from its `result:` line at `k`. */
export function policyReportResult(
  text: string,
  k: number,
): { start: number; end: number; facts: PolicyViolationFacts } | undefined {
  const ls = lineStart(text, k);
  const at = keyLine(text, ls);
  if (at.key !== 'result' || !/^['"]?fail['"]?$/i.test(at.value)) return undefined;
  // `Result:` capitalised is the describer's: entries follow each other in its key order, no `- ` marker.
  const described = text[k] === 'R';
  const col = at.col;
  const lines: KeyLine[] = [at];
  const seen = new Set<string>(['result']);
  // Up to the entry's first key: its `- ` marker, a key out of order or seen, a line less indented.
  if (!at.item) {
    let prevKey = 'result';
    for (let i = ls, n = 0; i > 0 && n < MAX_LINES; n++) {
      const l = keyLine(text, lineStart(text, i - 1));
      if (l.blank || l.col < col) break;
      if (l.col === col) {
        if (l.key === null || seen.has(l.key) || (described && l.key >= prevKey)) break;
        seen.add(l.key);
        prevKey = l.key;
      }
      lines.unshift(l);
      i = l.start;
      if (l.col === col && l.item) break;
    }
  }
  // Down to its last: the next item's marker, a key seen or out of order, a line less indented.
  let prevKey = 'result';
  for (let i = at.end, n = 0; i < text.length && n < MAX_LINES; n++) {
    const l = keyLine(text, i + 1);
    if (l.blank || l.col < col || (l.item && l.col === col)) break;
    if (l.col === col) {
      if (l.key === null || seen.has(l.key) || (described && l.key <= prevKey)) break;
      seen.add(l.key);
      prevKey = l.key;
    }
    lines.push(l);
    i = l.end;
  }
  // Each key's value: its own line and the deeper lines under it.
  const values = new Map<string, { value: string; under: KeyLine[] }>();
  let current: { value: string; under: KeyLine[] } | undefined;
  for (const l of lines) {
    if (l.col === col && l.key !== null) {
      current = { value: l.value, under: [] };
      values.set(l.key, current);
    } else if (current) current.under.push(l);
  }
  const source = values.get('source');
  if (source && !/^['"]?kyverno['"]?$/i.test(source.value.trim())) return undefined;
  const policy = values.get('policy');
  if (!policy || scalar(policy.value) === '') return undefined;
  const rule = values.get('rule');
  const message = values.get('message');
  // A Kyverno CLI test's expected results (`kyverno-test.yaml`: policy, rule, resources, kind, result) carry
  // neither message nor source: what a test wants, not what a report says.
  if (!message && !source) return undefined;
  const messageText = message
    ? scalar([message.value, ...message.under.map((l) => text.slice(l.start, l.end).trim())].join(' ').trim())
    : '';
  const facts: PolicyViolationFacts = {
    engine: 'kyverno',
    policy: scalar(policy.value),
    rule: rule && scalar(rule.value) !== '' ? scalar(rule.value) : null,
    message: trimEndOf(messageText.replace(/\s+/g, ' '), ' '),
    blocked: false,
  };
  const resource = firstResource(values.get('resources')?.under ?? []);
  if (resource) facts.resource = resource;
  return { start: lines[0]!.start, end: lines[lines.length - 1]!.end, facts };
}

/** `Kind/namespace/name` (or `Kind/name`) of the first object under `resources:`. */
function firstResource(under: KeyLine[]): string | undefined {
  const got = new Map<string, string>();
  for (const [i, l] of under.entries()) {
    if (i > 0 && l.item) break;
    if (l.key && !got.has(l.key)) got.set(l.key, scalar(l.value));
  }
  const kind = got.get('kind');
  const name = got.get('name');
  if (!kind || !name || !/^[A-Za-z0-9]+$/.test(kind)) return undefined;
  const ns = got.get('namespace');
  return ns ? `${kind}/${ns}/${name}` : `${kind}/${name}`;
}
