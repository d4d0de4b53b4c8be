/**
 * The run-time check behind a decimal `multipleOf` (`decimal-multiples.ts`): the matcher reads the number being written
 * beside its state history and, where the automaton's state holds a checked number (`JsonAutomaton.checkedNumbers`),
 * applies Ajv's test to it. A number whose every completion fails dies there (no dead end: `0.07` under `0.01`, so the
 * `7` after `0.0` is refused), and one that fails as written may go on but not close (`0.1` under `0.01` is refused at
 * `,` but not at `5`): the automaton's `withoutChecked` gives the state without those configurations, as
 * `duplicateClose` does for repeated items, so an anyOf branch without the check still takes the text. A number closes
 * on the byte after it, often inside a token (`07,`): that byte steps from the state already without the close.
 *
 * Every configuration writing a number consumed the same bytes (a number starts after a byte no number takes), so one
 * reading serves them all: the sign, integer part and fraction digits since the last byte that is not a number's.
 * Masks come from the automaton's shared caches; a token can differ from what they say only where its walk reaches a
 * state with a checked number, so per state the tokens with a digit that do (`checkedTokens`) are listed once, and a
 * mask walks those. The hot path allocates nothing.
 * @module
 */
import { DIGIT_NINE, DIGIT_ZERO, MINUS_SIGN, PLUS_SIGN, POINT } from '../shared/json-bytes.js';
import { liveAfterPoint, passesScaled } from './decimal-multiples.js';
import { DEAD, UNKNOWN, type JsonAutomaton } from './json-automaton.js';
import { digitTokens } from './quote-tokens.js';
import type { Vocabulary } from './vocabulary.js';

/** Fraction digits read (the checks have at most 15: past them only zeros are offered). */
const MAX_DIGITS = 15;
/** The reading's fields per step in `WrittenNumbers.steps`: negative, integer part, point, fraction, digits. */
const FIELDS = 5;

/**
 * Per automaton and vocabulary, per state: the tokens with a digit (`digitTokens`) whose walk reaches a state with a
 * checked number; only a digit can make a checked number fail.
 */
const stateTokens = new WeakMap<JsonAutomaton, WeakMap<Vocabulary, (Int32Array | undefined)[]>>();

export class WrittenNumbers {
  private readonly automaton: JsonAutomaton;
  private readonly vocabulary: Vocabulary;
  private readonly lists: (Int32Array | undefined)[];
  /** The number read so far (the committed reading; a trial reads into its own locals). */
  private negative = 0;
  private intPart = 0;
  private point = 0;
  private fraction = 0;
  private digits = 0;
  /** Per step of the matcher: the reading after it (`FIELDS` each; step 0: nothing written). */
  private steps = new Float64Array(256 * FIELDS);
  /** `walk`'s reading when it returns (a trial's is dropped, `accept` keeps it). */
  private readonly reading = new Float64Array(FIELDS);

  constructor(automaton: JsonAutomaton, vocabulary: Vocabulary) {
    this.automaton = automaton;
    this.vocabulary = vocabulary;
    let byVocabulary = stateTokens.get(automaton);
    if (byVocabulary === undefined) stateTokens.set(automaton, (byVocabulary = new WeakMap()));
    let lists = byVocabulary.get(vocabulary);
    if (lists === undefined) byVocabulary.set(vocabulary, (lists = []));
    this.lists = lists;
  }

  /** Steps `state` through `bytes[from, to)` and keeps the number read; DEAD when a byte or a checked number fails. */
  accept(state: number, bytes: Uint8Array, from: number, to: number): number {
    const at = this.walk(state, bytes, from, to);
    if (at === DEAD) return DEAD;
    const reading = this.reading;
    this.negative = reading[0]!;
    this.intPart = reading[1]!;
    this.point = reading[2]!;
    this.fraction = reading[3]!;
    this.digits = reading[4]!;
    return at;
  }

  /** Records that the matcher's step `step` is done (after `accept`, or an end-of-sequence token that adds no bytes). */
  endStep(step: number): void {
    if ((step + 1) * FIELDS > this.steps.length) {
      const bigger = new Float64Array(Math.max((step + 1) * FIELDS, this.steps.length * 2));
      bigger.set(this.steps);
      this.steps = bigger;
    }
    const at = step * FIELDS;
    this.steps[at] = this.negative;
    this.steps[at + 1] = this.intPart;
    this.steps[at + 2] = this.point;
    this.steps[at + 3] = this.fraction;
    this.steps[at + 4] = this.digits;
  }

