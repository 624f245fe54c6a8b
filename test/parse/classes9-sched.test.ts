/**
 * The scheduler-layer classes of the development set test/fixtures/paste-wild/dev6s.jsonl (issue #17), read in
 * general, each positive next to a negative:
 * - reason lists as pastes carry them: joined source literals (`' + '`, `\n" +`), Rust's `\` continuation, a page's
 *   `#1`…`#4` line annotations (one glued to the next count), a YAML scalar folded inside the message (taint value,
 *   preemption frame), one reason a line without `, `, a doubled blank before `nodes are available`;
 * - where a message ends: an ellipsis glued to the last reason before prose, a parenthesis opened before the
 *   message (`(for example Unschedulable: 0/3 …)`), a literal closing with `")` ⏎ `);`;
 * - the old predicates' sentence wrapped after `match all of the`, and its words alone in code (no report);
 * - code and catalogues that hold a reason: `vec!["…".to_string()]`, a constant led by its plugin's name, a test's
 *   assertion, a grep pattern's `.*`, a CamelCase call, `makePredicateError("1 node(s) …")`, rows of single counted
 *   reasons, a PreFilter text among rows of causes — against a reason in a prose parenthesis;
 * - a reason's own `(s)` kept where a `)` closes the text around it (TaintToleration's `untolerated taint(s)` of
 *   1.34.2+, VolumeBinding's `pvc(s) bound to non-existent pv(s)`), NodeResourcesFit's old `Insufficient pods`;
 * - VolumeBinding's `persistentvolumeclaim "x" not found` / `is being deleted` without a frame next to
 *   FailedScheduling, a plugin's error at another extension point (`running PreBind plugin "VolumeBinding": …`,
 *   pkg/scheduler/framework/runtime/framework.go), NodeResourcesFit's reason retyped in lower case after the
 *   event's reason.
 */
import { describe, expect, it } from 'vitest';
import { said } from '../support/said.ts';

type Reason = { count: number | null; reason: string };
interface Sched {
  layer: string;
  kind: string;
  facts: unknown;
}
const sched = (total: number | null, reasons: Reason[], preemption?: { total: number; reasons: Reason[] }): Sched => ({
  layer: 'scheduler',
  kind: 'unschedulable',
  facts: { total, reasons, ...(preemption ? { preemption } : {}) },
});
const r = (count: number | null, reason: string): Reason => ({ count, reason });
/** Layer, kind and facts of every finding (object and namespace are other suites' subject). */
const read = (text: string): Sched[] => said(text).map(({ layer, kind, facts }) => ({ layer, kind, facts }));

