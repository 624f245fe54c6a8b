/** manifests/rbac.yaml grants get/list/watch on exactly what LiveSource reads, and nothing else. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ALL_RESOURCES, RESOURCES } from '../../src/cluster/resources.ts';

const docs = parseAllDocuments(readFileSync(join(import.meta.dirname, '..', '..', 'manifests', 'rbac.yaml'), 'utf8')).map(
  (d) => d.toJS() as { kind: string; metadata: { name: string; namespace?: string }; rules?: Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>; roleRef?: { name: string }; subjects?: Array<{ kind: string; name: string; namespace: string }> },
);

describe('manifests/rbac.yaml', () => {
  const role = docs.find((d) => d.kind === 'ClusterRole')!;

  it('grants exactly the resources src/cluster/resources.ts reads, get/list/watch only', () => {
    const granted = role.rules!.flatMap((r) => r.apiGroups.flatMap((g) => r.resources.map((res) => `${g}/${res}`))).sort();
    const read = ALL_RESOURCES.map((r) => `${RESOURCES[r].group}/${r}`).sort();
    expect(granted).toEqual(read);
    for (const r of role.rules!) expect(r.verbs).toEqual(['get', 'list', 'watch']);
  });

  it('has no wildcard, no secrets, no configmaps', () => {
    const text = JSON.stringify(role.rules);
    for (const bad of ['*', 'secrets', 'configmaps']) expect(text).not.toContain(bad);
  });

  it('binds the role to ServiceAccount quota-doctor in namespace quota-doctor', () => {
    expect(docs.find((d) => d.kind === 'ServiceAccount')?.metadata).toEqual({ name: 'quota-doctor', namespace: 'quota-doctor' });
    const binding = docs.find((d) => d.kind === 'ClusterRoleBinding')!;
    expect(binding.roleRef?.name).toBe('quota-doctor-read');
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'quota-doctor', namespace: 'quota-doctor' }]);
  });
});
