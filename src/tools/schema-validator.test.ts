import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SchemaCompileError, SchemaEvaluationError, SchemaReferenceCycleError } from '../shared/errors.js';
import { fnv1a, mulberry32 } from '../shared/seeded-random.js';
import { defineTool } from './define-tool.js';
import { compileSchema } from './schema-validator.js';
import { ToolRegistry } from './tool-registry.js';
import type { JsonSchema } from './types.js';
import { schemaValidatorKind } from './validator-kind.js';

/**
 * Tests of Ajv itself (they count its compilations, or provoke a stack overflow only its compile has); skipped when
 * `interpreter-registry.test.ts` runs this file again with the interpreter forced, which compiles nothing with Ajv.
 */
const ajvOnly: (name: string, test: () => unknown) => void =
  schemaValidatorKind() === 'interpreter'
    ? (name, test) => it.skip(`${name} (skipped with the interpreter forced: a test of Ajv's own compile, which the interpreter never calls)`, test)
    : (name, test) => it(name, test);

/** Counts Ajv compilations (every compile of a tool's schema goes through `Ajv2020.prototype.compile`). */
function countCompilations() {
  return vi.spyOn(Ajv2020.prototype, 'compile');
}

afterEach(() => {
  vi.restoreAllMocks();
});

function weatherTool() {
  return defineTool({
    name: 'get_weather',
    description: 'Weather in a city.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'], additionalProperties: false },
    outputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: ({ city }) => ({ city }),
  });
}

describe('compileSchema, once per schema object', () => {
  ajvOnly('compiles a tool definition once: registries built again from the same tool objects compile nothing', () => {
    const tool = weatherTool();
    const compile = countCompilations();
    const first = new ToolRegistry([tool]);
    expect(compile).toHaveBeenCalledTimes(2); // input and output schema
    const second = new ToolRegistry([tool]);
    expect(compile).toHaveBeenCalledTimes(2);
    // The shared validator still validates for each registry.
    for (const registry of [first, second]) {
      expect(registry.prepare({ id: 'a', name: 'get_weather', arguments: { city: 'Oslo' } }).success).toBe(true);
      const invalid = registry.prepare({ id: 'b', name: 'get_weather', arguments: { city: '' } });
      expect(invalid.success).toBe(false);
    }
  });

  ajvOnly('compiles again a schema changed in place since, and validates by the change', () => {
    const schema: Record<string, unknown> = { type: 'object', properties: { n: { type: 'number' } } };
    const compile = countCompilations();
    expect(compileSchema(schema).validate({ n: 'x' }).success).toBe(false);
    schema.properties = { n: { type: 'string' } };
    expect(compileSchema(schema).validate({ n: 'x' }).success).toBe(true);
    expect(compile).toHaveBeenCalledTimes(2);
    expect(compileSchema(schema).validate({ n: 'x' }).success).toBe(true);
    expect(compile).toHaveBeenCalledTimes(2);
  });

  it('keeps no failure: an invalid schema throws each time, naming the owner it was compiled for', () => {
    const schema = { type: 'object', properties: { n: { type: 'no-such-type' } } };
    expect(() => compileSchema(schema, 'first_tool')).toThrow(SchemaCompileError);
    expect(() => compileSchema(schema, 'second_tool')).toThrow(/second_tool/);
  });

  ajvOnly('compiles equal schemas that are different objects separately (isolation stays per schema object)', () => {
    const compile = countCompilations();
    const make = () => ({ $id: 'https://example.test/shape', type: 'object', properties: { n: { type: 'number' } } });
    compileSchema(make());
    compileSchema(make());
    expect(compile).toHaveBeenCalledTimes(2);
  });
});

describe('compileSchema and the terminal', () => {
  it('writes nothing to the console for a format it does not know, which constrains nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const validator = compileSchema({ type: 'object', properties: { version: { type: 'string', format: 'semver-unknown-here' } } });
      expect(validator.validate({ version: 'anything' }).success).toBe(true);
      expect(validator.validate({ version: 1 }).success).toBe(false);
      expect([...warn.mock.calls, ...log.mock.calls]).toEqual([]);
    } finally {
      warn.mockRestore();
      log.mockRestore();
    }
  });
});

/** JSON-Schema-Test-Suite, ref.json "URN ref with nested pointer ref": finite, but Ajv resolves the inner "#/$defs/bar" so that compiling it loops. */
const AJV_MISRESOLVED = {
  $ref: 'urn:uuid:deadbeef-4321-ffff-ffff-1234feebdaed',
  $defs: { foo: { $id: 'urn:uuid:deadbeef-4321-ffff-ffff-1234feebdaed', $defs: { bar: { type: 'string' } }, $ref: '#/$defs/bar' } },
};

