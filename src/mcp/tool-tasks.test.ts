import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, silentLogger } from '../tools/index.js';
import type { AnyTool } from '../tools/index.js';
import { serveOnNode, type BridgedHandler } from '../../test/mcp/web-handler-bridge.js';
import { runAgent } from '../agent/run-agent.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../models/scripted/scripted-model.js';
import { ToolRegistry } from '../tools/index.js';
import { importMcpTools } from './import-mcp-tools.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createMcpServer } from './create-mcp-server.js';
import { MAX_TASKS_PER_OWNER } from './session-task-store.js';
import { currentMcpCall } from './mcp-call-context.js';
import { serveHttp } from './serve-http.js';
import type { McpHttpHandle, McpHttpOptions } from './serve-http.js';
import { createMcpHandler, type McpHandler } from './web-handler.js';
import { callAsTask, pollUntilDone, reportTool, signalFromTest, textOf } from '../../test/mcp/task-client.js';

/** Polls wait this long: the machine running the tests is shared, and a status or notification may come late. */
const PATIENT = { timeout: 10_000 };

let handle: McpHttpHandle | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await handle?.close();
  client = undefined;
  handle = undefined;
});

interface Fixture {
  client: Client;
  /** Each write's `label` when its `execute` started. */
  writesStarted: string[];
  /** Given by the test to let the report (and each write) finish. */
  reportDone: ReturnType<typeof signalFromTest>;
  writeDone: Map<string, ReturnType<typeof signalFromTest>>;
}

async function start(options: McpHttpOptions = {}, extraTools: AnyTool[] = [], clientCapabilities: Record<string, unknown> = {}): Promise<Fixture> {
  const writesStarted: string[] = [];
  const reportDone = signalFromTest();
  const writeDone = new Map<string, ReturnType<typeof signalFromTest>>();
  const report = reportTool(reportDone.promise);
  const transfer = defineTool<{ label: string }>({
    name: 'run_migration',
    description: 'Runs a data migration; takes minutes.',
    effect: 'write',
    longRunning: true,
    inputSchema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'], additionalProperties: false },
    execute: async ({ label }) => {
      writesStarted.push(label);
      const done = writeDone.get(label) ?? signalFromTest();
      writeDone.set(label, done);
      await done.promise;
      return `Migration ${label} done.`;
    },
  });
  const echo = defineTool<{ message: string }>({
    name: 'echo',
    description: 'Echoes a message.',
    effect: 'read',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    execute: ({ message }) => message,
  });
  handle = await serveHttp([report, transfer, echo, ...extraTools], { port: 0, logger: silentLogger, ...options });
  client = new Client({ name: 'tasks-test', version: '1' }, { capabilities: clientCapabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
  return { client, writesStarted, reportDone, writeDone };
}

/** Calls a tool as a task through the SDK client's `callToolStream`, returning the result it ends with. */
async function streamedResult(client: Client, name: string): Promise<CallToolResult | undefined> {
  let result: CallToolResult | undefined;
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: {} }, CallToolResultSchema)) {
    if (message.type === 'result') result = message.result as CallToolResult;
  }
  return result;
}

