/**
 * One suite, run against every SDK-backed provider through the local fake
 * provider: the same answers, failures and limits must come out as the same
 * neutral responses and typed errors, whichever wire format carried them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModel } from '../../src/models/create-model.js';
import type { ModelOptions } from '../../src/models/model-options.js';
import {
  ProviderAuthError,
  ProviderBadRequestError,
  ProviderModelNotFoundError,
  ProviderRateLimitError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
} from '../../src/models/provider-errors.js';
import type { Model } from '../../src/models/types.js';
import { toolCallsOf, type ModelRequest, type ModelResponse, type ModelStreamEvent } from '../../src/protocol/model-exchange.js';
import { ToolwrightError } from '../../src/shared/errors.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { startProviderServer, type ProviderServer } from './index.js';

const getWeather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => `${city}: sunny`,
});

interface ProviderCase {
  name: string;
  spec: string;
  baseURL: (server: ProviderServer) => string;
  keyVariable: string;
  /** The path the SDK posts to. */
  path: string;
}

const CASES: ProviderCase[] = [
  { name: 'OpenAI Chat Completions', spec: 'openai:gpt-test', baseURL: (s) => s.openaiBaseURL, keyVariable: 'OPENAI_API_KEY', path: '/v1/chat/completions' },
  { name: 'OpenAI Responses', spec: 'openai-responses:gpt-test', baseURL: (s) => s.openaiBaseURL, keyVariable: 'OPENAI_API_KEY', path: '/v1/responses' },
  { name: 'Anthropic Messages', spec: 'anthropic:claude-test', baseURL: (s) => s.anthropicBaseURL, keyVariable: 'ANTHROPIC_API_KEY', path: '/v1/messages' },
];

