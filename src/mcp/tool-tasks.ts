/**
 * Tasks for long-running tools (MCP 2025-11-25 tasks, the SDK's experimental API): a `tools/call` that carries `task`
 * for a tool defined `longRunning` is answered at once with the task, and the call runs on in the background through
 * the server's one call path (validation, policy, confirmation, limits, the effect gate, the record); its result, the
 * same `CallToolResult` an inline call gets, is kept in the session's task store for `tasks/result`. The SDK answers
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` from that store and sends `notifications/tasks/status`;
 * this module makes a cancellation abort the call's signal, so a write still waiting for its turn never runs.
 * @module
 */
import type { CreateTaskOptions, QueuedMessage, TaskMessageQueue, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  CreateTaskResult,
  Request,
  RequestId,
  Result,
  ServerCapabilities,
  ServerNotification,
  ServerRequest,
  Task,
  Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { ToolLogger } from '../tools/index.js';
import { ProtocolError } from './protocol-error.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type RequestTaskStore = NonNullable<Extra['taskStore']>;

/** The task a background call runs for, by the handler extra it runs with. */
const taskCalls = new WeakMap<Extra, { taskId: string; store: RequestTaskStore }>();

/** The server's `tasks` capability when it serves a long-running tool: task-augmented `tools/call`, `tasks/list`, `tasks/cancel`. */
export const TOOL_TASK_CAPABILITIES: NonNullable<ServerCapabilities['tasks']> = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** How long a task and its result are kept when the client asks for no `ttl`, and the most it may ask for, in ms. */
export const DEFAULT_TASK_TTL_MS = 60 * 60_000;
export const MAX_TASK_TTL_MS = 24 * 60 * 60_000;
/** The most tasks one session keeps at once, running or ended (until their ttl); a task call past it is refused. */
export const MAX_TASKS_PER_SESSION = 1000;
/** The `pollInterval` suggested to clients, in ms. */
const TASK_POLL_INTERVAL_MS = 1000;

interface MemoryStores {
  InMemoryTaskStore: typeof InMemoryTaskStore;
  InMemoryTaskMessageQueue: typeof InMemoryTaskMessageQueue;
}
let memoryStores: Promise<MemoryStores> | undefined;
/** The SDK's memory store and queue, loaded on a server's first task: their module imports `node:crypto`, which nothing else here needs at load. */
const loadMemoryStores = (): Promise<MemoryStores> => (memoryStores ??= import('@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js'));

/** The SDK's memory store, made on first use, and told when a task is cancelled (the SDK's `tasks/cancel` only updates the status). */
class SessionTaskStore implements TaskStore {
  #memory: Promise<InMemoryTaskStore> | undefined;

  constructor(private readonly onCancelled: (taskId: string) => void) {}

  #store(): Promise<InMemoryTaskStore> {
    return (this.#memory ??= loadMemoryStores().then((stores) => new stores.InMemoryTaskStore()));
  }

  async createTask(taskParams: CreateTaskOptions, requestId: RequestId, request: Request, sessionId?: string): Promise<Task> {
    return (await this.#store()).createTask(taskParams, requestId, request, sessionId);
  }

  async getTask(taskId: string, sessionId?: string): Promise<Task | null> {
    return (await this.#store()).getTask(taskId, sessionId);
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result, sessionId?: string): Promise<void> {
    return (await this.#store()).storeTaskResult(taskId, status, result, sessionId);
  }

  async getTaskResult(taskId: string, sessionId?: string): Promise<Result> {
    return (await this.#store()).getTaskResult(taskId, sessionId);
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string): Promise<void> {
    await (await this.#store()).updateTaskStatus(taskId, status, statusMessage, sessionId);
    if (status === 'cancelled') this.onCancelled(taskId);
  }

  async listTasks(cursor?: string, sessionId?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    return (await this.#store()).listTasks(cursor, sessionId);
  }

  /** How many tasks the store keeps (running or ended, until their ttl). */
  async count(): Promise<number> {
    return (await this.#store()).getAllTasks().length;
  }

  /** Drops every task and its expiry timer. */
  cleanup(): void {
    void this.#memory?.then((store) => store.cleanup());
  }
}

/** The SDK's memory queue, made on first use. */
class SessionMessageQueue implements TaskMessageQueue {
  #memory: Promise<InMemoryTaskMessageQueue> | undefined;

  #queue(): Promise<InMemoryTaskMessageQueue> {
    return (this.#memory ??= loadMemoryStores().then((stores) => new stores.InMemoryTaskMessageQueue()));
  }

  async enqueue(taskId: string, message: QueuedMessage, sessionId?: string, maxSize?: number): Promise<void> {
    return (await this.#queue()).enqueue(taskId, message, sessionId, maxSize);
  }

  async dequeue(taskId: string, sessionId?: string): Promise<QueuedMessage | undefined> {
    return (await this.#queue()).dequeue(taskId, sessionId);
  }

  async dequeueAll(taskId: string, sessionId?: string): Promise<QueuedMessage[]> {
    return (await this.#queue()).dequeueAll(taskId, sessionId);
  }
}

/** One session's tasks: its store (in memory, with the session) and the signals of the calls still running. */
export class ToolTasks {
  readonly #running = new Map<string, AbortController>();
  readonly #store = new SessionTaskStore((taskId) => this.#running.get(taskId)?.abort(new Error('the client cancelled the task')));
  readonly #queue = new SessionMessageQueue();

  /** `server` is read when a task starts: the store is made first, since the server is built with it. */
  constructor(
    private readonly server: () => Server,
    private readonly logger: ToolLogger,
  ) {}

  /** The store the server answers task requests from (`ProtocolOptions.taskStore`). */
  get store(): TaskStore {
    return this.#store;
  }

  /** Where a task's requests to the client wait for its `tasks/result` (`ProtocolOptions.taskMessageQueue`). */
  get queue(): TaskMessageQueue {
    return this.#queue;
  }

  /**
   * Creates the task and starts `answer` in the background with the task's own signal (aborted by `tasks/cancel` or
   * the session's end, not by the request, which is answered now) and notifications sent on the session's stream (the
   * request's own stream closes with this answer). Returns the task for the `tools/call` result.
   */
  async start(extra: Extra, toolName: string, answer: (taskExtra: Extra) => Promise<CallToolResult>): Promise<CreateTaskResult> {
    const store = extra.taskStore;
    // The server declares the capability and sets the store together, so the SDK always hands the request a store.
    if (store === undefined) throw new Error('the task store is missing');
    // Every task and its result stay until their ttl: without a bound, one session could fill the process's memory.
    if ((await this.#store.count()) >= MAX_TASKS_PER_SESSION) throw new ProtocolError(ErrorCode.InvalidRequest, tooManyTasksMessage(toolName));
    const task = await store.createTask({ ttl: taskTtl(extra.taskRequestedTtl), pollInterval: TASK_POLL_INTERVAL_MS });
    const controller = new AbortController();
    this.#running.set(task.taskId, controller);
    const taskExtra: Extra = { ...extra, signal: controller.signal, sendNotification: (notification) => this.server().notification(notification) };
    taskCalls.set(taskExtra, { taskId: task.taskId, store });
    void this.#finish(task.taskId, toolName, controller.signal, store, answer(taskExtra));
    // A copy: the store's object changes as the call goes on, and the answer says where the task stood when it was made.
    return { task: { ...task } };
  }

  /** Ends every task still running (the session closed: nobody can fetch their results) and drops the stored ones. */
  close(): void {
    for (const controller of this.#running.values()) controller.abort(new Error('the MCP session closed'));
    this.#running.clear();
    this.#store.cleanup();
  }

  async #finish(
    taskId: string,
    toolName: string,
    signal: AbortSignal,
    store: NonNullable<Extra['taskStore']>,
    answered: Promise<CallToolResult>,
  ): Promise<void> {
    let status: 'completed' | 'failed' = 'completed';
    let result: CallToolResult;
    try {
      // A tool error or invalid arguments is a result the model reads (`isError`), as inline: the task completed.
      result = await answered;
    } catch (error) {
      // A cancelled call stops with its signal's reason; nothing is stored for it, the task is already `cancelled`.
      if (!signal.aborted) this.logger.error(`the task of "${toolName}" (task ${taskId}) failed inside the server`, { toolName, error });
      status = 'failed';
      result = { content: [{ type: 'text', text: taskFailedMessage(toolName) }], isError: true };
    } finally {
      this.#running.delete(taskId);
    }
    try {
      const task = await store.getTask(taskId);
      if (task.status === 'cancelled' || task.status === 'completed' || task.status === 'failed') return;
      await store.storeTaskResult(taskId, status, result);
    } catch {
      // The task expired or its session closed meanwhile (or was cancelled between the two steps): nobody can read the result.
    }
  }
}

/** Where a request to the client goes: on the stream of the call's own request, or queued for its task's `tasks/result`. */
export type ClientRequestRoute = { relatedRequestId: RequestId } | { relatedTask: { taskId: string } };

/**
 * Sends a request to the client for a call (its confirmation, the tool's elicitation or sampling). An inline call's goes
 * on the stream of its own request. A task's request was answered long ago: the request is queued for the client's
 * `tasks/result`, and the task is `input_required` until the answer comes (MCP tasks, "Input Required Status").
 */
export async function askClient<T>(extra: Extra, send: (route: ClientRequestRoute) => Promise<T>): Promise<T> {
  const task = taskCalls.get(extra);
  if (task === undefined) return send({ relatedRequestId: extra.requestId });
  await task.store.updateTaskStatus(task.taskId, 'input_required');
  try {
    return await send({ relatedTask: { taskId: task.taskId } });
  } finally {
    try {
      if ((await task.store.getTask(task.taskId)).status === 'input_required') await task.store.updateTaskStatus(task.taskId, 'working');
    } catch {
      // The task ended meanwhile (cancelled, expired): its status stays as it is.
    }
  }
}

function taskTtl(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested) || requested <= 0) return DEFAULT_TASK_TTL_MS;
  return Math.min(requested, MAX_TASK_TTL_MS);
}

function tooManyTasksMessage(toolName: string): string {
  return `The call to "${toolName}" was not started as a task: this session already keeps ${MAX_TASKS_PER_SESSION} tasks, the most it keeps until their ttl ends. Call it without "task", ask later tasks for a shorter ttl, or open a new session.`;
}

function taskFailedMessage(toolName: string): string {
  return `The task calling "${toolName}" failed inside the server, so its result is unknown. Check whether it took effect before calling it again.`;
}

/** A tool's descriptor without `execution` (a server that keeps no tasks: `tasks: false`). */
export function withoutTaskSupport(tool: McpTool): McpTool {
  const { execution: _execution, ...rest } = tool;
  return rest;
}

/** The answer to a task-augmented `tools/call` for a tool that is not long-running: MCP's -32601 (Method not found). */
export function notTaskCapableMessage(toolName: string): string {
  return `Tool "${toolName}" cannot be called as a task (its execution.taskSupport is "forbidden"): call it again without "task".`;
}
