import { describe, expect, it } from 'vitest';
import { CONVERSATION } from '../__fixtures__/conversation.js';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';

describe('convertToOpenAIChatMessages', () => {
  it('converts every message kind, replaying argument text verbatim', () => {
    const { messages, warnings } = convertToOpenAIChatMessages(CONVERSATION);
    expect(messages).toEqual([
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
    ]);
    expect(warnings).toEqual([]);
  });

  it('serializes parsed arguments when there is no raw text, and sends images as data URLs', () => {
    const { messages } = convertToOpenAIChatMessages([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool-call', id: 'toolu_1', name: 'look', arguments: { zoom: 2 } }] },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'look', arguments: '{"zoom":2}' } }] },
    ]);
  });

  it('passes on the warnings of result parts a tool message cannot carry', () => {
    const { messages, warnings } = convertToOpenAIChatMessages([
      {
        role: 'tool',
        results: [{ callId: 'c1', toolName: 'shot', result: { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }], isError: false } }],
      },
    ]);
    expect(messages).toHaveLength(1);
    expect(warnings.map((warning) => warning.feature)).toEqual(['image-content']);
  });
});
