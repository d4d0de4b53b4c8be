/**
 * JSON number texts whose value lies in an interval, as a small byte automaton.
 * Bounds are compared as exact decimals, digit by digit; an exclusive bound on a
 * non-integer becomes the inclusive neighbouring double, so that whatever double a
 * text parses to still satisfies the bound (parsing rounds monotonically).
 * @module
 */
import { DIGIT_ZERO, MINUS_SIGN, PLUS_SIGN, POINT } from '../shared/json-bytes.js';

/** Symbols of the number alphabet: digits 0–9, then `-`, `.`, `e`/`E`, `+`. */
export const NUMBER_SYMBOLS = 14;
export const MINUS = 10;
export const DOT = 11;
export const EXP = 12;
const PLUS = 13;

/** Byte → number symbol, or -1. */
export const NUMBER_SYMBOL_OF_BYTE: Int8Array = (() => {
  const table = new Int8Array(256).fill(-1);
  for (let digit = 0; digit < 10; digit++) table[DIGIT_ZERO + digit] = digit;
  table[MINUS_SIGN] = MINUS;
  table[POINT] = DOT;
  table[0x65] = EXP; // e
  table[0x45] = EXP; // E
  table[PLUS_SIGN] = PLUS;
  return table;
})();

export interface NumberConstraint {
  /** Only integers (no fraction, no exponent). */
  integer: boolean;
  /** Lower bound, `-Infinity` for none. */
  minimum: number;
  /** Whether `minimum` itself is excluded. */
  exclusiveMinimum: boolean;
  /** Upper bound, `Infinity` for none. */
  maximum: number;
  /** Whether `maximum` itself is excluded. */
  exclusiveMaximum: boolean;
}

/** A deterministic automaton over number symbols; state 0 is the start. */
export class NumberAutomaton {
  /** `next[state * NUMBER_SYMBOLS + symbol]`: next state or -1. */
  readonly next: Int32Array;
  /** Whether a number may end in each state. */
  readonly accepting: Uint8Array;

  constructor(next: Int32Array, accepting: Uint8Array) {
    this.next = next;
    this.accepting = accepting;
  }

  /** True when `text` is in the language. */
  matches(text: string): boolean {
    let state = 0;
    for (let index = 0; index < text.length; index++) {
      const symbol = NUMBER_SYMBOL_OF_BYTE[text.charCodeAt(index) & 0xff]!;
      if (text.charCodeAt(index) > 0x7f || symbol < 0) return false;
      state = this.next[state * NUMBER_SYMBOLS + symbol]!;
      if (state < 0) return false;
    }
    return this.accepting[state] === 1;
  }
}

const SYMBOL_TEXT = '0123456789-.e+';

/**
 * Every text of a finite language (depth first), or undefined when it holds more than `maxTexts` texts or is infinite
 * (a state on the path is reached again).
 */
export function finiteNumberTexts(automaton: NumberAutomaton, maxTexts: number): string[] | undefined {
  const texts: string[] = [];
  const onPath = new Uint8Array(automaton.accepting.length);
  const walk = (state: number, prefix: string): boolean => {
    if (onPath[state] === 1) return false;
    if (automaton.accepting[state] === 1 && texts.push(prefix) > maxTexts) return false;
    onPath[state] = 1;
    for (let symbol = 0; symbol < NUMBER_SYMBOLS; symbol++) {
      const target = automaton.next[state * NUMBER_SYMBOLS + symbol]!;
      if (target >= 0 && !walk(target, prefix + SYMBOL_TEXT[symbol]!)) return false;
    }
    onPath[state] = 0;
    return true;
  };
  return walk(0, '') ? texts : undefined;
}

/** An exact non-negative decimal: integer digits without leading zeros ("0" for zero) and fraction digits without trailing zeros. */
interface Decimal {
  readonly int: string;
  readonly frac: string;
}

/** Exact decimal of a finite double's shortest representation, split into sign and magnitude. */
export function toDecimal(value: number): { negative: boolean; magnitude: Decimal } {
  const negative = value < 0 || Object.is(value, -0);
  let text = Math.abs(value).toString();
  let exponent = 0;
  const e = text.indexOf('e');
  if (e >= 0) {
    exponent = Number(text.slice(e + 1));
    text = text.slice(0, e);
  }
  const dot = text.indexOf('.');
  let digits = dot >= 0 ? text.slice(0, dot) + text.slice(dot + 1) : text;
  let point = (dot >= 0 ? dot : text.length) + exponent;
  if (point <= 0) {
    digits = '0'.repeat(1 - point) + digits;
    point = 1;
  } else if (point > digits.length) {
    digits = digits + '0'.repeat(point - digits.length);
  }
  const int = digits.slice(0, point).replace(/^0+(?=\d)/, '');
  const frac = digits.slice(point).replace(/0+$/, '');
  return { negative: negative && (int !== '0' || frac !== ''), magnitude: { int, frac } };
}

