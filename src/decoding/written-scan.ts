/**
 * Where the matcher's memory of items written (`written-strings.ts`) stands in the bytes: nesting, string bounds, the
 * decoder of string content, the range of held items the string begins like, the integer being written. Kept per
 * step for rollback (`SCAN_FIELDS` each), copied to walk a trial.
 * @module
 */
import { ESCAPED_UNIT } from './quote-tokens.js';

/**
 * Where the decoder of string content stands between bytes: at a character boundary, after a backslash, inside
 * `\uHHHH` (`HEX_DIGITS + n`: n digits read), or inside a UTF-8 character (`UTF8_LEFT + n`: n continuation bytes left).
 */
export const BOUNDARY = 0;
export const AFTER_BACKSLASH = 1;
export const HEX_DIGITS = 2;
export const UTF8_LEFT = 6;

/** The scan's fields (`Scan`), in order, per step in `WrittenStrings.steps`. */
export const SCAN_FIELDS = 12;

/** Where the scan of the bytes stands: kept per step for rollback, copied to walk a trial. */
export class Scan {
  /** Containers open outside strings. */
  depth = 0;
  inString = 0;
  /** Where the decoder of the string's content stands (`BOUNDARY`, …). */
  phase = BOUNDARY;
  /** The `\uHHHH` or UTF-8 character read so far. */
  partial = 0;
  /** Where the content of the string being written starts in `units`, and where it ends. */
  contentStart = 0;
  unitsEnd = 0;
  /** Bytes of the string being written (the limit counts bytes). */
  contentBytes = 0;
  /** The items held by the string's container that begin like it so far: `sorted[low, high)`. */
  low = 0;
  high = 0;
  /** Entries in the undo log. */
  undoLength = 0;
  /** Bytes in `WrittenStrings.raw` (where the grammar remembers object, array or integer items). */
  rawEnd = 0;
  /** Where in `raw` the number being written began (-1: none). */
  numberStart = -1;

  copy(from: Scan): void {
    this.depth = from.depth;
    this.inString = from.inString;
    this.phase = from.phase;
    this.partial = from.partial;
    this.contentStart = from.contentStart;
    this.unitsEnd = from.unitsEnd;
    this.contentBytes = from.contentBytes;
    this.low = from.low;
    this.high = from.high;
    this.undoLength = from.undoLength;
    this.rawEnd = from.rawEnd;
    this.numberStart = from.numberStart;
  }

  save(into: Int32Array, at: number): void {
    into[at] = this.depth;
    into[at + 1] = this.inString;
    into[at + 2] = this.phase;
    into[at + 3] = this.partial;
    into[at + 4] = this.contentStart;
    into[at + 5] = this.unitsEnd;
    into[at + 6] = this.contentBytes;
    into[at + 7] = this.low;
    into[at + 8] = this.high;
    into[at + 9] = this.undoLength;
    into[at + 10] = this.rawEnd;
    into[at + 11] = this.numberStart;
  }

  load(from: Int32Array, at: number): void {
    this.depth = from[at]!;
    this.inString = from[at + 1]!;
    this.phase = from[at + 2]!;
    this.partial = from[at + 3]!;
    this.contentStart = from[at + 4]!;
    this.unitsEnd = from[at + 5]!;
    this.contentBytes = from[at + 6]!;
    this.low = from[at + 7]!;
    this.high = from[at + 8]!;
    this.undoLength = from[at + 9]!;
    this.rawEnd = from[at + 10]!;
    this.numberStart = from[at + 11]!;
  }

  /** A byte after a backslash, inside `\uHHHH` or inside a UTF-8 character: the code point it completes, or -1. */
  continueCharacter(byte: number): number {
    if (this.phase === AFTER_BACKSLASH) {
      if (byte === 0x75) {
        this.phase = HEX_DIGITS;
        this.partial = 0;
        return -1;
      }
      this.phase = BOUNDARY;
      return ESCAPED_UNIT[byte]!;
    }
    if (this.phase < UTF8_LEFT) {
      this.partial = this.partial * 16 + hexValue(byte);
      if (++this.phase < HEX_DIGITS + 4) return -1;
    } else {
      this.partial = (this.partial << 6) | (byte & 0x3f);
      if (--this.phase > UTF8_LEFT) return -1;
    }
    this.phase = BOUNDARY;
    return this.partial;
  }

  /**
   * The string's unit at `at` is `unit`: the range of held items that begin like it (`sorted[low, high)`, items that
   * share their first `at` units, so their unit at `at`, -1 past their end, only grows) narrowed to those with it.
   */
  narrow(sorted: readonly string[], at: number, unit: number): void {
    let low = this.low;
    let high = this.high;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const value = sorted[middle]!;
      if ((value.length > at ? value.charCodeAt(at) : -1) < unit) low = middle + 1;
      else high = middle;
    }
    this.low = low;
    high = this.high;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const value = sorted[middle]!;
      if ((value.length > at ? value.charCodeAt(at) : -1) <= unit) low = middle + 1;
      else high = middle;
    }
    this.high = low;
  }
}

/** The value of a hex digit byte (the automaton lets only hex digits through where it is read). */
function hexValue(byte: number): number {
  return byte <= 0x39 ? byte - 0x30 : (byte | 0x20) - 0x57;
}
