import type { ChatCompletionMessageParam, ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { PIXEL_PNG } from '../__fixtures__/tools.js';
import { toOpenAIChatResultMessage, toOpenAIChatResultMessages } from './to-openai-chat-result-messages.js';

describe('toOpenAIChatResultMessages', () => {
  it('builds one tool message per call, joining text parts', () => {
    const { messages, warnings } = toOpenAIChatResultMessages([
      { callId: 'call_12345xyz', result: { content: [{ type: 'text', text: '15°C' }], isError: false } },
      {
        callId: 'call_99999def',
        result: {
          content: [
            { type: 'text', text: 'line 1' },
            { type: 'text', text: 'line 2' },
          ],
          isError: true,
        },
      },
    ]);
    expect(messages).toEqual([
      { role: 'tool', tool_call_id: 'call_12345xyz', content: '15°C' },
      { role: 'tool', tool_call_id: 'call_99999def', content: 'line 1\nline 2' },
    ]);
    expect(warnings).toEqual([]);
    expectTypeOf(messages).toExtend<ChatCompletionToolMessageParam[]>();
    expectTypeOf(messages).toExtend<ChatCompletionMessageParam[]>();
  });

  it('replaces parts a tool message cannot carry with text, and warns for each', () => {
    const { message, warnings } = toOpenAIChatResultMessage({
      callId: 'call_1',
      result: {
        content: [
          { type: 'text', text: 'Here:' },
          { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
          { type: 'resource_link', uri: 'file:///report.pdf', name: 'report.pdf', description: 'Q3 report' },
          { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'hello' } },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        ],
        isError: false,
      },
    });
    expect(message.content).toBe(
      [
        'Here:',
        '[The tool returned an image (image/png, 68 bytes) that cannot be shown here.]',
        'Resource: report.pdf <file:///report.pdf> — Q3 report',
        'Resource file:///notes.txt (text/plain):\nhello',
        '[The tool returned audio (audio/wav, 3 bytes) that cannot be played here.]',
      ].join('\n'),
    );
    expect(warnings.map((warning) => `${warning.type} ${warning.feature} ${warning.path} ${warning.tool}`)).toEqual([
      'unsupported image-content /content/1 call_1',
      'rewritten resource-link /content/2 call_1',
      'rewritten embedded-resource /content/3 call_1',
      'unsupported audio-content /content/4 call_1',
    ]);
    expect(warnings[0]?.details).toBe('A Chat Completions tool message cannot carry this image in a tool result; the model sees a text placeholder instead');
  });

  it('sends the structured value as JSON when a result has no content parts', () => {
    const { message } = toOpenAIChatResultMessage({ callId: 'call_2', result: { content: [], structuredContent: { temperature: 22.5 }, isError: false } });
    expect(message.content).toBe('{"temperature":22.5}');
  });
});
