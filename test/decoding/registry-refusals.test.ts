/**
 * The mask refuses every schema the registry refuses: the registry checks the whole schema against its meta-schema
 * (unreferenced `$defs` and annotations included) before compiling, and a tool whose schema fails has no valid value.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError } from '../../src/decoding/index.js';
import { metaSchemaProblem } from '../../src/decoding/meta-schema-check.js';
import { SchemaCompileError } from '../../src/shared/errors.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { createRandom } from './generation.js';
import { byteVocabulary } from './byte-vocabulary.js';

const vocabulary = byteVocabulary();

/** Keyword values the 2020-12 meta-schema rejects, each where the lowering never reads it, or reads it without checking. */
const MALFORMED: readonly unknown[] = [
  { $anchor: '#foo' },
  { $anchor: 'a/b', type: 'string' },
  { $schema: 'https://example.com/custom-meta-schema' },
  { $anchor: '1foo' },
  { $anchor: 'a b' },
  { $anchor: 7 },
  { type: 'object', properties: { a: { $anchor: 'bad anchor' } } },
  { $defs: { unused: { $anchor: 'bad/anchor' } } },
  { $dynamicAnchor: '#x' },
  { $id: 7 },
  { $id: 'https://example.com/a#fragment' },
  { $schema: 7 },
  { $comment: 3 },
  { title: 3 },
  { description: 3 },
  { examples: 3 },
  { readOnly: 'x' },
  { deprecated: 'x' },
  { $vocabulary: 3 },
  { $defs: 3 },
  { $defs: { unused: 3 } },
  { $defs: { unused: { minLength: -1 } } },
  { $defs: { unused: { type: 'foo' } } },
  { definitions: { unused: 3 } },
  { required: ['a', 'a'] },
  { type: 'string', required: [1] },
  { type: ['string', 'string'] },
  { type: 'string', multipleOf: 0 },
  { type: 'string', contentMediaType: 3 },
  { type: 'string', contentEncoding: 3 },
  { type: 'string', dependentRequired: { a: ['b', 'b'] } },
  { type: 'array', items: [{}] },
  { type: 'string', patternProperties: { a: 3 } },
  { type: 'string', properties: { a: 3 } },
  { type: 'string', exclusiveMinimum: true },
  { type: 'string', minimum: '3' },
  { type: 'string', uniqueItems: 1 },
  { type: 'number', maxItems: -2 },
  { type: 'string', minProperties: -1 },
  { type: 'string', maxProperties: 'x' },
  { then: 3 },
  // Ajv's identifier scan: one $id or anchor naming two subschemas (equal or not), or a nested $id naming the root
  { type: 'object', properties: { a: { $anchor: 'x', type: 'string' }, b: { $anchor: 'x', type: 'integer' } } },
  { type: 'object', properties: { a: { $anchor: 'x', type: 'string' }, b: { $anchor: 'x', type: 'string' } } },
  { type: 'string', $defs: { a: { $dynamicAnchor: 'x' }, b: { items: { $anchor: 'x' } } } },
  { type: 'string', $defs: { a: { $id: 'https://example.com/a', type: 'string' }, b: { $id: 'https://example.com/a', type: 'integer' } } },
  { type: 'string', $defs: { a: { $id: 'https://example.com/a' } }, 'x-extension': { $id: 'https://example.com/a' } },
  { $id: 'https://example.com/root', type: 'string', $defs: { a: { $id: 'https://example.com/root' } } },
  { $id: 'https://example.com/dir/root', type: 'string', $defs: { a: { $id: 'b' }, c: { $id: 'https://example.com/dir/b' } } },
  // already refused before: kept so the walk covers what the lowering checks itself
  { type: 'string', minLength: -1 },
  { enum: [] },
  { allOf: [] },
  { not: 3 },
];

