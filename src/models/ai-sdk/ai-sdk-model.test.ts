import {
  APICallError,
  TypeValidationError,
  type LanguageModelV4GenerateResult,
  type LanguageModelV4StreamPart,
  type LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { MockLanguageModelV3, MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../protocol/messages.js';
import type { ModelStreamEvent } from '../../protocol/model-exchange.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { defineTool } from '../../tools/define-tool.js';
import { ProviderAuthError, ProviderBadRequestError, ProviderRateLimitError, ProviderResponseError, ProviderUnavailableError } from '../provider-errors.js';
import { fromAISDKModel } from './from-ai-sdk-model.js';

const getWeather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => `${city}: sunny`,
});

function usage(input: number, output: number): LanguageModelV4Usage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

function generated(content: LanguageModelV4GenerateResult['content'], unified: 'stop' | 'tool-calls' | 'length', raw?: string): LanguageModelV4GenerateResult {
  return { content, finishReason: { unified, raw }, usage: usage(12, 5), warnings: [] };
}

function streamed(parts: LanguageModelV4StreamPart[]) {
  return { stream: convertArrayToReadableStream(parts) };
}

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const all: ModelStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const fast = { retry: { initialDelayMs: 1, maxDelayMs: 2 } };

describe('fromAISDKModel: generate', () => {
  it('maps text, calls, usage and the finish reason, and sends the tools, choice and settings', async () => {
    const mock = new MockLanguageModelV4({
      provider: 'mock.chat',
      modelId: 'mock-1',
      doGenerate: {
        ...generated(
          [
            { type: 'reasoning', text: 'thinking…' },
            { type: 'text', text: 'Checking ' },
            { type: 'text', text: 'both.' },
            { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Paris"}' },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: '{"city":"Rome"}' },
            { type: 'tool-call', toolCallId: 'srv', toolName: 'web_search', input: '{}', providerExecuted: true },
          ],
          'tool-calls',
          'TOOL_USE',
        ),
        warnings: [{ type: 'unsupported', feature: 'seed', details: 'no seeds here' }],
        response: { modelId: 'mock-1-2025', body: { raw: true } },
      },
    });
    const model = fromAISDKModel(mock, { maxOutputTokens: 300, headers: { 'x-app': 'demo' }, providerOptions: { mock: { level: 2 } } });
    expect([model.id, model.provider]).toEqual(['ai-sdk:mock.chat:mock-1', 'ai-sdk']);
    const response = await model.generate({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris and Rome?' },
      ],
      tools: [getWeather],
      toolChoice: { tool: 'get_weather' },
      temperature: 0.2,
      seed: 7,
    });
    expect(response.content).toEqual([
      { type: 'reasoning', format: 'ai-sdk', item: { type: 'reasoning', text: 'thinking…' } },
      { type: 'text', text: 'Checking both.' },
      { type: 'tool-call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' }, argumentsText: '{"city":"Paris"}' },
      { type: 'tool-call', id: 'c2', name: 'get_weather', arguments: { city: 'Rome' }, argumentsText: '{"city":"Rome"}' },
    ]);
    expect(response).toMatchObject({
      stopReason: 'tool_calls',
      providerStopReason: 'TOOL_USE',
      usage: { inputTokens: 12, outputTokens: 5 },
      modelId: 'mock-1-2025',
    });
    expect(response.raw).toEqual({ raw: true });
    expect(response.warnings).toEqual([{ type: 'unsupported', provider: 'ai-sdk', feature: 'seed', path: '', details: 'no seeds here' }]);

    const sent = mock.doGenerateCalls[0]!;
    expect(sent.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
    ]);
    expect(sent.tools).toEqual([{ type: 'function', name: 'get_weather', description: 'Current weather for a city.', inputSchema: getWeather.inputSchema }]);
    expect(sent).toMatchObject({
      toolChoice: { type: 'tool', toolName: 'get_weather' },
      maxOutputTokens: 300,
      temperature: 0.2,
      seed: 7,
      headers: { 'x-app': 'demo' },
      providerOptions: { mock: { level: 2 } },
    });
    expect(sent.abortSignal).toBeInstanceOf(AbortSignal);
  });

  it('keeps malformed argument JSON as argumentsError, never throwing, and replays it as {} with a note', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: [
        generated([{ type: 'tool-call', toolCallId: 'bad', toolName: 'get_weather', input: '{"city": Par' }], 'tool-calls'),
        generated([{ type: 'text', text: 'Sorry.' }], 'stop'),
      ],
    });
    const model = fromAISDKModel(mock);
    const first = await model.generate({ messages: [{ role: 'user', content: 'Weather?' }], tools: [getWeather] });
    const call = first.content[0]!;
    expect(call).toMatchObject({ type: 'tool-call', id: 'bad', arguments: undefined, argumentsText: '{"city": Par' });
    expect(call.type === 'tool-call' && call.argumentsError?.message).toBeTruthy();

    const second = await model.generate({
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: first.content },
        { role: 'tool', results: [{ callId: 'bad', toolName: 'get_weather', result: { content: [{ type: 'text', text: 'Fix the JSON.' }], isError: true } }] },
      ],
      tools: [getWeather],
    });
    expect(second.warnings?.map((warning) => warning.feature)).toEqual(['unparsable-tool-arguments']);
    expect(mock.doGenerateCalls[1]!.prompt.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: '(The arguments of call bad to get_weather were not a JSON object and are replayed as {}. They were: {"city": Par)' },
          { type: 'tool-call', toolCallId: 'bad', toolName: 'get_weather', input: {} },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'bad', toolName: 'get_weather', output: { type: 'error-text', value: 'Fix the JSON.' } }] },
    ]);
  });

  it.each([false, true])(
    'replays reasoning with its provider metadata as the prompt reasoning part before the call it preceded (streamed: %s)',
    async (stream) => {
      const signed = { anthropic: { signature: 'sig_1' } };
      const call = { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Paris"}' };
      const mock = new MockLanguageModelV4({
        doGenerate: [
          generated([{ type: 'reasoning', text: 'Paris first.', providerMetadata: signed }, call], 'tool-calls'),
          generated([{ type: 'text', text: 'Sunny.' }], 'stop'),
        ],
        doStream: [
          streamed([
            { type: 'reasoning-start', id: 'r1' },
            { type: 'reasoning-delta', id: 'r1', delta: 'Paris ' },
            { type: 'reasoning-delta', id: 'r1', delta: 'first.' },
            { type: 'reasoning-delta', id: 'r1', delta: '', providerMetadata: signed },
            { type: 'reasoning-end', id: 'r1' },
            call,
            { type: 'finish', finishReason: { unified: 'tool-calls', raw: undefined }, usage: usage(12, 5) },
          ]),
          streamed([
            { type: 'text-delta', id: 't', delta: 'Sunny.' },
            { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: usage(12, 5) },
          ]),
        ],
      });
      const model = fromAISDKModel(mock);
      const ask = async (messages: Message[]) => {
        if (!stream) return model.generate({ messages, tools: [getWeather] });
        const events = await collect(model.stream({ messages, tools: [getWeather] }));
        const end = events.at(-1)!;
        return end.type === 'end' ? end.response : expect.unreachable();
      };
      const first = await ask([{ role: 'user', content: 'Weather?' }]);
      await ask([
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: first.content },
        { role: 'tool', results: [{ callId: 'c1', toolName: 'get_weather', result: { content: [{ type: 'text', text: 'sunny' }], isError: false } }] },
      ]);
      const calls = stream ? mock.doStreamCalls : mock.doGenerateCalls;
      expect(calls[1]!.prompt[1]).toEqual({
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Paris first.', providerOptions: signed },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Paris' } },
        ],
      });
    },
  );

  it('reports reasoning tokens apart, inside the output tokens', async () => {
    const withReasoning = { ...usage(12, 5), outputTokens: { total: 5, text: 2, reasoning: 3 } };
    const mock = new MockLanguageModelV4({ doGenerate: { ...generated([{ type: 'text', text: 'Done.' }], 'stop'), usage: withReasoning } });
    const response = await fromAISDKModel(mock).generate({ messages: [{ role: 'user', content: 'Hi' }] });
    expect(response.usage).toEqual({ inputTokens: 12, outputTokens: 5, reasoningTokens: 3 });
  });

  it('reads a hostile result without crashing: junk parts are skipped, missing usage is estimated', async () => {
    const junk = { content: [null, 7, { type: 'text', text: 3 }, { type: 'tool-call', toolCallId: 5, toolName: null, input: { a: 1 } }], finishReason: 'stop' };
    const model = fromAISDKModel(new MockLanguageModelV4({ doGenerate: junk as unknown as LanguageModelV4GenerateResult }));
    expect(model.estimateInputTokens({ messages: [{ role: 'user', content: 'x' }] })).toBeGreaterThan(0);
    const response = await model.generate({ messages: [{ role: 'user', content: 'x' }] });
    expect(response.content).toEqual([{ type: 'tool-call', id: '', name: '', arguments: { a: 1 }, argumentsText: '{"a":1}' }]);
    // The estimate: ceil(characters / 4) over the request, and over the call's name and argument text ('{"a":1}').
    expect(response).toMatchObject({
      stopReason: 'tool_calls',
      usage: { inputTokens: model.estimateInputTokens({ messages: [{ role: 'user', content: 'x' }] }), outputTokens: 2 },
      modelId: 'mock-model-id',
    });
    await expect(fromAISDKModel(new MockLanguageModelV4({ doGenerate: null as never })).generate({ messages: [] })).rejects.toBeInstanceOf(
      ProviderResponseError,
    );
  });
});

