/**
 * `minProperties` above 1 beside undeclared keys whose language can run out (an `enum` or `maxLength` under
 * `propertyNames`, a finite pattern, a format with a last character): the keys are kept distinct with the matcher's
 * memory and counted as `uniqueItems` counts strings (`planDistinctKeys`), so a key prefix whose every completion is a
 * key written before is refused, and the property count is capped at the keys the language has. Exhaustively over
 * small objects (repeated keys included), under both layouts, both property orders and on the Qwen3, Llama 3 and Gemma 3
 * vocabularies, the mask accepts a text exactly when the registry's validator accepts its value and the text repeats
 * no key; over a byte vocabulary every prefix the mask allows goes on; near exhaustion every mask bit agrees with
 * accept(); random generations end valid with no dead end and no repeated key.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { SchemaCompileError } from '../../src/shared/errors.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { byteWalkProblems, clearingProblems, everyEntryList, randomGenerationProblems, refusalOf, repeatsKey, universeDisagreements } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const ABCD = { enum: ['a', 'b', 'c', 'd'] };

const SCHEMAS: Record<string, Record<string, unknown>> = {
  'propertyNames enum, minProperties 2, maxProperties 3': { type: 'object', propertyNames: ABCD, minProperties: 2, maxProperties: 3 },
  'propertyNames enum of keys sharing prefixes, minProperties 2 (no maxProperties: capped at 3 keys)': {
    type: 'object',
    propertyNames: { enum: ['a', 'ab', 'abc'] },
    minProperties: 2,
  },
  'a pattern of one or two letters, minProperties 3': { type: 'object', minProperties: 3, propertyNames: { pattern: '^[ab]{1,2}$' } },
  'propertyNames maxLength 1 over a pattern, integer values': {
    type: 'object',
    minProperties: 2,
    propertyNames: { pattern: '^[a-c]*$', maxLength: 1 },
    additionalProperties: { type: 'integer' },
  },
  'a finite patternProperties pattern, no other key': {
    type: 'object',
    minProperties: 2,
    patternProperties: { '^(a|b|ab)$': { type: 'integer' } },
    additionalProperties: false,
  },
  'several propertyNames alternatives (counted on their union)': {
    type: 'object',
    minProperties: 2,
    propertyNames: { anyOf: [{ enum: ['a', 'b'] }, { pattern: '^a+$' }] },
  },
  'nested objects (each its own set of keys)': {
    type: 'object',
    propertyNames: { enum: ['a', 'b'] },
    minProperties: 2,
    additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'object', propertyNames: { enum: ['a', 'b'] }, minProperties: 2 }] },
  },
  'anyOf with an object that allows repeats (a repeat closes into the other branch)': {
    anyOf: [
      { type: 'object', minProperties: 2, propertyNames: { enum: ['a', 'b', 'c'] }, additionalProperties: { type: 'integer' } },
      { type: 'object', additionalProperties: { type: 'string' } },
    ],
  },
};

const KEYS = ['a', 'b', 'ab', 'd'];
const VALUES = [1, 'x'];

type Entries = [string, unknown][];

const UNIVERSE: Entries[] = [
  ...everyEntryList(KEYS, VALUES, 3),
  [
    ['a', 1],
    ['b', 1],
    ['c', 1],
    ['d', 1],
  ],
  [
    ['a', 1],
    ['b', 1],
    ['aa', 1],
    ['ab', 1],
  ],
  [
    ['abc', 1],
    ['ab', 1],
    ['a', 1],
  ],
  [
    ['abc', 1],
    ['abc', 1],
  ],
  [
    ['c', 1],
    ['a', 1],
    ['b', 1],
  ],
  [
    ['a', { a: 1, b: 2 }],
    ['b', 1],
  ],
  [
    ['a', { a: 1 }],
    ['b', 1],
  ],
  [
    ['a', { a: 1, b: 2 }],
    ['b', { b: 1, a: 'x' }],
  ],
];

/** The entries written as an object's text, in order, repeats kept; in the flexible layout also spaced, and with every `a` of a key written `\u0061`. */
function texts(value: unknown, flexible: boolean): string[] {
  const entries = value as Entries;
  const write = (key: (name: string) => string, separator: string): string =>
    `{${entries.map(([name, item]) => `${key(name)}:${separator}${JSON.stringify(item)}`).join(`,${separator}`)}}`;
  const compact = write((name) => JSON.stringify(name), '');
  if (!flexible) return [compact];
  return [write((name) => JSON.stringify(name), ' '), write((name) => JSON.stringify(name).replace(/a/g, '\\u0061'), '')];
}