/** Plain decimal text of a finite double (no exponent), the layout the engine emits for bounded numbers. */
export function toPlainDecimal(value: number): string {
  const { negative, magnitude } = toDecimal(value);
  return (negative ? '-' : '') + magnitude.int + (magnitude.frac === '' ? '' : `.${magnitude.frac}`);
}

/** The neighbouring double of `value` upwards (1) or downwards (-1). */
export function stepDouble(value: number, direction: 1 | -1): number {
  if (value === 0) return direction * Number.MIN_VALUE;
  const buffer = new DataView(new ArrayBuffer(8));
  buffer.setFloat64(0, value);
  const bits = buffer.getBigUint64(0);
  buffer.setBigUint64(0, value > 0 === direction > 0 ? bits + 1n : bits - 1n);
  return buffer.getFloat64(0);
}

/** Comparison of a partly read magnitude against a bound: 0 undecided, 1 holds whatever follows, -1 fails whatever follows. */
const enum Verdict {
  Open = 0,
  Holds = 1,
  Fails = -1,
}

/**
 * A comparator's states, as small integers (the automaton's states are keyed by them, with no string built per transition):
 * holds or fails whatever follows, only zeros may follow (past the last digit of an upper bound equalled so far), integer
 * digits read (`INTEGER_DIGITS + 3 · count + order`, order the sign of text − bound over them at equal length, as
 * `LESS`/`EQUAL`/`GREATER`), or fraction digits read equal to the bound's (`FRACTION_DIGITS + count`).
 */
const HOLDS = 0;
const FAILS = 1;
const ZEROS = 2;
const INTEGER_DIGITS = 3;
const LESS = 0;
const EQUAL = 1;
const GREATER = 2;
/** Past every integer-digits state: a bound's integer part has at most 309 digits (Number.MAX_VALUE's). */
const FRACTION_DIGITS = 1024;
/** Past every comparator state: a bound's fraction has at most about 340 digits (a subnormal's shortest decimal, written out). */
const COMPARATOR_STATES = 2048;

/**
 * Digit-by-digit comparator of a magnitude against bound `bound` (`atLeast`: text ≥ bound,
 * else text ≤ bound), over the states above.
 */
class Comparator {
  constructor(
    private readonly bound: Decimal | undefined,
    private readonly atLeast: boolean,
  ) {}

  start(): number {
    // no bound to reach: only an upper bound is always given (Number.MAX_VALUE at most)
    return this.bound !== undefined ? INTEGER_DIGITS + EQUAL : HOLDS;
  }

  /** Next state after a digit in the integer part. */
  intDigit(state: number, digit: number): number {
    if (state === HOLDS || state === FAILS) return state;
    const bound = this.bound!;
    const length = ((state - INTEGER_DIGITS) / 3) | 0;
    let order = (state - INTEGER_DIGITS) % 3;
    if (length >= bound.int.length) return this.atLeast ? HOLDS : FAILS;
    if (order === EQUAL) {
      const boundDigit = bound.int.charCodeAt(length) - 48;
      order = digit > boundDigit ? GREATER : digit < boundDigit ? LESS : EQUAL;
    }
    return INTEGER_DIGITS + 3 * (length + 1) + order;
  }

  /** State once the integer part ended (on `.`, an exponent or the end). */
  private intEnd(state: number): number {
    if (state === HOLDS || state === FAILS) return state;
    const bound = this.bound!;
    const length = ((state - INTEGER_DIGITS) / 3) | 0;
    const order = (state - INTEGER_DIGITS) % 3;
    if (length < bound.int.length) return this.atLeast ? FAILS : HOLDS;
    if (order === GREATER) return this.atLeast ? HOLDS : FAILS;
    if (order === LESS) return this.atLeast ? FAILS : HOLDS;
    if (bound.frac.length === 0) return this.atLeast ? HOLDS : ZEROS;
    return FRACTION_DIGITS;
  }

