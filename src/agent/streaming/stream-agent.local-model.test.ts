/**
 * `streamAgent` on a real inference engine: the tiny GGUF model under the token
 * mask streams its call (whole, once the mask closes it), the call validates
 * and runs, the free answer streams token by token, and the same seed through `runAgent`
 * ends in the same result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalModel } from '../../models/local/local-model.js';
import { ensureTinyModel } from '../../models/local/tiny-model.js';
import { defineTool } from '../../tools/define-tool.js';
import { silentLogger } from '../../tools/tool-registry.js';
import type { AgentResult } from '../agent-result.js';
import { runAgent, type RunAgentOptions } from '../run-agent.js';
import { streamAgent, type AgentStreamEvent } from './stream-agent.js';

let model: LocalModel;
beforeAll(async () => {
  model = new LocalModel(await ensureTinyModel(), { threads: 1, callTokenBudget: 16, maxCallTokens: 120 });
}, 120_000);
afterAll(async () => {
  await model?.close();
});

const lookup = defineTool<{ city: string; days: number }>({
  name: 'lookup_forecast',
  description: 'The forecast for a city.',
  effect: 'read',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string', maxLength: 12 }, days: { type: 'integer', minimum: 1, maximum: 7 } },
    required: ['city', 'days'],
    additionalProperties: false,
  },
  execute: ({ city, days }) => `${days} days of sun in ${city}`,
});

const options = (): RunAgentOptions => ({
  model,
  tools: [lookup],
  prompt: 'Forecast, please.',
  recordDir: false,
  logger: silentLogger,
  seed: 7,
  temperature: 1,
  // A call first, then a short free answer (the tiny model's text is noise, and may be cut at the cap).
  toolChoice: ({ iteration }) => (iteration === 0 ? 'required' : 'none'),
  limits: { maxOutputTokensPerCall: 12, maxIterations: 2 },
  acceptFinishReasons: ['max_tokens'],
});

describe('streamAgent on the local GGUF model under the mask', () => {
  it('streams the sampled call and the answer, runs the call, and ends as runAgent does with the same seed', async () => {
    const run = streamAgent(options());
    const events: AgentStreamEvent[] = [];
    for await (const event of run) events.push(event);
    const streamed = await run.result;
    expect(streamed.status).toBe('completed');

    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'tool_call_start')).toHaveLength(1);
    // The call decoder hands a call over once it is complete: one argument delta, with the whole arguments.
    expect(types.filter((type) => type === 'tool_call_delta')).toHaveLength(1);
    const end = events.find((event) => event.type === 'tool_call_end');
    const lastPartial = events.filter((event) => event.type === 'tool_call_delta').at(-1);
    expect(lastPartial?.type === 'tool_call_delta' && lastPartial.partialArguments).toEqual(end?.type === 'tool_call_end' && end.call.arguments);
    const result = events.find((event) => event.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.status).toBe('succeeded');
    const text = events.flatMap((event) => (event.type === 'text_delta' && event.step === 1 ? [event.text] : [])).join('');
    expect(streamed.status === 'completed' && streamed.text).toBe(text);
    // Free text streams token by token.
    expect(types.filter((type) => type === 'text_delta').length).toBeGreaterThan(1);

    const plain = await runAgent(options());
    expect(comparable(streamed)).toEqual(comparable(plain));
  }, 120_000);
});

function comparable(result: AgentResult) {
  return {
    status: result.status,
    messages: result.messages,
    steps: result.steps.map(({ toolCalls, ...step }) => ({ ...step, toolCalls: toolCalls.map(({ durationMs: _ms, ...call }) => call) })),
  };
}
