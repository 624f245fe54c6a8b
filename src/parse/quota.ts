/**
 * ResourceQuota admission messages (apiserver `pkg/admission/plugin/resourcequota/controller.go`,
 * docs/kubernetes-semantics.md §4.5–4.6, §7), in every wording seen since 1.1:
 *
 * - `exceeded quota: NAME, requested: r=v[,r=v], used: …, limited: …` (1.3+; `Exceeded quota:` in 1.2
 *   and some 1.3 alphas; the docs even print `…=700Mi,used:` without the space);
 * - 1.1 (PR #16941): `cpu quota is 200m, current usage is 200m, requesting 100m.` (no quota name);
 * - `failed quota: NAME: must specify …` in its three forms (comma list before 1.24, per-container
 *   `r for: c1,c2; r2 for: c1` since PR #107210, and bare `cpu,memory` keys), `Failed quota:` in 1.2,
 *   and 1.1's `cpu is limited by quota, must make explicit request.`;
 * - `status unknown for quota: NAME[, resources: a,b]` (the list was added later; 1.6 has none);
 * - `insufficient quota to consume: …` / `insufficient quota to match these scopes: [...]`
 *   (AdmissionConfiguration limitedResources, §4.8).
 */

import { Quantity } from '../quantity.ts';
import type { Match, QuotaInsufficientFacts, QuotaUsage } from './finding.ts';
import { bare, findWithin, lineEnd, lineStart, scanMany, trimEndOf, wordBefore } from './scan.ts';
import { lowerAscii } from './normalize.ts';
import { envelopeBefore, enveloped } from './subject.ts';

type Usage = QuotaUsage;

