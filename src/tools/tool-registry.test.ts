import { describe, expect, it, vi } from 'vitest';
import { DuplicateToolError, SchemaCompileError, ToolNotFoundError } from '../shared/errors.js';
import { defineTool } from './define-tool.js';
import { NotFoundError, ToolError } from './tool-error.js';
import { toolResult } from './tool-output.js';
import { ToolRegistry, silentLogger, type ToolLogger } from './tool-registry.js';

interface ConjugateArgs {
  verb: string;
  tense: string;
  person: string;
}

const conjugate = defineTool<ConjugateArgs>({
  name: 'conjugate',
  description: 'Return the conjugated form of an English verb.',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: {
      verb: { type: 'string', enum: ['eat', 'go', 'run'] },
      tense: { type: 'string', enum: ['present_simple', 'past_simple'] },
      person: { type: 'string', enum: ['1sg', '3sg'] },
    },
    required: ['verb', 'tense', 'person'],
    additionalProperties: false,
  },
  execute({ verb, tense, person }) {
    if (verb === 'run') throw new ToolError("verb 'run' is out of scope", { kind: 'out_of_scope', suggestion: 'Use one of the verbs eat or go' });
    const table: Record<string, Record<string, string>> = {
      eat: { past_simple: 'ate', present_simple: 'eat' },
      go: { past_simple: 'went', present_simple: 'go' },
    };
    const form = table[verb]![tense]!;
    return tense === 'present_simple' && person === '3sg' ? (verb === 'go' ? 'goes' : `${form}s`) : form;
  },
});

const updateUser = defineTool<{ user_id: string; email?: string; birthday?: string; tags?: string[]; age?: number }>({
  name: 'update_user',
  description: 'Update a user.',
  effect: 'write',
  inputSchema: {
    type: 'object',
    properties: {
      user_id: { type: 'string', pattern: '^usr_[a-zA-Z0-9]{4}$' },
      email: { type: 'string', format: 'email' },
      birthday: { type: 'string', format: 'date' },
      tags: { type: 'array', items: { type: 'string', minLength: 2 }, maxItems: 2, uniqueItems: true },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      contact: {
        anyOf: [
          { type: 'string', format: 'email' },
          { type: 'object', properties: { phone: { type: 'string' } }, required: ['phone'] },
        ],
      },
    },
    required: ['user_id'],
    additionalProperties: false,
  },
  execute: (args) => ({ updated: args.user_id }),
});

function registry(logger: ToolLogger = silentLogger) {
  return new ToolRegistry([conjugate, updateUser], { logger });
}

function text(execution: { result: { content: { type: string }[] } }): string {
  const part = execution.result.content[0] as { type: string; text?: string };
  return part.text ?? '';
}

