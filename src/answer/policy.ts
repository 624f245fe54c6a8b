/**
 * The access policy (QUOTA_DOCTOR_CONFIG): which namespaces a Slack channel may see, the namespace it
 * means when a question names none, and which kube context (cluster) it talks to.
 *
 * ```yaml
 * channels:
 *   - id: C012AB3CD          # the channel id (names can be renamed or re-taken; ids cannot)
 *     name: "#team-a"        # optional: a label for logs and reviewers, never matched on
 *     namespaces: [team-a, team-a-batch]
 *     defaultNamespace: team-a
 *     context: prod-eu       # optional kube context: several clusters, one app
 *     alerts:                # optional: post incidents of these namespaces here before anyone asks
 *       pendingAfter: 5m       #   a pod Pending this long is an incident (default 5m)
 *       quotaThreshold: 90     #   report a quota resource at 90% of hard, in workload units (default: off)
 *       quietHours: "22:00-07:00"  # UTC; incidents wait until the hours end (default: none)
 *       postsPerHour: 20       #   at most this many posts an hour in the channel (default 20)
 *   - id: C0PLATFORM
 *     namespaces: ["*"]      # every namespace
 * default:                   # optional: channels not listed (absent: they see nothing)
 *   namespaces: []
 * ```
 *
 * No file at all means everything is visible (a single-team install). With a file, a channel that is
 * not listed sees nothing unless `default` says otherwise: a forgotten channel fails closed.
 * A refusal never names the namespace that was refused or anyone else's data.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { UsageError } from './errors.ts';
import { emptyReply, type Answer } from './types.ts';

const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

const namespaceName = z
  .string()
  .max(63, { error: 'a namespace name has at most 63 characters' })
  .regex(NAMESPACE, { error: 'is not a namespace name (lowercase letters, digits and -)' });

const namespaceList = z.array(z.union([z.literal('*'), namespaceName]));

const accessSchema = z.strictObject({
  namespaces: namespaceList,
  defaultNamespace: namespaceName.optional(),
  context: z.string().min(1).optional(),
});

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const alertsSchema = z.union([
  z.boolean(),
  z.strictObject({
    pendingAfter: z
      .string()
      .regex(/^\d{1,5}(s|m|h)$/, { error: 'must look like 90s, 5m or 1h' })
      .optional(),
    quotaThreshold: z.number().int().min(1).max(99).optional(),
    quietHours: z
      .string()
      .refine((s) => s.split('-').length === 2 && s.split('-').every((p) => HHMM.test(p)), {
        error: 'must look like 22:00-07:00 (UTC)',
      })
      .optional(),
    postsPerHour: z.number().int().min(1).max(1000).optional(),
  }),
]);

const channelSchema = accessSchema.extend({
  id: z.string().regex(/^[CGD][A-Z0-9]{2,}$/, { error: 'is not a Slack channel id (C…, G… or D…)' }),
  name: z.string().min(1).optional(),
  alerts: alertsSchema.optional(),
});

/** How a channel wants incidents posted (`alerts:` on its entry). */
export interface AlertSettings {
  pendingAfterMs: number;
  /** Percent of hard; undefined: no threshold alerts. */
  quotaThreshold?: number;
  /** Minutes after 00:00 UTC: [start, end); start > end wraps midnight. */
  quietHours?: [number, number];
  postsPerHour: number;
}

export const DEFAULT_ALERTS: AlertSettings = { pendingAfterMs: 5 * 60_000, postsPerHour: 20 };

function toAlerts(a: z.infer<typeof alertsSchema>): AlertSettings | undefined {
  if (a === false) return undefined;
  if (a === true) return { ...DEFAULT_ALERTS };
  const unit = { s: 1000, m: 60_000, h: 3_600_000 } as const;
  const out: AlertSettings = { ...DEFAULT_ALERTS };
  if (a.pendingAfter !== undefined) {
    const m = /^(\d+)(s|m|h)$/.exec(a.pendingAfter)!;
    out.pendingAfterMs = Number(m[1]) * unit[m[2] as keyof typeof unit];
  }
  if (a.quotaThreshold !== undefined) out.quotaThreshold = a.quotaThreshold;
  if (a.quietHours !== undefined) {
    const [from, to] = a.quietHours.split('-').map((p) => {
      const [h, min] = p.split(':').map(Number) as [number, number];
      return h * 60 + min;
    }) as [number, number];
    out.quietHours = [from, to];
  }
  if (a.postsPerHour !== undefined) out.postsPerHour = a.postsPerHour;
  return out;
}

