/**
 * Nobody gets in, nothing leaks:
 * - forged, stale and replayed Slack requests are refused (the real HTTPReceiver, the real middleware);
 * - the access policy holds at every entry point (message, mention, /quota, shortcut, what-if): #team-b
 *   asking about team-a gets a refusal that names no team-a object, namespace or number (every object
 *   name of team-a in manifests/demo is looked for in everything posted);
 * - a pasted Secret (data and stringData) is never echoed, in Slack, the CLI or the logs;
 * - tokens and the signing secret never reach a log line, at debug level, through full request cycles.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnswerer } from '../../src/answer/index.ts';
import { FileSource, readStateFiles } from '../../src/cluster/file-source.ts';
import { redactDeep } from '../../src/answer/redact.ts';
import { formBody, postSigned, slackSignature } from '../support/sign.ts';
import { run } from '../cli/harness.ts';
import {
  BOT_TOKEN,
  CHANNEL_A,
  CHANNEL_B,
  messageEvent,
  SIGNING_SECRET,
  startHarness,
  VERIFICATION_TOKEN,
  type Harness,
} from '../slack/harness.ts';
import { PASTE, SECRET_MANIFEST, SECRET_VALUES } from './inputs.ts';

const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));

/** Every name of a team-a object in the demo cluster, and the numbers only team-a's quota shows. */
const demo = readStateFiles(DEMO).snapshot;
const TEAM_A_NAMES = [
  ...new Set(
    [
      'Pod',
      'Deployment',
      'ReplicaSet',
      'StatefulSet',
      'Job',
      'ResourceQuota',
      'LimitRange',
      'Event',
      'PersistentVolumeClaim',
      'Service',
    ]
      .flatMap((k) => demo.list(k, 'team-a'))
      .map((o) => o.metadata.name ?? '')
      .filter((n) => n !== ''),
  ),
  'team-a',
];
const TEAM_A_NUMBERS = ['pods=10', '10/10', '4100m'];

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** team-a names in `shown` that the asker did not type themselves (echoing their own words reveals nothing). */
function leaks(shown: string, asked: string): string[] {
  return [...TEAM_A_NAMES, ...TEAM_A_NUMBERS].filter(
    (n) => !asked.includes(n) && new RegExp(`(^|[^a-z0-9-])${escapeRe(n)}($|[^a-z0-9-])`).test(shown),
  );
}

