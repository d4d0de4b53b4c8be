/**
 * A tool with input examples and the strict flag, defined once for the tests that check where the examples and the
 * flag end up (a local chat template, the AI SDK's own loop).
 */
import { defineTool } from '../define-tool.js';

/** `get_forecast`: one example (`{ city: 'Paris' }`), strict, no extra properties. */
export const forecastWithExamples = defineTool({
  name: 'get_forecast',
  description: 'Weather forecast for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  examples: [{ city: 'Paris' }],
  strict: true,
  execute: () => 'ok',
});
