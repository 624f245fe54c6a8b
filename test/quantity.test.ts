import { describe, expect, it } from 'vitest';
import { Quantity, QuantityError, formatPairs, resourceList } from '../src/quantity.ts';
import { prng as rng } from './support/prng.ts';

describe('Quantity.parse → toString (canonical form, docs/kubernetes-semantics.md §1.2)', () => {
  it.each([
    ['1000m', '1'],
    ['1000', '1k'],
    ['0.5', '500m'],
    ['1.5', '1500m'],
    ['0.1', '100m'],
    ['2000m', '2'],
    ['0.0001', '100u'],
    ['100M', '100M'],
    ['1.5Gi', '1536Mi'],
    ['1024Mi', '1Gi'],
    ['1e3', '1e3'],
    ['1.5e3', '1500'],
    ['12Mi', '12Mi'],
    ['1G', '1G'],
    ['3Gi', '3Gi'],
    ['2.5Gi', '2560Mi'],
    ['0', '0'],
    ['0Gi', '0'],
    ['1025Ki', '1025Ki'],
    ['2073741824', '2073741824'],
    ['1073741824', '1073741824'],
    ['0.1n', '1n'],
    ['.5', '500m'],
    ['5.', '5'],
    ['-1', '-1'],
    ['+2', '2'],
    ['-1.5Gi', '-1536Mi'],
    ['0.5Ki', '512'],
    ['100m', '100m'],
    ['1E', '1E'],
    ['1E3', '1e3'],
    ['1e-3', '1e-3'],
    ['128974848', '128974848'],
    ['129e6', '129e6'],
    ['123Mi', '123Mi'],
    ['1.5Ki', '1536'],
    ['10000', '10k'],
    ['500Mi', '500Mi'],
    ['0.000000001', '1n'],
    ['1n', '1n'],
    ['1u', '1u'],
    ['1k', '1k'],
    ['1.0001', '1000100u'],
    ['001', '1'],
    ['1P', '1P'],
    ['1T', '1T'],
    [1, '1'],
    [0.5, '500m'],
    [0.25, '250m'],
  ] as const)('%s → %s', (input, want) => {
    expect(Quantity.parse(input).toString()).toBe(want);
  });

  it.each(['', '1.5.5', 'abc', '1K', '1 Gi', '1Gb', 'Gi', '1e', '--1', '1e999999', '1.5e3.2', '0x10', 'NaN'])(
    'rejects %j with a typed error naming the text',
    (bad) => {
      expect(() => Quantity.parse(bad)).toThrow(QuantityError);
      try {
        Quantity.parse(bad);
      } catch (e) {
        expect((e as QuantityError).text).toBe(bad.trim());
        expect((e as Error).message).toContain('invalid quantity');
      }
    },
  );

  it.each([[[1, 2]], [{ a: 1 }], [true], [undefined]])('rejects non-quantity value %j', (v) => {
    expect(() => Quantity.parse(v)).toThrow(QuantityError);
  });
});

describe('arithmetic keeps the left format (Quantity.Add)', () => {
  it.each([
    ['250m', '250m', '500m'],
    ['1', '500m', '1500m'],
    ['1G', '500Mi', '1524288k'],
    ['1Gi', '1G', '2073741824'],
    ['0', '1Gi', '1Gi'],
    ['0.1', '0.2', '300m'],
    ['1Gi', '1Gi', '2Gi'],
    ['600Mi', '700Mi', '1300Mi'],
    ['400m', '400m', '800m'],
  ])('%s + %s = %s', (a, b, want) => {
    expect(Quantity.parse(a).add(Quantity.parse(b)).toString()).toBe(want);
  });

  it.each([
    ['1', '300m', '700m'],
    ['1Gi', '512Mi', '512Mi'],
    ['100m', '200m', '-100m'],
  ])('%s − %s = %s', (a, b, want) => {
    expect(Quantity.parse(a).sub(Quantity.parse(b)).toString()).toBe(want);
  });

  it('0.1 + 0.2 CPU is exactly 300m', () => {
    expect(Quantity.parse('0.1').add(Quantity.parse('0.2')).eq(Quantity.parse('300m'))).toBe(true);
  });
});

describe('projections (MilliValue / Value round away from zero)', () => {
  it.each([
    ['0.0001', 1n, 1n],
    ['1.0001', 1001n, 2n],
    ['500m', 500n, 1n],
    ['1Gi', 1073741824000n, 1073741824n],
    ['-1.5', -1500n, -2n],
    ['1n', 1n, 1n],
  ] as const)('%s: milli %s, value %s', (q, milli, value) => {
    expect(Quantity.parse(q).milliValue()).toBe(milli);
    expect(Quantity.parse(q).value()).toBe(value);
  });
});

describe('comparison is exact across formats', () => {
  it.each([
    ['1Gi', '1024Mi', 0],
    ['1G', '1Gi', -1],
    ['1', '999m', 1],
    ['1e3', '1k', 0],
    ['2', '2000m', 0],
  ] as const)('%s vs %s → %i', (a, b, want) => {
    expect(Quantity.parse(a).cmp(Quantity.parse(b))).toBe(want);
  });
});

describe('quota message pairs', () => {
  it('sorts by name and joins with "," without spaces', () => {
    expect(formatPairs(resourceList({ 'requests.memory': '200Mi', 'requests.cpu': '200m' }))).toBe(
      'requests.cpu=200m,requests.memory=200Mi',
    );
  });
});

describe('properties', () => {
  const rand = rng(42);
  const suffixes = ['', 'm', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'Ti', 'n', 'u', 'e3', 'e-2'];
  const gen = () => {
    const int = Math.floor(rand() * 100000);
    const frac = rand() < 0.3 ? `.${Math.floor(rand() * 1000)}` : '';
    return `${rand() < 0.1 ? '-' : ''}${int}${frac}${suffixes[Math.floor(rand() * suffixes.length)]}`;
  };
  const values = Array.from({ length: 4000 }, gen);

  it('round-trips: parse(toString(q)) has the same value and prints the same', () => {
    for (const v of values) {
      const q = Quantity.parse(v);
      const again = Quantity.parse(q.toString());
      expect(again.nanos, v).toBe(q.nanos);
      expect(again.withFormat(q.format).toString(), v).toBe(q.toString());
    }
  });

  it('sums are exact, commutative in value and associative', () => {
    for (let i = 0; i + 2 < values.length; i += 3) {
      const [a, b, c] = [Quantity.parse(values[i]), Quantity.parse(values[i + 1]), Quantity.parse(values[i + 2])];
      expect(a.add(b).nanos).toBe(b.add(a).nanos);
      expect(a.add(b).add(c).nanos).toBe(a.add(b.add(c)).nanos);
      expect(a.add(b).sub(b).nanos).toBe(a.nanos);
    }
  });
});
