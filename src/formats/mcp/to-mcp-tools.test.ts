import { ListToolsResultSchema, type ListToolsResult, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineTool } from '../../tools/define-tool.js';
import { getWeatherDescriptor, weatherDataDescriptor } from '../__fixtures__/mcp.js';
import { sendEmail } from '../__fixtures__/tools.js';
import { toMcpAnnotations, toMcpTools } from './to-mcp-tools.js';

const locationSchema = { type: 'object', properties: { location: { type: 'string', description: 'City name or zip code' } }, required: ['location'] };

describe('toMcpTools', () => {
  it('produces the spec’s descriptors, plus annotations', () => {
    const weather = defineTool({
      name: 'get_weather',
      title: 'Weather Information Provider',
      description: 'Get current weather information for a location',
      effect: 'read',
      inputSchema: locationSchema,
      execute: () => 'sunny',
    });
    const data = defineTool({
      name: 'get_weather_data',
      title: 'Weather Data Retriever',
      description: 'Get current weather data for a location',
      effect: 'read',
      hints: { openWorld: true },
      inputSchema: locationSchema,
      outputSchema: weatherDataDescriptor.outputSchema!,
      execute: () => ({ temperature: 22.5, conditions: 'Partly cloudy', humidity: 65 }),
    });
    const { tools, warnings } = toMcpTools([weather, data]);
    expect(tools).toEqual([
      { ...getWeatherDescriptor, annotations: { readOnlyHint: true, openWorldHint: true } },
      { ...weatherDataDescriptor, annotations: { readOnlyHint: true, openWorldHint: true } },
    ]);
    expect(warnings).toEqual([]);
    expectTypeOf(tools).toExtend<McpTool[]>();
    const listResult: ListToolsResult = { tools };
    expect(ListToolsResultSchema.safeParse(listResult).success).toBe(true);
  });

  it('derives write annotations from the hints', () => {
    expect(toMcpAnnotations(sendEmail)).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    const deleteFile = defineTool({
      name: 'delete_file',
      description: 'Delete a file.',
      effect: 'write',
      hints: { idempotent: true, openWorld: false },
      inputSchema: { type: 'object' },
      execute: () => 'deleted',
    });
    expect(toMcpAnnotations(deleteFile)).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
  });

  it('leaves out an output schema that is not an object, with a warning', () => {
    const list = defineTool({
      name: 'list',
      description: 'List.',
      effect: 'read',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'array' },
      execute: () => [],
    });
    const { tools, warnings } = toMcpTools([list]);
    expect(tools[0]?.outputSchema).toBeUndefined();
    expect(warnings).toEqual([
      {
        type: 'unsupported',
        provider: 'mcp',
        feature: 'outputSchema',
        path: '/type',
        details: 'the output schema has type "array", but MCP structured content is always an object; it is left out, so return an object to declare one',
        tool: 'list',
      },
    ]);
  });

  it('offers a long-running tool as task-capable (execution.taskSupport "optional"), and says nothing for the others', () => {
    const base = { description: 'Builds.', effect: 'read' as const, inputSchema: { type: 'object' as const }, execute: () => 'done' };
    const { tools } = toMcpTools([defineTool({ name: 'build', longRunning: true, ...base }), defineTool({ name: 'quick', ...base })]);
    expect(tools.map((tool) => tool.execution)).toEqual([{ taskSupport: 'optional' }, undefined]);
    expect(ListToolsResultSchema.safeParse({ tools }).success).toBe(true);
  });
});
