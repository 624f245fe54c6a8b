/**
 * The scheduler framework runs whatever the registration list holds: a plugin written here (the way
 * CONTRIBUTING's "add a scheduler plugin" says: one SchedulerPlugin object, one entry in the list) gets
 * its PreFilter state through the keyed CycleState, its Filter run per node in list order, and its
 * addPod / removePod called by preemption's what-if removal of victims — without any framework edit.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../src/k8s/objects.ts';
import type { KObject } from '../../../src/k8s/snapshot.ts';
import { CycleState, stateKey, type StateData } from '../../../src/engine/scheduler/cycle-state.ts';
import { Framework } from '../../../src/engine/scheduler/framework.ts';
import type { NodeInfo, PodEntry } from '../../../src/engine/scheduler/node-info.ts';
import type { SchedulerPlugin } from '../../../src/engine/scheduler/plugin.ts';
import { OK, unschedulable } from '../../../src/engine/scheduler/plugin-status.ts';
import { DEFAULT_PLUGINS } from '../../../src/engine/scheduler/plugins/registry.ts';
import { schedulePod } from '../../../src/engine/scheduler/schedule.ts';
import { node, pod, snapshotOf } from '../../support/builders.ts';

/** A test plugin: at most one pod of a team per node. PreFilter counts the team's pods per node. */
const NAME = 'OnePerTeam';
const REASON = 'node(s) already run a pod of this team';

class TeamCounts implements StateData {
  constructor(
    readonly team: string,
    readonly perNode: Map<string, number>,
  ) {}
  clone(): TeamCounts {
    return new TeamCounts(this.team, new Map(this.perNode));
  }
}

const KEY = stateKey<TeamCounts>(`PreFilter${NAME}`);

interface Calls {
  preFilter: number;
  filter: number;
  addPod: string[];
  removePod: string[];
}

function onePerTeam(calls: Calls, extensions = true): SchedulerPlugin {
  const bump = (state: CycleState, p: PodEntry, node: NodeInfo, delta: number) => {
    const s = state.read(KEY);
    if (s && p.labels.team === s.team) s.perNode.set(node.name, (s.perNode.get(node.name) ?? 0) + delta);
  };
  const plugin: SchedulerPlugin = {
    name: NAME,
    preFilter(state) {
      calls.preFilter++;
      const team = state.pod.metadata.labels?.team;
      if (!team) return {};
      const perNode = new Map<string, number>();
      for (const name of state.index.nodeNames()) {
        let n = 0;
        for (const p of state.index.get(name)!.pods.values()) if (p.labels.team === team) n++;
        perNode.set(name, n);
      }
      state.write(KEY, new TeamCounts(team, perNode));
      return {};
    },
    filter(state, node) {
      calls.filter++;
      const s = state.read(KEY);
      if (!s || (s.perNode.get(node.name) ?? 0) === 0) return OK;
      return unschedulable(NAME, REASON);
    },
  };
  if (!extensions) return plugin;
  return {
    ...plugin,
    addPod(state, p, node) {
      calls.addPod.push(p.key);
      bump(state, p, node, 1);
    },
    removePod(state, p, node) {
      calls.removePod.push(p.key);
      bump(state, p, node, -1);
    },
  };
}

const newCalls = (): Calls => ({ preFilter: 0, filter: 0, addPod: [], removePod: [] });
const team = (name: string, o: Parameters<typeof pod>[1] = {}): Pod => pod(name, { ...o, labels: { team: 'x' } });

