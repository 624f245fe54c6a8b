/**
 * The numbers a runtime paste carries (issue #17, Deliver 4): container, memory limit/request, usage, the
 * killed process and the app's own cap. Real pastes from test/fixtures/pastes (sources in their .json),
 * and the shapes of test/fixtures/runtime/README.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appCapIn } from '../../src/parse/runtime.ts';
import { parsePaste } from '../../src/parse/index.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
function paste(name: string): string {
  if (name.includes('/')) return readFileSync(join(fixtures, name), 'utf8');
  const file = readdirSync(join(fixtures, 'pastes')).find((f) => f.startsWith(`${name}-`) && f.endsWith('.txt'));
  return readFileSync(join(fixtures, 'pastes', file!), 'utf8');
}
const runtimeFacts = (text: string) =>
  parsePaste(text)
    .findings.filter((f) => f.layer === 'runtime')
    .map((f) => f.facts);

describe('runtime facts with numbers', () => {
  it.each([
    // describe without the container header (the paste cut it with "...").
    ['164', [{ reason: 'OOMKilled', limit: '90Mi', request: '60Mi' }]],
    [
      '068',
      [
        {
          reason: 'Evicted',
          container: 'dptp-controller-manager',
          resource: 'memory',
          request: '15Gi',
          used: '48458972Ki',
        },
      ],
    ],
    ['065', [{ reason: 'Evicted', container: 'kilo', resource: 'memory', request: '0', used: '30332Ki' }]],
    [
      '066',
      [{ reason: 'Evicted', container: 'treetracker-pgpool', resource: 'memory', request: '0', used: '1275700Ki' }],
    ],
    ['067', [{ reason: 'Evicted', container: 'node', resource: 'memory', request: '12Gi', used: '35505620Ki' }]],
    ['149', [{ reason: 'Evicted', container: 'backend', resource: 'ephemeral-storage', request: '0', used: '96Ki' }]],
    ['181', [{ reason: 'OOMKilled', used: '466160Ki', process: 'java' }]],
    ['180', [{ reason: 'OOMKilled' }]],
    ['179', [{ reason: 'OOMKilled' }]],
    [
      'runtime/describe-redis-maxmemory.txt',
      [
        {
          reason: 'OOMKilled',
          container: 'redis',
          limit: '2Gi',
          request: '1Gi',
          appCap: { setting: '--maxmemory 3gb', memory: '3Gi', heapOnly: false },
        },
      ],
    ],
    [
      'runtime/pod-yaml-xmx.txt',
      [
        {
          reason: 'OOMKilled',
          container: 'app',
          limit: '2Gi',
          request: '1Gi',
          appCap: { setting: '-Xmx4g', memory: '4Gi', heapOnly: true },
        },
      ],
    ],
    ['runtime/kernel-memcg.txt', [{ reason: 'OOMKilled', limit: '2Gi', used: '2Gi', process: 'node' }]],
    ['runtime/pod-json-oomkilled.txt', [{ reason: 'OOMKilled', container: 'worker', limit: '512Mi' }]],
  ])('%s', (name, expected) => {
    expect(runtimeFacts(paste(name))).toEqual(expected);
  });

  it.each([
    ['was OOM killed', 'the ingest pod was OOM killed twice last night', [{ reason: 'OOMKilled' }]],
    ['OOM-killed', 'worker got OOM-killed after the deploy', [{ reason: 'OOMKilled' }]],
    ['ran out of memory', 'the build container ran out of memory at step 4', [{ reason: 'OOMKilled' }]],
    ['out of memory killed', 'console build pods are getting out of memory killed.', [{ reason: 'OOMKilled' }]],
    ['no OOM in "room killed"', 'the room killed the idea', []],
    ['a node running out of memory is not a kill', 'the node ran out of memory overnight', []],
  ])('prose: %s', (_n, text, expected) => {
    expect(runtimeFacts(text)).toEqual(expected);
  });

  it('dates only the 2014 reason wording, not prose', () => {
    expect(parsePaste('"reason": "OOM Killed"').findings[0]?.version).toBe('2014');
    expect(parsePaste('the pod was OOM killed').findings[0]?.version).toBeUndefined();
  });

  it.each([
    ['-Xmx4g', { setting: '-Xmx4g', memory: '4Gi', heapOnly: true }],
    ['JAVA_OPTS=-Xmx512m', { setting: '-Xmx512m', memory: '512Mi', heapOnly: true }],
    ['NODE_OPTIONS=--max-old-space-size=4096', { setting: '--max-old-space-size=4096', memory: '4Gi', heapOnly: true }],
    ['redis-server --maxmemory 2gb', { setting: '--maxmemory 2gb', memory: '2Gi', heapOnly: false }],
    ['maxmemory 2g', { setting: 'maxmemory 2g', memory: '2G', heapOnly: false }],
    ['GOMEMLIMIT=3GiB', { setting: 'GOMEMLIMIT=3GiB', memory: '3Gi', heapOnly: false }],
    ['- name: GOMEMLIMIT\n  value: 1536MiB', { setting: 'GOMEMLIMIT=1536MiB', memory: '1536Mi', heapOnly: false }],
    ['no cap here', undefined],
  ])('app cap %j', (text, expected) => {
    expect(appCapIn(text)).toEqual(expected);
  });
});
