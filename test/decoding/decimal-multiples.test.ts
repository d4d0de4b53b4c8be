/**
 * `multipleOf` by a decimal unit (0.01, 0.1, 0.001, 0.05) on ranges too wide to list its multiples: the automaton offers
 * the exact decimal multiples in plain decimal within ±2^53 / 10^k, and the matcher applies Ajv's floating-point test to
 * each number as it is written (0.07 fails 0.01, 0.3 fails 0.1). Over windows of number texts (around 0, 0.07, 0.29,
 * 0.57, 1.1, 4.35, 1e6 and the range's bounds) as a property value, as array items and as the whole document, on the byte
 * vocabulary and the Qwen3, Llama 3 and Gemma 3 vocabularies, both layouts, whole and token by token, the mask accepts a
 * text exactly when the registry accepts it and it lies in the offered language (the documented narrowing, shown to be
 * real); no prefix the mask allows is a dead end; random generations are valid; what stays refused is named.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { integersPass, passesScaled, type DecimalMultipleCheck } from '../../src/decoding/decimal-multiples.js';
import { ajvMultipleOf } from '../../src/decoding/multiple-of-language.js';
import { byteVocabulary } from './byte-vocabulary.js';
import {
  byteWalkProblems,
  clearingProblems,
  randomGenerationProblems,
  refusalOf,
  registryVerdict,
  universeDisagreements,
  type EncodingVocabulary,
} from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const TOKENIZERS = new Map<string, EncodingVocabulary>([
  ['bytes', { vocabulary: byteVocabulary().buildIndex(), encode: (text) => [...new TextEncoder().encode(text)] }],
  ...(['qwen3', 'llama3', 'gemma3'] as const).map((name): [string, EncodingVocabulary] => [name, loadTestTokenizer(name)]),
]);

/** The fraction digits of a decimal divisor, written out here rather than read from the code under test. */
function decimalsOf(divisor: number): number {
  return (String(divisor).split('.')[1] ?? '').length;
}

/** Number texts with 0 to k + 1 fraction digits around each centre (k the divisor's), both signs, and a few exponents. */
function windowTexts(divisor: number, centres: readonly number[]): string[] {
  const k = decimalsOf(divisor);
  const texts = new Set<string>();
  for (const centre of centres) {
    const step = 10 ** -(k + 1);
    for (let index = -25; index <= 25; index++) {
      const value = centre + index * step;
      for (let digits = 0; digits <= k + 1; digits++) {
        const text = value.toFixed(digits);
        texts.add(text);
        texts.add(text.startsWith('-') ? text.slice(1) : `-${text}`);
      }
    }
    texts.add(`${centre.toFixed(k)}0`);
    texts.add(`${centre}e0`);
  }
  // `-0` below a minimum of 0 is the range automaton's own narrowing (docs/decoding.md), not this one's
  return [...texts].filter((text) => !/^-0(\.0+)?$/.test(text));
}

/**
 * The documented narrowing: the mask offers plain decimals whose digits past the divisor's are zeros, at most
 * ⌊2^53 / 10^k⌋ − 1 in magnitude (the registry may accept others: exponents, one ulp off, past the cut).
 */
function offered(text: string, divisor: number): boolean {
  const match = /^-?(\d+)(?:\.(\d+))?$/.exec(text);
  if (match === null) return false;
  const k = decimalsOf(divisor);
  if (!/^0*$/.test((match[2] ?? '').slice(k))) return false;
  return Math.abs(Number(text)) <= Math.floor(2 ** 53 / 10 ** k) - 1;
}

interface Case {
  readonly schema: Record<string, unknown>;
  readonly divisor: number;
  readonly wrap: (text: string, flexible: boolean) => string[];
  readonly centres: readonly number[];
}

const asValue = (text: string, flexible: boolean): string[] => (flexible ? [text, ` ${text} `] : [text]);
const asProperty = (text: string, flexible: boolean): string[] =>
  flexible ? [`{"amount":${text}}`, `{ "amount": ${text} }`, `{"amount":${text},"tax":0.01}`] : [`{"amount":${text}}`, `{"amount":${text},"tax":0.07}`];
const asItems = (text: string, flexible: boolean): string[] =>
  flexible ? [`[${text}]`, `[ ${text}, 1.5 ]`] : [`[${text}]`, `[${text},1.5]`, `[4.35,${text}]`];

