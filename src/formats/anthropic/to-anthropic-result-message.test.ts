import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { toolResultMessage } from '../__fixtures__/anthropic.js';
import { PIXEL_PNG } from '../__fixtures__/tools.js';
import { toAnthropicResultMessage } from './to-anthropic-result-message.js';

describe('toAnthropicResultMessage', () => {
  it('answers the documentation example with one user message of tool_result blocks', () => {
    const { message, warnings } = toAnthropicResultMessage([
      { callId: 'toolu_01A09q90qw90lq917835lq9', result: { content: [{ type: 'text', text: '15 degrees' }], isError: false } },
    ]);
    expect(message).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: [{ type: 'text', text: '15 degrees' }], is_error: false }],
    });
    expect(toolResultMessage.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '15 degrees' }]);
    expect(warnings).toEqual([]);
    expectTypeOf(message).toExtend<MessageParam>();
  });

  it('puts several results in the same message, marking errors', () => {
    const { message } = toAnthropicResultMessage([
      { callId: 'toolu_01', result: { content: [{ type: 'text', text: '15°C' }], isError: false } },
      { callId: 'toolu_02', result: { content: [{ type: 'text', text: 'Tool "get_time" failed: unknown zone.' }], isError: true } },
    ]);
    expect(message.content.map((block) => [block.tool_use_id, block.is_error])).toEqual([
      ['toolu_01', false],
      ['toolu_02', true],
    ]);
  });

  it('carries images and PDFs over, and turns the rest into text with a warning', () => {
    const { message, warnings } = toAnthropicResultMessage([
      {
        callId: 'toolu_03',
        result: {
          content: [
            { type: 'text', text: 'Screenshot:' },
            { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
            { type: 'image', data: 'AAAA', mimeType: 'image/bmp' },
            { type: 'resource', resource: { uri: 'file:///r.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
            { type: 'text', text: '' },
          ],
          isError: false,
        },
      },
    ]);
    expect(message.content[0]?.content).toEqual([
      { type: 'text', text: 'Screenshot:' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL_PNG } },
      { type: 'text', text: '[The tool returned an image (image/bmp, 3 bytes) that cannot be shown here.]' },
      { type: 'document', title: 'file:///r.pdf', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
    ]);
    expect(warnings).toEqual([
      {
        type: 'unsupported',
        provider: 'anthropic',
        feature: 'image-content',
        path: '/content/2',
        details: 'Anthropic reads JPEG, PNG, GIF and WebP images only, not image/bmp; the model sees a text placeholder instead',
        tool: 'toolu_03',
      },
    ]);
  });

  it('leaves out content for an empty result, since Anthropic rejects empty text blocks', () => {
    const { message } = toAnthropicResultMessage([{ callId: 'toolu_04', result: { content: [{ type: 'text', text: '' }], isError: false } }]);
    expect(message.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_04', is_error: false }]);
  });
});
