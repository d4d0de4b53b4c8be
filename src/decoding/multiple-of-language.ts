/**
 * `multipleOf` as the registry's Ajv decides it: Ajv (without `multipleOfPrecision`) accepts a
 * number `d` when the floating-point quotient `d / m` is an integer that `parseInt` reads back,
 * so `0.07` is not a multiple of `0.01` (0.07 / 0.01 is 7.000000000000001) and nothing at or
 * beyond 1e21 · m is a multiple of anything. Two exact constructions follow that rule:
 *
 * - a remainder automaton over the scaled decimal, where the float quotient provably equals
 *   exact decimal divisibility: `m` is an integer and every value lies below 2^53, or `m` is a
 *   binary fraction (0.5, 0.25, 0.125…) whose multiples keep 15 significant digits or fewer
 *   (so each valid double's shortest text is its exact decimal); `m = 1` is an integer below
 *   1e21, whatever the range;
 * - otherwise, when the interval holds few multiples, the list of the doubles Ajv accepts,
 *   found by testing Ajv's predicate on the doubles around each `k · m`.
 *
 * A range of the first kind that reaches past those bounds (and holds too many multiples to list)
 * is cut to them: the mask is then stricter than Ajv, which beyond them also accepts values by
 * rounding. Anything else (e.g. `0.01` on an unbounded number: Ajv's accepted set follows float
 * rounding everywhere) is refused by the caller with the reason returned here.
 * @module
 */
import { DEFAULT_DECODING_LIMITS, type DecodingLimits } from './decoding-limits.js';
import { exactFraction } from './decimal-multiples.js';
import { NUMBER_SYMBOLS, NumberAutomaton, NumberRows, toDecimal } from './number-language.js';

/** The budgets a `multipleOf` plan works within: the multiples listed one by one, and the largest scaled modulus. */
export type MultipleOfLimits = Pick<DecodingLimits, 'multipleOfMaxValues' | 'multipleOfMaxModulus'>;

const MINUS = 10;
const DOT = 11;
/** The largest double below 1e21: Ajv's `parseInt(String(q))` reads 1e21 and above as 1. */
const BELOW_1E21 = 999_999_999_999_999_868_928;

/** Ajv's own test, verbatim in meaning: `d / m` is an integer that `parseInt` reads back. */
export function ajvMultipleOf(value: number, divisor: number): boolean {
  const quotient = value / divisor;
  return quotient === Number.parseInt(String(quotient), 10);
}

/**
 * A decimal multiple of `divisor` that Ajv's test rejects, for the refusal's message: the first of its first 1,000
 * multiples written to 15 significant digits (`0.3 / 0.1 is 2.9999999999999996: 0.3 fails`).
 */
export function roundingExample(divisor: number): string {
  for (let count = 2; count <= 1000; count++) {
    const multiple = Number((count * divisor).toPrecision(15));
    if (!ajvMultipleOf(multiple, divisor)) return `${multiple} / ${divisor} is ${multiple / divisor}: ${multiple} fails`;
  }
  return 'its multiples are exact only by chance';
}

/** The interval a number alternative already has, as the lowering keeps it. */
export interface NumberRange {
  readonly integer: boolean;
  readonly minimum: number;
  readonly exclusiveMinimum: boolean;
  readonly maximum: number;
  readonly exclusiveMaximum: boolean;
}

export type MultipleOfPlan =
  /**
   * Intersect the range's automaton (with these tightened bounds) with remainder automata. `narrowedTo`: the range
   * reached past the bound where Ajv's float test is exact and was cut to (−narrowedTo, narrowedTo).
   */
  | { readonly kind: 'automaton'; readonly range: NumberRange; readonly moduli: readonly ScaledModulus[]; readonly narrowedTo?: number }
  /** Exactly these values. */
  | { readonly kind: 'values'; readonly values: readonly number[] }
  | { readonly kind: 'refused'; readonly reason: string };

