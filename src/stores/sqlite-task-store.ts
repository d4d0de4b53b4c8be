/**
 * An {@link McpTaskStore} in a SQLite file (better-sqlite3, loaded on first use). It may be the run store's own file
 * (`$TOOLWRIGHT_HOME/state.db` by default): the tasks have a table of their own and share the file's secret. Each
 * status change is one statement whose WHERE clause names the statuses it replaces, so of two processes racing on one
 * task exactly one changes it.
 * @module
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { randomBytes } from '../shared/bytes.js';
import { RunStoreError } from '../agent/agent-errors.js';
import { loadBetterSqlite3 } from '../agent/load-better-sqlite3.js';
import { restrictToOwner } from '../agent/sqlite-run-store.js';
import { defaultStatePath } from '../agent/toolwright-home.js';
import { isFinalTaskStatus, taskCursor, taskCursorPosition, taskFromRow } from './mcp-task-store.js';
import type { McpTaskChange, McpTaskPage, McpTaskRow, McpTaskStatus, McpTaskStore, StoredMcpTask } from './mcp-task-store.js';

export interface SqliteTaskStoreOptions {
  /** The database file; defaults to `$TOOLWRIGHT_HOME/state.db` (`~/.toolwright/state.db`), the run store's. `:memory:` for a private store. */
  path?: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS mcp_tasks (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  task_id TEXT NOT NULL UNIQUE,
  owner TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  status TEXT NOT NULL,
  status_message TEXT,
  ttl_ms INTEGER NOT NULL,
  poll_interval_ms INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  lease_expires_at INTEGER,
  result TEXT
);
CREATE INDEX IF NOT EXISTS mcp_tasks_owner ON mcp_tasks (owner, position);
CREATE INDEX IF NOT EXISTS mcp_tasks_expiry ON mcp_tasks (expires_at);
`;

interface TaskRow extends McpTaskRow {
  position: number;
}

/**
 * Opens (creating if needed) a SQLite task store; throws `MissingPeerError` when better-sqlite3 is not installed,
 * {@link RunStoreError} when it cannot be loaded or the file cannot be opened.
 */
export async function openSqliteTaskStore(options: SqliteTaskStoreOptions = {}): Promise<McpTaskStore> {
  const path = options.path ?? defaultStatePath();
  const Database = await loadBetterSqlite3('openSqliteTaskStore');
  let db: BetterSqlite3.Database;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    db = new Database(path, { timeout: 10_000 });
    if (path !== ':memory:') restrictToOwner(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
  } catch (error) {
    throw new RunStoreError(`Cannot open the task store at "${path}": ${(error as Error).message}. Check that the folder is writable, or pass another path.`, {
      cause: error,
    });
  }
  return new SqliteTaskStore(db);
}

const COLUMNS = `position, task_id, owner, tool_name, status, status_message, ttl_ms, poll_interval_ms, created_at, updated_at, expires_at, lease_expires_at, result`;

class SqliteTaskStore implements McpTaskStore {
  readonly #db: BetterSqlite3.Database;
  readonly #statements;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
    this.#statements = {
      getSecret: db.prepare<[], { value: Buffer }>(`SELECT value FROM meta WHERE key = 'secret'`),
      putSecret: db.prepare(`INSERT OR IGNORE INTO meta (key, value) VALUES ('secret', ?)`),
      countOwned: db.prepare<[string, number], { count: number }>(`SELECT count(*) AS count FROM mcp_tasks WHERE owner = ? AND expires_at >= ?`),
      insert: db.prepare(
        `INSERT INTO mcp_tasks (task_id, owner, tool_name, status, status_message, ttl_ms, poll_interval_ms, created_at, updated_at, expires_at, lease_expires_at, result)
         VALUES (@taskId, @owner, @toolName, @status, @statusMessage, @ttlMs, @pollIntervalMs, @createdAt, @updatedAt, @expiresAt, @leaseExpiresAt, @result)`,
      ),
      get: db.prepare<[string, number], TaskRow>(`SELECT ${COLUMNS} FROM mcp_tasks WHERE task_id = ? AND expires_at >= ?`),
      renew: db.prepare(`UPDATE mcp_tasks SET lease_expires_at = ? WHERE task_id = ? AND status IN ('working', 'input_required')`),
      list: db.prepare<[string, number, number, number], TaskRow>(
        `SELECT ${COLUMNS} FROM mcp_tasks WHERE owner = ? AND position > ? AND expires_at >= ? ORDER BY position LIMIT ?`,
      ),
      deleteExpired: db.prepare(`DELETE FROM mcp_tasks WHERE expires_at < ?`),
    };
  }

  async getSecret(): Promise<Uint8Array> {
    const existing = this.#statements.getSecret.get();
    if (existing) return new Uint8Array(existing.value);
    // INSERT OR IGNORE then read back: two processes racing here end with one secret.
    this.#statements.putSecret.run(randomBytes(32));
    return new Uint8Array(this.#statements.getSecret.get()!.value);
  }

  async createTask(task: StoredMcpTask, maxPerOwner: number): Promise<boolean> {
    // One transaction: another process cannot add the owner's last allowed task between the count and the insert.
    return this.#db
      .transaction(() => {
        this.#statements.deleteExpired.run(task.createdAt);
        if (this.#statements.countOwned.get(task.owner, task.createdAt)!.count >= maxPerOwner) return false;
        this.#statements.insert.run({
          ...task,
          statusMessage: task.statusMessage ?? null,
          leaseExpiresAt: task.leaseExpiresAt ?? null,
          result: task.result ?? null,
        });
        return true;
      })
      .immediate();
  }

  async getTask(taskId: string, now: number): Promise<StoredMcpTask | undefined> {
    const row = this.#statements.get.get(taskId, now);
    return row && taskFromRow(row, 'the store file is damaged');
  }

  async updateTask(taskId: string, change: McpTaskChange, from: readonly McpTaskStatus[]): Promise<boolean> {
    const placeholders = from.map(() => '?').join(', ');
    const sets = ['status = ?', 'updated_at = ?', 'expires_at = ?'];
    const values: unknown[] = [change.status, change.updatedAt, change.expiresAt];
    if (change.statusMessage !== undefined) {
      sets.push('status_message = ?');
      values.push(change.statusMessage);
    }
    if (change.result !== undefined) {
      sets.push('result = ?');
      values.push(change.result);
    }
    if (isFinalTaskStatus(change.status)) sets.push('lease_expires_at = NULL');
    const statement = this.#db.prepare(`UPDATE mcp_tasks SET ${sets.join(', ')} WHERE task_id = ? AND expires_at >= ? AND status IN (${placeholders})`);
    return statement.run(...values, taskId, change.updatedAt, ...from).changes === 1;
  }

  async renewLeases(taskIds: readonly string[], leaseExpiresAt: number): Promise<void> {
    this.#db.transaction(() => {
      for (const taskId of taskIds) this.#statements.renew.run(leaseExpiresAt, taskId);
    })();
  }

  async listTasks(owner: string, options: { cursor?: string; limit: number; now: number }): Promise<McpTaskPage> {
    const rows = this.#statements.list.all(owner, taskCursorPosition(options.cursor) ?? 0, options.now, options.limit + 1);
    const tasks = rows.slice(0, options.limit).map((row) => taskFromRow(row, 'the store file is damaged'));
    return rows.length > options.limit ? { tasks, nextCursor: taskCursor(rows[options.limit - 1]!.position) } : { tasks };
  }

  async deleteExpired(now: number): Promise<number> {
    return this.#statements.deleteExpired.run(now).changes;
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