describe('compileSchema and schemas that never stop validating', () => {
  it('refuses a reference loop before Ajv sees it, wherever the schema comes from', () => {
    const compile = countCompilations();
    let thrown: unknown;
    try {
      compileSchema(
        { type: 'object', properties: { p: { $ref: '#/$defs/x' } }, $defs: { x: { anyOf: [{ $ref: '#/$defs/y' }] }, y: { $ref: '#/$defs/x' } } },
        'policy rule r',
        {
          pointer: '/schema',
        },
      );
    } catch (error) {
      thrown = error;
    }
    expect(SchemaReferenceCycleError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toContain(
      'its references in /schema loop back without entering a property or item, so validation would never end: #/$defs/x → #/$defs/x/anyOf/0 → #/$defs/y → #/$defs/x.',
    );
    expect(compile).not.toHaveBeenCalled();
  });

  ajvOnly('turns a stack overflow while compiling a loop only Ajv makes (it misresolves a reference) into SchemaCompileError that says what to change', () => {
    let thrown: unknown;
    try {
      compileSchema(AJV_MISRESOLVED, 'misresolved');
    } catch (error) {
      thrown = error;
    }
    expect(SchemaCompileError.isInstance(thrown)).toBe(true);
    expect(SchemaReferenceCycleError.isInstance(thrown)).toBe(false);
    expect((thrown as Error).cause).toBeInstanceOf(RangeError);
    expect((thrown as Error).message).toContain(
      'Tool "misresolved" schema does not compile: compiling it overflowed the stack: it nests subschemas thousands of levels deep, or refers to itself',
    );
    expect((thrown as Error).message).not.toContain('Maximum call stack');
  });

  it('turns a stack overflow on a value nested 100,000 levels deep into SchemaEvaluationError that says what to change', () => {
    const validator = compileSchema(
      { $defs: { json: { anyOf: [{ type: 'number' }, { type: 'array', items: { $ref: '#/$defs/json' } }] } }, $ref: '#/$defs/json' },
      'nested',
    );
    expect(validator.validate([[1], [[2]]]).success).toBe(true);
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    let thrown: unknown;
    try {
      validator.validate(deep);
    } catch (error) {
      thrown = error;
    }
    expect(SchemaEvaluationError.isInstance(thrown)).toBe(true);
    expect((thrown as SchemaEvaluationError).code).toBe('TW_SCHEMA_EVALUATION');
    expect((thrown as Error).cause).toBeInstanceOf(RangeError);
    expect((thrown as Error).message).toContain('Tool "nested" schema could not check a value: validation overflowed the stack.');
    expect((thrown as Error).message).toContain('keep argumentLimits.maxDepth low');
  });

  it('turns a stack overflow while compiling (a schema nested 100,000 levels) into SchemaCompileError that says what to change', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let depth = 0; depth < 100_000; depth++) schema = { type: 'object', properties: { a: schema } };
    let thrown: unknown;
    try {
      compileSchema(schema, 'deep');
    } catch (error) {
      thrown = error;
    }
    expect(SchemaCompileError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toContain(
      'Tool "deep" schema does not compile: compiling it overflowed the stack: it nests subschemas thousands of levels deep',
    );
    expect((thrown as Error).message).not.toContain('Maximum call stack');
  });
});

