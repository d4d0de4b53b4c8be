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

/** Largest k with 2^k ≤ n (n ≥ 1), capped at {@link NO_FRACTION_BINADE}. */
function binadeOf(n: bigint): number {
  if (n >= NO_FRACTION_POWER) return NO_FRACTION_BINADE;
  // below 2^52 the double is exact and so are its two 32-bit halves (no string per call: it is called per digit)
  const value = Number(n);
  const high = Math.floor(value / 2 ** 32);
  return high > 0 ? 63 - Math.clz32(high) : 31 - Math.clz32(value);
}
const NO_FRACTION_POWER = 2n ** BigInt(NO_FRACTION_BINADE);

/**
 * The leading digit of an exponent's mantissa as its states keep it: it matters only for `e-324`, which needs 3 or
 * more, so the digits on either side of 3 share their states (a third of the automaton's states, before).
 */
function leadingClass(digit: string): string {
  return Number(digit) >= 3 ? '3' : '1';
}

/**
 * The state of an integer part read so far: the binade each final length would give when the prefix decides it,
 * else the prefix itself (two prefixes of one length straddling the same power of two cannot both exist).
 */
function integerKey(prefix: string): string {
  if (prefix.length === 1) return `I|${prefix}`;
  const value = BigInt(prefix);
  const binades: number[] = [];
  for (let length = prefix.length; length <= MAX_INTEGER_DIGITS; length++) {
    const scale = 10n ** BigInt(length - prefix.length);
    const low = binadeOf(value * scale);
    if (low !== binadeOf((value + 1n) * scale - 1n)) return `I|${prefix}`;
    binades.push(low);
  }
  return `I|${prefix.length}|${binades.join(',')}`;
}

/** The automaton of number texts that parse to a non-integer double (a few thousand states: `GrammarCache.fractionalNumbers` keeps it). */
export function fractionalNumberAutomaton(): NumberAutomaton {
  const { keys, intern } = stateKeys();
  /** For integer states: a prefix that reaches the state. */
  const prefixes = new Map<string, string>();
  const integerState = (prefix: string): number | undefined => {
    if (prefix.length > MAX_INTEGER_DIGITS) return undefined;
    const key = integerKey(prefix);
    if (!prefixes.has(key)) prefixes.set(key, prefix);
    return intern(key);
  };
  /**
   * Fraction state: `F|binade|position|above|below|mantissa`, `above`/`below` `=` while the digits equal the bound's so
   * far (position counts them) and `>`/`<` once decided; `mantissa` is `d<digit>c<count>` while an exponent may follow.
   */
  const fractionState = (binade: number, position: number, above: string, below: string, mantissa: string): number => {
    const open = above === '=' || below === '=';
    return intern(`F|${binade}|${open ? position : '-'}|${above}|${below}|${mantissa}`);
  };
  intern('S');
  intern('N');
  const trimmed = exploreNumberStates(keys, (key, row) => {
    let accept = false;
    const parts = key.split('|');
    switch (parts[0]) {
      case 'S':
      case 'N':
        if (key === 'S') row[MINUS] = intern('N');
        row[0] = intern('Z');
        for (let digit = 1; digit <= 9; digit++) row[digit] = integerState(String(digit))!;
        break;
      case 'Z':
        row[DOT] = fractionState(-1, 0, '=', '=', '');
        break;
      case 'I': {
        const prefix = prefixes.get(key)!;
        for (let digit = 0; digit <= 9; digit++) {
          const target = integerState(prefix + String(digit));
          if (target !== undefined) row[digit] = target;
        }
        const binade = binadeOf(BigInt(prefix));
        if (binade < NO_FRACTION_BINADE) row[DOT] = fractionState(binade, 0, '=', '=', prefix.length === 1 ? `d${leadingClass(prefix)}c0` : '');
        if (prefix.length === 1) row[EXP] = intern(`E|${leadingClass(prefix)}`);
        break;
      }
      case 'F': {
        const binade = Number(parts[1]);
        const position = parts[2] === '-' ? 0 : Number(parts[2]);
        const [above, below, mantissa] = [parts[3]!, parts[4]!, parts[5]!];
        const bounds = fractionBounds(binade);
        // equal to a prefix of the upper bound is below it (its last digit, 5, is not read yet); equal to the lower bound's prefix is not above it
        accept = (position > 0 || parts[2] === '-') && above === '>' && (below === '<' || (below === '=' && position < bounds.below.length));
        for (let digit = 0; digit <= 9; digit++) {
          let nextAbove = above;
          if (above === '=') {
            const boundDigit = Number(bounds.above[position] ?? '0');
            // below the lower bound: the double is the integer part itself, whatever follows
            if (digit < boundDigit) continue;
            if (digit > boundDigit) nextAbove = '>';
          }
          let nextBelow = below;
          if (below === '=') {
            const boundDigit = Number(bounds.below[position] ?? '0');
            // at or past the upper bound: the double is the next integer
            if (digit > boundDigit) continue;
            if (digit < boundDigit) nextBelow = '<';
          }
          let nextMantissa = '';
          if (mantissa !== '') {
            const count = Number(mantissa.slice(mantissa.indexOf('c') + 1)) + 1;
            if (count <= MAX_EXPONENT_MANTISSA_FRACTION_DIGITS) nextMantissa = `${mantissa.slice(0, mantissa.indexOf('c'))}c${count}`;
          }
          // past both bounds' digits they read as zeros: one position stands for all later ones
          row[digit] = fractionState(binade, Math.min(position + 1, Math.max(bounds.above.length, bounds.below.length)), nextAbove, nextBelow, nextMantissa);
        }
        if (mantissa !== '' && (position > 0 || parts[2] === '-')) row[EXP] = intern(`E|${mantissa.slice(1, mantissa.indexOf('c'))}`);
        break;
      }
      case 'E':
        row[MINUS] = intern(`X|${parts[1]}|`);
        break;
      case 'X': {
        const leading = Number(parts[1]);
        const digits = parts[2]!;
        const value = digits === '' ? 0 : Number(digits);
        accept = (value >= 7 && value <= 323) || (value === 324 && leading >= 3);
        if (digits.length < 3) {
          for (let digit = digits === '' ? 1 : 0; digit <= 9; digit++) row[digit] = intern(`X|${parts[1]}|${digits}${digit}`);
        }
        break;
      }
    }
    return accept;
  });
  if (trimmed === null) throw new Error('the non-integer language has no accepting path');
  return trimmed;
}
