/**
 * Tasks kept in a store of the server's options: they outlive their session, survive a restart (SQLite) and are read
 * from another instance (PostgreSQL); results are sealed at rest; a task whose process died is reported failed, never
 * run again; a task started under a token is its identity's alone.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServe } from '../../test/mcp/serve-cli.js';
import { postgresUnavailable, startPostgresServer, type PostgresServer } from '../../test/fixtures/postgres-server.js';
import { defineTool, silentLogger, type AnyTool } from '../tools/index.js';
import { createMemoryTaskStore, type McpTaskStore } from '../stores/mcp-task-store.js';
import { openSqliteTaskStore } from '../stores/sqlite-task-store.js';
import { createPostgresTaskStore } from '../stores/postgres-task-store.js';
import { createMcpServer } from './create-mcp-server.js';
import { serveHttp } from './serve-http.js';
import { callAsTask, pollUntilDone, reportTool, signalFromTest, textOf } from '../../test/mcp/task-client.js';
import type { McpHttpHandle } from './serve-http.js';

const dir = mkdtempSync(join(tmpdir(), 'tw-durable-tasks-'));
const unavailable = postgresUnavailable();
let postgres: PostgresServer | undefined;
beforeAll(async () => {
  if (!unavailable) postgres = await startPostgresServer();
});
afterAll(async () => {
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const API_KEY = 'sk-proj-abcdefghijklmnop1234';

/** The report, with a secret in it: the client gets it, the store's file never holds it in clear. */
const reportWithKey = (done: Promise<void>): AnyTool => reportTool(done, ` Upload it with key ${API_KEY}.`);

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'durable-tasks-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('tasks in a store of the server (docs/mcp.md, "Tasks that outlive a session or a restart")', () => {
  it("keeps a task's result across a server restart with a SQLite store, sealed at rest, for a new session to fetch", async () => {
    const path = join(dir, 'restart.db');
    const done = signalFromTest();
    let store: McpTaskStore = await openSqliteTaskStore({ path });
    let handle: McpHttpHandle = await serveHttp([reportWithKey(done.promise)], { port: 0, logger: silentLogger, taskStore: store });
    const first = await connect(handle.url);
    const task = await callAsTask(first, 'build_report', { topic: 'churn' });
    done.give();
    expect((await pollUntilDone(first, task.taskId)).status).toBe('completed');
    await first.close();
    await handle.close();
    await store.close();
    // The file holds the result with the key taken out (sealed beside it), never the key itself.
    expect(readFileSync(path).includes(API_KEY)).toBe(false);
    expect(readFileSync(path).includes('Report on churn')).toBe(true);

    // A new process would open the same file: a new store, a new server, a new session.
    store = await openSqliteTaskStore({ path });
    handle = await serveHttp([reportWithKey(signalFromTest().promise)], { port: 0, logger: silentLogger, taskStore: store });
    const later = await connect(handle.url);
    try {
      expect(await later.experimental.tasks.getTask(task.taskId)).toMatchObject({ taskId: task.taskId, status: 'completed' });
      const result = await later.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      expect(textOf(result)).toBe(`Report on churn: 3 findings. Upload it with key ${API_KEY}.`);
      // Without auth a task's id is its key: a later session reaches it by id, but lists only its own tasks.
      expect((await later.experimental.tasks.listTasks()).tasks).toEqual([]);
    } finally {
      await later.close();
      await handle.close();
      await store.close();
    }
  });

  it('reports a write whose server process died while it ran as failed, saying it may have taken effect, and never runs it again', async () => {
    const path = join(dir, 'killed.db');
    const started = join(dir, 'started.txt');
    // `toolwright serve --task-store` in a process of its own, killed while the write runs.
    process.env.TW_TEST_STARTED_FILE = started;
    const serving = await startHttpServe(['--task-store', path], 'test/mcp/fixtures/long-running-pack.ts');
    const exited = new Promise((resolve) => serving.child.once('exit', resolve));
    let taskId = '';
    try {
      expect(serving.stderr()).toContain(`keeping tasks in ${path}`);
      const client = await connect(serving.url);
      taskId = (await callAsTask(client, 'export_ledger', { month: '2026-11' }, 600_000)).taskId;
      await expect.poll(() => existsSync(started) && readFileSync(started, 'utf8').includes('2026-11'), { timeout: 15_000 }).toBe(true);
      await client.close().catch(() => {});
    } finally {
      serving.child.kill('SIGKILL');
      await exited;
    }
    // The dead process can no longer renew its lease; once it lapses (set here in the file, as a minute later would) the task is reported.
    const file = new Database(path);
    file.prepare('UPDATE mcp_tasks SET lease_expires_at = ?').run(Date.now() - 1);
    file.close();

    const store = await openSqliteTaskStore({ path });
    const handle = await serveHttp([reportWithKey(signalFromTest().promise)], { port: 0, logger: silentLogger, taskStore: store });
    const later = await connect(handle.url);
    try {
      expect(await later.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'failed', statusMessage: 'The server stopped while this task ran.' });
      const result = await later.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('whether it took effect is unknown. It was not started again.');
      expect(readFileSync(started, 'utf8')).toBe('2026-11\n');
    } finally {
      await later.close();
      await handle.close();
      await store.close();
    }
  }, 60_000);

  it('lets a task outlive the session that started it, with a shared store', async () => {
    const done = signalFromTest();
    const store = createMemoryTaskStore();
    const handle = await serveHttp([reportWithKey(done.promise)], { port: 0, logger: silentLogger, taskStore: store });
    try {
      const first = await connect(handle.url);
      const task = await callAsTask(first, 'build_report', { topic: 'q3' });
      // The session ends (DELETE) while the task runs: with a shared store the task runs on.
      await (first.transport as StreamableHTTPClientTransport).terminateSession();
      await first.close();
      done.give();
      const later = await connect(handle.url);
      expect((await pollUntilDone(later, task.taskId)).status).toBe('completed');
      expect(textOf(await later.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))).toContain('Report on q3');
      await later.close();
    } finally {
      await handle.close();
    }
  });

  it.skipIf(unavailable !== undefined)(
    `reads a task started on one instance from another sharing a PostgreSQL store${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    async () => {
      const done = signalFromTest();
      const options = { connectionString: postgres!.connectionString, schema: 'durable_tasks' };
      const [storeA, storeB] = [await createPostgresTaskStore(options), await createPostgresTaskStore(options)];
      const a = await serveHttp([reportWithKey(done.promise)], { port: 0, logger: silentLogger, taskStore: storeA });
      const b = await serveHttp([reportWithKey(signalFromTest().promise)], { port: 0, logger: silentLogger, taskStore: storeB });
      const onA = await connect(a.url);
      const onB = await connect(b.url);
      try {
        const task = await callAsTask(onA, 'build_report', { topic: 'fleet' });
        expect((await onB.experimental.tasks.getTask(task.taskId)).status).toBe('working');
        done.give();
        expect((await pollUntilDone(onB, task.taskId)).status).toBe('completed');
        expect(textOf(await onB.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))).toContain('Report on fleet');
      } finally {
        await Promise.all([onA.close(), onB.close()]);
        await Promise.all([a.close(), b.close()]);
        await Promise.all([storeA.close(), storeB.close()]);
      }
    },
  );
});

describe('a task started under a token is its identity’s alone', () => {
  const identity = (subject: string): AuthInfo =>
    ({
      token: 'opaque',
      clientId: 'client-1',
      scopes: ['tools:read', 'tools:write'],
      expiresAt: 2e9,
      extra: { subject, issuer: 'https://auth.example.com' },
    }) as AuthInfo;

  async function sessionAs(tools: AnyTool[], store: McpTaskStore, authInfo: AuthInfo): Promise<Client> {
    const server = createMcpServer(tools, { logger: silentLogger, auth: { issuer: 'https://auth.example.com' }, taskStore: store });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => send(message, { ...options, authInfo });
    await server.connect(serverSide);
    const client = new Client({ name: 'identity-test', version: '1' });
    await client.connect(clientSide);
    return client;
  }

  it('another identity neither finds, lists, reads nor cancels it; the same identity does from a new session', async () => {
    const done = signalFromTest();
    const store = createMemoryTaskStore();
    const aborted: boolean[] = [];
    const waitForCancel = defineTool({
      name: 'wait_for_cancel',
      description: 'Waits until cancelled.',
      effect: 'read',
      longRunning: true,
      inputSchema: { type: 'object', properties: {} },
      execute: (_args, { signal }) =>
        new Promise<string>((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            aborted.push(true);
            reject(signal.reason);
          }),
        ),
    });
    const tools = [reportWithKey(done.promise), waitForCancel];
    const alice = await sessionAs(tools, store, identity('alice'));
    const mallory = await sessionAs(tools, store, identity('mallory'));
    try {
      const task = await callAsTask(alice, 'build_report', { topic: 'salaries' });
      await expect(mallory.experimental.tasks.getTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
      await expect(mallory.experimental.tasks.cancelTask(task.taskId)).rejects.toMatchObject({ code: -32602 });
      expect((await mallory.experimental.tasks.listTasks()).tasks).toEqual([]);
      done.give();
      await expect(mallory.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).rejects.toMatchObject({ code: -32602 });

      const aliceLater = await sessionAs(tools, store, identity('alice'));
      // Cancelled from another session of the same identity: the call's signal aborts at once.
      const waiting = await callAsTask(alice, 'wait_for_cancel', {});
      expect((await aliceLater.experimental.tasks.cancelTask(waiting.taskId)).status).toBe('cancelled');
      await expect.poll(() => aborted, { timeout: 10_000 }).toEqual([true]);
      expect((await aliceLater.experimental.tasks.listTasks()).tasks.map((listed) => listed.taskId)).toEqual([task.taskId, waiting.taskId]);
      expect((await pollUntilDone(aliceLater, task.taskId)).status).toBe('completed');
      expect(textOf(await aliceLater.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))).toContain('Report on salaries');
      await aliceLater.close();
    } finally {
      await Promise.all([alice.close(), mallory.close()]);
    }
  });

  it('answers a cursor no server gave with -32602', async () => {
    const alice = await sessionAs([reportWithKey(signalFromTest().promise)], createMemoryTaskStore(), identity('alice'));
    try {
      await expect(alice.experimental.tasks.listTasks('p-not-a-cursor')).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('not one this server gave'),
      });
    } finally {
      await alice.close();
    }
  });
});
