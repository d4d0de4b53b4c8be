/**
 * `multipleOf` by a decimal unit (`0.01`, `0.1`, `0.05`, `0.001`…) on a range too wide to list its multiples: Ajv's
 * floating-point test has no decimal pattern there (`0.07 / 0.01` is 7.000000000000001, so 0.07 fails), so the automaton
 * offers a regular superset and the matcher checks Ajv's own test on each number as it is written (`written-numbers.ts`).
 *
 * The language offered (a narrowing of what Ajv accepts): plain decimals (no exponent) that are exact decimal multiples
 * of `m` (so at most as many significant fraction digits as `m` has, trailing zeros allowed), within the range cut to
 * `|value| < 2^53 / 10^k` (`k` the fraction digits of `m`), where the scaled text `N = value · 10^k` is an exact double
 * and `N / 10^k` is the very double `Number(text)` reads (one correctly rounded division of exact operands).
 *
 * What makes the run-time check exact and free of dead ends, proved here once per divisor and range:
 * - every integer in the range passes Ajv's test: `m = 1 / r` for an integer `r` with an odd factor, and the double `m`
 *   is close enough to `1 / r` (`|1 / (r · m) − 1| ≤ 2^−54`) that `n / m` rounds to the integer `n · r` below 2^53
 *   (`integersPass`); so a prefix without a point goes on: the integer part of a value in the range, cut toward 0, is in
 *   the range too, except where the range starts past it (checked next);
 * - where it is not (`0` under `exclusiveMinimum: 0` or `minimum: 0.5`, `-2` under `maximum: -2.5`, `-0` below 0), the
 *   plan checks that a fraction after that integer part passes;
 * - after the point the completions that change the value are the at most `10^k` fraction digits left, tried in order
 *   until one passes (`liveAfterPoint`), judged in the range as the range automaton judges them.
 * For a decimal `c / 10^k` that is not `1 / r` (`0.03`: 3 / 100) the offered multiples are those of `c` scaled, and the
 * first fact fails (an integer part that is no multiple, `10` under `0.3`, goes on only through a fraction whose pass
 * depends on its rounding), so on a bounded range every integer part is tried instead, with the fractions after it.
 * `0.00001` is `1 / r`, but its double is more than 2^−54 from `1 / 100000`: 1, 2, 4, 5 and 8 fail Ajv's test; it
 * would need 100,000 fractions tried per integer part, past that budget, and stays refused.
 * @module
 */
import { DEFAULT_DECODING_LIMITS } from './decoding-limits.js';
import { stepDouble, toDecimal } from './number-language.js';

/** What the matcher checks for one number alternative: Ajv's test by `divisor` and the range, scaled by `10^scale`. */
export interface DecimalMultipleCheck {
  readonly divisor: number;
  /** Fraction digits of the divisor (`k`), and the divisor scaled by `10^k` (`c`: 0.05 is 5 / 10^2). */
  readonly scale: number;
  readonly modulus: number;
  /** The range's bounds as the range automaton takes them, times `10^k` and rounded inward (inclusive integers, or ±Infinity). */
  readonly lowScaled: number;
  readonly highScaled: number;
  /** Where the `multipleOf` is (a refusal beside other run-time memories names it). */
  readonly pointer: string;
}

/** The bounds of a range as the lowering keeps them. */
export interface DecimalRange {
  readonly integer: boolean;
  readonly minimum: number;
  readonly exclusiveMinimum: boolean;
  readonly maximum: number;
  readonly exclusiveMaximum: boolean;
}

export type DecimalMultiplePlan =
  { readonly kind: 'checked'; readonly range: DecimalRange; readonly check: DecimalMultipleCheck } | { readonly kind: 'unsupported'; readonly reason: string };

/**
 * The checked plan for `multipleOf: divisor` on `range`, or why there is none: for `divisor = 1 / r` with an integer
 * `r` (`0.01`, `0.05`, `0.2`) whose double passes `integersPass`, where a value's integer part leaves the range some
 * fraction after it must pass; for any other decimal (`0.03`, `0.3`, `0.15`: scaled modulus at most `maxModulus`, at
 * most 1,000 fractions per integer part) every integer part of a bounded range is tried (`deadIntegerPart`).
 */
