import { describe, expect, it } from 'vitest';
import { streamEvents } from '../__fixtures__/openai-responses.js';
import { getWeather } from '../__fixtures__/tools.js';
import { OpenAIResponsesToolCallStream, type OpenAIResponsesStreamEvent } from './openai-responses-tool-call-stream.js';

describe('OpenAIResponsesToolCallStream', () => {
  it('assembles the guide’s streamed call', () => {
    const stream = new OpenAIResponsesToolCallStream();
    const partials: unknown[] = [];
    for (const event of streamEvents) {
      stream.push(event);
      partials.push(stream.partialCalls[0]?.partialArguments);
    }
    expect(partials).toEqual([
      undefined,
      {},
      {},
      { location: '' },
      { location: 'Paris' },
      { location: 'Paris,' },
      { location: 'Paris, France' },
      { location: 'Paris, France' },
      { location: 'Paris, France' },
      { location: 'Paris, France' },
    ]);
    expect(stream.partialCalls).toEqual([
      {
        index: 0,
        id: 'call_1234xyz',
        name: 'get_weather',
        argumentsText: '{"location":"Paris, France"}',
        partialArguments: { location: 'Paris, France' },
        done: true,
      },
    ]);
    expect(stream.toolCalls()).toEqual([{ id: 'call_1234xyz', name: 'get_weather', argumentsText: '{"location":"Paris, France"}' }]);
  });

  it('keeps parallel calls apart by item id and collects output text', () => {
    const events: OpenAIResponsesStreamEvent[] = [
      { type: 'response.output_text.delta', sequence_number: 0, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Checking…', logprobs: [] },
      {
        type: 'response.output_item.added',
        sequence_number: 1,
        output_index: 2,
        item: { type: 'function_call', id: 'fc_b', call_id: 'call_b', name: 'get_time', arguments: '' },
      },
      {
        type: 'response.output_item.added',
        sequence_number: 2,
        output_index: 1,
        item: { type: 'function_call', id: 'fc_a', call_id: 'call_a', name: 'get_weather', arguments: '' },
      },
      { type: 'response.function_call_arguments.delta', sequence_number: 3, item_id: 'fc_b', output_index: 2, delta: '{"timezone":"UTC"}' },
      { type: 'response.function_call_arguments.delta', sequence_number: 4, item_id: 'fc_a', output_index: 1, delta: '{"location":"Oslo",' },
    ];
    const stream = new OpenAIResponsesToolCallStream({ strict: true, tools: [getWeather] });
    for (const event of events) stream.push(event);
    expect(stream.text).toBe('Checking…');
    expect(stream.partialCalls.map((call) => [call.id, call.partialArguments, call.done])).toEqual([
      ['call_a', { location: 'Oslo' }, false],
      ['call_b', { timezone: 'UTC' }, false],
    ]);
    stream.push({
      type: 'response.function_call_arguments.done',
      sequence_number: 5,
      item_id: 'fc_a',
      output_index: 1,
      name: 'get_weather',
      arguments: '{"location":"Oslo","unit":null}',
    });
    expect(stream.toolCalls()).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: { location: 'Oslo' } },
      { id: 'call_b', name: 'get_time', argumentsText: '{"timezone":"UTC"}' },
    ]);
  });
});
