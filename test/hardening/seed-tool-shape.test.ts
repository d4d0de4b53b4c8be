/**
 * The seed's four-field tool, `{ name, description, input_schema, fn }`, is
 * accepted as is, by `defineTool` and by `new ToolRegistry([...])`. It says
 * nothing about side effects, so it is treated as a write (run alone, in
 * order), and the linter says so.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ToolRegistry, defineTool, runAgent, silentLogger, type AnyTool, type Tool } from '../../src/index.js';
import { ToolDefinitionError } from '../../src/errors.js';
import { lintTools } from '../../src/formats/index.js';
import type { SeedToolDefinition } from '../../src/tools/package-entry.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/test.js';

const input_schema = {
  type: 'object',
  properties: { city: { type: 'string', description: 'The city, as the user wrote it.' } },
  required: ['city'],
  additionalProperties: false,
};

describe("the seed's four-field tool", () => {
  it('registers through defineTool as is, counted as an undeclared write', async () => {
    // Before: ToolDefinitionError, "`effect` must be "read" or "write" (got undefined)".
    const tool = defineTool({
      name: 'get_weather',
      description: 'Get the weather in one city.',
      input_schema,
      fn: ({ city }: { city: string }) => `sunny in ${city}`,
    });
    expect([tool.effect, tool.effectDeclared]).toEqual(['write', false]);
    expect(tool.inputSchema).toEqual(input_schema);
    const execution = await new ToolRegistry([tool], { logger: silentLogger }).call({ id: 'c', name: 'get_weather', arguments: { city: 'Lisbon' } });
    expect(execution.result).toEqual({ content: [{ type: 'text', text: 'sunny in Lisbon' }], isError: false });
    // Its arguments are validated like any tool's.
    const invalid = await new ToolRegistry([tool], { logger: silentLogger }).call({ id: 'c', name: 'get_weather', arguments: { town: 'Lisbon' } });
    expect(invalid.failure?.code).toBe('invalid_arguments');
  });

  it('registers as a plain object passed to new ToolRegistry([...])', async () => {
    // Before: ToolDefinitionError, "the registry was given something that is not a tool".
    const plain = {
      name: 'get_weather',
      description: 'Get the weather in one city.',
      input_schema,
      fn: (args: { city: string }) => ({ city: args.city, sky: 'clear' }),
    };
    const registry = new ToolRegistry([plain], { logger: silentLogger });
    expect(registry.require('get_weather')).toMatchObject({ effect: 'write', effectDeclared: false, description: 'Get the weather in one city.' });
    const execution = await registry.call({ id: 'c', name: 'get_weather', argumentsText: '{"city": "Porto"}' });
    expect(execution.result.structuredContent).toEqual({ city: 'Porto', sky: 'clear' });
    const more = registry.with([{ ...plain, name: 'get_forecast', effect: 'read' as const }]);
    expect(more.require('get_forecast')).toMatchObject({ effect: 'read', effectDeclared: true });
  });

  it('runs alone when its effect is undeclared, and in parallel once it says read', async () => {
    const maxRunning = async (effect: 'read' | undefined) => {
      let running = 0;
      let most = 0;
      const fn = async () => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setImmediate(resolve));
        running--;
        return 'ok';
      };
      const tool: SeedToolDefinition = {
        name: 'lookup',
        description: 'Look something up.',
        input_schema: { type: 'object' },
        fn,
        ...(effect ? { effect } : {}),
      };
      const calls = [1, 2, 3].map((index) => ({ id: `c${index}`, name: 'lookup', arguments: { item: index } }));
      const model = createScriptedModel([toolCallTurn(calls), textTurn('done')]);
      const result = await runAgent({ model, tools: [defineTool(tool)], prompt: 'Look.', recordDir: false, logger: silentLogger });
      expect(result.status).toBe('completed');
      return most;
    };
    expect(await maxRunning(undefined)).toBe(1);
    expect(await maxRunning('read')).toBe(3);
  });

  it('is reported by the linter as a warning that names the default', () => {
    const tool = defineTool({ name: 'get_weather', description: 'Get the weather in one city.', input_schema, fn: () => 'sunny' });
    const findings = lintTools([tool]).filter((finding) => finding.rule === 'tw/undeclared-effect');
    expect(findings.map((finding) => [finding.severity, finding.tool, finding.path, finding.message])).toEqual([
      [
        'warning',
        'get_weather',
        '/effect',
        'Tool "get_weather" does not declare its effect, so it is treated as a write: it runs alone and in order, never in parallel with other calls.',
      ],
    ]);
  });

  it('refuses a half-converted definition with a message that names both shapes', () => {
    const mixed = { name: 'get_weather', description: 'd', inputSchema: input_schema, fn: () => 'x' };
    expect(() => defineTool(mixed as never)).toThrow(ToolDefinitionError);
    expect(() => defineTool(mixed as never)).toThrow(
      'Tool "get_weather": mixes the seed\'s shape (input_schema, fn) with toolwright\'s (inputSchema, execute). Use one: { name, description, input_schema, fn } or { name, description, inputSchema, effect, execute }.',
    );
    expect(() => defineTool({ name: 'get_weather', description: 'd', input_schema } as never)).toThrow("the seed's shape needs `fn`");
    expect(() => new ToolRegistry([{ name: 'x', description: 'd' } as never])).toThrow('pass { name, description, input_schema, fn }');
  });

  it('is typed: fn gives the argument type, and the normal shape still requires effect', () => {
    const tool = defineTool({ name: 'get_weather', description: 'd', input_schema, fn: (args: { city: string }) => args.city.length });
    expectTypeOf(tool).toEqualTypeOf<Tool<{ city: string }, number>>();
    const registry = new ToolRegistry([tool, { name: 'plain', description: 'd', input_schema, fn: (args: { city: string }) => args.city }]);
    expectTypeOf(registry.list()).toEqualTypeOf<AnyTool[]>();
    // @ts-expect-error -- toolwright's own shape keeps `effect` mandatory.
    expect(() => defineTool({ name: 'no_effect', description: 'd', inputSchema: input_schema, execute: () => 1 })).toThrow(ToolDefinitionError);
  });
});
