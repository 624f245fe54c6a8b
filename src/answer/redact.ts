/**
 * Never echo Secret data (the k8sgpt `Sensitive` model): a pasted Secret keeps its kind and name only.
 */
import type { KObject } from '../k8s/snapshot.ts';

export const REDACTED = '[redacted]';

export function redactSecrets(obj: KObject): KObject {
  if (obj.kind !== 'Secret') return obj;
  const out: KObject = { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name: obj.metadata.name, namespace: obj.metadata.namespace } };
  if ('data' in obj || 'stringData' in obj) out.data = REDACTED;
  return out;
}

/** Masks bearer tokens, Slack tokens and key-like strings in free text before it is logged or shown. */
export function maskTokens(text: string): string {
  return text
    .replace(/xox[abposr]-[A-Za-z0-9-]{6,}/g, 'xox?-[redacted]')
    .replace(/xapp-[A-Za-z0-9-]{6,}/g, 'xapp-[redacted]')
    .replace(/(authorization:\s*bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]')
    .replace(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, '[redacted-jwt]');
}