const ask: ModelRequest = { messages: [{ role: 'user', content: 'Weather in Paris and Rome?' }], tools: [getWeather] };

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function endOf(events: ModelStreamEvent[]): ModelResponse {
  const last = events.at(-1);
  if (last?.type !== 'end') throw new Error(`the stream did not end with an end event: ${JSON.stringify(last)}`);
  return last.response;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Tool calls with their arguments, as the adapter parsed them whichever form the wire gave. */
function parsedCalls(response: ModelResponse) {
  return toolCallsOf(response).map((call) => ({ id: call.id, name: call.name, arguments: call.arguments }));
}

describe.each(CASES)('$name', (providerCase) => {
  let server: ProviderServer;
  const model = (options: ModelOptions = {}): Model =>
    createModel(providerCase.spec, { apiKey: 'test-key', baseURL: providerCase.baseURL(server), retry: { initialDelayMs: 5, maxDelayMs: 20 }, ...options });

  beforeAll(async () => {
    server = await startProviderServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    expect(server.pending).toBe(0);
    server.reset();
  });

  it('maps a text answer, its usage and its model id', async () => {
    server.enqueue({ text: 'Sunny in both.', usage: { inputTokens: 42, outputTokens: 5 }, model: 'served-model' });
    const response = await model().generate(ask);
    expect(response.content).toEqual([{ type: 'text', text: 'Sunny in both.' }]);
    expect(toolCallsOf(response)).toEqual([]);
    expect(response.stopReason).toBe('end_turn');
    expect(response.usage).toEqual({ inputTokens: 42, outputTokens: 5 });
    expect(response.modelId).toBe('served-model');
    expect(server.requests.map((request) => request.path)).toEqual([providerCase.path]);
  });

  it('maps several tool calls in one response, in order', async () => {
    server.enqueue({
      text: 'Checking.',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'call_b', name: 'get_weather', arguments: { city: 'Rome' } },
      ],
    });
    const response = await model().generate(ask);
    expect(response.stopReason).toBe('tool_calls');
    expect(parsedCalls(response)).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
      { id: 'call_b', name: 'get_weather', arguments: { city: 'Rome' } },
    ]);
    expect(response.content.map((part) => (part.type === 'text' ? part.text : part.type === 'tool-call' ? [part.id, part.arguments] : part))).toEqual([
      'Checking.',
      ['call_a', { city: 'Paris' }],
      ['call_b', { city: 'Rome' }],
    ]);
  });

  it('streams tool calls as start, argument deltas and end, folding into the same response', async () => {
    const turn = {
      text: 'Checking.',
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
        { id: 'call_b', name: 'get_weather', arguments: { city: 'Rome' } },
      ],
      usage: { inputTokens: 30, outputTokens: 12 },
      chunkSize: 4,
    };
    server.enqueue(turn, turn);
    const plain = await model().generate(ask);
    const events = await collect(model().stream(ask));
    const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
    expect(text).toBe('Checking.');
    expect(events.filter((event) => event.type === 'tool-call-start')).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'get_weather' },
      { type: 'tool-call-start', index: 1, id: 'call_b', name: 'get_weather' },
    ]);
    for (const index of [0, 1]) {
      const deltas = events.flatMap((event) => (event.type === 'tool-call-delta' && event.index === index ? [event] : []));
      expect(deltas.length).toBeGreaterThan(1);
      expect(JSON.parse(deltas.map((delta) => delta.argumentsDelta).join(''))).toEqual({ city: index === 0 ? 'Paris' : 'Rome' });
      expect(deltas.at(-1)!.partialArguments).toEqual({ city: index === 0 ? 'Paris' : 'Rome' });
    }
    const ends = events.flatMap((event) => (event.type === 'tool-call-end' ? [event.index] : []));
    expect(ends).toEqual([0, 1]);
    const streamed = endOf(events);
    // Each tool-call-end carries the very part the response holds: one shape, parsed once.
    const ended = events.flatMap((event) => (event.type === 'tool-call-end' ? [event.call] : []));
    expect(ended).toHaveLength(2);
    ended.forEach((call, index) => expect(call).toBe(toolCallsOf(streamed)[index]));
    expect(parsedCalls(streamed)).toEqual(parsedCalls(plain));
    expect(streamed.content.map((part) => (part.type === 'text' ? part.text : part.type === 'tool-call' ? part.arguments : part))).toEqual(
      plain.content.map((part) => (part.type === 'text' ? part.text : part.type === 'tool-call' ? part.arguments : part)),
    );
    expect(streamed.stopReason).toBe('tool_calls');
    expect(streamed.usage).toEqual({ inputTokens: 30, outputTokens: 12 });
  });

  it('streams a text-only answer', async () => {
    server.enqueue({ text: 'Hello there, friend.', chunkSize: 3 });
    const events = await collect(model().stream({ messages: [{ role: 'user', content: 'Hi' }] }));
    const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : []));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Hello there, friend.');
    const response = endOf(events);
    expect(response.content).toEqual([{ type: 'text', text: 'Hello there, friend.' }]);
    expect(response.stopReason).toBe('end_turn');
    expect(toolCallsOf(response)).toEqual([]);
  });

  it.each([
    ['max_tokens', 'max_tokens'],
    // The server renders this as Anthropic's nearest value, `refusal`, which toolwright keeps apart as `refusal`.
    ['content_filter', providerCase.path === '/v1/messages' ? 'refusal' : 'content_filter'],
  ] as const)('maps the %s stop reason', async (wire, neutral) => {
    server.enqueue({ text: 'Cut', stopReason: wire }, { text: 'Cut', stopReason: wire });
    expect((await model().generate(ask)).stopReason).toBe(neutral);
    expect(endOf(await collect(model().stream(ask))).stopReason).toBe(neutral);
  });

  it('waits what retry-after asks after a 429, then succeeds', async () => {
    server.enqueue({ kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after': '1' } }, { text: 'ok' });
    const response = await model().generate(ask);
    expect(response.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(1000);
  });

  it('honours retry-after-ms on a streamed request', async () => {
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after-ms': '300' } }, { text: 'ok' });
    const response = endOf(await collect(model().stream(ask)));
    expect(response.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(300);
  });

  it('reports the rate limit, with its retry-after, when retries run out', async () => {
    server.enqueue(
      { kind: 'error', status: 429, message: 'Slow down', headers: { 'retry-after-ms': '10' } },
      { kind: 'error', status: 429, message: 'Slow down', headers: { 'retry-after-ms': '20' } },
    );
    const error = await model({ maxRetries: 1 })
      .generate(ask)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderRateLimitError);
    expect((error as ProviderRateLimitError).code).toBe('TW_PROVIDER_RATE_LIMITED');
    expect((error as ProviderRateLimitError).retryAfterMs).toBe(20);
    expect((error as ProviderRateLimitError).status).toBe(429);
    expect(server.requests).toHaveLength(2);
  });

  it('retries 500s, then succeeds', async () => {
    server.enqueue({ kind: 'error', status: 500 }, { kind: 'error', status: 503 }, { text: 'ok' });
    expect((await model().generate(ask)).content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up on 500s after maxRetries', async () => {
    server.enqueue(
      { kind: 'error', status: 500, message: 'The server had an error' },
      { kind: 'error', status: 500, message: 'The server had an error' },
      { kind: 'error', status: 500, message: 'The server had an error' },
    );
    const error = await model()
      .generate(ask)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).attempts).toBe(3);
    expect((error as Error).message).toContain('failed with 500');
    expect((error as Error).message).toContain('The server had an error');
    expect((error as Error).message).toContain('after 2 retries');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 401 and names the key variable', async () => {
    server.enqueue({ kind: 'error', status: 401, message: 'Incorrect API key provided' });
    const error = await model()
      .generate(ask)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect(ToolwrightError.isInstance(error) && error.code).toBe('TW_PROVIDER_AUTH');
    expect((error as Error).message).toContain('Incorrect API key provided');
    expect((error as Error).message).toContain(`Check the key in ${providerCase.keyVariable} (or the apiKey option)`);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a 404 as an unknown model', async () => {
    server.enqueue({ kind: 'error', status: 404, message: 'The model does not exist' });
    const error = await model()
      .generate(ask)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderModelNotFoundError);
    expect((error as Error).message).toContain(`model "${providerCase.spec.split(':')[1]}"`);
  });

  it("quotes the provider's message on a 400", async () => {
    server.enqueue({ kind: 'error', status: 400, message: "Invalid schema for function 'get_weather'" });
    const error = await model()
      .generate(ask)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderBadRequestError);
    expect((error as ProviderBadRequestError).providerMessage).toContain("Invalid schema for function 'get_weather'");
  });

  it('aborts mid-stream with the caller reason', async () => {
    server.enqueue({ text: 'A long answer that will never finish arriving.', chunkSize: 2, stallAfterEvents: 6 });
    const controller = new AbortController();
    const seen: ModelStreamEvent[] = [];
    const run = (async () => {
      for await (const event of model().stream({ ...ask, signal: controller.signal })) {
        seen.push(event);
        if (event.type === 'text-delta') controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen.filter((event) => event.type === 'text-delta')).toHaveLength(1);
    expect(seen.some((event) => event.type === 'end')).toBe(false);
  });

  it('aborts a request that has not answered yet', async () => {
    server.enqueue({ text: 'late', delayMs: 5_000 });
    const controller = new AbortController();
    const pending = model().generate({ ...ask, signal: controller.signal });
    await until(() => server.requests.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('times out a request that does not answer', async () => {
    server.enqueue({ text: 'late', delayMs: 5_000 });
    const error = await model({ timeoutMs: 100, maxRetries: 0 })
      .generate(ask)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as ProviderTimeoutError).timeoutMs).toBe(100);
  });

  it('times out a stream that stalls', async () => {
    server.enqueue({ text: 'Stalls after a few pieces.', chunkSize: 2, stallAfterEvents: 4 });
    const error = await collect(model({ timeoutMs: 150, maxRetries: 0 }).stream(ask)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
  });

  it('reports a stream cut before its end as an unreadable response', async () => {
    server.enqueue({ kind: 'raw', contentType: 'text/event-stream', body: '' });
    const error = await collect(model().stream(ask)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderResponseError);
  });

  it('says so when no reply was queued', async () => {
    const error = await model()
      .generate(ask)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderBadRequestError);
    expect((error as Error).message).toContain('no reply queued for request');
  });
});
