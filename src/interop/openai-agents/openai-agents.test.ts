/**
 * toolwright tools inside the OpenAI Agents SDK's own `run` against its
 * scripted model (`@openai/agents/testing`), approvals through its
 * interruption and `RunState` resume, and SDK tools under a toolwright registry.
 */
import { Agent, RunState, run, setTracingDisabled, tool } from '@openai/agents';
import { ScriptedModel, assistantMessage, functionCall, type RecordedModelCall } from '@openai/agents/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { interopTools } from '../../../test/fixtures/interop-tools.js';
import { createToolGuards } from '../../agent/tool-guards.js';
import { createPolicy } from '../../policy/create-policy.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import { fromOpenAIAgentsTools, toOpenAIAgentsTools } from './index.js';

beforeAll(() => {
  // Nothing leaves the machine: the SDK would otherwise export traces to OpenAI.
  setTracingDisabled(true);
});

/** The function results the model was sent in one call's input, by call id. */
function resultsSent(call: RecordedModelCall | undefined): Record<string, unknown> {
  const input = call?.request.input;
  const results: Record<string, unknown> = {};
  if (!Array.isArray(input)) return results;
  for (const item of input) {
    if (item.type === 'function_call_result') results[item.callId] = item.output;
  }
  return results;
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (output && typeof output === 'object' && 'text' in output) return String((output as { text: unknown }).text);
  return JSON.stringify(output);
}

const fixtures = interopTools;

describe('toOpenAIAgentsTools under run()', () => {
  it('declares the JSON Schema (not strict), runs a valid call and sends its result to the model', async () => {
    const { ran, tools } = fixtures();
    const agentTools = await toOpenAIAgentsTools(tools);
    expect(agentTools.map((entry) => [entry.name, entry.strict])).toEqual([
      ['get_weather', false],
      ['send_money', false],
    ]);
    expect(agentTools[0]!.parameters).toEqual(tools[0]!.inputSchema);
    const model = new ScriptedModel([[functionCall('get_weather', { city: 'Oslo' }, { callId: 'c1' })], [assistantMessage('It is sunny.')]]);
    const result = await run(new Agent({ name: 'weather', instructions: 'Answer.', tools: agentTools, model }), 'Weather in Oslo?');
    expect(result.finalOutput).toBe('It is sunny.');
    expect(ran).toEqual(['get_weather Oslo']);
    expect(outputText(resultsSent(model.calls[1]).c1)).toBe('Sunny in Oslo');
  });

  it("answers invalid arguments with toolwright's recovery text, and the run goes on", async () => {
    const { ran, tools } = fixtures();
    const model = new ScriptedModel([
      [functionCall('get_weather', { city: 'X', country: 'NO' }, { callId: 'c1' })],
      [functionCall('get_weather', { city: 'Oslo' }, { callId: 'c2' })],
      [assistantMessage('Sunny.')],
    ]);
    const result = await run(new Agent({ name: 'weather', tools: await toOpenAIAgentsTools(tools), model }), 'Weather?');
    expect(result.finalOutput).toBe('Sunny.');
    const text = outputText(resultsSent(model.calls[1]).c1);
    expect(text).toContain('get_weather');
    expect(text).toContain('country');
    expect(ran).toEqual(['get_weather Oslo']);
  });

  it('applies the policy per call and trips the loop breaker on a repeated blocked call', async () => {
    const { ran, tools } = fixtures();
    const guards = createToolGuards({ tools, policy: createPolicy({ allowTools: ['get_weather'] }), limits: { maxRepeatedFailures: 2 } });
    const pay = (callId: string) => [functionCall('send_money', { to: 'eve', amount: 5 }, { callId })];
    const model = new ScriptedModel([pay('c1'), pay('c2'), pay('c3'), [assistantMessage('I could not pay.')]]);
    const result = await run(new Agent({ name: 'pay', tools: await toOpenAIAgentsTools(guards), model }), 'Pay eve 5');
    expect(result.finalOutput).toBe('I could not pay.');
    expect(outputText(resultsSent(model.calls[1]).c1)).toContain('tool-not-allowed');
    // The block at the limit tells the model the call will stay blocked; the same call once more stops the guards.
    expect(outputText(resultsSent(model.calls[2]).c2)).toContain('will stay blocked');
    expect(outputText(resultsSent(model.calls[3]).c3)).toContain('Tool use for this task was stopped');
    expect(guards.stopped).toMatchObject({ kind: 'loop_detected', pattern: 'repeated_failure' });
    expect(ran).toEqual([]);
  });

  it('interrupts for a call that needs a person, and runs it once after state.approve() and a resume from the serialized state', async () => {
    const { ran, tools } = fixtures();
    const guards = createToolGuards({ tools });
    const model = new ScriptedModel([[functionCall('send_money', { to: 'bob', amount: 500 }, { callId: 'c1' })], [assistantMessage('Paid bob.')]]);
    const agent = new Agent({ name: 'pay', tools: await toOpenAIAgentsTools(guards), model });
    const first = await run(agent, 'Pay bob 500');
    expect(first.interruptions).toHaveLength(1);
    expect(first.interruptions[0]).toMatchObject({ rawItem: { callId: 'c1', name: 'send_money' } });
    expect(ran).toEqual([]);

    const state = await RunState.fromString(agent, first.state.toString());
    state.approve(state.getInterruptions()[0]!);
    const second = await run(agent, state);
    expect(second.finalOutput).toBe('Paid bob.');
    expect(ran).toEqual(['send_money bob 500 approved']);
    expect(outputText(resultsSent(model.calls[1]).c1)).toBe('{"paid":500,"to":"bob"}');
  });

  it('a rejected call never runs', async () => {
    const { ran, tools } = fixtures();
    const model = new ScriptedModel([[functionCall('send_money', { to: 'bob', amount: 500 }, { callId: 'c1' })], [assistantMessage('Not paid.')]]);
    const agent = new Agent({ name: 'pay', tools: await toOpenAIAgentsTools(tools), model });
    const first = await run(agent, 'Pay bob 500');
    first.state.reject(first.interruptions[0]!);
    const second = await run(agent, first.state);
    expect(second.finalOutput).toBe('Not paid.');
    expect(ran).toEqual([]);
  });

  it('runs a small payment (confirm rule false) without an interruption', async () => {
    const { ran, tools } = fixtures();
    const model = new ScriptedModel([[functionCall('send_money', { to: 'bob', amount: 5 }, { callId: 'c1' })], [assistantMessage('Paid.')]]);
    const result = await run(new Agent({ name: 'pay', tools: await toOpenAIAgentsTools(tools), model }), 'Pay bob 5');
    expect(result.interruptions).toHaveLength(0);
    expect(ran).toEqual(['send_money bob 5 unasked']);
  });
});

