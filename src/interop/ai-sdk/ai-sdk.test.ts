/**
 * toolwright tools inside the Vercel AI SDK's own loop (`generateText`,
 * `streamText`) against its mock model, and AI SDK tools under a toolwright
 * registry.
 */
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, jsonSchema, stepCountIs, streamText, tool, type ModelMessage, type ToolApprovalResponse } from 'ai';
import { MockLanguageModelV4, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { interopTools } from '../../../test/fixtures/interop-tools.js';
import { z } from 'zod';
import { createToolGuards } from '../../agent/tool-guards.js';
import { createPolicy } from '../../policy/create-policy.js';
import { ToolRegistry } from '../../tools/tool-registry.js';
import type { ToolResult } from '../../tools/types.js';
import { fromAISDKTools, toAISDKToolApproval, toAISDKTools, toModelOutput } from './index.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

interface ScriptedCall {
  id: string;
  name: string;
  input: unknown;
}

function callsResult(calls: ScriptedCall[]): LanguageModelV4GenerateResult {
  return {
    content: calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.name,
      input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

function textResult(text: string): LanguageModelV4GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
}

/** The tool results the model was sent in one call's prompt, by call id. */
function toolOutputsIn(options: LanguageModelV4CallOptions | undefined): Record<string, { type: string; value?: unknown }> {
  const outputs: Record<string, { type: string; value?: unknown }> = {};
  for (const message of options?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') outputs[part.toolCallId] = part.output as { type: string; value?: unknown };
  }
  return outputs;
}

const fixtures = interopTools;

describe('toAISDKTools under generateText', () => {
  it('declares each tool with its JSON Schema and runs a valid call, the result reaching the model', async () => {
    const { ran, tools } = fixtures();
    const model = new MockLanguageModelV4({
      doGenerate: [callsResult([{ id: 'c1', name: 'get_weather', input: { city: 'Oslo' } }]), textResult('It is sunny.')],
    });
    const result = await generateText({ model, tools: toAISDKTools(tools), prompt: 'Weather in Oslo?', stopWhen: stepCountIs(3) });
    expect(result.text).toBe('It is sunny.');
    expect(ran).toEqual(['get_weather Oslo']);
    const declared = model.doGenerateCalls[0]!.tools!.find((entry) => entry.name === 'get_weather');
    expect(declared).toMatchObject({ type: 'function', description: 'Weather for a city.', inputSchema: tools[0]!.inputSchema });
    expect(toolOutputsIn(model.doGenerateCalls[1])).toEqual({ c1: { type: 'text', value: 'Sunny in Oslo' } });
  });

  it("answers invalid arguments with toolwright's recovery text as the tool's error output, and the loop goes on", async () => {
    const { ran, tools } = fixtures();
    const model = new MockLanguageModelV4({
      doGenerate: [
        callsResult([{ id: 'c1', name: 'get_weather', input: { city: 'X', country: 'NO' } }]),
        callsResult([{ id: 'c2', name: 'get_weather', input: { city: 'Oslo' } }]),
        textResult('Sunny.'),
      ],
    });
    const result = await generateText({ model, tools: toAISDKTools(tools), prompt: 'Weather?', stopWhen: stepCountIs(5) });
    expect(result.text).toBe('Sunny.');
    const first = toolOutputsIn(model.doGenerateCalls[1]).c1!;
    expect(first.type).toBe('error-text');
    expect(first.value).toContain('get_weather');
    expect(first.value).toContain('country');
    expect(ran).toEqual(['get_weather Oslo']);
  });

  it('leaves broken JSON to the AI SDK, which answers it with its own error text before any tool runs', async () => {
    const { ran, tools } = fixtures();
    const model = new MockLanguageModelV4({ doGenerate: [callsResult([{ id: 'c1', name: 'get_weather', input: '{"city": "Os' }]), textResult('Sorry.')] });
    await generateText({ model, tools: toAISDKTools(tools), prompt: 'Weather?', stopWhen: stepCountIs(3) });
    expect(toolOutputsIn(model.doGenerateCalls[1]).c1).toMatchObject({ type: 'error-text' });
    expect(ran).toEqual([]);
  });

  it('applies the policy per call: a blocked call reaches the model as the policy message and does not run', async () => {
    const { ran, tools } = fixtures();
    const model = new MockLanguageModelV4({
      doGenerate: [callsResult([{ id: 'c1', name: 'send_money', input: { to: 'eve', amount: 5 } }]), textResult('I cannot pay.')],
    });
    const aiTools = toAISDKTools(tools, { policy: createPolicy({ allowTools: ['get_weather'] }) });
    await generateText({ model, tools: aiTools, prompt: 'Pay eve 5', stopWhen: stepCountIs(3) });
    const output = toolOutputsIn(model.doGenerateCalls[1]).c1!;
    expect(output.type).toBe('error-text');
    expect(output.value).toContain('tool-not-allowed');
    expect(ran).toEqual([]);
  });

  it("ends a model's loop of failing calls: the loop breaker trips, the model is told, and a stopWhen on guards.stopped ends the run", async () => {
    const { tools } = fixtures();
    const guards = createToolGuards({ tools, limits: { maxRepeatedFailures: 2 } });
    const again = (id: string) => callsResult([{ id, name: 'get_weather', input: { city: 'X' } }]);
    const model = new MockLanguageModelV4({ doGenerate: [again('c1'), again('c2'), again('c3'), again('c4'), textResult('never')] });
    const result = await generateText({
      model,
      tools: toAISDKTools(guards),
      prompt: 'Weather?',
      stopWhen: [stepCountIs(10), () => guards.stopped !== undefined],
    });
    expect(result.steps).toHaveLength(2);
    expect(guards.stopped).toMatchObject({ kind: 'loop_detected', pattern: 'repeated_failure', count: 2 });
    const last = result.steps[1]!.content.find((part) => part.type === 'tool-result');
    expect(toModelOutput(last!.output as ToolResult)).toMatchObject({
      type: 'error-text',
      value: expect.stringContaining('Tool use for this task was stopped'),
    });
  });

  it("runs a call that needs a person through the AI SDK's approval flow: request, approval response, execution", async () => {
    const { ran, tools } = fixtures();
    const guards = createToolGuards({ tools });
    const aiTools = toAISDKTools(guards);
    const model = new MockLanguageModelV4({
      doGenerate: [callsResult([{ id: 'c1', name: 'send_money', input: { to: 'bob', amount: 500 } }]), textResult('Paid bob.')],
    });
    const messages: ModelMessage[] = [{ role: 'user', content: 'Pay bob 500' }];
    const first = await generateText({ model, tools: aiTools, messages, stopWhen: stepCountIs(3) });
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request).toMatchObject({ type: 'tool-approval-request', toolCall: { toolCallId: 'c1', toolName: 'send_money' } });
    expect(ran).toEqual([]);
    expect(model.doGenerateCalls).toHaveLength(1);

    const approval: ToolApprovalResponse = { type: 'tool-approval-response', approvalId: request!.approvalId, approved: true };
    messages.push(...first.response.messages, { role: 'tool', content: [approval] });
    const second = await generateText({ model, tools: aiTools, messages, stopWhen: stepCountIs(3) });
    expect(ran).toEqual(['send_money bob 500 approved']);
    expect(second.text).toBe('Paid bob.');
    expect(toolOutputsIn(model.doGenerateCalls[1])).toEqual({ c1: { type: 'text', value: '{"paid":500,"to":"bob"}' } });

    // The same approval sent again does not pay twice.
    await generateText({ model: new MockLanguageModelV4({ doGenerate: [textResult('ok')] }), tools: aiTools, messages, stopWhen: stepCountIs(2) });
    expect(ran).toEqual(['send_money bob 500 approved']);
  });

  it("asks through generateText's toolApproval (AI SDK 7), the approval request carrying toolwright's summary as its reason", async () => {
    const { ran, tools } = fixtures();
    const guards = createToolGuards({ tools });
    const aiTools = toAISDKTools(guards);
    const toolApproval = toAISDKToolApproval(guards);
    const model = new MockLanguageModelV4({
      doGenerate: [callsResult([{ id: 'c1', name: 'send_money', input: { to: 'bob', amount: 500 } }]), textResult('Paid bob.')],
    });
    const messages: ModelMessage[] = [{ role: 'user', content: 'Pay bob 500' }];
    const first = await generateText({ model, tools: aiTools, toolApproval, messages, stopWhen: stepCountIs(3) });
    const request = first.content.find((part) => part.type === 'tool-approval-request')!;
    expect(request.reason).toBe('send_money(amount: 500, to: "bob")\n  amount: 500\n  to: "bob"');
    expect(ran).toEqual([]);
    messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: true }] });
    await generateText({ model, tools: aiTools, toolApproval, messages, stopWhen: stepCountIs(3) });
    expect(ran).toEqual(['send_money bob 500 approved']);
  });

  it('a denied approval never runs the call', async () => {
    const { ran, tools } = fixtures();
    const aiTools = toAISDKTools(tools);
    const model = new MockLanguageModelV4({
      doGenerate: [callsResult([{ id: 'c1', name: 'send_money', input: { to: 'bob', amount: 500 } }]), textResult('Not paid.')],
    });
    const messages: ModelMessage[] = [{ role: 'user', content: 'Pay bob 500' }];
    const first = await generateText({ model, tools: aiTools, messages });
    const request = first.content.find((part) => part.type === 'tool-approval-request')!;
    messages.push(...first.response.messages, { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: request.approvalId, approved: false }] });
    await generateText({ model, tools: aiTools, messages, stopWhen: stepCountIs(3) });
    expect(ran).toEqual([]);
    expect(toolOutputsIn(model.doGenerateCalls[1]).c1).toMatchObject({ type: 'execution-denied' });
  });

  it('a small payment (confirm rule false) runs without an approval request', async () => {
    const { ran, tools } = fixtures();
    const model = new MockLanguageModelV4({
      doGenerate: [callsResult([{ id: 'c1', name: 'send_money', input: { to: 'bob', amount: 5 } }]), textResult('Paid.')],
    });
    const result = await generateText({ model, tools: toAISDKTools(tools), prompt: 'Pay bob 5', stopWhen: stepCountIs(3) });
    expect(result.content.some((part) => part.type === 'tool-approval-request')).toBe(false);
    expect(ran).toEqual(['send_money bob 5 unasked']);
  });

  it('counts usage reported by the AI SDK against the guards budgets', async () => {
    const { tools } = fixtures();
    const guards = createToolGuards({ tools, limits: { maxOutputTokens: 8 } });
    const model = new MockLanguageModelV4({
      doGenerate: [
        callsResult([{ id: 'c1', name: 'get_weather', input: { city: 'Oslo' } }]),
        callsResult([{ id: 'c2', name: 'get_weather', input: { city: 'Rome' } }]),
        textResult('never'),
      ],
    });
    const result = await generateText({
      model,
      tools: toAISDKTools(guards),
      prompt: 'Weather?',
      stopWhen: [stepCountIs(10), () => guards.stopped !== undefined],
      onStepFinish: (step) => {
        guards.recordUsage(step.usage);
      },
    });
    expect(result.steps).toHaveLength(2);
    expect(guards.stopped).toMatchObject({ kind: 'budget', limit: 'outputTokens', used: 10 });
  });
});

