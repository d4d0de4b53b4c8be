/**
 * JSON number texts whose double is not an integer: the complement of `type: "integer"`
 * among numbers, as Ajv tests it (`x % 1 !== 0` on the parsed double). A decimal with a
 * fraction can still parse to an integer (`1.0000000000000001` is 1), but only within half
 * an ulp of one, and the ulp is fixed per binade: for an integer part `n` in
 * [2^k, 2^(k+1)) (k ≤ 51) the double is an integer exactly when the fraction is at most
 * 2^(k−53) or at least 1 − 2^(k−53) (ties go to the even neighbour, which is the
 * integer); at 2^52 and above every double is an integer; below 1 the fraction must lie
 * strictly between 2^−1075 (half the least subnormal: smaller rounds to 0) and 1 − 2^−54.
 * Those bounds are finite decimals, so a digit-by-digit comparator decides each binade,
 * and the integer digits decide the binade: a regular language, built here as a
 * {@link NumberAutomaton}.
 *
 * Exponent texts are accepted only in the form `JSON.stringify` writes non-integers below
 * 10^−6 (`1.5e-7`, `5e-324`): one non-zero digit, at most 16 fraction digits, `e-7` to
 * `e-323` (`e-324` after a digit of at least 3: smaller rounds to 0). Every such text lies
 * in (2^−1075, 10^−6), so it parses to a non-integer; other exponent texts (`1e-400`, `1.5e+3`)
 * are not offered. Every non-integer double's `JSON.stringify` text and plain decimal is
 * accepted.
 * @module
 */
import { DOT, EXP, MINUS, type NumberAutomaton, exploreNumberStates, stateKeys } from './number-language.js';

/** Integers at or above 2^52 have no fractional doubles; a 17-digit integer part is past it. */
const NO_FRACTION_BINADE = 52;
const MAX_INTEGER_DIGITS = 16;
const MAX_EXPONENT_MANTISSA_FRACTION_DIGITS = 16;

/** Digits after the point of 2^−n, exactly (5^n / 10^n): n digits. */
function halfPowerDigits(n: number): string {
  return (5n ** BigInt(n)).toString().padStart(n, '0');
}

/** Digits after the point of 1 − 2^−n, exactly: n digits. */
function oneMinusHalfPowerDigits(n: number): string {
  return (10n ** BigInt(n) - 5n ** BigInt(n)).toString().padStart(n, '0');
}

/**
 * The fraction bounds (exclusive) of integer part binade `k` (−1: the integer part is 0), as digit strings after the point.
 * Every fraction state reads them: written out once per binade, not once per state (2^−1075 has 1,075 digits).
 */
function fractionBounds(binade: number): { above: string; below: string } {
  let bounds = boundsByBinade.get(binade);
  if (bounds === undefined) {
    bounds =
      binade < 0
        ? { above: halfPowerDigits(1075), below: oneMinusHalfPowerDigits(54) }
        : { above: halfPowerDigits(53 - binade), below: oneMinusHalfPowerDigits(53 - binade) };
    boundsByBinade.set(binade, bounds);
  }
  return bounds;
}
const boundsByBinade = new Map<number, { above: string; below: string }>();

/** Largest k with 2^k ≤ n (n ≥ 1, an integer), capped at {@link NO_FRACTION_BINADE}. */
function binadeOf(n: number): number {
  // a double at or past 2^52 is so whether or not it was rounded (rounding keeps order); below it, `n` is exact, and so
  // are its two 32-bit halves (no BigInt or string per call: it is called per digit of every integer state)
  if (n >= NO_FRACTION_POWER) return NO_FRACTION_BINADE;
  const high = Math.floor(n / 2 ** 32);
  return high > 0 ? 63 - Math.clz32(high) : 31 - Math.clz32(n);
}
const NO_FRACTION_POWER = 2 ** NO_FRACTION_BINADE;

