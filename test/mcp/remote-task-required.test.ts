/**
 * `importMcpTools` and a server written with the MCP SDK's own experimental tasks API (not toolwright's), whose tools
 * declare `execution.taskSupport: 'required'`: the SDK server refuses a plain `tools/call` of them, so the import must
 * call them as tasks, wait under the call's signal, cancel on abort, and turn a task the server ends without a result
 * into a message the model can act on.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/agent/run-agent.js';
import { importMcpTools, type ImportedMcpTools } from '../../src/mcp/import-mcp-tools.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/models/scripted/scripted-model.js';
import { ToolRegistry, silentLogger } from '../../src/tools/index.js';
import { startSdkTaskServer, type SdkTaskServer } from './fixtures/sdk-task-http-server.js';

/** Polls wait this long: the machine running the tests is shared. */
const PATIENT = { timeout: 10_000 };

let server: SdkTaskServer;
let imported: ImportedMcpTools | undefined;
beforeEach(async () => {
  server = await startSdkTaskServer();
});
afterEach(async () => {
  await imported?.close();
  imported = undefined;
  await server.close();
});

async function importAll(requestTimeoutMs?: number): Promise<ToolRegistry> {
  imported = await importMcpTools({ server: server.url, confirm: () => false, ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }) });
  return new ToolRegistry(imported.tools, { logger: silentLogger });
}

const toolCalls = (name: string) => server.requests.filter((request) => request.method === 'tools/call' && request.params?.name === name);
const count = (method: string) => server.requests.filter((request) => request.method === method).length;

describe("importMcpTools and an MCP SDK server's taskSupport 'required' tools", () => {
  it('imports a required-task tool as long-running and calls it as a task; a forbidden one is called inline', async () => {
    const registry = await importAll();
    expect(imported!.tools.map((tool) => tool.name).sort()).toEqual([
      'await_approval',
      'confirm_export',
      'export_rows',
      'greet',
      'purge_cache',
      'rebuild_index',
    ]);
    expect(registry.require('export_rows').longRunning).toBe(true);
    expect(registry.require('greet').longRunning).toBeUndefined();

    const call = registry.call({ id: 'c1', name: 'export_rows', arguments: { label: 'march' } });
    await expect.poll(() => count('tasks/get'), PATIENT).toBeGreaterThan(0);
    server.release('march');
    const execution = await call;
    expect(execution.failure).toBeUndefined();
    expect(execution.result.content).toEqual([{ type: 'text', text: 'Exported march.' }]);
    expect(toolCalls('export_rows')).toEqual([expect.objectContaining({ params: expect.objectContaining({ task: {} }) })]);
    expect(count('tasks/result')).toBe(1);
    expect(server.writes).toEqual(['march']);

    expect((await imported!.client.listTools()).tools.find((tool) => tool.name === 'greet')?.execution).toEqual({ taskSupport: 'forbidden' });
    const greeting = await registry.call({ id: 'c2', name: 'greet', arguments: { name: 'Ada' } });
    expect(greeting.result.content).toEqual([{ type: 'text', text: 'Hello, Ada.' }]);
    expect(toolCalls('greet')).toHaveLength(1);
    expect(toolCalls('greet')[0]!.params).not.toHaveProperty('task');
  });

  it("cancels the remote task when the call's signal aborts, so its write never runs", async () => {
    const registry = await importAll();
    const controller = new AbortController();
    const call = registry.call({ id: 'c1', name: 'export_rows', arguments: { label: 'april' } }, { signal: controller.signal });
    await expect.poll(() => count('tasks/get'), PATIENT).toBeGreaterThan(0);
    controller.abort(new Error('the run was stopped'));
    const execution = await call;
    expect(execution.failure?.code).toBe('aborted');
    await expect.poll(() => server.requests.filter((request) => request.method === 'tasks/cancel'), PATIENT).toHaveLength(1);
    const taskId = server.requests.find((request) => request.method === 'tasks/cancel')!.params!.taskId as string;
    expect(await server.status(taskId)).toBe('cancelled');
    // Released after the cancellation, the task's work finds it cancelled and does not write; a later export does.
    server.release('april');
    server.release('may');
    expect((await registry.call({ id: 'c2', name: 'export_rows', arguments: { label: 'may' } })).result.content).toEqual([
      { type: 'text', text: 'Exported may.' },
    ]);
    expect(server.writes).toEqual(['may']);
  });

  it("cancels the remote task when a run's signal aborts while the model's call waits on it", async () => {
    await importAll();
    const controller = new AbortController();
    const model = createScriptedModel([toolCallTurn([{ name: 'export_rows', arguments: { label: 'june' } }]), textTurn('never')]);
    const run = runAgent({ model, tools: imported!.tools, prompt: 'Export June.', recordDir: false, logger: silentLogger, signal: controller.signal });
    await expect.poll(() => count('tasks/get'), PATIENT).toBeGreaterThan(0);
    controller.abort(new Error('the person stopped the run'));
    expect(await run).toMatchObject({ status: 'stopped', stopReason: { kind: 'aborted' } });
    await expect.poll(() => count('tasks/cancel'), PATIENT).toBe(1);
    const taskId = server.requests.find((request) => request.method === 'tasks/cancel')!.params!.taskId as string;
    expect(await server.status(taskId)).toBe('cancelled');
    server.release('june');
    await expect.poll(async () => (await imported!.client.experimental.tasks.listTasks()).tasks.map((task) => task.status), PATIENT).toEqual(['cancelled']);
    expect(server.writes).toEqual([]);
  });

  it('gives the model what the server said when the task ends failed, and tells it to check the effect before calling again', async () => {
    const registry = await importAll();
    const execution = await registry.call({ id: 'c1', name: 'rebuild_index', arguments: { label: 'all' } });
    expect(execution.failure).toMatchObject({ code: 'tool_error', retryable: true });
    expect(execution.failure!.message).toMatch(
      /^Tool "rebuild_index" failed: the MCP server "warehouse-co" reports that the task running this call \(task [\w-]+\) failed \(the disk is full\), saying: write failed at row 1200\. Whether it took effect is unknown: check before calling it again\. Retrying the same call later may succeed\.$/,
    );
  });

  it('tells the model when the server cancelled the task itself, and what to do', async () => {
    const registry = await importAll();
    const execution = await registry.call({ id: 'c1', name: 'purge_cache', arguments: { label: 'all' } });
    expect(execution.failure).toMatchObject({ code: 'tool_error', retryable: true });
    expect(execution.failure!.message).toMatch(
      /^Tool "purge_cache" failed: the MCP server "warehouse-co" cancelled the task running this call \(task [\w-]+\) before it ended \(an operator stopped the purge\), and returned no result\. Part of its work may have run: check what took effect before calling it again, or ask the person whether to\. Retrying the same call later may succeed\.$/,
    );
    expect(count('tasks/cancel')).toBe(0);
  });

  it('waits through input_required past the per-request timeout, and returns the result once the task ends', async () => {
    const registry = await importAll(300);
    const call = registry.call({ id: 'c1', name: 'await_approval', arguments: { label: 'budget' } });
    // tasks/result, which waits for the end, timed out at least once and was asked again: the call still waits.
    await expect.poll(() => count('tasks/result'), PATIENT).toBeGreaterThanOrEqual(2);
    server.release('budget');
    const execution = await call;
    expect(execution.failure).toBeUndefined();
    expect(execution.result.content).toEqual([{ type: 'text', text: 'Approved budget.' }]);
    expect(count('tasks/cancel')).toBe(0);
  });

  it("carries the server's elicitation inside a task through tasks/result, answers it as for any server's (declined), and returns the result", async () => {
    const registry = await importAll();
    const execution = await registry.call({ id: 'c1', name: 'confirm_export', arguments: { label: 'june' } });
    expect(execution.failure).toBeUndefined();
    expect(execution.result.content).toEqual([{ type: 'text', text: 'The confirmation was answered "decline".' }]);
    expect(count('tasks/result')).toBeGreaterThanOrEqual(1);
    expect(server.writes).toEqual([]);
  });

  it("cancels a task stuck in input_required when the call's signal aborts; its write never runs", async () => {
    const registry = await importAll(300);
    const controller = new AbortController();
    const call = registry.call({ id: 'c1', name: 'await_approval', arguments: { label: 'stuck' } }, { signal: controller.signal });
    await expect.poll(() => count('tasks/result'), PATIENT).toBeGreaterThanOrEqual(1);
    controller.abort(new Error('the run was stopped'));
    expect((await call).failure?.code).toBe('aborted');
    await expect.poll(() => count('tasks/cancel'), PATIENT).toBe(1);
    const taskId = server.requests.find((request) => request.method === 'tasks/cancel')!.params!.taskId as string;
    expect(await server.status(taskId)).toBe('cancelled');
    server.release('stuck');
    server.release('after');
    expect((await registry.call({ id: 'c2', name: 'await_approval', arguments: { label: 'after' } })).failure).toBeUndefined();
    expect(server.writes).toEqual(['after']);
  });
});