/** `m = modulus / 10^scale` exactly; `excluded`: the texts are those of integers that are not multiples of it. */
export interface ScaledModulus {
  readonly modulus: number;
  readonly scale: number;
  readonly excluded?: boolean;
}

/**
 * How to enforce `multipleOf` (every divisor in `divisors`, none in `excludedDivisors`) on numbers in `range`. An excluded
 * divisor (a complement of `multipleOf`) is exact on integers by an integer divisor within ±2^53, or on listed values;
 * the non-integers beside them are the lowering's (`lower-multiple-of.ts`), refused here where a positive divisor is kept.
 */
export function planMultipleOf(
  range: NumberRange,
  divisors: readonly number[],
  limits: MultipleOfLimits = DEFAULT_DECODING_LIMITS,
  excludedDivisors: readonly number[] = [],
): MultipleOfPlan {
  const distinct = [...new Set(divisors)];
  const excluded = [...new Set(excludedDivisors)];
  let integer = range.integer;
  let { minimum, maximum } = range;
  let exclusiveMinimum = range.exclusiveMinimum;
  let exclusiveMaximum = range.exclusiveMaximum;
  // a quotient of 1e21 or more never passes Ajv's parseInt test; for m = 1 that is the whole rule
  const others = distinct.filter((divisor) => divisor !== 1);
  if (others.length < distinct.length) {
    integer = true;
    if (minimum <= -BELOW_1E21) ({ minimum, exclusiveMinimum } = { minimum: -BELOW_1E21, exclusiveMinimum: false });
    if (maximum >= BELOW_1E21) ({ maximum, exclusiveMaximum } = { maximum: BELOW_1E21, exclusiveMaximum: false });
  }
  const tightened: NumberRange = { integer, minimum, exclusiveMinimum, maximum, exclusiveMaximum };
  if (others.length === 0 && excluded.length === 0) return { kind: 'automaton', range: tightened, moduli: [] };
  const moduli: ScaledModulus[] = [];
  let why: string | undefined;
  // the values within ±exactLimit (exclusive), where every remainder automaton matches Ajv's float test; integers
  // under a decimal divisor within ±integerLimit (inclusive)
  let exactLimit = Infinity;
  let integerLimit = Infinity;
  for (const divisor of others) {
    const scaled = exactScaledModulus(divisor);
    const cut = scaled === undefined && integer ? integerDecimalCut(divisor) : undefined;
    if (cut !== undefined) {
      if (cut.factor > limits.multipleOfMaxModulus) {
        why = `on integers ${divisor} means a multiple of ${cut.factor}, above the remainder automaton's ${limits.multipleOfMaxModulus} (limits.multipleOfMaxModulus)`;
        break;
      }
      integerLimit = Math.min(integerLimit, cut.limit);
      if (cut.factor > 1) moduli.push({ modulus: cut.factor, scale: 0 });
      continue;
    }
    if (scaled === undefined) {
      why = `${divisor} is not a binary fraction, so Ajv's quotient follows double rounding (${roundingExample(divisor)})`;
    } else if (scaled.modulus > limits.multipleOfMaxModulus) {
      why = `${divisor} scales to ${scaled.modulus}, above the remainder automaton's ${limits.multipleOfMaxModulus} (limits.multipleOfMaxModulus)`;
    }
    if (why !== undefined) break;
    // beyond this the float quotient or the shortest text of a valid double stops matching exact decimal divisibility
    exactLimit = Math.min(exactLimit, exactDivisibilityLimit(scaled!));
    moduli.push(scaled!);
  }
  for (const divisor of excluded) {
    if (why !== undefined) break;
    const scaled = exactScaledModulus(divisor);
    if (scaled === undefined || scaled.scale > 0) why = `the numbers that are not multiples of ${divisor} are enforced for an integer divisor only`;
    // beside integer divisors only integer texts are offered (Ajv's few non-integer multiples are subnormals: see lower-multiple-of.ts)
    else if (!integer && (others.length === 0 || moduli.some(({ scale }) => scale > 0)))
      why = `beside a fractional multipleOf, the numbers that are not multiples of ${divisor} are enforced on integers only`;
    else if (scaled.modulus > limits.multipleOfMaxModulus)
      why = `${divisor} is above the remainder automaton's ${limits.multipleOfMaxModulus} (limits.multipleOfMaxModulus)`;
    else {
      exactLimit = Math.min(exactLimit, exactDivisibilityLimit(scaled));
      moduli.push({ ...scaled, excluded: true });
    }
  }
  if (why === undefined && minimum > -exactLimit && maximum < exactLimit && minimum >= -integerLimit && maximum <= integerLimit)
    return { kind: 'automaton', range: tightened, moduli };
  // listed values are Ajv's own verdicts, so an excluded divisor filters them exactly, integers or not
  const values = others.length === 0 ? undefined : listMultiples(tightened, others, limits.multipleOfMaxValues);
  if (values !== undefined) return { kind: 'values', values: values.filter((value) => !excluded.some((divisor) => ajvMultipleOf(value, divisor))) };
  // Ajv's verdict past the exact limit follows double rounding: the mask keeps the multiples within it (a documented narrowing)
  if (why === undefined) {
    const range = withinLimit(tightened, exactLimit, integerLimit);
    return { kind: 'automaton', range, moduli, narrowedTo: Math.min(exactLimit, integerLimit) };
  }
  if (others.length === 0) return { kind: 'refused', reason: `the complement of multipleOf: ${why}; use an integer "multipleOf" under "not"` };
  return {
    kind: 'refused',
    reason:
      `multipleOf: ${why}, and the range holds more than ${limits.multipleOfMaxValues} multiples to list one by one (limits.multipleOfMaxValues); ` +
      `bound the value with "minimum" and "maximum", or use an integer unit`,
  };
}

