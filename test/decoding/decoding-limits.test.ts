import { describe, expect, it } from 'vitest';
import {
  compileJsonSchema,
  DecodingLimitError,
  DEFAULT_DECODING_LIMITS,
  InvalidDecodingLimitsError,
  UnsupportedSchemaError,
  type CompiledGrammar,
  type DecodingLimits,
} from '../../src/decoding/index.js';
import { decodingLimits } from '../../src/decoding/decoding-limits.js';
import { byteVocabulary } from './byte-vocabulary.js';

/** A fresh vocabulary per compile: its grammar cache would otherwise hand the second compile automata built for free. */
const compile = (schema: unknown, limits?: Partial<DecodingLimits>): CompiledGrammar => compileJsonSchema(schema, byteVocabulary(), { limits });

function accepts(grammar: CompiledGrammar, text: string): boolean {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}

/**
 * Levels nested `depth` deep, each a $ref target from the root, so level k is compiled once per level above it. Each
 * level is a resource of its own (`$id`): the registry refuses one `$dynamicAnchor` name twice in one resource.
 */
function nestedDynamicReferences(depth: number): Record<string, unknown> {
  const id = (index: number): string => `https://example.com/level-${index}`;
  let level: Record<string, unknown> = { $id: id(0), $dynamicAnchor: 'T', type: 'object', properties: { t: { $dynamicRef: '#T' } } };
  for (let index = 1; index < depth; index++)
    level = { $id: id(index), $dynamicAnchor: 'T', type: 'object', properties: { a: level, t: { $dynamicRef: '#T' } } };
  const properties: Record<string, unknown> = { leaf: { type: 'integer' } };
  for (let index = 0; index < depth; index++) properties[`l${index}`] = { $ref: `#/$defs/c${'/properties/a'.repeat(index)}` };
  return { $dynamicAnchor: 'T', type: 'object', properties, $defs: { c: level } };
}

/** Per limit of the compiler's lowering: a schema the defaults compile, and a value of the limit under which it is refused. */
const REFUSED_UNDER_A_LOWER_LIMIT: ReadonlyArray<[limit: keyof DecodingLimits, lowered: number, keyword: string, schema: unknown]> = [
  ['maxAlternatives', 2, 'anyOf', { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] }],
  ['maxLiteralComplementAlternatives', 1, 'not', { type: 'array', maxItems: 2, not: { enum: [[1], [2, 3]] } }],
  ['maxUnrolledItems', 2, 'not', { type: 'array', maxItems: 6, not: { prefixItems: [{ type: 'integer' }], items: { type: 'integer' } } }],
  ['maxDynamicSpecializations', 4, '$dynamicRef', nestedDynamicReferences(3)],
  // past the budget only the properties a dependency names are tracked: here all three
  ['maxTrackedProperties', 2, 'dependentRequired', { type: 'object', properties: { a: {}, b: {}, c: {} }, dependentRequired: { a: ['b', 'c'] } }],
  ['maxKeyClasses', 2, 'patternProperties', { type: 'object', patternProperties: { '^a': { type: 'integer' }, '^b': { type: 'string' } } }],
  ['uniqueItemsMaxSets', 4, 'uniqueItems', { type: 'array', uniqueItems: true, items: { enum: [1, 2, 3] } }],
  ['uniqueItemsMaxValues', 2, 'uniqueItems', { type: 'array', uniqueItems: true, maxItems: 1 + 1, items: { enum: [1, 2, 3] } }],
  ['containsMaxCells', 2, 'contains', { type: 'array', allOf: [{ contains: { const: 1 } }, { contains: { const: 2 } }] }],
  [
    'containsMaxCountStates',
    4,
    'contains',
    {
      type: 'array',
      allOf: [
        { contains: { const: 1 }, maxContains: 2 },
        { contains: { const: 2 }, maxContains: 2 },
      ],
    },
  ],
  // past the list 1.1 is refused: Ajv rejects 3.3, the only multiple with the integer part 3, so the check as written
  // would leave a dead end (0.01 and 0.03 would be checked as written instead)
  ['multipleOfMaxValues', 10, 'multipleOf', { type: 'number', minimum: 0, maximum: 20, multipleOf: 1.1 }],
  ['multipleOfMaxModulus', 5, 'multipleOf', { type: 'integer', minimum: 0, maximum: 1_000_000, multipleOf: 7 }],
  ['multipleOfMaxStates', 3, 'multipleOf', { type: 'integer', minimum: 0, maximum: 1_000_000, multipleOf: 7 }],
];

