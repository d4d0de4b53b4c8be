/**
 * A stored run cannot choose what a resume runs (issue #25, item 2). Someone who can write the run store (a shared
 * PostgreSQL database, or the SQLite file) edits a paused run's model, base URL, tool module and MCP servers; the
 * operator then lists the approvals, resumes from the CLI and approves from the console. Nothing planted runs or is
 * contacted: the planted base URL is a local listener that must receive no request, the planted tool module and MCP
 * command would each write a marker file that must not exist afterwards, and the planted record path must not be
 * written. Every difference is shown (terminal and approval card) and refused unless the operator accepts it, and an
 * accepted resume runs with the operator's settings.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANA_ID } from '../../examples/subscriptions/index.js';
import { approveApproval, listApprovals } from '../../src/cli/commands/approvals.js';
import { runConsoleCommand } from '../../src/cli/commands/console.js';
import { runResumeCommand, type ResumeCommandOptions } from '../../src/cli/commands/resume.js';
import { runRunCommand, type AgentCliIo } from '../../src/cli/commands/run.js';
import type { StoreOptions } from '../../src/cli/cli-run-store.js';
import { openCliRunStore } from '../../src/cli/cli-run-store.js';
import { postgresUnavailable, startPostgresServer, type PostgresServer } from '../fixtures/postgres-server.js';
import { startProviderServer, type ProviderServer } from '../provider-server/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const home = mkdtempSync(join(tmpdir(), 'tw-stored-settings-'));
const saved = { TOOLWRIGHT_HOME: process.env.TOOLWRIGHT_HOME, OPENAI_API_KEY: process.env.OPENAI_API_KEY };
const unavailable = postgresUnavailable();

const TOOLS = 'examples/subscriptions/index.ts';
const markers = { tools: join(home, 'planted-tools-ran'), mcp: join(home, 'planted-mcp-ran') };
// A record path outside the operator's runs folder (a shell start-up file, say): decisions and resumes must not append to it.
const plantedRecordPath = join(home, 'planted', 'profile');
const plantedToolsModule = join(home, 'planted', 'tools.mjs');
const plantedMcpScript = join(home, 'planted', 'mcp-server.cjs');
// A right-to-left override inside the planted model id: shown escaped, it cannot pass for the operator's.
const plantedModel = 'openai:gpt-4o-mini\u202e';

let provider: ProviderServer;
let planted: { server: Server; url: string; requests: string[] };

beforeAll(async () => {
  process.env.TOOLWRIGHT_HOME = join(home, 'toolwright');
  process.env.OPENAI_API_KEY = 'sk-test-stored-settings-0123456789';
  mkdirSync(dirname(plantedToolsModule), { recursive: true });
  writeFileSync(
    plantedToolsModule,
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(markers.tools)}, 'ran');\nexport const tools = [];\n`,
  );
  writeFileSync(plantedMcpScript, `require('node:fs').writeFileSync(${JSON.stringify(markers.mcp)}, 'ran');\n`);
  provider = await startProviderServer();
  const requests: string[] = [];
  const server = createServer((incoming, response) => {
    requests.push(`${incoming.method} ${incoming.url}`);
    response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"planted"}}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  planted = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
});

afterAll(async () => {
  await provider?.close();
  await new Promise((done) => planted?.server.close(done));
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(home, { recursive: true, force: true });
});

/** What an attacker with write access to the store puts in a paused run's meta. */
function plantedMeta(): Record<string, unknown> {
  return { modelSpec: plantedModel, baseURL: planted.url, toolsModule: plantedToolsModule, mcp: [`node ${plantedMcpScript}`] };
}

function capture(): { io: AgentCliIo; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (text) => out.push(text), err: (text) => err.push(text) }, out: () => out.join(''), err: () => err.join('') };
}

function expectNothingPlantedRan(): void {
  expect(planted.requests).toEqual([]);
  expect(existsSync(markers.tools)).toBe(false);
  expect(existsSync(markers.mcp)).toBe(false);
  expect(existsSync(plantedRecordPath)).toBe(false);
}

