import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { boundaryInstances } from './boundary-instances.js';

const labelled = (schema: Record<string, unknown>): { valid: unknown[]; invalid: unknown[] } => {
  const validator = compileSchema(schema as never);
  const instances = boundaryInstances(schema, { maxInstances: 500 });
  return { valid: instances.filter((value) => validator.validate(value).success), invalid: instances.filter((value) => !validator.validate(value).success) };
};

describe('boundaryInstances', () => {
  it('puts numbers on both sides of each bound, by 1 and by 1 ulp', () => {
    const instances = boundaryInstances({ type: 'number', minimum: 3, exclusiveMaximum: 7.5 });
    for (const value of [3, 2, 3 - 2 ** -51, 3 + 2 ** -51, 7.5, 7.5 - 2 ** -50, 8.5]) expect(instances).toContain(value);
  });

  it('puts strings at their length bounds ± 1, in code points, matching the pattern where it can', () => {
    const instances = boundaryInstances({ type: 'string', pattern: '^[a-c]+$', minLength: 2, maxLength: 4 });
    const lengths = new Set(instances.filter((value): value is string => typeof value === 'string' && /^[a-c]+$/.test(value)).map((value) => value.length));
    expect([...lengths].sort()).toEqual(expect.arrayContaining([1, 2, 4, 5]));
    expect(instances).toContain('😀'.repeat(5));
    // near misses of the pattern that its DFA rejects
    expect(instances.some((value) => typeof value === 'string' && value.length >= 2 && !/^[a-c]+$/.test(value))).toBe(true);
  });

  it('drops each required property, adds unknown keys, and counts properties around min/maxProperties', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' } }, required: ['a', 'b'], maxProperties: 2 };
    const instances = boundaryInstances(schema);
    expect(instances).toContainEqual({ b: 'a' });
    expect(instances).toContainEqual({ a: 0 });
    expect(instances).toContainEqual({ a: 0, b: 'a', extra_key: 1 });
    expect(instances.some((value) => typeof value === 'object' && value !== null && Object.keys(value).length === 3)).toBe(true);
  });

  it('builds arrays with contains counts around minContains/maxContains and with duplicates', () => {
    const instances = boundaryInstances({ type: 'array', contains: { const: 'x' }, minContains: 2, maxContains: 3, uniqueItems: true });
    const counts = new Set(instances.filter(Array.isArray).map((items) => items.filter((item) => item === 'x').length));
    for (const count of [1, 2, 3, 4]) expect(counts).toContain(count);
  });

  it('finds valid and invalid instances for if/then/else, overlapping oneOf, dependencies, propertyNames and multipleOf', () => {
    const schemas = [
      { type: 'object', properties: { k: { enum: ['a', 'b'] } }, required: ['k'], if: { properties: { k: { const: 'a' } } }, then: { required: ['x'] } },
      {
        oneOf: [
          { type: 'integer', maximum: 10 },
          { type: 'integer', minimum: 5 },
        ],
      },
      { type: 'object', dependentRequired: { a: ['b'] } },
      { type: 'object', propertyNames: { maxLength: 2 } },
      { type: 'number', multipleOf: 0.25, maximum: 2 },
    ];
    for (const schema of schemas) {
      const { valid, invalid } = labelled(schema);
      expect({ schema, valid: valid.length > 0, invalid: invalid.length > 0 }).toEqual({ schema, valid: true, invalid: true });
    }
  });

  it('is deterministic for a seed and samples differently for another', () => {
    const schema = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`p${index}`, { type: 'integer', minimum: index }])),
    };
    expect(boundaryInstances(schema, { seed: 7, maxInstances: 30 })).toEqual(boundaryInstances(schema, { seed: 7, maxInstances: 30 }));
    expect(boundaryInstances(schema, { seed: 7, maxInstances: 30 })).not.toEqual(boundaryInstances(schema, { seed: 8, maxInstances: 30 }));
    expect(boundaryInstances(schema, { seed: 7, maxInstances: 30 })).toHaveLength(30);
  });

  it('never throws, whatever the schema: unresolvable refs, wrong keyword types, deep recursion', () => {
    const odd: unknown[] = [
      { $ref: '#/nowhere' },
      { type: 5, minimum: 'x', properties: [] },
      { $defs: { a: { type: 'object', properties: { a: { $ref: '#/$defs/a' }, b: { $ref: '#/$defs/a' } }, required: ['a', 'b'] } }, $ref: '#/$defs/a' },
      false,
      null,
      { pattern: '(?<=x)' },
    ];
    for (const schema of odd) expect(() => boundaryInstances(schema)).not.toThrow();
  });
});
