import type { ChatCompletionMessage } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { parallelCallsCompletion } from '../__fixtures__/openai-chat.js';
import { getWeather, sendEmail } from '../__fixtures__/tools.js';
import { parseOpenAIChatToolCalls } from './parse-openai-chat-tool-calls.js';

describe('parseOpenAIChatToolCalls', () => {
  it('reads every call of the guide’s parallel example, keeping the arguments as text', () => {
    expect(parseOpenAIChatToolCalls(parallelCallsCompletion)).toEqual([
      { id: 'call_12345xyz', name: 'get_weather', argumentsText: '{"location":"Paris, France"}' },
      { id: 'call_67890abc', name: 'get_weather', argumentsText: '{"location":"Bogotá, Colombia"}' },
      { id: 'call_99999def', name: 'send_email', argumentsText: '{"to":"bob@email.com","body":"Hi bob"}' },
    ]);
  });

  it('accepts the message or the tool_calls list, and returns [] when there are none', () => {
    const message = parallelCallsCompletion.choices[0]!.message;
    expect(parseOpenAIChatToolCalls(message)).toHaveLength(3);
    expect(parseOpenAIChatToolCalls(message.tool_calls!)).toHaveLength(3);
    const plain: ChatCompletionMessage = { role: 'assistant', content: 'Hello', refusal: null };
    expect(parseOpenAIChatToolCalls(plain)).toEqual([]);
    expect(parseOpenAIChatToolCalls({ ...parallelCallsCompletion, choices: [] })).toEqual([]);
  });

  it('in strict mode turns the nulls of optional properties back into absent properties', () => {
    const message: ChatCompletionMessage = {
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Lima","unit":null}' } },
        { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"location":' } },
        { id: 'call_3', type: 'function', function: { name: 'not_declared', arguments: '{"a":null}' } },
      ],
    };
    expect(parseOpenAIChatToolCalls(message, { strict: true, tools: [getWeather, sendEmail] })).toEqual([
      { id: 'call_1', name: 'get_weather', arguments: { location: 'Lima' } },
      { id: 'call_2', name: 'get_weather', argumentsText: '{"location":' },
      { id: 'call_3', name: 'not_declared', argumentsText: '{"a":null}' },
    ]);
    // Without strict the text is passed on untouched.
    expect(parseOpenAIChatToolCalls(message, { tools: [getWeather] })[0]).toEqual({
      id: 'call_1',
      name: 'get_weather',
      argumentsText: '{"location":"Lima","unit":null}',
    });
  });

  it('passes custom (free-form) tool calls on for the registry to answer', () => {
    const message: ChatCompletionMessage = {
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [{ id: 'call_c', type: 'custom', custom: { name: 'code_exec', input: 'print(1)' } }],
    };
    expect(parseOpenAIChatToolCalls(message)).toEqual([{ id: 'call_c', name: 'code_exec', arguments: 'print(1)' }]);
  });
});
