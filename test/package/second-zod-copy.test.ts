/**
 * An app's zod is rarely the exact release toolwright's own tests use: `defineTool`
 * must type and run a schema from another copy of zod 4 (here zod 4.1, installed
 * as the alias `zod4-alt`, while this repository's `zod` is 4.6). Typing against
 * one copy's classes made every such tool a TS2769; `npx tsc` over this file is
 * the type half of the proof, the assertions the runtime half.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z as otherZod } from 'zod4-alt';
import * as otherZodMini from 'zod4-alt/mini';
import { z } from 'zod';
import { ToolRegistry, defineTool } from '../../src/index.js';

describe('a Zod schema from another copy of zod 4', () => {
  const conjugate = defineTool({
    name: 'conjugate',
    description: 'Conjugate a verb.',
    effect: 'read',
    inputSchema: otherZod.object({ verb: otherZod.string().min(1), tense: otherZod.enum(['present', 'past']).default('present') }),
    execute: ({ verb, tense }) => `${verb}:${tense}`,
  });

  it('gives execute the parsed type of that copy', () => {
    expectTypeOf(conjugate.execute).parameter(0).toEqualTypeOf<{ verb: string; tense: 'present' | 'past' }>();
  });

  it('converts it to JSON Schema and runs it through the registry', async () => {
    expect(conjugate.inputSchema).toMatchObject({ type: 'object', properties: { verb: { type: 'string', minLength: 1 } } });
    const registry = new ToolRegistry([conjugate]);
    const ok = await registry.call({ id: '1', name: 'conjugate', argumentsText: '{"verb":"aller"}' });
    expect(ok.result.isError).toBe(false);
    expect(ok.result.content).toEqual([{ type: 'text', text: 'aller:present' }]);
    const bad = await registry.call({ id: '2', name: 'conjugate', argumentsText: '{"verb":""}' });
    expect(bad.result.isError).toBe(true);
  });

  it('accepts zod/mini schemas (no toJSONSchema method) from either copy', () => {
    const mini = defineTool({
      name: 'mini',
      description: 'A zod/mini tool.',
      effect: 'read',
      inputSchema: otherZodMini.object({ count: otherZodMini.number() }),
      execute: ({ count }) => count + 1,
    });
    expectTypeOf(mini.execute).parameter(0).toEqualTypeOf<{ count: number }>();
    expect(mini.inputSchema).toMatchObject({ type: 'object', properties: { count: { type: 'number' } }, required: ['count'] });
  });

  it('still types this repository’s own zod the same way', () => {
    const tool = defineTool({ name: 'own', description: 'Own zod.', effect: 'read', inputSchema: z.object({ n: z.int() }), execute: ({ n }) => n });
    expectTypeOf(tool.execute).parameter(0).toEqualTypeOf<{ n: number }>();
  });
});