/** The operator's own settings, as flags. */
function operatorSettings(): Pick<ResumeCommandOptions, 'model' | 'baseUrl' | 'tools' | 'cwd'> {
  return { model: 'openai:gpt-4o-mini', baseUrl: provider.openaiBaseURL, tools: TOOLS, cwd: root };
}

async function pausedRun(store: StoreOptions, runs: string): Promise<{ runId: string; approvalId: string }> {
  provider.enqueue({
    toolCalls: [{ id: 'call_1', name: 'create_refund', arguments: { reason: 'Asked for it', invoice_id: 'inv_000102', amount_cents: 100 } }],
  });
  const paused = await runRunCommand(
    `Refund Ana's January invoice (user ${ANA_ID}).`,
    { ...operatorSettings(), ...store, runs, interactive: false },
    capture().io,
  );
  if (paused.status !== 'awaiting_confirmation') throw new Error(`expected the run to wait, got ${paused.status}`);
  return { runId: paused.runId, approvalId: paused.pending[0]!.approvalId };
}

async function storedStatus(store: StoreOptions, runId: string): Promise<string | undefined> {
  const opened = await openCliRunStore(store);
  try {
    return (await opened.loadRun(runId))?.status;
  } finally {
    await opened.close();
  }
}

function post(port: number, path: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((done, fail) => {
    const outgoing = request({ host: '127.0.0.1', port, method: 'POST', path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode!));
    });
    outgoing.on('error', fail);
    outgoing.end(body);
  });
}

/** Starts the console with the operator's settings, approves the call from the run's page (as a browser posts the form) and waits for its resume. */
async function approveInConsole(
  store: StoreOptions & { store?: string },
  runs: string,
  paused: { runId: string; approvalId: string },
  accept: boolean,
): Promise<{ card: string; after: string; printed: string }> {
  const printed = capture();
  const consoleStore = store.store ?? store.state!;
  const { console: app, close } = await runConsoleCommand(
    { ...operatorSettings(), store: consoleStore, runs, evals: [], ...(accept ? { acceptStoredSettingsMismatch: true } : {}) },
    printed.io,
  );
  try {
    const cookie = (await fetch(app.url, { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0]!;
    const card = await (await fetch(`${app.origin}/approvals`, { headers: { cookie } })).text();
    const formToken = /name="form" value="([^"]+)"/.exec(card)![1]!;
    const status = await post(
      app.port,
      `/approvals/${paused.approvalId}/approve`,
      { cookie, origin: app.origin, 'content-type': 'application/x-www-form-urlencoded' },
      `form=${formToken}`,
    );
    expect(status).toBe(303);
    await app.idle();
    const after = await (await fetch(`${app.origin}/runs/${paused.runId}`, { headers: { cookie } })).text();
    return { card, after, printed: printed.err() };
  } finally {
    await close();
  }
}

