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

import type {
  CloudQuotaFacts,
  FindingBody,
  KarpenterFacts,
  Match,
  PodSecurityFacts,
  PolicyViolation,
  PolicyViolationFacts,
  WebhookDeniedFacts,
} from './finding.ts';
import { lowerAscii } from './normalize.ts';
import { policyReportResult } from './policyreport.ts';
import { runtimeClassTable } from './runtimeclass.ts';
import { findWithin, lineEnd, lineStart, proseRow, scanMany, trimEndOf } from './scan.ts';
import { matcherLiteral } from './runtime.ts';
import { splitHistogram } from './scheduler.ts';
import { envelopeBefore } from './subject.ts';

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
  // Google APIs: `Quota exceeded for quota metric 'CPUs' and limit 'CPUS-per-project-region' of service …`.
  on("quota exceeded for quota metric '", (k) => {
    const m = /^quota exceeded for quota metric '([^'\n]{1,80})'/i.exec(text.slice(k, k + 200));
    // An API's request-rate quota (`… metric 'Write requests' and limit 'Write requests per minute per user' of
    // service 'sheets.googleapis.com'`, HTTP 429) is no capacity a cluster's nodes or disks use.
    const service = /of service '([^'\n]{1,120})'/i.exec(text.slice(k, sentence(text, k, 600)))?.[1];
    if (
      (m && /\b(?:requests?|queries|reads?|writes?|calls?)\b|per (?:minute|second|day)/i.test(m[1]!)) ||
      (service !== undefined && !/^(?:compute|container|tpu|file|redis)\.googleapis\.com$/i.test(service))
    )
      return undefined;
    return other(
      { layer: 'other', kind: 'cloud-quota', facts: { provider: 'gcp', quota: m ? m[1]! : null } },
      text,
      lineStart(text, k),
      sentence(text, k, 600),
    );
  });
  // EC2's VcpuLimitExceeded text without its code (a console or Karpenter copy keeps only the sentence).
  // The sentence may wrap (`…more vCPU capacity than your` ⏎ `current vCPU limit of 64 allows…`).
  on('you have requested more vcpu capacity than', (k) => {
    if (!/^you have requested more vcpu capacity than\s+your\s+current\s+vcpu\s+limit/.test(lower.slice(k, k + 120)))
      return undefined;
    const ls = lineStart(text, k);
    if (lower.slice(ls, k).includes('vcpulimitexceeded')) return undefined;
    return other(
      { layer: 'other', kind: 'cloud-quota', facts: { provider: 'aws', quota: 'VcpuLimitExceeded' } },
      text,
      ls,
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
    // The message's format string (`fmt.Sprintf("… Location: %s, Current Limit: …")`) is no refusal.
    if (/%[sdv]\b|\$\{|\{\{/.test(text.slice(k, sentence(text, k, 600)))) return undefined;
    return other(
      { layer: 'other', kind: 'cloud-quota', facts: { provider: 'azure', quota: m ? m[1]! : null } },
      text,
      lineStart(text, k),
      sentence(text, k),
    );
  });

  // Azure Compute: `Code="OperationNotAllowed" Message="Operation could not be completed as it results in
  // exceeding quota limit of standardDSv3Family Cores. Maximum allowed: 1000, Current in use: 986, Additional
  // requested: 72.` (a VM family's vCPU quota of the subscription, per region).
  on('exceeding quota limit of ', (k) => {
    const w = text.slice(k, k + 400);
    const m =
      /^exceeding quota limit of ([A-Za-z0-9_ -]{1,80}?)(?=[.,"']|\s*$|\s+(?:Maximum|Current|Additional)\b)/im.exec(w);
    // `… exceeding quota limit of 20 for standard DSv3 vCPUs`: a number there is the limit, not the quota.
    const named = m && !/^\d/.test(m[1]!) ? m[1]!.trim() : null;
    const facts: CloudQuotaFacts = { provider: 'azure', quota: named };
    const lim = /Maximum allowed: ?(\d{1,12})/i.exec(w) ?? /^exceeding quota limit of (\d{1,12})\b/i.exec(w);
    if (lim) facts.limit = lim[1]!;
    return other({ layer: 'other', kind: 'cloud-quota', facts }, text, lineStart(text, k), sentence(text, k, 600));
  });
  // Azure: `Code="QuotaExceeded"` / `ErrCode_InsufficientVCPUQuota` without the sentences above.
  for (const code of ['code="quotaexceeded"', 'errcode_insufficientvcpuquota', 'insufficientvcpuquota']) {
    on(code, (k) => {
      const ls = lineStart(text, k);
      // The code and its Message="…" may be on two lines (`Code="QuotaExceeded"` ⏎ `  Message="… exceeding …"`).
      const le = lineEnd(text, k);
      const line = lower.slice(ls, le < text.length ? lineEnd(text, le + 1) : le);
      // The sentence (`exceeding approved …`, `exceeding quota limit of …`) reads it with more facts.
      if (line.includes('exceeding approved') || line.includes('exceeding quota limit of')) return undefined;
      if (code === 'insufficientvcpuquota' && line.includes('errcode_insufficientvcpuquota')) return undefined;
      return other(
        { layer: 'other', kind: 'cloud-quota', facts: { provider: 'azure', quota: null } },
        text,
        ls,
        sentence(text, k, 600),
      );
    });
  }

  // Admission webhooks (apiserver pkg/admission/plugin/webhook/errors: `admission webhook %q denied the request: %s`).
  // A paste may wrap it anywhere, behind comment or quote markers (`admission webhook` ⏎ `//   "x" denied
  // the request: …`): a line break with its markers counts as one space.
  on('admission webhook', (k) => {
    const head = WEBHOOK_HEAD.exec(text.slice(k, k + 400));
    if (!head) return undefined;
    // A template of the message (`admission webhook "<name>" denied the request: <...>`): the name and the reason
    // are both placeholders, no webhook refused anything.
    const after = text
      .slice(k + head[0].length, lineEnd(text, k + head[0].length, 400))
      .replace(/^:\s*/, '')
      .trim();
    if (/^<[^<>\n]{1,40}>$/.test(head[1]!) && /^(?:<[^<>\n]{0,40}>|\.\.\.|…)?$/.test(after)) return undefined;
    return webhookDenied(k, head[1]!, k + head[0].length);
  });
  // The same refusal quoted from its webhook's name on (`"validation.gatekeeper.sh" denied the request: …`,
  // the `admission webhook` head left out): a webhook's name is a fully qualified name of three segments or
  // more (apiserver pkg/apis/admissionregistration/validation: validateWebhook), so a quoted word before
  // `denied the request` is not enough.
  on('" denied the request', (k) => {
    const q = text.lastIndexOf('"', k - 1);
    if (q < 0 || k - q > 254) return undefined;
    const webhook = text.slice(q + 1, k);
    if (!/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?){2,}$/.test(webhook)) return undefined;
    if (lower.slice(Math.max(0, q - 80), q).includes('admission webhook')) return undefined;
    return webhookDenied(q, webhook, k + '" denied the request'.length);
  });
  function webhookDenied(k: number, webhook: string, from: number): Match | undefined {
    let end = lineEnd(text, from, 2000);
    // A denial held in a single-quoted literal (`c('admission webhook "x" denied the request: …') == "gate"`)
    // ends at the literal's close.
    // The literal may open before `admission webhook` (Python's `('… admission webhook '` ⏎ `'"x" denied …')`,
    // joined by normalize.ts).
    const literal =
      text[k - 1] === "'" || /(?:^|[\s=(,[])'[^'\n]*admission webhook $/.test(text.slice(lineStart(text, k), k));
    let closed = false;
    // What follows a closed literal's last violation: the literal's close and the code after it.
    let closer = /'[ \t]*(?:[)\],;}].*)?$/;
    if (literal) {
      const close = /'(?=[ \t]*(?:[)\],;}]|==|!=|$))/.exec(text.slice(from, end));
      if (close) {
        end = from + close.index;
        closed = true;
      }
    }
    // A denial that is a JSON string's value (`"message": "admission webhook \"x\" denied the request: … label
    // \"owner\""`, its escapes undone by normalize.ts) ends before the string's closing quote.
    if (!closed && /"(?:message|msg|reason|error|err)"\s*:\s*"$/.test(text.slice(lineStart(text, k), k))) {
      const close = /"[ \t]*[,}\]]*[ \t]*$/.exec(text.slice(from, end));
      if (close) {
        end = from + close.index;
        closed = true;
        closer = /"[ \t]*[,}\]]*[ \t]*$/;
      }
    }
    // Inside a backtick span on its line (Go's raw string, Markdown's code: `` `Error from server: … admission webhook
    // "my.webhook" denied the request without explanation`, ``): the denial ends at the span's close.
    if (!closed) {
      const ticks = text.slice(lineStart(text, k), k).split('`').length - 1;
      const close = ticks % 2 === 1 ? text.indexOf('`', from) : -1;
      if (close >= 0 && close < end) {
        end = close;
        closed = true;
        closer = /`[ \t]*(?:[)\],;}].*)?$/;
      }
    }
    const reason = text.slice(from, end).replace(/^:\s*/, '').trim();
    // A webhook relaying a ValidatingAdmissionPolicy's refusal (`admission webhook "cel-shim.example.com" denied
    // the request: configmaps "x" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request:
    // …`) is its messenger: the policy's finding is the problem.
    if (/^(?:\S+ "[^"\n]{1,253}" is (?:forbidden|invalid): (?:: )?)?ValidatingAdmissionPolicy '/.test(reason))
      return undefined;
    const facts: WebhookDeniedFacts = { webhook, reason };
    if (/gatekeeper/i.test(webhook)) facts.engine = 'gatekeeper';
    else if (/kyverno/i.test(webhook)) facts.engine = 'kyverno';
    const body = facts.engine ? policyBody(text, from, facts.engine) : undefined;
    if (body) {
      end = Math.max(end, body.end);
      if (body.violations.length)
        facts.violations = closed
          ? body.violations.map((v) => ({ ...v, message: v.message.replace(closer, '') }))
          : body.violations;
      if (body.resource) facts.resource = body.resource;
      if (!facts.reason && body.head) facts.reason = body.head;
    }
    const found = other({ layer: 'other', kind: 'webhook-denied', facts }, text, k, end);
    // `error: failed to create deployment: admission webhook …` (kubectl create <kind>): the kind refused.
    const created = /\berror: failed to create (?!resource: )([a-z]{2,40}): $/.exec(text.slice(Math.max(0, k - 60), k));
    if (created) found.object = { resource: kindResource(created[1]!) };
    // Kyverno names the object: `Deployment/team-a/api` (namespaced) or `Namespace/team-a`.
    const ref = facts.resource ? /^([A-Za-z0-9]+)\/(?:([^/]*)\/)?([^/]+)$/.exec(facts.resource) : null;
    if (ref) {
      found.object = { resource: kindResource(ref[1]!), name: ref[3]! };
      if (ref[2]) found.namespace = ref[2];
    }
    return found;
  }

  // Kyverno's PolicyViolation events (a report of a rule the object breaks: in Audit mode the object was
  // admitted, `(blocked)` when an Enforce policy refused it):
  // - ≤ 1.5: `policy 'P' (Validation) rule 'R' failed. <message>`;
  // - 1.6+, on the resource: `policy P/R fail: <message>` (pkg/event NewResourceViolationEvent);
  // - 1.6+, on the policy: `<Kind> <ns>/<name>: [R] fail (blocked); <message>` (NewPolicyFailEvent), and
  //   1.6's `Rule(s) 'R' failed to apply on resource Kind/ns/name`.
  // `policy ` is a common word: each reader is a sticky match where it stands, no copy of the text after it.
  const kyvernoEvent = (re: RegExp, k: number) => {
    re.lastIndex = k;
    const m = re.exec(text);
    if (!m) return undefined;
    const end = lineEnd(text, k, 4000);
    return policyViolation(text, k, end, {
      engine: 'kyverno',
      policy: m[1]!,
      rule: m[2]!,
      message: text.slice(k + m[0].length, end).trim(),
      blocked: m[0].includes('(blocked)'),
    });
  };
  on("policy '", (k) => kyvernoEvent(KYVERNO_OLD_EVENT, k));
  on('policy ', (k) => kyvernoEvent(KYVERNO_EVENT, k));
  on(': [', (k) => {
    const m = /^: \[([A-Za-z0-9][A-Za-z0-9_.-]{0,252})\] (fail|error)( \(blocked\))?; */.exec(text.slice(k, k + 300));
    if (!m) return undefined;
    const ls = lineStart(text, k);
    const head = /([A-Z][A-Za-z]{1,62}) (?:([a-z0-9][a-z0-9-]{0,62})\/)?([a-z0-9][a-z0-9.-]{0,252})$/.exec(
      text.slice(Math.max(ls, k - 400), k),
    );
    if (!head) return undefined;
    const start = k - head[0].length;
    const end = lineEnd(text, k, 4000);
    // The policy is the event's object (`clusterpolicy/require-ns-purpose-label` in its row).
    const row = /\b(?:cluster)?policy\/([a-z0-9][a-z0-9.-]{0,252})\s/i.exec(text.slice(ls, start));
    const resource = head[2] ? `${head[1]}/${head[2]}/${head[3]}` : `${head[1]}/${head[3]}`;
    return policyViolation(text, start, end, {
      engine: 'kyverno',
      policy: row ? row[1]! : null,
      rule: m[1]!,
      message: text.slice(k + m[0].length, end).trim(),
      resource,
      blocked: m[3] !== undefined,
    });
  });
  // GKE Autopilot's policy webhook quoted without its `admission webhook "warden-validating…" denied the request:`
  // head (`GKE Warden rejected the request because it violates one or more constraints.` ⏎ `Violations: …`).
  on('gke warden rejected the request', (k) => {
    if (lower.slice(lineStart(text, k), k).includes('denied the request')) return undefined;
    let end = lineEnd(text, k, 2000);
    // Its `Violations:` / `Violations details:` lines go with it.
    for (
      let i = 0;
      i < 6 && end < text.length && /^\s*(?:Violations|Requested by|Audit|[a-z])/.test(text.slice(end + 1, end + 40));
      i++
    )
      end = lineEnd(text, end + 1, 2000);
    return other(
      {
        layer: 'other',
        kind: 'webhook-denied',
        facts: { webhook: 'GKE Warden', reason: text.slice(k, end).replace(/\s+/g, ' ').trim() },
      },
      text,
      k,
      end,
    );
  });
  // ValidatingAdmissionPolicy (apiserver pkg/admission/plugin/policy/validating/dispatcher.go, admission.NewForbidden):
  // `ValidatingAdmissionPolicy 'p' with binding 'b' denied request: <message>`; without a binding, `… 'p' denied request: …`.
  on('validatingadmissionpolicy ', (k) => {
    // The head may wrap anywhere (`ValidatingAdmissionPolicy 'p'` ⏎ `with binding 'b' denied request:`).
    const m =
      /^ValidatingAdmissionPolicy\s{1,8}'([^'\n]{1,253})'(?:\s{1,8}with\s{1,8}binding\s{1,8}'([^'\n]{1,253})')?\s{1,8}denied\s{1,8}request:?[ \t]*/i.exec(
        text.slice(k, k + 700),
      );
    if (!m) return undefined;
    // A writer's placeholders (`'<nom>'`, `'${policy.name}'`) name the form of the message, not a policy.
    if ([m[1], m[2]].some((n) => n !== undefined && /^<[^>]*>$|\$\{|\{\{|%[sv]/.test(n))) return undefined;
    const from = k + m[0].length;
    let end = lineEnd(text, from, 4000);
    // A message on the next lines (`denied request:` ⏎ `You can not create …`, or wrapped `… non-permitted` ⏎
    // `registry: …`): up to a blank line, a fence or a prompt, a few lines at most.
    for (let n = 0; n < 4 && end < text.length; n++) {
      const next = lineEnd(text, end + 1, 4000);
      const line = text.slice(end + 1, next);
      if (!/\S/.test(line) || /^\s*(?:```|~~~|\$ |# |[-*] )/.test(line) || /^\s*[A-Z][\w ]{0,30}:\s*$/.test(line))
        break;
      if (text.slice(from, end).trim() !== '' && /[.!?)\]"'`]\s*$/.test(text.slice(from, end))) break;
      // A message goes on where its line is cut (a comma, a hyphen) or the next line goes on in lower case; a
      // capitalised line or a command after a whole line is the writer's (the page's fences and blanks are gone by
      // now: \`… must have 'app' label\` ⏎ \`Success! CEL validation blocked …\`).
      if (
        text.slice(from, end).trim() !== '' &&
        !/[,;:-]\s*$/.test(text.slice(from, end)) &&
        (!/^\s*[a-z]/.test(line) || /^\s*(?:kubectl|oc|helm|k|sudo|curl|cat|echo)\s/.test(line))
      )
        break;
      end = next;
    }
    const vapEnvelope =
      VAP_ENVELOPE_RE.exec(text.slice(Math.max(lineStart(text, k), k - 340), k)) ??
      VAP_ENVELOPE_RE.exec(text.slice(Math.max(0, k - 340), k));
    const env = vapEnvelope
      ? {
          start: k - vapEnvelope[0].length,
          object: { resource: resourceOfWord(vapEnvelope[1]!), name: vapEnvelope[2]! },
        }
      : envelopeBefore(text, k);
    // In a source literal (`\`…denied request: no new replicasets\``, `"…"`), the literal's quote ends it.
    const open = text[env.start - 1];
    if (open === '"' || open === "'" || open === '`') {
      const close = text.indexOf(open, from);
      if (close >= 0 && close < end) end = close;
    }
    const found = other(
      {
        layer: 'other',
        kind: 'admission-policy',
        facts: {
          policy: m[1]!,
          binding: m[2] ?? null,
          message: text
            .slice(from, end)
            .replace(/\s*\n\s*/g, ' ')
            .trim(),
        },
      },
      text,
      env.start,
      end,
    );
    if (env.object) found.object = env.object;
    return found;
  });
  // A policy report's failed result (./policyreport.ts): the same violation, reported after admission.
  on('result:', (k) => {
    const e = policyReportResult(text, k);
    return e ? policyViolation(text, e.start, e.end, e.facts) : undefined;
  });
  on("rule(s) '", (k) => {
    const m =
      /^Rule\(s\) '([^'\n]{1,253})' failed to apply on resource ([A-Za-z0-9]+\/[^\s/]*\/[^\s:'"]+|[A-Za-z0-9]+\/[^\s:'"]+)/i.exec(
        text.slice(k, k + 700),
      );
    if (!m) return undefined;
    const ls = lineStart(text, k);
    const row = /\b(?:cluster)?policy\/([a-z0-9][a-z0-9.-]{0,252})\s/i.exec(text.slice(ls, k));
    return policyViolation(text, k, k + m[0].length, {
      engine: 'kyverno',
      policy: row ? row[1]! : null,
      rule: m[1]!,
      message: m[0],
      resource: m[2]!,
      blocked: false,
    });
  });

  // Pod Security admission: `violates PodSecurity "restricted:latest": …` (enforce) / `would violate …` (warn, audit).
  const podSecurity = (k: number, would: boolean): Match | undefined => {
    // Upstream always prints `"level:version"`; a retyped copy may give the level alone (`"baseline"`) and
    // elide the controls (`"baseline:latest" ... seccompProfile`): the version is then not known.
    const m = /^(?:would )?violates? PodSecurity "([a-z]{1,20})(?::([a-z0-9.]{1,20}))?":?[ \t]*/i.exec(
      text.slice(k, k + 90),
    );
    if (!m) return undefined;
    // Kyverno's podSecurity rule quotes Pod Security in its own message (`[baseline] fail (blocked); Validation
    // rule 'baseline' failed. It violates PodSecurity "baseline:latest": …`): the engine's finding says it.
    // (YAML's single-quoted scalar doubles the quotes: `'Validation rule ''baseline'' failed. It violates …'`.)
    if (
      /validation rule ''?[^'\n]{1,253}''? failed\.\s+it $/.test(lower.slice(Math.max(lineStart(text, k), k - 300), k))
    )
      return undefined;
    const from = k + m[0].length;
    let end = lineEnd(text, from, 4000);
    // Upstream prints `": "` before the controls: a level closed by its quote and then a separator (`violates
    // PodSecurity "restricted:latest", exceeded quota` — names listed in prose) gives no controls.
    if (!m[0].includes('":') && /^[,;)|]/.test(text.slice(from, from + 1))) end = from;
    // The controls one a line under a message whose line ends at the colon (`violates PodSecurity
    // "restricted:latest": ` ⏎ `  allowPrivilegeEscalation != false` ⏎ `  unrestricted capabilities`): a
    // page's layout of upstream's `, `-joined list (staging/src/k8s.io/pod-security-admission/admission,
    // forbiddenReasons joined by ", "). Indented lines up to a blank line, a fence or an unindented line.
    // Normalize may have joined the first of them to the message's line: one control there, no `, ` list.
    let listed: string[] | undefined;
    const onLine = text.slice(from, end).trim();
    // A source literal continued on the next line (`'…"baseline:v1.31": '` ⏎ `"host namespaces (…)"`) is not a layout.
    if (!onLine.includes(', ') && !/^["'`]|["'`,;]$/.test(onLine)) {
      const lines: string[] = [];
      let pos = end;
      while (pos < text.length && text[pos] === '\n' && lines.length < 40) {
        const le = lineEnd(text, pos + 1, 4000);
        const line = text.slice(pos + 1, le);
        // A control is `name`, `name (detail)` or `field != value`: not a `Key: value` row, nor a brace of code, nor
        // kubectl's own output after the warning (`pod/psa-nginx created`).
        if (!/^[ \t]+[^\s"'`]/.test(line) || /^\s*(?:```|~~~)|^\s*[A-Za-z][\w.-]*:\s|[{}]/.test(line)) break;
        if (KUBECTL_RESULT_RE.test(line)) break;
        lines.push(line.trim().replace(/,$/, ''));
        pos = le;
      }
      if (lines.length > 0) {
        listed = onLine === '' ? lines : [onLine.replace(/,$/, ''), ...lines];
        end = pos;
      }
    }
    // A message in a single-quoted source literal (`('psa', 'violates PodSecurity "…": …'),`) ends at its
    // closing quote (Pod Security's controls hold double quotes only).
    const env0 = envelope(text, k).start;
    // …or one whose quote opens before a `Warning: ` head on the same line (`$line = 'Warning: would violate …';`).
    const q = text.lastIndexOf("'", env0 - 1);
    const quotedHead =
      q >= lineStart(text, k) &&
      /^(?:Warning|Error from server \(Forbidden\)): [^'"\n]{0,200}$/.test(text.slice(q + 1, env0));
    if (text[env0 - 1] === "'" || (quotedHead && /[=(,[\s]/.test(text[q - 1] ?? ' '))) {
      const close = /'(?=[\s)\],;]|$)/.exec(text.slice(from, end));
      if (close) end = from + close.index;
    }
    // Prose after the message (`… privileged. Nothing was created`): a control's detail holds no `. X`;
    // nor text in another script (`… seccompProfile という警告が…`), nor a shell note (`… + created`), nor a
    // dash between blanks (`… (container "x")\` — on a default namespace`).
    const prose = /\.\s+[A-Z]|\s*[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]| \+ [a-z]| [\u2013\u2014] | -- /.exec(
      text.slice(from, end),
    );
    if (prose) end = from + prose.index;
    const facts: PodSecurityFacts = {
      level: m[1]!,
      version: m[2] ?? null,
      controls: podSecurityControls(listed ? listed.join(', ') : text.slice(from, end)),
      enforced: !would,
    };
    // A level named in a table of prose (`| Validating admission | "Is the final object acceptable?" | … violates
    // PodSecurity "restricted:latest", exceeded quota`), without its controls: a catalogue's entry.
    const ls = lineStart(text, k);
    if (facts.controls.length === 0 && text.startsWith('|', ls) && proseRow(text.slice(ls, lineEnd(text, k)), k - ls))
      return undefined;
    const env = envelope(text, k);
    const found = other({ layer: 'other', kind: 'pod-security', facts }, text, env.start, end);
    if (env.pod) found.object = { resource: 'pods', name: env.pod };
    return found;
  };
  // Labelling a namespace with an enforce level its running pods break (pod-security-admission's namespace check:
  // `existing pods in namespace %q violate the new PodSecurity enforce level %q`, then `<pod>: <controls>` a line):
  // a warning about pods already admitted; they keep running, new ones like them will be refused.
  on('violate the new podsecurity enforce level "', (k) => {
    const m = /^violate the new PodSecurity enforce level "([a-z]{1,20})(?::([a-z0-9.]{1,20}))?"/i.exec(
      text.slice(k, k + 100),
    );
    if (!m || !/existing pods in namespace "[^"\n]{1,63}" $/i.test(text.slice(Math.max(0, k - 100), k)))
      return undefined;
    let end = k + m[0].length;
    const next = /^\n[ \t]*Warning: [a-z0-9][a-z0-9.-]{0,252}: ([^\n]{1,2000})/.exec(text.slice(end, end + 2100));
    if (next) end += next[0].length;
    const facts: PodSecurityFacts = {
      level: m[1]!,
      version: m[2] ?? null,
      controls: next ? podSecurityControls(next[1]!) : [],
      enforced: false,
    };
    return other({ layer: 'other', kind: 'pod-security', facts }, text, lineStart(text, k), end);
  });
  on('violates podsecurity "', (k) => podSecurity(k, false));
  on('would violate podsecurity "', (k) => podSecurity(k, true));

  // Karpenter's provisioner: `incompatible with nodepool "x", daemonset overhead={…}, <why>` (`; ` between
  // NodePools) and `all available instance types exceed limits for nodepool: "x"` (its spec.limits).
  on('incompatible with nodepool ', (k) => {
    // One finding per message: the first NodePool of it starts it (the message may wrap over lines).
    const before = text.slice(wrappedStart(text, k, 2000), k);
    if (/;\s*$/.test(before) && /incompatible with nodepool |exceed limits for nodepool/.test(before)) return undefined;
    return karpenter(text, k);
  });
  // Before v0.32 Karpenter's NodePools were Provisioners (`incompatible with provisioner "default", no instance
  // type satisfied resources {…} and requirements …`).
  on('incompatible with provisioner ', (k) => {
    const before = text.slice(wrappedStart(text, k, 2000), k);
    if (/;\s*$/.test(before) && /incompatible with (?:nodepool|provisioner) /.test(before)) return undefined;
    return karpenter(text, k);
  });
  // Its reason quoted alone (`could not schedule pod ... no instance type satisfied resources ...`): Karpenter's
  // own words (pkg/controllers/provisioning/scheduling), the NodePool left out.
  // Its later words for the same (pkg/controllers/provisioning/scheduling: `no instance type has enough resources`,
  // `no instance type met all requirements`), after `Failed to schedule pod, ` and its other reasons (`did not
  // tolerate taint (…); `).
  const instanceReason = (k: number): Match | undefined => {
    const ls = wrappedStart(text, k, 2000);
    if (
      /incompatible with (?:nodepool|provisioner) |no instance type (?:satisfied|has enough|met all)/.test(
        lower.slice(ls, k),
      )
    )
      return undefined;
    const head = /(?:could not|failed to) schedule pod\b/.exec(lower.slice(ls, k));
    const start = head ? ls + head.index : k;
    return other({ layer: 'other', kind: 'karpenter', facts: { nodepools: [] } }, text, start, sentence(text, k, 2000));
  };
  on('no instance type satisfied resources', instanceReason);
  on('no instance type has enough resources', instanceReason);
  on('no instance type met all requirements', instanceReason);
  // A NodeClaim the cloud could not launch (Karpenter's InsufficientCapacityError event: `NodeClaim <name> event:
  // creating instance, insufficient capacity, with fleet error(s), InsufficientInstanceCapacity: …`): no
  // instance of the wanted types was free, a look-alike of the scheduler's `Insufficient`.
  on('creating instance, insufficient capacity', (k) => {
    const ls = lineStart(text, k);
    const claim = /NodeClaim (\S{1,253}) event: $/.exec(text.slice(Math.max(ls, k - 277), k));
    if (claim && /%|\$\{|\{\{/.test(claim[1]!)) return undefined;
    const start = claim ? k - claim[0].length : k;
    let end = lineEnd(text, k, 2000);
    // In a string literal the literal's quote ends it.
    const open = text[start - 1];
    if (open === '"' || open === "'" || open === '`') {
      const close = text.indexOf(open, k);
      if (close >= 0 && close < end) end = close;
    }
    return other({ layer: 'other', kind: 'karpenter', facts: { nodepools: [] } }, text, start, end);
  });
  on('all available instance types exceed limits for nodepool', (k) => {
    const before = text.slice(wrappedStart(text, k, 2000), k);
    if (/incompatible with (?:nodepool|provisioner) |exceed limits for nodepool/.test(before)) return undefined;
    return karpenter(text, k);
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
    let end = lineEnd(text, k, 2000);
    const start = lower.slice(Math.max(0, k - 4), k) === 'pod ' ? k - 4 : k;
    // A message inside a JSON or code string (`"message": "Pod didn't trigger scale-up: 1 max node group size
    // reached"}, …`) ends at the string's closing quote: its reasons never hold one.
    if (text[start - 1] === '"') {
      const q = findWithin(text, '"', k, end);
      if (q >= 0) end = q;
    }
    // Prose after the message (`… PersistentVolumeClaims. It recognizes …`): reasons hold no `. `.
    const stop = findWithin(text, '. ', k, end);
    if (stop >= 0) end = stop;
    const colon = findWithin(text, ':', k, end);
    // A quoted paste (`"pod didn't trigger scale-up: … reached."`) ends in its closing quote.
    const body =
      colon > 0
        ? text
            .slice(colon + 1, end)
            .trim()
            .replace(/["'`]+$/, '')
        : '';
    const reasons = /^\d/.test(body)
      ? splitHistogram(trimEndOf(body, '.'))
      : body
        ? [{ count: null, reason: body }]
        : [];
    return other(
      { layer: 'other', kind: 'autoscaler', facts: { reason: 'NotTriggerScaleUp', reasons } },
      text,
      start,
      end,
    );
  });

  // Oracle Cloud's service limits, as its cloud-controller-manager relays them (`Service error:LimitExceeded. The
  // following service limits were exceeded: lb-100mbps-count.`).
  on('the following service limits were exceeded: ', (k) => {
    const m = /^([a-z0-9][a-z0-9-]{0,80})/.exec(lower.slice(k + 44, k + 130));
    return other(
      { layer: 'other', kind: 'cloud-quota', facts: { provider: 'oci', quota: m ? m[1]! : null } },
      text,
      k,
      sentence(text, k, 300),
    );
  });
  // The autoscaler's finding for its scale-up log line through `le`, with the predicate's reason ('' for none).
  const scaleUpLog = (k: number, le: number, reason: string): Match =>
    other(
      {
        layer: 'other',
        kind: 'autoscaler',
        facts: { reason: 'NotTriggerScaleUp', reasons: reason ? [{ count: null, reason }] : [] },
      },
      text,
      lineStart(text, k),
      le,
    );
  // cluster-autoscaler's scale-up simulation log (`scale_up.go:288] Pod restic-2r6cr can't be scheduled on eks-…,
  // predicate checking error: node(s) didn't match Pod's node affinity; predicateName=NodeAffinity; …`): a new node
  // of that group would not take the pod either, so the autoscaler does not scale it up for the pod.
  on('predicate checking error', (k) => {
    const le = lineEnd(text, k, 2000);
    const body = text.slice(k + 'predicate checking error'.length, le).replace(/^:[ \t]*/, '');
    const cut = body.search(/;[ \t]*(?:predicateName|reasons|debugInfo)\b/);
    return scaleUpLog(k, le, trimEndOf((cut >= 0 ? body.slice(0, cut) : body).trim(), '.;'));
  });
  // The same log before 1.12 (`utils.go:208] Pod x can't be scheduled on <group>, predicate failed: NoVolumeZoneConflict
  // predicate mismatch, reason: node(s) had no available volume zone`).
  on('predicate failed: ', (k) => {
    if (!/can't be scheduled on [^\s,]{1,253}, $/.test(lower.slice(Math.max(0, k - 300), k))) return undefined;
    const le = lineEnd(text, k, 2000);
    return scaleUpLog(k, le, trimEndOf(/reason: ([^\n;]{1,500})/.exec(text.slice(k, le))?.[1]?.trim() ?? '', '.'));
  });

  // Kueue's flavor assignment (pkg/scheduler/flavorassigner): `couldn't assign flavors to pod set main: insufficient
  // unused quota for cpu in flavor default-flavor, 3 more needed` (a Workload's QuotaReserved condition or its Pending
  // event). A comment's wrap (`# … insufficient unused quota` ⏎ `# for nvidia.com/gpu in flavor a100, 2 more needed`) is
  // one message.
  on("couldn't assign flavors to pod set ", (k) => {
    if (matcherLiteral(text, k)) return undefined;
    const from = k + "couldn't assign flavors to pod set ".length;
    const set = /^([a-z0-9][a-z0-9.-]{0,62}|%s|%v):[ \t]*/.exec(lower.slice(from, from + 70));
    if (!set || set[1]!.startsWith('%')) return undefined;
    let end = lineEnd(text, k, 1200);
    for (let n = 0; n < 2 && !/(?:more needed|exceeded|\))[.\s"'`]*$/.test(text.slice(k, end)); n++) {
      const next = /^\n[ \t]*(?:#|\/\/)[ \t]+([a-z][^\n]{0,300})/.exec(text.slice(end, end + 320));
      if (!next) break;
      end = lineEnd(text, end + 1, 320);
    }
    const message = trimEndOf(
      text
        .slice(from + set[0].length, end)
        .replace(/\n[ \t]*(?:#|\/\/)[ \t]+/g, ' ')
        .trim(),
      '."\'` ',
    );
    return other({ layer: 'other', kind: 'kueue', facts: { podSet: set[1]!, message } }, text, lineStart(text, k), end);
  });

  // The securityContext admission plugins (SecurityContextDeny, PodSecurityPolicy, OpenShift's SCC), with the pod
  // their envelope names.
  const securityPlugin = (
    k: number,
    plugin: Extract<OtherBody, { kind: 'admission-plugin' }>['facts']['plugin'],
    end = lineEnd(text, k, 1200),
  ): Match | undefined => {
    if (matcherLiteral(text, k)) return undefined;
    const env = envelope(text, k);
    const message = trimEndOf(text.slice(k, end).trim(), '."\'` ');
    const m = other({ layer: 'other', kind: 'admission-plugin', facts: { plugin, message } }, text, env.start, end);
    if (env.pod) m.object = { resource: 'pods', name: env.pod };
    return m;
  };
  on('unable to validate against any pod security policy', (k) => securityPlugin(k, 'PodSecurityPolicy'));
  // OpenShift's SCC admission before 3.x named its constraints (`Pod "x" is forbidden: no providers available to
  // validate pod request`).
  on('no providers available to validate pod request', (k) => securityPlugin(k, 'SecurityContextConstraints'));
  on('unable to validate against any security context constraint', (k) =>
    securityPlugin(k, 'SecurityContextConstraints'),
  );
  // SecurityContextDeny (plugin/pkg/admission/securitycontext/scdeny): `pod.Spec.SecurityContext.RunAsUser is
  // forbidden`, a container's `SecurityContext.SELinuxOptions is forbidden`.
  on('securitycontext.', (k) => {
    const at = lower.slice(Math.max(0, k - 9), k) === 'pod.spec.' ? k - 9 : k;
    if (at > 0 && /[A-Za-z0-9_]/.test(text[at - 1]!)) return undefined;
    const m =
      /^securitycontext\.(?:runasuser|runasgroup|runasnonroot|selinuxoptions|supplementalgroups|fsgroup) is forbidden\b/.exec(
        lower.slice(k, k + 60),
      );
    return m ? securityPlugin(at, 'SecurityContextDeny', k + m[0].length) : undefined;
  });

  // An Events row of the autoscaler's reason without the sentence (`Normal  NotTriggerScaleUp  110s
  // cluster-autoscaler  max node group size reached`): the same look-alike, its reasons after the source.
  on('nottriggerscaleup', (k) => {
    const ls = lineStart(text, k);
    const le = lineEnd(text, k, 2000);
    if (lower.slice(ls, le).includes('trigger scale-up')) return undefined;
    // An Events row wrapped under its reason (`Normal  NotTriggerScaleUp  cluster-autoscaler` ⏎ `  Pod didn't
    // trigger scale-up: …`): the sentence on the next line is the message, read there.
    if (le < text.length && /^[ \t]+(?:pod )?didn't trigger scale-up/.test(lower.slice(le + 1, le + 40)))
      return undefined;
    const src = findWithin(lower, 'cluster-autoscaler', k, le);
    // Told in prose as what happened (`the autoscaler reports NotTriggerScaleUp for the pod`, `describe shows
    // NotTriggerScaleUp events`): the look-alike, its reasons not said. Not among the autoscaler's other event
    // names (a list of them) nor defined (`NotTriggerScaleUp: the autoscaler could not …`).
    if (
      src < 0 &&
      k > 0 &&
      /[\s`"'(*]/.test(text[k - 1]!) &&
      /\b(?:reports?|reported|shows?|showed|emits?|emitted|gives?|gave|got|gets|saw|logs?|logged|has|had|with|raised|fires?|fired)[ \t]+(?:a[ \t]+|an[ \t]+|the[ \t]+)?[`"'*]{0,2}$/.test(
        lower.slice(Math.max(ls, k - 40), k),
      ) &&
      /^[`"'*]{0,2}(?:[ \t]+(?:events?|for|on|because|and|,|\.)|[.,;]|$)/.test(lower.slice(k + 17, k + 30)) &&
      !/\b(?:triggeredscaleup|scaledowndisabled|scaleddowngroup|scaledupgroup|scaledown)\b/.test(
        lower.slice(Math.max(0, k - 300), Math.min(lower.length, k + 300)),
      )
    )
      return other(
        { layer: 'other', kind: 'autoscaler', facts: { reason: 'NotTriggerScaleUp', reasons: [] } },
        text,
        k,
        k + 17,
      );
    if (src < 0) {
      // `NotTriggerScaleUp: 2 max node group size reached` (the reason and its message, as a log or a
      // runbook quotes the event): the reasons are the scheduler's histogram form, up to a closing quote.
      const m = /^NotTriggerScaleUp:[ \t]+(\d{1,6} [^"`\n]{1,1500}?)(?=["`]|'(?![a-z])|\.\s|\.?$|;\s)/im.exec(
        text.slice(k, le),
      );
      if (!m) return undefined;
      const reasons = splitHistogram(trimEndOf(m[1]!.trim(), '.,'));
      return other(
        { layer: 'other', kind: 'autoscaler', facts: { reason: 'NotTriggerScaleUp', reasons } },
        text,
        k,
        k + m[0].length,
      );
    }
    const body = trimEndOf(text.slice(src + 'cluster-autoscaler'.length, le).trim(), '."\'` ');
    const reasons = /^\d/.test(body) ? splitHistogram(body) : body ? [{ count: null, reason: body }] : [];
    return other({ layer: 'other', kind: 'autoscaler', facts: { reason: 'NotTriggerScaleUp', reasons } }, text, ls, le);
  });

  // Azure Container Apps: `Maximum Allowed Cores exceeded for the Managed Environment.` (the environment's core quota).
  on('maximum allowed cores exceeded', (k) =>
    other(
      { layer: 'other', kind: 'cloud-quota', facts: { provider: 'azure', quota: null } },
      text,
      k,
      sentence(text, k, 300),
    ),
  );

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
    // A writer's placeholder for the class (`pods "x" is forbidden: no PriorityClass with name ... was found`): the
    // refusal holds (plugin/pkg/admission/priority/admission.go admitPod), the class is not named.
    const m = /^no PriorityClass with name ([a-z0-9][a-z0-9.-]{0,252}|\.{3}|…|<[^<>\s]{1,40}>) was found/i.exec(
      text.slice(k, k + 300),
    );
    if (!m) return undefined;
    const named = /^[a-z0-9]/i.test(m[1]!);
    // A placeholder alone is a catalogue's entry (`| \`no PriorityClass with name ... was found\` | cause |`);
    // after the apiserver's envelope it is a refusal seen.
    if (!named && !/is forbidden:\s*$/i.test(text.slice(Math.max(0, k - 40), k))) return undefined;
    return priority(text, k, k + m[0].length, { reason: 'class-not-found', priorityClass: named ? m[1]! : null });
  });
  // Priority admission: a system PriorityClass (system-cluster-critical, system-node-critical) outside
  // kube-system (admitPod, priorityClassPermittedInNamespace: `pods with %v priorityClass is not permitted
  // in %v namespace`; `pod's priorityClass …` is how some copies retype it, without the class).
  on('priorityclass is not permitted in ', (k) => {
    const before = /(?:pods? with ([a-z0-9][a-z0-9.-]{0,252})|pod's) $/i.exec(text.slice(Math.max(0, k - 280), k));
    const m = /^priorityClass is not permitted in ([a-z0-9][a-z0-9-]{0,62}) namespace/i.exec(text.slice(k, k + 120));
    if (!m) return undefined;
    const at = before ? k - before[0].length : k;
    const facts: Extract<OtherBody, { kind: 'priority' }>['facts'] = {
      reason: 'class-not-permitted',
      priorityClass: before?.[1] ?? null,
      inNamespace: m[1]!,
    };
    return priority(text, at, k + m[0].length, facts);
  });
  // Priority admission: an integer priority in the spec that the class does not give (the message may be split
  // over source string literals: `…value of priority "` ⏎ `"(0) must not be provided…`).
  on('the integer value of priority', (k) => {
    const w = text.slice(k, k + 300);
    const m =
      /^the integer value of priority(?:(?: |\s*["']\s*\+?\s*["'])\((-?\d{1,10})\))?\s+must\s+not\s+be\s+provided\s+in\s+pod\s+spec(?:;\s+priority\s+admission\s+controller\s+computed\s+(-?\d{1,10})(?=\s+f|\s*$|[\s"'.,;)])(?:\s+from\s+the\s+given\s+PriorityClass\s+name)?|\.\s+The\s+system\s+populates\s+the\s+value\s+from\s+the\s+given\s+PriorityClass\s+name)?/i.exec(
        w,
      );
    if (!m) return undefined;
    const facts: Extract<OtherBody, { kind: 'priority' }>['facts'] = { reason: 'priority-set', priorityClass: null };
    if (m[1] !== undefined) facts.priority = Number(m[1]);
    if (m[2] !== undefined) facts.computed = Number(m[2]);
    return priority(text, k, k + m[0].length, facts);
  });
  // Priority admission, NonPreemptingPriority: the spec's preemptionPolicy differs from the class's
  // (plugin/pkg/admission/priority/admission.go admitPod: `the string value of PreemptionPolicy (%s) must
  // not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name`).
  on('the string value of preemptionpolicy', (k) => {
    const m =
      /^the string value of PreemptionPolicy(?: \(([A-Za-z]{1,40})\))?\s+must\s+not\s+be\s+provided\s+in\s+pod\s+spec(?:;\s+priority\s+admission\s+controller\s+computed\s+([A-Za-z]{1,40})(?:\s+from\s+the\s+given\s+PriorityClass\s+name)?)?/i.exec(
        text.slice(k, k + 300),
      );
    if (!m) return undefined;
    const facts: Extract<OtherBody, { kind: 'priority' }>['facts'] = {
      reason: 'preemption-policy-set',
      priorityClass: null,
    };
    if (m[1] !== undefined) facts.preemptionPolicy = m[1];
    if (m[2] !== undefined) facts.computedPolicy = m[2];
    return priority(text, k, k + m[0].length, facts);
  });
  // The RuntimeClass plugin's refusals (./runtimeclass.ts) ride on the same pass over the paste.
  table.push(...runtimeClassTable(text));
  scanMany(lower, table, out);
  return out.sort((a, b) => a.start - b.start);
}

/** Kyverno ≤ 1.5's event: `policy 'P' (Validation) rule 'R' failed. ` (sticky, read where the needle is). */
const KYVERNO_OLD_EVENT =
  /policy '([a-z0-9][a-z0-9.-]{0,252})' \((?:Validation|Mutation|Generation|VerifyImages)\) rule '([^'\n]{1,253})' failed\.?\s*/iy;
/** Kyverno 1.6+'s event on the resource: `policy P/R fail: `. */
const KYVERNO_EVENT =
  /policy ([a-z0-9][a-z0-9.-]{0,252})\/([A-Za-z0-9][A-Za-z0-9_.-]{0,252}) (fail|error)(?: \(blocked\))?:\s*/y;

/** A Kyverno PolicyViolation event, with the object it names (`Kind/ns/name`), else the one its row names. */
function policyViolation(text: string, start: number, end: number, facts: PolicyViolationFacts): Match {
  const m = other({ layer: 'other', kind: 'policy-violation', facts }, text, start, end);
  const ref = facts.resource ? /^([A-Za-z0-9]+)\/(?:([^/]*)\/)?([^/]+)$/.exec(facts.resource) : null;
  if (ref) {
    m.object = { resource: kindResource(ref[1]!), name: ref[3]! };
    if (ref[2]) m.namespace = ref[2];
  }
  return m;
}

/**
 * The envelope of a policy's refusal (`The pods "app" is invalid: : `, `pods "bad" is forbidden: `, wrapped
 * before the policy's name): NewInvalid with an empty field path prints `: : `, and names the resource.
 */
const VAP_ENVELOPE_RE =
  /(?:The )?([A-Za-z][A-Za-z0-9.-]{0,62}) "([^"\n]{1,253})" is (?:forbidden|invalid):(?: :)?\s{1,8}$/;

/** `pods` stays; a Kind (`Deployment`) becomes its resource. */
function resourceOfWord(word: string): string {
  return /^[A-Z]/.test(word) ? kindResource(word) : word;
}

/** kubectl's line for an object it applied (`pod/psa-nginx created`, `deployment.apps/web configured`). */
const KUBECTL_RESULT_RE =
  /^\s*[a-z][a-z0-9.-]{0,80}\/[a-z0-9][a-z0-9.-]{0,252}\s+(?:created|configured|unchanged|deleted|patched|replaced|serverside-applied)\b/;

/** `admission webhook "<name>" denied the request`, a wrapped line (and its comment or quote markers) as a space. */
const WEBHOOK_HEAD =
  /^admission webhook(?:[ \t]|\n[ \t]*(?:\/\/|#|>|\*)?)+"([^"\n]{1,253})"(?:[ \t]|\n[ \t]*(?:\/\/|#|>|\*)?)*denied(?:[ \t]|\n[ \t]*(?:\/\/|#|>|\*)?)+the request/;

/** The policy rules after a Gatekeeper or Kyverno `denied the request`, and where they end. */
function policyBody(
  text: string,
  from: number,
  engine: 'gatekeeper' | 'kyverno',
): { violations: PolicyViolation[]; resource?: string; head?: string; end: number } | undefined {
  const limit = Math.min(text.length, from + 8000);
  if (engine === 'gatekeeper') {
    // `[constraint] message`, one per line (`[denied by constraint] message` before Gatekeeper 3.4).
    const out: PolicyViolation[] = [];
    let at = from;
    let end = from;
    let first = true;
    while (at < limit) {
      const le = lineEnd(text, at, 4000);
      const line = text.slice(at, le).replace(first ? /^:\s*/ : /^\s*/, '');
      if (!/^\[[^\]\n]{1,253}\]/.test(line)) break;
      // A line may hold several (`[a] msg [a] msg2` once a paste's lines were joined, or `[a] msg[a] msg2` where
      // the join left no blank): a glued one only with the name of the line's first, as Gatekeeper repeats it.
      const lead = /^\[(?:denied by )?([a-z0-9][a-z0-9.-]{0,252})\]\s/.exec(line)?.[1];
      const glued = lead ? `|(?<=\\S)(?=\\[(?:denied by )?${lead.replace(/\./g, '\\.')}\\]\\s)` : '';
      const split = new RegExp(`\\s(?=\\[(?:denied by )?[a-z0-9][a-z0-9.-]{0,252}\\]\\s)${glued}`);
      for (const part of line.split(split)) {
        const m = /^\[(?:denied by )?([^\]\n]{1,253})\]\s*(.*)$/.exec(part.trim());
        if (m) out.push({ name: m[1]!, message: m[2]!.trim() });
      }
      end = le;
      first = false;
      at = le + 1;
    }
    return out.length ? { violations: out, end } : undefined;
  }
  const w = text.slice(from, limit);
  const head =
    /^:?\s*(?:policy ([A-Za-z0-9]+\/[^\s/]*\/[^\s:]+|[A-Za-z0-9]+\/[^\s:]+) for resource violations?:|resource ([A-Za-z0-9]+\/[^\s/]*\/[^\s:]+|[A-Za-z0-9]+\/[^\s:]+) was blocked(?: due to the following policies)?:?)/.exec(
      w,
    );
  if (!head) return undefined;
  const resource = head[1] ?? head[2]!;
  const rest = w.slice(head[0].length);
  const violations: PolicyViolation[] = [];
  let used = head[0].length;
  if (/^[ \t]*\n/.test(rest)) {
    // The YAML form: `policy:` lines, each with indented `rule: message` lines (messages folded over lines).
    let policy: string | undefined;
    let current: PolicyViolation | undefined;
    let at = rest.indexOf('\n') + 1;
    while (at > 0 && at < rest.length) {
      const le = rest.indexOf('\n', at);
      const stop = le < 0 ? rest.length : le;
      const line = rest.slice(at, stop);
      if (line.trim() === '') {
        // Blank lines separate the header from the policies; one after them ends the message.
        if (violations.length) break;
        at = stop + 1;
        continue;
      }
      // `1. disallow-root-user: Running as root is forbidden.` (a numbered list of policy: message).
      const n = /^\s{0,4}\d{1,3}\.\s+([a-z0-9][a-z0-9.-]{0,252}):\s+(\S.*)$/.exec(line);
      if (n) {
        current = { name: n[1]!, message: n[2]! };
        violations.push(current);
        used = head[0].length + stop;
        at = stop + 1;
        continue;
      }
      const p = /^\s{0,4}([a-z0-9][a-z0-9.-]{0,252}):\s*$/.exec(line);
      const r = /^(\s+)([A-Za-z0-9][A-Za-z0-9_.-]{0,252}):\s+(.*)$/.exec(line);
      if (p) {
        policy = p[1]!;
        current = undefined;
      } else if (r && policy && (r[1]!.length <= 4 || !current)) {
        current = { name: policy, rule: r[2]!, message: r[3]! };
        violations.push(current);
      } else if (current && /^\s+\S/.test(line)) {
        current.message += ` ${line.trim()}`;
      } else break;
      used = head[0].length + stop;
      at = stop + 1;
    }
  } else {
    // One line: `policy: rule: 'message' policy2: rule2: 'message'` (a message quoted, or up to the next pair).
    const re =
      /\s*([a-z0-9][a-z0-9.-]{0,252}):\s+([A-Za-z0-9][A-Za-z0-9_.-]{0,252}):\s+('(?:[^'\n]|'')*'|.*?)(?=\s+[a-z0-9][a-z0-9.-]{0,252}:\s+[A-Za-z0-9][A-Za-z0-9_.-]{0,252}:\s|\n|$)/y;
    const one = rest.slice(0, Math.min(rest.length, 4000, rest.includes('\n') ? rest.indexOf('\n') : rest.length));
    let m = re.exec(one);
    while (m) {
      violations.push({ name: m[1]!, rule: m[2]!, message: m[3]! });
      used = head[0].length + re.lastIndex;
      m = re.exec(one);
    }
  }
  for (const v of violations) v.message = unquote(v.message);
  return { violations, resource, head: head[0].replace(/^:?\s*/, '').trim(), end: from + used };
}

/** A YAML single-quoted scalar as its text: quotes off, `''` → `'`, whitespace folded. */
function unquote(s: string): string {
  const t = s.trim().replace(/\s+/g, ' ');
  return /^'.*'$/.test(t) ? t.slice(1, -1).replace(/''/g, "'") : t;
}

/** How many `)` in `s` no `(` before them opened. */
function unopened(s: string): number {
  let depth = 0;
  let extra = 0;
  for (const c of s) {
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth > 0) depth--;
      else extra++;
    }
  }
  return extra;
}

/** `control (detail), control, …` at parenthesis depth 0 (a detail may hold commas). */
function podSecurityControls(s: string): { control: string; detail?: string }[] {
  const out: { control: string; detail?: string }[] = [];
  let depth = 0;
  let start = 0;
  const push = (part: string) => {
    // `…, ... restricted volume types (…)`: an elision where the paste left controls out is no part of a name.
    const t = part
      .trim()
      .replace(/^(?:…|\.{3,})\s*/, '')
      .replace(/\s*(?:…|\.{3,})$/, '');
    if (!t || /^(?:…|\.{3,})$/.test(t)) return;
    const m = /^([^()]*?)\s*\((.*)\)$/.exec(t);
    // `seccompProfile (...)`: a detail the paste elided is not given.
    if (m && /^(?:…|\.{3,})$/.test(m[2]!.trim())) out.push({ control: m[1]! });
    else out.push(m ? { control: m[1]!, detail: m[2]! } : { control: t });
  };
  for (let i = 0; i < s.length && i < 4000; i++) {
    const c = s[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0 && s[i + 1] === ' ') {
      push(s.slice(start, i));
      start = i + 2;
    }
  }
  // A paste cut inside the list (`… must set securityContext.runAsNonRoot=true), seccompProfile (pod …`):
  // the ellipsis is not text, and the last control keeps what was left of its detail.
  const last = s
    .slice(start)
    .replace(/\s*(?:…|\.{3,})\s*$/, '')
    // The sentence the paste ended the message with (`…: hostPath volumes.`, `… (hostNetwork=true).`): no control
    // ends in a dot (an elision's `...` is no sentence end).
    .replace(/(?<!\.)\.\s*$/, '')
    .replace(/["',}\s]+$/, (x) => (x.startsWith(')') ? x : ''))
    // A `)` that no `(` of the list opened closes the prose around it (`(\`violates … hostPath volumes\`)`).
    .replace(/\)+$/, (x) => x.slice(0, Math.max(0, x.length - unopened(s.slice(start)))));
  const cut = depth > 0 ? /^([^()]*?)\s*\((.*)$/.exec(last.trim()) : null;
  if (cut?.[1]) out.push({ control: cut[1], detail: trimEndOf(cut[2]!.trim(), ' ,.') });
  else push(last);
  return out;
}

/** A Karpenter message from `k`: each NodePool with its reason, up to the end of the message. */
function karpenter(text: string, k: number): Match {
  const le = wrappedEnd(text, k, 6000);
  // A log line wraps the message in JSON (`"message":"Could not schedule pod, …","pod":"ns/name"}`): it
  // ends at the first `","key` or `"}` outside the braces of `daemonset overhead={…}`.
  let end = le;
  const ls = lineStart(text, k);
  const quoted = text.slice(ls, k).includes('"message":"');
  let pod: { namespace: string; name: string } | undefined;
  if (quoted) {
    let depth = 0;
    for (let i = k; i < le; i++) {
      const c = text[i];
      if (c === '{') depth++;
      else if (c === '}' && depth > 0) depth--;
      else if (depth === 0 && c === '"' && /^"?(?:","[A-Za-z]|"?\})/.test(text.slice(i, i + 5))) {
        end = i;
        break;
      }
    }
    const p = /"pod":"([a-z0-9][a-z0-9-]{0,62})\/([a-z0-9][a-z0-9.-]{0,252})"/.exec(text.slice(ls, le));
    if (p) pod = { namespace: p[1]!, name: p[2]! };
  }
  // A wrapped message (`…nodepool "system",` ⏎ `  daemonset overhead=…`) reads as one line.
  const body = text.slice(k, end).replace(/\n[ \t]+/g, ' ');
  const nodepools: KarpenterFacts['nodepools'] = [];
  for (const part of body.split(/; /)) {
    const inc =
      /^incompatible with (?:nodepool|provisioner) "([^"\n]{1,253})", (?:daemonset overhead=\{[^}]*\}, )?(.*)$/s.exec(
        part,
      );
    if (inc) {
      nodepools.push({ nodepool: inc[1]!, reason: unopenedQuoteOff(trimEndOf(inc[2]!.trim(), ';')) });
      continue;
    }
    const lim = /^all available instance types exceed limits for nodepool:? "?([^"\s]{1,253})"?/.exec(part);
    if (lim) nodepools.push({ nodepool: lim[1]!, reason: 'all available instance types exceed limits for nodepool' });
  }
  const start = /(?:Failed|Could not) to schedule pod, $|Could not schedule pod, $/.test(
    text.slice(Math.max(0, k - 40), k),
  )
    ? text.slice(Math.max(0, k - 40), k).search(/(?:Failed|Could not)/) + Math.max(0, k - 40)
    : k;
  const found = other({ layer: 'other', kind: 'karpenter', facts: { nodepools } }, text, start, end);
  if (pod) {
    found.object = { resource: 'pods', name: pod.name };
    found.namespace = pod.namespace;
  }
  return found;
}

/**
 * A message wrapped over lines: a line that ends in `,` or `;` goes on in the next, indented one (an
 * Events column or a quoted block re-flowed). Where the logical line of `k` ends, within `max`.
 */
function wrappedEnd(text: string, k: number, max: number): number {
  let le = lineEnd(text, k, max);
  for (let n = 0; n < 16 && le < text.length && le < k + max; n++) {
    if (!/[,;]\s*$/.test(text.slice(Math.max(k, le - 4), le)) || !/^\n[ \t]+\S/.test(text.slice(le, le + 8))) break;
    le = lineEnd(text, le + 1, max);
  }
  return le;
}

/** Where the logical line of `k` starts, over wrapped lines as `wrappedEnd` reads them. */
function wrappedStart(text: string, k: number, max: number): number {
  let ls = lineStart(text, k);
  for (let n = 0; n < 16 && ls > 0 && ls > k - max; n++) {
    if (!/^[ \t]+\S/.test(text.slice(ls, ls + 4))) break;
    const prev = lineStart(text, ls - 1);
    if (!/[,;]\s*$/.test(text.slice(prev, ls - 1))) break;
    ls = prev;
  }
  return ls;
}

/** Without a closing quote no quote of `s` opened (the end of the JSON string or log field the message was in). */
function unopenedQuoteOff(s: string): string {
  const m = /["'`]+$/.exec(s);
  if (!m) return s;
  const q = m[0][0]!;
  return (s.split(q).length - 1) % 2 === 1 ? s.slice(0, m.index).trimEnd() : s;
}

/** `Deployment` → `deployments`, `Pod` → `pods`, `Ingress` → `ingresses`, `NetworkPolicy` → `networkpolicies`. */
function kindResource(kind: string): string {
  const l = kind.toLowerCase();
  if (/(s|x|ch|sh)$/.test(l)) return `${l}es`;
  if (/[^aeiou]y$/.test(l)) return `${l.slice(0, -1)}ies`;
  return `${l}s`;
}
