import { describe, expect, it } from 'vitest';
import { CONVERSATION } from '../__fixtures__/conversation.js';
import { convertToOpenAIResponsesInput } from './convert-to-openai-responses-input.js';

describe('convertToOpenAIResponsesInput', () => {
  it('keeps text and calls as separate items in order, with argument text verbatim', () => {
    const { input, warnings } = convertToOpenAIResponsesInput(CONVERSATION);
    expect(input).toEqual([
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      { role: 'assistant', content: 'Checking both.' },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city": "Paris"}' },
      { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city": "Rome"' },
      { type: 'function_call_output', call_id: 'call_1', output: 'Paris: sunny' },
      { type: 'function_call_output', call_id: 'call_2', output: 'The arguments are not valid JSON.' },
      { role: 'user', content: 'And tomorrow?' },
      { role: 'assistant', content: 'No forecast tool.' },
    ]);
    expect(warnings).toEqual([]);
  });

  it('sends user images as input_image data URLs', () => {
    const { input } = convertToOpenAIResponsesInput([{ role: 'user', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/jpeg' }] }]);
    expect(input).toEqual([{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/jpeg;base64,AAAA', detail: 'auto' }] }]);
  });
});
