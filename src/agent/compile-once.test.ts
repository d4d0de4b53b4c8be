/** `runAgent({ tools: [array] })` builds a registry per run; the schemas of the same tool objects compile once (src/tools/schema-validator.ts). */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScriptedModel, textTurn, toolCallTurn } from '../models/scripted/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import { runAgent } from './run-agent.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('runAgent with a tool array', () => {
  it('runs runAgent({ tools: [array] }) again without compiling a schema', async () => {
    const tool = defineTool({
      name: 'get_weather',
      description: 'Weather in a city.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      outputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      execute: ({ city }) => ({ city }),
    });
    const run = () =>
      runAgent({
        model: createScriptedModel([toolCallTurn([{ name: 'get_weather', arguments: { city: 'Oslo' } }]), textTurn('Sunny.')]),
        tools: [tool],
        prompt: 'Weather?',
        logger: silentLogger,
      });
    const compile = vi.spyOn(Ajv2020.prototype, 'compile');
    expect((await run()).status).toBe('completed');
    const afterFirst = compile.mock.calls.length;
    expect(afterFirst).toBe(2);
    for (let index = 0; index < 3; index++) expect((await run()).status).toBe('completed');
    expect(compile).toHaveBeenCalledTimes(afterFirst);
  });
});
