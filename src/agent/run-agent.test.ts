import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel, textTurn, toolCallTurn } from '../models/scripted/scripted-model.js';
import type { ModelRequest } from '../protocol/model-exchange.js';
import type { ToolMessage } from '../protocol/messages.js';
import { defineTool, type AnyTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import { ToolError } from '../tools/tool-error.js';
import { argumentRule, createPolicy } from '../policy/index.js';
import { readRunRecord } from './run-recorder.js';
import { runAgent, type RunAgentOptions } from './run-agent.js';

const folders: string[] = [];
function tempDir(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tw-agent-'));
  folders.push(folder);
  return folder;
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const echo = defineTool<{ text: string }>({
  name: 'echo',
  description: 'Echoes text.',
  effect: 'read',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  execute: ({ text }) => `echo: ${text}`,
});

function options(model: RunAgentOptions['model'], tools: readonly AnyTool[], extra: Partial<RunAgentOptions> = {}): RunAgentOptions {
  return { model, tools, prompt: 'Do the task.', recordDir: false, logger: silentLogger, ...extra };
}

function toolMessages(request: ModelRequest): ToolMessage[] {
  return request.messages.filter((message): message is ToolMessage => message.role === 'tool');
}

function firstText(message: ToolMessage | undefined, index = 0): string {
  const part = message?.results[index]?.result.content[0];
  return part && part.type === 'text' ? part.text : '';
}

describe('runAgent', () => {
  it('runs tools, feeds results back in order, and completes with the transcript, usage and cost', async () => {
    const model = createScriptedModel(
      [
        toolCallTurn([{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }], { usage: { inputTokens: 1000, outputTokens: 100 } }),
        textTurn('Done: hi', { usage: { inputTokens: 2000, outputTokens: 10 } }),
      ],
      { id: 'openai:gpt-4o-mini' },
    );
    const result = await runAgent(options(model, [echo]));
    expect(result.status).toBe('completed');
    if (result.status !== 'completed') return;
    expect(result.text).toBe('Done: hi');
    expect(result.finishReason).toBe('end_turn');
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(firstText(result.messages[2] as ToolMessage)).toBe('echo: hi');
    expect(result.usage).toMatchObject({ inputTokens: 3000, outputTokens: 110, modelCalls: 2, toolCalls: 1 });
    // gpt-4o-mini: $0.15 / $0.60 per million tokens.
    expect(result.costUsd).toBeCloseTo((3000 * 0.15 + 110 * 0.6) / 1e6, 12);
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.toolCalls).toMatchObject([{ callKey: '0.0', callId: 'c1', toolName: 'echo', status: 'succeeded', arguments: { text: 'hi' } }]);
    expect(result.runId).toMatch(/^run_/);
    expect(result.recordPath).toBeUndefined();
  });

  it('stops at maxIterations (default 10) with a typed result instead of looping forever', async () => {
    let turn = 0;
    const model = createScriptedModel(Array.from({ length: 30 }, () => () => toolCallTurn([{ name: 'echo', arguments: { text: `t${++turn}` } }])));
    const result = await runAgent(options(model, [echo]));
    expect(result.status).toBe('stopped');
    if (result.status !== 'stopped') return;
    expect(result.stopReason).toEqual({ kind: 'max_iterations', limit: 10, message: 'The run reached its limit of 10 model calls before the model finished.' });
    expect(model.requests).toHaveLength(10);
    expect(result.messages.at(-1)?.role).toBe('tool');
    expect(result.usage.toolCalls).toBe(10);
  });

  it('turns a model failure into a model_error stop, never a rejection', async () => {
    const model = createScriptedModel([]);
    const result = await runAgent(options(model, [echo]));
    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'model_error', errorCode: 'TW_SCRIPT_EXHAUSTED' } });
  });

  describe('errors as prompts', () => {
    it('sends the registry recovery message back as the tool result so the model can correct itself', async () => {
      const model = createScriptedModel([
        toolCallTurn([{ id: 'bad', name: 'ecko', arguments: { text: 'x' } }]),
        toolCallTurn([{ id: 'bad2', name: 'echo', argumentsText: '{"text": 5}' }]),
        toolCallTurn([{ id: 'good', name: 'echo', arguments: { text: 'x' } }]),
        textTurn('ok'),
      ]);
      const result = await runAgent(options(model, [echo]));
      expect(result.status).toBe('completed');
      expect(firstText(toolMessages(model.requests[1]!)[0])).toContain('Unknown tool "ecko"');
      expect(firstText(toolMessages(model.requests[1]!)[0])).toContain('Did you mean "echo"?');
      expect(firstText(toolMessages(model.requests[2]!)[1])).toContain('text');
      expect(result.steps[0]!.toolCalls[0]).toMatchObject({ status: 'failed', failureCode: 'unknown_tool' });
      expect(result.steps[1]!.toolCalls[0]).toMatchObject({ status: 'failed', failureCode: 'invalid_arguments' });
    });

    it('keeps an internal error out of the prompt and puts it, with its stack, in the record', async () => {
      const folder = tempDir();
      const broken = defineTool({
        name: 'broken',
        description: 'Fails inside.',
        effect: 'read',
        inputSchema: { type: 'object' },
        execute: () => {
          throw new Error('database password is hunter2');
        },
      });
      const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'broken', arguments: {} }]), textTurn('sorry')]);
      const result = await runAgent(options(model, [broken], { recordDir: folder }));
      const sent = firstText(toolMessages(model.requests[1]!)[0]);
      expect(sent).not.toContain('hunter2');
      const line = readRunRecord(result.recordPath!).find((event) => event.type === 'tool_result');
      expect(line).toMatchObject({
        type: 'tool_result',
        status: 'failed',
        failure: { code: 'internal_error', error: { name: 'Error', message: 'database password is hunter2' } },
      });
      expect(line && line.type === 'tool_result' && line.failure?.error?.stack).toContain('run-agent.test.ts');
    });
  });

  describe('budget breaker', () => {
    const priced = { 'test:model': { inputPerMillion: 1_000_000, outputPerMillion: 1_000_000 } }; // $1 per token: easy arithmetic

    it('stops before the model call whose estimated cost would pass maxCostUsd, and says by how much', async () => {
      const cents = { 'test:model': { inputPerMillion: 10_000, outputPerMillion: 10_000 } }; // one cent per token
      const model = createScriptedModel(
        [toolCallTurn([{ name: 'echo', arguments: { text: 'x' } }], { usage: { inputTokens: 1000, outputTokens: 500 } }), textTurn('never')],
        { id: 'test:model' },
      );
      const result = await runAgent(options(model, [echo], { prices: cents, limits: { maxCostUsd: 15.5 } }));
      expect(result.status).toBe('stopped');
      if (result.status !== 'stopped') return;
      // The first call cost $15; the second call's estimated input alone costs more than the $0.50 left, so it is never made.
      expect(model.requests).toHaveLength(1);
      expect(result.costUsd).toBeCloseTo(15, 9);
      expect(result.stopReason.kind).toBe('budget');
      if (result.stopReason.kind !== 'budget') return;
      const secondEstimate = model.estimateInputTokens({ messages: result.messages, tools: [echo] });
      const projected = Math.round((secondEstimate * 0.01 + 0.01) * 1e6) / 1e6;
      expect(result.stopReason).toEqual({
        kind: 'budget',
        limit: 'costUsd',
        max: 15.5,
        used: 15,
        projected,
        overBy: Math.round((15 + projected - 15.5) * 1e6) / 1e6,
        message: `The next step would use about $${projected} on top of $15, passing the limit of $15.5 by $${Math.round((15 + projected - 15.5) * 1e6) / 1e6}.`,
      });
    });

    it("lowers each call's output cap to the money and tokens that are left", async () => {
      const model = createScriptedModel([textTurn('short', { usage: { inputTokens: 1, outputTokens: 1 } })], { id: 'test:model' });
      const estimate = model.estimateInputTokens({ messages: [{ role: 'user', content: 'Do the task.' }], tools: [echo], toolChoice: 'auto' });
      await runAgent(options(model, [echo], { prices: priced, limits: { maxCostUsd: estimate + 7, maxOutputTokens: 50 } }));
      expect(model.requests[0]!.maxOutputTokens).toBe(7);
    });

    it('stops on input tokens, output tokens and tool calls with the limit named', async () => {
      const input = await runAgent(options(createScriptedModel([textTurn('x')]), [echo], { limits: { maxInputTokens: 3 } }));
      expect(input).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget', limit: 'inputTokens', max: 3, used: 0 } });

      const outputModel = createScriptedModel([toolCallTurn([{ name: 'echo', arguments: { text: 'x' } }], { usage: { outputTokens: 20 } }), textTurn('never')]);
      const output = await runAgent(options(outputModel, [echo], { limits: { maxOutputTokens: 20 } }));
      expect(output).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget', limit: 'outputTokens', max: 20, used: 20, overBy: 0 } });
      expect(outputModel.requests).toHaveLength(1);

      let ran = 0;
      const counted = defineTool({ name: 'counted', description: 'Counts.', effect: 'read', inputSchema: { type: 'object' }, execute: () => ++ran });
      const toolModel = createScriptedModel([
        toolCallTurn([{ name: 'counted', arguments: { n: 1 } }]),
        toolCallTurn([
          { id: 'a', name: 'counted', arguments: { n: 2 } },
          { id: 'b', name: 'counted', arguments: { n: 3 } },
        ]),
        textTurn('never'),
      ]);
      const tools = await runAgent(options(toolModel, [counted], { limits: { maxToolCalls: 2 } }));
      expect(tools).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget', limit: 'toolCalls', max: 2, used: 1, projected: 2, overBy: 1 } });
      expect(ran).toBe(1);
      expect(tools.messages.at(-1)).toMatchObject({ role: 'tool', results: [{ callId: 'a' }, { callId: 'b' }] });
      expect(firstText(tools.messages.at(-1) as ToolMessage)).toBe("This call to counted was not run: the run's budget of 2 tool calls is used up.");
    });

    it('stops on wall time, aborting the running tool through its signal', async () => {
      let sawAbort = false;
      const slow = defineTool({
        name: 'slow',
        description: 'Waits until aborted.',
        effect: 'read',
        inputSchema: { type: 'object' },
        execute: (_args, context) =>
          new Promise((resolve) => {
            context.signal.addEventListener('abort', () => {
              sawAbort = true;
              resolve('late');
            });
          }),
      });
      const model = createScriptedModel([toolCallTurn([{ name: 'slow', arguments: {} }]), textTurn('never')]);
      const result = await runAgent(options(model, [slow], { limits: { maxWallTimeMs: 500 } }));
      expect(sawAbort).toBe(true);
      expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget', limit: 'wallTimeMs', max: 500 } });
      expect(model.requests).toHaveLength(1);
    });

    it('refuses a money limit for a model without a price', async () => {
      await expect(runAgent(options(createScriptedModel([textTurn('x')]), [echo], { limits: { maxCostUsd: 1 } }))).rejects.toMatchObject({
        code: 'TW_INVALID_ARGUMENT',
      });
    });
  });

  describe('loop breaker', () => {
    it('stops when the same tool with the same arguments fails 3 times', async () => {
      const failing = defineTool({
        name: 'lookup',
        description: 'Looks up.',
        effect: 'read',
        inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
        execute: () => {
          throw new ToolError('no such id', { kind: 'not_found' });
        },
      });
      // Same arguments in different key order and a fresh call id each time: still the same call.
      const model = createScriptedModel([
        toolCallTurn([{ name: 'lookup', arguments: { id: 'x', extra: 1 } }]),
        toolCallTurn([{ name: 'lookup', arguments: { extra: 1, id: 'x' } }]),
        toolCallTurn([{ name: 'lookup', arguments: { id: 'x', extra: 1 } }]),
        ...Array.from({ length: 10 }, () => toolCallTurn([{ name: 'lookup', arguments: { id: 'x', extra: 1 } }])),
      ]);
      const result = await runAgent(options(model, [failing]));
      expect(result.status).toBe('stopped');
      if (result.status !== 'stopped') return;
      expect(result.stopReason).toMatchObject({
        kind: 'loop_detected',
        pattern: 'repeated_failure',
        toolName: 'lookup',
        count: 3,
        limit: 3,
        arguments: { id: 'x', extra: 1 },
      });
      expect(result.stopReason.kind === 'loop_detected' && result.stopReason.lastResult).toContain('no such id');
      expect(model.requests).toHaveLength(3);
    });

    it('stops a model that repeats an identical successful call', async () => {
      const model = createScriptedModel(Array.from({ length: 10 }, () => toolCallTurn([{ name: 'echo', arguments: { text: 'again' } }])));
      const result = await runAgent(options(model, [echo], { limits: { maxIdenticalCalls: 4 } }));
      expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'loop_detected', pattern: 'repeated_call', count: 4, limit: 4 } });
    });

    it('counts a call the policy rewrote under the arguments it ran with', async () => {
      // Every request differs (its link), every rewrite is the same: the loop breaker must count what ran, not what was asked.
      const noLinks = createPolicy({
        rules: [
          argumentRule({
            id: 'no-links',
            tool: 'echo',
            action: 'remove',
            description: 'Echoes carry no links.',
            check: (args) => (/https?:\/\//.test((args as { text: string }).text) ? 'the text holds a link.' : undefined),
            remove: () => ({ arguments: { text: 'see [link removed]' }, removed: [{ argumentPath: 'text', kind: 'url', message: 'a link' }] }),
          }),
        ],
      });
      const turns = Array.from({ length: 6 }, (_, index) => toolCallTurn([{ name: 'echo', arguments: { text: `see https://x.test/${index}` } }]));
      const model = createScriptedModel([...turns, textTurn('done')]);
      const result = await runAgent(options(model, [echo], { policy: noLinks, limits: { maxIdenticalCalls: 3 } }));
      expect(result).toMatchObject({
        status: 'stopped',
        stopReason: { kind: 'loop_detected', pattern: 'repeated_call', count: 3, arguments: { text: 'see [link removed]' } },
      });
    });

    it('lets the identical call go on when maxIdenticalCalls is false, until the iteration limit', async () => {
      const model = createScriptedModel(Array.from({ length: 10 }, () => toolCallTurn([{ name: 'echo', arguments: { text: 'again' } }])));
      const result = await runAgent(options(model, [echo], { limits: { maxIdenticalCalls: false, maxIterations: 8 } }));
      expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'max_iterations', limit: 8 } });
      expect(result.usage.toolCalls).toBe(8);
    });
  });

  describe('scheduling by side effect', () => {
    function tracked() {
      let inFlight = 0;
      let maxReadsInFlight = 0;
      const overlapsWithWrite: string[] = [];
      let writing = false;
      const order: string[] = [];
      const gate = () => new Promise((resolve) => setTimeout(resolve, 5));
      const read = defineTool<{ id: string; fail?: boolean }>({
        name: 'read_item',
        description: 'Reads.',
        effect: 'read',
        inputSchema: { type: 'object', properties: { id: { type: 'string' }, fail: { type: 'boolean' } }, required: ['id'] },
        execute: async ({ id, fail }) => {
          if (writing) overlapsWithWrite.push(`read ${id}`);
          inFlight++;
          maxReadsInFlight = Math.max(maxReadsInFlight, inFlight);
          await gate();
          inFlight--;
          order.push(`read ${id}`);
          if (fail) throw new ToolError(`item ${id} is locked`, { kind: 'conflict' });
          return `item ${id}`;
        },
      });
      const write = defineTool<{ id: string }>({
        name: 'write_item',
        description: 'Writes.',
        effect: 'write',
        inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        execute: async ({ id }) => {
          if (writing || inFlight > 0) overlapsWithWrite.push(`write ${id}`);
          writing = true;
          await gate();
          writing = false;
          order.push(`write ${id}`);
          return `wrote ${id}`;
        },
      });
      return { read, write, stats: () => ({ maxReadsInFlight, overlapsWithWrite, order }) };
    }

    it('overlaps consecutive reads, runs each write alone in order, and answers in call order', async () => {
      const { read, write, stats } = tracked();
      const calls = [
        { id: 'r1', name: 'read_item', arguments: { id: '1' } },
        { id: 'r2', name: 'read_item', arguments: { id: '2' } },
        { id: 'r3', name: 'read_item', arguments: { id: '3', fail: true } },
        { id: 'w1', name: 'write_item', arguments: { id: 'A' } },
        { id: 'w2', name: 'write_item', arguments: { id: 'B' } },
        { id: 'r4', name: 'read_item', arguments: { id: '4' } },
        { id: 'r5', name: 'read_item', arguments: { id: '5' } },
      ];
      const model = createScriptedModel([toolCallTurn(calls), textTurn('done')]);
      const result = await runAgent(options(model, [read, write]));
      expect(result.status).toBe('completed');
      const { maxReadsInFlight, overlapsWithWrite, order } = stats();
      expect(maxReadsInFlight).toBeGreaterThan(1);
      expect(overlapsWithWrite).toEqual([]);
      // Writes run after every earlier read and before every later one, A before B.
      expect(order.slice(3, 5)).toEqual(['write A', 'write B']);
      expect(order.slice(0, 3).sort()).toEqual(['read 1', 'read 2', 'read 3']);
      expect(order.slice(5).sort()).toEqual(['read 4', 'read 5']);
      const message = toolMessages(model.requests[1]!)[0]!;
      expect(message.results.map((item) => item.callId)).toEqual(['r1', 'r2', 'r3', 'w1', 'w2', 'r4', 'r5']);
      // One failing call does not sink the others.
      expect(message.results.map((item) => item.result.isError)).toEqual([false, false, true, false, false, false, false]);
    });

    it('bounds the reads that run at once by maxParallelReads', async () => {
      const { read, stats } = tracked();
      const calls = Array.from({ length: 6 }, (_, index) => ({ name: 'read_item', arguments: { id: String(index) } }));
      await runAgent(options(createScriptedModel([toolCallTurn(calls), textTurn('done')]), [read], { limits: { maxParallelReads: 2 } }));
      expect(stats().maxReadsInFlight).toBe(2);
    });

    it('passes per-tool timeouts and the run abort to execute', async () => {
      const seen: string[] = [];
      const hang = (name: string, timeoutMs?: number) =>
        defineTool({
          name,
          description: 'Hangs.',
          effect: 'read',
          inputSchema: { type: 'object' },
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
          execute: (_args, context) =>
            new Promise((resolve) => {
              context.signal.addEventListener('abort', () => {
                seen.push(name);
                resolve('stopped');
              });
            }),
        });
      const timed = await runAgent(
        options(
          createScriptedModel([
            toolCallTurn([
              { name: 'own_timeout', arguments: {} },
              { name: 'default_timeout', arguments: {} },
            ]),
            textTurn('ok'),
          ]),
          [hang('own_timeout', 10), hang('default_timeout')],
          { limits: { toolTimeoutMs: 20 } },
        ),
      );
      expect(seen.sort()).toEqual(['default_timeout', 'own_timeout']);
      expect(timed.steps[0]!.toolCalls.map((call) => call.failureCode)).toEqual(['timeout', 'timeout']);

      const controller = new AbortController();
      const waits = defineTool({
        name: 'waits',
        description: 'Waits; the user presses stop meanwhile.',
        effect: 'read',
        inputSchema: { type: 'object' },
        execute: (_args, context) =>
          new Promise((resolve) => {
            context.signal.addEventListener('abort', () => {
              seen.push('waits');
              resolve('stopped');
            });
            setTimeout(() => controller.abort(new Error('user pressed stop')), 0);
          }),
      });
      const aborted = await runAgent(
        options(
          createScriptedModel([
            toolCallTurn([
              { name: 'echo', arguments: { text: 'a' } },
              { name: 'waits', arguments: {} },
            ]),
            textTurn('never'),
          ]),
          [echo, waits],
          { signal: controller.signal },
        ),
      );
      expect(aborted).toMatchObject({ status: 'stopped', stopReason: { kind: 'aborted', message: 'The run was aborted: user pressed stop.' } });
      expect(seen).toContain('waits');
      expect(aborted.steps[0]!.toolCalls.map((call) => call.failureCode)).toEqual([undefined, 'aborted']);
    });
  });

  it("tells the model when a result was truncated to the tool's size budget", async () => {
    const big = defineTool({
      name: 'big',
      description: 'Returns a lot.',
      effect: 'read',
      inputSchema: { type: 'object' },
      maxResultChars: 100,
      execute: () => 'x'.repeat(5000),
    });
    const model = createScriptedModel([toolCallTurn([{ name: 'big', arguments: {} }]), textTurn('ok')]);
    const result = await runAgent(options(model, [big]));
    const text = firstText(toolMessages(model.requests[1]!)[0]);
    expect(text.length).toBeLessThan(400);
    expect(text).toMatch(/truncat/i);
    expect(result.steps[0]!.toolCalls[0]!.truncated).toBe(true);
  });

  describe('guardToolCall (where policies plug in)', () => {
    const sent: string[] = [];
    const send = defineTool<{ to: string }>({
      name: 'send_email',
      description: 'Sends an email.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
      execute: ({ to }) => {
        sent.push(to);
        return 'sent';
      },
    });

    it('blocks a call with a message the model reads, and the run goes on', async () => {
      sent.length = 0;
      const model = createScriptedModel([
        toolCallTurn([{ id: 'c1', name: 'send_email', arguments: { to: 'attacker@example.com' } }]),
        textTurn('I cannot send that.'),
      ]);
      const result = await runAgent(
        options(model, [send], {
          guardToolCall: ({ toolName, arguments: args }) =>
            toolName === 'send_email' && (args as { to: string }).to.endsWith('@example.com')
              ? { action: 'block', message: 'Sending mail outside the company is not allowed.' }
              : { action: 'allow' },
        }),
      );
      expect(result.status).toBe('completed');
      expect(sent).toEqual([]);
      expect(firstText(toolMessages(model.requests[1]!)[0])).toBe('Sending mail outside the company is not allowed.');
      expect(result.steps[0]!.toolCalls[0]).toMatchObject({ status: 'blocked', arguments: { to: 'attacker@example.com' } });
    });

    it('escalates a call to a person, and asks when the guard itself fails', async () => {
      const { createMemoryRunStore } = await import('./memory-run-store.js');
      const escalated = await runAgent(
        options(createScriptedModel([toolCallTurn([{ name: 'send_email', arguments: { to: 'a@corp.test' } }])]), [send], {
          store: createMemoryRunStore(),
          guardToolCall: () => ({ action: 'confirm', reason: 'a tool result earlier in this run was untrusted' }),
        }),
      );
      expect(escalated).toMatchObject({
        status: 'awaiting_confirmation',
        pending: [{ summary: 'send_email(to: "a@corp.test") (a tool result earlier in this run was untrusted)' }],
      });
      const failing = await runAgent(
        options(createScriptedModel([toolCallTurn([{ name: 'send_email', arguments: { to: 'a@corp.test' } }])]), [send], {
          store: createMemoryRunStore(),
          guardToolCall: () => {
            throw new Error('policy service down');
          },
        }),
      );
      expect(failing).toMatchObject({ status: 'awaiting_confirmation', pending: [{ summary: 'send_email(to: "a@corp.test") (the policy check failed)' }] });
    });
  });

  it('asks a person when a policy throws, and withholds a result it cannot label', async () => {
    const { createMemoryRunStore } = await import('./memory-run-store.js');
    const broken = {
      name: 'broken',
      startRun: () => ({
        beforeToolCall: () => {
          throw new Error('rules file missing');
        },
        afterToolResult: () => {
          throw new Error('classifier down');
        },
        systemPrompt: () => undefined,
        snapshot: () => ({ version: 1 as const, token: 't', tainted: false, callCounts: {}, untrusted: [], trustedTexts: [] }),
        tainted: false,
      }),
    };
    const paused = await runAgent(
      options(createScriptedModel([toolCallTurn([{ name: 'echo', arguments: { text: 'x' } }])]), [echo], { store: createMemoryRunStore(), policy: broken }),
    );
    expect(paused).toMatchObject({ status: 'awaiting_confirmation', pending: [{ summary: 'echo({"text":"x"}) (the policy check failed)' }] });
  });

  describe('routing', () => {
    const categories = ['billing', 'support', 'account'];
    const many: AnyTool[] = categories.flatMap((category) =>
      Array.from({ length: 8 }, (_, index) =>
        defineTool({
          name: `${category}_${index}`,
          description: `${category} tool ${index}.`,
          effect: 'read',
          category,
          inputSchema: { type: 'object' },
          execute: () => `${category} ${index}`,
        }),
      ),
    );
    const help = defineTool({
      name: 'help',
      description: 'Help.',
      effect: 'read',
      alwaysAvailable: true,
      inputSchema: { type: 'object' },
      execute: () => 'help',
    });

    it('above 20 tools, picks a category with a forced select_tool_category call, then offers only its tools', async () => {
      const model = createScriptedModel([
        toolCallTurn([{ name: 'select_tool_category', arguments: { category: 'support' } }]),
        toolCallTurn([{ name: 'support_3', arguments: {} }]),
        textTurn('ok'),
      ]);
      const result = await runAgent(options(model, [...many, help]));
      expect(result.status).toBe('completed');
      const routing = model.requests[0]!;
      expect(routing.toolChoice).toEqual({ tool: 'select_tool_category' });
      expect(routing.tools?.map((tool) => tool.name)).toEqual(['select_tool_category']);
      expect(routing.tools?.[0]?.inputSchema).toMatchObject({ properties: { category: { enum: categories } }, required: ['category'] });
      expect(model.requests[1]!.tools?.map((tool) => tool.name)).toEqual([...Array.from({ length: 8 }, (_, index) => `support_${index}`), 'help']);
      expect(result.steps[0]!.kind).toBe('routing');
      // The routing exchange stays out of the transcript.
      expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(result.usage.modelCalls).toBe(3);
    });

    it('routes whenever categories are declared, and keeps every tool when the answer names none', async () => {
      const few = [many[0]!, many[8]!];
      const declared = createScriptedModel([toolCallTurn([{ name: 'select_tool_category', arguments: { category: 'nope' } }]), textTurn('ok')]);
      await runAgent(options(declared, few, { routing: { categories: { billing: 'Invoices and refunds', support: 'Tickets' } } }));
      expect(declared.requests[0]!.tools?.[0]?.description).toContain('billing: Invoices and refunds; support: Tickets');
      expect(declared.requests[1]!.tools?.map((tool) => tool.name)).toEqual(['billing_0', 'support_0']);

      const plain = createScriptedModel([textTurn('ok')]);
      await runAgent(options(plain, few));
      expect(plain.requests[0]!.toolChoice).toBe('auto');
    });
  });

  describe('tool choice', () => {
    it('passes a fixed choice to every call, or decides per iteration', async () => {
      const fixed = createScriptedModel([textTurn('ok')]);
      await runAgent(options(fixed, [echo], { toolChoice: 'required' }));
      expect(fixed.requests[0]!.toolChoice).toBe('required');

      const staged = createScriptedModel([
        toolCallTurn([{ name: 'echo', arguments: { text: 'a' } }]),
        toolCallTurn([{ name: 'echo', arguments: { text: 'b' } }]),
        textTurn('done'),
      ]);
      const seen: number[] = [];
      const result = await runAgent(
        options(staged, [echo], {
          toolChoice: ({ iteration, tools }) => {
            seen.push(iteration);
            expect(tools.map((tool) => tool.name)).toEqual(['echo']);
            return iteration < 2 ? { tool: 'echo' } : 'none';
          },
        }),
      );
      expect(result.status).toBe('completed');
      expect(seen).toEqual([0, 1, 2]);
      expect(staged.requests.map((request) => request.toolChoice)).toEqual([{ tool: 'echo' }, { tool: 'echo' }, 'none']);
    });
  });

  describe('record', () => {
    it('writes one JSONL event per line with requests, raw responses, tool calls and the stop, redacting keys', async () => {
      const folder = tempDir();
      const model = createScriptedModel([
        toolCallTurn([{ id: 'c1', name: 'echo', arguments: { text: 'my key is sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX' } }], {
          raw: { id: 'resp_1', headers: { authorization: 'Bearer abcdefghijkl' } },
        }),
        textTurn('done', { raw: { note: 'customer 4111-1111' } }),
      ]);
      const result = await runAgent(options(model, [echo], { recordDir: folder, redact: [/\d{4}-\d{4}/] }));
      expect(result.recordPath).toBe(join(folder, `${result.runId}.jsonl`));
      const text = readFileSync(result.recordPath!, 'utf8');
      expect(text).not.toContain('sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX');
      expect(text).not.toContain('abcdefghijkl');
      expect(text).not.toContain('4111-1111');
      const events = readRunRecord(result.recordPath!);
      expect(events.map((event) => event.type)).toEqual([
        'run_started',
        'model_request',
        'model_response',
        'tool_call',
        'tool_result',
        'model_request',
        'model_response',
        'stop',
      ]);
      expect(events.every((event) => event.runId === result.runId && typeof event.time === 'string')).toBe(true);
      expect(events[2]).toMatchObject({ type: 'model_response', raw: { id: 'resp_1', headers: { authorization: '[REDACTED]' } } });
      expect(events[4]).toMatchObject({ type: 'tool_result', callId: 'c1', arguments: { text: 'my key is [REDACTED]' }, status: 'succeeded' });
      expect(events[4]!.type === 'tool_result' && typeof events[4]!.durationMs).toBe('number');
      expect(events[7]).toMatchObject({ type: 'stop', status: 'completed', usage: { modelCalls: 2, toolCalls: 1 } });
    });
  });
});
