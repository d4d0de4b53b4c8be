/**
 * Where state goes when the caller says nothing: a library run (runAgent,
 * resumeAgent, listPendingConfirmations) writes nothing under the home folder
 * and still resumes a paused run in the same process, while `toolwright run`
 * keeps its state and records under $TOOLWRIGHT_HOME as it always has.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANA_ID } from '../../examples/subscriptions/index.js';
import { listPendingConfirmations, resumeAgent, runAgent } from '../../src/agent/index.js';
import { runRunCommand, type AgentCliIo } from '../../src/cli/commands/run.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/models/scripted/scripted-model.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { silentLogger } from '../../src/tools/tool-registry.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const home = mkdtempSync(join(tmpdir(), 'tw-defaults-'));
const saved = { HOME: process.env.HOME, TOOLWRIGHT_HOME: process.env.TOOLWRIGHT_HOME, OPENAI_API_KEY: process.env.OPENAI_API_KEY };
let server: ProviderServer;

beforeAll(async () => {
  // Both: `~` (homedir() reads HOME) and the override, so that neither default can hide a write elsewhere.
  process.env.HOME = join(home, 'user');
  process.env.TOOLWRIGHT_HOME = join(home, 'toolwright');
  process.env.OPENAI_API_KEY = 'sk-test-defaults-0123456789';
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(home, { recursive: true, force: true });
});

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
}

describe('library defaults', () => {
  it('a run that pauses for confirmation keeps its state in memory, writes no record, and resumes in the same process', async () => {
    const executed: string[] = [];
    const refund = defineTool<{ invoice: string }>({
      name: 'refund',
      description: 'Refunds an invoice.',
      effect: 'write',
      inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'] },
      confirm: true,
      summarize: ({ invoice }) => `Refund invoice ${invoice}`,
      execute: ({ invoice }) => {
        executed.push(invoice);
        return `refunded ${invoice}`;
      },
    });
    const model = createScriptedModel([toolCallTurn([{ id: 'c1', name: 'refund', arguments: { invoice: 'INV-1' } }]), textTurn('Refunded.')]);
    const paused = await runAgent({ model, tools: [refund], prompt: 'Refund INV-1.', logger: silentLogger });
    expect(paused.status).toBe('awaiting_confirmation');
    expect(paused.recordPath).toBeUndefined();
    if (paused.status !== 'awaiting_confirmation') return;
    expect((await listPendingConfirmations()).map((item) => item.runId)).toContain(paused.runId);

    const resumed = await resumeAgent(paused.runId, [{ token: paused.pending[0]!.token, decision: 'approve' }], {
      model,
      tools: [refund],
      logger: silentLogger,
    });
    expect(resumed).toMatchObject({ status: 'completed', text: 'Refunded.' });
    expect(executed).toEqual(['INV-1']);
    expect(filesUnder(home)).toEqual([]);
  });

  it('`toolwright run` still keeps its store and records under $TOOLWRIGHT_HOME', async () => {
    server.reset();
    server.enqueue({
      toolCalls: [{ id: 'call_1', name: 'create_refund', arguments: { reason: 'Asked for it', invoice_id: 'inv_000102', amount_cents: 2900 } }],
    });
    const io: AgentCliIo = { out: () => {}, err: () => {} };
    const result = await runRunCommand(
      `Refund Ana's January invoice (user ${ANA_ID}).`,
      { model: 'openai:gpt-4o-mini', baseUrl: server.openaiBaseURL, tools: 'examples/subscriptions/index.ts', interactive: false, cwd: root },
      io,
    );
    expect(result.status).toBe('awaiting_confirmation');
    expect(result.recordPath).toBe(join(home, 'toolwright', 'runs', `${result.runId}.jsonl`));
    expect(filesUnder(join(home, 'toolwright'))).toEqual(expect.arrayContaining(['runs', `runs/${result.runId}.jsonl`, 'state.db']));
    expect(filesUnder(join(home, 'user'))).toEqual([]);
  });
});
