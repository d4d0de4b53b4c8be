import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { AISDKStreamAccumulator } from './ai-sdk-stream-accumulator.js';

function fold(parts: unknown[]) {
  const accumulator = new AISDKStreamAccumulator();
  const changes = parts.map((part) => accumulator.push(part as LanguageModelV4StreamPart));
  return { accumulator, changes };
}

describe('AISDKStreamAccumulator', () => {
  it('reports reasoning deltas and keeps the reasoning with its merged provider metadata, and skips provider-executed tools', () => {
    const { accumulator, changes } = fold([
      { type: 'reasoning-start', id: 'r', providerMetadata: { anthropic: { a: 1 } } },
      { type: 'reasoning-delta', id: 'r', delta: 'thi' },
      { type: 'reasoning-delta', id: 'r', delta: 'nk' },
      { type: 'reasoning-delta', id: 'r', delta: '', providerMetadata: { anthropic: { signature: 'sig_r' } } },
      { type: 'reasoning-end', id: 'r' },
      { type: 'tool-input-start', id: 's', toolName: 'web_search', providerExecuted: true },
      { type: 'tool-input-delta', id: 's', delta: '{"q":1}' },
      { type: 'tool-call', toolCallId: 's', toolName: 'web_search', input: '{"q":1}' },
      { type: 'tool-result', toolCallId: 's', toolName: 'web_search', result: {} },
      { type: 'text-delta', id: 't', delta: 'Done.' },
    ]);
    expect(changes.map((change) => change.type)).toEqual([
      'none',
      'reasoning-delta',
      'reasoning-delta',
      'none',
      'none',
      'none',
      'none',
      'none',
      'none',
      'text-delta',
    ]);
    expect(accumulator.content().content).toEqual([
      { type: 'reasoning', format: 'ai-sdk', item: { type: 'reasoning', text: 'think', providerMetadata: { anthropic: { a: 1, signature: 'sig_r' } } } },
      { type: 'text', text: 'Done.' },
    ]);
    expect(accumulator.partialCalls).toEqual([]);
  });

  it('takes only the final input of a text-encoded call, and the streamed text of a call that never finished', () => {
    const { accumulator } = fold([
      { type: 'tool-input-start', id: 'a', toolName: 'shell', inputEncoding: 'text' },
      { type: 'tool-input-delta', id: 'a', delta: 'ls -la' },
      { type: 'tool-call', toolCallId: 'a', toolName: 'shell', input: '{"command":"ls -la"}' },
      { type: 'tool-input-start', id: 'b', toolName: 'get_weather' },
      { type: 'tool-input-delta', id: 'b', delta: '{"city":"Pa' },
    ]);
    const { calls } = accumulator.content();
    expect(calls[0]).toEqual({ type: 'tool-call', id: 'a', name: 'shell', arguments: { command: 'ls -la' }, argumentsText: '{"command":"ls -la"}' });
    expect(calls[1]).toMatchObject({ id: 'b', arguments: undefined, argumentsText: '{"city":"Pa' });
    expect(calls[1]!.argumentsError).toBeDefined();
    expect(accumulator.finish).toBeUndefined();
  });

  it('ignores junk parts and keeps an error part for the caller', () => {
    const { changes } = fold([null, 3, { type: 'text-delta', id: 't', delta: 7 }, { type: 'error', error: 'boom' }, { type: 'mystery' }]);
    expect(changes).toEqual([{ type: 'none' }, { type: 'none' }, { type: 'none' }, { type: 'error', error: 'boom' }, { type: 'none' }]);
  });
});
