import { afterEach, describe, expect, it, vi } from 'vitest';
import { byteVocabulary } from '../../test/decoding/byte-vocabulary.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { compileJsonSchema } from './compile-json-schema.js';
import { PRECOMPUTE_WORK_BUDGET, type CompiledGrammar } from './compiled-grammar.js';
import { LookAheadFrontier } from './look-ahead-frontier.js';

// many pattern positions (a date and an IPv6 address), so the work budget stops the precompute part way
const SCHEMA = {
  type: 'object',
  properties: { day: { type: 'string', format: 'date' }, host: { type: 'string', format: 'ipv6' }, code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' } },
  required: ['day', 'host', 'code'],
};
// a vocabulary with multi-character tokens, so a content walk visits more than a handful of nodes
const EXTRA = ['20', '-0', '-1', '::', 'ff', 'ab', '12', '2024-', 'abc', 'ABC-', '0000', 'fe80::'];

describe('CompiledGrammar: the pattern precompute, in the first look-ahead', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('precomputes the same masks for the same schema and vocabulary, however slow the clock says compiling is', () => {
    const first = compileJsonSchema(SCHEMA, byteVocabulary(EXTRA));
    first.matcher().lookAhead(Infinity, 1);
    let fakeNow = 0;
    // every read of the clock jumps a second: a wall-clock deadline would stop at once
    vi.spyOn(performance, 'now').mockImplementation(() => (fakeNow += 1000));
    const second = compileJsonSchema(SCHEMA, byteVocabulary(EXTRA));
    second.matcher().lookAhead(Infinity, 1);
    vi.restoreAllMocks();
    expect(first.precomputedStates.length).toBeGreaterThan(0);
    expect(second.precomputedStates).toEqual(first.precomputedStates);
  });

  it('stops at its work budget and leaves the rest to first use, with the same masks either way', () => {
    const vocabulary = byteVocabulary(EXTRA);
    // the look-ahead over reachable states would compute the remaining positions too; this is about the pattern budget alone
    const grammar = compileJsonSchema(SCHEMA, vocabulary, { precomputeWork: 0 });
    // one token ahead is soon looked at: the rest of an unbounded look-ahead goes to the pattern precompute, until its own budget is spent
    expect(grammar.matcher().lookAhead(Infinity, 1)).toBe(false);
    const positions = [...grammar.automaton.patternPositions()].filter((state) => grammar.automaton.contentKey[state] !== undefined);
    expect(grammar.precomputedStates.length).toBeGreaterThan(0);
    expect(grammar.precomputedStates.length).toBeLessThan(new Set(positions).size);
    // a second grammar over the same vocabulary reuses what the first computed and goes further
    const again = compileJsonSchema(SCHEMA, vocabulary, { precomputeWork: 0 });
    again.matcher().lookAhead(Infinity, 1);
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

  it('computes no content mask at compile: a first compile pays for patterns only when a look-ahead or a generation reaches them', () => {
    const vocabulary = byteVocabulary(EXTRA);
    const grammar = compileJsonSchema(SCHEMA, vocabulary, { precomputeWork: 0 });
    expect(grammar.precomputedStates).toEqual([]);
    expect(vocabulary.stringStats.contentMasks.size).toBe(0);
    expect(grammar.statistics().nodesVisited).toBe(0);
    // the pattern positions' masks are the same whether the look-ahead or the first use computes them
    const pumped = compileJsonSchema(SCHEMA, byteVocabulary(EXTRA));
    const pump = pumped.matcher();
    let calls = 0;
    // every call past the look-ahead proper spends at least one walk of the pattern budget, so this ends
    while (pump.lookAhead(Infinity)) calls++;
    expect(calls).toBeLessThanOrEqual(PRECOMPUTE_WORK_BUDGET);
    expect(pumped.precomputedStates.length).toBeGreaterThan(0);
    const text = '{"day":"2024-02-29","host":"fe80::1","code":"ABC-0123"}';
    const plain = grammar.matcher();
    const ahead = pumped.matcher();
    const mask = new Uint32Array(vocabulary.maskWords);
    const aheadMask = new Uint32Array(vocabulary.maskWords);
    for (const byte of new TextEncoder().encode(text)) {
      plain.fillMask(mask);
      ahead.fillMask(aheadMask);
      expect([...aheadMask]).toEqual([...mask]);
      expect(plain.acceptString(String.fromCharCode(byte)) && ahead.acceptString(String.fromCharCode(byte))).toBe(true);
    }
  });

  it('does not build automaton states for pattern positions whose shared masks another grammar already computed', () => {
    const vocabulary = byteVocabulary(EXTRA);
    const schema = { type: 'string', format: 'date' };
    // the pattern precompute alone (it runs in the look-ahead once nothing reachable is left): a finished frontier
    const precompute = (grammar: CompiledGrammar): CompiledGrammar => {
      const frontier = new LookAheadFrontier(grammar.automaton.start, grammar.automaton.stateCount);
      frontier.finished = true;
      while (grammar.lookAhead(frontier, Infinity));
      return grammar;
    };
    const first = precompute(compileJsonSchema(schema, vocabulary, { precomputeWork: 0 }));
    const again = precompute(compileJsonSchema(schema, vocabulary, { precomputeWork: 0 }));
    expect(first.precomputedStates.length).toBeGreaterThan(0);
    expect(again.precomputedStates).toEqual([]);
    // the first grammar stood an automaton state at each of the date DFA's states; the second has only the start's
    expect(again.automaton.stateCount).toBeLessThan(first.automaton.stateCount / 4);
    const accepts = (text: string): boolean => {
      const matcher = again.matcher();
      return matcher.acceptString(text) && matcher.canTerminate();
    };
    expect(accepts('"2024-02-29"')).toBe(true);
    expect(accepts('"2023-02-29"')).toBe(false);
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

  interface Generation {
    masks: Uint32Array[];
    /** Trie walks inside `fillMask` (the look-ahead's own walks are not counted). */
    walksDuringGeneration: number;
    walksAtCompile: number;
    /** Automaton states in the order their masks were first computed, by the compile, the look-ahead or `fillMask`. */
    walkedStates: number[];
  }

  /**
   * Fills a mask at every step of `TEXT`, byte by byte; returns the masks and how many trie walks the generation itself did.
   * With `pumped`, `lookAhead(pumped)` runs before every `fillMask`, as the local provider runs it while the model computes.
   */
  const generate = (precomputeWork?: number, pumped?: number): Generation => {
    const vocabulary = byteVocabulary(EXTRA);
    const grammar = compileJsonSchema(TOOL, vocabulary, precomputeWork === undefined ? {} : { precomputeWork });
    const walksAtCompile = grammar.statistics().maskWalks;
    const matcher = grammar.matcher();
    const masks: Uint32Array[] = [];
    let walksDuringGeneration = 0;
    for (const character of TEXT) {
      if (pumped !== undefined) matcher.lookAhead(pumped);
      const mask = new Uint32Array(vocabulary.maskWords);
      const before = grammar.statistics().maskWalks;
      matcher.fillMask(mask);
      walksDuringGeneration += grammar.statistics().maskWalks - before;
      masks.push(mask);
      expect(matcher.acceptString(character)).toBe(true);
    }
    expect(matcher.canTerminate()).toBe(true);
    return { masks, walksDuringGeneration, walksAtCompile, walkedStates: walkedStatesOf(grammar) };
  };

  /** The states whose masks `grammar` holds, in the order they were computed (the grammar's private mask table, read for the test). */
  const walkedStatesOf = (grammar: ReturnType<typeof compileJsonSchema>): number[] => {
    const masks = (grammar as unknown as { masks: (object | undefined)[] }).masks;
    return masks.flatMap((mask, state) => (mask === undefined ? [] : [state]));
  };

  it('computes the masks of the states a first generation reaches at compile time, the same masks as on first use', () => {
    const lazy = generate(0);
    expect(lazy.walksAtCompile).toBe(0);
    expect(lazy.walksDuringGeneration).toBeGreaterThan(10);
    const byDefault = generate();
    expect(byDefault.walksAtCompile).toBeGreaterThan(0);
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

  it('looks ahead on demand from where the generation is: the same masks as on first use, and fewer walks when they are needed', () => {
    const lazy = generate(0);
    for (const units of [1, 50, 400, Infinity]) {
      const pumped = generate(0, units);
      expect(pumped.walksAtCompile).toBe(0);
      expect(pumped.masks).toEqual(lazy.masks);
      expect(pumped.walksDuringGeneration).toBeLessThan(lazy.walksDuringGeneration);
    }
    // explored whole from the start, the first generation walks nothing
    expect(generate(0, Infinity).walksDuringGeneration).toBe(0);
  });

  it('resumes where it stopped: one unit per call computes one state each, until nothing reachable is left', () => {
    const vocabulary = byteVocabulary(EXTRA);
    const grammar = compileJsonSchema(TOOL, vocabulary, { precomputeWork: 0 });
    const matcher = grammar.matcher();
    let calls = 0;
    // a look-ahead that started over at every call would pass through the start again and never get further
    while (matcher.lookAhead(1, Infinity)) {
      calls++;
      if (calls > 100_000) throw new Error('the look-ahead does not resume');
    }
    expect(calls).toBeGreaterThan(10);
    expect(matcher.lookAhead(Infinity, Infinity)).toBe(false);
    const everything = compileJsonSchema(TOOL, byteVocabulary(EXTRA), { precomputeWork: 0 });
    everything.matcher().lookAhead(Infinity, Infinity);
    expect(walkedStatesOf(grammar)).toEqual(walkedStatesOf(everything));
    // and the generation that follows walks nothing
    const mask = new Uint32Array(vocabulary.maskWords);
    const walks = grammar.statistics().maskWalks;
    for (const character of TEXT) {
      matcher.fillMask(mask);
      expect(matcher.acceptString(character)).toBe(true);
    }
    expect(grammar.statistics().maskWalks).toBe(walks);
    // once everything reachable was looked at, a look-ahead from a later state has nothing to do: not even one state to pass through
    const later = grammar.matcher();
    expect(later.acceptString('{"city":"Oslo","days":3,"mode":"fast","tags":["s')).toBe(true);
    expect(later.lookAhead(1)).toBe(false);
  });

  it('starts from the current state once the generation moves, and finds states the compile-time look-ahead passed over', () => {
    const vocabulary = byteVocabulary(EXTRA);
    const grammar = compileJsonSchema(TOOL, vocabulary, { precomputeWork: 0 });
    const matcher = grammar.matcher();
    matcher.lookAhead(Infinity, Infinity);
    const fromStart = walkedStatesOf(grammar).length;
    // the same walk from inside the tags array: nothing new to find, so it passes through without walking
    expect(matcher.acceptString('{"city":"Oslo","days":3,"mode":"fast","tags":["s')).toBe(true);
    expect(matcher.lookAhead(Infinity, Infinity)).toBe(false);
    expect(walkedStatesOf(grammar).length).toBe(fromStart);
    // a grammar whose matcher is already deep in the value looks ahead from there: the states it computes first are the next ones
    const deep = compileJsonSchema(TOOL, byteVocabulary(EXTRA), { precomputeWork: 0 }).matcher();
    expect(deep.acceptString('{"city":"Oslo","days":3,"mode":"fast","tags":["s')).toBe(true);
    const deepGrammar = (deep as unknown as { host: ReturnType<typeof compileJsonSchema> }).host;
    deep.lookAhead(1);
    expect(walkedStatesOf(deepGrammar)).toEqual([deepGrammar.automaton.maskBase[deep.automatonState]]);
    const mask = new Uint32Array(deepGrammar.vocabulary.maskWords);
    const walks = deepGrammar.statistics().maskWalks;
    deep.fillMask(mask);
    expect(deepGrammar.statistics().maskWalks).toBe(walks);
  });

  it('does the same work whatever the clock says, and refuses a budget that is not a count', () => {
    const counted = generate(0, 60);
    let fakeNow = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (fakeNow += 1000));
    const slowClock = generate(0, 60);
    vi.restoreAllMocks();
    expect(slowClock.walkedStates).toEqual(counted.walkedStates);
    expect(slowClock.walksDuringGeneration).toBe(counted.walksDuringGeneration);
    const matcher = compileJsonSchema(TOOL, byteVocabulary(EXTRA)).matcher();
    for (const bad of [-1, Number.NaN, '10' as unknown as number]) expect(() => matcher.lookAhead(bad)).toThrow(InvalidArgumentError);
    for (const bad of [0, Number.NaN]) expect(() => matcher.lookAhead(10, bad)).toThrow(InvalidArgumentError);
    expect(matcher.acceptString(TEXT) && matcher.accept(matcher['host'].vocabulary.eosTokenIds[0]!)).toBe(true);
    expect(matcher.lookAhead(Infinity)).toBe(false);
  });

  it('goes at most maxTokens tokens ahead (8 by default), so a free-form value does not fill the automaton between tokens', () => {
    const grammar = compileJsonSchema(TOOL, byteVocabulary(EXTRA), { precomputeWork: 0 });
    const matcher = grammar.matcher();
    expect(matcher.lookAhead(Infinity, 1)).toBe(false);
    const start = grammar.automaton.start;
    const oneToken = walkedStatesOf(grammar);
    // the start and the states one token away; finishing there is no proof that everything was seen
    expect(oneToken[0]).toBe(start);
    expect(oneToken.length).toBeGreaterThan(1);
    expect(matcher.lookAhead(Infinity)).toBe(false);
    const eightTokens = walkedStatesOf(grammar).length;
    expect(eightTokens).toBeGreaterThan(oneToken.length);
    expect(matcher.lookAhead(Infinity, Infinity)).toBe(false);
    expect(walkedStatesOf(grammar).length).toBeGreaterThan(eightTokens);
    // free-form additional properties: an unbounded look-ahead would go on creating states; eight tokens ahead it finishes
    const freeForm = compileJsonSchema({ type: 'object', properties: { a: { type: 'string' } } }, byteVocabulary(EXTRA), { precomputeWork: 0 });
    expect(freeForm.matcher().lookAhead(Infinity)).toBe(false);
    expect(freeForm.statistics().states).toBeLessThan(20_000);
  });

  it('looks ahead inside accept when the matcher is asked to, with the same masks and fewer walks in fillMask', () => {
    const lazy = generate(0);
    const vocabulary = byteVocabulary(EXTRA);
    const grammar = compileJsonSchema(TOOL, vocabulary, { precomputeWork: 0 });
    const matcher = grammar.matcher({ lookAheadPerToken: 400 });
    const masks: Uint32Array[] = [];
    let walksInFillMask = 0;
    for (const character of TEXT) {
      const mask = new Uint32Array(vocabulary.maskWords);
      const before = grammar.statistics().maskWalks;
      matcher.fillMask(mask);
      walksInFillMask += grammar.statistics().maskWalks - before;
      masks.push(mask);
      // one byte token per character (the byte vocabulary's ids 0–255): accept is the per-token path that looks ahead
      expect(matcher.accept(character.charCodeAt(0))).toBe(true);
    }
    expect(masks).toEqual(lazy.masks);
    expect(walksInFillMask).toBeLessThan(lazy.walksDuringGeneration);
    expect(() => grammar.matcher({ lookAheadPerToken: -1 })).toThrow(InvalidArgumentError);
  });
});