export function planDecimalMultiple(
  range: DecimalRange,
  divisor: number,
  pointer: string,
  maxModulus = DEFAULT_DECODING_LIMITS.multipleOfMaxModulus,
): DecimalMultiplePlan {
  const { magnitude } = toDecimal(divisor);
  const scale = magnitude.frac.length;
  const modulus = Number(magnitude.int + magnitude.frac);
  if (!(divisor > 0) || scale === 0 || scale > 15) return { kind: 'unsupported', reason: `${divisor} is no decimal fraction` };
  // integers past the cut still pass Ajv's test (up to 1e21 · m): cutting an integer range there would reject more than it offers
  if (range.integer) return { kind: 'unsupported', reason: 'on integers the cut to ±2^53 / 10^k would drop integers Ajv accepts' };
  // every integer passes: a prefix before the point goes on (else each integer part is tried, on a bounded range)
  const integersGoOn = 10 ** scale % modulus === 0 && integersPass(divisor, 10 ** scale / modulus);
  if (!integersGoOn && (modulus > maxModulus || 10 ** scale / modulus > MAX_TRIES_PER_INTEGER_PART)) {
    return { kind: 'unsupported', reason: `${divisor} scales to ${modulus} / 10^${scale}, too fine to try each integer part's fractions` };
  }
  // |N| = |value| · 10^k stays below 2^53: the integer part below `limit`, with any fraction (an inclusive integer
  // bound, which the range automaton compares exactly)
  const limit = Math.floor(2 ** 53 / 10 ** scale);
  const cut: DecimalRange = {
    integer: range.integer,
    ...(range.minimum <= -limit ? { minimum: -(limit - 1), exclusiveMinimum: false } : { minimum: range.minimum, exclusiveMinimum: range.exclusiveMinimum }),
    ...(range.maximum >= limit ? { maximum: limit - 1, exclusiveMaximum: false } : { maximum: range.maximum, exclusiveMaximum: range.exclusiveMaximum }),
  };
  // the range automaton takes an exclusive bound as the neighbouring double, inclusive, and compares texts as exact
  // decimals with its shortest decimal (`9246.9`, not the double's exact 9246.8999…): the same bounds, scaled exactly,
  // judge a completion as it would
  const low = cut.exclusiveMinimum ? stepDouble(cut.minimum, 1) : cut.minimum;
  const high = cut.exclusiveMaximum ? stepDouble(cut.maximum, -1) : cut.maximum;
  const check: DecimalMultipleCheck = {
    divisor,
    scale,
    modulus,
    lowScaled: scaledBound(low, scale, 'ceil'),
    highScaled: scaledBound(high, scale, 'floor'),
    pointer,
  };
  if (!integersGoOn) {
    const dead = deadIntegerPart(check);
    if (dead === undefined) return { kind: 'checked', range: cut, check };
    return {
      kind: 'unsupported',
      reason:
        dead === 'wide'
          ? `not every integer passes Ajv's test for ${divisor}, and the range has over ${MAX_INTEGER_PARTS} integer parts to try; bound it closer`
          : `no multiple of ${divisor} with the integer part ${dead} in the range passes Ajv's quotient test`,
    };
  }
  // where the integer part of a value is out of the range (`0` above 0.5 or above an exclusive 0, `-2` below -2.5,
  // `-0` below 0), it goes on only with a point and a fraction: one must pass
  const edges: [boolean, number][] = [];
  if (low > 0 && !Number.isInteger(low)) edges.push([false, Math.floor(low)]);
  if (high < 0 && !Number.isInteger(high)) edges.push([true, Math.floor(-high)]);
  if (low < 0 && high > -1) edges.push([true, 0]);
  for (const [negative, intPart] of edges) {
    if (!liveAfterPoint(check, negative, intPart, 0, 0)) {
      return {
        kind: 'unsupported',
        reason: `no multiple of ${divisor} with the integer part ${negative ? '-' : ''}${intPart} in the range passes Ajv's quotient test`,
      };
    }
  }
  return { kind: 'checked', range: cut, check };
}

