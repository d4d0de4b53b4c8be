/**
 * `defineTool({ examples, strict })` on each provider's wire, read back from the fake provider: Anthropic
 * `input_examples` and `strict: true` over the Anthropic strict rewrite, the examples folded into the description for
 * OpenAI Chat and Responses and for an AI SDK provider package without the field, and a tool's own `strict` winning
 * over the model's `strictTools` both ways.
 */
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { fromAISDKModel } from '../../src/models/ai-sdk/index.js';
import { createModel } from '../../src/models/create-model.js';
import type { ModelOptions } from '../../src/models/model-options.js';
import type { ModelRequest } from '../../src/protocol/model-exchange.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { type ProviderServer } from './index.js';
import { useProviderServer } from './use-provider-server.js';

let server: ProviderServer;
useProviderServer((started) => (server = started));

const calls: { city: string; days?: number }[] = [];
const forecast = defineTool<{ city: string; days?: number }>({
  name: 'get_forecast',
  description: 'Weather forecast for a city.',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', minimum: 1, maximum: 7 } },
    required: ['city'],
  },
  examples: [{ city: 'Paris' }, { city: 'Rome', days: 3 }],
  strict: true,
  execute: (args) => {
    calls.push(args);
    return `${args.city}: sunny`;
  },
});
const lookup = defineTool<{ q: string }>({
  name: 'lookup',
  description: 'Look a word up.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false },
  strict: false,
  execute: ({ q }) => q,
});

const folded = 'Weather forecast for a city.\n\nInput Examples:\n{"city":"Paris"}\n{"city":"Rome","days":3}';
const request: ModelRequest = { messages: [{ role: 'user', content: 'Forecast for Paris?' }], tools: [forecast, lookup], maxOutputTokens: 100 };

async function send(spec: string, options: ModelOptions, stream = false): Promise<any> {
  server.enqueue({ text: 'ok' });
  const model = createModel(spec, { apiKey: 'test-key', ...options });
  if (stream) for await (const _event of model.stream(request));
  else await model.generate(request);
  return server.requests.at(-1)!.body;
}

describe('Anthropic', () => {
  it.each([false, true])(
    'sends input_examples and strict: true over the Anthropic strict rewrite; a strict: false tool stays plain under strictTools (stream: %s)',
    async (stream) => {
      const body = await send('anthropic:claude-test', { baseURL: server.anthropicBaseURL, strictTools: true }, stream);
      expect(body.tools).toEqual([
        {
          name: 'get_forecast',
          description: 'Weather forecast for a city.',
          // Optional `days` stays optional (Anthropic accepts optional properties); bounds Anthropic's strict mode lacks are removed.
          input_schema: {
            type: 'object',
            properties: { city: { type: 'string' }, days: { type: 'integer' } },
            required: ['city'],
            additionalProperties: false,
          },
          input_examples: [{ city: 'Paris' }, { city: 'Rome', days: 3 }],
          strict: true,
        },
        {
          name: 'lookup',
          description: 'Look a word up.',
          input_schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false },
        },
      ]);
    },
  );

  it('names each keyword the strict rewrite removed in the response warnings', async () => {
    server.enqueue({ text: 'ok' });
    const response = await createModel('anthropic:claude-test', { apiKey: 'k', baseURL: server.anthropicBaseURL }).generate(request);
    expect(
      response.warnings?.filter((warning) => warning.provider === 'anthropic-strict').map((warning) => [warning.tool, warning.feature, warning.path]),
    ).toEqual([
      ['get_forecast', 'minLength', '/properties/city/minLength'],
      ['get_forecast', 'minimum', '/properties/days/minimum'],
      ['get_forecast', 'maximum', '/properties/days/maximum'],
      ['get_forecast', 'additionalProperties', '/additionalProperties'],
    ]);
  });

  it('runs a strict call whose optional argument was left out, and the registry still holds the removed bounds', async () => {
    calls.length = 0;
    server.enqueue(
      { toolCalls: [{ id: 'toolu_1', name: 'get_forecast', arguments: { city: 'Oslo' } }] },
      { toolCalls: [{ id: 'toolu_2', name: 'get_forecast', arguments: { city: 'Oslo', days: 9 } }] },
      { text: 'Oslo is sunny.' },
    );
    const model = createModel('anthropic:claude-test', { apiKey: 'k', baseURL: server.anthropicBaseURL });
    const result = await runAgent({ model, tools: [forecast], prompt: 'Forecast for Oslo?', recordDir: false, logger: silentLogger });
    expect(result.status === 'completed' && result.text).toBe('Oslo is sunny.');
    expect(calls).toEqual([{ city: 'Oslo' }]);
    // strict by the tool's own flag: the model was given no strictTools
    expect(server.requests[0]!.body.tools[0]).toMatchObject({ name: 'get_forecast', strict: true });
    const second = server.requests[2]!.body.messages.at(-1).content[0];
    expect(second).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_2', is_error: true });
    expect(JSON.stringify(second.content)).toContain('days');
  });
});

