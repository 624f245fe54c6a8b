/**
 * The JSON contract of docs/contract.md as zod 4 schemas: what `simulate --json`, `check --json`,
 * `diagnose --json`, `quota --json` and `whatif --json` print today, and the inputs of the MCP tools
 * (`quota-doctor mcp`), whose input and output schemas are these. test/mcp/contract.test.ts runs the real
 * CLI on manifests/demo and validates its output here, so the schemas and the code cannot drift apart.
 *
 * Objects quota-doctor builds are strict (an added field fails the test until it is described here);
 * Kubernetes objects (`object` of a simulation result) are loose: they are the API server's shape.
 * A finding's `facts` is described loosely (a record) for now: its shape per `kind` is being typed in
 * src/parse/finding.ts, and docs/contract.md's table is the reference until this schema follows it.
 */
import { z } from 'zod';

/** A quantity in the canonical form Kubernetes prints ("500m", "1Gi", "2"). */
const quantity = z.string();
const resourceList = z.record(z.string(), quantity);

/**
 * A fix: who, one line, the one exact command (`""` for a node-pool change), whether it ends the incident
 * after convergence, what happens, and what else changes.
 */
export const fixSchema = z.strictObject({
  who: z.enum(['app-team', 'platform']),
  summary: z.string(),
  change: z.string(),
  verified: z.boolean(),
  outcome: z.string(),
  sideEffects: z.array(z.string()),
});

/** A fix inside a reply (`whatif --json`): what-if fixes may not carry `change`, `outcome` or `sideEffects` yet. */
const replyFixSchema = fixSchema.partial({ change: true, outcome: true, sideEffects: true });

/** A Kubernetes object as the API server would store it (after defaulting and LimitRanger). */
const kubernetesObject = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string(),
  metadata: z.looseObject({ name: z.string().optional(), namespace: z.string().optional() }),
});

/**
 * What an answer needed and could not read (docs/contract.md, exit 3): the resource, its namespace (null:
 * cluster-wide), and why (engine/completeness.ts `Cause`). Empty when everything needed was read.
 */
export const incompleteSchema = z.array(
  z.strictObject({
    resource: z.string(),
    namespace: z.string().nullable(),
    reason: z.enum([
      'Forbidden',
      'Unauthorized',
      'TLS',
      'Unreachable',
      'TooManyRequests',
      'ServerError',
      'Timeout',
      'Credentials',
      'NotRead',
    ]),
  }),
);

/** One simulated object: `simulate --json`'s `results[]`, `diagnose --json`'s `manifests[]`. */
export const simResultSchema = z.strictObject({
  kind: z.string(),
  namespace: z.string(),
  name: z.string(),
  admission: z.strictObject({
    /** null: undecided, the namespace's LimitRanges or quotas were not read (see `verdict`, `incomplete`). */
    allowed: z.boolean().nullable(),
    layer: z.enum(['api-validation', 'limitrange', 'quota', 'scheduler']).nullable(),
    /** The API server's Status.message, byte for byte; null when allowed. */
    message: z.string().nullable(),
  }),
  object: kubernetesObject,
  /** Per matching ResourceQuota, the usage this object adds. */
  quotaUsage: z.record(z.string(), resourceList),
  scheduling: z
    .strictObject({
      scheduled: z.boolean(),
      node: z.string().nullable(),
      message: z.string().nullable(),
      nominatedNode: z.string().optional(),
      victims: z.array(z.string()).optional(),
      gated: z.boolean().optional(),
      preEnqueue: z.strictObject({ plugin: z.string(), reason: z.string() }).optional(),
      unknown: z.string().optional(),
    })
    .nullable(),
  /** `simulate`/`check`: decided on what was read (`passes`, `fails`) or not (`unknown`: see `incomplete`). */
  verdict: z.enum(['passes', 'fails', 'unknown']).optional(),
});

/** `simulate --json` (and `check --json`). */
export const simulateOutputSchema = z.strictObject({
  results: z.array(simResultSchema),
  warnings: z.array(z.string()),
  incomplete: incompleteSchema,
});

/** The MCP `check` tool: `check --json` plus the verdict the CLI gives as its exit status (0 pass, 1 fail, 3 unknown). */
export const checkOutputSchema = simulateOutputSchema.extend({
  verdict: z.enum(['pass', 'fail', 'unknown']),
});

