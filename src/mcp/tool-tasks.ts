/**
 * Tasks for long-running tools (MCP 2025-11-25 tasks, the SDK's experimental API): a `tools/call` that carries `task`
 * for a tool defined `longRunning` is answered at once with the task, and the call runs on in the background through
 * the server's one call path (validation, policy, confirmation, limits, the effect gate, the record); its result, the
 * same `CallToolResult` an inline call gets, is kept in the session's task store for `tasks/result`. The SDK answers
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` from that store and sends `notifications/tasks/status`;
 * this module makes a cancellation abort the call's signal, so a write still waiting for its turn never runs.
 * @module
 */
import type { TaskMessageQueue, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  CreateTaskResult,
  RequestId,
  ServerCapabilities,
  ServerNotification,
  ServerRequest,
  Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolLogger } from '../tools/index.js';
import { createMemoryTaskStore } from '../stores/mcp-task-store.js';
import { SessionMessageQueue, SessionTaskStore, type SessionTaskStoreOptions } from './session-task-store.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type RequestTaskStore = NonNullable<Extra['taskStore']>;

/** The task a background call runs for, by the handler extra it runs with. */
const taskCalls = new WeakMap<Extra, { taskId: string; store: RequestTaskStore }>();

/** The server's `tasks` capability when it serves a long-running tool: task-augmented `tools/call`, `tasks/list`, `tasks/cancel`. */
export const TOOL_TASK_CAPABILITIES: NonNullable<ServerCapabilities['tasks']> = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** How long a task and its result are kept when the client asks for no `ttl`, and the most it may ask for, in ms. */
export const DEFAULT_TASK_TTL_MS = 60 * 60_000;
export const MAX_TASK_TTL_MS = 24 * 60 * 60_000;
/** The `pollInterval` suggested to clients, in ms. */
const TASK_POLL_INTERVAL_MS = 1000;

export interface ToolTasksOptions extends Omit<SessionTaskStoreOptions, 'memoryStore'> {
  /** The server, read when a task starts: the store is made first, since the server is built with it. */
  server: () => Server;
  logger: ToolLogger;
}

/** One session's tasks: its view of the task store and the calls it runs as tasks. */
export class ToolTasks {
  readonly #running = new Map<string, AbortController>();
  readonly #store: SessionTaskStore;
  readonly #queue = new SessionMessageQueue();
  readonly #options: ToolTasksOptions;

  constructor(options: ToolTasksOptions) {
    this.#options = options;
    this.#store = new SessionTaskStore({ ...options, memoryStore: createMemoryTaskStore });
  }

  /** The store the server answers task requests from (`ProtocolOptions.taskStore`). */
  get store(): TaskStore {
    return this.#store;
  }

  /** Where a task's requests to the client wait for its `tasks/result` (`ProtocolOptions.taskMessageQueue`). */
  get queue(): TaskMessageQueue {
    return this.#queue;
  }

  /**
   * Creates the task and starts `answer` in the background with the task's own signal (aborted by `tasks/cancel`, or
   * the session's end when the session keeps its own store; not by the request, which is answered now) and
   * notifications sent on the session's stream (the request's own stream closes with this answer). Returns the task
   * for the `tools/call` result.
   */
  async start(extra: Extra, toolName: string, answer: (taskExtra: Extra) => Promise<CallToolResult>): Promise<CreateTaskResult> {
    const store = extra.taskStore;
    // The server declares the capability and sets the store together, so the SDK always hands the request a store.
    if (store === undefined) throw new Error('the task store is missing');
    const task = await store.createTask({ ttl: taskTtl(extra.taskRequestedTtl), pollInterval: TASK_POLL_INTERVAL_MS });
    const controller = new AbortController();
    this.#running.set(task.taskId, controller);
    const sendNotification: Extra['sendNotification'] = async (notification) => {
      // A task that outlives its session (a shared store) has nobody to notify once the session ended.
      await this.#options
        .server()
        .notification(notification)
        .catch(() => {});
    };
    const taskExtra: Extra = { ...extra, signal: controller.signal, sendNotification };
    taskCalls.set(taskExtra, { taskId: task.taskId, store });
    const answered = this.#store.running(task.taskId, controller, answer(taskExtra));
    void this.#finish(task.taskId, toolName, controller.signal, store, answered);
    return { task };
  }

  /**
   * The session ended. With the session's own store, every task still running ends and the stored ones are dropped
   * (nobody can fetch their results); with a shared store they run on and stay until their ttl.
   */
  close(): void {
    if (!this.#store.shared) for (const controller of this.#running.values()) controller.abort(new Error('the MCP session closed'));
    this.#running.clear();
    this.#store.close();
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
      if (!signal.aborted) this.#options.logger.error(`the task of "${toolName}" (task ${taskId}) failed inside the server`, { toolName, error });
      status = 'failed';
      result = { content: [{ type: 'text', text: taskFailedMessage(toolName) }], isError: true };
    } finally {
      this.#running.delete(taskId);
    }
    try {
      // Stored only if the task still runs: a cancellation that won the race keeps the task `cancelled`.
      await store.storeTaskResult(taskId, status, result);
    } catch {
      // The task ended meanwhile (cancelled, expired), or its session closed after the result was stored (the status notification had nowhere to go).
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