  dot(state: number): number {
    return this.intEnd(state);
  }

  fracDigit(state: number, digit: number): number {
    if (state === HOLDS || state === FAILS) return state;
    const bound = this.bound!;
    if (state === ZEROS) return digit === 0 ? ZEROS : FAILS;
    const position = state - FRACTION_DIGITS;
    if (position >= bound.frac.length) {
      // past the bound's last digit with everything equal
      if (this.atLeast) return HOLDS;
      return digit === 0 ? ZEROS : FAILS;
    }
    const boundDigit = bound.frac.charCodeAt(position) - 48;
    if (digit > boundDigit) return this.atLeast ? HOLDS : FAILS;
    if (digit < boundDigit) return this.atLeast ? FAILS : HOLDS;
    return position + 1 >= bound.frac.length ? (this.atLeast ? HOLDS : ZEROS) : FRACTION_DIGITS + position + 1;
  }

  /** Whether the text may end in this state (after its integer or fraction digits). */
  endsWell(state: number, inFraction: boolean): boolean {
    const final = inFraction ? state : this.intEnd(state);
    if (final === HOLDS || final === ZEROS) return true;
    if (final === FAILS) return false;
    // equal so far with bound digits left: text is smaller
    return !this.atLeast;
  }

  verdict(state: number): Verdict {
    return state === HOLDS ? Verdict.Holds : state === FAILS ? Verdict.Fails : Verdict.Open;
  }
}

/** Number.MAX_VALUE as its shortest decimal (1.7976931348623157e308): the plain decimal of every finite double is at most this. */
const LARGEST_MAGNITUDE: Decimal = toDecimal(Number.MAX_VALUE).magnitude;
const MAX_EXPONENT_MANTISSA_DIGITS = 16;
/** Largest positive exponent after a one-digit mantissa (JSON.stringify's form), keeping the value finite. */
const MAX_EXPONENT_ONE_DIGIT = 307;
/** Largest positive exponent after a mantissa of up to 16 integer digits. */
const MAX_POSITIVE_EXPONENT = 290;

/**
 * The automaton for number texts in the interval (null when the interval holds no
 * number). Unbounded non-integers also accept exponent notation (`1.5e-7`), with
 * at most 16 mantissa digits before the point and an exponent of at most +290.
 * Built afresh on each call: `GrammarCache.numberAutomaton` keeps them.
 */
export function numberAutomaton(constraint: NumberConstraint): NumberAutomaton | null {
  let { minimum, maximum } = constraint;
  const unbounded = minimum === -Infinity && maximum === Infinity;
  if (unbounded) {
    // a text beyond the largest double parses to Infinity, which Ajv rejects: magnitudes stop at Number.MAX_VALUE
    const either: SignRange = { atLeast: undefined, atMost: LARGEST_MAGNITUDE };
    return build(either, either, constraint.integer, !constraint.integer);
  }
  // an infinite side stops at ±Number.MAX_VALUE, so every finite double's plain decimal is accepted
  if (minimum === -Infinity) minimum = -Number.MAX_VALUE;
  if (maximum === Infinity) maximum = Number.MAX_VALUE;
  let lo: { negative: boolean; magnitude: Decimal };
  let hi: { negative: boolean; magnitude: Decimal };
  if (constraint.integer) {
    let low = Math.ceil(minimum);
    if (constraint.exclusiveMinimum && low === minimum) low += 1;
    let high = Math.floor(maximum);
    if (constraint.exclusiveMaximum && high === maximum) high -= 1;
    if (low > high) return null;
    lo = toDecimal(low);
    hi = toDecimal(high);
  } else {
    if (constraint.exclusiveMinimum) minimum = stepDouble(minimum, 1);
    if (constraint.exclusiveMaximum) maximum = stepDouble(maximum, -1);
    if (minimum > maximum) return null;
    lo = toDecimal(minimum);
    hi = toDecimal(maximum);
  }
  // magnitude bounds for each sign: positive texts need lo ≤ v ≤ hi, negative texts -hi ≤ |v| ≤ -lo
  const positive = hi.negative ? undefined : { atLeast: lo.negative ? undefined : lo.magnitude, atMost: hi.magnitude };
  const negative = lo.negative ? { atLeast: hi.negative ? hi.magnitude : undefined, atMost: lo.magnitude } : undefined;
  return build(positive, negative, constraint.integer, false);
}

