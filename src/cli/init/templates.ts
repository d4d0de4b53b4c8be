/**
 * The files `toolwright init` writes, as string constants so that they ship in
 * `dist` with the CLI. They import the package by its public names (`toolwright`,
 * `toolwright/test`), as a user's project does. `src/cli/init/init.test.ts` writes
 * them into a temporary project, lints the pack and runs the scaffold's own test.
 * @module
 */

/** How the scaffold's input schemas are written: Zod 4 or JSON Schema 2020-12. */
export type ScaffoldSchemaKind = 'zod' | 'json';

/** The opening comment of both `tools.ts` variants. */
const PACK_HEADER = `/**
 * A toolwright tool pack: one read tool and one write tool over an in-memory
 * to-do list. Replace the store with your own data; keep the descriptions
 * saying when to call each tool, and keep \`confirm\` on anything that changes data.
 * Check it with \`toolwright lint tools.ts\` (see TOOLWRIGHT.md).
 */
`;

/** The data both variants work on: the task type and an in-memory store. */
const TASK_STORE = `export interface Task {
  id: string;
  title: string;
  done: boolean;
}

/** Where the tools keep their data; swap it for your database or API client. */
export interface TaskStore {
  tasks: Map<string, Task>;
}

export function createTaskStore(): TaskStore {
  const seed: Task[] = [
    { id: 'task_001', title: 'Write the launch post', done: false },
    { id: 'task_002', title: 'Book the venue', done: true },
  ];
  return { tasks: new Map(seed.map((task) => [task.id, task])) };
}

`;

/** The end of both variants: `delete_task`'s body, the factory's return and the exported pack. */
const DELETE_AND_EXPORT = `    execute: ({ task_id }) => {
      const task = store.tasks.get(task_id);
      if (task === undefined) {
        throw new NotFoundError(\`no task has the id "\${task_id}"\`, { suggestion: 'Call list_tasks with status "all" to find the id.' });
      }
      store.tasks.delete(task_id);
      return { deleted: task_id, title: task.title };
    },
  });

  return [listTasks, deleteTask];
}

/** What \`toolwright lint\`, \`run\` and \`serve\` load. */
export const tools = createTools();
`;

/** `tools.ts` with Zod input schemas: `list_tasks` (read) and `delete_task` (write, confirmed). */
export const TOOLS_ZOD = `${PACK_HEADER}import { z } from 'zod';
import { NotFoundError, defineTool } from 'toolwright';

${TASK_STORE}/** The tools, bound to one store (tests pass a fresh one). */
export function createTools(store: TaskStore = createTaskStore()) {
  const listTasks = defineTool({
    name: 'list_tasks',
    title: 'List tasks',
    description: 'List the to-do tasks with their ids, titles and status. Call it when the user asks what is on the list, and before deleting a task, to find its id.',
    effect: 'read',
    inputSchema: z.strictObject({
      status: z.enum(['open', 'done', 'all']).describe('Which tasks to list: "open" (not done yet), "done", or "all".'),
    }),
    execute: ({ status }) => ({
      tasks: [...store.tasks.values()].filter((task) => status === 'all' || (status === 'done') === task.done),
    }),
  });

  const deleteTask = defineTool({
    name: 'delete_task',
    title: 'Delete task',
    description:
      'Delete one task from the to-do list for good. Only call it when the user has asked to delete that task; a person approves the deletion before it runs.',
    effect: 'write',
    confirm: true,
    summarize: ({ task_id }) => \`Delete task \${task_id}\`,
    inputSchema: z.strictObject({
      reason: z.string().min(3).max(500).describe("Why this task is being deleted (quote the user's request)."),
      task_id: z
        .string()
        .regex(/^task_[0-9]{3}$/)
        .describe('The id of the task to delete, as returned by list_tasks ("task_" and 3 digits).'),
    }),
${DELETE_AND_EXPORT}`;

