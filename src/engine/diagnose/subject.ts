/**
 * The engine's part of a diagnosis: find, in the state, the pod a pasted error is about (the object
 * itself, or what its controller would create), or stand in a pod with the amounts the message names,
 * and the free capacity the message implies. answer/diagnose.ts reads the paste and words the reply.
 */
import type { Snapshot } from '../../k8s/snapshot.ts';
import type { Pod, ReplicaSet, Workload } from '../../k8s/objects.ts';
import { isWorkloadKind } from '../../k8s/objects.ts';
import { Quantity } from '../../quantity.ts';
import { expandWorkload } from '../workloads.ts';
import { ownerOf, refOf } from '../fixes.ts';
import { shouldRun } from '../controllers/daemon_set.ts';
import { daemonPodOn } from '../fixes/quota.ts';

/** What a finding names: the object in the message and the controller from around it. */
export interface Subject {
  object?: { resource?: string; name?: string };
  controller?: { kind: string; name: string };
  /** The finding's layer and message: a scheduler message naming no pod is matched to the Pending pod it was recorded for. */
  layer?: string;
  message?: string;
}

/** A pod the state holds (`existing`) or that its controller would create, and how fixes refer to it. */
export interface LocatedPod {
  pod: Pod;
  ref?: string;
  existing: boolean;
}

/** Finds the pod a finding (its subject) is about, in the state: the object itself, or what its controller would create. */
export function locatePod(state: Snapshot, f: Subject, ns: string): LocatedPod | null {
  const name = f.object?.name;
  if (name && (f.object?.resource === 'pods' || !f.object?.resource)) {
    const p = state.get('Pod', ns, name);
    if (p) {
      const owner = ownerOf(state, p);
      return { pod: p, ref: owner ? refOf(owner.kind, owner.name) : `pod/${name}`, existing: true };
    }
  }
  const tryWorkload = (kind: string, wname: string): LocatedPod | null => {
    const w = isWorkloadKind(kind) ? state.get(kind, ns, wname) : undefined;
    if (!w) return null;
    // A DaemonSet's pods are one per node that should run it: the first such node without its pod.
    const daemon = kind === 'DaemonSet';
    const exp = expandWorkload(w as Workload, {
      replicas: 1,
      nodes: daemon ? state.list('Node') : [],
      nodeEligible: shouldRun,
    });
    const pod = daemon ? (exp.pods.find((p) => !daemonPodOn(state, ns, wname, p)) ?? exp.pods[0]) : exp.pods[0];
    if (!pod) return null;
    let ref = refOf(kind, wname);
    if (kind === 'ReplicaSet') {
      const dep = (w as ReplicaSet).metadata.ownerReferences?.find((o) => o.kind === 'Deployment');
      if (dep) ref = refOf('Deployment', dep.name);
    }
    if (name && f.object?.resource === 'pods') pod.metadata.name = name;
    return { pod, ref, existing: false };
  };
  if (f.controller) {
    const hit = tryWorkload(f.controller.kind, f.controller.name);
    if (hit) return hit;
  }
  if (!name && f.layer === 'scheduler' && f.message) {
    const p = pendingPodWithMessage(state, ns, f.message);
    if (p) {
      const owner = ownerOf(state, p);
      return { pod: p, ref: owner ? refOf(owner.kind, owner.name) : `pod/${p.metadata.name ?? ''}`, existing: true };
    }
  }
  if (name) {
    // `web-7c5d8f9b4-x2k9q` → ReplicaSet `web-7c5d8f9b4`; `db-3` → StatefulSet `db`; `job-abcde` → Job.
    const rs = /^(.*)-[a-z0-9]{5}$/.exec(name)?.[1];
    if (rs)
      for (const k of ['ReplicaSet', 'Job', 'DaemonSet']) {
        const hit = tryWorkload(k, rs);
        if (hit) return hit;
      }
    const sts = /^(.*)-\d+$/.exec(name)?.[1];
    if (sts) {
      const hit = tryWorkload('StatefulSet', sts);
      if (hit) return hit;
    }
  }
  return null;
}

/**
 * The Pending pod of `ns` a FailedScheduling text was recorded for (its event, or its PodScheduled
 * condition, says exactly this): the text never names the pod. When several pods carry it, they must
 * have one owner (replicas of one workload are the same subject); otherwise none is guessed.
 */
export function pendingPodWithMessage(state: Snapshot, ns: string, message: string): Pod | undefined {
  const want = message.replace(/\s+/g, ' ').trim();
  const same = (m: unknown) => typeof m === 'string' && m.replace(/\s+/g, ' ').trim() === want;
  const names = new Set<string>();
  for (const e of state.iterate('Event', ns))
    if (e.reason === 'FailedScheduling' && e.involvedObject?.kind === 'Pod' && same(e.message))
      names.add(e.involvedObject.name ?? '');
  const hits: Pod[] = [];
  for (const p of state.iterate('Pod', ns)) {
    if (p.spec.nodeName || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    const cond = p.status?.conditions?.find((c) => c.type === 'PodScheduled');
    if (names.has(p.metadata.name ?? '') || same(cond?.message)) hits.push(p);
  }
  if (hits.length === 0) return undefined;
  const owners = new Set(hits.map((p) => JSON.stringify(ownerOf(state, p))));
  return owners.size === 1 ? hits[0] : undefined;
}

/**
 * A stand-in pod for a quota-exceeded message: one container `app` with the amounts it names (requests,
 * limits, extended resources as both), when the state does not have the object.
 */
export function podRequesting(
  name: string | undefined,
  ns: string,
  res: Record<string, { requested: string | null }>,
): Pod {
  const requests: Record<string, string> = {};
  const limits: Record<string, string> = {};
  for (const [k, v] of Object.entries(res)) {
    if (!v.requested || !Quantity.tryParse(v.requested)) continue;
    const m = /^(requests\.|limits\.)?(cpu|memory|ephemeral-storage)$/.exec(k);
    if (m) (m[1] === 'limits.' ? limits : requests)[m[2]!] = v.requested;
    else if (k.startsWith('requests.') && k.includes('/')) {
      requests[k.slice('requests.'.length)] = v.requested;
      limits[k.slice('requests.'.length)] = v.requested;
    }
  }
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: name ?? 'pasted-pod', namespace: ns },
    spec: {
      containers: [
        {
          name: 'app',
          resources: {
            ...(Object.keys(requests).length ? { requests } : {}),
            ...(Object.keys(limits).length ? { limits } : {}),
          },
        },
      ],
    },
  } satisfies Pod;
}

/** A stand-in pod for a must-specify message: the containers it names (or `app`), with nothing set. */
export function podWithContainers(name: string | undefined, ns: string, containers: string[]): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: name ?? 'pasted-pod', namespace: ns },
    spec: { containers: (containers.length ? containers : ['app']).map((n) => ({ name: n })) },
  } satisfies Pod;
}

/** Free = limited − used, computed (never left to the reader); '' when the text's values do not parse. */
export function freeOf(used: string, hard: string): string {
  const u = Quantity.tryParse(used);
  const h = Quantity.tryParse(hard);
  if (!u || !h) return '';
  const f = h.sub(u);
  return f.sign() < 0 ? `0 (over by ${f.neg()})` : f.toString();
}
