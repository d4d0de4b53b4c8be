/**
 * JSON number texts whose value lies in an interval, as a small byte automaton.
 * Bounds are compared as exact decimals, digit by digit; an exclusive bound on a
 * non-integer becomes the inclusive neighbouring double, so that whatever double a
 * text parses to still satisfies the bound (parsing rounds monotonically).
 * @module
 */

/** Symbols of the number alphabet: digits 0–9, then `-`, `.`, `e`/`E`, `+`. */
export const NUMBER_SYMBOLS = 14;
export const MINUS = 10;
export const DOT = 11;
export const EXP = 12;
const PLUS = 13;

/** Byte → number symbol, or -1. */
export const NUMBER_SYMBOL_OF_BYTE: Int8Array = (() => {
  const table = new Int8Array(256).fill(-1);
  for (let digit = 0; digit < 10; digit++) table[0x30 + digit] = digit;
  table[0x2d] = MINUS;
  table[0x2e] = DOT;
  table[0x65] = EXP;
  table[0x45] = EXP;
  table[0x2b] = PLUS;
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

function stepDouble(value: number, direction: 1 | -1): number {
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
 * Digit-by-digit comparator of a magnitude against bound `bound` (`atLeast`: text ≥ bound,
 * else text ≤ bound). State: `[phase, position, order]` where order is the sign of
 * text − bound over the digits read so far at equal length.
 */
class Comparator {
  constructor(
    private readonly bound: Decimal | undefined,
    private readonly atLeast: boolean,
  ) {}

  start(): string {
    // no bound to reach: only an upper bound is always given (Number.MAX_VALUE at most)
    return this.bound !== undefined ? 'i0=' : 'H';
  }

  /** Next state after a digit in the integer part. */
  intDigit(state: string, digit: number): string {
    if (state === 'H' || state === 'F') return state;
    const bound = this.bound!;
    const length = Number(state.slice(1, -1));
    let order = state.slice(-1);
    if (length >= bound.int.length) return this.atLeast ? 'H' : 'F';
    if (order === '=') {
      const boundDigit = bound.int.charCodeAt(length) - 48;
      order = digit > boundDigit ? '>' : digit < boundDigit ? '<' : '=';
    }
    return `i${length + 1}${order}`;
  }

  /** State once the integer part ended (on `.`, an exponent or the end). */
  private intEnd(state: string): string {
    if (state === 'H' || state === 'F') return state;
    const bound = this.bound!;
    const length = Number(state.slice(1, -1));
    const order = state.slice(-1);
    if (length < bound.int.length) return this.atLeast ? 'F' : 'H';
    if (order === '>') return this.atLeast ? 'H' : 'F';
    if (order === '<') return this.atLeast ? 'F' : 'H';
    if (bound.frac.length === 0) return this.atLeast ? 'H' : 'z';
    return 'f0';
  }

  dot(state: string): string {
    return this.intEnd(state);
  }

  fracDigit(state: string, digit: number): string {
    if (state === 'H' || state === 'F') return state;
    const bound = this.bound!;
    if (state === 'z') return digit === 0 ? 'z' : 'F';
    const position = Number(state.slice(1));
    if (position >= bound.frac.length) {
      // past the bound's last digit with everything equal
      if (this.atLeast) return 'H';
      return digit === 0 ? 'z' : 'F';
    }
    const boundDigit = bound.frac.charCodeAt(position) - 48;
    if (digit > boundDigit) return this.atLeast ? 'H' : 'F';
    if (digit < boundDigit) return this.atLeast ? 'F' : 'H';
    return position + 1 >= bound.frac.length ? (this.atLeast ? 'H' : 'z') : `f${position + 1}`;
  }

  /** Whether the text may end in this state (after its integer or fraction digits). */
  endsWell(state: string, inFraction: boolean): boolean {
    const final = inFraction ? state : this.intEnd(state);
    if (final === 'H' || final === 'z') return true;
    if (final === 'F') return false;
    // equal so far with bound digits left: text is smaller
    return !this.atLeast;
  }

  verdict(state: string): Verdict {
    return state === 'H' ? Verdict.Holds : state === 'F' ? Verdict.Fails : Verdict.Open;
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
export function stateKeys(): { keys: string[]; intern: (key: string) => number } {
  const ids = new Map<string, number>();
  const keys: string[] = [];
  const intern = (key: string): number => {
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
export function exploreNumberStates(keys: readonly string[], expand: (key: string, row: number[]) => boolean): NumberAutomaton | null {
  const next: number[] = [];
  const accepting: number[] = [];
  for (let id = 0; id < keys.length; id++) {
    const row = new Array<number>(NUMBER_SYMBOLS).fill(-1);
    accepting.push(expand(keys[id]!, row) ? 1 : 0);
    next.push(...row);
  }
  return trimNumberAutomaton(Int32Array.from(next), Uint8Array.from(accepting));
}

/**
 * States are strings `phase|ge|le`; phases: `S` start, `-` after minus, `0` a lone
 * zero, `I` integer digits, `.` after the point, `F` fraction digits, `e` after the
 * exponent mark, `s` after its sign, `x<n>` exponent digits (`n` = value, `N` when negative).
 */
function build(positive: SignRange | undefined, negative: SignRange | undefined, integer: boolean, allowExponent: boolean): NumberAutomaton | null {
  const comparators = {
    pos: positive === undefined ? undefined : [new Comparator(positive.atLeast, true), new Comparator(positive.atMost, false)],
    neg: negative === undefined ? undefined : [new Comparator(negative.atLeast, true), new Comparator(negative.atMost, false)],
  };
  const { keys, intern } = stateKeys();
  intern('S');
  return exploreNumberStates(keys, (key, row) => {
    let accept = false;
    if (key === 'S') {
      if (comparators.neg !== undefined) row[MINUS] = intern('-|neg');
      if (comparators.pos !== undefined) {
        for (let digit = 0; digit < 10; digit++) {
          const target = startDigit('pos', digit);
          if (target !== undefined) row[digit] = intern(target);
        }
      }
    } else if (key === '-|neg') {
      for (let digit = 0; digit < 10; digit++) {
        const target = startDigit('neg', digit);
        if (target !== undefined) row[digit] = intern(target);
      }
    } else {
      const [phase, sign, ge, le, mantissaDigits] = key.split('|') as [string, 'pos' | 'neg', string, string, string?];
      const [geComparator, leComparator] = comparators[sign]!;
      const compose = (nextPhase: string, nextGe: string, nextLe: string, extra = ''): number | undefined => {
        if (geComparator!.verdict(nextGe) === Verdict.Fails || leComparator!.verdict(nextLe) === Verdict.Fails) return undefined;
        return intern(`${nextPhase}|${sign}|${nextGe}|${nextLe}${extra}`);
      };
      const set = (symbol: number, target: number | undefined): void => {
        if (target !== undefined) row[symbol] = target;
      };
      if (phase === '0' || phase === 'I') {
        accept = geComparator!.endsWell(ge, false) && leComparator!.endsWell(le, false);
        // mantissa width class, tracked only while exponents are allowed: '1' one digit, 'm' up to 16, 'x' more
        const width = mantissaDigits ?? '1';
        const wider = width === '1' ? 'm' : width === 'm' && digitsOf(le) < MAX_EXPONENT_MANTISSA_DIGITS ? 'm' : 'x';
        if (phase === 'I') {
          for (let digit = 0; digit < 10; digit++)
            set(digit, compose('I', geComparator!.intDigit(ge, digit), leComparator!.intDigit(le, digit), allowExponent ? `|${wider}` : ''));
        }
        if (!integer) set(DOT, compose('.', geComparator!.dot(ge), leComparator!.dot(le), allowExponent ? `|${width}` : ''));
        if (allowExponent && width !== 'x') row[EXP] = intern(`e|${sign}|H|H|${width === '1' ? 'one' : 'many'}`);
      } else if (phase === '.' || phase === 'F') {
        accept = phase === 'F' && geComparator!.endsWell(ge, true) && leComparator!.endsWell(le, true);
        for (let digit = 0; digit < 10; digit++)
          set(
            digit,
            compose('F', geComparator!.fracDigit(ge, digit), leComparator!.fracDigit(le, digit), mantissaDigits === undefined ? '' : `|${mantissaDigits}`),
          );
        if (phase === 'F' && allowExponent && mantissaDigits !== 'x') row[EXP] = intern(`e|${sign}|H|H|${mantissaDigits === '1' ? 'one' : 'many'}`);
      } else if (phase === 'e' || phase === 's') {
        // exponent field: `one`/`many` (mantissa width), then `N` when negative, then the digits so far
        const width = mantissaDigits!.startsWith('one') ? 'one' : 'many';
        const negativeExponent = mantissaDigits!.endsWith('N');
        if (phase === 'e') {
          row[PLUS] = intern(`s|${sign}|H|H|${width}`);
          row[MINUS] = intern(`s|${sign}|H|H|${width}N`);
        }
        for (let digit = 0; digit < 10; digit++) row[digit] = intern(`x|${sign}|H|H|${width}${negativeExponent ? 'N' : ''}:${digit}`);
      } else if (phase === 'x') {
        accept = true;
        const [head, digits] = mantissaDigits!.split(':') as [string, string];
        const negativeExponent = head.endsWith('N');
        const limit = head.startsWith('one') ? MAX_EXPONENT_ONE_DIGIT : MAX_POSITIVE_EXPONENT;
        // keep the value only while another digit could still fit under the limit
        if (digits !== 'end' && digits.length < 3) {
          for (let digit = 0; digit < 10; digit++) {
            const value = Number(digits + String(digit));
            if (negativeExponent) {
              row[digit] = intern(`x|${sign}|H|H|${head}:${digits.length + 1 >= 3 ? 'end' : '0'.repeat(digits.length + 1)}`);
            } else if (value <= limit) {
              row[digit] = intern(
                `x|${sign}|H|H|${head}:${value * 10 <= limit && digits.length + 1 < 3 ? String(value).padStart(digits.length + 1, '0') : 'end'}`,
              );
            }
          }
        }
      }
    }
    return accept;
  });

  function startDigit(sign: 'pos' | 'neg', digit: number): string | undefined {
    const [geComparator, leComparator] = comparators[sign]!;
    const ge = geComparator!.intDigit(geComparator!.start(), digit);
    const le = leComparator!.intDigit(leComparator!.start(), digit);
    if (geComparator!.verdict(ge) === Verdict.Fails || leComparator!.verdict(le) === Verdict.Fails) return undefined;
    return `${digit === 0 ? '0' : 'I'}|${sign}|${ge}|${le}${allowExponent ? '|1' : ''}`;
  }
}

function digitsOf(state: string): number {
  return state.startsWith('i') ? Number(state.slice(1, -1)) : 0;
}

/** The automaton without the states that cannot reach acceptance (the engine needs every state live), or `null` when the start cannot. */
export function trimNumberAutomaton(next: Int32Array, accepting: Uint8Array): NumberAutomaton | null {
  const count = accepting.length;
  const live = new Uint8Array(count);
  let changed = true;
  for (let state = 0; state < count; state++) live[state] = accepting[state]!;
  while (changed) {
    changed = false;
    for (let state = 0; state < count; state++) {
      if (live[state] === 1) continue;
      for (let symbol = 0; symbol < NUMBER_SYMBOLS; symbol++) {
        const target = next[state * NUMBER_SYMBOLS + symbol]!;
        if (target >= 0 && live[target] === 1) {
          live[state] = 1;
          changed = true;
          break;
        }
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
