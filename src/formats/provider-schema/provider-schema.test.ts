import { describe, expect, it } from 'vitest';
import { OPENAI_STRICT_LIMITS, restoreOptionalNulls, schemaAcceptsNull, schemaCompatibilityWarnings, toOpenAIStrictSchema } from './index.js';
import type { JsonSchemaObject } from '../../tools/types.js';

const weather: JsonSchemaObject = {
  type: 'object',
  properties: {
    location: { type: 'string', description: 'City and country e.g. Bogotá, Colombia' },
    units: { type: 'string', enum: ['celsius', 'fahrenheit'] },
    days: { type: 'integer', minimum: 1, maximum: 7, default: 1 },
  },
  required: ['location'],
  additionalProperties: false,
};

describe('toOpenAIStrictSchema', () => {
  it('makes optional properties required and nullable, and reports each one', () => {
    const { schema, warnings } = toOpenAIStrictSchema(weather);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City and country e.g. Bogotá, Colombia' },
        units: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null] },
        days: { type: ['integer', 'null'], minimum: 1, maximum: 7 },
      },
      required: ['location', 'units', 'days'],
      additionalProperties: false,
    });
    expect(warnings.map((w) => [w.type, w.feature, w.path])).toEqual([
      ['rewritten', 'optional-property', '/properties/units'],
      ['unsupported', 'default', '/properties/days/default'],
      ['rewritten', 'optional-property', '/properties/days'],
    ]);
    expect(warnings[0]).toEqual({
      type: 'rewritten',
      provider: 'openai-strict',
      feature: 'optional-property',
      path: '/properties/units',
      details:
        'optional property "units" is now required and nullable (strict mode requires every property); the model sends null for "no value", and restoreOptionalNulls removes that null before validation',
    });
  });

  it('does not modify its input', () => {
    const copy = structuredClone(weather);
    toOpenAIStrictSchema(weather);
    expect(weather).toEqual(copy);
  });

  it('leaves an already strict schema unchanged, with no warnings', () => {
    const strict: JsonSchemaObject = {
      type: 'object',
      properties: {
        query: { type: 'string', pattern: '^[a-z]+$' },
        when: { type: ['string', 'null'], format: 'date-time' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 3 },
        score: { type: 'number', minimum: 0, exclusiveMaximum: 1, multipleOf: 0.5 },
      },
      required: ['query', 'when', 'tags', 'score'],
      additionalProperties: false,
    };
    expect(toOpenAIStrictSchema(strict)).toEqual({ schema: strict, warnings: [] });
  });

  it('keeps an optional property that already accepts null as it is, and says so', () => {
    const { schema, warnings } = toOpenAIStrictSchema({ type: 'object', properties: { note: { type: ['string', 'null'] } }, additionalProperties: false });
    expect(schema.properties).toEqual({ note: { type: ['string', 'null'] } });
    expect(schema.required).toEqual(['note']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.details).toBe(
      'optional property "note" is now required (strict mode requires every property); it already accepts null, so the model sends null when it has no value, and that null is kept',
    );
  });

  it('wraps optional properties without a simple type in anyOf with null, keeping the description outside', () => {
    const { schema } = toOpenAIStrictSchema({
      type: 'object',
      properties: {
        ref: { $ref: '#/$defs/Address', description: 'Where to ship' },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        fixed: { const: 'x' },
      },
      additionalProperties: false,
      $defs: { Address: { type: 'object', properties: { street: { type: 'string' } }, required: ['street'], additionalProperties: false } },
    });
    expect(schema.properties).toEqual({
      ref: { description: 'Where to ship', anyOf: [{ $ref: '#/$defs/Address' }, { type: 'null' }] },
      either: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
      fixed: { anyOf: [{ const: 'x' }, { type: 'null' }] },
    });
    expect(schema.$defs).toEqual({
      Address: { type: 'object', properties: { street: { type: 'string' } }, required: ['street'], additionalProperties: false },
    });
  });

  it('closes objects and reports the added additionalProperties: false', () => {
    const { schema, warnings } = toOpenAIStrictSchema({
      type: 'object',
      properties: { address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      required: ['address'],
    });
    expect(schema).toEqual({
      type: 'object',
      properties: { address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } },
      required: ['address'],
      additionalProperties: false,
    });
    expect(warnings.map((w) => [w.type, w.feature, w.path])).toEqual([
      ['rewritten', 'additionalProperties', '/properties/address/additionalProperties'],
      ['rewritten', 'additionalProperties', '/additionalProperties'],
    ]);
  });

  it('warns that open objects cannot be strict', () => {
    const { schema, warnings } = toOpenAIStrictSchema({
      type: 'object',
      properties: {
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        meta: { type: 'object' },
        byPattern: {
          type: 'object',
          properties: { id: { type: 'string' } },
          required: ['id'],
          patternProperties: { '^x-': { type: 'string' } },
          additionalProperties: false,
        },
      },
      required: ['labels', 'meta', 'byPattern'],
      additionalProperties: true,
    });
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties).toEqual({
      labels: { type: 'object', properties: {}, required: [], additionalProperties: false },
      meta: { type: 'object', properties: {}, required: [], additionalProperties: false },
      byPattern: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false },
    });
    expect(warnings.map((w) => [w.type, w.feature, w.path])).toEqual([
      ['unsupported', 'additionalProperties', '/properties/labels/additionalProperties'],
      ['unsupported', 'open-object', '/properties/meta'],
      ['unsupported', 'patternProperties', '/properties/byPattern/patternProperties'],
      ['unsupported', 'additionalProperties', '/additionalProperties'],
    ]);
    expect(warnings[0]?.details).toBe(
      'an `additionalProperties` schema makes an open object, which strict mode cannot express; set to false, so only the declared properties (none) can be sent',
    );
    expect(warnings[3]?.details).toBe(
      '`additionalProperties: true` makes an open object, which strict mode cannot express; set to false, so only the declared properties (labels, meta, byPattern) can be sent',
    );
  });

  it('treats an explicitly empty properties object as a tool without arguments', () => {
    const { schema, warnings } = toOpenAIStrictSchema({ type: 'object', properties: {} });
    expect(schema).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });
    expect(warnings.map((w) => w.feature)).toEqual(['additionalProperties']);
  });

  it('removes unsupported keywords with one warning each, and keeps supported ones', () => {
    const { schema, warnings } = toOpenAIStrictSchema({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 20, pattern: '^\\w+$' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        ids: { type: 'array', items: { type: 'integer' }, uniqueItems: true, contains: { const: 1 } },
        n: { type: 'number', not: { const: 3 } },
      },
      required: ['name', 'site', 'day', 'ids', 'n'],
      additionalProperties: false,
      minProperties: 1,
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', pattern: '^\\w+$' },
        site: { type: 'string' },
        day: { type: 'string', format: 'date' },
        ids: { type: 'array', items: { type: 'integer' } },
        n: { type: 'number' },
      },
      required: ['name', 'site', 'day', 'ids', 'n'],
      additionalProperties: false,
    });
    expect(warnings.map((w) => `${w.type} ${w.feature} ${w.path}`)).toEqual([
      'unsupported minProperties /minProperties',
      'unsupported minLength /properties/name/minLength',
      'unsupported maxLength /properties/name/maxLength',
      'unsupported format /properties/site/format',
      'unsupported uniqueItems /properties/ids/uniqueItems',
      'unsupported contains /properties/ids/contains',
      'unsupported not /properties/n/not',
    ]);
    expect(warnings[1]?.details).toBe(
      'removed: strict mode supports only `pattern` and `format` on strings; decoding no longer enforces it; the registry still checks the original schema and tells the model when a value breaks it',
    );
    expect(warnings[3]?.details).toBe(
      'removed `format: "uri"`: strict mode supports only date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid; decoding no longer enforces it; the registry still checks the original schema and tells the model when a value breaks it',
    );
  });

  it('rewrites oneOf to anyOf and says what is lost', () => {
    const { schema, warnings } = toOpenAIStrictSchema({
      type: 'object',
      properties: { target: { oneOf: [{ type: 'string' }, { type: 'integer' }] } },
      required: ['target'],
      additionalProperties: false,
    });
    expect(schema.properties).toEqual({ target: { anyOf: [{ type: 'string' }, { type: 'integer' }] } });
    expect(warnings).toEqual([
      {
        type: 'rewritten',
        provider: 'openai-strict',
        feature: 'oneOf',
        path: '/properties/target/oneOf',
        details: '`oneOf` became `anyOf`: strict mode supports only `anyOf`, so a value matching several branches is no longer refused while decoding',
      },
    ]);
  });

  it('merges allOf branches that agree, and removes those that conflict', () => {
    const merged = toOpenAIStrictSchema({
      type: 'object',
      properties: {
        both: {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
            { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
          ],
        },
      },
      required: ['both'],
      additionalProperties: false,
    });
    expect(merged.schema.properties).toEqual({
      both: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
    });
    expect(merged.warnings.map((w) => `${w.type} ${w.feature} ${w.path}`)).toEqual([
      'rewritten allOf /properties/both/allOf',
      'rewritten additionalProperties /properties/both/additionalProperties',
    ]);

    const conflict = toOpenAIStrictSchema({
      type: 'object',
      properties: { x: { type: 'string', allOf: [{ type: 'number' }] } },
      required: ['x'],
      additionalProperties: false,
    });
    expect(conflict.schema.properties).toEqual({ x: { type: 'string' } });
    expect(conflict.warnings.map((w) => w.details)).toEqual([
      'removed `allOf`: strict mode does not support it, and its branches disagree on `type`, so they cannot be merged; decoding no longer enforces it; the registry still checks the original schema and tells the model when a value breaks it',
    ]);
  });

  it('replaces schemas that accept anything with scalars, and warns', () => {
    const { schema, warnings } = toOpenAIStrictSchema({
      type: 'object',
      properties: { value: { description: 'Anything' }, list: { type: 'array' } },
      required: ['value', 'list'],
      additionalProperties: false,
    });
    const scalars = [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }];
    expect(schema.properties).toEqual({ value: { description: 'Anything', anyOf: scalars }, list: { type: 'array', items: { anyOf: scalars } } });
    expect(warnings.map((w) => `${w.type} ${w.feature} ${w.path}`)).toEqual(['rewritten any /properties/value', 'unsupported items /properties/list/items']);
  });

  it('warns about root problems OpenAI rejects', () => {
    const rootUnion = toOpenAIStrictSchema({ type: 'object', anyOf: [{ properties: { a: { type: 'string' } } }] });
    expect(rootUnion.warnings[0]).toEqual({
      type: 'unsupported',
      provider: 'openai-strict',
      feature: 'root-union',
      path: '/anyOf',
      details: "OpenAI rejects `anyOf` at the root of a function's parameters; make the root one object and move the alternatives into a property",
    });
    const notObject = toOpenAIStrictSchema({ type: 'string' });
    expect(notObject.warnings[0]?.feature).toBe('root-type');
    const untyped = toOpenAIStrictSchema({ properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false });
    expect(untyped.schema).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false });
    expect(untyped.warnings.map((w) => `${w.type} ${w.feature} ${w.path}`)).toEqual(['rewritten type /type']);
  });

  it('drops required names that are not declared, and properties whose schema is false', () => {
    const { schema, warnings } = toOpenAIStrictSchema({
      type: 'object',
      properties: { a: { type: 'string' }, hidden: false },
      required: ['a', 'ghost'],
      additionalProperties: false,
    });
    expect(schema).toEqual({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false });
    expect(warnings.map((w) => `${w.type} ${w.feature} ${w.path}`)).toEqual(['rewritten false-property /properties/hidden', 'unsupported required /required']);
  });

  it('escapes JSON pointer segments in warning paths', () => {
    const { warnings } = toOpenAIStrictSchema({
      type: 'object',
      properties: { 'a/b~c': { type: 'string', minLength: 2 } },
      required: ['a/b~c'],
      additionalProperties: false,
    });
    expect(warnings[0]?.path).toBe('/properties/a~1b~0c/minLength');
  });

  it('keeps a property named __proto__ as a property', () => {
    const properties = JSON.parse('{"__proto__": {"type": "string"}}') as Record<string, unknown>;
    const { schema } = toOpenAIStrictSchema({ type: 'object', properties, required: ['__proto__'], additionalProperties: false });
    expect(Object.keys(schema.properties as object)).toEqual(['__proto__']);
    expect(schema.required).toEqual(['__proto__']);
  });

  it('handles recursive schemas through $ref without looping', () => {
    const tree: JsonSchemaObject = {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name', 'children'],
      additionalProperties: false,
    };
    expect(toOpenAIStrictSchema(tree)).toEqual({ schema: tree, warnings: [] });
  });
});

