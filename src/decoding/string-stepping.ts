/**
 * One byte of a JSON string for the byte automaton (`json-automaton.ts`): the string
 * frame after the byte, with UTF-8 sequences and escapes decoded into code points for
 * the content DFA, `minLength`/`maxLength` kept reachable, and excluded names tracked.
 * A frame is only ever created live: a byte that would strand the string (no allowed
 * length or content left to close on) has no next frame.
 * @module
 */
import { FINISHED, StringMode, type Frame, type FrameTable } from './automaton-frames.js';
import type { StringAlternative } from './grammar-ir.js';
import { FREE, isCounted, nextCount, type StringLengths } from './string-length-analysis.js';

const SHORT_ESCAPES = new Map<number, number>([
  [0x22, 0x22],
  [0x5c, 0x5c],
  [0x62, 0x08],
  [0x66, 0x0c],
  [0x6e, 0x0a],
  [0x72, 0x0d],
  [0x74, 0x09],
]);
/** Code points JSON.stringify writes as `\u00xx` (lowercase): controls without a short escape. */
const CANONICAL_UNICODE_ESCAPES: readonly number[] = [0x00, 0x07, 0x0b, 0x0b, 0x0e, 0x1f];
const UTF8_MIN = [0, 0, 0x80, 0x800, 0x10000];
const UTF8_MAX = [0, 0x7f, 0x7ff, 0xffff, 0x10ffff];

export class StringStepper {
  /** `flexible`: the layout also accepts `\/` and `\uHHHH` escapes of any code point. */
  constructor(
    private readonly frames: FrameTable,
    private readonly lengths: StringLengths,
    private readonly flexible: boolean,
  ) {}

  /**
   * Each frame's successor on each byte, by `frame.id · 256 + byte` (a frame's fields, its alternative among them, decide
   * it): configurations that differ below a string share its frame, and each stepped it afresh, building its keys again
   * (a first mask of Github_medium/o65942 stepped 81 distinct frame and byte pairs 27,000 times).
   */
  private readonly successors = new Map<number, Frame | null>();

  /**
   * The string frame after `byte`: `FINISHED` when the byte closes the string, null when no live continuation takes it.
   * `alternative` is the frame's own (`frame.alternative` is its id).
   */
  step(frame: Frame, alternative: StringAlternative, byte: number): Frame | null {
    const key = frame.id * 256 + byte;
    const known = this.successors.get(key);
    if (known !== undefined) return known;
    const next = this.successor(frame, alternative, byte);
    this.successors.set(key, next);
    return next;
  }

  private successor(frame: Frame, alternative: StringAlternative, byte: number): Frame | null {
    const { dfaState: state, count, exclusion } = frame;
    switch (frame.phase as StringMode) {
      case StringMode.Open:
        return byte === 0x22 ? this.frames.stringFrame(alternative.id, StringMode.Boundary, state, count, exclusion) : null;
      case StringMode.Boundary:
        return this.stepBoundary(frame, alternative, byte);
      case StringMode.Utf8: {
        if (byte < 0x80 || byte > 0xbf) return null;
        const value = (frame.sequenceValue << 6) | (byte & 0x3f);
        const remaining = frame.sequenceLeft - 1;
        const length = frame.sequenceLength;
        if (remaining > 0) return this.partial(frame, alternative, value, remaining, length);
        return value >= UTF8_MIN[length]! && !(value >= 0xd800 && value <= 0xdfff) ? this.completeChar(frame, alternative, value) : null;
      }
      case StringMode.Utf8To:
        if (byte < 0x80 || byte > 0xbf) return null;
        if (frame.sequenceLeft > 1) return this.frames.stringFrame(alternative.id, StringMode.Utf8To, state, count, -1, 0, frame.sequenceLeft - 1);
        return this.frames.stringFrame(alternative.id, StringMode.Boundary, state, nextCount(alternative, count), -1);
      case StringMode.Escape: {
        const short = SHORT_ESCAPES.get(byte);
        if (short !== undefined) return this.completeChar(frame, alternative, short);
        if (byte === 0x2f && this.flexible) return this.completeChar(frame, alternative, 0x2f);
        if (byte === 0x75 && this.unicodeEscapeViable(alternative, state, count, 0, 0))
          return this.frames.stringFrame(alternative.id, StringMode.UnicodeEscape, state, count, exclusion, 0, 4);
        return null;
      }
      case StringMode.UnicodeEscape:
        return this.stepUnicodeEscape(frame, alternative, byte);
      case StringMode.UnicodeEscapeTo:
        if (hexValue(byte, true) < 0) return null;
        if (frame.sequenceLeft > 1) return this.frames.stringFrame(alternative.id, StringMode.UnicodeEscapeTo, state, count, -1, 0, frame.sequenceLeft - 1);
        return this.frames.stringFrame(alternative.id, StringMode.Boundary, state, nextCount(alternative, count), -1);
    }
  }

