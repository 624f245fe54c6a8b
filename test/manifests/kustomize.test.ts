/**
 * What `kubectl kustomize manifests` (HTTP mode) and `kubectl kustomize manifests/overlays/socket-mode`
 * (and overlays/ha) render, checked object by object: least-privilege RBAC (get/list/watch on exactly the resources
 * LiveSource reads, never secrets or configmaps, no wildcards), a locked-down pod, probes, resources,
 * no Secret, and the access-policy ConfigMap the bot can actually load.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { RESOURCES } from '../../src/cluster/api-resources.ts';
import { parsePolicy } from '../../src/answer/policy.ts';
import { LEASE_BUCKETS, LEASE_PREFIX } from '../../src/slack/lease-dedupe.ts';
import { INCIDENTS_CONFIGMAP, LEADER_LEASE } from '../../src/slack/alerts/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NAMESPACE = 'quota-doctor';
const READ_VERBS = new Set(['get', 'list', 'watch']);
const FORBIDDEN_RESOURCES = ['secrets', 'configmaps'];
/** The one write the bot has: get + update of exactly its dedupe Leases (src/slack/lease-dedupe.ts), in its own namespace. */
const DEDUPE_LEASES = Array.from({ length: LEASE_BUCKETS }, (_, i) => `${LEASE_PREFIX}${i}`);
const DEDUPE_RULE = {
  apiGroups: ['coordination.k8s.io'],
  resources: ['leases'],
  resourceNames: DEDUPE_LEASES,
  verbs: ['get', 'update'],
};
/** Proactive mode's two writes: its leader Lease and its incidents ConfigMap, by name (src/slack/alerts/). */
const ALERT_RULES = [
  {
    apiGroups: ['coordination.k8s.io'],
    resources: ['leases'],
    resourceNames: [LEADER_LEASE],
    verbs: ['get', 'update'],
  },
  { apiGroups: [''], resources: ['configmaps'], resourceNames: [INCIDENTS_CONFIGMAP], verbs: ['get', 'update'] },
];

const KUBECTL = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
if (!KUBECTL) console.warn('test/manifests: kubectl is not on PATH; the kustomize render checks are skipped');

// ---- the parts of the rendered objects these checks read (zod: unknown until parsed) ----------------

const meta = z.looseObject({ name: z.string(), namespace: z.string().optional() });
const object = z.looseObject({ apiVersion: z.string(), kind: z.string(), metadata: meta });
type KObject = z.infer<typeof object>;

const rule = z.strictObject({
  apiGroups: z.array(z.string()).optional(),
  resources: z.array(z.string()).optional(),
  verbs: z.array(z.string()),
  resourceNames: z.array(z.string()).optional(),
  nonResourceURLs: z.array(z.string()).optional(),
});
const role = object.extend({ rules: z.array(rule), aggregationRule: z.unknown().optional() });
const binding = object.extend({
  roleRef: z.looseObject({ kind: z.string(), name: z.string() }),
  subjects: z.array(z.looseObject({ kind: z.string(), name: z.string(), namespace: z.string().optional() })),
});

