/**
 * `toolwright run --mcp <server>`: a remote MCP server's tools join the run as
 * registry entries. Here the server is toolwright's own `serve` over stdio.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRunCommand, type AgentCliIo } from '../../src/cli/commands/run.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const home = mkdtempSync(join(tmpdir(), 'tw-mcp-run-'));
let server: ProviderServer;

beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

/** Runs `toolwright run --mcp "toolwright serve --tools <pack>"` against the local provider server, with a test key. */
async function runAgainstServedPack(question: string, pack: string, io: AgentCliIo): Promise<Awaited<ReturnType<typeof runRunCommand>>> {
  const serve = `${process.execPath} --import tsx ${join(root, 'src/cli/main.ts')} serve --tools ${join(root, pack)}`;
  const previousKey = process.env.OPENAI_API_KEY;
  process.env.OPENAI_API_KEY = 'sk-test-0123456789abcdefghij';
  try {
    return await runRunCommand(
      question,
      { model: 'openai:gpt-4o-mini', baseUrl: server.openaiBaseURL, mcp: [serve], runs: join(home, 'runs'), state: join(home, 'state.db'), cwd: root },
      io,
    );
  } finally {
    if (previousKey === undefined) delete process.env.OPENAI_API_KEY;
    else process.env.OPENAI_API_KEY = previousKey;
  }
}

describe('toolwright run --mcp', { timeout: 120_000 }, () => {
  it('calls a tool served by an MCP server, with local validation errors reaching the model', async () => {
    server.reset();
    server.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'conjugate', arguments: { verb: 'eat', tense: 'past', person: '3sg' } }] },
      { toolCalls: [{ id: 'call_2', name: 'conjugate', arguments: { verb: 'eat', tense: 'past_simple', person: '3sg' } }] },
      { text: 'He ate.' },
    );
    const out: string[] = [];
    const io: AgentCliIo = { out: (text) => out.push(text), err: () => {} };
    const result = await runAgainstServedPack('How do you say eat in the past for he?', 'examples/conjugate/index.ts', io);
    expect(result.status).toBe('completed');
    const text = out.join('');
    expect(text).toContain('✗ conjugate [invalid_arguments]');
    expect(text).toContain('✓ conjugate');
    expect(text).toContain('he/she/it ate');
    // The model was offered the remote tool's schema and saw the validation text.
    const second = server.requests[1]!.body as { messages: { role: string; content: string }[]; tools: { function: { name: string } }[] };
    expect(second.tools.map((tool) => tool.function.name)).toContain('conjugate');
    expect(second.messages.at(-1)!.content).toContain('$.tense: must be one of');
  });

  it('completes a write that a toolwright server confirms, once the person approves it in the terminal', async () => {
    server.reset();
    const refund = { reason: 'Charged twice', invoice_id: 'inv_000102', amount_cents: 1000 };
    server.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'create_refund', arguments: refund }] },
      // The same refund again: it is asked about again, and this time denied.
      { toolCalls: [{ id: 'call_2', name: 'create_refund', arguments: refund }] },
      { text: 'Refunded 10.00 USD once.' },
    );
    const out: string[] = [];
    const asked: string[] = [];
    const answers = ['y', 'n'];
    const io: AgentCliIo = {
      out: (text) => out.push(text),
      err: () => {},
      ask: async (question) => {
        asked.push(question);
        return answers.shift() ?? 'n';
      },
    };
    const result = await runAgainstServedPack('Refund 10 USD of invoice inv_000102, I was charged twice.', 'examples/subscriptions/index.ts', io);
    expect(result.status).toBe('completed');
    expect(asked).toHaveLength(2);
    // The server ran the approved refund (its structured result reached the model) and was never reached by the denied one.
    const second = server.requests[1]!.body as { messages: { role: string; content: string }[] };
    const refunded = JSON.parse(second.messages.at(-1)!.content) as Record<string, unknown>;
    expect(refunded).toMatchObject({ invoice_id: 'inv_000102', amount_cents: 1000, invoice_status: 'partially_refunded' });
    const third = server.requests[2]!.body as { messages: { role: string; content: string }[] };
    expect(third.messages.at(-1)!.content).toContain('The user declined this call to create_refund');
  });

  it('asks for --tools or --mcp', async () => {
    await expect(runRunCommand('x', { model: 'openai:gpt-4o-mini' }, { out: () => {}, err: () => {} })).rejects.toThrow(
      'needs the module that exports the tools',
    );
  });
});