/** `tools.ts` with JSON Schema input schemas: the same two tools, typed through `defineTool<Args>`. */
export const TOOLS_JSON_SCHEMA = `${PACK_HEADER}import { NotFoundError, defineTool } from 'toolwright';

${TASK_STORE}/** The tools, bound to one store (tests pass a fresh one). */
export function createTools(store: TaskStore = createTaskStore()) {
  const listTasks = defineTool<{ status: 'open' | 'done' | 'all' }>({
    name: 'list_tasks',
    title: 'List tasks',
    description: 'List the to-do tasks with their ids, titles and status. Call it when the user asks what is on the list, and before deleting a task, to find its id.',
    effect: 'read',
    inputSchema: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['open', 'done', 'all'], description: 'Which tasks to list: "open" (not done yet), "done", or "all".' },
      },
      required: ['status'],
      additionalProperties: false,
    },
    execute: ({ status }) => ({
      tasks: [...store.tasks.values()].filter((task) => status === 'all' || (status === 'done') === task.done),
    }),
  });

  const deleteTask = defineTool<{ reason: string; task_id: string }>({
    name: 'delete_task',
    title: 'Delete task',
    description:
      'Delete one task from the to-do list for good. Only call it when the user has asked to delete that task; a person approves the deletion before it runs.',
    effect: 'write',
    confirm: true,
    summarize: ({ task_id }) => \`Delete task \${task_id}\`,
    inputSchema: {
      type: 'object',
      properties: {
        reason: { type: 'string', minLength: 3, maxLength: 500, description: "Why this task is being deleted (quote the user's request)." },
        task_id: { type: 'string', pattern: '^task_[0-9]{3}$', description: 'The id of the task to delete, as returned by list_tasks ("task_" and 3 digits).' },
      },
      required: ['reason', 'task_id'],
      additionalProperties: false,
    },
${DELETE_AND_EXPORT}`;

/** `tools.test.ts`: drives the pack through `runAgent` with the scripted model, under `node:test`. */
export const TOOLS_TEST = `/**
 * Drives the tool pack through toolwright's real agent loop with a scripted
 * model: no API key, no network. Run it with \`npx tsx --test tools.test.ts\`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resumeAgent, runAgent } from 'toolwright';
import { lintTools } from 'toolwright/formats';
import { createMemoryRunStore } from 'toolwright/stores';
import { createScriptedModel, textTurn, toolCallTurn } from 'toolwright/test';
import { createTaskStore, createTools } from './tools.js';

test('the tools pass toolwright lint', () => {
  assert.deepEqual(lintTools(createTools()), []);
});

test('the read tool runs at once', async () => {
  const model = createScriptedModel([toolCallTurn([{ name: 'list_tasks', arguments: { status: 'open' } }]), textTurn('One task is open.')]);
  const result = await runAgent({ model, tools: createTools(), prompt: 'What is still open?', store: createMemoryRunStore() });
  assert.equal(result.status, 'completed');
  assert.equal(result.text, 'One task is open.');
  // What the model read back from the tool:
  assert.match(JSON.stringify(model.requests[1]?.messages.at(-1)), /Write the launch post/);
});

/** Asks to delete task_001 and returns the run paused on its confirmation, with what resuming needs. */
async function pausedDeletion(answer: string) {
  const store = createTaskStore();
  const tools = createTools(store);
  const runStore = createMemoryRunStore();
  const model = createScriptedModel([
    toolCallTurn([{ name: 'delete_task', arguments: { reason: 'User said: "delete the launch post task"', task_id: 'task_001' } }]),
    textTurn(answer),
  ]);
  const paused = await runAgent({ model, tools, prompt: 'Delete the launch post task.', store: runStore });
  if (paused.status !== 'awaiting_confirmation') assert.fail(\`expected the run to wait for a confirmation, got \${paused.status}\`);
  const [pending] = paused.pending;
  assert.ok(pending);
  return { store, tools, runStore, model, paused, pending };
}

test('the write tool waits for a person, then runs once approved', async () => {
  const { store, tools, runStore, model, paused, pending } = await pausedDeletion('Deleted.');
  // What the person is asked to approve (the tool's summarize):
  assert.equal(pending.summary, 'Delete task task_001');
  assert.ok(store.tasks.has('task_001'), 'nothing is deleted before the approval');

  const approved = await resumeAgent(paused.runId, [{ token: pending.token, decision: 'approve' }], { model, tools, store: runStore });
  assert.equal(approved.status, 'completed');
  assert.equal(approved.text, 'Deleted.');
  assert.equal(store.tasks.has('task_001'), false);
});

test('a denied write does not run', async () => {
  const { store, tools, runStore, model, paused, pending } = await pausedDeletion('I did not delete it.');

  const denied = await resumeAgent(paused.runId, [{ token: pending.token, decision: 'deny', reason: 'not now' }], { model, tools, store: runStore });
  assert.equal(denied.status, 'completed');
  assert.ok(store.tasks.has('task_001'));
});
`;
