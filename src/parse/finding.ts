/**
 * The shape every parser in `src/parse/` produces. `index.ts` re-exports these; the layer modules import
 * them from here so that `index.ts` can import the modules without a cycle.
 *
 * A finding is a union keyed by `kind`: each kind carries exactly the docs/contract.md facts, typed, so
 * consumers narrow on `kind` instead of casting. Quantities are the strings in the text.
 */
import type { FindingLayer } from '../k8s/layers.ts';

export type Layer = FindingLayer;

/** Nodes with one scheduler reason; null only where the text gives neither a count nor a node total. */
export interface ReasonCount {
  count: number | null;
  reason: string;
}

/** One resource of a quota-exceeded message: `requested: X, used: Y, limited: Z`. */
export interface QuotaUsage {
  requested: string | null;
  used: string | null;
  limited: string | null;
}

/** One LimitRanger violation. */
export interface LimitViolation {
  scope: 'Container' | 'Pod' | 'PersistentVolumeClaim';
  resource: string;
  bound: 'min' | 'max' | 'ratio';
  limit: string;
  /** The request, limit or ratio the object had; null for the "No request/limit is specified" forms. */
  actual: string | null;
}

export interface QuotaExceededFacts {
  /** Null where the wording does not name the quota. */
  quota: string | null;
  resources: Record<string, QuotaUsage>;
  /** The resources where used + requested > limited. */
  exceeding: string[];
}
export interface QuotaMustSpecifyFacts {
  quota: string | null;
  /** Resource → the containers that lack it (empty where the text names none). */
  resources: Record<string, string[]>;
}
export interface QuotaStatusUnknownFacts {
  quota: string | null;
  resources: string[];
}
/** `insufficient quota to consume: …` (resources) or `… to match these scopes: …` (scopes). */
export interface QuotaInsufficientFacts {
  resources?: string[];
  scopes?: string[];
}
export interface LimitRangeFacts {
  violations: LimitViolation[];
}
export interface ApiValidationFacts {
  resource: string | null;
  value: string | null;
  limit: string | null;
  field: string | null;
}
export interface UnschedulableFacts {
  /** N of `0/N`; null for the wordings that do not print it (1.6–1.10). */
  total: number | null;
  reasons: ReasonCount[];
  preemption?: { total: number | null; reasons: ReasonCount[] };
}
export interface RuntimeFacts {
  /** `OOMKilled`, `Evicted`, `CPUThrottling`, `ExitCode137`, … */
  reason: string;
  /** The container the paste names as killed or evicted (describe block, status item, eviction message). */
  container?: string;
  /** Eviction: the resource the node was low on (`memory`, `ephemeral-storage`). */
  resource?: string;
  /** The container's memory limit as the paste (or the kernel's `memory: … limit NkB`) gives it. */
  limit?: string;
  /** Its request of the resource (memory; the eviction's resource): `request is R` / `its request of R` / Requests. */
  request?: string;
  /** What it used: the eviction's `was using U`, the kernel's cgroup `memory: usage NkB` or the killed process's anon-rss. */
  used?: string;
  /** The process the kernel killed (`Killed process 1234 (java)`, `task=java`). */
  process?: string;
  /** The app's own memory cap in the paste: `-Xmx4g` → 4Gi, `--maxmemory 2gb` → 2Gi, `GOMEMLIMIT=3GiB` → 3Gi. */
  appCap?: AppCap;
}
/** A memory cap the application sets itself, and what it comes to in Kubernetes units. */
export interface AppCap {
  /** As written: `-Xmx4g`, `--maxmemory 2gb`, `--max-old-space-size=4096`, `GOMEMLIMIT=3GiB`. */
  setting: string;
  memory: string;
  /** The JVM's and V8's caps are the heap only: the process needs more than that. */
  heapOnly: boolean;
}
export interface CloudQuotaFacts {
  provider: 'gcp' | 'aws' | 'azure' | 'oci';
  quota: string | null;
  limit?: string;
  region?: string;
}
export interface WebhookDeniedFacts {
  webhook: string;
  reason: string;
  engine?: 'gatekeeper' | 'kyverno';
  /** Gatekeeper: each `[constraint] message`; Kyverno: each policy's rule and its message. */
  violations?: PolicyViolation[];
  /** Kyverno: the resource it names, `Kind/namespace/name` (`policy Deployment/team-a/api for resource violation`). */
  resource?: string;
}
/**
 * A policy engine's report that an object breaks a rule (Kyverno's PolicyViolation events): in Audit mode
 * the object was admitted; `blocked` when an Enforce policy refused it.
 */
