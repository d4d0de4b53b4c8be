import { describe, expect, it } from 'vitest';
import { numberAutomaton, toPlainDecimal, type NumberConstraint } from './number-language.js';

const constraint = (partial: Partial<NumberConstraint>): NumberConstraint => ({
  integer: false,
  minimum: -Infinity,
  exclusiveMinimum: false,
  maximum: Infinity,
  exclusiveMaximum: false,
  ...partial,
});

function satisfies(value: number, rule: NumberConstraint): boolean {
  if (!Number.isFinite(value)) return false;
  if (rule.integer && !Number.isInteger(value)) return false;
  if (value < rule.minimum || (rule.exclusiveMinimum && value === rule.minimum)) return false;
  if (value > rule.maximum || (rule.exclusiveMaximum && value === rule.maximum)) return false;
  return true;
}

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

/** Number-like texts: valid and invalid JSON, near the bounds and far from them. */
function texts(rule: NumberConstraint, seed: number): string[] {
  const next = random(seed);
  const out = ['0', '-0', '00', '1.', '.5', '-', '1e', '1e+', '0.0', '1E5', '-1e-3', '1e308', '1e400', '9'.repeat(310)];
  for (const bound of [rule.minimum, rule.maximum]) {
    if (!Number.isFinite(bound)) continue;
    for (const delta of [0, 1e-9, -1e-9, 0.5, -0.5, 1, -1]) out.push(toPlainDecimal(bound + delta), String(bound + delta));
  }
  for (let index = 0; index < 300; index++) {
    let text = next() < 0.3 ? '-' : '';
    const digits = 1 + Math.floor(next() * 6);
    for (let digit = 0; digit < digits; digit++) text += String(Math.floor(next() * 10));
    if (next() < 0.4) text += `.${Math.floor(next() * 1000)}`;
    if (next() < 0.15) text += `e${next() < 0.5 ? '-' : ''}${Math.floor(next() * 30)}`;
    out.push(text);
  }
  return out;
}

const RULES: [string, NumberConstraint][] = [
  ['integer 1..50', constraint({ integer: true, minimum: 1, maximum: 50 })],
  ['integer', constraint({ integer: true })],
  ['number', constraint({})],
  ['0 < x < 1', constraint({ minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: true })],
  ['-2.5 ≤ x ≤ 3.75', constraint({ minimum: -2.5, maximum: 3.75 })],
  ['x ≥ 0.1', constraint({ minimum: 0.1 })],
  ['x < -7', constraint({ maximum: -7, exclusiveMaximum: true })],
  ['integer > 1.5, ≤ 3', constraint({ integer: true, minimum: 1.5, exclusiveMinimum: true, maximum: 3 })],
  // the longest bounds a comparator's state counts through: a subnormal's 324 fraction digits, Number.MAX_VALUE's 309 integer ones
  ['5e-324 ≤ x < 2.2250738585072014e-308', constraint({ minimum: Number.MIN_VALUE, maximum: 2.2250738585072014e-308, exclusiveMaximum: true })],
  ['-MAX_VALUE ≤ x ≤ -1e308', constraint({ minimum: -Number.MAX_VALUE, maximum: -1e308 })],
];

describe('numberAutomaton', () => {
  it.each(RULES)('is sound: every text it accepts parses to a value satisfying %s', (_name, rule) => {
    const automaton = numberAutomaton(rule)!;
    const unsound = texts(rule, 3).filter((text) => {
      if (!automaton.matches(text)) return false;
      let value: number;
      try {
        value = JSON.parse(text) as number;
      } catch {
        return true;
      }
      return !satisfies(value, rule);
    });
    expect(unsound).toEqual([]);
  });

  it.each(RULES)('is complete in plain decimal: every satisfying value sampled is accepted (%s)', (_name, rule) => {
    const automaton = numberAutomaton(rule)!;
    const values = [...texts(rule, 5).map((text) => Number(text)), Number.MAX_VALUE, -Number.MAX_VALUE, 1e308, -1e308].filter((value) =>
      satisfies(value, rule),
    );
    expect(values.length).toBeGreaterThan(0);
    expect(values.filter((value) => !automaton.matches(toPlainDecimal(value)))).toEqual([]);
  });

  it('accepts JSON.stringify forms with exponents for unbounded numbers', () => {
    const automaton = numberAutomaton(constraint({}))!;
    expect([1e21, 1.5e-7, -2.25e100, 1e300].map((value) => automaton.matches(JSON.stringify(value)))).toEqual([true, true, true, true]);
    expect(['1e400', '12345678901234567e5', '1.', '+1'].map((text) => automaton.matches(text))).toEqual([false, false, false, false]);
  });

  it('reaches exactly Number.MAX_VALUE, whose plain decimal has 309 digits, and nothing that parses to Infinity', () => {
    const largest = toPlainDecimal(Number.MAX_VALUE);
    const aboveLargest = `17976931348623158${'0'.repeat(292)}`;
    const cases: [NumberConstraint, boolean[]][] = [
      [constraint({}), [true, true]],
      [constraint({ integer: true }), [true, true]],
      [constraint({ minimum: 0.1 }), [true, false]],
      [constraint({ maximum: -7, exclusiveMaximum: true }), [false, true]],
    ];
    for (const [rule, [positive, negative]] of cases) {
      const automaton = numberAutomaton(rule)!;
      const verdicts = [largest, `-${largest}`, aboveLargest, `-${aboveLargest}`, `1${'0'.repeat(309)}`, `${largest}.5`].map((text) => automaton.matches(text));
      expect(verdicts).toEqual([positive, negative, false, false, false, false]);
    }
  });

  it('is null for an empty interval', () => {
    expect(numberAutomaton(constraint({ integer: true, minimum: 1.2, maximum: 1.8 }))).toBeNull();
    expect(numberAutomaton(constraint({ minimum: 1, maximum: 1, exclusiveMaximum: true }))).toBeNull();
  });
});

describe('toPlainDecimal', () => {
  it('writes doubles without exponents', () => {
    expect([1e-7, -12.25, 1e21, -0, 0.1].map(toPlainDecimal)).toEqual(['0.0000001', '-12.25', '1000000000000000000000', '0', '0.1']);
  });
});
