/**
 * The registration list: the plugins of the default profile, in the order of kube-scheduler v1.35's
 * default plugin set (pkg/scheduler/apis/config/v1/default_plugins.go; docs/kubernetes-semantics.md §6.3). The
 * framework runs each extension point (PreFilter, Filter, AddPod/RemovePod, Score) over this list in
 * this order, so a plugin's position decides which filter reason a node reports first.
 *
 * To add a plugin: write plugins/<name>.ts exporting one `SchedulerPlugin` object, and add it here.
 *
 * DynamicResources sits where applyFeatureGates inserts it (before DefaultPreemption, after
 * InterPodAffinity) and does nothing when the profile has DRA off. Not modelled: scores of
 * TaintToleration (PreferNoSchedule), preferred node / pod affinity, ImageLocality and the
 * ScheduleAnyway system-default topology spread.
 */
import type { SchedulerPlugin } from '../plugin.ts';
import { NodeResourcesBalancedAllocation } from './balanced-allocation.ts';
import { InterPodAffinity } from './inter-pod-affinity.ts';
import { DynamicResources } from './dynamic-resources.ts';
import { NodeAffinity } from './node-affinity.ts';
import { NodeName } from './node-name.ts';
import { NodePorts } from './node-ports.ts';
import { NodeResourcesFit } from './node-resources-fit.ts';
import { NodeUnschedulable } from './node-unschedulable.ts';
import { NodeVolumeLimits } from './node-volume-limits.ts';
import { PodTopologySpread } from './pod-topology-spread.ts';
import { TaintToleration } from './taint-toleration.ts';
import { VolumeBinding } from './volume-binding.ts';
import { VolumeRestrictions } from './volume-restrictions.ts';
import { VolumeZone } from './volume-zone.ts';

export const DEFAULT_PLUGINS: readonly SchedulerPlugin[] = Object.freeze([
  NodeUnschedulable,
  NodeName,
  TaintToleration,
  NodeAffinity,
  NodePorts,
  NodeResourcesFit,
  VolumeRestrictions,
  NodeVolumeLimits,
  VolumeBinding,
  VolumeZone,
  PodTopologySpread,
  InterPodAffinity,
  DynamicResources,
  NodeResourcesBalancedAllocation,
]);
