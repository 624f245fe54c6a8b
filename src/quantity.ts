/**
 * Exact Kubernetes quantities (apimachinery `resource.Quantity`), on bigint nanos: no floating point.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/api/resource/{quantity.go,amount.go,suffix.go} (v0.35.0):
 * values are rationals with at most 9 fractional decimal digits (finer digits round *up in magnitude*);
 * each quantity remembers the format of the text it came from, and `toString()` is the canonical form
 * Kubernetes prints in every error message and in `kubectl describe`.
 */

export type QuantityFormat = 'BinarySI' | 'DecimalSI' | 'DecimalExponent';

/** A quantity that does not parse; `text` is the input as given. */
export class QuantityError extends Error {
  readonly text: string;
  constructor(text: string, reason: string) {
    super(`invalid quantity "${truncate(text)}": ${reason}`);
    this.name = 'QuantityError';
    this.text = text;
  }
}

function truncate(s: string): string {
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

const NANO = 1_000_000_000n;
const MAX_INT64 = (1n << 63n) - 1n;
/** math.MaxInt64 / 1000, the bound LimitRanger's projection uses (docs/kubernetes-semantics.md §3.5). */
export const MAX_MILLI_VALUE = MAX_INT64 / 1000n;

/** Decimal digits past which we refuse a quantity: far above any real cluster, keeps bigint work bounded. */
const MAX_DIGITS = 64;

const BINARY_SUFFIX: Record<string, bigint> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const DECIMAL_SUFFIX: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const DECIMAL_SUFFIX_BY_EXP = new Map<number, string>(Object.entries(DECIMAL_SUFFIX).map(([s, e]) => [e, s]));
const BINARY_SUFFIX_BY_POWER = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

const NUMBER_RE = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(.*)$/;
const SUFFIX_RE = /^(?:Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|)$/;
const EXPONENT_RE = /^[eE]([+-]?[0-9]+)$/;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** Integer division rounding away from zero (Kubernetes rounds up in magnitude). */
function divAwayFromZero(num: bigint, den: bigint): bigint {
  const q = num / den;
  return q * den === num ? q : num < 0n ? q - 1n : q + 1n;
}

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** Parsed quantity texts (cleared when full): parse results, never written. */
const PARSED = new Map<string, Quantity>();
const MAX_PARSED = 4096;

export class Quantity {
  /** The value in units of 10^-9. */
  readonly nanos: bigint;
  readonly format: QuantityFormat;

  private constructor(nanos: bigint, format: QuantityFormat) {
    this.nanos = nanos;
    this.format = format;
  }

  static fromNanos(nanos: bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(nanos, format);
  }

  /** A whole number (counts: pods, services …), DecimalSI as Kubernetes makes them. */
  static fromInt(n: bigint | number, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(n) * NANO, format);
  }

  static fromMilli(milli: bigint | number, format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(BigInt(milli) * 1_000_000n, format);
  }

  static zero(format: QuantityFormat = 'DecimalSI'): Quantity {
    return new Quantity(0n, format);
  }

  /** Parses Kubernetes quantity text (or a YAML/JSON number); throws `QuantityError`. */
  static parse(input: unknown): Quantity {
    // Quantities are immutable: the same text parses once (a template's replicas repeat theirs).
    if (typeof input !== 'string') return Quantity.parseValue(input);
    const hit = PARSED.get(input);
    if (hit) return hit;
    const q = Quantity.parseValue(input);
    if (PARSED.size >= MAX_PARSED) PARSED.clear();
    PARSED.set(input, q);
    return q;
  }

  private static parseValue(input: unknown): Quantity {
    if (input instanceof Quantity) return input;
    if (input === null) return Quantity.zero();
    let text: string;
    if (typeof input === 'number') {
      if (!Number.isFinite(input)) throw new QuantityError(String(input), 'not a finite number');
      text = String(input);
    } else if (typeof input === 'bigint') {
      text = input.toString();
    } else if (typeof input === 'string') {
      text = input.trim();
    } else {
      throw new QuantityError(
        JSON.stringify(input) ?? String(input),
        `expected a quantity, got ${Array.isArray(input) ? 'a list' : typeof input}`,
      );
    }
    if (text === '') throw new QuantityError(text, 'quantities must not be empty');
    if (text === '0') return Quantity.zero();
    if (text.length > 200) throw new QuantityError(text, 'too long');

    const m = NUMBER_RE.exec(text);
    if (!m)
      throw new QuantityError(
        text,
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      );
    const [, sign, intPart = '', fracPart = '', suffix = ''] = m;
    if (intPart === '' && fracPart === '' && !text.replace(/^[+-]/, '').startsWith('.')) {
      throw new QuantityError(
        text,
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      );
    }
    let format: QuantityFormat;
    let exp10 = 0;
    let mult = 1n;
    const expMatch = EXPONENT_RE.exec(suffix);
    if (expMatch) {
      format = 'DecimalExponent';
      const e = Number(expMatch[1]);
      if (!Number.isSafeInteger(e) || Math.abs(e) > MAX_DIGITS) throw new QuantityError(text, 'exponent out of range');
      exp10 = e;
    } else if (SUFFIX_RE.test(suffix)) {
      if (suffix in BINARY_SUFFIX) {
        format = 'BinarySI';
        mult = BINARY_SUFFIX[suffix]!;
      } else {
        format = 'DecimalSI';
        exp10 = DECIMAL_SUFFIX[suffix]!;
      }
    } else if (/^[eEinumkKMGTP]*[-+]?[0-9]*$/.test(suffix)) {
      throw new QuantityError(text, "unable to parse quantity's suffix");
    } else {
      throw new QuantityError(
        text,
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      );
    }

    const digits = (intPart + fracPart).replace(/^0+/, '') || '0';
    if (digits.length + Math.max(0, exp10) > MAX_DIGITS) throw new QuantityError(text, 'too large');
    const n = BigInt(digits);
    // value = n * 10^(exp10 - fracLen) * mult; nanos = value * 10^9.
    const shift = 9 + exp10 - fracPart.length;
    let nanos: bigint;
    if (shift >= 0) nanos = n * mult * pow10(shift);
    else nanos = divAwayFromZero(n * mult, pow10(-shift));
    if (sign === '-') nanos = -nanos;
    // A BinarySI value strictly between -1 and 1 is switched to DecimalSI (quantity.go ParseQuantity).
    if (format === 'BinarySI' && nanos !== 0n && abs(nanos) < NANO) format = 'DecimalSI';
    return new Quantity(nanos, format);
  }

  /** Like `parse` but returns undefined for bad input. */
  static tryParse(input: unknown): Quantity | undefined {
    try {
      return Quantity.parse(input);
    } catch {
      return undefined;
    }
  }

  isZero(): boolean {
    return this.nanos === 0n;
  }

  sign(): -1 | 0 | 1 {
    return this.nanos === 0n ? 0 : this.nanos < 0n ? -1 : 1;
  }

  cmp(other: Quantity): -1 | 0 | 1 {
    return this.nanos === other.nanos ? 0 : this.nanos < other.nanos ? -1 : 1;
  }

  eq(other: Quantity): boolean {
    return this.nanos === other.nanos;
  }

  /** Sum; the result keeps the left format unless the left is zero (Quantity.Add). */
  add(other: Quantity): Quantity {
    return new Quantity(this.nanos + other.nanos, this.nanos === 0n ? other.format : this.format);
  }

  sub(other: Quantity): Quantity {
    return new Quantity(this.nanos - other.nanos, this.nanos === 0n ? other.format : this.format);
  }

  neg(): Quantity {
    return new Quantity(-this.nanos, this.format);
  }

  /** Multiplies by a whole number (replicas × per-pod request). */
  times(n: number | bigint): Quantity {
    return new Quantity(this.nanos * BigInt(n), this.format);
  }

  withFormat(format: QuantityFormat): Quantity {
    return new Quantity(this.nanos, format);
  }

  /** `MilliValue()`: ceil-away-from-zero of v·1000, as an int64 (wraps like v1.35). */
  milliValue(): bigint {
    return BigInt.asIntN(64, divAwayFromZero(this.nanos, 1_000_000n));
  }

  /** `Value()`: ceil-away-from-zero of v, as an int64 (wraps like v1.35). */
  value(): bigint {
    return BigInt.asIntN(64, divAwayFromZero(this.nanos, NANO));
  }

  /** Exact milli value without int64 wrapping (for our own arithmetic, not for mirroring projections). */
  exactMilliCeil(): bigint {
    return divAwayFromZero(this.nanos, 1_000_000n);
  }

  isInteger(): boolean {
    return this.nanos % NANO === 0n;
  }

  /** Canonical form, exactly as Kubernetes prints a quantity (docs/kubernetes-semantics.md §1.2). */
  toString(): string {
    if (this.nanos === 0n) return '0';
    if (this.format === 'BinarySI' && this.nanos % NANO === 0n) {
      let v = this.nanos / NANO;
      if (abs(v) >= 1024n) {
        let power = 0;
        while (power < 6 && v % 1024n === 0n) {
          v /= 1024n;
          power++;
        }
        return `${v}${BINARY_SUFFIX_BY_POWER[power]}`;
      }
    }
    // Decimal: v = m * 10^e with m free of trailing zeros (value is nanos * 10^-9).
    let m = this.nanos;
    let e = -9;
    while (m % 10n === 0n) {
      m /= 10n;
      e++;
    }
    // Round the exponent down to a multiple of 3, growing the mantissa; never emit a fraction.
    while (((e % 3) + 3) % 3 !== 0) {
      m *= 10n;
      e--;
    }
    if (this.format === 'DecimalExponent') return e === 0 ? `${m}` : `${m}e${e}`;
    if (e > 18) {
      m *= pow10(e - 18);
      e = 18;
    }
    return `${m}${DECIMAL_SUFFIX_BY_EXP.get(e) ?? ''}`;
  }

  toJSON(): string {
    return this.toString();
  }
}

