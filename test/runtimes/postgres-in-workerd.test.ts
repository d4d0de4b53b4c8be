/**
 * toolwright's PostgreSQL run store inside workerd (Cloudflare's runtime) under `nodejs_compat`, through `pg` and its
 * `pg-cloudflare` socket (`cloudflare:sockets`), against a throwaway PostgreSQL server on 127.0.0.1: the Worker
 * (test/runtimes/postgres-worker.ts, bundled with esbuild into one ES module) pauses a write for confirmation in one
 * request, records the decision in another, resumes the run in a third (the store claims the run, begins and finishes the
 * call), and what each request left is read back from the database here; the same over TLS; docs/deploy.md's Worker
 * served as written; a database stopped during a request reported as the store unavailable. Also what does not work:
 * workerd's default network refuses 127.0.0.1, an untrusted server certificate is refused, and a store kept in module
 * scope hangs the next request. Processes, servers and the temporary folder are removed at the end. docs/deploy.md,
 * "State on the edge".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailable, startPostgresServer, type PostgresServer } from '../fixtures/postgres-server.js';
import { makeTestCertificates, testCertificatesUnavailable } from '../fixtures/postgres-tls.js';
import { freePort, nodeBuiltinsExternal, nodeRequireAsImport, toolwrightFromSource, workerdConfig, type WorkerdExtras } from './web-bundle.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const workerd = resolve(root, 'node_modules/.bin/workerd');
const skipReason = postgresUnavailable() ?? (existsSync(workerd) ? undefined : 'workerd is not installed in node_modules/.bin');
const noCertificates = testCertificatesUnavailable();

let workDir: string;
let server: PostgresServer | undefined;
let databaseUrl: string;
const children: ChildProcess[] = [];
/** Servers a test started besides the shared one. */
const stopped: PostgresServer[] = [];

/** The `./agent.js` docs/deploy.md's Worker imports: a write that asks for confirmation, and a model that calls it. */
const AGENT_MODULE = `import { defineTool } from 'toolwright';
import { createScriptedModel, textTurn, toolCallTurn } from 'toolwright/test';
export const tools = [
  defineTool({
    name: 'pay',
    description: 'Pays an invoice.',
    inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'], additionalProperties: false },
    effect: 'write',
    confirm: true,
    execute: ({ invoice }) => 'Paid ' + invoice + '.',
  }),
];
// Answers from the request alone (the model outlives requests in module scope): after a tool's result, text; else the call.
export const model = createScriptedModel(
  Array.from({ length: 50 }, () => (request) =>
    request.messages.at(-1)?.role === 'tool' ? textTurn('Paid.') : toolCallTurn([{ name: 'pay', arguments: { invoice: 'inv_7' } }]),
  ),
);
`;