/**
 * The leading digit of an exponent's mantissa as its states keep it: it matters only for `e-324`, which needs 3 or
 * more, so the digits on either side of 3 share their states (a third of the automaton's states, before).
 */
function leadingClass(digit: number): 1 | 3 {
  return digit >= 3 ? 3 : 1;
}

/**
 * The state of an integer part read so far: the binade each final length would give when the prefix decides it,
 * else the prefix itself (two prefixes of one length straddling the same power of two cannot both exist).
 */
function integerKey(prefix: string): string {
  if (prefix.length === 1) return `I|${prefix}`;
  // at most 16 digits, a leading one not 0: `(value + 1) * scale` is exact in a double whenever `value * scale` lies
  // below 2^52 (it is then below 1.1 · 2^52), and at or past 2^52 both ends of the range are in the last binade
  const value = Number(prefix);
  const binades: number[] = [];
  for (let length = prefix.length, scale = 1; length <= MAX_INTEGER_DIGITS; length++, scale *= 10) {
    const low = binadeOf(value * scale);
    if (low !== binadeOf((value + 1) * scale - 1)) return `I|${prefix}`;
    binades.push(low);
  }
  return `I|${prefix.length}|${binades.join(',')}`;
}

/**
 * The states other than the integer part's (keyed by {@link integerKey}'s strings), as small integers: no string is
 * built per transition. A fraction's state packs its binade, the position in the bounds' digits (`UNKNOWN_POSITION` once
 * both comparisons are decided), whether it is past the lower bound and below the upper one, and its mantissa (0 when
 * no exponent may follow, else the leading digit's class and the fraction digits counted); an exponent's digits state
 * packs the leading class and the value read (0: none yet).
 */
const START = 0;
const NEGATIVE = 1;
const LONE_ZERO = 2;
const EXPONENT_MARK = 3;
const EXPONENT_DIGITS = 8;
const FRACTION = 4096;
const UNKNOWN_POSITION = 2047;
const NO_MANTISSA = 0;
/** Mantissa codes: `1 + count` after a leading digit below 3, `HIGH_LEADING_MANTISSA + count` after one of 3 or more. */
const HIGH_LEADING_MANTISSA = 1 + MAX_EXPONENT_MANTISSA_FRACTION_DIGITS + 1;

const exponentMarkKey = (leading: 1 | 3): number => EXPONENT_MARK + (leading === 3 ? 1 : 0);
const exponentDigitsKey = (leading: number, value: number): number => EXPONENT_DIGITS + (leading === 3 ? 1024 : 0) + value;

