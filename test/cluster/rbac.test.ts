/** manifests/rbac.yaml grants get/list/watch on exactly what LiveSource reads, and nothing else. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ALL_RESOURCES, RESOURCES } from '../../src/cluster/api-resources.ts';
import { LEASE_BUCKETS, LEASE_PREFIX } from '../../src/slack/lease-dedupe.ts';

const docs = parseAllDocuments(
  readFileSync(join(import.meta.dirname, '..', '..', 'manifests', 'rbac.yaml'), 'utf8'),
).map(
  (d) =>
    d.toJS() as {
      kind: string;
      metadata: { name: string; namespace?: string };
      rules?: Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>;
      roleRef?: { name: string };
      subjects?: Array<{ kind: string; name: string; namespace: string }>;
    },
);

describe('manifests/rbac.yaml', () => {
  const role = docs.find((d) => d.kind === 'ClusterRole')!;

  it('grants exactly the resources src/cluster/api-resources.ts reads, get/list/watch only', () => {
    const granted = role
      .rules!.flatMap((r) => r.apiGroups.flatMap((g) => r.resources.map((res) => `${g}/${res}`)))
      .sort();
    const read = ALL_RESOURCES.map((r) => `${RESOURCES[r].group}/${r}`).sort();
    expect(granted).toEqual(read);
    for (const r of role.rules!) expect(r.verbs).toEqual(['get', 'list', 'watch']);
  });

  it('has no wildcard, no secrets, no configmaps', () => {
    const text = JSON.stringify(role.rules);
    for (const bad of ['*', 'secrets', 'configmaps']) expect(text).not.toContain(bad);
  });

  it('binds the role to ServiceAccount quota-doctor in namespace quota-doctor', () => {
    expect(docs.find((d) => d.kind === 'ServiceAccount')?.metadata).toEqual({
      name: 'quota-doctor',
      namespace: 'quota-doctor',
    });
    const binding = docs.find((d) => d.kind === 'ClusterRoleBinding')!;
    expect(binding.roleRef?.name).toBe('quota-doctor-read');
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'quota-doctor', namespace: 'quota-doctor' }]);
  });
});

describe('manifests/base/dedupe.yaml (the one write: the cross-replica dedupe Leases)', () => {
  const dedupe = parseAllDocuments(
    readFileSync(join(import.meta.dirname, '..', '..', 'manifests', 'base', 'dedupe.yaml'), 'utf8'),
  ).map(
    (d) =>
      d.toJS() as {
        apiVersion: string;
        kind: string;
        metadata: { name: string; namespace?: string };
        rules?: unknown[];
        roleRef?: unknown;
        subjects?: unknown[];
      },
  );
  const names = Array.from({ length: LEASE_BUCKETS }, (_, i) => `${LEASE_PREFIX}${i}`);

  it(`ships the ${LEASE_BUCKETS} Leases the bot hashes event ids into, and nothing else but their Role and binding`, () => {
    expect(dedupe.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual([
      ...names.map((n) => `Lease/${n}`),
      'Role/quota-doctor-dedupe',
      'RoleBinding/quota-doctor-dedupe',
    ]);
    for (const l of dedupe.filter((d) => d.kind === 'Lease')) expect(l.apiVersion).toBe('coordination.k8s.io/v1');
  });

  it('grants get and update on exactly those Lease names: no create, list, watch, delete, no other object', () => {
    expect(dedupe.find((d) => d.kind === 'Role')?.rules).toEqual([
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: names, verbs: ['get', 'update'] },
    ]);
  });

  it('binds that Role (a namespaced RoleBinding, not a ClusterRoleBinding) to ServiceAccount quota-doctor', () => {
    const b = dedupe.find((d) => d.kind === 'RoleBinding')!;
    expect(b.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'quota-doctor-dedupe' });
    expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: 'quota-doctor', namespace: 'quota-doctor' }]);
  });
});