describe('forged, stale and replayed requests', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ answerer: createAnswerer(), source: new FileSource(DEMO) });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const eventBody = (eventId: string, ts: string) =>
    JSON.stringify({
      token: VERIFICATION_TOKEN,
      team_id: 'T0FAKE',
      api_app_id: 'A0QD',
      type: 'event_callback',
      event_id: eventId,
      event_time: 1,
      event: messageEvent(PASTE, { channel: CHANNEL_A, ts }),
    });

  it('unsigned → 401, nothing answered', async () => {
    const res = await fetch(`${h.base}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: eventBody('EvUnsigned', '1700600000.000001'),
    });
    expect(res.status).toBe(401);
    const wrong = await postSigned(
      `${h.base}/slack/events`,
      'guessed-secret-0000',
      eventBody('EvWrong', '1700600000.000002'),
      { kind: 'json' },
    );
    expect(wrong.status).toBe(401);
    await h.handle.idle();
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('stale (signed 5 min 1 s ago) → 401', async () => {
    const ts = Math.floor(Date.now() / 1000) - 301;
    const body = eventBody('EvStale', '1700600000.000003');
    const r = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, body, { kind: 'json', timestamp: ts });
    expect(r.status).toBe(401);
    await h.handle.idle();
    expect(h.fake.callsTo('chat.postMessage')).toHaveLength(0);
  });

  it('the same signed event body twice → answered once; replayed later with its old timestamp → 401', async () => {
    const ts = Math.floor(Date.now() / 1000);
    const body = eventBody('EvReplay', '1700600000.000004');
    const sig = slackSignature(SIGNING_SECRET, ts, body);
    const first = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, body, {
      kind: 'json',
      timestamp: ts,
      signature: sig,
    });
    const again = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, body, {
      kind: 'json',
      timestamp: ts,
      signature: sig,
    });
    expect([first.status, again.status]).toEqual([200, 200]);
    await h.handle.idle();
    expect(h.fake.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === '1700600000.000004')).toHaveLength(
      1,
    );
    // The captured request, replayed 6 minutes on: its signature binds the old timestamp.
    const late = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, body, {
      kind: 'json',
      timestamp: ts - 360,
      signature: slackSignature(SIGNING_SECRET, ts - 360, body),
    });
    expect(late.status).toBe(401);
  });

  it('the same signed /quota body twice → one answer (dropped by its trigger_id)', async () => {
    const body = formBody({
      token: VERIFICATION_TOKEN,
      team_id: 'T0FAKE',
      channel_id: CHANNEL_A,
      user_id: 'U0ALICE',
      command: '/quota',
      text: 'team-a',
      response_url: h.fake.responseUrl('replayed-cmd'),
      trigger_id: 'trig-replayed',
    });
    const ts = Math.floor(Date.now() / 1000);
    const sig = slackSignature(SIGNING_SECRET, ts, body);
    const a = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, body, {
      kind: 'form',
      timestamp: ts,
      signature: sig,
    });
    const b = await postSigned(`${h.base}/slack/events`, SIGNING_SECRET, body, {
      kind: 'form',
      timestamp: ts,
      signature: sig,
    });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.ms).toBeLessThan(3000);
    await h.handle.idle();
    await h.fake.waitFor(() => h.fake.respondsTo('replayed-cmd').length >= 1, 5000);
    expect(h.fake.respondsTo('replayed-cmd')).toHaveLength(1);
  });
});

describe('the access policy at every entry point: #team-b asks about team-a', () => {
  let h: Harness;
  const tried: { entry: string; asked: string; shown: string }[] = [];
  beforeAll(async () => {
    h = await startHarness({ answerer: createAnswerer(), source: new FileSource(DEMO), logLevel: 'debug' });
  });
  afterAll(async () => {
    await h?.stop();
    console.log(
      `hardening security: ${tried.length} forbidden lookups tried, ${tried.filter((t) => leaks(t.shown, t.asked).length > 0).length} leaked`,
    );
  });

  /** Everything posted for one request: threaded/ephemeral messages and response_url posts since `before`. */
  function postedSince(before: { calls: number; responds: number }): string {
    const calls = h.fake.calls.slice(before.calls).filter((c) => c.method.startsWith('chat.'));
    return JSON.stringify([
      ...calls.map((c) => c.params),
      ...h.fake.responds.slice(before.responds).map((r) => r.body),
    ]);
  }
  const mark = () => ({ calls: h.fake.calls.length, responds: h.fake.responds.length });

  const MESSAGES = [
    PASTE,
    `$ kubectl -n team-a scale deploy/worker --replicas=3\n${PASTE}`,
    'Error creating: pods "exporter-8f6d5c4b9-79btt" is forbidden: cpu max limit to request ratio per Container is 10, but provided ratio is 20.000000',
    '```yaml\napiVersion: v1\nkind: Pod\nmetadata: {name: sneaky, namespace: team-a}\nspec: {containers: [{name: a, image: x, resources: {requests: {cpu: "100"}}}]}\n```',
    '```yaml\napiVersion: v1\nkind: Pod\nmetadata: {name: sneaky, namespace: team-a}\nspec: {containers: {name: a}}\n```',
  ];
  const QUESTIONS = [
    'what if web scales to 8 in team-a?',
    'what if worker scales to 8?',
    'raise pods of team-quota to 20 in team-a',
    'quota team-a',
    'why is worker pending?',
    'why is api-6b9f4c7d8-gnt9f pending?',
    'roll out web in team-a',
    'what if general-b-3 goes down?',
    'what if general-a-1 goes down?',
    'help',
    PASTE,
  ];

  /** Pastes that name team-a themselves must be refused; the others are read in #team-b's own namespace. */
  const namesTeamA = (m: string) => m.includes('team-a');

  it.each(MESSAGES.map((m, i) => ({ m, i })))('message #$i', async ({ m, i }) => {
    const before = mark();
    await h.event(messageEvent(m, { channel: CHANNEL_B, ts: `1700700000.00000${i}` }));
    await h.handle.idle();
    const shown = postedSince(before);
    tried.push({ entry: 'message', asked: m, shown });
    if (namesTeamA(m)) expect(shown).toMatch(/🔒/);
    else expect(shown).toMatch(/\(team-b\)/);
    expect(leaks(shown, m)).toEqual([]);
  });

  it.each(QUESTIONS.map((q, i) => ({ q, i })))('mention #$i: $q', async ({ q, i }) => {
    const before = mark();
    const text = `<@UBOT> ${q}`;
    await h.event({ type: 'app_mention', channel: CHANNEL_B, user: 'U0BOB', text, ts: `1700700100.00000${i}` });
    await h.handle.idle();
    const shown = postedSince(before);
    tried.push({ entry: 'mention', asked: text, shown });
    expect(shown).not.toBe('[]');
    expect(leaks(shown, text)).toEqual([]);
  });

  it.each(['team-a', 'kube-system', 'ml'])('/quota %s', async (ns) => {
    const before = mark();
    const r = await h.command(ns, { channel: CHANNEL_B });
    await h.handle.idle();
    const shown = JSON.stringify(r.ack) + postedSince(before);
    tried.push({ entry: 'command', asked: ns, shown });
    expect((r.ack as { text: string }).text).toMatch(/^🔒/);
    expect(leaks(shown, '')).toEqual([]);
  });

  it.each(MESSAGES.map((m, i) => ({ m, i })))('shortcut #$i', async ({ m, i }) => {
    const before = mark();
    await h.shortcut({ text: m, ts: `1700700200.00000${i}` }, { channel: CHANNEL_B });
    await h.handle.idle();
    const shown = postedSince(before);
    tried.push({ entry: 'shortcut', asked: m, shown });
    if (namesTeamA(m)) expect(shown).toMatch(/🔒/);
    else expect(shown).toMatch(/\(team-b\)/);
    expect(leaks(shown, m)).toEqual([]);
  });

  it('a channel the policy does not list sees nothing (fail closed)', async () => {
    const before = mark();
    await h.event(messageEvent(PASTE, { channel: 'C0STRANGER', ts: '1700700300.000001' }));
    await h.event({
      type: 'app_mention',
      channel: 'C0STRANGER',
      user: 'U0BOB',
      text: '<@UBOT> quota team-b',
      ts: '1700700300.000002',
    });
    const r = await h.command('team-b', { channel: 'C0STRANGER' });
    await h.handle.idle();
    const shown = JSON.stringify(r.ack) + postedSince(before);
    tried.push({ entry: 'unlisted channel', asked: PASTE, shown });
    expect(leaks(shown, PASTE)).toEqual([]);
    expect(shown).not.toMatch(/besteffort|compute|frontend|team-b/);
  });

  it('the logs at debug level carry no token, signing secret or legacy verification token', () => {
    const all = h.logs.join('\n');
    expect(all.length).toBeGreaterThan(1000); // debug: Bolt logged the request bodies
    for (const s of [BOT_TOKEN, SIGNING_SECRET, VERIFICATION_TOKEN, 'xoxb-']) expect(all).not.toContain(s);
  });
});

describe('a pasted Secret is never echoed', () => {
  it('in Slack (message, mention, shortcut) nor in the debug logs', async () => {
    const h = await startHarness({ answerer: createAnswerer(), source: new FileSource(DEMO), logLevel: 'debug' });
    try {
      await h.event(messageEvent(SECRET_MANIFEST, { channel: CHANNEL_A, ts: '1700800000.000001' }));
      await h.event(
        messageEvent(`\`\`\`yaml\n${SECRET_MANIFEST}\`\`\`\n${PASTE}`, { channel: CHANNEL_A, ts: '1700800000.000002' }),
      );
      await h.event({
        type: 'app_mention',
        channel: CHANNEL_A,
        user: 'U0BOB',
        text: `<@UBOT> ${SECRET_MANIFEST}`,
        ts: '1700800000.000003',
      });
      await h.shortcut({ text: SECRET_MANIFEST, ts: '1700800000.000004' }, { channel: CHANNEL_A });
      await h.handle.idle();
      const posted = h.fake.allPostedText();
      expect(posted).toContain('db-credentials'); // answered, by name
      const logs = h.logs.join('\n');
      for (const v of Object.values(SECRET_VALUES)) {
        expect(posted).not.toContain(v);
        // Bolt logs the raw request body at debug level: the pasted text is in it as the user sent it.
        // What must not happen is the bot's own log lines (answers, errors) repeating it.
        expect(logs.split('\n').filter((l) => l.includes(v) && !/"component":"bolt"/.test(l))).toEqual([]);
      }
    } finally {
      await h.stop();
    }
  });

  it('in the CLI: diagnose (text and --json) and simulate -f (text and --json)', async () => {
    const outs = [
      await run(['diagnose', '--state', 'manifests/demo'], SECRET_MANIFEST),
      await run(['diagnose', '--state', 'manifests/demo', '--json'], SECRET_MANIFEST),
      await run(['simulate', '-f', '-', '--state', 'manifests/demo'], SECRET_MANIFEST),
      await run(['simulate', '-f', '-', '--state', 'manifests/demo', '--json'], SECRET_MANIFEST),
    ];
    for (const o of outs) {
      expect(o.code).toBe(0);
      expect(o.stdout).toContain('db-credentials');
      for (const v of Object.values(SECRET_VALUES)) expect(o.stdout + o.stderr).not.toContain(v);
    }
  });
});

