import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { streamChunks } from '../__fixtures__/openai-chat.js';
import { getWeather } from '../__fixtures__/tools.js';
import { OpenAIChatToolCallStream } from './openai-chat-tool-call-stream.js';

function chunk(delta: ChatCompletionChunk.Choice.Delta, index = 0): ChatCompletionChunk {
  return { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index, delta, finish_reason: null }] };
}

describe('OpenAIChatToolCallStream', () => {
  it('assembles the guide’s streamed call, exposing partial arguments on the way', () => {
    const stream = new OpenAIChatToolCallStream();
    const partials: unknown[] = [];
    for (const piece of streamChunks) {
      stream.push(piece);
      const [call] = stream.partialCalls;
      if (call) partials.push(call.partialArguments);
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
    ]);
    expect(stream.partialCalls).toEqual([
      {
        index: 0,
        id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA',
        name: 'get_weather',
        argumentsText: '{"location":"Paris, France"}',
        partialArguments: { location: 'Paris, France' },
        done: true,
      },
    ]);
    expect(stream.finishReason).toBe('tool_calls');
    expect(stream.toolCalls()).toEqual([{ id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', name: 'get_weather', argumentsText: '{"location":"Paris, France"}' }]);
  });

  it('keeps interleaved calls apart by index and orders them', () => {
    const stream = new OpenAIChatToolCallStream();
    stream.push(chunk({ content: 'Checking ' }));
    stream.push(chunk({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_time', arguments: '' } }] }));
    stream.push(chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"loc' } }] }));
    stream.push(chunk({ tool_calls: [{ index: 1, function: { arguments: '{"timezone":"UTC"}' } }] }));
    stream.push(chunk({ tool_calls: [{ index: 0, function: { arguments: 'ation":"Oslo"}' } }] }));
    stream.push(chunk({ content: 'both.' }));
    stream.push(chunk({ tool_calls: [{ index: 0, function: { arguments: 'ignored' } }] }, 1));
    expect(stream.text).toBe('Checking both.');
    expect(stream.toolCalls()).toEqual([
      { id: 'call_a', name: 'get_weather', argumentsText: '{"location":"Oslo"}' },
      { id: 'call_b', name: 'get_time', argumentsText: '{"timezone":"UTC"}' },
    ]);
    expect(stream.partialCalls.map((call) => call.done)).toEqual([false, false]);
  });

  it('tolerates servers that repeat the id and name, or never send an id', () => {
    const stream = new OpenAIChatToolCallStream();
    stream.push(chunk({ tool_calls: [{ index: 0, function: { name: 'get_weather', arguments: '{"location":' } }] }));
    stream.push(chunk({ tool_calls: [{ index: 0, function: { name: 'get_weather', arguments: '"Rome"}' } }] }));
    expect(stream.toolCalls()).toEqual([{ id: 'call_0', name: 'get_weather', argumentsText: '{"location":"Rome"}' }]);
  });

  it('maps strict-mode nulls back to absent in the final calls', () => {
    const stream = new OpenAIChatToolCallStream({ strict: true, tools: [getWeather] });
    stream.push(
      chunk({ tool_calls: [{ index: 0, id: 'call_s', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Lima","unit":null}' } }] }),
    );
    expect(stream.toolCalls()).toEqual([{ id: 'call_s', name: 'get_weather', arguments: { location: 'Lima' } }]);
  });
});
