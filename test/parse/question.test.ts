/**
 * The @mention / console question grammar: natural phrasings → a typed question; anything else → help.
 */
import { describe, expect, it } from 'vitest';
import { parseQuestion, type Question } from '../../src/parse/question.ts';

describe('parseQuestion', () => {
  it.each<[string, Question]>([
    // scale
    ['what if web scales to 8', { type: 'scale', workload: 'web', replicas: 8 }],
    ['what if web scales to 8 in team-a?', { type: 'scale', workload: 'web', replicas: 8, namespace: 'team-a' }],
    [
      'can deploy/api go to 12 replicas in team-a?',
      { type: 'scale', workload: 'api', kind: 'Deployment', replicas: 12, namespace: 'team-a' },
    ],
    ['scale web to 3', { type: 'scale', workload: 'web', replicas: 3 }],
    [
      'scale deploy/web to 10 replicas -n team-a',
      { type: 'scale', workload: 'web', kind: 'Deployment', replicas: 10, namespace: 'team-a' },
    ],
    ['what if we scale web to 8?', { type: 'scale', workload: 'web', replicas: 8 }],
    ['<@U0123ABC> what if api scales up to 6 replicas', { type: 'scale', workload: 'api', replicas: 6 }],
    ['what if web scales down to 2', { type: 'scale', workload: 'web', replicas: 2 }],
    ['what if sts/redis scales to 3', { type: 'scale', workload: 'redis', kind: 'StatefulSet', replicas: 3 }],
    ['what if worker gets 3 replicas', { type: 'scale', workload: 'worker', replicas: 3 }],
    ['what happens if web goes to 6', { type: 'scale', workload: 'web', replicas: 6 }],
    ['web +2', { type: 'scale', workload: 'web', delta: 2 }],
    ['web -1', { type: 'scale', workload: 'web', delta: -1 }],
    ['add 2 replicas to web', { type: 'scale', workload: 'web', delta: 2 }],
    ['remove 1 replica from web', { type: 'scale', workload: 'web', delta: -1 }],
    // drain
    ['what if node-3 goes down', { type: 'drain', node: 'node-3', how: 'down' }],
    ['drain general-a-1', { type: 'drain', node: 'general-a-1', how: 'drain' }],
    ['what if node general-b-1 is drained', { type: 'drain', node: 'general-b-1', how: 'drain' }],
    ['what if we lose node-3', { type: 'drain', node: 'node-3', how: 'down' }],
    ['what if general-a-1 dies', { type: 'drain', node: 'general-a-1', how: 'down' }],
    ['cordon general-a-1', { type: 'drain', node: 'general-a-1', how: 'drain' }],
    // uncordon is not a drain ("cordon" inside "uncordon" used to match)
    ['uncordon general-c-2', { type: 'uncordon', node: 'general-c-2' }],
    ['what if general-c-2 is uncordoned', { type: 'uncordon', node: 'general-c-2' }],
    ['what if we uncordon node general-c-2?', { type: 'uncordon', node: 'general-c-2' }],
    // quota
    [
      'raise requests.cpu of team-quota to 20',
      { type: 'quota', resource: 'requests.cpu', quota: 'team-quota', value: '20' },
    ],
    ['what if team-quota pods is 60', { type: 'quota', quota: 'team-quota', resource: 'pods', value: '60' }],
    [
      'what if team-quota requests.cpu is 20',
      { type: 'quota', quota: 'team-quota', resource: 'requests.cpu', value: '20' },
    ],
    [
      'raise team-quota requests.memory to 16gi',
      { type: 'quota', quota: 'team-quota', resource: 'requests.memory', value: '16Gi' },
    ],
    ['increase pods of team-quota to 60', { type: 'quota', resource: 'pods', quota: 'team-quota', value: '60' }],
    ['set pods to 60 in team-a', { type: 'quota', resource: 'pods', value: '60', namespace: 'team-a' }],
    // requests / limits
    [
      'what if web requests 250m cpu',
      { type: 'requests', workload: 'web', which: 'requests', resource: 'cpu', value: '250m' },
    ],
    [
      'web needs 1gi memory',
      { type: 'requests', workload: 'web', which: 'requests', resource: 'memory', value: '1Gi' },
    ],
    [
      'what if web requests 512Mi of memory',
      { type: 'requests', workload: 'web', which: 'requests', resource: 'memory', value: '512Mi' },
    ],
    [
      'what if web needs 2 cores',
      { type: 'requests', workload: 'web', which: 'requests', resource: 'cpu', value: '2' },
    ],
    [
      'what if web limits 1Gi memory',
      { type: 'requests', workload: 'web', which: 'limits', resource: 'memory', value: '1Gi' },
    ],
    [
      'set cpu requests of web to 300m',
      { type: 'requests', workload: 'web', which: 'requests', resource: 'cpu', value: '300m' },
    ],
    // rollout
    ['roll out web', { type: 'rollout', workload: 'web' }],
    ['rollout restart deploy/web', { type: 'rollout', workload: 'web', kind: 'Deployment' }],
    ['roll out api in team-a', { type: 'rollout', workload: 'api', namespace: 'team-a' }],
    // rollout of a new template
    [
      'what if web rolls out with 500m cpu',
      { type: 'rollout', workload: 'web', changes: [{ field: 'requests', resource: 'cpu', value: '500m' }] },
    ],
    ['roll out web with image x', { type: 'rollout', workload: 'web', changes: [{ field: 'image', value: 'x' }] }],
    [
      'roll out web with image ghcr.io/acme/My_Web:2.15.0 in team-a',
      {
        type: 'rollout',
        workload: 'web',
        namespace: 'team-a',
        changes: [{ field: 'image', value: 'ghcr.io/acme/My_Web:2.15.0' }],
      },
    ],
    [
      "what if web's new version requests 1Gi memory",
      { type: 'rollout', workload: 'web', changes: [{ field: 'requests', resource: 'memory', value: '1Gi' }] },
    ],
    [
      'what if the new version of api needs 2 cores and 1gi memory in team-a',
      {
        type: 'rollout',
        workload: 'api',
        namespace: 'team-a',
        changes: [
          { field: 'requests', resource: 'cpu', value: '2' },
          { field: 'requests', resource: 'memory', value: '1Gi' },
        ],
      },
    ],
    [
      'roll out deploy/web with 1gi memory limit -c web',
      {
        type: 'rollout',
        workload: 'web',
        kind: 'Deployment',
        changes: [{ field: 'limits', resource: 'memory', value: '1Gi', container: 'web' }],
      },
    ],
    [
      'what if deploy/web rolls out with limits of 2 cpu',
      {
        type: 'rollout',
        workload: 'web',
        kind: 'Deployment',
        changes: [{ field: 'limits', resource: 'cpu', value: '2' }],
      },
    ],
    // LimitRange values
    ['what if the limitrange max cpu is 4', { type: 'limitrange', field: 'max', resource: 'cpu', value: '4' }],
    [
      'set limitrange defaults default memory to 1Gi in team-a',
      {
        type: 'limitrange',
        limitRange: 'defaults',
        field: 'default',
        resource: 'memory',
        value: '1Gi',
        namespace: 'team-a',
      },
    ],
    [
      'raise max memory of limitrange defaults to 8Gi',
      { type: 'limitrange', limitRange: 'defaults', field: 'max', resource: 'memory', value: '8Gi' },
    ],
    [
      'what if defaultRequest cpu were 250m',
      { type: 'limitrange', field: 'defaultRequest', resource: 'cpu', value: '250m' },
    ],
    [
      'what if default_request cpu were 250m',
      { type: 'limitrange', field: 'defaultRequest', resource: 'cpu', value: '250m' },
    ],
    [
      'what if the default request memory is 256mi in team-a',
      { type: 'limitrange', field: 'defaultRequest', resource: 'memory', value: '256Mi', namespace: 'team-a' },
    ],
    ['what if max cpu is 4', { type: 'limitrange', field: 'max', resource: 'cpu', value: '4' }],
    ['lower limitrange min memory to 64Mi', { type: 'limitrange', field: 'min', resource: 'memory', value: '64Mi' }],
    [
      'what if the pod max cpu of limitrange defaults is 4',
      { type: 'limitrange', limitRange: 'defaults', field: 'max', limitType: 'Pod', resource: 'cpu', value: '4' },
    ],
    [
      'what if limitrange defaults pvc max storage is 10Gi',
      {
        type: 'limitrange',
        limitRange: 'defaults',
        field: 'max',
        limitType: 'PersistentVolumeClaim',
        resource: 'storage',
        value: '10Gi',
      },
    ],
    [
      'what if the defaults limitrange maxLimitRequestRatio cpu is 4',
      { type: 'limitrange', limitRange: 'defaults', field: 'maxLimitRequestRatio', resource: 'cpu', value: '4' },
    ],
    [
      'set the limit range max limit/request ratio for cpu to 5',
      { type: 'limitrange', field: 'maxLimitRequestRatio', resource: 'cpu', value: '5' },
    ],
    // why
    ['why is web pending?', { type: 'why', name: 'web' }],
    ['why is api-6b9f4c7d8-gnt9f pending', { type: 'why', name: 'api-6b9f4c7d8-gnt9f' }],
    ['why is my pod web-7c5d still pending', { type: 'why', name: 'web-7c5d' }],
    ['why are api pods pending in team-a', { type: 'why', name: 'api', namespace: 'team-a' }],
    // headroom
    ['quota team-a', { type: 'headroom', namespace: 'team-a' }],
    ['headroom in team-b', { type: 'headroom', namespace: 'team-b' }],
    ['how much room is left in team-a?', { type: 'headroom', namespace: 'team-a' }],
    // help
    ['help', { type: 'help' }],
    ['', { type: 'help' }],
    ['lunch at noon?', { type: 'help' }],
    ['what is the meaning of life', { type: 'help' }],
    // "default" alone is too common a word without "limitrange"
    ['what if default cpu is 4', { type: 'help' }],
  ])('%j', (text, q) => {
    expect(parseQuestion(text)).toEqual(q);
  });
});

