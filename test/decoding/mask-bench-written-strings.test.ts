/**
 * The texts `bench:mask` times inside remembered strings, objects and keys (bench/mask/written-strings.ts) measure what
 * they say: each text is valid under its schema (the registry's validator), the schema with the memory and its twin
 * without it take the same text, and only the twin takes that text with an item or key written twice, so the two
 * columns differ by the memory alone. On the byte vocabulary, one byte per token.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, type CompiledGrammar } from '../../src/decoding/index.js';
import { benchWrittenStrings, writtenStringsCases } from '../../bench/mask/written-strings.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';

const vocabulary = byteVocabulary();
const compile = (schema: unknown): CompiledGrammar => compileJsonSchema(schema, vocabulary, { layout: 'flexible' });
const accepts = (grammar: CompiledGrammar, text: string): boolean => {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
};
const encoder = new TextEncoder();

describe('bench:mask written-strings cases', () => {
  it('each text is valid with and without the memory; the text with an item or key written twice only without it', () => {
    const cases = writtenStringsCases();
    expect(cases.map((entry) => entry.name)).toEqual([
      '50 unique strings of ~140 characters',
      '200 unique paths of ~40 characters',
      '100 undeclared keys, minProperties 2',
      '40 unique objects, nested arrays in some',
      '40 unique objects with declared properties',
      '40 unique closed objects',
      '50 keys of a propertyNames enum of 60, minProperties 2',
      '100 keys of at most 48 characters, minProperties 2',
      '40 records of two money amounts, multipleOf 0.01',
      '200 unique integers of 4 to 7 digits, some negative',
      '200 unique numbers of 4 to 7 digits, fractions, some negative',
      '200 unique numbers in a range, fractions, some negative',
      "GitHub's create_issue, 40 assignees",
    ]);
    for (const entry of cases) {
      const registry = (schema: unknown, text: string): boolean => compileSchema(schema as never).validate(JSON.parse(text)).success;
      expect([entry.name, registry(entry.tracked, entry.text), registry(entry.untracked, entry.text)]).toEqual([entry.name, true, true]);
      // the registry reads a repeated key once, so only a repeated item is invalid to it; the matcher refuses both
      expect([entry.name, registry(entry.untracked, entry.repeated)]).toEqual([entry.name, true]);
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
