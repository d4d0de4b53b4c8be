/**
 * `runAgent` over an AI SDK language model (`fromAISDKModel` around the AI
 * SDK's own `MockLanguageModelV4`): the loop, the registry and the history
 * conversion together.
 */
import type { LanguageModelV4GenerateResult, LanguageModelV4StreamPart, LanguageModelV4Usage } from '@ai-sdk/provider';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { fromAISDKModel } from '../models/ai-sdk/index.js';
import { defineTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import { defineOutput } from '../tools/define-output.js';
import { runAgent } from './run-agent.js';
import { streamAgent } from './streaming/stream-agent.js';

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

function generated(content: LanguageModelV4GenerateResult['content'], unified: 'stop' | 'tool-calls'): LanguageModelV4GenerateResult {
  return { content, finishReason: { unified, raw: undefined }, usage: usage(12, 5), warnings: [] };
}

describe('runAgent with fromAISDKModel', () => {
  it('runs a two-step agent with a real tool, generate and history conversion included', async () => {
    const mock = new MockLanguageModelV4({
      doGenerate: [
        generated([{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Paris"}' }], 'tool-calls'),
        generated([{ type: 'text', text: 'Paris is sunny.' }], 'stop'),
      ],
    });
    const result = await runAgent({ model: fromAISDKModel(mock), tools: [getWeather], prompt: 'Weather in Paris?', recordDir: false, logger: silentLogger });
    expect(result.status).toBe('completed');
    expect(result.status === 'completed' && result.text).toBe('Paris is sunny.');
    expect(result.usage).toMatchObject({ inputTokens: 24, outputTokens: 10, modelCalls: 2 });
    expect(mock.doGenerateCalls[1]!.prompt.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'get_weather', output: { type: 'text', value: 'Paris: sunny' } }] },
    ]);
  });

  it('replays the provider metadata a call came with as its provider options (Gemini thought signatures)', async () => {
    const signature = { google: { thoughtSignature: 'sig-1' } };
    const mock = new MockLanguageModelV4({
      doGenerate: [
        generated([{ type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Paris"}', providerMetadata: signature }], 'tool-calls'),
        generated([{ type: 'text', text: 'Sunny.' }], 'stop'),
      ],
    });
    const result = await runAgent({ model: fromAISDKModel(mock), tools: [getWeather], prompt: 'Weather in Paris?', recordDir: false, logger: silentLogger });
    expect(result.status).toBe('completed');
    const assistant = mock.doGenerateCalls[1]!.prompt.find((message) => message.role === 'assistant');
    expect(assistant?.content).toEqual([
      { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: { city: 'Paris' }, providerOptions: signature },
    ]);
  });
});

describe('streamAgent with fromAISDKModel', () => {
  const verdict = defineOutput<{ city: string; sunny: boolean }>(
    { type: 'object', properties: { city: { type: 'string' }, sunny: { type: 'boolean' } }, required: ['city', 'sunny'], additionalProperties: false },
    { name: 'verdict' },
  );
  const streamed = (parts: LanguageModelV4StreamPart[]) => ({ stream: convertArrayToReadableStream(parts) });

  it('streams reasoning and text deltas, runs the tool, and ends with the structured output the AI SDK was asked for', async () => {
    const mock = new MockLanguageModelV4({
      doStream: [
        streamed([
          { type: 'reasoning-start', id: 'r' },
          { type: 'reasoning-delta', id: 'r', delta: 'I should look it up.' },
          { type: 'reasoning-end', id: 'r' },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'get_weather', input: '{"city":"Paris"}' },
          { type: 'finish', usage: usage(12, 5), finishReason: { unified: 'tool-calls', raw: undefined } },
        ]),
        streamed([
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: '{"city":"Paris",' },
          { type: 'text-delta', id: 't', delta: '"sunny":true}' },
          { type: 'text-end', id: 't' },
          { type: 'finish', usage: usage(20, 8), finishReason: { unified: 'stop', raw: undefined } },
        ]),
      ],
    });
    const run = streamAgent({ model: fromAISDKModel(mock), tools: [getWeather], prompt: 'Is Paris sunny?', output: verdict, logger: silentLogger });
    const kinds: string[] = [];
    let reasoning = '';
    let text = '';
    for await (const event of run) {
      kinds.push(event.type);
      if (event.type === 'reasoning_delta') reasoning += event.text;
      if (event.type === 'text_delta') text += event.text;
    }
    const result = await run.result;
    expect(result.status).toBe('completed');
    // Typed from defineOutput: a wrong property would not compile.
    expect(result.status === 'completed' && result.output.sunny).toBe(true);
    expect(reasoning).toBe('I should look it up.');
    expect(text).toBe('{"city":"Paris","sunny":true}');
    expect(kinds).toContain('tool_result');
    expect(kinds.at(-1)).toBe('stop');
    expect(mock.doStreamCalls[0]!.responseFormat).toEqual({ type: 'json', name: 'verdict', schema: verdict.schema });
  });
});