const INT64 =
  'is more than Kubernetes can count: quantities are read as int64 milli-units (MilliValue()), at most 9223372036854775807m — about 9.2 × 10^15, a little over 8Pi.';
const INT32 = 'replicas is more than Kubernetes allows: spec.replicas is an int32, at most 2147483647.';

describe('parseQuestion: numbers no Kubernetes component can hold are refused, with the limit', () => {
  it.each<[string, Question]>([
    // quantities: MilliValue() beyond int64 (used to throw inside the engine: "Something went wrong")
    ['raise requests.cpu of team-quota to 1e308', { type: 'invalid', reason: `1e308 ${INT64}` }],
    [
      'raise requests.cpu of team-quota to 99999999999999999999',
      { type: 'invalid', reason: `99999999999999999999 ${INT64}` },
    ],
    ['set pods to 1e19 in team-a', { type: 'invalid', reason: `1e19 ${INT64}` }],
    ['what if web requests 1e30 cpu', { type: 'invalid', reason: `1e30 ${INT64}` }],
    ['what if the limitrange max memory is 9pi', { type: 'invalid', reason: `9Pi ${INT64}` }],
    ['roll out web with 1e20 cpu', { type: 'invalid', reason: `1e20 ${INT64}` }],
    // the largest that fits: 9223372036854775807m = 9223372036854775.807
    [
      'raise requests.cpu of team-quota to 9223372036854775',
      { type: 'quota', resource: 'requests.cpu', quota: 'team-quota', value: '9223372036854775' },
    ],
    ['raise requests.cpu of team-quota to 9223372036854776', { type: 'invalid', reason: `9223372036854776 ${INT64}` }],
    [
      'what if the limitrange max memory is 8pi',
      { type: 'limitrange', field: 'max', resource: 'memory', value: '8Pi' },
    ],
    // not a quantity at all (used to throw too)
    [
      'what if web requests 1.2.3 cpu',
      {
        type: 'invalid',
        reason:
          "1.2.3 is not a Kubernetes quantity (quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'). Write it like 500m, 2, 1.5, 512Mi or 2Gi.",
      },
    ],
    // replicas: int32, as the API
    ['what if web scales to 10000000', { type: 'scale', workload: 'web', replicas: 10_000_000 }],
    ['what if web scales to 2147483647', { type: 'scale', workload: 'web', replicas: 2_147_483_647 }],
    ['what if web scales to 2147483648', { type: 'invalid', reason: `2147483648 ${INT32}` }],
    ['what if web scales to 99999999999999999999', { type: 'invalid', reason: `99999999999999999999 ${INT32}` }],
    // "1e30" used to be read as 1 replica
    ['what if web scales to 1e30', { type: 'invalid', reason: `1e30 ${INT32}` }],
    ['what if web scales to 1e3', { type: 'scale', workload: 'web', replicas: 1000 }],
    ['what if web scales to 2.5', { type: 'invalid', reason: '2.5 is not a whole number of replicas.' }],
    ['web +3000000000', { type: 'invalid', reason: `3000000000 ${INT32}` }],
    ['add 3000000000 replicas to web', { type: 'invalid', reason: `3000000000 ${INT32}` }],
    ['what if worker gets 1e12 replicas', { type: 'invalid', reason: `1e12 ${INT32}` }],
  ])('%j', (text, q) => {
    expect(parseQuestion(text)).toEqual(q);
  });
});

