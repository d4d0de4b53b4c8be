import { describe, expect, it } from 'vitest';
import { Vocabulary, type VocabularyEntry } from './vocabulary.js';
import { compileJsonSchema } from './compile-json-schema.js';
import { BoundedCache } from './bounded-cache.js';
import { GrammarCache } from './grammar-cache.js';
import { CodePointDfa } from '../shared/regex/code-point-dfa.js';
import { byteVocabulary } from '../../test/decoding/byte-vocabulary.js';

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

  it('keys number automata by their exact bounds: a minimum of +Infinity is not one of -Infinity (JSON writes both as null)', () => {
    const cache = new GrammarCache();
    const unbounded = cache.numberAutomaton({ integer: false, minimum: -Infinity, exclusiveMinimum: false, maximum: Infinity, exclusiveMaximum: false });
    expect(unbounded!.matches('5')).toBe(true);
    expect(cache.numberAutomaton({ integer: false, minimum: Infinity, exclusiveMinimum: false, maximum: Infinity, exclusiveMaximum: false })).toBeNull();
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

  it('builds the non-integer numbers of a range once, however many alternatives and schemas ask for them', () => {
    const cache = new GrammarCache();
    const range = { integer: false, minimum: 0, exclusiveMinimum: false, maximum: 100, exclusiveMaximum: true };
    const first = cache.fractionalNumberAutomaton(range)!;
    const built = cache.built;
    expect(cache.fractionalNumberAutomaton({ ...range })).toBe(first);
    expect(cache.built).toBe(built);
    for (const text of ['0.5', '99.25', '0.0001']) expect(first.matches(text)).toBe(true);
    // integers (also written with a fraction), and values out of the range
    for (const text of ['0', '1', '1.0', '100.5', '-0.5', '1.0000000000000001']) expect(first.matches(text)).toBe(false);
    expect(cache.fractionalNumberAutomaton({ ...range, minimum: 1, maximum: 1, exclusiveMaximum: false })).toBeNull();
  });

  it('refuses a cacheBytes that is not a positive number', () => {
    expect(() => smallVocabulary(0)).toThrow(/cacheBytes/);
  });
});

describe('GrammarCache: compiled parts shared across schemas', () => {
  // the same $defs block in every tool: a string enum's complement, key names by enum, and pattern properties beside declared keys
  const DEFS = {
    status: { type: 'string', not: { enum: ['deleted', 'archived'] } },
    labels: { type: 'object', propertyNames: { enum: ['env', 'team', 'tier'] }, additionalProperties: { type: 'string' } },
    attributes: {
      type: 'object',
      properties: { id: { type: 'string' } },
      patternProperties: { '^x-': { type: 'string' } },
      additionalProperties: { type: 'integer' },
    },
  };
  const toolSchema = (index: number): Record<string, unknown> => ({
    type: 'object',
    $defs: DEFS,
    properties: {
      [`name${index}`]: { type: 'string' },
      status: { $ref: '#/$defs/status' },
      labels: { $ref: '#/$defs/labels' },
      attributes: { $ref: '#/$defs/attributes' },
    },
    required: [`name${index}`, 'status'],
    additionalProperties: false,
  });
  const textOf = (index: number): string =>
    `{"name${index}":"é","status":"arch","labels":{"env":"prod","tier":"x"},"attributes":{"id":"7","x-zone":"eu","count":3,"xy":1}}`;
  // multi-character tokens, some crossing a quote, so content walks and quote walks both happen
  const EXTRA = ['ar', 'arch', 'archived', 'ed"', 'env', '":"', 'x-', 'eu"', 'prod', '"}', '\xc3'];

  /** The mask before every byte of `text`, checking that each byte is accepted. */
  const masksAlong = (grammar: ReturnType<typeof compileJsonSchema>, vocabulary: Vocabulary, text: string): Uint32Array[] => {
    const matcher = grammar.matcher();
    const masks: Uint32Array[] = [];
    for (const byte of encoder.encode(text)) {
      const mask = new Uint32Array(vocabulary.maskWords);
      matcher.fillMask(mask);
      masks.push(mask);
      // in the byte vocabulary, token id b is the byte b
      expect(matcher.accept(byte)).toBe(true);
    }
    expect(matcher.canTerminate()).toBe(true);
    return masks;
  };

  it('builds the automata of a $defs block once for N tools, walks each of its string positions once, and gives the masks of a fresh compile', () => {
    const vocabulary = byteVocabulary(EXTRA);
    const cache = vocabulary.grammarCache;
    const contentMasks = vocabulary.stringStats.contentMasks;
    let builtAfterFirst = 0;
    let contentMasksAfterSecond = 0;
    for (let index = 0; index < 8; index++) {
      const grammar = compileJsonSchema(toolSchema(index), vocabulary, { precomputeWork: 0 });
      const shared = masksAlong(grammar, vocabulary, textOf(index));
      // the same tool compiled alone, over a vocabulary that has seen nothing
      const freshVocabulary = byteVocabulary(EXTRA);
      expect(shared).toEqual(masksAlong(compileJsonSchema(toolSchema(index), freshVocabulary, { precomputeWork: 0 }), freshVocabulary, textOf(index)));
      if (index === 0) builtAfterFirst = cache.built;
      // the compile-time pattern precompute has a work budget: the second compile goes on where the first stopped
      if (index === 1) contentMasksAfterSecond = contentMasks.size;
    }
    expect(builtAfterFirst).toBeGreaterThan(0);
    expect(cache.built).toBe(builtAfterFirst);
    // content masks are keyed by their automaton and state: the same key never walked twice, so no new key means no new walk
    expect(contentMasks.evictions).toBe(0);
    expect(contentMasksAfterSecond).toBeGreaterThan(0);
    expect(contentMasks.size).toBe(contentMasksAfterSecond);
  });

  it('shares literal automata whatever the order of the texts, and structurally equal automata as one', () => {
    const cache = new GrammarCache();
    const first = cache.literals(['b', 'a', 'a']);
    expect(cache.literals(['a', 'b'])).toBe(first);
    expect(cache.literals(['a', 'b', 'c'])).not.toBe(first);
    expect([first.matches('a'), first.matches('b'), first.matches('ab'), first.matches('')]).toEqual([true, true, false, false]);
    const complement = cache.complement(first);
    expect(cache.complement(cache.canonical(CodePointDfa.literals(['a', 'b'])))).toBe(complement);
    expect([complement.matches('a'), complement.matches(''), complement.matches('ab')]).toEqual([false, true, true]);
    expect(cache.anyString()).toBe(cache.anyString());
  });
});