describe('restoreOptionalNulls', () => {
  it('removes nulls the strict rewrite invited, and keeps nulls the original schema accepts', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: { location: { type: 'string' }, units: { type: 'string' }, note: { type: ['string', 'null'] }, must: { type: ['string', 'null'] } },
      required: ['location', 'must'],
    };
    expect(restoreOptionalNulls(schema, { location: 'Paris', units: null, note: null, must: null })).toEqual({ location: 'Paris', note: null, must: null });
  });

  it('leaves a null on a required property for validation to reject', () => {
    const schema: JsonSchemaObject = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] };
    expect(restoreOptionalNulls(schema, { location: null })).toEqual({ location: null });
  });

  it('recurses into nested objects, arrays, $ref, allOf and anyOf branches', () => {
    const schema: JsonSchemaObject = {
      type: 'object',
      properties: {
        address: { type: 'object', properties: { street: { type: 'string' }, zip: { type: 'string' } }, required: ['street'] },
        items: { type: 'array', items: { $ref: '#/$defs/Item' } },
        merged: { allOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { type: 'string' } }, required: ['b'] }] },
        shape: {
          anyOf: [
            { type: 'object', properties: { radius: { type: 'number' }, label: { type: 'string' } }, required: ['radius'] },
            { type: 'object', properties: { side: { type: 'number' }, color: { type: 'string' } }, required: ['side'] },
          ],
        },
      },
      $defs: { Item: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } }, required: ['sku'] } },
    };
    const args = {
      address: { street: 'Main', zip: null },
      items: [
        { sku: 'a', qty: null },
        { sku: 'b', qty: 2 },
      ],
      merged: { a: null, b: null },
      shape: { side: 2, color: null },
      unknown: null,
    };
    expect(restoreOptionalNulls(schema, args)).toEqual({
      address: { street: 'Main' },
      items: [{ sku: 'a' }, { sku: 'b', qty: 2 }],
      merged: { b: null },
      shape: { side: 2 },
      unknown: null,
    });
    expect(args.address.zip).toBeNull();
  });

  it('round-trips with toOpenAIStrictSchema', () => {
    const { schema } = toOpenAIStrictSchema(weather);
    expect(schema.required).toEqual(['location', 'units', 'days']);
    expect(restoreOptionalNulls(weather, { location: 'Lima', units: null, days: null })).toEqual({ location: 'Lima' });
  });

  it('returns non-object arguments unchanged', () => {
    expect(restoreOptionalNulls(weather, 'text')).toBe('text');
    expect(restoreOptionalNulls(weather, null)).toBeNull();
  });
});