describe('fromAISDKModel: stream', () => {
  it('streams reasoning, text and tool-call events with partial arguments, ending with usage and the stop reason', async () => {
    const mock = new MockLanguageModelV4({
      doStream: streamed([
        { type: 'stream-start', warnings: [{ type: 'compatibility', feature: 'tool-choice', details: 'emulated' }] },
        { type: 'response-metadata', modelId: 'mock-live' },
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'hmm' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Check' },
        { type: 'text-delta', id: 't', delta: 'ing.' },
        { type: 'text-end', id: 't' },
        { type: 'tool-input-start', id: 'c1', toolName: 'get_weather' },
        { type: 'tool-input-delta', id: 'c1', delta: '{"city":' },
        { type: 'tool-input-delta', id: 'c1', delta: '"Par' },
        { type: 'tool-input-delta', id: 'c1', delta: 'is"}' },
        { type: 'tool-input-end', id: 'c1' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Paris"}' },
        // A provider that sends the call whole, without input deltas.
        { type: 'tool-call', toolCallId: 'c2', toolName: 'get_weather', input: '{"city":"Rome"}' },
        { type: 'finish', usage: usage(20, 9), finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
      ]),
    });
    const events = await collect(fromAISDKModel(mock).stream({ messages: [{ role: 'user', content: 'Weather?' }], tools: [getWeather] }));
    const end = events.at(-1);
    expect(events.slice(0, -1)).toEqual([
      { type: 'reasoning-delta', text: 'hmm' },
      { type: 'text-delta', text: 'Check' },
      { type: 'text-delta', text: 'ing.' },
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":', partialArguments: {} },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"Par', partialArguments: { city: 'Par' } },
      { type: 'tool-call-delta', index: 0, argumentsDelta: 'is"}', partialArguments: { city: 'Paris' } },
      { type: 'tool-call-start', index: 1, id: 'c2', name: 'get_weather' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city":"Rome"}', partialArguments: { city: 'Rome' } },
      {
        type: 'tool-call-end',
        index: 0,
        call: { type: 'tool-call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' }, argumentsText: '{"city":"Paris"}' },
      },
      {
        type: 'tool-call-end',
        index: 1,
        call: { type: 'tool-call', id: 'c2', name: 'get_weather', arguments: { city: 'Rome' }, argumentsText: '{"city":"Rome"}' },
      },
    ]);
    expect(end).toEqual({
      type: 'end',
      response: {
        content: [
          { type: 'reasoning', format: 'ai-sdk', item: { type: 'reasoning', text: 'hmm' } },
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' }, argumentsText: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'c2', name: 'get_weather', arguments: { city: 'Rome' }, argumentsText: '{"city":"Rome"}' },
        ],
        stopReason: 'tool_calls',
        providerStopReason: 'tool_use',
        usage: { inputTokens: 20, outputTokens: 9 },
        modelId: 'mock-live',
        warnings: [{ type: 'rewritten', provider: 'ai-sdk', feature: 'tool-choice', path: '', details: 'emulated' }],
      },
    });
  });

  it('keeps a streamed call with broken JSON as argumentsError', async () => {
    const mock = new MockLanguageModelV4({
      doStream: streamed([
        { type: 'tool-input-start', id: 'c1', toolName: 'get_weather' },
        { type: 'tool-input-delta', id: 'c1', delta: '{"city": "Pa' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city": "Pa' },
        { type: 'finish', usage: usage(1, 1), finishReason: { unified: 'length', raw: 'MAX_TOKENS' } },
      ]),
    });
    const events = await collect(fromAISDKModel(mock).stream({ messages: [{ role: 'user', content: 'x' }], tools: [getWeather] }));
    const end = events.at(-1)!;
    expect(end.type === 'end' && end.response).toMatchObject({ stopReason: 'max_tokens', providerStopReason: 'MAX_TOKENS' });
    const call = end.type === 'end' ? end.response.content[0] : undefined;
    expect(call).toMatchObject({ type: 'tool-call', arguments: undefined, argumentsText: '{"city": "Pa' });
    expect(call?.type === 'tool-call' && call.argumentsError).toBeTruthy();
  });

  it('raises an error part, and a stream without a finish part, as ProviderResponseError', async () => {
    const failing = new MockLanguageModelV4({
      doStream: streamed([
        { type: 'text-delta', id: 't', delta: 'Hi' },
        { type: 'error', error: { message: 'overloaded' } },
      ]),
    });
    await expect(collect(fromAISDKModel(failing).stream({ messages: [] }))).rejects.toThrow(/the stream reported an error \(overloaded\)/);
    const cut = new MockLanguageModelV4({ doStream: streamed([{ type: 'text-delta', id: 't', delta: 'Hi' }]) });
    const error = await collect(fromAISDKModel(cut).stream({ messages: [] })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect((error as Error).message).toMatch(/before its finish part/);
  });

  it('ends on abort mid-stream with the caller reason, cancelling the stream even when the model ignores its signal', async () => {
    let cancelled = false;
    const mock = new MockLanguageModelV4({
      doStream: async () => ({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'Hel' });
          },
          cancel() {
            cancelled = true;
          },
        }),
      }),
    });
    const controller = new AbortController();
    const reason = new Error('user left');
    const seen: ModelStreamEvent[] = [];
    const run = (async () => {
      for await (const event of fromAISDKModel(mock).stream({ messages: [], signal: controller.signal })) {
        seen.push(event);
        controller.abort(reason);
      }
    })();
    await expect(run).rejects.toBe(reason);
    expect(seen).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(cancelled).toBe(true);
  });
});

