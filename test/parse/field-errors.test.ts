/**
 * Any field's error inside an API server's `<Kind> "<name>" is invalid: ` envelope is a validation refusal
 * (apimachinery pkg/util/validation/field/errors.go: Invalid value, Required value, Forbidden, Unsupported value,
 * Duplicate value, Not found, Too long, Too many, Internal error), read by src/parse/validation.ts's
 * genericFieldErrors where no rule of ours reads it, and answered by its field (src/answer/replies/diagnosis.ts).
 */
import { describe, expect, it } from 'vitest';
import { explain, textReply } from '../../src/answer/replies/diagnosis.ts';
import { parsePaste } from '../../src/parse/index.ts';

const facts = (text: string) => parsePaste(text).findings.map((f) => [f.layer, f.facts, f.object]);
const V = (field: string, value: string | null = null) => ({ resource: null, value, limit: null, field });

describe('field errors of any field', () => {
  it.each([
    [
      'a required value',
      'The Deployment "web" is invalid: spec.template.spec.containers[0].image: Required value',
      [['api-validation', V('spec.template.spec.containers[0].image'), { resource: 'deployments', name: 'web' }]],
    ],
    [
      'an immutable selector, its Go value printed',
      'Deployment.apps "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}}: field is immutable',
      [
        [
          'api-validation',
          V('spec.selector', 'v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}}'),
          { resource: 'deployments.apps', name: 'web' },
        ],
      ],
    ],
    [
      'helm relaying a number',
      'Error: UPGRADE FAILED: cannot patch "ing" with kind Deployment: Deployment.apps "ing" is invalid: spec.progressDeadlineSeconds: Invalid value: 0: must be greater than minReadySeconds',
      [['api-validation', V('spec.progressDeadlineSeconds', '0'), { resource: 'deployments.apps', name: 'ing' }]],
    ],
    [
      'a quoted value',
      'The Service "s" is invalid: spec.ports[0].nodePort: Invalid value: "80": provided port is not in the valid range',
      [['api-validation', V('spec.ports[0].nodePort', '80'), { resource: 'services', name: 's' }]],
    ],
    [
      'Forbidden on the whole spec',
      'PersistentVolumeClaim "data" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests for bound claims',
      [['api-validation', V('spec'), { resource: 'persistentvolumeclaims', name: 'data' }]],
    ],
    [
      'strict decoding: the first unknown field',
      'Error from server (BadRequest): error when creating "deploy.yaml": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].resource", unknown field "spec.replica"',
      [['api-validation', V('spec.template.spec.containers[0].resource'), { resource: 'deployments' }]],
    ],
    [
      'a list of two',
      'The Pod "p" is invalid: [spec.containers[0].name: Required value, spec.containers[0].image: Required value]',
      [
        ['api-validation', V('spec.containers[0].name'), { resource: 'pods', name: 'p' }],
        ['api-validation', V('spec.containers[0].image'), { resource: 'pods', name: 'p' }],
      ],
    ],
    [
      "a resource entry's error on a tool's Error line (cdk8s synth, held7 v126)",
      'Error: spec.containers[0].resources.limits[cpu]: Invalid value',
      [
        [
          'api-validation',
          { resource: 'cpu', value: null, limit: null, field: 'spec.containers[0].resources.limits[cpu]' },
          undefined,
        ],
      ],
    ],
    [
      'the same with its value',
      'Error: spec.template.spec.containers[1].resources.requests[memory]: Invalid value: "1.5Gx"',
      [
        [
          'api-validation',
          {
            resource: 'memory',
            value: '1.5Gx',
            limit: null,
            field: 'spec.template.spec.containers[1].resources.requests[memory]',
          },
          undefined,
        ],
      ],
    ],
    [
      "a PVC shrunk: an update's Forbidden on a resource field",
      'The PersistentVolumeClaim "data" is invalid: spec.resources.requests.storage: Forbidden: field can not be less than previous value',
      [['api-validation', V('spec.resources.requests.storage'), { resource: 'persistentvolumeclaims', name: 'data' }]],
    ],
    [
      'an unsupported value keeps its value',
      'The Environment "dev" is invalid: spec.db.version: Unsupported value: "16.9": supported values: "14", "15", "16"',
      [['api-validation', V('spec.db.version', '16.9'), { resource: 'environments', name: 'dev' }]],
    ],
    [
      'the field path elided by the writer',
      'Error: UPGRADE FAILED: cannot patch "migrate" with kind Job: Job.batch "migrate" is invalid: (...) : field is immutable',
      [
        [
          'api-validation',
          { resource: null, value: null, limit: null, field: null },
          { resource: 'jobs.batch', name: 'migrate' },
        ],
      ],
    ],
    [
      'elided with an ellipsis',
      'The StatefulSet "db" is invalid: …: Forbidden: updates to statefulset spec for fields other than those are forbidden',
      [
        [
          'api-validation',
          { resource: null, value: null, limit: null, field: null },
          { resource: 'statefulsets', name: 'db' },
        ],
      ],
    ],
  ])('%s', (_name, text, want) => {
    expect(facts(text)).toEqual(want);
  });

  it.each([
    [
      'an unknown rule on a resource field (no Kubernetes message)',
      'The Deployment "web" is invalid: spec.template.spec.containers[0].resources.limits[memory]: Invalid value: "512": must be a quantity with a valid suffix',
    ],
    [
      'an Event the recorder could not write',
      `Server rejected event '&v1.Event{…}': 'Event "minio-0.17" is invalid: series.count: Invalid value: "": should be at least 2' (will not retry!)`,
    ],
    ['a template of the envelope', 'The <Kind> "<name>" is invalid: <field>: Invalid value: "<value>": <detail>'],
    ['a field error without its envelope', 'spec.selector: Invalid value: "x": field is immutable'],
    ['a non-resource field on an Error line', 'Error: spec.selector: Invalid value: "x": field is immutable'],
    ['strict decoding without its envelope', 'return fmt.Errorf("strict decoding error: unknown field %q", name)'],
  ])('not one: %s', (_name, text) => {
    expect(parsePaste(text).findings).toEqual([]);
  });
});

describe('the answer names the field and what to do', () => {
  it.each([
    [
      'Deployment.apps "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{}: field is immutable',
      "spec.selector cannot change on an existing object: put it back as it was, or delete and recreate the object (for a Deployment's selector or a Job's template, under a new name or after `kubectl delete`).",
    ],
    [
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"',
      'The manifest has a field the API does not know or gives one twice (spec.replica): fix its spelling or indentation; `kubectl explain` shows the field names.',
    ],
    [
      'The Deployment "web" is invalid: spec.template.spec.containers[0].image: Required value',
      'Set spec.template.spec.containers[0].image: the API server requires it.',
    ],
    [
      'Deployment.apps "ing" is invalid: spec.progressDeadlineSeconds: Invalid value: 0: must be greater than minReadySeconds',
      "The API server refused the object's spec.progressDeadlineSeconds (value 0): see its message below.",
    ],
  ])('%s', (text, line) => {
    const f = parsePaste(text).findings[0]!;
    expect(textReply(f, 'team-a').lines).toContain(line);
    expect(explain(f)).toBe(
      "The API server's validation refused the object before admission: the field named is written in a way the API does not accept. Not quota, LimitRange or the scheduler.",
    );
  });
});
