import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../shared/seeded-random.js';
import { DEFAULT_DECODING_LIMITS } from './decoding-limits.js';
import {
  ajvMultipleOf,
  intersectNumberAutomata,
  integerDecimalCut,
  intersectTwoNumberAutomata,
  minimalRemainderAutomaton,
  planMultipleOf,
  remainderAutomaton,
  roundingExample,
  type NumberRange,
  type ScaledModulus,
} from './multiple-of-language.js';
import { NUMBER_SYMBOLS, numberAutomaton, stepDouble, toPlainDecimal, type NumberAutomaton } from './number-language.js';

const range = (minimum: number, maximum: number, integer = false): NumberRange => ({
  integer,
  minimum,
  maximum,
  exclusiveMinimum: false,
  exclusiveMaximum: false,
});

/** The language of a plan, as a predicate on texts. */
function accepts(plan: ReturnType<typeof planMultipleOf>): (text: string) => boolean {
  if (plan.kind === 'values') {
    const texts = new Set(plan.values.map(toPlainDecimal));
    return (text) => texts.has(text);
  }
  if (plan.kind === 'refused') throw new Error(plan.reason);
  const automaton = intersectNumberAutomata(numberAutomaton(plan.range)!, plan.moduli);
  return (text) => automaton?.matches(text) === true;
}