/** Secret values and env literals at every depth: what `kubectl get … -o yaml|json` prints, and pastes of it. */
const HIDDEN = {
  listData: 'bGlzdC1kYXRhLXBhc3N3b3Jk',
  listString: 'list-string-data-value-77',
  secretListData: 'c2VjcmV0bGlzdC1kYXRh',
  nestedData: 'bmVzdGVkLWxpc3QtZGF0YQ==',
  jsonData: 'anNvbi1zZWNyZXQtZGF0YQ==',
  annotated: 'annotated-copy-in-last-applied',
  podEnv: 'pod-env-literal-hunter2',
  initEnv: 'init-env-literal-swordfish',
  ephemeralEnv: 'ephemeral-env-literal-letmein',
  deployEnv: 'deploy-env-literal-opensesame',
  cronEnv: 'cron-env-literal-trustno1',
  listPodEnv: 'listed-pod-env-literal-qwerty',
};

const secretYaml = (name: string, data: string, indent = '') =>
  [
    `apiVersion: v1`,
    `kind: Secret`,
    `metadata:`,
    `  name: ${name}`,
    `  namespace: team-a`,
    `data:`,
    `  password: ${data}`,
  ]
    .map((l, i) => (i === 0 ? `${indent}- ${l}` : `${indent}  ${l}`))
    .join('\n');

