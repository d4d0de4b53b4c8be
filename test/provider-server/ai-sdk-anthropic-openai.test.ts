/**
 * `fromAISDKModel` over the AI SDK's own Anthropic and OpenAI provider packages (`@ai-sdk/anthropic`, `@ai-sdk/openai`
 * Chat and Responses) against the fake provider server: for each option of docs/providers.md's "AI SDK models" table, the
 * exact request body the package sent (prompt caching, strict tools, input examples, parallel tool calls, allowed tools,
 * tool search, reasoning replay), and the cache counts of its usage, plain and streamed, through `runAgent` and `streamAgent`.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAgent, type RunAgentOptions } from '../../src/agent/run-agent.js';
import { streamAgent } from '../../src/agent/streaming/stream-agent.js';
import { TOOL_SEARCH_TOOL } from '../../src/agent/tool-search.js';
import { fromAISDKModel, type AISDKModelOptions } from '../../src/models/ai-sdk/index.js';
import type { Model } from '../../src/models/types.js';
import type { ModelRequest } from '../../src/protocol/model-exchange.js';
import { createPolicy } from '../../src/policy/create-policy.js';
import { defineTool, type AnyTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { startProviderServer, type FakeReply, type ProviderServer } from './index.js';
import { useProviderServer } from './use-provider-server.js';

let server: ProviderServer;
useProviderServer((started) => (server = started));

const citySchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } as const;
const getWeather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: citySchema,
  examples: [{ city: 'Paris' }],
  execute: ({ city }) => `${city}: sunny`,
});
const getTime = defineTool<{ city: string }>({
  name: 'get_time',
  description: 'Local time in a city.',
  effect: 'read',
  inputSchema: citySchema,
  strict: true,
  execute: ({ city }) => `${city}: 12:00`,
});
const TOOLS = [getWeather, getTime];

/** A conversation after one call, so that the last message is a tool result. */
const ask: ModelRequest = {
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' }, argumentsText: '{"city":"Paris"}' }] },
    {
      role: 'tool',
      results: [{ callId: 'call_1', toolName: 'get_weather', result: { content: [{ type: 'text', text: 'Paris: sunny' }], isError: false } }],
    },
  ],
  tools: TOOLS,
  maxOutputTokens: 100,
};

const anthropic = (options: AISDKModelOptions = {}): Model =>
  fromAISDKModel(createAnthropic({ baseURL: `${server.anthropicBaseURL}/v1`, apiKey: 'k' })('claude-sonnet-4-5'), { maxRetries: 0, ...options });
const chat = (options: AISDKModelOptions = {}): Model =>
  fromAISDKModel(createOpenAI({ baseURL: server.openaiBaseURL, apiKey: 'k' }).chat('gpt-test'), { maxRetries: 0, ...options });
const responses = (options: AISDKModelOptions = {}): Model =>
  fromAISDKModel(createOpenAI({ baseURL: server.openaiBaseURL, apiKey: 'k' }).responses('gpt-test'), { maxRetries: 0, ...options });

async function sent(model: Model, request: ModelRequest) {
  server.enqueue({ text: 'ok' });
  const response = await model.generate(request);
  return { body: server.requests.at(-1)!.body, headers: server.requests.at(-1)!.headers, warnings: response.warnings ?? [] };
}

/** The run of `options`, by `runAgent` or (draining every event) by `streamAgent`. */
async function drive(how: 'runAgent' | 'streamAgent', options: RunAgentOptions) {
  if (how === 'runAgent') return runAgent(options);
  const run = streamAgent(options);
  for await (const _event of run);
  return run.result;
}