const seccomp = z.looseObject({ type: z.string() }).optional();
const probe = z.looseObject({ httpGet: z.looseObject({ path: z.string(), port: z.union([z.string(), z.number()]) }) });
const envVar = z.looseObject({
  name: z.string(),
  value: z.string().optional(),
  valueFrom: z
    .looseObject({
      secretKeyRef: z.looseObject({ name: z.string(), key: z.string(), optional: z.boolean().optional() }).optional(),
    })
    .optional(),
});
const container = z.looseObject({
  name: z.string(),
  image: z.string(),
  ports: z.array(z.looseObject({ name: z.string().optional(), containerPort: z.number() })).default([]),
  env: z.array(envVar).default([]),
  envFrom: z.array(z.unknown()).optional(),
  livenessProbe: probe.optional(),
  readinessProbe: probe.optional(),
  resources: z
    .looseObject({
      requests: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
      limits: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    })
    .optional(),
  securityContext: z
    .looseObject({
      runAsNonRoot: z.boolean().optional(),
      runAsUser: z.number().optional(),
      allowPrivilegeEscalation: z.boolean().optional(),
      readOnlyRootFilesystem: z.boolean().optional(),
      privileged: z.boolean().optional(),
      capabilities: z
        .looseObject({ drop: z.array(z.string()).optional(), add: z.array(z.string()).optional() })
        .optional(),
      seccompProfile: seccomp,
    })
    .optional(),
  volumeMounts: z
    .array(z.looseObject({ name: z.string(), mountPath: z.string(), readOnly: z.boolean().optional() }))
    .default([]),
});
const deployment = object.extend({
  spec: z.looseObject({
    replicas: z.number().optional(),
    strategy: z.unknown().optional(),
    template: z.looseObject({
      metadata: z.looseObject({ labels: z.record(z.string(), z.string()) }),
      spec: z.looseObject({
        serviceAccountName: z.string().optional(),
        automountServiceAccountToken: z.boolean().optional(),
        hostNetwork: z.boolean().optional(),
        hostPID: z.boolean().optional(),
        hostIPC: z.boolean().optional(),
        securityContext: z
          .looseObject({
            runAsNonRoot: z.boolean().optional(),
            runAsUser: z.number().optional(),
            seccompProfile: seccomp,
          })
          .optional(),
        containers: z.array(container).min(1),
        volumes: z
          .array(
            z.looseObject({
              name: z.string(),
              emptyDir: z.looseObject({}).optional(),
              configMap: z.looseObject({ name: z.string() }).optional(),
            }),
          )
          .default([]),
      }),
    }),
  }),
});
const service = object.extend({
  spec: z.looseObject({
    type: z.string().optional(),
    selector: z.record(z.string(), z.string()),
    ports: z.array(z.looseObject({ port: z.number(), targetPort: z.union([z.string(), z.number()]) })),
  }),
});
const configMap = object.extend({ data: z.record(z.string(), z.string()).optional() });

// ---- rendering ----------------------------------------------------------------------------------------