describe('ToolRegistry.call', () => {
  it('runs a valid call and returns an MCP-shaped result', async () => {
    const execution = await registry().call({ id: 'call_1', name: 'conjugate', argumentsText: '{"verb":"eat","tense":"past_simple","person":"3sg"}' });
    expect(execution).toMatchObject({
      callId: 'call_1',
      toolName: 'conjugate',
      arguments: { verb: 'eat', tense: 'past_simple', person: '3sg' },
      truncated: false,
    });
    expect(execution.result).toEqual({ content: [{ type: 'text', text: 'ate' }], isError: false });
    expect(execution.failure).toBeUndefined();
    expect(execution.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('returns objects as structured content plus their JSON text', async () => {
    const execution = await registry().call({ id: 'c', name: 'update_user', arguments: { user_id: 'usr_ab12' } });
    expect(execution.result).toEqual({
      content: [{ type: 'text', text: '{"updated":"usr_ab12"}' }],
      structuredContent: { updated: 'usr_ab12' },
      isError: false,
    });
  });

  it('names the closest tool and lists all tools for an unknown name', async () => {
    const execution = await registry().call({ id: 'c', name: 'conjugat', arguments: {} });
    expect(execution.failure).toMatchObject({ code: 'unknown_tool', retryable: false });
    expect(execution.result.isError).toBe(true);
    expect(text(execution)).toBe(
      'Unknown tool "conjugat". Did you mean "conjugate"? Available tools: conjugate, update_user. Call one of these by its exact name.',
    );
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('never resolves the prototype member %s as a tool', async (name) => {
    const execution = await registry().call({ id: 'c', name, arguments: {} });
    expect(execution.failure?.code).toBe('unknown_tool');
  });

  it('says where JSON arguments broke', async () => {
    const execution = await registry().call({ id: 'c', name: 'conjugate', argumentsText: '{verb: "eat"}' });
    expect(execution.failure?.code).toBe('invalid_json');
    expect(text(execution)).toBe(
      'The arguments for tool "conjugate" are not valid JSON: expected property name or \'}\' at line 1, column 2. Near: {⟪here⟫verb: "eat"}\n' +
        'Send the arguments again as one JSON object: keys in double quotes, strings in double quotes, no trailing commas, no comments.',
    );
  });

  it('treats an empty arguments string as no arguments', async () => {
    const execution = await registry().call({ id: 'c', name: 'conjugate', argumentsText: '' });
    expect(execution.failure?.code).toBe('invalid_arguments');
    expect(text(execution)).toContain('1. $: missing required property "verb" (one of "eat", "go", "run").');
  });

  it('refuses arguments that are not an object', async () => {
    const execution = await registry().call({ id: 'c', name: 'conjugate', argumentsText: '["eat"]' });
    expect(text(execution)).toBe(
      'The arguments for tool "conjugate" must be a JSON object (like {"key": "value"}); got an array of 1 item. Call "conjugate" again with an object.',
    );
  });

  it('refuses prototype-polluting argument keys', async () => {
    const execution = await registry().call({ id: 'c', name: 'conjugate', argumentsText: '{"__proto__": {"isAdmin": true}}' });
    expect(execution.failure?.code).toBe('invalid_arguments');
    expect(text(execution)).toBe(
      'The arguments for tool "conjugate" use the key "__proto__" at /, which is not allowed (it could alter object prototypes). Rename or remove it and call "conjugate" again.',
    );
  });

  it('answers arguments text that is not a string (a misbehaving compatible server) instead of throwing', async () => {
    const execution = await registry().call({ id: 'c', name: 'conjugate', argumentsText: { verb: 'eat' } as never });
    expect(execution.failure?.code).toBe('invalid_json');
    expect(text(execution)).toContain('are not valid JSON: expected the arguments as JSON text, got an object.');
  });

  describe("given a model response's call part (parsed once, by its adapter)", () => {
    const eat = '{"verb":"eat","tense":"past_simple","person":"3sg"}';

    it("runs the part's parsed arguments and never parses its text again", async () => {
      const parse = vi.spyOn(JSON, 'parse');
      try {
        // The text stands for what the wire carried; the arguments, restored by strict mode say, are what runs.
        const execution = await registry().call({
          id: 'c',
          name: 'conjugate',
          arguments: { verb: 'go', tense: 'past_simple', person: '3sg' },
          argumentsText: eat,
        });
        expect(text(execution)).toBe('went');
        expect(parse).not.toHaveBeenCalled();
      } finally {
        parse.mockRestore();
      }
    });

    it("writes the model's error from the part's parse failure, not from parsing the text again", async () => {
      const parse = vi.spyOn(JSON, 'parse');
      try {
        const argumentsError = { message: "the adapter's own account of the break", position: 1, line: 1, column: 2, excerpt: '{⟪here⟫verb' };
        const execution = await registry().call({ id: 'c', name: 'conjugate', argumentsText: '{verb: "eat"}', argumentsError });
        expect(execution.failure?.code).toBe('invalid_json');
        expect(text(execution)).toContain("the adapter's own account of the break");
        expect(parse).not.toHaveBeenCalled();
      } finally {
        parse.mockRestore();
      }
    });

    it("still measures the part's text against the limits before anything else", async () => {
      const limited = new ToolRegistry([conjugate], { logger: silentLogger, argumentLimits: { maxChars: 20 } });
      const execution = await limited.call({ id: 'c', name: 'conjugate', arguments: { verb: 'eat', tense: 'past_simple', person: '3sg' }, argumentsText: eat });
      expect(execution.failure?.code).toBe('arguments_too_large');
    });

    it('still refuses prototype-polluting keys in parsed arguments, and treats an empty text as no arguments', async () => {
      const polluted = JSON.parse('{"__proto__": {"isAdmin": true}}') as unknown;
      expect(
        (await registry().call({ id: 'c', name: 'conjugate', arguments: polluted, argumentsText: '{"__proto__": {"isAdmin": true}}' })).failure?.code,
      ).toBe('invalid_arguments');
      const empty = await registry().call({ id: 'c', name: 'conjugate', argumentsText: '', argumentsError: { message: 'Unexpected end of JSON input' } });
      expect(text(empty)).toContain('missing required property "verb"');
    });
  });

  it('writes each schema problem as a sentence with its path, the allowed values and the schema', async () => {
    const execution = await registry().call({ id: 'c', name: 'conjugate', arguments: { verb: 'ate', tense: 'past', mood: 'x' } });
    expect(execution.failure?.issues?.map((issue) => issue.code)).toEqual(['missing_property', 'unknown_property', 'invalid_enum', 'invalid_enum']);
    expect(text(execution)).toBe(
      'Invalid arguments for tool "conjugate" (4 problems):\n' +
        '1. $: missing required property "person" (one of "1sg", "3sg").\n' +
        '2. $: has the unknown property "mood"; remove it (allowed properties: "verb", "tense", "person").\n' +
        '3. $.verb: must be one of "eat", "go", "run"; got the string "ate".\n' +
        '4. $.tense: must be one of "present_simple", "past_simple"; got the string "past".\n' +
        'Fix them and call "conjugate" again. Its input schema is: ' +
        JSON.stringify(conjugate.inputSchema),
    );
  });

  it('explains patterns, formats, types, bounds, lengths, uniqueness and alternatives', async () => {
    const execution = await registry().call({
      id: 'c',
      name: 'update_user',
      arguments: { user_id: 'user-1', email: 'nope', birthday: '2026-02-30', tags: ['a', 'bb', 'bb'], age: 151.5, contact: 42 },
    });
    const lines = text(execution).split('\n');
    expect(lines.slice(1, -1)).toEqual([
      '1. $.user_id: must match the pattern ^usr_[a-zA-Z0-9]{4}$; got the string "user-1".',
      '2. $.email: must be a valid email (for example "name@example.com"); got the string "nope".',
      '3. $.birthday: must be a valid date (for example "2026-01-31"); got the string "2026-02-30".',
      '4. $.tags: must have at most 2 items; got an array of 3 items.',
      '5. $.tags[0]: must have at least 2 characters; got the string "a".',
      '6. $.tags: must not repeat items (items 1 and 2 are equal).',
      '7. $.age: must be an integer; got the number 151.5.',
      '8. $.age: must be at most 150; got the number 151.5.',
      '9. $.contact: must be a string, or an object with required "phone"; got the number 42.',
    ]);
  });

  it('passes a domain error with its suggestion and retry advice to the model', async () => {
    const execution = await registry().call({ id: 'c', name: 'conjugate', arguments: { verb: 'run', tense: 'past_simple', person: '1sg' } });
    expect(execution.failure).toMatchObject({ code: 'tool_error', kind: 'out_of_scope', retryable: false });
    expect(text(execution)).toBe(
      'Tool "conjugate" failed: verb \'run\' is out of scope. Use one of the verbs eat or go. Retrying the same call with the same arguments will fail the same way.',
    );
  });

  it('marks unavailable and rate-limited domain errors as retryable', async () => {
    const flaky = defineTool({
      name: 'flaky',
      description: 'Sometimes down.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () => {
        throw new ToolError('the inventory service is down', { kind: 'unavailable' });
      },
    });
    const execution = await new ToolRegistry([flaky]).call({ id: 'c', name: 'flaky', arguments: {} });
    expect(execution.failure?.retryable).toBe(true);
    expect(text(execution)).toBe('Tool "flaky" failed: the inventory service is down. Retrying the same call later may succeed.');
  });

  it('tells the model what to do when something is not found', async () => {
    const find = defineTool({
      name: 'get_invoice',
      description: 'Get one invoice.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
      execute: ({ id }: { id?: string }) => {
        throw new NotFoundError(`invoice ${id} was not found; it may have been deleted or the id may be wrong`, {
          suggestion: 'Search invoices by customer name instead of by id',
        });
      },
    });
    const execution = await new ToolRegistry([find]).call({ id: 'c', name: 'get_invoice', arguments: { id: 'inv_9' } });
    expect(execution.failure?.kind).toBe('not_found');
    expect(text(execution)).toBe(
      'Tool "get_invoice" failed: invoice inv_9 was not found; it may have been deleted or the id may be wrong. Search invoices by customer name instead of by id. Retrying the same call with the same arguments will fail the same way.',
    );
  });

  it('hides an internal error from the model and logs it in full', async () => {
    const secret = new Error('connect ECONNREFUSED 10.0.0.5:5432 password=hunter2');
    const broken = defineTool({
      name: 'broken',
      description: 'Breaks.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () => Promise.reject(secret),
    });
    const logger = { error: vi.fn() };
    const execution = await new ToolRegistry([broken], { logger }).call({ id: 'call_9', name: 'broken', arguments: {} });
    expect(text(execution)).toBe(
      'Tool "broken" failed with an internal error; your arguments were valid. Do not retry the same call. Try a different approach, or tell the user that "broken" is not working right now.',
    );
    expect(JSON.stringify(execution.result)).not.toContain('hunter2');
    expect(execution.failure).toMatchObject({ code: 'internal_error', error: secret });
    expect(logger.error).toHaveBeenCalledWith('tool "broken" (call call_9) threw', { toolName: 'broken', callId: 'call_9', error: secret });
  });

  it('stops a tool at its timeout, aborts its signal, and says a retry may work', async () => {
    let sawAbort = false;
    const slow = defineTool({
      name: 'slow',
      description: 'Slow.',
      effect: 'read',
      timeoutMs: 20,
      inputSchema: { type: 'object' },
      execute: (_args, context) =>
        new Promise((resolve) => {
          context.signal.addEventListener('abort', () => {
            sawAbort = true;
          });
          setTimeout(() => resolve('late'), 5_000).unref();
        }),
    });
    const execution = await new ToolRegistry([slow]).call({ id: 'c', name: 'slow', arguments: {} });
    expect(sawAbort).toBe(true);
    expect(execution.failure).toMatchObject({ code: 'timeout', retryable: true });
    expect(text(execution)).toBe(
      'Tool "slow" did not finish within 20 ms and was stopped. A retry may succeed; if it times out again, ask for less (narrower filters, fewer items) or tell the user.',
    );
  });

  it("reaches the tool with the run's abort and says not to retry", async () => {
    const controller = new AbortController();
    const waiting = defineTool({
      name: 'waiting',
      description: 'Waits.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: (_args, context) => new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(new Error('aborted')))),
    });
    const pending = new ToolRegistry([waiting]).call({ id: 'c', name: 'waiting', arguments: {} }, { signal: controller.signal });
    controller.abort();
    const execution = await pending;
    expect(execution.failure?.code).toBe('aborted');
    expect(text(execution)).toBe('The call to tool "waiting" was cancelled before it finished, because the run was stopped. Do not retry it.');
    const before = await new ToolRegistry([waiting]).call({ id: 'c', name: 'waiting', arguments: {} }, { signal: controller.signal });
    expect(before.failure?.code).toBe('aborted');
  });

  it('checks structured output against the output schema', async () => {
    const typed = defineTool({
      name: 'typed',
      description: 'Typed output.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { good: { type: 'boolean' } } },
      outputSchema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
      execute: ({ good }: { good?: boolean }) => (good ? { total: 3 } : { total: 'three' }),
    });
    const registryWithTyped = new ToolRegistry([typed], { logger: silentLogger });
    expect((await registryWithTyped.call({ id: 'a', name: 'typed', arguments: { good: true } })).result.structuredContent).toEqual({ total: 3 });
    const bad = await registryWithTyped.call({ id: 'b', name: 'typed', arguments: { good: false } });
    expect(bad.failure?.code).toBe('invalid_output');
    expect(text(bad)).toContain('failed with an internal error');
  });

  it('reports values that JSON cannot carry as an internal failure', async () => {
    const cyclic = defineTool({
      name: 'cyclic',
      description: 'Returns a cycle.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return value;
      },
    });
    const execution = await new ToolRegistry([cyclic], { logger: silentLogger }).call({ id: 'c', name: 'cyclic', arguments: {} });
    expect(execution.failure?.code).toBe('invalid_output');
  });

  it('truncates oversized results and tells the model', async () => {
    const big = defineTool({
      name: 'big',
      description: 'Big.',
      effect: 'read',
      maxResultChars: 10,
      inputSchema: { type: 'object' },
      execute: () => 'x'.repeat(25),
    });
    const execution = await new ToolRegistry([big]).call({ id: 'c', name: 'big', arguments: {} });
    expect(execution.truncated).toBe(true);
    expect(text(execution)).toBe(
      'xxxxxxxxxx\n[Result truncated: it had 25 characters and only the first 10 are shown. If you need the rest, call again asking for less (filters, pagination).]',
    );
  });

  it('passes rich content through toolResult()', async () => {
    const image = defineTool({
      name: 'chart',
      description: 'A chart.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () =>
        toolResult({
          content: [
            { type: 'text', text: 'chart:' },
            { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          ],
        }),
    });
    const execution = await new ToolRegistry([image]).call({ id: 'c', name: 'chart', arguments: {} });
    expect(execution.result).toEqual({
      content: [
        { type: 'text', text: 'chart:' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ],
      isError: false,
    });
  });

  it('survives thousands of random argument payloads without throwing', async () => {
    const reg = registry();
    const samples = [
      '',
      '{',
      '}',
      'null',
      '[]',
      '"x"',
      '{"verb":',
      '{"verb":1e999}',
      '{"a":' + '['.repeat(500),
      '\u0000',
      '{"verb":"eat","tense":"past_simple","person":"3sg"}',
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const sample = samples[Math.floor(random() * samples.length)]!;
      const cut = sample.slice(0, Math.floor(random() * (sample.length + 1)));
      const execution = await reg.call({ id: String(i), name: random() < 0.9 ? 'conjugate' : 'nope', argumentsText: cut });
      expect(typeof text(execution)).toBe('string');
    }
  });
});

describe('ToolRegistry construction and lookup', () => {
  it('refuses duplicate names', () => {
    expect(() => new ToolRegistry([conjugate, conjugate])).toThrow(DuplicateToolError);
  });

  it('refuses a schema Ajv cannot compile, naming the tool', () => {
    const broken = defineTool({
      name: 'broken_schema',
      description: 'x',
      effect: 'read',
      inputSchema: { type: 'object', properties: { a: { type: 'strng' } } },
      execute: () => '',
    });
    expect(() => new ToolRegistry([broken])).toThrow(SchemaCompileError);
    expect(() => new ToolRegistry([broken])).toThrow(/Tool "broken_schema" schema does not compile/);
  });

  it('builds subsets that share validators and refuse unknown names', () => {
    const reg = registry();
    expect(reg.subset(['conjugate']).names()).toEqual(['conjugate']);
    expect(() => reg.subset(['nope'])).toThrow(ToolNotFoundError);
    expect(reg.require('conjugate')).toBe(conjugate);
    expect(() => reg.require('nope')).toThrow('No tool named "nope". Available tools: conjugate, update_user.');
  });

  it('prepares a call without running it', () => {
    const prepared = registry().prepare({ id: 'c', name: 'update_user', argumentsText: '{"user_id":"usr_abcd"}' });
    expect(prepared).toMatchObject({ success: true, arguments: { user_id: 'usr_abcd' } });
  });
});