const EPHEMERAL = { type: 'ephemeral' };
const anthropicMessages = (lastBlockExtra: object = {}) => [
  { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'Paris: sunny', ...lastBlockExtra }] },
];
const openAIChatMessages = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: 'Paris: sunny' },
];
const openAIResponsesInput = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
  { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
  { type: 'function_call_output', call_id: 'call_1', output: 'Paris: sunny' },
];
/** What the AI SDK's `addToolInputExamplesMiddleware` would make of get_weather's example, as toolwright folds it. */
const weatherWithExamples = 'Current weather for a city.\n\nInput Examples:\n{"city":"Paris"}';

describe('@ai-sdk/anthropic (Anthropic Messages)', () => {
  it("cache: 'auto': cache_control on the last tool, the system prompt and the last block; the cache key is not sent", async () => {
    const { body } = await sent(anthropic(), { ...ask, cache: 'auto', cacheKey: 'run_1' });
    expect(body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      system: [{ type: 'text', text: 'You are terse.', cache_control: EPHEMERAL }],
      messages: anthropicMessages({ cache_control: EPHEMERAL }),
      tools: [
        { name: 'get_weather', description: 'Current weather for a city.', input_schema: citySchema, input_examples: [{ city: 'Paris' }] },
        { name: 'get_time', description: 'Local time in a city.', input_schema: citySchema, strict: true, cache_control: EPHEMERAL },
      ],
    });
    // Three breakpoints, under Anthropic's limit of four.
    expect(JSON.stringify(body).split('"cache_control"').length - 1).toBe(3);
  });

  it('without cache the body has no breakpoint', async () => {
    const { body } = await sent(anthropic(), ask);
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });

  it("strict and examples: the tool's strict: true and input_examples, with the package's beta headers", async () => {
    const { body, headers } = await sent(anthropic({ strictTools: true }), ask);
    expect(body.tools).toEqual([
      { name: 'get_weather', description: 'Current weather for a city.', input_schema: citySchema, strict: true, input_examples: [{ city: 'Paris' }] },
      { name: 'get_time', description: 'Local time in a city.', input_schema: citySchema, strict: true },
    ]);
    expect(String(headers['anthropic-beta']).split(',').sort()).toEqual(['advanced-tool-use-2025-11-20', 'structured-outputs-2025-11-13']);
  });

  it('the structured-outputs beta header goes with any request that declares tools, strict or not', async () => {
    const { headers } = await sent(anthropic(), { messages: [{ role: 'user', content: 'Hi' }], tools: [defineTool({ ...getTime, strict: false })] });
    expect(headers['anthropic-beta']).toBe('structured-outputs-2025-11-13');
  });

  it('parallelToolCalls: false: disable_parallel_tool_use inside tool_choice, with no warning', async () => {
    const { body, warnings } = await sent(anthropic(), { ...ask, parallelToolCalls: false });
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(warnings).toEqual([]);
    const forced = await sent(anthropic(), { ...ask, parallelToolCalls: false, toolChoice: { tool: 'get_time' } });
    expect(forced.body.tool_choice).toEqual({ type: 'tool', name: 'get_time', disable_parallel_tool_use: true });
  });

  it('allowed tools: no such field, so only the allowed tools are declared, with a warning', async () => {
    const { body, warnings } = await sent(anthropic(), { ...ask, allowedTools: ['get_time'] });
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['get_time']);
    expect(body.tool_choice).toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ type: 'rewritten', provider: 'ai-sdk', feature: 'allowed-tools' })]);
  });
});

