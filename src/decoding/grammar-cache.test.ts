import { describe, expect, it } from 'vitest';
import { Vocabulary, type VocabularyEntry } from './vocabulary.js';
import { compileJsonSchema } from './compile-json-schema.js';
import { BoundedCache } from './bounded-cache.js';
import { GrammarCache } from './grammar-cache.js';

const encoder = new TextEncoder();

function smallVocabulary(cacheBytes?: number): Vocabulary {
  const entries: VocabularyEntry[] = [];
  for (let byte = 0; byte < 256; byte++) entries.push({ bytes: Uint8Array.of(byte), text: `<0x${byte.toString(16)}>` });
  for (const text of ['ab', 'abc', '12', '"}', '":"']) entries.push({ bytes: encoder.encode(text), text });
  entries.push({ bytes: undefined, text: '<eos>' });
  return Vocabulary.fromEntries(entries, 'sentencepiece', { eosTokenIds: [entries.length - 1], ...(cacheBytes === undefined ? {} : { cacheBytes }) });
}

describe('BoundedCache', () => {
  it('drops the least recently used entries beyond its byte bound', () => {
    const cache = new BoundedCache<string, number>(30, () => 10);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    expect([cache.has('a'), cache.has('b'), cache.has('c'), cache.has('d')]).toEqual([true, false, true, true]);
    expect(cache.bytes).toBe(30);
    expect(cache.evictions).toBe(1);
  });

  it('keeps an entry larger than the bound until the next insertion', () => {
    const cache = new BoundedCache<string, number>(5, (value) => value);
    expect(cache.getOrCompute('big', () => 50)).toBe(50);
    expect(cache.has('big')).toBe(true);
    cache.set('small', 1);
    expect([cache.has('big'), cache.has('small')]).toEqual([false, true]);
  });
});

describe('GrammarCache', () => {
  it('stays within its bound while compiling many distinct patterns, and every automaton stays right', () => {
    const cache = new GrammarCache(64 * 1024);
    for (let index = 0; index < 300; index++) {
      const word = `w${index.toString(36)}`;
      const dfa = cache.pattern(`^${word}[a-z]*$`, false);
      expect(dfa.matches(`${word}xyz`)).toBe(true);
      expect(dfa.matches(`x${word}`)).toBe(false);
      const split = cache.schemaPattern(`^${word}_[0-9]{${(index % 7) + 1}}$`);
      expect(split.maxLength).toBe(word.length + 1 + (index % 7) + 1);
      const number = cache.numberAutomaton({ integer: true, minimum: index, exclusiveMinimum: false, maximum: index + 10, exclusiveMaximum: false });
      expect(number!.matches(String(index + 5))).toBe(true);
      expect(number!.matches(String(index + 11))).toBe(false);
      expect(cache.bytes).toBeLessThanOrEqual(cache.maxBytes);
    }
    // evicted and rebuilt on demand: the answer is the same
    expect(cache.pattern('^w0[a-z]*$', false).matches('w0abc')).toBe(true);
    expect(cache.size).toBeGreaterThan(0);
  });

  it('belongs to one vocabulary: two vocabularies share no automata', () => {
    const left = smallVocabulary();
    const right = smallVocabulary();
    expect(left.grammarCache).not.toBe(right.grammarCache);
    compileJsonSchema({ type: 'string', pattern: '^[a-c]+$' }, left);
    expect(left.grammarCache.size).toBeGreaterThan(0);
    expect(right.grammarCache.size).toBe(0);
  });

  it('keeps a vocabulary with a small cacheBytes within it over many distinct schemas, masks still exact', () => {
    const cacheBytes = 48 * 1024;
    const vocabulary = smallVocabulary(cacheBytes);
    for (let index = 0; index < 80; index++) {
      const prefix = index.toString(36);
      const schema = {
        type: 'object',
        properties: { id: { type: 'string', pattern: `^${prefix}[a-f]{2,6}$` }, n: { type: 'integer', minimum: index, maximum: index * 3 + 1 } },
        required: ['id', 'n'],
      };
      const grammar = compileJsonSchema(schema, vocabulary);
      const good = grammar.matcher();
      expect(good.acceptString(`{"id":"${prefix}abc","n":${index}}`) && good.canTerminate()).toBe(true);
      expect(grammar.matcher().acceptString(`{"id":"${prefix}abg`)).toBe(false);
      expect(vocabulary.grammarCache.bytes).toBeLessThanOrEqual(cacheBytes / 2);
      expect(vocabulary.stringStats.contentMasks.bytes).toBeLessThanOrEqual(cacheBytes / 4);
    }
    expect(vocabulary.stringStats.contentMasks.evictions).toBeGreaterThan(0);
    expect(vocabulary.grammarCache.size).toBeGreaterThan(0);
  });

  it('refuses a cacheBytes that is not a positive number', () => {
    expect(() => smallVocabulary(0)).toThrow(/cacheBytes/);
  });
});
