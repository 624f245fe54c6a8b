/**
 * Messages that look like a resource-admission problem but are not Kubernetes ResourceQuota, LimitRange
 * or kube-scheduler decisions. They get layer `other` and a kind saying what they are, so that nobody
 * raises a namespace quota to fix a cloud-account limit (docs/messages-in-the-wild.md, trap 7):
 *
 * - cloud-provider quotas: GCE `Quota 'SSD_TOTAL_GB' exceeded. Limit: 500.0 in region …`, GKE autoscaler
 *   `GCE quota exceeded`, AWS `TooManyLoadBalancers: Exceeded quota of account …` and the EC2 `…LimitExceeded`
 *   codes, Azure `QuotaExceeded` / `exceeding approved … quota`;
 * - admission webhook denials, `admission webhook "<name>" denied the request: …` (Gatekeeper's
 *   `[rule] container <c> has no cpu limit` reads like LimitRange but is a policy);
 * - cluster-autoscaler `NotTriggerScaleUp`: `pod didn't trigger scale-up (it wouldn't fit if a new node is
 *   added): …` / `pod didn't trigger scale-up: …`;
 * - scheduler extenders' `ExceedsGPUQuota` (tkestack gpu-admission), a quota kept by the extender;
 * - volcano gangs: `… tasks in gang unschedulable: …` (volcano's node decisions, `0/N nodes are unavailable`,
 *   are scheduler findings: see scheduler.ts);
 * - the Priority admission plugin (plugin/pkg/admission/priority/admission.go, admitPod): `no PriorityClass
 *   with name X was found`, and `the integer value of priority (N) must not be provided in pod spec;
 *   priority admission controller computed M from the given PriorityClass name` (1.11+; 1.8–1.10 said
 *   `The integer value of priority must not be provided in pod spec. The system populates …`). Admission,
 *   but neither quota nor LimitRange: the fix is the pod's priorityClassName or the class itself.
 */

import type { CloudQuotaFacts, FindingBody, Match, WebhookDeniedFacts } from './finding.ts';
import { lowerAscii } from './normalize.ts';
import { findWithin, lineEnd, lineStart, scanMany, trimEndOf } from './scan.ts';
import { splitHistogram } from './scheduler.ts';

type OtherBody = Extract<FindingBody, { layer: 'other' }>;

function other(body: OtherBody, text: string, start: number, end: number): Match {
  return { ...body, message: trimEndOf(text.slice(start, end).trim(), ' '), start, end };
}

function sentence(text: string, k: number, max = 400): number {
  const le = Math.min(lineEnd(text, k), k + max);
  return le;
}

/** `pods "x" is forbidden: ` (or `Error creating: …`) right before `k`: where it starts, and the pod it names. */
function envelope(text: string, k: number): { start: number; pod?: string } {
  const ls = lineStart(text, k);
  const m = /(?:Error creating: )?pods? "([^"\n]{0,253})" is forbidden: $/.exec(text.slice(ls, k));
  if (!m) return { start: k };
  return m[1] ? { start: ls + m.index, pod: m[1] } : { start: ls + m.index };
}

/** A Priority admission finding, with the pod its envelope names. */
function priority(
  text: string,
  k: number,
  end: number,
  facts: Extract<OtherBody, { kind: 'priority' }>['facts'],
): Match {
  const env = envelope(text, k);
  const m = other({ layer: 'other', kind: 'priority', facts }, text, env.start, end);
  if (env.pod) m.object = { resource: 'pods', name: env.pod };
  return m;
}

