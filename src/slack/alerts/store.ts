/**
 * Open incidents kept in the cluster, so that a restart or a new leader does not post them again: one
 * ConfigMap in the bot's own namespace (RBAC: get/update on that one name, shipped with the manifests),
 * key `incidents.json`. Bounded: at most MAX_POSTED posts and MAX_MUTES mutes are kept (oldest first out),
 * far below the 1 MiB object limit.
 */

export interface PostedIncident {
  channel: string;
  key: string;
  /** The post's ts: thread replies and updates go there. */
  ts: string;
  fingerprint: string;
  /** Epoch ms the post was made. */
  postedAt: number;
  title: string;
  /** The namespace (buttons check the channel may still see it). */
  namespace: string;
}

export interface Mute {
  channel: string;
  key: string;
  /** Epoch ms. */
  until: number;
}

export interface StoreState {
  posted: PostedIncident[];
  mutes: Mute[];
}

export interface IncidentStore {
  /** `undefined` when it could not be read: the caller must not post (it cannot know what was posted). */
  load(): Promise<StoreState | undefined>;
  save(state: StoreState): Promise<boolean>;
  describe(): string;
}

export const MAX_POSTED = 2000;
export const MAX_MUTES = 500;
export const DATA_KEY = 'incidents.json';

export function emptyState(): StoreState {
  return { posted: [], mutes: [] };
}

/** Keeps the newest entries within the bounds, and drops expired mutes. */
export function bounded(state: StoreState, now: number): StoreState {
  const posted = [...state.posted].sort((a, b) => a.postedAt - b.postedAt).slice(-MAX_POSTED);
  const mutes = state.mutes.filter((m) => m.until > now).slice(-MAX_MUTES);
  return { posted, mutes };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses the stored text; anything malformed is left out (never a crash, never a guess). */
export function parseState(text: string | undefined): StoreState {
  if (!text) return emptyState();
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return emptyState();
  }
  if (!isRecord(doc)) return emptyState();
  const posted: PostedIncident[] = [];
  for (const p of Array.isArray(doc.posted) ? doc.posted : []) {
    if (!isRecord(p)) continue;
    const { channel, key, ts, fingerprint, postedAt, title, namespace } = p;
    if (
      typeof channel === 'string' &&
      typeof key === 'string' &&
      typeof ts === 'string' &&
      typeof fingerprint === 'string' &&
      typeof postedAt === 'number' &&
      typeof title === 'string' &&
      typeof namespace === 'string'
    )
      posted.push({ channel, key, ts, fingerprint, postedAt, title, namespace });
  }
  const mutes: Mute[] = [];
  for (const m of Array.isArray(doc.mutes) ? doc.mutes : []) {
    if (!isRecord(m)) continue;
    const { channel, key, until } = m;
    if (typeof channel === 'string' && typeof key === 'string' && typeof until === 'number')
      mutes.push({ channel, key, until });
  }
  return { posted, mutes };
}

export class MemoryStore implements IncidentStore {
  private state: StoreState = emptyState();
  saves = 0;

  async load(): Promise<StoreState | undefined> {
    return structuredClone(this.state);
  }

  async save(state: StoreState): Promise<boolean> {
    this.saves++;
    this.state = structuredClone(state);
    return true;
  }

  describe(): string {
    return 'memory (one replica, lost on restart)';
  }
}

/** The parts of a ConfigMap read and written here (client-node's V1ConfigMap fits). */
export interface StoredConfigMap {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  data?: { [key: string]: string };
}

export interface ConfigMapApi {
  readNamespacedConfigMap(param: { name: string; namespace: string }): Promise<StoredConfigMap>;
  replaceNamespacedConfigMap(param: {
    name: string;
    namespace: string;
    body: StoredConfigMap;
  }): Promise<StoredConfigMap>;
}

export class ConfigMapStore implements IncidentStore {
  private resourceVersion: string | undefined;

  constructor(
    private readonly api: ConfigMapApi,
    private readonly namespace: string,
    private readonly name: string,
    private readonly now: () => number = Date.now,
  ) {}

  describe(): string {
    return `ConfigMap ${this.namespace}/${this.name}`;
  }

  async load(): Promise<StoreState | undefined> {
    try {
      const cm = await this.api.readNamespacedConfigMap({ name: this.name, namespace: this.namespace });
      this.resourceVersion = cm.metadata?.resourceVersion;
      return parseState(cm.data?.[DATA_KEY]);
    } catch {
      return undefined;
    }
  }

  async save(state: StoreState): Promise<boolean> {
    const text = JSON.stringify(bounded(state, this.now()));
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const body: StoredConfigMap = {
          metadata: {
            name: this.name,
            namespace: this.namespace,
            ...(this.resourceVersion ? { resourceVersion: this.resourceVersion } : {}),
          },
          data: { [DATA_KEY]: text },
        };
        const out = await this.api.replaceNamespacedConfigMap({ name: this.name, namespace: this.namespace, body });
        this.resourceVersion = out.metadata?.resourceVersion;
        return true;
      } catch (e) {
        const code = typeof e === 'object' && e !== null && 'code' in e ? e.code : undefined;
        // 409: someone wrote it since we read it (a former leader): read the version and write ours once more.
        if (code !== 409 || attempt > 0) return false;
        try {
          const cm = await this.api.readNamespacedConfigMap({ name: this.name, namespace: this.namespace });
          this.resourceVersion = cm.metadata?.resourceVersion;
        } catch {
          return false;
        }
      }
    }
    return false;
  }
}
