/** What the task tests do as an MCP client: call a tool as a task, poll it until it ends, read a result's text. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Task } from '@modelcontextprotocol/sdk/types.js';

/** `tools/call` with `task`: the task the server answered with. */
export async function callAsTask(client: Client, name: string, args: Record<string, unknown>, ttl = 60_000): Promise<Task> {
  return (await client.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl } } }, CreateTaskResultSchema)).task;
}

/** Polls `tasks/get` as a client would, until the task is neither `working` nor `input_required`. */
export async function pollUntilDone(client: Client, taskId: string): Promise<Task> {
  for (;;) {
    const task = await client.experimental.tasks.getTask(taskId);
    if (task.status !== 'working' && task.status !== 'input_required') return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A result's text parts, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