/** Well-formed neighbours of the schemas above: the registry compiles them, and so must the mask. */
const WELL_FORMED: readonly unknown[] = [
  { $anchor: 'ok-1.2_x', type: 'string' },
  { $dynamicAnchor: 'node', type: 'string' },
  { $id: 'https://example.com/a#', type: 'string' },
  { $comment: 'why', title: 'Title', description: 'text', examples: [1], readOnly: true, deprecated: false, type: 'integer' },
  { $defs: { unused: { minLength: 1 } }, type: 'boolean' },
  { type: 'object', required: ['a', 'b'] },
  { type: ['string', 'null'] },
  { $schema: 'https://json-schema.org/draft/2020-12/schema#', additionalItems: 3, type: 'string' },
  { type: 'object', dependencies: { a: ['b'], c: { required: ['d'] } } },
  // an anchor name is per resource; the root's own anchor is not in Ajv's scan; prefixItems is not entered either
  { type: 'string', $defs: { a: { $id: 'https://example.com/a', $anchor: 'x' }, b: { $id: 'https://example.com/b', $anchor: 'x' } } },
  { $anchor: 'x', type: 'string', $defs: { a: { $anchor: 'x' } } },
  { type: 'array', prefixItems: [{ $anchor: 'x' }, { $anchor: 'x' }] },
  { type: 'object', enum: [{ $anchor: 'x' }, { $anchor: 'x' }], $defs: { a: { $anchor: 'x' } } },
  // the registry's meta-schema check asserts no format
  { $defs: { unused: { $id: 'not a uri', pattern: '(' } }, type: 'string' },
  { type: 'string', multipleOf: 2, minimum: 3, uniqueItems: true, maxItems: 2, minProperties: 1 },
];

function outcome(compile: () => unknown): string {
  try {
    compile();
    return 'compiles';
  } catch (error) {
    return error instanceof SchemaCompileError ? 'SchemaCompileError' : (error as Error).constructor.name;
  }
}

