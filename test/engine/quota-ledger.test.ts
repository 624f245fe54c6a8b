/**
 * The quota ledger (src/engine/quota-ledger.ts): charge, release and reconcile of ResourceQuota
 * `status.used`, with hand-worked numbers, and the check that nothing else in src/ writes `status.used`.
 * docs/kubernetes-semantics.md §4.5 (the admission's charge), §4.9 (the controller's recompute).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { admitObject, commitAdmission } from '../../src/engine/admit.ts';
import { chargeQuotas, reconcileQuotaStatus, releaseQuotas, withQuotaHard } from '../../src/engine/quota-ledger.ts';
import { releasePod } from '../../src/engine/release.ts';
import type { Pod } from '../../src/k8s/objects.ts';
import type { KObject, Snapshot } from '../../src/k8s/snapshot.ts';
import { Quantity } from '../../src/quantity.ts';
import { pod, snapshotOf } from '../support/builders.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NS = 'team-a';

function quota(
  name: string,
  hard: Record<string, string>,
  used?: Record<string, string>,
  o: { ns?: string; scopes?: string[] } = {},
): KObject {
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name, namespace: o.ns ?? NS },
    spec: { hard, ...(o.scopes ? { scopes: o.scopes } : {}) },
    ...(used ? { status: { hard, used } } : {}),
  };
}

function usedOf(s: Snapshot, name: string, ns = NS): Record<string, string | number> | undefined {
  return s.get('ResourceQuota', ns, name)?.status?.used ?? undefined;
}

function podOf(s: Snapshot, name: string): Pod {
  return s.get('Pod', NS, name)!;
}

/**
 * team-a holds two running pods, a 300m/256Mi and a 200m/128Mi (limits equal to requests):
 *   compute: requests.cpu 500m, requests.memory 384Mi, pods 2 (status given as such);
 *   best-effort: scoped BestEffort, pods 0 (neither pod is BestEffort);
 *   other/compute: the same quota in another namespace, pods 7.
 */
function state(): Snapshot {
  const guaranteed = (name: string, cpu: string, memory: string) => {
    const p = pod(name, { namespace: NS, cpu, memory, node: 'n1' });
    p.spec.containers[0]!.resources = { requests: { cpu, memory }, limits: { cpu, memory } };
    return p as KObject;
  };
  return snapshotOf(
    quota(
      'compute',
      { 'requests.cpu': '2', 'requests.memory': '2Gi', pods: '10' },
      { 'requests.cpu': '500m', 'requests.memory': '384Mi', pods: '2' },
    ),
    quota('best-effort', { pods: '5' }, { pods: '0' }, { scopes: ['BestEffort'] }),
    quota('compute', { pods: '10' }, { pods: '7' }, { ns: 'other' }),
    guaranteed('a', '300m', '256Mi'),
    guaranteed('b', '200m', '128Mi'),
  );
}

describe('charge', () => {
  it.each<[string, Map<string, Map<string, Quantity>>, Record<string, string> | undefined]>([
    [
      'the admission’s new used replaces the named resources',
      new Map([
        [
          'compute',
          new Map([
            ['requests.cpu', Quantity.parse('800m')],
            ['pods', Quantity.parse('3')],
          ]),
        ],
      ]),
      { 'requests.cpu': '800m', 'requests.memory': '384Mi', pods: '3' },
    ],
    ['nothing charged', new Map(), { 'requests.cpu': '500m', 'requests.memory': '384Mi', pods: '2' }],
    [
      'a quota that is gone is skipped',
      new Map([['gone', new Map([['pods', Quantity.parse('1')]])]]),
      { 'requests.cpu': '500m', 'requests.memory': '384Mi', pods: '2' },
    ],
  ])('%s', (_what, usedAfter, want) => {
    const s = state();
    chargeQuotas(s, NS, usedAfter);
    expect(usedOf(s, 'compute')).toEqual(want);
    expect(usedOf(s, 'compute', 'other')).toEqual({ pods: '7' });
    expect(s.get('ResourceQuota', NS, 'gone')).toBeUndefined();
  });

  it('admitting and committing a 250m/64Mi pod charges compute only (best-effort does not match it)', () => {
    const s = state();
    const p = pod('c', { namespace: NS, cpu: '250m', memory: '64Mi' }) as KObject;
    const result = admitObject(p, s);
    expect(result.allowed).toBe(true);
    commitAdmission(s, result);
    expect(usedOf(s, 'compute')).toEqual({ 'requests.cpu': '750m', 'requests.memory': '448Mi', pods: '3' });
    expect(usedOf(s, 'best-effort')).toEqual({ pods: '0' });
    expect(s.get('Pod', NS, 'c')).toBeDefined();
  });

  it('a dry run charges nothing', () => {
    const s = state();
    commitAdmission(
      s,
      admitObject(pod('c', { namespace: NS, cpu: '250m', memory: '64Mi' }) as KObject, s, { dryRun: true }),
    );
    expect(usedOf(s, 'compute')).toEqual({ 'requests.cpu': '500m', 'requests.memory': '384Mi', pods: '2' });
  });
});

