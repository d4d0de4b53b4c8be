/**
 * Rollback of the matcher's memory of strings written (`written-strings.ts`), which restores the scan kept per step and
 * undoes the items (strings, object, array and integer values) and containers added since: after rolling back to any step of a text with escapes (`\"`, `\\`,
 * `\u00e9`) and multi-byte characters split across tokens (`😀`: four UTF-8 bytes, two UTF-16 units; the automaton
 * refuses `\uD83D\uDE00` pairs), and accepting the same tokens again, every mask equals the mask a matcher that never
 * rolled back had at that step.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, type CompiledGrammar, type Vocabulary } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { createRandom, tokenizeRandomly } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

/** Tokens that close an item after an escape or a multi-byte character, so the mask clears them where it repeats one. */
const CLOSING_TOKENS = ['",', '"]', '":', '\\\\"', 'é"', '\\u00e9"', '\\\\",', '😀\\"\\\\"', '},', ']}', '1]},{', '1,', '2]', '0,-'];

const CASES = [
  {
    name: 'arrays of unique strings inside an array (each its own set)',
    schema: { type: 'array', items: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
    // the second item decodes to the first until its last character; the second array starts empty
    text: '[["é😀\\"\\\\","\\u00e9😀\\"\\\\b","\\u0061"],["é😀\\"\\\\","\\u00e9😀\\"\\\\c","a"]]',
  },
  {
    name: 'arrays of unique strings whose completions run out (a prefix all of whose completions are held is refused)',
    schema: { type: 'array', items: { type: 'array', items: { type: 'string', pattern: '^[éa😀]{1,2}$' }, uniqueItems: true } },
    // after the fourth item every string that starts with "é" is held, so the fifth may not start with it
    text: '[["é😀","\\u00e9","éa","\\u00e9\\u00e9","a"],["é😀"]]',
  },
  {
    name: 'unique object and array items (their values remembered, where each container opened undone)',
    schema: { type: 'array', items: { type: ['object', 'array'] }, uniqueItems: true },
    // the fifth item equals the second up to its last member
    text: '[{"a":[1]},{"a":[1],"b":"é😀"},[1],{"a":[1,2]},{"b":"\\u00e9😀","a":[1.0],"c":0},[{"a":[1]}],[1.0,[]]]',
  },
  {
    name: 'unique integers beside strings (their values remembered where each ends, a prefix whose every completion is held refused)',
    schema: { type: 'array', items: { type: 'array', items: { type: ['integer', 'string'] }, uniqueItems: true } },
    // 0 held: `-0` may not start; the second array starts empty
    text: '[[0,-12,"0","é😀",12,-1,1,10],[0,-12,1,"0"]]',
  },
  {
    name: 'nested objects with distinct keys',
    schema: {
      type: 'object',
      minProperties: 2,
      additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'object', minProperties: 2, additionalProperties: { type: 'integer' } }] },
    },
    text: '{"é😀\\"\\\\":1,"\\u00e9😀\\"\\\\x":{"é😀\\"\\\\":2,"k\\u0061":3},"ka":4,"\\u006b\\u0062":5}',
  },
];

/** The masks after each prefix of `tokens` (index: tokens accepted), from a matcher that only moves forward. */
function forwardMasks(grammar: CompiledGrammar, tokens: readonly number[]): Uint32Array[] {
  const matcher = grammar.matcher();
  const masks: Uint32Array[] = [];
  for (let step = 0; step <= tokens.length; step++) {
    const mask = new Uint32Array(grammar.vocabulary.maskWords);
    matcher.fillMask(mask);
    masks.push(mask);
    if (step < tokens.length && !matcher.accept(tokens[step]!)) throw new Error(`token ${step} refused`);
  }
  return masks;
}

/** Rolls back from the end to every step, then accepts the rest again; the steps whose mask differs from the forward one. */
function rollbackDifferences(grammar: CompiledGrammar, tokens: readonly number[], vocabulary: Vocabulary): string[] {
  const expected = forwardMasks(grammar, tokens);
  const matcher = grammar.matcher();
  for (const token of tokens) matcher.accept(token);
  const mask = new Uint32Array(vocabulary.maskWords);
  const differences: string[] = [];
  for (let target = tokens.length - 1; target >= 0; target--) {
    matcher.rollback(matcher.stepCount - target);
    for (let step = target; step <= tokens.length; step++) {
      matcher.fillMask(mask);
      if (!mask.every((word, index) => word === expected[step]![index])) {
        const before = tokens.slice(0, step).map((id) => vocabulary.tokenText(id));
        differences.push(`back to ${target}, step ${step} after ${JSON.stringify(before.join(''))}`);
      }
      if (step < tokens.length && !matcher.accept(tokens[step]!)) differences.push(`back to ${target}: token ${step} refused`);
    }
  }
  return differences;
}

describe('rollback of the memory of strings written', () => {
  const qwen3 = loadTestTokenizer('qwen3').vocabulary;
  const bytes = byteVocabulary(CLOSING_TOKENS);

  it.each(CASES)('$name: every mask after rolling back to any step equals the mask of a matcher that never rolled back', ({ schema, text }) => {
    const differences: string[] = [];
    const cleared: number[] = [];
    for (const vocabulary of [bytes, qwen3]) {
      const grammar = compileJsonSchema(schema, vocabulary, { layout: 'flexible' });
      const random = createRandom(5);
      for (let segmentation = 0; segmentation < 3; segmentation++) {
        const tokens = tokenizeRandomly(vocabulary, text, random);
        differences.push(...rollbackDifferences(grammar, tokens, vocabulary));
        cleared.push(clearedSteps(grammar, tokens));
      }
    }
    expect(differences).toEqual([]);
    // the memory matters to these masks: at some steps it clears tokens the automaton allows
    expect(Math.min(...cleared)).toBeGreaterThan(0);
  });
});

/** Steps where the memory clears a token that the automaton's own mask allows. */
function clearedSteps(grammar: CompiledGrammar, tokens: readonly number[]): number {
  const masks = forwardMasks(grammar, tokens);
  const matcher = grammar.matcher();
  const automatonMask = new Uint32Array(grammar.vocabulary.maskWords);
  let steps = 0;
  for (let step = 0; step <= tokens.length; step++) {
    grammar.writeMask(matcher.automatonState, automatonMask);
    if (automatonMask.some((word, index) => (word & ~masks[step]![index]!) !== 0)) steps++;
    if (step < tokens.length) matcher.accept(tokens[step]!);
  }
  return steps;
}
