/**
 * The object an API error is about, read from the error's own envelope:
 * `<resource>[.<group>] "<name>" is forbidden: …` (403 from admission, apiserver `NewForbidden`),
 * `The <Kind> "<name>" is invalid: …` / `<Kind> "<name>" is invalid: …` (422 `NewInvalid`, which names the
 * kind, not the resource), and 1.1's `Pod "nginx-" is forbidden:` (kind-style, before resources were used).
 */

import { resourceOf } from '../k8s/objects.ts';
import type { FindingBody, FindingContext, Match, MatchSpan } from './finding.ts';
import { trimEndOf, wordBefore } from './scan.ts';

export interface Subject {
  resource?: string;
  name?: string;
  /** Offset where the envelope starts (the message shown to the user starts here). */
  start: number;
}

/** `pods`, `deployments.apps` stay; a Kind (`Pod`, `ReplicationController`) becomes its resource. */
export function resourceName(word: string): string {
  if (!/^[A-Z]/.test(word)) return word;
  // `Deployment.apps "web" is invalid` (NewInvalid prints Kind.group) → `deployments.apps`.
  const dot = word.indexOf('.');
  if (dot < 0) return resourceOf(word).resource;
  return `${resourceOf(word.slice(0, dot)).resource}${word.slice(dot)}`;
}

/** The `"name"` and the word before it that end exactly at `end` of `s`, or undefined. */
function quotedNameBefore(s: string, end: number): { word: string; name: string; start: number } | undefined {
  if (end < 2 || s[end - 1] !== '"') return undefined;
  const q1 = s.lastIndexOf('"', end - 2);
  if (q1 < 1 || end - 1 - q1 > 254) return undefined;
  // The blank a copy lost (`pods"default-mem-demo-2" is forbidden`): only after a resource's plural, in lower case.
  const glued = s[q1 - 1] !== ' ';
  if (glued && !/[a-z]/.test(s[q1 - 1]!)) return undefined;
  const name = s.slice(q1 + 1, end - 1);
  if (name.includes('\n')) return undefined;
  let at = glued ? q1 : q1 - 1;
  // A wrap between the resource and its name (`…: pods` ⏎ `        "petclinic-…-pod" is forbidden:`).
  if (!glued) {
    let b = at;
    while (b > 0 && at - b < 40 && /[ \t\n]/.test(s[b - 1]!)) b--;
    if (b < at && s.slice(b, at).includes('\n')) at = b;
  }
  const word = wordBefore(s, at, /[A-Za-z0-9.-]/, 100, /[A-Za-z]/);
  if (!word || (glued && !/^[a-z][a-z0-9-]*s(?:\.[a-z0-9.-]+)?$/.test(word))) return undefined;
  return { word, name, start: at - word.length };
}

/**
 * The envelope that ends right before `idx` (the start of the admission message), if any. Only the
 * 400 characters before `idx` are examined, and only by string scans (no backtracking regex).
 */
export function subjectBefore(text: string, idx: number): Subject | undefined {
  const from = Math.max(0, idx - 400);
  let w = text.slice(from, idx).trimEnd();
  if (w.endsWith('[')) w = w.slice(0, -1).trimEnd();
  for (const [suffix, kindStyle] of [
    [' is forbidden:', false],
    [' is invalid:', true],
    // A retyped envelope that lost its colon (`pods "range-demo" is forbidden maximum memory …`): only with
    // the quoted name, which makes it apiserver's `NewForbidden` wording and not prose.
    [' is forbidden', false],
  ] as const) {
    if (!w.endsWith(suffix)) continue;
    const end = w.length - suffix.length;
    const q = quotedNameBefore(w, end);
    if (!q && !suffix.endsWith(':')) continue;
    if (q) {
      if (kindStyle && !/^[A-Z]/.test(q.word)) return undefined;
      return { resource: resourceName(q.word), name: q.name, start: from + q.start };
    }
    // `Error from server (Forbidden): : pods is forbidden:` — a resource without a name.
    const word = wordBefore(w, end, /[a-z0-9.-]/, 100, /[a-z]/);
    if (word && !kindStyle && (end - word.length === 0 || /\s/.test(w[end - word.length - 1]!))) {
      // The name's quotes lost (an Events table's `Error creating: pods web-5f6c-q5mll is forbidden:`): the word is
      // the name, the resource's plural before it.
      const before = w.slice(Math.max(0, end - word.length - 80), end - word.length);
      const plural = /(?:^|\s)(pods|replicasets|deployments|statefulsets|jobs|persistentvolumeclaims|services)\s$/.exec(
        before,
      );
      if (plural && /^[a-z0-9][a-z0-9.-]{0,252}$/.test(word) && word !== plural[1])
        return {
          resource: plural[1]!,
          name: word,
          start: from + end - word.length - plural[0].trimStart().length,
        };
      return { resource: word, start: from + end - word.length };
    }
  }
  return undefined;
}

/**
 * Where a field error list starts: after `is invalid: [` or the envelope colon. Used by validation to
 * show the whole envelope when there is one.
 */
export function objectOf(s: Subject | undefined): { resource?: string; name?: string } | undefined {
  if (!s) return undefined;
  const o: { resource?: string; name?: string } = {};
  if (s.resource !== undefined) o.resource = s.resource;
  if (s.name !== undefined) o.name = s.name;
  return o;
}

/** Where the displayed message starts (the envelope, if any) and the object it names. */
export function envelopeBefore(
  text: string,
  keyword: number,
): { start: number; object?: { resource?: string; name?: string } } {
  const subj = subjectBefore(text, keyword);
  const object = objectOf(subj);
  return object ? { start: subj!.start, object } : { start: keyword };
}

/**
 * A match whose displayed message runs from the envelope before `keyword` (`pods "x" is forbidden: `, when
 * there is one) to `end`, naming the envelope's object. `dot: true` drops the message's trailing period;
 * `needObject: true` gives no match when no envelope names the object.
 */
export function enveloped<B extends FindingBody>(
  text: string,
  keyword: number,
  end: number,
  body: B,
  opts?: { version?: string; dot?: boolean },
): Match<B>;
export function enveloped<B extends FindingBody>(
  text: string,
  keyword: number,
  end: number,
  body: B,
  opts: { version?: string; dot?: boolean; needObject: true },
): Match<B> | undefined;
export function enveloped<B extends FindingBody>(
  text: string,
  keyword: number,
  end: number,
  body: B,
  opts: { version?: string; dot?: boolean; needObject?: boolean } = {},
): Match<B> | undefined {
  const { start, object } = envelopeBefore(text, keyword);
  if (opts.needObject && !object) return undefined;
  const message = text.slice(start, end).trim();
  const ctx: FindingContext & MatchSpan = { message: opts.dot ? trimEndOf(message, '.') : message, start, end };
  if (object) ctx.object = object;
  if (opts.version !== undefined) ctx.version = opts.version;
  return { ...body, ...ctx };
}
