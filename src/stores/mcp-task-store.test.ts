/** Every MCP task store under one contract: memory, SQLite (a file, shared by two handles) and PostgreSQL (a real server the test starts). */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailable, startPostgresServer, type PostgresServer } from '../../test/fixtures/postgres-server.js';
import { createMemoryTaskStore, type McpTaskStore, type StoredMcpTask } from './mcp-task-store.js';
import { openSqliteTaskStore } from './sqlite-task-store.js';
import { createPostgresTaskStore } from './postgres-task-store.js';
import { createPostgresRunStore } from './postgres-run-store.js';
import { openSqliteRunStore } from '../agent/sqlite-run-store.js';

const NOW = 1_800_000_000_000;
let ids = 0;
const task = (overrides: Partial<StoredMcpTask> = {}): StoredMcpTask => ({
  taskId: `task-${++ids}`,
  owner: 'owner-a',
  toolName: 'export_report',
  status: 'working',
  ttlMs: 60_000,
  pollIntervalMs: 1000,
  createdAt: NOW,
  updatedAt: NOW,
  expiresAt: NOW + 60_000,
  leaseExpiresAt: NOW + 30_000,
  ...overrides,
});

const unavailable = postgresUnavailable();
let server: PostgresServer | undefined;
let schemas = 0;
const dir = mkdtempSync(join(tmpdir(), 'tw-task-store-'));
beforeAll(async () => {
  if (!unavailable) server = await startPostgresServer();
});
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const kinds: [string, () => Promise<McpTaskStore>, string | undefined][] = [
  ['memory', async () => createMemoryTaskStore(), undefined],
  ['sqlite', async () => openSqliteTaskStore({ path: join(dir, `tasks-${++schemas}.db`) }), undefined],
  ['postgres', async () => createPostgresTaskStore({ connectionString: server!.connectionString, schema: `tasks_${++schemas}` }), unavailable],
];

