/**
 * Provider-specific corners of the response mapping: broken argument JSON,
 * cached tokens, compatible servers' quirks, stream error events, an
 * unreachable server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModel } from '../../src/models/create-model.js';
import { ProviderResponseError, ProviderUnavailableError } from '../../src/models/provider-errors.js';
import type { ModelResponse, ModelStreamEvent } from '../../src/protocol/model-exchange.js';
import { startProviderServer, type ProviderServer } from './index.js';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const ask = { messages: [{ role: 'user' as const, content: 'go' }] };
const openai = () => createModel('openai:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });
const responses = () => createModel('openai-responses:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL, maxRetries: 0 });
const anthropic = () => createModel('anthropic:claude-test', { apiKey: 'k', baseURL: server.anthropicBaseURL, maxRetries: 0 });

async function streamed(events: AsyncIterable<ModelStreamEvent>): Promise<ModelResponse> {
  let last: ModelStreamEvent | undefined;
  for await (const event of events) last = event;
  if (last?.type !== 'end') throw new Error('no end event');
  return last.response;
}

describe('broken argument JSON', () => {
  const broken = { toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{"city": "Par' }] };
  // Parsed once, at the adapter: the raw text stays for replay, the failure for the registry's message to the model.
  const brokenPart = {
    type: 'tool-call',
    id: 'c1',
    name: 'get_weather',
    arguments: undefined,
    argumentsText: '{"city": "Par',
    argumentsError: expect.objectContaining({ message: 'unterminated string', position: 13 }),
  };

  it.each([
    ['Chat Completions', openai],
    ['Responses', responses],
  ])('%s keeps the raw text for the registry, plain and streamed', async (_name, model) => {
    server.enqueue(broken, broken);
    for (const response of [await model().generate(ask), await streamed(model().stream(ask))]) {
      expect(response.content).toEqual([brokenPart]);
    }
  });

  it('Anthropic streams keep the raw text too', async () => {
    server.enqueue(broken);
    const response = await streamed(anthropic().stream(ask));
    expect(response.content).toEqual([brokenPart]);
  });
});

describe('usage', () => {
  it('counts Anthropic cache reads as input, and says how many, plain and streamed', async () => {
    const turn = { text: 'ok', usage: { inputTokens: 100, outputTokens: 3, cachedInputTokens: 60 } };
    server.enqueue(turn, turn);
    expect((await anthropic().generate(ask)).usage).toEqual({ inputTokens: 100, outputTokens: 3, cacheReadTokens: 60 });
    expect((await streamed(anthropic().stream(ask))).usage).toEqual({ inputTokens: 100, outputTokens: 3, cacheReadTokens: 60 });
  });

  it('estimates input tokens when a compatible server streams no usage', async () => {
    server.enqueue({ text: 'abcdefgh' });
    const model = createModel('openai-compatible:local', { baseURL: server.openaiBaseURL, streamUsage: false, env: {} });
    const response = await streamed(model.stream(ask));
    expect(server.requests[0]!.body.stream_options).toBeUndefined();
    expect(response.usage).toEqual({ inputTokens: model.estimateInputTokens(ask), outputTokens: 2 });
  });
});

describe('stop reasons', () => {
  it('treats finish_reason "stop" with tool calls as tool_calls (some compatible servers)', async () => {
    server.enqueue({ toolCalls: [{ name: 'get_weather', arguments: {} }], wireStopReason: 'stop' });
    expect((await openai().generate(ask)).stopReason).toBe('tool_calls');
  });

  it.each([
    ['stop_sequence', 'end_turn'],
    ['pause_turn', 'other'],
    ['model_context_window_exceeded', 'max_tokens'],
  ])('maps Anthropic %s to %s', async (wire, neutral) => {
    server.enqueue({ text: 'x', wireStopReason: wire });
    expect((await anthropic().generate(ask)).stopReason).toBe(neutral);
  });

  it('maps an OpenAI refusal to refusal with its text', async () => {
    server.enqueue({
      kind: 'raw',
      body: JSON.stringify({
        id: 'chatcmpl-r',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-test',
        choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' }, finish_reason: 'stop', logprobs: null }],
        usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
      }),
    });
    const response = await openai().generate(ask);
    expect(response.stopReason).toBe('refusal');
    expect(response.content).toEqual([{ type: 'text', text: 'I cannot help with that.' }]);
  });
});

describe('failures inside a response', () => {
  it('reports an Anthropic error event mid-stream', async () => {
    const body = [
      'event: message_start',
      'data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}',
      '',
      'event: error',
      'data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      '',
      '',
    ].join('\n');
    server.enqueue({ kind: 'raw', contentType: 'text/event-stream', body });
    const error = await streamed(anthropic().stream(ask)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect((error as Error).message).toContain('overloaded_error: Overloaded');
  });

  it('reports a completion without choices', async () => {
    server.enqueue({ kind: 'raw', body: JSON.stringify({ id: 'x', object: 'chat.completion', created: 1, model: 'gpt-test', choices: [] }) });
    await expect(openai().generate(ask)).rejects.toThrow('the completion has no choices');
  });

  it('reports a server that is not there, after retrying', async () => {
    const gone = await startProviderServer();
    const baseURL = gone.openaiBaseURL;
    await gone.close();
    const model = createModel('openai:gpt-test', { apiKey: 'k', baseURL, retry: { maxRetries: 1, initialDelayMs: 1 } });
    const error = await model.generate(ask).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect((error as ProviderUnavailableError).attempts).toBe(2);
    expect((error as Error).message).toContain(`OpenAI at ${baseURL} could not be reached (Connection error. ECONNREFUSED), after 1 retry.`);
  });
});
