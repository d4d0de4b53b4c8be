/**
 * Neutral messages as node-llama-cpp chat history, and the reuse of the context's
 * prefix between turns (checked on a stand-in sequence: no model is loaded).
 */
import type { Token } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import type { FormatWarning } from '../../protocol/format-warning.js';
import type { Message } from '../../protocol/messages.js';
import { keepReusablePrefix, reusablePrefixLength, toChatHistory, type PrefixReusingSequence } from './chat-history.js';

describe('toChatHistory', () => {
  it('pairs each call with its result inside the model turn, and drops the tool messages', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool-call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' }, argumentsText: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'c2', name: 'get_time', arguments: undefined, argumentsText: '{bad' },
        ],
      },
      { role: 'tool', results: [{ callId: 'c1', toolName: 'get_weather', result: { content: [{ type: 'text', text: 'sunny' }], isError: false } }] },
    ];
    const warnings: FormatWarning[] = [];
    expect(toChatHistory(messages, warnings)).toEqual([
      { type: 'system', text: 'Be brief.' },
      { type: 'user', text: 'Weather?' },
      {
        type: 'model',
        response: [
          'Looking.',
          { type: 'functionCall', name: 'get_weather', params: { city: 'Paris' }, result: 'sunny' },
          { type: 'functionCall', name: 'get_time', params: {}, result: '(no result)' },
        ],
      },
    ]);
    expect(warnings).toEqual([]);
  });

  it('replaces images by a placeholder and says so', () => {
    const warnings: FormatWarning[] = [];
    const history = toChatHistory(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image', mimeType: 'image/png', data: 'AAAA' },
          ],
        },
      ],
      warnings,
    );
    expect(history).toEqual([{ type: 'user', text: 'Look:\n[an image (image/png) the local model cannot see]' }]);
    expect(warnings).toMatchObject([{ type: 'unsupported', feature: 'image-input' }]);
  });
});

describe('context prefix reuse', () => {
  it('keeps the common prefix, but always evaluates at least the last wanted token', () => {
    expect(reusablePrefixLength([], [1, 2, 3])).toBe(0);
    expect(reusablePrefixLength([1, 2, 9], [1, 2, 3, 4])).toBe(2);
    expect(reusablePrefixLength([1, 2, 3, 4, 5], [1, 2, 3])).toBe(2);
    expect(reusablePrefixLength([1, 2, 3], [1, 2, 3])).toBe(2);
  });

  it('erases what follows the reusable prefix and returns the tokens left to evaluate', async () => {
    const erased: { start: number; end: number }[][] = [];
    const sequence = (held: number[]): PrefixReusingSequence =>
      ({
        contextTokens: held as Token[],
        nextTokenIndex: held.length,
        eraseContextTokenRanges: async (ranges: { start: number; end: number }[]) => void erased.push(ranges),
      }) as unknown as PrefixReusingSequence;
    expect(await keepReusablePrefix(sequence([1, 2, 9, 9]), [1, 2, 3, 4] as Token[])).toEqual([3, 4]);
    expect(erased).toEqual([[{ start: 2, end: 4 }]]);
    // Everything held is reused: nothing to erase.
    expect(await keepReusablePrefix(sequence([1, 2]), [1, 2, 3] as Token[])).toEqual([3]);
    expect(erased).toHaveLength(1);
  });
});
