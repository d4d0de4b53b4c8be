/**
 * `toolwright run / approvals / resume --store postgres://…` (or TOOLWRIGHT_DATABASE_URL): a run paused by one command
 * is listed, approved and resumed by others through PostgreSQL, and nothing is written to the SQLite file.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANA_ID } from '../../examples/subscriptions/index.js';
import { decideApproval, listApprovals } from '../../src/cli/commands/approvals.js';
import { runResumeCommand } from '../../src/cli/commands/resume.js';
import { runRunCommand, type AgentCliIo } from '../../src/cli/commands/run.js';
import { postgresUrlOf } from '../../src/cli/cli-run-store.js';
import { postgresUnavailable, startPostgresServer, type PostgresServer } from '../fixtures/postgres-server.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const home = mkdtempSync(join(tmpdir(), 'tw-cli-pg-'));
const saved = {
  TOOLWRIGHT_HOME: process.env.TOOLWRIGHT_HOME,
  OPENAI_API_KEY: process.env.OPENAI_API_KEY,
  TOOLWRIGHT_DATABASE_URL: process.env.TOOLWRIGHT_DATABASE_URL,
};
const unavailable = postgresUnavailable();

describe('--store: which store a command opens', () => {
  it('takes --store, else TOOLWRIGHT_DATABASE_URL unless --state is given, and never echoes a connection string', () => {
    const env = { TOOLWRIGHT_DATABASE_URL: 'postgres://env@127.0.0.1/db' };
    expect(postgresUrlOf({ store: 'postgresql://flag@127.0.0.1/db' }, env)).toBe('postgresql://flag@127.0.0.1/db');
    expect(postgresUrlOf({}, env)).toBe('postgres://env@127.0.0.1/db');
    expect(postgresUrlOf({ state: '/tmp/state.db' }, env)).toBeUndefined();
    expect(postgresUrlOf({}, {})).toBeUndefined();
    expect(() => postgresUrlOf({ store: 'postgres://a@b/c', state: '/tmp/s.db' }, {})).toThrow('not both');
    let message = '';
    try {
      postgresUrlOf({ store: 'mysql://root:hunter2@db/x' }, {});
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('must be a PostgreSQL connection string');
    expect(message).not.toContain('hunter2');
  });
});

describe.skipIf(unavailable !== undefined)(`toolwright run / approvals / resume on PostgreSQL${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let database: PostgresServer;
  let provider: ProviderServer;
  let url: string;
  beforeAll(async () => {
    process.env.TOOLWRIGHT_HOME = join(home, 'toolwright');
    process.env.OPENAI_API_KEY = 'sk-test-cli-postgres-0123456789';
    database = await startPostgresServer();
    url = await database.createDatabase('cli');
    provider = await startProviderServer();
  });
  afterAll(async () => {
    await provider?.close();
    await database?.stop();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(home, { recursive: true, force: true });
  });

  it('pauses a run in PostgreSQL, lists and approves it from another command, and resumes it there', async () => {
    const out: string[] = [];
    const io: AgentCliIo = { out: (text) => out.push(text), err: () => {} };
    provider.enqueue({
      toolCalls: [{ id: 'call_1', name: 'create_refund', arguments: { reason: 'Asked for it', invoice_id: 'inv_000102', amount_cents: 2900 } }],
    });
    const paused = await runRunCommand(
      `Refund Ana's January invoice (user ${ANA_ID}).`,
      { model: 'openai:gpt-4o-mini', baseUrl: provider.openaiBaseURL, tools: 'examples/subscriptions/index.ts', interactive: false, cwd: root, store: url },
      io,
    );
    expect(paused.status).toBe('awaiting_confirmation');

    // Another command, through the environment variable this time.
    process.env.TOOLWRIGHT_DATABASE_URL = url;
    const pending = await listApprovals({}, io);
    expect(pending.map((item) => item.runId)).toEqual([paused.runId]);
    await decideApproval(pending[0]!.approvalId, 'approve', {}, io);
    delete process.env.TOOLWRIGHT_DATABASE_URL;
    expect(await listApprovals({ store: url }, io)).toEqual([]);

    provider.enqueue({ text: 'Refunded.' });
    const resumed = await runResumeCommand(
      paused.runId,
      { interactive: false, store: url, model: 'openai:gpt-4o-mini', baseUrl: provider.openaiBaseURL, tools: 'examples/subscriptions/index.ts', cwd: root },
      io,
    );
    expect(resumed).toMatchObject({ status: 'completed', runId: paused.runId });
    expect(existsSync(join(home, 'toolwright', 'state.db'))).toBe(false);
  });
});
