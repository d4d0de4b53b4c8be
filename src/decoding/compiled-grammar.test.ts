import { afterEach, describe, expect, it, vi } from 'vitest';
import { byteVocabulary } from '../../test/decoding/byte-vocabulary.js';
import { compileJsonSchema } from './compile-json-schema.js';

// many pattern positions (a date and an IPv6 address), so the work budget stops the precompute part way
const SCHEMA = {
  type: 'object',
  properties: { day: { type: 'string', format: 'date' }, host: { type: 'string', format: 'ipv6' }, code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' } },
  required: ['day', 'host', 'code'],
};
// a vocabulary with multi-character tokens, so a content walk visits more than a handful of nodes
const EXTRA = ['20', '-0', '-1', '::', 'ff', 'ab', '12', '2024-', 'abc', 'ABC-', '0000', 'fe80::'];

describe('CompiledGrammar: compile-time precompute', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('precomputes the same masks for the same schema and vocabulary, however slow the clock says compiling is', () => {
    const first = compileJsonSchema(SCHEMA, byteVocabulary(EXTRA));
    let fakeNow = 0;
    // every read of the clock jumps a second: a wall-clock deadline would stop at once
    vi.spyOn(performance, 'now').mockImplementation(() => (fakeNow += 1000));
    const second = compileJsonSchema(SCHEMA, byteVocabulary(EXTRA));
    vi.restoreAllMocks();
    expect(first.precomputedStates.length).toBeGreaterThan(0);
    expect(second.precomputedStates).toEqual(first.precomputedStates);
  });

  it('stops at its work budget and leaves the rest to first use, with the same masks either way', () => {
    const vocabulary = byteVocabulary(EXTRA);
    // the look-ahead over reachable states would compute the remaining positions too; this is about the pattern budget alone
    const grammar = compileJsonSchema(SCHEMA, vocabulary, { precomputeWork: 0 });
    const positions = [...grammar.automaton.patternPositions()].filter((state) => grammar.automaton.contentKey[state] !== undefined);
    expect(grammar.precomputedStates.length).toBeLessThan(new Set(positions).size);
    // a second grammar over the same vocabulary reuses what the first computed and goes further
    const again = compileJsonSchema(SCHEMA, vocabulary, { precomputeWork: 0 });
    const keysOf = (compiled: typeof grammar): string[] => compiled.precomputedStates.map((state) => compiled.automaton.contentKey[state]!);
    expect(keysOf(again).length).toBeGreaterThan(0);
    expect(keysOf(again).some((key) => keysOf(grammar).includes(key))).toBe(false);
    const text = '{"day":"2024-02-29","host":"fe80::1","code":"ABC-0123"}';
    for (const candidate of [grammar, again, compileJsonSchema(SCHEMA, byteVocabulary(EXTRA))]) {
      const matcher = candidate.matcher();
      expect(matcher.acceptString(text) && matcher.canTerminate()).toBe(true);
    }
    expect(grammar.matcher().acceptString('{"day":"2023-02-29"')).toBe(false);
  });

  const TOOL = {
    type: 'object',
    properties: {
      city: { type: 'string', pattern: '^[A-Za-z ]+$' },
      days: { type: 'integer', minimum: 1, maximum: 14 },
      mode: { enum: ['fast', 'cheap'] },
      tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } },
    },
    required: ['city', 'days', 'mode'],
    additionalProperties: false,
  };
  const TEXT = '{"city":"Oslo","days":3,"mode":"fast","tags":["sea","fjord"]}';

  /** Fills a mask at every step of `TEXT`, byte by byte; returns the masks and how many trie walks the generation itself did. */
  const generate = (precomputeWork?: number): { masks: Uint32Array[]; walksDuringGeneration: number; walksAtCompile: number } => {
    const vocabulary = byteVocabulary(EXTRA);
    const grammar = compileJsonSchema(TOOL, vocabulary, precomputeWork === undefined ? {} : { precomputeWork });
    const walksAtCompile = grammar.statistics().maskWalks;
    const matcher = grammar.matcher();
    const masks: Uint32Array[] = [];
    for (const character of TEXT) {
      const mask = new Uint32Array(vocabulary.maskWords);
      matcher.fillMask(mask);
      masks.push(mask);
      expect(matcher.acceptString(character)).toBe(true);
    }
    expect(matcher.canTerminate()).toBe(true);
    return { masks, walksDuringGeneration: grammar.statistics().maskWalks - walksAtCompile, walksAtCompile };
  };

  it('computes the masks of the states a first generation reaches at compile time, the same masks as on first use', () => {
    const lazy = generate(0);
    expect(lazy.walksAtCompile).toBe(0);
    expect(lazy.walksDuringGeneration).toBeGreaterThan(10);
    const byDefault = generate();
    expect(byDefault.walksAtCompile).toBeGreaterThan(10);
    expect(byDefault.walksDuringGeneration).toBeLessThan(lazy.walksDuringGeneration);
    // with the budget to explore it whole, the first generation walks nothing
    const whole = generate(Infinity);
    expect(whole.walksDuringGeneration).toBe(0);
    expect(byDefault.masks).toEqual(lazy.masks);
    expect(whole.masks).toEqual(lazy.masks);
  });

  it('stops the look-ahead at its work budget, and the same budget looks at the same states whatever the clock says', () => {
    const small = generate(200);
    expect(small.walksAtCompile).toBeGreaterThan(0);
    expect(small.walksDuringGeneration).toBeGreaterThan(0);
    expect(small.masks).toEqual(generate(0).masks);
    let fakeNow = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (fakeNow += 1000));
    const slowClock = generate(200);
    vi.restoreAllMocks();
    expect([slowClock.walksAtCompile, slowClock.walksDuringGeneration]).toEqual([small.walksAtCompile, small.walksDuringGeneration]);
  });
});
