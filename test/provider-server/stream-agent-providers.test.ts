/**
 * `streamAgent` on every SDK-backed provider, through the local fake provider
 * speaking each wire format's SSE: text arrives in pieces, tool calls as their
 * arguments form, the tools run, and the run ends exactly as `runAgent` ends on
 * the same replies (which uses the non-streaming endpoint).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { streamAgent, type AgentStreamEvent } from '../../src/agent/streaming/stream-agent.js';
import { createModel } from '../../src/models/create-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { startProviderServer, type FakeReply, type ProviderServer } from './index.js';

const getWeather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => `${city}: sunny`,
});

const CASES = [
  { name: 'OpenAI Chat Completions', spec: 'openai:gpt-test', path: '/v1/chat/completions', base: (s: ProviderServer) => s.openaiBaseURL },
  { name: 'OpenAI Responses', spec: 'openai-responses:gpt-test', path: '/v1/responses', base: (s: ProviderServer) => s.openaiBaseURL },
  { name: 'Anthropic Messages', spec: 'anthropic:claude-test', path: '/v1/messages', base: (s: ProviderServer) => s.anthropicBaseURL },
  { name: 'OpenAI-compatible', spec: 'openai-compatible:llama-test', path: '/v1/chat/completions', base: (s: ProviderServer) => s.openaiBaseURL },
];

const REPLIES: FakeReply[] = [
  {
    text: 'Let me check both cities.',
    toolCalls: [
      { id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } },
      { id: 'call_b', name: 'get_weather', arguments: { city: 'Rome' } },
    ],
    usage: { inputTokens: 30, outputTokens: 12 },
    chunkSize: 4,
  },
  { text: 'Sunny in Paris and in Rome.', usage: { inputTokens: 50, outputTokens: 8 }, chunkSize: 4 },
];

describe.each(CASES)('streamAgent on $name', (providerCase) => {
  let server: ProviderServer;
  const model = () => createModel(providerCase.spec, { apiKey: 'test-key', baseURL: providerCase.base(server), retry: { initialDelayMs: 5, maxDelayMs: 20 } });
  const options = () => ({ model: model(), tools: [getWeather], prompt: 'Weather in Paris and Rome?', recordDir: false as const, logger: silentLogger });

  beforeAll(async () => {
    server = await startProviderServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => server.reset());

  it('streams text and tool-call deltas over SSE and ends as runAgent does on the same replies', async () => {
    server.enqueue(...REPLIES);
    const run = streamAgent(options());
    const events: AgentStreamEvent[] = [];
    for await (const event of run) events.push(event);
    const streamed = await run.result;
    // Every request of the streamed run asked for SSE, on the provider's own endpoint.
    expect(server.requests.map((request) => [request.path, request.body?.stream])).toEqual([
      [providerCase.path, true],
      [providerCase.path, true],
    ]);

    const texts = (step: number) => events.filter((event) => event.type === 'text_delta' && event.step === step);
    expect(texts(0).length).toBeGreaterThan(1);
    expect(
      texts(0)
        .map((event) => (event.type === 'text_delta' ? event.text : ''))
        .join(''),
    ).toBe('Let me check both cities.');
    expect(
      texts(1)
        .map((event) => (event.type === 'text_delta' ? event.text : ''))
        .join(''),
    ).toBe('Sunny in Paris and in Rome.');
    const starts = events.filter((event) => event.type === 'tool_call_start');
    expect(starts.map((event) => event.type === 'tool_call_start' && [event.index, event.toolName])).toEqual([
      [0, 'get_weather'],
      [1, 'get_weather'],
    ]);
    const lastPartial = (index: number) =>
      events
        .filter((event) => event.type === 'tool_call_delta' && event.index === index)
        .map((event) => event.type === 'tool_call_delta' && event.partialArguments)
        .at(-1);
    expect([lastPartial(0), lastPartial(1)]).toEqual([{ city: 'Paris' }, { city: 'Rome' }]);
    expect(events.filter((event) => event.type === 'tool_result').map((event) => event.type === 'tool_result' && event.status)).toEqual([
      'succeeded',
      'succeeded',
    ]);
    const finished = events.filter((event) => event.type === 'step_finished');
    expect(finished.map((event) => event.type === 'step_finished' && [event.finishReason, event.usage.inputTokens, event.usage.outputTokens])).toEqual([
      ['tool_calls', 30, 12],
      ['end_turn', 80, 20],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'stop', status: 'completed' });

    server.reset();
    server.enqueue(...REPLIES);
    const plain = await runAgent(options());
    expect(server.requests.every((request) => !request.body?.stream)).toBe(true);
    expect(streamed.status).toBe('completed');
    expect(comparable(streamed)).toEqual(comparable(plain));
  });

  it('aborts a stalled stream when the reader leaves, and the run stops with aborted', async () => {
    server.enqueue({ text: 'A long answer that never finishes arriving', chunkSize: 3, stallAfterEvents: 7 });
    const run = streamAgent(options());
    for await (const event of run) if (event.type === 'text_delta') break;
    const result = await run.result;
    expect(result.status === 'stopped' && result.stopReason.kind).toBe('aborted');
  });
});

/**
 * A result without what differs between two runs (ids, times). Anthropic's stream also keeps each call's argument
 * text (its `input_json_delta`s) beside the parsed arguments, where its JSON body has only the object: the text, and
 * the token estimates it feeds, are left out.
 */
