/**
 * The cluster as the engine sees it: objects by kind, namespace and name, with copy-on-write forks so a
 * what-if or a simulation never touches the state it started from. Derived indexes (node sums, quota
 * usage) register as `Derived` values: they are built once, forked with the snapshot, and told about
 * every change, so no question ever scans all pods.
 */
import type { KindMap, KnownKind } from './objects.ts';

export interface KObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string; [k: string]: unknown };
  [k: string]: unknown;
}

/** A value computed from a snapshot and kept current as objects change. */
export interface Derived {
  /** A copy for a forked snapshot (may share structure copy-on-write). */
  fork(): Derived;
  /** Called after an object was put or removed (`next` undefined). */
  onChange?(kind: string, prev: KObject | undefined, next: KObject | undefined): void;
}

const CLUSTER = '';

/** Values computed from one shared (kind, namespace) store, by memo key (see `Snapshot.memoNs`). */
const storeMemos = new WeakMap<Map<string, KObject>, Map<string, unknown>>();

type NsStore = Map<string, KObject>;
type KindStore = Map<string, NsStore>;

export class Snapshot {
  private stores: Map<string, KindStore>;
  /** (kind, ns) stores this snapshot may mutate in place; others are shared with the parent. */
  private owned: Set<string>;
  private ownedKinds: Set<string>;
  private derived: Map<string, Derived>;
  private parent?: Snapshot;
  /** Bumped on every write; a fork remembers its parent's version to know whether they still agree. */
  private version = 0;
  private parentVersion = 0;

  constructor() {
    this.stores = new Map();
    this.owned = new Set();
    this.ownedKinds = new Set();
    this.derived = new Map();
  }

  /** A copy-on-write child: writes to it never reach this snapshot. */
  fork(): Snapshot {
    const child = new Snapshot();
    child.stores = new Map(this.stores);
    child.parent = this;
    child.parentVersion = this.version;
    // Both sides now share every store: the next write on either side copies first.
    this.owned.clear();
    this.ownedKinds.clear();
    for (const [k, d] of this.derived) child.derived.set(k, d.fork());
    return child;
  }

  private nsKey(kind: string, ns: string): string {
    return `${kind}\u0000${ns}`;
  }

  private writableNs(kind: string, ns: string): NsStore {
    let kindStore = this.stores.get(kind);
    if (!kindStore) {
      kindStore = new Map();
      this.stores.set(kind, kindStore);
      this.ownedKinds.add(kind);
    } else if (!this.ownedKinds.has(kind)) {
      kindStore = new Map(kindStore);
      this.stores.set(kind, kindStore);
      this.ownedKinds.add(kind);
    }
    const key = this.nsKey(kind, ns);
    let nsStore = kindStore.get(ns);
    if (!nsStore) {
      nsStore = new Map();
      kindStore.set(ns, nsStore);
      this.owned.add(key);
    } else if (!this.owned.has(key)) {
      nsStore = new Map(nsStore);
      kindStore.set(ns, nsStore);
      this.owned.add(key);
    }
    return nsStore;
  }

  /** Adds or replaces an object (keyed by kind, namespace, name). Every `KindMap` type is a `KObject`. */
  put(obj: KObject): void {
    const kind = obj.kind ?? '';
    const ns = obj.metadata.namespace ?? CLUSTER;
    const name = obj.metadata.name ?? '';
    const store = this.writableNs(kind, ns);
    const prev = store.get(name);
    store.set(name, obj);
    this.version++;
    for (const d of this.derived.values()) d.onChange?.(kind, prev, obj);
  }

  remove<K extends KnownKind>(kind: K, namespace: string | undefined, name: string): KindMap[K] | undefined;
  remove(kind: string, namespace: string | undefined, name: string): KObject | undefined;
  remove(kind: string, namespace: string | undefined, name: string): KObject | undefined {
    const existing = this.get(kind, namespace, name);
    if (!existing) return undefined;
    const store = this.writableNs(kind, namespace ?? CLUSTER);
    store.delete(name);
    this.version++;
    for (const d of this.derived.values()) d.onChange?.(kind, existing, undefined);
    return existing;
  }

  /** One object: of its kind's type for a known kind (`get('Pod', ns, name)` is a `Pod`), a `KObject` otherwise. */
  get<K extends KnownKind>(kind: K, namespace: string | undefined, name: string): KindMap[K] | undefined;
  get(kind: string, namespace: string | undefined, name: string): KObject | undefined;
  get(kind: string, namespace: string | undefined, name: string): KObject | undefined {
    return this.stores
      .get(kind)
      ?.get(namespace ?? CLUSTER)
      ?.get(name);
  }

  /** Objects of a kind in a namespace (or all namespaces when `namespace` is undefined), sorted by name. */
  list<K extends KnownKind>(kind: K, namespace?: string): KindMap[K][];
  list(kind: string, namespace?: string): KObject[];
  list(kind: string, namespace?: string): KObject[] {
    const kindStore = this.stores.get(kind);
    if (!kindStore) return [];
    if (namespace !== undefined) {
      const s = kindStore.get(namespace);
      if (!s) return [];
      return [...s.values()].sort(byName);
    }
    const out: KObject[] = [];
    for (const s of kindStore.values()) for (const o of s.values()) out.push(o);
    return out;
  }

