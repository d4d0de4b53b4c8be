/**
 * Tool search and allowed-tools narrowing on the wire: what the real SDKs send to the fake provider (deferred tools and
 * the provider's search tool, `allowed_tools`), how a server-side search comes back (plain and streamed) and is sent back
 * on the next request, toolwright's own search loading a tool the model then calls, and a policy-denied tool never loaded.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resumeAgent } from '../../src/agent/resume-agent.js';
import { runAgent } from '../../src/agent/run-agent.js';
import { streamAgent } from '../../src/agent/streaming/stream-agent.js';
import { TOOL_SEARCH_TOOL } from '../../src/agent/tool-search.js';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { fromAISDKModel } from '../../src/models/ai-sdk/index.js';
import { createModel } from '../../src/models/create-model.js';
import { createPolicy } from '../../src/policy/create-policy.js';
import type { ModelResponse } from '../../src/protocol/model-exchange.js';
import { defineTool, type AnyTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { startProviderServer, type ProviderServer } from './index.js';

const ran: string[] = [];
function tool(name: string, description: string, property: string): AnyTool {
  return defineTool<Record<string, string>>({
    name,
    description,
    effect: 'read',
    inputSchema: { type: 'object', properties: { [property]: { type: 'string' } }, required: [property], additionalProperties: false },
    execute: (args) => {
      ran.push(name);
      return `${name}: ${JSON.stringify(args)}`;
    },
  });
}
const getWeather = tool('get_weather', 'Current weather for a city.', 'city');
const refundInvoice = tool('refund_invoice', 'Refund a paid invoice to the customer.', 'invoice_id');
const listFiles = tool('list_files', 'List the files of a folder.', 'folder');
const deleteAccount = tool('delete_account', 'Delete a customer account and refund its open invoices.', 'account_id');
const TOOLS = [getWeather, refundInvoice, listFiles, deleteAccount];
const schemaOf = (property: string) => ({ type: 'object', properties: { [property]: { type: 'string' } }, required: [property], additionalProperties: false });
// The policy of every run here: delete_account matches a refund search, and must never be loaded.
const policy = () => createPolicy({ denyTools: ['delete_account'] });

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
  ran.length = 0;
});

const SEARCH_THEN_CALL = [
  {
    toolSearch: { id: '1', query: 'refund invoice', found: ['refund_invoice'] },
    toolCalls: [{ id: 'call_r', name: 'refund_invoice', arguments: { invoice_id: 'INV-7' } }],
    chunkSize: 6,
  },
  { text: 'Refunded.' },
];

async function runBoth(spec: string, base: () => string, streamed: boolean) {
  server.enqueue(...SEARCH_THEN_CALL);
  const options = {
    model: createModel(spec, { apiKey: 'test-key', baseURL: base() }),
    tools: TOOLS,
    prompt: 'Refund invoice INV-7.',
    policy: policy(),
    toolSearch: { alwaysLoaded: ['get_weather'] },
    recordDir: false as const,
    logger: silentLogger,
  };
  if (!streamed) return runAgent(options);
  const run = streamAgent(options);
  for await (const _event of run);
  return run.result;
}

describe('Anthropic native tool search', () => {
  it.each([false, true])('declares deferred tools and the BM25 search tool, parses the search (streamed: %s) and sends it back', async (streamed) => {
    const result = await runBoth('anthropic:claude-test', () => server.anthropicBaseURL, streamed);
    expect(result.status).toBe('completed');
    expect(ran).toEqual(['refund_invoice']);
    const [first, second] = server.requests;
    expect(first!.body.tools).toEqual([
      { name: 'get_weather', description: 'Current weather for a city.', input_schema: schemaOf('city') },
      { name: 'refund_invoice', description: 'Refund a paid invoice to the customer.', input_schema: schemaOf('invoice_id'), defer_loading: true },
      { name: 'list_files', description: 'List the files of a folder.', input_schema: schemaOf('folder'), defer_loading: true },
      { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
    ]);
    expect(first!.headers['anthropic-beta']).toBeUndefined();
    // The same declaration at every step: the provider, not the tool list, loads what the search found.
    expect(second!.body.tools).toEqual(first!.body.tools);
    expect(second!.body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'server_tool_use', id: '1', name: 'tool_search_tool_bm25', input: { query: 'refund invoice' }, caller: { type: 'direct' } },
        {
          type: 'tool_search_tool_result',
          tool_use_id: '1',
          content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'refund_invoice' }] },
        },
        { type: 'tool_use', id: 'call_r', name: 'refund_invoice', input: { invoice_id: 'INV-7' } },
      ],
    });
  });

  it('declares the regex search tool when asked', async () => {
    server.enqueue({ text: 'ok' });
    const model = createModel('anthropic:claude-test', { apiKey: 'test-key', baseURL: server.anthropicBaseURL });
    await runAgent({ model, tools: TOOLS, prompt: 'hi', toolSearch: { anthropicSearch: 'regex' }, recordDir: false, logger: silentLogger });
    expect(server.requests[0]!.body.tools.at(-1)).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
    expect(server.requests[0]!.body.tools.slice(0, -1).every((declared: { defer_loading?: boolean }) => declared.defer_loading === true)).toBe(true);
  });

  it('keeps the search blocks of a plain and a streamed response alike', async () => {
    const model = createModel('anthropic:claude-test', { apiKey: 'test-key', baseURL: server.anthropicBaseURL });
    const request = { messages: [{ role: 'user' as const, content: 'Refund INV-7' }], tools: TOOLS, toolSearch: { deferred: ['refund_invoice'] } };
    server.enqueue(SEARCH_THEN_CALL[0]!, SEARCH_THEN_CALL[0]!);
    const plain = await model.generate(request);
    let streamed: ModelResponse | undefined;
    for await (const event of model.stream(request)) if (event.type === 'end') streamed = event.response;
    for (const response of [plain, streamed!]) {
      expect(response.content).toMatchObject([{ type: 'tool-call', id: 'call_r', name: 'refund_invoice', arguments: { invoice_id: 'INV-7' } }]);
      expect(response.providerItems?.provider).toBe('anthropic');
      expect(response.providerItems?.items.map((kept) => [kept.before, (kept.item as { type: string }).type])).toEqual([
        [0, 'server_tool_use'],
        [0, 'tool_search_tool_result'],
      ]);
    }
    expect(streamed!.providerItems).toEqual(plain.providerItems);
  });
});

describe('OpenAI Responses native tool search', () => {
  it.each([false, true])('declares deferred function tools and tool_search, parses the search (streamed: %s) and sends it back', async (streamed) => {
    const result = await runBoth('openai-responses:gpt-test', () => server.openaiBaseURL, streamed);
    expect(result.status).toBe('completed');
    expect(ran).toEqual(['refund_invoice']);
    const [first, second] = server.requests;
    expect(
      first!.body.tools.map((declared: { type: string; name?: string; defer_loading?: boolean }) => [declared.type, declared.name, declared.defer_loading]),
    ).toEqual([
      ['function', 'get_weather', undefined],
      ['function', 'refund_invoice', true],
      ['function', 'list_files', true],
      ['tool_search', undefined, undefined],
    ]);
    expect(first!.body.tools.at(-1)).toEqual({ type: 'tool_search', execution: 'server' });
    expect(second!.body.tools).toEqual(first!.body.tools);
    const refund = first!.body.tools[1];
    expect(second!.body.input.slice(1)).toEqual([
      { type: 'tool_search_call', id: 'tsc_1', call_id: 'tsc_call_1', arguments: { query: 'refund invoice' }, execution: 'server', status: 'completed' },
      { type: 'tool_search_output', id: 'tso_1', call_id: 'tsc_call_1', execution: 'server', status: 'completed', tools: [refund] },
      { type: 'function_call', call_id: 'call_r', name: 'refund_invoice', arguments: '{"invoice_id":"INV-7"}' },
      { type: 'function_call_output', call_id: 'call_r', output: 'refund_invoice: {"invoice_id":"INV-7"}' },
    ]);
  });
});

describe("OpenAI Responses tool search run by the client (openAIExecution: 'client')", () => {
  it.each([false, true])(
    'declares tool_search with execution client, runs toolwright search on its call (streamed: %s) and answers with tool_search_output',
    async (streamed) => {
      server.enqueue(
        { toolSearch: { id: 'c', query: 'refund invoice', found: [], execution: 'client' } },
        { toolCalls: [{ id: 'call_r', name: 'refund_invoice', arguments: { invoice_id: 'INV-7' } }] },
        { text: 'Refunded.' },
      );
      const options = {
        model: createModel('openai-responses:gpt-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL }),
        tools: TOOLS,
        prompt: 'Refund invoice INV-7.',
        policy: policy(),
        toolSearch: { openAIExecution: 'client' as const, maxResults: 1 },
        recordDir: false as const,
        logger: silentLogger,
      };
      let status: string;
      if (streamed) {
        const run = streamAgent(options);
        for await (const _event of run);
        status = (await run.result).status;
      } else status = (await runAgent(options)).status;
      expect(status).toBe('completed');
      expect(ran).toEqual(['refund_invoice']);
      const [first, second, third] = server.requests;
      const searchDeclaration = first!.body.tools[0];
      expect(searchDeclaration).toEqual({
        type: 'tool_search',
        execution: 'client',
        description: expect.stringContaining('Find the tools you need'),
        parameters: expect.objectContaining({ required: ['query'] }),
      });
      expect(first!.body.tools.slice(1).map((declared: any) => [declared.name, declared.defer_loading])).toEqual([
        ['get_weather', true],
        ['refund_invoice', true],
        ['list_files', true],
      ]);
      const refund = first!.body.tools[2];
      expect(second!.body.input.slice(1)).toEqual([
        { type: 'tool_search_call', call_id: 'tsc_call_c', execution: 'client', status: 'completed', arguments: { query: 'refund invoice' } },
        { type: 'tool_search_output', call_id: 'tsc_call_c', execution: 'client', status: 'completed', tools: [refund] },
      ]);
      expect(third!.body.tools).toEqual(first!.body.tools);
    },
  );
});

describe("toolwright's own search (providers without native search, or engine: 'toolwright')", () => {
  it.each([
    ['OpenAI Chat Completions', 'openai:gpt-test', {}],
    ['OpenAI Responses with engine toolwright', 'openai-responses:gpt-test', { engine: 'toolwright' as const }],
  ])('%s: the search loads the matching tools the policy allows, and the model then calls one', async (_name, spec, engine) => {
    server.enqueue(
      { toolCalls: [{ id: 'call_s', name: TOOL_SEARCH_TOOL, arguments: { query: 'refund invoice' } }] },
      { toolCalls: [{ id: 'call_r', name: 'refund_invoice', arguments: { invoice_id: 'INV-7' } }] },
      { text: 'Refunded.' },
    );
    const result = await runAgent({
      model: createModel(spec, { apiKey: 'test-key', baseURL: server.openaiBaseURL }),
      tools: TOOLS,
      prompt: 'Refund invoice INV-7.',
      policy: policy(),
      toolSearch: { ...engine, alwaysLoaded: ['get_weather'] },
      recordDir: false,
      logger: silentLogger,
    });
    expect(result.status).toBe('completed');
    expect(ran).toEqual(['refund_invoice']);
    const declared = server.requests.map((sent) => sent.body.tools.map((entry: any) => entry.function?.name ?? entry.name));
    expect(declared).toEqual([
      [TOOL_SEARCH_TOOL, 'get_weather'],
      [TOOL_SEARCH_TOOL, 'get_weather', 'refund_invoice'],
      [TOOL_SEARCH_TOOL, 'get_weather', 'refund_invoice'],
    ]);
    // The search result the model read: the denied delete_account (which also mentions refunds) is not in it.
    const searchOutcome = result.steps.flatMap((step) => step.toolCalls).find((call) => call.toolName === TOOL_SEARCH_TOOL)!;
    expect(searchOutcome.result.structuredContent).toEqual({ tools: ['refund_invoice'] });
  });

  it('a found write tool waits for its confirmation, and stays loaded after the resume', async () => {
    const refundWrite = defineTool<{ invoice_id: string }>({
      name: 'refund_invoice',
      description: 'Refund a paid invoice to the customer.',
      effect: 'write',
      confirm: true,
      inputSchema: schemaOf('invoice_id'),
      execute: () => {
        ran.push('refund_invoice');
        return 'refunded';
      },
    });
    const tools = [getWeather, refundWrite, listFiles];
    const options = () => ({
      model: createModel('openai:gpt-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL }),
      tools,
      toolSearch: {},
      recordDir: false as const,
      logger: silentLogger,
    });
    server.enqueue(
      { toolCalls: [{ id: 'call_s', name: TOOL_SEARCH_TOOL, arguments: { query: 'refund invoice' } }] },
      { toolCalls: [{ id: 'call_r', name: 'refund_invoice', arguments: { invoice_id: 'INV-7' } }] },
      { text: 'Refunded.' },
    );
    const paused = await runAgent({ ...options(), prompt: 'Refund invoice INV-7.' });
    expect(paused.status).toBe('awaiting_confirmation');
    expect(ran).toEqual([]);
    if (paused.status !== 'awaiting_confirmation') return;
    const resumed = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], options());
    expect(resumed.status).toBe('completed');
    expect(ran).toEqual(['refund_invoice']);
    expect(server.requests.at(-1)!.body.tools.map((entry: any) => entry.function.name)).toEqual([TOOL_SEARCH_TOOL, 'refund_invoice']);
  });

  it('a policy-denied tool is never found, and a call to it is refused without running', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'call_s', name: TOOL_SEARCH_TOOL, arguments: { query: 'delete account' } }] },
      { toolCalls: [{ id: 'call_d', name: 'delete_account', arguments: { account_id: 'A1' } }] },
      { text: 'Could not.' },
    );
    const result = await runAgent({
      model: createModel('openai:gpt-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL }),
      tools: TOOLS,
      prompt: 'Delete account A1.',
      policy: policy(),
      toolSearch: {},
      recordDir: false,
      logger: silentLogger,
    });
    expect(ran).toEqual([]);
    expect(result.steps.flatMap((step) => step.toolCalls).find((call) => call.toolName === TOOL_SEARCH_TOOL)!.result.structuredContent).toEqual({ tools: [] });
    expect(server.requests.every((sent) => !JSON.stringify(sent.body.tools).includes('delete_account'))).toBe(true);
    const refused = result.steps.flatMap((step) => step.toolCalls).find((call) => call.toolName === 'delete_account')!;
    expect(refused.result.isError).toBe(true);
  });

  it('a policy-denied tool is not declared to a provider that searches natively either', async () => {
    server.enqueue({ text: 'ok' });
    await runAgent({
      model: createModel('anthropic:claude-test', { apiKey: 'test-key', baseURL: server.anthropicBaseURL }),
      tools: TOOLS,
      prompt: 'Delete account A1.',
      policy: policy(),
      toolSearch: {},
      recordDir: false,
      logger: silentLogger,
    });
    expect(server.requests[0]!.body.tools.map((declared: { name: string }) => declared.name)).toEqual([
      'get_weather',
      'refund_invoice',
      'list_files',
      'tool_search_tool_bm25',
    ]);
  });
});

describe('allowed-tools narrowing', () => {
  const request = {
    messages: [{ role: 'user' as const, content: 'Weather?' }],
    tools: TOOLS,
    allowedTools: ['get_weather', 'list_files'],
    toolChoice: 'auto' as const,
  };

  it('OpenAI Chat: the full tool list and tool_choice allowed_tools', async () => {
    server.enqueue({ text: 'ok' });
    const response = await createModel('openai:gpt-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL }).generate(request);
    const body = server.requests[0]!.body;
    expect(body.tools.map((declared: any) => declared.function.name)).toEqual(['get_weather', 'refund_invoice', 'list_files', 'delete_account']);
    expect(body.tool_choice).toEqual({
      type: 'allowed_tools',
      allowed_tools: {
        mode: 'auto',
        tools: [
          { type: 'function', function: { name: 'get_weather' } },
          { type: 'function', function: { name: 'list_files' } },
        ],
      },
    });
    expect(response.warnings ?? []).toEqual([]);
  });

  it('OpenAI Responses: the full tool list and tool_choice allowed_tools (mode required)', async () => {
    server.enqueue({ text: 'ok' });
    await createModel('openai-responses:gpt-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL }).generate({ ...request, toolChoice: 'required' });
    const body = server.requests[0]!.body;
    expect(body.tools.map((declared: any) => declared.name)).toEqual(['get_weather', 'refund_invoice', 'list_files', 'delete_account']);
    expect(body.tool_choice).toEqual({
      type: 'allowed_tools',
      mode: 'required',
      tools: [
        { type: 'function', name: 'get_weather' },
        { type: 'function', name: 'list_files' },
      ],
    });
  });

  it('Anthropic has no allowed-tools field: only the allowed tools are declared, with a warning', async () => {
    server.enqueue({ text: 'ok' });
    const response = await createModel('anthropic:claude-test', { apiKey: 'test-key', baseURL: server.anthropicBaseURL }).generate(request);
    expect(server.requests[0]!.body.tools.map((declared: any) => declared.name)).toEqual(['get_weather', 'list_files']);
    expect(response.warnings).toEqual([expect.objectContaining({ type: 'rewritten', provider: 'anthropic', feature: 'allowed-tools' })]);
  });

  it("routing with narrow: 'allowed_tools' keeps the tool list and allows the routed category's tools", async () => {
    const categorized = [
      defineTool({ ...getWeather, category: 'weather' }),
      defineTool({ ...refundInvoice, category: 'billing' }),
      defineTool({ ...listFiles, category: 'files' }),
    ];
    server.enqueue({ toolCalls: [{ name: 'select_tool_category', arguments: { category: 'billing' } }] }, { text: 'ok' });
    await runAgent({
      model: createModel('openai:gpt-test', { apiKey: 'test-key', baseURL: server.openaiBaseURL }),
      tools: categorized,
      prompt: 'Refund INV-7',
      routing: { categories: ['weather', 'billing', 'files'], narrow: 'allowed_tools' },
      recordDir: false,
      logger: silentLogger,
    });
    const [routingCall, step] = server.requests.map((request) => request.body);
    // The routing call declares the same list as every later step, byte for byte, so the prompt it cached is read from step 1.
    expect(step.tools.map((declared: any) => declared.function.name)).toEqual(['get_weather', 'refund_invoice', 'list_files', 'select_tool_category']);
    expect(JSON.stringify(routingCall.tools)).toBe(JSON.stringify(step.tools));
    expect(routingCall.tool_choice).toEqual({ type: 'function', function: { name: 'select_tool_category' } });
    expect(step.tool_choice).toEqual({
      type: 'allowed_tools',
      allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'refund_invoice' } }] },
    });
  });

  it("routing with narrow: 'allowed_tools' on Anthropic declares only the routed tools (no allowed-tools field), with a warning", async () => {
    const categorized = [defineTool({ ...getWeather, category: 'weather' }), defineTool({ ...refundInvoice, category: 'billing' })];
    server.enqueue({ toolCalls: [{ name: 'select_tool_category', arguments: { category: 'billing' } }] }, { text: 'ok' });
    const warnings: unknown[] = [];
    await runAgent({
      model: createModel('anthropic:claude-test', { apiKey: 'test-key', baseURL: server.anthropicBaseURL }),
      tools: categorized,
      prompt: 'Refund INV-7',
      routing: { categories: ['weather', 'billing'], narrow: 'allowed_tools' },
      recordDir: false,
      logger: silentLogger,
      onEvent: (event) => {
        if (event.type === 'model_response') warnings.push(...(event.response.warnings ?? []));
      },
    });
    const [routingCall, step] = server.requests.map((request) => request.body);
    expect(routingCall.tools.map((declared: any) => declared.name)).toEqual(['select_tool_category']);
    expect(step.tools.map((declared: any) => declared.name)).toEqual(['refund_invoice']);
    expect(warnings).toEqual([
      expect.objectContaining({ type: 'rewritten', provider: 'anthropic', feature: 'allowed-tools' }),
      expect.objectContaining({ type: 'rewritten', provider: 'anthropic', feature: 'allowed-tools' }),
    ]);
  });

  it('an AI SDK model (Gemini through @ai-sdk/google) has no allowed-tools field: only the allowed tools are declared, with a warning', async () => {
    server.enqueue({ text: 'ok' });
    const gemini = fromAISDKModel(createGoogleGenerativeAI({ baseURL: server.geminiBaseURL, apiKey: 'test-key' })('gemini-test'));
    const response = await gemini.generate({ ...request, toolSearch: { deferred: ['list_files'] } });
    const declared = server.requests[0]!.body.tools.flatMap((entry: any) => entry.functionDeclarations.map((fn: any) => fn.name));
    expect(declared).toEqual(['get_weather', 'list_files']);
    expect(response.warnings).toEqual([
      expect.objectContaining({ type: 'rewritten', provider: 'ai-sdk', feature: 'allowed-tools' }),
      expect.objectContaining({ type: 'unsupported', provider: 'ai-sdk', feature: 'tool-search' }),
    ]);
  });
});
