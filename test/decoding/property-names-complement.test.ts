/**
 * The complement of `propertyNames` (`not: {propertyNames: S}`): some key's name fails S. A declared name S rejects
 * becomes a required property of its own alternative; an undeclared key whose name fails S is a key witness that may
 * come anywhere (a repeat cannot undo a name), tracked in the object frame, and the object closes only after one.
 * Exhaustively over small objects (repeated keys included), under both layouts, both property orders and on the Qwen3,
 * Llama 3 and Gemma 3 vocabularies, the mask accepts a text exactly when the registry's validator accepts its value
 * (declared keys written at most once, and in schema order before undeclared ones under `propertyOrder: 'schema'`);
 * over a byte vocabulary every prefix the mask allows goes on; random generations end valid with no dead end.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError } from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteWalkProblems, everyEntryList, randomGenerationProblems, universeDisagreements } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const SHORT = { maxLength: 1 };

const SCHEMAS: Record<string, { schema: Record<string, unknown>; declared: string[] }> = {
  'some key longer than one character': { schema: { type: 'object', not: { propertyNames: SHORT } }, declared: [] },
  'any value (non-objects pass)': { schema: { not: { propertyNames: SHORT } }, declared: [] },
  'declared properties, one whose name fails': {
    schema: { type: 'object', properties: { a: {}, ab: { type: 'integer' } }, not: { propertyNames: SHORT } },
    declared: ['a', 'ab'],
  },
  'a closed object: only a declared name can fail': {
    schema: { type: 'object', properties: { a: {}, ab: {} }, additionalProperties: false, not: { propertyNames: SHORT } },
    declared: ['a', 'ab'],
  },
  'beside minProperties in the negated schema (fewer keys, or a failing one)': {
    schema: { type: 'object', not: { propertyNames: SHORT, minProperties: 2 } },
    declared: [],
  },
  'an enum of names, integer values': {
    schema: { type: 'object', additionalProperties: { type: 'integer' }, not: { propertyNames: { enum: ['a', 'b'] } } },
    declared: [],
  },
  'a pattern, and propertyNames of its own': {
    schema: { type: 'object', propertyNames: { maxLength: 2 }, not: { propertyNames: { pattern: '^a' } } },
    declared: [],
  },
  'double negation (propertyNames itself)': { schema: { type: 'object', not: { not: { propertyNames: SHORT } } }, declared: [] },
};

const KEYS = ['a', 'b', 'ab', 'abc'];
const VALUES = [1, 'x'];

type Entries = [string, unknown][];

/** A repeated key carries the same value each time: the mask checks every value written (Known limits), the registry the last. */
const sameWhenRepeated = (entries: Entries): boolean => entries.every(([name, item]) => entries.every(([other, value]) => other !== name || value === item));

const UNIVERSE: unknown[] = [...everyEntryList(KEYS, VALUES, 3).filter(sameWhenRepeated), 1, 'ab'];

/**
 * The entries as an object's text, in order, repeats kept; in the flexible layout also spaced, and with every `c` of a
 * key written `\u0063` (only undeclared keys hold one: declared names are matched as written).
 */
function texts(value: unknown, flexible: boolean): string[] {
  if (!Array.isArray(value)) return [JSON.stringify(value)];
  const entries = value as Entries;
  const write = (key: (name: string) => string, separator: string): string =>
    `{${entries.map(([name, item]) => `${key(name)}:${separator}${JSON.stringify(item)}`).join(`,${separator}`)}}`;
  const compact = write((name) => JSON.stringify(name), '');
  if (!flexible) return [compact];
  return [write((name) => JSON.stringify(name), ' '), write((name) => JSON.stringify(name).replace(/c/g, '\\u0063'), '')];
}

/**
 * The registry on the parsed text, where the mask writes each declared key at most once and, in schema order, the
 * declared keys first in their order (`docs/decoding.md`, Known limits); under a property count (the negated
 * `minProperties: 2` here), a text that repeats a key is taken where its keys written are fewer than 2 or one fails.
 */