/** The automaton of number texts that parse to a non-integer double (a few thousand states: `GrammarCache.fractionalNumbers` keeps it). */
export function fractionalNumberAutomaton(): NumberAutomaton {
  const { keys, intern } = stateKeys<string | number>();
  /** For integer states: a prefix that reaches the state. */
  const prefixes = new Map<string, string>();
  const integerState = (prefix: string): number | undefined => {
    if (prefix.length > MAX_INTEGER_DIGITS) return undefined;
    const key = integerKey(prefix);
    if (!prefixes.has(key)) prefixes.set(key, prefix);
    return intern(key);
  };
  /** A fraction's state: `above`/`below` false while the digits equal the bound's so far (position counts them), true once past it. */
  const fractionState = (binade: number, position: number, above: boolean, below: boolean, mantissa: number): number => {
    const open = !above || !below;
    return intern(FRACTION + (((((binade + 1) * 2048 + (open ? position : UNKNOWN_POSITION)) * 2 + Number(above)) * 2 + Number(below)) * 64 + mantissa));
  };
  intern(START);
  intern(NEGATIVE);
  const trimmed = exploreNumberStates(keys, (key, row) => {
    if (typeof key === 'string') {
      const prefix = prefixes.get(key)!;
      for (let digit = 0; digit <= 9; digit++) {
        const target = integerState(prefix + String(digit));
        if (target !== undefined) row[digit] = target;
      }
      const binade = binadeOf(Number(prefix));
      const leading = leadingClass(prefix.charCodeAt(0) - 48);
      if (binade < NO_FRACTION_BINADE)
        row[DOT] = fractionState(binade, 0, false, false, prefix.length === 1 ? (leading === 3 ? HIGH_LEADING_MANTISSA : 1) : NO_MANTISSA);
      if (prefix.length === 1) row[EXP] = intern(exponentMarkKey(leading));
      return false;
    }
    if (key === START || key === NEGATIVE) {
      if (key === START) row[MINUS] = intern(NEGATIVE);
      row[0] = intern(LONE_ZERO);
      for (let digit = 1; digit <= 9; digit++) row[digit] = integerState(String(digit))!;
      return false;
    }
    if (key === LONE_ZERO) {
      row[DOT] = fractionState(-1, 0, false, false, NO_MANTISSA);
      return false;
    }
    if (key < EXPONENT_DIGITS) {
      row[MINUS] = intern(exponentDigitsKey(key === EXPONENT_MARK ? 1 : 3, 0));
      return false;
    }
    if (key < FRACTION) {
      const leading = key - EXPONENT_DIGITS >= 1024 ? 3 : 1;
      const value = (key - EXPONENT_DIGITS) % 1024;
      if (value < 100) for (let digit = value === 0 ? 1 : 0; digit <= 9; digit++) row[digit] = intern(exponentDigitsKey(leading, value * 10 + digit));
      return (value >= 7 && value <= 323) || (value === 324 && leading >= 3);
    }
    const packed = key - FRACTION;
    const mantissa = packed % 64;
    const below = ((packed >> 6) & 1) === 1;
    const above = ((packed >> 7) & 1) === 1;
    const positionCode = (packed >> 8) % 2048;
    const binade = Math.floor((packed >> 8) / 2048) - 1;
    const position = positionCode === UNKNOWN_POSITION ? 0 : positionCode;
    const decided = positionCode === UNKNOWN_POSITION;
    const bounds = fractionBounds(binade);
    for (let digit = 0; digit <= 9; digit++) {
      let nextAbove = above;
      if (!above) {
        const boundDigit = position < bounds.above.length ? bounds.above.charCodeAt(position) - 48 : 0;
        // below the lower bound: the double is the integer part itself, whatever follows
        if (digit < boundDigit) continue;
        if (digit > boundDigit) nextAbove = true;
      }
      let nextBelow = below;
      if (!below) {
        const boundDigit = position < bounds.below.length ? bounds.below.charCodeAt(position) - 48 : 0;
        // at or past the upper bound: the double is the next integer
        if (digit > boundDigit) continue;
        if (digit < boundDigit) nextBelow = true;
      }
      // one more fraction digit counted, up to the most an exponent's mantissa may have
      const counted = mantissa === NO_MANTISSA ? -1 : (mantissa >= HIGH_LEADING_MANTISSA ? mantissa - HIGH_LEADING_MANTISSA : mantissa - 1) + 1;
      const nextMantissa = counted < 0 || counted > MAX_EXPONENT_MANTISSA_FRACTION_DIGITS ? NO_MANTISSA : mantissa + 1;
      // past both bounds' digits they read as zeros: one position stands for all later ones
      row[digit] = fractionState(binade, Math.min(position + 1, Math.max(bounds.above.length, bounds.below.length)), nextAbove, nextBelow, nextMantissa);
    }
    if (mantissa !== NO_MANTISSA && (position > 0 || decided)) row[EXP] = intern(exponentMarkKey(mantissa >= HIGH_LEADING_MANTISSA ? 3 : 1));
    // equal to a prefix of the upper bound is below it (its last digit, 5, is not read yet); equal to the lower bound's prefix is not above it
    return (position > 0 || decided) && above && (below || position < bounds.below.length);
  });
  if (trimmed === null) throw new Error('the non-integer language has no accepting path');
  return trimmed;
}
