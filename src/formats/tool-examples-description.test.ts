import { describe, expect, it } from 'vitest';
import { defineTool } from '../tools/define-tool.js';
import { toAISDKFunctionTools } from './ai-sdk/to-ai-sdk-function-tools.js';
import { toMcpTools } from './mcp/to-mcp-tools.js';
import { describedWithExamples } from './tool-examples-description.js';

const forecast = defineTool({
  name: 'get_forecast',
  description: 'Weather forecast for a city.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
  examples: [{ city: 'Paris' }, { city: 'Rome', days: 3 }],
  execute: () => 'ok',
});
const folded = 'Weather forecast for a city.\n\nInput Examples:\n{"city":"Paris"}\n{"city":"Rome","days":3}';

describe('examples where a provider has no field for them', () => {
  it("folds them in the AI SDK middleware's form; a tool without examples keeps its description", () => {
    expect(describedWithExamples(forecast)).toBe(folded);
    const plain = defineTool({ name: 'plain', description: 'Plain.', effect: 'read', inputSchema: { type: 'object' }, execute: () => 'ok' });
    expect(describedWithExamples(plain)).toBe('Plain.');
  });

  it('MCP tools/list carries them in the description (the MCP Tool has no examples field), with no warning', () => {
    const { tools, warnings } = toMcpTools([forecast]);
    expect(tools[0]!.description).toBe(folded);
    expect(warnings).toEqual([]);
  });

  it("AI SDK: the AI SDK's own inputExamples for a package that maps them, else folded; strict from the tool or the model", () => {
    const native = toAISDKFunctionTools([forecast], { nativeExamples: true, strict: true }).tools[0]!;
    expect(native).toMatchObject({
      description: 'Weather forecast for a city.',
      inputExamples: [{ input: { city: 'Paris' } }, { input: { city: 'Rome', days: 3 } }],
      strict: true,
    });
    const other = toAISDKFunctionTools([forecast]).tools[0]!;
    expect(other.description).toBe(folded);
    expect(other).not.toHaveProperty('inputExamples');
    expect(other).not.toHaveProperty('strict');
  });
});
