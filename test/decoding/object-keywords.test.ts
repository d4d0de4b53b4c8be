/**
 * The object keywords (minProperties, maxProperties, patternProperties, propertyNames,
 * dependentRequired, draft-7 dependencies) and `propertyOrder: 'any'`, exhaustively over a
 * small universe of objects: the mask accepts an object's text exactly when Ajv accepts
 * the object, under both layouts and both property orders; under `any` every key order is
 * accepted, a declared key twice never is. Random masked generations end Ajv-valid with
 * no dead end and every mask bit agreeing with accept().
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError, type CompiledGrammar } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { createRandom, generate } from './generation.js';

const SCHEMAS: Record<string, Record<string, unknown>> = {
  counts: {
    type: 'object',
    properties: { a: { type: 'integer' }, b: { type: 'string' }, c: {} },
    required: ['a', 'c'],
    minProperties: 2,
    maxProperties: 3,
    additionalProperties: false,
  },
  'counts with additional keys': {
    type: 'object',
    properties: { a: {}, b: {}, c: {} },
    required: ['b'],
    maxProperties: 2,
    minProperties: 1,
    additionalProperties: { type: 'string' },
  },
  'binding counts': { type: 'object', properties: { a: {}, b: {}, c: {} }, minProperties: 2, maxProperties: 2, additionalProperties: false },
  'binding minimum with pattern keys': {
    type: 'object',
    properties: { a: {} },
    minProperties: 1,
    patternProperties: { '^x': {} },
    additionalProperties: false,
  },
  patterns: {
    type: 'object',
    properties: { a: {}, x1: { type: 'string' } },
    patternProperties: { '^x': { type: 'string' }, '\\d': { const: 'x' }, '^a': { type: 'integer' } },
    additionalProperties: false,
  },
  'patterns and additional properties': {
    type: 'object',
    patternProperties: { '^z': { type: 'integer' } },
    additionalProperties: { type: 'string' },
    required: ['zz'],
  },
  'property names': {
    type: 'object',
    properties: { a: {}, é: {} },
    required: ['a'],
    propertyNames: { pattern: '^[a-z]+$', maxLength: 2 },
  },
  'property names as enum': { type: 'object', propertyNames: { enum: ['a', 'ab', 'é'] }, maxProperties: 2 },
  dependencies: {
    type: 'object',
    properties: { c: {}, b: {}, a: {} },
    dependentRequired: { a: ['b'], c: ['a'] },
    additionalProperties: { type: 'integer' },
  },
  'draft-7 dependencies and required': {
    type: 'object',
    required: ['zz'],
    dependencies: { ab: ['b', 'zz'], b: ['a'] },
    additionalProperties: false,
    properties: { a: { type: 'string' }, b: {}, ab: { type: 'integer' }, zz: {} },
  },
};

/** The names the layout orders: properties, then names only required or dependencies mention. */
function declaredNames(schema: Record<string, unknown>): string[] {
  const names = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const dependencies = { ...(schema.dependentRequired as Record<string, string[]>), ...(schema.dependencies as Record<string, string[]>) };
  const mentioned = [
    ...((schema.required as string[] | undefined) ?? []),
    ...Object.entries(dependencies).flatMap(([name, dependents]) => [name, ...dependents]),
  ];
  for (const name of mentioned) if (!names.includes(name)) names.push(name);
  return names;
}

const KEYS = ['a', 'b', 'c', 'ab', 'x1', 'zz', 'é'];
const VALUES: readonly unknown[] = [1, 'x'];

/** Every object over KEYS with at most `most` properties and values from VALUES. */
function objects(most: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const visit = (from: number, entries: [string, unknown][]): void => {
    out.push(Object.fromEntries(entries));
    if (entries.length === most) return;
    for (let index = from; index < KEYS.length; index++) for (const value of VALUES) visit(index + 1, [...entries, [KEYS[index]!, value]]);
  };
  visit(0, []);
  return out;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]));
}