interface SignRange {
  atLeast: Decimal | undefined;
  /** Upper bound on the magnitude: `Number.MAX_VALUE` at most, so every accepted text is finite. */
  atMost: Decimal;
}

/** State keys numbered in order of first sight, for automata built breadth-first by key. */
export function stateKeys<Key = string>(): { keys: Key[]; intern: (key: Key) => number } {
  const ids = new Map<Key, number>();
  const keys: Key[] = [];
  const intern = (key: Key): number => {
    let id = ids.get(key);
    if (id === undefined) {
      id = keys.length;
      ids.set(key, id);
      keys.push(key);
    }
    return id;
  };
  return { keys, intern };
}

/**
 * Explores an automaton breadth-first over `keys` (which `expand` may grow by interning): `expand` fills a state's row (symbol →
 * state id, −1 where the symbol is refused) and says whether the state accepts. The result is trimmed to states that can still
 * reach an accepting one.
 */
export function exploreNumberStates<Key>(keys: readonly Key[], expand: (key: Key, row: number[]) => boolean): NumberAutomaton | null {
  // one row array is reused: a few thousand states each
  const rows = new NumberRows(64);
  const row = new Array<number>(NUMBER_SYMBOLS);
  let id = 0;
  for (; id < keys.length; id++) {
    row.fill(-1);
    const accepts = expand(keys[id]!, row);
    rows.reserve(id);
    const { next, accepting } = rows;
    accepting[id] = accepts ? 1 : 0;
    for (let symbol = 0; symbol < NUMBER_SYMBOLS; symbol++) next[id * NUMBER_SYMBOLS + symbol] = row[symbol]!;
  }
  return rows.finish(id);
}

/** The rows of a number automaton built one state at a time, in order: typed arrays grown by doubling. */
export class NumberRows {
  next: Int32Array<ArrayBuffer>;
  accepting: Uint8Array<ArrayBuffer>;

  constructor(states: number) {
    this.next = new Int32Array(states * NUMBER_SYMBOLS);
    this.accepting = new Uint8Array(states);
  }

  /** Makes room for state `id` (read `next` and `accepting` after it: they may be new arrays). */
  reserve(id: number): void {
    if (id < this.accepting.length) return;
    const wider = new Uint8Array(this.accepting.length * 2);
    wider.set(this.accepting);
    this.accepting = wider;
    const longer = new Int32Array(this.next.length * 2);
    longer.set(this.next);
    this.next = longer;
  }

  /** The automaton of the first `count` states, trimmed. */
  finish(count: number): NumberAutomaton | null {
    return trimNumberAutomaton(this.next.slice(0, count * NUMBER_SYMBOLS), this.accepting.slice(0, count));
  }
}

/** The phases of a number text, as {@link build} keys its states. */
const enum Phase {
  Start = 0,
  /** After a leading minus. */
  Minus = 1,
  /** A lone zero. */
  Zero = 2,
  IntegerDigits = 3,
  /** After the point. */
  Point = 4,
  FractionDigits = 5,
  /** After the exponent mark. */
  Exponent = 6,
  /** After the exponent's sign. */
  ExponentSign = 7,
  ExponentDigits = 8,
}

/** Mantissa width classes, tracked only while exponents are allowed: one digit, up to 16, more. */
const NO_WIDTH = 0;
const ONE_DIGIT = 1;
const MANY_DIGITS = 2;
const TOO_MANY_DIGITS = 3;
/** Exponent digits read, kept only while another digit could still fit under the limit: none kept (`END`), one digit, two. */
const END = 0;
const ONE_EXPONENT_DIGIT = 1;
const TWO_EXPONENT_DIGITS = 11;
/** Flags of an exponent's state: its mantissa had several digits, it is negative (beside the digits read). */
const MANY_MANTISSA_DIGITS = 128;
const NEGATIVE_EXPONENT = 256;
/** Past every `low` field below (`le · 4 + width`, or an exponent's flags and digits). */
const LOW_STATES = 4 * COMPARATOR_STATES;

/**
 * A state's key: `((phase · 2 + sign) · COMPARATOR_STATES + ge) · LOW_STATES + low`, sign 1 for negative texts, `ge`/`le`
 * the comparators' states, `low` = `le · 4 + width` in the mantissa's phases and the exponent's fields after it (where
 * both comparators hold). A small integer, one per state, so exploring builds no string per transition.
 */
