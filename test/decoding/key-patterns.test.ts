/**
 * Objects with 24 and 32 `patternProperties` (`key-pattern-schemas.ts`), refused before issue #32 (more than 16
 * patterns on one object): the key automaton is built only where keys reach, so its cost is the sets of patterns keys
 * actually match (`limits.maxKeyClasses`). On the Qwen3, Llama 3 and Gemma 3 vocabularies, under both layouts and
 * property orders, every probing instance (each pattern matched and missed, values at the bounds the matched patterns
 * set) is accepted by the mask, whole and token by token, exactly when the registry accepts it.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError, type CompiledGrammar } from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { acceptedBothWays } from './generation.js';
import { KEY_PATTERN_CASES, keyPatternInstances } from './key-pattern-schemas.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const LAYOUTS = ['compact', 'flexible'] as const;
const ORDERS = ['schema', 'any'] as const;

describe('patternProperties past 16 patterns', () => {
  it('probes every case on both sides of the registry (the fixtures prove something)', () => {
    for (const testCase of KEY_PATTERN_CASES) {
      const validator = compileSchema(testCase.schema as never);
      const labels = keyPatternInstances(testCase).map((value) => validator.validate(value).success);
      expect(labels.filter(Boolean).length, testCase.name).toBeGreaterThan(20);
      expect(labels.filter((label) => !label).length, testCase.name).toBeGreaterThan(20);
    }
  });

  it('refuses a case under a lower limits.maxKeyClasses, naming patternProperties and the limit', () => {
    const vocabulary = byteVocabulary();
    for (const testCase of KEY_PATTERN_CASES) {
      let refusal: unknown;
      try {
        compileJsonSchema(testCase.schema, vocabulary, { limits: { maxKeyClasses: 20 } });
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(UnsupportedSchemaError);
      expect((refusal as UnsupportedSchemaError).keyword).toBe('patternProperties');
      expect((refusal as Error).message).toContain('limits.maxKeyClasses');
    }
  });

  for (const vocabularyName of ['qwen3', 'llama3', 'gemma3'] as const)
    it(`${vocabularyName}: the mask accepts a probing instance exactly when the registry does`, () => {
      const { vocabulary, encode } = loadTestTokenizer(vocabularyName);
      const problems: string[] = [];
      const verdict = (grammar: CompiledGrammar, text: string, where: string): boolean => acceptedBothWays(grammar, encode, text, where, problems);
      for (const testCase of KEY_PATTERN_CASES) {
        const validator = compileSchema(testCase.schema as never);
        const instances = keyPatternInstances(testCase);
        for (const layout of LAYOUTS)
          for (const propertyOrder of ORDERS) {
            const where = `${testCase.name} [${layout}, ${propertyOrder} order]`;
            const grammar = compileJsonSchema(testCase.schema, vocabulary, { layout, propertyOrder });
            for (const value of instances) {
              const text = grammar.format(value) ?? JSON.stringify(value);
              const valid = validator.validate(value).success;
              if (verdict(grammar, text, where) !== valid)
                problems.push(`${where}: ${valid ? 'valid instance rejected' : 'INVALID instance accepted'}: ${text}`);
              // keys in the other order too, where the order lets them move
              const keys = Object.keys(value);
              if (propertyOrder === 'any' && keys.length > 1) {
                const reversed = JSON.stringify(Object.fromEntries(keys.reverse().map((key) => [key, value[key]])));
                if (verdict(grammar, reversed, where) !== valid)
                  problems.push(`${where}: reversed, ${valid ? 'valid rejected' : 'INVALID accepted'}: ${reversed}`);
              }
            }
          }
      }
      expect(problems).toEqual([]);
    }, 300_000);
});