describe('reason lists as pastes carry them (FitError.Error joins `n reason` with `, `)', () => {
  it.each<[string, string, Sched[]]>([
    [
      "JavaScript literals joined with ' + '",
      "    const schedMsg =\n      '0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: supabase}, ' +\n      '2 node(s) had volume node affinity conflict.';",
      [
        sched(3, [
          r(1, 'node(s) had untolerated taint {dedicated: supabase}'),
          r(2, 'node(s) had volume node affinity conflict'),
        ]),
      ],
    ],
    [
      'a describe output built from literals, the list on the next literal',
      '        "  Warning  FailedScheduling  41m (x9 over 41m)   default-scheduler  0/2 nodes are available:\\n" +\n        "           1 node(s) were unschedulable, 1 Insufficient memory.",',
      [sched(2, [r(1, 'node(s) were unschedulable'), r(1, 'Insufficient memory')])],
    ],
    [
      "Rust's \\ continuation inside the preemption part",
      '                "0/1 nodes are available: 1 Too many pods. preemption: 0/1 nodes are available: \\\n                 1 No preemption victims found for incoming pod.",',
      [
        sched(1, [r(1, 'Too many pods')], {
          total: 1,
          reasons: [r(1, 'No preemption victims found for incoming pod')],
        }),
      ],
    ],
    [
      'one reason a line, no separator',
      "```\n0/2 nodes are available:\n1 node(s) didn't have free ports for the requested pod ports\n1 node(s) didn't satisfy plugin(s) [NodeAffinity]\n```",
      [
        sched(2, [
          r(1, "node(s) didn't have free ports for the requested pod ports"),
          r(1, "node(s) didn't satisfy plugin(s) [NodeAffinity]"),
        ]),
      ],
    ],
    [
      'numbered line annotations, one glued to the next count',
      "  Warning  FailedScheduling  21s  default-scheduler  0/3 nodes are available:   #1\n1 node(s) had taint {a: }, that the pod didn't tolerate, #2\n1 node(s) had taint {b: }, that the pod didn't tolerate, #3\n1 node(s) had volume node affinity conflict.          #4",
      [
        sched(3, [
          r(1, "node(s) had taint {a: }, that the pod didn't tolerate"),
          r(1, "node(s) had taint {b: }, that the pod didn't tolerate"),
          r(1, 'node(s) had volume node affinity conflict'),
        ]),
      ],
    ],
    [
      'a YAML scalar folded inside the taint and the preemption frame, the YAML a JSON string',
      '{"tool": "kubectl_get_yaml", "data": "status:\\n  conditions:\\n    message: \'0/3 nodes are available: 1 node(s) had untolerated taint {test-unschedulable:\\n      true}, 2 node(s) didn\'\'t match Pod\'\'s node affinity/selector. preemption: 0/3\\n      nodes are available: 3 Preemption is not helpful for scheduling..\'\\n    reason: Unschedulable"}',
      [
        sched(
          3,
          [
            r(1, 'node(s) had untolerated taint {test-unschedulable: true}'),
            r(2, "node(s) didn't match Pod's node affinity/selector"),
          ],
          { total: 3, reasons: [r(3, 'Preemption is not helpful for scheduling')] },
        ),
      ],
    ],
    [
      'a doubled blank before nodes are available',
      'kube-scheduler[91664]: I0521 20:52:25.471604   91664 factory.go:338] "Unable to schedule pod; no fit; waiting" pod="default/hello-world" err="0/1  nodes are available: 1 Too many pods."',
      [sched(1, [r(1, 'Too many pods')])],
    ],
    [
      'negative: a + in a reason list is not a literal join without quotes around it',
      '0/2 nodes are available: 2 Insufficient example.com/a+b.',
      [sched(2, [r(2, 'Insufficient example.com/a+b')])],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('where a message ends', () => {
  it.each<[string, string, Sched[]]>([
    [
      'an ellipsis glued to the last reason, prose after it',
      '"postgres-0 Pending: 0/3 nodes are available: 1 node(s) had volume node affinity conflict… The disk lives on pve2."',
      [sched(3, [r(1, 'node(s) had volume node affinity conflict')])],
    ],
    [
      'an elision between entries still joins the list',
      '0/5 nodes are available: 2 Insufficient cpu, … 3 Too many pods.',
      [sched(5, [r(2, 'Insufficient cpu'), r(3, 'Too many pods')])],
    ],
    [
      'inside a parenthesis opened before the message',
      '/// The scheduler explanation (here `Unschedulable: 0/3 nodes are\n/// available: insufficient memory`), for a schedule-timeout diagnostic.',
      [sched(3, [r(3, 'insufficient memory')])],
    ],
    [
      'negative: a closed parenthesis before the message (an Events row) does not end it',
      '  Warning  FailedScheduling  3m (x5 over 10m)  default-scheduler  0/2 nodes are available: 2 Insufficient cpu (requested).',
      [sched(2, [r(2, 'Insufficient cpu (requested)')])],
    ],
    [
      'a literal closing with ") and ); on the next line',
      '    assert_eq!(\n        pod_scheduling_message(&pod).as_deref(),\n        Some("Unschedulable: 0/3 nodes are available: insufficient memory")\n    );',
      [sched(3, [r(3, 'insufficient memory')])],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('the old predicates sentence (1.6-1.10)', () => {
  it.each<[string, string, Sched[]]>([
    [
      'wrapped after match all of the',
      'Termination reason: Unschedulable: No nodes are available that match all of the\nfollowing predicates:: Insufficient cpu (2).',
      [sched(null, [r(2, 'Insufficient cpu')])],
    ],
    [
      'on one line',
      'No nodes are available that match all of the following predicates:: Insufficient memory (3), MatchNodeSelector (1).',
      [sched(null, [r(3, 'Insufficient memory'), r(1, 'MatchNodeSelector')])],
    ],
    [
      'negative: its words in a program that reads the message',
      '\t\tif "fit failure summary on nodes" in line:\n\t\t\t ret += [item.strip() for item in line.split(",")]',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('code and catalogues that hold a reason are no report; a reason in prose is', () => {
  it.each<[string, string, Sched[]]>([
    [
      'negative: a Rust literal in an array',
      '                vec!["node(s) didn\'t match the requested node name".to_string()],',
      [],
    ],
    [
      'negative: a constant led by its plugin name',
      'const (\n\tErrReasonName = "NodeName: node(s) didn\'t match the requested node name"\n)',
      [],
    ],
    [
      "negative: a test's assertion",
      '    refute second.scheduled?\n    assert_equal "cannot allocate all claims", second.filtered.dig("n1", "reason")',
      [],
    ],
    [
      "negative: a grep pattern's .* before the reason",
      '  elif kubectl get events 2>/dev/null | grep -iq "FailedScheduling.*node(s) had volume node affinity conflict"; then',
      [],
    ],
    [
      'negative: a CamelCase call with a blank before its parenthesis',
      '  │                return UnschedulableAndUnresolvable ("node(s) had no available volume zone")',
      [],
    ],
    [
      'a reason in a prose parenthesis of a table cell',
      '| Pod cannot be scheduled with `amd.com/gpu` (`Insufficient amd.com/gpu`) | The device-plugin is not deployed. |',
      [sched(null, [r(null, 'Insufficient amd.com/gpu')])],
    ],
    [
      'negative: a counted reason as a call argument',
      '\t\t\teventReason: "FailedScheduling",\n\t\t\texpectError: makePredicateError("1 node(s) didn\'t find available persistent volumes to bind"),',
      [],
    ],
    [
      'negative: rows of single counted reasons, one per cause',
      "| required pod affinity | `2 node(s) didn't match pod affinity rules` |\n| required anti-affinity | `2 node(s) didn't match pod anti-affinity rules` |\n| topology spread | `2 node(s) didn't match pod topology spread constraints` |\n| Node cordoned | `1 node(s) were unschedulable` |",
      [],
    ],
    [
      'a lone counted reason under a Pending row still reads',
      'web-0   0/1     Pending   0          2m\n\n1 Insufficient memory',
      [sched(null, [r(1, 'Insufficient memory')])],
    ],
    [
      'negative: a PreFilter text among rows of causes, the table a JSON string',
      '{"text": "| FailedScheduling + `pod has unbound immediate PersistentVolumeClaims` | PVC not bound |\\n| Pending with Insufficient cpu | requests too high |\\n| Pending with Too many pods | pod limit |"}',
      [],
    ],
    [
      'a PreFilter text in an Events table next to other messages still reads',
      '  Warning  FailedScheduling   1m   default-scheduler   pod has unbound immediate PersistentVolumeClaims\n  Warning  FailedScheduling   1m   default-scheduler   0/3 nodes are available: 1 node(s) had no available volume zone, 2 Insufficient memory.',
      [
        sched(null, [r(null, 'pod has unbound immediate PersistentVolumeClaims')]),
        sched(3, [r(1, 'node(s) had no available volume zone'), r(2, 'Insufficient memory')]),
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe('texts without a node count: VolumeBinding claims, other extension points, a lower-case retype', () => {
  it.each<[string, string, Sched[]]>([
    [
      'a missing claim in an event object',
      '      "status": "Pending",\n      "reason": "FailedScheduling",\n      "message": "persistentvolumeclaim \\"data-0\\" not found"',
      [sched(null, [r(null, 'persistentvolumeclaim "data-0" not found')])],
    ],
    [
      'a claim being deleted in an Events row',
      '  Warning  FailedScheduling  10s  default-scheduler  persistentvolumeclaim "data-0" is being deleted',
      [sched(null, [r(null, 'persistentvolumeclaim "data-0" is being deleted')])],
    ],
    [
      "negative: kubectl's NotFound of the claims resource",
      'Error from server (NotFound): persistentvolumeclaims "data-0" not found',
      [],
    ],
    [
      'a PreBind plugin error in a kubectl get events row',
      '50s Warning FailedScheduling pod/consul-server-0 running PreBind plugin "VolumeBinding": binding volumes: timed out waiting for the condition',
      [sched(null, [r(null, 'binding volumes: timed out waiting for the condition')])],
    ],
    [
      'a Reserve plugin error',
      'Warning  FailedScheduling  2s  default-scheduler  running Reserve plugin "DynamicResources": claim default/gpu: conflict.',
      [sched(null, [r(null, 'claim default/gpu: conflict')])],
    ],
    [
      'negative: the format string that prints it',
      '\t\treturn fwk.AsStatus(fmt.Errorf("running PreBind plugin %q: %w", pl.Name(), err))',
      [],
    ],
    [
      'a lower-case retype after the event reason',
      '        "message": "Pod app-2k9 Pending: FailedScheduling (insufficient cpu)",',
      [sched(null, [r(null, 'insufficient cpu')])],
    ],
    ['negative: insufficient memory in prose', 'The node had insufficient memory for the build, so we moved it.', []],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});

describe("a reason's own (s) against the parenthesis around it", () => {
  it.each<[string, string, Sched[]]>([
    [
      'a frameless list in parentheses',
      'FailedScheduling (3 node(s) had untolerated taint(s), 2 Insufficient cpu)',
      [sched(null, [r(3, 'node(s) had untolerated taint(s)'), r(2, 'Insufficient cpu')])],
    ],
    [
      'a lone counted reason at the end of a line',
      'The pod stays Pending with 1 node(s) had untolerated taint(s)',
      [sched(null, [r(1, 'node(s) had untolerated taint(s)')])],
    ],
    [
      'a bare reason without count, quoted in parentheses',
      'the event said (node(s) had untolerated taint(s)).',
      [sched(null, [r(null, 'node(s) had untolerated taint(s)')])],
    ],
    [
      "VolumeBinding's claims bound to missing volumes, bare after the event reason",
      '  Warning  FailedScheduling  3m  default-scheduler  node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)',
      [sched(null, [r(null, 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)')])],
    ],
    [
      'the old NodeResourcesFit wording next to FailedScheduling',
      '  Warning  FailedScheduling  3m  default-scheduler  Insufficient pods',
      [sched(null, [r(null, 'Insufficient pods')])],
    ],
    [
      'negative: Insufficient pods in prose without a scheduling word',
      'Insufficient pods were left to handle the load, so we scaled the deployment.',
      [],
    ],
  ])('%s', (_name, text, want) => {
    expect(read(text)).toEqual(want);
  });
});
