import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SchemaCompileError } from '../shared/errors.js';
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
