import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { streamEvents } from '../__fixtures__/anthropic.js';
import { AnthropicToolCallStream } from './anthropic-tool-call-stream.js';

describe('AnthropicToolCallStream', () => {
  it('assembles the documentation’s streamed tool use and its text', () => {
    const stream = new AnthropicToolCallStream();
    const partials: unknown[] = [];
    for (const event of streamEvents) {
      stream.push(event);
      const call = stream.partialCalls[0];
      if (call && event.type === 'content_block_delta') partials.push(call.partialArguments);
    }
    expect(partials).toEqual([
      {},
      {},
      { location: 'San' },
      { location: 'San Francisc' },
      { location: 'San Francisco,' },
      { location: 'San Francisco, CA' },
      { location: 'San Francisco, CA' },
      { location: 'San Francisco, CA', unit: 'fah' },
      { location: 'San Francisco, CA', unit: 'fahrenheit' },
    ]);
    expect(stream.text).toBe("Okay, let's check the weather for San Francisco, CA:");
    expect(stream.stopReason).toBe('tool_use');
    expect(stream.partialCalls).toEqual([
      {
        index: 1,
        id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
        name: 'get_weather',
        argumentsText: '{"location": "San Francisco, CA", "unit": "fahrenheit"}',
        partialArguments: { location: 'San Francisco, CA', unit: 'fahrenheit' },
        done: true,
      },
    ]);
    expect(stream.toolCalls()).toEqual([
      { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', argumentsText: '{"location": "San Francisco, CA", "unit": "fahrenheit"}' },
    ]);
  });

  it('uses the start block’s input when no JSON arrives', () => {
    const stream = new AnthropicToolCallStream();
    const events: RawMessageStreamEvent[] = [
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_x', name: 'get_time', input: {}, caller: { type: 'direct' } } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_stop', index: 0 },
    ];
    for (const event of events) stream.push(event);
    expect(stream.toolCalls()).toEqual([{ id: 'toolu_x', name: 'get_time', arguments: {} }]);
  });
});
