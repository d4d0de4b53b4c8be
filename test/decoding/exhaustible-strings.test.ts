/**
 * `uniqueItems: true` over strings whose completions can run out (a `maxLength`, an `enum`, a pattern or format with a
 * last character): the matcher refuses a prefix whose every completion is an item written before, and an item when
 * every string is held. Exhaustively over small arrays of short strings, under both layouts and on the Qwen3, Llama 3
 * and Gemma 3 vocabularies, the mask accepts a text exactly when the registry's validator accepts its value; over a
 * byte vocabulary, every prefix the mask allows (up to a length) has a non-empty mask, every mask bit agrees with
 * accept(), and every complete text is valid; near exhaustion every mask bit agrees with accept() on the three
 * vocabularies; random generations (dates, single characters, an ESLint rule's enum) end valid with no dead end.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError, type CompileJsonSchemaOptions } from '../../src/decoding/index.js';
import { SchemaCompileError } from '../../src/shared/errors.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { byteWalkProblems, clearingProblems, everyArray, randomGenerationProblems, registryVerdict, universeDisagreements } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

/** Literal string items take this route only past the set limits: here lowered so that three strings pass them. */
const PAST_SET_LIMIT: CompileJsonSchemaOptions = { limits: { uniqueItemsMaxSets: 4 } };

const STRING_A = { type: 'string', pattern: '^a$' };

const CASES: Record<string, { schema: Record<string, unknown>; options?: CompileJsonSchemaOptions }> = {
  'a pattern of two one-letter strings': { schema: { type: 'array', items: { type: 'string', pattern: '^[ab]$' }, uniqueItems: true } },
  'maxLength 1 over a two-letter pattern ("", "a", "b")': {
    schema: { type: 'array', items: { type: 'string', pattern: '^[ab]*$', maxLength: 1 }, uniqueItems: true },
  },
  'a pattern with a last character beside an endless part': {
    schema: { type: 'array', items: { type: 'string', pattern: '^(a|ab|b+)$' }, uniqueItems: true },
  },
  'an enum sharing prefixes, past the set limit': {
    schema: { type: 'array', items: { enum: ['a', 'ab', 'abc'] }, uniqueItems: true },
    options: PAST_SET_LIMIT,
  },
  'minItems 2 over ^[ab]{1,2}$': { schema: { type: 'array', items: { type: 'string', pattern: '^[ab]{1,2}$' }, uniqueItems: true, minItems: 2 } },
  'anyOf with an array that allows repeats (a repeat goes on in the other branch)': {
    schema: {
      anyOf: [
        { type: 'array', items: { type: 'string', pattern: '^[ab]$' }, uniqueItems: true },
        { type: 'array', items: { type: 'string', maxLength: 2 }, maxItems: 3 },
      ],
    },
  },
  'several alternatives that overlap (^a$ and ^ab?$: "a" counted once)': {
    schema: { type: 'array', items: { anyOf: [STRING_A, { type: 'string', pattern: '^ab?$' }] }, uniqueItems: true },
  },
  'several alternatives with different length bounds ("", "a", "b", "aa", "ab")': {
    schema: {
      type: 'array',
      items: {
        anyOf: [
          { type: 'string', pattern: '^[ab]*$', maxLength: 1 },
          { type: 'string', pattern: '^a[ab]*$', maxLength: 2 },
        ],
      },
      uniqueItems: true,
    },
  },
  'several alternatives, one with a minLength ("", "a", "b", and three letters)': {
    schema: {
      type: 'array',
      items: {
        anyOf: [
          { type: 'string', pattern: '^[ab]*$', maxLength: 1 },
          { type: 'string', pattern: '^[ab]*$', minLength: 3, maxLength: 3 },
        ],
      },
      uniqueItems: true,
      maxItems: 4,
    },
  },
  'a finite alternative beside an endless one (^a$ and ^b+$)': {
    schema: { type: 'array', items: { anyOf: [STRING_A, { type: 'string', pattern: '^b+$' }] }, uniqueItems: true },
  },
  'arrays of arrays (each inner array its own set)': {
    schema: { type: 'array', items: { type: 'array', items: { type: 'string', pattern: '^[ab]$' }, uniqueItems: true }, maxItems: 2 },
  },
};

