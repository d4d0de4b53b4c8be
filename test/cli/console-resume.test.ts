/**
 * `toolwright console` with the CLI's own resume: a run started by `toolwright
 * run --no-interactive` against the local OpenAI-compatible test server waits
 * for a refund; approving it in the console (a form POST, as the browser
 * sends it) continues the run with the model and tools the console was
 * started with (the same as the run's), and the refund runs once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANA_ID } from '../../examples/subscriptions/index.js';
import { openSqliteRunStore } from '../../src/agent/index.js';
import { runConsoleCommand } from '../../src/cli/commands/console.js';
import { runRunCommand, type AgentCliIo } from '../../src/cli/commands/run.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const home = mkdtempSync(join(tmpdir(), 'tw-console-cli-'));
let server: ProviderServer;
const previousKey = process.env.OPENAI_API_KEY;

beforeAll(async () => {
  server = await startProviderServer();
  process.env.OPENAI_API_KEY = 'sk-test-0123456789abcdefghij';
});
afterAll(async () => {
  if (previousKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = previousKey;
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

function post(port: number, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((done, fail) => {
    const outgoing = request({ host: '127.0.0.1', port, method: 'POST', path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (response) => {
      response.resume();
      response.on('end', () => done({ status: response.statusCode!, location: response.headers.location }));
    });
    outgoing.on('error', fail);
    outgoing.end(body);
  });
}

describe('toolwright console with the CLI', { timeout: 120_000 }, () => {
  it('approves a call of a `toolwright run` and resumes the run as `toolwright resume` would', async () => {
    const refundArguments = { reason: 'Ana asked for a refund of January', invoice_id: 'inv_000102', amount_cents: 2900 };
    server.reset();
    server.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'get_invoices', arguments: { user_id: ANA_ID } }] },
      { toolCalls: [{ id: 'call_2', name: 'create_refund', arguments: refundArguments }] },
      { text: 'Done: 29.00 USD refunded on invoice inv_000102.' },
    );
    const state = join(home, 'state.db');
    const runs = join(home, 'runs');
    const quiet: AgentCliIo = { out: () => {}, err: () => {} };
    const paused = await runRunCommand(
      `Refund Ana's January invoice (user ${ANA_ID}).`,
      { model: 'openai:gpt-4o-mini', baseUrl: server.openaiBaseURL, tools: 'examples/subscriptions/index.ts', state, runs, cwd: root, interactive: false },
      quiet,
    );
    if (paused.status !== 'awaiting_confirmation') throw new Error(`expected the run to wait, got ${paused.status}`);

    const printed: string[] = [];
    const { console: app, close } = await runConsoleCommand(
      { store: state, runs, evals: [], model: 'openai:gpt-4o-mini', baseUrl: server.openaiBaseURL, tools: 'examples/subscriptions/index.ts', cwd: root },
      { out: () => {}, err: (text) => printed.push(text) },
    );
    try {
      const exchanged = await fetch(app.url, { redirect: 'manual' });
      const cookie = exchanged.headers.get('set-cookie')!.split(';')[0]!;
      const page = await (await fetch(`${app.origin}/runs/${paused.runId}`, { headers: { cookie } })).text();
      const formToken = /name="form" value="([^"]+)"/.exec(page)![1]!;
      const approved = await post(
        app.port,
        `/approvals/${paused.pending[0]!.approvalId}/approve`,
        { cookie, origin: app.origin, 'content-type': 'application/x-www-form-urlencoded' },
        `form=${formToken}`,
      );
      expect(approved).toEqual({ status: 303, location: `/approvals/${paused.pending[0]!.approvalId}` });
      await app.idle();
      expect(printed.join('')).toBe(`run ${paused.runId}: completed\n`);
      const store = await openSqliteRunStore({ path: state });
      try {
        expect((await store.loadRun(paused.runId))?.status).toBe('completed');
      } finally {
        await store.close();
      }
      const finished = await (await fetch(`${app.origin}/runs/${paused.runId}`, { headers: { cookie } })).text();
      expect(finished).toContain('id="run-status" class="status status-completed"');
      expect(finished).toContain('approved by a person');
      expect(finished).toContain('Done: 29.00 USD refunded on invoice inv_000102.');
      expect(server.requests).toHaveLength(3);
    } finally {
      await close();
    }
  });
});
