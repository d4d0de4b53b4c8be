/**
 * What a caller and a person get when an id is malformed or the store went away:
 * a NUL in an approval id or a run id is refused with TW_INVALID_ID before it
 * reaches the database (PostgreSQL answered it with a raw driver error, and the
 * console with a 500), and the console answers 400; a resume whose PostgreSQL
 * server stopped, or whose SQLite file was removed, fails with
 * TW_RUN_STORE_UNAVAILABLE naming the store (it was a bare ECONNREFUSED, or for
 * SQLite a run that went on writing into a file no other process sees), and the
 * console answers 503.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startConsole, type ConsoleServer } from '../../src/cli/console/console-server.js';
import { defineTool, resumeAgent, runAgent, silentLogger, type RunStore } from '../../src/index.js';
import { createMemoryRunStore, createPostgresRunStore, openSqliteRunStore } from '../../src/stores/index.js';
import { decideConfirmation } from '../../src/agent/package-entry.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/test.js';
import { postgresUnavailable, startPostgresServer } from '../fixtures/postgres-server.js';

const folder = mkdtempSync(join(tmpdir(), 'tw-store-errors-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const unavailable = postgresUnavailable();

const refunds: string[] = [];
const refund = defineTool<{ invoice: string }>({
  name: 'refund',
  description: 'Refunds an invoice.',
  effect: 'write',
  confirm: true,
  inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'] },
  execute: ({ invoice }) => {
    refunds.push(invoice);
    return 'refunded';
  },
});
const common = { tools: [refund], recordDir: false as const, logger: silentLogger };

async function pausedRun(store: RunStore): Promise<{ runId: string; token: string; approvalId: string }> {
  const result = await runAgent({
    ...common,
    store,
    prompt: 'Refund invoice 7.',
    model: createScriptedModel([toolCallTurn([{ id: 'c1', name: 'refund', arguments: { invoice: '7' } }])]),
  });
  if (result.status !== 'awaiting_confirmation') throw new Error(`expected a pause, got ${result.status}`);
  return { runId: result.runId, token: result.pending[0]!.token, approvalId: result.pending[0]!.approvalId };
}

interface Reply {
  status: number;
  body: string;
}

/** A signed-in browser of a console: the token exchanged for the cookie, the form token read off the approvals page. */
async function signIn(console: ConsoleServer) {
  const send = (options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Reply & { cookie?: string }> =>
    new Promise((resolve, reject) => {
      const outgoing = request(
        {
          host: '127.0.0.1',
          port: console.port,
          method: options.method ?? 'GET',
          path: options.path,
          headers: { host: `127.0.0.1:${console.port}`, ...options.headers },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode!,
              body: Buffer.concat(chunks).toString('utf8'),
              cookie: String(response.headers['set-cookie'] ?? '').split(';')[0],
            }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(options.body);
    });
  const cookie = (await send({ path: `/?token=${console.token}` })).cookie!;
  const formToken = /name="form" value="([^"]+)"/.exec((await send({ path: '/approvals', headers: { cookie } })).body)?.[1] ?? '';
  return {
    get: (path: string) => send({ path, headers: { cookie } }),
    post: (path: string) =>
      send({
        method: 'POST',
        path,
        headers: { cookie, origin: `http://127.0.0.1:${console.port}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ form: formToken }).toString(),
      }),
  };
}

async function expectBadIdsRefused(store: RunStore, runsDir: string): Promise<void> {
  const server = await startConsole({ store, runsDir });
  try {
    const browser = await signIn(server);
    for (const reply of [
      await browser.get('/runs/run_a%00b'),
      await browser.post('/approvals/apr_a%00b/approve'),
      await browser.post('/approvals/apr%20x/deny'),
    ]) {
      expect(reply.status).toBe(400);
      expect(reply.body).toMatch(/is not one a run store can hold: a (run|approval) id is 1 to 200 characters of letters, digits/);
      expect(reply.body).not.toContain('\u0000');
    }
    // A well-formed id that names nothing is still a 404.
    expect((await browser.post('/approvals/apr_0000000000/approve')).status).toBe(404);
  } finally {
    await server.close();
  }
}

describe('malformed ids', () => {
  it('are refused by resumeAgent and decideConfirmation with TW_INVALID_ID, and by the console with 400 (memory store)', async () => {
    const store = createMemoryRunStore();
    const { runId } = await pausedRun(store);
    await expect(resumeAgent(`${runId}\u0000`, [], { ...common, store, model: createScriptedModel([]) })).rejects.toMatchObject({
      code: 'TW_INVALID_ID',
      kind: 'run id',
    });
    await expect(runAgent({ ...common, store, runId: 'run/../../x', prompt: 'hi', model: createScriptedModel([textTurn('hi')]) })).rejects.toMatchObject({
      code: 'TW_INVALID_ID',
    });
    await expectBadIdsRefused(store, join(folder, 'runs-memory'));
  });

  it.skipIf(unavailable !== undefined)(
    `are refused before PostgreSQL sees them, and the console answers 400, not 500${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    async () => {
      const server = await startPostgresServer();
      const store = await createPostgresRunStore({ connectionString: server.connectionString });
      try {
        await pausedRun(store);
        await expect(store.findConfirmation('apr_\u0000')).rejects.toMatchObject({ code: 'TW_INVALID_ID', kind: 'approval id' });
        await expectBadIdsRefused(store, join(folder, 'runs-postgres'));
      } finally {
        await store.close();
        await server.stop();
      }
    },
    60_000,
  );
});

describe('a store that went away', () => {
  it('fails a resume and a decision on a removed SQLite file with TW_RUN_STORE_UNAVAILABLE naming the file, and runs nothing', async () => {
    const dir = mkdtempSync(join(folder, 'sqlite-'));
    const path = join(dir, 'state.db');
    const store = await openSqliteRunStore({ path });
    try {
      const { runId, token } = await pausedRun(store);
      rmSync(dir, { recursive: true, force: true });
      const gone = {
        code: 'TW_RUN_STORE_UNAVAILABLE',
        name: 'RunStoreUnavailableError',
        store: 'sqlite',
        message: expect.stringContaining(`"${path}" was removed`),
      };
      await expect(decideConfirmation({ token, decision: 'approve' }, { store })).rejects.toMatchObject(gone);
      await expect(
        resumeAgent(runId, [{ token, decision: 'approve' }], { ...common, store, model: createScriptedModel([textTurn('Done.')]) }),
      ).rejects.toMatchObject(gone);
      expect(refunds).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(unavailable !== undefined)(
    `fails a resume, a decision and a console page on a stopped PostgreSQL server with TW_RUN_STORE_UNAVAILABLE naming the server${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    async () => {
      const server = await startPostgresServer();
      const store = await createPostgresRunStore({ connectionString: server.connectionString });
      const console = await startConsole({ store, runsDir: join(folder, 'runs-stopped') });
      try {
        const { runId, token } = await pausedRun(store);
        const browser = await signIn(console);
        await server.stop();
        const gone = {
          code: 'TW_RUN_STORE_UNAVAILABLE',
          name: 'RunStoreUnavailableError',
          store: 'postgres',
          message: expect.stringContaining(`The PostgreSQL run store at 127.0.0.1:${server.port}/postgres cannot be reached`),
        };
        await expect(
          resumeAgent(runId, [{ token, decision: 'approve' }], { ...common, store, model: createScriptedModel([textTurn('Done.')]) }),
        ).rejects.toMatchObject(gone);
        await expect(decideConfirmation({ token, decision: 'approve' }, { store })).rejects.toMatchObject(gone);
        const page = await browser.get('/approvals');
        expect(page.status).toBe(503);
        expect(page.body).toContain(`The PostgreSQL run store at 127.0.0.1:${server.port}/postgres cannot be reached`);
        expect(refunds).toEqual([]);
      } finally {
        await console.close();
        await store.close().catch(() => {});
        await server.stop();
      }
    },
    60_000,
  );

  it.skipIf(unavailable !== undefined)(
    `fails a save whose connection the server drops mid-transaction with TW_RUN_STORE_UNAVAILABLE, and raises no uncaught error${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    async () => {
      const server = await startPostgresServer();
      const store = await createPostgresRunStore({ connectionString: server.connectionString });
      const blocker = new pg.Client({ connectionString: server.connectionString });
      blocker.on('error', () => {});
      const uncaught: unknown[] = [];
      const hear = (error: unknown) => uncaught.push(error);
      process.on('uncaughtException', hear);
      try {
        const { runId } = await pausedRun(store);
        const run = (await store.loadRun(runId))!;
        const confirmations = await store.listConfirmations({ runId });
        // The run's row locked elsewhere: the save (a transaction, as a pause's is) waits on it holding its connection.
        await blocker.connect();
        await blocker.query('BEGIN');
        await blocker.query(`SELECT 1 FROM toolwright.runs WHERE run_id = $1 FOR UPDATE`, [runId]);
        const saving = store.saveRun({ runId, status: run.status, state: run.state }, confirmations);
        saving.catch(() => {});
        while (Number((await blocker.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'`)).rows[0].n) === 0) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        // Only the save's connection is dropped, the row staying locked: a shutdown of the whole server also ended the
        // blocker's transaction, and the save could take the lock and commit before its own connection closed.
        await blocker.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock'`);
        await expect(saving).rejects.toMatchObject({
          code: 'TW_RUN_STORE_UNAVAILABLE',
          store: 'postgres',
          message: expect.stringContaining(`The PostgreSQL run store at 127.0.0.1:${server.port}/postgres cannot be reached`),
        });
        // node-postgres reports the closed socket on the held client after the query failed: before, with no listener there, it was uncaught.
        expect(uncaught).toEqual([]);
      } finally {
        process.off('uncaughtException', hear);
        await blocker.end().catch(() => {});
        await store.close().catch(() => {});
        await server.stop();
      }
    },
    60_000,
  );
});