function text(entries: readonly [string, unknown][], flexible: boolean): string {
  if (!flexible) return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`;
  return entries.length === 0 ? '{ }' : `{\n  ${entries.map(([key, value]) => `${JSON.stringify(key)} : ${JSON.stringify(value)}`).join(',\n  ')}\n}`;
}

const accepts = (grammar: CompiledGrammar, value: string): boolean => {
  const matcher = grammar.matcher();
  return matcher.acceptString(value) && matcher.canTerminate();
};

describe('object keywords and propertyOrder', () => {
  const vocabulary = byteVocabulary(['{"', '":', ',"', '"}', 'x1', 'ab']);
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true });
  const universe = objects(4);

  describe.each(['schema', 'any'] as const)('propertyOrder %s', (propertyOrder) => {
    it.each(Object.keys(SCHEMAS))('%s: the mask accepts exactly what Ajv accepts (both layouts)', (name) => {
      const schema = SCHEMAS[name]!;
      const validate = ajv.compile(schema);
      const failures: string[] = [];
      let valid = 0;
      for (const flexible of [false, true]) {
        const grammar = compileJsonSchema(schema, vocabulary, { propertyOrder, layout: flexible ? 'flexible' : 'compact' });
        for (const object of universe) {
          const expected = validate(object);
          if (expected) valid++;
          const orders = permutations(Object.entries(object));
          const declared = declaredNames(schema);
          for (const entries of orders) {
            const keys = entries.map(([key]) => key);
            const positions = keys.filter((key) => declared.includes(key)).map((key) => declared.indexOf(key));
            const inLayoutOrder =
              positions.every((position, index) => index === 0 || position > positions[index - 1]!) &&
              keys.every((key, index) => declared.includes(key) || !keys.slice(index).some((later) => declared.includes(later)));
            // schema order: declared keys in the schema's order, then the others in any order
            const wanted = expected && (propertyOrder === 'any' || inLayoutOrder);
            if (accepts(grammar, text(entries, flexible)) !== wanted)
              failures.push(`${flexible ? 'flexible' : 'compact'} ${text(entries, false)}: Ajv ${expected}`);
          }
          // a declared key written twice is never accepted (JSON.parse would keep only the last value)
          const twice = Object.entries(object).find(([key]) => declared.includes(key));
          if (twice !== undefined && accepts(grammar, text([...Object.entries(object), twice], flexible)))
            failures.push(`${flexible ? 'flexible' : 'compact'} ${text([...Object.entries(object), twice], false)}: a declared key twice is accepted`);
        }
      }
      expect(failures).toEqual([]);
      expect(valid).toBeGreaterThan(0);
    });

    it.each(Object.keys(SCHEMAS))('%s: random masked generations end Ajv-valid, with no dead end and masks agreeing with accept()', (name) => {
      const schema = SCHEMAS[name]!;
      const validate = ajv.compile(schema);
      const failures: string[] = [];
      for (const flexible of [false, true]) {
        // a small depth budget keeps free-form values from growing the automaton without end, and tests the depth liveness
        const grammar = compileJsonSchema(schema, vocabulary, { propertyOrder, layout: flexible ? 'flexible' : 'compact', maxDepth: 4 });
        const random = createRandom(name.length * 31 + (flexible ? 7 : 0) + propertyOrder.length);
        for (let run = 0; run < 40; run++) {
          const generation = generate(grammar, random, Math.floor(random() * 40));
          failures.push(...generation.disagreements);
          const value = JSON.parse(generation.text) as unknown;
          if (!validate(value)) failures.push(`Ajv rejects ${generation.text}`);
        }
      }
      expect(failures).toEqual([]);
    });
  });

  it('under propertyOrder any, a declared key never comes twice and the object closes only once its required keys are written', () => {
    const schema = { type: 'object', properties: { a: {}, b: {}, c: {} }, required: ['c', 'a'], additionalProperties: { type: 'integer' } };
    const grammar = compileJsonSchema(schema, vocabulary, { propertyOrder: 'any' });
    expect(accepts(grammar, '{"c":1,"z":2,"a":3}')).toBe(true);
    expect(accepts(grammar, '{"a":1,"c":2,"a":3}')).toBe(false);
    expect(grammar.matcher().acceptString('{"a":1,"a"')).toBe(false);
    const open = grammar.matcher();
    expect(open.acceptString('{"a":1,"b":2')).toBe(true);
    expect(open.acceptString('}')).toBe(false);
    expect(open.acceptString(',"c":3}')).toBe(true);
    // format() keeps the schema's order
    expect(grammar.format({ c: 1, a: 2, z: 3 })).toBe('{"a":2,"c":1,"z":3}');
  });

  it('refuses propertyOrder any above limits.maxTrackedProperties declared properties, and keeps the schema order under lenient', () => {
    const properties = Object.fromEntries(Array.from({ length: 31 }, (_, index) => [`p${index}`, { type: 'integer' }]));
    const schema = { type: 'object', properties };
    expect(() => compileJsonSchema(schema, vocabulary, { propertyOrder: 'any' })).toThrow(UnsupportedSchemaError);
    const lenient = compileJsonSchema(schema, vocabulary, { propertyOrder: 'any', lenient: true });
    expect(accepts(lenient, '{"p0":1,"p1":2}')).toBe(true);
    expect(accepts(lenient, '{"p1":1,"p0":2}')).toBe(false);
    expect(() => compileJsonSchema({ type: 'object', properties: { ...properties, p31: {} } }, vocabulary, { propertyOrder: 'schema' })).not.toThrow();
  });

  it('a required property propertyNames rejects, or whose dependent cannot appear, leaves no object value', () => {
    expect(() => compileJsonSchema({ type: 'object', required: ['abc'], propertyNames: { maxLength: 2 } }, vocabulary)).toThrow(/accepts no JSON value/);
    expect(() => compileJsonSchema({ type: 'object', required: ['a'], dependentRequired: { a: ['b'] }, properties: { b: false } }, vocabulary)).toThrow(
      /accepts no JSON value/,
    );
  });
});
