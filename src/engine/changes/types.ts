/**
 * A change to the cluster: what a fix proposes and what a what-if asks about. Each kind has exactly one
 * command that makes it (command.ts renders and parses it) and one meaning (apply.ts applies it as the
 * API server would); converge.ts then runs the controllers over the result.
 */
import type { KObject } from '../../k8s/snapshot.ts';

/** An object a command names: `deploy/api` in team-a. `namespace` is absent for cluster-scoped kinds. */
export interface ObjectRef {
  /** The object's kind as stored: Deployment, StatefulSet, ReplicaSet, Job, DaemonSet, CronJob, Pod, Node, … */
  kind: string;
  namespace?: string;
  name: string;
}

/** maxSurge / maxUnavailable as a Deployment stores them: a count or a percentage ("25%"). */
export type IntOrPercent = number | string;

export type PatchType = 'merge' | 'json' | 'strategic';

/** One RFC 6902 operation. */
export interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}

export type Change =
  /** `kubectl scale deploy/api --replicas=N`. */
  | { kind: 'scale'; target: ObjectRef; replicas: number }
  /**
   * `kubectl set resources deploy/api -c api --requests=cpu=770m,memory=1Gi --limits=…`: one command for
   * every resource of one container. On a bare Pod the API server refuses it (a pod's resources are
   * immutable): use `recreatePod`.
   */
  | {
      kind: 'setResources';
      target: ObjectRef;
      container: string;
      requests?: Record<string, string>;
      limits?: Record<string, string>;
    }
  /** `kubectl patch <ref> --type merge|json|strategic -p '<body>'`. */
  | { kind: 'patch'; target: ObjectRef; type: PatchType; body: unknown }
  /** `kubectl apply -f -` of these objects (created, or replacing the stored object of the same name). */
  | { kind: 'apply'; objects: KObject[] }
  | { kind: 'cordon'; node: string }
  | { kind: 'uncordon'; node: string }
  /** `kubectl drain NODE --ignore-daemonsets --delete-emptydir-data [--force]`: cordon, then evict. */
  | { kind: 'drain'; node: string; force?: boolean }
  /** A ResourceQuota's `spec.hard` entries set (merge patch). */
  | { kind: 'quota'; namespace: string; name: string; hard: Record<string, string> }
  /** A LimitRange's `spec.limits` replaced by these items (merge patch: a list is replaced whole). */
  | { kind: 'limitRange'; namespace: string; name: string; limits: unknown[] }
  /** The workload's pod template gets `priorityClassName` (a template change: a rollout). */
  | { kind: 'priorityClass'; target: ObjectRef; className: string }
  /** A Deployment's `spec.strategy` (merge patch). */
  | {
      kind: 'rolloutStrategy';
      target: ObjectRef;
      strategy: 'RollingUpdate' | 'Recreate';
      maxSurge?: IntOrPercent;
      maxUnavailable?: IntOrPercent;
    }
  /** `count` nodes shaped like an existing one (a node-pool change: no kubectl command, rendered ''). */
  | { kind: 'addNode'; like: string; count: number }
  /** `kubectl delete pod X`: its controller (if any) re-creates it. */
  | { kind: 'deletePod'; namespace: string; name: string }
  /**
   * A bare Pod deleted and created again, as one command: with new resources for `container`
   * (`kubectl get pod X -o json | kubectl set resources --local -f - -c C --requests=… -o json | kubectl replace --force -f -`),
   * or — `priorityClassName` set, no container — with another PriorityClass (a pod's priority is fixed when
   * it is created: `kubectl get pod X -o json | kubectl patch --local -f - --type merge -p
   * '{"spec":{"priorityClassName":"high","priority":null,"preemptionPolicy":null}}' -o json | kubectl replace --force -f -`;
   * the old class's `priority` and `preemptionPolicy` go, or Priority admission refuses the pod: "the
   * integer value of priority (50) must not be provided in pod spec").
   */
  | {
      kind: 'recreatePod';
      namespace: string;
      name: string;
      container?: string;
      requests?: Record<string, string>;
      limits?: Record<string, string>;
      priorityClassName?: string;
    };

export type ChangeKind = Change['kind'];

/** The workload (or node) a change is about, for reports: `deploy/api`, `node/general-c-2`. */
export function changeSubject(c: Change): ObjectRef | null {
  switch (c.kind) {
    case 'scale':
    case 'setResources':
    case 'patch':
    case 'priorityClass':
    case 'rolloutStrategy':
      return c.target;
    case 'cordon':
    case 'uncordon':
    case 'drain':
      return { kind: 'Node', name: c.node };
    case 'addNode':
      return { kind: 'Node', name: c.like };
    case 'quota':
      return { kind: 'ResourceQuota', namespace: c.namespace, name: c.name };
    case 'limitRange':
      return { kind: 'LimitRange', namespace: c.namespace, name: c.name };
    case 'deletePod':
    case 'recreatePod':
      return { kind: 'Pod', namespace: c.namespace, name: c.name };
    case 'apply': {
      const o = c.objects[0];
      return o ? { kind: o.kind ?? '', namespace: o.metadata.namespace, name: o.metadata.name ?? '' } : null;
    }
  }
}
