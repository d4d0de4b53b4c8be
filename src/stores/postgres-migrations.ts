/**
 * The PostgreSQL run store's tables, as versioned migrations applied once per schema under an advisory lock.
 * @module
 */
import { inTransaction, type PostgresPool } from './postgres-pool.js';

/** The migrations, in order; each runs once per schema, in a transaction. Never edit one that shipped: add the next. */
const MIGRATIONS: readonly ((schema: string) => string)[] = [
  (s) => `
    CREATE TABLE ${s}.meta (key TEXT PRIMARY KEY, value BYTEA NOT NULL);
    CREATE TABLE ${s}.runs (
      run_id TEXT PRIMARY KEY,
      status TEXT NOT NULL,
      state TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      lease_owner TEXT,
      lease_holder TEXT,
      lease_expires_at BIGINT
    );
    CREATE TABLE ${s}.confirmations (
      seq BIGINT GENERATED ALWAYS AS IDENTITY,
      run_id TEXT NOT NULL,
      call_key TEXT NOT NULL,
      approval_id TEXT NOT NULL UNIQUE,
      call_id TEXT NOT NULL,
      tool_name TEXT NOT NULL,
      arguments TEXT NOT NULL,
      summary TEXT NOT NULL,
      token TEXT NOT NULL,
      expires_at BIGINT NOT NULL,
      created_at BIGINT NOT NULL,
      decision TEXT,
      reason TEXT,
      decided_at BIGINT,
      PRIMARY KEY (run_id, call_key)
    );
    CREATE INDEX confirmations_undecided ON ${s}.confirmations (created_at, seq) WHERE decision IS NULL;
    CREATE TABLE ${s}.calls (
      run_id TEXT NOT NULL,
      call_key TEXT NOT NULL,
      status TEXT NOT NULL,
      outcome TEXT,
      tool_name TEXT,
      call_id TEXT,
      digest TEXT,
      PRIMARY KEY (run_id, call_key)
    );`,
  // The MCP server's tasks (`createPostgresTaskStore`).
  (s) => `
    CREATE TABLE ${s}.mcp_tasks (
      position BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      task_id TEXT NOT NULL UNIQUE,
      owner TEXT NOT NULL,
      tool_name TEXT NOT NULL,
      status TEXT NOT NULL,
      status_message TEXT,
      ttl_ms BIGINT NOT NULL,
      poll_interval_ms BIGINT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      lease_expires_at BIGINT,
      result TEXT
    );
    CREATE INDEX mcp_tasks_owner ON ${s}.mcp_tasks (owner, position);
    CREATE INDEX mcp_tasks_expiry ON ${s}.mcp_tasks (expires_at);`,
];

/** The schema version this code writes; a database migrated further by a newer toolwright is refused. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** Brings `schema` up to date; instances starting at once apply each migration once. */
export function migrate(pool: PostgresPool, schema: string): Promise<void> {
  return inTransaction(pool, async (client) => {
    // Transaction-scoped: released by COMMIT or ROLLBACK, even if this process dies mid-migration.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`toolwright run store ${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`);
    const { rows } = await client.query(`SELECT COALESCE(MAX(version), 0) AS version FROM ${schema}.migrations`);
    const applied = Number((rows[0] as { version: number | string }).version);
    if (applied > MIGRATIONS.length) {
      throw new Error(`the schema is at version ${applied}, newer than this toolwright knows (${MIGRATIONS.length}); upgrade toolwright`);
    }
    for (let version = applied + 1; version <= MIGRATIONS.length; version++) {
      await client.query(MIGRATIONS[version - 1]!(schema));
      await client.query(`INSERT INTO ${schema}.migrations (version, applied_at) VALUES ($1, $2)`, [version, Date.now()]);
    }
  });
}