  /** Back to the reading after step `step` (0: nothing written). */
  rollback(step: number): void {
    const at = step * FIELDS;
    this.negative = this.steps[at]!;
    this.intPart = this.steps[at + 1]!;
    this.point = this.steps[at + 2]!;
    this.fraction = this.steps[at + 3]!;
    this.digits = this.steps[at + 4]!;
  }

  /** Clears in `mask` (the automaton's mask for `state`) every token that makes a checked number fail. */
  filterMask(state: number, mask: Uint32Array): void {
    const candidates = (this.lists[state] ??= this.checkedTokens(state));
    const offsets = this.vocabulary.tokenOffsets;
    const bytes = this.vocabulary.tokenBytesFlat;
    for (let index = 0; index < candidates.length; index++) {
      const id = candidates[index]!;
      if ((mask[id >>> 5]! & (1 << (id & 31))) === 0) continue;
      if (this.walk(state, bytes, offsets[id]!, offsets[id + 1]!) === DEAD) mask[id >>> 5]! &= ~(1 << (id & 31));
    }
  }

  /**
   * The tokens with a digit whose walk from `state` (by the automaton alone) reaches a state with a checked number: the
   * others step exactly as the automaton does. A token without a digit never fails a check: a `-` or a `.` leaves a
   * prefix that goes on (`decimal-multiples.ts`), and a number closes where its last digit was read.
   */
  private checkedTokens(state: number): Int32Array {
    const automaton = this.automaton;
    const bytes = this.vocabulary.tokenBytesFlat;
    const offsets = this.vocabulary.tokenOffsets;
    const digits = digitTokens(this.vocabulary).any;
    const found: number[] = [];
    for (let index = 0; index < digits.length; index++) {
      const id = digits[index]!;
      let at = state;
      for (let offset = offsets[id]!; offset < offsets[id + 1]!; offset++) {
        const next = automaton.trans[at * 256 + bytes[offset]!]!;
        at = next !== UNKNOWN ? next : automaton.transition(at, bytes[offset]!);
        if (at === DEAD) break;
        if (automaton.checkedNumbers[at] !== undefined) {
          found.push(id);
          break;
        }
      }
    }
    return Int32Array.from(found);
  }

  /** Steps `state` through `bytes[from, to)`, reading the number written and checking it; the reading ends in `reading`. */
  private walk(state: number, bytes: Uint8Array, from: number, to: number): number {
    const automaton = this.automaton;
    let negative = this.negative;
    let intPart = this.intPart;
    let point = this.point;
    let fraction = this.fraction;
    let digits = this.digits;
    let at = state;
    for (let offset = from; offset < to; offset++) {
      const byte = bytes[offset]!;
      if (byte >= DIGIT_ZERO && byte <= DIGIT_NINE) {
        if (point === 0) intPart = intPart * 10 + (byte - DIGIT_ZERO);
        else if (digits < MAX_DIGITS) {
          fraction = fraction * 10 + (byte - DIGIT_ZERO);
          digits++;
        }
      } else if (byte === POINT) point = 1;
      else if (byte === MINUS_SIGN) negative = intPart === 0 && point === 0 ? 1 : negative;
      else if (byte !== PLUS_SIGN && (byte | 0x20) !== 0x65) {
        // not a number's byte: the next number starts afresh (an exponent's `e`, `+` and `-` leave no checked number)
        negative = intPart = point = fraction = digits = 0;
      }
      const previous = at;
      const cached = automaton.trans[at * 256 + byte]!;
      at = cached !== UNKNOWN ? cached : automaton.transition(at, byte);
      if (at === DEAD) return DEAD;
      const checked = automaton.checkedNumbers[at];
      if (checked === undefined) continue;
      let dead = 0;
      let unclosed = 0;
      const checks = checked.checks;
      for (let index = 0; index < checks.length; index++) {
        const check = checks[index]!;
        const scale = check.scale;
        if (point === 1 && !liveAfterPoint(check, negative === 1, intPart, fraction, digits)) dead |= 1 << index;
        else if ((checked.closing & (1 << index)) !== 0) {
          const scaled = digits <= scale ? fraction * 10 ** (scale - digits) : fraction / 10 ** (digits - scale);
          if (!passesScaled(check, intPart, scaled)) unclosed |= 1 << index;
        }
      }
      if (dead !== 0 || unclosed !== 0) at = automaton.derived.withoutChecked(previous, byte, dead, unclosed);
      if (at === DEAD) return DEAD;
    }
    const reading = this.reading;
    reading[0] = negative;
    reading[1] = intPart;
    reading[2] = point;
    reading[3] = fraction;
    reading[4] = digits;
    return at;
  }
}