describe('@ai-sdk/openai Chat Completions (.chat)', () => {
  it("cache: 'auto': prompt_cache_key is the request's cacheKey; strict: true on the strict tool; the examples in the description", async () => {
    const { body, warnings } = await sent(chat(), { ...ask, cache: 'auto', cacheKey: 'run_1' });
    expect(body).toEqual({
      model: 'gpt-test',
      max_tokens: 100,
      prompt_cache_key: 'run_1',
      messages: openAIChatMessages,
      tools: [
        { type: 'function', function: { name: 'get_weather', description: weatherWithExamples, parameters: citySchema } },
        { type: 'function', function: { name: 'get_time', description: 'Local time in a city.', parameters: citySchema, strict: true } },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it('without cache there is no cache key', async () => {
    const { body } = await sent(chat(), { ...ask, cacheKey: 'run_1' });
    expect(body.prompt_cache_key).toBeUndefined();
  });

  it('parallelToolCalls: false: parallel_tool_calls: false, with no warning', async () => {
    const { body, warnings } = await sent(chat(), { ...ask, parallelToolCalls: false });
    expect(body.parallel_tool_calls).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('allowed tools: the Chat model has no allowedTools option, so only the allowed tools are declared, with a warning', async () => {
    const { body, warnings } = await sent(chat(), { ...ask, allowedTools: ['get_time'] });
    expect(body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(['get_time']);
    expect(body.tool_choice).toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ type: 'rewritten', provider: 'ai-sdk', feature: 'allowed-tools' })]);
  });
});

describe('@ai-sdk/openai Responses (.responses)', () => {
  it("cache: 'auto': prompt_cache_key is the request's cacheKey; strict on each tool; the examples in the description", async () => {
    const { body, warnings } = await sent(responses(), { ...ask, cache: 'auto', cacheKey: 'run_1' });
    expect(body).toEqual({
      model: 'gpt-test',
      input: openAIResponsesInput,
      max_output_tokens: 100,
      prompt_cache_key: 'run_1',
      tools: [
        { type: 'function', name: 'get_weather', description: weatherWithExamples, parameters: citySchema, strict: false },
        { type: 'function', name: 'get_time', description: 'Local time in a city.', parameters: citySchema, strict: true },
      ],
    });
    expect(warnings).toEqual([]);
  });

  it('parallelToolCalls: false: parallel_tool_calls: false, with no warning', async () => {
    const { body, warnings } = await sent(responses(), { ...ask, parallelToolCalls: false });
    expect(body.parallel_tool_calls).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('allowed tools: the full tool list and tool_choice allowed_tools (auto, or required), with no warning', async () => {
    const { body, warnings } = await sent(responses(), { ...ask, allowedTools: ['get_time'] });
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['get_weather', 'get_time']);
    expect(body.tool_choice).toEqual({ type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'get_time' }] });
    expect(warnings).toEqual([]);
    const required = await sent(responses(), { ...ask, allowedTools: ['get_time'], toolChoice: 'required' });
    expect(required.body.tool_choice).toEqual({ type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'get_time' }] });
  });

  it('allowed tools with a forced tool: the forced choice over only the allowed tools, with a warning (the package option would override it)', async () => {
    const { body, warnings } = await sent(responses(), { ...ask, allowedTools: ['get_time'], toolChoice: { tool: 'get_time' } });
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['get_time']);
    expect(body.tool_choice).toEqual({ type: 'function', name: 'get_time' });
    expect(warnings).toEqual([expect.objectContaining({ type: 'rewritten', provider: 'ai-sdk', feature: 'allowed-tools' })]);
  });

  it('allowed tools, none of them: no tool is sent, with a warning (the package refuses an empty allowedTools)', async () => {
    const { body, warnings } = await sent(responses(), { ...ask, allowedTools: [] });
    expect(body.tools).toBeUndefined();
    expect(body.tool_choice).toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ type: 'rewritten', provider: 'ai-sdk', feature: 'allowed-tools' })]);
  });

  it("routing with narrow: 'allowed_tools' keeps the tool list and allows the routed category's tools", async () => {
    const categorized = [defineTool({ ...getWeather, category: 'weather' }), defineTool({ ...getTime, category: 'time' })];
    server.enqueue({ toolCalls: [{ name: 'select_tool_category', arguments: { category: 'time' } }] }, { text: 'ok' });
    const result = await runAgent({
      model: responses(),
      tools: categorized,
      prompt: 'Time in Paris?',
      routing: { categories: ['weather', 'time'], narrow: 'allowed_tools' },
      recordDir: false,
      logger: silentLogger,
    });
    expect(result.status).toBe('completed');
    const body = server.requests[1]!.body;
    // Every step declares the routing call's list (the selector last); the package has no allowed-tools form for the
    // routing call's forced selector, so that call declares the selector alone.
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['get_weather', 'get_time', 'select_tool_category']);
    expect(server.requests[0]!.body.tools.map((tool: { name: string }) => tool.name)).toEqual(['select_tool_category']);
    expect(body.tool_choice).toEqual({ type: 'allowed_tools', mode: 'auto', tools: [{ type: 'function', name: 'get_time' }] });
  });
});

