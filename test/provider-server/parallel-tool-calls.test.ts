/**
 * `parallelToolCalls: false` on the wire of each provider (the exact body the
 * real SDK sent, read back from the fake provider), the AI SDK's warning, and
 * the loop's own rule: one call per response runs, whatever the model sent.
 */
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { createModel } from '../../src/models/create-model.js';
import { fromAISDKModel } from '../../src/models/ai-sdk/from-ai-sdk-model.js';
import type { ModelRequest } from '../../src/protocol/model-exchange.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/test.js';
import { type ProviderServer } from './index.js';
import { useProviderServer } from './use-provider-server.js';

const getWeather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => `${city}: sunny`,
});
const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
const ask = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: 'user', content: 'Weather in Paris and Rome?' }],
  tools: [getWeather],
  parallelToolCalls: false,
  ...extra,
});

let server: ProviderServer;
useProviderServer((started) => (server = started));

async function sent(spec: string, baseURL: string, request: ModelRequest, stream = false): Promise<any> {
  server.enqueue({ text: 'ok' });
  const model = createModel(spec, { apiKey: 'test-key', baseURL, maxRetries: 0 });
  if (stream) for await (const _event of model.stream(request));
  else await model.generate(request);
  return server.requests.at(-1)!.body;
}

describe('parallelToolCalls: false on the wire', () => {
  it('OpenAI Chat Completions: parallel_tool_calls false', async () => {
    expect(await sent('openai:gpt-test', server.openaiBaseURL, ask())).toEqual({
      model: 'gpt-test',
      stream: false,
      messages: [{ role: 'user', content: 'Weather in Paris and Rome?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather for a city.', parameters: weatherSchema } }],
      parallel_tool_calls: false,
    });
  });

  it('OpenAI Responses: parallel_tool_calls false', async () => {
    expect(await sent('openai-responses:gpt-test', server.openaiBaseURL, ask())).toEqual({
      model: 'gpt-test',
      stream: false,
      store: false,
      input: [{ role: 'user', content: 'Weather in Paris and Rome?' }],
      tools: [{ type: 'function', name: 'get_weather', description: 'Current weather for a city.', parameters: weatherSchema, strict: false }],
      parallel_tool_calls: false,
    });
  });

  it('Anthropic Messages: tool_choice auto with disable_parallel_tool_use when the request chose nothing', async () => {
    expect(await sent('anthropic:claude-test', server.anthropicBaseURL, ask())).toEqual({
      model: 'claude-test',
      stream: false,
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] }],
      tools: [{ name: 'get_weather', description: 'Current weather for a city.', input_schema: weatherSchema }],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    });
  });

  it.each([
    [{ tool: 'get_weather' } as const, { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true }],
    ['required' as const, { type: 'any', disable_parallel_tool_use: true }],
    ['none' as const, { type: 'none' }],
  ])('Anthropic Messages: the flag joins tool choice %j, streamed too', async (toolChoice, expected) => {
    const body = await sent('anthropic:claude-test', server.anthropicBaseURL, ask({ toolChoice }), true);
    expect(body.tool_choice).toEqual(expected);
    expect(body.stream).toBe(true);
  });

  it.each([
    ['openai:gpt-test', 'parallel_tool_calls'],
    ['openai-responses:gpt-test', 'parallel_tool_calls'],
    ['anthropic:claude-test', 'tool_choice'],
  ])('%s sends nothing without tools, or when parallel calls are left on', async (spec, field) => {
    const baseURL = spec.startsWith('anthropic') ? server.anthropicBaseURL : server.openaiBaseURL;
    expect(await sent(spec, baseURL, ask({ tools: [] }))).not.toHaveProperty(field);
    expect(await sent(spec, baseURL, ask({ parallelToolCalls: true }))).not.toHaveProperty(field);
  });
});

describe('parallelToolCalls: false through the AI SDK', () => {
  it('sends the call without it and says so in a warning (the call options have no such setting)', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: {
        content: [{ type: 'text', text: 'ok' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 3, noCache: 3, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      },
    });
    const response = await fromAISDKModel(mock).generate(ask());
    expect(response.warnings).toEqual([expect.objectContaining({ type: 'unsupported', provider: 'ai-sdk', feature: 'parallelToolCalls' })]);
    expect(Object.keys(mock.doGenerateCalls[0]!).sort()).toEqual(['abortSignal', 'prompt', 'tools']);
  });
});

describe('runAgent({ parallelToolCalls: false })', () => {
  it('asks every model call for it, runs the first of two calls and answers the second as not run', async () => {
    const ran: string[] = [];
    const tool = defineTool<{ city: string }>({ ...getWeather, execute: ({ city }) => (ran.push(city), `${city}: sunny`) });
    const model = createScriptedModel([
      toolCallTurn([
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_weather', arguments: { city: 'Rome' } },
      ]),
      textTurn('Paris is sunny.'),
    ]);
    const result = await runAgent({ model, tools: [tool], prompt: 'Weather in Paris and Rome?', parallelToolCalls: false });
    expect(result.status).toBe('completed');
    expect(ran).toEqual(['Paris']);
    expect(model.requests.map((request) => request.parallelToolCalls)).toEqual([false, false]);
    const results = model.requests[1]!.messages.at(-1)!;
    if (results.role !== 'tool') throw new Error(`the second request ends with a ${results.role} message`);
    const texts = results.results.map((part) => (part.result.content[0]?.type === 'text' ? part.result.content[0].text : ''));
    expect(texts[0]).toBe('Paris: sunny');
    expect(texts[1]).toContain('at most 1 run per response, so this call was not run (get_weather)');
  });

  it('leaves both calls to run without it', async () => {
    const ran: string[] = [];
    const tool = defineTool<{ city: string }>({ ...getWeather, execute: ({ city }) => (ran.push(city), `${city}: sunny`) });
    const model = createScriptedModel([
      toolCallTurn([
        { name: 'get_weather', arguments: { city: 'Paris' } },
        { name: 'get_weather', arguments: { city: 'Rome' } },
      ]),
      textTurn('Both sunny.'),
    ]);
    await runAgent({ model, tools: [tool], prompt: 'Weather in Paris and Rome?' });
    expect(ran).toEqual(['Paris', 'Rome']);
    expect(model.requests[0]!.parallelToolCalls).toBeUndefined();
  });

  it('sends it on every step through a provider (Anthropic)', async () => {
    server.enqueue({ toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Paris' } }] }, { text: 'Sunny.' });
    const model = createModel('anthropic:claude-test', { apiKey: 'test-key', baseURL: server.anthropicBaseURL, maxRetries: 0 });
    await runAgent({ model, tools: [getWeather], prompt: 'Weather in Paris?', parallelToolCalls: false });
    expect(server.requests.map((request) => (request.body as { tool_choice?: unknown }).tool_choice)).toEqual([
      { type: 'auto', disable_parallel_tool_use: true },
      { type: 'auto', disable_parallel_tool_use: true },
    ]);
  });
});
