import { describe, expect, it } from 'vitest';
import { parallelToolUseMessage, toolUseMessage } from '../__fixtures__/anthropic.js';
import { parseAnthropicToolCalls } from './parse-anthropic-tool-calls.js';

describe('parseAnthropicToolCalls', () => {
  it('reads the tool_use block of the documentation example, with its parsed input', () => {
    expect(parseAnthropicToolCalls(toolUseMessage)).toEqual([
      { id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', arguments: { location: 'San Francisco, CA', unit: 'celsius' } },
    ]);
  });

  it('reads several calls in one response, in order, from the message or its blocks', () => {
    const expected = [
      { id: 'toolu_01', name: 'get_weather', arguments: { location: 'San Francisco, CA' } },
      { id: 'toolu_02', name: 'get_time', arguments: { timezone: 'America/Los_Angeles' } },
    ];
    expect(parseAnthropicToolCalls(parallelToolUseMessage)).toEqual(expected);
    expect(parseAnthropicToolCalls(parallelToolUseMessage.content)).toEqual(expected);
    expect(parseAnthropicToolCalls([{ type: 'text', text: 'No tools needed.', citations: null }])).toEqual([]);
  });
});