describe('the parallel tool call options of the packages merge with your own providerOptions', () => {
  it('your options in the same namespace are kept', async () => {
    const { body } = await sent(chat({ providerOptions: { openai: { user: 'u_1' } } }), { ...ask, parallelToolCalls: false });
    expect(body).toMatchObject({ user: 'u_1', parallel_tool_calls: false });
  });
});

describe("strict tools with an optional property: the schema rewritten as on toolwright's own adapters", () => {
  const received: unknown[] = [];
  const getForecast = defineTool<{ city: string; days?: number }>({
    name: 'get_forecast',
    description: 'Forecast for a city, up to 7 days.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } }, required: ['city'] },
    strict: true,
    execute: (input) => {
      received.push(input);
      return 'sunny';
    },
  });
  const forecastAsk: ModelRequest = { messages: [{ role: 'user', content: 'Forecast for Paris?' }], tools: [getForecast] };
  /** `toOpenAIStrictSchema`: every property required, the optional one nullable, the object closed. */
  const openAIStrict = {
    type: 'object',
    properties: { city: { type: 'string' }, days: { minimum: 1, maximum: 7, type: ['integer', 'null'] } },
    required: ['city', 'days'],
    additionalProperties: false,
  };

  it('@ai-sdk/openai Chat and Responses: every property required, the optional one nullable (OpenAI refuses the schema as declared)', async () => {
    const viaChat = await sent(chat(), forecastAsk);
    expect(viaChat.body.tools).toEqual([
      { type: 'function', function: { name: 'get_forecast', description: 'Forecast for a city, up to 7 days.', parameters: openAIStrict, strict: true } },
    ]);
    const viaResponses = await sent(responses(), forecastAsk);
    expect(viaResponses.body.tools).toEqual([
      { type: 'function', name: 'get_forecast', description: 'Forecast for a city, up to 7 days.', parameters: openAIStrict, strict: true },
    ]);
    for (const warnings of [viaChat.warnings, viaResponses.warnings]) {
      expect(warnings.map((warning) => [warning.provider, warning.feature, warning.tool])).toEqual([
        ['openai-strict', 'optional-property', 'get_forecast'],
        ['openai-strict', 'additionalProperties', 'get_forecast'],
      ]);
    }
  });

  it.each([
    ['Chat', 'runAgent', chat],
    ['Chat', 'streamAgent', chat],
    ['Responses', 'runAgent', responses],
    ['Responses', 'streamAgent', responses],
  ] as const)('@ai-sdk/openai %s through %s: the null the model sends for "no value" is removed before the tool runs', async (_api, how, model) => {
    received.length = 0;
    server.enqueue({ toolCalls: [{ id: 'call_f', name: 'get_forecast', arguments: { city: 'Paris', days: null } }] }, { text: 'Sunny.' });
    const result = await drive(how, { model: model(), tools: [getForecast], prompt: 'Forecast for Paris?', recordDir: false, logger: silentLogger });
    expect(result.status).toBe('completed');
    expect(received).toEqual([{ city: 'Paris' }]);
  });

  it('@ai-sdk/anthropic: toAnthropicStrictSchema (optional stays optional, no numeric bounds, closed), with its warnings', async () => {
    const { body, warnings } = await sent(anthropic(), forecastAsk);
    expect(body.tools).toEqual([
      {
        name: 'get_forecast',
        description: 'Forecast for a city, up to 7 days.',
        input_schema: {
          type: 'object',
          properties: { city: { type: 'string' }, days: { type: 'integer' } },
          required: ['city'],
          additionalProperties: false,
        },
        strict: true,
      },
    ]);
    expect(warnings.map((warning) => [warning.provider, warning.feature])).toEqual([
      ['anthropic-strict', 'minimum'],
      ['anthropic-strict', 'maximum'],
      ['anthropic-strict', 'additionalProperties'],
    ]);
  });
});

