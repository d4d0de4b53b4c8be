/**
 * Hardening of the registry's input: arguments nested thousands of levels deep
 * or megabytes long are refused before Ajv, the run record or canonical JSON
 * walk them, validation texts stay short whatever the number of problems, and
 * prototype keys are refused whether the arguments came as text or as an object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolRegistry, defineTool, runAgent, silentLogger, type Model, type ModelResponse, type ToolExecution } from '../../src/index.js';
import { readRunRecord } from '../../src/agent/package-entry.js';
import { InvalidArgumentError, ToolDefinitionError } from '../../src/errors.js';
import { DEFAULT_ARGUMENT_LIMITS } from '../../src/tools/package-entry.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/test.js';

const records = mkdtempSync(join(tmpdir(), 'tw-limits-'));
afterAll(() => rmSync(records, { recursive: true, force: true }));

function nestedArrays(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

function text(execution: ToolExecution): string {
  const part = execution.result.content[0];
  return part?.type === 'text' ? part.text : '';
}

function counter() {
  const runs: unknown[] = [];
  // An open `data` property: Ajv does not walk it, so before the limits the tool ran with whatever came.
  const save = defineTool({
    name: 'save_note',
    description: 'Saves a note.',
    effect: 'write',
    inputSchema: { type: 'object', properties: { data: {} }, additionalProperties: false },
    execute: (args) => {
      runs.push(args);
      return 'saved';
    },
  });
  // A recursive schema: Ajv walks every level of the value, and used to overflow the stack.
  const tree = defineTool({
    name: 'save_tree',
    description: 'Saves a tree of lists.',
    effect: 'write',
    inputSchema: {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'array', items: { anyOf: [{ type: 'number' }, { $ref: '#/$defs/node' }] } } },
    },
    execute: (args) => {
      runs.push(args);
      return 'saved';
    },
  });
  return { runs, tools: [save, tree] };
}

describe('deep arguments', () => {
  it('are refused before validation, from an object as from text, and the tool never runs', async () => {
    const { runs, tools } = counter();
    const registry = new ToolRegistry(tools, { logger: silentLogger });
    const deep = nestedArrays(100_000);
    // Before: Ajv's recursive validator threw RangeError out of registry.call.
    const fromObject = await registry.call({ id: 'c1', name: 'save_tree', arguments: { tree: deep } });
    expect(fromObject.failure?.code).toBe('arguments_too_large');
    expect(text(fromObject)).toBe(
      'The arguments for tool "save_tree" nest 100,001 levels deep; the limit is 64. Send a flatter object (at most 64 levels of objects and arrays inside one another) and call "save_tree" again.',
    );
    // Before: the open schema let the text through, and the write ran.
    const fromText = await registry.call({ id: 'c2', name: 'save_note', argumentsText: `{"data": ${'['.repeat(100_000)}${']'.repeat(100_000)}}` });
    expect(fromText.failure?.code).toBe('arguments_too_large');
    expect(text(fromText)).toContain('nest 100,001 levels deep; the limit is 64. Send a flatter object');
    expect(runs).toEqual([]);
    // At the limit, the call goes through.
    const atLimit = await registry.call({ id: 'c3', name: 'save_note', arguments: { data: nestedArrays(63) } });
    expect(atLimit.result.isError).toBe(false);
    expect(runs).toHaveLength(1);
  });

  it('do not make runAgent reject after a write ran: the write does not run, and the record ends with its stop event', async () => {
    const { runs, tools } = counter();
    const deepText = `{"data": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    // Before: RangeError from JSON.stringify, in the record (model_response) or, with no record, after the write had run.
    for (const recordDir of [false, records] as const) {
      const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'save_note', argumentsText: deepText }]), textTurn('done')]);
      const result = await runAgent({ model, tools, prompt: 'Save it.', recordDir, logger: silentLogger });
      expect(result.status).toBe('completed');
      expect(result.steps[0]?.toolCalls[0]).toMatchObject({ status: 'failed', failureCode: 'arguments_too_large' });
      expect(JSON.stringify(result.messages)).not.toContain('[[[[');
      if (recordDir !== false) {
        const events = readRunRecord(result.recordPath!);
        expect(events.at(-1)?.type).toBe('stop');
        expect(events.find((event) => event.type === 'tool_result')).toMatchObject({ status: 'failed', failure: { code: 'arguments_too_large' } });
      }
    }
    expect(runs).toEqual([]);
  });

  it('sent as an object by a provider (as Anthropic does) keep the run, its transcript and its record intact', async () => {
    const { runs, tools } = counter();
    let turn = 0;
    const model: Model = {
      id: 'test:anthropic-like',
      provider: 'test',
      estimateInputTokens: () => 10,
      async generate(): Promise<ModelResponse> {
        turn++;
        if (turn > 1) return { content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 1 }, modelId: 'x' };
        const input = { tree: nestedArrays(50_000) };
        return {
          content: [{ type: 'tool-call', id: 'toolu_1', name: 'save_tree', arguments: input }],
          stopReason: 'tool_calls',
          usage: { inputTokens: 10, outputTokens: 1 },
          modelId: 'x',
          raw: { content: [{ type: 'tool_use', id: 'toolu_1', name: 'save_tree', input }] },
        };
      },
      // eslint-disable-next-line require-yield -- the loop only calls generate.
      async *stream() {
        throw new Error('not used');
      },
    };
    const result = await runAgent({ model, tools, prompt: 'Save it.', recordDir: records, logger: silentLogger });
    expect(result.status).toBe('completed');
    expect(runs).toEqual([]);
    expect(result.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'tool-call', id: 'toolu_1', name: 'save_tree', arguments: {} }] });
    const events = readRunRecord(result.recordPath!);
    expect(events.at(-1)?.type).toBe('stop');
    expect(events.find((event) => event.type === 'model_response')).toMatchObject({
      raw: '[withheld: a tool call in this response had arguments over the argument limits]',
    });
  });
});

describe('huge arguments', () => {
  const closed = defineTool({
    name: 'set_units',
    description: 'Sets the display units.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { units: { type: 'string', enum: ['metric', 'imperial'] } }, additionalProperties: false },
    execute: () => 'ok',
  });

  function unknownKeys(count: number): Record<string, number> {
    const value: Record<string, number> = {};
    for (let index = 0; index < count; index++) value[`k${index}`] = index;
    return value;
  }

  it('a million unknown keys get one short sentence, not an 89 MB list', async () => {
    const registry = new ToolRegistry([closed], { logger: silentLogger });
    const million = unknownKeys(1_000_000);
    const execution = await registry.call({ id: 'c', name: 'set_units', arguments: million });
    expect(execution.failure?.code).toBe('arguments_too_large');
    expect(text(execution)).toBe(
      'The arguments for tool "set_units" are more than 1,000,000 characters of JSON; the limit is 1,000,000. Send less: shorter values or fewer items, or split the work over several calls to "set_units".',
    );
    const asText = JSON.stringify(million);
    const fromText = await registry.call({ id: 'c', name: 'set_units', argumentsText: asText });
    expect(text(fromText)).toBe(
      `The arguments for tool "set_units" are ${asText.length.toLocaleString('en-US')} characters of JSON; the limit is 1,000,000. Send less: shorter values or fewer items, or split the work over several calls to "set_units".`,
    );
  });

  it('under a raised size limit, validation lists ten problems and counts the rest', async () => {
    const registry = new ToolRegistry([closed], { logger: silentLogger, argumentLimits: { maxChars: 50_000_000 } });
    const execution = await registry.call({ id: 'c', name: 'set_units', arguments: { units: 'kelvin', ...unknownKeys(200_000) } });
    expect(execution.failure?.code).toBe('invalid_arguments');
    expect(execution.failure?.issues).toHaveLength(200_001);
    const message = text(execution);
    expect(
      message.startsWith(
        'Invalid arguments for tool "set_units" (200,001 problems):\n1. $: has the unknown property "k0"; remove it (allowed properties: "units").\n',
      ),
    ).toBe(true);
    expect(message).toContain(
      '\n10. $: has the unknown property "k9"; remove it (allowed properties: "units").\n…and 199,991 more problems.\nFix them and call "set_units" again. Its input schema is: {',
    );
    expect(message.length).toBeLessThan(2_000);
  });

  it('caps each problem line and the list, whatever the values quote, and cuts a huge schema', async () => {
    const wideSchema = defineTool({
      name: 'wide',
      description: 'A tool with a very large schema.',
      effect: 'read',
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 500 }, (_, index) => [`property_with_a_long_name_${index}`, { type: 'string', description: 'x'.repeat(50) }]),
        ),
        additionalProperties: false,
      },
      execute: () => 'ok',
    });
    const registry = new ToolRegistry([wideSchema], { logger: silentLogger });
    const longKeys = Object.fromEntries(Array.from({ length: 30 }, (_, index) => [`${'k'.repeat(5_000)}${index}`, 1]));
    const message = text(await registry.call({ id: 'c', name: 'wide', arguments: longKeys }));
    const lines = message.split('\n');
    expect(lines[0]).toBe('Invalid arguments for tool "wide" (30 problems):');
    for (const line of lines.slice(1, -2)) expect(line.length).toBeLessThanOrEqual(400);
    expect(message).toContain('more problems.\nFix them');
    expect(message.endsWith('… (schema cut)')).toBe(true);
    expect(message.length).toBeLessThan(4_000 + 4_000 + 500);
  });
});

describe('prototype keys in object arguments', () => {
  const echo = defineTool({
    name: 'echo',
    description: 'Echoes its arguments.',
    effect: 'read',
    inputSchema: { type: 'object' },
    execute: (args) => args as Record<string, unknown>,
  });
  const registry = new ToolRegistry([echo], { logger: silentLogger });
  const expected =
    'The arguments for tool "echo" use the key "__proto__" at /, which is not allowed (it could alter object prototypes). Rename or remove it and call "echo" again.';

  it('are refused with the same text as in JSON text', async () => {
    // Before: an object from JSON.parse (as Anthropic and MCP deliver it) skipped the check and reached the tool.
    const parsed = await registry.call({ id: 'c', name: 'echo', arguments: JSON.parse('{"__proto__": {"x": 1}}') });
    const fromText = await registry.call({ id: 'c', name: 'echo', argumentsText: '{"__proto__": {"x": 1}}' });
    expect(text(parsed)).toBe(expected);
    expect(text(fromText)).toBe(expected);
    expect([parsed.failure?.code, fromText.failure?.code]).toEqual(['invalid_arguments', 'invalid_arguments']);
  });

  it('are refused in a null-prototype object and at any depth, with constructor.prototype too', async () => {
    const bare = Object.create(null) as Record<string, unknown>;
    bare['__proto__'] = { isAdmin: true };
    expect(text(await registry.call({ id: 'c', name: 'echo', arguments: bare }))).toBe(expected);
    const nested = await registry.call({
      id: 'c',
      name: 'echo',
      arguments: { user: { settings: [JSON.parse('{"constructor": {"prototype": {"isAdmin": true}}}')] } },
    });
    expect(text(nested)).toBe(
      'The arguments for tool "echo" use the key "constructor.prototype" at /user/settings/0, which is not allowed (it could alter object prototypes). Rename or remove it and call "echo" again.',
    );
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    // A harmless key named constructor still passes.
    expect((await registry.call({ id: 'c', name: 'echo', arguments: { constructor: 'Ada' } })).result.isError).toBe(false);
  });
});

describe('limit settings', () => {
  const tool = (argumentLimits?: { maxDepth?: number; maxChars?: number }) =>
    defineTool({
      name: 'store',
      description: 'Stores a value.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () => 'ok',
      ...(argumentLimits ? { argumentLimits } : {}),
    });

  it('defaults to 64 levels and 1,000,000 characters, overridable per registry and per tool', async () => {
    expect(DEFAULT_ARGUMENT_LIMITS).toEqual({ maxDepth: 64, maxChars: 1_000_000 });
    const fourDeep = { a: { b: { c: [1] } } };
    expect((await new ToolRegistry([tool()], { logger: silentLogger }).call({ id: 'c', name: 'store', arguments: fourDeep })).result.isError).toBe(false);
    const strict = new ToolRegistry([tool()], { logger: silentLogger, argumentLimits: { maxDepth: 3 } });
    expect((await strict.call({ id: 'c', name: 'store', arguments: fourDeep })).failure?.code).toBe('arguments_too_large');
    // The tool's own limits win over the registry's, and subsets keep them.
    const loose = new ToolRegistry([tool({ maxDepth: 10 })], { logger: silentLogger, argumentLimits: { maxDepth: 3 } });
    expect((await loose.subset(['store']).call({ id: 'c', name: 'store', arguments: fourDeep })).result.isError).toBe(false);
    const small = new ToolRegistry([tool({ maxChars: 20 })], { logger: silentLogger });
    expect(text(await small.call({ id: 'c', name: 'store', argumentsText: '{"text": "a long enough string"}' }))).toContain(
      'are 32 characters of JSON; the limit is 20.',
    );
  });

  it('refuses unusable limits with a developer error that names the fix', () => {
    expect(() => new ToolRegistry([], { argumentLimits: { maxDepth: 0 } })).toThrow(InvalidArgumentError);
    expect(() => new ToolRegistry([], { argumentLimits: { maxDepth: 0 } })).toThrow(
      'ToolRegistry: `argumentLimits.maxDepth` must be a whole number of 1 or more (got 0).',
    );
    expect(() => tool({ maxChars: 1.5 })).toThrow(ToolDefinitionError);
    expect(() => new ToolRegistry([], { argumentLimits: { depth: 3 } as never })).toThrow('unknown field "depth"');
  });
});
