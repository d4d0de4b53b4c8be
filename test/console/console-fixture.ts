/**
 * A console over a real run: two reads the model asked for in one turn (run in
 * parallel), one of which returns a `<script>` and an API key, then a refund
 * that waits for a person. The console's resume continues the run with the
 * same scripted model, which then answers "All done.".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryRunStore, resumeAgent, runAgent, type RunStore } from '../../src/agent/index.js';
import { startConsole, type ConsoleServer } from '../../src/cli/console/console-server.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/models/scripted/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';

/** A value the redactor knows (an OpenAI-style key): the record holds `[REDACTED]` in its place. */
export const SECRET = 'sk-proj-Q7wLx9VbT2mZk4RcY8nD3fHs6JpA1eGu';
/** What the hostile tool result carries; the page must show it as text. */
export const HOSTILE = `<script>document.title="owned"</script><img src=x onerror="document.title='owned'">`;

export interface ConsoleFixture {
  console: ConsoleServer;
  store: RunStore;
  runId: string;
  approvalId: string;
  refunds: string[];
  folder: string;
  close(): Promise<void>;
}

export async function startConsoleFixture(options: { evalDirs?: string[] } = {}): Promise<ConsoleFixture> {
  const folder = mkdtempSync(join(tmpdir(), 'tw-console-'));
  const recordDir = join(folder, 'runs');
  const store = createMemoryRunStore();
  const refunds: string[] = [];
  // Each read waits for the other to start, so the record shows them overlapping whatever the machine's speed.
  let arrived = 0;
  let release: () => void = () => {};
  const bothStarted = new Promise<void>((resolve) => (release = resolve));
  const read = async () => {
    if (++arrived === 2) release();
    await bothStarted;
    await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const tools = [
    defineTool<{ invoice: string }>({
      name: 'get_invoice',
      description: 'Reads an invoice.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'] },
      execute: async ({ invoice }) => {
        await read();
        return `invoice ${invoice}: $40 due`;
      },
    }),
    defineTool<{ customer: string }>({
      name: 'get_notes',
      description: 'Reads the support notes of a customer.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { customer: { type: 'string' } }, required: ['customer'] },
      execute: async () => {
        await read();
        return `note: ${HOSTILE} key ${SECRET}`;
      },
    }),
    defineTool<{ invoice: string; amount: number }>({
      name: 'refund',
      description: 'Refunds an invoice.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { invoice: { type: 'string' }, amount: { type: 'number' } }, required: ['invoice', 'amount'] },
      confirm: true,
      summarize: ({ invoice, amount }) => `Refund $${amount} on invoice ${invoice}`,
      execute: ({ invoice }) => {
        refunds.push(invoice);
        return `refunded ${invoice}`;
      },
    }),
  ];
  const model = createScriptedModel([
    toolCallTurn([
      { id: 'c1', name: 'get_invoice', arguments: { invoice: 'INV-7' } },
      { id: 'c2', name: 'get_notes', arguments: { customer: 'acme' } },
    ]),
    toolCallTurn([{ id: 'c3', name: 'refund', arguments: { invoice: 'INV-7', amount: 40 } }]),
    textTurn('All done.'),
  ]);
  const runtime = { model, tools, store, recordDir, logger: silentLogger };
  const paused = await runAgent({ ...runtime, prompt: 'Refund what INV-7 is owed.' });
  if (paused.status !== 'awaiting_confirmation') throw new Error(`expected the run to wait for a confirmation, got ${paused.status}`);
  const server = await startConsole({
    store,
    runsDir: recordDir,
    ...(options.evalDirs ? { evalDirs: options.evalDirs } : {}),
    resume: (runId) => resumeAgent(runId, [], runtime),
  });
  return {
    console: server,
    store,
    runId: paused.runId,
    approvalId: paused.pending[0]!.approvalId,
    refunds,
    folder,
    close: async () => {
      await server.close();
      await server.idle();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
