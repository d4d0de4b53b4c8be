/**
 * Structured output on every SDK-backed provider, against the local fake provider: the exact response-format fields
 * each one sends (OpenAI Chat `response_format`, Responses `text.format`, Anthropic's final tool and `tool_choice`), the
 * answer read back in plain JSON and SSE (strict-mode nulls restored, the final tool's call folded into the answer), and
 * `runAgent({ output })` ending with the validated value, a repair turn included.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { createModel } from '../../src/models/create-model.js';
import type { Model } from '../../src/models/types.js';
import type { ModelOutputFormat, ModelRequest, ModelResponse, ModelStreamEvent } from '../../src/protocol/model-exchange.js';
import { defineOutput } from '../../src/tools/define-output.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { startProviderServer, type ProviderServer } from './index.js';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

const getWeather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => `${city}: 21 degrees, sunny`,
});

/** `note` is optional: strict mode makes it required and nullable, and a null must come back as "absent". */
const reportSchema = {
  type: 'object',
  properties: { city: { type: 'string', minLength: 1 }, celsius: { type: 'number' }, note: { type: 'string' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};
const report = defineOutput<{ city: string; celsius: number; note?: string }>(reportSchema, { name: 'weather_report', description: 'The weather now.' });
const format: ModelOutputFormat = { name: report.name, description: 'The weather now.', schema: report.schema };

const strictReportSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' }, note: { type: ['string', 'null'] } },
  required: ['city', 'celsius', 'note'],
  additionalProperties: false,
};

interface Case {
  name: string;
  model: () => Model;
}

const CASES: Case[] = [
  { name: 'OpenAI Chat Completions', model: () => createModel('openai:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL }) },
  { name: 'OpenAI Responses', model: () => createModel('openai-responses:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL }) },
  { name: 'Anthropic Messages', model: () => createModel('anthropic:claude-test', { apiKey: 'k', baseURL: server.anthropicBaseURL }) },
  { name: 'OpenAI-compatible', model: () => createModel('openai-compatible:llama', { baseURL: server.openaiBaseURL }) },
];

async function call(model: Model, request: ModelRequest, stream: boolean): Promise<{ response: ModelResponse; events: ModelStreamEvent[] }> {
  if (!stream) return { response: await model.generate(request), events: [] };
  const events: ModelStreamEvent[] = [];
  for await (const event of model.stream(request)) events.push(event);
  const end = events.at(-1);
  if (end?.type !== 'end') throw new Error('no end event');
  return { response: end.response, events };
}

const ask: ModelRequest = { messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [getWeather], toolChoice: 'auto', output: format };

describe('the response-format fields on the wire', () => {
  it('OpenAI Chat: response_format json_schema, strict, with the strict rewrite and a warning for what it drops', async () => {
    server.enqueue({ output: { city: 'Paris', celsius: 21, note: null } });
    const model = createModel('openai:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL });
    const response = await model.generate(ask);
    expect(server.requests[0]!.body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'weather_report', description: 'The weather now.', schema: strictReportSchema, strict: true },
    });
    expect(server.requests[0]!.body.tools).toHaveLength(1);
    expect(server.requests[0]!.body.tool_choice).toBe('auto');
    expect(response.warnings).toContainEqual(expect.objectContaining({ feature: 'minLength', path: '/properties/city/minLength', tool: 'weather_report' }));
  });

  it('OpenAI Responses: text.format json_schema, strict', async () => {
    server.enqueue({ output: { city: 'Paris', celsius: 21, note: null } });
    await createModel('openai-responses:gpt-test', { apiKey: 'k', baseURL: server.openaiBaseURL }).generate(ask);
    expect(server.requests[0]!.body.text).toEqual({
      format: { type: 'json_schema', name: 'weather_report', description: 'The weather now.', schema: strictReportSchema, strict: true },
    });
  });

  const anthropic = () => createModel('anthropic:claude-test', { apiKey: 'k', baseURL: server.anthropicBaseURL });
  const finalTool = {
    name: 'weather_report',
    description: 'The weather now. Call this tool to give your final answer, once you need no other tool; its input is the answer.',
    input_schema: reportSchema,
  };

  it('Anthropic: a final tool after the real ones, and tool_choice any so that the model answers only through it', async () => {
    server.enqueue({ output: { city: 'Paris', celsius: 21 } });
    await anthropic().generate(ask);
    const body = server.requests[0]!.body;
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['get_weather', 'weather_report']);
    expect(body.tools[1]).toEqual(finalTool);
    expect(body.tool_choice).toEqual({ type: 'any' });
  });

  it.each([
    ['none', { type: 'tool', name: 'weather_report' }, ['get_weather', 'weather_report']],
    ['required', { type: 'any' }, ['get_weather']],
    [{ tool: 'get_weather' }, { type: 'tool', name: 'get_weather' }, ['get_weather', 'weather_report']],
  ] as const)('Anthropic: tool choice %j becomes %j, declaring %j', async (choice, wire, declared) => {
    server.enqueue({ text: 'ok' });
    await anthropic().generate({ ...ask, toolChoice: choice as ModelRequest['toolChoice'] });
    const body = server.requests[0]!.body;
    expect(body.tool_choice).toEqual(wire);
    expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(declared);
  });

  it('Anthropic without real tools: the final tool alone, chosen by name', async () => {
    server.enqueue({ output: { city: 'Paris', celsius: 21 } });
    await anthropic().generate({ messages: ask.messages, output: format });
    expect(server.requests[0]!.body.tools).toEqual([finalTool]);
    expect(server.requests[0]!.body.tool_choice).toEqual({ type: 'tool', name: 'weather_report' });
  });

  it('sends no response-format field without output', async () => {
    server.enqueue({ text: 'a' }, { text: 'b' }, { text: 'c' });
    const plain = { messages: ask.messages, tools: [getWeather] };
    for (const model of CASES.slice(0, 3).map((item) => item.model())) await model.generate(plain);
    const [chat, responses, messages] = server.requests.map((request) => request.body);
    expect(chat.response_format).toBeUndefined();
    expect(responses.text).toBeUndefined();
    expect(messages.tools.map((tool: { name: string }) => tool.name)).toEqual(['get_weather']);
    expect(messages.tool_choice).toBeUndefined();
  });
});

describe.each(CASES)('$name reads the answer back', ({ name, model }) => {
  for (const stream of [false, true]) {
    it(`${stream ? 'streamed' : 'plain'}: the answer's JSON text in content, its value in output (nulls restored where strict)`, async () => {
      const value = name.startsWith('Anthropic') ? { city: 'Paris', celsius: 21 } : { city: 'Paris', celsius: 21, note: null };
      server.enqueue({ output: value });
      const { response, events } = await call(model(), ask, stream);
      expect(response.output).toEqual({ value: { city: 'Paris', celsius: 21 } });
      expect(response.stopReason).toBe('end_turn');
      expect(response.content).toEqual([{ type: 'text', text: JSON.stringify(value) }]);
      if (stream) {
        // The answer streams as text, on every provider (Anthropic's final tool included), never as a tool call.
        expect(events.filter((event) => event.type.startsWith('tool-call'))).toEqual([]);
        const text = events.flatMap((event) => (event.type === 'text-delta' ? [event.text] : [])).join('');
        expect(text).toBe(JSON.stringify(value));
      }
    });
  }

  it('runAgent: a tool call, then an invalid answer, a repair turn, and the validated value', async () => {
    server.enqueue(
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
      { output: { city: '', celsius: 21 } },
      { output: { city: 'Paris', celsius: 21, note: 'sunny' } },
    );
    const result = await runAgent({ model: model(), tools: [getWeather], prompt: 'Weather in Paris?', output: report, logger: silentLogger });
    expect(result.status).toBe('completed');
    if (result.status !== 'completed') return;
    expect(result.output).toEqual({ city: 'Paris', celsius: 21, note: 'sunny' });
    expect(server.requests).toHaveLength(3);
    const repair = server.requests[2]!.body;
    const last = (repair.messages ?? repair.input).at(-1);
    expect(JSON.stringify(last)).toContain(
      'Your final answer does not match the schema of \\"weather_report\\" (1 problem):\\n1. $.city: must have at least 1 character',
    );
  });
});

describe('Anthropic: the final tool beside real calls', () => {
  it('keeps the answer as text and runs the calls; the model answers again after', async () => {
    server.enqueue(
      { toolCalls: [{ id: 'toolu_a', name: 'get_weather', arguments: { city: 'Paris' } }], output: { city: 'Paris', celsius: 0 } },
      { output: { city: 'Paris', celsius: 21 } },
    );
    const model = createModel('anthropic:claude-test', { apiKey: 'k', baseURL: server.anthropicBaseURL });
    const result = await runAgent({ model, tools: [getWeather], prompt: 'Weather in Paris?', output: report, logger: silentLogger });
    expect(result.status === 'completed' && result.output).toEqual({ city: 'Paris', celsius: 21 });
    const replayed = server.requests[1]!.body.messages;
    // The first answer was replayed as text; only the real call has a tool_use (and its tool_result).
    expect(replayed[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { city: 'Paris' } },
        { type: 'text', text: '{"city":"Paris","celsius":0}' },
      ],
    });
    expect(replayed[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_a' });
  });
});