describe('fromOpenAIAgentsTools', () => {
  it('brings SDK function tools under a registry: their schema, validation texts, results and effects', async () => {
    const seen: unknown[] = [];
    const lookup = tool({
      name: 'lookup',
      description: 'Looks a word up.',
      parameters: z.object({ word: z.string().min(2) }),
      execute: async ({ word }, runContext) => {
        seen.push(runContext?.context);
        return `meaning of ${word}`;
      },
    });
    const converted = await fromOpenAIAgentsTools([lookup], { effect: 'read', confirm: { lookup: true }, context: { user: 'ann' } });
    const registry = new ToolRegistry(converted);
    expect(registry.get('lookup')).toMatchObject({ effect: 'read', confirm: true, inputSchema: { type: 'object', required: ['word'] } });
    const ok = await registry.call({ id: 'a', name: 'lookup', arguments: { word: 'cat' } });
    expect(ok.result).toEqual({ content: [{ type: 'text', text: 'meaning of cat' }], isError: false });
    expect(seen).toEqual([{ user: 'ann' }]);
    const invalid = await registry.call({ id: 'b', name: 'lookup', arguments: { word: 'c' } });
    expect(invalid.failure?.code).toBe('invalid_arguments');
    expect(seen).toHaveLength(1);
  });

  it('needs an effect for every tool', async () => {
    const lookup = tool({ name: 'lookup', description: 'Looks up.', parameters: z.object({}), execute: async () => 'x' });
    await expect(fromOpenAIAgentsTools([lookup], { effect: {} })).rejects.toMatchObject({ code: 'TW_INVALID_ARGUMENT' });
    await expect(fromOpenAIAgentsTools([{ type: 'hosted_tool', name: 'web' } as never], { effect: 'read' })).rejects.toMatchObject({
      code: 'TW_INVALID_TOOL_DEFINITION',
    });
  });
});
