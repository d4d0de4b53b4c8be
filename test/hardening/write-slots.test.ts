/**
 * "Writes run alone" holds until a write has ended, not until its caller stopped
 * waiting: a write whose tool ignores its abort signal, cancelled by the MCP
 * client or stopped by its timeout, keeps the next call from starting until the
 * tool's own promise settles (the MCP server, the agent loop and
 * plan-then-execute's planned calls); one still
 * running past the grace period is reported `outcome_unknown` and blocks what it
 * must not overlap; and one MCP session holds a bounded number of pending calls,
 * over stdio and Streamable HTTP.
 *
 * Order is checked with a log of starts and ends, never with timings: a short wait
 * only gives a wrong implementation the chance to start the next call early.
 */
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolRegistry, defineTool, resumeAgent, runAgent, silentLogger, type AnyTool } from '../../src/index.js';
import { createMemoryRunStore } from '../../src/stores/index.js';
import { planThenExecute, type ExecutionPlan, type PlanThenExecuteOptions, type RunEvent } from '../../src/agent/package-entry.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { createMcpServer, serveHttp, serveStdio, type McpHttpHandle, type McpServerOptions } from '../../src/mcp/index.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/test.js';
import { structuredAnswersModel } from '../fixtures/structured-answers-model.js';

/**
 * A write and a read that log their starts and ends. An id starting with `stubborn` ignores its signal and ends only
 * when the test calls `release(id)`; any other ends at once.
 */
function probe(timeoutMs?: number) {
  const log: string[] = [];
  const releases = new Map<string, () => void>();
  const body = async ({ id }: { id: string }) => {
    log.push(`start ${id}`);
    if (id.startsWith('stubborn')) await new Promise<void>((resolve) => releases.set(id, resolve));
    log.push(`end ${id}`);
    return `done ${id}`;
  };
  const inputSchema = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } as const;
  const write = defineTool<{ id: string }>({
    name: 'send_payment',
    description: 'Sends a payment; ignores its abort signal.',
    effect: 'write',
    inputSchema,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    execute: body,
  });
  const read = defineTool<{ id: string }>({ name: 'read_balance', description: 'Reads the balance.', effect: 'read', inputSchema, execute: body });
  return {
    log,
    tools: [write, read] as AnyTool[],
    release(id: string) {
      releases.get(id)!();
    },
    started: (id: string) => log.includes(`start ${id}`),
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
}

/** Gives a scheduler that frees the slot too early time to start the next call. */
const settleTime = () => new Promise((resolve) => setTimeout(resolve, 150));

function textOf(result: unknown): string {
  const part = (result as { content?: { type: string; text?: string }[] }).content?.[0];
  return part?.type === 'text' ? (part.text ?? '') : '';
}