function stateKey(phase: Phase, sign: number, ge: number, low: number): number {
  return ((phase * 2 + sign) * COMPARATOR_STATES + ge) * LOW_STATES + low;
}

/** The automaton over the sign ranges given; states are explored breadth-first by {@link stateKey}. */
function build(positive: SignRange | undefined, negative: SignRange | undefined, integer: boolean, allowExponent: boolean): NumberAutomaton | null {
  const comparators = [positive, negative].map((range) =>
    range === undefined ? undefined : ([new Comparator(range.atLeast, true), new Comparator(range.atMost, false)] as const),
  );
  const { keys, intern } = stateKeys<number>();
  const startWidth = allowExponent ? ONE_DIGIT : NO_WIDTH;
  intern(stateKey(Phase.Start, 0, HOLDS, 0));
  return exploreNumberStates(keys, (key, row) => {
    const low = key % LOW_STATES;
    const ge = ((key - low) / LOW_STATES) % COMPARATOR_STATES;
    const phaseAndSign = ((key - low) / LOW_STATES - ge) / COMPARATOR_STATES;
    const phase = phaseAndSign >> 1;
    const sign = phaseAndSign & 1;
    if (phase === Phase.Start) {
      if (comparators[1] !== undefined) row[MINUS] = intern(stateKey(Phase.Minus, 1, HOLDS, 0));
      if (comparators[0] !== undefined) startDigits(0, row);
      return false;
    }
    if (phase === Phase.Minus) {
      startDigits(1, row);
      return false;
    }
    const [geComparator, leComparator] = comparators[sign]!;
    const compose = (nextPhase: Phase, nextGe: number, nextLe: number, width: number): number => {
      if (geComparator.verdict(nextGe) === Verdict.Fails || leComparator.verdict(nextLe) === Verdict.Fails) return -1;
      return intern(stateKey(nextPhase, sign, nextGe, nextLe * 4 + width));
    };
    if (phase === Phase.Zero || phase === Phase.IntegerDigits) {
      const le = low >> 2;
      const mantissa = low & 3;
      // the width stays NO_WIDTH where exponents are not allowed
      const width = mantissa === NO_WIDTH ? ONE_DIGIT : mantissa;
      const wider = width === ONE_DIGIT ? MANY_DIGITS : width === MANY_DIGITS && digitsOf(le) < MAX_EXPONENT_MANTISSA_DIGITS ? MANY_DIGITS : TOO_MANY_DIGITS;
      if (phase === Phase.IntegerDigits) {
        for (let digit = 0; digit < 10; digit++) {
          const target = compose(Phase.IntegerDigits, geComparator.intDigit(ge, digit), leComparator.intDigit(le, digit), allowExponent ? wider : NO_WIDTH);
          if (target >= 0) row[digit] = target;
        }
      }
      if (!integer) {
        const target = compose(Phase.Point, geComparator.dot(ge), leComparator.dot(le), allowExponent ? width : NO_WIDTH);
        if (target >= 0) row[DOT] = target;
      }
      if (allowExponent && width !== TOO_MANY_DIGITS) row[EXP] = intern(stateKey(Phase.Exponent, sign, HOLDS, width === ONE_DIGIT ? 0 : MANY_MANTISSA_DIGITS));
      return geComparator.endsWell(ge, false) && leComparator.endsWell(le, false);
    }
    if (phase === Phase.Point || phase === Phase.FractionDigits) {
      const le = low >> 2;
      const mantissa = low & 3;
      for (let digit = 0; digit < 10; digit++) {
        const target = compose(Phase.FractionDigits, geComparator.fracDigit(ge, digit), leComparator.fracDigit(le, digit), mantissa);
        if (target >= 0) row[digit] = target;
      }
      if (phase === Phase.FractionDigits && allowExponent && mantissa !== TOO_MANY_DIGITS)
        row[EXP] = intern(stateKey(Phase.Exponent, sign, HOLDS, mantissa === ONE_DIGIT ? 0 : MANY_MANTISSA_DIGITS));
      return phase === Phase.FractionDigits && geComparator.endsWell(ge, true) && leComparator.endsWell(le, true);
    }
    // the exponent: the mantissa's width and the exponent's sign (flags), then the digits so far
    const flags = low & (MANY_MANTISSA_DIGITS | NEGATIVE_EXPONENT);
    if (phase === Phase.Exponent || phase === Phase.ExponentSign) {
      if (phase === Phase.Exponent) {
        row[PLUS] = intern(stateKey(Phase.ExponentSign, sign, HOLDS, flags));
        row[MINUS] = intern(stateKey(Phase.ExponentSign, sign, HOLDS, flags | NEGATIVE_EXPONENT));
      }
      for (let digit = 0; digit < 10; digit++) row[digit] = intern(stateKey(Phase.ExponentDigits, sign, HOLDS, flags | (ONE_EXPONENT_DIGIT + digit)));
      return false;
    }
    const digits = low & (MANY_MANTISSA_DIGITS - 1);
    const limit = (flags & MANY_MANTISSA_DIGITS) === 0 ? MAX_EXPONENT_ONE_DIGIT : MAX_POSITIVE_EXPONENT;
    // keep the value only while another digit could still fit under the limit (no digit kept past two)
    if (digits !== END) {
      const count = digits < TWO_EXPONENT_DIGITS ? 1 : 2;
      const read = count === 1 ? digits - ONE_EXPONENT_DIGIT : digits - TWO_EXPONENT_DIGITS;
      for (let digit = 0; digit < 10; digit++) {
        const value = read * 10 + digit;
        if ((flags & NEGATIVE_EXPONENT) !== 0) {
          row[digit] = intern(stateKey(Phase.ExponentDigits, sign, HOLDS, flags | (count + 1 >= 3 ? END : TWO_EXPONENT_DIGITS)));
        } else if (value <= limit) {
          row[digit] = intern(stateKey(Phase.ExponentDigits, sign, HOLDS, flags | (value * 10 <= limit && count + 1 < 3 ? TWO_EXPONENT_DIGITS + value : END)));
        }
      }
    }
    return true;
  });

  function startDigits(sign: number, row: number[]): void {
    const [geComparator, leComparator] = comparators[sign]!;
    for (let digit = 0; digit < 10; digit++) {
      const ge = geComparator.intDigit(geComparator.start(), digit);
      const le = leComparator.intDigit(leComparator.start(), digit);
      if (geComparator.verdict(ge) === Verdict.Fails || leComparator.verdict(le) === Verdict.Fails) continue;
      row[digit] = intern(stateKey(digit === 0 ? Phase.Zero : Phase.IntegerDigits, sign, ge, le * 4 + startWidth));
    }
  }
}