/** One finding of `diagnose --json`. */
export const findingSchema = z.strictObject({
  layer: z.enum(['api-validation', 'limitrange', 'quota', 'scheduler', 'runtime', 'other']),
  kind: z.string(),
  object: z.strictObject({ resource: z.string().optional(), name: z.string().optional() }).optional(),
  namespace: z.string().optional(),
  /** The subject replayed against the state as it is: `unknown` without a state or what the answer needs. */
  now: z.enum(['passes', 'fails', 'unknown']),
  /** Per `kind` (docs/contract.md's table); loose until src/parse/finding.ts's types are settled. */
  facts: z.record(z.string(), z.unknown()),
  explanation: z.string(),
  fixes: z.array(fixSchema),
});

/** `diagnose --json`. */
export const diagnoseOutputSchema = z.strictObject({
  findings: z.array(findingSchema),
  manifests: z.array(simResultSchema),
  incomplete: incompleteSchema,
});

const fitLimitedBy = z.string().nullable();

/** `quota NS --json`: headroom of a namespace. */
export const quotaOutputSchema = z.strictObject({
  namespace: z.string(),
  quotas: z.array(
    z.strictObject({
      name: z.string(),
      scopes: z.array(z.string()),
      resources: z.record(z.string(), z.strictObject({ hard: quantity, used: quantity, free: quantity })),
      /** The resource closest to its hard limit (used / hard), null when the quota tracks nothing. */
      tightest: z.string().nullable(),
      /** Who holds `tightest`: only the pods this quota counts (its scopes), by owner, largest first. */
      holders: z.array(
        z.strictObject({ ref: z.string(), pods: z.number().int(), pending: z.number().int(), total: quantity }),
      ),
      /** Pending pods this quota counts and what they hold of each resource it tracks. */
      pending: z.strictObject({ pods: z.array(z.string()), resources: resourceList }),
    }),
  ),
  limitRanges: z.array(
    z.strictObject({
      name: z.string(),
      type: z.string(),
      default: resourceList,
      defaultRequest: resourceList,
      min: resourceList,
      max: resourceList,
      maxLimitRequestRatio: resourceList,
    }),
  ),
  /** `fits` null: placement decides it and the nodes could not be read (see `incomplete`). */
  defaultPod: z.strictObject({
    fits: z.number().int().nullable(),
    limitedBy: fitLimitedBy,
    quota: z.string().optional(),
  }),
  largestSchedulablePod: z.strictObject({ cpu: quantity, memory: quantity, node: z.string() }).nullable(),
  /** null: the namespace's workloads could not be read. */
  workloads: z
    .array(
      z.strictObject({
        kind: z.string(),
        name: z.string(),
        replicas: z.number().int(),
        perPod: resourceList,
        moreReplicasFit: z.number().int().nullable(),
        limitedBy: fitLimitedBy,
        quota: z.string().optional(),
      }),
    )
    .nullable(),
  /** null: the namespace's pods could not be read. */
  pendingPods: z.array(z.string()).nullable(),
  /** The resources the namespace uses: cpu, memory, then ephemeral-storage and extended resources it requests or a quota tracks. */
  nodeResources: z.array(z.string()),
  /** Every node: allocatable, requested (all pods bound there) and free of each of nodeResources; null: the nodes could not be read. */
  nodes: z
    .array(
      z.strictObject({
        name: z.string(),
        status: z.array(z.enum(['cordoned', 'NotReady'])),
        taints: z.array(z.string()),
        pods: z.strictObject({ allocatable: z.number().int(), count: z.number().int() }),
        resources: z.record(z.string(), z.strictObject({ allocatable: quantity, requested: quantity, free: quantity })),
      }),
    )
    .nullable(),
  /** Workloads whose controller fails to create pods (FailedCreate events), latest first. */
  failedCreate: z.array(
    z.strictObject({
      ref: z.string(),
      object: z.string(),
      cause: z.string(),
      message: z.string(),
      count: z.number().int(),
      first: z.string().nullable(),
      last: z.string().nullable(),
    }),
  ),
  incomplete: incompleteSchema,
});

/** `quota NS --json` exiting 3: the namespace's quotas or LimitRanges could not be read, so no numbers. */
export const quotaUndecidedSchema = z.strictObject({ namespace: z.string(), incomplete: incompleteSchema });