for (const [kind, open, skip] of kinds) {
  describe.skipIf(skip !== undefined)(`McpTaskStore contract: ${kind}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    const stores: McpTaskStore[] = [];
    const fresh = async () => {
      const store = await open();
      stores.push(store);
      return store;
    };
    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
    });

    it('keeps a task as given, and gives it back until it expires', async () => {
      const store = await fresh();
      const created = task({ statusMessage: 'started' });
      expect(await store.createTask(created, 10)).toBe(true);
      expect(await store.getTask(created.taskId, NOW + 1)).toEqual(created);
      expect(await store.getTask(created.taskId, created.expiresAt + 1)).toBeUndefined();
      expect(await store.getTask('no-such-task', NOW)).toBeUndefined();
    });

    it('changes a status only from the statuses named, and a final status clears the lease', async () => {
      const store = await fresh();
      const created = task();
      await store.createTask(created, 10);
      const done = { status: 'completed' as const, result: '{"content":[]}', updatedAt: NOW + 5, expiresAt: NOW + 5 + created.ttlMs };
      expect(await store.updateTask(created.taskId, done, ['working', 'input_required'])).toBe(true);
      // A cancellation racing the result finds it final and changes nothing.
      expect(await store.updateTask(created.taskId, { status: 'cancelled', updatedAt: NOW + 6, expiresAt: NOW + 6 }, ['working', 'input_required'])).toBe(
        false,
      );
      const read = await store.getTask(created.taskId, NOW + 7);
      expect(read).toMatchObject({ status: 'completed', result: '{"content":[]}', updatedAt: NOW + 5, expiresAt: NOW + 5 + created.ttlMs });
      expect(read?.leaseExpiresAt).toBeUndefined();
      expect(await store.updateTask('no-such-task', done, ['working'])).toBe(false);
    });

    it('renews the leases of running tasks only', async () => {
      const store = await fresh();
      const [running, ended] = [task(), task()];
      await store.createTask(running, 10);
      await store.createTask(ended, 10);
      await store.updateTask(ended.taskId, { status: 'failed', updatedAt: NOW, expiresAt: NOW + 1000 }, ['working']);
      await store.renewLeases([running.taskId, ended.taskId], NOW + 90_000);
      expect((await store.getTask(running.taskId, NOW))?.leaseExpiresAt).toBe(NOW + 90_000);
      expect((await store.getTask(ended.taskId, NOW))?.leaseExpiresAt).toBeUndefined();
    });

    it("refuses an owner's task past the limit, counting only tasks not expired", async () => {
      const store = await fresh();
      expect(await store.createTask(task({ owner: 'limited', expiresAt: NOW + 10 }), 2)).toBe(true);
      expect(await store.createTask(task({ owner: 'limited' }), 2)).toBe(true);
      expect(await store.createTask(task({ owner: 'limited' }), 2)).toBe(false);
      expect(await store.createTask(task({ owner: 'someone-else' }), 2)).toBe(true);
      // The first expired by then: its place is free again.
      expect(await store.createTask(task({ owner: 'limited', createdAt: NOW + 11, updatedAt: NOW + 11 }), 2)).toBe(true);
    });

    it("lists one owner's tasks oldest first, in pages, leaving out other owners' and expired ones", async () => {
      const store = await fresh();
      const mine = [task({ owner: 'lister' }), task({ owner: 'lister' }), task({ owner: 'lister' })];
      await store.createTask(mine[0]!, 10);
      await store.createTask(task({ owner: 'other' }), 10);
      await store.createTask(mine[1]!, 10);
      await store.createTask(task({ owner: 'lister', expiresAt: NOW - 1 + 2 }), 10);
      await store.createTask(mine[2]!, 10);
      const first = await store.listTasks('lister', { limit: 2, now: NOW + 5 });
      expect(first.tasks.map((listed) => listed.taskId)).toEqual([mine[0]!.taskId, mine[1]!.taskId]);
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await store.listTasks('lister', { cursor: first.nextCursor!, limit: 2, now: NOW + 5 });
      expect(second.tasks.map((listed) => listed.taskId)).toEqual([mine[2]!.taskId]);
      expect(second.nextCursor).toBeUndefined();
    });

    it('forgets expired tasks', async () => {
      const store = await fresh();
      await store.createTask(task({ owner: 'expiring', expiresAt: NOW + 1 }), 10);
      const kept = task({ owner: 'expiring' });
      await store.createTask(kept, 10);
      expect(await store.deleteExpired(NOW + 2)).toBe(1);
      expect((await store.listTasks('expiring', { limit: 10, now: NOW })).tasks.map((listed) => listed.taskId)).toEqual([kept.taskId]);
    });

    it('keeps one secret', async () => {
      const store = await fresh();
      const secret = await store.getSecret();
      expect(secret.length).toBe(32);
      expect(Buffer.from(await store.getSecret()).equals(Buffer.from(secret))).toBe(true);
    });
  });
}

describe('the SQL task stores share the run store file and schema', () => {
  it('SQLite: one file, two handles, one secret, each status change made once', async () => {
    const path = join(dir, 'state.db');
    const runs = await openSqliteRunStore({ path });
    const [first, second] = [await openSqliteTaskStore({ path }), await openSqliteTaskStore({ path })];
    try {
      expect(Buffer.from(await first.getSecret()).equals(Buffer.from(await runs.getSecret()))).toBe(true);
      const created = task();
      await first.createTask(created, 10);
      expect((await second.getTask(created.taskId, NOW))?.status).toBe('working');
      const change = { status: 'cancelled' as const, updatedAt: NOW + 1, expiresAt: NOW + 1000 };
      const results = [await first.updateTask(created.taskId, change, ['working']), await second.updateTask(created.taskId, change, ['working'])];
      expect(results.sort()).toEqual([false, true]);
      // The file holds the sealing secret: its owner only.
      expect(statSync(path).mode & 0o077).toBe(0);
    } finally {
      await Promise.all([runs.close(), first.close(), second.close()]);
    }
  });

  it.skipIf(unavailable !== undefined)(
    `PostgreSQL: the run store's schema gains the tasks table, one secret${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    async () => {
      const schema = `shared_${++schemas}`;
      const runs = await createPostgresRunStore({ connectionString: server!.connectionString, schema });
      const tasks = await createPostgresTaskStore({ connectionString: server!.connectionString, schema });
      const again = await createPostgresTaskStore({ connectionString: server!.connectionString, schema });
      try {
        expect(Buffer.from(await tasks.getSecret()).equals(Buffer.from(await runs.getSecret()))).toBe(true);
        const owner = 'racing';
        // Instances adding at once: the per-owner limit holds across them.
        const added = await Promise.all(Array.from({ length: 8 }, (_, index) => (index % 2 ? tasks : again).createTask(task({ owner }), 3)));
        expect(added.filter(Boolean)).toHaveLength(3);
      } finally {
        await Promise.all([runs.close(), tasks.close(), again.close()]);
      }
    },
  );
});
