/**
 * Kubernetes versions as "major.minor[.patch]": the engine speaks v1.35 by default and can reproduce
 * older wordings (the cases and the parsers need them).
 */
export function parseVersion(v: string): [number, number, number] {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(v.trim());
  if (!m) return [1, 35, 0];
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}

export function versionAtLeast(v: string, min: string): boolean {
  const a = parseVersion(v);
  const b = parseVersion(min);
  for (let i = 0; i < 3; i++) if (a[i]! !== b[i]!) return a[i]! > b[i]!;
  return true;
}

export const DEFAULT_K8S_VERSION = '1.35';