const SECRET_INPUTS: { name: string; text: string; names: string[]; hidden: string[] }[] = [
  {
    name: 'kind: List of Secrets (kubectl get secret -o yaml)',
    text: `apiVersion: v1\nkind: List\nitems:\n${secretYaml('list-secret-0', HIDDEN.listData)}\n- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: list-secret-1\n    namespace: team-a\n    annotations:\n      kubectl.kubernetes.io/last-applied-configuration: '{"data":{"password":"${HIDDEN.annotated}"}}'\n  stringData:\n    token: ${HIDDEN.listString}\nmetadata:\n  resourceVersion: ""\n`,
    names: ['list-secret-0', 'list-secret-1'],
    hidden: [HIDDEN.listData, HIDDEN.listString, HIDDEN.annotated],
  },
  {
    name: 'SecretList (JSON)',
    text: JSON.stringify(
      {
        apiVersion: 'v1',
        kind: 'SecretList',
        items: [
          { metadata: { name: 'json-secret-1', namespace: 'team-a' }, data: { password: HIDDEN.secretListData } },
          {
            apiVersion: 'v1',
            kind: 'Secret',
            metadata: { name: 'json-secret-2', namespace: 'team-a' },
            data: { k: HIDDEN.jsonData },
          },
        ],
      },
      null,
      2,
    ),
    names: ['json-secret-1', 'json-secret-2'],
    hidden: [HIDDEN.secretListData, HIDDEN.jsonData],
  },
  {
    name: 'a List holding a SecretList and a Pod with env literals',
    text: `apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: SecretList\n  items:\n${secretYaml('nested-secret', HIDDEN.nestedData, '  ')}\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: listed-pod, namespace: team-a}\n  spec:\n    containers:\n    - name: app\n      image: nginx\n      env: [{name: PASSWORD, value: ${HIDDEN.listPodEnv}}]\n      resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}\n`,
    names: ['nested-secret', 'listed-pod'],
    hidden: [HIDDEN.nestedData, HIDDEN.listPodEnv],
  },
  {
    name: 'a Pod: container, initContainer and ephemeralContainer env literals',
    text: `apiVersion: v1\nkind: Pod\nmetadata: {name: env-pod, namespace: team-a}\nspec:\n  initContainers:\n  - {name: init, image: busybox, env: [{name: A, value: ${HIDDEN.initEnv}}], resources: {requests: {cpu: 10m, memory: 16Mi}, limits: {cpu: 10m, memory: 16Mi}}}\n  containers:\n  - name: app\n    image: nginx\n    env:\n    - {name: DB_PASSWORD, value: ${HIDDEN.podEnv}}\n    - name: FROM_SECRET\n      valueFrom: {secretKeyRef: {name: db, key: password}}\n    resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}\n  ephemeralContainers:\n  - {name: debug, image: busybox, env: [{name: B, value: ${HIDDEN.ephemeralEnv}}]}\n`,
    names: ['env-pod'],
    hidden: [HIDDEN.initEnv, HIDDEN.podEnv, HIDDEN.ephemeralEnv],
  },
  {
    name: 'a Deployment and a CronJob (templates)',
    text: `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: env-deploy, namespace: team-a}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: e}}\n  template:\n    metadata: {labels: {app: e}}\n    spec:\n      containers:\n      - {name: app, image: nginx, env: [{name: K, value: ${HIDDEN.deployEnv}}], resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}}\n---\napiVersion: batch/v1\nkind: CronJob\nmetadata: {name: env-cron, namespace: team-a}\nspec:\n  schedule: "* * * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers:\n          - {name: job, image: busybox, env: [{name: K, value: ${HIDDEN.cronEnv}}], resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: 100m, memory: 64Mi}}}\n`,
    names: ['env-deploy'],
    hidden: [HIDDEN.deployEnv, HIDDEN.cronEnv],
  },
];