export interface PolicyViolationFacts {
  engine: 'kyverno';
  /** Null where the event names only the rule (the policy is then the event's object, not printed). */
  policy: string | null;
  rule: string | null;
  message: string;
  /** The object, `Kind/namespace/name` (or `Kind/name`), where the message names it. */
  resource?: string;
  blocked: boolean;
}
/** One rule a policy engine says the object breaks. */
export interface PolicyViolation {
  /** Gatekeeper: the constraint's name; Kyverno: the policy's. */
  name: string;
  /** Kyverno: the rule of the policy. */
  rule?: string;
  message: string;
}
/**
 * Pod Security admission (staging/src/k8s.io/pod-security-admission/admission/admission.go): `violates
 * PodSecurity "<level>:<version>": <control> (<detail>), …`; `would violate …` is the warn/audit form.
 */
export interface PodSecurityFacts {
  level: string;
  /** Null where the paste left it out (upstream always prints `level:version`). */
  version: string | null;
  controls: { control: string; detail?: string }[];
  /** False for `would violate` (a warning or audit annotation: the pod was admitted). */
  enforced: boolean;
}
/** Karpenter's provisioner: why each NodePool cannot launch a node for the pod. */
export interface KarpenterFacts {
  nodepools: { nodepool: string; reason: string }[];
}
export interface WebhookUnavailableFacts {
  webhook: string;
}
export interface AutoscalerFacts {
  reason: 'NotTriggerScaleUp';
  reasons: ReasonCount[];
}
export interface ExtenderQuotaFacts {
  extender: string;
  reason: string;
}
/**
 * The Priority admission plugin (plugin/pkg/admission/priority/admission.go, admitPod): the pod names a
 * PriorityClass that does not exist, or its spec carries an integer `priority` other than the one the
 * plugin computes from the class (`spec.priority` is set by admission, not by the user).
 */
export interface PriorityFacts {
  reason: 'class-not-found' | 'class-not-permitted' | 'priority-set' | 'preemption-policy-set';
  /** The class named (`class-not-found`, `class-not-permitted`); null where the text does not name it. */
  priorityClass: string | null;
  /**
   * `class-not-permitted`: the namespace the pod was created in (`pods with system-cluster-critical
   * priorityClass is not permitted in default namespace`: the system classes are only for kube-system).
   */
  inNamespace?: string;
  /** `priority-set`: the integer the spec gave, and the one computed from the class. */
  priority?: number;
  computed?: number;
  /** `preemption-policy-set`: the PreemptionPolicy the spec gave, and the one computed from the class. */
  preemptionPolicy?: string;
  computedPolicy?: string;
}
/**
 * The RuntimeClass admission plugin (plugin/pkg/admission/runtimeclass/admission.go): the pod names a
 * RuntimeClass that does not exist, sets an overhead its class does not define, or a nodeSelector that
 * conflicts with its class's `scheduling.nodeSelector`.
 */
/**
 * A ValidatingAdmissionPolicy's refusal (apiserver pkg/admission/plugin/policy/validating, dispatcher.go:
 * `ValidatingAdmissionPolicy '<policy>' with binding '<binding>' denied request: <message>`, or without the
 * binding): the cluster's own CEL policy, admission but neither quota nor LimitRange.
 */
export interface AdmissionPolicyFacts {
  policy: string;
  /** Null where the message names no binding. */
  binding: string | null;
  message: string;
}
export interface RuntimeClassFacts {
  reason: 'class-not-found' | 'overhead-mismatch' | 'overhead-without-class' | 'node-selector-conflict';
  /** The class named (`class-not-found`); null where the message does not name it. */
  runtimeClass: string | null;
  /** `node-selector-conflict`: the label key, the class's value and the pod's. */
  nodeSelector?: { key: string; runtimeClass: string; pod: string };
}
/**
 * Kueue's admission of a Workload (sigs.k8s.io/kueue pkg/scheduler/flavorassigner: `couldn't assign flavors to pod
 * set <name>: insufficient unused quota for cpu in flavor <f>, 3 more needed`, `borrowing limit for … exceeded`): its
 * ClusterQueue's quota, not a ResourceQuota; the job stays suspended and no pod exists yet.
 */
export interface KueueFacts {
  /** The pod set named; null where the text does not name it. */
  podSet: string | null;
  /** Kueue's reasons as printed. */
  message: string;
}
/**
 * A security admission plugin that refused the pod on its securityContext: SecurityContextDeny (removed in 1.30:
 * `SecurityContext.RunAsUser is forbidden`), PodSecurityPolicy (removed in 1.25: `unable to validate against any pod
 * security policy: […]`) or OpenShift's SecurityContextConstraints (`unable to validate against any security context
 * constraint: […]`).
 */