/**
 * The bound (exclusive, either sign) within which Ajv's float test equals exact decimal divisibility by `modulus / 10^scale`:
 * 2^53 for an integer (every integer text is its double, and a non-multiple's quotient stays at least 1/m from an integer,
 * more than half its ulp), 10^(15 − scale) for a binary fraction (each multiple has at most 15 significant digits, so the
 * double it parses to is exactly it, and its quotient is exact).
 */
export function exactDivisibilityLimit({ scale }: ScaledModulus): number {
  return scale === 0 ? 2 ** 53 : 10 ** (15 - scale);
}

/** `range` cut to the open interval (−limit, limit) and the closed one [−closedLimit, closedLimit]. */
function withinLimit(range: NumberRange, limit: number, closedLimit = Infinity): NumberRange {
  let low = range.minimum <= -limit ? { minimum: -limit, exclusiveMinimum: true } : { minimum: range.minimum, exclusiveMinimum: range.exclusiveMinimum };
  let high = range.maximum >= limit ? { maximum: limit, exclusiveMaximum: true } : { maximum: range.maximum, exclusiveMaximum: range.exclusiveMaximum };
  if (low.minimum < -closedLimit) low = { minimum: -closedLimit, exclusiveMinimum: false };
  if (high.maximum > closedLimit) high = { maximum: closedLimit, exclusiveMaximum: false };
  return { integer: range.integer, ...low, ...high };
}

/**
 * Integers under a decimal divisor that is no binary fraction (`0.01`, `0.03`, `1e-8`): with the divisor's shortest
 * decimal `c / 10^k` equal to `factor / den` in lowest terms, an integer `n` is an exact multiple when `factor` divides
 * it, and for every integer `|n| ≤ limit` Ajv's test on `n` is that divisibility; undefined where that is not proved.
 *
 * With `T = n · den / factor` the exact quotient and `η = (factor / den) / m − 1`, exact on the bits of the double `m`,
 * Ajv computes the double nearest `T · (1 + η)`:
 * - a multiple (`T` an integer) gives an integer when `|η| ≤ 2^−54`: below 2^53, `|T · η|` is at most half the spacing
 *   of doubles below `T` (a tie only at a power of two, which is even), and from 2^52 every double is an integer. It
 *   passes while that integer is below 1e21: for `factor = 1` (every integer a multiple) the limit is the last integer
 *   whose quotient is, found on doubles, so past it every integer fails too (0.00001 has `|η| > 2^−54`: 1 fails);
 * - a non-multiple (`T` at least `1 / factor` from every integer) fails while `|T| < 2^p` for the largest `p ≤ 53` with
 *   `factor · 2^p · (|η| + 2^−53) < 1`: the quotient stays more than `1 / factor − 2^p · |η|` from every integer, more
 *   than rounding moves it (`2^(p−53)`), so the limit keeps `n · den < factor · 2^p` and `n ≤ 2^53` (an exact text).
 */
