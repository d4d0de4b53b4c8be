import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SchemaCompileError, SchemaReferenceCycleError, ToolDefinitionError, ToolwrightError } from '../shared/errors.js';
import { defineTool } from './define-tool.js';
import { ToolRegistry, silentLogger } from './tool-registry.js';
import { JSON_VALUE_SCHEMA, LINKED_LIST_SCHEMA } from '../../test/fixtures/recursive-schemas.js';

const base = { description: 'Echo the text back.', effect: 'read' as const, execute: () => 'ok' };

describe('defineTool', () => {
  it('keeps a JSON Schema definition as given and freezes the tool', () => {
    const schema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
    const tool = defineTool({ ...base, name: 'echo', inputSchema: schema });
    expect(tool.inputSchema).toEqual(schema);
    expect(tool.inputSchema).not.toBe(schema);
    expect(Object.isFrozen(tool)).toBe(true);
    expect(tool.confirm).toBe(false);
    expect(tool.alwaysAvailable).toBe(false);
  });

  it.each([
    ['', 'invalid name: the name is empty.'],
    ['get invoices', 'invalid name: the name contains " "; OpenAI and Anthropic accept only letters, digits, "_" and "-" (try "get_invoices").'],
    ['a'.repeat(65), 'invalid name: the name has 65 characters; OpenAI and Anthropic accept at most 64.'],
    ['files.read', 'invalid name: the name contains "."; OpenAI and Anthropic accept only letters, digits, "_" and "-" (try "files_read").'],
  ])('refuses the name %j with a fix', (name, message) => {
    expect(() => defineTool({ ...base, name, inputSchema: { type: 'object' } })).toThrow(`Tool "${name}": ${message}`);
  });

  it('rewrites a schema tagged with an older draft into 2020-12, so the registry reads it as that draft does', async () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-04/schema#',
      id: 'http://example.com/order.json',
      type: 'object',
      properties: { quantity: { type: 'integer', minimum: 0, exclusiveMinimum: true } },
      required: ['quantity'],
    };
    const tool = defineTool({ ...base, name: 'order', inputSchema: schema });
    // untagged: 2020-12 is how an untagged schema reads, and the tag would only travel to the providers
    expect(tool.inputSchema).toEqual({
      $id: 'http://example.com/order.json',
      type: 'object',
      properties: { quantity: { type: 'integer', exclusiveMinimum: 0 } },
      required: ['quantity'],
    });
    expect(schema.properties.quantity).toEqual({ type: 'integer', minimum: 0, exclusiveMinimum: true });
    const registry = new ToolRegistry([tool], { logger: silentLogger });
    expect((await registry.call({ id: 'a', name: 'order', arguments: { quantity: 1 } })).result.isError).toBe(false);
    // draft-04 "exclusiveMinimum": true excludes the bound itself
    expect((await registry.call({ id: 'b', name: 'order', arguments: { quantity: 0 } })).result.isError).toBe(true);
  });

  it('reads an untagged schema as 2020-12 unless `schemaDialect` says otherwise, and refuses an unknown dialect', () => {
    const tuple = { type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }], additionalItems: false } } };
    expect(defineTool({ ...base, name: 'pair', inputSchema: tuple, schemaDialect: 'draft-07' }).inputSchema.properties).toEqual({
      pair: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
    });
    expect(defineTool({ ...base, name: 'pair', inputSchema: { type: 'object' } }).inputSchema).toEqual({ type: 'object' });
    expect(() => defineTool({ ...base, name: 'pair', inputSchema: tuple, schemaDialect: 'draft-05' as never })).toThrow(
      'Tool "pair": `schemaDialect` must be one of "draft-04", "draft-06", "draft-07", "2019-09", "2020-12" (got "draft-05").',
    );
  });

  it('says how to fix a draft-04 "id" in an untagged schema', () => {
    let error: unknown;
    try {
      defineTool({ ...base, name: 'legacy', inputSchema: { id: 'http://example.com/legacy.json', type: 'object' } });
    } catch (caught) {
      error = caught;
    }
    expect(ToolwrightError.isInstance(error) && error.code).toBe('TW_INVALID_SCHEMA');
    expect((error as Error).message).toContain('Tool "legacy" schema does not compile: "id" is the draft-04 form of "$id"');
    expect((error as Error).message).toContain('Add "$schema": "http://json-schema.org/draft-04/schema#" at its root');
    expect((error as Error).message).toContain('(at /inputSchema)');
  });

  it('refuses a missing effect, a non-object schema and a bad timeout', () => {
    expect(() => defineTool({ ...base, name: 'x', effect: 'delete' as never, inputSchema: { type: 'object' } })).toThrow(
      'Tool "x": `effect` must be "read" or "write" (got "delete"). Say "write" if the tool changes anything outside the process.',
    );
    expect(() => defineTool({ ...base, name: 'x', inputSchema: { type: 'string' } })).toThrow(
      'Tool "x": `inputSchema` must describe an object (got type "string"); wrap the value in an object property.',
    );
    expect(() => defineTool({ ...base, name: 'x', inputSchema: { type: 'object' }, timeoutMs: -1 })).toThrow('`timeoutMs` must be a positive number (got -1).');
    expect(() => defineTool({ ...base, name: 'x', inputSchema: null as never })).toThrow(
      '`inputSchema` must be a JSON Schema object or a Zod v4 schema (got null).',
    );
  });

  it('keeps `longRunning: true` and refuses a value that is not a boolean', () => {
    expect(defineTool({ ...base, name: 'build', longRunning: true, inputSchema: { type: 'object' } }).longRunning).toBe(true);
    expect(defineTool({ ...base, name: 'quick', inputSchema: { type: 'object' } }).longRunning).toBeUndefined();
    expect(() => defineTool({ ...base, name: 'build', longRunning: 'yes' as never, inputSchema: { type: 'object' } })).toThrow(
      '`longRunning` must be true or false (got "yes").',
    );
  });

  it('raises typed errors with a stable code', () => {
    try {
      defineTool({ ...base, name: 'bad name', inputSchema: { type: 'object' } });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect(ToolwrightError.isInstance(error)).toBe(true);
      expect((error as ToolwrightError).code).toBe('TW_INVALID_TOOL_DEFINITION');
    }
  });

  it("converts a Zod v4 schema with Zod's own JSON Schema export", () => {
    const tool = defineTool({
      ...base,
      name: 'conjugate',
      inputSchema: z.object({ verb: z.enum(['eat', 'go']).describe('The verb'), times: z.number().int().min(1).optional() }),
      execute: (args) => `${args.verb} x${args.times ?? 1}`,
    });
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        verb: { type: 'string', enum: ['eat', 'go'], description: 'The verb' },
        times: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
      },
      required: ['verb'],
    });
    expect(tool.refineArguments).toBeTypeOf('function');
  });

  it('runs Zod refinements and transforms after JSON Schema validation', async () => {
    const tool = defineTool({
      ...base,
      name: 'range',
      inputSchema: z
        .object({ from: z.number(), to: z.number(), label: z.string().transform((value) => value.toUpperCase()) })
        .refine((value) => value.from <= value.to, { message: '"from" must not be greater than "to"', path: ['from'] }),
      execute: (args) => `${args.label}:${args.from}-${args.to}`,
    });
    const registry = new ToolRegistry([tool], { logger: silentLogger });
    const ok = await registry.call({ id: '1', name: 'range', arguments: { from: 1, to: 2, label: 'a' } });
    expect(ok.result.content).toEqual([{ type: 'text', text: 'A:1-2' }]);
    const bad = await registry.call({ id: '2', name: 'range', arguments: { from: 3, to: 2, label: 'a' } });
    expect(bad.failure?.code).toBe('invalid_arguments');
    expect(bad.result.content[0]).toMatchObject({ text: expect.stringContaining('1. $.from: "from" must not be greater than "to".') });
  });

  it('refuses a Zod 3 schema with a way forward', () => {
    expect(() => defineTool({ ...base, name: 'x', inputSchema: { _def: {}, parse() {} } as never })).toThrow(
      'looks like a Zod 3 schema. toolwright accepts Zod v4 schemas (import { z } from "zod" with zod@4) or plain JSON Schema.',
    );
  });

  it('refuses a Zod type that JSON Schema cannot express', () => {
    expect(() => defineTool({ ...base, name: 'x', inputSchema: z.object({ when: z.date() }) })).toThrow(/is a Zod schema that has no JSON Schema form/);
  });

  describe('schemas whose references loop without nesting', () => {
    it.each([
      ['a property that refers to itself', { type: 'object', properties: { a: { $ref: '#/properties/a' } } }, '#/properties/a → #/properties/a'],
      ['the root beside its own $ref', { $ref: '#', type: 'object' }, '# → #'],
      ['allOf back to the root', { type: 'object', allOf: [{ $ref: '#' }] }, '# → #/allOf/0 → #'],
      [
        'two definitions used under a property',
        { type: 'object', properties: { p: { $ref: '#/$defs/x' } }, $defs: { x: { anyOf: [{ $ref: '#/$defs/y' }] }, y: { $ref: '#/$defs/x' } } },
        '#/$defs/x → #/$defs/x/anyOf/0 → #/$defs/y → #/$defs/x',
      ],
      [
        'a 2019-09 $recursiveRef beside the root keywords',
        { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', $recursiveRef: '#' },
        '# → #',
      ],
    ])('refuses %s at definition, naming the loop and the fix', (_name, inputSchema, path) => {
      let thrown: unknown;
      try {
        defineTool({ ...base, name: 'loop', inputSchema });
      } catch (error) {
        thrown = error;
      }
      expect(SchemaReferenceCycleError.isInstance(thrown)).toBe(true);
      expect(SchemaCompileError.isInstance(thrown)).toBe(true);
      const error = thrown as SchemaReferenceCycleError;
      expect(error.code).toBe('TW_INVALID_SCHEMA');
      expect(error.cycle.join(' → ')).toBe(path);
      expect(error.message).toContain(
        `Tool "loop" schema does not compile: its references in /inputSchema loop back without entering a property or item, so validation would never end: ${path}.`,
      );
      expect(error.message).toContain('A schema may refer to itself only under a keyword that descends into a property or item');
      expect(error.message).not.toContain('call stack');
    });

    it('refuses a loop in the output schema too', () => {
      expect(() => defineTool({ ...base, name: 'loop', inputSchema: { type: 'object' }, outputSchema: { not: { $ref: '#' } } })).toThrow(
        'its references in /outputSchema loop back without entering a property or item, so validation would never end: # → #/not → #.',
      );
    });

    it('cuts a long loop to its ends in the message, and each pointer in it', () => {
      let inputSchema: Record<string, unknown> = { allOf: [{ $ref: '#' }] };
      for (let depth = 0; depth < 200; depth++) inputSchema = { allOf: [inputSchema] };
      let message = '';
      try {
        defineTool({ ...base, name: 'loop', inputSchema });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain('# → #/allOf/0 → #/allOf/0/allOf/0 → #/allOf/0/allOf/0/allOf/0 → … 196 more … → #/allOf/0/allOf/0/allOf/0/allOf/0/');
      expect(message).toContain('/allOf…');
      expect(message.length).toBeLessThan(1500);
    });

    it.each([
      [
        'a tree',
        { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } }, required: ['name'] },
        { name: 'root', children: [{ name: 'leaf', children: [] }] },
        { name: 'root', children: [{ children: [] }] },
      ],
      ['a linked list', LINKED_LIST_SCHEMA, { value: 1, next: { value: 2, next: null } }, { value: 1, next: { value: 'two', next: null } }],
      ['any JSON value', JSON_VALUE_SCHEMA, { value: { a: [1, 'b', { c: null }] } }, { value: { a: [1, 'b', { c: undefined }] } }],
    ])('accepts %s, which refers to itself through a property or item, and validates it', async (_name, inputSchema, valid, invalid) => {
      const registry = new ToolRegistry([defineTool({ ...base, name: 'recursive', inputSchema })], { logger: silentLogger });
      expect((await registry.call({ id: 'ok', name: 'recursive', arguments: valid })).failure).toBeUndefined();
      expect((await registry.call({ id: 'bad', name: 'recursive', arguments: invalid })).failure?.code).toBe('invalid_arguments');
    });
  });
});
