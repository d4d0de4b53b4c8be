/**
 * A Cloudflare Worker that keeps paused runs in PostgreSQL through `pg` under `nodejs_compat`, for
 * test/runtimes/postgres-in-workerd.test.ts: each request opens the store on a fresh connection and closes it before it
 * answers (a Worker cannot use a connection another request opened), so whatever lasts between requests is in the
 * database. Routes, each one request: `POST /pause` runs the agent until the write pauses for confirmation, `POST
 * /decide` records the person's approval, `POST /resume` resumes the run (the store claims the run, then begins and
 * finishes the call), `GET /run?id=` reads the run back, `GET /user-agent` says what `pg` sees of the runtime, `GET
 * /encryption` whether `pg`'s connection is encrypted, `POST /lost` reads from a store whose server the test stopped
 * meanwhile (its `gate` URL answers once it has); `/task/start`, `/task/finish` and `/task` keep an MCP task in the
 * task store. `GET /kept` does what a Worker must not: it keeps one store (its pool, its sockets) in module scope and
 * uses it again in the next request. `DATABASE_URL` is a text binding.
 */
// The package's entries through their sources, as test/runtimes/runtime-smoke.ts imports them: `toolwright`,
// `toolwright/agent`, `toolwright/stores` and `toolwright/test`.
import { defineTool, resumeAgent, runAgent, silentLogger } from '../../src/index.js';
import { decideConfirmation } from '../../src/agent/package-entry.js';
import { createPostgresRunStore, createPostgresTaskStore, type PostgresRunStore } from '../../src/stores/index.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../../src/test.js';
import pg from 'pg';

interface Env {
  DATABASE_URL: string;
}

const pay = defineTool<{ invoice: string }>({
  name: 'pay',
  description: 'Pays an invoice.',
  inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'], additionalProperties: false },
  effect: 'write',
  confirm: true,
  execute: ({ invoice }) => `Paid ${invoice}.`,
});

const common = { tools: [pay], recordDir: false as const, logger: silentLogger };

async function answer(request: Request, store: PostgresRunStore): Promise<unknown> {
  const url = new URL(request.url);
  const body = request.method === 'POST' ? ((await request.json()) as Record<string, string>) : {};
  switch (url.pathname) {
    case '/pause': {
      const model = createScriptedModel([toolCallTurn([{ name: 'pay', arguments: { invoice: body.invoice } }])]);
      const paused = await runAgent({ ...common, store, model, prompt: `Pay ${body.invoice}.` });
      return { runId: paused.runId, status: paused.status, token: paused.status === 'awaiting_confirmation' ? paused.pending[0]!.token : undefined };
    }
    case '/decide':
      return await decideConfirmation({ token: body.token!, decision: 'approve' }, { store });
    case '/resume': {
      const resumed = await resumeAgent(body.runId!, [], { ...common, store, model: createScriptedModel([textTurn('Done.')]) });
      const toolText = resumed.messages
        .filter((message) => message.role === 'tool')
        .flatMap((message) => message.results.map((part) => part.result.content.map((content) => ('text' in content ? content.text : '')).join('')));
      return { status: resumed.status, toolText };
    }
    case '/run': {
      const run = await store.loadRun(url.searchParams.get('id') ?? '');
      return (
        run && {
          status: run.status,
          lease: run.lease ?? null,
          confirmations: (await store.listConfirmations({ runId: run.runId })).map((item) => item.decision ?? null),
        }
      );
    }
    case '/lost': {
      // The test stops the database before it answers this fetch: the store opened above has lost its server.
      await (await fetch(body.gate!)).text();
      return { loaded: (await store.loadRun('run_gone')) !== undefined };
    }
    case '/user-agent':
      // What `pg` reads to pick its `pg-cloudflare` socket (`cloudflare:sockets`) over `node:net`.
      return { userAgent: (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent };
    default:
      return { error: `no route ${url.pathname}` };
  }
}

/** Whether a connection `pg` opens here is encrypted, as the server sees it (its `pg_stat_ssl` row). */
async function encryption(env: Env): Promise<unknown> {
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  try {
    await client.connect();
    return (await client.query('SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()')).rows[0];
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    await client.end().catch(() => {});
  }
}

/** The store `/kept` opens once and keeps between requests. */
let kept: PostgresRunStore | undefined;

/** `POST /task/start` adds a running task, `POST /task/finish` stores its result, `GET /task?id=` reads it: each on a store of its request. */
async function answerTask(request: Request, env: Env): Promise<unknown> {
  const url = new URL(request.url);
  const store = await createPostgresTaskStore({ connectionString: env.DATABASE_URL });
  try {
    const now = Date.now();
    if (url.pathname === '/task/start') {
      const { taskId } = (await request.json()) as { taskId: string };
      const task = { taskId, owner: 'identity:alice', toolName: 'export_ledger', status: 'working' as const, ttlMs: 60_000, pollIntervalMs: 1000 };
      return { added: await store.createTask({ ...task, createdAt: now, updatedAt: now, expiresAt: now + 60_000, leaseExpiresAt: now + 60_000 }, 1000) };
    }
    if (url.pathname === '/task/finish') {
      const { taskId, result } = (await request.json()) as { taskId: string; result: string };
      return {
        stored: await store.updateTask(taskId, { status: 'completed', result, updatedAt: now, expiresAt: now + 60_000 }, ['working', 'input_required']),
      };
    }
    return { task: (await store.getTask(url.searchParams.get('id') ?? '', now)) ?? null };
  } finally {
    await store.close();
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname.startsWith('/task')) return Response.json(await answerTask(request, env));
    if (new URL(request.url).pathname === '/encryption') return Response.json(await encryption(env));
    if (new URL(request.url).pathname === '/kept') {
      kept ??= await createPostgresRunStore({ connectionString: env.DATABASE_URL });
      return Response.json({ found: (await kept.loadRun('run_none')) !== undefined });
    }
    try {
      const store = await createPostgresRunStore({ connectionString: env.DATABASE_URL });
      try {
        return Response.json(await answer(request, store));
      } finally {
        await store.close();
      }
    } catch (error) {
      const { name, message, code } = error as { name?: string; message?: string; code?: string };
      return Response.json({ error: { name, code, message } }, { status: 500 });
    }
  },
};