/** The integer parts tried one by one where not every integer passes, and the fractions tried after each. */
const MAX_INTEGER_PARTS = 131_072;
const MAX_TRIES_PER_INTEGER_PART = 1_000;

/**
 * Where not every integer passes Ajv's test (`0.03`, `0.3`, `1.1`; the double `0.00001`), a prefix before the point
 * goes on when the integer part it grows into can be completed: on a range with at most 131,072 integer parts, each
 * (sign and digits) is tried with every fraction after it that is an exact multiple in the range, as `liveAfterPoint`
 * tries them after the point. Returns the first integer part with none (`-2`), `undefined` when each has one, or
 * `wide` past the budget. An integer part with no value in the range is never written.
 */
function deadIntegerPart(check: DecimalMultipleCheck): string | undefined {
  const { lowScaled, highScaled } = check;
  const unit = 10 ** check.scale;
  if (!Number.isFinite(lowScaled) || !Number.isFinite(highScaled)) return 'wide';
  // `[-]n.f` spans the scaled values n · unit to n · unit + unit − 1 (negated for `-`)
  const firstPositive = lowScaled > 0 ? Math.floor(lowScaled / unit) : 0;
  const lastPositive = highScaled >= 0 ? Math.floor(highScaled / unit) : -1;
  const firstNegative = highScaled < 0 ? Math.floor(-highScaled / unit) : 0;
  const lastNegative = lowScaled < 0 ? Math.floor(-lowScaled / unit) : -1;
  if (Math.max(0, lastPositive - firstPositive + 1) + Math.max(0, lastNegative - firstNegative + 1) > MAX_INTEGER_PARTS) return 'wide';
  for (let intPart = firstPositive; intPart <= lastPositive; intPart++) {
    if (!liveAfterPoint(check, false, intPart, 0, 0) && offersIntegerPart(check, false, intPart)) return String(intPart);
  }
  for (let intPart = firstNegative; intPart <= lastNegative; intPart++) {
    if (!liveAfterPoint(check, true, intPart, 0, 0) && offersIntegerPart(check, true, intPart)) return `-${intPart}`;
  }
  return undefined;
}

/**
 * Whether some exact multiple in the range has this integer part: only then can the automaton write a prefix that
 * grows into it (`100000` under `0.3` on [0, 100000] is no multiple and nothing above it is in the range).
 */
function offersIntegerPart(check: DecimalMultipleCheck, negative: boolean, intPart: number): boolean {
  const { scale, modulus } = check;
  for (let scaled = owedFraction(check, intPart); scaled < 10 ** scale; scaled += modulus) if (inScaledRange(check, negative, intPart, scaled)) return true;
  return false;
}

/**
 * The shortest decimal of `bound` (the range automaton's bound) times `10^scale`, rounded up (`ceil`) or down to an
 * integer, exactly (±Infinity kept).
 */
function scaledBound(bound: number, scale: number, rounding: 'ceil' | 'floor'): number {
  if (!Number.isFinite(bound)) return bound;
  const { negative, magnitude } = toDecimal(bound);
  const digits = BigInt(magnitude.int + magnitude.frac);
  const numerator = negative ? -digits : digits;
  const denominator = 10n ** BigInt(magnitude.frac.length);
  const scaled = numerator * 10n ** BigInt(scale);
  const quotient = scaled / denominator;
  // BigInt division truncates toward zero
  const remainder = scaled % denominator;
  if (remainder === 0n) return Number(quotient);
  if (rounding === 'ceil') return Number(scaled > 0n ? quotient + 1n : quotient);
  return Number(scaled > 0n ? quotient : quotient - 1n);
}

