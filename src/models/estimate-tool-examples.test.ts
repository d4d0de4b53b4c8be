import { describe, expect, it } from 'vitest';
import { defineTool } from '../tools/define-tool.js';
import { estimateInputTokens } from './estimate-tokens.js';

describe('estimateInputTokens and tool examples', () => {
  it('counts the examples every provider is sent, as a field or in the description', () => {
    const definition = {
      name: 'get_forecast',
      description: 'Weather forecast for a city.',
      effect: 'read' as const,
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: () => 'ok',
    };
    const examples = [{ city: 'a city whose name is long enough to be counted in tokens, surely' }];
    const messages = [{ role: 'user' as const, content: 'Forecast?' }];
    const without = estimateInputTokens({ messages, tools: [defineTool(definition)] });
    const withExamples = estimateInputTokens({ messages, tools: [defineTool({ ...definition, examples })] });
    // both estimates round up their own total, so the difference is the examples' quarter-characters give or take one
    expect(Math.abs(withExamples - without - JSON.stringify(examples).length / 4)).toBeLessThan(1);
  });
});
