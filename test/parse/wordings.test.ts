/**
 * Every upstream wording, every version: the message formats of kube-scheduler, ResourceQuota and LimitRanger
 * admission, core validation and the kubelet, collected from the Kubernetes source (v1.10 … v1.35, older where the
 * wording is older) and rendered with realistic values as the code prints them, then pasted the ways people paste
 * them (a bare message, an Events row, a describe block, a kubectl error). Each row cites the source path and the
 * releases that print the wording; the finding is asserted exactly (layer, kind, facts) per docs/contract.md.
 *
 * Release ranges are those of the wording, not of the plugin: a reason string that survived a move between
 * packages (pkg/scheduler/algorithm/predicates/error.go → pkg/scheduler/framework/plugins/<plugin>) keeps one row.
 */
import { describe, expect, it } from 'vitest';
import { said } from '../support/said.ts';

type Reason = { count: number | null; reason: string };
interface Got {
  layer: string;
  kind: string;
  facts: unknown;
}
type Row = [source: string, text: string, want: Got[]];

const r = (count: number | null, reason: string): Reason => ({ count, reason });
const sched = (total: number | null, reasons: Reason[], preemption?: { total: number; reasons: Reason[] }): Got => ({
  layer: 'scheduler',
  kind: 'unschedulable',
  facts: { total, reasons, ...(preemption ? { preemption } : {}) },
});
const notHelpful = (n: number) => ({ total: n, reasons: [r(n, 'Preemption is not helpful for scheduling')] });
const exceeded = (
  quota: string,
  resources: Record<string, [requested: string, used: string, limited: string]>,
  exceeding: string[],
): Got => ({
  layer: 'quota',
  kind: 'quota-exceeded',
  facts: {
    quota,
    resources: Object.fromEntries(
      Object.entries(resources).map(([k, [requested, used, limited]]) => [k, { requested, used, limited }]),
    ),
    exceeding,
  },
});
const mustSpecify = (quota: string, resources: Record<string, string[]>): Got => ({
  layer: 'quota',
  kind: 'quota-must-specify',
  facts: { quota, resources },
});
type Violation = [scope: string, resource: string, bound: string, limit: string, actual: string | null];
const lr = (...vs: Violation[]): Got => ({
  layer: 'limitrange',
  kind: 'limitrange',
  facts: {
    violations: vs.map(([scope, resource, bound, limit, actual]) => ({ scope, resource, bound, limit, actual })),
  },
});
const av = (resource: string | null, value: string | null, limit: string | null, field: string | null): Got => ({
  layer: 'api-validation',
  kind: 'api-validation',
  facts: { resource, value, limit, field },
});
const rt = (facts: Record<string, string>): Got => ({ layer: 'runtime', kind: 'runtime', facts });

/** Layer, kind and facts of every finding (object and namespace are other suites' subject). */
const read = (text: string): Got[] => said(text).map(({ layer, kind, facts }) => ({ layer, kind, facts }));

const EV = '  Warning  FailedScheduling  2m (x5 over 3m)  default-scheduler  ';
const PRED = 'pkg/scheduler/algorithm/predicates/error.go';
const PL = 'pkg/scheduler/framework/plugins';
/** DynamicResources as read at kubernetes/kubernetes 00d3750 (v1.33 development); DRA is beta from v1.32, on by default from v1.34. */
const DRA = `${PL}/dynamicresources/dynamicresources.go`;