  /** Objects of a kind in a namespace, unsorted (hot paths). */
  iterate<K extends KnownKind>(kind: K, namespace?: string): IterableIterator<KindMap[K]>;
  iterate(kind: string, namespace?: string): IterableIterator<KObject>;
  *iterate(kind: string, namespace?: string): IterableIterator<KObject> {
    const kindStore = this.stores.get(kind);
    if (!kindStore) return;
    if (namespace !== undefined) {
      const s = kindStore.get(namespace);
      if (s) yield* s.values();
      return;
    }
    for (const s of kindStore.values()) yield* s.values();
  }

  count(kind: string, namespace?: string): number {
    const kindStore = this.stores.get(kind);
    if (!kindStore) return 0;
    if (namespace !== undefined) return kindStore.get(namespace)?.size ?? 0;
    let n = 0;
    for (const s of kindStore.values()) n += s.size;
    return n;
  }

  /** Every namespace that has a Namespace object or any namespaced object. */
  namespaces(): string[] {
    const out = new Set<string>();
    for (const ns of this.stores.get('Namespace')?.get(CLUSTER)?.keys() ?? []) out.add(ns);
    for (const [kind, ks] of this.stores) {
      if (kind === 'Namespace') continue;
      for (const [ns, s] of ks) if (ns !== CLUSTER && s.size > 0) out.add(ns);
    }
    return [...out].sort();
  }

  hasNamespace(ns: string): boolean {
    if (this.get('Namespace', undefined, ns)) return true;
    for (const [kind, ks] of this.stores) if (kind !== 'Namespace' && (ks.get(ns)?.size ?? 0) > 0) return true;
    return false;
  }

  /** Namespaces that hold a store of `kind` (possibly empty), in store order. */
  storeNamespaces(kind: string): IterableIterator<string> {
    return (this.stores.get(kind) ?? new Map<string, NsStore>()).keys();
  }

  /**
   * Namespaces whose objects of `kind` may differ between this snapshot and `other` (a fork and the
   * state it came from): every namespace whose store is not the very same one on both sides.
   */
  divergedNamespaces(other: Snapshot, kind: string): Set<string> {
    const mine = this.stores.get(kind);
    const theirs = other.stores.get(kind);
    const out = new Set<string>();
    if (mine === theirs) return out;
    for (const [ns, store] of mine ?? []) if (theirs?.get(ns) !== store) out.add(ns);
    for (const ns of theirs?.keys() ?? []) if (!mine?.has(ns)) out.add(ns);
    return out;
  }

  /**
   * `compute` over the objects of one kind in one namespace, kept with that store while it is shared:
   * a store no snapshot may write in place any more (it was forked: a write on either side copies it
   * first) never changes, so every snapshot that still holds it reuses the value. A store this snapshot
   * may still write is computed afresh each call. `key` names what is computed (one function per key).
   */
  memoNs<K extends KnownKind, T>(
    kind: K,
    ns: string,
    key: string,
    compute: (objects: IterableIterator<KindMap[K]>) => T,
  ): T;
  memoNs<T>(kind: string, ns: string, key: string, compute: (objects: IterableIterator<KObject>) => T): T;
  memoNs<T>(kind: string, ns: string, key: string, compute: (objects: IterableIterator<KObject>) => T): T {
    const store = this.stores.get(kind)?.get(ns);
    if (!store) return compute([].values());
    if (this.owned.has(this.nsKey(kind, ns))) return compute(store.values());
    let memo = storeMemos.get(store);
    if (!memo) {
      memo = new Map();
      storeMemos.set(store, memo);
    }
    if (memo.has(key)) return memo.get(key) as T;
    const v = compute(store.values());
    memo.set(key, v);
    return v;
  }

  /**
   * Forgets this snapshot's own derived value of `key` (forks already taken keep theirs): a superseded
   * generation of a cache lets go of what only its own questions used (the live cache, fix memos).
   */
  dropDerived(key: string): void {
    this.derived.delete(key);
  }

  /** A derived value, built on first use and kept current afterwards. */
  derive<T extends Derived>(key: string, build: (s: Snapshot) => T): T {
    let d = this.derived.get(key);
    if (!d) {
      // Built once at the root and inherited: a fork that has not diverged from its parent takes a
      // fork of the parent's value (so the live cache's index survives every per-question fork).
      if (this.parent && this.version === 0 && this.parent.version === this.parentVersion) {
        d = this.parent.derive(key, build).fork();
      } else {
        d = build(this);
      }
      this.derived.set(key, d);
    }
    return d as T;
  }
}

function byName(a: KObject, b: KObject): number {
  const x = a.metadata.name ?? '';
  const y = b.metadata.name ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}
