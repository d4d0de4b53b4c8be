/**
 * The numbers other than integers of `uniqueNumbers` arrays in the matcher's memory (`written-strings.ts`): the texts
 * offered there, their values read from the bytes kept since the number's first byte, and the rule that a prefix whose
 * every completion is held is a dead end. The integers alone keep `held-integers.ts` (offered up to ±2^53).
 *
 * The texts offered, `REMEMBERED_DECIMALS`: plain decimals (`-?(0|[1-9][0-9]*)(\.[0-9]+)?`, no exponent) of at most 15
 * digits, a lone leading `0` not counted (`0.000000000000001`, `123456789012345`, `12345.6789`). Every such text is
 * the double Ajv parses from it, computed with no string (`readNumber`): its digits S (below 10^15, exact) over 10^k (k ≤ 15
 * fraction digits, exact), one correctly rounded division. Two such decimals of different value are different doubles,
 * in the same order (15 significant digits survive the round trip), so counting held doubles in an interval counts
 * the held decimals in it.
 *
 * Which prefixes can run out, exactly: with a point and k fraction digits of D digits in all (value p, sign s), the
 * completions are every decimal p + j·10^−(k+m), 0 ≤ j < 10^m, m = 15 − D (a point alone takes at least one digit,
 * `p.0` is p): one interval of a grid, every decimal of which in the language is a completion (its integer part is p's,
 * so it has at most k + m fraction digits). With integer digits P only (L of them, no leading zero), the completions are
 * per j ≥ 0 (L + j ≤ 15) the grid of step 10^−(15−L−j) over [P·10^j, (P+1)·10^j): 10^(15−L) each. `0`, `-0` and a lone
 * `-` complete to 10^15 values and more, past what the memory can hold (`uniqueItemsMaxStringBytes`). So a prefix is
 * dead exactly when the held values in its intervals are as many as the intervals hold.
 * @module
 */
import { DIGIT_NINE, DIGIT_ZERO, MINUS_SIGN, POINT } from '../shared/json-bytes.js';
import {
  DECIMAL_DIGITS,
  DECIMAL_PREFIX,
  NUMBER_BOUNDS,
  POWERS_OF_TEN,
  reachesOnlyHeld as integersReachOnlyHeld,
  readDecimalPrefix,
  type HeldNumbers,
  type PendingNumbers,
} from './held-integers.js';
import { rangeReachesOnlyHeld } from './held-ranges.js';
import { DOT, exploreNumberStates, MINUS, NUMBER_SYMBOLS, type NumberAutomaton, type NumberConstraint } from './number-language.js';
import type { Vocabulary } from './vocabulary.js';

/** `JsonAutomaton.trackedNumber`'s bits: some configuration is an integer item (`SAFE_INTEGERS`), a decimal item. */
export const TRACKED_INTEGER = 1;
export const TRACKED_DECIMAL = 2;
/** Some configuration is a number item under a range (`held-ranges.ts`; which ranges: `JsonAutomaton.trackedRanges`). */
export const TRACKED_RANGED = 4;

const POWERS = POWERS_OF_TEN;

/** The phases of a remembered decimal's text, as the automaton's states are keyed (`phase · 32 + digits`). */
const START = 0;
const SIGN = 1;
const ZERO = 2;
const INTEGER = 3;
const POINT_READ = 4;
const FRACTION = 5;

let decimals: NumberAutomaton | undefined;

/** The automaton of `REMEMBERED_DECIMALS` (built once: some fifty states). */
export function rememberedDecimals(): NumberAutomaton {
  decimals ??= buildDecimals();
  return decimals;
}

function buildDecimals(): NumberAutomaton {
  const keys: number[] = [START * 32];
  const ids = new Map<number, number>([[START * 32, 0]]);
  const intern = (phase: number, digits: number): number => {
    const key = phase * 32 + digits;
    let id = ids.get(key);
    if (id === undefined) {
      id = keys.push(key) - 1;
      ids.set(key, id);
    }
    return id;
  };
  const automaton = exploreNumberStates(keys, (key, row) => {
    const phase = key >> 5;
    const digits = key & 31;
    if (phase === START || phase === SIGN) {
      if (phase === START) row[MINUS] = intern(SIGN, 0);
      row[0] = intern(ZERO, 0);
      for (let digit = 1; digit < 10; digit++) row[digit] = intern(INTEGER, 1);
      return false;
    }
    if (phase === ZERO || phase === INTEGER) {
      if (digits < DECIMAL_DIGITS) {
        row[DOT] = intern(POINT_READ, digits);
        if (phase === INTEGER) for (let digit = 0; digit < 10; digit++) row[digit] = intern(INTEGER, digits + 1);
      }
      return true;
    }
    if (digits < DECIMAL_DIGITS) for (let digit = 0; digit < 10; digit++) row[digit] = intern(FRACTION, digits + 1);
    return phase === FRACTION;
  });
  if (automaton === null || automaton.next.length !== keys.length * NUMBER_SYMBOLS) throw new Error('the remembered decimals have no text');
  return automaton;
}

/**
 * True when every completion in `REMEMBERED_DECIMALS` of the prefix `raw[start, end)` (a prefix of that language) is
 * held at `depth`, in `held` or closed by the trial (`pending`).
 */
