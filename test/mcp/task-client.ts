/**
 * What the task tests share: a long-running tool that waits for the test's signal, and what they do as an MCP client
 * (call a tool as a task, poll it until it ends, read a result's text).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Task } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, type AnyTool } from '../../src/tools/index.js';

/** A promise the test settles: the long-running tools wait for it, so nothing sleeps for a set time. */
export function signalFromTest(): { promise: Promise<void>; give: () => void } {
  let give!: () => void;
  const promise = new Promise<void>((resolve) => (give = resolve));
  return { promise, give };
}

/** `build_report`, long-running: it answers `Report on <topic>: 3 findings.` and `tail` once `done` settles. */
export function reportTool(done: Promise<void>, tail = ''): AnyTool {
  return defineTool<{ topic: string }>({
    name: 'build_report',
    description: 'Builds a report on a topic; takes minutes.',
    effect: 'read',
    longRunning: true,
    inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'], additionalProperties: false },
    execute: async ({ topic }) => {
      await done;
      return `Report on ${topic}: 3 findings.${tail}`;
    },
  });
}

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
