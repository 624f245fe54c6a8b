/**
 * The hostile inputs the hardening tests feed every entry point: seeded random bytes, mutated real
 * pastes (test/fixtures/pastes), and hand-made worst cases (deep nesting, alias bombs, huge pastes,
 * 100,000 documents, invalid UTF-8, absurd quantities, wrong shapes, unknown kinds, a Secret).
 * Deterministic: a seeded PRNG, so a failure replays.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../support/prng.ts';
export { prng };

export interface Input {
  name: string;
  text: string;
}

const ROOT = join(import.meta.dirname, '..', '..');
const PASTES = join(ROOT, 'test', 'fixtures', 'pastes');

export function realPastes(): Input[] {
  return readdirSync(PASTES)
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => ({ name: f, text: readFileSync(join(PASTES, f), 'utf8') }));
}

/** Random bytes (anything 0x00–0xff, so mostly invalid UTF-8), decoded as the CLI and Slack decode them. */
export function randomBytes(rnd: () => number, count: number, maxLen: number): Input[] {
  const out: Input[] = [];
  for (let i = 0; i < count; i++) {
    const len = Math.floor(rnd() * maxLen);
    const b = Buffer.alloc(len);
    for (let j = 0; j < len; j++) b[j] = Math.floor(rnd() * 256);
    out.push({ name: `random-bytes-${i} (${len} B)`, text: b.toString('utf8') });
  }
  return out;
}

const TOKENS = [
  'exceeded quota: ',
  ', requested: ',
  ', used: ',
  ', limited: ',
  'pods=1',
  'requests.cpu=1e999999',
  'must specify ',
  ' for: ',
  '0/3 nodes are available: ',
  'Insufficient cpu',
  ' preemption: ',
  'is forbidden: ',
  'apiVersion: v1\nkind: Pod\n',
  '---\n',
  'metadata:\n  name: x\n',
  '  namespace: team-b\n',
  '```',
  '\n',
  '"',
  '{',
  '}',
  '[',
  ']',
  '&',
  '<',
  '>',
  '\u0000',
  '\uFFFD',
  '*a',
  '&a ',
  'cpu: "1.5.5"',
  'limits: [1, 2]',
  'kind: Secret\n',
  '-n team-b ',
  'OOMKilled',
  '<@UBOT>',
  'xoxb-0000-1111-fuzz',
];

/** A real paste with 1–12 random edits: delete, duplicate, swap, insert a keyword or a random character. */
export function mutate(text: string, rnd: () => number): string {
  const chars = [...text];
  const n = 1 + Math.floor(rnd() * 12);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(rnd() * (chars.length + 1));
    const op = rnd();
    if (op < 0.2) chars.splice(at, 1 + Math.floor(rnd() * 20));
    else if (op < 0.4) chars.splice(at, 0, ...chars.slice(at, at + 1 + Math.floor(rnd() * 200)));
    else if (op < 0.7) chars.splice(at, 0, ...TOKENS[Math.floor(rnd() * TOKENS.length)]!);
    else if (op < 0.85) chars.splice(at, 0, String.fromCodePoint(Math.floor(rnd() * 0x2ffff)));
    else {
      const j = Math.floor(rnd() * chars.length);
      if (chars[at] !== undefined && chars[j] !== undefined) [chars[at], chars[j]] = [chars[j]!, chars[at]!];
    }
  }
  return chars.join('');
}

export const PASTE =
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';

export const SECRET_VALUES = {
  /** base64 of "hunter2-db-password" */
  data: 'aHVudGVyMi1kYi1wYXNzd29yZA==',
  stringData: 'sup3r-s3cret-api-key-value',
};

export const SECRET_MANIFEST = `apiVersion: v1
kind: Secret
metadata:
  name: db-credentials
  namespace: team-a
type: Opaque
data:
  password: ${SECRET_VALUES.data}
stringData:
  apiKey: ${SECRET_VALUES.stringData}
`;