describe('release', () => {
  it.each<[string, string, Record<string, string>]>([
    ['a (300m/256Mi)', 'a', { 'requests.cpu': '200m', 'requests.memory': '128Mi', pods: '1' }],
    ['b (200m/128Mi)', 'b', { 'requests.cpu': '300m', 'requests.memory': '256Mi', pods: '1' }],
  ])('releasePod %s: the pod is gone and compute gives its usage back; nothing else moves', (_what, name, want) => {
    const s = state();
    releasePod(s, podOf(s, name));
    expect(s.get('Pod', NS, name)).toBeUndefined();
    expect(usedOf(s, 'compute')).toEqual(want);
    expect(usedOf(s, 'best-effort')).toEqual({ pods: '0' });
    expect(usedOf(s, 'compute', 'other')).toEqual({ pods: '7' });
  });

  it('charge then release is back where it started', () => {
    const s = state();
    const p = pod('c', { namespace: NS, cpu: '250m', memory: '64Mi' }) as KObject;
    commitAdmission(s, admitObject(p, s));
    releasePod(s, podOf(s, 'c'));
    expect(usedOf(s, 'compute')).toEqual({ 'requests.cpu': '500m', 'requests.memory': '384Mi', pods: '2' });
  });

  it('releaseQuotas leaves the pod in place and skips a quota that does not track the resources', () => {
    const s = state();
    s.put(quota('storage', { 'requests.storage': '10Gi' }, { 'requests.storage': '1Gi' }));
    releaseQuotas(s, podOf(s, 'a'));
    expect(s.get('Pod', NS, 'a')).toBeDefined();
    expect(usedOf(s, 'compute')).toEqual({ 'requests.cpu': '200m', 'requests.memory': '128Mi', pods: '1' });
    expect(usedOf(s, 'storage')).toEqual({ 'requests.storage': '1Gi' });
  });
});

describe('reconcile', () => {
  it('a quota without status gets hard from spec and used from the namespace; one with status is left as given', () => {
    const s = state();
    s.put(quota('fresh', { 'requests.cpu': '4', pods: '20' }));
    const notes = reconcileQuotaStatus(s);
    expect(notes).toEqual([{ namespace: 'team-a', name: 'fresh' }]);
    const fresh = s.get('ResourceQuota', NS, 'fresh')!;
    expect(fresh.status).toEqual({
      hard: { 'requests.cpu': '4', pods: '20' },
      used: { 'requests.cpu': '500m', pods: '2' },
    });
    expect(usedOf(s, 'compute')).toEqual({ 'requests.cpu': '500m', 'requests.memory': '384Mi', pods: '2' });
    expect(reconcileQuotaStatus(s)).toEqual([]);
  });

  it('withQuotaHard: a resource newly tracked gets its used computed; a tracked one keeps its used', () => {
    const s = state();
    withQuotaHard(s, NS, 'compute', 'limits.cpu', Quantity.parse('4'));
    withQuotaHard(s, NS, 'compute', 'pods', Quantity.parse('12'));
    const q = s.get('ResourceQuota', NS, 'compute')!;
    expect(q.spec?.hard).toEqual({ 'requests.cpu': '2', 'requests.memory': '2Gi', pods: '12', 'limits.cpu': '4' });
    expect(q.status?.used).toEqual({
      'requests.cpu': '500m',
      'requests.memory': '384Mi',
      pods: '2',
      'limits.cpu': '500m',
    });
  });
});

describe('the ledger is the only writer of status.used in src/', () => {
  function listTs(dir: string): string[] {
    return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? listTs(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
    );
  }
  /** `status: { …, used }`, `x.status = { …, used }` and `x.status.used = …` / `x.status.used[k] = …`. */
  function usedWrites(file: string, text: string): string[] {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const out: string[] = [];
    const line = (n: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
    const isStatus = (n: ts.Node) =>
      (ts.isPropertyAssignment(n) && n.name.getText(sf) === 'status') ||
      (ts.isBinaryExpression(n) &&
        n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        /\bstatus$/.test(n.left.getText(sf)));
    const visit = (n: ts.Node): void => {
      if (
        (ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n)) &&
        n.name.getText(sf) === 'used' &&
        ts.isObjectLiteralExpression(n.parent) &&
        isStatus(n.parent.parent)
      )
        out.push(line(n));
      if (
        ts.isBinaryExpression(n) &&
        n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
        /\bstatus\??\.used\b/.test(n.left.getText(sf))
      )
        out.push(line(n));
      n.forEachChild(visit);
    };
    visit(sf);
    return out;
  }

  it.each<[string, string[]]>([
    ['const q = { status: { hard, used } };', ['x.ts:1']],
    ['q.status = { ...q.status, used: {} };', ['x.ts:1']],
    ['q.status.used = {};', ['x.ts:1']],
    ["q.status.used['pods'] = '1';", ['x.ts:1']],
    ['const u = q.status?.used; const r = { used: 1 };', []],
  ])('the check sees %s', (src, want) => {
    expect(usedWrites('x.ts', src)).toEqual(want);
  });

  it('every write is in src/engine/quota-ledger.ts', () => {
    const writes = listTs('src').flatMap((f) => usedWrites(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.filter((w) => !w.startsWith('src/engine/quota-ledger.ts:'))).toEqual([]);
  });
});