async function connect(tools: readonly AnyTool[], options: McpServerOptions = {}) {
  const server = createMcpServer(tools, { logger: silentLogger, ...options });
  const client = new Client({ name: 'test', version: '1.0.0' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

describe('ToolRegistry: the moment a stopped call has ended', () => {
  it('gives workEnded only for a call stopped before its tool ended, and settles it when the tool does', async () => {
    const tools = probe(20);
    const registry = new ToolRegistry(tools.tools, { logger: silentLogger });
    const finished = await registry.call({ id: 'c0', name: 'send_payment', arguments: { id: 'quick' } });
    expect(finished.workEnded).toBeUndefined();
    const stopped = await registry.call({ id: 'c1', name: 'send_payment', arguments: { id: 'stubborn-1' } });
    expect(stopped.failure?.code).toBe('timeout');
    let ended = false;
    void stopped.workEnded!.then(() => (ended = true));
    await settleTime();
    expect(ended).toBe(false);
    tools.release('stubborn-1');
    await stopped.workEnded;
    expect(tools.log.at(-1)).toBe('end stubborn-1');
  });
});

describe('MCP: a stopped write keeps its slot until its tool has ended', () => {
  it('after the client cancels a write (notifications/cancelled), the next write and a read start only once it has ended', async () => {
    const tools = probe();
    const client = await connect(tools.tools);
    const cancel = new AbortController();
    const first = client.callTool({ name: 'send_payment', arguments: { id: 'stubborn-1' } }, undefined, { signal: cancel.signal });
    const firstRejected = expect(first).rejects.toThrow();
    await until(() => tools.started('stubborn-1'));
    cancel.abort('the user pressed stop');
    await firstRejected;
    const second = client.callTool({ name: 'send_payment', arguments: { id: 'w2' } });
    const read = client.callTool({ name: 'read_balance', arguments: { id: 'r3' } });
    await settleTime();
    expect(tools.started('w2')).toBe(false);
    expect(tools.started('r3')).toBe(false);
    tools.release('stubborn-1');
    expect(textOf(await second)).toBe('done w2');
    expect(textOf(await read)).toBe('done r3');
    expect(tools.log).toEqual(['start stubborn-1', 'end stubborn-1', 'start w2', 'end w2', 'start r3', 'end r3']);
  });

  it('after a write times out, the next write and a read start only once it has ended; the timed-out call is answered then', async () => {
    const tools = probe(20);
    const client = await connect(tools.tools);
    const first = client.callTool({ name: 'send_payment', arguments: { id: 'stubborn-1' } });
    const second = client.callTool({ name: 'send_payment', arguments: { id: 'w2' } });
    const read = client.callTool({ name: 'read_balance', arguments: { id: 'r3' } });
    await until(() => tools.started('stubborn-1'));
    await settleTime();
    expect(tools.started('w2')).toBe(false);
    expect(tools.started('r3')).toBe(false);
    tools.release('stubborn-1');
    const answered = await first;
    expect(answered.isError).toBe(true);
    expect(textOf(answered)).toContain('did not finish within 20 ms');
    expect(textOf(await second)).toBe('done w2');
    expect(textOf(await read)).toBe('done r3');
    expect(tools.log).toEqual(['start stubborn-1', 'end stubborn-1', 'start w2', 'end w2', 'start r3', 'end r3']);
  });

  it('a write still running past the grace period is answered "outcome unknown", and until it ends every call of the session is refused', async () => {
    const tools = probe(20);
    const client = await connect(tools.tools, { stoppedCallGraceMs: 30 });
    const first = await client.callTool({ name: 'send_payment', arguments: { id: 'stubborn-1' } });
    expect(first.isError).toBe(true);
    expect(textOf(first)).toBe(
      'The call to tool "send_payment" was stopped, but the tool was still running 30 ms later, so whether it took effect is unknown. No other call runs beside it until it ends. Check its effect with a read-only tool before calling it again, or tell the user.',
    );
    const write = await client.callTool({ name: 'send_payment', arguments: { id: 'w2' } });
    const read = await client.callTool({ name: 'read_balance', arguments: { id: 'r3' } });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toBe(
      'Tool "send_payment" was not run: an earlier call to "send_payment" was stopped but is still running, and a write never runs beside another call. Try again later; if it keeps being refused, tell the user that "send_payment" did not stop.',
    );
    expect(read.isError).toBe(true);
    expect(textOf(read)).toContain('Tool "read_balance" was not run: an earlier call to "send_payment" was stopped but is still running');
    expect(tools.log).toEqual(['start stubborn-1']);
    tools.release('stubborn-1');
    await until(() => tools.log.includes('end stubborn-1'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(textOf(await client.callTool({ name: 'send_payment', arguments: { id: 'w4' } }))).toBe('done w4');
  });

  it('a read still running past the grace period blocks writes only', async () => {
    const tools = probe();
    const slowRead = defineTool<{ id: string }>({ ...tools.tools[1]!, name: 'slow_read', timeoutMs: 20 } as never);
    const client = await connect([...tools.tools, slowRead], { stoppedCallGraceMs: 30 });
    const stopped = await client.callTool({ name: 'slow_read', arguments: { id: 'stubborn-r' } });
    expect(textOf(stopped)).toContain('did not finish within 20 ms');
    expect(textOf(await client.callTool({ name: 'read_balance', arguments: { id: 'r2' } }))).toBe('done r2');
    expect(textOf(await client.callTool({ name: 'send_payment', arguments: { id: 'w3' } }))).toContain('an earlier call to "slow_read" was stopped');
    tools.release('stubborn-r');
  });
});

describe('runAgent: a stopped write keeps its slot until its tool has ended', () => {
  it('after a write times out, the next turn starts its write and read only once it has ended', async () => {
    const tools = probe();
    const model = createScriptedModel([
      toolCallTurn([{ id: 'c1', name: 'send_payment', arguments: { id: 'stubborn-1' } }]),
      toolCallTurn([
        { id: 'c2', name: 'send_payment', arguments: { id: 'w2' } },
        { id: 'c3', name: 'read_balance', arguments: { id: 'r3' } },
      ]),
      textTurn('done'),
    ]);
    const run = runAgent({ model, tools: tools.tools, prompt: 'Pay.', recordDir: false, logger: silentLogger, limits: { toolTimeoutMs: 20 } });
    await until(() => tools.started('stubborn-1'));
    await settleTime();
    expect(tools.started('w2')).toBe(false);
    tools.release('stubborn-1');
    const result = await run;
    expect(result.status).toBe('completed');
    expect(tools.log).toEqual(['start stubborn-1', 'end stubborn-1', 'start w2', 'end w2', 'start r3', 'end r3']);
    expect(result.steps[0]!.toolCalls[0]).toMatchObject({ status: 'failed', failureCode: 'timeout' });
  });

  it('a write still running past the grace period is outcome_unknown, and later calls of the run are not run until it ends', async () => {
    const tools = probe();
    const events: RunEvent[] = [];
    const model = createScriptedModel([
      toolCallTurn([{ id: 'c1', name: 'send_payment', arguments: { id: 'stubborn-1' } }]),
      toolCallTurn([
        { id: 'c2', name: 'send_payment', arguments: { id: 'w2' } },
        { id: 'c3', name: 'read_balance', arguments: { id: 'r3' } },
      ]),
      textTurn('done'),
    ]);
    const result = await runAgent({
      model,
      tools: tools.tools,
      prompt: 'Pay.',
      recordDir: false,
      logger: silentLogger,
      limits: { toolTimeoutMs: 20, stoppedCallGraceMs: 30 },
      onEvent: (event) => events.push(event),
    });
    expect(tools.log).toEqual(['start stubborn-1']);
    const [first, second] = result.steps.map((step) => step.toolCalls);
    expect(first![0]).toMatchObject({ callId: 'c1', status: 'outcome_unknown', failureCode: 'timeout' });
    expect(textOf(first![0]!.result)).toContain('whether it took effect is unknown');
    expect(second!.map((call) => call.status)).toEqual(['not_run', 'not_run']);
    expect(textOf(second![1]!.result)).toContain('an earlier call to "send_payment" was stopped but is still running');
    expect(result.outcomeUnknown?.map((call) => call.callId)).toEqual(['c1']);
    expect(events.find((event) => event.type === 'tool_result' && event.callId === 'c1')).toMatchObject({
      status: 'outcome_unknown',
      failure: { code: 'timeout' },
    });
    tools.release('stubborn-1');
  });
});

describe('runAgent: stopped calls still running past the grace period', () => {
  it('a read still running blocks the later writes of the run, not its reads', async () => {
    const tools = probe();
    const slowRead = defineTool<{ id: string }>({ ...tools.tools[1]!, name: 'slow_read', timeoutMs: 20 } as never);
    const model = createScriptedModel([
      toolCallTurn([{ id: 'c1', name: 'slow_read', arguments: { id: 'stubborn-r' } }]),
      toolCallTurn([
        { id: 'c2', name: 'send_payment', arguments: { id: 'w2' } },
        { id: 'c3', name: 'read_balance', arguments: { id: 'r3' } },
      ]),
      textTurn('done'),
    ]);
    const result = await runAgent({
      model,
      tools: [...tools.tools, slowRead],
      prompt: 'Look, then pay.',
      recordDir: false,
      logger: silentLogger,
      limits: { stoppedCallGraceMs: 30 },
    });
    expect(result.steps[0]!.toolCalls[0]).toMatchObject({ status: 'failed', failureCode: 'timeout' });
    expect(result.steps[1]!.toolCalls.map((call) => call.status)).toEqual(['not_run', 'succeeded']);
    expect(textOf(result.steps[1]!.toolCalls[0]!.result)).toContain('an earlier call to "slow_read" was stopped but is still running');
    expect(tools.log).toEqual(['start stubborn-r', 'start r3', 'end r3']);
    tools.release('stubborn-r');
  });

  it("a write stopped by the run's abort and still running is outcome_unknown", async () => {
    const tools = probe();
    const abort = new AbortController();
    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'send_payment', arguments: { id: 'stubborn-1' } }]), textTurn('never')]);
    const run = runAgent({
      model,
      tools: tools.tools,
      prompt: 'Pay.',
      recordDir: false,
      logger: silentLogger,
      signal: abort.signal,
      limits: { stoppedCallGraceMs: 30 },
    });
    await until(() => tools.started('stubborn-1'));
    abort.abort(new Error('the user pressed stop'));
    const result = await run;
    expect(result.status).toBe('stopped');
    expect(result.steps[0]!.toolCalls[0]).toMatchObject({ status: 'outcome_unknown', failureCode: 'aborted' });
    expect(result.outcomeUnknown?.map((call) => call.callId)).toEqual(['c1']);
    tools.release('stubborn-1');
  });
});