describe('parseQuestion: the questions on-call people ask (what is left, can I add, is a node back, priority, a node)', () => {
  it.each<[string, Question]>([
    // how much X is left (in NS)
    ['how much GPU is left in ml?', { type: 'left', resource: 'gpu', namespace: 'ml' }],
    ['how many gpus are left', { type: 'left', resource: 'gpu' }],
    ['how much cpu is left in team-a', { type: 'left', resource: 'cpu', namespace: 'team-a' }],
    ['how many cores do we have left in team-b?', { type: 'left', resource: 'cpu', namespace: 'team-b' }],
    ['how much memory is left', { type: 'left', resource: 'memory' }],
    ['how much free ram is there in batch', { type: 'left', resource: 'memory', namespace: 'batch' }],
    ['how many pods are left in team-a', { type: 'left', resource: 'pods', namespace: 'team-a' }],
    ['how much nvidia.com/gpu is available -n ml', { type: 'left', resource: 'nvidia.com/gpu', namespace: 'ml' }],
    ["what's left of the gpus in ml", { type: 'left', resource: 'gpu', namespace: 'ml' }],
    ['any gpus left in ml?', { type: 'left', resource: 'gpu', namespace: 'ml' }],
    ['free memory in team-a', { type: 'left', resource: 'memory', namespace: 'team-a' }],
    // can I add N (more) (replicas of) W → the scale what-if, by +N
    ['can I add 3 more workers?', { type: 'scale', workload: 'workers', delta: 3 }],
    ['can I add 3 more workers in team-a?', { type: 'scale', workload: 'workers', delta: 3, namespace: 'team-a' }],
    ['can we add 2 more replicas of web', { type: 'scale', workload: 'web', delta: 2 }],
    ['could I run 2 more web pods in team-a', { type: 'scale', workload: 'web', delta: 2, namespace: 'team-a' }],
    ['can i add 1 replica to deploy/api', { type: 'scale', workload: 'api', kind: 'Deployment', delta: 1 }],
    ['add 4 more frontend', { type: 'scale', workload: 'frontend', delta: 4 }],
    // the existing rule still reads its own form
    ['add 2 replicas to web', { type: 'scale', workload: 'web', delta: 2 }],
    [
      'can I add 3000000000 more web',
      {
        type: 'invalid',
        reason: `3000000000 replicas is more than Kubernetes allows: spec.replicas is an int32, at most 2147483647.`,
      },
    ],
    // how many more (replicas of) W fit: the fit count, verified
    ['how many more api pods fit?', { type: 'fit', workload: 'api' }],
    ['how many more replicas of web fit in team-a', { type: 'fit', workload: 'web', namespace: 'team-a' }],
    ['how many more pods of deploy/web can I run?', { type: 'fit', workload: 'web', kind: 'Deployment' }],
    ['how many more replicas of toolbox', { type: 'fit', workload: 'toolbox' }],
    ['how many frontend replicas can we still add', { type: 'fit', workload: 'frontend' }],
    ['how many more workers can we add?', { type: 'fit', workload: 'workers' }],
    ['how far can cache scale', { type: 'fit', workload: 'cache' }],
    ['how high can we scale web in team-a?', { type: 'fit', workload: 'web', namespace: 'team-a' }],
    ['max replicas for frontend', { type: 'fit', workload: 'frontend' }],
    // a count word is no workload name; "how many gpus are left" stays a 'left' question
    ['how many more pods fit?', { type: 'help' }],
    ['how many pods are left', { type: 'left', resource: 'pods' }],
    // is NODE back (node status), before the drain rules read "is X cordoned" as a drain
    ['is general-c-2 back?', { type: 'node', node: 'general-c-2' }],
    ['is general-c-2 back yet in team-a', { type: 'node', node: 'general-c-2' }],
    ['is node general-a-1 ready', { type: 'node', node: 'general-a-1' }],
    ['is general-c-2 still cordoned?', { type: 'node', node: 'general-c-2' }],
    ['status of node gpu-a-1', { type: 'node', node: 'gpu-a-1' }],
    ['node gpu-b-1 status', { type: 'node', node: 'gpu-b-1' }],
    ['is the node back', { type: 'help' }],
    // priority
    ['what priority does api have', { type: 'priority', workload: 'api' }],
    [
      'what priority class does deploy/web have in team-a',
      { type: 'priority', workload: 'web', kind: 'Deployment', namespace: 'team-a' },
    ],
    ['priority of nightly-etl', { type: 'priority', workload: 'nightly-etl' }],
    ["what is api's priority", { type: 'priority', workload: 'api' }],
    ['which PriorityClasses can I use?', { type: 'priority' }],
    ['what priority classes are there in batch', { type: 'priority', namespace: 'batch' }],
    ['list priorities', { type: 'priority' }],
    // add a node as a question (not "add a node like X", the what-if)
    ['add a node', { type: 'nodeNeeded' }],
    ['would another node help in ml?', { type: 'nodeNeeded', namespace: 'ml' }],
    ['should we add more nodes', { type: 'nodeNeeded' }],
    ['do we need a bigger node', { type: 'help' }],
    // unchanged neighbours
    ['what if general-c-2 is uncordoned', { type: 'uncordon', node: 'general-c-2' }],
    ['what if general-a-1 goes down', { type: 'drain', node: 'general-a-1', how: 'down' }],
    ['how much room is left', { type: 'headroom' }],
  ])('%j', (text, q) => {
    expect(parseQuestion(text)).toEqual(q);
  });
});
