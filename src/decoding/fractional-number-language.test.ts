import { describe, expect, it } from 'vitest';
import { createRandom } from '../../test/decoding/generation.js';
import { fractionalNumberAutomaton } from './fractional-number-language.js';
import { NUMBER_SYMBOL_OF_BYTE, NUMBER_SYMBOLS, toPlainDecimal } from './number-language.js';

const automaton = fractionalNumberAutomaton();
const nonInteger = (text: string): boolean => !Number.isInteger(Number(text));

describe('fractionalNumberAutomaton: texts that parse to a non-integer double', () => {
  it('decides fractions within half an ulp of an integer by the binade of the integer part', () => {
    const cases = [
      '1.0000000000000001', // within half an ulp of 1: parses to 1
      '1.0000000000000003',
      '0.99999999999999994', // just below 1 − 2^-54
      '0.99999999999999995', // above it: parses to 1
      '4503599627370495.5', // 2^52 − 0.5, binade 51: quarter ulps
      '4503599627370495.25', // exactly 2^-2 above: the tie goes to the even integer
      '4503599627370495.2500001',
      '4503599627370496.5', // 2^52 + 0.5: no non-integer doubles from 2^52 on
      '8.0000000000000009', // binade 3
      '7.9999999999999996', // binade 2, just below 8
      `0.${'0'.repeat(323)}3`, // above half the least subnormal
      `0.${'0'.repeat(323)}2`, // below: parses to 0
      '-0.5',
      '-1.0000000000000001',
      '1',
      '1.0',
      '-0',
      '0.30000000000000004',
    ];
    expect(cases.filter((text) => automaton.matches(text) !== nonInteger(text))).toEqual([]);
    expect(cases.filter((text) => automaton.matches(text))).toEqual([
      '1.0000000000000003',
      '0.99999999999999994',
      '4503599627370495.5',
      '4503599627370495.2500001',
      '8.0000000000000009',
      `0.${'0'.repeat(323)}3`,
      '-0.5',
      '0.30000000000000004',
    ]);
  });

  it('accepts exponents only as JSON.stringify writes values below 1e-6, each a non-integer', () => {
    const accepted = ['1.5e-7', '5e-324', '3e-324', '1e-7', '-2.2250738585072014e-308', '1.2345678901234567e-8', '9.9e-323'];
    const refused = ['2e-324', '1e-400', '1.5e+3', '1e-6', '15e-8', '0.5e-7', '1.23456789012345678e-8', '1e7', '1.5e-07'];
    expect(accepted.filter((text) => !automaton.matches(text) || !nonInteger(text))).toEqual([]);
    expect(refused.filter((text) => automaton.matches(text))).toEqual([]);
  });

  it('reaches one state after "4.", "5.", "6." and "7." (one binade, and an exponent after each accepts the same), another after "2." and "3."', () => {
    const stateAfter = (text: string): number => {
      let state = 0;
      for (const char of text) state = automaton.next[state * NUMBER_SYMBOLS + NUMBER_SYMBOL_OF_BYTE[char.charCodeAt(0)]!]!;
      return state;
    };
    expect(new Set(['4.', '5.', '6.', '7.'].map(stateAfter)).size).toBe(1);
    expect(new Set(['4.25', '7.25'].map(stateAfter)).size).toBe(1);
    // e-324 needs a leading digit of at least 3: 2 and 3 share a binade, not their exponents
    expect(stateAfter('2.')).not.toBe(stateAfter('3.'));
    expect(automaton.matches('3e-324')).toBe(true);
    expect(automaton.matches('2e-324')).toBe(false);
  });

  it("accepts every non-integer double's JSON.stringify text and plain decimal, and nothing that parses to an integer", () => {
    const random = createRandom(14);
    const view = new DataView(new ArrayBuffer(8));
    const problems: string[] = [];
    for (let run = 0; run < 20_000; run++) {
      view.setUint32(0, Math.floor(random() * 2 ** 32));
      view.setUint32(4, Math.floor(random() * 2 ** 32));
      const bits = view.getFloat64(0);
      const scaled = (random() - 0.5) * 2 ** Math.floor(random() * 60);
      const nearInteger = Math.floor(random() * 2 ** Math.floor(random() * 53)) + 2 ** -Math.floor(random() * 55);
      for (const value of [bits, scaled, nearInteger]) {
        if (!Number.isFinite(value)) continue;
        for (const text of [JSON.stringify(value), toPlainDecimal(value)])
          if (automaton.matches(text) !== !Number.isInteger(value)) problems.push(`${text} (${value})`);
      }
      // decimals near an integer, with long fractions of zeros or nines: rounding decides
      const integer = Math.floor(random() * 2 ** Math.floor(random() * 54));
      const digit = random() < 0.5 ? '0' : '9';
      const text = `${integer}.${digit.repeat(Math.floor(random() * 20))}${Math.floor(random() * 1000)}`;
      if (automaton.matches(text) !== nonInteger(text)) problems.push(text);
    }
    expect(problems.slice(0, 10)).toEqual([]);
  });
});