describe('toAISDKTools options', () => {
  it('refuses options beside guards that already exist (they would be ignored)', () => {
    const { tools } = fixtures();
    expect(() => toAISDKTools(createToolGuards({ tools }), { limits: { maxToolCalls: 1 } })).toThrow(expect.objectContaining({ code: 'TW_INVALID_ARGUMENT' }));
  });
});

describe('toAISDKTools under streamText', () => {
  function streamOf(result: LanguageModelV4GenerateResult): { stream: ReadableStream<LanguageModelV4StreamPart> } {
    const parts: LanguageModelV4StreamPart[] = [];
    for (const part of result.content) {
      if (part.type === 'text') parts.push({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' });
      if (part.type === 'tool-call') {
        parts.push(
          { type: 'tool-input-start', id: part.toolCallId, toolName: part.toolName },
          { type: 'tool-input-delta', id: part.toolCallId, delta: part.input },
          { type: 'tool-input-end', id: part.toolCallId },
          part,
        );
      }
    }
    parts.push({ type: 'finish', usage: result.usage, finishReason: result.finishReason });
    return { stream: convertArrayToReadableStream(parts) };
  }

  it('streams a multi-step run: the invalid call gets the recovery text, the valid one runs, the text streams', async () => {
    const { ran, tools } = fixtures();
    const model = new MockLanguageModelV4({
      doStream: [
        streamOf(callsResult([{ id: 'c1', name: 'get_weather', input: {} }])),
        streamOf(callsResult([{ id: 'c2', name: 'get_weather', input: { city: 'Oslo' } }])),
        streamOf(textResult('Sunny in Oslo.')),
      ],
    });
    const result = streamText({ model, tools: toAISDKTools(tools), prompt: 'Weather?', stopWhen: stepCountIs(4) });
    const kinds: string[] = [];
    for await (const part of result.fullStream) kinds.push(part.type);
    expect(await result.text).toBe('Sunny in Oslo.');
    expect(kinds).toContain('tool-result');
    expect(kinds).toContain('text-delta');
    expect(kinds).not.toContain('tool-error');
    expect(ran).toEqual(['get_weather Oslo']);
    const first = toolOutputsIn(model.doStreamCalls[1]).c1!;
    expect(first).toMatchObject({ type: 'error-text', value: expect.stringContaining('city') });
    expect(toolOutputsIn(model.doStreamCalls[2]).c2).toEqual({ type: 'text', value: 'Sunny in Oslo' });
  });

  it('streams an approval request and stops the step there', async () => {
    const { ran, tools } = fixtures();
    const model = new MockLanguageModelV4({ doStream: [streamOf(callsResult([{ id: 'c1', name: 'send_money', input: { to: 'bob', amount: 500 } }]))] });
    const result = streamText({ model, tools: toAISDKTools(tools), prompt: 'Pay', stopWhen: stepCountIs(3) });
    const kinds: string[] = [];
    for await (const part of result.fullStream) kinds.push(part.type);
    expect(kinds).toContain('tool-approval-request');
    expect(ran).toEqual([]);
  });
});

describe('toModelOutput', () => {
  it('maps failures to error-text, text to text, images to content parts, a structured-only result to its JSON', () => {
    expect(toModelOutput({ content: [{ type: 'text', text: 'bad' }], isError: true })).toEqual({ type: 'error-text', value: 'bad' });
    expect(
      toModelOutput({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
        isError: false,
      }),
    ).toEqual({ type: 'text', value: 'a\nb' });
    expect(toModelOutput({ content: [], structuredContent: { n: 1 }, isError: false })).toEqual({ type: 'text', value: '{"n":1}' });
    expect(
      toModelOutput({
        content: [
          { type: 'text', text: 'chart' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
        isError: false,
      }),
    ).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'chart' },
        { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'AAAA' } },
      ],
    });
  });
});