describe('tasks for long-running tools (MCP 2025-11-25, over Streamable HTTP)', () => {
  it('offers a long-running tool as task-capable, and only it', async () => {
    const { client } = await start();
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('build_report')?.execution).toEqual({ taskSupport: 'optional' });
    expect(byName.get('run_migration')?.execution).toEqual({ taskSupport: 'optional' });
    expect(byName.get('echo')?.execution).toBeUndefined();
  });

  it('answers a task call at once, reports working until the tool ends, then completed with the tool result', async () => {
    const { client, reportDone } = await start();
    const statuses: string[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (notification) => void statuses.push(notification.params.status));

    const task = await callAsTask(client, 'build_report', { topic: 'churn' });
    // The tool is still waiting for the test's signal: the call was answered before it ended.
    expect(task.status).toBe('working');
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('working');
    expect((await client.experimental.tasks.listTasks()).tasks.map((listed) => listed.taskId)).toEqual([task.taskId]);

    reportDone.give();
    const done = await pollUntilDone(client, task.taskId);
    expect(done.status).toBe('completed');
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(textOf(result)).toBe('Report on churn: 3 findings.');
    expect(result.isError).toBeFalsy();
    await expect.poll(() => statuses, PATIENT).toContain('completed');
  });

  it("runs the whole flow through the SDK client's callToolStream", async () => {
    const { client, reportDone } = await start();
    await client.listTools(); // the client learns which tools take tasks from the list
    const kinds: string[] = [];
    let result: CallToolResult | undefined;
    const stream = client.experimental.tasks.callToolStream({ name: 'build_report', arguments: { topic: 'q3' } }, CallToolResultSchema);
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === 'taskCreated') reportDone.give();
      if (message.type === 'result') result = message.result as CallToolResult;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds.at(-1)).toBe('result');
    expect(textOf(result!)).toBe('Report on q3: 3 findings.');
  });

  it('still answers a task-capable tool inline when the call carries no task', async () => {
    const { client, reportDone } = await start();
    reportDone.give();
    const result = (await client.callTool({ name: 'build_report', arguments: { topic: 'inline' } })) as CallToolResult;
    expect(textOf(result)).toBe('Report on inline: 3 findings.');
  });

  it('cancels a task: a write still waiting for its turn never runs', async () => {
    const { client, writesStarted, writeDone } = await start();
    const first = await callAsTask(client, 'run_migration', { label: 'first' });
    await expect.poll(() => writesStarted, PATIENT).toEqual(['first']);
    // Writes of one session run one at a time: the second waits behind the first.
    const second = await callAsTask(client, 'run_migration', { label: 'second' });
    const cancelled = await client.experimental.tasks.cancelTask(second.taskId);
    expect(cancelled.status).toBe('cancelled');

    writeDone.get('first')!.give();
    expect((await pollUntilDone(client, first.taskId)).status).toBe('completed');
    expect(textOf(await client.experimental.tasks.getTaskResult(first.taskId, CallToolResultSchema))).toBe('Migration first done.');
    // The gate has admitted whatever was queued behind the first write by now; a third call proves the queue moved on.
    writeDone.set('third', { promise: Promise.resolve(), give: () => {} });
    const third = await callAsTask(client, 'run_migration', { label: 'third' });
    expect((await pollUntilDone(client, third.taskId)).status).toBe('completed');
    expect(writesStarted).toEqual(['first', 'third']);
    expect((await client.experimental.tasks.getTask(second.taskId)).status).toBe('cancelled');
  });

  it('aborts the signal of a running task when it is cancelled', async () => {
    let aborted: unknown;
    const watch = defineTool({
      name: 'watch_queue',
      description: 'Watches a queue until stopped.',
      effect: 'read',
      longRunning: true,
      inputSchema: { type: 'object', properties: {} },
      execute: (_args, { signal }) =>
        new Promise<string>((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            resolve('stopped');
          }),
        ),
    });
    const { client } = await start({}, [watch]);
    const task = await callAsTask(client, 'watch_queue', {});
    await client.experimental.tasks.cancelTask(task.taskId);
    await expect.poll(() => aborted, PATIENT).toBeDefined();
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
  });

  it('aborts the running tasks of a session that ends', async () => {
    let aborted = false;
    const watch = defineTool({
      name: 'watch_queue',
      description: 'Watches a queue until stopped.',
      effect: 'read',
      longRunning: true,
      inputSchema: { type: 'object', properties: {} },
      execute: (_args, { signal }) => new Promise<string>((resolve) => signal.addEventListener('abort', () => resolve(String((aborted = true))))),
    });
    const { client } = await start({}, [watch]);
    const task = await callAsTask(client, 'watch_queue', {});
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('working');
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await expect.poll(() => aborted, PATIENT).toBe(true);
  });

  it('gives a bad call made as a task the same recovery text as inline, as its result', async () => {
    const { client } = await start();
    const inline = (await client.callTool({ name: 'build_report', arguments: { topic: 7 } })) as CallToolResult;
    expect(inline.isError).toBe(true);

    const task = await callAsTask(client, 'build_report', { topic: 7 });
    expect((await pollUntilDone(client, task.taskId)).status).toBe('completed');
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(textOf(inline));
    expect(textOf(result)).toContain('topic');
  });

  it("passes a task call through the session's guard, as an inline call", async () => {
    const { client, reportDone } = await start({
      guardToolCall: ({ toolName }) =>
        toolName === 'build_report' ? { action: 'block', message: 'Reports are paused today; tell the user.' } : { action: 'allow' },
    });
    reportDone.give();
    const task = await callAsTask(client, 'build_report', { topic: 'churn' });
    await pollUntilDone(client, task.taskId);
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Reports are paused today; tell the user.');
  });

  it("asks a task's confirmation through tasks/result while the task is input_required, and runs the write only once approved", async () => {
    let wiped = 0;
    const wipe = defineTool({
      name: 'wipe_cache',
      description: 'Wipes the cache.',
      effect: 'write',
      confirm: true,
      longRunning: true,
      inputSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
      execute: ({ region }: { region: string }) => `wiped ${region} (${++wiped})`,
    });
    const { client } = await start({}, [wipe], { elicitation: { form: {} } });
    const asked: { message: string; taskId: unknown; statusWhenAsked: string }[] = [];
    let answer: 'accept' | 'decline' = 'decline';
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const taskId = (request.params._meta?.['io.modelcontextprotocol/related-task'] as { taskId?: string } | undefined)?.taskId;
      const { status } = await client.experimental.tasks.getTask(taskId!);
      asked.push({ message: request.params.message, taskId, statusWhenAsked: status });
      return answer === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
    });
    await client.listTools();
    const run = async () => {
      const messages = [];
      for await (const message of client.experimental.tasks.callToolStream({ name: 'wipe_cache', arguments: { region: 'eu' } }, CallToolResultSchema)) {
        messages.push(message);
      }
      const last = messages.at(-1)!;
      if (last.type !== 'result') throw new Error(`expected a result, got ${JSON.stringify(last)}`);
      const created = messages.find((message) => message.type === 'taskCreated');
      return { result: last.result as CallToolResult, taskId: created?.type === 'taskCreated' ? created.task.taskId : undefined };
    };

    const declined = await run();
    expect(declined.result.isError).toBe(true);
    expect(textOf(declined.result)).toContain('declined');
    expect(wiped).toBe(0);
    expect(asked).toEqual([{ message: expect.stringContaining('"wipe_cache"'), taskId: declined.taskId, statusWhenAsked: 'input_required' }]);

    answer = 'accept';
    const approved = await run();
    expect(textOf(approved.result)).toBe('wiped eu (1)');
    expect(asked).toHaveLength(2);
  });

  it("delivers a task's progress to the client after the call was answered, under the call's progress token", async () => {
    const halfway = signalFromTest();
    const steps = defineTool({
      name: 'reindex',
      description: 'Reindexes in two halves.',
      effect: 'read',
      longRunning: true,
      inputSchema: { type: 'object', properties: {} },
      execute: async (_args, context) => {
        context.reportProgress(1, 2, 'first half');
        await halfway.promise;
        context.reportProgress(2, 2, 'second half');
        return 'reindexed';
      },
    });
    const { client } = await start({}, [steps]);
    await client.listTools();
    const progress: unknown[] = [];
    const kinds: string[] = [];
    const stream = client.experimental.tasks.callToolStream({ name: 'reindex', arguments: {} }, CallToolResultSchema, {
      onprogress: (update) => progress.push(update),
    });
    for await (const message of stream) {
      kinds.push(message.type);
      // Released once the task exists: its call was answered, so the second update cannot ride on the call's own stream.
      if (message.type === 'taskCreated') halfway.give();
    }
    expect(kinds.at(-1)).toBe('result');
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'first half' },
      { progress: 2, total: 2, message: 'second half' },
    ]);
  });

  it("sends a tool's own elicitation inside a task through tasks/result too", async () => {
    const askColor = defineTool({
      name: 'pick_color',
      description: 'Asks the person for a color.',
      effect: 'read',
      longRunning: true,
      inputSchema: { type: 'object', properties: {} },
      execute: async (_args, context) => {
        const answer = await currentMcpCall(context)!.elicit({
          message: 'Which color?',
          requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
        });
        return `picked ${String(answer.content?.color)}`;
      },
    });
    const { client } = await start({}, [askColor], { elicitation: { form: {} } });
    const related: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      related.push(request.params._meta?.['io.modelcontextprotocol/related-task']);
      return { action: 'accept', content: { color: 'teal' } };
    });
    await client.listTools();
    const result = await streamedResult(client, 'pick_color');
    expect(textOf(result!)).toBe('picked teal');
    expect(related).toEqual([{ taskId: expect.any(String) }]);
  });

  it("sends a tool's sampling request inside a task through tasks/result too", async () => {
    const summarize = defineTool({
      name: 'summarize_logs',
      description: "Summarizes logs with the client's model.",
      effect: 'read',
      longRunning: true,
      inputSchema: { type: 'object', properties: {} },
      execute: async (_args, context) => {
        const reply = await currentMcpCall(context)!.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Summarize.' } }], maxTokens: 50 });
        return `summary: ${reply.content.type === 'text' ? reply.content.text : '?'}`;
      },
    });
    const { client } = await start({}, [summarize], { sampling: {} });
    const related: unknown[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      related.push(request.params._meta?.['io.modelcontextprotocol/related-task']);
      return { role: 'assistant', model: 'test', content: { type: 'text', text: 'all quiet' } };
    });
    await client.listTools();
    const result = await streamedResult(client, 'summarize_logs');
    expect(textOf(result!)).toBe('summary: all quiet');
    expect(related).toEqual([{ taskId: expect.any(String) }]);
  });

  it("keeps a session's tasks from another session, counts a running task against maxPendingCalls, and caps the ttl", async () => {
    const { client, reportDone } = await start({ maxPendingCalls: 1 });
    const long = await client.request(
      { method: 'tools/call', params: { name: 'build_report', arguments: { topic: 'a' }, task: { ttl: 10 * 24 * 3_600_000 } } },
      CreateTaskResultSchema,
    );
    expect(long.task).toMatchObject({ ttl: 24 * 3_600_000, pollInterval: 1000 });
    const unset = await client.request({ method: 'tools/call', params: { name: 'build_report', arguments: { topic: 'b' }, task: {} } }, CreateTaskResultSchema);
    expect(unset.task.ttl).toBe(3_600_000);
    // The first task still runs: the second is over the session's limit, and its result says so.
    expect((await pollUntilDone(client, unset.task.taskId)).status).toBe('completed');
    const refused = await client.experimental.tasks.getTaskResult(unset.task.taskId, CallToolResultSchema);
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('maxPendingCalls');

    const other = new Client({ name: 'other-session', version: '1' });
    await other.connect(new StreamableHTTPClientTransport(new URL(handle!.url)));
    try {
      await expect(other.experimental.tasks.getTask(long.task.taskId)).rejects.toMatchObject({ code: -32602 });
      expect((await other.experimental.tasks.listTasks()).tasks).toEqual([]);
    } finally {
      await other.close();
    }
    reportDone.give();
    expect((await pollUntilDone(client, long.task.taskId)).status).toBe('completed');
  });

  it("refuses at once, as inline, a task call of a write the token's scopes do not cover (auth over any transport); the write does not run", async () => {
    let ran = 0;
    const purge = defineTool({
      name: 'purge_archive',
      description: 'Purges the archive; takes minutes.',
      effect: 'write',
      longRunning: true,
      inputSchema: { type: 'object', properties: {} },
      execute: () => `purged ${++ran}`,
    });
    const server = createMcpServer([purge], { logger: silentLogger, auth: { issuer: 'https://auth.example.com' } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const readOnly = { clientId: 'c', scopes: ['tools:read'], expiresAt: 2e9, extra: { subject: 's' } } as unknown as AuthInfo;
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => send(message, { ...options, authInfo: readOnly });
    await server.connect(serverSide);
    const local = new Client({ name: 'in-memory', version: '1' });
    await local.connect(clientSide);
    try {
      await expect(callAsTask(local, 'purge_archive', {})).rejects.toMatchObject({ code: -32600, message: expect.stringContaining('"tools:write"') });
      expect((await local.experimental.tasks.listTasks()).tasks).toEqual([]);
      expect(ran).toBe(0);
    } finally {
      await local.close();
    }
  });

  it('keeps at most 1,000 tasks per session (its owner without auth) and refuses one more as a task, while the tool still answers inline', async () => {
    const quick = defineTool({
      name: 'quick_job',
      description: 'A job.',
      effect: 'read',
      longRunning: true,
      inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      execute: ({ n }: { n?: number }) => `job ${n ?? 0}`,
    });
    const server = createMcpServer([quick], { logger: silentLogger });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const local = new Client({ name: 'in-memory', version: '1' });
    await local.connect(clientSide);
    try {
      for (let n = 0; n < MAX_TASKS_PER_OWNER; n++) await callAsTask(local, 'quick_job', { n });
      await expect(callAsTask(local, 'quick_job', { n: -1 })).rejects.toMatchObject({
        code: -32600,
        message: expect.stringContaining('1000 tasks are kept for this client already'),
      });
      expect(textOf((await local.callTool({ name: 'quick_job', arguments: { n: 7 } })) as CallToolResult)).toBe('job 7');
    } finally {
      await local.close();
    }
  });

  it('answers -32601 to a task call of a tool that is not long-running, and of any tool on a server without one', async () => {
    const first = (await start()).client;
    await expect(callAsTask(first, 'echo', { message: 'hi' })).rejects.toMatchObject({ code: -32601, message: expect.stringContaining('"echo"') });
    // An unknown tool stays the protocol error an inline call gets.
    await expect(callAsTask(first, 'nope', {})).rejects.toMatchObject({ code: -32602 });
    await first.close();
    await handle!.close();

    const echo = defineTool({ name: 'echo', description: 'Echoes.', effect: 'read', inputSchema: { type: 'object' }, execute: () => 'hi' });
    handle = await serveHttp([echo], { port: 0, logger: silentLogger });
    const plain = new Client({ name: 'tasks-test', version: '1' });
    client = plain;
    await plain.connect(new StreamableHTTPClientTransport(new URL(handle.url)));
    expect(plain.getServerCapabilities()?.tasks).toBeUndefined();
    await expect(callAsTask(plain, 'echo', {})).rejects.toMatchObject({ code: -32601 });
  });
});

