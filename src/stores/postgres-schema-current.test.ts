/** Opening the PostgreSQL store on a schema already up to date costs one statement; a fresh or newer schema still goes through the migration step. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailable, startPostgresServer, type PostgresServer } from '../../test/fixtures/postgres-server.js';
import { state } from '../../test/fixtures/run-store-contract.js';
import { createPostgresRunStore, POSTGRES_SCHEMA_VERSION } from './postgres-run-store.js';
import type { PostgresPool } from './postgres-pool.js';

const unavailable = postgresUnavailable();
let server: PostgresServer | undefined;
let pool: pg.Pool;

beforeAll(async () => {
  if (unavailable) return;
  server = await startPostgresServer();
  pool = new pg.Pool({ connectionString: await server.createDatabase('schema_current'), max: 4 });
  // pool.end() resolves before its connections have closed, and the server stopped next ends those still open with
  // 57P01 ("terminating connection due to administrator command"), which the pool reports as an 'error' event.
  pool.on('error', () => {});
});
afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

/** The pool, with every statement it or one of its clients sends written down. */
function countingPool(): { pool: PostgresPool; statements: string[] } {
  const statements: string[] = [];
  const counted: PostgresPool = {
    query: (text, values) => {
      statements.push(text);
      return pool.query(text, values);
    },
    connect: async () => {
      const client = await pool.connect();
      return {
        query: (text, values) => {
          statements.push(text);
          return client.query(text, values);
        },
        release: (error) => client.release(error),
        on: ((event: 'notification' | 'error', listener: never) => client.on(event as 'error', listener)) as never,
        removeListener: (event, listener) => client.removeListener(event, listener),
      };
    },
  };
  return { pool: counted, statements };
}

describe.skipIf(unavailable !== undefined)(`opening the PostgreSQL store${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('sends one statement when the schema is already up to date (a Worker opens the store in every request)', async () => {
    const first = countingPool();
    const migrated = await createPostgresRunStore({ pool: first.pool, schema: 'current_a' });
    // A fresh schema: the migration step runs (its transaction, lock and tables).
    expect(first.statements).toContain('BEGIN');
    expect(first.statements.some((text) => text.includes('CREATE TABLE current_a.runs'))).toBe(true);
    await migrated.saveRun({ runId: 'r1', status: 'completed', state: state('r1') });
    await migrated.close();

    const again = countingPool();
    const reopened = await createPostgresRunStore({ pool: again.pool, schema: 'current_a' });
    expect(again.statements).toEqual([`SELECT COALESCE(MAX(version), 0) AS version FROM current_a.migrations`]);
    expect((await reopened.loadRun('r1'))?.status).toBe('completed');
    await reopened.close();
  });

  it('still refuses a schema migrated by a newer toolwright', async () => {
    await (await createPostgresRunStore({ pool, schema: 'current_b' })).close();
    await pool.query(`INSERT INTO current_b.migrations VALUES ($1, 0)`, [POSTGRES_SCHEMA_VERSION + 1]);
    await expect(createPostgresRunStore({ pool, schema: 'current_b' })).rejects.toMatchObject({
      code: 'TW_RUN_STORE',
      message: expect.stringContaining('newer than this toolwright knows'),
    });
  });

  it('migrates a schema whose migrations table exists but is empty (a migration rolled back)', async () => {
    await pool.query(`CREATE SCHEMA current_c`);
    await pool.query(`CREATE TABLE current_c.migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`);
    const store = await createPostgresRunStore({ pool, schema: 'current_c' });
    await store.saveRun({ runId: 'r2', status: 'completed', state: state('r2') });
    expect((await store.loadRun('r2'))?.status).toBe('completed');
    await store.close();
  });
});
