import type { ChatCompletionCreateParams, ChatCompletionTool } from 'openai/resources/chat/completions';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineTool } from '../../tools/define-tool.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import { getWeatherDeclaration } from '../__fixtures__/openai-chat.js';
import { getWeather, guideGetWeather, sendEmail } from '../__fixtures__/tools.js';
import { toOpenAIChatTools } from './to-openai-chat-tools.js';

describe('toOpenAIChatTools', () => {
  it('declares each tool as a function with its schema', () => {
    const { tools, warnings } = toOpenAIChatTools([getWeather, sendEmail]);
    expect(tools).toEqual([
      { type: 'function', function: { name: 'get_weather', description: getWeather.description, parameters: getWeather.inputSchema } },
      { type: 'function', function: { name: 'send_email', description: sendEmail.description, parameters: sendEmail.inputSchema } },
    ]);
    expect(warnings).toEqual([]);
    expectTypeOf(tools).toExtend<ChatCompletionTool[]>();
    expectTypeOf(tools).toExtend<NonNullable<ChatCompletionCreateParams['tools']>>();
  });

  it('in strict mode produces the guide’s declaration and reports the rewrite', () => {
    expect(toOpenAIChatTools([guideGetWeather], { strict: true })).toEqual({ tools: [getWeatherDeclaration], warnings: [] });

    const { tools, warnings } = toOpenAIChatTools(new ToolRegistry([getWeather]), { strict: true });
    expect(tools[0]?.function.strict).toBe(true);
    expect(tools[0]?.function.parameters).toEqual({
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City and country e.g. Bogotá, Colombia' },
        unit: { type: ['string', 'null'], enum: ['celsius', 'fahrenheit', null], description: "The unit of temperature, either 'celsius' or 'fahrenheit'" },
      },
      required: ['location', 'unit'],
      additionalProperties: false,
    });
    expect(warnings).toEqual([
      {
        type: 'rewritten',
        provider: 'openai-strict',
        feature: 'optional-property',
        path: '/properties/unit',
        details:
          'optional property "unit" is now required and nullable (strict mode requires every property); the model sends null for "no value", and restoreOptionalNulls removes that null before validation',
        tool: 'get_weather',
      },
    ]);
  });

  it('adds the root object type the API requires, and says so', () => {
    const untyped = defineTool({ name: 'ping', description: 'Ping.', effect: 'read', inputSchema: { properties: {} }, execute: () => 'pong' });
    const { tools, warnings } = toOpenAIChatTools([untyped]);
    expect(tools[0]?.function.parameters).toEqual({ type: 'object', properties: {} });
    expect(warnings.map((warning) => `${warning.tool} ${warning.type} ${warning.feature}`)).toEqual(['ping rewritten type']);
  });
});
