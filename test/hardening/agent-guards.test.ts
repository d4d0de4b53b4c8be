/**
 * Hardening of the agent loop's guards: what a model or a provider sends must
 * not repeat a write, hang the run past its wall-time limit, leave the model
 * with no tools after routing, or end a cut-off answer as `completed`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createModel,
  defineTool,
  runAgent,
  silentLogger,
  type AnyTool,
  type Model,
  type ModelRequest,
  type RunAgentOptions,
  type ToolMessage,
} from '../../src/index.js';
import { readRunRecord } from '../../src/agent/package-entry.js';
import { createScriptedModel, textTurn, toolCallTurn, type ScriptedToolCall } from '../../src/test.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runRunCommand } from '../../src/cli/commands/run.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const records = mkdtempSync(join(tmpdir(), 'tw-guards-'));
afterAll(() => rmSync(records, { recursive: true, force: true }));

function options(model: Model, tools: readonly AnyTool[], extra: Partial<RunAgentOptions> = {}): RunAgentOptions {
  return { model, tools, prompt: 'Do the task.', recordDir: false, logger: silentLogger, ...extra };
}

function toolResults(request: ModelRequest | undefined): Map<string, { text: string; isError: boolean }> {
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const message of request?.messages ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of (message as ToolMessage).results) {
      results.set(part.callId, {
        text: part.result.content.map((item) => (item.type === 'text' ? item.text : '')).join(''),
        isError: part.result.isError === true,
      });
    }
  }
  return results;
}

function counter() {
  const runs: unknown[] = [];
  const refund = defineTool<{ invoice_id: string; amount: number }>({
    name: 'refund',
    description: 'Refunds an amount of an invoice.',
    effect: 'write',
    inputSchema: {
      type: 'object',
      properties: { invoice_id: { type: 'string' }, amount: { type: 'number' } },
      required: ['invoice_id', 'amount'],
      additionalProperties: false,
    },
    execute: (args) => {
      runs.push(args);
      return `refunded ${args.amount} on ${args.invoice_id}`;
    },
  });
  return { runs, refund };
}

describe('identical calls in one response', () => {
  it('runs a write sent 50 times in one response once, answers every copy, and stops the loop', async () => {
    const { runs, refund } = counter();
    // The same call, its keys in varying order: identical once canonical.
    const calls: ScriptedToolCall[] = Array.from({ length: 50 }, (_, index) => ({
      id: `c${index + 1}`,
      name: 'refund',
      arguments: index % 2 === 0 ? { invoice_id: 'inv_1', amount: 10 } : { amount: 10, invoice_id: 'inv_1' },
    }));
    const model = createScriptedModel([toolCallTurn(calls), textTurn('Refunded.')]);
    const folder = mkdtempSync(join(records, 'dup-'));
    const result = await runAgent(options(model, [refund], { recordDir: folder }));

    expect(runs).toHaveLength(1);
    expect(result.usage.toolCalls).toBe(1);
    const outcomes = result.steps[0]!.toolCalls;
    expect(outcomes).toHaveLength(50);
    expect(outcomes[0]).toMatchObject({ callId: 'c1', status: 'succeeded' });
    // Every copy is answered, as a duplicate of c1; copies do not count against the per-turn cap.
    expect(outcomes.slice(1).every((outcome) => outcome.status === 'duplicate' && outcome.duplicateOf === 'c1')).toBe(true);
    expect(outcomes[1]!.result.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('identical to call c1') });
    expect(result.steps[0]!.turnLimit).toBeUndefined();
    // The loop breaker counts within the turn: 50 identical calls pass maxIdenticalCalls (5).
    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'loop_detected', pattern: 'repeated_call', toolName: 'refund', limit: 5 } });
    expect(model.requests).toHaveLength(1);
    const events = readRunRecord(result.recordPath!);
    expect(events.filter((event) => event.type === 'tool_result')).toHaveLength(50);
    expect(events.filter((event) => event.type === 'tool_result' && event.status === 'duplicate')).toHaveLength(49);
  });

  it('runs at most 16 distinct calls of one response by default, answers the rest, and records the cap', async () => {
    const { runs, refund } = counter();
    const model = createScriptedModel([
      toolCallTurn(
        Array.from({ length: 20 }, (_, index) => ({ id: `c${index + 1}`, name: 'refund', arguments: { invoice_id: `inv_${index + 1}`, amount: 1 } })),
      ),
      textTurn('Sixteen done.'),
    ]);
    const folder = mkdtempSync(join(records, 'cap-'));
    const result = await runAgent(options(model, [refund], { recordDir: folder }));
    expect(result.status).toBe('completed');
    expect(runs).toHaveLength(16);
    const outcomes = result.steps[0]!.toolCalls;
    expect(outcomes.slice(16).map((outcome) => outcome.status)).toEqual(['not_run', 'not_run', 'not_run', 'not_run']);
    expect(toolResults(model.requests[1]).get('c17')).toEqual({
      isError: true,
      text: expect.stringContaining('asked for 20 tool calls; at most 16 run per response'),
    });
    expect(result.steps[0]!.turnLimit).toEqual({ limit: 16, requested: 20 });
    const events = readRunRecord(result.recordPath!);
    expect(events.find((event) => event.type === 'turn_limited')).toMatchObject({
      step: 0,
      limit: 16,
      requested: 20,
      notRun: ['0.16', '0.17', '0.18', '0.19'],
    });
  });

  it('shares one execution among identical reads, unless a write comes between them', async () => {
    let reads = 0;
    const balance = defineTool<{ account: string }>({
      name: 'get_balance',
      description: 'Reads a balance.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { account: { type: 'string' } }, required: ['account'], additionalProperties: false },
      execute: () => `balance read #${++reads}`,
    });
    const { runs, refund } = counter();
    const model = createScriptedModel([
      toolCallTurn([
        { id: 'r1', name: 'get_balance', arguments: { account: 'a' } },
        { id: 'r2', name: 'get_balance', arguments: { account: 'a' } },
        { id: 'w1', name: 'refund', arguments: { invoice_id: 'inv_1', amount: 1 } },
        { id: 'r3', name: 'get_balance', arguments: { account: 'a' } },
      ]),
      textTurn('ok'),
    ]);
    const result = await runAgent(options(model, [balance, refund]));
    expect(result.status).toBe('completed');
    expect(reads).toBe(2);
    expect(runs).toHaveLength(1);
    const seen = toolResults(model.requests[1]);
    expect(seen.get('r1')).toEqual({ text: 'balance read #1', isError: false });
    expect(seen.get('r2')).toEqual({ text: 'balance read #1', isError: false });
    expect(seen.get('r3')).toEqual({ text: 'balance read #2', isError: false });
    expect(result.steps[0]!.toolCalls.map((outcome) => outcome.status)).toEqual(['succeeded', 'duplicate', 'succeeded', 'succeeded']);
  });

  it('takes an overridden maxToolCallsPerTurn, answers the calls past it, and lets the run go on', async () => {
    const { runs, refund } = counter();
    const model = createScriptedModel([
      toolCallTurn([1, 2, 3].map((amount) => ({ id: `c${amount}`, name: 'refund', arguments: { invoice_id: 'inv_1', amount } }))),
      textTurn('Two done; the third next time.'),
    ]);
    const result = await runAgent(options(model, [refund], { limits: { maxToolCallsPerTurn: 2 } }));
    expect(result.status).toBe('completed');
    expect(runs).toEqual([
      { invoice_id: 'inv_1', amount: 1 },
      { invoice_id: 'inv_1', amount: 2 },
    ]);
    const third = toolResults(model.requests[1]).get('c3')!;
    expect(third.isError).toBe(true);
    expect(third.text).toMatch(/asked for 3 tool calls; at most 2 run per response, so this call was not run/);
    expect(result.steps[0]!.turnLimit).toEqual({ limit: 2, requested: 3 });
    await expect(runAgent(options(createScriptedModel([textTurn('x')]), [refund], { limits: { maxToolCallsPerTurn: 0 } }))).rejects.toMatchObject({
      code: 'TW_INVALID_ARGUMENT',
    });
  });

  it('asks a person once for identical calls that need confirmation', async () => {
    const { refund } = counter();
    const confirmed = { ...refund, confirm: true } as AnyTool;
    const model = createScriptedModel([
      toolCallTurn([
        { id: 'c1', name: 'refund', arguments: { invoice_id: 'inv_1', amount: 5 } },
        { id: 'c2', name: 'refund', arguments: { amount: 5, invoice_id: 'inv_1' } },
      ]),
    ]);
    const { createMemoryRunStore } = await import('../../src/stores/index.js');
    const result = await runAgent(options(model, [confirmed], { store: createMemoryRunStore() }));
    expect(result.status).toBe('awaiting_confirmation');
    if (result.status !== 'awaiting_confirmation') return;
    expect(result.pending.map((pending) => pending.callId)).toEqual(['c1']);
  });
});

describe('wall time covers the model call', () => {
  const tick = defineTool({ name: 'tick', description: 'Does nothing.', effect: 'read', inputSchema: { type: 'object' }, execute: () => 'ok' });

  it('cuts a model call that only ends when aborted, at the deadline', async () => {
    let sawAbort = false;
    const model = createScriptedModel([
      (request) =>
        new Promise((_, reject) => {
          request.signal?.addEventListener('abort', () => {
            sawAbort = true;
            reject(request.signal!.reason);
          });
        }),
    ]);
    const result = await runAgent(options(model, [tick], { limits: { maxWallTimeMs: 200 } }));
    expect(sawAbort).toBe(true);
    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget', limit: 'wallTimeMs', max: 200, interrupted: 'model_call' } });
    if (result.status === 'stopped') expect(result.stopReason.message).toContain('model call');
  });

  it('stops at the deadline even when the model ignores the abort signal', async () => {
    const model = createScriptedModel([() => new Promise(() => {})]);
    const result = await runAgent(options(model, [tick], { limits: { maxWallTimeMs: 200 } }));
    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget', limit: 'wallTimeMs', interrupted: 'model_call' } });
  });

  it("stops with 'aborted' when the caller aborts a model call that ignores the signal", async () => {
    const model = createScriptedModel([() => new Promise(() => {})]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user pressed stop')), 50).unref();
    const result = await runAgent(options(model, [tick], { signal: controller.signal }));
    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'aborted', message: 'The run was aborted: user pressed stop.' } });
  });

  it('cuts tool calls that ignore their signal at the deadline, and says so', async () => {
    const stuck = defineTool({
      name: 'stuck',
      description: 'Never returns.',
      effect: 'read',
      inputSchema: { type: 'object' },
      execute: () => new Promise<string>(() => {}),
    });
    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'stuck', arguments: {} }]), textTurn('never')]);
    const result = await runAgent(options(model, [stuck], { limits: { maxWallTimeMs: 200, toolTimeoutMs: 60_000 } }));
    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget', limit: 'wallTimeMs', interrupted: 'tool_calls' } });
    expect(result.steps[0]!.toolCalls[0]).toMatchObject({ status: 'failed', failureCode: 'aborted' });
    expect(model.requests).toHaveLength(1);
  });

  describe('against the provider server', () => {
    let server: ProviderServer;
    beforeAll(async () => {
      server = await startProviderServer();
    });
    afterAll(async () => {
      await server.close();
    });
    beforeEach(() => server.reset());

    it('aborts a provider that holds its answer past the deadline', async () => {
      server.enqueue({ text: 'too late', delayMs: 120_000 });
      const model = createModel('openai:gpt-4o-mini', { baseURL: server.openaiBaseURL, apiKey: 'test-key', maxRetries: 0 });
      const folder = mkdtempSync(join(records, 'hang-'));
      // Two seconds: long enough for the request to reach the server on a loaded machine, far below the 120 s hold.
      const result = await runAgent(options(model, [tick], { limits: { maxWallTimeMs: 2000 }, recordDir: folder }));
      expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget', limit: 'wallTimeMs', max: 2000, interrupted: 'model_call' } });
      expect(server.requests).toHaveLength(1);
      const events = readRunRecord(result.recordPath!);
      expect(events.map((event) => event.type)).toEqual(['run_started', 'model_request', 'model_error', 'stop']);
    });
  });
});

describe('routing by a map of categories to tool names', () => {
  const plain = (name: string, extra: Partial<AnyTool> = {}) =>
    defineTool({ name, description: `The ${name} tool.`, effect: 'read', inputSchema: { type: 'object' }, execute: () => name, ...extra } as Parameters<
      typeof defineTool
    >[0]);
  const tools = [plain('get_invoice'), plain('refund'), plain('create_ticket'), plain('escalate_ticket'), plain('help', { alwaysAvailable: true })];
  const categories = { billing: ['get_invoice', 'refund'], support: ['create_ticket', 'escalate_ticket'] };

  it("offers the chosen category's tools from the seed's map (tools without a category field)", async () => {
    const model = createScriptedModel([toolCallTurn([{ name: 'select_tool_category', arguments: { category: 'billing' } }]), textTurn('ok')]);
    const routed: string[][] = [];
    const result = await runAgent(options(model, tools, { routing: { categories }, onEvent: (event) => event.type === 'routing' && routed.push(event.tools) }));
    expect(result.status).toBe('completed');
    expect(model.requests[0]!.tools?.[0]?.inputSchema).toMatchObject({ properties: { category: { enum: ['billing', 'support'] } } });
    expect(model.requests[1]!.tools?.map((tool) => tool.name)).toEqual(['get_invoice', 'refund', 'help']);
    expect(routed).toEqual([['get_invoice', 'refund', 'help']]);
  });

  it('takes descriptions with the tool lists', async () => {
    const model = createScriptedModel([toolCallTurn([{ name: 'select_tool_category', arguments: { category: 'support' } }]), textTurn('ok')]);
    await runAgent(
      options(model, tools, {
        routing: { categories: { billing: { description: 'Invoices and refunds', tools: ['get_invoice', 'refund'] }, support: { tools: ['create_ticket'] } } },
      }),
    );
    expect(model.requests[0]!.tools?.[0]?.description).toContain('billing: Invoices and refunds; support');
    expect(model.requests[1]!.tools?.map((tool) => tool.name)).toEqual(['create_ticket', 'help']);
  });

  it('refuses at run start a map naming an unknown tool, and a category with no tools', async () => {
    const model = createScriptedModel([textTurn('never')]);
    await expect(
      runAgent(options(model, tools, { routing: { categories: { billing: ['get_invoice', 'get_invoices'], support: ['create_ticket'] } } })),
    ).rejects.toMatchObject({
      code: 'TW_INVALID_ARGUMENT',
      message: expect.stringContaining('routing.categories.billing names "get_invoices", which is not one of the run\'s tools'),
    });
    await expect(runAgent(options(model, tools, { routing: { categories: { billing: [], support: ['create_ticket'] } } }))).rejects.toMatchObject({
      code: 'TW_INVALID_ARGUMENT',
      message: expect.stringContaining('routing.categories.billing has no tools'),
    });
    // Declared by name only, a category must match some tool's own `category`.
    await expect(runAgent(options(model, tools, { routing: { categories: ['billing', 'support'] } }))).rejects.toMatchObject({
      code: 'TW_INVALID_ARGUMENT',
      message: expect.stringContaining('routing.categories.billing has no tools'),
    });
    expect(model.requests).toHaveLength(0);
  });
});

describe("toolwright run --route with a module exporting the seed's categories map", () => {
  let server: ProviderServer;
  beforeAll(async () => {
    server = await startProviderServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("offers the chosen category's tools, not 0", async () => {
    const folder = mkdtempSync(join(records, 'cli-'));
    const tool = (name: string) =>
      `{ name: ${JSON.stringify(name)}, description: 'The ${name} tool.', effect: 'read', inputSchema: { type: 'object' }, execute: () => 'ok' }`;
    const module = join(folder, 'tools.mjs');
    writeFileSync(
      module,
      `export const tools = [${['get_invoice', 'refund', 'create_ticket'].map(tool).join(', ')}];\nexport const categories = { billing: ['get_invoice', 'refund'], support: ['create_ticket'] };\n`,
    );
    server.enqueue({ toolCalls: [{ name: 'select_tool_category', arguments: { category: 'billing' } }] }, { text: 'Done.' });
    const out: string[] = [];
    const previousKey = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-test-route';
    try {
      const result = await runRunCommand(
        'Refund my invoice.',
        {
          model: 'openai:gpt-4o-mini',
          baseUrl: server.openaiBaseURL,
          tools: module,
          route: true,
          interactive: false,
          state: join(folder, 'state.db'),
          record: false,
        },
        {
          out: (text) => out.push(text),
          err: (text) => out.push(text),
        },
      );
      expect(result.status).toBe('completed');
    } finally {
      if (previousKey === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previousKey;
    }
    expect(out.join('')).toContain('» routing: billing (2 tools offered)');
    expect((server.requests[1]!.body.tools as { function: { name: string } }[]).map((entry) => entry.function.name)).toEqual(['get_invoice', 'refund']);
  });

  it('prints an unexpected stop and exits as stopped', async () => {
    server.reset();
    server.enqueue({ text: 'The refund policy says that', stopReason: 'max_tokens' });
    const out: string[] = [];
    const previousKey = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-test-route';
    try {
      const folder = mkdtempSync(join(records, 'cli-'));
      const result = await runRunCommand(
        'Explain the refund policy.',
        {
          model: 'openai:gpt-4o-mini',
          baseUrl: server.openaiBaseURL,
          tools: 'examples/conjugate/index.ts',
          interactive: false,
          state: join(folder, 'state.db'),
          record: false,
          cwd: root,
        },
        {
          out: (text) => out.push(text),
          err: (text) => out.push(text),
        },
      );
      expect(result.status).toBe('stopped');
    } finally {
      if (previousKey === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previousKey;
    }
    const printed = out.join('');
    expect(printed).toContain('! the model stopped early (max_tokens: length)');
    expect(printed).toContain('— stopped (model_output_truncated, run ');
  });
});

describe('unexpected stop reasons', () => {
  it.each([
    ['max_tokens', 'model_output_truncated'],
    ['content_filter', 'content_filtered'],
    ['refusal', 'model_refused'],
    ['other', 'model_stop_unexpected'],
  ] as const)('ends a %s answer as stopped (%s), not completed, and records it', async (finishReason, kind) => {
    const model = createScriptedModel([textTurn('The answer is cut h', { stopReason: finishReason })]);
    const folder = mkdtempSync(join(records, 'stop-'));
    const result = await runAgent(options(model, [], { recordDir: folder }));
    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind, finishReason, text: 'The answer is cut h' } });
    const events = readRunRecord(result.recordPath!);
    expect(events.find((event) => event.type === 'unexpected_stop')).toMatchObject({ step: 0, finishReason });
    expect(events.at(-1)).toMatchObject({ type: 'stop', status: 'stopped', stopReason: { kind } });
  });

  it('completes a cut answer when the caller accepts that finish reason', async () => {
    const model = createScriptedModel([textTurn('Short', { stopReason: 'max_tokens' })]);
    const result = await runAgent(options(model, [], { acceptFinishReasons: ['max_tokens'] }));
    expect(result).toMatchObject({ status: 'completed', text: 'Short', finishReason: 'max_tokens' });
  });

  it('runs the complete calls of a response cut at max_tokens and answers the cut last call', async () => {
    const { runs, refund } = counter();
    const model = createScriptedModel([
      toolCallTurn(
        [
          { id: 'c1', name: 'refund', arguments: { invoice_id: 'inv_1', amount: 1 } },
          { id: 'c2', name: 'refund', argumentsText: '{"invoice_id": "inv_2", "amou' },
        ],
        { stopReason: 'max_tokens' },
      ),
      textTurn('done'),
    ]);
    const result = await runAgent(options(model, [refund]));
    expect(result.status).toBe('completed');
    expect(runs).toEqual([{ invoice_id: 'inv_1', amount: 1 }]);
    const seen = toolResults(model.requests[1]);
    expect(seen.get('c1')!.isError).toBe(false);
    expect(seen.get('c2')).toEqual({ isError: true, text: expect.stringContaining('cut off at the output token limit') });
  });

  it('runs the calls of a response with an unknown finish reason', async () => {
    const { runs, refund } = counter();
    const model = createScriptedModel([
      toolCallTurn([{ id: 'c1', name: 'refund', arguments: { invoice_id: 'inv_1', amount: 1 } }], { stopReason: 'other' }),
      textTurn('done'),
    ]);
    const result = await runAgent(options(model, [refund]));
    expect(result.status).toBe('completed');
    expect(runs).toHaveLength(1);
  });

  it('does not run the calls of a response stopped by a content filter', async () => {
    const { runs, refund } = counter();
    const model = createScriptedModel([
      toolCallTurn([{ id: 'c1', name: 'refund', arguments: { invoice_id: 'inv_1', amount: 1 } }], { stopReason: 'content_filter' }),
    ]);
    const result = await runAgent(options(model, [refund]));
    expect(runs).toHaveLength(0);
    expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'content_filtered' } });
    // The transcript stays well formed: every call has its result.
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', results: [{ callId: 'c1', result: { isError: true } }] });
  });

  describe('from each provider, through the provider server', () => {
    let server: ProviderServer;
    beforeAll(async () => {
      server = await startProviderServer();
    });
    afterAll(async () => {
      await server.close();
    });
    beforeEach(() => server.reset());

    const openai = () => createModel('openai:gpt-4o-mini', { baseURL: server.openaiBaseURL, apiKey: 'test-key', maxRetries: 0 });
    const responses = () => createModel('openai-responses:gpt-4o-mini', { baseURL: server.openaiBaseURL, apiKey: 'test-key', maxRetries: 0 });
    const anthropic = () => createModel('anthropic:claude-sonnet-4-20250514', { baseURL: server.anthropicBaseURL, apiKey: 'test-key', maxRetries: 0 });

    const providers = { openai, responses, anthropic };
    it.each([
      ['openai', 'length', 'model_output_truncated'],
      ['openai', 'content_filter', 'content_filtered'],
      ['responses', 'max_output_tokens', 'model_output_truncated'],
      ['responses', 'content_filter', 'content_filtered'],
      ['anthropic', 'max_tokens', 'model_output_truncated'],
      ['anthropic', 'model_context_window_exceeded', 'model_output_truncated'],
      ['anthropic', 'refusal', 'model_refused'],
      ['anthropic', 'pause_turn', 'model_stop_unexpected'],
    ] as const)('%s %s → %s', async (provider, wire, kind) => {
      server.enqueue({ text: 'Partial answ', wireStopReason: wire });
      const result = await runAgent(options(providers[provider](), []));
      expect(result).toMatchObject({ status: 'stopped', stopReason: { kind, providerStopReason: expect.stringContaining(wire) } });
    });

    it('OpenAI Chat refusal → model_refused with its text', async () => {
      server.enqueue({
        kind: 'raw',
        body: JSON.stringify({
          id: 'chatcmpl-r',
          object: 'chat.completion',
          created: 1,
          model: 'gpt-4o-mini',
          choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' }, finish_reason: 'stop', logprobs: null }],
          usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
        }),
      });
      const result = await runAgent(options(openai(), []));
      expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'model_refused', text: 'I cannot help with that.' } });
    });

    it('a normal end still completes', async () => {
      server.enqueue({ text: 'All done.' });
      const result = await runAgent(options(anthropic(), []));
      expect(result).toMatchObject({ status: 'completed', text: 'All done.' });
    });
  });
});