/** The whole probe against one store; `plant` rewrites a stored run's meta as someone with write access would. */
async function probe(store: StoreOptions, plant: (runId: string, meta: Record<string, unknown>) => Promise<void>): Promise<void> {
  const runs = join(home, 'runs');

  // 1. The CLI: listed, refused, then accepted with the operator's own settings.
  const first = await pausedRun(store, runs);
  await plant(first.runId, plantedMeta());

  const listed = capture();
  await listApprovals(store, listed.io);
  expect(listed.out()).toContain('model: "openai:gpt-4o-mini\\u202e"');
  expect(listed.out()).not.toContain('\u202e');
  expect(listed.out()).toContain(`base URL: ${JSON.stringify(planted.url)}`);
  expect(listed.out()).toContain(`tools module: ${JSON.stringify(plantedToolsModule)}`);
  expect(listed.out()).toContain(`MCP server: ${JSON.stringify(`node ${plantedMcpScript}`)}`);
  // `approvals approve --resume`: without the operator's settings it refuses before recording anything; with them, it
  // records the approval and refuses to resume.
  const approveBare = approveApproval(first.approvalId, { ...store, resume: true }, capture().io);
  await expect(approveBare).rejects.toMatchObject({ code: 'TW_INVALID_ARGUMENT', message: expect.stringContaining('never takes them from the run store') });
  const approveAndResume = approveApproval(first.approvalId, { ...store, runs, resume: true, ...operatorSettings() }, capture().io);
  await expect(approveAndResume).rejects.toMatchObject({ code: 'TW_STORED_SETTINGS_MISMATCH' });
  expectNothingPlantedRan();

  // Without the operator's settings, nothing is taken from the store: the stored values are only shown.
  const bare = runResumeCommand(first.runId, { ...store, runs, interactive: false, cwd: root }, capture().io);
  await expect(bare).rejects.toMatchObject({ code: 'TW_INVALID_ARGUMENT', message: expect.stringContaining('never takes them from the run store') });
  expectNothingPlantedRan();

  const refused = runResumeCommand(first.runId, { ...operatorSettings(), ...store, runs, interactive: false }, capture().io);
  await expect(refused).rejects.toMatchObject({ code: 'TW_STORED_SETTINGS_MISMATCH' });
  const message = ((await refused.catch((error: unknown) => error)) as Error).message;
  expect(message).toContain('model: stored "openai:gpt-4o-mini\\u202e", yours "openai:gpt-4o-mini"');
  expect(message).toContain(`base URL: stored ${JSON.stringify(planted.url)}, yours ${JSON.stringify(provider.openaiBaseURL)}`);
  expect(message).toContain(`tools module: stored ${JSON.stringify(plantedToolsModule)}, yours ${JSON.stringify(join(root, TOOLS))}`);
  expect(message).toContain(`MCP servers: stored [${JSON.stringify(`node ${plantedMcpScript}`)}], yours (none)`);
  expect(message).toContain('--accept-stored-settings-mismatch');
  expectNothingPlantedRan();
  expect(await storedStatus(store, first.runId)).toBe('awaiting_confirmation');

  provider.enqueue({ text: 'Refunded.' });
  const requestsBefore = provider.requests.length;
  const accepted = capture();
  const resumed = await runResumeCommand(
    first.runId,
    { ...operatorSettings(), ...store, runs, interactive: false, acceptStoredSettingsMismatch: true },
    accepted.io,
  );
  expect(resumed.status).toBe('completed');
  // The record went on in the operator's runs folder.
  expect(resumed.recordPath).toBe(join(runs, `${first.runId}.jsonl`));
  expect(readFileSync(resumed.recordPath!, 'utf8')).toContain('"resumed":true');
  expect(accepted.err()).toContain('continuing with yours (--accept-stored-settings-mismatch)');
  expect(accepted.err()).toContain(`base URL: stored ${JSON.stringify(planted.url)}`);
  expect(accepted.out()).toContain('✓ create_refund');
  // The operator's model and base URL answered the resumed turn.
  expect(provider.requests.length).toBe(requestsBefore + 1);
  expect(provider.requests.at(-1)!.body.model).toBe('gpt-4o-mini');
  expectNothingPlantedRan();

  // 2. The console: the card lists the stored values and the difference, and approving does not resume.
  const second = await pausedRun(store, runs);
  await plant(second.runId, plantedMeta());
  const refusedInConsole = await approveInConsole(store, runs, second, false);
  const card = refusedInConsole.card.slice(refusedInConsole.card.indexOf(`data-approval-id="${second.approvalId}"`));
  expect(card).toContain('data-settings-outcome="refused"');
  expect(card).toContain('<code>model: &quot;openai:gpt-4o-mini\\u202e&quot;</code>');
  expect(card).not.toContain('\u202e');
  expect(card).toContain(`<code>base URL: ${JSON.stringify(planted.url).replace(/"/g, '&quot;')}</code>`);
  expect(card).toContain(`<code>MCP server: &quot;node ${plantedMcpScript}&quot;</code>`);
  expect(card).toContain(`tools module: stored <code>&quot;${plantedToolsModule}&quot;</code>, this console's <code>&quot;${join(root, TOOLS)}&quot;</code>`);
  expect(refusedInConsole.after).toContain('The console could not resume the run: Run &quot;');
  expect(refusedInConsole.after).toContain('was stored with other settings than yours');
  expect(await storedStatus(store, second.runId)).toBe('awaiting_confirmation');
  expectNothingPlantedRan();

  // A console started with --accept-stored-settings-mismatch resumes with its own settings.
  const third = await pausedRun(store, runs);
  await plant(third.runId, plantedMeta());
  provider.enqueue({ text: 'Refunded.' });
  const acceptedInConsole = await approveInConsole(store, runs, third, true);
  expect(acceptedInConsole.card).toContain('data-settings-outcome="accepted"');
  expect(acceptedInConsole.printed).toContain(`run ${third.runId}: completed`);
  expect(await storedStatus(store, third.runId)).toBe('completed');
  expectNothingPlantedRan();
}

