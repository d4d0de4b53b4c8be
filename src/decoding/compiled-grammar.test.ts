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
    const grammar = compileJsonSchema(SCHEMA, vocabulary);
    const positions = [...grammar.automaton.patternPositions()].filter((state) => grammar.automaton.contentKey[state] !== undefined);
    expect(grammar.precomputedStates.length).toBeLessThan(new Set(positions).size);
    // a second grammar over the same vocabulary reuses what the first computed and goes further
    const again = compileJsonSchema(SCHEMA, vocabulary);
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
});