/** Integer digits a comparator state has read (0 for any other state). */
function digitsOf(state: number): number {
  return state >= INTEGER_DIGITS && state < FRACTION_DIGITS ? ((state - INTEGER_DIGITS) / 3) | 0 : 0;
}

/** The automaton without the states that cannot reach acceptance (the engine needs every state live), or `null` when the start cannot. */
export function trimNumberAutomaton(next: Int32Array, accepting: Uint8Array): NumberAutomaton | null {
  const count = accepting.length;
  // the reverse edges in compressed rows (the sources of target t are sources[firstSource[t]..firstSource[t + 1]]), then a
  // search back from the accepting states: linear, where sweeping every state until nothing changes took a sweep per
  // state of the longest chain (a thousand in the non-integer language)
  const firstSource = new Int32Array(count + 1);
  for (let index = 0; index < next.length; index++) if (next[index]! >= 0) firstSource[next[index]! + 1]!++;
  for (let state = 0; state < count; state++) firstSource[state + 1]! += firstSource[state]!;
  const sources = new Int32Array(firstSource[count]!);
  const filled = firstSource.slice(0, count);
  for (let index = 0; index < next.length; index++) {
    const target = next[index]!;
    if (target >= 0) sources[filled[target]!++] = (index / NUMBER_SYMBOLS) | 0;
  }
  const live = new Uint8Array(count);
  const queue = new Int32Array(count);
  let queued = 0;
  for (let state = 0; state < count; state++) {
    if (accepting[state] === 1) {
      live[state] = 1;
      queue[queued++] = state;
    }
  }
  while (queued > 0) {
    const target = queue[--queued]!;
    for (let at = firstSource[target]!; at < firstSource[target + 1]!; at++) {
      const source = sources[at]!;
      if (live[source] === 0) {
        live[source] = 1;
        queue[queued++] = source;
      }
    }
  }
  if (live[0] === 0) return null;
  for (let index = 0; index < next.length; index++) {
    const target = next[index]!;
    if (target >= 0 && live[target] === 0) next[index] = -1;
  }
  return new NumberAutomaton(next, accepting);
}