describe("Anthropic's per-request limits on strict tools, through @ai-sdk/anthropic", () => {
  it('21 strict tools: a strict-tools warning (Anthropic allows 20)', async () => {
    const many = Array.from({ length: 21 }, (_, index) => defineTool({ ...getTime, name: `get_time_${index}` }));
    const { body, warnings } = await sent(anthropic(), { messages: [{ role: 'user', content: 'Time?' }], tools: many });
    expect(body.tools).toHaveLength(21);
    expect(warnings).toEqual([expect.objectContaining({ type: 'unsupported', provider: 'anthropic-strict', feature: 'strict-tools' })]);
  });
});

describe('toolSearch through runAgent', () => {
  const ran: string[] = [];
  const tracked = (tool: AnyTool): AnyTool =>
    defineTool({
      ...tool,
      execute: (input: unknown) => {
        ran.push(tool.name);
        return `${tool.name}: ${JSON.stringify(input)}`;
      },
    });
  const deleteAccount = defineTool<{ city: string }>({
    name: 'delete_account',
    description: 'Delete the account of a city office.',
    effect: 'write',
    inputSchema: citySchema,
    execute: () => 'deleted',
  });
  const searchTools = [tracked(getWeather), tracked(getTime), deleteAccount];
  const searchThenCall: FakeReply[] = [
    {
      toolSearch: { id: 'srv_1', query: 'local time', found: ['get_time'] },
      toolCalls: [{ id: 'call_t', name: 'get_time', arguments: { city: 'Oslo' } }],
      chunkSize: 6,
    },
    { text: 'Noon.' },
  ];

  it.each(['runAgent', 'streamAgent'] as const)(
    "@ai-sdk/anthropic (%s): Anthropic's own search: deferred tools and the BM25 search tool; the search goes back in its place",
    async (how) => {
      ran.length = 0;
      server.enqueue(...searchThenCall);
      const result = await drive(how, {
        model: anthropic(),
        tools: searchTools,
        prompt: 'Time in Oslo?',
        policy: createPolicy({ denyTools: ['delete_account'] }),
        toolSearch: { alwaysLoaded: ['get_weather'] },
        recordDir: false,
        logger: silentLogger,
      });
      expect(result.status).toBe('completed');
      expect(ran).toEqual(['get_time']);
      const [first, second] = server.requests;
      const eager = how === 'streamAgent' ? { eager_input_streaming: true } : {};
      // The policy-denied delete_account is not declared at all, deferred or not.
      expect(first!.body.tools).toEqual([
        { name: 'get_weather', description: 'Current weather for a city.', input_schema: citySchema, input_examples: [{ city: 'Paris' }], ...eager },
        { name: 'get_time', description: 'Local time in a city.', input_schema: citySchema, strict: true, defer_loading: true, ...eager },
        { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
      ]);
      // The same declaration at every step: the provider, not the tool list, loads what the search found.
      expect(second!.body.tools).toEqual(first!.body.tools);
      expect(second!.body.messages[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'server_tool_use', id: 'srv_1', name: 'tool_search_tool_bm25', input: { query: 'local time' }, caller: { type: 'direct' } },
          {
            type: 'tool_search_tool_result',
            tool_use_id: 'srv_1',
            content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'get_time' }] },
          },
          { type: 'tool_use', id: 'call_t', name: 'get_time', input: { city: 'Oslo' } },
        ],
      });
    },
  );

  it("@ai-sdk/anthropic with cache: 'auto': the search tool is last and takes no cache_control through the package, so no tool breakpoint", async () => {
    const { body, warnings } = await sent(anthropic(), {
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'hi' },
      ],
      tools: TOOLS,
      toolSearch: { deferred: ['get_time'] },
      cache: 'auto',
    });
    expect(body.tools.map((tool: { cache_control?: unknown }) => tool.cache_control)).toEqual([undefined, undefined, undefined]);
    expect(body.system).toEqual([{ type: 'text', text: 'S', cache_control: EPHEMERAL }]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi', cache_control: EPHEMERAL }] }]);
    expect(warnings).toEqual([]);
  });

  it('@ai-sdk/anthropic: the regex search tool when asked', async () => {
    server.enqueue({ text: 'ok' });
    await runAgent({ model: anthropic(), tools: TOOLS, prompt: 'hi', toolSearch: { anthropicSearch: 'regex' }, recordDir: false, logger: silentLogger });
    expect(server.requests[0]!.body.tools.at(-1)).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
  });

  it("@ai-sdk/openai Responses: no native search through the package here: toolwright's search_tools, then the tools found from the next step", async () => {
    server.enqueue(
      { toolCalls: [{ id: 'call_s', name: TOOL_SEARCH_TOOL, arguments: { query: 'local time' } }] },
      { toolCalls: [{ id: 'call_t', name: 'get_time', arguments: { city: 'Oslo' } }] },
      { text: 'Noon.' },
    );
    const result = await runAgent({
      model: responses(),
      tools: TOOLS,
      prompt: 'Time in Oslo?',
      toolSearch: { alwaysLoaded: ['get_weather'] },
      recordDir: false,
      logger: silentLogger,
    });
    expect(result.status).toBe('completed');
    expect(server.requests.map((request) => request.body.tools.map((tool: { name: string }) => tool.name))).toEqual([
      [TOOL_SEARCH_TOOL, 'get_weather'],
      [TOOL_SEARCH_TOOL, 'get_weather', 'get_time'],
      [TOOL_SEARCH_TOOL, 'get_weather', 'get_time'],
    ]);
    expect(JSON.stringify(server.requests.map((request) => request.body))).not.toContain('defer_loading');
  });
});