describe('importMcpTools and a server that lists task-capable tools without declaring task-augmented tools/call', () => {
  it("calls an 'optional' tool inline (MCP forbids a task there) and leaves a 'required' one out with a warning", async () => {
    const received: Record<string, unknown>[] = [];
    const http = createServer((req, res) => {
      // Stateless: a new SDK server and transport for each request, as the SDK's stateless example does.
      const server = new Server({ name: 'no-tasks-co', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: [
          { name: 'sometimes_slow', description: 'May take a while.', inputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } },
          { name: 'always_slow', description: 'Always takes a while.', inputSchema: { type: 'object' }, execution: { taskSupport: 'required' } },
        ],
      }));
      server.setRequestHandler(CallToolRequestSchema, (request) => {
        received.push(request.params);
        return { content: [{ type: 'text', text: `ran ${request.params.name}` }] };
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => void transport.close());
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const noTasks = await importMcpTools({ server: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` });
      try {
        expect(noTasks.tools.map((tool) => tool.name)).toEqual(['sometimes_slow']);
        expect(noTasks.warnings).toContainEqual({
          type: 'skipped',
          tool: 'always_slow',
          feature: 'task-support',
          details:
            'its execution.taskSupport is "required", but the server does not declare task-augmented tools/call (capabilities.tasks.requests.tools.call), so it can be called neither as a task nor inline; the server has to declare that capability.',
        });
        const registry = new ToolRegistry(noTasks.tools, { logger: silentLogger });
        expect(registry.require('sometimes_slow').longRunning).toBeUndefined();
        const execution = await registry.call({ id: 'c1', name: 'sometimes_slow', arguments: {} });
        expect(execution.result.content).toEqual([{ type: 'text', text: 'ran sometimes_slow' }]);
        expect(received).toHaveLength(1);
        expect(received[0]).not.toHaveProperty('task');
      } finally {
        await noTasks.close();
      }
    } finally {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
