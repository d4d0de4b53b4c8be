import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { PIXEL_PNG } from '../__fixtures__/tools.js';
import { toOpenAIResponsesResultItem, toOpenAIResponsesResultItems } from './to-openai-responses-result-items.js';

describe('toOpenAIResponsesResultItems', () => {
  it('sends text results as a string, one item per call', () => {
    const { items, warnings } = toOpenAIResponsesResultItems([
      { callId: 'call_12345xyz', result: { content: [{ type: 'text', text: '15°C' }], isError: false } },
      {
        callId: 'call_99999def',
        result: {
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
          isError: true,
        },
      },
    ]);
    expect(items).toEqual([
      { type: 'function_call_output', call_id: 'call_12345xyz', output: '15°C' },
      { type: 'function_call_output', call_id: 'call_99999def', output: 'a\nb' },
    ]);
    expect(warnings).toEqual([]);
    expectTypeOf(items).toExtend<ResponseInputItem[]>();
  });

  it('sends images and files as parts, and other parts as text with a warning', () => {
    const { item, warnings } = toOpenAIResponsesResultItem({
      callId: 'call_1',
      result: {
        content: [
          { type: 'text', text: 'Here:' },
          { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///tmp/report.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        ],
        isError: false,
      },
    });
    expect(item).toEqual({
      type: 'function_call_output',
      call_id: 'call_1',
      output: [
        { type: 'input_text', text: 'Here:' },
        { type: 'input_image', image_url: `data:image/png;base64,${PIXEL_PNG}` },
        { type: 'input_file', filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
        { type: 'input_text', text: '[The tool returned audio (audio/wav, 3 bytes) that cannot be played here.]' },
      ],
    });
    expect(warnings.map((warning) => `${warning.type} ${warning.feature} ${warning.path}`)).toEqual(['unsupported audio-content /content/3']);
  });
});
