/**
 * Calls a remote tool that the server offers as task-capable (`execution.taskSupport` `optional` or `required`) as a
 * task, with the MCP SDK client's `callToolStream`: the call is answered at once, polled at the server's interval, and
 * its result fetched when it ends. It waits as long as the caller's signal allows (the run's wall-time budget, the
 * tool's timeout), not the per-request timeout, which bounds each poll; when the signal aborts, the task is cancelled
 * on the server too, so a write waiting there does not run.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';

/** Whether the server lets a client call the tool as a task. */
export function takesTasks(descriptor: McpTool): boolean {
  const support = descriptor.execution?.taskSupport;
  return support === 'optional' || support === 'required';
}

/** Calls `name` as a task and returns its result; throws the SDK's error when the task fails, is cancelled or cannot be reached. */
export async function callRemoteTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: RequestOptions & { signal: AbortSignal },
): Promise<CallToolResult> {
  let taskId: string | undefined;
  try {
    for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { ...options, task: {} })) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      else if (message.type === 'result') return message.result as CallToolResult;
      else if (message.type === 'error') throw message.error;
    }
    throw new Error(`the task of "${name}" ended without a result`);
  } catch (error) {
    // Stopped here (the run's deadline, the caller): the server's task is stopped too, best effort.
    if (options.signal.aborted && taskId !== undefined) await client.experimental.tasks.cancelTask(taskId).catch(() => {});
    throw error;
  }
}
