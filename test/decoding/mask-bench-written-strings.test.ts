/**
 * The texts `bench:mask` times inside remembered strings (bench/mask/written-strings.ts) measure what they say: each
 * schema with the memory and its twin without it take the same text, and only the twin takes that text with a string
 * written twice, so the two columns differ by the memory alone. On the byte vocabulary, one byte per token.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, type CompiledGrammar } from '../../src/decoding/index.js';
import { benchWrittenStrings, writtenStringsCases } from '../../bench/mask/written-strings.js';
import { byteVocabulary } from './byte-vocabulary.js';

const vocabulary = byteVocabulary();
const compile = (schema: unknown): CompiledGrammar => compileJsonSchema(schema, vocabulary, { layout: 'flexible' });
const accepts = (grammar: CompiledGrammar, text: string): boolean => {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
};
const encoder = new TextEncoder();

describe('bench:mask written-strings cases', () => {
  it('each text is valid with and without the memory; the text with a string written twice only without it', () => {
    const cases = writtenStringsCases();
    expect(cases.map((entry) => entry.name)).toEqual([
      '50 unique strings of ~140 characters',
      '200 unique paths of ~40 characters',
      '100 undeclared keys, minProperties 2',
      "GitHub's create_issue, 40 assignees",
    ]);
    for (const entry of cases) {
      const tracked = compile(entry.tracked);
      const untracked = compile(entry.untracked);
      expect([entry.name, accepts(tracked, entry.text), accepts(untracked, entry.text)]).toEqual([entry.name, true, true]);
      expect([entry.name, accepts(tracked, entry.repeated), accepts(untracked, entry.repeated)]).toEqual([entry.name, false, true]);
    }
  });

  it('runs every case token by token through both grammars and reports each', async () => {
    const eos = vocabulary.eosTokenIds[0]!;
    const results = await benchWrittenStrings(compile, (text) => [...encoder.encode(text)], eos, new Uint32Array(vocabulary.maskWords), 2);
    for (const result of results) {
      // one round is warm: every token of the text and EOS once
      expect([result.name, result.tracked.warm.count, result.untracked.warm.count]).toEqual([result.name, result.tokens, result.tokens]);
      expect(result.tracked.firstRound.count).toBe(result.tokens);
      expect(result.masksInsideLastStrings.masks).toBe(10_000);
      expect(result.acceptRollbackUs).toBeGreaterThan(0);
    }
  });
});
