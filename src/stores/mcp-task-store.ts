/**
 * Where an MCP server keeps its tasks (`createMcpServer({ taskStore })`, docs/mcp.md "Tasks"): the contract every task
 * store keeps, and the memory store. The server decides who may reach a task, seals its result and reports a task
 * whose process stopped; a store only keeps rows, and makes each status change conditional on the status it replaces,
 * so that of two racing changes (a result and a cancellation) exactly one wins in every store.
 * @module
 */
import { randomBytes } from '../shared/bytes.js';
import { RunStoreError } from '../agent/agent-errors.js';

/** A task's status, as MCP names it. The last three are final: a task in one of them never changes again. */
export type McpTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses of a task still running. */
export const RUNNING_TASK_STATUSES: readonly McpTaskStatus[] = ['working', 'input_required'];

/** One task as a store keeps it. Times are milliseconds since the epoch. */
export interface StoredMcpTask {
  taskId: string;
  /** Who may reach the task: the key of the identity whose token started it, or of the session that started it. */
  owner: string;
  toolName: string;
  status: McpTaskStatus;
  statusMessage?: string;
  /** How long the task is kept after it was created or reached its final status. */
  ttlMs: number;
  pollIntervalMs: number;
  createdAt: number;
  updatedAt: number;
  /** When the store may forget the task; a store never returns a task past it. */
  expiresAt: number;
  /** While the task runs: until when the process running it vouches that it still does (renewed while it runs). */
  leaseExpiresAt?: number;
  /** The call's result as JSON text (redacted, the originals sealed beside), once the task completed or failed. */
  result?: string;
}

/** A change of a task's status (with its result, when it ends). */
export interface McpTaskChange {
  status: McpTaskStatus;
  statusMessage?: string;
  result?: string;
  updatedAt: number;
  expiresAt: number;
}

/** A page of one owner's tasks, oldest first; `nextCursor` when more follow. */
export interface McpTaskPage {
  tasks: StoredMcpTask[];
  nextCursor?: string;
}

/**
 * The contract of an MCP task store. `createMemoryTaskStore` keeps tasks in the process; `openSqliteTaskStore` and
 * `createPostgresTaskStore` keep them across restarts and, for PostgreSQL, across the instances of a service.
 */
export interface McpTaskStore {
  /** A random secret the store keeps (made on first use): the key that seals results derives from it. */
  getSecret(): Promise<Uint8Array>;
  /** Adds `task` unless its owner already has `maxPerOwner` tasks not expired at `task.createdAt`; says whether it was added. */
  createTask(task: StoredMcpTask, maxPerOwner: number): Promise<boolean>;
  /** The task, unless there is none or it expired before `now`. */
  getTask(taskId: string, now: number): Promise<StoredMcpTask | undefined>;
  /** Applies `change` only if the task's status is one of `from` (and it has not expired); says whether it did. A final status clears the lease. */
  updateTask(taskId: string, change: McpTaskChange, from: readonly McpTaskStatus[]): Promise<boolean>;
  /** Moves the lease of each running task among `taskIds` to `leaseExpiresAt`. */
  renewLeases(taskIds: readonly string[], leaseExpiresAt: number): Promise<void>;
  /** `owner`'s tasks not expired at `now`, oldest first, `limit` at most, after `cursor` (a page's `nextCursor`). */
  listTasks(owner: string, options: { cursor?: string; limit: number; now: number }): Promise<McpTaskPage>;
  /** Forgets the tasks expired before `now`; returns how many. */
  deleteExpired(now: number): Promise<number>;
  close(): Promise<void>;
}

const FINAL_STATUSES: ReadonlySet<McpTaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Whether `status` is final: the task never changes again. */
export function isFinalTaskStatus(status: McpTaskStatus): boolean {
  return FINAL_STATUSES.has(status);
}

/** A stored status, checked: a row written by hand or by another program can hold anything. */
export function checkedTaskStatus(status: unknown, why: string): McpTaskStatus {
  if (status === 'working' || status === 'input_required' || isFinalTaskStatus(status as McpTaskStatus)) return status as McpTaskStatus;
  throw new RunStoreError(
    `A stored MCP task has the status ${JSON.stringify(status)}, which no task can have (${why}). Delete that task's row or restore the store from a backup.`,
  );
}

/** A page cursor: the position of the page's last task, as text the client hands back. */
export function taskCursor(position: number): string {
  return `p${position.toString(36)}`;
}

/** The position a cursor names; `undefined` for text no store made (a client's guess). */
export function taskCursorPosition(cursor: string | undefined): number | undefined {
  if (cursor === undefined || !/^p[0-9a-z]{1,11}$/.test(cursor)) return undefined;
  return parseInt(cursor.slice(1), 36);
}

