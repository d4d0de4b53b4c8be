/**
 * Grammar tools (`defineTool({ input: { grammar } })`) on every provider, through the real SDKs and the fake
 * provider server: OpenAI Responses declares a `custom` tool with the grammar and answers its `custom_tool_call`
 * with a `custom_tool_call_output`; the providers without grammar tools get the one-string-property object and a
 * warning; and a run validates the text with the regex before the tool sees it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/mcp/create-mcp-server.js';
import { runAgent } from '../../src/agent/run-agent.js';
import { streamAgent } from '../../src/agent/streaming/stream-agent.js';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { fromAISDKModel } from '../../src/models/ai-sdk/index.js';
import { createModel } from '../../src/models/create-model.js';
import type { ModelStreamEvent } from '../../src/protocol/model-exchange.js';
import { toolCallsOf } from '../../src/protocol/model-exchange.js';
import { defineTool, silentLogger } from '../../src/tools/index.js';
import { type ProviderServer } from './index.js';
import { useProviderServer } from './use-provider-server.js';

let server: ProviderServer;
useProviderServer((started) => (server = started));

const DATE = '\\d{4}-\\d{2}-\\d{2}';
const received: string[] = [];
const setDueDate = defineTool({
  name: 'set_due_date',
  description: 'Sets the due date.',
  effect: 'read',
  input: { grammar: { syntax: 'regex', definition: DATE } },
  execute: (text) => {
    received.push(text);
    return `due ${text}`;
  },
});
const LARK = 'start: NUMBER ("+" NUMBER)*\n%import common.NUMBER';
const add = defineTool({
  name: 'add',
  description: 'Adds numbers.',
  effect: 'read',
  input: { grammar: { syntax: 'lark', definition: LARK } },
  execute: (text) => text,
});
const objectForm = {
  type: 'object',
  properties: {
    input: { type: 'string', description: `The input text; the whole text must match the regular expression /${DATE}/.`, pattern: `^(?:${DATE})$` },
  },
  required: ['input'],
  additionalProperties: false,
};

const responses = () => createModel('openai:gpt-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL, api: 'responses' });

describe('OpenAI Responses: custom tools', () => {
  it('declares a grammar tool as a custom tool with its grammar, named in tool_choice as custom, with no warning', async () => {
    server.enqueue({ text: 'ok' });
    const response = await responses().generate({
      messages: [{ role: 'user', content: 'Due next Friday.' }],
      tools: [setDueDate, add],
      toolChoice: { tool: 'set_due_date' },
    });
    const body = server.requests[0]!.body;
    expect(body.tools).toEqual([
      { type: 'custom', name: 'set_due_date', description: 'Sets the due date.', format: { type: 'grammar', syntax: 'regex', definition: DATE } },
      { type: 'custom', name: 'add', description: 'Adds numbers.', format: { type: 'grammar', syntax: 'lark', definition: LARK } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'custom', name: 'set_due_date' });
    expect(response.warnings ?? []).toEqual([]);
  });

  it('reads a custom_tool_call as a call whose input is the raw text, plain and streamed', async () => {
    const turn = { toolCalls: [{ id: 'call_9', name: 'set_due_date', arguments: '2026-12-11', custom: true }], chunkSize: 4 };
    server.enqueue(turn, turn);
    const request = { messages: [{ role: 'user' as const, content: 'Due next Friday.' }], tools: [setDueDate] };
    const plain = await responses().generate(request);
    const expected = { type: 'tool-call', id: 'call_9', name: 'set_due_date', arguments: { input: '2026-12-11' }, freeformInput: '2026-12-11' };
    expect(toolCallsOf(plain)).toEqual([expected]);
    expect(plain.stopReason).toBe('tool_calls');

    const events: ModelStreamEvent[] = [];
    for await (const event of responses().stream(request)) events.push(event);
    const end = events.at(-1);
    expect(end?.type === 'end' && toolCallsOf(end.response)).toEqual([expected]);
    expect(events.find((event) => event.type === 'tool-call-end')).toEqual({ type: 'tool-call-end', index: 0, call: expected });
    const deltas = events.flatMap((event) => (event.type === 'tool-call-delta' ? [event.argumentsDelta] : []));
    expect(deltas).toEqual(['2026', '-12-', '11']);
    expect(events.filter((event) => event.type === 'tool-call-delta').at(-1)).toMatchObject({ partialArguments: { input: '2026-12-11' } });
    expect(events.find((event) => event.type === 'tool-call-start')).toEqual({ type: 'tool-call-start', index: 0, id: 'call_9', name: 'set_due_date' });
  });

  it('runs the tool on a matching text, tells the model about a text outside the grammar, and replays both as custom items', async () => {
    received.length = 0;
    server.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'set_due_date', arguments: 'next Friday', custom: true }] },
      { toolCalls: [{ id: 'call_2', name: 'set_due_date', arguments: '2026-12-11', custom: true }] },
      { text: 'Done.' },
    );
    const result = await runAgent({ model: responses(), tools: [setDueDate], prompt: 'Due next Friday.', recordDir: false, logger: silentLogger });
    expect(result.status).toBe('completed');
    expect(received).toEqual(['2026-12-11']);
    const input = server.requests[2]!.body.input;
    expect(input[1]).toEqual({ type: 'custom_tool_call', call_id: 'call_1', name: 'set_due_date', input: 'next Friday' });
    expect(input[2]).toMatchObject({ type: 'custom_tool_call_output', call_id: 'call_1' });
    expect(input[2].output).toBe(
      'The input for tool "set_due_date" is outside its grammar: the whole text must match the regular expression /\\d{4}-\\d{2}-\\d{2}/ (got the string "next Friday"). Call "set_due_date" again with text that matches it.',
    );
    expect(input[3]).toEqual({ type: 'custom_tool_call', call_id: 'call_2', name: 'set_due_date', input: '2026-12-11' });
    expect(input[4]).toEqual({ type: 'custom_tool_call_output', call_id: 'call_2', output: 'due 2026-12-11' });
  });
});

const regexWarning = {
  type: 'rewritten',
  feature: 'grammar-tool',
  path: '',
  details:
    'the provider has no grammar tools: the tool is sent as an object with one string property `input` whose `pattern` is the regex anchored at both ends; toolwright validates the text against it',
  tool: 'set_due_date',
};
const larkWarning = {
  type: 'unsupported',
  feature: 'grammar-tool',
  path: '',
  details:
    'the provider has no grammar tools: the tool is sent as an object with one string property `input` with the Lark grammar in its description; nobody enforces the Lark grammar, so any string within the argument limits is accepted',
  tool: 'add',
};

describe('Anthropic Messages: the object form, with a warning', () => {
  const anthropic = () => createModel('anthropic:claude-test', { apiKey: 'test-key', baseURL: server.anthropicBaseURL });

  it('declares the one-string-property schema and warns for each grammar tool', async () => {
    server.enqueue({ text: 'ok' });
    const response = await anthropic().generate({ messages: [{ role: 'user', content: 'Due next Friday.' }], tools: [setDueDate, add] });
    expect(server.requests[0]!.body.tools).toEqual([
      { name: 'set_due_date', description: 'Sets the due date.', input_schema: objectForm },
      { name: 'add', description: 'Adds numbers.', input_schema: add.inputSchema },
    ]);
    expect(response.warnings).toEqual([
      { ...regexWarning, provider: 'anthropic' },
      { ...larkWarning, provider: 'anthropic' },
    ]);
  });

  it('validates the text of a tool_use against the regex before the tool runs', async () => {
    received.length = 0;
    server.enqueue(
      { toolCalls: [{ id: 'toolu_1', name: 'set_due_date', arguments: { input: '11/12/2026' } }] },
      { toolCalls: [{ id: 'toolu_2', name: 'set_due_date', arguments: { input: '2026-12-11' } }] },
      { text: 'Done.' },
    );
    const result = await runAgent({ model: anthropic(), tools: [setDueDate], prompt: 'Due next Friday.', recordDir: false, logger: silentLogger });
    expect(result.status).toBe('completed');
    expect(received).toEqual(['2026-12-11']);
    const firstResult = server.requests[1]!.body.messages.at(-1).content[0];
    expect(firstResult).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true });
    expect(firstResult.content[0].text).toContain(
      'is outside its grammar: the whole text must match the regular expression /\\d{4}-\\d{2}-\\d{2}/ (got the string "11/12/2026")',
    );
  });
});

describe('an AI SDK model (@ai-sdk/google): the object form, with a warning', () => {
  it('declares the one-string-property schema and warns', async () => {
    server.enqueue({ text: 'ok' });
    const model = fromAISDKModel(createGoogleGenerativeAI({ baseURL: server.geminiBaseURL, apiKey: 'test-key' })('gemini-test'));
    const response = await model.generate({ messages: [{ role: 'user', content: 'Due next Friday.' }], tools: [setDueDate] });
    const declaration = server.requests[0]!.body.tools[0].functionDeclarations[0];
    expect(declaration).toEqual({ name: 'set_due_date', description: 'Sets the due date.', parametersJsonSchema: objectForm });
    expect(response.warnings).toEqual([{ ...regexWarning, provider: 'ai-sdk' }]);
  });
});

describe('OpenAI Chat Completions: a function over the object form, with a warning', () => {
  const chat = (strictTools = false) => createModel('openai:gpt-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL, strictTools });
  const chatWhy = 'Chat Completions streams no documented custom tool calls (ChatCompletionChunk carries function calls only)';

  it.each([false, true])('declares the object form (strictTools %s) and warns', async (strictTools) => {
    server.enqueue({ text: 'ok' });
    const response = await chat(strictTools).generate({ messages: [{ role: 'user', content: 'Due next Friday.' }], tools: [setDueDate] });
    const declared = server.requests[0]!.body.tools;
    expect(declared).toEqual([
      {
        type: 'function',
        function: { name: 'set_due_date', description: 'Sets the due date.', parameters: objectForm, ...(strictTools ? { strict: true } : {}) },
      },
    ]);
    expect(response.warnings).toEqual([
      {
        ...regexWarning,
        provider: strictTools ? 'openai-strict' : 'openai',
        details: regexWarning.details.replace('the provider has no grammar tools', chatWhy),
      },
    ]);
  });

  it('validates the text of a streamed call against the regex before the tool runs', async () => {
    received.length = 0;
    server.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'set_due_date', arguments: { input: '2026-12-11 ' } }] },
      { toolCalls: [{ id: 'call_2', name: 'set_due_date', arguments: { input: '2026-12-11' } }] },
      { text: 'Done.' },
    );
    const run = streamAgent({ model: chat(), tools: [setDueDate], prompt: 'Due next Friday.', recordDir: false, logger: silentLogger });
    for await (const _event of run);
    expect((await run.result).status).toBe('completed');
    expect(received).toEqual(['2026-12-11']);
    expect(server.requests[1]!.body.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    expect(server.requests[1]!.body.messages.at(-1).content).toContain('got the string "2026-12-11 "');
  });
});

describe('MCP: the object form in tools/list, validated on tools/call', () => {
  it('lists the one-string-property schema and refuses a text outside the regex', async () => {
    const mcp = createMcpServer([setDueDate], { logger: silentLogger });
    const client = new Client({ name: 'grammar-test', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    await client.connect(clientSide);
    try {
      const listed = await client.listTools();
      expect(listed.tools.map((tool) => [tool.name, tool.inputSchema])).toEqual([['set_due_date', objectForm]]);
      const refused = await client.callTool({ name: 'set_due_date', arguments: { input: 'tomorrow' } });
      expect(refused.isError).toBe(true);
      const accepted = await client.callTool({ name: 'set_due_date', arguments: { input: '2026-12-11' } });
      expect(accepted).toMatchObject({ isError: false, content: [{ type: 'text', text: 'due 2026-12-11' }] });
    } finally {
      await client.close();
    }
  });
});