describe('resumeAgent: a write still running from before the pause', () => {
  it('keeps an approved write of the resumed run from starting until it ends', async () => {
    const tools = probe();
    const approvedWrite = defineTool<{ id: string }>({
      name: 'close_account',
      description: 'Closes an account; asks a person first.',
      effect: 'write',
      confirm: true,
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      execute: ({ id }) => {
        tools.log.push(`start ${id}`);
        return `closed ${id}`;
      },
    });
    const all = [...tools.tools, approvedWrite];
    const store = createMemoryRunStore();
    const options = { tools: all, store, recordDir: false as const, logger: silentLogger, limits: { toolTimeoutMs: 20, stoppedCallGraceMs: 30 } };
    const paused = await runAgent({
      ...options,
      prompt: 'Pay, then close.',
      model: createScriptedModel([
        toolCallTurn([{ id: 'c1', name: 'send_payment', arguments: { id: 'stubborn-1' } }]),
        toolCallTurn([{ id: 'c2', name: 'close_account', arguments: { id: 'a2' } }]),
      ]),
    });
    expect(paused.status).toBe('awaiting_confirmation');
    if (paused.status !== 'awaiting_confirmation') return;
    const resumed = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], {
      ...options,
      model: createScriptedModel([textTurn('done')]),
    });
    expect(resumed.steps[1]!.toolCalls[0]).toMatchObject({ callId: 'c2', status: 'not_run' });
    expect(tools.log).toEqual(['start stubborn-1']);
    tools.release('stubborn-1');
  });
});

