/**
 * The numbers under a range of `uniqueNumbers` arrays in the matcher's memory (`written-strings.ts`): the texts offered
 * there, and the rule that a prefix whose every completion in the range is held is a dead end.
 *
 * The texts offered, `rememberedRangeAutomaton`: those of the range's own automaton that `SAFE_INTEGERS` (integer
 * items) or `REMEMBERED_DECIMALS` (`held-numbers.ts`) hold, less every text of negative zero (`-0`, `-0.0`: 0 is written
 * `0`, so no prefix with a minus sign completes to it). Within those languages each value is one double, in order.
 *
 * Which prefixes can run out, exactly: the completions of a prefix in the unranged language are intervals of a decimal
 * grid (`held-integers.ts`, `held-numbers.ts`: per count of digits still to come, every multiple of 10^−f between two
 * ends, f the fraction digits of the grid); the range, a test on each value's double, keeps of each interval a run of
 * consecutive grid points, found by binary search on the grid index N (each point is the double N / 10^f, exactly the
 * one Ajv parses from its text, and the doubles rise with N). A lone `-` (and, with no range below, `0` and `-0`)
 * completes to the union of its digits' intervals. A prefix is dead exactly when the held values in the runs are as
 * many as the runs hold. Before an item, the array holds at most as many items as the range holds values
 * (`rangeValueCount`): its `maxItems`.
 * @module
 */
import { MINUS_SIGN } from '../shared/json-bytes.js';
import { DOT, exploreNumberStates, MINUS, NUMBER_SYMBOLS, type NumberAutomaton, type NumberConstraint } from './number-language.js';
import {
  DECIMAL_DIGITS,
  DECIMAL_PREFIX,
  NUMBER_BOUNDS,
  POWERS_OF_TEN,
  readDecimalPrefix,
  readHeldPrefix,
  type HeldNumbers,
  type PendingNumbers,
} from './held-integers.js';

/** The largest magnitude of `SAFE_INTEGERS`. */
const LARGEST = 2 ** 53 - 1;
/** The largest grid index of a remembered decimal: 10^15 − 1. */
const LAST_INDEX = POWERS_OF_TEN[DECIMAL_DIGITS]! - 1;

/** What the intervals walked so far hold: completions (0), held ones among them (1); and the limit past which a prefix cannot be dead (2). */
const TALLY = new Float64Array(3);

/** The states of `NO_NEGATIVE_ZERO`: start, after `-`, after `-0` and zeros or a point, past a non-zero digit or without a sign. */
const ZERO_START = 0;
const ZERO_SIGN = 1;
const ZERO_SO_FAR = 2;
const ZERO_FREE = 3;

/** Every number text but those of negative zero (`-0`, `-0.00`): the memory writes 0 without a sign. */
function noNegativeZero(): NumberAutomaton {
  const automaton = exploreNumberStates([ZERO_START, ZERO_SIGN, ZERO_SO_FAR, ZERO_FREE], (state, row) => {
    row.fill(ZERO_FREE);
    if (state === ZERO_START) row[MINUS] = ZERO_SIGN;
    if (state === ZERO_SIGN || state === ZERO_SO_FAR) {
      row[0] = ZERO_SO_FAR;
      row[DOT] = ZERO_SO_FAR;
      // an exponent after a zero significand is still zero: no remembered language writes one
      for (let symbol = DOT + 1; symbol < NUMBER_SYMBOLS; symbol++) row[symbol] = ZERO_SO_FAR;
    }
    return state === ZERO_FREE;
  });
  if (automaton === null) throw new Error('the numbers without negative zero have no text');
  return automaton;
}

/** The texts both automata accept (their product, trimmed to states that can still accept); null where none. */
function intersect(left: NumberAutomaton, right: NumberAutomaton): NumberAutomaton | null {
  const width = right.accepting.length;
  const keys: number[] = [0];
  const ids = new Map<number, number>([[0, 0]]);
  return exploreNumberStates(keys, (key, row) => {
    const leftState = Math.floor(key / width);
    const rightState = key % width;
    for (let symbol = 0; symbol < NUMBER_SYMBOLS; symbol++) {
      const leftNext = left.next[leftState * NUMBER_SYMBOLS + symbol]!;
      const rightNext = right.next[rightState * NUMBER_SYMBOLS + symbol]!;
      if (leftNext < 0 || rightNext < 0) continue;
      const next = leftNext * width + rightNext;
      let id = ids.get(next);
      if (id === undefined) {
        id = keys.push(next) - 1;
        ids.set(next, id);
      }
      row[symbol] = id;
    }
    return left.accepting[leftState] === 1 && right.accepting[rightState] === 1;
  });
}