/** One channel that takes alerts, with what it may see. */
export interface AlertChannel {
  id: string;
  visibility: Visibility;
  context?: string;
  settings: AlertSettings;
}

const policySchema = z.strictObject({
  channels: z.array(channelSchema).default([]),
  default: accessSchema.optional(),
});

type AccessInput = z.infer<typeof accessSchema>;

/** What one channel may see; `allowedNamespaces` undefined = every namespace. */
export interface ChannelAccess {
  allowedNamespaces?: string[];
  defaultNamespace?: string;
  context?: string;
}

function toAccess(a: AccessInput): ChannelAccess {
  const out: ChannelAccess = {};
  if (!a.namespaces.includes('*')) out.allowedNamespaces = [...new Set(a.namespaces)].sort();
  if (a.defaultNamespace !== undefined) out.defaultNamespace = a.defaultNamespace;
  if (a.context !== undefined) out.context = a.context;
  return out;
}

export class AccessPolicy {
  /** Whether any policy file was given (no file: everything visible). */
  readonly configured: boolean;
  private readonly channels: ReadonlyMap<string, ChannelAccess>;
  private readonly names: ReadonlyMap<string, string>;
  private readonly fallback: ChannelAccess;
  private readonly alerts: ReadonlyMap<string, AlertSettings>;

  constructor(opts: {
    channels?: Map<string, ChannelAccess>;
    names?: Map<string, string>;
    fallback?: ChannelAccess;
    alerts?: Map<string, AlertSettings>;
    configured: boolean;
  }) {
    this.configured = opts.configured;
    this.channels = opts.channels ?? new Map();
    this.names = opts.names ?? new Map();
    this.alerts = opts.alerts ?? new Map();
    this.fallback = opts.fallback ?? (opts.configured ? { allowedNamespaces: [] } : {});
  }

  /** Everything visible: the policy without a file. */
  static open(): AccessPolicy {
    return new AccessPolicy({ configured: false });
  }

  policyFor(channelId: string): ChannelAccess {
    const a = this.channels.get(channelId) ?? this.fallback;
    return {
      ...(a.allowedNamespaces ? { allowedNamespaces: [...a.allowedNamespaces] } : {}),
      ...(a.defaultNamespace !== undefined ? { defaultNamespace: a.defaultNamespace } : {}),
      ...(a.context !== undefined ? { context: a.context } : {}),
    };
  }

  /** What a channel may see (the one access decision: `Visibility.allows`). */
  visibilityFor(channelId: string): Visibility {
    return Visibility.forChannel(this.channels.get(channelId) ?? this.fallback);
  }

  /** The label given to a channel in the policy file (for logs), when there is one. */
  channelName(channelId: string): string | undefined {
    return this.names.get(channelId);
  }

  /**
   * The channels that take alerts, in the file's order. Only listed channels can: `default` never alerts,
   * and without a policy file nothing is posted unasked (nobody said which channel owns what).
   */
  alertChannels(): AlertChannel[] {
    const out: AlertChannel[] = [];
    for (const [id, settings] of this.alerts) {
      const a = this.channels.get(id);
      if (!a) continue;
      const visibility = Visibility.forChannel(a);
      if (visibility.seesNothing) continue;
      out.push({ id, visibility, ...(a.context !== undefined ? { context: a.context } : {}), settings });
    }
    return out;
  }

  /** Every kube context the policy mentions (undefined = the default one). */
  contexts(): (string | undefined)[] {
    const set = new Set<string | undefined>([this.fallback.context]);
    for (const a of this.channels.values()) set.add(a.context);
    return [...set];
  }
}

/**
 * What one asker may see: the single access decision of quota-doctor. Every entry point (Slack message,
 * @mention, `/quota`, shortcut, DM, the console) builds one from the channel's policy before it parses or
 * answers anything, and asks it `allows(ns)`; nothing else decides visibility. `'*'` in a list means every
 * namespace (the policy file already turns it into "no list"; a caller passing `['*']` gets the same).
 */
export class Visibility {
  private constructor(private readonly only: ReadonlySet<string> | undefined) {}

  /** Every namespace: the CLI, the console, an install without a policy file, a `'*'` channel. */
  static everything(): Visibility {
    return new Visibility(undefined);
  }

