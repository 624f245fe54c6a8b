/**
 * The NetworkPolicy, the PodDisruptionBudget (overlays/ha) and manifests/monitoring (PodMonitor,
 * PrometheusRule), as `kubectl kustomize` renders them: selectors that match the Deployment's pods,
 * the port the pod listens on, and alerts over metrics the app really exports (names read from the
 * metrics registry of src/slack/metrics.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { createMetrics } from '../../src/slack/metrics.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NAMESPACE = 'quota-doctor';
const KUBECTL = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

const labels = z.record(z.string(), z.string());
const meta = z.looseObject({ name: z.string(), namespace: z.string().optional(), labels: labels.optional() });
const object = z.looseObject({ apiVersion: z.string(), kind: z.string(), metadata: meta });
type KObject = z.infer<typeof object>;

const deployment = object.extend({
  spec: z.looseObject({
    replicas: z.number(),
    selector: z.looseObject({ matchLabels: labels }),
    template: z.looseObject({
      metadata: z.looseObject({ labels }),
      spec: z.looseObject({
        containers: z.array(
          z.looseObject({
            name: z.string(),
            ports: z.array(
              z.looseObject({ name: z.string(), containerPort: z.number(), protocol: z.string().optional() }),
            ),
          }),
        ),
      }),
    }),
  }),
});
const npPort = z.strictObject({ protocol: z.string(), port: z.union([z.number(), z.string()]) });
const peer = z.strictObject({
  ipBlock: z.looseObject({ cidr: z.string() }).optional(),
  namespaceSelector: z.looseObject({ matchLabels: labels.optional() }).optional(),
  podSelector: z.looseObject({ matchLabels: labels.optional() }).optional(),
});
const networkPolicy = object.extend({
  spec: z.strictObject({
    podSelector: z.strictObject({ matchLabels: labels }),
    policyTypes: z.array(z.enum(['Ingress', 'Egress'])),
    ingress: z.array(z.strictObject({ from: z.array(peer).optional(), ports: z.array(npPort) })).optional(),
    egress: z.array(z.strictObject({ to: z.array(peer).optional(), ports: z.array(npPort) })).optional(),
  }),
});
const pdb = object.extend({
  spec: z.strictObject({
    minAvailable: z.number(),
    selector: z.strictObject({ matchLabels: labels }),
    unhealthyPodEvictionPolicy: z.string().optional(),
  }),
});
const podMonitor = object.extend({
  spec: z.strictObject({
    selector: z.strictObject({ matchLabels: labels }),
    podMetricsEndpoints: z.array(
      z.strictObject({ port: z.string(), path: z.string(), interval: z.string(), scrapeTimeout: z.string() }),
    ),
  }),
});
const alertRule = z.strictObject({
  alert: z.string(),
  expr: z.string(),
  for: z.string().optional(),
  labels: z.strictObject({ severity: z.enum(['critical', 'warning', 'info']) }),
  annotations: z.strictObject({ summary: z.string(), description: z.string() }),
});
const prometheusRule = object.extend({
  spec: z.strictObject({ groups: z.array(z.strictObject({ name: z.string(), rules: z.array(alertRule) })) }),
});

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

/** `matchLabels` selects the pods of `d` (every pair is on the pod template). */
function selects(matchLabels: Record<string, string>, d: z.infer<typeof deployment>): boolean {
  const pod = d.spec.template.metadata.labels;
  return Object.keys(matchLabels).length > 0 && Object.entries(matchLabels).every(([k, v]) => pod[k] === v);
}

const portsOf = (rules: Array<{ ports: Array<z.infer<typeof npPort>> }>) =>
  rules.flatMap((r) => r.ports.map((p) => `${p.protocol}/${p.port}`)).sort();

// ---- metric names in PromQL ----------------------------------------------------------------------------

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/** The metric names a PromQL expression selects: identifiers not called as functions, outside label matchers, ranges, strings and grouping clauses. */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/(?<![A-Za-z0-9_:.])[A-Za-z_:][A-Za-z0-9_:]*(?![A-Za-z0-9_:])(\s*\()?/g)) {
    const [all, call] = m;
    const name = all.replace(/\s*\($/, '');
    if (call || PROMQL_WORDS.has(name.toLowerCase())) continue;
    names.add(name);
  }
  return [...names].sort();
}

/** Names Prometheus stores for the app's registry: histograms as their _bucket, _sum and _count series. */
async function exportedNames(): Promise<Set<string>> {
  const m = createMetrics({ defaultMetrics: true, build: { version: 'test' } });
  const out = new Set<string>();
  for (const metric of await m.registry.getMetricsAsJSON()) {
    out.add(metric.name);
    if (String(metric.type) === 'histogram') for (const s of ['_bucket', '_sum', '_count']) out.add(metric.name + s);
  }
  return out;
}

