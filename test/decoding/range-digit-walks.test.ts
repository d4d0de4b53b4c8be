/**
 * Under a range, the matcher's memory walks only the tokens of digits only that may write a dead prefix
 * (`range-digit-walks.ts`: a trie of their texts, a node left out where its prefix and the longer ones keep more
 * completions than the values held). Every mask bit stays what walking every allowed token gives (`walksEveryToken`),
 * compared token by token over texts that stop where a digit token reaches a dead prefix (`10` once 10 and 100 … 109
 * are held under a maximum of 1000, `-99` over −999 … −990 under a maximum of −900, `1000000` at the bound of bench:mask's
 * range, 14 fraction digits once their ten completions are held), over bench:mask's text of 200 numbers in a range,
 * and over random generations, on the byte vocabulary (with tokens of two to four digits) and the Qwen3, Llama 3 (every
 * string of one to three digits a token) and Gemma 3 vocabularies, both layouts. Those tokens are refused where they
 * should be, so a skip too eager would show.
 */
import { describe, expect, it } from 'vitest';
import { writtenStringsCases } from '../../bench/mask/written-strings.js';
import { compileJsonSchema, type CompiledGrammar, type Vocabulary } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { createRandom, maskHas } from './generation.js';
import { maskDifferences } from './mask-differences.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const unique = (items: Record<string, unknown>): Record<string, unknown> => ({ type: 'array', items, uniqueItems: true });
const run = (from: number, to: number, write: (value: number) => string): string[] => Array.from({ length: to - from + 1 }, (_, at) => write(from + at));
/** Every range's number items through the memory, not as an enum of their texts (which small ranges become by default). */
const THROUGH_MEMORY = { limits: { uniqueItemsMaxValues: 1 } };

const HELD_TENS = `[10,${run(100, 109, String).join(',')},1000,99,${run(990, 999, String).join(',')},`;
const HELD_NEGATIVE = `[${run(990, 999, (value) => `-${value}`).join(',')},-901,`;
const HELD_BOUNDS = '[1000000,-1000000,999999.5,-999999.5,100000,';
const HELD_FRACTIONS = `[0.12345678901234,${run(1, 9, (digit) => `0.12345678901234${digit}`).join(',')},`;

/** Each schema, texts through dead prefixes (the last, open, stops right before one), and the digit tokens refused there. */
const SCHEMAS: Record<string, { schema: Record<string, unknown>; texts: string[]; refused: [prefix: string, tokens: string[]] }> = {
  'integers in [0, 1000]': {
    schema: unique({ type: 'integer', minimum: 0, maximum: 1000 }),
    texts: [`${HELD_TENS}5]`, `${HELD_TENS}1`],
    refused: [HELD_TENS, ['10', '99', '100', '999']],
  },
  'integers in (-1000, -900]': {
    schema: unique({ type: 'integer', exclusiveMinimum: -1000, maximum: -900 }),
    texts: [`${HELD_NEGATIVE}-950]`, `${HELD_NEGATIVE}-9`],
    refused: [`${HELD_NEGATIVE}-`, ['99', '999']],
  },
  "bench:mask's range, numbers in [-1e6, 1e6]": {
    schema: unique({ type: 'number', minimum: -1e6, maximum: 1e6 }),
    texts: [`${HELD_BOUNDS}12.5]`, `${HELD_BOUNDS}1000`, `${HELD_BOUNDS}-1000`],
    refused: [`${HELD_BOUNDS}1000`, ['000']],
  },
  'numbers in [0, 1]': {
    schema: unique({ type: 'number', minimum: 0, maximum: 1 }),
    texts: [`${HELD_FRACTIONS}0.5]`, `${HELD_FRACTIONS}0.123456789012`],
    refused: [`${HELD_FRACTIONS}0.123456789012`, ['34']],
  },
  'arrays of integers in (-1000, -900]': {
    schema: { type: 'array', items: unique({ type: 'integer', exclusiveMinimum: -1000, maximum: -900 }) },
    texts: [`[[-999,-998],${HELD_NEGATIVE}-950],[-999]]`],
    refused: [`[[-999],${HELD_NEGATIVE}-`, ['99']],
  },
};