/** The first TypeScript block under "## State on the edge" in docs/deploy.md. */
function docsWorker(): string {
  const doc = readFileSync(resolve(root, 'docs/deploy.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## State on the edge\n'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (block === null) throw new Error('docs/deploy.md has no ts block under "## State on the edge"');
  return block[1]!;
}

/** Bundles `entry` into `folder/main.mjs`, one file: workerd provides the `node:` modules it imports under nodejs_compat. */
async function bundleWorker(folder: string, entry: string): Promise<void> {
  await build({
    entryPoints: { main: entry },
    absWorkingDir: root,
    nodePaths: [resolve(root, 'node_modules')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    outdir: folder,
    outExtension: { '.js': '.mjs' },
    logLevel: 'silent',
    plugins: [nodeRequireAsImport, nodeBuiltinsExternal, toolwrightFromSource],
  });
}

beforeAll(async () => {
  if (skipReason) return;
  workDir = mkdtempSync(join(tmpdir(), 'tw-postgres-workerd-'));
  server = await startPostgresServer({ tls: noCertificates === undefined });
  databaseUrl = await server.createDatabase('edge');
  await bundleWorker(join(workDir, 'worker'), resolve(root, 'test/runtimes/postgres-worker.ts'));
  const docs = join(workDir, 'docs');
  mkdirSync(docs, { recursive: true });
  writeFileSync(join(docs, 'agent.ts'), AGENT_MODULE);
  writeFileSync(join(docs, 'entry.ts'), docsWorker());
  await bundleWorker(docs, join(docs, 'entry.ts'));
}, 60_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill();
  await server?.stop();
  for (const other of stopped) await other.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

interface Worker {
  call(path: string, body?: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }>;
  /** What workerd wrote so far. */
  log(): string;
  stop(): void;
}

/** The Worker under `workerd serve` (nodejs_compat, code generation forbidden), once it listens. */
async function serveWorker(
  name: string,
  options: { network?: string[]; bundle?: string; databaseUrl?: string; trustedCertificates?: string[] } = {},
): Promise<Worker> {
  const port = await freePort();
  const folder = join(workDir, options.bundle ?? 'worker');
  const config = join(folder, `${name}.capnp`);
  const extras: WorkerdExtras = {
    textBindings: { DATABASE_URL: options.databaseUrl ?? databaseUrl },
    ...(options.network ? { allowNetwork: options.network } : {}),
    ...(options.trustedCertificates ? { trustedCertificates: options.trustedCertificates } : {}),
  };
  writeFileSync(config, workerdConfig(folder, port, 'compatibilityDate = "2026-06-01", compatibilityFlags = ["nodejs_compat"],', extras));
  const child = spawn(workerd, ['serve', config], { cwd: folder, env: { PATH: process.env.PATH, HOME: workDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const call: Worker['call'] = async (path, body) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, body ? { method: 'POST', body: JSON.stringify(body) } : {});
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
    } catch {
      return { status: response.status, body: { text } };
    }
  };
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`workerd exited (${child.exitCode}): ${log.slice(0, 2000)}`);
    try {
      await (await fetch(`http://127.0.0.1:${port}/nothing`)).text();
      break;
    } catch (error) {
      if (attempt > 150) throw new Error(`workerd did not listen: ${(error as Error).message} ${log.slice(0, 2000)}`);
      await new Promise((wait) => setTimeout(wait, 100));
    }
  }
  return { call, log: () => log, stop: () => child.kill() };
}

/** One query from here (Node), to see what the Worker's requests left in the database. */
async function query(text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
}

describe.skipIf(skipReason !== undefined)(`the PostgreSQL run store in workerd with nodejs_compat${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  it('keeps a paused run, its confirmation and its call in PostgreSQL across requests, each on a store opened and closed in that request', async () => {
    const worker = await serveWorker('local', { network: ['local'] });
    try {
      // pg connects through pg-cloudflare when the runtime says it is a Worker.
      expect(await worker.call('/user-agent')).toEqual({ status: 200, body: { userAgent: 'Cloudflare-Workers' } });
      const paused = await worker.call('/pause', { invoice: 'inv_1' });
      expect(paused).toMatchObject({ status: 200, body: { status: 'awaiting_confirmation', token: expect.stringMatching(/^twc1\./) } });
      const runId = paused.body.runId as string;
      // The request has answered: the run is in the database, not in the Worker.
      expect(await query(`SELECT status FROM toolwright.runs WHERE run_id = $1`, [runId])).toEqual([{ status: 'awaiting_confirmation' }]);
      expect(await query(`SELECT decision FROM toolwright.confirmations WHERE run_id = $1`, [runId])).toEqual([{ decision: null }]);

      expect(await worker.call('/decide', { token: paused.body.token })).toMatchObject({ status: 200, body: { runId, decision: 'approve' } });
      expect(await worker.call(`/run?id=${runId}`)).toEqual({
        status: 200,
        body: { status: 'awaiting_confirmation', lease: null, confirmations: ['approve'] },
      });

      expect(await worker.call('/resume', { runId })).toEqual({ status: 200, body: { status: 'completed', toolText: ['Paid inv_1.'] } });
      // The call was claimed and finished in the database, and the run's lease given back.
      const [call] = await query(`SELECT status, outcome FROM toolwright.calls WHERE run_id = $1`, [runId]);
      expect(call).toMatchObject({ status: 'done' });
      expect(call!.outcome).toContain('Paid inv_1.');
      expect(await query(`SELECT status, lease_owner FROM toolwright.runs WHERE run_id = $1`, [runId])).toEqual([{ status: 'completed', lease_owner: null }]);

      // A second resume, in another request, finds the run completed: the write does not run again.
      expect(await worker.call('/resume', { runId })).toMatchObject({ status: 500, body: { error: { code: 'TW_RUN_NOT_RESUMABLE' } } });
      expect(await query(`SELECT count(*)::int AS calls FROM toolwright.calls WHERE run_id = $1`, [runId])).toEqual([{ calls: 1 }]);
    } finally {
      worker.stop();
    }
  }, 60_000);

  it('keeps an MCP task and its result in the PostgreSQL task store across requests', async () => {
    const worker = await serveWorker('local', { network: ['local'] });
    try {
      const taskId = 'a3f1c2d4e5b60718293a4b5c6d7e8f90';
      expect(await worker.call('/task/start', { taskId })).toEqual({ status: 200, body: { added: true } });
      expect(await query(`SELECT status, owner FROM toolwright.mcp_tasks WHERE task_id = $1`, [taskId])).toEqual([
        { status: 'working', owner: 'identity:alice' },
      ]);
      const result = JSON.stringify({ content: [{ type: 'text', text: 'Ledger 2026-11 exported.' }] });
      expect(await worker.call('/task/finish', { taskId, result })).toEqual({ status: 200, body: { stored: true } });
      // A second result, in another request, finds the task ended: each status change is made once.
      expect(await worker.call('/task/finish', { taskId, result })).toEqual({ status: 200, body: { stored: false } });
      expect(await worker.call(`/task?id=${taskId}`)).toMatchObject({ status: 200, body: { task: { taskId, status: 'completed', result } } });
    } finally {
      worker.stop();
    }
  }, 60_000);

  it("serves docs/deploy.md's Worker as written: a write paused, approved and resumed in three requests", async () => {
    const worker = await serveWorker('docs', { network: ['local'], bundle: 'docs' });
    try {
      const paused = await worker.call('/runs', { prompt: 'Pay inv_7.' });
      expect(paused).toMatchObject({ status: 200, body: { status: 'awaiting_confirmation', tokens: [expect.stringMatching(/^twc1\./)] } });
      const runId = paused.body.runId as string;
      expect(await worker.call('/approve', { token: (paused.body.tokens as string[])[0] })).toEqual({ status: 200, body: { approved: true } });
      expect(await worker.call('/resume', { runId })).toEqual({ status: 200, body: { runId, status: 'completed' } });
      const [call] = await query(`SELECT status, outcome FROM toolwright.calls WHERE run_id = $1`, [runId]);
      expect(call).toMatchObject({ status: 'done' });
      expect(call!.outcome).toContain('Paid inv_7.');
    } finally {
      worker.stop();
    }
  }, 60_000);

  (noCertificates ? it.skip : it)(
    `keeps the run over TLS (sslmode=verify-full), and refuses a server certificate it does not trust${noCertificates ? ` (skipped: ${noCertificates})` : ''}`,
    async () => {
      const overTls = databaseUrl.replace('@127.0.0.1:', '@localhost:') + '?sslmode=verify-full';
      const worker = await serveWorker('tls', { network: ['local'], databaseUrl: overTls, trustedCertificates: [server!.caCertificate!] });
      try {
        expect(await worker.call('/encryption')).toEqual({ status: 200, body: { ssl: true, version: expect.stringMatching(/^TLSv1\.[23]$/) } });
        const paused = await worker.call('/pause', { invoice: 'inv_3' });
        expect(paused).toMatchObject({ status: 200, body: { status: 'awaiting_confirmation' } });
        expect(await worker.call('/decide', { token: paused.body.token })).toMatchObject({ status: 200, body: { decision: 'approve' } });
        expect(await worker.call('/resume', { runId: paused.body.runId })).toEqual({ status: 200, body: { status: 'completed', toolText: ['Paid inv_3.'] } });
      } finally {
        worker.stop();
      }
      // The same server, its certificate signed by an authority this Worker does not trust: no connection, no store.
      const otherFolder = join(workDir, 'other-ca');
      mkdirSync(otherFolder);
      const otherAuthority = makeTestCertificates(otherFolder).caCertificate;
      const untrusting = await serveWorker('tls-untrusted', { network: ['local'], databaseUrl: overTls, trustedCertificates: [otherAuthority] });
      try {
        expect((await untrusting.call('/encryption')).body).toEqual({ error: expect.any(String) });
        expect(await untrusting.call('/pause', { invoice: 'inv_4' })).toMatchObject({ status: 500, body: { error: { code: 'TW_RUN_STORE' } } });
        for (let wait = 0; wait < 50 && !untrusting.log().includes('invalid peer certificate'); wait++) await new Promise((done) => setTimeout(done, 100));
        expect(untrusting.log()).toContain('TLS handshake failed: invalid peer certificate');
      } finally {
        untrusting.stop();
      }
    },
    60_000,
  );

  it('reports a database that went away during a request as TW_RUN_STORE_UNAVAILABLE, naming the server', async () => {
    const doomed = await startPostgresServer();
    stopped.push(doomed);
    // The Worker fetches this gate once its store is open; it answers once the database has stopped.
    const gate = createServer((_request, response) => {
      void doomed.stop().then(() => response.end('stopped'));
    });
    await new Promise<void>((listening) => gate.listen(0, '127.0.0.1', () => listening()));
    const worker = await serveWorker('lost', { network: ['local'], databaseUrl: doomed.connectionString });
    try {
      const { port } = gate.address() as { port: number };
      expect(await worker.call('/lost', { gate: `http://127.0.0.1:${port}/` })).toMatchObject({
        status: 500,
        body: {
          error: {
            code: 'TW_RUN_STORE_UNAVAILABLE',
            message: expect.stringContaining(`The PostgreSQL run store at 127.0.0.1:${doomed.port}/postgres cannot be reached`),
          },
        },
      });
    } finally {
      worker.stop();
      gate.close();
    }
  }, 60_000);

  it("is refused 127.0.0.1 by workerd's default network (public addresses only), with a typed error that names the store", async () => {
    const worker = await serveWorker('default-network');
    try {
      const refused = await worker.call('/pause', { invoice: 'inv_2' });
      expect(refused).toMatchObject({
        status: 500,
        body: { error: { code: 'TW_RUN_STORE', message: expect.stringContaining('cannot connect to the specified address') } },
      });
    } finally {
      worker.stop();
    }
  }, 60_000);

  it('does not answer the next request when one store is kept in module scope: workerd cancels it as hung', async () => {
    const worker = await serveWorker('kept', { network: ['local'] });
    try {
      expect(await worker.call('/kept')).toMatchObject({ status: 200, body: { found: false } });
      // The pool's connection was opened by the first request; the second cannot use it.
      const second = await worker.call('/kept');
      expect(second.status).toBe(500);
      for (let wait = 0; wait < 50 && !worker.log().includes('would never generate a response'); wait++) await new Promise((done) => setTimeout(done, 100));
      expect(worker.log()).toContain("your Worker's code had hung and would never generate a response");
    } finally {
      worker.stop();
    }
  }, 60_000);
});