describe('tasks over createMcpHandler (through a Node bridge, as Bun.serve or Deno.serve would call it)', () => {
  let handler: McpHandler | undefined;
  let bridge: BridgedHandler | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await handler?.close(0);
    await bridge?.close();
    handler = undefined;
    bridge = undefined;
  });

  async function connect(stateless: boolean, tool: AnyTool): Promise<Client> {
    handler = createMcpHandler([tool], { logger: silentLogger, stateless });
    bridge = await serveOnNode(handler);
    client = new Client({ name: 'tasks-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url)));
    return client;
  }

  it("keeps a session's task: working, then completed with the tool result", async () => {
    const done = signalFromTest();
    const client = await connect(false, reportTool(done.promise));
    const task = await callAsTask(client, 'build_report', { topic: 'edge' });
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('working');
    done.give();
    expect((await pollUntilDone(client, task.taskId)).status).toBe('completed');
    expect(textOf(await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))).toBe('Report on edge: 3 findings.');
  });

  it('offers no task in stateless mode, where no session would keep it, and still answers the tool inline', async () => {
    const client = await connect(true, reportTool(Promise.resolve()));
    expect(client.getServerCapabilities()?.tasks).toBeUndefined();
    expect((await client.listTools()).tools[0]?.execution).toBeUndefined();
    await expect(callAsTask(client, 'build_report', { topic: 'edge' })).rejects.toMatchObject({ code: -32601 });
    expect(textOf((await client.callTool({ name: 'build_report', arguments: { topic: 'edge' } })) as CallToolResult)).toBe('Report on edge: 3 findings.');
  });
});