/** A renderer-neutral reply (src/answer/types.ts `Reply`). */
export const replySchema = z.strictObject({
  kind: z.enum(['diagnosis', 'headroom', 'whatif', 'simulation', 'help', 'refusal', 'error', 'info']),
  icon: z.string(),
  headline: z.string(),
  path: z
    .array(
      z.strictObject({
        layer: z.enum(['LimitRange', 'ResourceQuota', 'Scheduler']),
        state: z.enum(['pass', 'fail', 'unknown']),
      }),
    )
    .optional(),
  table: z.strictObject({ columns: z.array(z.string()), rows: z.array(z.array(z.string())) }).optional(),
  bars: z
    .array(
      z.strictObject({
        label: z.string(),
        used: z.string(),
        hard: z.string(),
        free: z.string(),
        fraction: z.number(),
        note: z.string().optional(),
      }),
    )
    .optional(),
  lines: z.array(z.string()),
  fixes: z.array(replyFixSchema),
  why: z.string().optional(),
  raw: z.string().optional(),
  gaps: z.array(z.string()),
});

/** `whatif --json`. */
export const whatifOutputSchema = z.strictObject({
  replies: z.array(replySchema),
  /**
   * A what-if answered by converging a change (docs/contract.md, `whatif`): the change and its one
   * command, the outcome per workload, and the fixes in `diagnose --json`'s shape.
   */
  whatif: z
    .strictObject({
      change: z.looseObject({ kind: z.string(), command: z.string() }),
      refused: z.string().optional(),
      steps: z.number().int().nonnegative(),
      bounded: z.boolean(),
      outcome: z.array(
        z.strictObject({
          kind: z.string(),
          namespace: z.string(),
          name: z.string(),
          wanted: z.number().int().nonnegative(),
          admitted: z.number().int().nonnegative(),
          scheduled: z.number().int().nonnegative(),
          updated: z.number().int().nonnegative(),
          created: z.number().int().nonnegative(),
          refused: z.string().nullable(),
          pending: z.array(z.strictObject({ pod: z.string(), message: z.string() })),
          stalled: z.boolean(),
        }),
      ),
      nowScheduled: z.array(z.strictObject({ pod: z.string(), node: z.string() })),
      evicted: z.array(z.string()),
      preempted: z.array(z.strictObject({ pod: z.string(), by: z.string(), node: z.string() })),
      /** A drain's evictions a PodDisruptionBudget refuses (429): the pods stay on the cordoned node. */
      evictionsRefused: z.array(z.strictObject({ pod: z.string(), pdb: z.string(), message: z.string() })).optional(),
      fixes: z.array(fixSchema),
    })
    .optional(),
  incomplete: incompleteSchema,
});

const namespaceName = z
  .string()
  .max(63)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, { error: 'is not a namespace name (lowercase letters, digits and -)' });
const nsWhenNone = namespaceName.optional();

/** Inputs of the MCP tools: the arguments of the CLI command of the same name. */
export const diagnoseInputSchema = z.strictObject({
  text: z.string().describe('pasted text: kubectl errors, events, describe output, Status JSON, manifests'),
  namespace: nsWhenNone.describe('namespace when the text names none (-n)'),
});

export const simulateInputSchema = z.strictObject({
  manifest: z.string().describe('multi-document YAML or JSON of Kubernetes objects (what -f reads)'),
  namespace: nsWhenNone.describe('namespace for objects that name none (-n)'),
});

export const checkInputSchema = simulateInputSchema;

export const quotaInputSchema = z.strictObject({
  namespace: namespaceName.describe('the namespace whose headroom to show'),
});

export const whatifInputSchema = z.strictObject({
  question: z
    .string()
    .describe('"what if web scales to 8", "what if node-3 goes down", "raise pods of team-quota to 14 in team-a", …'),
  namespace: nsWhenNone.describe('namespace when the question names none (-n)'),
});

export type SimulateOutput = z.infer<typeof simulateOutputSchema>;
export type CheckOutput = z.infer<typeof checkOutputSchema>;
export type DiagnoseOutput = z.infer<typeof diagnoseOutputSchema>;
export type QuotaOutput = z.infer<typeof quotaOutputSchema>;
export type WhatifOutput = z.infer<typeof whatifOutputSchema>;