function render(dir: string): KObject[] {
  const out = execFileSync('kubectl', ['kustomize', dir], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseAllDocuments(out).map((doc, i) => {
    expect(doc.errors, `document ${i} of ${dir}`).toEqual([]);
    return object.parse(doc.toJS());
  });
}

function only<T extends z.ZodType>(objects: KObject[], kind: string, schema: T): z.infer<T>[] {
  return objects.filter((o) => o.kind === kind).map((o) => schema.parse(o));
}

function theDeployment(objects: KObject[]) {
  const ds = only(objects, 'Deployment', deployment);
  expect(ds.map((d) => d.metadata.name)).toEqual(['quota-doctor']);
  return ds[0]!;
}

/** A probe's port, named or numbered, as the container port number it reaches. */
function probePort(c: z.infer<typeof container>, port: string | number): number | undefined {
  return typeof port === 'number' ? port : c.ports.find((p) => p.name === port)?.containerPort;
}

// ---- checks that hold for every render ----------------------------------------------------------------

const RENDERS = [
  { dir: 'manifests', mode: 'HTTP mode', replicas: 1 },
  { dir: 'manifests/overlays/socket-mode', mode: 'Socket Mode', replicas: 1 },
  { dir: 'manifests/overlays/ha', mode: 'HTTP mode, two replicas', replicas: 2 },
] as const;

describe.skipIf(!KUBECTL).each(RENDERS)('kubectl kustomize $dir ($mode)', ({ dir, replicas }) => {
  let objects: KObject[] = [];
  beforeAll(() => {
    objects = render(dir);
  });

  it('renders only the app: no Secret, nothing from manifests/demo or slack-app.yaml', () => {
    const kinds = new Set(objects.map((o) => o.kind));
    expect(kinds.has('Secret')).toBe(false);
    for (const k of kinds) {
      expect([
        'Namespace',
        'ServiceAccount',
        'ClusterRole',
        'ClusterRoleBinding',
        'Role',
        'RoleBinding',
        'Lease',
        'ConfigMap',
        'Deployment',
        'Service',
        'NetworkPolicy',
        'PodDisruptionBudget',
      ]).toContain(k);
    }
    // Namespaced objects all land in the bot's namespace (demo state uses team namespaces).
    for (const o of objects) {
      if (!['Namespace', 'ClusterRole', 'ClusterRoleBinding'].includes(o.kind))
        expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBe(NAMESPACE);
    }
    expect(only(objects, 'Namespace', object).map((n) => n.metadata.name)).toEqual([NAMESPACE]);
  });

  it('ships exactly the dedupe and leader Leases and the incidents ConfigMap; the namespaced Roles write exactly those (get + update by name)', () => {
    const leases = objects.filter((o) => o.kind === 'Lease');
    expect(leases.map((l) => `${l.apiVersion} ${l.metadata.namespace}/${l.metadata.name}`).sort()).toEqual(
      [...DEDUPE_LEASES, LEADER_LEASE].map((n) => `coordination.k8s.io/v1 ${NAMESPACE}/${n}`).sort(),
    );
    const incidents = objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.name === INCIDENTS_CONFIGMAP);
    expect(incidents).toHaveLength(1);
    // No data: `kubectl apply` must never reset what the bot wrote there.
    expect('data' in incidents[0]!).toBe(false);
    const roles = only(objects, 'Role', role);
    expect(roles.map((r) => `${r.metadata.namespace}/${r.metadata.name}`).sort()).toEqual([
      `${NAMESPACE}/quota-doctor-alerts`,
      `${NAMESPACE}/quota-doctor-dedupe`,
    ]);
    expect(roles.find((r) => r.metadata.name === 'quota-doctor-dedupe')!.rules).toEqual([DEDUPE_RULE]);
    expect(roles.find((r) => r.metadata.name === 'quota-doctor-alerts')!.rules).toEqual(ALERT_RULES);
  });

  it('grants read-only rights (but the dedupe Leases): verbs within get/list/watch, no wildcards, never secrets or configmaps', () => {
    const roles = [...only(objects, 'ClusterRole', role), ...only(objects, 'Role', role)];
    expect(roles.length).toBeGreaterThan(0);
    for (const r of roles) {
      expect(r.aggregationRule, `${r.metadata.name} aggregates other roles`).toBeUndefined();
      for (const ru of r.rules) {
        const where = `${r.metadata.name}: ${JSON.stringify(ru)}`;
        if (r.kind === 'Role' && isDeepStrictEqual(ru, DEDUPE_RULE)) continue;
        if (r.kind === 'Role' && ALERT_RULES.some((a) => isDeepStrictEqual(ru, a))) continue;
        expect(ru.nonResourceURLs, where).toBeUndefined();
        for (const field of [ru.apiGroups ?? [], ru.resources ?? [], ru.verbs, ru.resourceNames ?? []]) {
          for (const v of field) expect(v, where).not.toContain('*');
        }
        for (const verb of ru.verbs) expect(READ_VERBS.has(verb), `${where}: verb ${verb}`).toBe(true);
        for (const res of ru.resources ?? []) {
          // `secrets` and any subresource of it (`secrets/…`).
          expect(FORBIDDEN_RESOURCES.includes(res.split('/')[0]!), `${where}: ${res}`).toBe(false);
        }
      }
    }
  });

  it('binds the ClusterRole to the Deployment’s ServiceAccount, and nothing else', () => {
    const d = theDeployment(objects);
    const sa = d.spec.template.spec.serviceAccountName;
    expect(sa).toBeDefined();
    expect(only(objects, 'ServiceAccount', object).map((s) => `${s.metadata.namespace}/${s.metadata.name}`)).toEqual([
      `${NAMESPACE}/${sa}`,
    ]);
    const roleNames = new Set(only(objects, 'ClusterRole', role).map((r) => `ClusterRole/${r.metadata.name}`));
    for (const r of only(objects, 'Role', role)) roleNames.add(`Role/${r.metadata.name}`);
    const bindings = [...only(objects, 'ClusterRoleBinding', binding), ...only(objects, 'RoleBinding', binding)];
    expect(bindings.length).toBeGreaterThan(0);
    // The ClusterRole (read) cluster-wide; the dedupe Role only through a RoleBinding in the bot's namespace.
    expect(bindings.map((b) => `${b.kind} → ${b.roleRef.kind}/${b.roleRef.name}`).sort()).toEqual([
      'ClusterRoleBinding → ClusterRole/quota-doctor-read',
      'RoleBinding → Role/quota-doctor-alerts',
      'RoleBinding → Role/quota-doctor-dedupe',
    ]);
    for (const b of bindings) {
      // Only roles shipped here: never a built-in such as view, edit or cluster-admin.
      expect(roleNames.has(`${b.roleRef.kind}/${b.roleRef.name}`), `${b.metadata.name} → ${b.roleRef.name}`).toBe(true);
      if (b.kind === 'RoleBinding') expect(b.metadata.namespace).toBe(NAMESPACE);
      expect(b.subjects).toEqual([expect.objectContaining({ kind: 'ServiceAccount', name: sa, namespace: NAMESPACE })]);
    }
  });

  it('covers exactly the resources LiveSource reads (src/cluster/api-resources.ts)', () => {
    const granted = new Set<string>();
    for (const r of only(objects, 'ClusterRole', role)) {
      for (const ru of r.rules) {
        expect([...ru.verbs].sort(), JSON.stringify(ru)).toEqual(['get', 'list', 'watch']);
        for (const g of ru.apiGroups ?? []) for (const res of ru.resources ?? []) granted.add(`${g}/${res}`);
      }
    }
    const read = new Set(Object.values(RESOURCES).map((d) => `${d.group}/${d.resource}`));
    expect([...granted].sort()).toEqual([...read].sort());
  });

  it('runs the pod non-root, read-only, without capabilities, under RuntimeDefault seccomp', () => {
    const spec = theDeployment(objects).spec.template.spec;
    expect(spec.hostNetwork ?? false).toBe(false);
    expect(spec.hostPID ?? false).toBe(false);
    expect(spec.hostIPC ?? false).toBe(false);
    expect(spec.automountServiceAccountToken).toBe(true);
    expect(spec.securityContext?.runAsNonRoot).toBe(true);
    expect(spec.securityContext?.runAsUser).toBe(65532);
    for (const c of spec.containers) {
      const sc = c.securityContext;
      expect(sc?.runAsNonRoot ?? spec.securityContext?.runAsNonRoot).toBe(true);
      expect(sc?.runAsUser ?? spec.securityContext?.runAsUser).toBe(65532);
      expect(sc?.readOnlyRootFilesystem).toBe(true);
      expect(sc?.allowPrivilegeEscalation).toBe(false);
      expect(sc?.privileged ?? false).toBe(false);
      expect(sc?.capabilities?.drop).toContain('ALL');
      expect(sc?.capabilities?.add ?? []).toEqual([]);
      expect((sc?.seccompProfile ?? spec.securityContext?.seccompProfile)?.type).toBe('RuntimeDefault');
      // The only writable place is an emptyDir at /tmp.
      const tmp = c.volumeMounts.find((m) => m.mountPath === '/tmp');
      expect(tmp).toBeDefined();
      expect(spec.volumes.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
    }
  });

  it('probes /healthz (liveness) and /readyz (readiness) on port 3000, and sets requests and a memory limit', () => {
    const d = theDeployment(objects);
    expect(d.spec.replicas).toBe(replicas);
    const [c] = d.spec.template.spec.containers;
    const live = c!.livenessProbe?.httpGet;
    const ready = c!.readinessProbe?.httpGet;
    expect(live?.path).toBe('/healthz');
    expect(ready?.path).toBe('/readyz');
    expect(probePort(c!, live!.port)).toBe(3000);
    expect(probePort(c!, ready!.port)).toBe(3000);
    expect(c!.env.find((e) => e.name === 'PORT')?.value).toBe('3000');
    // The dedupe Leases are looked up in the pod's own namespace.
    expect(c!.env.find((e) => e.name === 'QUOTA_DOCTOR_DEDUPE_NAMESPACE')?.valueFrom).toEqual({
      fieldRef: { fieldPath: 'metadata.namespace' },
    });
    // An update never runs two replicas (the old pod stops first).
    expect(d.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } });
    expect(Object.keys(c!.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(c!.resources?.limits?.memory).toBeDefined();
  });

  it('runs the released image and takes its tokens from the Secret quota-doctor-slack by key', () => {
    const [c] = theDeployment(objects).spec.template.spec.containers;
    const { version } = z
      .looseObject({ version: z.string() })
      .parse(JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')));
    expect(c!.image).toBe(`ghcr.io/quota-doctor/quota-doctor:${version}`);
    expect(c!.envFrom).toBeUndefined();
    for (const name of ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET']) {
      const ref = c!.env.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
      expect(ref, name).toMatchObject({ name: 'quota-doctor-slack', key: name });
      expect(c!.env.find((e) => e.name === name)?.value, `${name} must not be inline`).toBeUndefined();
    }
    expect(c!.env.find((e) => e.name === 'SLACK_BOT_TOKEN')?.valueFrom?.secretKeyRef?.optional ?? false).toBe(false);
  });

  it('mounts an access policy the bot can load, read-only, at QUOTA_DOCTOR_CONFIG', () => {
    const spec = theDeployment(objects).spec.template.spec;
    const [c] = spec.containers;
    const path = c!.env.find((e) => e.name === 'QUOTA_DOCTOR_CONFIG')?.value;
    expect(path).toBe('/etc/quota-doctor/policy.yaml');
    const mount = c!.volumeMounts.find((m) => path!.startsWith(`${m.mountPath}/`));
    expect(mount?.readOnly).toBe(true);
    const cmName = spec.volumes.find((v) => v.name === mount!.name)?.configMap?.name;
    expect(cmName).toMatch(/^quota-doctor-policy(-[a-z0-9]+)?$/);
    const cm = only(objects, 'ConfigMap', configMap).find((m) => m.metadata.name === cmName);
    const text = cm?.data?.[path!.slice(mount!.mountPath.length + 1)];
    expect(text).toBeDefined();
    const policy = parsePolicy(text!, 'manifests/base/policy.yaml');
    expect(policy.configured).toBe(true);
    expect(policy.policyFor('C0123ABCD').defaultNamespace).toBe('team-a');
    // A channel not in the file sees nothing (fails closed).
    expect(policy.policyFor('C0NOTLISTED').allowedNamespaces).toEqual([]);
  });
});

describe.skipIf(!KUBECTL)('the two modes', () => {
  it('HTTP mode: a ClusterIP Service, port 80 → the pod’s 3000, and no app token', () => {
    const objects = render('manifests');
    const svc = only(objects, 'Service', service);
    expect(svc).toHaveLength(1);
    const d = theDeployment(objects);
    expect(svc[0]!.spec.type ?? 'ClusterIP').toBe('ClusterIP');
    expect(d.spec.template.metadata.labels).toMatchObject(svc[0]!.spec.selector);
    expect(svc[0]!.spec.ports).toHaveLength(1);
    const [c] = d.spec.template.spec.containers;
    expect(svc[0]!.spec.ports[0]!.port).toBe(80);
    expect(probePort(c!, svc[0]!.spec.ports[0]!.targetPort)).toBe(3000);
    expect(c!.env.map((e) => e.name)).not.toContain('SLACK_APP_TOKEN');
  });

  it('Socket Mode: no Service, and SLACK_APP_TOKEN from the Secret', () => {
    const objects = render('manifests/overlays/socket-mode');
    expect(objects.filter((o) => o.kind === 'Service')).toEqual([]);
    const [c] = theDeployment(objects).spec.template.spec.containers;
    expect(c!.env.find((e) => e.name === 'SLACK_APP_TOKEN')?.valueFrom?.secretKeyRef).toMatchObject({
      name: 'quota-doctor-slack',
      key: 'SLACK_APP_TOKEN',
    });
  });
});

/** A file's ClusterRole rules as sorted `group/resource:verb` triples: grouping and order do not matter. */
function grantsIn(file: string): string[] {
  const out: string[] = [];
  for (const doc of parseAllDocuments(readFileSync(`${ROOT}/${file}`, 'utf8'))) {
    expect(doc.errors, file).toEqual([]);
    const o = object.parse(doc.toJS());
    if (o.kind !== 'ClusterRole') continue;
    for (const ru of role.parse(o).rules) {
      for (const g of ru.apiGroups ?? [])
        for (const r of ru.resources ?? []) for (const v of ru.verbs) out.push(`${g}/${r}:${v}`);
    }
  }
  return [...new Set(out)].sort();
}

// kustomize loads nothing above a kustomization's folder, so base/ carries a copy of manifests/rbac.yaml's rules.
describe('manifests/base/rbac.yaml', () => {
  it.skipIf(!existsSync(`${ROOT}/manifests/rbac.yaml`))('grants exactly what manifests/rbac.yaml grants', () => {
    const base = grantsIn('manifests/base/rbac.yaml');
    expect(base.length).toBeGreaterThan(0);
    expect(base).toEqual(grantsIn('manifests/rbac.yaml'));
  });
});

if (!KUBECTL)
  describe('kustomize renders', () => {
    it.skip('skipped: kubectl is not on PATH (install kubectl ≥ 1.27 to check manifests/ and overlays/socket-mode)', () => {});
  });