  /** A byte at a character boundary: the closing quote, a backslash, ASCII, or the lead byte of a UTF-8 sequence. */
  private stepBoundary(frame: Frame, alternative: StringAlternative, byte: number): Frame | null {
    const { dfaState: state, count, exclusion } = frame;
    if (byte === 0x22) return this.canClose(alternative, state, count, exclusion) ? FINISHED : null;
    if (byte === 0x5c) {
      return this.escapeViable(alternative, state, count) ? this.frames.stringFrame(alternative.id, StringMode.Escape, state, count, exclusion) : null;
    }
    if (byte < 0x20) return null;
    if (byte < 0x80) return this.completeChar(frame, alternative, byte);
    if (byte >= 0xc2 && byte <= 0xdf) return this.partial(frame, alternative, byte & 0x1f, 1, 2);
    if (byte >= 0xe0 && byte <= 0xef) return this.partial(frame, alternative, byte & 0x0f, 2, 3);
    if (byte >= 0xf0 && byte <= 0xf4) return this.partial(frame, alternative, byte & 0x07, 3, 4);
    return null;
  }

  private stepUnicodeEscape(frame: Frame, alternative: StringAlternative, byte: number): Frame | null {
    const { dfaState: state, count, exclusion } = frame;
    const digit = hexValue(byte, this.flexible);
    if (digit < 0) return null;
    const value = frame.sequenceValue * 16 + digit;
    const digits = 4 - frame.sequenceLeft + 1;
    if (digits === 4) return this.unicodeAllowed(value, value) ? this.completeChar(frame, alternative, value) : null;
    if (!this.unicodeEscapeViable(alternative, state, count, value, digits)) return null;
    // as for UTF-8: once every completion is a valid code point leading to one state, forget the digits
    const lo = value * 16 ** (4 - digits);
    const hi = lo + 16 ** (4 - digits) - 1;
    const target =
      this.flexible && !(lo <= 0xdfff && hi >= 0xd800) && (alternative.exclude === null || !alternative.exclude.hasChildIn(exclusion, lo, hi))
        ? alternative.dfa.rangeTarget(state, lo, hi)
        : -1;
    if (target >= 0) return this.frames.stringFrame(alternative.id, StringMode.UnicodeEscapeTo, target, count, -1, 0, 4 - digits);
    return this.frames.stringFrame(alternative.id, StringMode.UnicodeEscape, state, count, exclusion, value, 4 - digits);
  }

  private canClose(alternative: StringAlternative, state: number, count: number, exclusion: number): boolean {
    if (alternative.dfa.accepting[state] !== 1) return false;
    if (count !== FREE && isCounted(alternative) && count < alternative.minLength) return false;
    return !(exclusion >= 0 && alternative.exclude!.terminal[exclusion]!);
  }

  private completeChar(frame: Frame, alternative: StringAlternative, codePoint: number): Frame | null {
    const next = alternative.dfa.step(frame.dfaState, codePoint);
    if (next < 0) return null;
    if (!this.liveAfterChar(alternative, next, frame.count)) return null;
    const exclusion = alternative.exclude === null ? -1 : alternative.exclude.step(frame.exclusion, codePoint);
    return this.frames.stringFrame(alternative.id, StringMode.Boundary, next, nextCount(alternative, frame.count), exclusion);
  }

  /** Whether a string may continue to an accepting end after one more character lands in `state`. */
  private liveAfterChar(alternative: StringAlternative, state: number, count: number): boolean {
    if (count === FREE || !isCounted(alternative)) return true;
    if (count + 1 > alternative.maxLength) return false;
    return this.lengths.canFinish(alternative, state, nextCount(alternative, count));
  }

  /** Some code point in `lo..hi` (surrogates excluded) has a live transition from `state`. */
  private rangeViable(alternative: StringAlternative, state: number, count: number, lo: number, hi: number): boolean {
    const ranges = alternative.dfa.transitions[state]!;
    for (let part = 0; part < 2; part++) {
      const partLo = part === 0 ? lo : Math.max(lo, 0xe000);
      const partHi = part === 0 ? Math.min(hi, 0xd7ff) : hi;
      if (partLo > partHi) continue;
      for (let index = 0; index < ranges.length; index += 3) {
        if (ranges[index]! > partHi || ranges[index + 1]! < partLo) continue;
        if (this.liveAfterChar(alternative, ranges[index + 2]!, count)) return true;
      }
    }
    return false;
  }