/** Byte-vocabulary tokens of digits only, so the byte vocabulary has a trie deeper than one digit. */
const DIGIT_TOKENS = ['10', '99', '00', '000', '100', '999', '34', '1234', '12', '90'];

/** The steps where the masks differ from those of a matcher that walks every allowed token. */
function skipDifferences(grammar: CompiledGrammar, ids: readonly number[], random: () => number, randomSteps: number): string[] {
  return maskDifferences(grammar, (matcher) => (matcher.walksEveryToken = true), 'skipping', ids, random, randomSteps);
}

function differencesOn(vocabulary: Vocabulary, encode: (text: string) => number[], runs: number, benchText: boolean): string[] {
  const differences: string[] = [];
  if (benchText) {
    const bench = writtenStringsCases().find((entry) => entry.name.includes('numbers in a range'))!;
    const grammar = compileJsonSchema(bench.tracked, vocabulary, { layout: 'flexible' });
    differences.push(...skipDifferences(grammar, encode(bench.repeated), createRandom(1), 0).map((line) => `${bench.name}: ${line}`));
  }
  for (const layout of ['compact', 'flexible'] as const) {
    for (const [name, { schema, texts }] of Object.entries(SCHEMAS)) {
      const grammar = compileJsonSchema(schema, vocabulary, { ...THROUGH_MEMORY, layout });
      for (const text of texts)
        differences.push(...skipDifferences(grammar, encode(text), createRandom(1), 0).map((line) => `${name} (${layout}), ${text}: ${line}`));
      const random = createRandom(11);
      for (let count = 0; count < runs; count++)
        differences.push(...skipDifferences(grammar, encode('['), random, 30).map((line) => `${name} (${layout}): ${line}`));
    }
  }
  return differences;
}

/** The tokens of `texts` (each one token) that the mask after `prefix` allows, by schema: none should be. */
function allowedThere(vocabulary: Vocabulary, encode: (text: string) => number[]): string[] {
  const allowed: string[] = [];
  for (const [name, { schema, refused }] of Object.entries(SCHEMAS)) {
    const [prefix, tokens] = refused;
    const matcher = compileJsonSchema(schema, vocabulary, THROUGH_MEMORY).matcher();
    if (!matcher.acceptString(prefix)) throw new Error(`${name}: the prefix ${prefix} is refused`);
    const mask = new Uint32Array(vocabulary.maskWords);
    matcher.fillMask(mask);
    for (const token of tokens) {
      const ids = encode(token);
      if (ids.length === 1 && maskHas(mask, ids[0]!)) allowed.push(`${name}: ${token} after ${prefix}`);
    }
  }
  return allowed;
}

describe('the tokens of digits only the memory leaves unwalked under a range', () => {
  it('leave every mask bit as walking every allowed token does, on the byte vocabulary with tokens of digits', () => {
    const vocabulary = byteVocabulary(DIGIT_TOKENS);
    const encode = (text: string): number[] => [...new TextEncoder().encode(text)];
    expect(differencesOn(vocabulary, encode, 8, true)).toEqual([]);
    // the tokens of digits reaching a dead prefix are refused (one-byte ones through the encoder)
    const withTokens = (text: string): number[] => {
      const id = DIGIT_TOKENS.indexOf(text);
      return id < 0 ? encode(text) : [256 + id];
    };
    expect(allowedThere(vocabulary, withTokens)).toEqual([]);
  }, 120_000);

  for (const name of ['qwen3', 'llama3', 'gemma3'] as const) {
    it(`leave every mask bit as walking every allowed token does, on ${name}`, () => {
      const { vocabulary, encode } = loadTestTokenizer(name);
      expect(differencesOn(vocabulary, encode, name === 'llama3' ? 4 : 2, name === 'llama3')).toEqual([]);
      if (name === 'llama3') expect(allowedThere(vocabulary, encode)).toEqual([]);
    }, 300_000);
  }
});
