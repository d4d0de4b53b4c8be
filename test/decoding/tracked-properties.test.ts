/**
 * Objects with more declared properties than the written set has bits (`limits.maxTrackedProperties`, 30 at most):
 * under schema order only the properties a `dependentRequired` names get a bit, and the others are kept in order as
 * an untracked object keeps them (each written at most once, so `minProperties` counts them exactly). A required
 * property's dependents are required, and a required dependent needs no bit. The differential test compares the mask
 * with the registry on boundary instances (`differential-schemas.ts`, the four cases of issue #32); here random
 * generations must never dead-end and must be valid for the registry, every subset of the properties of random
 * dependency tables is accepted exactly when the registry accepts it, and what still cannot be tracked is refused
 * naming the keyword.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError } from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { DIFFERENTIAL_CASES } from './differential-schemas.js';
import { createRandom, generate } from './generation.js';

const vocabulary = byteVocabulary();
const CASES = DIFFERENTIAL_CASES.filter((testCase) =>
  /more declared properties than tracked bits|32 declared|past the tracked bits|32 of 40/.test(testCase.name),
);

describe('dependentRequired past the tracked-properties budget', () => {
  it('compiles the four cases, and every random generation ends and is valid for the registry', () => {
    expect(CASES).toHaveLength(4);
    const problems: string[] = [];
    for (const testCase of CASES) {
      const grammar = compileJsonSchema(testCase.schema, vocabulary, { limits: testCase.limits ?? {} });
      const validator = compileSchema(testCase.schema as never);
      const random = createRandom(32);
      for (let run = 0; run < 150; run++) {
        const generation = generate(grammar, random, 5 + (run % 60));
        problems.push(...generation.disagreements);
        if (!validator.validate(JSON.parse(generation.text)).success) problems.push(`${testCase.name}: generated an invalid value ${generation.text}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('accepts every subset of seven properties exactly when the registry does, over random dependency tables, required sets and count bounds', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const random = createRandom(11);
    const problems: string[] = [];
    let compiled = 0;
    for (let trial = 0; trial < 60; trial++) {
      const dependentRequired: Record<string, string[]> = {};
      for (let count = 1 + Math.floor(random() * 3); count > 0; count--) {
        const source = names[Math.floor(random() * names.length)]!;
        dependentRequired[source] = [...new Set([...(dependentRequired[source] ?? []), names[Math.floor(random() * names.length)]!])];
      }
      const schema = {
        type: 'object',
        properties: Object.fromEntries(names.map((name) => [name, { type: 'integer', minimum: 0, maximum: 1 }])),
        required: names.filter(() => random() < 0.3),
        minProperties: Math.floor(random() * 7),
        ...(random() < 0.3 ? { maxProperties: 2 + Math.floor(random() * 4) } : {}),
        dependentRequired,
        additionalProperties: false,
      };
      let grammar: ReturnType<typeof compileJsonSchema>;
      try {
        grammar = compileJsonSchema(schema, vocabulary, { limits: { maxTrackedProperties: 3 + Math.floor(random() * 2) } });
      } catch (error) {
        if (error instanceof UnsupportedSchemaError || (error as Error).name === 'SchemaCompileError') continue;
        throw error;
      }
      compiled++;
      const validator = compileSchema(schema as never);
      for (let subset = 0; subset < 1 << names.length; subset++) {
        const value = Object.fromEntries(names.filter((_, index) => ((subset >> index) & 1) === 1).map((name) => [name, subset & 1]));
        const text = grammar.format(value) ?? JSON.stringify(value);
        const matcher = grammar.matcher();
        const accepted = matcher.acceptString(text) && matcher.canTerminate();
        if (accepted !== validator.validate(value).success) problems.push(`${JSON.stringify(schema)}: ${accepted ? 'accepted' : 'rejected'} ${text}`);
      }
    }
    expect(problems).toEqual([]);
    // most tables compile: the check is never vacuous
    expect(compiled).toBeGreaterThan(35);
  });

  it('refuses, naming dependentRequired, when the named properties alone exceed the budget, and compiles when minProperties needs optional ones', () => {
    const properties = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`p${index}`, { type: 'integer' }]));
    const refusal = (schema: unknown): unknown => {
      try {
        compileJsonSchema(schema, vocabulary, { limits: { maxTrackedProperties: 3 } });
        return undefined;
      } catch (error) {
        return error instanceof UnsupportedSchemaError ? `${error.keyword} at ${error.pointer}` : error;
      }
    };
    expect(refusal({ type: 'object', properties, dependentRequired: { p0: ['p1', 'p2', 'p3'] } })).toBe('dependentRequired at #');
    expect(refusal({ type: 'object', properties, dependentRequired: { p0: ['p1'] }, minProperties: 2, additionalProperties: false })).toBeUndefined();
    // a required source makes its dependents required: nothing is left to track
    expect(refusal({ type: 'object', properties, required: ['p0'], dependentRequired: { p0: ['p1', 'p2', 'p3'] }, maxProperties: 6 })).toBeUndefined();
    expect(
      refusal({ type: 'object', properties, dependentRequired: { p0: ['p1', 'p2'] }, required: ['p5', 'p6'], minProperties: 2, additionalProperties: false }),
    ).toBeUndefined();
  });
});