describe('importMcpTools and a remote task-capable tool', () => {
  it('imports it as long-running and calls it as a task, waiting past the per-request timeout until it ends', async () => {
    const { reportDone } = await start();
    const imported = await importMcpTools({ server: handle!.url, requestTimeoutMs: 1000 });
    try {
      const registry = new ToolRegistry(imported.tools, { logger: silentLogger });
      expect(registry.require('build_report').longRunning).toBe(true);
      expect(registry.require('echo').longRunning).toBeUndefined();
      const call = registry.call({ id: 'c1', name: 'build_report', arguments: { topic: 'imports' } });
      // The server holds it as a task of the importer's session while the tool waits for the test's signal.
      await expect.poll(async () => (await imported.client.experimental.tasks.listTasks()).tasks.map((task) => task.status), PATIENT).toEqual(['working']);
      // Longer than requestTimeoutMs: each poll is bounded by it, the wait for the task is not.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      reportDone.give();
      const execution = await call;
      expect(execution.result).toMatchObject({ content: [{ type: 'text', text: 'Report on imports: 3 findings.' }] });
      expect(execution.failure).toBeUndefined();
    } finally {
      await imported.close();
    }
  });

  it("cancels the remote task when the run's wall-time budget runs out: a write still waiting there never runs", async () => {
    const { writesStarted, writeDone } = await start();
    const imported = await importMcpTools({ server: handle!.url, confirm: () => false });
    try {
      // Another write of the importer's session holds the server's write slot, so the run's write waits there.
      const blocker = await callAsTask(imported.client, 'run_migration', { label: 'blocker' });
      await expect.poll(() => writesStarted, PATIENT).toEqual(['blocker']);
      const model = createScriptedModel([toolCallTurn([{ name: 'run_migration', arguments: { label: 'queued' } }]), textTurn('never')]);
      const result = await runAgent({
        model,
        tools: imported.tools,
        prompt: 'Migrate.',
        recordDir: false,
        logger: silentLogger,
        limits: { maxWallTimeMs: 1000 },
      });
      expect(result).toMatchObject({ status: 'stopped', stopReason: { kind: 'budget', limit: 'wallTimeMs' } });
      await expect
        .poll(async () => (await imported.client.experimental.tasks.listTasks()).tasks.map((task) => task.status), PATIENT)
        .toEqual(['working', 'cancelled']);

      writeDone.get('blocker')!.give();
      expect((await pollUntilDone(imported.client, blocker.taskId)).status).toBe('completed');
      writeDone.set('after', { promise: Promise.resolve(), give: () => {} });
      const after = await callAsTask(imported.client, 'run_migration', { label: 'after' });
      expect((await pollUntilDone(imported.client, after.taskId)).status).toBe('completed');
      expect(writesStarted).toEqual(['blocker', 'after']);
    } finally {
      await imported.close();
    }
  });
});
