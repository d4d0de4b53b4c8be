import { describe, expect, it } from 'vitest';
import { createRandom, generate } from '../../test/decoding/generation.js';
import { loadTestTokenizer, type TestTokenizerName } from '../../test/decoding/test-tokenizer.js';
import { compileJsonSchema } from './compile-json-schema.js';
import type { CompiledGrammar } from './compiled-grammar.js';
import { patchLimit, type StoredMask } from './stored-mask.js';

/**
 * Each tokenizer loaded once for the file (a load parses it again: 1.5 to 4 s), not once per test: every test compiles its
 * own grammars, and the masks these tests count are kept per grammar.
 */
const loaded = new Map<TestTokenizerName, ReturnType<typeof loadTestTokenizer>>();
function tokenizer(name: TestTokenizerName): ReturnType<typeof loadTestTokenizer> {
  let found = loaded.get(name);
  if (found === undefined) loaded.set(name, (found = loadTestTokenizer(name)));
  return found;
}

// length-bounded strings of each kind: patterned with small and exact budgets (a dense AND), plain with a long budget
// (a list of long tokens), a minimum (tokens that close too early), and items whose positions recur
const SCHEMA = {
  type: 'object',
  properties: {
    code: { type: 'string', pattern: '^[A-Z0-9]+$', minLength: 3, maxLength: 12 },
    id: { type: 'string', pattern: '^usr_[a-zA-Z0-9]{20}$' },
    note: { type: 'string', minLength: 2, maxLength: 40 },
    tags: { type: 'array', items: { type: 'string', maxLength: 5 }, maxItems: 4 },
  },
  required: ['code', 'id', 'note', 'tags'],
  additionalProperties: false,
};
const TEXTS = [
  '{"code":"AB12XY","id":"usr_abcdefghij0123456789","note":"Hi there, ship it today","tags":["a","bc","def"]}',
  '{"code":"ZZZ","id":"usr_ABCDEFGHIJKLMNOPQRST","note":"ok","tags":[]}',
];

/** Masks of `grammar` and of `reference` (same schema, nothing kept) compared at every step of `tokens`. */
function compareAlong(grammar: CompiledGrammar, reference: CompiledGrammar, tokens: readonly number[]): number {
  const words = grammar.vocabulary.maskWords;
  const kept = grammar.matcher();
  const derived = reference.matcher();
  const mask = new Uint32Array(words);
  const expected = new Uint32Array(words);
  let differences = 0;
  for (const token of tokens) {
    kept.fillMask(mask);
    derived.fillMask(expected);
    for (let word = 0; word < words; word++) if (mask[word] !== expected[word]) differences++;
    expect(kept.accept(token)).toBe(true);
    expect(derived.accept(token)).toBe(true);
  }
  return differences;
}

