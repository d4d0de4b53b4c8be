/**
 * The run queue (`createRunQueue`, on pg-boss) against a real PostgreSQL server the test starts: a run is handed to a
 * worker only once its last decision is recorded, a worker resumes it, duplicate decisions and deliveries resume it
 * once, an expired lease is taken over, `stop` waits for the resume in flight and closes its connections, and bad
 * input gets typed errors. Each test has its own store schema, queue schema and queue.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresUnavailable, startPostgresServer, type PostgresServer } from '../../test/fixtures/postgres-server.js';
import { createScriptedModel, textTurn, toolCallTurn } from '../models/scripted/scripted-model.js';
import { defineTool, type AnyTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import { createPostgresRunStore, type PostgresRunStore } from './postgres-run-store.js';
import { createRunQueue, type RunQueue, type WorkerOutcome } from './run-queue.js';
import { runAgent } from '../agent/run-agent.js';
import type { PendingConfirmation } from '../agent/agent-result.js';

const unavailable = postgresUnavailable();
let server: PostgresServer | undefined;
let url = '';
let fresh = 0;
const opened: { stores: PostgresRunStore[]; queues: RunQueue[] } = { stores: [], queues: [] };

beforeAll(async () => {
  if (unavailable) return;
  server = await startPostgresServer();
  url = await server.createDatabase('queue');
});
afterAll(async () => {
  await Promise.all(opened.queues.map((queue) => queue.stop({ timeoutMs: 1_000 }).catch(() => {})));
  await Promise.all(opened.stores.map((store) => store.close()));
  await server?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A store and a queue of their own (schemas and queue name), fast enough for a test: 1 s retries, 0.5 s polls. */
async function openQueue(connectionString = url): Promise<{ store: PostgresRunStore; queue: RunQueue; queueSchema: string; queueName: string }> {
  const id = ++fresh;
  const store = await createPostgresRunStore({ connectionString, schema: `queue_store_${id}` });
  opened.stores.push(store);
  const queueSchema = `queue_boss_${id}`;
  const queueName = `resume-${id}`;
  const queue = await createRunQueue({
    connectionString,
    store,
    schema: queueSchema,
    queue: queueName,
    retryDelaySeconds: 1,
    maintenanceIntervalSeconds: 1,
    pollingIntervalSeconds: 0.5,
    expireInSeconds: 30,
  });
  opened.queues.push(queue);
  return { store, queue, queueSchema, queueName };
}

/** A write that asks a person first and counts its executions; `gate` holds it inside the write until resolved. */
function payTool(options: { gate?: Promise<void>; onStart?: () => void } = {}): { tool: AnyTool; paid: string[] } {
  const paid: string[] = [];
  const tool = defineTool<{ invoice: string }>({
    name: 'pay',
    description: 'Pays an invoice.',
    effect: 'write',
    confirm: true,
    inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'] },
    execute: async ({ invoice }) => {
      options.onStart?.();
      await options.gate;
      paid.push(invoice);
      return `paid ${invoice}`;
    },
  });
  return { tool, paid };
}

/** A run paused on `invoices.length` approved-to-be writes, in one turn. */
async function pausedRun(store: PostgresRunStore, tool: AnyTool, invoices: string[]): Promise<{ runId: string; pending: PendingConfirmation[] }> {
  const model = createScriptedModel([toolCallTurn(invoices.map((invoice, index) => ({ id: `c${index}`, name: 'pay', arguments: { invoice } })))]);
  const result = await runAgent({ model, tools: [tool], store, prompt: 'Pay.', recordDir: false, logger: silentLogger });
  if (result.status !== 'awaiting_confirmation') throw new Error(`expected a pause, got ${result.status}`);
  return { runId: result.runId, pending: result.pending };
}

const resumeWith = (tool: AnyTool, leaseMs?: number) => () => ({
  model: createScriptedModel([textTurn('Paid.')]),
  tools: [tool],
  recordDir: false as const,
  logger: silentLogger,
  ...(leaseMs !== undefined ? { leaseMs } : {}),
});

async function jobCount(schema: string, queueName: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query(`SELECT count(*) AS n FROM ${schema}.job WHERE name = $1`, [queueName])).rows[0].n);
  } finally {
    await client.end();
  }
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await sleep(50);
  }
}

