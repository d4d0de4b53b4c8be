/**
 * `runAgent({ output })` on the scripted model: the schema reaches the request, a valid final answer completes the
 * run with `result.output`, an invalid one gets exactly one repair turn, and a second failure stops the run with
 * `output_invalid`. The record carries the answer in the `stop` event, redacted like any event.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, textTurn, toolCallTurn } from '../models/scripted/scripted-model.js';
import type { UserMessage } from '../protocol/messages.js';
import { defineOutput } from '../tools/define-output.js';
import { defineTool, type AnyTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import type { AgentResult } from './agent-result.js';
import { resumeAgent } from './resume-agent.js';
import { readRunRecord } from './run-recorder.js';
import { runAgent, type RunAgentOptions } from './run-agent.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};

const lookup = defineTool<{ city: string }>({
  name: 'lookup',
  description: 'Looks up the weather.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => `${city}: 21 degrees`,
});

function options(model: RunAgentOptions['model'], tools: readonly AnyTool[] = [lookup]): RunAgentOptions {
  return { model, tools, prompt: 'Weather in Paris?', recordDir: false, logger: silentLogger };
}

function completedOutput<Output>(result: AgentResult<Output>): Output {
  if (result.status !== 'completed') throw new Error(`expected completed, got ${result.status}: ${JSON.stringify(result)}`);
  return result.output;
}

describe('runAgent with output', () => {
  it('sends the schema with every loop call and completes with the validated value', async () => {
    const model = createScriptedModel([toolCallTurn([{ name: 'lookup', arguments: { city: 'Paris' } }]), textTurn('{"city": "Paris", "celsius": 21}')]);
    const result = await runAgent({ ...options(model), output: weatherSchema });
    expect(completedOutput(result)).toEqual({ city: 'Paris', celsius: 21 });
    expect(result.status === 'completed' && result.text).toBe('{"city": "Paris", "celsius": 21}');
    expect(model.requests).toHaveLength(2);
    for (const request of model.requests) expect(request.output).toEqual({ name: 'final_answer', schema: weatherSchema });
  });

  it('passes the name and description of defineOutput, and types the value', async () => {
    const output = defineOutput<{ city: string; celsius: number }>(weatherSchema, { name: 'weather', description: 'The weather now.' });
    const model = createScriptedModel([textTurn('{"city": "Rome", "celsius": 25}')]);
    const result = await runAgent({ ...options(model), output });
    expectTypeOf(result).toEqualTypeOf<AgentResult<{ city: string; celsius: number }>>();
    expect(completedOutput(result).celsius).toBe(25);
    expect(model.requests[0]!.output).toEqual({ name: 'weather', description: 'The weather now.', schema: weatherSchema });
  });

  it('takes a Zod schema, returns Zod’s parsed value, and types it from the schema', async () => {
    const schema = z.object({ city: z.string(), celsius: z.number().transform((value) => Math.round(value)) });
    const model = createScriptedModel([textTurn('{"city": "Oslo", "celsius": 3.6}')]);
    const result = await runAgent({ ...options(model), output: schema });
    expectTypeOf(result).toEqualTypeOf<AgentResult<{ city: string; celsius: number }>>();
    expect(completedOutput(result)).toEqual({ city: 'Oslo', celsius: 4 });
    expect(model.requests[0]!.output?.schema).toMatchObject({ type: 'object', required: ['city', 'celsius'] });
  });

  it('types output as unknown for plain JSON Schema and undefined without output', async () => {
    const plain = await runAgent({ ...options(createScriptedModel([textTurn('{"city": "A", "celsius": 1}')])), output: weatherSchema });
    expectTypeOf(plain).toEqualTypeOf<AgentResult<unknown>>();
    const none = await runAgent({ model: createScriptedModel([textTurn('plain text')]), tools: [lookup], prompt: 'Hi.', logger: silentLogger });
    expectTypeOf(none).toEqualTypeOf<AgentResult<undefined>>();
    const untyped = await runAgent(options(createScriptedModel([textTurn('plain text')])));
    expectTypeOf(untyped).toEqualTypeOf<AgentResult<unknown>>();
    expect(completedOutput(none)).toBeUndefined();
  });

  it('asks once more with the problems when the answer is invalid, then completes', async () => {
    const model = createScriptedModel([textTurn('{"city": "Paris"}'), textTurn('{"city": "Paris", "celsius": 21}')]);
    const events: string[] = [];
    const result = await runAgent({ ...options(model), output: weatherSchema, onEvent: (event) => events.push(event.type) });
    expect(completedOutput(result)).toEqual({ city: 'Paris', celsius: 21 });
    const repair = model.requests[1]!.messages.at(-1) as UserMessage;
    expect(repair.role).toBe('user');
    expect(repair.content).toBe(
      'Your final answer does not match the schema of "final_answer" (1 problem):\n' +
        '1. $: missing required property "celsius" (a number).\n' +
        `Give your final answer again, complete, as one JSON value following the schema of "final_answer" (no other text): ${JSON.stringify(weatherSchema)}`,
    );
    expect(events.filter((type) => type === 'output_invalid')).toHaveLength(1);
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('says so when the answer is not JSON', async () => {
    const model = createScriptedModel([textTurn('It is sunny in Paris.'), textTurn('{"city": "Paris", "celsius": 21}')]);
    const result = await runAgent({ ...options(model), output: weatherSchema });
    expect(result.status).toBe('completed');
    const repair = model.requests[1]!.messages.at(-1) as UserMessage;
    expect(repair.content).toMatch(/^Your final answer could not be read as JSON: .+\nGive your final answer again, complete, as one JSON value/);
  });

  it('stops with output_invalid and the issues after a second invalid answer', async () => {
    const model = createScriptedModel([textTurn('{"city": 1, "celsius": 21}'), textTurn('{"city": "Paris", "celsius": "warm"}')]);
    const result = await runAgent({ ...options(model), output: weatherSchema });
    expect(result.status).toBe('stopped');
    if (result.status !== 'stopped') return;
    expect(result.stopReason).toMatchObject({
      kind: 'output_invalid',
      output: 'final_answer',
      text: '{"city": "Paris", "celsius": "warm"}',
      issues: [{ code: 'invalid_type', path: ['celsius'], expected: 'number' }],
    });
    expect(result.stopReason.message).toMatch(/did not match the output schema "final_answer" after one repair turn/);
    expect(model.requests).toHaveLength(2);
  });

  it('allows one repair per run, even when tools ran between the answers', async () => {
    const model = createScriptedModel([textTurn('{}'), toolCallTurn([{ name: 'lookup', arguments: { city: 'Paris' } }]), textTurn('not json')]);
    const result = await runAgent({ ...options(model), output: weatherSchema });
    expect(result.status === 'stopped' && result.stopReason).toMatchObject({ kind: 'output_invalid', jsonError: { message: expect.any(String) }, issues: [] });
  });

  it('holds the answer to the argument limits before validating it, as text or as a value', async () => {
    const deep = '['.repeat(100) + ']'.repeat(100);
    const nested: unknown[] = [];
    let cursor = nested;
    for (let depth = 0; depth < 100; depth++) cursor.push((cursor = []));
    const model = createScriptedModel([textTurn(deep), { text: '{}', output: { value: { deep: nested } } }]);
    const result = await runAgent({ ...options(model), output: weatherSchema });
    expect((model.requests[1]!.messages.at(-1) as UserMessage).content).toMatch(
      /^Your final answer could not be read as JSON: the JSON nests 100 levels deep; the limit is 64/,
    );
    expect(result.status === 'stopped' && result.stopReason).toMatchObject({
      kind: 'output_invalid',
      jsonError: { limit: { limit: 'maxDepth', max: 64 } },
    });
  });

  it('keeps an answer cut at max_tokens a truncation stop, not a repair', async () => {
    const model = createScriptedModel([textTurn('{"city": "Par', { stopReason: 'max_tokens' })]);
    const result = await runAgent({ ...options(model), output: weatherSchema });
    expect(result.status === 'stopped' && result.stopReason.kind).toBe('model_output_truncated');
    expect(model.requests).toHaveLength(1);
  });

  it('uses the value the adapter read when the response carries one', async () => {
    const model = createScriptedModel([
      { content: [{ type: 'text', text: '{"city": "Paris", "celsius": 21, "note": null}' }], output: { value: { city: 'Paris', celsius: 21 } } },
    ]);
    const result = await runAgent({ ...options(model), output: weatherSchema });
    expect(completedOutput(result)).toEqual({ city: 'Paris', celsius: 21 });
  });

  it('records the answer in the stop event, redacted like any event', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tw-output-'));
    folders.push(folder);
    const schema = { type: 'object', properties: { user: { type: 'string' }, password: { type: 'string' } }, required: ['user', 'password'] };
    const model = createScriptedModel([textTurn('{"user": "ada", "password": "hunter2-secret"}')]);
    const result = await runAgent({ ...options(model), output: schema, recordDir: folder });
    expect(completedOutput(result)).toEqual({ user: 'ada', password: 'hunter2-secret' });
    const record = readRunRecord(result.recordPath!);
    const stop = record.find((line) => line.type === 'stop');
    expect(stop).toMatchObject({ status: 'completed', output: { user: 'ada' } });
    expect(JSON.stringify(record)).not.toContain('hunter2-secret');
  });

  it('refuses an output named like a tool, a non-object root, and a non-schema', async () => {
    const model = createScriptedModel([textTurn('{}')]);
    await expect(runAgent({ ...options(model), output: defineOutput(weatherSchema, { name: 'lookup' }) })).rejects.toMatchObject({
      code: 'TW_INVALID_ARGUMENT',
      message: expect.stringMatching(/also a tool's name/),
    });
    expect(() => defineOutput({ type: 'array', items: { type: 'string' } })).toThrow(/must describe an object .*wrap the value in an object property/);
    expect(() => defineOutput(weatherSchema, { name: 'final answer' })).toThrow(/output name "final answer" is not accepted/);
    await expect(runAgent({ ...options(model), output: 'json' as never })).rejects.toMatchObject({ code: 'TW_INVALID_ARGUMENT' });
  });

  it('keeps the output across a confirmation and a resume', async () => {
    const remove = defineTool<{ id: string }>({
      name: 'remove',
      description: 'Removes an item.',
      effect: 'write',
      confirm: true,
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      execute: () => 'removed',
    });
    const model = createScriptedModel([toolCallTurn([{ name: 'remove', arguments: { id: 'a' } }]), textTurn('{"removed": 1}'), textTurn('{"removed": "a"}')]);
    const output = defineOutput<{ removed: string }>({ type: 'object', properties: { removed: { type: 'string' } }, required: ['removed'] });
    const paused = await runAgent({ ...options(model, [remove]), output });
    expect(paused.status).toBe('awaiting_confirmation');
    if (paused.status !== 'awaiting_confirmation') return;
    const resumed = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], {
      model,
      tools: [remove],
      logger: silentLogger,
      output,
    });
    expect(completedOutput(resumed)).toEqual({ removed: 'a' });
    expect(model.requests.map((request) => request.output?.name)).toEqual(['final_answer', 'final_answer', 'final_answer']);
  });
});