let withoutNegativeZero: NumberAutomaton | undefined;

/**
 * The texts a `uniqueNumbers` array offers for a number item under a range (`ranged`, its own automaton): those of
 * `remembered` (`SAFE_INTEGERS` for integer items, `REMEMBERED_DECIMALS` else) in the range, none of negative zero;
 * null where the range holds none of them.
 */
export function rememberedRangeAutomaton(ranged: NumberAutomaton, remembered: NumberAutomaton): NumberAutomaton | null {
  withoutNegativeZero ??= noNegativeZero();
  const within = intersect(ranged, remembered);
  return within === null ? null : intersect(within, withoutNegativeZero);
}

/*
 * The hot path passes no double to a call (V8 allocates one that a call it does not inline takes or returns): the grid
 * indexes, the value probed and the magnitude of a prefix go through these.
 */
/** The grid indexes [first, last] of an interval, then of its run in the range (`clip`). */
const RUN = new Float64Array(2);
/** The value `holds` tests. */
const PROBE = new Float64Array(1);
/** The magnitude of the integer prefix `tallyDigits` tallies. */
const MAGNITUDE = new Float64Array(1);

/**
 * What every tally of one question shares (`startTally`): the range, the values held (`held` at `depth` and `pending`;
 * none counted without `pending`) and the count of completions (`TALLY[2]`) past which the prefix cannot be dead.
 */
class TallyQuestion {
  range!: NumberConstraint;
  held: HeldNumbers | undefined;
  pending: PendingNumbers | undefined;
  depth = 0;
}
const QUESTION = new TallyQuestion();

function startTally(range: NumberConstraint, held: HeldNumbers | undefined, pending: PendingNumbers | undefined, depth: number, limit: number): void {
  QUESTION.range = range;
  QUESTION.held = held;
  QUESTION.pending = pending;
  QUESTION.depth = depth;
  TALLY[0] = 0;
  TALLY[1] = 0;
  TALLY[2] = limit;
}

/** True when `PROBE` passes the range's upper bound (`upper`) or its lower one, as Ajv compares doubles. */
function holds(upper: boolean, range: NumberConstraint): boolean {
  const value = PROBE[0]!;
  if (upper) return range.exclusiveMaximum ? value < range.maximum : value <= range.maximum;
  return range.exclusiveMinimum ? value > range.minimum : value >= range.minimum;
}

/** True when the grid point of index `PROBE` (step 10^−fraction, negated where `negative`) is in `range`; `PROBE` then holds its value. */
function indexInRange(fraction: number, negative: boolean, range: NumberConstraint): boolean {
  const value = PROBE[0]! / POWERS_OF_TEN[fraction]!;
  PROBE[0] = negative ? -value : value;
  return holds(true, range) && holds(false, range);
}

/**
 * Narrows `RUN` ([first, last] grid indexes, values N / 10^fraction, negated where `negative`) to the indexes whose
 * values are in `range`; false where there is none. The values rise with N (fall, negated): each bound holds on one
 * side of a cut, found by binary search.
 */
function clip(fraction: number, negative: boolean, range: NumberConstraint): boolean {
  const scale = POWERS_OF_TEN[fraction]!;
  const last = RUN[1]!;
  // the bound that holds from some index on (rising values: the lower one), then the one that holds up to some index
  const fromUpper = negative;
  let low = RUN[0]!;
  let high = last + 1;
  PROBE[0] = negative ? -(low / scale) : low / scale;
  if (!holds(fromUpper, range)) {
    // the last fails it too: none does (an interval past the range, as many are under a prefix near a bound)
    PROBE[0] = negative ? -(last / scale) : last / scale;
    if (!holds(fromUpper, range)) return false;
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      PROBE[0] = negative ? -(middle / scale) : middle / scale;
      if (holds(fromUpper, range)) high = middle;
      else low = middle + 1;
    }
  }
  if (low > last) return false;
  RUN[0] = low;
  PROBE[0] = negative ? -(last / scale) : last / scale;
  if (holds(!fromUpper, range)) return true;
  high = last + 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    PROBE[0] = negative ? -(middle / scale) : middle / scale;
    if (holds(!fromUpper, range)) low = middle + 1;
    else high = middle;
  }
  if (low === RUN[0]) return false;
  RUN[1] = low - 1;
  return true;
}