describe('uniqueItems, checked by canonical ids instead of pairwise', () => {
  /** Ajv as it ships, whose `uniqueItems` compares items pairwise: the reference for verdicts and for the pair it reports. */
  const stockAjv = new Ajv2020({ strict: false, allErrors: true });

  /** Items from small pools written in several spellings (1 and 1.0, -0 and 0, keys in either order), so that repeats are frequent. */
  function randomArrayText(random: () => number): string {
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const item = (depth: number): string => {
      const roll = random();
      if (depth >= 2 || roll < 0.45) return pick(['1', '1.0', '-0', '0', '0.5', '5e-1', '"1"', '"0"', '"a"', '""', 'null', 'true', 'false']);
      if (roll < 0.7) return `[${Array.from({ length: Math.floor(random() * 3) }, () => item(depth + 1)).join(',')}]`;
      const members = ['a', 'b', 'c'].filter(() => random() < 0.5).map((key) => `"${key}":${item(depth + 1)}`);
      if (random() < 0.5) members.reverse();
      return `{${members.join(',')}}`;
    };
    return `[${Array.from({ length: Math.floor(random() * 8) }, () => item(0)).join(',')}]`;
  }

  const SCHEMAS: Record<string, Record<string, unknown>> = {
    'uniqueItems alone': { uniqueItems: true },
    'arrays of objects': { type: 'array', items: { type: ['object', 'array', 'number', 'string', 'boolean', 'null'] }, uniqueItems: true },
    'scalar items (Ajv hashes these itself)': { type: 'array', items: { type: ['number', 'string', 'boolean', 'null'] }, uniqueItems: true },
    prefixItems: { prefixItems: [{}, { type: 'object' }], uniqueItems: true },
    'nested uniqueItems': { type: 'array', uniqueItems: true, items: { anyOf: [{ type: 'array', uniqueItems: true }, { not: { type: 'array' } }] } },
    'uniqueItems false': { uniqueItems: false },
  };

  it.each(Object.keys(SCHEMAS))('%s: the same verdict as stock Ajv on 3,000 seeded random arrays, and the same pair of items named', (name) => {
    const schema = SCHEMAS[name]!;
    const ours = compileSchema(schema);
    const stock = stockAjv.compile(schema);
    const random = mulberry32(fnv1a(name));
    let rejected = 0;
    for (let round = 0; round < 3_000; round++) {
      const text = randomArrayText(random);
      const value = JSON.parse(text) as unknown;
      const expected = stock(value);
      const result = ours.validate(value);
      expect({ text, valid: result.success }).toEqual({ text, valid: expected });
      if (expected) continue;
      rejected++;
      // where Ajv compares pairwise (items not all declared scalars), the same pair is named
      const pair = (stock.errors ?? []).find((error) => error.keyword === 'uniqueItems' && error.instancePath === '');
      if (pair === undefined || name.startsWith('scalar')) continue;
      const { i, j } = pair.params as { i: number; j: number };
      expect(result.success ? [] : result.issues.map((issue) => issue.message)).toContain(`must not repeat items (items ${j} and ${i} are equal)`);
    }
    if (name !== 'uniqueItems false') expect(rejected).toBeGreaterThan(300);
  });

  it("agrees with JSON-Schema-Test-Suite's uniqueItems cases (draft 2020-12)", () => {
    const file = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/json-schema-test-suite/tests/draft2020-12/uniqueItems.json');
    const groups = JSON.parse(readFileSync(file, 'utf8')) as {
      description: string;
      schema: JsonSchema;
      tests: { description: string; data: unknown; valid: boolean }[];
    }[];
    let cases = 0;
    for (const group of groups) {
      const validator = compileSchema(group.schema);
      for (const test of group.tests) {
        expect({ case: `${group.description}: ${test.description}`, valid: validator.validate(test.data).success }).toEqual({
          case: `${group.description}: ${test.description}`,
          valid: test.valid,
        });
        cases++;
      }
    }
    expect(cases).toBeGreaterThan(60);
  });

  it('follows JSON Schema where stock Ajv does not: keys named valueOf or constructor, and scalar items after prefixItems', () => {
    const unique = compileSchema({ uniqueItems: true });
    // Ajv's deep equality calls a member named valueOf (TypeError), and compares members named constructor by identity
    expect(() => stockAjv.validate({ uniqueItems: true }, [{ valueOf: 1 }, { valueOf: 1 }])).toThrow(TypeError);
    expect(unique.validate([{ valueOf: 1 }, { valueOf: 1 }])).toMatchObject({ success: false, issues: [{ code: 'not_unique' }] });
    expect(stockAjv.validate({ uniqueItems: true }, [{ constructor: { a: 1 } }, { constructor: { a: 1 } }])).toBe(true);
    expect(unique.validate([{ constructor: { a: 1 } }, { constructor: { a: 1 } }]).success).toBe(false);
    // with scalar `items`, Ajv skips every item of another type, the prefixItems' ones included
    const prefixed = { prefixItems: [{ type: 'object' }, { type: 'object' }], items: { type: 'string' }, uniqueItems: true };
    expect(stockAjv.validate(prefixed, [{ a: 1 }, { a: 1 }])).toBe(true);
    expect(compileSchema(prefixed).validate([{ a: 1 }, { a: 1 }]).success).toBe(false);
  });

  it('tells the model which items repeat, however far apart and however the objects are spelled', () => {
    const rows = Array.from({ length: 10_000 }, (_, index) => ({ id: index, name: `row ${index}` }));
    rows.push({ name: 'row 17', id: 17.0 });
    const result = compileSchema({ type: 'array', items: { type: 'object' }, uniqueItems: true }).validate(rows);
    expect(result).toEqual({ success: false, issues: [{ code: 'not_unique', path: [], message: 'must not repeat items (items 17 and 10000 are equal)' }] });
  });
});
