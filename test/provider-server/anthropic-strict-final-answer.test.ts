/**
 * The final-answer tool on Anthropic under the model's `strictTools`, read back from the fake provider: declared
 * `strict: true` over the Anthropic strict rewrite (as OpenAI's Structured Outputs decode the answer under theirs), its
 * warnings naming the output, the request-wide strict limits counted with it, and a run whose answer comes back through
 * it, plain and streamed. Without `strictTools` it stays as it was.
 */
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { streamAgent } from '../../src/agent/streaming/stream-agent.js';
import { createModel } from '../../src/models/create-model.js';
import type { ModelOptions } from '../../src/models/model-options.js';
import type { ModelOutputFormat, ModelRequest } from '../../src/protocol/model-exchange.js';
import { defineOutput } from '../../src/tools/define-output.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { type ProviderServer } from './index.js';
import { useProviderServer } from './use-provider-server.js';

let server: ProviderServer;
useProviderServer((started) => (server = started));

const getWeather = defineTool<{ city: string }>({
  name: 'get_weather',
  description: 'Current weather for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  execute: ({ city }) => `${city}: 21 degrees, sunny`,
});

/** `note` is optional and `city` has a bound Anthropic's strict mode lacks. */
const report = defineOutput<{ city: string; celsius: number; note?: string }>(
  {
    type: 'object',
    properties: { city: { type: 'string', minLength: 1 }, celsius: { type: 'number' }, note: { type: 'string' } },
    required: ['city', 'celsius'],
    additionalProperties: false,
  },
  { name: 'weather_report', description: 'The weather now.' },
);
const format: ModelOutputFormat = { name: report.name, description: 'The weather now.', schema: report.schema };
const ask: ModelRequest = { messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [getWeather], output: format };

const description = 'The weather now. Call this tool to give your final answer, once you need no other tool; its input is the answer.';
/** The strict rewrite: the bound removed, `note` still optional (no null invited, so none to restore). */
const strictFinalTool = {
  name: 'weather_report',
  description,
  input_schema: {
    type: 'object',
    properties: { city: { type: 'string' }, celsius: { type: 'number' }, note: { type: 'string' } },
    required: ['city', 'celsius'],
    additionalProperties: false,
  },
  strict: true,
};

const anthropic = (options: ModelOptions = {}) => createModel('anthropic:claude-test', { apiKey: 'k', baseURL: server.anthropicBaseURL, ...options });

describe('Anthropic final-answer tool under strictTools', () => {
  it.each([false, true])('is declared strict over the Anthropic strict rewrite, its warnings naming the output (stream: %s)', async (stream) => {
    server.enqueue({ output: { city: 'Paris', celsius: 21 } });
    const model = anthropic({ strictTools: true });
    const response = stream ? await lastResponse(model.stream(ask)) : await model.generate(ask);
    const body = server.requests[0]!.body;
    expect(body.tools).toEqual([{ ...body.tools[0], strict: true }, strictFinalTool]);
    expect(body.tool_choice).toEqual({ type: 'any' });
    expect(response.warnings).toContainEqual(
      expect.objectContaining({ provider: 'anthropic-strict', feature: 'minLength', path: '/properties/city/minLength', tool: 'weather_report' }),
    );
    expect(response.output).toEqual({ value: { city: 'Paris', celsius: 21 } });
  });

  it('stays as it was without strictTools: no strict flag, the schema as written', async () => {
    server.enqueue({ output: { city: 'Paris', celsius: 21 } });
    await anthropic().generate(ask);
    expect(server.requests[0]!.body.tools[1]).toEqual({ name: 'weather_report', description, input_schema: report.schema });
  });

  it("counts toward Anthropic's limit of 20 strict tools per request", async () => {
    const many = Array.from({ length: 20 }, (_, index) => defineTool({ ...getWeather, name: `get_weather_${index}` }));
    server.enqueue({ text: 'a' }, { text: 'b' });
    const model = anthropic({ strictTools: true });
    const withoutOutput = await model.generate({ ...ask, tools: many, output: undefined });
    expect((withoutOutput.warnings ?? []).filter((warning) => warning.feature === 'strict-tools')).toEqual([]);
    const withOutput = await model.generate({ ...ask, tools: many });
    expect(server.requests[1]!.body.tools).toHaveLength(21);
    expect(withOutput.warnings?.filter((warning) => warning.feature === 'strict-tools')).toEqual([
      {
        type: 'unsupported',
        provider: 'anthropic-strict',
        feature: 'strict-tools',
        path: '',
        details: '21 tools are strict; Anthropic allows at most 20 per request and refuses the request, so make only the tools that need it strict',
      },
    ]);
  });

  it('counts the limits once, with the final tool, where the real tools already pass one', async () => {
    const many = Array.from({ length: 21 }, (_, index) => defineTool({ ...getWeather, name: `get_weather_${index}` }));
    server.enqueue({ text: 'a' });
    const response = await anthropic({ strictTools: true }).generate({ ...ask, tools: many });
    expect(response.warnings?.filter((warning) => warning.feature === 'strict-tools').map((warning) => warning.details)).toEqual([
      '22 tools are strict; Anthropic allows at most 20 per request and refuses the request, so make only the tools that need it strict',
    ]);
  });

  it('runAgent: a tool call, then the answer through the strict final tool, validated against the original schema', async () => {
    server.enqueue({ toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] }, { output: { city: 'Paris', celsius: 21, note: 'sunny' } });
    const result = await runAgent({
      model: anthropic({ strictTools: true }),
      tools: [getWeather],
      prompt: 'Weather in Paris?',
      output: report,
      logger: silentLogger,
    });
    expect(result.status === 'completed' && result.output).toEqual({ city: 'Paris', celsius: 21, note: 'sunny' });
    expect(server.requests.map((request) => request.body.tools.at(-1))).toEqual([strictFinalTool, strictFinalTool]);
  });

  it('streamAgent: the answer through the strict final tool streams as text and ends the run', async () => {
    server.enqueue({ output: { city: 'Paris', celsius: 21 } });
    const run = streamAgent({
      model: anthropic({ strictTools: true }),
      tools: [getWeather],
      prompt: 'Weather in Paris?',
      output: report,
      logger: silentLogger,
    });
    let text = '';
    for await (const event of run) if (event.type === 'text_delta') text += event.text;
    const result = await run.result;
    expect(result.status === 'completed' && result.output).toEqual({ city: 'Paris', celsius: 21 });
    expect(text).toBe('{"city":"Paris","celsius":21}');
    expect(server.requests[0]!.body.tools.at(-1)).toEqual(strictFinalTool);
  });
});

async function lastResponse(events: AsyncIterable<{ type: string; response?: unknown }>): Promise<any> {
  let end: unknown;
  for await (const event of events) if (event.type === 'end') end = event.response;
  return end;
}
