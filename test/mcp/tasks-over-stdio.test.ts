/**
 * Tasks over stdio: `toolwright serve --tools <pack>` run as a child process, with a long-running write, driven by the
 * MCP SDK's own `Client` over `StdioClientTransport` (call as a task, poll, fetch the result, cancel), and by
 * `importMcpTools` over stdio. The tool reports through files in a temp folder, since it runs in another process.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Task } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importMcpTools } from '../../src/mcp/import-mcp-tools.js';
import { ToolRegistry, silentLogger } from '../../src/tools/index.js';
import { ROOT, cliCommand } from './serve-cli.js';

const PACK = 'test/mcp/fixtures/long-running-tools.ts';
/** Polls wait this long: the machine running the tests is shared, and a child process under tsx starts slowly. */
const PATIENT = { timeout: 20_000, interval: 25 };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolwright-stdio-tasks-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The serving command's spec for a client: the CLI from source, with the test's folder in the child's environment. */
function serveCommand(): { command: string; args: string[]; env: Record<string, string>; cwd: string } {
  const [command, args] = cliCommand('serve', '--tools', PACK);
  return { command, args, env: { ...getDefaultEnvironment(), TASKS_FIXTURE_DIR: dir }, cwd: ROOT };
}

const lines = async (name: string): Promise<string[]> => (await readFile(join(dir, name), 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');
const release = (label: string) => writeFile(join(dir, `go-${label}`), '');

async function callAsTask(client: Client, label: string): Promise<Task> {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'export_report', arguments: { label }, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
  return created.task;
}

describe('tasks over stdio (toolwright serve as a child process)', () => {
  it("is called as a task by the SDK's client, polled and its result fetched; a cancelled task's write never runs; closing the client ends the child", async () => {
    const transport = new StdioClientTransport({ ...serveCommand(), stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'stdio-tasks-test', version: '1' });
    await client.connect(transport);
    const pid = transport.pid;
    try {
      expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
      expect((await client.listTools()).tools.map((tool) => [tool.name, tool.execution?.taskSupport])).toEqual([['export_report', 'optional']]);

      // Answered at once, while the tool still waits for the test.
      const first = await callAsTask(client, 'first');
      expect(first.status).toBe('working');
      await expect.poll(() => lines('started.log'), PATIENT).toEqual(['first']);
      expect((await client.experimental.tasks.getTask(first.taskId)).status).toBe('working');
      await release('first');
      await expect.poll(async () => (await client.experimental.tasks.getTask(first.taskId)).status, PATIENT).toBe('completed');
      const result = await client.experimental.tasks.getTaskResult(first.taskId, CallToolResultSchema);
      expect(result.content).toEqual([{ type: 'text', text: 'Exported first.' }]);
      expect(await lines('ran.log')).toEqual(['first']);

      // Cancelled while it waits: released afterwards, it does not write; a later task does.
      const cancelled = await callAsTask(client, 'cancelled');
      await expect.poll(() => lines('started.log'), PATIENT).toEqual(['first', 'cancelled']);
      await client.experimental.tasks.cancelTask(cancelled.taskId);
      expect((await client.experimental.tasks.getTask(cancelled.taskId)).status).toBe('cancelled');
      await release('cancelled');
      await release('later');
      const later = await callAsTask(client, 'later');
      await expect.poll(async () => (await client.experimental.tasks.getTask(later.taskId)).status, PATIENT).toBe('completed');
      expect(await lines('ran.log')).toEqual(['first', 'later']);
      expect((await client.experimental.tasks.listTasks()).tasks.map((task) => task.status)).toEqual(['completed', 'cancelled', 'completed']);

      // One more task still running when the client closes.
      await callAsTask(client, 'never');
      await expect.poll(() => lines('started.log'), PATIENT).toEqual(['first', 'cancelled', 'later', 'never']);
    } finally {
      await client.close();
    }
    // The child ended on its own when its stdin closed (exit code 0, no SIGTERM from the SDK's escalation), and its running task never wrote.
    expect(await readFile(join(dir, 'exit-code'), 'utf8')).toBe('0');
    expect(stderr).not.toMatch(/SIGTERM/);
    expect(() => process.kill(pid!, 0)).toThrow();
    expect(await lines('ran.log')).toEqual(['first', 'later']);
  }, 60_000);

  it('importMcpTools over stdio calls a toolwright long-running tool as a task and returns its result', async () => {
    const imported = await importMcpTools({ server: { ...serveCommand(), stderr: 'ignore' }, confirm: () => false });
    try {
      const registry = new ToolRegistry(imported.tools, { logger: silentLogger });
      expect(registry.require('export_report').longRunning).toBe(true);
      const call = registry.call({ id: 'c1', name: 'export_report', arguments: { label: 'imported' } });
      // The server holds it as a task of this connection while the tool waits for the test.
      await expect.poll(async () => (await imported.client.experimental.tasks.listTasks()).tasks.map((task) => task.status), PATIENT).toEqual(['working']);
      await release('imported');
      const execution = await call;
      expect(execution.failure).toBeUndefined();
      expect(execution.result.content).toEqual([{ type: 'text', text: 'Exported imported.' }]);
      expect((await imported.client.experimental.tasks.listTasks()).tasks.map((task) => task.status)).toEqual(['completed']);
      expect(await lines('ran.log')).toEqual(['imported']);
    } finally {
      await imported.close();
    }
  }, 60_000);
});
