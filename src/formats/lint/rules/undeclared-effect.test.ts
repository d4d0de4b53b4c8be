import { describe, expect, it } from 'vitest';
import { defineTool } from '../../../tools/index.js';
import { lintTools } from '../lint-tools.js';

const inputSchema = {
  type: 'object',
  properties: { city: { type: 'string', description: 'The city to look up, as the user wrote it.' } },
  required: ['city'],
  additionalProperties: false,
};
const description = 'Get the current weather for one city. Call it when the user asks about the weather.';

describe('tw/undeclared-effect', () => {
  it('warns about a seed-shaped tool without an effect, which is treated as a write', () => {
    const tool = defineTool({ name: 'get_weather', description, input_schema: inputSchema, fn: () => 'sunny' });
    expect(lintTools([tool]).filter((finding) => finding.rule === 'tw/undeclared-effect')).toEqual([
      {
        rule: 'tw/undeclared-effect',
        severity: 'warning',
        tool: 'get_weather',
        path: '/effect',
        message: 'Tool "get_weather" does not declare its effect, so it is treated as a write: it runs alone and in order, never in parallel with other calls.',
        fix: 'Add effect: "read" if the tool only reads (it may then run in parallel with other reads), or effect: "write" to confirm that it changes something.',
      },
    ]);
  });

  it('stays silent when the effect is declared, in either shape', () => {
    const seedRead = defineTool({ name: 'get_weather', description, input_schema: inputSchema, fn: () => 'sunny', effect: 'read' });
    const normal = defineTool({ name: 'get_forecast', description, inputSchema, effect: 'read', execute: () => 'rain' });
    expect(lintTools([seedRead, normal]).filter((finding) => finding.rule === 'tw/undeclared-effect')).toEqual([]);
  });
});
