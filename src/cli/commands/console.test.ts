import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteRunStore, type RunState } from '../../agent/index.js';
import { createPostgresRunStore } from '../../stores/index.js';
import { postgresUnavailable, startPostgresServer } from '../../../test/fixtures/postgres-server.js';
import { createProgram } from '../main.js';
import { runConsoleCommand } from './console.js';

const folder = mkdtempSync(join(tmpdir(), 'tw-console-cli-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function state(runId: string): RunState {
  return {
    version: 1,
    runId,
    modelId: 'openai:gpt-4o-mini',
    messages: [],
    steps: [],
    usage: { inputTokens: 1, outputTokens: 2, modelCalls: 1, toolCalls: 0, wallTimeMs: 1500 },
    costUsd: 0.0123,
    iterations: 1,
    routed: true,
    routedTools: undefined,
    failureCounts: {},
    callCounts: {},
    pendingTurn: undefined,
    limits: {},
    settings: {},
    meta: {},
    recordPath: undefined,
  };
}

describe('toolwright console', () => {
  it('is a command of the CLI', () => {
    expect(createProgram().commands.map((command) => command.name())).toContain('console');
  });

  it('prints its URL once, with the token, and lists the runs of the SQLite store it was given (none recorded)', async () => {
    const store = join(folder, 'state.db');
    const seeded = await openSqliteRunStore({ path: store });
    await seeded.saveRun({ runId: 'run_from_store', status: 'stopped', state: state('run_from_store') });
    await seeded.close();
    const printed: string[] = [];
    const { console: server, close } = await runConsoleCommand(
      { store, runs: join(folder, 'runs'), evals: [] },
      { out: (text) => printed.push(text), err: (text) => printed.push(text) },
    );
    try {
      expect(printed.join('')).toContain(`toolwright console: http://127.0.0.1:${server.port}/?token=${server.token}\n`);
      const exchanged = await fetch(server.url, { redirect: 'manual' });
      const cookie = exchanged.headers.get('set-cookie')!.split(';')[0]!;
      const page = await (await fetch(`${server.origin}/`, { headers: { cookie } })).text();
      expect(page).toMatch(/<tr data-run-id="run_from_store">[\s\S]*stopped[\s\S]*openai:gpt-4o-mini[\s\S]*\$0\.0123[\s\S]*1\.50 s/);
    } finally {
      await close();
    }
  });

  it('refuses a port that is not one', async () => {
    const io = { out: () => {}, err: () => {} };
    await expect(runConsoleCommand({ port: '70000', store: join(folder, 'x.db') }, io)).rejects.toMatchObject({ code: 'TW_INVALID_ARGUMENT' });
  });

  // skipped, saying why, only where no PostgreSQL server can be started (.ci/run installs Debian's)
  it.skipIf(postgresUnavailable() !== undefined)(
    `lists the runs of a postgres:// store${postgresUnavailable() !== undefined ? ` (skipped: ${postgresUnavailable()})` : ''}`,
    async () => {
      const server = await startPostgresServer();
      try {
        const url = await server.createDatabase('console');
        const seeded = await createPostgresRunStore({ connectionString: url });
        await seeded.saveRun({ runId: 'run_in_postgres', status: 'stopped', state: state('run_in_postgres') });
        await seeded.close();
        const { console: consoleServer, close } = await runConsoleCommand(
          { store: url, runs: join(folder, 'runs'), evals: [] },
          { out: () => {}, err: () => {} },
        );
        try {
          const exchanged = await fetch(consoleServer.url, { redirect: 'manual' });
          const cookie = exchanged.headers.get('set-cookie')!.split(';')[0]!;
          const page = await (await fetch(`${consoleServer.origin}/`, { headers: { cookie } })).text();
          expect(page).toMatch(/<tr data-run-id="run_in_postgres">[\s\S]*stopped/);
        } finally {
          await close();
        }
      } finally {
        await server.stop();
      }
    },
    120_000,
  );
});
