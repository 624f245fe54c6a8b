/** What `parsePaste` says of a text, as the table-driven parser tests compare it: layer, kind, facts, object, namespace. */
import { parsePaste } from '../../src/parse/index.ts';

export interface Said {
  layer: string;
  kind: string;
  facts: unknown;
  object?: unknown;
  namespace?: string;
}

export function said(text: string): Said[] {
  return parsePaste(text).findings.map((f) => ({
    layer: f.layer,
    kind: f.kind,
    facts: f.facts,
    ...(f.object ? { object: f.object } : {}),
    ...(f.namespace ? { namespace: f.namespace } : {}),
  }));
}
