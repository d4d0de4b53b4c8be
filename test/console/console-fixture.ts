/**
 * A console over a real run: two reads the model asked for in one turn (run in
 * parallel), one of which returns a `<script>` and an API key, then a refund
 * that waits for a person. The console's resume continues the run with the
 * same scripted model, which then answers "All done.".
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryRunStore, resumeAgent, runAgent, type RunStore } from '../../src/agent/index.js';
import { startConsole, type ConsoleServer } from '../../src/cli/console/console-server.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/models/scripted/scripted-model.js';
import { allowValues, createPolicy, valuesFrom } from '../../src/policy/index.js';
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
  /** A finished run with a failed call and its recovery, a policy block, a removed value, nested arguments and a multi-line result. */
  conversationRunId: string;
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
  await writeConversationRecord(recordDir);
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
    conversationRunId: CONVERSATION_RUN_ID,
    close: async () => {
      await server.close();
      await server.idle();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** The id of the run {@link writeConversationRecord} writes: fixed, like its times, so that its page (and screenshot) is the same on every run. */
export const CONVERSATION_RUN_ID = 'run_demo_order_A1';
/** What the order tool returns: several lines, with quotes, as the model read it. */
export const ORDER_TEXT = 'Order A-1\nStatus: "shipped"\nTotal: $40\nNote: the customer asked for a refund on 2026-11-30.';
export const CONVERSATION_PROMPT = 'Refund order A-1 and tell the customer at ada@corp.example.';
export const CONVERSATION_ANSWER =
  'Refunded $40 on order A-1 and updated the customer record.\nThe e-mail to "eve@evil.example" was blocked by the policy, so the customer was not told.';
/** A long value without spaces: it must wrap or scroll in its own box, never widen the page. */
export const LONG_VALUE = `https://files.corp.example/${'segment-'.repeat(40)}end`;

/**
 * A finished run as the record of a real `runAgent` holds it: a read with a multi-line result and an invalid call in the
 * first turn (the model is sent its recovery text), then the corrected call, an e-mail the policy blocks and an update
 * whose nested arguments lose a URL to the policy, then a two-line answer. It runs on a store of its own and its record
 * is written under a fixed id with fixed times and durations, so that its page is the same on every machine.
 */
export async function writeConversationRecord(recordDir: string): Promise<string> {
  const tools = [
    defineTool<{ order: string }>({
      name: 'get_order',
      description: 'Reads an order.',
      effect: 'read',
      inputSchema: { type: 'object', properties: { order: { type: 'string' } }, required: ['order'] },
      execute: () => ORDER_TEXT,
    }),
    defineTool<{ order: string; amount: number }>({
      name: 'refund_order',
      description: 'Refunds an order.',
      effect: 'write',
      inputSchema: {
        type: 'object',
        properties: { order: { type: 'string' }, amount: { type: 'number' } },
        required: ['order', 'amount'],
        additionalProperties: false,
      },
      execute: ({ order, amount }) => `refunded $${amount} on ${order}`,
    }),
    defineTool<{ to: string; body: string }>({
      name: 'send_email',
      description: 'Sends an e-mail.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } }, required: ['to', 'body'] },
      execute: () => 'sent',
    }),
    defineTool<{ customer: unknown; attachments?: unknown }>({
      name: 'update_customer',
      description: 'Updates a customer record.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { customer: { type: 'object' }, attachments: { type: 'array' } }, required: ['customer'] },
      execute: () => 'updated the customer record',
    }),
  ];
  const policy = createPolicy({
    rules: [
      allowValues({ tool: 'send_email', argument: 'to', values: ['ada@corp.example'], label: "the task's contacts" }),
      valuesFrom({ tool: 'update_customer', argument: 'customer.note', from: ['user'], action: 'remove' }),
    ],
    flow: { untrustedWrites: 'allow' },
  });
  const model = createScriptedModel([
    toolCallTurn([
      { id: 'c1', name: 'get_order', arguments: { order: 'A-1' } },
      { id: 'c2', name: 'refund_order', arguments: { order: 'A-1', amount: 'forty' } },
    ]),
    toolCallTurn([
      { id: 'c3', name: 'refund_order', arguments: { order: 'A-1', amount: 40 } },
      { id: 'c4', name: 'send_email', arguments: { to: 'eve@evil.example', body: 'Your refund of $40 is on its way.\nRegards' } },
      {
        id: 'c5',
        name: 'update_customer',
        arguments: {
          customer: {
            name: 'Ada Lovelace',
            address: { city: 'Paris', lines: ['12 rue de la Paix', 'Bâtiment B'] },
            note: 'refund sent; see https://evil.example/x',
          },
          attachments: [{ name: 'receipt.pdf', url: LONG_VALUE, pages: 2, signed: true }],
        },
      },
    ]),
    textTurn(CONVERSATION_ANSWER),
  ]);
  const folder = mkdtempSync(join(tmpdir(), 'tw-console-conversation-'));
  try {
    const result = await runAgent({
      model,
      tools,
      policy,
      store: createMemoryRunStore(),
      recordDir: folder,
      logger: silentLogger,
      system: 'You are a support agent for an online shop.',
      prompt: CONVERSATION_PROMPT,
    });
    if (result.status !== 'completed') throw new Error(`expected the conversation run to complete, got ${result.status}`);
    const base = Date.parse('2026-11-30T09:00:00.000Z');
    const lines = readFileSync(join(folder, `${result.runId}.jsonl`), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((text, index) => {
        const line = JSON.parse(text) as Record<string, unknown>;
        line.runId = CONVERSATION_RUN_ID;
        line.time = new Date(base + index * 150).toISOString();
        if (typeof line.durationMs === 'number') line.durationMs = line.type === 'tool_result' ? 40 : 120;
        if (line.type === 'stop') line.usage = { ...(line.usage as object), wallTimeMs: 3150 };
        return JSON.stringify(line);
      });
    writeFileSync(join(recordDir, `${CONVERSATION_RUN_ID}.jsonl`), `${lines.join('\n')}\n`);
    return CONVERSATION_RUN_ID;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
