/**
 * The integers of `uniqueNumbers` arrays in the matcher's memory (`written-strings.ts`): their values, read from the
 * bytes kept since the integer's first byte, and the rule that a prefix whose every completion is held is a dead end.
 *
 * An integer item does not close on a byte of its own but on the byte after it (`,`, `]`, whitespace), perhaps inside a
 * token (`1,`, `0]`): the automaton keeps it open until then (`isTrackedNumber`), and the memory compares its value
 * there. Its language is `SAFE_INTEGERS` (`remembered-items.ts`), within which every text but `-0` is its own double,
 * so equal values are equal digits; `-0` is 0.
 *
 * Which prefixes can run out, exactly: `0` and `-0` complete to 0 only (no digit may follow a leading zero); a prefix of
 * digits `d` (value P, sign s, no leading zero) completes to s·(P·10^j + r) for every j ≥ 0 with P·10^j ≤ 2^53 − 1 and
 * 0 ≤ r < 10^j (capped at 2^53 − 1): one interval of integers per j, all in the language. A lone `-` completes to every
 * negative integer, more than the memory can hold (`uniqueItemsMaxStringBytes`). So a prefix is dead exactly when the
 * held values in its intervals are as many as the intervals hold, which `reachesOnlyHeld` counts without allocating.
 * @module
 */
import { DIGIT_NINE, DIGIT_ZERO, MINUS_SIGN, POINT } from '../shared/json-bytes.js';

/**
 * The interval `countInBounds` counts held values in ([low, high]), and the value `readNumber` reads (both ends): the
 * hot path passes no double to a call, since V8 allocates one that a call it does not inline takes or returns.
 */
export const NUMBER_BOUNDS = new Float64Array(2);
/** 10^0 … 10^15, each exact (parsed, not computed). */
export const POWERS_OF_TEN: readonly number[] = Array.from({ length: 16 }, (_, power) => Number(`1e${power}`));
/** Digits a remembered decimal may have (a lone leading `0` not counted, `held-numbers.ts`): 15 significant digits round-trip through a double. */
export const DECIMAL_DIGITS = 15;
/** The largest magnitude of `SAFE_INTEGERS`. */
const LARGEST = 2 ** 53 - 1;

/** True for a byte that may begin a JSON number. */
export function startsNumber(byte: number): boolean {
  return byte === MINUS_SIGN || (byte >= DIGIT_ZERO && byte <= DIGIT_NINE);
}

/** The sorted values of the integers an array holds (0 for `-0`). */
export class HeldNumbers {
  readonly sorted: number[] = [];

  add(value: number): void {
    this.sorted.splice(this.atLeast(value), 0, value);
  }

  remove(value: number): void {
    this.sorted.splice(this.atLeast(value), 1);
  }

  has(value: number): boolean {
    const at = this.atLeast(value);
    return at < this.sorted.length && this.sorted[at] === value;
  }

  /** How many held values lie in `NUMBER_BOUNDS` (integers or not). */
  countInBounds(): number {
    return this.firstPast(NUMBER_BOUNDS[1]!, true) - this.firstPast(NUMBER_BOUNDS[0]!, false);
  }

  /** The first index whose value is at least `value` (`past`: more than `value`). */
  private firstPast(value: number, past: boolean): number {
    const sorted = this.sorted;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]! < value || (past && sorted[middle] === value)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The first index whose value is at least `value`. */
  private atLeast(value: number): number {
    return this.firstPast(value, false);
  }
}

/** The integers a trial (one token walked) closed, per array depth: checked against each other, never kept. */
export class PendingNumbers {
  private depths = new Int32Array(8);
  private values = new Float64Array(8);
  count = 0;

  /** Adds the value `readNumber` read, closed at `depth`. */
  addRead(depth: number): void {
    if (this.count === this.depths.length) {
      const depths = new Int32Array(this.count * 2);
      depths.set(this.depths);
      this.depths = depths;
      const values = new Float64Array(this.count * 2);
      values.set(this.values);
      this.values = values;
    }
    this.depths[this.count] = depth;
    this.values[this.count++] = NUMBER_BOUNDS[0]!;
  }

  /** A container opened at `depth`: the items closed at that depth and above belong to arrays that are gone. */
  forget(depth: number): void {
    let kept = 0;
    for (let index = 0; index < this.count; index++) {
      if (this.depths[index]! >= depth) continue;
      this.depths[kept] = this.depths[index]!;
      this.values[kept++] = this.values[index]!;
    }
    this.count = kept;
  }

  /** How many values closed at `depth` lie in `NUMBER_BOUNDS`. */
  countInBounds(depth: number): number {
    const low = NUMBER_BOUNDS[0]!;
    const high = NUMBER_BOUNDS[1]!;
    let count = 0;
    for (let index = 0; index < this.count; index++) {
      if (this.depths[index] === depth && this.values[index]! >= low && this.values[index]! <= high) count++;
    }
    return count;
  }
}

/**
 * Reads the value of the number text `raw[start, end)` (an integer, or a plain decimal of at most 15 digits,
 * `held-numbers.ts`; 0 for `-0`, `-0.0`) into both ends of `NUMBER_BOUNDS`; false where it is not one yet (`-`, `1.`)
 * or holds another byte.
 */
