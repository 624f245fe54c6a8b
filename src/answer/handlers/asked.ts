/**
 * The questions on-call people ask, beyond the what-ifs: "how much GPU is left (in ml)", "is general-c-2
 * back", "what priority does api have" / "which PriorityClasses can I use", "add a node". Every pod and
 * workload named comes from the namespaces the asker may see; nodes and PriorityClasses are cluster-wide.
 */
import {
  computeHeadroom,
  failedCreates,
  namespaceResources,
  nodeCapacities,
  whatIfNewNode,
} from '../../engine/headroom.ts';
import { findWorkload } from '../../engine/whatif/index.ts';
import { workloadTemplate } from '../../engine/workloads.ts';
import { refOf } from '../../engine/fixes.ts';
import { scopeRequirements } from '../../engine/admission/scopes.ts';
import type { Snapshot } from '../../k8s/snapshot.ts';
import { leftReply, newNodeReply, nodeStatusReply, priorityListReply, priorityOfReply } from '../replies/asked.ts';
import { notFound } from '../replies/not-found.ts';
import type { AskContext } from '../answerer.ts';
import { helpFor } from './help.ts';
import { needsState, visibleNamespaces, type QuestionOf } from './context.ts';
import { barePodOf } from './workload.ts';

/** The resource a word names in this namespace: "gpu" is the GPU resource its quotas or the nodes carry. */
function resourceFor(state: Snapshot, word: string, uses: string[]): string {
  if (word !== 'gpu') return word;
  const own = uses.find((r) => /gpu/.test(r));
  if (own) return own;
  for (const n of state.list('Node'))
    for (const k of Object.keys(n.status?.allocatable ?? {})) if (/gpu/.test(k)) return k;
  return 'nvidia.com/gpu';
}

function namespaceFor(state: Snapshot, ctx: AskContext, asked: string | undefined, word: string): string | undefined {
  if (asked) return asked;
  if (ctx.defaultNamespace) return ctx.defaultNamespace;
  const visible = visibleNamespaces(state, ctx);
  // "how much GPU is left": the first namespace the asker may see that uses it.
  if (word === 'gpu' || word.includes('/'))
    for (const ns of visible)
      if (namespaceResources(state, ns).some((r) => (word === 'gpu' ? /gpu/.test(r) : r === word))) return ns;
  return visible[0];
}

export const left = needsState<QuestionOf<'left'>>((q, { state, ctx, opts, withGaps }) => {
  const ns = namespaceFor(state, ctx, q.namespace, q.resource);
  if (!ns) return helpFor(state, ctx);
  if (!state.hasNamespace(ns)) return notFound(`namespace ${ns}`, [ns]);
  const h = computeHeadroom(state, ns, opts);
  const resource = resourceFor(state, q.resource, h.nodeResources);
  const nodes = h.nodeResources.includes(resource) ? h.nodes : nodeCapacities(state, [resource]);
  return withGaps({ replies: [leftReply(ns, resource, h.quotas, nodes)], namespaces: [ns] });
});

export const node = needsState<QuestionOf<'node'>>((q, { state, withGaps }) => {
  const n = state.get('Node', undefined, q.node);
  if (!n) return notFound(`node ${q.node}`, []);
  const h = nodeCapacities(state, ['cpu', 'memory']).find((c) => c.name === q.node);
  let pods = 0;
  for (const p of state.iterate('Pod')) if (p.spec.nodeName === q.node) pods++;
  return withGaps({ replies: [nodeStatusReply(n, h, pods)], namespaces: [] });
});

export const priority = needsState<QuestionOf<'priority'>>((q, { state, ctx, withGaps }) => {
  const classes = state.list('PriorityClass');
  if (!q.workload) {
    const scoped: { namespace: string; quota: string; scope: string }[] = [];
    for (const ns of visibleNamespaces(state, ctx, q.namespace))
      for (const rq of state.list('ResourceQuota', ns))
        for (const s of scopeRequirements(rq))
          if (s.scopeName === 'PriorityClass')
            scoped.push({
              namespace: ns,
              quota: rq.metadata.name ?? '',
              scope:
                s.operator === 'In'
                  ? `pods of ${(s.values ?? []).join(' or ')}`
                  : s.operator === 'NotIn'
                    ? `pods not of ${(s.values ?? []).join(' or ')}`
                    : s.operator === 'Exists'
                      ? 'pods with any PriorityClass'
                      : 'pods without a PriorityClass',
            });
    return withGaps({
      replies: [priorityListReply(classes, scoped)],
      namespaces: [...new Set(scoped.map((s) => s.namespace))],
    });
  }
  const found = findWorkload(state, q.workload, q.kind, visibleNamespaces(state, ctx, q.namespace));
  // A bare Pod is asked of as itself: its own spec (admission already resolved its class).
  const bare = found ? null : barePodOf(state, ctx, { workload: q.workload, namespace: q.namespace });
  const w = found ?? (bare ? { kind: 'Pod', name: bare.name, namespace: bare.namespace } : null);
  if (!w) return notFound(`workload ${q.workload}`, q.namespace ? [q.namespace] : []);
  const spec = found ? workloadTemplate(found.object).spec : bare!.pod.spec;
  const className = spec.priorityClassName ?? null;
  const named = className ? classes.find((c) => c.metadata.name === className) : undefined;
  const dflt = classes.find((c) => c.globalDefault);
  const source = className ? (named ? 'class' : 'missing') : dflt ? 'globalDefault' : 'none';
  const cls = named ?? (className ? undefined : dflt);
  const effectiveName = className ?? dflt?.metadata.name ?? null;
  const quotas: { name: string; counts: boolean }[] = [];
  for (const rq of state.list('ResourceQuota', w.namespace))
    for (const s of scopeRequirements(rq)) {
      if (s.scopeName !== 'PriorityClass') continue;
      const has = effectiveName !== null;
      const inValues = has && (s.values ?? []).includes(effectiveName!);
      const counts =
        s.operator === 'In' ? inValues : s.operator === 'NotIn' ? !inValues : s.operator === 'Exists' ? has : !has;
      quotas.push({ name: rq.metadata.name ?? '', counts });
    }
  const a = {
    ref: refOf(w.kind, w.name),
    namespace: w.namespace,
    className: effectiveName,
    value: cls?.value ?? 0,
    preemptionPolicy: spec.preemptionPolicy ?? cls?.preemptionPolicy ?? 'PreemptLowerPriority',
    source,
    quotas,
  } as const;
  return withGaps({ replies: [priorityOfReply(a, classes)], namespaces: [w.namespace] });
});

export const nodeNeeded = needsState<QuestionOf<'nodeNeeded'>>((q, { state, ctx, withGaps }) => {
  const namespaces = q.namespace
    ? visibleNamespaces(state, ctx, q.namespace)
    : ctx.defaultNamespace
      ? visibleNamespaces(state, ctx, ctx.defaultNamespace)
      : visibleNamespaces(state, ctx);
  const a = whatIfNewNode(state, namespaces);
  const failing = namespaces.flatMap((ns) =>
    failedCreates(state, ns).map((f) => ({ namespace: ns, ref: f.ref, cause: f.cause })),
  );
  const shown = [...new Set([...a.pods.map((p) => p.namespace), ...failing.map((f) => f.namespace)])];
  return withGaps({ replies: [newNodeReply(a, failing)], namespaces: shown });
});