/** The double `value` as `numerator / denominator` exactly (a power-of-two denominator). */
export function exactFraction(value: number): { numerator: bigint; denominator: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(value));
  const bits = view.getBigUint64(0);
  const exponentBits = Number(bits >> 52n);
  const mantissa = exponentBits === 0 ? bits & 0xfffffffffffffn : (bits & 0xfffffffffffffn) | (1n << 52n);
  const shift = 1075 - Math.max(exponentBits, 1);
  const numerator = value < 0 ? -mantissa : mantissa;
  return shift >= 0 ? { numerator, denominator: 1n << BigInt(shift) } : { numerator: numerator << BigInt(-shift), denominator: 1n };
}

/**
 * True when, for every integer `n` with `|n · r| < 2^53`, the double `n / divisor` is exactly `n · r` (so Ajv accepts
 * `n`): with `η = 1 / (r · m) − 1` for the double `m`, `n / m = n · r · (1 + η)`, within half an ulp of `n · r` when
 * `|η| ≤ 2^−54` (`n · r` is no power of two when `r` has an odd factor). Decided exactly on the bits of `m`.
 */
export function integersPass(divisor: number, reciprocal: number): boolean {
  if (!Number.isSafeInteger(reciprocal) || (reciprocal & (reciprocal - 1)) === 0) return false;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, divisor);
  const bits = view.getBigUint64(0);
  const exponentBits = Number((bits >> 52n) & 0x7ffn);
  if (exponentBits === 0) return false;
  // m = mantissa · 2^−shift exactly
  const mantissa = (bits & 0xfffffffffffffn) | (1n << 52n);
  const shift = BigInt(1075 - exponentBits);
  if (shift <= 0n) return false;
  const product = BigInt(reciprocal) * mantissa;
  // |1 − r·m| ≤ 2^−54 · r·m, times 2^shift
  const gap = (1n << shift) - product;
  return (gap < 0n ? -gap : gap) << 54n <= product;
}

/** Ajv's test on the text `[-]intPart.fraction` (fraction given as `scaled`, its digits times 10^k): `d / m` is an integer. */
export function passesScaled(check: DecimalMultipleCheck, intPart: number, scaled: number): boolean {
  const value = (intPart * 10 ** check.scale + scaled) / 10 ** check.scale;
  // Ajv writes `q !== parseInt(q)`: below 1e21 (|q| < 2^53 here) that is Number.isInteger, without a string
  return Number.isInteger(value / check.divisor);
}

/** True when the signed scaled value of `[-]intPart.fraction` lies in the check's range. */
export function inScaledRange(check: DecimalMultipleCheck, negative: boolean, intPart: number, scaled: number): boolean {
  const magnitude = intPart * 10 ** check.scale + scaled;
  const value = negative ? -magnitude : magnitude;
  return value >= check.lowScaled && value <= check.highScaled;
}

/**
 * The scaled fraction below the modulus that makes `intPart · 10^k + fraction` a multiple of it (0 where the modulus
 * divides 10^k); the remainders multiplied stay far below 2^53 (a modulus of at most 10,000, or 10^k's remainder 0).
 */
function owedFraction({ scale, modulus }: DecimalMultipleCheck, intPart: number): number {
  const carry = 10 ** scale % modulus;
  return carry === 0 ? 0 : (modulus - (((intPart % modulus) * carry) % modulus)) % modulus;
}

/**
 * After the point: whether some completion of `[-]intPart.` and `digits` fraction digits whose value is `fraction` (the
 * digits as an integer) is an exact multiple, in the range and passes Ajv's test. Past `k` digits only zeros are offered,
 * so the value is the text's own.
 */
export function liveAfterPoint(check: DecimalMultipleCheck, negative: boolean, intPart: number, fraction: number, digits: number): boolean {
  const { scale, modulus } = check;
  if (digits >= scale) {
    const scaled = fraction / 10 ** (digits - scale);
    return passesScaled(check, intPart, scaled) && inScaledRange(check, negative, intPart, scaled);
  }
  const span = 10 ** (scale - digits);
  const first = fraction * span;
  const owed = owedFraction(check, intPart);
  for (let scaled = Math.ceil((first - owed) / modulus) * modulus + owed; scaled < first + span; scaled += modulus) {
    if (passesScaled(check, intPart, scaled) && inScaledRange(check, negative, intPart, scaled)) return true;
  }
  return false;
}