/**
 * Adds to `TALLY` the completions in the question's range of the grid interval `RUN` of step 10^−fraction (negated
 * where `negative`) and the held values among them. False once the completions pass the limit: the prefix then cannot
 * be dead.
 */
function tallyInterval(fraction: number, negative: boolean): boolean {
  const { range, held, pending, depth } = QUESTION;
  if (!clip(fraction, negative, range)) return true;
  TALLY[0] = TALLY[0]! + RUN[1]! - RUN[0]! + 1;
  if (TALLY[0]! > TALLY[2]!) return false;
  if (pending === undefined) return true;
  const scale = POWERS_OF_TEN[fraction]!;
  NUMBER_BOUNDS[0] = negative ? -(RUN[1]! / scale) : RUN[0]! / scale;
  NUMBER_BOUNDS[1] = negative ? -(RUN[0]! / scale) : RUN[1]! / scale;
  TALLY[1] = TALLY[1]! + (held?.countInBounds() ?? 0) + pending.countInBounds(depth);
  return true;
}

/**
 * The integer prefix of magnitude `MAGNITUDE` (> 0, `counted` digits; integer items, or decimals) tallied: per count
 * of digits to come, its interval. False once past the limit.
 */
function tallyDigits(counted: number, negative: boolean): boolean {
  const magnitude = MAGNITUDE[0]!;
  if (QUESTION.range.integer) {
    for (let scale = 1; magnitude * scale <= LARGEST; scale *= 10) {
      const first = magnitude * scale;
      RUN[0] = first;
      RUN[1] = scale - 1 > LARGEST - first ? LARGEST : first + scale - 1;
      if (!tallyInterval(0, negative)) return false;
    }
    return true;
  }
  const room = DECIMAL_DIGITS - counted;
  const each = POWERS_OF_TEN[room]!;
  // j more integer digits: the grid [P·10^j, (P+1)·10^j) of step 10^−(room − j), indexes P·10^room … (P+1)·10^room − 1
  for (let more = 0; more <= room; more++) {
    RUN[0] = magnitude * each;
    RUN[1] = magnitude * each + each - 1;
    if (!tallyInterval(room - more, negative)) return false;
  }
  return true;
}

/** `0` (`negative`: `-0`, whose zero is not offered) tallied: 0 and the decimals after a point (integer items: 0 alone). */
function tallyZero(negative: boolean): boolean {
  if (QUESTION.range.integer) {
    if (negative) return true;
    RUN[0] = 0;
    RUN[1] = 0;
    return tallyInterval(0, false);
  }
  RUN[0] = negative ? 1 : 0;
  RUN[1] = LAST_INDEX;
  return tallyInterval(DECIMAL_DIGITS, negative);
}

/** A lone `-` tallied: every negative value offered (integer items: one interval; decimals: `-0` and each first digit's). */
function tallySign(): boolean {
  if (QUESTION.range.integer) {
    RUN[0] = 1;
    RUN[1] = LARGEST;
    return tallyInterval(0, true);
  }
  if (!tallyZero(true)) return false;
  for (let digit = 1; digit < 10; digit++) {
    MAGNITUDE[0] = digit;
    if (!tallyDigits(1, true)) return false;
  }
  return true;
}

/**
 * True when every completion in the range's remembered language (`rememberedRangeAutomaton`) of the prefix
 * `raw[start, end)` (a prefix of that language) is held at `depth`, in `held` or closed by the trial (`pending`).
 */