/** A plan of pinned calls (no holes), run by planThenExecute with a planner that answers with it. */
function runPlan(tools: readonly AnyTool[], calls: [tool: string, id: string][], options: Partial<PlanThenExecuteOptions> = {}) {
  const plan: ExecutionPlan = { calls: calls.map(([tool, id]) => ({ tool, arguments: { id } })), holes: [], answer: 'Done.' };
  return planThenExecute({ planner: structuredAnswersModel([plan]), tools, prompt: 'Pay, then look.', ...options });
}

describe('planThenExecute: a stopped write keeps its turn until its tool has ended', () => {
  it('after a planned write times out, the next planned write and read start only once it has ended', async () => {
    const tools = probe(20);
    const run = runPlan(tools.tools, [
      ['send_payment', 'stubborn-1'],
      ['send_payment', 'w2'],
      ['read_balance', 'r3'],
    ]);
    await until(() => tools.started('stubborn-1'));
    await settleTime();
    expect(tools.started('w2')).toBe(false);
    tools.release('stubborn-1');
    const result = await run;
    expect(result.status).toBe('completed');
    if (result.status !== 'completed') return;
    expect(tools.log).toEqual(['start stubborn-1', 'end stubborn-1', 'start w2', 'end w2', 'start r3', 'end r3']);
    expect(result.calls.map((call) => call.status)).toEqual(['failed', 'succeeded', 'succeeded']);
    expect(textOf(result.calls[0]!.result)).toContain('did not finish within 20 ms');
  });

  it('a planned write still running past the grace period is outcome_unknown, and the later calls are not_run and never start', async () => {
    const tools = probe(20);
    const events: RunEvent[] = [];
    const result = await runPlan(
      tools.tools,
      [
        ['send_payment', 'stubborn-1'],
        ['send_payment', 'w2'],
        ['read_balance', 'r3'],
      ],
      { stoppedCallGraceMs: 30, onEvent: (event) => events.push(event) },
    );
    expect(result.status).toBe('completed');
    if (result.status !== 'completed') return;
    expect(tools.log).toEqual(['start stubborn-1']);
    expect(result.calls.map((call) => call.status)).toEqual(['outcome_unknown', 'not_run', 'not_run']);
    expect(textOf(result.calls[0]!.result)).toBe(
      'The call to tool "send_payment" was stopped, but the tool was still running 30 ms later, so whether it took effect is unknown. No other call runs beside it until it ends. Check its effect with a read-only tool before calling it again, or tell the user.',
    );
    expect(textOf(result.calls[2]!.result)).toContain('Tool "read_balance" was not run: an earlier call to "send_payment" was stopped but is still running');
    expect(events.find((event) => event.type === 'tool_result' && event.callId === 'plan_1')).toMatchObject({
      status: 'outcome_unknown',
      failure: { code: 'timeout' },
    });
    tools.release('stubborn-1');
  });

  it('a planned read still running past the grace period blocks the later writes, not the reads', async () => {
    const tools = probe();
    const slowRead = defineTool<{ id: string }>({ ...tools.tools[1]!, name: 'slow_read', timeoutMs: 20 } as never);
    const result = await runPlan(
      [...tools.tools, slowRead],
      [
        ['slow_read', 'stubborn-r'],
        ['send_payment', 'w2'],
        ['read_balance', 'r3'],
      ],
      { stoppedCallGraceMs: 30 },
    );
    if (result.status !== 'completed') throw new Error(`the plan was rejected: ${result.message}`);
    expect(result.calls.map((call) => call.status)).toEqual(['failed', 'not_run', 'succeeded']);
    expect(textOf(result.calls[1]!.result)).toContain('an earlier call to "slow_read" was stopped but is still running');
    expect(tools.log).toEqual(['start stubborn-r', 'start r3', 'end r3']);
    tools.release('stubborn-r');
  });

  it('a write stopped by the signal waits for its tool before planThenExecute gives up', async () => {
    const tools = probe();
    const abort = new AbortController();
    const run = runPlan(
      tools.tools,
      [
        ['send_payment', 'stubborn-1'],
        ['send_payment', 'w2'],
      ],
      { signal: abort.signal },
    );
    const settled = run.then(
      () => 'resolved',
      () => 'rejected',
    );
    await until(() => tools.started('stubborn-1'));
    abort.abort(new Error('the user pressed stop'));
    await settleTime();
    // Still waiting for the tool it stopped: the caller is not told the plan ended while the write may still act.
    expect(await Promise.race([settled, 'pending'])).toBe('pending');
    tools.release('stubborn-1');
    await expect(run).rejects.toThrow('the user pressed stop');
    expect(tools.log).toEqual(['start stubborn-1', 'end stubborn-1']);
  });

  it('refuses a grace period a timer cannot hold before the planner is asked', async () => {
    const planner = structuredAnswersModel([]);
    await expect(planThenExecute({ planner, tools: probe().tools, prompt: 'Pay.', stoppedCallGraceMs: 2 ** 31 })).rejects.toThrow(InvalidArgumentError);
    expect(planner.requests).toHaveLength(0);
  });
});

