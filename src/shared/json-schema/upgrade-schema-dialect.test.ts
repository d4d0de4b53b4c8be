import { describe, expect, it } from 'vitest';
import { SchemaCompileError, ToolwrightError } from '../errors.js';
import { JSON_SCHEMA_2020_12, MAX_UPGRADE_DEPTH, schemaDialectOf, upgradeSchemaDialect } from './upgrade-schema-dialect.js';

const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';
const DRAFT_06 = 'http://json-schema.org/draft-06/schema#';
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_2019 = 'https://json-schema.org/draft/2019-09/schema';

const upgraded = (schema: unknown): unknown => upgradeSchemaDialect(schema).schema;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function thrown(run: () => unknown): ToolwrightError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolwrightError) return error;
    throw error;
  }
  throw new Error('expected a ToolwrightError');
}

describe('schemaDialectOf', () => {
  it('names the dialect of a root $schema, with or without the trailing "#", over http or https', () => {
    expect(schemaDialectOf({ $schema: DRAFT_04 })).toBe('draft-04');
    expect(schemaDialectOf({ $schema: 'https://json-schema.org/draft-07/schema' })).toBe('draft-07');
    expect(schemaDialectOf({ $schema: 'https://json-schema.org/draft/2020-12/schema' })).toBe('2020-12');
    expect(schemaDialectOf({ $schema: 'http://example.com/my-meta' })).toBeUndefined();
    expect(schemaDialectOf({ type: 'string' })).toBeUndefined();
    expect(schemaDialectOf(true)).toBeUndefined();
  });
});

