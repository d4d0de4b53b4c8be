import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SchemaCompileError, SchemaEvaluationError, SchemaReferenceCycleError } from '../shared/errors.js';
import { defineTool } from './define-tool.js';
import { compileSchema } from './schema-validator.js';
import { ToolRegistry } from './tool-registry.js';

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
  it('compiles a tool definition once: registries built again from the same tool objects compile nothing', () => {
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

  it('compiles again a schema changed in place since, and validates by the change', () => {
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

  it('compiles equal schemas that are different objects separately (isolation stays per schema object)', () => {
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

  it('turns a stack overflow while compiling a loop only Ajv makes (it misresolves a reference) into SchemaCompileError that says what to change', () => {
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