describe.each(['runAgent', 'streamAgent'] as const)('reasoning replay and cache usage through %s', (how) => {
  // A fresh server per test, so that its numbering (the Anthropic signature `sig_1`, the Responses item `rs_1`) is known.
  let fresh: ProviderServer;
  beforeEach(async () => {
    fresh = await startProviderServer();
  });
  afterEach(async () => {
    await fresh.close();
  });
  const streamed = how === 'streamAgent';
  const replies: FakeReply[] = [
    {
      reasoning: 'Paris first.',
      encryptedReasoning: 'EncRypt3d==',
      toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } }],
      usage: { inputTokens: 1000, outputTokens: 9, cachedInputTokens: 600, cacheWriteTokens: 300, reasoningTokens: 4 },
      chunkSize: 4,
    },
    { text: 'Sunny in Paris.', usage: { inputTokens: 1100, outputTokens: 5, cachedInputTokens: 900 }, chunkSize: 4 },
  ];
  const settings = (model: Model): RunAgentOptions => ({
    model,
    tools: [getWeather],
    system: 'Be brief.',
    prompt: 'Weather in Paris?',
    cache: 'auto',
    cacheKey: 'run_1',
    recordDir: false,
    logger: silentLogger,
  });
  const weatherTool = { name: 'get_weather', description: 'Current weather for a city.', input_schema: citySchema, input_examples: [{ city: 'Paris' }] };

  it('@ai-sdk/anthropic: thinking (with its signature) and redacted thinking go back with the tool_use; cache reads and writes in the totals', async () => {
    fresh.enqueue(...replies);
    const model = fromAISDKModel(createAnthropic({ baseURL: `${fresh.anthropicBaseURL}/v1`, apiKey: 'k' })('claude-sonnet-4-5'), {
      providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } },
    });
    const result = await drive(how, settings(model));
    expect(result.status === 'completed' && result.text).toBe('Sunny in Paris.');
    expect(result.usage).toMatchObject({ inputTokens: 2100, outputTokens: 14, cacheReadTokens: 1500, cacheWriteTokens: 300 });
    // `eager_input_streaming` on a streamed request is the package's own default (its `toolStreaming` option), not toolwright's.
    const tool = { ...weatherTool, cache_control: EPHEMERAL, ...(streamed ? { eager_input_streaming: true } : {}) };
    expect(fresh.requests[1]!.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 64000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      system: [{ type: 'text', text: 'Be brief.', cache_control: EPHEMERAL }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Paris first.', signature: 'sig_1' },
            { type: 'redacted_thinking', data: 'EncRypt3d==' },
            { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_a', content: 'Paris: sunny', cache_control: EPHEMERAL }] },
      ],
      tools: [tool],
      tool_choice: { type: 'auto' },
      ...(streamed ? { stream: true } : {}),
    });
  });

  it('@ai-sdk/openai Responses: the reasoning item goes back by reference (the package stores responses by default); cache reads in the totals', async () => {
    fresh.enqueue(...replies);
    const result = await drive(how, settings(fromAISDKModel(createOpenAI({ baseURL: fresh.openaiBaseURL, apiKey: 'k' }).responses('gpt-test'))));
    expect(result.status === 'completed' && result.text).toBe('Sunny in Paris.');
    expect(result.usage).toMatchObject({ inputTokens: 2100, outputTokens: 14, cacheReadTokens: 1500 });
    expect(result.usage.cacheWriteTokens).toBeUndefined();
    expect(fresh.requests[1]!.body).toEqual({
      model: 'gpt-test',
      input: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
        { type: 'item_reference', id: 'rs_1' },
        { type: 'function_call', call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_a', output: 'Paris: sunny' },
      ],
      prompt_cache_key: 'run_1',
      tools: [{ type: 'function', name: 'get_weather', description: weatherWithExamples, parameters: citySchema, strict: false }],
      tool_choice: 'auto',
      ...(streamed ? { stream: true } : {}),
    });
  });

  it('@ai-sdk/openai Responses with store: false and the encrypted content included: the reasoning item goes back whole', async () => {
    fresh.enqueue(...replies);
    const model = fromAISDKModel(createOpenAI({ baseURL: fresh.openaiBaseURL, apiKey: 'k' }).responses('gpt-test'), {
      providerOptions: { openai: { store: false, include: ['reasoning.encrypted_content'] } },
    });
    const result = await drive(how, settings(model));
    expect(result.status).toBe('completed');
    expect(fresh.requests[0]!.body).toMatchObject({ store: false, include: ['reasoning.encrypted_content'] });
    expect(fresh.requests[1]!.body.input[2]).toEqual({
      type: 'reasoning',
      id: 'rs_1',
      encrypted_content: 'EncRypt3d==',
      summary: [{ type: 'summary_text', text: 'Paris first.' }],
    });
  });

  it('@ai-sdk/openai Chat Completions: cached_tokens as cache reads in the totals', async () => {
    fresh.enqueue(...replies);
    const result = await drive(how, settings(fromAISDKModel(createOpenAI({ baseURL: fresh.openaiBaseURL, apiKey: 'k' }).chat('gpt-test'))));
    expect(result.status === 'completed' && result.text).toBe('Sunny in Paris.');
    expect(result.usage).toMatchObject({ inputTokens: 2100, outputTokens: 14, cacheReadTokens: 1500 });
    expect(fresh.requests.map((request) => [request.body.prompt_cache_key, request.body.stream])).toEqual([
      ['run_1', streamed || undefined],
      ['run_1', streamed || undefined],
    ]);
    if (streamed) expect(fresh.requests[0]!.body.stream_options).toEqual({ include_usage: true });
  });
});