  /** Inside a UTF-8 sequence of `length` bytes: `value` holds the bits read so far, `remaining` bytes to go. */
  private partial(frame: Frame, alternative: StringAlternative, value: number, remaining: number, length: number): Frame | null {
    const shift = 6 * remaining;
    const rawLo = value * 2 ** shift;
    const rawHi = rawLo + 2 ** shift - 1;
    const lo = Math.max(rawLo, UTF8_MIN[length]!);
    const hi = Math.min(rawHi, UTF8_MAX[length]!);
    if (lo > hi) return null;
    const touchesSurrogates = lo <= 0xdfff && hi >= 0xd800;
    if (touchesSurrogates && lo >= 0xd800 && hi <= 0xdfff) return null;
    if (!this.rangeViable(alternative, frame.dfaState, frame.count, lo, hi)) return null;
    // forgetting the bytes is only safe when every continuation completes a valid character:
    // E0, F0 and F4 lead bytes (overlong or out-of-range completions) and ED (surrogates) must wait
    const everyCompletionValid = rawLo >= UTF8_MIN[length]! && rawHi <= UTF8_MAX[length]! && !touchesSurrogates;
    if (everyCompletionValid && (alternative.exclude === null || !alternative.exclude.hasChildIn(frame.exclusion, lo, hi))) {
      const target = alternative.dfa.rangeTarget(frame.dfaState, lo, hi);
      // every completion lands in `target`: forget the exact bytes, so CJK tokens share states
      if (target >= 0) return this.frames.stringFrame(alternative.id, StringMode.Utf8To, target, frame.count, -1, 0, remaining);
    }
    return this.frames.stringFrame(alternative.id, StringMode.Utf8, frame.dfaState, frame.count, frame.exclusion, value, remaining, length);
  }

  private escapeViable(alternative: StringAlternative, state: number, count: number): boolean {
    for (const codePoint of SHORT_ESCAPES.values()) if (this.rangeViable(alternative, state, count, codePoint, codePoint)) return true;
    if (this.flexible && this.rangeViable(alternative, state, count, 0x2f, 0x2f)) return true;
    return this.unicodeEscapeViable(alternative, state, count, 0, 0);
  }

  private unicodeAllowed(lo: number, hi: number): boolean {
    if (this.flexible) return !(lo >= 0xd800 && hi <= 0xdfff);
    for (let index = 0; index < CANONICAL_UNICODE_ESCAPES.length; index += 2)
      if (lo <= CANONICAL_UNICODE_ESCAPES[index + 1]! && hi >= CANONICAL_UNICODE_ESCAPES[index]!) return true;
    return false;
  }

  private unicodeEscapeViable(alternative: StringAlternative, state: number, count: number, value: number, digits: number): boolean {
    const shift = 4 * (4 - digits);
    const lo = value * 2 ** shift;
    const hi = lo + 2 ** shift - 1;
    if (this.flexible) return this.rangeViable(alternative, state, count, lo, hi);
    for (let index = 0; index < CANONICAL_UNICODE_ESCAPES.length; index += 2) {
      const from = Math.max(lo, CANONICAL_UNICODE_ESCAPES[index]!);
      const to = Math.min(hi, CANONICAL_UNICODE_ESCAPES[index + 1]!);
      if (from <= to && this.rangeViable(alternative, state, count, from, to)) return true;
    }
    return false;
  }
}

/** Sets the bytes a string frame might consume next (see `markCandidateBytes`). */
export function markStringCandidateBytes(frame: Frame, alternative: StringAlternative, candidates: Uint8Array): void {
  const mode = frame.phase as StringMode;
  if (mode === StringMode.Open) {
    candidates[0x22] = 1;
    return;
  }
  if (mode === StringMode.Utf8 || mode === StringMode.Utf8To) {
    for (let byte = 0x80; byte <= 0xbf; byte++) candidates[byte] = 1;
    return;
  }
  if (mode === StringMode.Escape) {
    for (const byte of SHORT_ESCAPES.keys()) candidates[byte] = 1;
    candidates[0x75] = 1;
    candidates[0x2f] = 1;
    return;
  }
  if (mode === StringMode.UnicodeEscape || mode === StringMode.UnicodeEscapeTo) {
    for (const byte of '0123456789abcdefABCDEF') candidates[byte.charCodeAt(0)] = 1;
    return;
  }
  // string body: ASCII the DFA can take, quote, backslash, and lead bytes if it takes anything beyond ASCII
  const ranges = alternative.dfa.transitions[frame.dfaState]!;
  candidates[0x22] = 1;
  candidates[0x5c] = 1;
  for (let index = 0; index < ranges.length; index += 3) {
    const lo = ranges[index]!;
    const hi = ranges[index + 1]!;
    for (let byte = Math.max(lo, 0x20); byte <= Math.min(hi, 0x7f); byte++) candidates[byte] = 1;
    if (hi >= 0x80) for (let byte = 0xc2; byte <= 0xf4; byte++) candidates[byte] = 1;
  }
}

function hexValue(byte: number, anyCase: boolean): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (anyCase && byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}