describe('fromAISDKModel: errors, retries, abort', () => {
  const apiError = (statusCode: number | undefined, message: string, responseHeaders?: Record<string, string>) =>
    new APICallError({
      message,
      url: 'https://example.test/v1',
      requestBodyValues: {},
      statusCode,
      responseHeaders,
      ...(statusCode === undefined ? { isRetryable: true } : {}),
    });

  it('retries a 429 after its retry-after, then succeeds', async () => {
    let calls = 0;
    const mock = new MockLanguageModelV4({
      doGenerate: async () => {
        calls++;
        if (calls === 1) throw apiError(429, 'slow down', { 'Retry-After-Ms': '5' });
        return generated([{ type: 'text', text: 'ok' }], 'stop');
      },
    });
    const retries: unknown[] = [];
    const response = await fromAISDKModel(mock, { ...fast, onRetry: (event) => retries.push(event) }).generate({ messages: [] });
    expect(response.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(retries).toEqual([{ attempt: 1, delayMs: 5, reason: '429' }]);
  });

  it('maps statuses and connection failures to typed provider errors', async () => {
    const failWith = (error: unknown, options = {}) =>
      fromAISDKModel(
        new MockLanguageModelV4({
          doGenerate: async () => {
            throw error;
          },
        }),
        { ...fast, ...options },
      ).generate({ messages: [] });
    await expect(failWith(apiError(401, 'bad key'))).rejects.toBeInstanceOf(ProviderAuthError);
    const badRequest = await failWith(apiError(400, 'tools[0] is invalid')).catch((error: unknown) => error);
    expect(badRequest).toBeInstanceOf(ProviderBadRequestError);
    expect((badRequest as ProviderBadRequestError).message).toContain('tools[0] is invalid');
    const limited = await failWith(apiError(429, 'quota'), { maxRetries: 0 }).catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(ProviderRateLimitError);
    const down = await failWith(apiError(undefined, 'Cannot connect to API: ECONNREFUSED'), { maxRetries: 1 }).catch((error: unknown) => error);
    expect(down).toBeInstanceOf(ProviderUnavailableError);
    expect(down).toMatchObject({ attempts: 2 });
    const unreadable = await failWith(new TypeValidationError({ value: {}, cause: new Error('candidates missing') })).catch((error: unknown) => error);
    expect(unreadable).toBeInstanceOf(ProviderResponseError);
    // An error the AI SDK raises before sending (here a plain one) stays as it is.
    const plain = new Error('UnsupportedFunctionality');
    await expect(failWith(plain)).rejects.toBe(plain);
  });

  it('passes the abort signal through, and rejects with the caller reason even when the model ignores it', async () => {
    let seenSignal: AbortSignal | undefined;
    const mock = new MockLanguageModelV4({
      doGenerate: (options) => {
        seenSignal = options.abortSignal;
        return new Promise(() => {});
      },
    });
    const controller = new AbortController();
    const pending = fromAISDKModel(mock).generate({ messages: [], signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const reason = new Error('stop now');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(seenSignal?.aborted).toBe(true);
  });
});

describe('fromAISDKModel: specification v3 and bad input', () => {
  it('drives a V3 model, writing files the V3 way', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: { content: [{ type: 'text', text: 'A cat.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage: usage(3, 2), warnings: [] },
    });
    const response = await fromAISDKModel(mock).generate({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is it?' },
            { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
          ],
        },
      ],
    });
    expect(response).toMatchObject({ content: [{ type: 'text', text: 'A cat.' }], stopReason: 'end_turn' });
    expect(mock.doGenerateCalls[0]!.prompt).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is it?' },
          { type: 'file', mediaType: 'image/png', data: 'aGVsbG8=' },
        ],
      },
    ]);
  });

  it('refuses what is not an AI SDK language model, saying what to pass', () => {
    expect(() => fromAISDKModel('openai/gpt-4o' as never)).toThrow(InvalidArgumentError);
    expect(() => fromAISDKModel({} as never)).toThrow(/doGenerate and doStream/);
    expect(() => fromAISDKModel({ specificationVersion: 'v2', doGenerate() {}, doStream() {} } as never)).toThrow(/declares "v2"/);
  });
});

