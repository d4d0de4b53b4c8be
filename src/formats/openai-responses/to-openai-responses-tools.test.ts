import type { ResponseCreateParams, Tool } from 'openai/resources/responses/responses';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { getWeatherDeclaration } from '../__fixtures__/openai-responses.js';
import { getWeather, guideGetWeather } from '../__fixtures__/tools.js';
import { toOpenAIResponsesTools } from './to-openai-responses-tools.js';

describe('toOpenAIResponsesTools', () => {
  it('produces the guide’s strict declaration', () => {
    const { tools, warnings } = toOpenAIResponsesTools([guideGetWeather], { strict: true });
    expect(tools).toEqual([getWeatherDeclaration]);
    expect(warnings).toEqual([]);
    expectTypeOf(tools).toExtend<Tool[]>();
    expectTypeOf(tools).toExtend<NonNullable<ResponseCreateParams['tools']>>();
  });

  it('sends strict: false explicitly, since the Responses API otherwise assumes strict', () => {
    const { tools } = toOpenAIResponsesTools([getWeather]);
    expect(tools).toEqual([{ type: 'function', name: 'get_weather', description: getWeather.description, parameters: getWeather.inputSchema, strict: false }]);
  });

  it('reports the strict rewrite per tool', () => {
    const { warnings } = toOpenAIResponsesTools([getWeather], { strict: true });
    expect(warnings.map((warning) => `${warning.tool} ${warning.feature} ${warning.path}`)).toEqual(['get_weather optional-property /properties/unit']);
  });
});
