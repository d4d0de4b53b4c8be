/**
 * One MCP session's view of a task store (`McpTaskStore`), as the SDK's `TaskStore`: who may reach a task, results
 * sealed at rest, a task whose process stopped reported as failed, and the leases that tell a live task from one left
 * behind. Without a store of the server's options each session has its own memory store, ended with the session.
 * @module
 */
import type { CreateTaskOptions, QueuedMessage, TaskMessageQueue, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { CallToolResult, Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { createValueSealer, type ValueSealer } from '../agent/value-sealer.js';
import { randomHex } from '../shared/bytes.js';
import { unrefTimer } from '../shared/node-builtin.js';
import type { Redactor } from '../shared/redaction/index.js';
import { safeParseJson } from '../shared/safe-json.js';
import { RUNNING_TASK_STATUSES, isFinalTaskStatus, taskCursorPosition, type McpTaskStore, type StoredMcpTask } from '../stores/mcp-task-store.js';
import { ProtocolError } from './protocol-error.js';

/** The most tasks one owner (an identity, or a session without auth) keeps at once, running or ended (until their ttl); a task call past it is refused. */
export const MAX_TASKS_PER_OWNER = 1000;
/** How long a running task's lease lasts, and how often it is renewed while its call runs, in ms. */
export const TASK_LEASE_MS = 60_000;
const TASK_LEASE_RENEW_MS = 20_000;
/** Tasks per `tasks/list` page. */
const TASK_PAGE_SIZE = 50;

/** The calls running as tasks in this process, by task id (ids are random: unique across stores), with their signals' controllers. */
const runningHere = new Map<string, AbortController>();

/** Who is asking, for the task store: the session's identity when a token was checked, else the session. */
export interface TaskRequester {
  /** The key of the identity the session's token speaks for; `undefined` without auth. */
  identity(): string | undefined;
}

export interface SessionTaskStoreOptions {
  /** The server's store, shared by its sessions (and processes, for SQL stores); `undefined`: a memory store of the session's own. */
  shared: McpTaskStore | undefined;
  requester: TaskRequester;
  /** The run's redactor: what it takes out of a result is sealed, never stored in clear. */
  redactor: () => Redactor;
  /** The tool's effect, to say what an interrupted task means. */
  effectOf: (toolName: string) => 'read' | 'write' | undefined;
  /** Made on first use: the memory store a session without a shared store keeps. */
  memoryStore: () => McpTaskStore;
}

/** The SDK's `TaskStore` over a toolwright task store, for one session. */
export class SessionTaskStore implements TaskStore {
  readonly #options: SessionTaskStoreOptions;
  #own: McpTaskStore | undefined;
  #sealer: ValueSealer | undefined;

  constructor(options: SessionTaskStoreOptions) {
    this.#options = options;
  }

  /** Whether the session's tasks outlive it (a store of the server's options); else they end with it. */
  get shared(): boolean {
    return this.#options.shared !== undefined;
  }

  #store(): McpTaskStore {
    return this.#options.shared ?? (this.#own ??= this.#options.memoryStore());
  }

  #sealing(): ValueSealer {
    const store = this.#store();
    return (this.#sealer ??= createValueSealer(() => store.getSecret(), this.#options.redactor()));
  }

  #owner(sessionId: string | undefined): string {
    const identity = this.#options.requester.identity();
    return identity !== undefined ? `identity:${identity}` : `session:${sessionId ?? 'stdio'}`;
  }

  /**
   * Whether the requester may reach `task`. A task started under a token is its identity's alone. Without auth a task's
   * random id (128 bits) is its only key: any session of a store it shares may reach it by id, but only its own session lists it.
   */
  #reaches(task: StoredMcpTask, sessionId: string | undefined): boolean {
    const owner = this.#owner(sessionId);
    return task.owner === owner || (task.owner.startsWith('session:') && owner.startsWith('session:'));
  }

  /** The task, if the requester may reach it; a task whose process stopped while it ran is reported failed first. */
  async #read(taskId: string, sessionId: string | undefined): Promise<StoredMcpTask | undefined> {
    const store = this.#store();
    const now = Date.now();
    const task = await store.getTask(taskId, now);
    if (!task || !this.#reaches(task, sessionId)) return undefined;
    if (!isInterrupted(task, now)) return task;
    const result = await this.#sealed(interruptedResult(task.toolName, this.#options.effectOf(task.toolName)), taskId);
    const statusMessage = 'The server stopped while this task ran.';
    await store.updateTask(taskId, { status: 'failed', statusMessage, result, updatedAt: now, expiresAt: now + task.ttlMs }, RUNNING_TASK_STATUSES);
    return store.getTask(taskId, now);
  }

  async #sealed(result: Result, taskId: string): Promise<string> {
    return JSON.stringify(await this.#sealing().seal(result, resultBinding(taskId)));
  }

  async createTask(taskParams: CreateTaskOptions, _requestId: RequestId, request: Request, sessionId?: string): Promise<Task> {
    const now = Date.now();
    const ttlMs = taskParams.ttl ?? MAX_TASK_TTL_FALLBACK_MS;
    const toolName = typeof request.params?.name === 'string' ? request.params.name : 'the tool';
    const task: StoredMcpTask = {
      taskId: randomHex(16),
      owner: this.#owner(sessionId),
      toolName,
      status: 'working',
      ttlMs,
      pollIntervalMs: taskParams.pollInterval ?? 1000,
      createdAt: now,
      updatedAt: now,
      expiresAt: now + ttlMs,
      // A session's own memory store ends with the process: no other process could find the task left behind.
      ...(this.shared ? { leaseExpiresAt: now + TASK_LEASE_MS } : {}),
    };
    // Every task and its result stay until their ttl: without a bound, one client could fill the store.
    if (!(await this.#store().createTask(task, MAX_TASKS_PER_OWNER))) throw new ProtocolError(ErrorCode.InvalidRequest, tooManyTasksMessage(toolName));
    return wireTask(task);
  }

  async getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    const task = await this.#read(taskId, sessionId);
    return task ? wireTask(task) : null;
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result, sessionId?: string): Promise<void> {
    const task = await this.#read(taskId, sessionId);
    if (!task) throw new Error(`Task with ID ${taskId} not found`);
    const now = Date.now();
    const change = { status, result: await this.#sealed(result, taskId), updatedAt: now, expiresAt: now + task.ttlMs };
    if (!(await this.#store().updateTask(taskId, change, RUNNING_TASK_STATUSES))) {
      throw new Error(`Cannot store the result of task ${taskId}: it has ended already.`);
    }
  }

  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    const task = await this.#read(taskId, sessionId);
    if (!task) throw new Error(`Task with ID ${taskId} not found`);
    if (task.result === undefined) throw new Error(`Task ${taskId} has no result stored`);
    const parsed = safeParseJson(task.result);
    const result = parsed.success && isObject(parsed.value) ? await this.#sealing().unseal(parsed.value, resultBinding(taskId)) : undefined;
    if (result === undefined) {
      throw new ProtocolError(
        ErrorCode.InternalError,
        `The result of task ${taskId} could not be read back: the task store's secret changed, or its row was altered or copied from another store. Call the tool again.`,
      );
    }
    return result as Result;
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string): Promise<void> {
    const task = await this.#read(taskId, sessionId);
    if (!task) throw new Error(`Task with ID ${taskId} not found`);
    const now = Date.now();
    const expiresAt = isFinalTaskStatus(status) ? now + task.ttlMs : task.expiresAt;
    const change = { status, updatedAt: now, expiresAt, ...(statusMessage !== undefined ? { statusMessage } : {}) };
    if (!(await this.#store().updateTask(taskId, change, RUNNING_TASK_STATUSES))) {
      throw new Error(`Cannot update task ${taskId} to "${status}": it has ended already.`);
    }
    // Whichever session cancelled it, the call stops where it runs in this process (another process stops it at its next lease renewal).
    if (status === 'cancelled') runningHere.get(taskId)?.abort(new Error('the client cancelled the task'));
  }

  async listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    if (cursor !== undefined && taskCursorPosition(cursor) === undefined) {
      throw new Error(`the cursor ${JSON.stringify(cursor.slice(0, 40))} is not one this server gave; list again without a cursor`);
    }
    const page = await this.#store().listTasks(this.#owner(sessionId), { limit: TASK_PAGE_SIZE, now: Date.now(), ...(cursor !== undefined ? { cursor } : {}) });
    const tasks: Task[] = [];
    for (const listed of page.tasks) {
      const task = isInterrupted(listed, Date.now()) ? await this.#read(listed.taskId, sessionId) : listed;
      if (task) tasks.push(wireTask(task));
    }
    return page.nextCursor !== undefined ? { tasks, nextCursor: page.nextCursor } : { tasks };
  }

  /**
   * Runs a task's call: its controller is known to every session of this process (a cancellation from any of them
   * stops it), and, with a shared store, its lease is renewed while it runs.
   */
  async running<T>(taskId: string, controller: AbortController, call: Promise<T>): Promise<T> {
    runningHere.set(taskId, controller);
    const store = this.#options.shared;
    const stopRenewing = store ? leaseKeeper(store).keep(taskId) : undefined;
    try {
      return await call;
    } finally {
      runningHere.delete(taskId);
      stopRenewing?.();
    }
  }

  /** The session ended: with its own store, its tasks end too (nobody can fetch their results); a shared store keeps them. */
  close(): void {
    void this.#own?.close();
  }
}

/** The session's queue of requests for a task's `tasks/result` (an elicitation for a task waiting for input), in memory. */
export class SessionMessageQueue implements TaskMessageQueue {
  readonly #queues = new Map<string, QueuedMessage[]>();

  async enqueue(taskId: string, message: QueuedMessage, _sessionId?: string, maxSize?: number): Promise<void> {
    const queue = this.#queues.get(taskId) ?? [];
    if (maxSize !== undefined && queue.length >= maxSize)
      throw new Error(`Task message queue overflow: queue size (${queue.length}) exceeds maximum (${maxSize})`);
    queue.push(message);
    this.#queues.set(taskId, queue);
  }

  async dequeue(taskId: string): Promise<QueuedMessage | undefined> {
    const queue = this.#queues.get(taskId);
    const message = queue?.shift();
    if (queue?.length === 0) this.#queues.delete(taskId);
    return message;
  }

  async dequeueAll(taskId: string): Promise<QueuedMessage[]> {
    const queue = this.#queues.get(taskId) ?? [];
    this.#queues.delete(taskId);
    return queue;
  }
}

/** The ttl used when the SDK hands none (toolwright always sets one). */
const MAX_TASK_TTL_FALLBACK_MS = 60 * 60_000;

/** Renews the leases of one store's tasks running in this process, on one timer while any runs. */
class LeaseKeeper {
  readonly #tasks = new Set<string>();
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly store: McpTaskStore) {}

  keep(taskId: string): () => void {
    this.#tasks.add(taskId);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => void this.#renew(), TASK_LEASE_RENEW_MS);
      unrefTimer(this.#timer);
    }
    return () => {
      this.#tasks.delete(taskId);
      if (this.#tasks.size === 0 && this.#timer !== undefined) {
        clearInterval(this.#timer);
        this.#timer = undefined;
      }
    };
  }

  async #renew(): Promise<void> {
    const taskIds = [...this.#tasks];
    try {
      await this.store.renewLeases(taskIds, Date.now() + TASK_LEASE_MS);
      // A task another process cancelled (or found interrupted) has ended in the store: its call stops here too.
      for (const taskId of taskIds) {
        const task = await this.store.getTask(taskId, Date.now());
        if (!task || isFinalTaskStatus(task.status)) runningHere.get(taskId)?.abort(new Error('the task ended in the task store'));
      }
    } catch {
      // The store is unreachable for now: the next renewal tries again; a lease that lapses meanwhile reports the task failed.
    }
  }
}

const keepers = new WeakMap<McpTaskStore, LeaseKeeper>();
function leaseKeeper(store: McpTaskStore): LeaseKeeper {
  let keeper = keepers.get(store);
  if (!keeper) keepers.set(store, (keeper = new LeaseKeeper(store)));
  return keeper;
}

/** A running task whose lease lapsed and that runs in no call of this process: the process running it stopped. */
function isInterrupted(task: StoredMcpTask, now: number): boolean {
  return RUNNING_TASK_STATUSES.includes(task.status) && task.leaseExpiresAt !== undefined && task.leaseExpiresAt < now && !runningHere.has(task.taskId);
}

function interruptedResult(toolName: string, effect: 'read' | 'write' | undefined): CallToolResult {
  const text =
    effect === 'read'
      ? `The server stopped while the task calling "${toolName}" ran, so it has no result. Call the tool again.`
      : `The server stopped while the task calling "${toolName}" ran, so whether it took effect is unknown. It was not started again. Check whether it took effect before calling it again.`;
  return { content: [{ type: 'text', text }], isError: true };
}

/** What a sealed result is bound to: it unseals only as this task's. */
const resultBinding = (taskId: string): string => `mcp-task/${taskId}`;

function wireTask(task: StoredMcpTask): Task {
  return {
    taskId: task.taskId,
    status: task.status,
    ttl: task.ttlMs,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    pollInterval: task.pollIntervalMs,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tooManyTasksMessage(toolName: string): string {
  return `The call to "${toolName}" was not started as a task: ${MAX_TASKS_PER_OWNER} tasks are kept for this client already, the most kept until their ttl ends. Call it without "task", ask later tasks for a shorter ttl, or wait for earlier ones to expire.`;
}
