/**
 * The case as written: a tool that takes 30 s is called as a task, polled while it runs, and its result fetched.
 * The 30 s pass on a fake clock (the tool's timer, the store's times): the test takes milliseconds, and the server sees
 * every status a client polling for half a minute would.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineTool, silentLogger } from '../tools/index.js';
import { openSqliteTaskStore } from '../stores/sqlite-task-store.js';
import { createMcpServer } from './create-mcp-server.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('a tool taking 30 s, called as a task', () => {
  it('is working while polled over 30 s, then completed with its result; the task stays where its ttl says', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const started = Date.now();
    const reconcile = defineTool<{ account: string }>({
      name: 'reconcile_account',
      description: 'Reconciles an account against the bank statement; takes about 30 seconds.',
      effect: 'read',
      longRunning: true,
      inputSchema: { type: 'object', properties: { account: { type: 'string' } }, required: ['account'] },
      execute: async ({ account }) => {
        await new Promise((resolve) => setTimeout(resolve, 30_000));
        return `Account ${account}: 212 entries reconciled, 0 differences.`;
      },
    });
    const store = await openSqliteTaskStore({ path: ':memory:' });
    const server = createMcpServer([reconcile], { logger: silentLogger, taskStore: store });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'clock-test', version: '1' });
    await client.connect(clientSide);
    try {
      const { task } = await client.request(
        { method: 'tools/call', params: { name: 'reconcile_account', arguments: { account: 'DE-4411' }, task: { ttl: 120_000 } } },
        CreateTaskResultSchema,
      );
      expect(task).toMatchObject({ status: 'working', ttl: 120_000, pollInterval: 1000 });
      for (let second = 5; second < 30; second += 5) {
        await vi.advanceTimersByTimeAsync(5_000);
        expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'working' });
      }
      await vi.advanceTimersByTimeAsync(5_000);
      const done = await client.experimental.tasks.getTask(task.taskId);
      expect(done.status).toBe('completed');
      expect(Date.parse(done.lastUpdatedAt) - started).toBeGreaterThanOrEqual(30_000);
      const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      expect(result.content).toEqual([{ type: 'text', text: 'Account DE-4411: 212 entries reconciled, 0 differences.' }]);
      // Kept for its ttl after it ended, then gone.
      await vi.advanceTimersByTimeAsync(119_000);
      expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe('completed');
      await vi.advanceTimersByTimeAsync(2_000);
      await expect(client.experimental.tasks.getTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
      await store.close();
    }
  });
});
