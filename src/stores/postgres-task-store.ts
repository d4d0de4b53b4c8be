/**
 * An {@link McpTaskStore} in PostgreSQL (node-postgres `pg`, loaded on first use), for the instances of a service
 * sharing one database: a task started on one instance is read, cancelled or reported interrupted from any other.
 * The table is a migration of the run store's schema (`postgres-migrations.ts`), so both stores may share it. A task is
 * added under a transaction-scoped advisory lock on its owner, so the per-owner limit holds across instances; each
 * status change is one statement whose WHERE clause names the statuses it replaces.
 * @module
 */
import { randomBytes } from '../shared/bytes.js';
import { RunStoreError } from '../agent/agent-errors.js';
import { isFinalTaskStatus, taskCursor, taskCursorPosition, taskFromRow } from './mcp-task-store.js';
import type { McpTaskChange, McpTaskPage, McpTaskRow, McpTaskStatus, McpTaskStore, StoredMcpTask } from './mcp-task-store.js';
import { ensureCurrentSchema } from './postgres-schema-current.js';
import { inTransaction, openPostgresPool, reportingLostServer, serverOf, type PostgresConnectionOptions, type PostgresPool } from './postgres-pool.js';

export type PostgresTaskStoreOptions = PostgresConnectionOptions;

/**
 * Connects to PostgreSQL and brings the schema up to date (the run store's schema; default `toolwright`). Throws
 * `MissingPeerError` when `pg` is not installed and {@link RunStoreError} when the database cannot be reached or migrated.
 */
export async function createPostgresTaskStore(options: PostgresTaskStoreOptions): Promise<McpTaskStore> {
  const { pool, schema, endPool } = await openPostgresPool(options, 'createPostgresTaskStore');
  try {
    await ensureCurrentSchema(pool, schema);
  } catch (error) {
    await endPool().catch(() => {});
    throw new RunStoreError(
      `Cannot open the PostgreSQL task store (schema "${schema}"): ${(error as Error).message}. Check the connection string, that the server runs, and that the user may create tables.`,
      { cause: error },
    );
  }
  const server = options.connectionString !== undefined ? serverOf(options.connectionString) : 'the server of the pool you passed';
  return new PostgresTaskStore(reportingLostServer(pool, server), schema, endPool);
}

const COLUMNS = `position, task_id, owner, tool_name, status, status_message, ttl_ms, poll_interval_ms, created_at, updated_at, expires_at, lease_expires_at, result`;

interface TaskRow extends McpTaskRow {
  position: string | number;
}

class PostgresTaskStore implements McpTaskStore {
  readonly #pool: PostgresPool;
  readonly #table: string;
  readonly #meta: string;
  readonly #endPool: () => Promise<void>;
  #closed = false;

  constructor(pool: PostgresPool, schema: string, endPool: () => Promise<void>) {
    this.#pool = pool;
    this.#table = `${schema}.mcp_tasks`;
    this.#meta = `${schema}.meta`;
    this.#endPool = endPool;
  }

  async getSecret(): Promise<Uint8Array> {
    // Insert-if-absent then read back: two instances racing here end with one secret (the run store's own).
    await this.#pool.query(`INSERT INTO ${this.#meta} (key, value) VALUES ('secret', $1) ON CONFLICT (key) DO NOTHING`, [randomBytes(32)]);
    const { rows } = await this.#pool.query(`SELECT value FROM ${this.#meta} WHERE key = 'secret'`);
    return new Uint8Array((rows[0] as { value: Uint8Array }).value);
  }

  async createTask(task: StoredMcpTask, maxPerOwner: number): Promise<boolean> {
    let added = false;
    await inTransaction(this.#pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`toolwright mcp tasks ${this.#table} ${task.owner}`]);
      await client.query(`DELETE FROM ${this.#table} WHERE owner = $1 AND expires_at < $2`, [task.owner, task.createdAt]);
      const { rows } = await client.query(`SELECT count(*) AS count FROM ${this.#table} WHERE owner = $1`, [task.owner]);
      if (Number((rows[0] as { count: string | number }).count) >= maxPerOwner) return;
      await client.query(
        `INSERT INTO ${this.#table} (task_id, owner, tool_name, status, status_message, ttl_ms, poll_interval_ms, created_at, updated_at, expires_at, lease_expires_at, result)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          task.taskId,
          task.owner,
          task.toolName,
          task.status,
          task.statusMessage ?? null,
          task.ttlMs,
          task.pollIntervalMs,
          task.createdAt,
          task.updatedAt,
          task.expiresAt,
          task.leaseExpiresAt ?? null,
          task.result ?? null,
        ],
      );
      added = true;
    });
    return added;
  }

  async getTask(taskId: string, now: number): Promise<StoredMcpTask | undefined> {
    const { rows } = await this.#pool.query(`SELECT ${COLUMNS} FROM ${this.#table} WHERE task_id = $1 AND expires_at >= $2`, [taskId, now]);
    const row = rows[0] as TaskRow | undefined;
    return row && taskFromRow(row, 'the database was altered by hand');
  }

  async updateTask(taskId: string, change: McpTaskChange, from: readonly McpTaskStatus[]): Promise<boolean> {
    const values: unknown[] = [taskId, change.updatedAt, [...from], change.status, change.expiresAt];
    const sets = ['status = $4', 'updated_at = $2', 'expires_at = $5'];
    if (change.statusMessage !== undefined) {
      values.push(change.statusMessage);
      sets.push(`status_message = $${values.length}`);
    }
    if (change.result !== undefined) {
      values.push(change.result);
      sets.push(`result = $${values.length}`);
    }
    if (isFinalTaskStatus(change.status)) sets.push('lease_expires_at = NULL');
    const { rowCount } = await this.#pool.query(
      `UPDATE ${this.#table} SET ${sets.join(', ')} WHERE task_id = $1 AND expires_at >= $2 AND status = ANY($3::text[])`,
      values,
    );
    return rowCount === 1;
  }

  async renewLeases(taskIds: readonly string[], leaseExpiresAt: number): Promise<void> {
    if (taskIds.length === 0) return;
    await this.#pool.query(`UPDATE ${this.#table} SET lease_expires_at = $1 WHERE task_id = ANY($2::text[]) AND status IN ('working', 'input_required')`, [
      leaseExpiresAt,
      [...taskIds],
    ]);
  }

  async listTasks(owner: string, options: { cursor?: string; limit: number; now: number }): Promise<McpTaskPage> {
    const { rows } = await this.#pool.query(
      `SELECT ${COLUMNS} FROM ${this.#table} WHERE owner = $1 AND position > $2 AND expires_at >= $3 ORDER BY position LIMIT $4`,
      [owner, taskCursorPosition(options.cursor) ?? 0, options.now, options.limit + 1],
    );
    const found = rows as TaskRow[];
    const tasks = found.slice(0, options.limit).map((row) => taskFromRow(row, 'the database was altered by hand'));
    return found.length > options.limit ? { tasks, nextCursor: taskCursor(Number(found[options.limit - 1]!.position)) } : { tasks };
  }

  async deleteExpired(now: number): Promise<number> {
    const { rowCount } = await this.#pool.query(`DELETE FROM ${this.#table} WHERE expires_at < $1`, [now]);
    return rowCount ?? 0;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#endPool();
  }
}
