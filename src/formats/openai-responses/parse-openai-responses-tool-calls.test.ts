import type { ResponseOutputItem } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { parallelCallsOutput } from '../__fixtures__/openai-responses.js';
import { getWeather } from '../__fixtures__/tools.js';
import { parseOpenAIResponsesToolCalls } from './parse-openai-responses-tool-calls.js';

describe('parseOpenAIResponsesToolCalls', () => {
  it('reads the guide’s parallel calls by call_id, keeping the arguments as text', () => {
    expect(parseOpenAIResponsesToolCalls({ output: parallelCallsOutput })).toEqual([
      { id: 'call_12345xyz', name: 'get_weather', argumentsText: '{"location":"Paris, France"}' },
      { id: 'call_67890abc', name: 'get_weather', argumentsText: '{"location":"Bogotá, Colombia"}' },
      { id: 'call_99999def', name: 'send_email', argumentsText: '{"to":"bob@email.com","body":"Hi bob"}' },
    ]);
  });

  it('skips output items that are not function calls', () => {
    const output: ResponseOutputItem[] = [
      { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Let me check.', annotations: [] }] },
      parallelCallsOutput[0]!,
    ];
    expect(parseOpenAIResponsesToolCalls(output)).toEqual([{ id: 'call_12345xyz', name: 'get_weather', argumentsText: '{"location":"Paris, France"}' }]);
  });

  it('in strict mode turns optional nulls back into absent properties', () => {
    const output: ResponseOutputItem[] = [
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"location":"Quito","unit":null}' },
    ];
    expect(parseOpenAIResponsesToolCalls(output, { strict: true, tools: [getWeather] })).toEqual([
      { id: 'call_1', name: 'get_weather', arguments: { location: 'Quito' } },
    ]);
  });
});
