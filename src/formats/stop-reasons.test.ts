import { describe, expect, it } from 'vitest';
import { mapAISDKFinishReason } from './ai-sdk/map-ai-sdk-response.js';
import { mapAnthropicStopReason } from './anthropic/map-anthropic-stop-reason.js';
import { mapOpenAIChatFinishReason } from './openai-chat/map-openai-chat-finish-reason.js';
import { mapOpenAIResponsesResponse, mapOpenAIResponsesStatus } from './openai-responses/map-openai-responses-response.js';

describe('stop reason mapping', () => {
  it('maps Chat Completions finish reasons', () => {
    expect(['stop', 'tool_calls', 'function_call', 'length', 'content_filter', null, 'eos'].map((reason) => mapOpenAIChatFinishReason(reason, false))).toEqual([
      'end_turn',
      'tool_calls',
      'tool_calls',
      'max_tokens',
      'content_filter',
      'other',
      'other',
    ]);
    expect(mapOpenAIChatFinishReason('stop', true)).toBe('tool_calls');
  });

  it('maps AI SDK unified finish reasons, the calls winning over a plain stop', () => {
    const unified = ['stop', 'tool-calls', 'length', 'content-filter', 'error', 'interrupted', 'other', undefined] as const;
    expect(unified.map((reason) => mapAISDKFinishReason({ unified: reason as never, raw: undefined }, false))).toEqual([
      'end_turn',
      'tool_calls',
      'max_tokens',
      'content_filter',
      'other',
      'other',
      'other',
      'other',
    ]);
    expect(mapAISDKFinishReason({ unified: 'stop', raw: 'STOP' }, true)).toBe('tool_calls');
    expect(mapAISDKFinishReason({ unified: 'content-filter', raw: 'refusal' }, false)).toBe('refusal');
    expect(mapAISDKFinishReason(undefined, false)).toBe('other');
  });

  it('maps Anthropic stop reasons', () => {
    expect(
      ['end_turn', 'stop_sequence', 'tool_use', 'max_tokens', 'model_context_window_exceeded', 'refusal', 'pause_turn', null].map((reason) =>
        mapAnthropicStopReason(reason, false),
      ),
    ).toEqual(['end_turn', 'end_turn', 'tool_calls', 'max_tokens', 'max_tokens', 'refusal', 'other', 'other']);
  });

  it('maps Responses statuses', () => {
    expect(mapOpenAIResponsesStatus({ status: 'completed', incomplete_details: null }, false)).toBe('end_turn');
    expect(mapOpenAIResponsesStatus({ status: 'completed', incomplete_details: null }, true)).toBe('tool_calls');
    expect(mapOpenAIResponsesStatus({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }, true)).toBe('max_tokens');
    expect(mapOpenAIResponsesStatus({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } }, false)).toBe('content_filter');
    expect(mapOpenAIResponsesStatus({ status: 'cancelled', incomplete_details: null }, false)).toBe('other');
  });

  it('keeps a Responses refusal apart from a content filter, with the provider value', () => {
    const response = {
      id: 'resp_1',
      model: 'gpt-test',
      status: 'completed',
      incomplete_details: null,
      output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'refusal', refusal: 'I cannot help with that.' }] }],
    } as unknown as Parameters<typeof mapOpenAIResponsesResponse>[0];
    expect(mapOpenAIResponsesResponse(response, { fallbackUsage: () => ({ inputTokens: 0, outputTokens: 0 }) })).toMatchObject({
      stopReason: 'refusal',
      providerStopReason: 'completed',
      content: [{ type: 'text', text: 'I cannot help with that.' }],
    });
  });
});