describe.skipIf(unavailable !== undefined)(`createRunQueue${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('hands a run to a worker only once its last decision is recorded; the worker resumes it and each write runs once', { timeout: 60_000 }, async () => {
    const { store, queue, queueSchema, queueName } = await openQueue();
    const { tool, paid } = payTool();
    const { runId, pending } = await pausedRun(store, tool, ['inv_1', 'inv_2']);
    expect(pending).toHaveLength(2);
    await queue.decide({ token: pending[0]!.token, decision: 'approve' });
    // One of two calls decided: nothing to resume yet.
    expect(await jobCount(queueSchema, queueName)).toBe(0);
    await queue.decide({ token: pending[1]!.token, decision: 'approve' });
    expect(await jobCount(queueSchema, queueName)).toBe(1);

    const outcomes: WorkerOutcome[] = [];
    await queue.work(resumeWith(tool), { onOutcome: (outcome) => outcomes.push(outcome) });
    await until(() => outcomes.length === 1, 'the worker to resume the run');
    expect(outcomes[0]).toMatchObject({ runId, result: { status: 'completed', text: 'Paid.' } });
    expect(paid.sort()).toEqual(['inv_1', 'inv_2']);
    expect((await store.loadRun(runId))?.status).toBe('completed');
  });

  it('resumes a run once however often it is decided or delivered: a second decision is refused, extra jobs find it done', { timeout: 60_000 }, async () => {
    const { store, queue, queueSchema, queueName } = await openQueue();
    const { tool, paid } = payTool();
    const { runId, pending } = await pausedRun(store, tool, ['inv_3']);
    await queue.decide({ token: pending[0]!.token, decision: 'approve' });
    await expect(queue.decide({ token: pending[0]!.token, decision: 'approve' })).rejects.toMatchObject({
      code: 'TW_CONFIRMATION_REFUSED',
      reason: 'already_used',
    });
    await expect(queue.decide({ token: pending[0]!.token, decision: 'deny' })).rejects.toMatchObject({ reason: 'already_used' });
    // The refused decisions sent no job; two more deliveries of the same run do.
    expect(await jobCount(queueSchema, queueName)).toBe(1);
    await queue.enqueue(runId);
    await queue.enqueue(runId);

    const outcomes: WorkerOutcome[] = [];
    await queue.work(resumeWith(tool), { concurrency: 3, onOutcome: (outcome) => outcomes.push(outcome) });
    await until(() => outcomes.length === 3, 'three outcomes, one per job');
    expect(outcomes.filter((outcome) => 'result' in outcome && outcome.result.status === 'completed')).toHaveLength(1);
    expect(outcomes.filter((outcome) => 'skipped' in outcome && outcome.skipped === 'not_resumable')).toHaveLength(2);
    expect(paid).toEqual(['inv_3']);
  });

  it('takes over a run whose worker died once its lease ran out, and runs its write once', { timeout: 60_000 }, async () => {
    const { store, queue } = await openQueue();
    const { tool, paid } = payTool();
    const { runId, pending } = await pausedRun(store, tool, ['inv_4']);
    await queue.decide({ token: pending[0]!.token, decision: 'approve' });
    // A worker that claimed the run and died: its lease has 1.5 s left on the database's clock.
    const now = Date.now();
    expect(await store.claimRun(runId, { lease: { owner: 'dead', holder: 'pid 1 on gone', expiresAt: now + 1_500 }, now })).toEqual({ claimed: true });

    const outcomes: WorkerOutcome[] = [];
    await queue.work(resumeWith(tool), { onOutcome: (outcome) => outcomes.push(outcome) });
    await until(() => outcomes.length === 1, 'the take-over');
    expect(outcomes[0]).toMatchObject({ runId, result: { status: 'completed' } });
    expect(paid).toEqual(['inv_4']);
    const run = await store.loadRun(runId);
    expect(run?.status).toBe('completed');
  });

  it('stops cleanly: waits for the resume in flight, then closes its connections', { timeout: 60_000 }, async () => {
    const { store, queue } = await openQueue();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = false;
    const { tool, paid } = payTool({ gate, onStart: () => (started = true) });
    const { runId, pending } = await pausedRun(store, tool, ['inv_5']);
    const outcomes: WorkerOutcome[] = [];
    await queue.work(resumeWith(tool), { onOutcome: (outcome) => outcomes.push(outcome) });
    await queue.decide({ token: pending[0]!.token, decision: 'approve' });
    await until(() => started, 'the write to start');

    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const backends = async () => Number((await client.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'queue'`)).rows[0].n);
    try {
      const before = await backends();
      let stopped = false;
      const stopping = queue.stop({ timeoutMs: 20_000 }).then(() => (stopped = true));
      await sleep(300);
      // Still inside the write: stop waits for it.
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(outcomes).toEqual([expect.objectContaining({ runId, result: expect.objectContaining({ status: 'completed' }) })]);
      expect(paid).toEqual(['inv_5']);
      // pg-boss's pool and the wake-up listener are gone (the server notices a closed connection a moment later).
      await until(async () => (await backends()) < before, 'the queue connections to close');
    } finally {
      await client.end();
    }
  });

  it(
    'recovers when the database drops every connection of the worker in the middle of a write: the run completes, the write ran once, and it serves the next run',
    { timeout: 90_000 },
    async () => {
      const database = 'queue_dropped';
      const { store, queue } = await openQueue(await server!.createDatabase(database));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started = false;
      const { tool, paid } = payTool({ gate, onStart: () => (started = true) });
      const first = await pausedRun(store, tool, ['inv_7']);
      const outcomes: WorkerOutcome[] = [];
      await queue.work(resumeWith(tool, 2_000), { onOutcome: (outcome) => outcomes.push(outcome) });
      await queue.decide({ token: first.pending[0]!.token, decision: 'approve' });
      await until(() => started, 'the write to start');

      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        // As an administrator or a failover would: every backend of the worker's database goes (store pool, pg-boss, LISTEN).
        const dropped = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`, [
          database,
        ]);
        expect(dropped.rows.length).toBeGreaterThan(0);
        await until(
          async () => Number((await admin.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1`, [database])).rows[0].n) === 0,
          'the backends to end',
        );
      } finally {
        await admin.end();
      }
      release();
      // Whether this resume records its outcome on a new connection or fails and the job's retry takes the run over, the
      // run completes and the write is not run again.
      await until(async () => (await store.loadRun(first.runId))?.status === 'completed', 'the run to complete');
      expect(paid).toEqual(['inv_7']);

      const second = await pausedRun(store, tool, ['inv_8']);
      await queue.decide({ token: second.pending[0]!.token, decision: 'approve' });
      await until(() => outcomes.some((outcome) => outcome.runId === second.runId), 'the next run');
      expect(outcomes.find((outcome) => outcome.runId === second.runId)).toMatchObject({ result: { status: 'completed' } });
      expect(paid).toEqual(['inv_7', 'inv_8']);
    },
  );

  it('gives typed errors for bad input: a queue name, an unreachable database, a malformed or forged token', { timeout: 60_000 }, async () => {
    const store = await createPostgresRunStore({ connectionString: url, schema: `queue_store_${++fresh}` });
    opened.stores.push(store);
    await expect(createRunQueue({ connectionString: url, store, queue: 'no spaces; DROP TABLE' })).rejects.toMatchObject({
      code: 'TW_INVALID_ARGUMENT',
      message: expect.stringContaining('letters, digits'),
    });
    await expect(createRunQueue({ connectionString: 'postgres://nobody@127.0.0.1:1/none', store })).rejects.toMatchObject({
      code: 'TW_RUN_STORE',
      message: expect.stringContaining('Check the connection string'),
    });
    const { queue } = await openQueue();
    await expect(queue.decide({ token: 'not a token', decision: 'approve' })).rejects.toMatchObject({ code: 'TW_CONFIRMATION_REFUSED', reason: 'malformed' });
    await expect(queue.decide({ token: 'twc1.eyJ9.AAAA', decision: 'approve' })).rejects.toMatchObject({ code: 'TW_CONFIRMATION_REFUSED' });
    await expect(queue.decide({ token: 'x', decision: 'maybe' as 'approve' })).rejects.toMatchObject({ code: 'TW_INVALID_ARGUMENT' });
  });
});
