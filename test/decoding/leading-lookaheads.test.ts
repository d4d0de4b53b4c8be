/**
 * Patterns with lookaheads right after a leading `^` (`^(?!-)[a-z0-9-]+$`, password rules, ESLint's `^(?!default$)`)
 * as `pattern`, under `not`, and as `patternProperties` keys: on the Qwen3, Llama 3 and Gemma 3 vocabularies, the mask
 * accepts an instance, whole and token by token, exactly when the registry validator does.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, DecodingLimitError } from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { instanceDisagreements } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const NAMES = [
  'main',
  'fix-1',
  '-main',
  'main-',
  '',
  'Main',
  'a--b',
  '-',
  'x',
  'default',
  'defaults',
  'Passw0rd',
  'passw0rd',
  'PASSWORD1',
  'Pw1',
  'a..b',
  'a.b',
  'é😀',
];

const CASES: { name: string; schema: Record<string, unknown>; instances: readonly unknown[] }[] = [
  { name: 'a slug that does not start with "-"', schema: { type: 'string', pattern: '^(?!-)[a-z0-9-]+$' }, instances: NAMES },
  { name: 'a password rule', schema: { type: 'string', pattern: '^(?=.*[A-Z])(?=.*\\d).{8,}$' }, instances: NAMES },
  { name: 'no ".."', schema: { type: 'string', pattern: '^(?!.*\\.\\.)[a-z.]+$' }, instances: NAMES },
  { name: 'under not', schema: { type: 'string', not: { pattern: '^(?!-)[a-z0-9-]+$' } }, instances: NAMES },
  { name: 'beside a length bound', schema: { type: 'string', pattern: '^(?!default$)', maxLength: 7 }, instances: NAMES },
  {
    name: 'as patternProperties keys',
    schema: {
      type: 'object',
      patternProperties: { '^(?!default$)[a-z]+$': { type: 'integer' }, '^(?=.*-)': { type: 'string' } },
      additionalProperties: false,
    },
    instances: NAMES.flatMap((name) => [{ [name]: 1 }, { [name]: 'x' }]),
  },
  {
    name: 'as propertyNames',
    schema: { type: 'object', propertyNames: { pattern: '^(?!default$)' }, maxProperties: 1 },
    instances: NAMES.map((name) => ({ [name]: true })),
  },
];

describe('leading lookaheads in the token mask', () => {
  it('probes every case on both sides of the registry (the fixtures prove something)', () => {
    for (const testCase of CASES) {
      const validator = compileSchema(testCase.schema as never);
      const verdicts = new Set(testCase.instances.map((value) => validator.validate(value).success));
      expect([...verdicts].sort(), testCase.name).toEqual([false, true]);
    }
  });

  it("meters the lookaheads' automata and their complements under maxAutomatonWork, refusing by that limit", () => {
    // `^[ab]*$` alone takes about 100 steps; the complement of `^.*a.{6}$` (128 states) about 40 000
    expect(() => compileJsonSchema({ type: 'string', pattern: '^[ab]*$' }, byteVocabulary(), { maxAutomatonWork: 10_000 })).not.toThrow();
    const lookahead = { type: 'string', pattern: '^(?!.*a.{6}$)[ab]*$' };
    expect(() => compileJsonSchema(lookahead, byteVocabulary())).not.toThrow();
    expect(() => compileJsonSchema(lookahead, byteVocabulary(), { maxAutomatonWork: 10_000 })).toThrow(DecodingLimitError);
    expect(() => compileJsonSchema(lookahead, byteVocabulary(), { maxAutomatonWork: 10_000 })).toThrow('maxAutomatonWork');
  });

  for (const vocabularyName of ['qwen3', 'llama3', 'gemma3'] as const)
    it(`${vocabularyName}: the mask accepts an instance exactly when the registry does`, () => {
      const problems = instanceDisagreements(CASES, loadTestTokenizer(vocabularyName), (grammar, name) => expect(grammar.relaxed, name).toEqual([]));
      expect(problems).toEqual([]);
    }, 300_000);
});
