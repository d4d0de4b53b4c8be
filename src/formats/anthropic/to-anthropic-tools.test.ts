import type { MessageCreateParams, Tool as AnthropicTool, ToolUnion } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineTool } from '../../tools/define-tool.js';
import { getWeatherDeclaration } from '../__fixtures__/anthropic.js';
import { toAnthropicTools } from './to-anthropic-tools.js';

describe('toAnthropicTools', () => {
  it('produces the documentation’s declaration', () => {
    const weather = defineTool({
      name: 'get_weather',
      description: 'Get the current weather in a given location',
      effect: 'read',
      inputSchema: getWeatherDeclaration.input_schema,
      execute: () => 'sunny',
    });
    const { tools, warnings } = toAnthropicTools([weather]);
    expect(tools).toEqual([getWeatherDeclaration]);
    expect(warnings).toEqual([]);
    expectTypeOf(tools).toExtend<AnthropicTool[]>();
    expectTypeOf(tools).toExtend<ToolUnion[]>();
    expectTypeOf(tools).toExtend<NonNullable<MessageCreateParams['tools']>>();
  });

  it('reports root unions, which Anthropic rejects', () => {
    const union = defineTool({
      name: 'pick',
      description: 'Pick.',
      effect: 'read',
      inputSchema: { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] },
      execute: () => 'ok',
    });
    expect(toAnthropicTools([union]).warnings).toEqual([
      {
        type: 'unsupported',
        provider: 'anthropic',
        feature: 'root-union',
        path: '/anyOf',
        details: "Anthropic rejects `anyOf` at the top level of a tool's input schema; make the root one object and move the alternatives into a property",
        tool: 'pick',
      },
    ]);
  });
});
