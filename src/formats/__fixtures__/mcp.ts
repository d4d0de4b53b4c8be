/**
 * Payloads from the MCP specification's Tools page
 * (https://modelcontextprotocol.io/specification/2025-06-18/server/tools),
 * typed with the official SDK types so that wire drift fails to compile.
 */
import type { CallToolRequestParams, CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';

/** "Listing Tools": the spec's `get_weather` descriptor. */
export const getWeatherDescriptor: McpTool = {
  name: 'get_weather',
  title: 'Weather Information Provider',
  description: 'Get current weather information for a location',
  inputSchema: { type: 'object', properties: { location: { type: 'string', description: 'City name or zip code' } }, required: ['location'] },
};

/** "Calling Tools": request params. */
export const callParams: CallToolRequestParams = { name: 'get_weather', arguments: { location: 'New York' } };

/** "Calling Tools": the result. */
export const callResult: CallToolResult = {
  content: [{ type: 'text', text: 'Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy' }],
  isError: false,
};

/** "Output Schema": a tool with structured output. */
export const weatherDataDescriptor: McpTool = {
  name: 'get_weather_data',
  title: 'Weather Data Retriever',
  description: 'Get current weather data for a location',
  inputSchema: { type: 'object', properties: { location: { type: 'string', description: 'City name or zip code' } }, required: ['location'] },
  outputSchema: {
    type: 'object',
    properties: {
      temperature: { type: 'number', description: 'Temperature in celsius' },
      conditions: { type: 'string', description: 'Weather conditions description' },
      humidity: { type: 'number', description: 'Humidity percentage' },
    },
    required: ['temperature', 'conditions', 'humidity'],
  },
};

/** "Structured Content": the result of `get_weather_data`. */
export const structuredResult: CallToolResult = {
  content: [{ type: 'text', text: '{"temperature":22.5,"conditions":"Partly cloudy","humidity":65}' }],
  structuredContent: { temperature: 22.5, conditions: 'Partly cloudy', humidity: 65 },
  isError: false,
};

/** "Error Handling": a tool execution error. */
export const errorResult: CallToolResult = {
  content: [{ type: 'text', text: 'Failed to fetch weather data: API rate limit exceeded' }],
  isError: true,
};
