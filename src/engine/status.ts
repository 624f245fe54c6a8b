/**
 * The outcome of one decision, in the kube-scheduler `Status` shape: a code, the layer that decided,
 * the upstream reason strings byte for byte, and typed detail for the fixes engine.
 */
export type DecisionLayer = 'api-validation' | 'limitrange' | 'quota' | 'scheduler';

export interface Status<D = unknown> {
  code: 'ok' | 'rejected' | 'unschedulable';
  layer: DecisionLayer | null;
  /** Upstream text, byte for byte (the API server's Status.message, or the FitError text). */
  message: string | null;
  reasons: string[];
  /** HTTP status the API server would answer (403 Forbidden, 422 Invalid, 500). */
  httpStatus?: number;
  detail?: D;
}

export function ok<D>(detail?: D): Status<D> {
  return { code: 'ok', layer: null, message: null, reasons: [], detail };
}

/** How the API server names an object in errors: `pods "web"`, `deployments.apps "web"`. */
export function qualifiedResource(resource: string, group: string): string {
  return group ? `${resource}.${group}` : resource;
}

export function forbidden(resource: string, group: string, name: string, message: string): string {
  return `${qualifiedResource(resource, group)} "${name}" is forbidden: ${message}`;
}