const CASES: Record<string, Case> = {
  'amounts from 0 (0.01), as a property': {
    schema: {
      type: 'object',
      properties: { amount: { type: 'number', multipleOf: 0.01, minimum: 0 }, tax: { type: 'number', multipleOf: 0.01, minimum: 0 } },
      required: ['amount'],
      additionalProperties: false,
    },
    divisor: 0.01,
    wrap: asProperty,
    centres: [0, 0.07, 0.29, 0.57, 1.1, 4.35, 1e6],
  },
  'any number (0.1), the whole document': {
    schema: { type: 'number', multipleOf: 0.1 },
    divisor: 0.1,
    wrap: asValue,
    centres: [0, 0.3, 0.7, 1.1, 4.35, 1e6, 90071992547],
  },
  'array items (0.05) above an exclusive 0 to 1e9': {
    schema: { type: 'array', items: { type: 'number', multipleOf: 0.05, exclusiveMinimum: 0, maximum: 1e9 } },
    divisor: 0.05,
    wrap: asItems,
    centres: [0, 0.15, 0.35, 4.35, 1e6, 1e9],
  },
  'amounts from 0.5 to 99999999999.99 (0.01), bounds that are no integers': {
    schema: { type: 'number', multipleOf: 0.01, minimum: 0.5, maximum: 99999999999.99 },
    divisor: 0.01,
    wrap: asValue,
    centres: [0.5, 0.57, 1.1, 99999999999.9, 99999999999.99],
  },
  // decimals that are not 1 / n: each integer part of the bounded range is tried when the plan is made
  'three tenths (0.3) on [0, 100000]': {
    schema: { type: 'number', multipleOf: 0.3, minimum: 0, maximum: 100000 },
    divisor: 0.3,
    wrap: asValue,
    centres: [0, 0.3, 2.1, 3.3, 7, 99999.9, 100000],
  },
  // a bound whose double lies below its decimal (827.39999…): the check judges it by its shortest decimal, as the range automaton does
  'three hundredths (0.03) from -1000 to 827.4, as a property': {
    schema: { type: 'object', properties: { amount: { type: 'number', multipleOf: 0.03, minimum: -1000, maximum: 827.4 } }, required: ['amount'] },
    divisor: 0.03,
    wrap: (text, flexible) => (flexible ? [`{ "amount": ${text} }`] : [`{"amount":${text}}`]),
    centres: [0, 0.27, 1, -4.35, 827.4, -1000],
  },
  'fifteen hundredths (0.15) above an exclusive -500, array items': {
    schema: { type: 'array', items: { type: 'number', multipleOf: 0.15, exclusiveMinimum: -500, maximum: 500 } },
    divisor: 0.15,
    wrap: asItems,
    centres: [0, 0.45, 2.55, -499.95, 499.95],
  },
  'thousandths below an exclusive -2 (0.001)': {
    schema: { type: 'number', multipleOf: 0.001, exclusiveMaximum: -2 },
    divisor: 0.001,
    wrap: asValue,
    centres: [-2, -2.007, -1.1, -4.35, -1e6],
  },
};