/** `q` parsed, or a thrown QuantityError; shorthand for tests and builders. */
export function qty(text: string | number): Quantity {
  return Quantity.parse(text);
}

/** A resource name → quantity map (core/v1 ResourceList). */
export type ResourceList = Map<string, Quantity>;

export function resourceList(entries?: Record<string, unknown> | null): ResourceList {
  const out: ResourceList = new Map();
  if (!entries) return out;
  for (const [k, v] of Object.entries(entries)) out.set(k, Quantity.parse(v));
  return out;
}

/** Per key sum over keys of either list (quota.Add / resource helpers addResourceList). */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    out.set(k, cur ? cur.add(v) : v);
  }
  return out;
}

/** Per key a − b over keys of either list (missing = 0). */
export function subtractLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    out.set(k, cur ? cur.sub(v) : Quantity.zero(v.format).sub(v));
  }
  return out;
}

/** Per key maximum; ties keep the existing value (maxResourceList). */
export function maxLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) {
    const cur = out.get(k);
    if (!cur || v.cmp(cur) > 0) out.set(k, v);
  }
  return out;
}

export function listToRecord(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [...list.keys()].sort()) out[k] = list.get(k)!.toString();
  return out;
}

/** `name=value` pairs sorted by name, joined by "," (quota messages). */
export function formatPairs(list: ResourceList): string {
  return [...list.keys()]
    .sort(byteCompare)
    .map((k) => `${k}=${list.get(k)!.toString()}`)
    .join(',');
}

/** Byte-order string comparison, as Go's sort.Strings. */
export function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