describe('Secrets at every depth and env literals are redacted in every output', () => {
  const CLI: string[][] = [
    ['diagnose', '--state', 'manifests/demo'],
    ['diagnose', '--state', 'manifests/demo', '--json'],
    ['simulate', '-f', '-', '--state', 'manifests/demo'],
    ['simulate', '-f', '-', '--state', 'manifests/demo', '--json'],
    ['check', '-f', '-', '--state', 'manifests/demo', '--json'],
  ];
  let checked = 0;
  afterAll(() =>
    console.log(
      `hardening secrets: ${checked} (input × output) pairs checked, ${Object.keys(HIDDEN).length} hidden values`,
    ),
  );

  it.each(SECRET_INPUTS)('CLI, $name', async ({ text, names, hidden }) => {
    for (const argv of CLI) {
      const o = await run(argv, text);
      expect(o.code, `${argv.join(' ')}: ${o.stderr}`).toBeLessThanOrEqual(1);
      // Text output lists what it simulated; a paste of Secrets alone is "nothing recognised" to diagnose.
      if (argv.includes('--json') || argv[0] !== 'diagnose')
        for (const n of names) expect(o.stdout, `${argv.join(' ')} names ${n}`).toContain(n);
      for (const v of hidden) expect(o.stdout + o.stderr, `${argv.join(' ')} shows ${v}`).not.toContain(v);
      if (argv.includes('--json')) expect(o.stdout).toContain('[redacted]');
      checked++;
    }
  });

  it("Slack (message, mention, shortcut) and the bot's own log lines", async () => {
    const h = await startHarness({ answerer: createAnswerer(), source: new FileSource(DEMO), logLevel: 'debug' });
    try {
      let i = 0;
      for (const { text } of SECRET_INPUTS) {
        await h.event(messageEvent(`\`\`\`\n${text}\n\`\`\``, { channel: CHANNEL_A, ts: `1700810000.00000${++i}` }));
        await h.event({
          type: 'app_mention',
          channel: CHANNEL_A,
          user: 'U0BOB',
          text: `<@UBOT> ${text}`,
          ts: `1700810000.00000${++i}`,
        });
        await h.shortcut({ text, ts: `1700810000.00000${++i}` }, { channel: CHANNEL_A });
        checked += 3;
      }
      await h.handle.idle();
      const posted = h.fake.allPostedText();
      expect(posted).toContain('env-pod');
      for (const v of Object.values(HIDDEN)) {
        expect(posted).not.toContain(v);
        expect(h.logs.filter((l) => l.includes(v) && !/"component":"bolt"/.test(l))).toEqual([]);
      }
    } finally {
      await h.stop();
    }
  });
});

