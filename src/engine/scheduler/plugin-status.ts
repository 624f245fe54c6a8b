/**
 * A filter plugin's verdict for one node, in the kube-scheduler `Status` shape
 * (pkg/scheduler/framework/interface.go): `unschedulable` = Unschedulable (preemption may help),
 * `unresolvable` = UnschedulableAndUnresolvable (preemption cannot help), plus the plugin name and the
 * upstream reason strings, byte for byte.
 */
export type FilterCode = 'ok' | 'unschedulable' | 'unresolvable';

export interface PluginStatus {
  code: FilterCode;
  plugin: string;
  reasons: string[];
}

export const OK: PluginStatus = Object.freeze({ code: 'ok', plugin: '', reasons: [] }) as PluginStatus;

export function unschedulable(plugin: string, ...reasons: string[]): PluginStatus {
  return { code: 'unschedulable', plugin, reasons };
}

export function unresolvable(plugin: string, ...reasons: string[]): PluginStatus {
  return { code: 'unresolvable', plugin, reasons };
}

/** What a PreFilter may say: reject the pod for every node, narrow the node set, or nothing. */
export interface PreFilterOutcome {
  status?: PluginStatus;
  /** PreFilterResult.NodeNames: only these nodes are evaluated; the others get the "absent" status. */
  nodeNames?: Set<string>;
}