export function integerDecimalCut(divisor: number): { factor: number; limit: number } | undefined {
  if (!(divisor > 0) || !Number.isFinite(divisor) || Number.isInteger(divisor)) return undefined;
  const { magnitude } = toDecimal(divisor);
  let factor = BigInt(magnitude.int + magnitude.frac);
  let den = 10n ** BigInt(magnitude.frac.length);
  const common = greatestCommonDivisor(factor, den);
  factor /= common;
  den /= common;
  if (factor > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  const { numerator, denominator } = exactFraction(divisor);
  // η = (factor · denominator − den · numerator) / (den · numerator)
  const scaledDivisor = den * numerator;
  const difference = factor * denominator - scaledDivisor;
  const error = difference < 0n ? -difference : difference;
  if (error << 54n > scaledDivisor) return undefined;
  if (factor === 1n) return { factor: 1, limit: lastIntegerBelow1e21(divisor) };
  for (let power = 53n; power > 0n; power--) {
    if ((factor << power) * ((error << 53n) + scaledDivisor) < scaledDivisor << 53n) {
      const limit = ((factor << power) - 1n) / den;
      return { factor: Number(factor), limit: Number(limit < 1n << 53n ? limit : 1n << 53n) };
    }
  }
  return undefined;
}

/** The largest integer `n` whose quotient `n / divisor` is a double below 1e21 (the quotient grows with `n`). */
function lastIntegerBelow1e21(divisor: number): number {
  let edge = BELOW_1E21 * divisor;
  while (!(edge / divisor < 1e21)) edge = nextDouble(edge, -1);
  while (nextDouble(edge, 1) / divisor < 1e21) edge = nextDouble(edge, 1);
  return Math.floor(edge);
}

function greatestCommonDivisor(left: bigint, right: bigint): bigint {
  while (right !== 0n) [left, right] = [right, left % right];
  return left;
}

/** `m` as `modulus / 10^scale` when the double `m` equals that decimal exactly (integers and binary fractions), else undefined. */
function exactScaledModulus(divisor: number): ScaledModulus | undefined {
  if (!(divisor > 0) || !Number.isFinite(divisor)) return undefined;
  const { magnitude } = toDecimal(divisor);
  const scale = magnitude.frac.length;
  if (scale > 15) return undefined;
  const digits = BigInt(magnitude.int + magnitude.frac);
  // the decimal is a binary fraction (so the double equals it) exactly when 5^scale divides its digits
  if (digits % 5n ** BigInt(scale) !== 0n) return undefined;
  if (digits > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  return { modulus: Number(digits), scale };
}

/** Every double in the range that Ajv takes as a multiple of all divisors, or undefined past the budget. */
function listMultiples(range: NumberRange, divisors: readonly number[], maxValues: number): number[] | undefined {
  if (!Number.isFinite(range.minimum) || !Number.isFinite(range.maximum)) return undefined;
  const divisor = Math.max(...divisors);
  // Ajv's quotient rounds monotonically, so a passing d has fl(d / m) = k with k within one of [min / m, max / m]
  const first = Math.floor(range.minimum / divisor) - 1;
  const last = Math.ceil(range.maximum / divisor) + 1;
  // past 2^53 the quotients k are no longer consecutive doubles (k++ would stand still)
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last)) return undefined;
  if (!(last - first < maxValues)) return undefined;
  const found = new Set<number>();
  for (let k = first; k <= last; k++) {
    // a passing d lies within one ulp of k · m, and fl(k · m) within half an ulp: two neighbours each side cover it
    let candidate = k * divisor;
    for (let step = 0; step < 2; step++) candidate = nextDouble(candidate, -1);
    for (let step = 0; step < 5; step++, candidate = nextDouble(candidate, 1)) {
      if (!inRange(candidate, range)) continue;
      if (divisors.every((each) => ajvMultipleOf(candidate, each))) found.add(candidate === 0 ? 0 : candidate);
    }
  }
  return [...found].sort((left, right) => left - right);
}

