import { describe, expect, it } from 'vitest';
import type { ModelOutputFormat, ModelResponse } from '../protocol/model-exchange.js';
import { foldFinalAnswer } from './anthropic/anthropic-final-answer.js';
import { declaredOutputSchema, withOutputValue } from './output-format.js';

const format: ModelOutputFormat = {
  name: 'answer',
  schema: { type: 'object', properties: { city: { type: 'string' }, note: { type: 'string' } }, required: ['city'], additionalProperties: false },
};

function response(content: ModelResponse['content'], stopReason: ModelResponse['stopReason'] = 'end_turn'): ModelResponse {
  return { content, stopReason, usage: { inputTokens: 1, outputTokens: 1 }, modelId: 'm' };
}

describe('withOutputValue', () => {
  it('restores the nulls strict mode invites only when strict', () => {
    const answer = response([{ type: 'text', text: '{"city": "Paris", "note": null}' }]);
    expect(withOutputValue(answer, format, true).output).toEqual({ value: { city: 'Paris' } });
    expect(withOutputValue(answer, format, false).output).toEqual({ value: { city: 'Paris', note: null } });
  });

  it('sets nothing without a format, with calls, for a refusal, or for text that is not JSON', () => {
    const text = response([{ type: 'text', text: '{"city": "Paris"}' }]);
    expect(withOutputValue(text, undefined, true).output).toBeUndefined();
    expect(withOutputValue(response(text.content, 'refusal'), format, true).output).toBeUndefined();
    expect(
      withOutputValue(response([...text.content, { type: 'tool-call', id: 'c', name: 't', arguments: {} }], 'tool_calls'), format, true).output,
    ).toBeUndefined();
    expect(withOutputValue(response([{ type: 'text', text: 'Paris' }]), format, true).output).toBeUndefined();
  });
});

describe('declaredOutputSchema', () => {
  it('names the output in every warning', () => {
    const { warnings } = declaredOutputSchema(
      { ...format, schema: { type: 'object', properties: { city: { type: 'string', maxLength: 9 } } } },
      'openai-strict',
    );
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.every((warning) => warning.tool === 'answer')).toBe(true);
  });
});

describe('foldFinalAnswer (Anthropic)', () => {
  it('turns the final call alone into the answer, and leaves other responses as they are', () => {
    const alone = response([{ type: 'tool-call', id: 't1', name: 'answer', arguments: { city: 'Rome' } }], 'tool_calls');
    expect(foldFinalAnswer(alone, format)).toMatchObject({
      content: [{ type: 'text', text: '{"city":"Rome"}' }],
      stopReason: 'end_turn',
      output: { value: { city: 'Rome' } },
    });
    expect(foldFinalAnswer(alone, undefined)).toBe(alone);
    const other = response([{ type: 'tool-call', id: 't1', name: 'lookup', arguments: {} }], 'tool_calls');
    expect(foldFinalAnswer(other, format)).toBe(other);
  });

  it('keeps broken input as its text without a value, and does not write out an input past the limits', () => {
    const broken = response(
      [{ type: 'tool-call', id: 't1', name: 'answer', arguments: undefined, argumentsText: '{"city": ', argumentsError: { message: 'cut' } }],
      'tool_calls',
    );
    const folded = foldFinalAnswer(broken, format);
    expect(folded.content).toEqual([{ type: 'text', text: '{"city": ' }]);
    expect(folded.output).toBeUndefined();
    let deep: unknown = {};
    for (let depth = 0; depth < 100_000; depth++) deep = { a: deep };
    const huge = foldFinalAnswer(response([{ type: 'tool-call', id: 't1', name: 'answer', arguments: deep }], 'tool_calls'), format);
    expect(huge.content).toEqual([{ type: 'text', text: '(the final answer was not kept: the JSON nests 100001 levels deep; the limit is 64)' }]);
    expect(huge.output).toBeUndefined();
  });
});