describe('redactDeep: exact shapes', () => {
  const CASES: { name: string; input: unknown; want: unknown }[] = [
    {
      name: 'a Secret keeps apiVersion, kind, name, namespace, type',
      input: {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: { name: 's', namespace: 'n', labels: { a: 'b' }, annotations: { x: 'y' } },
        data: { k: 'dg==' },
        stringData: { k: 'v' },
      },
      want: {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'Opaque',
        metadata: { name: 's', namespace: 'n' },
        data: '[redacted]',
      },
    },
    {
      name: 'a SecretList item without kind',
      input: { apiVersion: 'v1', kind: 'SecretList', items: [{ metadata: { name: 's' }, data: { k: 'dg==' } }] },
      want: {
        apiVersion: 'v1',
        kind: 'SecretList',
        items: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: '[redacted]' }],
      },
    },
    {
      name: 'List of List of Secret',
      input: {
        kind: 'List',
        items: [
          {
            kind: 'List',
            items: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { a: 'b' } }],
          },
        ],
      },
      want: {
        kind: 'List',
        items: [
          { kind: 'List', items: [{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: '[redacted]' }] },
        ],
      },
    },
    {
      name: 'a simulate result of a Secret',
      input: {
        kind: 'Secret',
        name: 's',
        admission: { allowed: true },
        object: { metadata: { name: 's' }, data: { k: 'dg==' } },
      },
      want: {
        kind: 'Secret',
        name: 's',
        admission: { allowed: true },
        object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: '[redacted]' },
      },
    },
    {
      name: 'env values in a CronJob template, valueFrom kept',
      input: {
        kind: 'CronJob',
        spec: {
          jobTemplate: {
            spec: {
              template: {
                spec: {
                  containers: [
                    {
                      name: 'c',
                      env: [
                        { name: 'A', value: 'x' },
                        { name: 'B', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
                      ],
                    },
                  ],
                },
              },
            },
          },
        },
      },
      want: {
        kind: 'CronJob',
        spec: {
          jobTemplate: {
            spec: {
              template: {
                spec: {
                  containers: [
                    {
                      name: 'c',
                      env: [
                        { name: 'A', value: '[redacted]' },
                        { name: 'B', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
                      ],
                    },
                  ],
                },
              },
            },
          },
        },
      },
    },
    {
      name: 'last-applied-configuration masked, other annotations kept',
      input: {
        kind: 'Pod',
        metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"env":"x"}', keep: 'me' } },
      },
      want: {
        kind: 'Pod',
        metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '[redacted]', keep: 'me' } },
      },
    },
    { name: 'scalars untouched', input: [1, 'x', null, true], want: [1, 'x', null, true] },
  ];
  it.each(CASES)('$name', ({ input, want }) => {
    const before = JSON.stringify(input);
    expect(redactDeep(input)).toEqual(want);
    expect(JSON.stringify(input)).toBe(before); // the input is not mutated
  });
});