function inRange(value: number, range: NumberRange): boolean {
  if (!Number.isFinite(value)) return false;
  if (range.integer && !Number.isInteger(value)) return false;
  if (value < range.minimum || (range.exclusiveMinimum && value === range.minimum)) return false;
  if (value > range.maximum || (range.exclusiveMaximum && value === range.maximum)) return false;
  return true;
}

function nextDouble(value: number, direction: 1 | -1): number {
  if (value === 0) return direction * Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, value > 0 === direction > 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

/**
 * Texts whose exact decimal value is a multiple of `modulus / 10^scale`: the remainder of the
 * value scaled by 10^scale, digit by digit. Syntax is the bound automaton's business (the
 * product keeps only its texts); here a fraction digit past `scale` must be 0, and exponents are
 * refused (the layout writes these numbers in plain decimal).
 */
export function remainderAutomaton({ modulus, scale, excluded = false }: ScaledModulus): NumberAutomaton {
  // excluded: integer texts only (the plan asks it for an integer divisor), each accepted where a multiple was not
  if (excluded && scale > 0) throw new RangeError('an excluded modulus must be an integer');
  // states: 0 start, 1 after '-', then integer remainders (2 + r), then fraction (remainder, digits) pairs
  const fractionBase = 2 + modulus;
  const fractionState = (remainder: number, digits: number): number => fractionBase + digits * modulus + remainder;
  const count = fractionBase + (scale + 1) * modulus;
  const next = new Int32Array(count * NUMBER_SYMBOLS).fill(-1);
  const accepting = new Uint8Array(count);
  // 10^k mod modulus, so that remainder · 10^k stays far below 2^53
  const powers = Array.from({ length: scale + 1 }, (_, index) => Number(10n ** BigInt(index) % BigInt(modulus)));
  for (const start of [0, 1]) {
    for (let digit = 0; digit < 10; digit++) next[start * NUMBER_SYMBOLS + digit] = 2 + (digit % modulus);
  }
  next[0 * NUMBER_SYMBOLS + MINUS] = 1;
  for (let remainder = 0; remainder < modulus; remainder++) {
    const state = 2 + remainder;
    for (let digit = 0; digit < 10; digit++) next[state * NUMBER_SYMBOLS + digit] = 2 + ((remainder * 10 + digit) % modulus);
    // an integer divisor takes integer texts only (the layout writes integral numbers without a point)
    if (scale > 0) next[state * NUMBER_SYMBOLS + DOT] = fractionState(remainder, 0);
    accepting[state] = ((remainder * powers[scale]!) % modulus === 0) !== excluded ? 1 : 0;
    for (let digits = 0; digits <= scale; digits++) {
      const fraction = fractionState(remainder, digits);
      accepting[fraction] = digits > 0 && (remainder * powers[scale - digits]!) % modulus === 0 ? 1 : 0;
      for (let digit = 0; digit < 10; digit++) {
        if (digits < scale) next[fraction * NUMBER_SYMBOLS + digit] = fractionState((remainder * 10 + digit) % modulus, digits + 1);
        else if (digit === 0) next[fraction * NUMBER_SYMBOLS + digit] = fraction;
      }
    }
  }
  return new NumberAutomaton(next, accepting);
}

/**
 * {@link remainderAutomaton} with its equivalent states merged. Only the remainder's part prime to 10 needs every
 * remainder: for `m = 2^a · 5^b · c` the factor `2^a · 5^b` is decided by the last `max(a, b)` digits, so 1,000 has a
 * handful of states where it had 1,002, and its product with the ±2^53 bound 252 where it had 52,012 (same language: merging
 * Myhill–Nerode-equivalent states never changes what is accepted).
 */
export function minimalRemainderAutomaton(modulus: ScaledModulus): NumberAutomaton {
  const automaton = remainderAutomaton(modulus);
  // an integer modulus prime to 10 is minimal already: 10 is invertible, so a long enough suffix tells any two remainders apart
  if (modulus.scale === 0 && modulus.modulus % 2 !== 0 && modulus.modulus % 5 !== 0 && modulus.excluded !== true) return automaton;
  return minimizeNumberAutomaton(reachablePart(automaton));
}

/**
 * The automaton's states partitioned by what they accept (Moore's refinement: split by acceptance, then by the classes
 * each symbol leads to, until no class splits), one state per class; state 0 stays the start.
 */
function minimizeNumberAutomaton({ next, accepting }: NumberAutomaton): NumberAutomaton {
  const count = accepting.length;
  let classOf = Int32Array.from(accepting);
  let classCount = numberByFirstState(classOf);
  const order = new Int32Array(count);
  // a symbol no state takes (the point, exponent and sign of an integer modulus) splits nothing
  const taken = new Uint8Array(NUMBER_SYMBOLS);
  for (let index = 0; index < next.length; index++) if (next[index]! >= 0) taken[index % NUMBER_SYMBOLS] = 1;
  for (;;) {
    // refined by one symbol at a time: within each class, by the class its target had at the round's start (typed
    // arrays and a stamp per target class, no map: 10,000's remainders took 150 ms keyed by strings)
    let refined = classOf;
    let refinedCount = classCount;
    const stamp = new Int32Array(classCount + 1);
    const idOf = new Int32Array(classCount + 1);
    for (let symbol = 0; symbol < NUMBER_SYMBOLS; symbol++) {
      if (taken[symbol] === 0) continue;
      const first = new Int32Array(refinedCount + 1);
      for (let state = 0; state < count; state++) first[refined[state]! + 1]!++;
      for (let group = 0; group < refinedCount; group++) first[group + 1]! += first[group]!;
      const filled = first.slice(0, refinedCount);
      for (let state = 0; state < count; state++) order[filled[refined[state]!]!++] = state;
      stamp.fill(-1);
      const split = new Int32Array(count);
      let splitCount = 0;
      for (let group = 0; group < refinedCount; group++) {
        for (let at = first[group]!; at < first[group + 1]!; at++) {
          const state = order[at]!;
          const target = next[state * NUMBER_SYMBOLS + symbol]!;
          const targetClass = target < 0 ? 0 : classOf[target]! + 1;
          if (stamp[targetClass] !== group) {
            stamp[targetClass] = group;
            idOf[targetClass] = splitCount++;
          }
          split[state] = idOf[targetClass]!;
        }
      }
      refined = split;
      refinedCount = splitCount;
    }
    classOf = refined;
    if (refinedCount === classCount) break;
    classCount = refinedCount;
  }
  numberByFirstState(classOf);
  const merged = new Int32Array(classCount * NUMBER_SYMBOLS).fill(-1);
  const mergedAccepting = new Uint8Array(classCount);
  for (let state = 0; state < count; state++) {
    const id = classOf[state]!;
    mergedAccepting[id] = accepting[state]!;
    for (let symbol = 0; symbol < NUMBER_SYMBOLS; symbol++) {
      const target = next[state * NUMBER_SYMBOLS + symbol]!;
      merged[id * NUMBER_SYMBOLS + symbol] = target < 0 ? -1 : classOf[target]!;
    }
  }
  return new NumberAutomaton(merged, mergedAccepting);
}

/** The states reachable from the start, renumbered in order of discovery (an integer modulus never reaches its fraction states). */
function reachablePart({ next, accepting }: NumberAutomaton): NumberAutomaton {
  const idOf = new Int32Array(accepting.length).fill(-1);
  const states = [0];
  idOf[0] = 0;
  for (let at = 0; at < states.length; at++) {
    for (let symbol = 0; symbol < NUMBER_SYMBOLS; symbol++) {
      const target = next[states[at]! * NUMBER_SYMBOLS + symbol]!;
      if (target >= 0 && idOf[target] === -1) idOf[target] = states.push(target) - 1;
    }
  }
  const reachedNext = new Int32Array(states.length * NUMBER_SYMBOLS);
  const reachedAccepting = new Uint8Array(states.length);
  states.forEach((state, id) => {
    reachedAccepting[id] = accepting[state]!;
    for (let symbol = 0; symbol < NUMBER_SYMBOLS; symbol++) {
      const target = next[state * NUMBER_SYMBOLS + symbol]!;
      reachedNext[id * NUMBER_SYMBOLS + symbol] = target < 0 ? -1 : idOf[target]!;
    }
  });
  return new NumberAutomaton(reachedNext, reachedAccepting);
}

/** Renumbers class ids (in place) in order of their first state, so that state 0's class is 0; returns how many there are. */
function numberByFirstState(classOf: Int32Array): number {
  const ids = new Map<number, number>();
  for (let state = 0; state < classOf.length; state++) {
    let id = ids.get(classOf[state]!);
    if (id === undefined) ids.set(classOf[state]!, (id = ids.size));
    classOf[state] = id;
  }
  return ids.size;
}

/** Texts both automata accept (a product, reachable states only), or null when none; undefined past `maxStates` states. */
export function intersectNumberAutomata(
  base: NumberAutomaton,
  moduli: readonly ScaledModulus[],
  maxStates = DEFAULT_DECODING_LIMITS.multipleOfMaxStates,
): NumberAutomaton | null | undefined {
  let result = base;
  for (const modulus of moduli) {
    const product = product2(result, minimalRemainderAutomaton(modulus), maxStates);
    if (product === undefined) return undefined;
    if (product === null) return null;
    result = product;
  }
  return result;
}

/** The texts both automata accept (null: none), without a state budget: for automata of known, bounded size. */
export function intersectTwoNumberAutomata(left: NumberAutomaton, right: NumberAutomaton): NumberAutomaton | null {
  return product2(left, right, Infinity)!;
}

function product2(left: NumberAutomaton, right: NumberAutomaton, maxStates: number): NumberAutomaton | null | undefined {
  const rightCount = right.accepting.length;
  const ids = new Map<number, number>([[0, 0]]);
  const pairs: number[] = [0];
  // a product of the non-integer language has over ten thousand states
  const rows = new NumberRows(256);
  for (let id = 0; id < pairs.length; id++) {
    rows.reserve(id);
    const { next, accepting } = rows;
    const pair = pairs[id]!;
    const l = Math.floor(pair / rightCount);
    const r = pair % rightCount;
    accepting[id] = left.accepting[l] === 1 && right.accepting[r] === 1 ? 1 : 0;
    for (let symbol = 0; symbol < NUMBER_SYMBOLS; symbol++) {
      const a = left.next[l * NUMBER_SYMBOLS + symbol]!;
      const b = right.next[r * NUMBER_SYMBOLS + symbol]!;
      if (a < 0 || b < 0) {
        next[id * NUMBER_SYMBOLS + symbol] = -1;
        continue;
      }
      const key = a * rightCount + b;
      let target = ids.get(key);
      if (target === undefined) {
        target = pairs.length;
        if (target >= maxStates) return undefined;
        ids.set(key, target);
        pairs.push(key);
      }
      next[id * NUMBER_SYMBOLS + symbol] = target;
    }
  }
  return rows.finish(pairs.length);
}
