/**
 * Prompt caching on the wire: `cache: 'auto'` puts Anthropic's `cache_control` breakpoints and OpenAI's `prompt_cache_key`
 * in the request body (and nothing without it), the cache counts of each API's usage reach the response, plain and streamed,
 * and the run's totals; the tool declarations are the same bytes on every step of a run, so the cached prefix holds.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../src/agent/run-event.js';
import { runAgent } from '../../src/agent/run-agent.js';
import { fromAISDKModel } from '../../src/models/ai-sdk/index.js';
import { createModel } from '../../src/models/create-model.js';
import type { Model } from '../../src/models/types.js';
import type { ModelRequest, ModelResponse, ModelStreamEvent } from '../../src/protocol/model-exchange.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { type FakeReply, type ProviderServer } from './index.js';
import { useProviderServer } from './use-provider-server.js';

let server: ProviderServer;
useProviderServer((started) => (server = started));

const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false } as const;
const getWeather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: weatherSchema,
  execute: ({ city }) => `${city}: sunny`,
});
const getTime = defineTool<{ city: string }>({
  name: 'get_time',
  description: 'Local time in a city.',
  effect: 'read',
  inputSchema: weatherSchema,
  execute: ({ city }) => `${city}: 12:00`,
});
const getForecast = defineTool<{ city: string; days?: number }>({
  name: 'get_forecast',
  description: 'Forecast for a city, up to 7 days.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } }, required: ['city'] },
  execute: ({ city }) => `${city}: sunny all week`,
});
const TOOLS = [getWeather, getTime, getForecast];

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
  tools: [getWeather, getTime],
  maxOutputTokens: 100,
};

const openai = () => createModel('openai:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });
const responses = () => createModel('openai-responses:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });
const anthropic = () => createModel('anthropic:claude-test', { apiKey: 'k', baseURL: server.anthropicBaseURL, maxRetries: 0 });
const gemini = (): Model => fromAISDKModel(createGoogleGenerativeAI({ baseURL: server.geminiBaseURL, apiKey: 'test-key' })('gemini-test'), { maxRetries: 0 });

async function streamed(events: AsyncIterable<ModelStreamEvent>): Promise<ModelResponse> {
  let last: ModelStreamEvent | undefined;
  for await (const event of events) last = event;
  if (last?.type !== 'end') throw new Error('no end event');
  return last.response;
}

async function sentBody(model: Model, request: ModelRequest): Promise<any> {
  server.enqueue({ text: 'ok' });
  await model.generate(request);
  return server.requests.at(-1)!.body;
}

describe("cache: 'auto' in the request body", () => {
  it('Anthropic: breakpoints on the last tool, the system prompt and the last block of the conversation', async () => {
    const body = await sentBody(anthropic(), { ...ask, cache: 'auto', cacheKey: 'run_1' });
    const ephemeral = { type: 'ephemeral' };
    expect(body.system).toEqual([{ type: 'text', text: 'You are terse.', cache_control: ephemeral }]);
    expect(body.tools).toEqual([
      { name: 'get_weather', description: 'Current weather for a city.', input_schema: weatherSchema },
      { name: 'get_time', description: 'Local time in a city.', input_schema: weatherSchema, cache_control: ephemeral },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'call_1', content: [{ type: 'text', text: 'Paris: sunny' }], is_error: false, cache_control: ephemeral }],
      },
    ]);
    // Three breakpoints, under Anthropic's limit of four; the cache key is OpenAI's and is not sent.
    expect(JSON.stringify(body).split('"cache_control"').length - 1).toBe(3);
    expect(body.prompt_cache_key).toBeUndefined();
  });

  it('Anthropic: a conversation of one user string gets its breakpoint on that text', async () => {
    const body = await sentBody(anthropic(), { messages: [{ role: 'user', content: 'Hi' }], cache: 'auto' });
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] }]);
    expect(body.system).toBeUndefined();
    expect(body.tools).toBeUndefined();
  });

  it.each([
    ['Chat Completions', openai],
    ['Responses', responses],
  ])('OpenAI %s: prompt_cache_key is the request cacheKey', async (_name, model) => {
    const body = await sentBody(model(), { ...ask, cache: 'auto', cacheKey: 'run_1' });
    expect(body.prompt_cache_key).toBe('run_1');
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });

  it.each([
    ['Chat Completions', openai],
    ['Responses', responses],
    ['Anthropic', anthropic],
  ])('%s: without cache the body has neither breakpoints nor a cache key', async (_name, model) => {
    const body = await sentBody(model(), { ...ask, cacheKey: 'run_1' });
    expect(JSON.stringify(body)).not.toContain('cache_control');
    expect(body.prompt_cache_key).toBeUndefined();
  });
});

describe('cache counts in usage', () => {
  const cached: FakeReply = { text: 'ok', usage: { inputTokens: 1000, outputTokens: 5, cachedInputTokens: 800 } };

  it.each([
    ['Chat Completions (prompt_tokens_details.cached_tokens)', openai],
    ['Responses (input_tokens_details.cached_tokens)', responses],
  ])('OpenAI %s, plain and streamed', async (_name, model) => {
    server.enqueue(cached, cached);
    expect((await model().generate(ask)).usage).toEqual({ inputTokens: 1000, outputTokens: 5, cacheReadTokens: 800 });
    expect((await streamed(model().stream(ask))).usage).toEqual({ inputTokens: 1000, outputTokens: 5, cacheReadTokens: 800 });
  });

  it('Anthropic cache_read_input_tokens and cache_creation_input_tokens, summed into inputTokens, plain and streamed', async () => {
    const turn: FakeReply = { text: 'ok', usage: { inputTokens: 1000, outputTokens: 5, cachedInputTokens: 600, cacheWriteTokens: 300 } };
    server.enqueue(turn, turn);
    const expected = { inputTokens: 1000, outputTokens: 5, cacheReadTokens: 600, cacheWriteTokens: 300 };
    expect((await anthropic().generate(ask)).usage).toEqual(expected);
    expect((await streamed(anthropic().stream(ask))).usage).toEqual(expected);
  });

  it('an AI SDK model (@ai-sdk/google, cachedContentTokenCount → inputTokens.cacheRead), plain and streamed', async () => {
    server.enqueue(cached, cached);
    expect((await gemini().generate(ask)).usage).toMatchObject({ inputTokens: 1000, cacheReadTokens: 800 });
    expect((await streamed(gemini().stream(ask))).usage).toMatchObject({ inputTokens: 1000, cacheReadTokens: 800 });
  });

  it('no cache count is reported as none (a usage without caching keeps its two fields)', async () => {
    server.enqueue({ text: 'ok' });
    expect((await anthropic().generate(ask)).usage).toEqual({ inputTokens: 11, outputTokens: 7 });
  });
});

const CALL_STEPS: FakeReply[] = [
  { toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { inputTokens: 900, outputTokens: 10, cacheWriteTokens: 900 } },
  {
    toolCalls: [{ id: 'call_b', name: 'get_forecast', arguments: { city: 'Paris', days: 2 } }],
    usage: { inputTokens: 1000, outputTokens: 10, cachedInputTokens: 900, cacheWriteTokens: 100 },
  },
  { text: 'Sunny.', usage: { inputTokens: 1100, outputTokens: 3, cachedInputTokens: 1000, cacheWriteTokens: 100 } },
];

describe('a run of three steps', () => {
  it.each([
    ['OpenAI Chat Completions', openai, 'tools'],
    ['OpenAI Responses', responses, 'tools'],
    ['Anthropic Messages', anthropic, 'tools'],
    ['an AI SDK model (Gemini)', gemini, 'tools'],
  ])('%s declares the tools in the same bytes on every step', async (_name, model, field) => {
    server.enqueue(...CALL_STEPS);
    const result = await runAgent({
      model: model(),
      tools: TOOLS,
      system: 'Be brief.',
      prompt: 'Weather in Paris?',
      cache: 'auto',
      recordDir: false,
      logger: silentLogger,
    });
    expect(result.status).toBe('completed');
    expect(server.requests).toHaveLength(3);
    const declared = server.requests.map((request) => JSON.stringify(request.body[field]));
    expect(declared[0]!.length).toBeGreaterThan(100);
    expect(declared[1]).toBe(declared[0]);
    expect(declared[2]).toBe(declared[0]);
  });

  it('Anthropic: the breakpoint sits on the last message of each step, and the run totals the cache counts', async () => {
    server.enqueue(...CALL_STEPS);
    const events: RunEvent[] = [];
    const result = await runAgent({
      onEvent: (event) => events.push(event),
      model: anthropic(),
      tools: TOOLS,
      system: 'Be brief.',
      prompt: 'Weather in Paris?',
      cache: 'auto',
      recordDir: false,
      logger: silentLogger,
    });
    for (const request of server.requests) {
      const last = request.body.messages.at(-1).content.at(-1);
      expect(last.cache_control).toEqual({ type: 'ephemeral' });
      expect(request.body.tools.at(-1).cache_control).toEqual({ type: 'ephemeral' });
      expect(request.body.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
    }
    expect(result.steps.map((step) => step.usage)).toEqual([
      { inputTokens: 900, outputTokens: 10, cacheWriteTokens: 900 },
      { inputTokens: 1000, outputTokens: 10, cacheReadTokens: 900, cacheWriteTokens: 100 },
      { inputTokens: 1100, outputTokens: 3, cacheReadTokens: 1000, cacheWriteTokens: 100 },
    ]);
    expect(result.usage).toMatchObject({ inputTokens: 3000, outputTokens: 23, cacheReadTokens: 1900, cacheWriteTokens: 1100 });
    // The record's events carry them too: each model response's usage, and the run's totals when it stops.
    expect(events.flatMap((event) => (event.type === 'model_response' ? [event.response.usage] : []))).toEqual(result.steps.map((step) => step.usage));
    expect(events.find((event) => event.type === 'stop')).toMatchObject({ usage: { cacheReadTokens: 1900, cacheWriteTokens: 1100 } });
  });

  it.each([
    ['OpenAI Chat Completions', openai],
    ['OpenAI Responses', responses],
  ])('%s sends the run id as prompt_cache_key on every step, or the cacheKey given', async (_name, model) => {
    server.enqueue(...CALL_STEPS);
    await runAgent({ model: model(), tools: TOOLS, prompt: 'Weather in Paris?', runId: 'run_cache_1', cache: 'auto', recordDir: false, logger: silentLogger });
    expect(server.requests.map((request) => request.body.prompt_cache_key)).toEqual(['run_cache_1', 'run_cache_1', 'run_cache_1']);
    server.reset();
    server.enqueue(...CALL_STEPS);
    await runAgent({
      model: model(),
      tools: TOOLS,
      prompt: 'Weather in Paris?',
      cache: 'auto',
      cacheKey: 'weather-agent',
      recordDir: false,
      logger: silentLogger,
    });
    expect(server.requests.map((request) => request.body.prompt_cache_key)).toEqual(['weather-agent', 'weather-agent', 'weather-agent']);
  });
});