export function decimalsReachOnlyHeld(
  raw: Uint8Array,
  start: number,
  end: number,
  held: HeldNumbers | undefined,
  pending: PendingNumbers,
  depth: number,
): boolean {
  // the prelude of `readHeldPrefix`, written out: called from here, V8 stops inlining what follows and boxes the
  // significand per walked token (320 bytes a mask in written-strings-allocation.test.ts)
  const heldCount = (held?.sorted.length ?? 0) + pending.count;
  if (heldCount === 0) return false;
  const negative = raw[start] === MINUS_SIGN;
  if (!readDecimalPrefix(raw, negative ? start + 1 : start, end)) return false;
  const significand = DECIMAL_PREFIX[0]!;
  const counted = DECIMAL_PREFIX[1]!;
  const fraction = DECIMAL_PREFIX[2]!;
  // a lone sign, `0` or `-0`: 10^15 completions and more
  if (fraction < 0 && significand === 0) return false;
  if (counted > DECIMAL_DIGITS) return false;
  const room = DECIMAL_DIGITS - counted;
  // with a point: the grid [p, p + 10^−k) of step 10^−(k + room), one interval; else per j ≤ room the grid
  // [P·10^j, (P+1)·10^j) of step 10^−(room − j); each holds 10^room decimals
  const each = POWERS[room]!;
  const intervals = fraction >= 0 ? 1 : room + 1;
  if (each * intervals > heldCount) return false;
  const top = (significand + 1) * each - 1;
  let found = 0;
  for (let scale = 0; scale < intervals; scale++) {
    const low = fraction >= 0 ? significand / POWERS[fraction]! : significand * POWERS[scale]!;
    const high = fraction >= 0 ? (significand * each + each - 1) / POWERS[fraction + room]! : top / POWERS[room - scale]!;
    NUMBER_BOUNDS[0] = negative ? -high : low;
    NUMBER_BOUNDS[1] = negative ? -low || 0 : high;
    found += (held?.countInBounds() ?? 0) + pending.countInBounds(depth);
  }
  return found === each * intervals;
}

/**
 * True when every completion of the number being written (`raw[start, end)`) is held, for each kind of item the
 * automaton's state writes it as (`kinds`: `TRACKED_INTEGER`, `TRACKED_DECIMAL`, `TRACKED_RANGED` under each of
 * `ranges`): only then may every configuration writing a remembered number go.
 */
export function numbersReachOnlyHeld(
  raw: Uint8Array,
  start: number,
  end: number,
  held: HeldNumbers | undefined,
  pending: PendingNumbers,
  depth: number,
  kinds: number,
  ranges: readonly NumberConstraint[] | undefined,
): boolean {
  if ((kinds & TRACKED_INTEGER) !== 0 && !integersReachOnlyHeld(raw, start, end, held, pending, depth)) return false;
  if ((kinds & TRACKED_DECIMAL) !== 0 && !decimalsReachOnlyHeld(raw, start, end, held, pending, depth)) return false;
  if ((kinds & TRACKED_RANGED) !== 0 && ranges !== undefined) {
    for (let index = 0; index < ranges.length; index++) if (!rangeReachesOnlyHeld(raw, start, end, ranges[index]!, held, pending, depth)) return false;
  }
  return true;
}

const pointTokensOf = new WeakMap<Vocabulary, Int32Array>();

/**
 * The text tokens that are a point alone (`.`): inside a decimal such a token can reach a prefix whose every completion
 * is held (`12345678901234.` completes to ten values), where no list of `digitTokens` holds it. A longer token with a
 * point and no digit can never follow a number's digits (a digit must follow the point).
 */
export function pointTokens(vocabulary: Vocabulary): Int32Array {
  let known = pointTokensOf.get(vocabulary);
  if (known === undefined) {
    const found: number[] = [];
    const bytes = vocabulary.tokenBytesFlat;
    for (let id = 0; id < vocabulary.size; id++) {
      const offset = vocabulary.tokenOffsets[id]!;
      if (vocabulary.isTextToken(id) && vocabulary.tokenOffsets[id + 1]! - offset === 1 && bytes[offset] === POINT) found.push(id);
    }
    pointTokensOf.set(vocabulary, (known = Int32Array.from(found)));
  }
  return known;
}

const minusTokensOf = new WeakMap<Vocabulary, Int32Array>();

/**
 * The text tokens with no digit that end in a minus sign (`-`, ` -`, `,-`): under a range a lone `-` can be a prefix
 * whose every completion is held (`held-ranges.ts`), where no list of `digitTokens` holds the token that writes it.
 */
export function minusTokens(vocabulary: Vocabulary): Int32Array {
  let known = minusTokensOf.get(vocabulary);
  if (known === undefined) {
    const found: number[] = [];
    const bytes = vocabulary.tokenBytesFlat;
    for (let id = 0; id < vocabulary.size; id++) {
      const start = vocabulary.tokenOffsets[id]!;
      const end = vocabulary.tokenOffsets[id + 1]!;
      if (!vocabulary.isTextToken(id) || end === start || bytes[end - 1] !== MINUS_SIGN) continue;
      let digit = false;
      for (let offset = start; offset < end && !digit; offset++) digit = bytes[offset]! >= DIGIT_ZERO && bytes[offset]! <= DIGIT_NINE;
      if (!digit) found.push(id);
    }
    minusTokensOf.set(vocabulary, (known = Int32Array.from(found)));
  }
  return known;
}
