/**
 * End to end, as a user types it: `toolwright run` against the local
 * OpenAI-compatible test server with the subscriptions example, a refund left
 * waiting for confirmation, `approvals list/approve`, `resume` in a new
 * process, and `logs`. Each command is a real process.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANA_ID } from '../../examples/subscriptions/index.js';
import { runRunCommand, type AgentCliIo } from '../../src/cli/commands/run.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const home = mkdtempSync(join(tmpdir(), 'tw-cli-'));
let server: ProviderServer;

beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

function toolwright(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...args],
      { cwd: root, timeout: 60_000, env: { ...process.env, TOOLWRIGHT_HOME: home, OPENAI_API_KEY: 'sk-test-0123456789abcdefghij' } },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

const refundArguments = { reason: 'Ana asked for a refund of January', invoice_id: 'inv_000102', amount_cents: 2900 };

// Each command is a process that loads TypeScript; on a loaded 2-core machine a run of nine takes well over the default 30 s.
describe('toolwright run with the subscriptions tools', { timeout: 180_000 }, () => {
  it('runs, waits for a refund approval, and finishes after approve + resume in new processes', async () => {
    server.reset();
    server.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'get_invoices', arguments: { user_id: ANA_ID } }] },
      { text: 'I will refund the January invoice.', toolCalls: [{ id: 'call_2', name: 'create_refund', arguments: refundArguments }] },
      { text: 'Done: 29.00 USD refunded on invoice inv_000102.' },
    );
    const run = await toolwright(
      'run',
      '--model',
      'openai:gpt-4o-mini',
      '--base-url',
      server.openaiBaseURL,
      '--tools',
      'examples/subscriptions/index.ts',
      '--no-interactive',
      `Refund Ana's January invoice (user ${ANA_ID}).`,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`→ get_invoices {"user_id":"${ANA_ID}"}`);
    expect(run.stdout).toMatch(/ {2}✓ get_invoices \(\d+ ms\): \{"user_id":"usr_8f3kd92mfa01xq7zt4pb","invoices":\[\{"invoice_id":"inv_000102"/);
    expect(run.stdout).toContain('assistant: I will refund the January invoice.');
    expect(run.stdout).toContain('Refund 29.00 USD of invoice inv_000102');
    const runId = /waiting for confirmation \(run (run_\w+)\)/.exec(run.stdout)?.[1];
    expect(runId).toBeDefined();
    expect(run.stdout).toContain(`toolwright resume ${runId}`);

    const list = await toolwright('approvals', 'list', '--json');
    const pending = JSON.parse(list.stdout) as { approvalId: string; runId: string; toolName: string; arguments: unknown; token?: string }[];
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ runId, toolName: 'create_refund', arguments: refundArguments });
    expect(pending[0]!.token).toBeUndefined();

    const approve = await toolwright('approvals', 'approve', pending[0]!.approvalId);
    expect(approve.stdout).toBe(
      `Approved: Refund 29.00 USD of invoice inv_000102 (run ${runId})\nEvery call of run ${runId} is decided; continue it with: toolwright resume ${runId} --model … --tools …\n`,
    );
    expect((await toolwright('approvals', 'approve', pending[0]!.approvalId)).stderr).toContain('was already used');

    const settings = ['--model', 'openai:gpt-4o-mini', '--base-url', server.openaiBaseURL, '--tools', 'examples/subscriptions/index.ts'];
    const resume = await toolwright('resume', runId!, ...settings);
    expect(resume.code).toBe(0);
    expect(resume.stdout).toMatch(/ {2}✓ create_refund \(\d+ ms\): \{"refund_id":"ref_\w+","invoice_id":"inv_000102","amount_cents":2900/);
    expect(resume.stdout).toContain('Done: 29.00 USD refunded on invoice inv_000102.');
    expect(resume.stdout).toContain(`— completed (run ${runId}) · 3 model calls · 2 tool calls`);
    // The model saw the refund's result, matched to its call id.
    const lastMessages = server.requests[2]!.body.messages as { role: string; tool_call_id?: string; content?: string }[];
    expect(lastMessages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_2' });
    expect(lastMessages.at(-1)!.content).toContain('"invoice_status":"refunded"');

    expect((await toolwright('resume', runId!, ...settings)).stderr).toContain('cannot be resumed: it has already completed.');

    const logs = await toolwright('logs', runId!);
    expect(logs.code).toBe(0);
    for (const expected of [
      'started run',
      'model call 0:',
      '→ create_refund',
      'waiting for confirmation apr_',
      'approved: create_refund (call_2)',
      'resumed run',
      '✓ create_refund',
      'completed · 3 model calls · 2 tool calls',
    ]) {
      expect(logs.stdout).toContain(expected);
    }
    const raw = await toolwright('logs', runId!, '--json');
    expect(raw.stdout).not.toContain('sk-test-0123456789abcdefghij');
  });

  it('asks in the terminal when interactive, then runs the approved call', async () => {
    server.reset();
    server.enqueue(
      { toolCalls: [{ id: 'call_9', name: 'create_refund', arguments: { ...refundArguments, invoice_id: 'inv_000101' } }] },
      { text: 'Refunded.' },
    );
    const out: string[] = [];
    const questions: string[] = [];
    const io: AgentCliIo = { out: (text) => out.push(text), err: (text) => out.push(text), ask: async (question) => (questions.push(question), 'y') };
    const previousKey = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-test-interactive';
    try {
      const result = await runRunCommand(
        'Refund the December invoice.',
        {
          model: 'openai:gpt-4o-mini',
          baseUrl: server.openaiBaseURL,
          tools: 'examples/subscriptions/index.ts',
          state: join(home, 'interactive.db'),
          runs: join(home, 'runs'),
          cwd: root,
        },
        io,
      );
      expect(result.status).toBe('completed');
    } finally {
      if (previousKey === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previousKey;
    }
    expect(questions).toEqual(['  Approve this call? [y/N, a = all arguments] ']);
    const text = out.join('');
    expect(text).toContain('? Refund 29.00 USD of invoice inv_000101');
    expect(text).toContain('approved: create_refund (call_9)');
    expect(text).toMatch(/✓ create_refund \(\d+ ms\)/);
    expect(text).toContain('Refunded.');
  });
});