/** Not ours, and said so: the restart count comes from kube-state-metrics. */
const KUBE_STATE_METRICS = new Set(['kube_pod_container_status_restarts_total']);

describe('metricNamesIn', () => {
  it.each([
    ['quota_doctor_cache_watch_up == 0', ['quota_doctor_cache_watch_up']],
    [
      'time() - quota_doctor_cache_last_sync_timestamp_seconds > 900',
      ['quota_doctor_cache_last_sync_timestamp_seconds'],
    ],
    [
      'sum by (namespace, pod) (rate(quota_doctor_errors_total{reason="slack_api"}[10m])) > 0.01',
      ['quota_doctor_errors_total'],
    ],
    ['histogram_quantile(0.95, sum by (le) (rate(x_bucket{a="b{c}"}[5m]))) > 10', ['x_bucket']],
    ['a / on(pod) group_left b unless c offset 5m', ['a', 'b', 'c']],
    [
      'increase(kube_pod_container_status_restarts_total{namespace="q", container="q"}[30m]) > 2',
      ['kube_pod_container_status_restarts_total'],
    ],
  ])('%s → %j', (expr, names) => {
    expect(metricNamesIn(expr)).toEqual(names);
  });
});

describe.skipIf(!KUBECTL)('NetworkPolicy', () => {
  let http: KObject[] = [];
  let socket: KObject[] = [];
  beforeAll(() => {
    http = render('manifests');
    socket = render('manifests/overlays/socket-mode');
  });

  it.each(['http', 'socket'] as const)(
    '%s mode: selects the bot’s pods; egress only DNS (UDP+TCP 53) and TCP 443 / 6443',
    (mode) => {
      const objects = mode === 'http' ? http : socket;
      const [d] = only(objects, 'Deployment', deployment);
      const nps = only(objects, 'NetworkPolicy', networkPolicy);
      expect(nps.map((n) => `${n.metadata.namespace}/${n.metadata.name}`)).toEqual([`${NAMESPACE}/quota-doctor`]);
      const np = nps[0]!;
      expect(selects(np.spec.podSelector.matchLabels, d!)).toBe(true);
      expect(np.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
      expect(portsOf(np.spec.egress ?? [])).toEqual(['TCP/443', 'TCP/53', 'TCP/6443', 'UDP/53']);
    },
  );

  it('HTTP mode: ingress to the pod’s http port (3000) only', () => {
    const [d] = only(http, 'Deployment', deployment);
    const [np] = only(http, 'NetworkPolicy', networkPolicy);
    const httpPort = d!.spec.template.spec.containers[0]!.ports.find((p) => p.name === 'http');
    expect(httpPort?.containerPort).toBe(3000);
    expect(portsOf(np!.spec.ingress ?? [])).toEqual(['TCP/3000']);
  });

  it('Socket Mode: no ingress rule, with Ingress in policyTypes (= all ingress denied)', () => {
    const [np] = only(socket, 'NetworkPolicy', networkPolicy);
    expect(np!.spec.ingress ?? []).toEqual([]);
    expect(np!.spec.policyTypes).toContain('Ingress');
  });
});

describe.skipIf(!KUBECTL)('PodDisruptionBudget', () => {
  it('base and Socket Mode: one replica, no PDB (minAvailable 1 over one replica would block every drain)', () => {
    for (const dir of ['manifests', 'manifests/overlays/socket-mode']) {
      const objects = render(dir);
      expect(only(objects, 'Deployment', deployment)[0]!.spec.replicas, dir).toBe(1);
      expect(
        objects.filter((o) => o.kind === 'PodDisruptionBudget'),
        dir,
      ).toEqual([]);
    }
  });

  it('overlays/ha: two replicas and minAvailable 1 over the same pods, in the bot’s namespace', () => {
    const objects = render('manifests/overlays/ha');
    const [d] = only(objects, 'Deployment', deployment);
    const pdbs = only(objects, 'PodDisruptionBudget', pdb);
    expect(d!.spec.replicas).toBe(2);
    expect(pdbs.map((p) => `${p.apiVersion} ${p.metadata.namespace}/${p.metadata.name}`)).toEqual([
      `policy/v1 ${NAMESPACE}/quota-doctor`,
    ]);
    expect(pdbs[0]!.spec.minAvailable).toBe(1);
    expect(pdbs[0]!.spec.minAvailable).toBeLessThan(d!.spec.replicas);
    expect(selects(pdbs[0]!.spec.selector.matchLabels, d!)).toBe(true);
    // and the Deployment's own selector is the PDB's: it counts exactly these pods
    expect(pdbs[0]!.spec.selector.matchLabels).toEqual(d!.spec.selector.matchLabels);
  });
});

describe.skipIf(!KUBECTL)('manifests/monitoring', () => {
  let objects: KObject[] = [];
  let d: z.infer<typeof deployment>;
  beforeAll(() => {
    objects = render('manifests/monitoring');
    [d] = only(render('manifests/overlays/socket-mode'), 'Deployment', deployment) as [z.infer<typeof deployment>];
  });

  it('renders a PodMonitor, a PrometheusRule and the metrics NetworkPolicy, all in the bot’s namespace', () => {
    expect(objects.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.namespace}/${o.metadata.name}`).sort()).toEqual([
      `monitoring.coreos.com/v1 PodMonitor ${NAMESPACE}/quota-doctor`,
      `monitoring.coreos.com/v1 PrometheusRule ${NAMESPACE}/quota-doctor`,
      `networking.k8s.io/v1 NetworkPolicy ${NAMESPACE}/quota-doctor-metrics`,
    ]);
  });

  it('the PodMonitor selects the Deployment’s pods and scrapes /metrics on a port the container names', () => {
    const [pm] = only(objects, 'PodMonitor', podMonitor);
    expect(selects(pm!.spec.selector.matchLabels, d)).toBe(true);
    const names = d.spec.template.spec.containers.flatMap((c) => c.ports.map((p) => p.name));
    expect(pm!.spec.podMetricsEndpoints.map((e) => [e.port, e.path])).toEqual([['http', '/metrics']]);
    expect(names).toContain(pm!.spec.podMetricsEndpoints[0]!.port);
  });

  it('the metrics NetworkPolicy opens exactly the scraped port, from a namespace', () => {
    const [np] = only(objects, 'NetworkPolicy', networkPolicy);
    expect(selects(np!.spec.podSelector.matchLabels, d)).toBe(true);
    const http = d.spec.template.spec.containers[0]!.ports.find((p) => p.name === 'http')!;
    expect(portsOf(np!.spec.ingress ?? [])).toEqual([`TCP/${http.containerPort}`]);
    expect(np!.spec.ingress![0]!.from?.map((f) => Object.keys(f))).toEqual([['namespaceSelector']]);
    expect(np!.spec.egress).toBeUndefined();
  });

  it('alerts: cache watch down 10m, cache stale 15m, Slack API errors, restarts, slow answers', () => {
    const [pr] = only(objects, 'PrometheusRule', prometheusRule);
    const rules = pr!.spec.groups.flatMap((g) => g.rules);
    expect(rules.map((r) => [r.alert, r.expr, r.for ?? ''])).toEqual([
      ['QuotaDoctorCacheWatchDown', 'quota_doctor_cache_watch_up == 0', '10m'],
      ['QuotaDoctorCacheStale', 'time() - quota_doctor_cache_last_sync_timestamp_seconds > 900', '5m'],
      [
        'QuotaDoctorSlackApiErrors',
        'sum by (namespace, pod) (rate(quota_doctor_errors_total{reason="slack_api"}[10m])) > 0.01',
        '15m',
      ],
      [
        'QuotaDoctorRestarting',
        'increase(kube_pod_container_status_restarts_total{namespace="quota-doctor", container="quota-doctor"}[30m]) > 2',
        '',
      ],
      [
        'QuotaDoctorSlowAnswers',
        'histogram_quantile(0.95, sum by (namespace, le) (rate(quota_doctor_answer_duration_seconds_bucket{outcome="answer"}[15m]))) > 10',
        '15m',
      ],
    ]);
  });

  it('every metric an alert reads is one the app exports (or kube-state-metrics’ restart count)', async () => {
    const exported = await exportedNames();
    const [pr] = only(objects, 'PrometheusRule', prometheusRule);
    const used = pr!.spec.groups.flatMap((g) => g.rules.flatMap((r) => metricNamesIn(r.expr)));
    expect(used.length).toBe(5);
    for (const name of used) expect(exported.has(name) || KUBE_STATE_METRICS.has(name), name).toBe(true);
    // the check has teeth: a misspelt or prefixed name is not exported
    for (const wrong of [
      'quota_doctor_cache_watchup',
      'quota_doctor_process_cpu_seconds_total',
      'quota_doctor_answer_duration_seconds_total',
    ])
      expect(exported.has(wrong), wrong).toBe(false);
  });
});
