/**
 * Kubernetes versions as "major.minor[.patch]": the engine speaks v1.35 by default and can reproduce
 * older wordings (the cases, the parsers and the scheduler's version profile need them).
 */
export const DEFAULT_K8S_VERSION = '1.35';

export type Version = [number, number, number];

/** "1.35" → [1, 35, 0]; "v1.34.2" → [1, 34, 2]; no text → 1.35; an unparsable text falls back to 1.35. */
export function parseVersion(text: string | undefined): Version {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec((text ?? DEFAULT_K8S_VERSION).trim());
  if (!m) return [1, 35, 0];
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

/** Negative, zero or positive as a is older than, equal to or newer than b. */
export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function versionAtLeast(v: string, min: string): boolean {
  return compareVersions(parseVersion(v), parseVersion(min)) >= 0;
}