/** The registry on the parsed text (JSON.parse keeps the last of repeated keys), and no repeated key: these objects keep their keys distinct. */
function registry(schema: unknown): (value: unknown) => boolean {
  const validator = compileSchema(schema as Record<string, unknown>);
  return (value) => {
    const text = texts(value, false)[0]!;
    return !repeatsKey(text) && validator.validate(JSON.parse(text)).success;
  };
}

/** `registry` for a generated value (a parsed text). */
function validatorOf(schema: Record<string, unknown>): (value: unknown) => boolean {
  const validator = compileSchema(schema);
  return (value) => validator.validate(value).success;
}

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

describe('distinct keys whose language can run out', () => {
  const tokenizers = new Map(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));

  it.each(Object.keys(SCHEMAS).filter((name) => !name.startsWith('anyOf')))(
    '%s: the mask accepts exactly what the registry accepts without a repeated key (both layouts, both orders, three vocabularies)',
    (name) => {
      const schema = SCHEMAS[name]!;
      for (const propertyOrder of ['schema', 'any'] as const)
        expect(universeDisagreements(schema, { propertyOrder }, tokenizers, UNIVERSE, texts, registry(schema))).toEqual([]);
    },
    120_000,
  );

  it('anyOf with an object that allows repeats: a repeated key closes into the other branch', () => {
    const schema = SCHEMAS['anyOf with an object that allows repeats (a repeat closes into the other branch)']!;
    const validator = compileSchema(schema);
    // a repeat is taken only where the other branch (any keys) takes every value written, the repeated ones too
    const validate = (value: unknown): boolean => {
      const text = texts(value, false)[0]!;
      const stringsOnly = (value as Entries).every(([, item]) => typeof item === 'string');
      return validator.validate(JSON.parse(text)).success && (!repeatsKey(text) || stringsOnly);
    };
    for (const propertyOrder of ['schema', 'any'] as const)
      expect(universeDisagreements(schema, { propertyOrder }, tokenizers, UNIVERSE, texts, validate)).toEqual([]);
  }, 120_000);

  it.each([
    ['propertyNames enum, minProperties 2, maxProperties 3', 21],
    ['propertyNames enum of keys sharing prefixes, minProperties 2 (no maxProperties: capped at 3 keys)', 24],
    ['a finite patternProperties pattern, no other key', 24],
    ['a pattern of one or two letters, minProperties 3', 30],
  ])('%s: every byte text the mask allows (up to %i bytes, values 1) goes on, agrees with accept() and ends valid', (name, depth) => {
    // one value, so the walk spends its bytes on keys
    const schema =
      'patternProperties' in SCHEMAS[name]!
        ? { ...SCHEMAS[name]!, patternProperties: { '^(a|b|ab)$': { const: 1 } } }
        : { ...SCHEMAS[name]!, additionalProperties: { const: 1 } };
    expect(byteWalkProblems(schema, undefined, depth)).toEqual([]);
  });

  it.each(VOCABULARIES)('%s: every mask bit agrees with accept() where a key prefix or the whole key language is one token from running out', (name) => {
    const { vocabulary } = tokenizers.get(name)!;
    const prefixes = compileJsonSchema(
      SCHEMAS['propertyNames enum of keys sharing prefixes, minProperties 2 (no maxProperties: capped at 3 keys)'],
      vocabulary,
    );
    const letters = compileJsonSchema(SCHEMAS['a pattern of one or two letters, minProperties 3'], vocabulary, { layout: 'flexible' });
    const nested = compileJsonSchema(SCHEMAS['nested objects (each its own set of keys)'], vocabulary);
    const cases = [
      // "abc" and "ab" held: a key may only be "a" (`"ab`, `"abc"` and the like cleared)
      [prefixes, '{"abc":1,"ab":1,"', true],
      [prefixes, '{"abc":1,"ab":', false],
      // a token that ends the value and opens the next key (`,"ab`, `1,"a`, `","abc`)
      [prefixes, '{"abc":1,"ab":1', false],
      [prefixes, '{"abc":1,"ab":"x', false],
      // all three held: no comma (the count is capped by the frame, not cleared by the memory)
      [prefixes, '{"a":1,"abc":1,"ab":1', false],
      [letters, '{"aa": 1, "ab": 1, "a": 1, ', false],
      [letters, '{"aa": 1, "ab": 1, "a": 1, "b', false],
      [letters, '{"aa": 1, "ab": 1, "a": 1, "b": 1, "ba": 1, "', true],
      // inside a nested object's value: tokens that close it and open the outer object's next key
      [nested, '{"a":{"b":1,"a":1', false],
      [nested, '{"b":1,"a":{"b":1,"a":1', false],
    ] as const;
    const { disagreements, notCleared } = clearingProblems(cases, vocabulary);
    expect(disagreements).toEqual([]);
    expect(notCleared).toEqual([]);
  });

  it.each(VOCABULARIES)('%s: random generations end valid, with no dead end and no repeated key', (name) => {
    const { vocabulary } = tokenizers.get(name)!;
    const schemas = {
      'four names': { ...SCHEMAS['propertyNames enum, minProperties 2, maxProperties 3']!, additionalProperties: { type: 'integer' } },
      'one or two lowercase letters': {
        type: 'object',
        minProperties: 3,
        propertyNames: { pattern: '^[a-z]{1,2}$' },
        additionalProperties: { type: 'integer' },
      },
      'dates to strings': { type: 'object', additionalProperties: { type: 'string', maxLength: 3 }, propertyNames: { format: 'date' }, minProperties: 2 },
      'every key of a small language': {
        type: 'object',
        propertyNames: { pattern: '^[ab]{1,2}$' },
        minProperties: 6,
        additionalProperties: { type: 'boolean' },
      },
    };
    const check = (text: string): string | undefined => (repeatsKey(text) ? 'repeated key' : undefined);
    expect(randomGenerationProblems(vocabulary, schemas, { seed: 7, runs: 4, randomSteps: 40, validatorOf, check })).toEqual([]);
  });

  it('rejects as unsatisfiable an object that needs more distinct keys than its key language has', () => {
    const schema = { type: 'object', propertyNames: { enum: ['a', 'b'] }, minProperties: 3 };
    expect(() => compileJsonSchema(schema, byteVocabulary())).toThrow(SchemaCompileError);
    // a repeated key does not make a third property
    expect(validatorOf(schema)(JSON.parse('{"a":1,"b":1,"a":2}'))).toBe(false);
  });

  it.each([
    [
      'a declared property beside',
      { type: 'object', properties: { x: {} }, propertyNames: { enum: ['a', 'b', 'x'] }, minProperties: 2 },
      /declared properties can appear beside them/,
    ],
    [
      'two key classes (patternProperties with different schemas)',
      { type: 'object', minProperties: 2, patternProperties: { '^x$': { type: 'integer' } }, propertyNames: { maxLength: 1 } },
      /several key classes/,
    ],
    ['a format whose union passes the state budget', { type: 'object', minProperties: 2, propertyNames: { format: 'time' } }, /at most 20000/],
  ])('still refuses minProperties above 1 beside finite keys with %s', (_name, schema, message) => {
    const error = refusalOf(schema);
    expect(error.keyword).toBe('minProperties');
    expect(error.message).toMatch(message);
  });
});