/** All look-alike findings in normalized `text`. */
export function findLookalikes(text: string, lowerText?: string): Match[] {
  const lower = lowerText ?? lowerAscii(text);
  const out: Match[] = [];
  const table: [string, (k: number) => Match | undefined][] = [];
  const on = (needle: string, f: (k: number) => Match | undefined): void => {
    table.push([needle, f]);
  };

  // GCE: `Quota 'CPUS' exceeded.  Limit: 24.0 in region us-central1.` (compute API error text).
  on("quota '", (k) => {
    const m =
      /^quota '([A-Za-z0-9_-]{1,80})' exceeded\.?(?:\s{1,3}limit: ([0-9.]{1,20})(?: (?:in region|globally) ?([a-z0-9-]{0,40}))?)?/i.exec(
        text.slice(k, k + 200),
      );
    if (!m) return undefined;
    const facts: CloudQuotaFacts = { provider: 'gcp', quota: m[1]! };
    if (m[2] !== undefined) facts.limit = trimEndOf(m[2], '.');
    if (m[3]) facts.region = m[3];
    return other({ layer: 'other', kind: 'cloud-quota', facts }, text, k, k + m[0].length);
  });
  // GKE/gcloud: `Insufficient regional quota to satisfy request: resource "SSD_TOTAL_GB": request requires '900.0' …`.
  on('insufficient regional quota to satisfy request', (k) => {
    const m = /resource "([A-Za-z0-9_-]{1,80})"/.exec(text.slice(k, k + 200));
    return other(
      { layer: 'other', kind: 'cloud-quota', facts: { provider: 'gcp', quota: m ? m[1]! : null } },
      text,
      k,
      sentence(text, k, 600),
    );
  });
  on('gce quota exceeded', (k) =>
    other(
      { layer: 'other', kind: 'cloud-quota', facts: { provider: 'gcp', quota: null } },
      text,
      lineStart(text, k),
      sentence(text, k),
    ),
  );
  // AWS error codes (ELB, EC2): `TooManyLoadBalancers: Exceeded quota of account 123456789012`.
  for (const code of [
    'toomanyloadbalancers',
    'vcpulimitexceeded',
    'instancelimitexceeded',
    'addresslimitexceeded',
    'volumelimitexceeded',
    'toomanytargetgroups',
  ]) {
    on(code, (k) => {
      const name = text.slice(k, k + code.length);
      return other(
        { layer: 'other', kind: 'cloud-quota', facts: { provider: 'aws', quota: name } },
        text,
        k,
        sentence(text, k),
      );
    });
  }
  // Azure ARM: `Code="QuotaExceeded" Message="Operation could not be completed as it results in exceeding approved standardDSv3Family Cores quota.`
  on('exceeding approved', (k) => {
    const m = /^exceeding approved ([A-Za-z0-9_ -]{1,80}?) quota/i.exec(text.slice(k, k + 120));
    return other(
      { layer: 'other', kind: 'cloud-quota', facts: { provider: 'azure', quota: m ? m[1]! : null } },
      text,
      lineStart(text, k),
      sentence(text, k),
    );
  });

  // Admission webhooks (apiserver pkg/admission/plugin/webhook/errors: `admission webhook %q denied the request: %s`).
  on('admission webhook "', (k) => {
    const q = findWithin(text, '"', k + 'admission webhook "'.length, k + 300);
    if (q < 0) return undefined;
    const webhook = text.slice(k + 'admission webhook "'.length, q);
    const rest = text.slice(q + 1, q + 40);
    if (!/^ denied the request/.test(rest)) return undefined;
    const from = q + 1 + ' denied the request'.length;
    const end = lineEnd(text, from, 2000);
    const reason = text.slice(from, end).replace(/^:\s*/, '').trim();
    const facts: WebhookDeniedFacts = { webhook, reason };
    if (/gatekeeper/i.test(webhook)) facts.engine = 'gatekeeper';
    else if (/kyverno/i.test(webhook)) facts.engine = 'kyverno';
    return other({ layer: 'other', kind: 'webhook-denied', facts }, text, k, end);
  });

  // A webhook that did not answer (`failed calling webhook "x": … context deadline exceeded`): the
  // request was refused because the webhook is down, not because of any resource.
  on('failed calling webhook', (k) => {
    const from = k + 'failed calling webhook'.length;
    const m = /^\s{0,4}"([^"\n]{1,253})"/.exec(text.slice(from, from + 300));
    if (!m) return undefined;
    const ls = lineStart(text, k);
    return other(
      { layer: 'other', kind: 'webhook-unavailable', facts: { webhook: m[1]! } },
      text,
      ls,
      lineEnd(text, from + m[0].length, 2000),
    );
  });

  // cluster-autoscaler NotTriggerScaleUp (its reasons use the scheduler's histogram form).
  on("didn't trigger scale-up", (k) => {
    const end = lineEnd(text, k, 2000);
    const colon = findWithin(text, ':', k, end);
    const body = colon > 0 ? text.slice(colon + 1, end).trim() : '';
    const reasons = /^\d/.test(body)
      ? splitHistogram(trimEndOf(body, '.'))
      : body
        ? [{ count: null, reason: body }]
        : [];
    const start = lower.slice(Math.max(0, k - 4), k) === 'pod ' ? k - 4 : k;
    return other(
      { layer: 'other', kind: 'autoscaler', facts: { reason: 'NotTriggerScaleUp', reasons } },
      text,
      start,
      end,
    );
  });

  // Scheduler extender quota (tkestack gpu-admission): `0/2 nodes are available: 2 ExceedsGPUQuota.`
  on('exceedsgpuquota', (k) =>
    other(
      { layer: 'other', kind: 'extender-quota', facts: { extender: 'gpu-admission', reason: 'ExceedsGPUQuota' } },
      text,
      lineStart(text, k),
      lineEnd(text, k, 1200),
    ),
  );

  // volcano gangs (`1/1 tasks in gang unschedulable: pod group is not ready, …`): a PodGroup wait, not a node decision.
  on('tasks in gang unschedulable', (k) =>
    other(
      { layer: 'other', kind: 'volcano', facts: { scheduler: 'volcano', gang: true } },
      text,
      lineStart(text, k),
      lineEnd(text, k, 1000),
    ),
  );
  // Priority admission: the class is missing.
  on('no priorityclass with name ', (k) => {
    const m = /^no PriorityClass with name ([a-z0-9][a-z0-9.-]{0,252}) was found/i.exec(text.slice(k, k + 300));
    if (!m) return undefined;
    return priority(text, k, k + m[0].length, { reason: 'class-not-found', priorityClass: m[1]! });
  });
  // Priority admission: an integer priority in the spec that the class does not give.
  on('the integer value of priority', (k) => {
    const w = text.slice(k, k + 300);
    const m =
      /^the integer value of priority(?: \((-?\d{1,10})\))? must not be provided in pod spec(?:; priority admission controller computed (-?\d{1,10}) from the given PriorityClass name|\. The system populates the value from the given PriorityClass name)?/i.exec(
        w,
      );
    if (!m) return undefined;
    const facts: Extract<OtherBody, { kind: 'priority' }>['facts'] = { reason: 'priority-set', priorityClass: null };
    if (m[1] !== undefined) facts.priority = Number(m[1]);
    if (m[2] !== undefined) facts.computed = Number(m[2]);
    return priority(text, k, k + m[0].length, facts);
  });
  scanMany(lower, table, out);
  return out.sort((a, b) => a.start - b.start);
}
