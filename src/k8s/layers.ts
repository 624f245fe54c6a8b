/**
 * The layers a pod meets on its way (API validation → LimitRange → ResourceQuota → scheduler), plus what
 * happens after (runtime) and look-alikes that are none of them (other): one table for their names and
 * the words used for them. parse/ (a finding's layer), engine/ (which layer decided) and answer/ and
 * render/ (headlines, the path line) read it; it lives in k8s/, the vocabulary every layer may import.
 */

export interface LayerInfo {
  /** Order of importance: findings come most important first (docs/contract.md). */
  rank: number;
  /** Whether admission or scheduling can stop here (an engine decision, `DecisionLayer`). */
  decides: boolean;
  /** Its station in a reply's path line (`LimitRange ✓ → ResourceQuota ✗ → Scheduler ?`); null when none. */
  station: PathLayer | null;
  /** How a sentence names it: "passes LimitRange; next: the scheduler". */
  name: string;
  /** How a simulate line names what refused: "rejected by ResourceQuota (admission)". */
  refusedBy: string;
  /** A diagnosis headline for a finding of this layer. */
  headline: string;
}

/** The path line's stations, in the order a pod meets them. */
export const PATH_STATIONS = ['LimitRange', 'ResourceQuota', 'Scheduler'] as const;
export type PathLayer = (typeof PATH_STATIONS)[number];

export const LAYERS = {
  'api-validation': {
    rank: 0,
    decides: true,
    station: null,
    name: 'validation',
    refusedBy: 'API validation',
    headline: 'Rejected by API validation',
  },
  limitrange: {
    rank: 1,
    decides: true,
    station: 'LimitRange',
    name: 'LimitRange',
    refusedBy: 'LimitRange (admission)',
    headline: 'Rejected at admission — LimitRange',
  },
  quota: {
    rank: 2,
    decides: true,
    station: 'ResourceQuota',
    name: 'ResourceQuota',
    refusedBy: 'ResourceQuota (admission)',
    headline: 'Rejected at admission — ResourceQuota',
  },
  scheduler: {
    rank: 3,
    decides: true,
    station: 'Scheduler',
    name: 'the scheduler',
    refusedBy: 'the scheduler',
    headline: 'Admitted, but no node fits — scheduler',
  },
  runtime: {
    rank: 4,
    decides: false,
    station: null,
    name: 'runtime',
    refusedBy: 'the kubelet',
    headline: 'Runtime problem',
  },
  other: {
    rank: 5,
    decides: false,
    station: null,
    name: 'outside Kubernetes admission',
    refusedBy: 'the API server',
    headline: 'Not a Kubernetes resource-admission error',
  },
} as const satisfies Record<string, LayerInfo>;

/** A finding's layer (docs/contract.md `layer`). */
export type FindingLayer = keyof typeof LAYERS;
/** A layer that decides admission or scheduling (what simulate reports as `admission.layer`). */
export type DecisionLayer = {
  [L in FindingLayer]: (typeof LAYERS)[L]['decides'] extends true ? L : never;
}[FindingLayer];

export function isLayer(s: string | null | undefined): s is FindingLayer {
  return typeof s === 'string' && Object.hasOwn(LAYERS, s);
}

/** The table's row for a layer name, or undefined for anything else. */
export function layerInfo(s: string | null | undefined): LayerInfo | undefined {
  return isLayer(s) ? LAYERS[s] : undefined;
}