export interface AdmissionPluginFacts {
  plugin: 'SecurityContextDeny' | 'PodSecurityPolicy' | 'SecurityContextConstraints';
  message: string;
}
export interface VolcanoFacts {
  scheduler: 'volcano';
  gang: boolean;
}

/** The part of a finding that varies with its kind: layer, kind and facts together. */
export type FindingBody =
  | { layer: 'quota'; kind: 'quota-exceeded'; facts: QuotaExceededFacts }
  | { layer: 'quota'; kind: 'quota-must-specify'; facts: QuotaMustSpecifyFacts }
  | { layer: 'quota'; kind: 'quota-status-unknown'; facts: QuotaStatusUnknownFacts }
  | { layer: 'quota'; kind: 'quota-insufficient'; facts: QuotaInsufficientFacts }
  | { layer: 'limitrange'; kind: 'limitrange'; facts: LimitRangeFacts }
  | { layer: 'api-validation'; kind: 'api-validation'; facts: ApiValidationFacts }
  | { layer: 'scheduler'; kind: 'unschedulable'; facts: UnschedulableFacts }
  | { layer: 'runtime'; kind: 'runtime'; facts: RuntimeFacts }
  | { layer: 'other'; kind: 'cloud-quota'; facts: CloudQuotaFacts }
  | { layer: 'other'; kind: 'webhook-denied'; facts: WebhookDeniedFacts }
  | { layer: 'other'; kind: 'policy-violation'; facts: PolicyViolationFacts }
  | { layer: 'other'; kind: 'webhook-unavailable'; facts: WebhookUnavailableFacts }
  | { layer: 'other'; kind: 'autoscaler'; facts: AutoscalerFacts }
  | { layer: 'other'; kind: 'extender-quota'; facts: ExtenderQuotaFacts }
  | { layer: 'other'; kind: 'volcano'; facts: VolcanoFacts }
  | { layer: 'other'; kind: 'kueue'; facts: KueueFacts }
  | { layer: 'other'; kind: 'admission-plugin'; facts: AdmissionPluginFacts }
  | { layer: 'other'; kind: 'priority'; facts: PriorityFacts }
  | { layer: 'other'; kind: 'runtimeclass'; facts: RuntimeClassFacts }
  | { layer: 'other'; kind: 'admission-policy'; facts: AdmissionPolicyFacts }
  | { layer: 'other'; kind: 'pod-security'; facts: PodSecurityFacts }
  | { layer: 'other'; kind: 'karpenter'; facts: KarpenterFacts };

/**
 * A finding's facts read generically, key by key: for the checks that look at every kind's facts alike (a
 * placeholder value, a fact another match agrees with). Every facts type is a plain object of JSON values.
 */
export function factRecord(body: { facts: FindingBody['facts'] }): Readonly<Record<string, unknown>> {
  return writableFacts(body);
}

/** The same view, for the one pass that rewrites a look-alike's quoted message in place (backticks restored). */
export function writableFacts(body: { facts: FindingBody['facts'] }): Record<string, unknown> {
  const facts: object = body.facts;
  return facts as Record<string, unknown>;
}

export type FindingKind = FindingBody['kind'];
/** The body of one kind: `BodyOf<'runtime'>`. */
export type BodyOf<K extends FindingKind> = Extract<FindingBody, { kind: K }>;
/** The facts of one kind: `FactsOf<'quota-exceeded'>`. */
export type FactsOf<K extends FindingKind> = BodyOf<K>['facts'];

/** What every finding has besides its body. */
export interface FindingContext {
  object?: { resource?: string; name?: string };
  controller?: { kind: string; name: string };
  namespace?: string;
  /** The normalized matched message text (for display). */
  message: string;
  /** Era hint when the wording dates it, e.g. '<1.24', '1.25-1.27', '>=1.34.2'. */
  version?: string;
}

export type Finding<B extends FindingBody = FindingBody> = B & FindingContext;

/** Where in the normalized text a match's message lies. */
export interface MatchSpan {
  /** Offset of the message in the normalized text. */
  start: number;
  /** Offset just past the message. */
  end: number;
}

/**
 * What a layer module returns: a finding without the paste-level context (namespace, controller
 * from surrounding lines), plus where in the normalized text its message starts, so that `index.ts`
 * can order findings and look up the context around them.
 */
export type Match<B extends FindingBody = FindingBody> = B & FindingContext & MatchSpan;

/** Upper bound of one message we look at; kube-scheduler's full condition text is the longest real one. */
export const MAX_MESSAGE = 16_384;
