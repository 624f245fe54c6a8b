/**
 * The shape every parser in `src/parse/` produces. `index.ts` re-exports these; the layer modules import
 * them from here so that `index.ts` can import the modules without a cycle.
 */

export type Layer = 'api-validation' | 'limitrange' | 'quota' | 'scheduler' | 'runtime' | 'other';

export interface Finding {
  layer: Layer;
  /** docs/contract.md kinds; for layer `other` a short kebab-case kind (cloud-quota, webhook-denied, …). */
  kind: string;
  object?: { resource?: string; name?: string };
  controller?: { kind: string; name: string };
  namespace?: string;
  /** Exactly the docs/contract.md facts of the kind; quantities as the strings in the text. */
  facts: Record<string, unknown>;
  /** The normalized matched message text (for display). */
  message: string;
  /** Era hint when the wording dates it, e.g. '<1.24', '1.25-1.27', '>=1.34.2'. */
  version?: string;
}

/**
 * What a layer module returns: a finding without the paste-level context (namespace, controller
 * from surrounding lines), plus where in the normalized text its message starts, so that `index.ts`
 * can order findings and look up the context around them.
 */
export interface Match extends Omit<Finding, 'namespace'> {
  /** Offset of the message in the normalized text. */
  start: number;
  /** Offset just past the message. */
  end: number;
  namespace?: string;
}

/** Upper bound of one message we look at; kube-scheduler's full condition text is the longest real one. */
export const MAX_MESSAGE = 16_384;