export function rangeReachesOnlyHeld(
  raw: Uint8Array,
  start: number,
  end: number,
  range: NumberConstraint,
  held: HeldNumbers | undefined,
  pending: PendingNumbers,
  depth: number,
): boolean {
  const heldCount = readHeldPrefix(raw, start, end, held, pending);
  if (heldCount === 0) return false;
  const significand = DECIMAL_PREFIX[0]!;
  const counted = DECIMAL_PREFIX[1]!;
  const fraction = DECIMAL_PREFIX[2]!;
  const negative = DECIMAL_PREFIX[3] === 1;
  startTally(range, held, pending, depth, heldCount);
  let within: boolean;
  if (end - start === (negative ? 1 : 0)) within = tallySign();
  else if (fraction < 0 && significand === 0) within = tallyZero(negative);
  else if (fraction < 0) {
    MAGNITUDE[0] = significand;
    within = tallyDigits(counted, negative);
  } else {
    if (range.integer || counted > DECIMAL_DIGITS) return false;
    const each = POWERS_OF_TEN[DECIMAL_DIGITS - counted]!;
    const first = significand * each;
    // the interval [p, p + 10^−k) at the grid of step 10^−(k + room); below zero, zero itself is not offered
    RUN[0] = negative && first === 0 ? 1 : first;
    RUN[1] = first + each - 1;
    within = tallyInterval(fraction + DECIMAL_DIGITS - counted, negative);
  }
  return within && TALLY[0] === TALLY[1];
}

/**
 * True when the prefix `raw[start, end)` (a digit or more, and not a lone leading zero) and every prefix up to `more`
 * digits longer have more than `limit` completions in `range`'s remembered language, so none of them is dead while at
 * most `limit` values are held. A sufficient test, two points probed: each such prefix has an interval of completions
 * (the one with the fewest digits to come, integer items the one with enough of them to pass `limit`) inside the hull
 * of the prefix's own intervals that far, and the hull is inside the range. False where it cannot tell.
 */
export function rangeKeepsRoom(raw: Uint8Array, start: number, end: number, range: NumberConstraint, more: number, limit: number): boolean {
  const negative = raw[start] === MINUS_SIGN;
  if (!readDecimalPrefix(raw, negative ? start + 1 : start, end)) return false;
  const significand = DECIMAL_PREFIX[0]!;
  const counted = DECIMAL_PREFIX[1]!;
  const fraction = DECIMAL_PREFIX[2]!;
  // the hull's ends are probed through `PROBE`: a double passed to a call V8 does not inline is allocated
  if (range.integer) {
    // an integer item takes no point: no prefix with one is dead under its range (`rangeReachesOnlyHeld`)
    if (fraction >= 0) return true;
    if (significand === 0) return false;
    // the prefix P·10^m + r (m ≤ more) completes to the 10^j integers (P·10^m + r)·10^j + s, j the fewest with 10^j > limit
    let scale = 1;
    while (scale <= limit) scale *= 10;
    const highest = (significand + 1) * scale * POWERS_OF_TEN[more]! - 1;
    if (highest > LARGEST) return false;
    PROBE[0] = significand * scale;
    if (!indexInRange(0, negative, range)) return false;
    PROBE[0] = highest;
    return indexInRange(0, negative, range);
  }
  if ((fraction < 0 && significand === 0) || counted > DECIMAL_DIGITS) return false;
  const room = DECIMAL_DIGITS - counted;
  // past 15 digits no decimal is offered; the longest prefix offered has 10^(room − deepest) completions per interval
  const deepest = Math.min(more, room);
  if (POWERS_OF_TEN[room - deepest]! <= limit) return false;
  const each = POWERS_OF_TEN[room]!;
  // with a point, one interval that the longer prefixes split: [p, p + 10^−k) of step 10^−(k + room); without one, the
  // prefix m digits longer has the interval [P', P' + 1) inside [P·10^m, (P+1)·10^m): hull P … (P+1)·10^deepest
  PROBE[0] = fraction >= 0 ? significand * each : significand;
  if (!indexInRange(fraction >= 0 ? fraction + room : 0, negative, range)) return false;
  PROBE[0] = fraction >= 0 ? significand * each + each - 1 : (significand + 1) * each - 1;
  return indexInRange(fraction >= 0 ? fraction + room : room - deepest, negative, range);
}

/** How many values a `uniqueNumbers` array offers under `range` (`rememberedRangeAutomaton`): the most items it can hold. */
export function rangeValueCount(range: NumberConstraint): number {
  startTally(range, undefined, undefined, 0, Infinity);
  tallySign();
  tallyZero(false);
  for (let digit = 1; digit < 10; digit++) {
    MAGNITUDE[0] = digit;
    tallyDigits(1, false);
  }
  return TALLY[0]!;
}