describe('upgradeSchemaDialect', () => {
  it('turns draft-04 boolean exclusive bounds into the numeric form, in every subschema', () => {
    expect(
      upgraded({
        $schema: DRAFT_04,
        properties: {
          open: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true },
          closed: { type: 'number', minimum: 0, exclusiveMinimum: false, maximum: 10 },
          flagOnly: { exclusiveMaximum: true },
        },
        items: { anyOf: [{ maximum: 3, exclusiveMaximum: true }] },
      }),
    ).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      properties: {
        open: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 },
        closed: { type: 'number', minimum: 0, maximum: 10 },
        flagOnly: {},
      },
      items: { anyOf: [{ exclusiveMaximum: 3 }] },
    });
  });

  it('keeps keywords a later draft added with their later meaning (const, contains, if in a draft-04 schema)', () => {
    expect(upgraded({ $schema: DRAFT_04, const: 1, contains: { minimum: 1, exclusiveMinimum: true }, if: { type: 'array' } })).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      const: 1,
      contains: { exclusiveMinimum: 1 },
      if: { type: 'array' },
    });
  });

  it('leaves numeric exclusive bounds (draft-06 and later) as they are', () => {
    expect(upgraded({ $schema: DRAFT_06, type: 'number', exclusiveMinimum: 1, maximum: 2 })).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      type: 'number',
      exclusiveMinimum: 1,
      maximum: 2,
    });
  });

  it('turns draft-04 "id" into "$id", a plain-name fragment into "$anchor", and leaves a property named "id" alone', () => {
    expect(
      upgraded({
        $schema: DRAFT_04,
        id: 'http://example.com/root.json#',
        definitions: { item: { id: '#item', type: 'string' }, other: { id: 'http://example.com/other.json#part', type: 'integer' } },
        properties: { id: { type: 'string' }, list: { items: { $ref: '#item' } } },
      }),
    ).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      $id: 'http://example.com/root.json',
      definitions: { item: { $anchor: 'item', type: 'string' }, other: { $id: 'http://example.com/other.json', $anchor: 'part', type: 'integer' } },
      properties: { id: { type: 'string' }, list: { items: { $ref: '#item' } } },
    });
  });

  it('splits a draft-07 "$id" fragment into "$anchor", which 2020-12 requires, and drops "id", an annotation there', () => {
    const result = upgradeSchemaDialect({
      $schema: DRAFT_07,
      $defs: { a: { $id: '#name', type: 'string' } },
      properties: { x: { id: 'legacy', type: 'string' } },
    });
    expect(result.schema).toEqual({ $schema: JSON_SCHEMA_2020_12, $defs: { a: { $anchor: 'name', type: 'string' } }, properties: { x: { type: 'string' } } });
    expect(result.ignored).toEqual(['/properties/x/id']);
  });

  it('turns array "items" and "additionalItems" into "prefixItems" and "items", and drops "additionalItems" where it applies to nothing', () => {
    expect(
      upgraded({
        $schema: DRAFT_07,
        properties: {
          pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false },
          open: { type: 'array', items: [{ items: [{ const: 1 }] }] },
          list: { type: 'array', items: { type: 'string' }, additionalItems: false },
        },
      }),
    ).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
        open: { type: 'array', prefixItems: [{ prefixItems: [{ const: 1 }] }] },
        list: { type: 'array', items: { type: 'string' } },
      },
    });
    expect(upgraded({ $schema: DRAFT_2019, items: [true], additionalItems: { type: 'null' } })).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      prefixItems: [true],
      items: { type: 'null' },
    });
  });

  it('moves a "$ref" pointer of the root resource along with what it names: items/N, additionalItems, dependencies/name', () => {
    const tuple = { type: 'array', items: [{ type: 'integer' }, { $ref: '#/definitions/t/items/0' }], additionalItems: { type: 'string' } };
    const schema = {
      $schema: DRAFT_07,
      type: 'object',
      properties: {
        t: { $ref: '#/definitions/t' },
        rest: { $ref: '#/definitions/t/additionalItems' },
        d: { $ref: '#/dependencies/a' },
        list: { $ref: '#/dependencies/b' },
        escaped: { $ref: '#/definitions/t/%69tems/0' },
        missing: { $ref: '#/definitions/t/items/7' },
      },
      definitions: { t: tuple },
      dependencies: { a: { required: ['c'] }, b: ['c'] },
    };
    const upgraded = upgradeSchemaDialect(schema).schema as {
      properties: Record<string, { $ref: string }>;
      definitions: { t: { prefixItems: { $ref?: string }[] } };
    };
    expect(Object.fromEntries(Object.entries(upgraded.properties).map(([name, property]) => [name, property.$ref]))).toEqual({
      t: '#/definitions/t',
      rest: '#/definitions/t/items',
      d: '#/dependentSchemas/a',
      // a name that does not move, one spelled with escapes, and one that names nothing are left as they were
      list: '#/dependencies/b',
      escaped: '#/definitions/t/%69tems/0',
      missing: '#/definitions/t/items/7',
    });
    // inside the tuple, a reference to the root resource follows the move too
    expect(upgraded.definitions.t.prefixItems[1]!.$ref).toBe('#/definitions/t/prefixItems/0');
    // 2019-09 keeps "dependencies" (it has no rewrite there) but moves items/N
    const later = upgradeSchemaDialect({ $schema: DRAFT_2019, type: 'array', items: [{ type: 'integer' }, { $ref: '#/items/0' }] }).schema as {
      prefixItems: { $ref?: string }[];
    };
    expect(later.prefixItems[1]!.$ref).toBe('#/prefixItems/0');
  });

  it('upgrades what a "$ref" reaches under an unknown keyword as a schema of the dialect, and leaves other unknown keywords as they are', () => {
    const untouched = { items: [{ type: 'string' }] };
    const schema = {
      $schema: DRAFT_04,
      type: 'object',
      properties: { point: { $ref: '#/x-defs/point' } },
      'x-defs': { point: { type: 'array', items: [{ type: 'number', minimum: 0, exclusiveMinimum: true }], additionalItems: false } },
      'x-notes': untouched,
    };
    const upgraded = upgradeSchemaDialect(schema).schema as Record<string, unknown>;
    expect(upgraded['x-defs']).toEqual({ point: { type: 'array', prefixItems: [{ type: 'number', exclusiveMinimum: 0 }], items: false } });
    expect(upgraded['x-notes']).toBe(untouched);
  });

  it('splits "dependencies" into "dependentRequired" and "dependentSchemas", upgrading the schemas', () => {
    expect(
      upgraded({
        $schema: DRAFT_04,
        dependencies: { card: ['billing'], gift: { properties: { note: { maximum: 5, exclusiveMaximum: true } } }, never: false },
      }),
    ).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      dependentRequired: { card: ['billing'] },
      dependentSchemas: { gift: { properties: { note: { exclusiveMaximum: 5 } } }, never: false },
    });
  });

  it('removes keywords beside a draft-07 "$ref" that could reject a value, keeps the ones that identify or describe, and lists what it removed', () => {
    const result = upgradeSchemaDialect({
      $schema: DRAFT_07,
      $ref: '#/definitions/name',
      definitions: { name: { type: 'string' } },
      properties: { n: { $ref: '#/definitions/name', type: 'number', minLength: 3, description: 'A name.' } },
    });
    expect(result.schema).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      $ref: '#/definitions/name',
      definitions: { name: { type: 'string' } },
    });
    expect(result.ignored).toEqual(['/properties']);
    expect(upgradeSchemaDialect({ $schema: DRAFT_07, properties: { n: { $ref: '#/x', type: 'number', description: 'd' } } }).ignored).toEqual([
      '/properties/n/type',
    ]);
  });

  it('keeps keywords beside "$ref" in 2019-09, where they apply', () => {
    expect(upgraded({ $schema: DRAFT_2019, $defs: { a: { type: 'string' } }, properties: { n: { $ref: '#/$defs/a', minLength: 3 } } })).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      $defs: { a: { type: 'string' } },
      properties: { n: { $ref: '#/$defs/a', minLength: 3 } },
    });
  });

  it('turns a 2019-09 "$recursiveRef" in the root resource into "$ref": "#", and refuses one whose target is only known at run time', () => {
    expect(
      upgraded({ $schema: DRAFT_2019, $recursiveAnchor: true, type: 'object', properties: { children: { type: 'array', items: { $recursiveRef: '#' } } } }),
    ).toEqual({ $schema: JSON_SCHEMA_2020_12, type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } });
    expect(upgraded({ $schema: DRAFT_2019, $defs: { a: { type: 'object' } }, properties: { c: { $ref: '#/$defs/a', $recursiveRef: '#' } } })).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      $defs: { a: { type: 'object' } },
      properties: { c: { $ref: '#/$defs/a', allOf: [{ $ref: '#' }] } },
    });
    const dynamic = thrown(() =>
      upgradeSchemaDialect({
        $schema: DRAFT_2019,
        $defs: { tree: { $id: 'http://x/tree', $recursiveAnchor: true, properties: { c: { $recursiveRef: '#' } } } },
      }),
    );
    expect(dynamic).toBeInstanceOf(SchemaCompileError);
    expect(dynamic.message).toContain('/$defs/tree/properties/c/$recursiveRef');
    expect(dynamic.message).toContain('$dynamicRef');
    expect(() => upgradeSchemaDialect({ $schema: DRAFT_2019, $recursiveRef: '#/x' })).toThrow('"$recursiveRef" must be "#"');
  });

  it('reads an untagged schema as 2020-12 and returns it as it is, unless told its dialect; a root $schema wins over the option', () => {
    const untagged = { type: 'object', properties: { n: { items: [{ type: 'string' }] } } };
    expect(upgradeSchemaDialect(untagged).schema).toBe(untagged);
    expect(upgradeSchemaDialect(untagged, { dialect: 'draft-07' }).schema).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      type: 'object',
      properties: { n: { prefixItems: [{ type: 'string' }] } },
    });
    const tagged = { $schema: 'https://json-schema.org/draft/2020-12/schema', items: [{ type: 'string' }] };
    expect(upgradeSchemaDialect(tagged, { dialect: 'draft-04' }).schema).toBe(tagged);
  });

  it('is idempotent: its output is read as 2020-12 and returned unchanged', () => {
    const once = upgraded({ $schema: DRAFT_04, id: 'http://x/a', items: [{ minimum: 1, exclusiveMinimum: true }] });
    expect(upgradeSchemaDialect(once, { dialect: 'draft-04' }).schema).toBe(once);
  });

  it('follows a nested "$schema" naming another dialect for its subtree', () => {
    expect(
      upgraded({
        $schema: DRAFT_07,
        properties: { old: { $schema: DRAFT_04, minimum: 1, exclusiveMinimum: true }, now: { $schema: JSON_SCHEMA_2020_12, items: [1] } },
      }),
    ).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      properties: { old: { exclusiveMinimum: 1 }, now: { $schema: JSON_SCHEMA_2020_12, items: [1] } },
    });
  });

  it('never changes its input', () => {
    const input = deepFreeze({
      $schema: DRAFT_04,
      id: 'http://x/a#',
      properties: { n: { minimum: 1, exclusiveMinimum: true }, t: { items: [{}], additionalItems: false } },
      dependencies: { n: ['t'], t: ['n'], s: { required: ['n'] } },
      dependentRequired: { t: ['x'] },
      dependentSchemas: { s: { required: ['t'] } },
    });
    const before = JSON.stringify(input);
    upgradeSchemaDialect(input);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('says, for a draft-04 "id" in a schema read as 2020-12, to tag the schema as draft-04 or rename the keyword', () => {
    const error = thrown(() => upgradeSchemaDialect({ id: 'http://example.com/a.json', type: 'object' }, { toolName: 'lookup', pointer: '/inputSchema' }));
    expect(error.code).toBe('TW_INVALID_SCHEMA');
    expect(error.message).toContain('Tool "lookup" schema');
    expect(error.message).toContain('"$schema": "http://json-schema.org/draft-04/schema#"');
    expect(error.message).toContain('rename "id" to "$id"');
    expect(error.message).toContain('(at /inputSchema)');
    // a property named "id" is not the keyword
    expect(() => upgradeSchemaDialect({ type: 'object', properties: { id: { type: 'string' } } })).not.toThrow();
    // a nested one is left to Ajv and the mask, which refuse it only where they compile it
    expect(() => upgradeSchemaDialect({ type: 'object', $defs: { unused: { id: 'legacy' } } })).not.toThrow();
  });

  it('refuses draft-03, naming the drafts it reads', () => {
    expect(thrown(() => upgradeSchemaDialect({ $schema: 'http://json-schema.org/draft-03/schema#', properties: {} })).message).toContain(
      'draft-03 is not supported',
    );
  });

  describe('hostile input', () => {
    it('refuses a "__proto__" keyword with a typed error, in any dialect, instead of letting it set a prototype', () => {
      for (const text of [`{"$schema":"${DRAFT_07}","__proto__":{"type":"number"}}`, '{"properties":{"a":{"__proto__":{"type":"number"}}}}']) {
        const error = thrown(() => upgradeSchemaDialect(JSON.parse(text)));
        expect(error).toBeInstanceOf(SchemaCompileError);
        expect(error.message).toContain('"__proto__" is not a JSON Schema keyword');
      }
    });

    it('keeps "__proto__" as a property or dependency name (valid JSON Schema) as an own property, never as a prototype', () => {
      const result = upgraded(
        JSON.parse(`{"$schema":"${DRAFT_04}","properties":{"__proto__":{"type":"number"}},"dependencies":{"__proto__":["a"]},"dependentRequired":{"b":["c"]}}`),
      ) as Record<string, Record<string, unknown>>;
      for (const map of [result.properties!, result.dependentRequired!]) {
        expect(Object.getPrototypeOf(map)).toBe(Object.prototype);
        expect(Object.keys(map)).toContain('__proto__');
      }
      expect(Object.getOwnPropertyDescriptor(result.properties, '__proto__')?.value).toEqual({ type: 'number' });
      expect(Object.getOwnPropertyDescriptor(result.dependentRequired, '__proto__')?.value).toEqual(['a']);
    });

    it('treats "constructor" and other Object.prototype names as plain names', () => {
      const result = upgraded(
        JSON.parse(
          `{"$schema":"${DRAFT_07}","properties":{"constructor":{"type":"string"},"toString":{"type":"number"}},"dependencies":{"constructor":["toString"],"hasOwnProperty":{"required":["valueOf"]}}}`,
        ),
      ) as Record<string, Record<string, unknown>>;
      expect(result).toEqual({
        $schema: JSON_SCHEMA_2020_12,
        properties: { constructor: { type: 'string' }, toString: { type: 'number' } },
        dependentRequired: { constructor: ['toString'] },
        dependentSchemas: { hasOwnProperty: { required: ['valueOf'] } },
      });
      expect(Object.hasOwn(result.dependentRequired!, 'constructor')).toBe(true);
    });

    it(`refuses nesting deeper than ${MAX_UPGRADE_DEPTH} levels with a typed error in both readings, without exhausting the stack`, () => {
      const nest = (levels: number, top: Record<string, unknown>): Record<string, unknown> => {
        let current = top;
        for (let level = 0; level < levels; level++) current = (current.not = {}) as Record<string, unknown>;
        return top;
      };
      for (const schema of [nest(100_000, { $schema: DRAFT_07 }), nest(100_000, {})]) {
        const error = thrown(() => upgradeSchemaDialect(schema));
        expect(error).toBeInstanceOf(SchemaCompileError);
        expect(error.message).toContain(`deeper than ${MAX_UPGRADE_DEPTH} levels`);
        expect(error.message.length).toBeLessThan(400);
      }
      expect(() => upgradeSchemaDialect(nest(MAX_UPGRADE_DEPTH, { $schema: DRAFT_07 }))).not.toThrow();
    });

    it('refuses a root that is not a schema with a typed error, and passes a boolean schema through', () => {
      for (const value of [null, 5, 'string', [], undefined]) expect(thrown(() => upgradeSchemaDialect(value))).toBeInstanceOf(SchemaCompileError);
      expect(upgradeSchemaDialect(false, { dialect: 'draft-07' }).schema).toBe(false);
    });

    it('leaves a malformed subschema for the validator to report instead of crashing on it', () => {
      expect(upgraded({ $schema: DRAFT_04, properties: { a: 5, b: null }, items: ['x'], dependencies: { a: 'b' }, id: 'http://x/' })).toEqual({
        $schema: JSON_SCHEMA_2020_12,
        $id: 'http://x/',
        properties: { a: 5, b: null },
        prefixItems: ['x'],
        dependentSchemas: { a: 'b' },
      });
      expect(() => upgradeSchemaDialect({ $schema: DRAFT_04, id: 7 })).toThrow('"id" must be a string');
    });
  });
});