describe("fromAISDKModel: cache: 'auto'", () => {
  const conversation = {
    messages: [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'Weather in Paris?' },
    ],
    tools: [getWeather, defineTool({ name: 'get_time', description: 'Local time.', effect: 'read', inputSchema: { type: 'object' }, execute: () => 'noon' })],
  };
  const breakpoint = { anthropic: { cacheControl: { type: 'ephemeral' } } };

  it("marks the last tool, the system message and the last message for Anthropic's package, and sends OpenAI's promptCacheKey", async () => {
    const mock = new MockLanguageModelV4({ doGenerate: generated([{ type: 'text', text: 'ok' }], 'stop') });
    const model = fromAISDKModel(mock, { providerOptions: { openai: { user: 'u1' }, google: { thinkingConfig: { thinkingBudget: 0 } } } });
    await model.generate({ ...conversation, cache: 'auto', cacheKey: 'run_1' });
    const sent = mock.doGenerateCalls[0]!;
    expect(sent.tools!.map((tool) => (tool.type === 'function' ? tool.providerOptions : undefined))).toEqual([undefined, breakpoint]);
    expect(sent.prompt.map((message) => message.providerOptions)).toEqual([breakpoint, breakpoint]);
    // The caller's own options in the same namespace are kept.
    expect(sent.providerOptions).toEqual({ openai: { user: 'u1', promptCacheKey: 'run_1' }, google: { thinkingConfig: { thinkingBudget: 0 } } });
  });

  it('sends none of it without cache', async () => {
    const mock = new MockLanguageModelV4({ doGenerate: generated([{ type: 'text', text: 'ok' }], 'stop') });
    await fromAISDKModel(mock).generate({ ...conversation, cacheKey: 'run_1' });
    const sent = mock.doGenerateCalls[0]!;
    expect(JSON.stringify(sent.tools)).not.toContain('cacheControl');
    expect(sent.prompt.every((message) => message.providerOptions === undefined)).toBe(true);
    expect(sent.providerOptions).toBeUndefined();
  });

  it('reads the cache counts of inputTokens (cacheRead, cacheWrite)', async () => {
    const cachedUsage: LanguageModelV4Usage = {
      inputTokens: { total: 1000, noCache: 100, cacheRead: 600, cacheWrite: 300 },
      outputTokens: { total: 5, text: 5, reasoning: undefined },
    };
    const mock = new MockLanguageModelV4({ doGenerate: { ...generated([{ type: 'text', text: 'ok' }], 'stop'), usage: cachedUsage } });
    expect((await fromAISDKModel(mock).generate(conversation)).usage).toEqual({
      inputTokens: 1000,
      outputTokens: 5,
      cacheReadTokens: 600,
      cacheWriteTokens: 300,
    });
  });
});