  /** From a list of namespaces (`undefined` or a list holding `'*'` = every namespace). */
  static of(namespaces: readonly string[] | undefined): Visibility {
    if (namespaces === undefined || namespaces.includes('*')) return Visibility.everything();
    return new Visibility(new Set(namespaces));
  }

  /** What a channel of the policy may see. */
  static forChannel(access: ChannelAccess): Visibility {
    return Visibility.of(access.allowedNamespaces);
  }

  allows(namespace: string): boolean {
    return this.only === undefined || this.only.has(namespace);
  }

  /** A channel that sees no namespace at all (unlisted channel, DM): one short refusal, nothing else. */
  get seesNothing(): boolean {
    return this.only !== undefined && this.only.size === 0;
  }

  get seesEverything(): boolean {
    return this.only === undefined;
  }

  /** The namespaces of `namespaces` it may see, in their order. */
  visible(namespaces: readonly string[]): string[] {
    return namespaces.filter((ns) => this.allows(ns));
  }

  /** The namespaces of `namespaces` it may not see, each once (empty: all visible). */
  forbidden(namespaces: readonly string[]): string[] {
    return [...new Set(namespaces.filter((ns) => !this.allows(ns)))];
  }

  /** The sorted list it is limited to (`undefined` = every namespace). */
  list(): string[] | undefined {
    return this.only === undefined ? undefined : [...this.only].sort();
  }
}

/** Parses policy text; `source` names the file in errors. Throws UsageError (exit 2) with one line. */
export function parsePolicy(text: string, source = 'QUOTA_DOCTOR_CONFIG'): AccessPolicy {
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new UsageError(`${source}: not valid YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
  const parsed = policySchema.safeParse(doc ?? {});
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new UsageError(`${source}: ${i.path.length ? `${i.path.join('.')} ` : ''}${i.message}`);
  }
  const channels = new Map<string, ChannelAccess>();
  const names = new Map<string, string>();
  const alerts = new Map<string, AlertSettings>();
  const check = (where: string, a: AccessInput) => {
    if (a.defaultNamespace !== undefined && !a.namespaces.includes('*') && !a.namespaces.includes(a.defaultNamespace)) {
      throw new UsageError(`${source}: ${where}: defaultNamespace ${a.defaultNamespace} is not one of its namespaces`);
    }
  };
  parsed.data.channels.forEach((c, i) => {
    const where = `channels.${i} (${c.id})`;
    if (channels.has(c.id)) throw new UsageError(`${source}: ${where}: channel listed twice`);
    check(where, c);
    channels.set(c.id, toAccess(c));
    if (c.name !== undefined) names.set(c.id, c.name);
    const settings = c.alerts === undefined ? undefined : toAlerts(c.alerts);
    if (settings) alerts.set(c.id, settings);
  });
  if (parsed.data.default) check('default', parsed.data.default);
  return new AccessPolicy({
    channels,
    names,
    alerts,
    configured: true,
    ...(parsed.data.default ? { fallback: toAccess(parsed.data.default) } : {}),
  });
}

/** No path: everything visible. A path that cannot be read is bad usage (exit 2), not "open". */
export function loadPolicy(path: string | undefined): AccessPolicy {
  if (path === undefined) return AccessPolicy.open();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${path}: ${code === 'ENOENT' ? 'no such file' : e instanceof Error ? e.message : String(e)}`);
  }
  return parsePolicy(text, path);
}

export const REFUSAL_HEADLINE = "Sorry — this channel isn't set up to see that";
export const REFUSAL_LINE =
  'Ask in the channel of the team that owns it, or ask the platform team to add it to this channel in the quota-doctor policy.';

/**
 * The one refusal: when an answer would show a namespace the channel may not see, or the channel sees
 * nothing. Short, polite, and names nothing — not the namespace asked about, not which namespaces exist,
 * not who owns them — so it reads the same whether what was asked about exists or not. `detail` is a line
 * about the asker's own text (which term of their manifest), never about the cluster.
 */
export function refusalAnswer(detail?: string): Answer {
  const r = emptyReply('refusal', '🔒', REFUSAL_HEADLINE);
  if (detail !== undefined) r.lines.push(detail);
  r.lines.push(REFUSAL_LINE);
  return { replies: [r], namespaces: [] };
}

/** The answer itself when every namespace it names is visible; the refusal otherwise. */
export function guardAnswer(answer: Answer, visibility: Visibility): Answer {
  return visibility.forbidden(answer.namespaces).length === 0 ? answer : refusalAnswer();
}
