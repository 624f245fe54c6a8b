/**
 * Canonical String() rows from staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_test.go
 * (TestQuantityParse / TestQuantityString / TestQuantityAdd), v0.35.0.
 */
import { describe, expect, it } from 'vitest';
import { Quantity } from '../src/quantity.ts';

const canonical: [string, string][] = [
  ['0', '0'],
  ['0m', '0'],
  ['0Ki', '0'],
  ['0k', '0'],
  ['0Gi', '0'],
  ['1', '1'],
  ['1000', '1k'],
  ['1000m', '1'],
  ['1k', '1k'],
  ['1000k', '1M'],
  ['2000000000', '2G'],
  ['1Ki', '1Ki'],
  ['1024Ki', '1Mi'],
  ['1023Ki', '1023Ki'],
  ['1024Mi', '1Gi'],
  ['1.5Gi', '1536Mi'],
  ['0.5Gi', '512Mi'],
  ['1.5Ki', '1536'],
  ['0.3Gi', '322122547200m'],
  ['0.1', '100m'],
  ['0.5', '500m'],
  ['1.5', '1500m'],
  ['1.001', '1001m'],
  ['0.0001', '100u'],
  ['1.0001', '1000100u'],
  ['100u', '100u'],
  ['1n', '1n'],
  ['-1', '-1'],
  ['-0.5', '-500m'],
  ['-1Ki', '-1Ki'],
  ['1e3', '1e3'],
  ['1E3', '1e3'],
  ['1e-3', '1e-3'],
  ['1e6', '1e6'],
  ['12e6', '12e6'],
  ['1.3e6', '1300e3'],
];

describe('quantity: upstream canonical strings', () => {
  it.each(canonical)('%s -> %s', (input, want) => {
    expect(Quantity.parse(input).toString()).toBe(want);
  });

  it('Add keeps the receiver format (1Gi + 1G)', () => {
    expect(Quantity.parse('1Gi').add(Quantity.parse('1G')).toString()).toBe('2073741824');
    expect(Quantity.parse('512Mi').add(Quantity.parse('512Mi')).toString()).toBe('1Gi');
    expect(Quantity.parse('1500m').add(Quantity.parse('1500m')).toString()).toBe('3');
  });
});