describe('schemaAcceptsNull', () => {
  it('follows JSON Schema semantics', () => {
    const root: JsonSchemaObject = { $defs: { N: { type: 'null' }, S: { type: 'string' } } };
    expect(schemaAcceptsNull({}, root)).toBe(true);
    expect(schemaAcceptsNull({ type: 'string' }, root)).toBe(false);
    expect(schemaAcceptsNull({ enum: ['a', null] }, root)).toBe(true);
    expect(schemaAcceptsNull({ anyOf: [{ type: 'string' }, { $ref: '#/$defs/N' }] }, root)).toBe(true);
    expect(schemaAcceptsNull({ $ref: '#/$defs/S' }, root)).toBe(false);
    expect(schemaAcceptsNull({ const: null }, root)).toBe(true);
  });
});

describe('schemaCompatibilityWarnings', () => {
  it('reports root problems per provider', () => {
    const schema: JsonSchemaObject = { oneOf: [{ type: 'object' }, { type: 'object' }] };
    expect(schemaCompatibilityWarnings(schema, 'openai').map((w) => `${w.provider} ${w.feature} ${w.path}`)).toEqual([
      'openai root-type ',
      'openai root-union /oneOf',
    ]);
    expect(schemaCompatibilityWarnings(schema, 'anthropic').map((w) => w.details)).toEqual([
      'the root has no `type`; Anthropic requires `type: "object"` at the root of a tool\'s input schema',
      "Anthropic rejects `oneOf` at the top level of a tool's input schema; make the root one object and move the alternatives into a property",
    ]);
    expect(schemaCompatibilityWarnings(schema, 'mcp').map((w) => w.feature)).toEqual(['root-type']);
    expect(schemaCompatibilityWarnings({ type: 'object', properties: {}, enum: [{}] }, 'openai').map((w) => w.path)).toEqual(['/enum']);
  });

  it('reports references providers cannot fetch', () => {
    const warnings = schemaCompatibilityWarnings(
      { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' }, b: { enum: [{ $ref: 'x' }] } } },
      'anthropic',
    );
    expect(warnings).toEqual([
      {
        type: 'unsupported',
        provider: 'anthropic',
        feature: '$ref',
        path: '/properties/a/$ref',
        details: '`$ref: "https://example.com/a.json"` points outside the schema; providers do not fetch references, so inline it or move it into $defs',
      },
    ]);
  });

  it('has nothing to say about a clean schema', () => {
    for (const provider of ['openai', 'anthropic', 'mcp', 'openai-strict'] as const) {
      expect(
        schemaCompatibilityWarnings({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false }, provider),
      ).toEqual([]);
    }
  });

  it('for openai-strict, includes the rewrite warnings', () => {
    expect(schemaCompatibilityWarnings(weather, 'openai-strict').map((w) => w.feature)).toEqual(['optional-property', 'default', 'optional-property']);
  });

  it('for openai-strict, checks the documented size limits', () => {
    let nested: JsonSchemaObject = { type: 'object', properties: { leaf: { type: 'string' } }, required: ['leaf'], additionalProperties: false };
    for (let level = 0; level < OPENAI_STRICT_LIMITS.maxNestingDepth; level++) {
      nested = { type: 'object', properties: { child: nested }, required: ['child'], additionalProperties: false };
    }
    const deep = schemaCompatibilityWarnings(nested, 'openai-strict');
    expect(deep).toHaveLength(1);
    expect(deep[0]?.feature).toBe('nesting-depth');
    expect(deep[0]?.path).toBe(`${'/properties/child'.repeat(10)}`);
    expect(deep[0]?.details).toBe('objects nest 11 levels deep; OpenAI strict mode allows at most 10, so flatten the schema');

    const manyValues = Array.from({ length: 1001 }, (_, index) => `v${index}`);
    const enums = schemaCompatibilityWarnings(
      { type: 'object', properties: { pick: { type: 'string', enum: manyValues } }, required: ['pick'], additionalProperties: false },
      'openai-strict',
    );
    expect(enums.map((w) => w.feature)).toEqual(['total-enum-values']);

    const longValues = Array.from({ length: 251 }, (_, index) => `${'x'.repeat(60)}${index}`);
    const longEnum = schemaCompatibilityWarnings(
      { type: 'object', properties: { pick: { type: 'string', enum: longValues } }, required: ['pick'], additionalProperties: false },
      'openai-strict',
    );
    expect(longEnum.map((w) => `${w.feature} ${w.path}`)).toEqual(['enum-string-length /properties/pick/enum']);

    const properties: Record<string, unknown> = {};
    for (let index = 0; index < 5001; index++) properties[`p${index}`] = { type: 'string' };
    const wide = schemaCompatibilityWarnings({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false }, 'openai-strict');
    expect(wide.map((w) => w.feature)).toEqual(['total-properties']);

    const longName = 'n'.repeat(120_001);
    const names = schemaCompatibilityWarnings(
      { type: 'object', properties: { [longName]: { type: 'string' } }, required: [longName], additionalProperties: false },
      'openai-strict',
    );
    expect(names.map((w) => w.feature)).toEqual(['total-string-length']);
  });
});

describe('toOpenAIStrictSchema on hostile input', () => {
  it('cuts absurdly deep schemas instead of exhausting the stack', () => {
    let schema: JsonSchemaObject = { type: 'string' };
    for (let level = 0; level < 5000; level++) schema = { type: 'array', items: schema };
    const { warnings } = toOpenAIStrictSchema({ type: 'object', properties: { deep: schema }, required: ['deep'], additionalProperties: false });
    expect(warnings.map((warning) => warning.feature)).toEqual(['nesting-depth']);
  });
});