// A value stops at `:` too: no quantity has one, and a condition message glues the next text on with
// it (`limited: limits.cpu=8:Deployment does not have minimum availability.`).
const PAIR_RE = /\s*([A-Za-z0-9][A-Za-z0-9./_-]{0,252})\s*=\s*([^\s,'"`\]}:\u3000-\u303f\uff00-\uffef]{1,64})/y;

/**
 * `name=value[,name=value…]` starting at `i`. Spaces around `=` and after `,` are tolerated (pastes
 * that re-flowed `count/ingresses.networking.k8s.io          =1`). Returns the pairs in order and the
 * offset after the last one.
 */
export function readPairs(text: string, i: number, end: number): { pairs: [string, string][]; next: number } {
  const pairs: [string, string][] = [];
  let pos = i;
  for (let guard = 0; guard < 256; guard++) {
    PAIR_RE.lastIndex = pos;
    const m = PAIR_RE.exec(text);
    if (!m || PAIR_RE.lastIndex > end) break;
    pairs.push([m[1]!, canonicalPrefix(bare(m[2]!))]);
    pos = PAIR_RE.lastIndex;
    if (text[pos] !== ',') break;
    // `,used:` (no space) ends the list: the next word is a section label, not a pair.
    if (/^,\s*(?:used|limited|requested)\s*:/i.test(text.slice(pos, pos + 16))) break;
    pos++;
  }
  return { pairs, next: pos };
}

/**
 * Kubernetes prints quantities in canonical form (`Quantity.String()`), which never has a leading zero;
 * `pods=016` is `pods=0` glued to the next text (`… limited: pods=016 times in the last 10 minutes`).
 */
function canonicalPrefix(v: string): string {
  if (/^0\d/.test(v)) return '0';
  // A page flattened without blanks glues the next words on (`…=1Error from server`, `…=1Copy to Clipboard`): a
  // quantity never goes on with a capitalised word.
  const glued = /^(\d{1,20}(?:\.\d{1,20})?(?:[numkMGTPE]|[KMGTPE]i)?)[A-Z][a-z]{2,}/.exec(v);
  return glued ? glued[1]! : v;
}

/** Names whose used + requested > limited; a name whose numbers do not parse is kept (cannot tell). */
export function exceedingOf(resources: Record<string, Usage>): string[] {
  const out: string[] = [];
  for (const [name, u] of Object.entries(resources)) {
    const r = Quantity.tryParse(u.requested);
    const used = Quantity.tryParse(u.used);
    const lim = Quantity.tryParse(u.limited);
    if (!r || !used || !lim || used.add(r).cmp(lim) > 0) out.push(name);
  }
  return out;
}

function section(_text: string, lower: string, label: string, from: number, end: number): number {
  const i = findWithin(lower, label, from, end);
  if (i >= 0) return i + label.length;
  // A label retyped with a blank before its colon (`used : requests.memory=0`).
  const spaced = `${label.slice(0, -1)} :`;
  const j = findWithin(lower, spaced, from, end);
  return j < 0 ? -1 : j + spaced.length;
}

function exceeded(text: string, lower: string, k: number): Match | undefined {
  const end = Math.min(lineEnd(text, k), k + 8192);
  // `exceeds quota:` is how people retype it (the API server has only ever printed `exceeded`).
  const nameFrom = k + (lower.startsWith('exceeds', k) ? 'exceeds quota:' : 'exceeded quota:').length;
  const req = section(text, lower, 'requested:', nameFrom, end);
  if (req < 0) return nameOnly(text, k, nameFrom);
  // The quota name runs to the `, requested:` (names are DNS subdomains, but pastes redact them as `***`).
  const quota = text
    .slice(nameFrom, req - 'requested:'.length)
    .trim()
    .replace(/,$/, '')
    .trim();
  const requested = readPairs(text, req, end);
  if (requested.pairs.length === 0) return undefined;
  // A paste cut before `used:` or `limited:` (a wrapped docstring, a quote that stops early) keeps
  // what it printed; the missing numbers are null.
  const usedAt = section(text, lower, 'used:', requested.next, end);
  const used = usedAt < 0 ? { pairs: [], next: requested.next } : readPairs(text, usedAt, end);
  const limAt = usedAt < 0 ? -1 : section(text, lower, 'limited:', used.next, end);
  const limited = limAt < 0 ? { pairs: [], next: used.next } : readPairs(text, limAt, end);
  const resources: Record<string, Usage> = {};
  const usedMap = new Map(used.pairs);
  const limMap = new Map(limited.pairs);
  for (const [name, value] of requested.pairs) {
    resources[name] = { requested: value, used: usedMap.get(name) ?? null, limited: limMap.get(name) ?? null };
  }
  return enveloped(
    text,
    k,
    limited.next,
    { layer: 'quota', kind: 'quota-exceeded', facts: { quota, resources, exceeding: exceedingOf(resources) } },
    text[k] === 'E' ? { version: '1.2-1.3' } : {},
  );
}

/** The quota's name as `exceeded quota:` prints it: a DNS subdomain, or a paste's `***` redaction. */
const QUOTA_NAME_RE = /[ \t]*([a-z0-9*](?:[a-z0-9.*-]{0,251}[a-z0-9*])?)(?=$|[\s"'`,.;)\]}])/iy;

/**
 * `exceeded quota: <name>` with nothing after the name: a client that kept only the head of the message
 * (`… is forbidden: exceeded quota: dms-storage-quota"`), a test double, a doc's bullet. The quota is
 * named; what it counted is not.
 */
function nameOnly(text: string, k: number, nameFrom: number): Match | undefined {
  QUOTA_NAME_RE.lastIndex = nameFrom;
  const n = QUOTA_NAME_RE.exec(text);
  if (!n) return undefined;
  const stop = QUOTA_NAME_RE.lastIndex;
  // Prose that goes on after the name (`exceeded quota: the team's limit …`) is not this message.
  const after = text.slice(stop, stop + 3);
  // A conjunction after it is the writer's own sentence going on (`exceeded quota: object-counts and the pod …`).
  const conj = /^[ \t]+(?:and|but|so|which|when|while|after|because)\b/i.test(text.slice(stop, stop + 10));
  if (/^[ \t]+[a-z]/i.test(after) && !/^[ \t]*$/.test(after) && !conj) return undefined;
  // `exceeded quota: requests.gpu, requested(5) + used(0) > limited(2)`: a webhook's own quota in its own
  // words (the quota plugin prints `requested: r=v`), not a ResourceQuota refusal.
  if (/^,\s*requested\s*\(/i.test(text.slice(stop, stop + 16))) return undefined;
  return enveloped(
    text,
    k,
    stop,
    { layer: 'quota', kind: 'quota-exceeded', facts: { quota: n[1]!, resources: {}, exceeding: [] } },
    text[k] === 'E' ? { version: '1.2-1.3' } : {},
  );
}

/** 1.1: `cpu quota is 200m, current usage is 200m, requesting 100m.` */
const PRE12_EXCEEDED_RE =
  /([A-Za-z][A-Za-z0-9./_-]{0,99}) quota is ([^\s,]{1,64}), current usage is ([^\s,]{1,64}), requesting ([^\s,]{1,64})/y;

function pre12Exceeded(text: string, k: number): Match | undefined {
  // `k` points at ` quota is `; the resource word ends right before it.
  const w = wordBefore(text, k, /[A-Za-z0-9./_-]/, 100, /[A-Za-z]/);
  if (!w) return undefined;
  const at = k - w.length;
  PRE12_EXCEEDED_RE.lastIndex = at;
  const m = PRE12_EXCEEDED_RE.exec(text);
  if (!m) return undefined;
  const name = m[1]!;
  const resources: Record<string, Usage> = {
    [name]: { requested: bare(m[4]!), used: bare(m[3]!), limited: bare(m[2]!) },
  };
  return enveloped(
    text,
    at,
    PRE12_EXCEEDED_RE.lastIndex,
    { layer: 'quota', kind: 'quota-exceeded', facts: { quota: null, resources, exceeding: exceedingOf(resources) } },
    { version: '1.1', dot: true },
  );
}

const RES_LIST_RE = /\s*([A-Za-z0-9][A-Za-z0-9./_-]{0,252}(?:,[A-Za-z0-9][A-Za-z0-9./_-]{0,252}){0,64})/y;
// The container list ends where a source string literal around the message does (`for: c".to_string()`).
const FOR_RE = /\s+for:\s*([^\s;,"'`()][^\s;"'`()]{0,4096})/y;

function mustSpecify(
  text: string,
  lower: string,
  k: number,
  capital: boolean,
  bareName = false,
  unnamed = false,
): Match | undefined {
  const end = Math.min(lineEnd(text, k), k + 8192);
  let quota: string | null = null;
  let pos = k + 'must specify'.length;
  if (!unnamed) {
    const nameFrom = bareName ? k : k + 'failed quota:'.length;
    const ms = findWithin(lower, ': must specify', nameFrom, end);
    if (ms < 0) return undefined;
    quota = text.slice(nameFrom, ms).trim();
    pos = ms + ': must specify'.length;
  }
  const resources: Record<string, string[]> = {};
  let perContainer = false;
  for (let guard = 0; guard < 64; guard++) {
    RES_LIST_RE.lastIndex = pos;
    const r = RES_LIST_RE.exec(text);
    if (!r || RES_LIST_RE.lastIndex > end) break;
    pos = RES_LIST_RE.lastIndex;
    FOR_RE.lastIndex = pos;
    const f = FOR_RE.exec(text);
    if (f && FOR_RE.lastIndex <= end) {
      // `limits.cpu for: c1,c2` (v1.24+): one resource, its containers.
      perContainer = true;
      resources[r[1]!] = bare(f[1]!)
        .split(',')
        .filter((c) => c !== '');
      pos = FOR_RE.lastIndex;
      // `…for: a; limits.memory for: a` (upstream's `; `), or a retyped `…for: a, must specify limits.memory
      // for: a` (the list's comma then the verb again): the next resource of the same message.
      let comma = text[pos - 1] === ',' && /^\s*must specify\s/i.test(text.slice(pos, pos + 40));
      // A list retyped or wrapped with spaces after its commas (`for: chmod, kine,` ⏎ `  kube-scheduler`):
      // container names are DNS labels, so `, name` goes on with the list.
      if (text[pos - 1] === ',' && !comma) {
        const more =
          /^(?:\s+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?,)*\s+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?=[;,\]"'`]|[ \t]*(?:\n|$))/.exec(
            text.slice(pos, Math.min(end, pos + 4096)),
          );
        if (more && !/^\s+for:/.test(text.slice(pos + more[0].length, pos + more[0].length + 8))) {
          resources[r[1]!]!.push(
            ...more[0]
              .split(',')
              .map((c) => c.trim())
              .filter((c) => c !== ''),
          );
          pos += more[0].length;
          comma = text[pos] === ',' && /^,\s*must specify\s/i.test(text.slice(pos, pos + 40));
          if (comma) pos++;
        }
      }
      // One resource a line, joined back by normalize (`…for: c must specify limits.memory for: c`).
      const spaced = /^[ \t]+must specify(?=\s)/i.exec(text.slice(pos, pos + 40));
      if (spaced && !comma && text[pos] !== ';') {
        pos += spaced[0].length;
        continue;
      }
      if (text[pos] === ';' || comma) {
        if (!comma) pos++;
        // Pretty-printed with the verb repeated per resource (`…for: nginx; must specify limits.memory for: nginx`).
        const again = /^\s*must specify(?=\s)/i.exec(text.slice(pos, pos + 40));
        if (again) pos += again[0].length;
        continue;
      }
      break;
    }
    for (const name of r[1]!.split(',')) resources[bare(name)] = [];
    // The pre-1.24 list (`strings.Join(…, ",")`, plugin/pkg/admission/resourcequota/controller.go) retyped
    // with a blank after each comma (`must specify limits.cpu, limits.memory.`): names a quota counts go on.
    // Retyped with `; ` between them (`must specify requests.cpu; requests.memory`, the per-container form's
    // separator without its `for:`): the same list.
    const more = /^(?:[,;][ \t]+[A-Za-z0-9][A-Za-z0-9./_-]{0,252})+/.exec(text.slice(pos, Math.min(end, pos + 4096)));
    const names = more
      ? more[0]
          .split(/[,;]/)
          .map((n) => bare(n.trim()))
          .filter((n) => n !== '')
      : [];
    if (more && names.every((n) => QUOTA_RESOURCE_RE.test(n))) {
      for (const n of names) resources[n] = [];
      pos += more[0].length;
    }
    break;
  }
  if (Object.keys(resources).length === 0) return undefined;
  // Without its `failed quota:` label the quota name is any word before `: must specify`: only resources a
  // quota counts make it a quota's refusal (not kubectl's `error: must specify one of -f and -k`).
  if ((bareName || unnamed) && !Object.keys(resources).every((r) => QUOTA_RESOURCE_RE.test(r))) return undefined;
  // Without the quota's name either, only the per-container form (`must specify requests.cpu for: c`) is the plugin's.
  // Or where the label stands without a name (Tekton's `forbidden: failed quota, must specify limits.cpu,…`).
  if (unnamed && !perContainer && !/failed quota,\s*$/.test(lower.slice(Math.max(0, k - 24), k))) return undefined;
  return enveloped(
    text,
    k,
    pos,
    { layer: 'quota', kind: 'quota-must-specify', facts: { quota, resources } },
    { version: capital ? '1.2' : perContainer ? '>=1.24' : '<1.24' },
  );
}

/** A resource a ResourceQuota constrains by a pod's requests or limits (`cpu`, `limits.memory`, `requests.nvidia.com/gpu`). */
const QUOTA_RESOURCE_RE =
  /^(?:(?:requests|limits)\.)?(?:cpu|memory|ephemeral-storage|storage|hugepages-[0-9a-z]+|[a-z0-9.-]+\/[a-z0-9._-]+)$/;

/**
 * `q: must specify memory for: c` — the must-specify message retyped without its `failed quota: ` label (a
 * runbook's gloss of `failed quota: q: must specify …`, plugin/pkg/admission/resourcequota/controller.go). `k` is
 * at `: must specify `; the quota's name is the DNS subdomain right before it.
 */
function bareMustSpecify(text: string, lower: string, k: number): Match | undefined {
  const name = wordBefore(text, k, /[a-z0-9.-]/, 253, /[a-z0-9]/);
  if (!name || !/^[a-z0-9]/.test(name)) return undefined;
  const at = k - name.length;
  if (/failed quota:\s*$/.test(lower.slice(Math.max(0, at - 20), at))) return undefined;
  if (at > 0 && /[\w/.:-]/.test(text[at - 1]!) && text[at - 1] !== ':') return undefined;
  return mustSpecify(text, lower, at, false, true);
}

/**
 * `must specify requests.cpu for: probe; requests.memory for: probe` with neither label nor quota name: a write-up
 * of the refusal (`a ResourceQuota admission error (must specify …)`) or a port's expected string
 * (`Err("must specify requests.cpu for: c")`). Read right after an opening quote or parenthesis, or after an
 * error word on its line; a line that only starts with the words is not enough.
 */
function unnamedMustSpecify(text: string, lower: string, k: number): Match | undefined {
  if (/(?::|failed quota:?)\s*$/.test(lower.slice(Math.max(0, k - 16), k))) return undefined;
  const ls = lineStart(text, k, 2048);
  // A later resource of a message read from its first `must specify` (the verb repeated per resource).
  if (lower.slice(ls, k).includes('must specify')) return undefined;
  const opened = /["'(]/.test(text[k - 1] ?? '');
  if (!opened && !/\b(?:error|errors|err|failed|failure|refused|rejected|forbidden)\b/i.test(text.slice(ls, k)))
    return undefined;
  return mustSpecify(text, lower, k, false, false, true);
}

/**
 * `pods "x" is forbidden: exceeded quota` and nothing after it (a runbook's list of messages, a log that
 * kept only the head): a quota refusal whose quota and numbers the paste does not give.
 */
function headOnly(text: string, k: number): Match | undefined {
  const after = k + 'exceeded quota'.length;
  if (!/^(?:[\s"'`.,)\]]|$)/.test(text.slice(after, after + 1))) return undefined;
  if (/^,\s*(?:requested|used|limited)\b/i.test(text.slice(after, after + 16))) return undefined;
  if (/^\s*:/.test(text.slice(after, after + 8))) return undefined;
  return enveloped(
    text,
    k,
    after,
    { layer: 'quota', kind: 'quota-exceeded', facts: { quota: null, resources: {}, exceeding: [] } },
    { needObject: true },
  );
}

/**
 * v1.0 (2015): `pods "x" is forbidden: Limited to 3 pods` — the hard limit of one resource, nothing else
 * (the quota name and usage were not printed).
 */
function limitedTo(text: string, k: number): Match | undefined {
  const m = /^limited to ([0-9][^\s,]{0,63}) ([a-z][a-z0-9./_-]{0,99})/i.exec(text.slice(k, k + 180));
  if (!m) return undefined;
  const { start, object } = envelopeBefore(text, k);
  if (!object) return undefined;
  const name = trimEndOf(m[2]!, '.');
  const resources: Record<string, Usage> = { [name]: { requested: null, used: null, limited: bare(m[1]!) } };
  const end = k + m[0].length;
  return {
    layer: 'quota',
    kind: 'quota-exceeded',
    object,
    facts: { quota: null, resources, exceeding: [name] },
    message: text.slice(start, end).trim(),
    start,
    end,
    version: '1.0',
  };
}

/** 1.1: `cpu is limited by quota, must make explicit request.` */
function pre12MustSpecify(text: string, k: number): Match | undefined {
  const w = wordBefore(text, k, /[A-Za-z0-9./_-]/, 100, /[A-Za-z]/);
  if (!w) return undefined;
  const at = k - w.length;
  const end = k + ' is limited by quota, must make explicit request'.length;
  return enveloped(
    text,
    at,
    end,
    { layer: 'quota', kind: 'quota-must-specify', facts: { quota: null, resources: { [w]: [] } } },
    { version: '1.1', dot: true },
  );
}

function statusUnknown(text: string, lower: string, k: number): Match | undefined {
  const end = Math.min(lineEnd(text, k), k + 4096);
  const nameFrom = k + 'status unknown for quota:'.length;
  const resAt = findWithin(lower, ', resources:', nameFrom, end);
  let quota: string;
  let resources: string[] = [];
  let stop: number;
  if (resAt >= 0 && resAt < end) {
    quota = text.slice(nameFrom, resAt).trim();
    RES_LIST_RE.lastIndex = resAt + ', resources:'.length;
    const r = RES_LIST_RE.exec(text);
    resources = r ? r[1]!.split(',').map(bare) : [];
    stop = r ? RES_LIST_RE.lastIndex : resAt;
  } else {
    // The name on the same line: a line after it is another one's (`… = status unknown for quota:` ⏎ `const …`).
    const m = /[ \t]*([^\s,"'`]{1,253})/y;
    m.lastIndex = nameFrom;
    const n = m.exec(text);
    if (!n) return undefined;
    quota = bare(n[1]!);
    stop = m.lastIndex;
  }
  return enveloped(
    text,
    k,
    stop,
    { layer: 'quota', kind: 'quota-status-unknown', facts: { quota, resources } },
    resAt < 0 || resAt >= end ? { version: 'old (1.6)' } : {},
  );
}

/** Comment markers that open a continuation line (`//   # `, `# `, ` * `, `> `). */
const MARKERS_RE = /^[ \t]*(?:(?:\/\/|#+|\*|>)[ \t]*)+/;

/**
 * A bracketed list that starts at `from` (after blanks) and may run over up to four lines, each next line
 * read without its comment markers: the list's text joined, and where it ends in `text`.
 */
function bracketList(text: string, from: number): { raw: string; stop: number } | undefined {
  let i = from;
  let raw = '';
  let depth = 0;
  let opened = false;
  for (let line = 0; line < 4; line++) {
    const e = lineEnd(text, i, 1024);
    for (let j = i; j < e; j++) {
      const c = text[j];
      raw += c;
      if (c === '[') {
        depth++;
        opened = true;
      } else if (c === ']') {
        depth--;
        if (opened && depth === 0) return { raw, stop: j + 1 };
      } else if (!opened && c !== ' ' && c !== '\t') return undefined;
    }
    if (!opened || e >= text.length) return undefined;
    i = e + 1;
    i += MARKERS_RE.exec(text.slice(i, i + 64))?.[0].length ?? 0;
    raw += ' ';
  }
  return undefined;
}

function insufficient(text: string, lower: string, k: number): Match | undefined {
  const end = Math.min(lineEnd(text, k), k + 4096);
  let facts: QuotaInsufficientFacts;
  let stop: number;
  if (lower.startsWith('insufficient quota to consume:', k)) {
    RES_LIST_RE.lastIndex = k + 'insufficient quota to consume:'.length;
    const r = RES_LIST_RE.exec(text);
    if (!r) return undefined;
    facts = { resources: r[1]!.split(',').map(bare) };
    stop = RES_LIST_RE.lastIndex;
  } else if (lower.startsWith('insufficient quota to match these scopes:', k)) {
    // Go `%v` of []ScopedResourceSelectorRequirement: `[{PriorityClass In [a b]} …]`.
    const from = k + 'insufficient quota to match these scopes:'.length;
    const close = findWithin(text, '}]', from, end);
    stop = close >= 0 && close < end ? close + 2 : end;
    let raw = text.slice(from, stop);
    if (close < 0 || close >= end) {
      // The list broken over lines of a comment block (`[PriorityClass In` ⏎ `//   # [a b]]`): read on
      // until its brackets close, each next line without its comment markers.
      const joined = bracketList(text, from);
      if (joined) ({ raw, stop } = joined);
    }
    const scopes: string[] = [];
    const re = /\{([^{}]{1,1000})\}/g;
    for (let x = re.exec(raw); x; x = re.exec(raw)) scopes.push(x[1]!);
    // Retyped without the struct's braces (`[PriorityClass In [a b]]`): one scope, unless elided (`…`).
    const inner = /^\s*\[([A-Za-z]+ (?:In|NotIn|Exists|DoesNotExist)\b[^{}]*)\]/.exec(raw)?.[1];
    if (scopes.length === 0 && inner && !inner.includes('...') && !inner.includes('…'))
      scopes.push(inner.replace(/\s+/g, ' ').trim());
    facts = { scopes };
  } else if (lower.startsWith('insufficient quota to match these scopes', k)) {
    // Quoted without its list (`fail with "insufficient quota to match these scopes", which …`): the refusal
    // named, its scopes not printed.
    const after = k + 'insufficient quota to match these scopes'.length;
    const q = text[after];
    const open = text[k - 1];
    if (
      !(q === '"' || q === '`' || q === "'" || q === '\u201d') ||
      !(open === q || (open === '\u201c' && q === '\u201d'))
    )
      return undefined;
    facts = { scopes: [] };
    stop = after;
  } else return undefined;
  return enveloped(text, k, stop, { layer: 'quota', kind: 'quota-insufficient', facts });
}

/**
 * The three lists of an exceeded-quota refusal quoted without their head (`requested: requests.cpu=500m, used:
 * requests.cpu=2, limited: requests.cpu=2`; plugin/pkg/admission/resourcequota/controller.go prints them
 * after `exceeded quota: <name>, `): the quota is not named. All three lists, each naming the same
 * resources, or it is some other `requested:`.
 */
function headless(text: string, lower: string, k: number): Match | undefined {
  if (/quota:/.test(lower.slice(Math.max(0, k - 300), k))) return undefined;
  const end = Math.min(lineEnd(text, k), k + 8192);
  const requested = readPairs(text, k + 'requested:'.length, end);
  if (requested.pairs.length === 0) return undefined;
  const u = /^,?[ \t]*used:/i.exec(text.slice(requested.next, requested.next + 16));
  if (!u) return undefined;
  const used = readPairs(text, requested.next + u[0].length, end);
  const l = /^,?[ \t]*limited:/i.exec(text.slice(used.next, used.next + 16));
  if (!l) return undefined;
  const limited = readPairs(text, used.next + l[0].length, end);
  const names = (ps: [string, string][]): string => ps.map((p) => p[0]).join(',');
  if (names(used.pairs) !== names(requested.pairs) || names(limited.pairs) !== names(requested.pairs)) return undefined;
  const resources: Record<string, Usage> = {};
  const usedMap = new Map(used.pairs);
  const limMap = new Map(limited.pairs);
  for (const [name, value] of requested.pairs) {
    resources[name] = { requested: value, used: usedMap.get(name) ?? null, limited: limMap.get(name) ?? null };
  }
  return enveloped(text, k, limited.next, {
    layer: 'quota',
    kind: 'quota-exceeded',
    facts: { quota: null, resources, exceeding: exceedingOf(resources) },
  });
}

/** All quota findings in normalized `text` (one per occurrence; `index.ts` dedupes). */
export function findQuota(text: string, lowerText?: string): Match[] {
  const lower = lowerText ?? lowerAscii(text);
  const out: Match[] = [];
  const table: [string, (k: number) => Match | undefined][] = [];
  const scan = (needle: string, f: (k: number) => Match | undefined): void => {
    table.push([needle, f]);
  };
  scan('exceeded quota:', (k) => exceeded(text, lower, k));
  scan('exceeds quota:', (k) => exceeded(text, lower, k));
  scan('is forbidden: exceeded quota', (k) => headOnly(text, k + 'is forbidden: '.length));
  scan(' quota is ', (k) =>
    lower.startsWith(', current usage is', findWithin(lower, ',', k, k + 200)) ? pre12Exceeded(text, k) : undefined,
  );
  scan('limited to ', (k) => limitedTo(text, k));
  scan('requested: ', (k) => headless(text, lower, k));
  scan('failed quota:', (k) => mustSpecify(text, lower, k, text[k] === 'F'));
  scan(': must specify ', (k) => bareMustSpecify(text, lower, k));
  scan('must specify ', (k) => unnamedMustSpecify(text, lower, k));
  scan(' is limited by quota, must make explicit request', (k) => pre12MustSpecify(text, k));
  scan('status unknown for quota:', (k) => statusUnknown(text, lower, k));
  // Quoted without its name (`rejects the create with "Forbidden ... status unknown for quota"`): which quota is not said.
  for (const close of ['status unknown for quota"', "status unknown for quota'"])
    scan(close, (k) =>
      enveloped(text, k, k + close.length - 1, {
        layer: 'quota',
        kind: 'quota-status-unknown',
        facts: { quota: null, resources: [] },
      }),
    );
  scan('insufficient quota to ', (k) => insufficient(text, lower, k));
  scanMany(lower, table, out);
  // A quota named alone (`- \`exceeded quota: mem-cpu-demo\` - Quota name that was exceeded`) in a paste that
  // holds that quota's whole refusal is a gloss of that refusal, not another one.
  const whole = new Set(
    out.flatMap((m) =>
      m.kind === 'quota-exceeded' && Object.keys(m.facts.resources).length > 0 ? [m.facts.quota] : [],
    ),
  );
  const kept =
    whole.size === 0
      ? out
      : out.filter(
          (m) =>
            !(m.kind === 'quota-exceeded' && Object.keys(m.facts.resources).length === 0 && whole.has(m.facts.quota)),
        );
  return kept.sort((a, b) => a.start - b.start);
}