function expectation(schema: Record<string, unknown>, declared: readonly string[], order: 'schema' | 'any'): (value: unknown) => boolean {
  const counted = (schema.not as Record<string, unknown> | undefined)?.minProperties !== undefined;
  const validator = compileSchema(schema);
  return (value) => {
    if (!Array.isArray(value)) return validator.validate(value).success;
    const names = (value as Entries).map(([name]) => name);
    const declaredWritten = names.filter((name) => declared.includes(name));
    if (new Set(declaredWritten).size < declaredWritten.length) return false;
    if (order === 'schema') {
      const inOrder = declaredWritten.every((name, index) => index === 0 || declared.indexOf(declaredWritten[index - 1]!) < declared.indexOf(name));
      if (!inOrder || names.slice(0, declaredWritten.length).some((name) => !declared.includes(name))) return false;
    }
    // the object frame counts the keys written, a repeated one twice (Known limits)
    if (counted && new Set(names).size < names.length) return names.length < 2 || names.some((name) => name.length > 1);
    return validator.validate(JSON.parse(texts(value, false)[0]!)).success;
  };
}

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

describe('the complement of propertyNames', () => {
  const tokenizers = new Map(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));

  it.each(Object.keys(SCHEMAS))(
    '%s: the mask accepts exactly what the registry accepts (both layouts, both orders, three vocabularies)',
    (name) => {
      const { schema, declared } = SCHEMAS[name]!;
      for (const propertyOrder of ['schema', 'any'] as const) {
        const validate = expectation(schema, declared, propertyOrder);
        expect(universeDisagreements(schema, { propertyOrder }, tokenizers, UNIVERSE, texts, validate)).toEqual([]);
      }
    },
    120_000,
  );

  it.each([
    ['some key longer than one character', 18],
    ['declared properties, one whose name fails', 18],
    ['beside minProperties in the negated schema (fewer keys, or a failing one)', 16],
  ])(
    '%s: every byte text the mask allows (up to %i bytes, values 1) goes on, agrees with accept() and ends valid',
    (name, depth) => {
      const { schema } = SCHEMAS[name]!;
      const properties = schema.properties as Record<string, unknown> | undefined;
      // one value and keys of two letters, so the walk spends its bytes on keys
      const walked = {
        ...schema,
        propertyNames: { pattern: '^[ab]*$' },
        additionalProperties: { const: 1 },
        ...(properties === undefined ? {} : { properties: Object.fromEntries(Object.keys(properties).map((key) => [key, { const: 1 }])) }),
      };
      for (const propertyOrder of ['schema', 'any'] as const) expect(byteWalkProblems(walked, { propertyOrder }, depth)).toEqual([]);
    },
    120_000,
  );

  it.each(VOCABULARIES)('%s: random generations end valid, with no dead end', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const schemas = {
      'a long key': { type: 'object', additionalProperties: { type: 'integer' }, not: { propertyNames: { maxLength: 3 } } },
      'a name outside an enum': { type: 'object', properties: { id: { type: 'string' } }, not: { propertyNames: { enum: ['id', 'name'] } } },
      'fewer than two keys, or one outside a pattern': { type: 'object', not: { propertyNames: { pattern: '^[a-z]+$' }, minProperties: 2 } },
    };
    const validatorOf = (schema: Record<string, unknown>): ((value: unknown) => boolean) => {
      const validator = compileSchema(schema);
      return (value) => validator.validate(value).success;
    };
    expect(randomGenerationProblems(vocabulary, schemas, { seed: 5, runs: 4, randomSteps: 40, validatorOf })).toEqual([]);
  });

  it('refuses it beside another negated key rule on the same object, naming not', () => {
    const schema = { type: 'object', allOf: [{ not: { propertyNames: SHORT } }, { not: { additionalProperties: { type: 'integer' } } }] };
    let error: unknown;
    try {
      compileJsonSchema(schema, tokenizers.get('qwen3')!.vocabulary);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    expect((error as UnsupportedSchemaError).keyword).toBe('not');
  });
});
