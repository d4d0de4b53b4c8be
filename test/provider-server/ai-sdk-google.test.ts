/**
 * `fromAISDKModel` over a real AI SDK provider package, `@ai-sdk/google`,
 * talking to the local provider server's Gemini endpoints: the exact request
 * bodies toolwright's neutral requests become on Gemini's wire (tool
 * declarations, function calls and responses in the history, thought
 * signatures replayed), a full `runAgent` run, streaming, and the typed errors
 * and retries of the other providers.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { fromAISDKModel } from '../../src/models/ai-sdk/index.js';
import type { AISDKModelOptions } from '../../src/models/ai-sdk/index.js';
import {
  ProviderAuthError,
  ProviderRateLimitError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
} from '../../src/models/provider-errors.js';
import type { Model } from '../../src/models/types.js';
import type { ModelStreamEvent } from '../../src/protocol/model-exchange.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { startProviderServer, type ProviderServer } from './index.js';

const getWeather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => `${city}: sunny`,
});

const declarations = [
  {
    functionDeclarations: [
      {
        name: 'get_weather',
        description: 'Current weather for a city.',
        parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      },
    ],
  },
];

let server: ProviderServer;
const gemini = (options: AISDKModelOptions = {}): Model =>
  fromAISDKModel(createGoogleGenerativeAI({ baseURL: server.geminiBaseURL, apiKey: 'test-key' })('gemini-test'), {
    retry: { initialDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.reset();
});

describe('fromAISDKModel over @ai-sdk/google and the Gemini wire', () => {
  it('runs an agent with a tool call: exact request bodies, parsed calls, usage', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'fc_1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { inputTokens: 30, outputTokens: 8 } },
      { text: 'Paris is sunny.' },
    );
    const model = gemini();
    expect(model.id).toBe('ai-sdk:google.generative-ai:gemini-test');
    const result = await runAgent({ model, tools: [getWeather], system: 'Be brief.', prompt: 'Weather in Paris?', recordDir: false, logger: silentLogger });

    expect(result.status === 'completed' && result.text).toBe('Paris is sunny.');
    expect(result.usage).toMatchObject({ inputTokens: 41, outputTokens: 15, modelCalls: 2 });
    expect(server.requests.map((request) => [request.path, request.headers['x-goog-api-key']])).toEqual([
      ['/v1beta/models/gemini-test:generateContent', 'test-key'],
      ['/v1beta/models/gemini-test:generateContent', 'test-key'],
    ]);
    expect(server.requests[0]!.body).toEqual({
      generationConfig: {},
      contents: [{ role: 'user', parts: [{ text: 'Weather in Paris?' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: declarations,
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
    });
    // The call and its result in the history, as Gemini takes them: a `model` turn with the functionCall, a `user` turn with the functionResponse.
    expect(server.requests[1]!.body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'fc_1', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'skip_thought_signature_validator' }],
      },
      { role: 'user', parts: [{ functionResponse: { id: 'fc_1', name: 'get_weather', response: { name: 'get_weather', content: 'Paris: sunny' } } }] },
    ]);
  });

  it('sends the tool choice, output cap and temperature, and reads the finish reason', async () => {
    server.enqueue({ text: 'Cut', stopReason: 'max_tokens' });
    const response = await gemini().generate({
      messages: [{ role: 'user', content: 'Long answer?' }],
      tools: [getWeather],
      toolChoice: { tool: 'get_weather' },
      maxOutputTokens: 64,
      temperature: 0,
    });
    expect(response).toMatchObject({ content: [{ type: 'text', text: 'Cut' }], stopReason: 'max_tokens', providerStopReason: 'MAX_TOKENS' });
    expect(server.requests[0]!.body).toMatchObject({
      generationConfig: { maxOutputTokens: 64, temperature: 0 },
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
    });
  });

  it('replays the thought signature Gemini sent with a call', async () => {
    const answer = {
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { id: 'fc_9', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'c2lnbmF0dXJl' }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 },
    };
    server.enqueue({ kind: 'raw', body: JSON.stringify(answer) }, { text: 'Oslo is sunny.' });
    const result = await runAgent({ model: gemini(), tools: [getWeather], prompt: 'Weather in Oslo?', recordDir: false, logger: silentLogger });
    expect(result.status).toBe('completed');
    expect(server.requests[1]!.body.contents[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { id: 'fc_9', name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: 'c2lnbmF0dXJl' }],
    });
  });

  it('streams text and a call over streamGenerateContent?alt=sse, then sends the result back', async () => {
    server.enqueue(
      { text: 'Let me check.', toolCalls: [{ id: 'fc_1', name: 'get_weather', arguments: { city: 'Rome' } }], chunkSize: 6 },
      { text: 'Rome is sunny.' },
    );
    const model = gemini();
    const request = { messages: [{ role: 'user' as const, content: 'Weather in Rome?' }], tools: [getWeather] };
    const events = await collect(model.stream(request));
    expect(server.requests[0]!.path).toBe('/v1beta/models/gemini-test:streamGenerateContent');
    expect(events.slice(0, -1)).toEqual([
      { type: 'text-delta', text: 'Let me' },
      { type: 'text-delta', text: ' check' },
      { type: 'text-delta', text: '.' },
      { type: 'tool-call-start', index: 0, id: 'fc_1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Rome"}', partialArguments: { city: 'Rome' } },
      {
        type: 'tool-call-end',
        index: 0,
        call: { type: 'tool-call', id: 'fc_1', name: 'get_weather', arguments: { city: 'Rome' }, argumentsText: '{"city":"Rome"}' },
      },
    ]);
    const end = events.at(-1)!;
    if (end.type !== 'end') throw new Error('no end event');
    expect(end.response).toMatchObject({ stopReason: 'tool_calls', providerStopReason: 'STOP', usage: { inputTokens: 11, outputTokens: 7 } });

    const followUp = await collect(
      model.stream({
        ...request,
        messages: [
          ...request.messages,
          { role: 'assistant', content: end.response.content },
          {
            role: 'tool',
            results: [{ callId: 'fc_1', toolName: 'get_weather', result: { content: [{ type: 'text', text: 'Rome: sunny' }], isError: false } }],
          },
        ],
      }),
    );
    expect(followUp.filter((event) => event.type === 'text-delta').map((event) => (event.type === 'text-delta' ? event.text : ''))).toEqual([
      'Rome ',
      'is su',
      'nny.',
    ]);
    expect(server.requests[1]!.body.contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Let me check.' },
          { functionCall: { id: 'fc_1', name: 'get_weather', args: { city: 'Rome' } }, thoughtSignature: 'skip_thought_signature_validator' },
        ],
      },
      { role: 'user', parts: [{ functionResponse: { id: 'fc_1', name: 'get_weather', response: { name: 'get_weather', content: 'Rome: sunny' } } }] },
    ]);
  });

  it('retries a 429 with retry-after and a 503, then answers', async () => {
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '0' } }, { kind: 'error', status: 503 }, { text: 'ok' });
    const retries: string[] = [];
    const response = await gemini({ onRetry: (event) => retries.push(event.reason) }).generate({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(retries).toEqual(['429', '503']);
    expect(server.requests).toHaveLength(3);
  });

  it('fails with typed errors: a rejected key, a rate limit past the retries, an unreachable server', async () => {
    server.enqueue({ kind: 'error', status: 401, message: 'API key not valid' });
    const auth = await gemini()
      .generate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(auth).toBeInstanceOf(ProviderAuthError);
    expect((auth as Error).message).toContain('API key not valid');

    server.enqueue({ kind: 'error', status: 429 }, { kind: 'error', status: 429 });
    const limited = await gemini({ maxRetries: 1 })
      .generate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(ProviderRateLimitError);
    expect(limited).toMatchObject({ attempts: 2, status: 429 });

    // A server that closes every connection at once: fetch fails the way it does for a host that went away.
    const hangUp = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    const { port } = hangUp.address() as AddressInfo;
    const unreachable = await fromAISDKModel(createGoogleGenerativeAI({ baseURL: `http://127.0.0.1:${port}/v1beta`, apiKey: 'k' })('gemini-test'), {
      maxRetries: 1,
      retry: { initialDelayMs: 1 },
    })
      .generate({ messages: [{ role: 'user', content: 'x' }] })
      .catch((error: unknown) => error);
    await new Promise((resolve) => hangUp.close(resolve));
    expect(unreachable).toBeInstanceOf(ProviderUnavailableError);
    expect(unreachable).toMatchObject({ attempts: 2 });
  });

  it('times out a request that does not answer, and a stream that stalls', async () => {
    server.enqueue({ text: 'late', delayMs: 2_000 });
    await expect(gemini({ timeoutMs: 100, maxRetries: 0 }).generate({ messages: [{ role: 'user', content: 'x' }] })).rejects.toBeInstanceOf(
      ProviderTimeoutError,
    );
    server.enqueue({ text: 'Hello there, slowly', stallAfterEvents: 1 });
    await expect(collect(gemini({ timeoutMs: 100, maxRetries: 0 }).stream({ messages: [{ role: 'user', content: 'x' }] }))).rejects.toBeInstanceOf(
      ProviderTimeoutError,
    );
  });

  it('reports a stream cut before its finish reason as an unreadable response', async () => {
    const chunk = { candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }] };
    server.enqueue({ kind: 'raw', contentType: 'text/event-stream', body: `data: ${JSON.stringify(chunk)}\n\n` });
    const error = await collect(gemini().stream({ messages: [{ role: 'user', content: 'x' }] })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect((error as Error).message).toContain('"interrupted"');
  });

  it('aborts a stalled stream with the caller reason', async () => {
    server.enqueue({ text: 'Hello there, slowly', chunkSize: 5, stallAfterEvents: 1 });
    const controller = new AbortController();
    const reason = new Error('user left');
    const seen: ModelStreamEvent[] = [];
    const run = (async () => {
      for await (const event of gemini().stream({ messages: [{ role: 'user', content: 'x' }], signal: controller.signal })) {
        seen.push(event);
        controller.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    expect(seen).toEqual([{ type: 'text-delta', text: 'Hello' }]);
  });
});