describe('MCP: pending calls per session are bounded', () => {
  let http: McpHttpHandle | undefined;
  afterEach(async () => {
    await http?.close();
    http = undefined;
  });

  it("holds under callScheduling 'concurrent' too", async () => {
    const tools = probe();
    const client = await connect(tools.tools, { callScheduling: 'concurrent', maxPendingCalls: 1 });
    const first = client.callTool({ name: 'send_payment', arguments: { id: 'stubborn-a' } });
    await until(() => tools.started('stubborn-a'));
    expect(textOf(await client.callTool({ name: 'send_payment', arguments: { id: 'w-b' } }))).toContain('(maxPendingCalls)');
    tools.release('stubborn-a');
    expect(textOf(await first)).toBe('done stubborn-a');
    expect(tools.started('w-b')).toBe(false);
  });

  it('over stdio, a call past maxPendingCalls is answered at once with a tool error naming the limit', async () => {
    const tools = probe();
    const input = new PassThrough();
    const output = new PassThrough();
    const answers: { id: number; result?: { isError?: boolean; content: { text: string }[] } }[] = [];
    let buffer = '';
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        answers.push(JSON.parse(buffer.slice(0, newline)));
        buffer = buffer.slice(newline + 1);
      }
    });
    const handle = await serveStdio(tools.tools, { input, output, logger: silentLogger, maxPendingCalls: 2 });
    const call = (id: number, toolId: string) =>
      JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'send_payment', arguments: { id: toolId } } }) + '\n';
    input.write(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}\n',
    );
    await until(() => answers.length === 1);
    input.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n' + call(2, 'stubborn-a') + call(3, 'stubborn-b') + call(4, 'w-c'));
    await until(() => answers.length === 2);
    expect(answers[1]).toMatchObject({ id: 4, result: { isError: true } });
    expect(answers[1]!.result!.content[0]!.text).toBe(
      'The call to "send_payment" was not run: this session already has 2 tool calls waiting or running (maxPendingCalls), the most it takes at once. Wait for some of them to finish, then make this call again, with fewer calls in flight.',
    );
    tools.release('stubborn-a');
    await until(() => tools.started('stubborn-b'));
    tools.release('stubborn-b');
    await until(() => answers.length === 4);
    expect(answers.slice(2).map((answer) => answer.id)).toEqual([2, 3]);
    expect(tools.started('w-c')).toBe(false);
    await handle.close();
  });

  it('over Streamable HTTP, a call past maxPendingCalls is answered at once with a tool error naming the limit', async () => {
    const tools = probe();
    http = await serveHttp(tools.tools, { port: 0, logger: silentLogger, maxPendingCalls: 1 });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const first = client.callTool({ name: 'send_payment', arguments: { id: 'stubborn-a' } });
    await until(() => tools.started('stubborn-a'));
    const refused = await client.callTool({ name: 'read_balance', arguments: { id: 'r-b' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('this session already has 1 tool calls waiting or running (maxPendingCalls)');
    tools.release('stubborn-a');
    expect(textOf(await first)).toBe('done stubborn-a');
    expect(textOf(await client.callTool({ name: 'read_balance', arguments: { id: 'r-c' } }))).toBe('done r-c');
    await client.close();
  });
});

describe('the options are checked', () => {
  it('refuses a grace period a timer cannot hold and a pending-call bound below 1', () => {
    expect(() => createMcpServer([], { stoppedCallGraceMs: 2 ** 31 })).toThrow(
      'stoppedCallGraceMs must be a number of milliseconds from 0 to 2147483647 (got 2147483648).',
    );
    expect(() => createMcpServer([], { maxPendingCalls: 0 })).toThrow('createMcpServer: `maxPendingCalls` must be a positive integer (got 0).');
  });
});