/**
 * A task store in this process's memory. `createMcpServer` makes one per session when it is given none (the session's
 * tasks end with it); one made here and passed as `taskStore` is shared by every session of the server, so a task
 * outlives its session and can be read from a later one, until the process ends.
 */
export function createMemoryTaskStore(): McpTaskStore {
  return new MemoryTaskStore();
}

class MemoryTaskStore implements McpTaskStore {
  readonly #tasks = new Map<string, { task: StoredMcpTask; position: number }>();
  #secret: Uint8Array | undefined;
  #positions = 0;

  async getSecret(): Promise<Uint8Array> {
    return (this.#secret ??= randomBytes(32));
  }

  async createTask(task: StoredMcpTask, maxPerOwner: number): Promise<boolean> {
    await this.deleteExpired(task.createdAt);
    if (this.#tasks.has(task.taskId)) throw new Error(`a task with id ${task.taskId} exists already`);
    let owned = 0;
    for (const { task: kept } of this.#tasks.values()) if (kept.owner === task.owner) owned++;
    if (owned >= maxPerOwner) return false;
    this.#tasks.set(task.taskId, { task: { ...task }, position: ++this.#positions });
    return true;
  }

  async getTask(taskId: string, now: number): Promise<StoredMcpTask | undefined> {
    const kept = this.#tasks.get(taskId);
    return kept && kept.task.expiresAt >= now ? { ...kept.task } : undefined;
  }

  async updateTask(taskId: string, change: McpTaskChange, from: readonly McpTaskStatus[]): Promise<boolean> {
    const kept = this.#tasks.get(taskId);
    if (!kept || kept.task.expiresAt < change.updatedAt || !from.includes(kept.task.status)) return false;
    const { statusMessage, result, ...rest } = change;
    kept.task = { ...kept.task, ...rest, ...(statusMessage !== undefined ? { statusMessage } : {}), ...(result !== undefined ? { result } : {}) };
    if (isFinalTaskStatus(change.status)) delete kept.task.leaseExpiresAt;
    return true;
  }

  async renewLeases(taskIds: readonly string[], leaseExpiresAt: number): Promise<void> {
    for (const taskId of taskIds) {
      const kept = this.#tasks.get(taskId);
      if (kept && !isFinalTaskStatus(kept.task.status)) kept.task.leaseExpiresAt = leaseExpiresAt;
    }
  }

  async listTasks(owner: string, options: { cursor?: string; limit: number; now: number }): Promise<McpTaskPage> {
    const after = taskCursorPosition(options.cursor) ?? 0;
    const tasks: StoredMcpTask[] = [];
    let last = 0;
    for (const { task, position } of this.#tasks.values()) {
      if (position <= after || task.owner !== owner || task.expiresAt < options.now) continue;
      if (tasks.length === options.limit) return { tasks, nextCursor: taskCursor(last) };
      tasks.push({ ...task });
      last = position;
    }
    return { tasks };
  }

  async deleteExpired(now: number): Promise<number> {
    let deleted = 0;
    for (const [taskId, { task }] of this.#tasks) {
      if (task.expiresAt < now) {
        this.#tasks.delete(taskId);
        deleted++;
      }
    }
    return deleted;
  }

  async close(): Promise<void> {
    this.#tasks.clear();
  }
}

/** A task row as both SQL stores read it (PostgreSQL gives BIGINT columns as text). */
export interface McpTaskRow {
  task_id: string;
  owner: string;
  tool_name: string;
  status: string;
  status_message: string | null;
  ttl_ms: string | number;
  poll_interval_ms: string | number;
  created_at: string | number;
  updated_at: string | number;
  expires_at: string | number;
  lease_expires_at: string | number | null;
  result: string | null;
}

/** The task a SQL row holds; `damaged` says how a row with an impossible status came to be (for the error). */
export function taskFromRow(row: McpTaskRow, damaged: string): StoredMcpTask {
  return {
    taskId: row.task_id,
    owner: row.owner,
    toolName: row.tool_name,
    status: checkedTaskStatus(row.status, damaged),
    ...(row.status_message !== null ? { statusMessage: row.status_message } : {}),
    ttlMs: Number(row.ttl_ms),
    pollIntervalMs: Number(row.poll_interval_ms),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: Number(row.expires_at),
    ...(row.lease_expires_at !== null ? { leaseExpiresAt: Number(row.lease_expires_at) } : {}),
    ...(row.result !== null ? { result: row.result } : {}),
  };
}