describe('a plugin registered in the list runs without framework edits', () => {
  it('PreFilter state steers the placement (without it the pod goes to the emptier node)', () => {
    const objects: KObject[] = [
      node('a', { cpu: '8' }),
      node('b', { cpu: '2' }),
      team('ta', { node: 'a', cpu: '100m' }),
    ];
    const incoming = team('web', { cpu: '1' });
    expect(schedulePod(snapshotOf(...objects), incoming).node).toBe('a');
    const calls = newCalls();
    const r = schedulePod(snapshotOf(...objects), incoming, { plugins: [...DEFAULT_PLUGINS, onePerTeam(calls)] });
    expect(r.node).toBe('b');
    expect(calls.preFilter).toBe(1);
    expect(calls.filter).toBe(2);
  });

  it('its Filter reason reaches the FailedScheduling text; earlier plugins in the list decide first', () => {
    const objects: KObject[] = [
      node('a', { cpu: '2' }),
      node('b', { cpu: '2' }),
      node('c', { cpu: '2', unschedulable: true }),
      team('ta', { node: 'a', cpu: '100m' }),
      team('tb', { node: 'b', cpu: '100m' }),
      team('tc', { node: 'c', cpu: '100m' }),
    ];
    const calls = newCalls();
    const r = schedulePod(snapshotOf(...objects), team('web', { cpu: '1' }), {
      plugins: [...DEFAULT_PLUGINS, onePerTeam(calls)],
    });
    expect(r.message).toBe(
      `0/3 nodes are available: 1 node(s) were unschedulable, 2 ${REASON}. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.`,
    );
    expect([...r.nodeStatuses].map(([n, s]) => [n, s.plugin, s.code])).toEqual([
      ['a', NAME, 'unschedulable'],
      ['b', NAME, 'unschedulable'],
      ['c', 'NodeUnschedulable', 'unresolvable'],
    ]);
    // The cordoned node stopped at NodeUnschedulable: the test plugin filtered a and b only.
    expect(calls.filter).toBe(2);
  });

  it('preemption removes victims and reprieves them through removePod / addPod', () => {
    const objects: KObject[] = [
      node('a', { cpu: '2' }),
      team('ta', { node: 'a', cpu: '500m', priority: 1 }),
      pod('oa', { node: 'a', cpu: '500m', priority: 1 }),
    ];
    const incoming = team('web', { cpu: '500m', priority: 10 });
    const calls = newCalls();
    const r = schedulePod(snapshotOf(...objects), incoming, { plugins: [...DEFAULT_PLUGINS, onePerTeam(calls)] });
    expect({ nominatedNode: r.nominatedNode, victims: r.victims }).toEqual({
      nominatedNode: 'a',
      victims: ['default/ta'],
    });
    // Both lower-priority pods removed; reprieved most important first (oa kept, ta put back then removed again).
    expect(calls.removePod).toEqual(['default/ta', 'default/oa', 'default/ta']);
    expect(calls.addPod).toEqual(['default/oa', 'default/ta']);

    // The same plugin without the extensions: its state never sees the removal, no victim set helps.
    const blind = schedulePod(snapshotOf(...objects), incoming, {
      plugins: [...DEFAULT_PLUGINS, onePerTeam(newCalls(), false)],
    });
    expect(blind.victims).toBeUndefined();
    expect(blind.message).toBe(
      `0/1 nodes are available: 1 ${REASON}. no new claims to deallocate, preemption: 0/1 nodes are available: 1 ${REASON}.`,
    );
  });

  it('nominated pods are added to the node through addPod', () => {
    const nominated = team('nom', { cpu: '100m', priority: 5 });
    const withNomination: Pod = { ...nominated, status: { ...nominated.status, nominatedNodeName: 'a' } };
    const objects: KObject[] = [node('a', { cpu: '8' }), node('b', { cpu: '2' }), withNomination];
    const calls = newCalls();
    const r = schedulePod(snapshotOf(...objects), team('web', { cpu: '1', priority: 5 }), {
      plugins: [...DEFAULT_PLUGINS, onePerTeam(calls)],
    });
    expect(r.node).toBe('b');
    expect(calls.addPod).toEqual(['default/nom']);
  });
});

describe('Framework and CycleState', () => {
  it('refuses a plugin registered twice', () => {
    expect(() => new Framework([...DEFAULT_PLUGINS, DEFAULT_PLUGINS[0]!])).toThrow(
      'scheduler plugin NodeUnschedulable registered twice',
    );
  });

  // pkg/scheduler/apis/config/v1/default_plugins.go getDefaultPlugins + applyFeatureGates (DynamicResources
  // inserted before DefaultPreemption); the queue-sort, PostFilter-only and bind plugins are not filters.
  it('the default list, in the default profile order', () => {
    expect(DEFAULT_PLUGINS.map((p) => p.name)).toEqual([
      'NodeUnschedulable',
      'NodeName',
      'TaintToleration',
      'NodeAffinity',
      'NodePorts',
      'NodeResourcesFit',
      'VolumeRestrictions',
      'NodeVolumeLimits',
      'VolumeBinding',
      'VolumeZone',
      'PodTopologySpread',
      'InterPodAffinity',
      'DynamicResources',
      'NodeResourcesBalancedAllocation',
    ]);
  });

  it('clone() copies each entry through its own clone: the copy updates alone', () => {
    const snap = snapshotOf(node('a'));
    const s = new CycleState({
      pod: pod('p'),
      entry: { key: 'default/p' } as PodEntry,
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
      profile: {} as CycleState['profile'],
      snapshot: snap,
      index: {} as CycleState['index'],
    });
    expect(s.read(KEY)).toBeUndefined();
    s.write(KEY, new TeamCounts('x', new Map([['a', 1]])));
    const c = s.clone();
    c.read(KEY)!.perNode.set('a', 0);
    expect(s.read(KEY)!.perNode.get('a')).toBe(1);
    expect(c.read(KEY)!.perNode.get('a')).toBe(0);
    c.delete(KEY);
    expect(c.read(KEY)).toBeUndefined();
    expect(s.read(KEY)!.team).toBe('x');
  });
});
