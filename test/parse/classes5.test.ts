/**
 * The classes of text the fourth blind set (test/fixtures/paste-wild/held4.jsonl) missed (issue #17, Deliver 6),
 * read in general, each positive next to a negative:
 * - must-specify refusals (plugin/pkg/admission/resourcequota/controller.go: `failed quota: %s: must specify %s`)
 *   printed one resource a line, retyped without their `failed quota: ` label, and under an envelope broken
 *   between the resource and the object's name (`Error creating: pods` ⏎ `"x" is forbidden: …`).
 */
import { describe, expect, it } from 'vitest';
import { parsePaste } from '../../src/parse/index.ts';

interface Said {
  layer: string;
  kind: string;
  facts: unknown;
  object?: unknown;
  namespace?: string;
}

function said(text: string): Said[] {
  return parsePaste(text).findings.map((f) => ({
    layer: f.layer,
    kind: f.kind,
    facts: f.facts,
    ...(f.object ? { object: f.object } : {}),
    ...(f.namespace ? { namespace: f.namespace } : {}),
  }));
}

const mustSpecify = (quota: string, resources: Record<string, string[]>, object?: Said['object']): Said => ({
  layer: 'quota',
  kind: 'quota-must-specify',
  facts: { quota, resources },
  ...(object ? { object } : {}),
});

const cases: [name: string, text: string, want: Said[]][] = [
  // ---- must-specify: one resource a line, no label, a broken envelope
  [
    'a must-specify list one resource a line',
    'pods "web-1" is forbidden: failed quota: compute:\n  must specify limits.cpu for: app\n  must specify requests.memory for: app,sidecar\n',
    [
      mustSpecify(
        'compute',
        { 'limits.cpu': ['app'], 'requests.memory': ['app', 'sidecar'] },
        { resource: 'pods', name: 'web-1' },
      ),
    ],
  ],
  [
    'negative: a line that starts with "must specify" after unrelated text stays apart',
    'the admission log said:\nmust specify limits.cpu for: app',
    [],
  ],
  [
    'a must-specify refusal without its "failed quota:" label',
    'Creating a pod fails with: mem-quota: must specify memory for: <pod>',
    [mustSpecify('mem-quota', { memory: ['<pod>'] })],
  ],
  [
    'without the label, the comma list of before 1.24',
    'compute-resources: must specify limits.cpu,requests.memory',
    [mustSpecify('compute-resources', { 'limits.cpu': [], 'requests.memory': [] })],
  ],
  ['negative: kubectl\'s own "must specify" error', 'error: must specify one of -f and -k', []],
  ['negative: a tool\'s flag error with "for:"', 'Flag: must specify --name for: create', []],
  [
    'the envelope broken between the resource and the quoted name',
    'Error creating: pods\n"api-7d9-x2" is forbidden: failed quota: team-q: must specify requests.cpu',
    [mustSpecify('team-q', { 'requests.cpu': [] }, { resource: 'pods', name: 'api-7d9-x2' })],
  ],
  [
    'the broken envelope in shell comments',
    '# Error from server (Forbidden): pods\n# "job-1" is forbidden: failed quota: q1: must specify limits.memory',
    [mustSpecify('q1', { 'limits.memory': [] }, { resource: 'pods', name: 'job-1' })],
  ],
  ['negative: "pods" then a quoted word that is no envelope', 'Note that pods\n"x" is a name', []],
];

describe('classes of the fourth blind set (held4), exact findings', () => {
  it.each(cases)('%s', (_name, text, want) => {
    expect(said(text)).toEqual(want);
  });
});