describe('decimal multipleOf on wide ranges: Ajv test checked as each number is written', () => {
  it('integersPass holds where every integer passes Ajv (checked around each power of two), and the predicate is Ajv test', () => {
    for (const divisor of [0.1, 0.01, 0.001, 0.0001, 0.05, 0.2, 0.02, 0.005, 0.04]) {
      const reciprocal = Math.round(1 / divisor);
      expect(integersPass(divisor, reciprocal), String(divisor)).toBe(true);
      const failures: number[] = [];
      for (let integer = -20_000; integer <= 20_000; integer++) if (!ajvMultipleOf(integer, divisor)) failures.push(integer);
      for (let power = 1; power <= 52; power++) {
        const near = Math.floor(2 ** power / reciprocal);
        for (let integer = near - 3; integer <= near + 3; integer++)
          if (integer * reciprocal < 2 ** 53 && !ajvMultipleOf(integer, divisor)) failures.push(integer);
      }
      expect(failures, String(divisor)).toEqual([]);
    }
    // 1/8 is a binary fraction (the exact remainder automaton's), 0.03 is no 1 / n
    expect(integersPass(0.125, 8)).toBe(false);
    const check: DecimalMultipleCheck = { divisor: 0.01, scale: 2, modulus: 1, lowScaled: -Infinity, highScaled: Infinity, pointer: '#' };
    const mismatches: string[] = [];
    for (let integer = 0; integer < 3000; integer += 7) {
      for (let scaled = 0; scaled < 100; scaled++) {
        const text = `${integer}.${String(scaled).padStart(2, '0')}`;
        if (passesScaled(check, integer, scaled) !== ajvMultipleOf(Number(text), 0.01)) mismatches.push(text);
      }
    }
    expect(mismatches).toEqual([]);
    expect(passesScaled(check, 0, 7)).toBe(false);
  });

  for (const [name, { schema, divisor, wrap, centres }] of Object.entries(CASES)) {
    it(`${name}: the mask accepts exactly the offered texts the registry accepts, on four vocabularies, both layouts`, () => {
      const registry = registryVerdict(schema);
      const texts = windowTexts(divisor, centres);
      const universe = texts.flatMap((text) => wrap(text, false).map((compact) => ({ text, compact })));
      const problems = universeDisagreements(
        schema,
        undefined,
        TOKENIZERS,
        universe,
        (entry, flexible) => {
          const { text, compact } = entry as { text: string; compact: string };
          return flexible ? wrap(text, true).filter((written) => written.replace(/ /g, '') === compact) : [compact];
        },
        (entry) => {
          const { compact } = entry as { compact: string };
          const numbers = compact.match(/-?\d[\d.e]*/g) ?? [];
          return registry(JSON.parse(compact)) && numbers.every((text) => offered(text, divisor));
        },
      );
      expect(problems.slice(0, 10)).toEqual([]);
      // the windows hold texts on both sides of the check: some the registry rejects only by rounding
      const rounding = texts.filter((text) => offered(text, divisor) && Number.isFinite(Number(text)) && !ajvMultipleOf(Number(text), divisor));
      const exact = texts.filter((text) => /^-?\d+\.\d+$/.test(text) && ajvMultipleOf(Number(text), divisor) && !Number.isInteger(Number(text)));
      expect(rounding.length).toBeGreaterThan(0);
      expect(exact.length).toBeGreaterThan(0);
    }, 120_000);
  }

  it('the narrowing is real: the registry accepts texts the mask refuses (exponents, past the cut), never the reverse', () => {
    const schema = { type: 'number', multipleOf: 0.01 };
    const grammar = compileJsonSchema(schema, TOKENIZERS.get('bytes')!.vocabulary);
    const registry = registryVerdict(schema);
    const accepts = (text: string): boolean => {
      const matcher = grammar.matcher();
      return matcher.acceptString(text) && matcher.canTerminate();
    };
    for (const text of ['1e2', '12.5e0', '2E1', '90071992547408.5', '90071992547409.92']) {
      expect([text, registry(JSON.parse(text))]).toEqual([text, true]);
      expect([text, accepts(text)]).toEqual([text, false]);
    }
    expect([accepts('90071992547407.97'), registry(90071992547407.97)]).toEqual([true, true]);
    expect([accepts('90071992547408'), accepts('-90071992547408.00')]).toEqual([true, true]);
    expect(accepts('0.07')).toBe(false);
    expect(accepts('0.3')).toBe(true);
    expect(accepts('0.30')).toBe(true);
  });

  it('no dead end: every prefix the mask allows from prefixes near failing multiples can be completed (byte vocabulary)', () => {
    const problems = [
      ...byteWalkProblems({ type: 'number', multipleOf: 0.01, minimum: 0 }, undefined, 5),
      ...byteWalkProblems({ type: 'number', multipleOf: 0.1, maximum: -0.3 }, undefined, 5),
      ...byteWalkProblems({ type: 'number', multipleOf: 0.01, minimum: 0.5, maximum: 99999999999.99 }, undefined, 15, '99999999999.'),
      ...byteWalkProblems({ type: 'number', multipleOf: 0.01, exclusiveMinimum: 0 }, undefined, 6, '0.0'),
      ...byteWalkProblems({ type: 'number', multipleOf: 0.01 }, undefined, 7, '-4.3'),
      ...byteWalkProblems({ type: 'number', multipleOf: 0.001 }, undefined, 7, '0.5'),
      ...byteWalkProblems({ type: 'array', items: { type: 'number', multipleOf: 0.1 } }, undefined, 12, '[1000000'),
      // not 1 / n: integer parts that are no multiple go on only through a fraction (`10` under 0.3: 10.2 or 10.5)
      ...byteWalkProblems({ type: 'number', multipleOf: 0.3, minimum: 0, maximum: 100000 }, undefined, 8, '9999'),
      ...byteWalkProblems({ type: 'number', multipleOf: 0.3, minimum: 0, maximum: 100000 }, undefined, 5, '1'),
      ...byteWalkProblems({ type: 'number', multipleOf: 0.3, minimum: 0, maximum: 100000 }, undefined, 7, '99999'),
      ...byteWalkProblems({ type: 'number', multipleOf: 0.03, minimum: -1000, maximum: 827.4 }, undefined, 7, '-99'),
      ...byteWalkProblems({ type: 'number', multipleOf: 0.03, minimum: -1000, maximum: 827.4 }, undefined, 7, '82'),
      ...byteWalkProblems({ type: 'number', multipleOf: 0.15, exclusiveMinimum: -500, maximum: 500 }, undefined, 8, '-499.'),
    ];
    expect(problems.slice(0, 10)).toEqual([]);
  }, 120_000);

  it('after a number prefix the mask bits agree with accept() on Qwen3, Llama 3 and Gemma 3, and the check clears tokens', () => {
    const schema = CASES['amounts from 0 (0.01), as a property']!.schema;
    for (const name of ['qwen3', 'llama3', 'gemma3']) {
      const { vocabulary } = TOKENIZERS.get(name)!;
      const grammar = compileJsonSchema(schema, vocabulary);
      const { disagreements, notCleared } = clearingProblems(
        [
          [grammar, '{"amount":0.0', true],
          [grammar, '{"amount":0.1', true],
          [grammar, '{"amount":4.3', true],
          [grammar, '{"amount":', false],
        ],
        vocabulary,
      );
      expect([name, disagreements.slice(0, 5), notCleared]).toEqual([name, [], []]);
    }
  }, 120_000);

  it('random generations are valid under the registry (Qwen3)', () => {
    const problems = randomGenerationProblems(
      TOKENIZERS.get('qwen3')!.vocabulary,
      {
        amounts: CASES['amounts from 0 (0.01), as a property']!.schema,
        tenths: { type: 'array', items: { type: 'number', multipleOf: 0.1 }, minItems: 3 },
        'three tenths': { type: 'array', items: { type: 'number', multipleOf: 0.3, minimum: -50000, maximum: 50000 }, minItems: 3 },
        'anyOf a plain range': {
          anyOf: [
            { type: 'number', multipleOf: 0.01, minimum: 0 },
            { type: 'number', minimum: 0, maximum: 1 },
          ],
        },
      },
      { seed: 38, runs: 12, randomSteps: 12, validatorOf: registryVerdict },
    );
    expect(problems).toEqual([]);
  });

  it('under anyOf a branch without the check still takes a number the check refuses', () => {
    const schema = {
      anyOf: [
        { type: 'number', multipleOf: 0.01, minimum: 0 },
        { type: 'number', minimum: 0, maximum: 1 },
      ],
    };
    const registry = registryVerdict(schema);
    const problems = universeDisagreements(
      schema,
      undefined,
      TOKENIZERS,
      windowTexts(0.01, [0.07, 0.57, 1, 4.35]),
      (text) => [String(text)],
      (text) => registry(JSON.parse(String(text))) && (Number(text) <= 1 || offered(String(text), 0.01)) && !/e/.test(String(text)),
    );
    expect(problems.slice(0, 10)).toEqual([]);
  }, 120_000);

  it('stays refused where the check is not exact, naming multipleOf and its pointer', () => {
    expect(refusalOf({ type: 'number', multipleOf: 0.03 }).message).toContain('0.27 fails');
    // the double 0.00001 is too far from 1 / 100000 for every integer to pass (so a prefix without a point could be dead)
    expect(refusalOf({ type: 'number', multipleOf: 0.00001 }).pointer).toBe('#');
    // not 1 / n: unbounded, an integer part whose every multiple fails (3.3 under 1.1), too many fractions per part
    expect(refusalOf({ type: 'number', multipleOf: 0.03, minimum: 0 }).message).toContain('0.27 fails');
    expect(refusalOf({ type: 'number', multipleOf: 1.1, minimum: 0, maximum: 10000 }).message).toContain('3.3 fails');
    expect(refusalOf({ type: 'number', multipleOf: 0.00001, minimum: 0, maximum: 40 }).message).toContain('0.00007 fails');
    const beside = refusalOf({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' }, uniqueItems: true }, price: { type: 'number', multipleOf: 0.01 } },
    });
    expect([beside.keyword, beside.pointer]).toEqual(['multipleOf', '#/properties/price']);
    expect(beside.message).toContain('does not combine with uniqueItems');
    // the memory of unique integers is the same memory (written-strings.ts), with its own walking rule
    const besideIntegers = refusalOf({
      type: 'object',
      properties: { ids: { type: 'array', items: { type: 'integer' }, uniqueItems: true }, price: { type: 'number', multipleOf: 0.01 } },
    });
    expect([besideIntegers.keyword, besideIntegers.pointer]).toEqual(['multipleOf', '#/properties/price']);
    const lenient = compileJsonSchema(
      { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, uniqueItems: true }, price: { type: 'number', multipleOf: 0.01 } } },
      byteVocabulary(),
      { lenient: true },
    );
    expect(lenient.relaxed.map(({ keyword }) => keyword)).toContain('multipleOf');
  });
});
