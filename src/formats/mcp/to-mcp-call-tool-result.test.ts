import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { callResult, errorResult, structuredResult } from '../__fixtures__/mcp.js';
import { PIXEL_PNG } from '../__fixtures__/tools.js';
import { toMcpCallToolResult } from './to-mcp-call-tool-result.js';

describe('toMcpCallToolResult', () => {
  it('reproduces the spec’s results', () => {
    expect(
      toMcpCallToolResult({ content: [{ type: 'text', text: 'Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy' }], isError: false }),
    ).toEqual(callResult);
    expect(
      toMcpCallToolResult({
        content: [{ type: 'text', text: '{"temperature":22.5,"conditions":"Partly cloudy","humidity":65}' }],
        structuredContent: { temperature: 22.5, conditions: 'Partly cloudy', humidity: 65 },
        isError: false,
      }),
    ).toEqual(structuredResult);
    expect(
      toMcpCallToolResult({ result: { content: [{ type: 'text', text: 'Failed to fetch weather data: API rate limit exceeded' }], isError: true } }),
    ).toEqual(errorResult);
  });

  it('carries every content part type, valid against the SDK’s schema', () => {
    const wire = toMcpCallToolResult({
      content: [
        { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
        { type: 'resource', resource: { uri: 'file:///b.txt', text: 'b' } },
      ],
      isError: false,
    });
    expectTypeOf(wire).toEqualTypeOf<CallToolResult>();
    expect(CallToolResultSchema.parse(wire)).toEqual(wire);
  });
});
