import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolDefinitionError, ToolExampleError } from '../shared/errors.js';
import { defineTool } from './define-tool.js';

const base = {
  name: 'get_forecast',
  description: 'Weather forecast for a city.',
  effect: 'read' as const,
  inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', maximum: 7 } }, required: ['city'] },
  execute: () => 'ok',
};

describe('defineTool({ examples })', () => {
  it('keeps valid examples as frozen copies', () => {
    const given = [{ city: 'Paris' }, { city: 'Rome', days: 3 }];
    const tool = defineTool({ ...base, examples: given });
    given[0]!.city = 'changed';
    expect(tool.examples).toEqual([{ city: 'Paris' }, { city: 'Rome', days: 3 }]);
    expect(Object.isFrozen(tool.examples![1])).toBe(true);
  });

  it('refuses an example that breaks the schema, naming the example and each problem in the registry wording', () => {
    let thrown: unknown;
    try {
      defineTool({ ...base, examples: [{ city: 'Paris' }, { city: 3, days: 9 }] });
    } catch (error) {
      thrown = error;
    }
    expect(ToolExampleError.isInstance(thrown)).toBe(true);
    const error = thrown as ToolExampleError;
    expect(error.code).toBe('TW_INVALID_TOOL_EXAMPLE');
    expect(error.exampleIndex).toBe(1);
    expect(error.problems).toEqual(['$.city must be a string; got the number 3', '$.days must be at most 7; got the number 9']);
    expect(error.message).toMatch(/^Tool "get_forecast": examples\[1\] is not a valid input .* Fix the example \(or the schema\)/);
  });

  it('refuses an example that is not an object, and examples that are not a list', () => {
    expect(() => defineTool({ ...base, examples: ['Paris' as never] })).toThrow(/examples\[0\] .*\$ must be an object .*got string/);
    expect(() => defineTool({ ...base, examples: { city: 'Paris' } as never })).toThrow(ToolDefinitionError);
  });

  it("runs a Zod tool's own parse too", () => {
    const zodBase = { name: 'pick', description: 'Pick a number.', effect: 'read' as const, execute: () => 'ok' };
    const inputSchema = z.object({ n: z.number().refine((n) => n % 2 === 0, 'must be even') });
    expect(defineTool({ ...zodBase, inputSchema, examples: [{ n: 2 }] }).examples).toEqual([{ n: 2 }]);
    expect(() => defineTool({ ...zodBase, inputSchema, examples: [{ n: 3 }] })).toThrow(/examples\[0\] .*\$\.n must be even/);
  });
});

describe('defineTool({ strict })', () => {
  it('keeps the flag, and refuses anything but a boolean', () => {
    expect(defineTool({ ...base, strict: true }).strict).toBe(true);
    expect(defineTool(base).strict).toBeUndefined();
    expect(() => defineTool({ ...base, strict: 'yes' as never })).toThrow(/`strict` must be true or false/);
  });
});
