/**
 * Inputs for the question grammar's fuzz test and bench (test/parse/question-fuzz.test.ts,
 * bench/question.ts): adversarial shapes up to 40,000 characters (Slack's message limit) and seeded
 * random questions built from the grammar's own words.
 */
import { prng } from '../support/prng.ts';

export const SLACK_MAX_CHARS = 40_000;

function repeatTo(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

/** Every keyword of the grammar, and words that look like its names and numbers. */
export const GRAMMAR_WORDS = [
  'what',
  'if',
  'why',
  'is',
  'are',
  'my',
  'the',
  'pod',
  'deploy',
  'deployment',
  'pods',
  'still',
  'pending',
  'stuck',
  'rejected',
  'scale',
  'scales',
  'scaled',
  'scaling',
  'up',
  'down',
  'to',
  'go',
  'goes',
  'went',
  'grows',
  'replicas',
  'replica',
  'has',
  'gets',
  'with',
  'at',
  '+3',
  '-2',
  'add',
  'remove',
  'from',
  'drain',
  'cordon',
  'uncordon',
  'uncordoned',
  'cordoned',
  'lose',
  'lost',
  'kill',
  'node',
  'node-3',
  'general-a-1',
  'dies',
  'fails',
  'drained',
  'raise',
  'lower',
  'set',
  'change',
  'increase',
  'bump',
  'quota',
  'team-quota',
  'requests.cpu',
  'requests.memory',
  'limits.cpu',
  'services',
  'count/pods',
  'of',
  'in',
  'on',
  '=',
  'becomes',
  '20',
  '60',
  '16gi',
  '250m',
  '1gi',
  '512mi',
  '2',
  '8',
  '1e308',
  '99999999999999999999',
  '2.5',
  'roll',
  'out',
  'rollout',
  'restart',
  'redeploy',
  'update',
  'new',
  'version',
  "web's",
  'web',
  'api',
  'deploy/web',
  'sts/redis',
  'image',
  'ghcr.io/acme/web:2',
  'cpu',
  'memory',
  'mem',
  'cores',
  'ram',
  'limits',
  'limit',
  'requests',
  'request',
  'needs',
  'uses',
  'asks',
  'for',
  'limitrange',
  'range',
  'lr',
  'defaults',
  'max',
  'min',
  'default',
  'defaultrequest',
  'maxlimitrequestratio',
  'ratio',
  'container',
  '-c',
  '-n',
  'team-a',
  'ns',
  'namespace',
  'headroom',
  'room',
  'capacity',
  'help',
  '<@U0123ABC>',
];

/** Near-miss phrasings: a real question with one word off, to be repeated or mutated. */
export const NEAR_MISSES = [
  'what if web scales to',
  'what if web scales to 8 in',
  'raise requests.cpu of team-quota to',
  'what if node-3 goes',
  'why is my my the pod web',
  'what if the limitrange max cpu is',
  'roll out web with 500m',
  'what if web requests 250m',
  'set limitrange defaults default memory to',
  'add 2 replicas to',
  'what if web +',
  'what if team-quota pods is',
  'uncordon node',
  'what if general-c-2 is uncordoned',
  'max limit/request ratio for cpu to',
  'web scales up down up down to',
];

/** Adversarial shapes, each exactly `size` characters (default 40,000). */
export function adversarialShapes(size = SLACK_MAX_CHARS): [string, string][] {
  const r = prng(13);
  const unicode = Array.from({ length: size }, () => {
    const x = r();
    return x < 0.4
      ? String.fromCharCode(0x61 + Math.floor(r() * 26))
      : x < 0.55
        ? ' '
        : x < 0.65
          ? '-'
          : String.fromCodePoint(0xa0 + Math.floor(r() * 0x2ff60));
  })
    .join('')
    .slice(0, size);
  const shapes: [string, string][] = [
    ['one word: a×N', repeatTo('a', size)],
    ['one name: a-a-a…', repeatTo('a-', size)],
    ['one name: a.a.a…', repeatTo('a.', size)],
    ['digits', repeatTo('1', size)],
    ['digits with e: 1e1e1e…', repeatTo('1e', size)],
    ['a/a/a/…', repeatTo('a/', size)],
    ['deploy/deploy/…', repeatTo('deploy/', size)],
    ['spaces, then a word', `${' '.repeat(size - 3)}web`],
    ['a a a …', repeatTo('a ', size)],
    ["'what if ' repeated", repeatTo('what if ', size)],
    ["'in in in'", repeatTo('in ', size)],
    ['why is my my my…', repeatTo(`why is ${'my '.repeat(20)}`, size)],
    ['why is + my×N', `why is ${repeatTo('my ', size - 7)}`],
    ['max cpu is 4 + a-a-a…', `what if max cpu is 4 ${repeatTo('a-', size - 21)}`],
    ['roll out web + digits', `roll out web ${repeatTo('1', size - 13)}`],
    ['roll out web with 1 1 1…', `roll out web with ${repeatTo('1 ', size - 18)}`],
    ['quota + a-a-a…', `quota ${repeatTo('a-', size - 6)}`],
    ['raise … to + digits', `raise requests.cpu of team-quota to ${repeatTo('9', size - 36)}`],
    ['scales to + digits', `what if web scales to ${repeatTo('9', size - 22)}`],
    ['mixed unicode', unicode],
    ['mention ids <@U…>', repeatTo('<@U0123ABC>', size)],
    ['punctuation ?!*_`', repeatTo('?!*_`', size)],
  ];
  for (const w of GRAMMAR_WORDS.slice(0, 140)) shapes.push([`'${w}' repeated`, repeatTo(`${w} `, size)]);
  for (const q of NEAR_MISSES) shapes.push([`near miss '${q}' repeated`, repeatTo(`${q} `, size)]);
  return shapes;
}

/** Seeded random questions from the grammar's words, near misses and noise, up to `maxSize` characters. */
export function randomQuestions(seed: number, count: number, maxSize = SLACK_MAX_CHARS): string[] {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    // Sizes spread from a few words to the whole limit.
    const size = Math.floor(maxSize ** r());
    const parts: string[] = [];
    let len = 0;
    while (len < size) {
      const x = r();
      const p =
        x < 0.7
          ? pick(GRAMMAR_WORDS)
          : x < 0.85
            ? pick(NEAR_MISSES)
            : x < 0.95
              ? 'a'.repeat(1 + Math.floor(r() * 300))
              : String.fromCodePoint(Math.floor(r() * 0x2ffff));
      parts.push(p);
      len += p.length + 1;
    }
    out.push(parts.join(r() < 0.9 ? ' ' : '').slice(0, size));
  }
  return out;
}