export function readNumber(raw: Uint8Array, start: number, end: number): boolean {
  const negative = raw[start] === MINUS_SIGN;
  let value = 0;
  let digits = 0;
  let fraction = -1;
  for (let offset = negative ? start + 1 : start; offset < end; offset++) {
    const byte = raw[offset]!;
    if (byte === POINT && fraction < 0) {
      fraction = 0;
      continue;
    }
    const digit = byte - DIGIT_ZERO;
    if (digit < 0 || digit > 9) return false;
    value = value * 10 + digit;
    digits++;
    if (fraction >= 0) fraction++;
  }
  if (digits === 0 || fraction === 0 || fraction > 15) return false;
  if (fraction > 0) value /= POWERS_OF_TEN[fraction]!;
  NUMBER_BOUNDS[0] = NUMBER_BOUNDS[1] = negative ? -value || 0 : value;
  return true;
}

/**
 * True when every integer of `SAFE_INTEGERS` that completes the prefix `raw[start, end)` (a prefix of that language)
 * is held at `depth`, in `held` or closed by the trial (`pending`).
 */
export function reachesOnlyHeld(raw: Uint8Array, start: number, end: number, held: HeldNumbers | undefined, pending: PendingNumbers, depth: number): boolean {
  if (!readNumber(raw, start, end)) return false;
  const value = NUMBER_BOUNDS[0]!;
  const heldCount = (held?.sorted.length ?? 0) + pending.count;
  if (heldCount === 0) return false;
  const negative = raw[start] === MINUS_SIGN;
  const magnitude = Math.abs(value);
  // a leading zero takes no digit after it
  const leadingZero = magnitude === 0;
  let reachable = 0;
  let found = 0;
  for (let scale = 1; magnitude * scale <= LARGEST && (scale === 1 || !leadingZero); scale *= 10) {
    const low = magnitude * scale;
    const high = scale - 1 > LARGEST - low ? LARGEST : low + scale - 1;
    reachable += high - low + 1;
    if (reachable > heldCount) return false;
    const from = negative ? -high : low;
    const to = negative ? -low : high;
    NUMBER_BOUNDS[0] = from;
    NUMBER_BOUNDS[1] = to;
    found += (held?.countInBounds() ?? 0) + pending.countInBounds(depth);
  }
  return found === reachable;
}

/**
 * Whether `more` digits after the integer being written (`raw[start, end)`; start -1: none yet) can reach a prefix whose
 * every completion is held in `held`: a prefix of L digits with a non-zero lead completes to at least 10^(15 − L)
 * integers (every r < 10^(15 − L) after it stays below 10^15 < 2^53), so only a prefix of at least 15 − log10(held)
 * digits can, or `0` (`-0`) where 0 is held.
 */
export function mayReachOnlyHeld(raw: Uint8Array, start: number, end: number, more: number, held: HeldNumbers): boolean {
  if (held.has(0)) return true;
  let digits = 0;
  if (start >= 0) for (let offset = start; offset < end; offset++) if (raw[offset]! !== MINUS_SIGN) digits++;
  return digits + more >= 15 - Math.log10(held.sorted.length);
}

/**
 * What `readDecimalPrefix` read: every digit as one integer S, the digits counted D (a lone leading 0 not), the
 * fraction digits k (−1 before a point); and what `readHeldPrefix` read: 1 where a minus sign leads.
 */
export const DECIMAL_PREFIX = new Float64Array(4);

/** Reads the unsigned decimal prefix `raw[from, end)` (digits and at most a point) into `DECIMAL_PREFIX`; false on any other byte. */
export function readDecimalPrefix(raw: Uint8Array, from: number, end: number): boolean {
  let significand = 0;
  let counted = 0;
  let fraction = -1;
  for (let offset = from; offset < end; offset++) {
    const byte = raw[offset]!;
    if (byte === POINT) fraction = 0;
    else {
      const digit = byte - DIGIT_ZERO;
      if (digit < 0 || digit > 9) return false;
      significand = significand * 10 + digit;
      if (fraction >= 0) fraction++;
      if (significand > 0 || fraction >= 0) counted++;
    }
  }
  DECIMAL_PREFIX[0] = significand;
  DECIMAL_PREFIX[1] = counted;
  DECIMAL_PREFIX[2] = fraction;
  return true;
}

/**
 * The values held at a number's array (`held`, and `pending` closed by the trial), 0 where none is or where the signed
 * number prefix `raw[start, end)` is not a decimal one; else the prefix read into `DECIMAL_PREFIX`, its sign too.
 */
export function readHeldPrefix(raw: Uint8Array, start: number, end: number, held: HeldNumbers | undefined, pending: PendingNumbers): number {
  const heldCount = (held?.sorted.length ?? 0) + pending.count;
  if (heldCount === 0) return 0;
  const negative = raw[start] === MINUS_SIGN;
  if (!readDecimalPrefix(raw, negative ? start + 1 : start, end)) return 0;
  DECIMAL_PREFIX[3] = negative ? 1 : 0;
  return heldCount;
}