describe('OpenAI', () => {
  const strictParameters = {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: ['integer', 'null'], minimum: 1, maximum: 7 } },
    required: ['city', 'days'],
    additionalProperties: false,
  };

  it('Chat Completions: the examples folded into the description; the tool strict by its own flag, the other not', async () => {
    const body = await send('openai:gpt-test', { baseURL: server.openaiBaseURL });
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'get_forecast', description: folded, parameters: strictParameters, strict: true } },
      {
        type: 'function',
        function: {
          name: 'lookup',
          description: 'Look a word up.',
          parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false },
        },
      },
    ]);
  });

  it('Responses: the same, with strict sent on every tool', async () => {
    const body = await send('openai:gpt-test', { baseURL: server.openaiBaseURL, api: 'responses', strictTools: true });
    expect(body.tools).toEqual([
      { type: 'function', name: 'get_forecast', description: folded, parameters: strictParameters, strict: true },
      {
        type: 'function',
        name: 'lookup',
        description: 'Look a word up.',
        parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false },
        strict: false,
      },
    ]);
  });

  it('restores the null a strict tool invites to absent, though the model has strictTools off', async () => {
    calls.length = 0;
    server.enqueue({ toolCalls: [{ name: 'get_forecast', arguments: { city: 'Oslo', days: null } }] }, { text: 'done' });
    const model = createModel('openai:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL });
    const result = await runAgent({ model, tools: [forecast], prompt: 'Forecast for Oslo?', recordDir: false, logger: silentLogger });
    expect(result.status).toBe('completed');
    expect(calls).toEqual([{ city: 'Oslo' }]);
  });
});

describe('streamed calls of a strict tool', () => {
  it.each([['chat'], ['responses']] as const)('OpenAI %s: the streamed arguments have the invited null restored to absent', async (api) => {
    server.enqueue({ toolCalls: [{ name: 'get_forecast', arguments: { city: 'Oslo', days: null } }], chunkSize: 4 });
    const model = createModel('openai:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL, api });
    let end: unknown;
    for await (const event of model.stream(request)) if (event.type === 'end') end = event.response;
    expect(
      (end as { content: { type: string; arguments?: unknown }[] }).content.filter((part) => part.type === 'tool-call').map((part) => part.arguments),
    ).toEqual([{ city: 'Oslo' }]);
  });
});

describe('AI SDK (@ai-sdk/google)', () => {
  it('folds the examples into the description (the package has no inputExamples) and sends strict, which Gemini reads as VALIDATED calling', async () => {
    server.enqueue({ text: 'ok' });
    const model = fromAISDKModel(createGoogleGenerativeAI({ baseURL: server.geminiBaseURL, apiKey: 'k' })('gemini-test'));
    await model.generate({ ...request, tools: [forecast] });
    const body = server.requests.at(-1)!.body;
    expect(body.tools[0].functionDeclarations[0].description).toBe(folded);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'VALIDATED' } });
  });
});