describe('multipleOf as the registry Ajv decides it', () => {
  it('mirrors Ajv: 0.07 is not a multiple of 0.01, 0.3 not of 0.1, nothing from 1e21 on', () => {
    expect(ajvMultipleOf(0.07, 0.01)).toBe(false);
    expect(ajvMultipleOf(0.3, 0.1)).toBe(false);
    expect(ajvMultipleOf(0.2, 0.1)).toBe(true);
    expect(ajvMultipleOf(1e21, 1)).toBe(false);
    expect(ajvMultipleOf(-0, 3)).toBe(true);
  });

  it.each([
    [range(-1000, 1000, true), [3]],
    [range(-50, 50), [0.25]],
    [range(-3, 3), [0.01]],
    [range(0, 2), [0.1]],
    [range(-1e6, 1e6), [7]],
    [range(0, 1e-5), [1e-8]],
    [range(-200, 200), [4, 6]],
    [range(-1e4, 1e4), [2.5, 0.5]],
  ])('on %o with divisors %o, exactly the layout texts of the doubles Ajv accepts', (numbers, divisors) => {
    const accept = accepts(planMultipleOf(numbers, divisors));
    const candidates = new Set<number>();
    const step = Math.min(...divisors) / 4;
    for (let index = 0; index < 12_000; index++) {
      const value = numbers.minimum + index * step;
      candidates.add(value);
      candidates.add(Number(value.toPrecision(12)));
      candidates.add(Number(value.toFixed(3)));
      candidates.add(Math.round(value));
      for (const divisor of divisors) candidates.add(Math.round(value / divisor) * divisor);
      candidates.add(Math.round(value * 100) / 100);
    }
    let valid = 0;
    for (const value of candidates) {
      if (value < numbers.minimum || value > numbers.maximum) continue;
      const expected = divisors.every((divisor) => ajvMultipleOf(value, divisor)) && (!numbers.integer || Number.isInteger(value));
      if (expected) valid++;
      expect([toPlainDecimal(value), accept(toPlainDecimal(value))]).toEqual([toPlainDecimal(value), expected]);
    }
    expect(valid).toBeGreaterThan(10);
  });

  it('lists every double Ajv accepts: no passing double lies further than two ulps from k · m', () => {
    for (const divisor of [0.1, 0.01, 0.3, 1e-8, 0.07]) {
      const plan = planMultipleOf(range(-300 * divisor, 300 * divisor), [divisor]);
      if (plan.kind !== 'values') throw new Error(`expected listed values for ${divisor}`);
      const listed = new Set(plan.values);
      for (let k = -300; k <= 300; k++) {
        // scan eight doubles each side of k · m, four times the window the listing searches
        let candidate = k * divisor;
        for (let step = 0; step < 8; step++) candidate = neighbour(candidate, -1);
        for (let step = 0; step <= 16; step++, candidate = neighbour(candidate, 1)) {
          if (candidate < -300 * divisor || candidate > 300 * divisor) continue;
          expect([divisor, candidate, listed.has(candidate)]).toEqual([divisor, candidate, ajvMultipleOf(candidate, divisor)]);
        }
      }
    }
  });

  it('m = 1 is an integer below 1e21 on any range; exponent texts are refused', () => {
    const plan = planMultipleOf(range(-Infinity, Infinity), [1]);
    const accept = accepts(plan);
    expect(accept('999999999999999900000')).toBe(true);
    expect(accept('1000000000000000000000')).toBe(false);
    expect(accept('-12')).toBe(true);
    expect(accept('1.5')).toBe(false);
    expect(accept('1e3')).toBe(false);
  });

  it('an integer divisor on a range within ±2^53 is a remainder automaton over integer texts', () => {
    const plan = planMultipleOf(range(-(2 ** 52), 2 ** 52), [9]);
    expect(plan.kind).toBe('automaton');
    const accept = accepts(plan);
    expect(accept('4503599627370489')).toBe(true);
    expect(accept('4503599627370491')).toBe(false);
    expect(accept('-81')).toBe(true);
    expect(accept('-0')).toBe(true);
    expect(accept('9.0')).toBe(false);
  });

  it('refuses, with the reason and the budget, where Ajv follows float rounding over too many values', () => {
    const unbounded = planMultipleOf(range(-Infinity, Infinity), [0.01]);
    expect(unbounded.kind).toBe('refused');
    expect(unbounded.kind === 'refused' && unbounded.reason).toContain('0.07 / 0.01');
    const wide = planMultipleOf(range(0, DEFAULT_DECODING_LIMITS.multipleOfMaxValues * 0.1), [0.1]);
    expect(wide.kind === 'refused' && wide.reason).toContain('limits.multipleOfMaxValues');
    // the example is the divisor's own, and it fails Ajv's test as it says
    expect(wide.kind === 'refused' && wide.reason).toContain('0.3 / 0.1 is 2.9999999999999996: 0.3 fails');
    for (const divisor of [0.3, 0.05, 0.001, 1.1, 2.54]) {
      const example = /^(\S+) \/ \S+ is (\S+): \S+ fails$/.exec(roundingExample(divisor))!;
      expect(ajvMultipleOf(Number(example[1]), divisor)).toBe(false);
      expect(Number(example[1]) / divisor).toBe(Number(example[2]));
    }
  });

  it('cuts a range past the exact bound to it: ±2^53 for an integer divisor, ±10^(15 − decimals) for a binary fraction', () => {
    const cut = (numbers: NumberRange, divisors: number[]): unknown => {
      const plan = planMultipleOf(numbers, divisors);
      return plan.kind === 'automaton'
        ? [plan.range.minimum, plan.range.exclusiveMinimum, plan.range.maximum, plan.range.exclusiveMaximum, plan.narrowedTo]
        : plan.kind;
    };
    expect(cut(range(-Infinity, Infinity, true), [3])).toEqual([-(2 ** 53), true, 2 ** 53, true, 2 ** 53]);
    expect(cut(range(-5, Infinity), [0.5])).toEqual([-5, false, 1e14, true, 1e14]);
    expect(cut(range(-Infinity, 0), [2.5, 0.25])).toEqual([-1e13, true, 0, false, 1e13]);
    // m = 1 is exact up to 1e21; beside another divisor the other's bound decides
    expect(cut(range(-Infinity, Infinity), [1, 7])).toEqual([-(2 ** 53), true, 2 ** 53, true, 2 ** 53]);
    expect(cut(range(-Infinity, Infinity), [1])).toEqual([-999_999_999_999_999_868_928, false, 999_999_999_999_999_868_928, false, undefined]);
    // within the bound nothing is cut; a bounded range with few multiples past it is listed as Ajv decides it
    expect(cut(range(-(2 ** 52), 2 ** 52, true), [3])).toEqual([-(2 ** 52), false, 2 ** 52, false, undefined]);
    const listed = planMultipleOf(range(2 ** 53 - 2 ** 11, 2 ** 53 + 2 ** 11, true), [3]);
    if (listed.kind !== 'values') throw new Error(`expected listed values, got ${listed.kind}`);
    expect(listed.values).toContain(2 ** 53 - 2);
    expect(listed.values.some((value) => value > 2 ** 53)).toBe(true);
    expect(listed.values.every((value) => ajvMultipleOf(value, 3) && Math.abs(value - 2 ** 53) <= 2 ** 11)).toBe(true);
    // quotients past 2^53 are not listed one by one (the listing once spun there forever): the range is cut, here to nothing
    const far = planMultipleOf(range(2 ** 60, 2 ** 60 + 2 ** 12, true), [3]);
    expect(far.kind === 'automaton' && [far.range.minimum, far.range.maximum]).toEqual([2 ** 60, 2 ** 53]);
    const accept = accepts(planMultipleOf(range(-Infinity, Infinity, true), [3]));
    expect(['9007199254740990', '-9007199254740990', '9007199254740991', '9007199254740993', '9007199254740994'].map(accept)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe('integers under a decimal divisor that is no binary fraction', () => {
  it("proves a cut within which Ajv's test on an integer is divisibility by the decimal's factor (random and boundary integers), exact for factor 1", () => {
    const random = mulberry32(32);
    const found: [number, number][] = [];
    const failures: string[] = [];
    for (const divisor of [0.01, 0.1, 0.2, 0.05, 0.001, 0.0125, 1e-8, 0.03, 0.3, 0.15, 0.6, 0.9, 0.123, 0.000003]) {
      const cut = integerDecimalCut(divisor);
      if (cut === undefined) throw new Error(`no cut for ${divisor}`);
      const { factor, limit } = cut;
      found.push([divisor, factor]);
      const probes = new Set<number>();
      for (let integer = -3000; integer <= 3000; integer++) probes.add(integer);
      // the last 2,000 integers (doubles, past 2^53) below the cut, each binade of the quotient, and random ones
      for (let step = 0, at = limit; step < 2000; step++, at = stepDouble(at, -1)) probes.add(Math.floor(at)).add(-Math.floor(at));
      for (let power = 1; power <= 70; power++) {
        const near = Math.floor((2 ** power * divisor) / factor) * factor;
        for (let offset = -3; offset <= 3; offset++) if (Math.abs(near + offset) <= limit) probes.add(near + offset);
      }
      for (let index = 0; index < 3000; index++) probes.add(Math.floor(random() * limit) * (index % 2 === 0 ? 1 : -1));
      for (const integer of probes) {
        if (Math.abs(integer) > limit) throw new Error(`probe ${integer} past ${limit}`);
        if (ajvMultipleOf(integer, divisor) !== (integer % factor === 0)) failures.push(`${divisor}: ${integer}`);
      }
      // every integer is a multiple for factor 1, and the cut is the last one Ajv accepts: the next integer double fails
      if (factor === 1) {
        const next = limit < 2 ** 53 ? limit + 1 : stepDouble(limit, 1);
        if (ajvMultipleOf(next, divisor) || ajvMultipleOf(-next, divisor)) failures.push(`${divisor}: ${next} past the cut passes`);
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(found.filter(([, factor]) => factor !== 1)).toEqual([
      [0.03, 3],
      [0.3, 3],
      [0.15, 3],
      [0.6, 3],
      [0.9, 9],
      [0.123, 123],
      [0.000003, 3],
    ]);
    // 1e-8 accepts integers up to its cut and none past it (quotients reach 1e21); 0.03 past its cut takes non-multiples
    expect(integerDecimalCut(1e-8)).toEqual({ factor: 1, limit: 9_999_999_999_999 });
    expect(integerDecimalCut(0.03)).toEqual({ factor: 3, limit: 33_776_997_205_278 });
    const pastCut = Array.from({ length: 600 }, (_, index) => 67_553_994_410_257 + index);
    expect(pastCut.some((integer) => integer % 3 !== 0 && ajvMultipleOf(integer, 0.03))).toBe(true);
    // where the double is too far from the decimal, an exact multiple fails Ajv: no cut
    for (const [divisor, failing] of [
      [1.1, 33],
      [0.07, 7],
      [0.7, 21],
      [0.00001, 1],
    ] as const) {
      expect([divisor, integerDecimalCut(divisor), ajvMultipleOf(failing, divisor)]).toEqual([divisor, undefined, false]);
    }
  });
});

describe("Ajv's test on non-integers, which the complement of an integer multipleOf relies on", () => {
  it('takes a non-integer as a multiple of an integer m only where d / m rounds to 0: |d| ≤ ⌊m/2⌋ · 2^−1074', () => {
    const divisors = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 100, 1000, 1024, 4096, 7919, 9999, 10000];
    const random = mulberry32(32);
    const bits = new DataView(new ArrayBuffer(8));
    const candidates: number[] = [];
    // random bit patterns (every binade), the doubles next to k · m in every binade of k, and the smallest subnormals
    for (let index = 0; index < 60_000; index++) {
      bits.setUint32(0, Math.floor(random() * 2 ** 32));
      bits.setUint32(4, Math.floor(random() * 2 ** 32));
      candidates.push(bits.getFloat64(0));
    }
    for (let count = 1; count <= 12; count++) candidates.push(count * Number.MIN_VALUE, -count * Number.MIN_VALUE);
    const wrong: string[] = [];
    for (const divisor of divisors) {
      const near: number[] = [];
      for (let binade = 0; binade < 53; binade++) {
        for (const k of [2 ** binade, 2 ** binade + 1, 3 * 2 ** binade, 2 ** (binade + 1) - 1]) {
          let value = k * divisor;
          if (!(value < 2 ** 52)) continue;
          for (let step = 0; step < 4; step++) value = neighbour(value, -1);
          for (let step = 0; step < 9; step++, value = neighbour(value, 1)) near.push(value);
        }
      }
      for (const value of [...candidates, ...near]) {
        if (!Number.isFinite(value) || Number.isInteger(value)) continue;
        const roundsToZero = Math.abs(value) <= Math.floor(divisor / 2) * Number.MIN_VALUE;
        if (ajvMultipleOf(value, divisor) !== roundsToZero) wrong.push(`${value} / ${divisor}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(3.0000000000000004 / 3).toBe(1.0000000000000002);
  });
});

describe('the minimal remainder automaton', () => {
  const unboundedInteger = planMultipleOf(range(-Infinity, Infinity, true), [3]);
  if (unboundedInteger.kind !== 'automaton') throw new Error('expected the cut to ±2^53');
  const cutIntegers = numberAutomaton(unboundedInteger.range)!;

  it('accepts exactly what the remainder automaton accepts, for every integer modulus up to 300, powers of 2 and 5, and binary fractions', () => {
    const moduli: ScaledModulus[] = Array.from({ length: 300 }, (_, index) => ({ modulus: index + 1, scale: 0 }));
    for (const modulus of [1000, 1024, 4096, 9999, 10000, 3125]) moduli.push({ modulus, scale: 0 });
    // 0.5, 0.25, 0.125, 2.5, 0.75, 0.03125
    for (const [modulus, scale] of [
      [5, 1],
      [25, 2],
      [125, 3],
      [25, 1],
      [75, 2],
      [3125, 5],
    ] as const)
      moduli.push({ modulus, scale });
    for (const modulus of moduli) {
      const minimal = minimalRemainderAutomaton(modulus);
      expect(sameLanguage(minimal, remainderAutomaton(modulus)), `${modulus.modulus}e-${modulus.scale}`).toBe(true);
      expect(minimal.accepting.length).toBeLessThanOrEqual(remainderAutomaton(modulus).accepting.length);
    }
  });

  it('takes exactly the integer texts of non-multiples for an excluded modulus, merged or not', () => {
    const moduli: ScaledModulus[] = Array.from({ length: 300 }, (_, index) => ({ modulus: index + 1, scale: 0, excluded: true }));
    for (const modulus of [1000, 1024, 4096, 9999, 10000]) moduli.push({ modulus, scale: 0, excluded: true });
    for (const modulus of moduli) {
      const minimal = minimalRemainderAutomaton(modulus);
      expect(sameLanguage(minimal, remainderAutomaton(modulus)), `not ${modulus.modulus}`).toBe(true);
      const wrong: string[] = [];
      for (let value = -120; value <= 1200; value++) if (minimal.matches(String(value)) !== (value % modulus.modulus !== 0)) wrong.push(String(value));
      // -0 is a multiple of everything, and non-integer texts are not offered at all
      for (const text of ['-0', '1.5', '2.0', '1e1']) if (minimal.matches(text)) wrong.push(text);
      expect(wrong, `not ${modulus.modulus}`).toEqual([]);
    }
    expect(() => remainderAutomaton({ modulus: 5, scale: 1, excluded: true })).toThrow(RangeError);
  });

  it('gives the ±2^53 cut the same product, text by text: every integer text up to 4 characters and the texts around ±2^53', () => {
    const texts = ['-'];
    for (let value = -999; value <= 9999; value++) texts.push(String(value));
    for (let offset = 0; offset <= 2000; offset++) texts.push(String(2 ** 53 - offset), String(-(2 ** 53) + offset), String(2 ** 53 + offset));
    // leading zeros and non-integer texts are the bound automaton's to refuse, in both
    texts.push('00', '-0', '0.0', '1000.0', '1e3', '10e2');
    for (const modulus of [5, 100, 1000, 4096]) {
      const before = intersectTwoNumberAutomata(cutIntegers, remainderAutomaton({ modulus, scale: 0 }))!;
      const after = intersectNumberAutomata(cutIntegers, [{ modulus, scale: 0 }], Infinity)!;
      expect(
        texts.filter((text) => before.matches(text) !== after.matches(text)),
        `multipleOf ${modulus}`,
      ).toEqual([]);
      expect(sameLanguage(before, after), `multipleOf ${modulus}`).toBe(true);
    }
  });

  it('brings large divisors with powers of 2 or 5 within the state budget on the whole ±2^53 (refused before)', () => {
    for (const modulus of [4096, 10000]) {
      const automaton = intersectNumberAutomata(cutIntegers, [{ modulus, scale: 0 }]);
      expect(automaton, `multipleOf ${modulus}`).toBeInstanceOf(Object);
      const matches = (text: string): boolean => automaton!.matches(text);
      const largest = 2 ** 53 - 1 - ((2 ** 53 - 1) % modulus);
      expect([String(modulus * 12345), String(-modulus * 7), String(modulus * 12345 + 1), String(largest)].map(matches)).toEqual([true, true, false, true]);
      expect([matches(String(largest + modulus)), matches(String(-largest))]).toEqual([false, true]);
    }
    // 1000 = 2^3 · 5^3 is decided by the last three digits: the product had 52,012 states
    expect(intersectNumberAutomata(cutIntegers, [{ modulus: 1000, scale: 0 }])!.accepting.length).toBeLessThan(1000);
  });
});

/** Whether two automata accept the same texts: a walk over pairs of states (−1 is the dead state), exact. */
function sameLanguage(left: NumberAutomaton, right: NumberAutomaton): boolean {
  const seen = new Set<number>();
  const pending: [number, number][] = [[0, 0]];
  const width = right.accepting.length + 1;
  while (pending.length > 0) {
    const [l, r] = pending.pop()!;
    const key = (l + 1) * width + (r + 1);
    if (seen.has(key)) continue;
    seen.add(key);
    if ((l >= 0 && left.accepting[l] === 1) !== (r >= 0 && right.accepting[r] === 1)) return false;
    if (l < 0 && r < 0) continue;
    for (let symbol = 0; symbol < NUMBER_SYMBOLS; symbol++) {
      pending.push([l < 0 ? -1 : left.next[l * NUMBER_SYMBOLS + symbol]!, r < 0 ? -1 : right.next[r * NUMBER_SYMBOLS + symbol]!]);
    }
  }
  return true;
}

function neighbour(value: number, direction: 1 | -1): number {
  if (value === 0) return direction * Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  view.setBigUint64(0, value > 0 === direction > 0 ? view.getBigUint64(0) + 1n : view.getBigUint64(0) - 1n);
  return view.getFloat64(0);
}