describe('options these packages do not map: the fallbacks, on the wire', () => {
  const DATE = '\\d{4}-\\d{2}-\\d{2}';
  const setDueDate = defineTool({
    name: 'set_due_date',
    description: 'Sets the due date.',
    effect: 'read',
    input: { grammar: { syntax: 'regex', definition: DATE } },
    execute: (text) => `due ${text}`,
  });
  const dateInput = {
    type: 'string',
    description: `The input text; the whole text must match the regular expression /${DATE}/.`,
    pattern: `^(?:${DATE})$`,
  };
  const objectForm = { type: 'object', properties: { input: dateInput }, required: ['input'], additionalProperties: false };
  const dueAsk: ModelRequest = { messages: [{ role: 'user', content: 'Due next Friday.' }], tools: [setDueDate] };

  it('a grammar tool: the one-string-property object form through @ai-sdk/anthropic and @ai-sdk/openai Responses, with a grammar-tool warning', async () => {
    const viaAnthropic = await sent(anthropic(), dueAsk);
    expect(viaAnthropic.body.tools).toEqual([{ name: 'set_due_date', description: 'Sets the due date.', input_schema: objectForm }]);
    const viaResponses = await sent(responses(), dueAsk);
    expect(viaResponses.body.tools).toEqual([
      { type: 'function', name: 'set_due_date', description: 'Sets the due date.', parameters: objectForm, strict: false },
    ]);
    for (const { warnings } of [viaAnthropic, viaResponses]) {
      expect(warnings).toEqual([expect.objectContaining({ type: 'rewritten', provider: 'ai-sdk', feature: 'grammar-tool', tool: 'set_due_date' })]);
    }
  });

  it('programmatic calls through @ai-sdk/anthropic: a plain tool (no allowed_callers, no code execution tool), with a warning', async () => {
    const fromCode = defineTool({ ...getWeather, allowedCallers: ['direct', 'programmatic'] });
    const { body, warnings } = await sent(anthropic(), { messages: [{ role: 'user', content: 'Weather?' }], tools: [fromCode] });
    expect(body.tools).toEqual([
      { name: 'get_weather', description: 'Current weather for a city.', input_schema: citySchema, input_examples: [{ city: 'Paris' }] },
    ]);
    expect(warnings).toEqual([expect.objectContaining({ type: 'unsupported', provider: 'ai-sdk', feature: 'programmatic-tool-calling' })]);
  });

  it("@ai-sdk/anthropic streams tool input unbuffered by default: a cut call's JSON is refused as an error result, the tool never runs, the run goes on", async () => {
    const ran: string[] = [];
    const weather = defineTool({ ...getWeather, execute: ({ city }: { city: string }) => (ran.push(city), `${city}: sunny`) });
    server.enqueue({ toolCalls: [{ id: 'call_cut', name: 'get_weather', arguments: '{"city": "Par' }], chunkSize: 3 }, { text: 'Sorry.' });
    const result = await drive('streamAgent', { model: anthropic(), tools: [weather], prompt: 'Weather in Paris?', recordDir: false, logger: silentLogger });
    expect(result.status === 'completed' && result.text).toBe('Sorry.');
    expect(ran).toEqual([]);
    expect(server.requests[0]!.body.tools[0].eager_input_streaming).toBe(true);
    const toolResult = server.requests[1]!.body.messages[2].content[0];
    expect(toolResult).toMatchObject({ type: 'tool_result', tool_use_id: 'call_cut', is_error: true });
  });
});