function pod(resources: string, name = 'web', extra = ''): string {
  return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
  namespace: team-a
spec:
  containers:
  - name: app
    image: nginx
    resources: ${resources}
${extra}`;
}

/** 10,000 nesting levels, in every spelling a parser recurses on. */
const DEPTH = 10_000;

export function specialInputs(): Input[] {
  const billion = readFileSync(join(ROOT, 'test', 'fixtures', 'manifests', 'bad', 'billion-laughs.yaml'), 'utf8');
  const docs: string[] = [];
  for (let i = 0; i < 100_000; i++)
    docs.push(
      `---\napiVersion: v1\nkind: Pod\nmetadata: {name: p${i}, namespace: team-a}\nspec: {containers: [{name: a, image: x}]}\n`,
    );
  const fiveMb = (unit: string) => unit.repeat(Math.ceil((5 * 1024 * 1024) / unit.length));
  const invalidUtf8 = Buffer.concat([
    Buffer.from([0xff, 0xfe, 0xc3]),
    Buffer.from(PASTE),
    Buffer.from([0xed, 0xa0, 0x80, 0xf8, 0x88, 0x80, 0x80, 0x80, 0xc0, 0xaf]),
  ]);
  return [
    { name: 'empty', text: '' },
    { name: 'whitespace', text: ' \n\t\r\n ' },
    { name: 'NUL bytes', text: '\u0000'.repeat(4096) },
    { name: 'document markers only', text: '---\n---\n...\n---\n' },
    { name: 'JSON null', text: 'null' },
    { name: 'JSON string', text: '"just a string"' },
    { name: 'JSON empty list', text: '[]' },
    { name: 'JSON empty object', text: '{}' },
    { name: `deep JSON array (${DEPTH} levels)`, text: '['.repeat(DEPTH) + ']'.repeat(DEPTH) },
    { name: `deep JSON object (${DEPTH} levels)`, text: `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}` },
    {
      name: `deep YAML flow map in a Pod (${DEPTH} levels)`,
      text: pod('{}', 'deep', `  nodeSelector: ${'{a: '.repeat(DEPTH)}1${'}'.repeat(DEPTH)}\n`),
    },
    {
      name: `deep YAML flow sequence (${DEPTH} levels)`,
      text: `kind: Pod\nmetadata: {name: x}\nspec: ${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}\n`,
    },
    { name: `deep YAML block sequence (${DEPTH} levels)`, text: `${'- '.repeat(DEPTH)}x\n` },
    {
      name: `deep YAML in a fenced paste (${DEPTH} levels)`,
      text: `\`\`\`yaml\n${pod('{}', 'deep', `  nodeSelector: ${'{a: '.repeat(DEPTH)}1${'}'.repeat(DEPTH)}\n`)}\`\`\`\n`,
    },
    { name: 'alias bomb (billion laughs)', text: billion },
    {
      name: 'alias bomb inside a Pod',
      text: pod(
        '{}',
        'lol',
        `  nodeSelector:\n${billion
          .split('\n')
          .filter((l) => /^[a-i]:/.test(l))
          .map((l) => `    ${l}`)
          .join('\n')}\n`,
      ),
    },
    { name: 'alias bomb in a fenced paste', text: `\`\`\`yaml\n${billion}\n\`\`\`\n${PASTE}` },
    { name: '5 MB paste of a real error', text: fiveMb(`${PASTE}\n`) },
    { name: '5 MB of one character', text: fiveMb('x') },
    { name: '5 MB single line of keywords', text: fiveMb('exceeded quota: requested: used: limited: ') },
    { name: '100,000-document YAML', text: docs.join('') },
    { name: 'invalid UTF-8 around a real error', text: invalidUtf8.toString('utf8') },
    { name: 'quantity 1e999999 (YAML number)', text: pod('{requests: {cpu: 1e999999}}') },
    { name: 'quantity "1e999999" (string)', text: pod('{requests: {cpu: "1e999999", memory: "1e999999Ei"}}') },
    {
      name: 'quantity 1e999999 in a pasted error',
      text: 'pods "web" is forbidden: exceeded quota: q, requested: requests.cpu=1e999999, used: requests.cpu=1, limited: requests.cpu=2',
    },
    { name: 'quantity of 100,000 digits', text: pod(`{requests: {cpu: "${'9'.repeat(100_000)}"}}`) },
    { name: 'cpu: "1.5.5"', text: pod('{requests: {cpu: "1.5.5"}}') },
    {
      name: 'cpu 1.5.5 in a pasted error',
      text: 'pods "web" is forbidden: exceeded quota: q, requested: requests.cpu=1.5.5, used: requests.cpu=1.5.5, limited: requests.cpu=1.5.5',
    },
    { name: 'a list where a map belongs (limits)', text: pod('{limits: [1, 2]}') },
    {
      name: 'a list where a map belongs (metadata)',
      text: 'apiVersion: v1\nkind: Pod\nmetadata: [a, b]\nspec: {containers: []}\n',
    },
    {
      name: 'a map where a list belongs (containers)',
      text: 'apiVersion: v1\nkind: Pod\nmetadata: {name: x, namespace: team-a}\nspec: {containers: {name: a}}\n',
    },
    {
      name: 'unknown kind',
      text: 'apiVersion: example.com/v1\nkind: FrobnicatorPolicy\nmetadata: {name: x, namespace: team-a}\nspec: {level: 11}\n',
    },
    {
      name: 'unknown kind in a List',
      text: 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Ingress, metadata: {name: i}}\n- 42\n- null\n',
    },
    { name: 'a Secret manifest', text: SECRET_MANIFEST },
    { name: 'a Secret in a fenced paste', text: `\`\`\`yaml\n${SECRET_MANIFEST}\`\`\`\n` },
    { name: 'a Pod without metadata', text: 'apiVersion: v1\nkind: Pod\nspec: {containers: [{name: a}]}\n' },
    {
      name: 'replicas: -1e9',
      text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: team-a}\nspec: {replicas: -1000000000, template: {spec: {containers: [{name: a}]}}}\n',
    },
    {
      name: 'replicas: 1e9',
      text: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d, namespace: team-a}\nspec: {replicas: 1000000000, template: {spec: {containers: [{name: a, resources: {requests: {cpu: 1m}}}]}}}\n',
    },
    { name: 'duplicate keys', text: 'apiVersion: v1\nkind: Pod\nkind: Pod\nmetadata: {name: x}\n' },
    { name: 'mrkdwn and mentions', text: `<!channel> <@U0ALICE> *bold* \`code\` \`\`\` & < > ${PASTE}` },
  ];
}

/** The whole corpus, the same on every run: the worst cases, 40 random byte strings, every real paste mutated once. */
export function fuzzCorpus(): { special: Input[]; corpus: Input[] } {
  const rnd = prng(0x9a7d0c7);
  const special = specialInputs();
  return {
    special,
    corpus: [
      ...special,
      ...randomBytes(rnd, 40, 4096),
      ...realPastes().map((p) => ({ name: `mutated ${p.name}`, text: mutate(p.text, rnd) })),
    ],
  };
}
