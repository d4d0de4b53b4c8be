import { describe, expect, it } from 'vitest';
import { ToolDefinitionError } from '../shared/errors.js';
import { defineTool, toolAllowsCaller } from './define-tool.js';
import { ToolRegistry, silentLogger } from './tool-registry.js';

const base = {
  description: 'Revenue of one region.',
  effect: 'read' as const,
  inputSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
  execute: ({ region }: { region: string }) => `${region}: 100`,
};
const direct = defineTool({ ...base, name: 'direct_only' });
const both = defineTool({ ...base, name: 'both', allowedCallers: ['direct', 'programmatic'] });
const codeOnly = defineTool({ ...base, name: 'code_only', allowedCallers: ['programmatic'] });
const fromCode = { type: 'programmatic' as const, id: 'srvtoolu_1', runner: 'code_execution_20250825' };

describe('defineTool({ allowedCallers })', () => {
  it('defaults to direct calls only and keeps what the definition says', () => {
    expect(direct.allowedCallers).toBeUndefined();
    expect([direct, both, codeOnly].map((tool) => [toolAllowsCaller(tool, 'direct'), toolAllowsCaller(tool, 'programmatic')])).toEqual([
      [true, false],
      [true, true],
      [false, true],
    ]);
  });

  it.each([[[]], [['model']], ['programmatic'], [[1]]])('refuses %j with a definition error that shows the accepted values', (allowedCallers) => {
    expect(() => defineTool({ ...base, name: 'bad', allowedCallers: allowedCallers as never })).toThrow(ToolDefinitionError);
    expect(() => defineTool({ ...base, name: 'bad', allowedCallers: allowedCallers as never })).toThrow(/"direct" and "programmatic"/);
  });
});

describe('the registry and the caller of a call', () => {
  const registry = new ToolRegistry([direct, both, codeOnly], { logger: silentLogger });

  it('refuses a call from code to a tool that allows only direct calls, with a recovery text, and never runs it', async () => {
    const execution = await registry.call({ id: 'toolu_1', name: 'direct_only', arguments: { region: 'West' }, caller: fromCode });
    expect(execution.failure?.code).toBe('caller_not_allowed');
    expect(execution.result).toEqual({
      content: [
        { type: 'text', text: 'Tool "direct_only" cannot be called from code. Call it directly, as a tool call of your own, outside the code you run.' },
      ],
      isError: true,
    });
  });

  it('runs a call from code to a tool that allows it, and a direct call to any tool', async () => {
    for (const [name, caller] of [
      ['both', fromCode],
      ['code_only', fromCode],
      ['direct_only', undefined],
      ['code_only', undefined],
    ] as const) {
      const execution = await registry.call({ id: 'c', name, arguments: { region: 'West' }, ...(caller ? { caller } : {}) });
      expect(execution.failure).toBeUndefined();
    }
  });
});