describe('kube-scheduler: every Filter/PreFilter reason inside the FitError frame (pkg/scheduler/framework/types.go)', () => {
  it.each<Row>([
    [
      `${PRED} ErrNodeSelectorNotMatch, v1.10–v1.20 (NodeAffinity's ErrReasonPod until 1.20)`,
      `${EV}0/5 nodes are available: 2 Insufficient cpu, 3 node(s) didn't match node selector.`,
      [sched(5, [r(2, 'Insufficient cpu'), r(3, "node(s) didn't match node selector")])],
    ],
    [
      `${PL}/nodeaffinity ErrReasonPod, v1.21+`,
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.",
      [sched(3, [r(3, "node(s) didn't match Pod's node affinity/selector")])],
    ],
    [
      `${PL}/nodeaffinity ErrReasonPod, the short form of some 1.2x branches`,
      "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity.",
      [sched(3, [r(3, "node(s) didn't match Pod's node affinity")])],
    ],
    [
      `${PL}/nodeaffinity errReasonEnforced, v1.22+ (scheduler-added affinity of a profile)`,
      "0/3 nodes are available: 3 node(s) didn't match scheduler-enforced node affinity.",
      [sched(3, [r(3, "node(s) didn't match scheduler-enforced node affinity")])],
    ],
    [
      `${PL}/nodeaffinity errReasonConflict (PreFilter, no count), v1.31+`,
      '0/3 nodes are available: pod affinity terms conflict.',
      [sched(3, [r(3, 'pod affinity terms conflict')])],
    ],
    [
      `${PRED} ErrTaintsTolerationsNotMatch, v1.10–v1.17`,
      "0/3 nodes are available: 3 node(s) had taints that the pod didn't tolerate.",
      [sched(3, [r(3, "node(s) had taints that the pod didn't tolerate")])],
    ],
    [
      `${PL}/tainttoleration Filter \`node(s) had taint {%s: %s}, that the pod didn't tolerate\`, v1.18–v1.24`,
      "0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 2 Insufficient cpu.",
      [
        sched(3, [
          r(1, "node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate"),
          r(2, 'Insufficient cpu'),
        ]),
      ],
    ],
    [
      `${PL}/tainttoleration, v1.18–v1.24, the node lifecycle controller's taint, in an Events row`,
      "Events: FailedScheduling: 0/3 nodes are available: 1 node(s) had volume node affinity conflict, 2 node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate.",
      [
        sched(3, [
          r(1, 'node(s) had volume node affinity conflict'),
          r(2, "node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate"),
        ]),
      ],
    ],
    [
      `${PL}/tainttoleration \`node(s) had untolerated taint {%s: %s}\`, v1.25–v1.34.1, with the 1.24+ preemption clause`,
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient memory. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
      [
        sched(
          3,
          [
            r(1, 'node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'),
            r(2, 'Insufficient memory'),
          ],
          {
            total: 3,
            reasons: [
              r(1, 'Preemption is not helpful for scheduling'),
              r(2, 'No preemption victims found for incoming pod'),
            ],
          },
        ),
      ],
    ],
    [
      `${PL}/tainttoleration \`node(s) had untolerated taint(s)\`, v1.34.2+; volumebinding ErrReasonNodeConflict as 1.33+ prints it; DRA's \`no new claims to deallocate, \``,
      "0/2 nodes are available: 1 node(s) didn't match PersistentVolume's node affinity, 1 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
      [
        sched(
          2,
          [r(1, "node(s) didn't match PersistentVolume's node affinity"), r(1, 'node(s) had untolerated taint(s)')],
          notHelpful(2),
        ),
      ],
    ],
    [
      `${PL}/nodeports ErrReason (${PRED} ErrPodNotFitsHostPorts before), v1.10+`,
      "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports.",
      [sched(3, [r(3, "node(s) didn't have free ports for the requested pod ports")])],
    ],
    [
      `${PL}/nodeunschedulable ErrReasonUnschedulable (${PRED} ErrNodeUnschedulable before), v1.10+`,
      '0/3 nodes are available: 3 node(s) were unschedulable.',
      [sched(3, [r(3, 'node(s) were unschedulable')])],
    ],
    [
      `${PRED} ErrPodNotMatchHostName, v1.10–v1.19`,
      "0/1 nodes are available: 1 node(s) didn't match the requested hostname.",
      [sched(1, [r(1, "node(s) didn't match the requested hostname")])],
    ],
    [
      `${PL}/nodename ErrReason, v1.20+`,
      "0/1 nodes are available: 1 node(s) didn't match the requested node name.",
      [sched(1, [r(1, "node(s) didn't match the requested node name")])],
    ],
    [
      `${PRED} ErrPodAffinityNotMatch, v1.10–v1.20`,
      "0/4 nodes are available: 1 node(s) had no available volume zone, 3 node(s) didn't match pod affinity/anti-affinity.",
      [
        sched(4, [
          r(1, 'node(s) had no available volume zone'),
          r(3, "node(s) didn't match pod affinity/anti-affinity"),
        ]),
      ],
    ],
    [
      `${PL}/interpodaffinity ErrReasonAntiAffinityRulesNotMatch + ErrReasonExistingAntiAffinityRulesNotMatch, v1.10+`,
      "0/3 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 2 node(s) didn't satisfy existing pods anti-affinity rules.",
      [
        sched(3, [
          r(1, "node(s) didn't match pod anti-affinity rules"),
          r(2, "node(s) didn't satisfy existing pods anti-affinity rules"),
        ]),
      ],
    ],
    [
      `${PL}/interpodaffinity ErrReasonAffinityRulesNotMatch, v1.10+`,
      "0/2 nodes are available: 2 node(s) didn't match pod affinity rules.",
      [sched(2, [r(2, "node(s) didn't match pod affinity rules")])],
    ],
    [
      `${PRED} ErrPodAffinityNotMatch next to a rule's reason (both were added until v1.20)`,
      "0/3 nodes are available: 3 node(s) didn't match pod affinity/anti-affinity, 3 node(s) didn't match pod anti-affinity rules.",
      [
        sched(3, [
          r(3, "node(s) didn't match pod affinity/anti-affinity"),
          r(3, "node(s) didn't match pod anti-affinity rules"),
        ]),
      ],
    ],
    [
      `${PL}/podtopologyspread ErrReasonConstraintsNotMatch, v1.16+`,
      "0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints.",
      [sched(3, [r(3, "node(s) didn't match pod topology spread constraints")])],
    ],
    [
      `${PL}/podtopologyspread ErrReasonNodeLabelNotMatch, v1.19+`,
      "0/3 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), 2 Insufficient memory.",
      [
        sched(3, [
          r(1, "node(s) didn't match pod topology spread constraints (missing required label)"),
          r(2, 'Insufficient memory'),
        ]),
      ],
    ],
    [
      `${PL}/podtopologyspread ErrReasonNodeLabelNotMatch in an Events row without an age`,
      "Warning  FailedScheduling  default-scheduler  0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints (missing required label).",
      [sched(3, [r(3, "node(s) didn't match pod topology spread constraints (missing required label)")])],
    ],
    [
      `${PL}/volumebinding ErrReasonNodeConflict + ErrReasonNotEnoughSpace (v1.21+)`,
      '0/3 nodes are available: 1 node(s) did not have enough free storage, 2 node(s) had volume node affinity conflict.',
      [sched(3, [r(1, 'node(s) did not have enough free storage'), r(2, 'node(s) had volume node affinity conflict')])],
    ],
    [
      `${PL}/volumebinding ErrReasonBindConflict, v1.10+`,
      "0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind.",
      [sched(3, [r(3, "node(s) didn't find available persistent volumes to bind")])],
    ],
    [
      `${PL}/volumebinding ErrReasonPVNotExist, v1.21+`,
      '0/3 nodes are available: 3 node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s).',
      [sched(3, [r(3, 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)')])],
    ],
    [
      `${PL}/volumebinding ErrReasonNodeConflict with the preemption clause, v1.24+, in an Events row with <unknown> age`,
      'Warning  FailedScheduling  <unknown>  default-scheduler  0/3 nodes are available: 3 node(s) had volume node affinity conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      [sched(3, [r(3, 'node(s) had volume node affinity conflict')], notHelpful(3))],
    ],
    [
      `${PL}/volumebinding PreFilter \`pod has unbound immediate PersistentVolumeClaims\`, v1.24+ (no count)`,
      '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      [sched(3, [r(3, 'pod has unbound immediate PersistentVolumeClaims')], notHelpful(3))],
    ],
    [
      `${PL}/volumebinding ErrReasonBindConflict's sibling counted per node, v1.10–v1.23`,
      '0/3 nodes are available: 3 pod has unbound immediate PersistentVolumeClaims.',
      [sched(3, [r(3, 'pod has unbound immediate PersistentVolumeClaims')])],
    ],
    [
      `${PL}/volumezone ErrReasonConflict (${PRED} ErrVolumeZoneConflict before), v1.10+`,
      '0/1 nodes are available: 1 node(s) had no available volume zone.',
      [sched(1, [r(1, 'node(s) had no available volume zone')])],
    ],
    [
      `${PL}/volumerestrictions ErrReasonDiskConflict (${PRED} ErrDiskConflict before), v1.10+`,
      '0/3 nodes are available: 3 node(s) had no available disk.',
      [sched(3, [r(3, 'node(s) had no available disk')])],
    ],
    [
      `${PL}/volumerestrictions ErrReasonReadWriteOncePodConflict, v1.22+`,
      '0/3 nodes are available: 3 node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode.',
      [
        sched(3, [
          r(3, 'node has pod using PersistentVolumeClaim with the same name and ReadWriteOncePod access mode'),
        ]),
      ],
    ],
    [
      `${PL}/nodevolumelimits ErrReasonMaxVolumeCountExceeded (${PRED} ErrMaxVolumeCountExceeded before), v1.10+`,
      '0/2 nodes are available: 2 node(s) exceed max volume count.',
      [sched(2, [r(2, 'node(s) exceed max volume count')])],
    ],
    [
      `${PL}/noderesources \`Insufficient %v\` (${PRED} InsufficientResourceError before), v1.10+: extended resources`,
      '0/5 nodes are available: 2 Insufficient nvidia.com/gpu, 3 Insufficient ephemeral-storage.',
      [sched(5, [r(2, 'Insufficient nvidia.com/gpu'), r(3, 'Insufficient ephemeral-storage')])],
    ],
    [
      `${PL}/noderesources \`Insufficient %v\`, a vendor's extended resource`,
      '0/3 nodes are available: 3 Insufficient example.com/foo.',
      [sched(3, [r(3, 'Insufficient example.com/foo')])],
    ],
    [
      `${PL}/noderesources \`Insufficient %v\` for two resources on the same nodes`,
      '0/10 nodes are available: 10 Insufficient cpu, 10 Insufficient memory.',
      [sched(10, [r(10, 'Insufficient cpu'), r(10, 'Insufficient memory')])],
    ],
    [
      `${PL}/noderesources \`Too many pods\`, v1.18+`,
      '0/3 nodes are available: 3 Too many pods.',
      [sched(3, [r(3, 'Too many pods')])],
    ],
    [
      `${PRED} InsufficientResourceError for pods, v1.10–v1.17`,
      '0/3 nodes are available: 3 Insufficient pods.',
      [sched(3, [r(3, 'Insufficient pods')])],
    ],
    [
      `${PRED} ErrNodeUnderDiskPressure + ErrNodeUnderMemoryPressure, v1.10–v1.16 (taints since)`,
      '0/3 nodes are available: 1 node(s) had disk pressure, 2 node(s) had memory pressure.',
      [sched(3, [r(1, 'node(s) had disk pressure'), r(2, 'node(s) had memory pressure')])],
    ],
    [
      `${PRED} ErrNodeUnderPIDPressure, v1.10–v1.16`,
      '0/3 nodes are available: 3 node(s) had pid pressure.',
      [sched(3, [r(3, 'node(s) had pid pressure')])],
    ],
    [
      `${PRED} ErrNodeNotReady + ErrNodeOutOfDisk, v1.10–v1.12`,
      '0/3 nodes are available: 1 node(s) were not ready, 2 node(s) were out of disk space.',
      [sched(3, [r(1, 'node(s) were not ready'), r(2, 'node(s) were out of disk space')])],
    ],
    [
      `${PRED} ErrNodeUnknownCondition + ErrNodeNetworkUnavailable, v1.10–v1.16`,
      '0/2 nodes are available: 1 node(s) had unknown conditions, 1 node(s) had unavailable network.',
      [sched(2, [r(1, 'node(s) had unknown conditions'), r(1, 'node(s) had unavailable network')])],
    ],
    [
      `${PRED} ErrNodeLabelPresenceViolated, v1.10–v1.22 (policy predicates)`,
      "0/3 nodes are available: 3 node(s) didn't have the requested labels.",
      [sched(3, [r(3, "node(s) didn't have the requested labels")])],
    ],
    [
      `${PRED} ErrServiceAffinityViolated, v1.10–v1.22 (policy predicates)`,
      "0/3 nodes are available: 3 node(s) didn't match service affinity.",
      [sched(3, [r(3, "node(s) didn't match service affinity")])],
    ],
    [
      "pkg/scheduler/framework/types.go FitError: a plugin without its own reason (`node(s) didn't satisfy plugin(s) [%s]`), v1.26+",
      "0/3 nodes are available: 3 node(s) didn't satisfy plugin(s) [DynamicResources].",
      [sched(3, [r(3, "node(s) didn't satisfy plugin(s) [DynamicResources]")])],
    ],
    [
      `${PL}/dynamicresources Filter \`cannot allocate all claims\` and PostFilter's \`still not schedulable, \`, v1.30+`,
      '0/1 nodes are available: 1 cannot allocate all claims. still not schedulable, preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
      [sched(1, [r(1, 'cannot allocate all claims')], notHelpful(1))],
    ],
    [
      `${PL}/dynamicresources PreFilter \`resourceclaim %q is being deleted\`, v1.26+`,
      '0/1 nodes are available: resourceclaim "gpu-claim" is being deleted. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
      [sched(1, [r(1, 'resourceclaim "gpu-claim" is being deleted')], notHelpful(1))],
    ],
    [
      `${PL}/dynamicresources PreFilter \`resourceclaim in use\`, v1.26+`,
      '0/1 nodes are available: resourceclaim in use. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
      [sched(1, [r(1, 'resourceclaim in use')], notHelpful(1))],
    ],
    [
      `${PL}/dynamicresources PreFilter \`resource claim %s is in the process of being allocated\`, v1.31+`,
      '0/1 nodes are available: resource claim default/gpu-claim is in the process of being allocated.',
      [sched(1, [r(1, 'resource claim default/gpu-claim is in the process of being allocated')])],
    ],
    [
      `${DRA} Filter \`resourceclaim not available on the node\` (an allocated claim's node selector)`,
      '0/3 nodes are available: 3 resourceclaim not available on the node. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      [sched(3, [r(3, 'resourceclaim not available on the node')], notHelpful(3))],
    ],
    [
      `${DRA} Filter reasons of two kinds, then PostFilter's \`still not schedulable, \``,
      '0/2 nodes are available: 1 cannot allocate all claims, 1 resourceclaim not available on the node. still not schedulable, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
      [sched(2, [r(1, 'cannot allocate all claims'), r(1, 'resourceclaim not available on the node')], notHelpful(2))],
    ],
    [
      `${DRA} PostFilter \`deallocation of ResourceClaim completed\` joined before the preemption part`,
      '0/3 nodes are available: 3 cannot allocate all claims. deallocation of ResourceClaim completed, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
      [sched(3, [r(3, 'cannot allocate all claims')], notHelpful(3))],
    ],
    [
      `${DRA} PreFilter validateDeviceClass \`request %s: device class %s does not exist\``,
      '0/1 nodes are available: request gpu: device class gpu.example.com does not exist. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
      [sched(1, [r(1, 'request gpu: device class gpu.example.com does not exist')], notHelpful(1))],
    ],
    [
      `${DRA} PreFilter \`resource claim %s, request %s: has subrequests, but the DRAPrioritizedList feature is disabled\``,
      '0/1 nodes are available: resource claim default/gpu, request gpu: has subrequests, but the DRAPrioritizedList feature is disabled.',
      [
        sched(1, [
          r(
            1,
            'resource claim default/gpu, request gpu: has subrequests, but the DRAPrioritizedList feature is disabled',
          ),
        ]),
      ],
    ],
    [
      `${DRA} PreFilter, the claim lister's NotFound (apierrors \`%s %q not found\`)`,
      '0/1 nodes are available: resourceclaim.resource.k8s.io "gpu-claim" not found. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
      [sched(1, [r(1, 'resourceclaim.resource.k8s.io "gpu-claim" not found')], notHelpful(1))],
    ],
    [
      `${PL}/defaultpreemption \`not eligible due to preemptionPolicy=Never.\` after FitError's own period, v1.24–v1.27`,
      '0/3 nodes are available: 3 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never..',
      [
        sched(3, [r(3, 'Insufficient cpu')], {
          total: 3,
          reasons: [r(3, 'not eligible due to preemptionPolicy=Never')],
        }),
      ],
    ],
    [
      `${PL}/defaultpreemption \`not eligible due to a terminating pod on the nominated node.\`, v1.24+`,
      '0/3 nodes are available: 3 Insufficient cpu. preemption: not eligible due to a terminating pod on the nominated node.',
      [
        sched(3, [r(3, 'Insufficient cpu')], {
          total: 3,
          reasons: [r(3, 'not eligible due to a terminating pod on the nominated node')],
        }),
      ],
    ],
    [
      `${PL}/noderesources \`Insufficient %v\` on hugepages, in a describe block's Events`,
      'Conditions:\n  Type           Status\n  PodScheduled   False\nEvents:\n  Warning  FailedScheduling  10s  default-scheduler  0/3 nodes are available: 3 Insufficient hugepages-2Mi.',
      [sched(3, [r(3, 'Insufficient hugepages-2Mi')])],
    ],
    [
      `${PL}/defaultpreemption \`No preemption victims found for incoming pod\` with the doubled period of v1.25–v1.27`,
      '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod..',
      [
        sched(3, [r(3, 'Insufficient cpu')], {
          total: 3,
          reasons: [r(3, 'No preemption victims found for incoming pod')],
        }),
      ],
    ],
    [
      `${PL}/volumebinding + nodeaffinity with the preemption clause, v1.24+`,
      "0/4 nodes are available: 4 node(s) had volume node affinity conflict, 4 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling.",
      [
        sched(
          4,
          [
            r(4, 'node(s) had volume node affinity conflict'),
            r(4, "node(s) didn't match Pod's node affinity/selector"),
          ],
          notHelpful(4),
        ),
      ],
    ],
    [
      'pkg/scheduler/schedule_one.go ErrNoNodesAvailable `no nodes available to schedule pods`, v1.10+',
      'no nodes available to schedule pods',
      [sched(0, [])],
    ],
  ])('%s', (_source, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('kube-scheduler: the frames before FitError (v1.3–v1.9) and its log lines', () => {
  it.each<Row>([
    [
      "pkg/scheduler/core/generic_scheduler.go FitError `No nodes are available that match all of the predicates: %v (%d)`, v1.8–v1.9 (the predicates' names)",
      'No nodes are available that match all of the predicates: Insufficient cpu (3), MatchNodeSelector (2).',
      [sched(null, [r(3, 'Insufficient cpu'), r(2, 'MatchNodeSelector')])],
    ],
    [
      'plugin/pkg/scheduler/core/generic_scheduler.go `… all of the following predicates:: …`, v1.6–v1.7',
      'No nodes are available that match all of the following predicates:: Insufficient memory (1), PodToleratesNodeTaints (2).',
      [sched(null, [r(1, 'Insufficient memory'), r(2, 'PodToleratesNodeTaints')])],
    ],
    [
      'predicate names of v1.6–v1.9 (plugin/pkg/scheduler/algorithm/predicates): pressure, inter-pod affinity, volume zone',
      'No nodes are available that match all of the predicates: CheckNodeMemoryPressure (1), MatchInterPodAffinity (1), NoVolumeZoneConflict (2).',
      [sched(null, [r(1, 'CheckNodeMemoryPressure'), r(1, 'MatchInterPodAffinity'), r(2, 'NoVolumeZoneConflict')])],
    ],
    [
      'predicate names of v1.6–v1.9: disk pressure, EBS volume count, disk conflict, volume node conflict, host ports',
      'No nodes are available that match all of the predicates: CheckNodeDiskPressure (1), MaxEBSVolumeCount (1), NoDiskConflict (1), NoVolumeNodeConflict (1), PodFitsHostPorts (1).',
      [
        sched(null, [
          r(1, 'CheckNodeDiskPressure'),
          r(1, 'MaxEBSVolumeCount'),
          r(1, 'NoDiskConflict'),
          r(1, 'NoVolumeNodeConflict'),
          r(1, 'PodFitsHostPorts'),
        ]),
      ],
    ],
    [
      'predicate names of v1.8–v1.9: CheckNodeCondition, HostName',
      'No nodes are available that match all of the predicates: CheckNodeCondition (2), HostName (1).',
      [sched(null, [r(2, 'CheckNodeCondition'), r(1, 'HostName')])],
    ],
    [
      'plugin/pkg/scheduler/generic_scheduler.go `fit failure summary on nodes : …`, v1.6',
      'fit failure summary on nodes : Insufficient cpu (3), PodToleratesNodeTaints (2)',
      [sched(null, [r(3, 'Insufficient cpu'), r(2, 'PodToleratesNodeTaints')])],
    ],
    [
      'plugin/pkg/scheduler/generic_scheduler.go `pod (%s) failed to fit in any node` + `fit failure on node (%s): %s`, v1.3–v1.5',
      'pod (web-1) failed to fit in any node\nfit failure on node (node-1): Insufficient cpu\nfit failure on node (node-2): PodFitsHostPorts',
      // No `0/N` printed: the total is unknown (LABELLING.md §4).
      [sched(null, [r(1, 'Insufficient cpu'), r(1, 'PodFitsHostPorts')])],
    ],
    [
      "pkg/controller/volume/persistentvolume/scheduler_binder.go FindPodVolumes `pod has unbound PersistentVolumeClaims` (an error, no frame), v1.10–v1.11, with the event recorder's `(repeated N times)`",
      '  Warning  FailedScheduling  2m (x9 over 5m)  default-scheduler  pod has unbound PersistentVolumeClaims (repeated 4 times)',
      [sched(null, [r(null, 'pod has unbound PersistentVolumeClaims')])],
    ],
    [
      'the same binder error counted per node by the predicate, v1.10–v1.11',
      '0/3 nodes are available: 3 pod has unbound PersistentVolumeClaims.',
      [sched(3, [r(3, 'pod has unbound PersistentVolumeClaims')])],
    ],
    [
      'pkg/scheduler/framework/v1alpha1/framework.go RunFilterPlugins `error while running %q filter plugin for pod %q: %v`, v1.16',
      'Warning  FailedScheduling  default-scheduler  error while running "VolumeBinding" filter plugin for pod "web-0": pod has unbound immediate PersistentVolumeClaims',
      [sched(null, [r(null, 'pod has unbound immediate PersistentVolumeClaims')])],
    ],
    [
      'pkg/scheduler/framework/v1alpha1/framework.go RunFilterPlugins `running %q filter plugin for pod %q: %v`, v1.17–v1.19',
      'Warning  FailedScheduling  default-scheduler  running "VolumeBinding" filter plugin for pod "web-0": pod has unbound immediate PersistentVolumeClaims',
      [sched(null, [r(null, 'pod has unbound immediate PersistentVolumeClaims')])],
    ],
    [
      'pkg/scheduler/framework/v1alpha1/framework.go RunPreBindPlugins `error while running %q prebind plugin for pod %q: %v`, v1.16–v1.19',
      'Warning  FailedScheduling  default-scheduler  error while running "VolumeBinding" prebind plugin for pod "web-0": Failed to bind volumes: timed out waiting for the condition',
      [sched(null, [r(null, 'Failed to bind volumes: timed out waiting for the condition')])],
    ],
    [
      'pkg/scheduler/framework/runtime/framework.go RunPreBindPlugins `running PreBind plugin %q: %w`, v1.20+',
      'Warning  FailedScheduling  default-scheduler  running PreBind plugin "VolumeBinding": binding volumes: timed out waiting for the condition',
      [sched(null, [r(null, 'binding volumes: timed out waiting for the condition')])],
    ],
    [
      'pkg/scheduler/schedule_one.go klog `"Unable to schedule pod; no fit; waiting"`, v1.21+',
      '"Unable to schedule pod; no fit; waiting" pod="default/web" err="0/3 nodes are available: 3 Insufficient cpu."',
      [sched(3, [r(3, 'Insufficient cpu')])],
    ],
  ])('%s', (_source, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('kube-scheduler: reasons retyped by people (case, missing words, no period)', () => {
  it.each<Row>([
    [
      'retyped: `insufficient` in lower case, no period',
      '0/3 nodes are available: 3 insufficient cpu',
      [sched(3, [r(3, 'insufficient cpu')])],
    ],
    ['retyped: `are` left out', '0/3 nodes available: 3 Insufficient cpu', [sched(3, [r(3, 'Insufficient cpu')])]],
    [
      'retyped: the resource in capitals',
      '0/2 nodes are available: 2 Insufficient CPU.',
      [sched(2, [r(2, 'Insufficient CPU')])],
    ],
    [
      'retyped: two reasons in capitals, no period',
      '0/2 nodes are available: 2 Insufficient Memory, 2 Insufficient CPU',
      [sched(2, [r(2, 'Insufficient Memory'), r(2, 'Insufficient CPU')])],
    ],
    [
      'retyped: no period after a reason with a slash',
      "0/4 nodes are available: 4 node(s) didn't match Pod's node affinity/selector",
      [sched(4, [r(4, "node(s) didn't match Pod's node affinity/selector")])],
    ],
    [
      'retyped: the list cut with an ellipsis',
      '0/5 nodes are available: 3 Insufficient cpu, 2 Insufficient memory...',
      [sched(5, [r(3, 'Insufficient cpu'), r(2, 'Insufficient memory')])],
    ],
    [
      'retyped: the pre-1.18 taint reason with `taint(s)`',
      "0/3 nodes are available: 3 node(s) had taint(s) that the pod didn't tolerate.",
      [sched(3, [r(3, "node(s) had taint(s) that the pod didn't tolerate")])],
    ],
    [
      'negative: the scheduler skipping a pod being deleted is no refusal (pkg/scheduler/schedule_one.go)',
      'skip schedule deleting pod: default/web',
      [],
    ],
  ])('%s', (_source, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

/** plugin/pkg/admission/resourcequota, later staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota. */
const RQ = 'resourcequota/controller.go';
const EVAL = 'pkg/quota/v1/evaluator/core/pods.go';

describe('ResourceQuota admission: every refusal format (plugin/pkg/admission/resourcequota)', () => {
  it.each<Row>([
    [
      `${RQ} \`exceeded quota: %s, requested: %s, used: %s, limited: %s\`, v1.2+, behind kubectl's error`,
      'Error from server (Forbidden): error when creating "pod.yaml": pods "web" is forbidden: exceeded quota: compute-quota, requested: requests.cpu=500m, used: requests.cpu=1800m, limited: requests.cpu=2',
      [exceeded('compute-quota', { 'requests.cpu': ['500m', '1800m', '2'] }, ['requests.cpu'])],
    ],
    [
      `${RQ} exceeded quota, several resources joined by \`,\` (only the one over is exceeding)`,
      'pods "web" is forbidden: exceeded quota: mem-quota, requested: limits.memory=2Gi,requests.memory=1Gi, used: limits.memory=7Gi,requests.memory=3Gi, limited: limits.memory=8Gi,requests.memory=4Gi',
      [
        exceeded('mem-quota', { 'limits.memory': ['2Gi', '7Gi', '8Gi'], 'requests.memory': ['1Gi', '3Gi', '4Gi'] }, [
          'limits.memory',
        ]),
      ],
    ],
    [
      `${RQ} exceeded quota in a ReplicaSet's FailedCreate row (pkg/controller/replicaset, \`Error creating: %v\`)`,
      '  Warning  FailedCreate  2m (x14 over 5m)  replicaset-controller  Error creating: pods "web-7d9f-x2x9k" is forbidden: exceeded quota: pods-quota, requested: pods=1, used: pods=10, limited: pods=10',
      [exceeded('pods-quota', { pods: ['1', '10', '10'] }, ['pods'])],
    ],
    [
      `${RQ} exceeded quota, ${'pkg/quota/v1/evaluator/core/persistent_volume_claims.go'} requests.storage`,
      'persistentvolumeclaims "data" is forbidden: exceeded quota: storage-quota, requested: requests.storage=10Gi, used: requests.storage=95Gi, limited: requests.storage=100Gi',
      [exceeded('storage-quota', { 'requests.storage': ['10Gi', '95Gi', '100Gi'] }, ['requests.storage'])],
    ],
    [
      `${RQ} exceeded quota, the storage class's own resource (<class>.storageclass.storage.k8s.io/requests.storage)`,
      'persistentvolumeclaims "data" is forbidden: exceeded quota: sc-quota, requested: gold.storageclass.storage.k8s.io/requests.storage=50Gi, used: gold.storageclass.storage.k8s.io/requests.storage=0, limited: gold.storageclass.storage.k8s.io/requests.storage=20Gi',
      [
        exceeded('sc-quota', { 'gold.storageclass.storage.k8s.io/requests.storage': ['50Gi', '0', '20Gi'] }, [
          'gold.storageclass.storage.k8s.io/requests.storage',
        ]),
      ],
    ],
    [
      `${RQ} exceeded quota, pkg/quota/v1/evaluator/core/services.go services.loadbalancers`,
      'services "web" is forbidden: exceeded quota: object-counts, requested: services.loadbalancers=1, used: services.loadbalancers=2, limited: services.loadbalancers=2',
      [exceeded('object-counts', { 'services.loadbalancers': ['1', '2', '2'] }, ['services.loadbalancers'])],
    ],
    [
      `${RQ} exceeded quota, the generic object count count/<resource> (v1.9+)`,
      'Error from server (Forbidden): error when creating "cm.yaml": configmaps "cfg" is forbidden: exceeded quota: object-counts, requested: count/configmaps=1, used: count/configmaps=10, limited: count/configmaps=10',
      [exceeded('object-counts', { 'count/configmaps': ['1', '10', '10'] }, ['count/configmaps'])],
    ],
    [
      `${RQ} exceeded quota, an extended resource (requests.<name>, v1.10+)`,
      'pods "web" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=2, used: requests.nvidia.com/gpu=3, limited: requests.nvidia.com/gpu=4',
      [exceeded('gpu-quota', { 'requests.nvidia.com/gpu': ['2', '3', '4'] }, ['requests.nvidia.com/gpu'])],
    ],
    [
      `${RQ} exceeded quota, the bare cpu / memory names (the same as requests.*)`,
      'pods "web" is forbidden: exceeded quota: compute-quota, requested: cpu=1, used: cpu=3, limited: cpu=3',
      [exceeded('compute-quota', { cpu: ['1', '3', '3'] }, ['cpu'])],
    ],
    [
      `${RQ} exceeded quota, requests.ephemeral-storage (v1.8+)`,
      'pods "web" is forbidden: exceeded quota: compute-quota, requested: requests.ephemeral-storage=2Gi, used: requests.ephemeral-storage=9Gi, limited: requests.ephemeral-storage=10Gi',
      [
        exceeded('compute-quota', { 'requests.ephemeral-storage': ['2Gi', '9Gi', '10Gi'] }, [
          'requests.ephemeral-storage',
        ]),
      ],
    ],
    [
      `${RQ} exceeded quota, one pod alone over the hard limit (used 0)`,
      'pods "web" is forbidden: exceeded quota: compute-quota, requested: limits.cpu=4, used: limits.cpu=0, limited: limits.cpu=2',
      [exceeded('compute-quota', { 'limits.cpu': ['4', '0', '2'] }, ['limits.cpu'])],
    ],
    [
      `${RQ} exceeded quota, quantities in other units (15872Mi + 1Gi > 16Gi by value)`,
      'pods "web" is forbidden: exceeded quota: compute-quota, requested: requests.memory=1Gi, used: requests.memory=15872Mi, limited: requests.memory=16Gi',
      [exceeded('compute-quota', { 'requests.memory': ['1Gi', '15872Mi', '16Gi'] }, ['requests.memory'])],
    ],
    [
      `${RQ} exceeded quota, two quotas refusing one pod (one clause each, joined by \`, \`)`,
      'Error creating: pods "web-1" is forbidden: exceeded quota: q1, requested: pods=1, used: pods=5, limited: pods=5, exceeded quota: q2, requested: requests.cpu=1, used: requests.cpu=4, limited: requests.cpu=4',
      [
        exceeded('q1', { pods: ['1', '5', '5'] }, ['pods']),
        exceeded('q2', { 'requests.cpu': ['1', '4', '4'] }, ['requests.cpu']),
      ],
    ],
    [
      `${RQ} exceeded quota, four resources of one quota (two of them over)`,
      'pods "web" is forbidden: exceeded quota: compute-quota, requested: limits.cpu=2,limits.memory=2Gi,requests.cpu=1,requests.memory=1Gi, used: limits.cpu=7,limits.memory=14Gi,requests.cpu=3500m,requests.memory=7Gi, limited: limits.cpu=8,limits.memory=16Gi,requests.cpu=4,requests.memory=8Gi',
      [
        exceeded(
          'compute-quota',
          {
            'limits.cpu': ['2', '7', '8'],
            'limits.memory': ['2Gi', '14Gi', '16Gi'],
            'requests.cpu': ['1', '3500m', '4'],
            'requests.memory': ['1Gi', '7Gi', '8Gi'],
          },
          ['limits.cpu', 'requests.cpu'],
        ),
      ],
    ],
    [
      `${RQ} exceeded quota, requests.hugepages-<size> (v1.14+)`,
      'pods "web" is forbidden: exceeded quota: hp-quota, requested: requests.hugepages-2Mi=4Mi, used: requests.hugepages-2Mi=0, limited: requests.hugepages-2Mi=2Mi',
      [exceeded('hp-quota', { 'requests.hugepages-2Mi': ['4Mi', '0', '2Mi'] }, ['requests.hugepages-2Mi'])],
    ],
    [
      `${RQ} exceeded quota, services.nodeports at 0`,
      'services "nodeport" is forbidden: exceeded quota: svc-quota, requested: services.nodeports=1, used: services.nodeports=0, limited: services.nodeports=0',
      [exceeded('svc-quota', { 'services.nodeports': ['1', '0', '0'] }, ['services.nodeports'])],
    ],
    [
      `${RQ} exceeded quota, the persistentvolumeclaims count`,
      'persistentvolumeclaims "data" is forbidden: exceeded quota: pvc-count, requested: persistentvolumeclaims=1, used: persistentvolumeclaims=5, limited: persistentvolumeclaims=5',
      [exceeded('pvc-count', { persistentvolumeclaims: ['1', '5', '5'] }, ['persistentvolumeclaims'])],
    ],
    [
      `${RQ} exceeded quota, count/<resource>.<group> for an apps object`,
      'deployments.apps "web" is forbidden: exceeded quota: object-counts, requested: count/deployments.apps=1, used: count/deployments.apps=4, limited: count/deployments.apps=4',
      [exceeded('object-counts', { 'count/deployments.apps': ['1', '4', '4'] }, ['count/deployments.apps'])],
    ],
    [
      'retyped: no blank after the colons',
      'exceeded quota: compute-quota, requested:requests.cpu=500m, used:requests.cpu=1800m, limited:requests.cpu=2',
      [exceeded('compute-quota', { 'requests.cpu': ['500m', '1800m', '2'] }, ['requests.cpu'])],
    ],
    [
      "retyped: `Exceeded` capitalised, behind a tool's `Error: failed to create:`",
      'Error: failed to create: pods "web" is forbidden: Exceeded quota: compute-quota, requested: requests.cpu=500m, used: requests.cpu=1800m, limited: requests.cpu=2',
      [exceeded('compute-quota', { 'requests.cpu': ['500m', '1800m', '2'] }, ['requests.cpu'])],
    ],
    [
      'retyped: a period after the last quantity',
      'pods "web" is forbidden: exceeded quota: compute-quota, requested: requests.cpu=500m, used: requests.cpu=1800m, limited: requests.cpu=2.',
      [exceeded('compute-quota', { 'requests.cpu': ['500m', '1800m', '2'] }, ['requests.cpu'])],
    ],
    [
      'retyped: the blanks after the commas left out',
      'exceeded quota: compute-quota,requested: requests.cpu=500m,used: requests.cpu=1800m,limited: requests.cpu=2',
      [exceeded('compute-quota', { 'requests.cpu': ['500m', '1800m', '2'] }, ['requests.cpu'])],
    ],
    [
      'retyped: no commas at all',
      'Exceeded quota: compute-quota requested: requests.cpu=500m used: requests.cpu=1800m limited: requests.cpu=2',
      [exceeded('compute-quota', { 'requests.cpu': ['500m', '1800m', '2'] }, ['requests.cpu'])],
    ],
    [
      `${RQ} \`failed quota: %s: must specify %s\`, v1.9–v1.21 (the resources joined by \`,\`)`,
      'pods "web" is forbidden: failed quota: compute-quota: must specify limits.cpu,limits.memory,requests.cpu,requests.memory',
      [
        mustSpecify('compute-quota', {
          'limits.cpu': [],
          'limits.memory': [],
          'requests.cpu': [],
          'requests.memory': [],
        }),
      ],
    ],
    [
      `${RQ} \`Failed quota: %s: must specify %s\`, v1.2–v1.8 (capitalised)`,
      'Error from server (Forbidden): error when creating "pod.yaml": pods "web" is forbidden: Failed quota: compute-quota: must specify limits.cpu,limits.memory',
      [mustSpecify('compute-quota', { 'limits.cpu': [], 'limits.memory': [] })],
    ],
    [
      `${RQ} must specify, the bare names of a quota on cpu / memory`,
      'pods "web" is forbidden: failed quota: compute-quota: must specify cpu,memory',
      [mustSpecify('compute-quota', { cpu: [], memory: [] })],
    ],
    [
      `${EVAL} \`must specify %s for: %s\` per resource joined by \`; \`, v1.22+`,
      'pods "web" is forbidden: failed quota: compute-quota: must specify limits.cpu for: app,sidecar; limits.memory for: app',
      [mustSpecify('compute-quota', { 'limits.cpu': ['app', 'sidecar'], 'limits.memory': ['app'] })],
    ],
    [
      `${EVAL} must specify … for:, an init container named`,
      'pods "web" is forbidden: failed quota: compute-quota: must specify requests.cpu for: app; requests.memory for: app,init-db',
      [mustSpecify('compute-quota', { 'requests.cpu': ['app'], 'requests.memory': ['app', 'init-db'] })],
    ],
    [
      `${RQ} \`status unknown for quota: %s, resources: %s\`, v1.16+`,
      'pods "web" is forbidden: status unknown for quota: compute-quota, resources: requests.cpu',
      [
        {
          layer: 'quota',
          kind: 'quota-status-unknown',
          facts: { quota: 'compute-quota', resources: ['requests.cpu'] },
        },
      ],
    ],
    [
      `${RQ} \`status unknown for quota: %s\`, v1.2–v1.15`,
      'pods "web" is forbidden: status unknown for quota: compute-quota',
      [{ layer: 'quota', kind: 'quota-status-unknown', facts: { quota: 'compute-quota', resources: [] } }],
    ],
    [
      `${RQ} \`insufficient quota to consume: %v\` (limitedResources of the admission configuration), v1.8+`,
      'pods "web" is forbidden: insufficient quota to consume: requests.cpu',
      [{ layer: 'quota', kind: 'quota-insufficient', facts: { resources: ['requests.cpu'] } }],
    ],
    [
      `${RQ} \`insufficient quota to match these scopes: %v\` (limitedResources with matchScopes), v1.12+`,
      'pods "web" is forbidden: insufficient quota to match these scopes: [{PriorityClass In [high]}]',
      [{ layer: 'quota', kind: 'quota-insufficient', facts: { scopes: ['PriorityClass In [high]'] } }],
    ],
  ])('%s', (_source, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

const LR = 'plugin/pkg/admission/limitranger/admission.go';

describe('LimitRanger: min, max and ratio for Container, Pod and PersistentVolumeClaim (plugin/pkg/admission/limitranger)', () => {
  it.each<Row>([
    [
      `${LR} minConstraint \`minimum %s usage per %s is %s, but request is %s\`, v1.10+ (with a period v1.2–v1.9)`,
      'pods "web" is forbidden: minimum cpu usage per Container is 100m, but request is 50m',
      [lr(['Container', 'cpu', 'min', '100m', '50m'])],
    ],
    [
      `${LR} minConstraint \`… but limit is %s\``,
      'pods "web" is forbidden: minimum memory usage per Container is 64Mi, but limit is 32Mi',
      [lr(['Container', 'memory', 'min', '64Mi', '32Mi'])],
    ],
    [
      `${LR} minConstraint \`minimum %s usage per %s is %s.  No request is specified\` (two blanks)`,
      'pods "web" is forbidden: minimum memory usage per Container is 64Mi.  No request is specified',
      [lr(['Container', 'memory', 'min', '64Mi', null])],
    ],
    [
      `${LR} maxConstraint \`maximum %s usage per %s is %s, but limit is %s\``,
      'pods "web" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi',
      [lr(['Container', 'memory', 'max', '1Gi', '2Gi'])],
    ],
    [
      `${LR} maxConstraint \`… but request is %s\``,
      'pods "web" is forbidden: maximum cpu usage per Container is 2, but request is 3',
      [lr(['Container', 'cpu', 'max', '2', '3'])],
    ],
    [
      `${LR} maxConstraint \`maximum %s usage per %s is %s.  No limit is specified\``,
      'pods "web" is forbidden: maximum cpu usage per Container is 2.  No limit is specified',
      [lr(['Container', 'cpu', 'max', '2', null])],
    ],
    [
      `${LR} limitRequestRatioConstraint \`%s max limit to request ratio per %s is %s, but provided ratio is %f\``,
      'pods "web" is forbidden: cpu max limit to request ratio per Container is 4, but provided ratio is 10.000000',
      [lr(['Container', 'cpu', 'ratio', '4', '10.000000'])],
    ],
    [
      `${LR} limitRequestRatioConstraint \`… but no request is specified or request is 0\``,
      'pods "web" is forbidden: memory max limit to request ratio per Container is 2, but no request is specified or request is 0',
      [lr(['Container', 'memory', 'ratio', '2', null])],
    ],
    [
      `${LR} aggregate \`[e1, e2]\` (utilerrors.NewAggregate), Container and Pod scopes`,
      'pods "web" is forbidden: [maximum cpu usage per Container is 2, but limit is 4, maximum memory usage per Pod is 4Gi, but limit is 6Gi]',
      [lr(['Container', 'cpu', 'max', '2', '4'], ['Pod', 'memory', 'max', '4Gi', '6Gi'])],
    ],
    [
      `${LR} aggregate with the periods of v1.2–v1.9`,
      'pods "web" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m., maximum memory usage per Container is 1Gi, but limit is 2Gi.]',
      [lr(['Container', 'cpu', 'min', '100m', '50m'], ['Container', 'memory', 'max', '1Gi', '2Gi'])],
    ],
    [
      `${LR} Pod scope min (the containers' requests summed)`,
      'pods "web" is forbidden: minimum memory usage per Pod is 64Mi, but request is 32Mi',
      [lr(['Pod', 'memory', 'min', '64Mi', '32Mi'])],
    ],
    [
      `${LR} Pod scope max with the period of v1.2–v1.9`,
      'pods "web" is forbidden: maximum cpu usage per Pod is 2, but limit is 3.',
      [lr(['Pod', 'cpu', 'max', '2', '3'])],
    ],
    [
      `${LR} PersistentVolumeClaim min (v1.9+)`,
      'persistentvolumeclaims "data" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
      [lr(['PersistentVolumeClaim', 'storage', 'min', '1Gi', '500Mi'])],
    ],
    [
      `${LR} PersistentVolumeClaim max`,
      'persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 50Gi, but request is 100Gi',
      [lr(['PersistentVolumeClaim', 'storage', 'max', '50Gi', '100Gi'])],
    ],
    [
      `${LR} PersistentVolumeClaim max without a limit`,
      'persistentvolumeclaims "data" is forbidden: maximum storage usage per PersistentVolumeClaim is 50Gi.  No limit is specified',
      [lr(['PersistentVolumeClaim', 'storage', 'max', '50Gi', null])],
    ],
    [
      `${LR} maxConstraint on ephemeral-storage (v1.8+)`,
      'pods "web" is forbidden: maximum ephemeral-storage usage per Container is 2Gi, but limit is 4Gi',
      [lr(['Container', 'ephemeral-storage', 'max', '2Gi', '4Gi'])],
    ],
    [
      `${LR} maxConstraint on an extended resource`,
      'pods "web" is forbidden: maximum nvidia.com/gpu usage per Container is 1, but limit is 2',
      [lr(['Container', 'nvidia.com/gpu', 'max', '1', '2'])],
    ],
    [
      `${LR} in a ReplicaSet's FailedCreate row`,
      '  Warning  FailedCreate  3s (x12 over 13s)  replicaset-controller  Error creating: pods "web-6d4cf56db6-z7bl4" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
      [lr(['Container', 'cpu', 'max', '1', '2'])],
    ],
    [
      `${LR} maxConstraint on hugepages`,
      'pods "web" is forbidden: maximum hugepages-2Mi usage per Container is 2Mi, but limit is 4Mi',
      [lr(['Container', 'hugepages-2Mi', 'max', '2Mi', '4Mi'])],
    ],
    [
      `${LR} two violations joined by \`, \` without the brackets`,
      'pods "web" is forbidden: maximum cpu usage per Container is 500m, but limit is 1, maximum memory usage per Container is 512Mi, but limit is 1Gi',
      [lr(['Container', 'cpu', 'max', '500m', '1'], ['Container', 'memory', 'max', '512Mi', '1Gi'])],
    ],
    [
      'retyped: max without the comma before `but`',
      'maximum cpu usage per Container is 2 but limit is 4',
      [lr(['Container', 'cpu', 'max', '2', '4'])],
    ],
    [
      'retyped: min without the comma before `but`',
      'minimum memory usage per Container is 64Mi but request is 32Mi',
      [lr(['Container', 'memory', 'min', '64Mi', '32Mi'])],
    ],
    [
      'retyped: the ratio without the comma, printed as an integer',
      'cpu max limit to request ratio per Container is 4 but provided ratio is 10',
      [lr(['Container', 'cpu', 'ratio', '4', '10'])],
    ],
    [
      'retyped: `Minimum` capitalised, with a period, no envelope',
      'Minimum cpu usage per Container is 100m, but request is 50m.',
      [lr(['Container', 'cpu', 'min', '100m', '50m'])],
    ],
    [
      'retyped: the scope in lower case',
      'minimum cpu usage per container is 100m, but request is 50m',
      [lr(['Container', 'cpu', 'min', '100m', '50m'])],
    ],
  ])('%s', (_source, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

const VAL = 'pkg/apis/core/validation/validation.go';

describe('core validation of resources (pkg/apis/core/validation, ValidateResourceRequirements)', () => {
  it.each<Row>([
    [
      `${VAL} \`must be less than or equal to %s limit\` on requests, v1.20–v1.26`,
      'The Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit',
      [av('cpu', '2', null, 'spec.containers[0].resources.requests')],
    ],
    [
      `${VAL} \`must be less than or equal to %s limit of %s\`, v1.27+ (PR #112925)`,
      'The Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      [av('cpu', '2', '1', 'spec.containers[0].resources.requests')],
    ],
    [
      `${VAL} \`must be greater than or equal to %s request\` on the limit, before v1.20 (the limit printed)`,
      'The Pod "web" is invalid: spec.containers[0].resources.limits[memory]: Invalid value: "512Mi": must be greater than or equal to memory request',
      [av('memory', null, '512Mi', 'spec.containers[0].resources.limits[memory]')],
    ],
    [
      `${VAL} before v1.20, on cpu`,
      'The Pod "web" is invalid: spec.containers[0].resources.limits[cpu]: Invalid value: "500m": must be greater than or equal to cpu request',
      [av('cpu', null, '500m', 'spec.containers[0].resources.limits[cpu]')],
    ],
    [
      `${VAL} a Deployment's template (spec.template.spec…), v1.20–v1.26`,
      'The Deployment "web" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "1Gi": must be less than or equal to memory limit',
      [av('memory', '1Gi', null, 'spec.template.spec.containers[0].resources.requests')],
    ],
    [
      `${VAL} a Deployment's second container, v1.27+`,
      'The Deployment "web" is invalid: spec.template.spec.containers[1].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi',
      [av('memory', '2Gi', '1Gi', 'spec.template.spec.containers[1].resources.requests')],
    ],
    [
      `${VAL} a StatefulSet's template`,
      'The StatefulSet "db" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "4": must be less than or equal to cpu limit',
      [av('cpu', '4', null, 'spec.template.spec.containers[0].resources.requests')],
    ],
    [
      `${VAL} an init container, v1.27+`,
      'The Pod "web" is invalid: spec.initContainers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
      [av('cpu', '2', '1', 'spec.initContainers[0].resources.requests')],
    ],
    [
      `${VAL} pod-level resources (spec.resources, v1.32+)`,
      'The Pod "web" is invalid: spec.resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1',
      [av('cpu', '2', '1', 'spec.resources.requests[cpu]')],
    ],
    [
      `${VAL} two field errors in one aggregate \`[e1, e2]\``,
      'The Pod "web" is invalid: [spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit, spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit]',
      [
        av('cpu', '2', null, 'spec.containers[0].resources.requests'),
        av('memory', '2Gi', null, 'spec.containers[0].resources.requests'),
      ],
    ],
    [
      `${VAL} behind kubectl's \`Error from server (Invalid): error when creating\``,
      'Error from server (Invalid): error when creating "pod.yaml": Pod "web" is invalid: spec.containers[0].resources.requests: Invalid value: "600m": must be less than or equal to cpu limit',
      [av('cpu', '600m', null, 'spec.containers[0].resources.requests')],
    ],
    [
      `${VAL} the field error alone`,
      'spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit',
      [av('cpu', '2', null, 'spec.containers[0].resources.requests')],
    ],
    [
      `${VAL} \`must be equal to %s limit\` (not overcommitable: hugepages), v1.14–v1.26`,
      'The Pod "web" is invalid: spec.containers[0].resources.requests[hugepages-2Mi]: Invalid value: "4Mi": must be equal to hugepages-2Mi limit',
      [av('hugepages-2Mi', '4Mi', null, 'spec.containers[0].resources.requests[hugepages-2Mi]')],
    ],
    [
      `${VAL} \`must be equal to %s limit\`, an extended resource, v1.10–v1.26`,
      'The Pod "web" is invalid: spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: "1": must be equal to nvidia.com/gpu limit',
      [av('nvidia.com/gpu', '1', null, 'spec.containers[0].resources.requests[nvidia.com/gpu]')],
    ],
    [
      `${VAL} \`must be equal to %s limit\` for alpha.kubernetes.io/nvidia-gpu, v1.6–v1.9`,
      'The Pod "web" is invalid: spec.containers[0].resources.requests[alpha.kubernetes.io/nvidia-gpu]: Invalid value: "1": must be equal to alpha.kubernetes.io/nvidia-gpu limit',
      [
        av(
          'alpha.kubernetes.io/nvidia-gpu',
          '1',
          null,
          'spec.containers[0].resources.requests[alpha.kubernetes.io/nvidia-gpu]',
        ),
      ],
    ],
    [
      `${VAL} \`must be equal to %s limit of %s\`, v1.27+`,
      'The Pod "web" is invalid: spec.containers[0].resources.requests[example.com/foo]: Invalid value: "2": must be equal to example.com/foo limit of 1',
      [av('example.com/foo', '2', '1', 'spec.containers[0].resources.requests[example.com/foo]')],
    ],
    [
      `${VAL} \`Limit must be set for non overcommitable resources\` (field.Required on resources.limits, no resource named)`,
      'The Pod "gpu" is invalid: spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources',
      [av(null, null, null, 'spec.containers[0].resources.limits')],
    ],
    [
      `${VAL} ValidateNonnegativeQuantity \`must be greater than or equal to 0\``,
      'The Pod "web" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      [av('cpu', '-1', null, 'spec.containers[0].resources.requests[cpu]')],
    ],
    [
      `${VAL} ValidateResourceQuantityValue \`must be an integer\` (extended resources)`,
      'The Pod "web" is invalid: spec.containers[0].resources.requests[nvidia.com/gpu]: Invalid value: "500m": must be an integer',
      [av('nvidia.com/gpu', '500m', null, 'spec.containers[0].resources.requests[nvidia.com/gpu]')],
    ],
    [
      `${VAL} validateResourceQuantityHugePageValue \`%s is not positive integer multiple of %s\`, v1.19+`,
      'The Pod "web" is invalid: spec.containers[0].resources.requests[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi',
      [av('hugepages-2Mi', '3Mi', null, 'spec.containers[0].resources.requests[hugepages-2Mi]')],
    ],
    [
      `${VAL} \`HugePages require cpu or memory\` (field.Forbidden, no resource named)`,
      'The Pod "web" is invalid: spec.containers[0].resources.requests: Forbidden: HugePages require cpu or memory',
      [av(null, null, null, 'spec.containers[0].resources.requests')],
    ],
    [
      'staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go ErrFormatWrong at decode time (the body does not decode)',
      'Error from server (BadRequest): error when creating "pod.yaml": Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
      [av(null, null, null, null)],
    ],
    [
      'negative: the quantity rule quoted alone, no object refused',
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      [],
    ],
  ])('%s', (_source, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

const PRED_KL = 'pkg/kubelet/lifecycle/predicate.go';
const EVH = 'pkg/kubelet/eviction/helpers.go';

describe('kubelet: admission rejections, evictions and OOM kills', () => {
  it.each<Row>([
    [
      `${PRED_KL} OutOfCPU + InsufficientResourceError \`Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d\`, v1.10+`,
      "  Warning  OutOfcpu  10s  kubelet  Node didn't have enough resource: cpu, requested: 1000, used: 3500, capacity: 4000",
      [rt({ reason: 'OutOfcpu' })],
    ],
    [
      `${PRED_KL} OutOfMemory, the status message with the kubelet's \`Pod \` prefix of v1.10–v1.21`,
      "Status:  Failed\nReason:  OutOfmemory\nMessage: Pod Node didn't have enough resource: memory, requested: 536870912, used: 7784628224, capacity: 8232587264",
      [rt({ reason: 'OutOfmemory' })],
    ],
    [
      `${PRED_KL} \`Pod was rejected: \` prefix of v1.22+, the reason not printed`,
      "Message: Pod was rejected: Node didn't have enough resource: cpu, requested: 1000, used: 3500, capacity: 4000",
      [rt({ reason: 'OutOfcpu' })],
    ],
    [
      `${PRED_KL} InsufficientResourcePrefix + an extended resource (\`OutOf%s\`)`,
      "Warning  OutOfnvidia.com/gpu  5s  kubelet  Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 1, capacity: 1",
      [rt({ reason: 'OutOfnvidia.com/gpu' })],
    ],
    [
      `${PRED_KL} OutOfPods`,
      "Warning  OutOfpods  5s  kubelet  Node didn't have enough resource: pods, requested: 1, used: 110, capacity: 110",
      [rt({ reason: 'OutOfpods' })],
    ],
    [
      `${PRED_KL} OutOfEphemeralStorage`,
      "Warning  OutOfephemeral-storage  5s  kubelet  Node didn't have enough resource: ephemeral-storage, requested: 1073741824, used: 0, capacity: 0",
      [rt({ reason: 'OutOfephemeral-storage' })],
    ],
    [
      `${PRED_KL} the reason in kubectl get pods' STATUS column`,
      'NAME   READY   STATUS     RESTARTS   AGE\nweb    0/1     OutOfcpu   0          2m',
      [rt({ reason: 'OutOfcpu' })],
    ],
    [
      `${PRED_KL} PredicateFailureError \`Predicate %s failed\` with the \`Pod \` prefix, v1.10–v1.21`,
      'Status:  Failed\nReason:  NodeAffinity\nMessage: Pod Predicate NodeAffinity failed',
      [rt({ reason: 'NodeAffinity' })],
    ],
    [
      `${PRED_KL} \`Predicate %s failed: %s\` with the reason, v1.22+`,
      "Message: Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
      [rt({ reason: 'NodeAffinity' })],
    ],
    [
      `${PRED_KL} the old predicate name MatchNodeSelector, v1.10–v1.17 (NodeAffinity since)`,
      'Reason: MatchNodeSelector\nMessage: Pod Predicate MatchNodeSelector failed',
      [rt({ reason: 'NodeAffinity' })],
    ],
    [
      `${PRED_KL} TaintToleration (NoExecute taints at admission), v1.22+`,
      'Message: Pod was rejected: Predicate TaintToleration failed: node(s) had untolerated taint {dedicated: gpu}',
      [rt({ reason: 'TaintToleration' })],
    ],
    [
      `${PRED_KL} the old predicate name PodFitsHostPorts, v1.10–v1.17`,
      'Message: Pod Predicate PodFitsHostPorts failed',
      [rt({ reason: 'PodFitsHostPorts' })],
    ],
    [
      `${PRED_KL} UnexpectedAdmissionError \`Update plugin resources failed due to %v, which is unexpected.\` with pkg/kubelet/cm/devicemanager \`requested number of devices unavailable for %s. Requested: %d, Available: %d\`, v1.10+`,
      'Status:  Failed\nReason:  UnexpectedAdmissionError\nMessage: Pod Update plugin resources failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 1, Available: 0, which is unexpected.',
      [rt({ reason: 'UnexpectedAdmissionError' })],
    ],
    [
      'pkg/kubelet/cm/topologymanager scope admission `Allocate failed due to %v, which is unexpected`, v1.18+, in an Events row',
      '  Warning  UnexpectedAdmissionError  12s  kubelet  Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 4, Available: 0, which is unexpected',
      [rt({ reason: 'UnexpectedAdmissionError' })],
    ],
    [
      'pkg/kubelet/cm/devicemanager `no healthy devices present; cannot allocate unhealthy devices %s`, v1.20+',
      'Reason: UnexpectedAdmissionError\nMessage: Pod was rejected: Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected',
      [rt({ reason: 'UnexpectedAdmissionError' })],
    ],
    [
      'pkg/kubelet/cm/cpumanager/cpu_assignment.go `not enough cpus available to satisfy request: requested=%d, available=%d` inside `Allocate failed due to %v, which is unexpected`',
      '  Warning  UnexpectedAdmissionError  3s  kubelet  Allocate failed due to not enough cpus available to satisfy request: requested=8, available=7, which is unexpected',
      [rt({ reason: 'UnexpectedAdmissionError' })],
    ],
    [
      'pkg/kubelet/cm/cpumanager the same error before the counts were printed',
      'Reason: UnexpectedAdmissionError\nMessage: Pod was rejected: Allocate failed due to not enough cpus available to satisfy request, which is unexpected',
      [rt({ reason: 'UnexpectedAdmissionError' })],
    ],
    [
      `${PRED_KL} UnexpectedAdmissionError in kubectl get pods' STATUS column`,
      'NAME   READY   STATUS                     RESTARTS   AGE\ntrain  0/1     UnexpectedAdmissionError   0          2m',
      [rt({ reason: 'UnexpectedAdmissionError' })],
    ],
    [
      'pkg/kubelet/cm/topologymanager ErrorTopologyAffinity `Resources cannot be allocated with Topology locality`, v1.18+',
      'Status:  Failed\nReason:  TopologyAffinityError\nMessage: Pod was rejected: Resources cannot be allocated with Topology locality',
      [rt({ reason: 'TopologyAffinityError' })],
    ],
    [
      `${EVH} nodeLowMessageFmt + containerMessageFmt \`Container %s was using %s, which exceeds its request of %s.\` (the wording before the current one)`,
      'Status:  Failed\nReason:  Evicted\nMessage: The node was low on resource: memory. Container app was using 1532Mi, which exceeds its request of 512Mi.',
      [rt({ reason: 'Evicted', container: 'app', resource: 'memory', request: '512Mi', used: '1532Mi' })],
    ],
    [
      `${EVH} thresholdMetMessageFmt \`Threshold quantity: %v, available: %v.\` + \`Container %s was using %s, request is %s, has larger consumption of %v.\` (the current wording, upstream HEAD)`,
      'Message: The node was low on resource: memory. Threshold quantity: 100Mi, available: 85032Ki. Container app was using 1532Mi, request is 512Mi, has larger consumption of memory.',
      [rt({ reason: 'Evicted', container: 'app', resource: 'memory', request: '512Mi', used: '1532Mi' })],
    ],
    [
      `${EVH} nodeLowMessageFmt on ephemeral-storage, the older container wording`,
      'Message: The node was low on resource: ephemeral-storage. Container app was using 10Gi, which exceeds its request of 0.',
      [rt({ reason: 'Evicted', container: 'app', resource: 'ephemeral-storage', request: '0', used: '10Gi' })],
    ],
    [
      `${EVH} ephemeral-storage with the threshold, the current wording`,
      'Message: The node was low on resource: ephemeral-storage. Threshold quantity: 10Gi, available: 5Gi. Container app was using 12Gi, request is 0, has larger consumption of ephemeral-storage.',
      [rt({ reason: 'Evicted', container: 'app', resource: 'ephemeral-storage', request: '0', used: '12Gi' })],
    ],
    [
      `${EVH} two containers over their requests (the first one named is the finding's)`,
      'Warning  Evicted  kubelet  The node was low on resource: memory. Threshold quantity: 100Mi, available: 85032Ki. Container app was using 1532Mi, request is 512Mi, has larger consumption of memory. Container sidecar was using 64Mi, request is 0, has larger consumption of memory.',
      [rt({ reason: 'Evicted', container: 'app', resource: 'memory', request: '512Mi', used: '1532Mi' })],
    ],
    [
      `${EVH} a percentage threshold, no container named`,
      'Message: The node was low on resource: ephemeral-storage. Threshold quantity: 10%, available: 4Gi. ',
      [rt({ reason: 'Evicted', resource: 'ephemeral-storage' })],
    ],
    [
      "pkg/kubelet/eviction the signal's resource name of the first releases (`nodefs`), after the Killing row",
      '  Normal   Killing  kubelet  Stopping container app\n  Warning  Evicted  kubelet  The node was low on resource: nodefs.',
      [rt({ reason: 'Evicted', resource: 'nodefs' })],
    ],
    [
      `${EVH} nodeLowMessageFmt alone in an Evicted row`,
      '  Warning  Evicted  5m  kubelet  The node was low on resource: memory.',
      [rt({ reason: 'Evicted', resource: 'memory' })],
    ],
    [
      `${EVH} the threshold without a container (no pod over its request), the current wording`,
      'Warning  Evicted  kubelet  The node was low on resource: memory. Threshold quantity: 100Mi, available: 85032Ki.',
      [rt({ reason: 'Evicted', resource: 'memory' })],
    ],
    [
      `${EVH} nodeLowMessageFmt on pids (v1.14+)`,
      'Message: The node was low on resource: pids.',
      [rt({ reason: 'Evicted', resource: 'pids' })],
    ],
    [
      `${EVH} podEphemeralStorageMessageFmt \`Pod ephemeral local storage usage exceeds the total limit of containers %s.\`, v1.9+`,
      'Message: Pod ephemeral local storage usage exceeds the total limit of containers 2Gi.',
      [rt({ reason: 'Evicted', resource: 'ephemeral-storage', limit: '2Gi' })],
    ],
    [
      `${EVH} containerEphemeralStorageMessageFmt \`Container %s exceeded its local ephemeral storage limit %q.\`, v1.9+`,
      'Message: Container app exceeded its local ephemeral storage limit "1Gi".',
      [rt({ reason: 'Evicted', container: 'app', resource: 'ephemeral-storage', limit: '1Gi' })],
    ],
    [
      `${EVH} emptyDirMessageFmt \`Usage of EmptyDir volume %q exceeds the limit %q.\`, v1.9+`,
      'Message: Usage of EmptyDir volume "cache" exceeds the limit "500Mi".',
      [rt({ reason: 'Evicted', resource: 'ephemeral-storage', limit: '500Mi' })],
    ],
    [
      `${EVH} nodeConditionMessageFmt \`The node had condition: %v.\` (eviction admission), v1.9+`,
      'Reason: Evicted\nMessage: The node had condition: [DiskPressure].',
      [rt({ reason: 'Evicted' })],
    ],
    [
      "pkg/kubelet/eviction/eviction_manager.go Admit, `Pod ` + the node's conditions, v1.5–v1.8",
      'Message: Pod The node was low on resource: [DiskPressure].',
      [rt({ reason: 'Evicted' })],
    ],
    [
      'pkg/kubelet/eviction/eviction_manager.go `The node was low on compute resources.`, v1.3–v1.4',
      'Status:  Failed\nReason:  Evicted\nMessage: The node was low on compute resources.',
      [rt({ reason: 'Evicted' })],
    ],
    [
      "pkg/kubelet/kuberuntime (container status reason from the runtime's OOM flag) `OOMKilled`",
      '    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137',
      [rt({ reason: 'OOMKilled' })],
    ],
    [
      'pkg/kubelet/oom oomwatcher `System OOM encountered, victim process: %s, pid: %d` (SystemOOM event), v1.19+',
      '  Warning  SystemOOM  3m  kubelet  System OOM encountered, victim process: java, pid: 1234',
      [rt({ reason: 'OOMKilled', process: 'java' })],
    ],
    [
      'kernel mm/oom_kill.c `Memory cgroup out of memory: Killed process %d (%s) total-vm… anon-rss…`, Linux 4.19+',
      'Memory cgroup out of memory: Killed process 12345 (java) total-vm:8123456kB, anon-rss:2097152kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:5000kB oom_score_adj:999',
      [rt({ reason: 'OOMKilled', used: '2Gi', process: 'java' })],
    ],
    [
      'kernel mm/oom_kill.c `Out of memory: Kill process %d (%s) score %u or sacrifice child`, before Linux 5.0',
      'Out of memory: Kill process 1234 (java) score 1000 or sacrifice child',
      [rt({ reason: 'OOMKilled', process: 'java' })],
    ],
    [
      'kernel mm/oom_kill.c, relayed by node-problem-detector as an OOMKilling event',
      '  Warning  OOMKilling  3m  kernel-monitor  Memory cgroup out of memory: Kill process 1234 (java) score 1000 or sacrifice child',
      [rt({ reason: 'OOMKilled', process: 'java' })],
    ],
    [
      'kernel mm/oom_kill.c dump_oom_summary `oom-kill:constraint=…,task=%s,pid=%d,uid=%d`, Linux 4.19+',
      'oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=abc,mems_allowed=0,oom_memcg=/kubepods/burstable/pod1234,task_memcg=/kubepods/burstable/pod1234/abc,task=java,pid=1234,uid=1000',
      [rt({ reason: 'OOMKilled', process: 'java' })],
    ],
    [
      'kernel mm/memcontrol.c cgroup v1 `Task in %s killed as a result of limit of %s` + `memory: usage %llukB, limit %llukB`',
      'Task in /kubepods/burstable/pod1234/abc killed as a result of limit of /kubepods/burstable/pod1234/abc\nmemory: usage 524288kB, limit 524288kB, failcnt 12',
      [rt({ reason: 'OOMKilled', limit: '512Mi', used: '512Mi' })],
    ],
    [
      'kernel mm/oom_kill.c `%s invoked oom-killer: gfp_mask=…`',
      'java invoked oom-killer: gfp_mask=0x6000c0(GFP_KERNEL), order=0, oom_score_adj=999',
      [rt({ reason: 'OOMKilled' })],
    ],
    [
      'kernel mm/oom_kill.c oom_reaper `oom_reaper: reaped process %d (%s), now anon-rss…`',
      'oom_reaper: reaped process 1234 (java), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB',
      [rt({ reason: 'OOMKilled', process: 'java' })],
    ],
    [
      "negative: the kubelet's grace-period warning is no resource problem",
      'Warning  ExceededGracePeriod  kubelet  Container runtime did not kill the pod within specified grace period.',
      [],
    ],
    [
      "negative: the device manager's message as a Go format string",
      '\treturn nil, fmt.Errorf("requested number of devices unavailable for %s. Requested: %d, Available: %d", resource, needed, available.Len())',
      [],
    ],
    [
      // The kubelet wraps the plugin's error in its own refusal: the pod is Failed with the kubelet's reason
      // (held3 x022, relabelled: test/fixtures/paste-wild/README.md).
      "another vendor's device plugin failing its allocation: still the kubelet's refusal",
      'status:\n  message: Pod Allocate failed due to pod d65f09ad-cca3-4631-a0a3-d5ba850f8a69 container\n    wait-gcs-ready unable to find GPU device allocation by scheduler, which is unexpected\n  phase: Failed\n  reason: UnexpectedAdmissionError',
      [{ layer: 'runtime', kind: 'runtime', facts: { reason: 'UnexpectedAdmissionError' } }],
    ],
    [
      'negative: UnexpectedAdmissionError as a Go constant',
      '\tUnexpectedAdmissionError = "UnexpectedAdmissionError"',
      [],
    ],
  ])('%s', (_source, text, want) => {
    expect(read(text)).toEqual(want);
  });
});
