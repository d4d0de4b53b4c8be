/**
 * What each provider puts on the wire: messages, tool declarations, tool
 * choice, limits and authentication, read back from the fake provider.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONVERSATION, getWeather } from '../../src/formats/__fixtures__/conversation.js';
import { createModel } from '../../src/models/create-model.js';
import type { ModelOptions } from '../../src/models/model-options.js';
import type { ModelRequest, ToolChoice } from '../../src/protocol/model-exchange.js';
import { startProviderServer, type ProviderServer } from './index.js';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const request: ModelRequest = {
  messages: CONVERSATION,
  tools: [getWeather],
  toolChoice: { tool: 'get_weather' },
  maxOutputTokens: 100,
  temperature: 0,
  seed: 7,
};
const weatherSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

async function send(spec: string, options: ModelOptions, modelRequest: ModelRequest, stream = false): Promise<any> {
  server.enqueue({ text: 'ok' });
  const model = createModel(spec, { apiKey: 'test-key', ...options });
  if (stream) for await (const _event of model.stream(modelRequest));
  else await model.generate(modelRequest);
  return server.requests.at(-1)!;
}

describe('OpenAI Chat Completions requests', () => {
  const options = () => ({ baseURL: server.openaiBaseURL });

  it('sends messages, tools, a named tool choice and limits', async () => {
    const sent = await send('openai:gpt-test', options(), request);
    expect(sent.headers.authorization).toBe('Bearer test-key');
    expect(sent.body).toEqual({
      model: 'gpt-test',
      stream: false,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: 'Checking both.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Rome"' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'Paris: sunny' },
        { role: 'tool', tool_call_id: 'call_2', content: 'The arguments are not valid JSON.' },
        { role: 'user', content: 'And tomorrow?' },
        { role: 'assistant', content: 'No forecast tool.' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Current weather for a city.', parameters: weatherSchema } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      max_completion_tokens: 100,
      temperature: 0,
      seed: 7,
    });
  });

  it.each([
    ['auto', 'auto'],
    ['required', 'required'],
    ['none', 'none'],
  ] as [ToolChoice, unknown][])('maps tool choice %s', async (choice, wire) => {
    const sent = await send('openai:gpt-test', options(), { ...request, toolChoice: choice });
    expect(sent.body.tool_choice).toEqual(wire);
  });

  it('asks for usage when streaming, and sends no tool fields without tools', async () => {
    const sent = await send('openai:gpt-test', options(), { messages: [{ role: 'user', content: 'hi' }], toolChoice: 'auto' }, true);
    expect(sent.body).toEqual({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
  });

  it('declares strict tools when asked', async () => {
    const sent = await send('openai:gpt-test', { ...options(), strictTools: true }, request);
    expect(sent.body.tools[0].function.strict).toBe(true);
  });

  it('does not send OPENAI_API_KEY to an OpenAI-compatible base URL given in code', async () => {
    const sent = await send(
      'openai-compatible:llama3.1:8b',
      { baseURL: server.openaiBaseURL, apiKey: undefined as unknown as string, env: { OPENAI_API_KEY: 'sk-real' } },
      { messages: [{ role: 'user', content: 'hi' }] },
    );
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.body.model).toBe('llama3.1:8b');
    expect(sent.headers.authorization).toBe('Bearer not-needed');
  });

  it('reads the key and base URL from OPENAI_API_KEY and OPENAI_BASE_URL', async () => {
    server.enqueue({ text: 'ok' });
    await createModel('openai:gpt-test', { env: { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: server.openaiBaseURL } }).generate({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-env');
  });
});

describe('OpenAI Responses requests', () => {
  it('sends input items, tools, a named tool choice and limits, storing nothing', async () => {
    const sent = await send('openai-responses:gpt-test', { baseURL: server.openaiBaseURL }, request);
    expect(sent.path).toBe('/v1/responses');
    expect(sent.body).toEqual({
      model: 'gpt-test',
      stream: false,
      store: false,
      input: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { role: 'assistant', content: 'Checking both.' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city": "Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city": "Rome"' },
        { type: 'function_call_output', call_id: 'call_1', output: 'Paris: sunny' },
        { type: 'function_call_output', call_id: 'call_2', output: 'The arguments are not valid JSON.' },
        { role: 'user', content: 'And tomorrow?' },
        { role: 'assistant', content: 'No forecast tool.' },
      ],
      tools: [{ type: 'function', name: 'get_weather', description: 'Current weather for a city.', parameters: weatherSchema, strict: false }],
      tool_choice: { type: 'function', name: 'get_weather' },
      max_output_tokens: 100,
      temperature: 0,
    });
  });

  it('warns that the seed was not sent', async () => {
    server.enqueue({ text: 'ok' });
    const response = await createModel('openai-responses:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL }).generate({ ...request, seed: 7 });
    expect(server.requests[0]!.body.seed).toBeUndefined();
    expect(response.warnings?.filter((warning) => warning.feature === 'seed')).toEqual([
      {
        type: 'unsupported',
        provider: 'openai',
        feature: 'seed',
        path: '/seed',
        details: 'the Responses API has no seed parameter; the request was sent without it',
      },
    ]);
  });

  it('is chosen by api: "responses" on an openai: spec', async () => {
    const sent = await send('openai:gpt-test', { baseURL: server.openaiBaseURL, api: 'responses' }, { ...request, toolChoice: 'required' });
    expect(sent.path).toBe('/v1/responses');
    expect(sent.body.tool_choice).toBe('required');
  });
});

describe('Anthropic Messages requests', () => {
  const options = () => ({ baseURL: server.anthropicBaseURL });

  it('sends system apart, tool_use and tool_result blocks, tools and a named tool choice', async () => {
    const sent = await send('anthropic:claude-test', options(), request);
    expect(sent.path).toBe('/v1/messages');
    // @anthropic-ai/sdk 1.x sends the key as a bearer token (0.x used x-api-key).
    expect(sent.headers.authorization).toBe('Bearer test-key');
    expect(typeof sent.headers['anthropic-version']).toBe('string');
    expect(sent.body).toEqual({
      model: 'claude-test',
      stream: false,
      max_tokens: 100,
      temperature: 0,
      system: 'You are terse.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking both.' },
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'text', text: '(The arguments of call call_2 to get_weather were not a JSON object and are replayed as {}. They were: {"city": "Rome")' },
            { type: 'tool_use', id: 'call_2', name: 'get_weather', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', is_error: false, content: [{ type: 'text', text: 'Paris: sunny' }] },
            { type: 'tool_result', tool_use_id: 'call_2', is_error: true, content: [{ type: 'text', text: 'The arguments are not valid JSON.' }] },
            { type: 'text', text: 'And tomorrow?' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'No forecast tool.' }] },
      ],
      tools: [{ name: 'get_weather', description: 'Current weather for a city.', input_schema: weatherSchema }],
      tool_choice: { type: 'tool', name: 'get_weather' },
    });
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
  ] as [ToolChoice, unknown][])('maps tool choice %s', async (choice, wire) => {
    const sent = await send('anthropic:claude-test', options(), { ...request, toolChoice: choice });
    expect(sent.body.tool_choice).toEqual(wire);
  });

  it('defaults max_tokens to 4096 and reports the response warnings', async () => {
    server.enqueue({ text: 'ok' });
    const response = await createModel('anthropic:claude-test', { apiKey: 'k', ...options() }).generate({ messages: CONVERSATION });
    expect(server.requests[0]!.body.max_tokens).toBe(4096);
    expect(response.warnings?.map((warning) => warning.feature)).toEqual(['unparsable-tool-arguments']);
  });

  it('reads the key and base URL from ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL', async () => {
    server.enqueue({ text: 'ok' });
    await createModel('anthropic:claude-test', { env: { ANTHROPIC_API_KEY: 'sk-ant-env', ANTHROPIC_BASE_URL: server.anthropicBaseURL } }).generate({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-ant-env');
  });
});