function comparable(result: Awaited<ReturnType<typeof runAgent>>) {
  return {
    status: result.status,
    text: result.status === 'completed' ? result.text : undefined,
    messages: result.messages.map((message) =>
      message.role === 'assistant' && Array.isArray(message.content)
        ? { ...message, content: message.content.map((part) => (part.type === 'tool-call' ? { ...part, argumentsText: undefined } : part)) }
        : message,
    ),
    steps: result.steps.map(({ toolCalls, estimatedInputTokens: _estimate, ...step }) => ({
      ...step,
      toolCalls: toolCalls.map(({ durationMs: _ms, ...call }) => call),
    })),
    usage: { ...result.usage, wallTimeMs: 0 },
  };
}

describe.each([
  // Anthropic takes its thinking blocks back with the turn's tool results; a Responses item without encrypted content cannot go back (store: false).
  { name: 'Anthropic Messages with extended thinking', spec: 'anthropic:claude-test', base: (s: ProviderServer) => s.anthropicBaseURL, replayed: true },
  { name: 'OpenAI Responses with reasoning summaries', spec: 'openai-responses:o-test', base: (s: ProviderServer) => s.openaiBaseURL, replayed: false },
])('streamAgent on $name', (providerCase) => {
  let server: ProviderServer;
  beforeAll(async () => {
    server = await startProviderServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('streams the thinking as reasoning deltas, apart from the answer text', async () => {
    server.enqueue(
      { reasoning: 'Paris first, then answer.', toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } }], chunkSize: 6 },
      { reasoning: 'It is sunny.', text: 'Sunny in Paris.', chunkSize: 6 },
    );
    const model = createModel(providerCase.spec, { apiKey: 'test-key', baseURL: providerCase.base(server), retry: { initialDelayMs: 5, maxDelayMs: 20 } });
    const run = streamAgent({ model, tools: [getWeather], prompt: 'Weather in Paris?', recordDir: false, logger: silentLogger });
    const events: AgentStreamEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result;
    const joined = (type: 'reasoning_delta' | 'text_delta', step: number) =>
      events.map((event) => (event.type === type && event.step === step ? event.text : '')).join('');
    expect(events.filter((event) => event.type === 'reasoning_delta').length).toBeGreaterThan(2);
    expect(joined('reasoning_delta', 0)).toBe('Paris first, then answer.');
    expect(joined('reasoning_delta', 1)).toBe('It is sunny.');
    expect(joined('text_delta', 1)).toBe('Sunny in Paris.');
    expect(result.status === 'completed' && result.text).toBe('Sunny in Paris.');
    // The answer's text never holds the thinking; the next request holds it only where the provider takes it back (reasoning-replay.test.ts).
    expect(JSON.stringify(server.requests[1]!.body).includes('Paris first')).toBe(providerCase.replayed);
  });
});
