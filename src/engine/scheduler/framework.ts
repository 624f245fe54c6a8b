/**
 * The scheduling framework's plugin loops (pkg/scheduler/framework/runtime/framework.go), over the
 * plugins of one registration list (default: plugins/registry.ts) in their order. Nothing here names a
 * plugin: what a plugin computes lives in its own file and in the cycle state under its own key.
 *
 * - RunPreFilterPlugins: in order; the first UnschedulableAndUnresolvable rejection ends the attempt,
 *   an Unschedulable one is kept while the others still run (issue #119770); node-name narrowings are
 *   intersected; an empty intersection rejects the pod (`node(s) didn't satisfy plugin X`).
 * - RunFilterPlugins: per node, in order, stopping at the first failing plugin.
 * - RunFilterPluginsWithNominatedPods: nominated pods of equal or higher priority are added to a copy
 *   of the node (and of the state, through the plugins' addPod) first.
 * - RunPreFilterExtensionAddPod / RemovePod: the node copy is updated, then each plugin's addPod /
 *   removePod (preemption's what-if removal of victims goes through these).
 * - RunScorePlugins: the sum of the plugins' scores (every modelled score plugin has weight 1).
 */
import type { CycleState } from './cycle-state.ts';
import { addPodToNode, cloneNodeInfo, removePodFromNode, type NodeInfo, type PodEntry } from './node-info.ts';
import type { SchedulerPlugin } from './plugin.ts';
import { OK, unresolvable, type PluginStatus } from './plugin-status.ts';

export interface PreFilterResult {
  /** The rejection (first UnschedulableAndUnresolvable, else the last Unschedulable). */
  status?: PluginStatus;
  /** Merged (intersected) node-name narrowing, if any plugin narrowed. */
  nodeNames?: Set<string>;
  /** Plugins that narrowed the node set (for the absent-node reason). */
  narrowedBy: string[];
}

type With<K extends keyof SchedulerPlugin> = SchedulerPlugin & Required<Pick<SchedulerPlugin, K>>;

function having<K extends keyof SchedulerPlugin>(plugins: readonly SchedulerPlugin[], point: K): Array<With<K>> {
  return plugins.filter((p): p is With<K> => typeof p[point] === 'function');
}

export class Framework {
  readonly plugins: readonly SchedulerPlugin[];
  readonly #preFilter: ReadonlyArray<With<'preFilter'>>;
  readonly #filter: ReadonlyArray<With<'filter'>>;
  readonly #addPod: ReadonlyArray<With<'addPod'>>;
  readonly #removePod: ReadonlyArray<With<'removePod'>>;
  readonly #score: ReadonlyArray<With<'score'>>;

  constructor(plugins: readonly SchedulerPlugin[]) {
    const names = new Set<string>();
    for (const p of plugins) {
      if (names.has(p.name)) throw new Error(`scheduler plugin ${p.name} registered twice`);
      names.add(p.name);
    }
    this.plugins = plugins;
    this.#preFilter = having(plugins, 'preFilter');
    this.#filter = having(plugins, 'filter');
    this.#addPod = having(plugins, 'addPod');
    this.#removePod = having(plugins, 'removePod');
    this.#score = having(plugins, 'score');
  }

  /** RunPreFilterPlugins. */
  runPreFilters(state: CycleState): PreFilterResult {
    const result: PreFilterResult = { narrowedBy: [] };
    for (const pl of this.#preFilter) {
      const out = pl.preFilter(state);
      if (out.status && out.status.code !== 'ok') {
        if (out.status.code === 'unresolvable') return { ...result, status: out.status };
        // Unschedulable: keep running the other PreFilters (preemption may still help), issue #119770.
        result.status = out.status;
        continue;
      }
      const narrowed = out.nodeNames;
      if (narrowed) {
        result.nodeNames = result.nodeNames ? new Set([...result.nodeNames].filter((n) => narrowed.has(n))) : narrowed;
        result.narrowedBy.push(pl.name);
        if (result.nodeNames.size === 0) {
          // The merged PreFilterResult leaves no node: every node is UnschedulableAndUnresolvable.
          const withNodes = [...new Set(result.narrowedBy)].sort();
          const msg =
            withNodes.length === 1
              ? `node(s) didn't satisfy plugin ${withNodes[0]}`
              : `node(s) didn't satisfy plugin(s) [${withNodes.join(' ')}] simultaneously`;
          return { ...result, status: unresolvable(withNodes.join(','), msg) };
        }
      }
    }
    return result;
  }

  /** RunFilterPlugins: the first failing plugin's status. */
  runFilters(state: CycleState, node: NodeInfo): PluginStatus {
    for (const pl of this.#filter) {
      const s = pl.filter(state, node);
      if (s.code !== 'ok') return s;
    }
    return OK;
  }

  /** RunPreFilterExtensionAddPod, on a private node copy and a cloned state. */
  addPod(state: CycleState, node: NodeInfo, p: PodEntry): void {
    addPodToNode(node, p);
    for (const pl of this.#addPod) pl.addPod(state, p, node);
  }

  /** RunPreFilterExtensionRemovePod, on a private node copy and a cloned state. */
  removePod(state: CycleState, node: NodeInfo, p: PodEntry): void {
    if (!removePodFromNode(node, p.key)) return;
    for (const pl of this.#removePod) pl.removePod(state, p, node);
  }

  /**
   * RunFilterPluginsWithNominatedPods: first with the nominated pods of priority ≥ the pod's added
   * (they will take their place), then — if that passed and pods were added — without them.
   */
  runFiltersWithNominatedPods(state: CycleState, node: NodeInfo): PluginStatus {
    if (node.nominated.size > 0) {
      const added = [...node.nominated.values()].filter(
        (p) => p.priority >= state.priority && p.key !== state.entry.key,
      );
      if (added.length > 0) {
        const s = state.clone();
        const n = cloneNodeInfo(node);
        for (const p of added) this.addPod(s, n, p);
        const status = this.runFilters(s, n);
        if (status.code !== 'ok') return status;
      }
    }
    return this.runFilters(state, node);
  }

  /** RunScorePlugins, summed (weight 1 each). */
  score(state: CycleState, node: NodeInfo): number {
    let total = 0;
    for (const pl of this.#score) total += pl.score(state, node);
    return total;
  }
}
