/**
 * Label and node selectors as the scheduler evaluates them:
 * apimachinery `metav1.LabelSelectorAsSelector` (nil selector = nothing, empty selector = everything) and
 * component-helpers `nodeaffinity.NodeSelector` (terms ORed, requirements ANDed, an empty term matches
 * nothing, `matchFields` only knows `metadata.name`, Gt/Lt compare int64 values).
 */
import type { LabelSelector, NodeSelectorTerm } from '../../k8s/objects.ts';

export type Labels = Readonly<Record<string, string>>;
export type LabelMatcher = (labels: Labels) => boolean;

interface Requirement {
  key: string;
  operator: string;
  values?: readonly string[] | null;
}

const NOTHING: LabelMatcher = () => false;
const EVERYTHING: LabelMatcher = () => true;

/** Compiles a LabelSelector once; `nil` selects nothing, `{}` selects everything (LabelSelectorAsSelector). */
export function compileLabelSelector(selector: LabelSelector | null | undefined): LabelMatcher {
  if (!selector) return NOTHING;
  const checks: LabelMatcher[] = [];
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) checks.push((l) => l[k] === v);
  for (const r of selector.matchExpressions ?? []) {
    const check = compileLabelRequirement(r);
    // An invalid requirement makes LabelSelectorAsSelector fail; callers treat that as "selects nothing".
    if (!check) return NOTHING;
    checks.push(check);
  }
  if (checks.length === 0) return EVERYTHING;
  return (labels) => checks.every((c) => c(labels));
}

function compileLabelRequirement(r: Requirement): LabelMatcher | null {
  const values = new Set(r.values ?? []);
  switch (r.operator) {
    case 'In':
      return (l) => Object.hasOwn(l, r.key) && values.has(l[r.key]!);
    case 'NotIn':
      return (l) => !Object.hasOwn(l, r.key) || !values.has(l[r.key]!);
    case 'Exists':
      return (l) => Object.hasOwn(l, r.key);
    case 'DoesNotExist':
      return (l) => !Object.hasOwn(l, r.key);
    default:
      return null;
  }
}

/** strconv.ParseInt(s, 10, 64) — Gt/Lt values and label values must be int64 text. */
function parseInt64(s: string): bigint | null {
  if (!/^[+-]?\d+$/.test(s)) return null;
  const v = BigInt(s);
  if (v > 9223372036854775807n || v < -9223372036854775808n) return null;
  return v;
}

/** One NodeSelectorRequirement against a label (or field) set (nodeaffinity / labels.Requirement.Matches). */
function matchesNodeRequirement(r: Requirement, labels: Labels): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = labels[r.key];
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(value!);
    case 'NotIn':
      return !has || !values.includes(value!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1) return false;
      const want = parseInt64(values[0]!);
      const got = parseInt64(value!);
      if (want === null || got === null) return false;
      return r.operator === 'Gt' ? got > want : got < want;
    }
    default:
      return false;
  }
}

/** A node as node selectors see it: its labels and its `metadata.name` field. */
export interface SelectableNode {
  name: string;
  labels: Labels;
}

/**
 * NodeSelectorTerm: matchExpressions over labels AND matchFields over `metadata.name` (the only
 * supported field, In/NotIn). A term with neither matches nothing (nodeaffinity.nodeSelectorTerm).
 */
export function matchesNodeSelectorTerm(term: NodeSelectorTerm, node: SelectableNode): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  for (const r of exprs) if (!matchesNodeRequirement(r, node.labels)) return false;
  for (const f of fields) {
    if (f.key !== 'metadata.name') return false;
    // nodeSelectorRequirementsAsFieldSelector: In/NotIn only, with exactly one value (API validation agrees).
    if (f.operator !== 'In' && f.operator !== 'NotIn') return false;
    if ((f.values ?? []).length !== 1) return false;
    if (!matchesNodeRequirement(f, { 'metadata.name': node.name })) return false;
  }
  return true;
}

/** Terms are ORed (v1helper.MatchNodeSelectorTerms); no terms match nothing. */
export function matchesNodeSelectorTerms(terms: readonly NodeSelectorTerm[], node: SelectableNode): boolean {
  return terms.some((t) => matchesNodeSelectorTerm(t, node));
}