describe('CompiledGrammar: masks of length-bounded string positions kept once derived', () => {
  for (const name of ['qwen3', 'llama3', 'gemma3'] as TestTokenizerName[]) {
    it(`${name}: kept masks equal the masks derived afresh at each visit, along written and random generations`, () => {
      const { vocabulary, encode } = tokenizer(name);
      const grammar = compileJsonSchema(SCHEMA, vocabulary);
      const reference = compileJsonSchema(SCHEMA, vocabulary);
      reference.derivedMaskBudget = 0;
      const eos = vocabulary.eosTokenIds[0]!;
      const sequences = TEXTS.map((text) => [...encode(text), eos]);
      const random = createRandom(7);
      for (let run = 0; run < 6; run++) sequences.push(generate(reference, random, 40 + run * 10).tokens);
      // twice: the first pass derives and keeps, the second writes the kept masks back
      for (let pass = 0; pass < 2; pass++) for (const tokens of sequences) expect(compareAlong(grammar, reference, tokens)).toBe(0);
      expect(grammar.derivedMaskCount).toBeGreaterThan(20);
      expect(reference.derivedMaskCount).toBe(0);
    });
  }

  for (const name of ['qwen3', 'llama3', 'gemma3'] as TestTokenizerName[]) {
    it(`${name}: the look-ahead keeps the masks of the length-bounded positions it reaches, so their first visits derive nothing`, () => {
      const { vocabulary, encode } = tokenizer(name);
      const grammar = compileJsonSchema(SCHEMA, vocabulary);
      const reference = compileJsonSchema(SCHEMA, vocabulary);
      reference.derivedMaskBudget = 0;
      const words = vocabulary.maskWords;
      const mask = new Uint32Array(words);
      const expected = new Uint32Array(words);
      let derivedAtVisit = 0;
      let differences = 0;
      for (const text of TEXTS) {
        const matcher = grammar.matcher();
        const fresh = reference.matcher();
        for (const token of [...encode(text), vocabulary.eosTokenIds[0]!]) {
          // as the local provider pumps it while the model computes the next token
          matcher.lookAhead(Infinity);
          const kept = grammar.derivedMaskCount;
          matcher.fillMask(mask);
          if (grammar.derivedMaskCount !== kept) derivedAtVisit++;
          fresh.fillMask(expected);
          for (let word = 0; word < words; word++) if (mask[word] !== expected[word]) differences++;
          expect(matcher.accept(token)).toBe(true);
          expect(fresh.accept(token)).toBe(true);
        }
      }
      expect(differences).toBe(0);
      expect(derivedAtVisit).toBe(0);
      expect(grammar.derivedMaskCount).toBeGreaterThan(20);
    });
  }

  it('narrows a mask exactly by the per-token definition, and lists the ids it cleared whenever it says it did', () => {
    const { vocabulary } = tokenizer('qwen3');
    const stats = vocabulary.stringStats;
    const words = vocabulary.maskWords;
    const random = createRandom(11);
    const cleared = new Uint32Array(words >>> 3);
    let listed = 0;
    for (const budget of [0, 1, 5, stats.maxConsumed - 20, stats.maxConsumed - 1, stats.maxConsumed]) {
      for (const needed of [0, 1, 3, stats.maxConsumed + 1]) {
        if (!stats.narrows(budget, needed)) continue;
        const input = new Uint32Array(words);
        for (let id = 0; id < vocabulary.size; id++) if (vocabulary.isTextToken(id) && random() < 0.3) input[id >>> 5]! |= 1 << (id & 31);
        const mask = input.slice();
        const count = stats.narrow(mask, budget, needed, cleared);
        const removed: number[] = [];
        let wrong = 0;
        for (let id = 0; id < vocabulary.size; id++) {
          const was = (input[id >>> 5]! & (1 << (id & 31))) !== 0;
          const kept = was && stats.consumed[id]! <= budget && !(stats.closes[id] === 1 && stats.consumed[id]! < needed);
          if (((mask[id >>> 5]! & (1 << (id & 31))) !== 0) !== kept) wrong++;
          if (was && !kept) removed.push(id);
        }
        expect(wrong).toBe(0);
        if (count >= 0) {
          listed++;
          expect(Array.from(cleared.subarray(0, count)).sort((a, b) => a - b)).toEqual(removed);
        }
      }
    }
    expect(listed).toBeGreaterThan(3);
  });

  it('stops keeping masks at its byte budget, and the masks stay the same', () => {
    const { vocabulary, encode } = tokenizer('qwen3');
    const grammar = compileJsonSchema(SCHEMA, vocabulary);
    grammar.derivedMaskBudget = 1;
    const reference = compileJsonSchema(SCHEMA, vocabulary);
    reference.derivedMaskBudget = 0;
    const tokens = [...encode(TEXTS[0]!), vocabulary.eosTokenIds[0]!];
    for (let pass = 0; pass < 2; pass++) expect(compareAlong(grammar, reference, tokens)).toBe(0);
    expect(grammar.derivedMaskCount).toBe(1);
  });

  it('keeps flips of the twin bitset only up to patchLimit ids, a bitset past it, and the masks stay the same', () => {
    const { vocabulary, encode } = tokenizer('qwen3');
    // a run of 20 letters or digits: near its end the budget clears from 56 to hundreds of long tokens from the class's bitset
    const schema = { type: 'object', properties: { id: { type: 'string', pattern: '^usr_[a-zA-Z0-9]{20}$' } }, required: ['id'], additionalProperties: false };
    const grammar = compileJsonSchema(schema, vocabulary);
    const reference = compileJsonSchema(schema, vocabulary);
    reference.derivedMaskBudget = 0;
    const tokens = [...encode('{"id":"usr_a1B2c3D4e5F6g7H8i9J0"}'), vocabulary.eosTokenIds[0]!];
    for (let pass = 0; pass < 2; pass++) expect(compareAlong(grammar, reference, tokens)).toBe(0);
    const kept = (grammar as unknown as { derivedMasks: (StoredMask | undefined)[] }).derivedMasks.filter((mask) => mask !== undefined);
    // a patched mask is the only form with a base bitset
    const patches = kept.filter((mask) => mask.base.length > 0).map((mask) => mask.data.length);
    const bitsets = kept.filter((mask) => mask.base.length === 0 && mask.data.length === vocabulary.maskWords);
    expect(patches.length).toBeGreaterThan(0);
    expect(Math.max(...patches)).toBeLessThanOrEqual(patchLimit(vocabulary.maskWords));
    expect(bitsets.length).toBeGreaterThan(0);
  });
});
