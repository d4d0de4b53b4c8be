import { describe, expect, it } from 'vitest';
import { CONVERSATION } from '../__fixtures__/conversation.js';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

describe('convertToAnthropicMessages', () => {
  it('moves system to its parameter, makes tool results one user message, and replays a broken call as {} with a note', () => {
    const { system, messages, warnings } = convertToAnthropicMessages(CONVERSATION);
    expect(system).toBe('You are terse.');
    expect(messages).toEqual([
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
    ]);
    expect(warnings).toEqual([
      {
        type: 'rewritten',
        provider: 'anthropic',
        feature: 'unparsable-tool-arguments',
        path: '/messages/2/content/2',
        details: 'Anthropic needs tool_use input as an object; call call_2 had unparsable arguments, so it is replayed as {} with a text note quoting them',
      },
    ]);
  });

  it('merges consecutive tool messages into one user message', () => {
    const result = (callId: string) => ({ callId, toolName: 't', result: { content: [{ type: 'text' as const, text: callId }], isError: false } });
    const { messages } = convertToAnthropicMessages([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'a', name: 't', arguments: {} },
          { type: 'tool-call', id: 'b', name: 't', arguments: {} },
        ],
      },
      { role: 'tool', results: [result('a')] },
      { role: 'tool', results: [result('b')] },
    ]);
    expect(messages).toHaveLength(3);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', is_error: false, content: [{ type: 'text', text: 'a' }] },
        { type: 'tool_result', tool_use_id: 'b', is_error: false, content: [{ type: 'text', text: 'b' }] },
      ],
    });
  });

  it('joins system messages and warns about one that comes late', () => {
    const { system, warnings } = convertToAnthropicMessages([
      { role: 'system', content: 'One.' },
      { role: 'user', content: 'hi' },
      { role: 'system', content: 'Two.' },
    ]);
    expect(system).toBe('One.\n\nTwo.');
    expect(warnings.map((warning) => [warning.feature, warning.path])).toEqual([['late-system-message', '/messages/2']]);
  });

  it('sends a non-object argument value as {} with the note too', () => {
    const { messages } = convertToAnthropicMessages([{ role: 'assistant', content: [{ type: 'tool-call', id: 'x', name: 't', arguments: [1, 2] }] }]);
    expect(messages[0]!.content).toEqual([
      { type: 'text', text: '(The arguments of call x to t were not a JSON object and are replayed as {}. They were: [1,2])' },
      { type: 'tool_use', id: 'x', name: 't', input: {} },
    ]);
  });
});