/** Rewrites a run's meta and record path in its stored state as text, as someone holding the store's file or database would. */
function withMeta(stateText: string, meta: Record<string, unknown>): string {
  const state = JSON.parse(stateText) as Record<string, unknown>;
  return JSON.stringify({ ...state, meta, recordPath: plantedRecordPath });
}

describe('a stored run cannot choose what a resume runs', { timeout: 180_000 }, () => {
  it('SQLite: the planted model, base URL, tool module and MCP command are shown and never run or contacted', async () => {
    const state = join(home, 'state.db');
    await probe({ state }, async (runId, meta) => {
      const db = new Database(state);
      try {
        const row = db.prepare('SELECT state FROM runs WHERE run_id = ?').get(runId) as { state: string };
        db.prepare('UPDATE runs SET state = ? WHERE run_id = ?').run(withMeta(row.state, meta), runId);
      } finally {
        db.close();
      }
    });
  });

  it('a console started without --model and --tools records the decision and resumes nothing', async () => {
    const state = join(home, 'state-unconfigured.db');
    const runs = join(home, 'runs');
    const paused = await pausedRun({ state }, runs);
    const printed = capture();
    const { console: app, close } = await runConsoleCommand({ store: state, runs, evals: [] }, printed.io);
    try {
      expect(printed.err()).toContain('No --model and --tools given');
      const cookie = (await fetch(app.url, { redirect: 'manual' })).headers.get('set-cookie')!.split(';')[0]!;
      const page = await (await fetch(`${app.origin}/runs/${paused.runId}`, { headers: { cookie } })).text();
      expect(page).toContain('data-settings-outcome="not_configured"');
      const formToken = /name="form" value="([^"]+)"/.exec(page)![1]!;
      const headers = { cookie, origin: app.origin, 'content-type': 'application/x-www-form-urlencoded' };
      expect(await post(app.port, `/approvals/${paused.approvalId}/approve`, headers, `form=${formToken}`)).toBe(303);
      await app.idle();
    } finally {
      await close();
    }
    expect(await storedStatus({ state }, paused.runId)).toBe('awaiting_confirmation');
  });
});

describe.skipIf(unavailable !== undefined)(
  `a stored run cannot choose what a resume runs, on PostgreSQL${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    let database: PostgresServer;
    let url: string;
    beforeAll(async () => {
      database = await startPostgresServer();
      url = await database.createDatabase('stored_settings');
    }, 120_000);
    afterAll(async () => {
      await database?.stop();
    });

    it('PostgreSQL: the planted model, base URL, tool module and MCP command are shown and never run or contacted', { timeout: 180_000 }, async () => {
      await probe({ store: url }, async (runId, meta) => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          const { rows } = await client.query<{ state: string }>('SELECT state FROM toolwright.runs WHERE run_id = $1', [runId]);
          await client.query('UPDATE toolwright.runs SET state = $1 WHERE run_id = $2', [withMeta(rows[0]!.state, meta), runId]);
        } finally {
          await client.end();
        }
      });
    });
  },
);