describe('the mask refuses what the registry refuses', () => {
  it('gives SchemaCompileError for every malformed schema the registry refuses, with the registry’s reason', () => {
    const rows = MALFORMED.map((schema) => ({
      schema: JSON.stringify(schema),
      registry: outcome(() => compileSchema(schema as never)),
      mask: outcome(() => compileJsonSchema(schema, vocabulary)),
    }));
    expect(rows.filter((row) => row.registry !== 'SchemaCompileError')).toEqual([]);
    expect(rows.filter((row) => row.mask !== 'SchemaCompileError')).toEqual([]);
    expect(() => compileJsonSchema({ type: 'object', properties: { a: { $anchor: 'bad anchor' } } }, vocabulary)).toThrow(
      /schema\/properties\/a\/\$anchor must match pattern/,
    );
  });

  it('compiles the well-formed neighbours, as the registry does', () => {
    const rows = WELL_FORMED.map((schema) => ({
      schema: JSON.stringify(schema),
      registry: outcome(() => compileSchema(schema as never)),
      mask: outcome(() => compileJsonSchema(schema, vocabulary)),
    }));
    expect(rows.filter((row) => row.registry !== 'compiles' || row.mask !== 'compiles')).toEqual([]);
  });

  it('reads an older draft as the registry does: its upgraded form is what is checked', () => {
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'number', exclusiveMinimum: 3, definitions: { unused: { $id: '#plain' } } };
    expect(outcome(() => compileJsonSchema(draft7, vocabulary))).toBe('compiles');
  });

  it('agrees with the registry’s meta-schema check and identifier scan on 1,500 mutated schemas (a keyword set to a random value at a random subschema)', () => {
    const random = createRandom(32);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const keywords = [
      ...['$id', '$schema', '$ref', '$anchor', '$dynamicRef', '$dynamicAnchor', '$vocabulary', '$comment', '$defs', 'definitions', 'dependencies'],
      ...['prefixItems', 'items', 'contains', 'additionalProperties', 'properties', 'patternProperties', 'dependentSchemas', 'propertyNames'],
      ...['if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not', 'unevaluatedItems', 'unevaluatedProperties', 'type', 'enum', 'const'],
      ...['multipleOf', 'maximum', 'exclusiveMinimum', 'minLength', 'maxItems', 'minContains', 'minProperties', 'pattern', 'uniqueItems'],
      ...['required', 'dependentRequired', 'title', 'description', 'default', 'deprecated', 'readOnly', 'examples', 'format'],
      ...['contentEncoding', 'contentMediaType', 'contentSchema', 'additionalItems', '$recursiveAnchor', 'x-unknown'],
    ];
    const values: readonly unknown[] = [
      ...[-1, 0, 1.5, 2, 1.0, 'x', '#a', 'a b', '_ok', 'https://example.com/y#f', 'https://example.com/y#', 'a#', '#/$defs/a', 'https://example.com/%zz'],
      ...[true, false, null, [], ['a'], ['a', 'a'], [1], {}, { a: 1 }, { a: [] }, { a: {} }, { a: ['b', 'b'] }, [{}], [true, 3]],
      ...[['string', 'string'], ['string'], 'string', 'foo', '^a', 'a\\Z', '(', '[a-', { '(': {} }, { 'https://example.com/v': true }, { bad: 'x' }],
    ];
    const bases: readonly Record<string, unknown>[] = [
      { type: 'object', properties: { a: { type: 'string' }, b: { type: 'array', items: { type: 'integer' } } }, required: ['a'] },
      { $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } }, anyOf: [{ $ref: '#/$defs/node' }, { type: 'null' }] },
      { type: 'array', prefixItems: [{ const: 1 }], contains: { type: 'string' }, not: { enum: [[]] } },
      { if: { properties: { kind: { const: 'a' } } }, then: { required: ['x'] }, else: { patternProperties: { '^y': { type: 'number' } } } },
    ];
    const subschemasOf = (root: unknown): Record<string, unknown>[] => {
      const found: Record<string, unknown>[] = [];
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(visit);
        if (typeof node !== 'object' || node === null) return;
        found.push(node as Record<string, unknown>);
        for (const [key, child] of Object.entries(node)) if (key !== 'const' && key !== 'enum') visit(child);
      };
      visit(root);
      return found;
    };
    const registryVerdict = (schema: unknown): 'refused' | 'passes' => {
      try {
        compileSchema(schema as never);
        return 'passes';
      } catch (error) {
        const message = (error as Error).message;
        return /schema is invalid|\$schema must be a string|no schema with key or ref|resolves to more than one schema|already exists/.test(message)
          ? 'refused'
          : 'passes';
      }
    };
    const disagreements: string[] = [];
    let refused = 0;
    for (let round = 0; round < 1500; round++) {
      const schema = structuredClone(pick(bases));
      for (let change = 1 + Math.floor(random() * 2); change > 0; change--) pick(subschemasOf(schema))[pick(keywords)] = structuredClone(pick(values));
      const registry = registryVerdict(schema);
      const mask = metaSchemaProblem(schema) === undefined ? 'passes' : 'refused';
      if (registry === 'refused') refused++;
      if (registry !== mask) disagreements.push(`${JSON.stringify(schema)}: registry ${registry}, mask ${mask}`);
    }
    expect(disagreements).toEqual([]);
    // both verdicts occur often, so the comparison says something
    expect(refused).toBeGreaterThan(150);
    expect(refused).toBeLessThan(1500 - 150);
  });

  it('a $ref to a meta-schema the registry holds is refused as unsupported (lenient relaxes it), one it does not hold as invalid', () => {
    const held = [
      'https://json-schema.org/draft/2020-12/schema',
      'https://json-schema.org/draft/2020-12/schema#',
      'https://json-schema.org/draft/2020-12/meta/validation#/$defs/nonNegativeInteger',
      'http://json-schema.org/schema',
    ];
    for (const reference of held) {
      const schema = { type: 'object', properties: { s: { $ref: reference } } };
      // the registry compiles it: the message must not say it refuses it
      expect(() => compileSchema(schema)).not.toThrow();
      expect(() => compileJsonSchema(schema, vocabulary)).toThrow(UnsupportedSchemaError);
      expect(() => compileJsonSchema(schema, vocabulary)).toThrow(/names a JSON Schema meta-schema, which the registry holds/);
      expect(compileJsonSchema(schema, vocabulary, { lenient: true }).relaxed).toEqual([
        expect.objectContaining({ keyword: '$ref', pointer: '#/properties/s' }),
      ]);
    }
    for (const reference of ['https://json-schema.org/draft/2019-09/schema', 'https://json-schema.org/draft/2020-12/meta/other']) {
      const schema = { type: 'object', properties: { s: { $ref: reference } } };
      expect(() => compileSchema(schema)).toThrow(SchemaCompileError);
      expect(() => compileJsonSchema(schema, vocabulary)).toThrow(/names no schema in the document \(the registry's validator refuses it too\)/);
    }
  });
});