describe('fromAISDKTools', () => {
  function aiTools() {
    const calls: unknown[] = [];
    return {
      calls,
      tools: {
        lookup: tool({
          description: 'Looks a word up.',
          inputSchema: z.object({
            word: z
              .string()
              .min(2)
              .refine((word) => word !== 'xx', 'xx is not a word'),
          }),
          execute: async ({ word }) => {
            calls.push(word);
            return { word, meaning: `meaning of ${word}` };
          },
        }),
        count: tool({
          description: 'Counts.',
          inputSchema: jsonSchema<{ n: number }>({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }),
          execute: async function* ({ n }) {
            yield 'counting';
            yield n + 1;
          },
        }),
        erase: tool({ description: 'Erases.', inputSchema: z.object({}), needsApproval: true, execute: async () => 'erased' }),
      },
    };
  }

  it('reads a draft-07 tuple as draft-07 does (array items, additionalItems) instead of dropping its tag', async () => {
    const pair = tool({
      description: 'Takes a pair.',
      inputSchema: jsonSchema<{ pair: [string, number] }>({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }], additionalItems: false } },
        required: ['pair'],
      }),
      execute: async () => 'ok',
    });
    const registry = new ToolRegistry(await fromAISDKTools({ pair }, { effect: 'read' }));
    expect(registry.require('pair').inputSchema.properties).toEqual({
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false },
    });
    expect((await registry.call({ id: 'a', name: 'pair', arguments: { pair: ['a', 1] } })).result.isError).toBe(false);
    // with the tag only dropped, Ajv 2020 refuses array items and the tool does not compile at all
    expect((await registry.call({ id: 'b', name: 'pair', arguments: { pair: ['a', 1, 2] } })).result.isError).toBe(true);
    expect((await registry.call({ id: 'c', name: 'pair', arguments: { pair: [1, 'a'] } })).result.isError).toBe(true);
  });

  it('brings AI SDK tools under a registry: their JSON Schema, validation texts, results, effects and approvals', async () => {
    const { calls, tools } = aiTools();
    const converted = await fromAISDKTools(tools, { effect: { lookup: 'read', count: 'read', erase: 'write' } });
    const registry = new ToolRegistry(converted);
    expect(registry.names()).toEqual(['lookup', 'count', 'erase']);
    expect(registry.get('lookup')).toMatchObject({ effect: 'read', description: 'Looks a word up.', inputSchema: { type: 'object', required: ['word'] } });
    // the converter's draft-07 is rewritten into 2020-12, which an untagged schema is read as: no tag goes to the providers
    expect(registry.get('lookup')!.inputSchema.$schema).toBeUndefined();
    expect(registry.get('erase')).toMatchObject({ effect: 'write', confirm: true });

    const ok = await registry.call({ id: 'a', name: 'lookup', arguments: { word: 'cat' } });
    expect(ok.result).toMatchObject({ isError: false, structuredContent: { word: 'cat', meaning: 'meaning of cat' } });
    const invalid = await registry.call({ id: 'b', name: 'lookup', arguments: { word: 'c' } });
    expect(invalid.failure?.code).toBe('invalid_arguments');
    const refused = await registry.call({ id: 'c', name: 'lookup', arguments: { word: 'xx' } });
    expect(refused.failure?.code).toBe('tool_error');
    expect(refused.result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('xx is not a word') });
    expect(calls).toEqual(['cat']);

    const counted = await registry.call({ id: 'd', name: 'count', arguments: { n: 2 } });
    expect(counted.result.content).toEqual([{ type: 'text', text: '3' }]);
  });

  it('needs an effect for every tool and refuses a tool without execute', async () => {
    const { tools } = aiTools();
    await expect(fromAISDKTools(tools, { effect: { lookup: 'read' } })).rejects.toMatchObject({ code: 'TW_INVALID_ARGUMENT' });
    await expect(fromAISDKTools(tools, {} as never)).rejects.toMatchObject({ code: 'TW_INVALID_ARGUMENT' });
    const clientSide = { ask: tool({ description: 'Asks the user.', inputSchema: z.object({ q: z.string() }), outputSchema: z.string() }) };
    await expect(fromAISDKTools(clientSide, { effect: 'read' })).rejects.toMatchObject({ code: 'TW_INVALID_TOOL_DEFINITION' });
  });
});
