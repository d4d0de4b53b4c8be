/**
 * Objects with more declared properties than the written set has bits (`limits.maxTrackedProperties`, 30 at most):
 * under schema order only the properties a `dependentRequired` names get a bit, and the others are kept in order as
 * an untracked object keeps them. The differential test compares the mask with the registry on boundary instances
 * (`differential-schemas.ts`, the two cases of issue #32); here random generations must never dead-end and must be
 * valid for the registry, and what still cannot be tracked is refused naming the keyword.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError } from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { DIFFERENTIAL_CASES } from './differential-schemas.js';
import { createRandom, generate } from './generation.js';

const vocabulary = byteVocabulary();
const CASES = DIFFERENTIAL_CASES.filter(
  (testCase) => testCase.name.includes('more declared properties than tracked bits') || testCase.name.includes('32 declared'),
);

describe('dependentRequired past the tracked-properties budget', () => {
  it('compiles both cases, and every random generation ends and is valid for the registry', () => {
    expect(CASES).toHaveLength(2);
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

  it('refuses, naming dependentRequired, when the named properties alone exceed the budget or minProperties needs optional ones', () => {
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
    expect(refusal({ type: 'object', properties, dependentRequired: { p0: ['p1'] }, minProperties: 2, additionalProperties: false })).toBe(
      'dependentRequired at #',
    );
    expect(
      refusal({ type: 'object', properties, dependentRequired: { p0: ['p1', 'p2'] }, required: ['p5', 'p6'], minProperties: 2, additionalProperties: false }),
    ).toBeUndefined();
  });
});