const STRINGS = ['', 'a', 'b', 'ab', 'abc'];

const UNIVERSE: unknown[] = [
  ...everyArray(STRINGS, 3),
  ['a', 'b', 'bb', 'bbb'],
  ['a', 'ab', 'abc', 'b'],
  // every string of a union of alternatives, and one more than it has (a string of one alternative counted against another's is missed)
  ['', 'a', 'b', 'aa', 'ab'],
  ['', 'a', 'b', 'aa', 'ab', 'a'],
  ['', 'a', 'b', 'aaa'],
  ['', 'b', 'bab', 'a'],
  ['', 'a', 'b', 'aaa', 'bbb'],
  ...everyArray<unknown>([[], ['a'], ['a', 'a'], ['a', 'b'], ['b', 'a', 'b']], 2),
  'a',
];

/** The value's texts: compact; in the flexible layout also indented, and with every `a` of a value string written `\u0061`. */
function texts(value: unknown, flexible: boolean): string[] {
  const compact = JSON.stringify(value);
  if (!flexible) return [compact];
  return [JSON.stringify(value, null, 1), compact.replace(/"([^"]*)"/g, (_whole, content: string) => `"${content.replace(/a/g, '\\u0061')}"`)];
}

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

describe('uniqueItems over strings whose completions can run out', () => {
  const tokenizers = new Map(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));

  it.each(Object.keys(CASES))('%s: the mask accepts exactly what the registry accepts (both layouts, three vocabularies)', (name) => {
    const { schema, options } = CASES[name]!;
    expect(universeDisagreements(schema, options, tokenizers, UNIVERSE, texts, registryVerdict(schema))).toEqual([]);
  });

  it.each(Object.keys(CASES).filter((name) => !name.startsWith('anyOf')))(
    '%s: every byte text the mask allows (up to 22 bytes) goes on, agrees with accept() and ends valid',
    (name) => {
      const { schema, options } = CASES[name]!;
      expect(byteWalkProblems(schema, options, 22)).toEqual([]);
    },
  );

  it.each(VOCABULARIES)('%s: every mask bit agrees with accept() where a prefix or the whole language is one token from running out', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const enumGrammar = compileJsonSchema(CASES['an enum sharing prefixes, past the set limit']!.schema, vocabulary, PAST_SET_LIMIT);
    const pair = compileJsonSchema(CASES['a pattern of two one-letter strings']!.schema, vocabulary, { layout: 'flexible' });
    // with a prefix, whether the memory must clear some token the automaton allows there for running out
    const cases = [
      // "a" and "ab" held: "a" goes on only to "abc"
      [enumGrammar, '["ab","a","', false],
      [enumGrammar, '["ab","a","a', false],
      // all three held: no item may follow (`,` cleared); "ab" and "abc" held: no item may start with "ab"
      [enumGrammar, '["abc","ab","a"', true],
      [enumGrammar, '["abc","ab","', true],
      // "abc" held: an item may not start with it (`"abc`, ` "abc` and the like are cleared where the vocabulary has them)
      [enumGrammar, '["abc",', false],
      [enumGrammar, '["ab","abc"', false],
      [pair, '["a",', false],
      [pair, '["a", ', false],
      [pair, '["a", "b"', true],
      [pair, '["b",\n "\\u00', false],
    ] as const;
    const { disagreements, notCleared } = clearingProblems(cases, vocabulary);
    expect(disagreements).toEqual([]);
    expect(notCleared).toEqual([]);
  });

  it.each(VOCABULARIES)('%s: random generations end valid, with no dead end and every probed mask bit agreeing with accept()', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const schemas = {
      dates: { type: 'array', items: { type: 'string', format: 'date' }, uniqueItems: true, minItems: 3 },
      // ESLint's no-warning-comments: one non-space character per item
      'one character': { type: 'array', items: { type: 'string', pattern: '^\\S$' }, uniqueItems: true, minItems: 2 },
      // ESLint's no-bitwise (its 13 operators), past the set limit
      operators: {
        type: 'array',
        items: { enum: ['^', '|', '&', '<<', '>>', '>>>', '^=', '|=', '&=', '<<=', '>>=', '>>>=', '~'] },
        uniqueItems: true,
        minItems: 10,
      },
      'maxLength 2': { type: 'array', items: { type: 'string', maxLength: 2, pattern: '^[a-c]*$' }, uniqueItems: true, minItems: 12 },
      // overlapping alternatives (a..c, and two letters from a): 3 + 9 strings, "a" not among the two letters
      'several alternatives': {
        type: 'array',
        items: {
          anyOf: [
            { type: 'string', pattern: '^[a-c]$' },
            { type: 'string', pattern: '^[a-c][a-c]?$', minLength: 2 },
          ],
        },
        uniqueItems: true,
        minItems: 11,
      },
    };
    expect(randomGenerationProblems(vocabulary, schemas, { seed: 11, runs: 4, randomSteps: 60, validatorOf: registryVerdict })).toEqual([]);
  });

  it('compiles an enum past the set limit that compiled as a set of values under it, with the same values', () => {
    const schema = { type: 'array', items: { enum: ['a', 'ab', 'abc'] }, uniqueItems: true };
    const asSet = compileJsonSchema(schema, byteVocabulary());
    const asStrings = compileJsonSchema(schema, byteVocabulary(), PAST_SET_LIMIT);
    expect(asSet.automaton.tracksStrings).toBe(false);
    expect(asStrings.automaton.tracksStrings).toBe(true);
    for (const value of UNIVERSE) {
      const text = JSON.stringify(value);
      const [left, right] = [asSet.matcher(), asStrings.matcher()];
      expect([text, right.acceptString(text) && right.canTerminate()]).toEqual([text, left.acceptString(text) && left.canTerminate()]);
    }
  });

  it('rejects as unsatisfiable an array that needs more distinct items than its strings have', () => {
    const schema = { type: 'array', items: { type: 'string', pattern: '^[ab]$' }, uniqueItems: true, minItems: 3 };
    expect(() => compileJsonSchema(schema, byteVocabulary())).toThrow(SchemaCompileError);
    expect(registryVerdict(schema)(['a', 'b', 'a'])).toBe(false);
  });

  it.each([
    ['contains beside', { type: 'array', items: { type: 'string', maxLength: 1 }, uniqueItems: true, contains: { const: 'a' } }, /beside contains/],
    [
      'a format that lowers to several alternatives whose union passes the state budget',
      { type: 'array', items: { type: 'string', format: 'date-time' }, uniqueItems: true },
      /counted once on one automaton of their union .* at most 20000/,
    ],
    [
      'a hostname (two alternatives of up to 253 and 254 characters)',
      { type: 'array', items: { type: 'string', format: 'hostname' }, uniqueItems: true },
      /at most 20000/,
    ],
    [
      'an enum of strings and null past the set limit',
      { type: 'array', items: { enum: ['a', 'b', 'c', null] }, uniqueItems: true },
      /distinct values make more than 4 sets/,
    ],
  ])('still refuses uniqueItems over strings with %s', (_name, schema, message) => {
    let error: unknown;
    try {
      compileJsonSchema(schema, byteVocabulary(), PAST_SET_LIMIT);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    expect((error as UnsupportedSchemaError).keyword).toBe('uniqueItems');
    expect((error as Error).message).toMatch(message);
  });
});
