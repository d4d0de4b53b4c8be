/**
 * Calls a remote tool that the server offers as task-capable (`execution.taskSupport` `optional` or `required`) as a
 * task (MCP 2025-11-25, "Tasks"): the call is answered at once, polled with `tasks/get` at the server's interval, and its
 * result fetched with `tasks/result` when it ends. It waits as long as the caller's signal allows (the run's wall-time
 * budget, the tool's timeout), not the per-request timeout, which bounds each request; when the signal aborts, the task
 * is cancelled on the server too (`tasks/cancel`), so a write waiting there does not run.
 *
 * The SDK client's `callToolStream` is not used: once a task is `input_required` it waits for the end inside one
 * `tasks/result` request, so a task that needs longer than the per-request timeout after that fails as a timeout while
 * it still runs (and a model would call it again), and it reports a `failed` or `cancelled` task as a bare
 * `Task <id> failed`, which tells a model nothing it can act on.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResultSchema, CreateTaskResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, ServerCapabilities, Task, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '../tools/index.js';

/** The poll interval when the server suggests none (the SDK client's default). */
const DEFAULT_POLL_INTERVAL_MS = 1000;
/** The most of the server's own words (status message, result text) quoted to the model when its task ends without a result. */
const MAX_QUOTED_CHARS = 500;

/**
 * How to call a remote tool: as a task when the tool allows one (`execution.taskSupport` `optional` or `required`) and
 * the server declares task-augmented `tools/call` (`capabilities.tasks.requests.tools.call`), which MCP requires before
 * a client sends one; inline otherwise; `unusable` when the tool requires a task the server does not declare it makes.
 */
export function remoteCallMode(descriptor: McpTool, capabilities: ServerCapabilities | undefined): 'task' | 'inline' | 'unusable' {
  const support = descriptor.execution?.taskSupport;
  if (support !== 'optional' && support !== 'required') return 'inline';
  if (capabilities?.tasks?.requests?.tools?.call !== undefined) return 'task';
  return support === 'required' ? 'unusable' : 'inline';
}

/** Why a tool {@link remoteCallMode} finds `unusable` is left out of an import. */
export const UNUSABLE_TASK_TOOL =
  'its execution.taskSupport is "required", but the server does not declare task-augmented tools/call (capabilities.tasks.requests.tools.call), so it can be called neither as a task nor inline; the server has to declare that capability.';

/**
 * Calls `name` as a task and returns its result. Throws a `ToolError` that says what happened and what to do when the
 * server ends the task `failed` or `cancelled`; the SDK's error when the task cannot be made or reached; and, after
 * cancelling the task on the server, whatever stopped the wait when the signal aborts.
 */
export async function callRemoteTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: RequestOptions & { signal: AbortSignal },
  meta?: { _meta: Record<string, string> },
): Promise<CallToolResult> {
  let taskId: string | undefined;
  try {
    const created = await client.request({ method: 'tools/call', params: { name, arguments: args, ...meta } }, CreateTaskResultSchema, {
      ...options,
      task: {},
    });
    let task: Task = created.task;
    taskId = task.taskId;
    for (;;) {
      if (task.status === 'completed') return await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, options);
      if (task.status === 'failed' || task.status === 'cancelled') return await endedWithoutResult(client, task, options);
      if (task.status === 'input_required') {
        // `tasks/result` carries the server's requests (elicitation, sampling) to this client and answers when the task
        // ends. Its per-request timeout is not the task's end: the task is polled again, under the caller's signal.
        try {
          const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, options);
          task = await client.experimental.tasks.getTask(taskId, options);
          if (task.status === 'completed') return result;
          continue;
        } catch (error) {
          if (options.signal.aborted || !(error instanceof McpError && error.code === ErrorCode.RequestTimeout)) throw error;
        }
      } else {
        await pause(task.pollInterval ?? DEFAULT_POLL_INTERVAL_MS, options.signal);
      }
      options.signal.throwIfAborted();
      task = await client.experimental.tasks.getTask(taskId, options);
    }
  } catch (error) {
    // Stopped here (the run's deadline, the caller): the server's task is stopped too, best effort.
    if (options.signal.aborted && taskId !== undefined) await client.experimental.tasks.cancelTask(taskId).catch(() => {});
    throw error;
  }
}

/**
 * The error for a task the server ended without a result: what happened, in the server's words where it gave some, and
 * what to do. Retryable, unlike a tool's own failure: the same call may well succeed, once its effect is checked.
 */
async function endedWithoutResult(client: Client, task: Task, options: RequestOptions): Promise<never> {
  const server = client.getServerVersion()?.name ?? 'server';
  const status = task.statusMessage ? ` (${quote(task.statusMessage)})` : '';
  if (task.status === 'failed') {
    // A failed task may still hold the server's answer (often an `isError` result saying why); it is quoted when there is one.
    const said = await client.experimental.tasks
      .getTaskResult(task.taskId, CallToolResultSchema, options)
      .then((result) => textOf(result))
      .catch(() => '');
    throw new ToolError(
      `the MCP server "${server}" reports that the task running this call (task ${quote(task.taskId)}) failed${status}${said ? `, saying: ${quote(said)}` : ''}`,
      {
        kind: 'failed',
        retryable: true,
        suggestion: 'Whether it took effect is unknown: check before calling it again.',
      },
    );
  }
  throw new ToolError(
    `the MCP server "${server}" cancelled the task running this call (task ${quote(task.taskId)}) before it ended${status}, and returned no result`,
    {
      kind: 'failed',
      retryable: true,
      suggestion: 'Part of its work may have run: check what took effect before calling it again, or ask the person whether to.',
    },
  );
}

function textOf(result: CallToolResult): string {
  return result.content
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
}

function quote(text: string): string {
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
}

/** Waits `ms`, or less when `signal` aborts (the caller checks it). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