describe('DecodingLimits: one table of the compiler budgets, overridable per compile', () => {
  it.each(REFUSED_UNDER_A_LOWER_LIMIT)('%s: a schema the default compiles is refused under %i, naming the limit', (limit, lowered, keyword, schema) => {
    expect(lowered).toBeLessThan(DEFAULT_DECODING_LIMITS[limit]);
    expect(() => compile(schema)).not.toThrow();
    let refusal: unknown;
    try {
      compile(schema, { [limit]: lowered });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(UnsupportedSchemaError);
    expect(refusal).toMatchObject({ code: 'TW_UNSUPPORTED_SCHEMA', keyword });
    expect((refusal as Error).message).toContain(`limits.${limit}`);
  });

  it('every limit of the table has a row above, or a test of its own below', () => {
    const covered = new Set<string>([
      ...REFUSED_UNDER_A_LOWER_LIMIT.map(([limit]) => limit),
      'maxAutomatonWork',
      'maxStates',
      'maxDepth',
      'uniqueItemsMaxStringBytes',
    ]);
    expect(Object.keys(DEFAULT_DECODING_LIMITS).filter((limit) => !covered.has(limit))).toEqual([]);
  });

  it('maxAutomatonWork: a pattern the default builds is refused with TW_DECODING_LIMIT under a lower budget, given in limits or as the option', () => {
    const schema = { type: 'string', pattern: '^([a-c]{1,4}x){1,4}$' };
    expect(() => compile(schema)).not.toThrow();
    expect(() => compile(schema, { maxAutomatonWork: 50 })).toThrow(DecodingLimitError);
    expect(() => compileJsonSchema(schema, byteVocabulary(), { maxAutomatonWork: 50 })).toThrow(DecodingLimitError);
    // the option of its own wins over the row of the table
    expect(() => compileJsonSchema(schema, byteVocabulary(), { maxAutomatonWork: 5_000_000, limits: { maxAutomatonWork: 50 } })).not.toThrow();
  });

  it('uniqueItemsMaxStringBytes: a matcher that remembers more item strings stops with TW_DECODING_LIMIT until reset', () => {
    const schema = { type: 'array', items: { type: 'string' }, uniqueItems: true };
    const grammar = compileJsonSchema(schema, byteVocabulary(), { limits: { uniqueItemsMaxStringBytes: 8 } });
    const matcher = grammar.matcher();
    expect(matcher.acceptString('["abcd","efgh"')).toBe(true);
    expect(() => matcher.acceptString(',"i"')).toThrow(DecodingLimitError);
    expect(() => matcher.fillMask(new Uint32Array(grammar.vocabulary.maskWords))).toThrow(/uniqueItemsMaxStringBytes/);
    matcher.reset();
    expect(matcher.acceptString('["abcd","efgh"]') && matcher.canTerminate()).toBe(true);
    expect(accepts(compile(schema), '["abcd","efgh","i"]')).toBe(true);
  });

  it('maxStates and maxDepth: rows of the table that bound matching, as their options do', () => {
    const small = compileJsonSchema({ type: 'string', maxLength: 200 }, byteVocabulary(), { limits: { maxStates: 8 } });
    expect(() => small.matcher().acceptString('"abcdefghijklmnop')).toThrow(DecodingLimitError);
    expect(accepts(compile({ type: 'string', maxLength: 200 }), '"abcdefghijklmnop"')).toBe(true);
    expect(accepts(compile({}, { maxDepth: 3 }), '[[[1]]]')).toBe(false);
    expect(accepts(compile({}), '[[[1]]]')).toBe(true);
    // the options of their own win over the rows of the table
    const both = { maxStates: 200_000, maxDepth: 32, limits: { maxStates: 8, maxDepth: 3 } };
    expect(accepts(compileJsonSchema({ type: 'string', maxLength: 200 }, byteVocabulary(), both), '"abcdefghijklmnop"')).toBe(true);
    expect(accepts(compileJsonSchema({}, byteVocabulary(), both), '[[[1]]]')).toBe(true);
  });

  it.each([
    [{ maxAlternativs: 3 }, 'unknown field "maxAlternativs"'],
    [{ maxKeyPatterns: 16 }, '`limits.maxKeyPatterns` was replaced: the key automaton is now bounded by the sets of patterns keys reach'],
    [{ maxAlternatives: 0 }, '`limits.maxAlternatives` must be a whole number of 1 or more (got 0)'],
    [{ maxDepth: 2.5 }, '`limits.maxDepth` must be a whole number of 1 or more (got 2.5)'],
    [{ maxStates: Infinity }, '`limits.maxStates` must be a whole number of 1 or more (got null)'],
    [{ containsMaxCells: '16' }, '`limits.containsMaxCells` must be a whole number of 1 or more (got "16")'],
    [{ maxTrackedProperties: 31 }, '`limits.maxTrackedProperties` must be a whole number from 1 to 30 (got 31)'],
    [{ uniqueItemsMaxValues: 32 }, '`limits.uniqueItemsMaxValues` must be a whole number from 1 to 30 (got 32)'],
    [[3], '`limits` must be an object'],
  ])('refuses the limits %j with TW_INVALID_DECODING_LIMITS naming the field', (limits, problem) => {
    const attempt = (): unknown => compileJsonSchema({ type: 'string' }, byteVocabulary(), { limits: limits as Partial<DecodingLimits> });
    expect(attempt).toThrow(InvalidDecodingLimitsError);
    expect(attempt).toThrow(problem);
    expect(() => decodingLimits(limits)).toThrow(expect.objectContaining({ code: 'TW_INVALID_DECODING_LIMITS' }));
  });

  it('refuses a bad value given as an option of its own too', () => {
    expect(() => compileJsonSchema({ type: 'string' }, byteVocabulary(), { maxDepth: 0 })).toThrow(InvalidDecodingLimitsError);
  });

  it('keeps every default when nothing is overridden, and only the overridden rows otherwise', () => {
    expect(decodingLimits()).toEqual(DEFAULT_DECODING_LIMITS);
    expect(decodingLimits({ maxAlternatives: 512, maxDepth: undefined })).toEqual({ ...DEFAULT_DECODING_LIMITS, maxAlternatives: 512 });
  });
});
