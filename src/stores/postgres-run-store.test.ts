/** The PostgreSQL store under the RunStore contract, against a real server the test starts; and what only it does. */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createScriptedModel, textTurn, toolCallTurn } from '../models/scripted/scripted-model.js';
import { defineTool } from '../tools/define-tool.js';
import { silentLogger } from '../tools/tool-registry.js';
import { decideConfirmation, resumeAgent } from '../agent/resume-agent.js';
import { runAgent } from '../agent/run-agent.js';
import { postgresUnavailable, startPostgresServer, type PostgresServer } from '../../test/fixtures/postgres-server.js';
import { confirmation, describeRunStoreContract, lease, state } from '../../test/fixtures/run-store-contract.js';
import { createRedactor } from '../agent/redact.js';
import { createPostgresRunStore, POSTGRES_SCHEMA_VERSION, type DecisionNotice, type PostgresRunStore } from './postgres-run-store.js';
import { sealRunStore } from '../agent/sealed-run-store.js';

const unavailable = postgresUnavailable();
let server: PostgresServer | undefined;
let schemas = 0;

beforeAll(async () => {
  if (!unavailable) server = await startPostgresServer();
});
/**
 * Every store the file opens, closed before the server stops: a fast shutdown terminates each open connection, and a
 * connection a store still held would report it after the tests (an unhandled error in the run).
 */
const opened: PostgresRunStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await server?.stop();
});

/** A fresh schema per store (the contract's tests reuse run ids); far quicker than a database each. */
const freshSchema = () => `store_${++schemas}`;

describeRunStoreContract(
  'postgres',
  async () => {
    const store = await createPostgresRunStore({ connectionString: server!.connectionString, schema: freshSchema() });
    opened.push(store);
    return store;
  },
  unavailable ? { skip: unavailable, leaseClock: 'store' } : { leaseClock: 'store' },
);

describe.skipIf(unavailable !== undefined)(`createPostgresRunStore${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  const stores: PostgresRunStore[] = [];
  const open = async (schema: string) => {
    const store = await createPostgresRunStore({ connectionString: server!.connectionString, schema });
    stores.push(store);
    opened.push(store);
    return store;
  };
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
  });

  it('migrates once when several instances start at once, and again is a no-op', async () => {
    const schema = freshSchema();
    const first = await Promise.all(Array.from({ length: 6 }, () => open(schema)));
    const secrets = await Promise.all(first.map((store) => store.getSecret()));
    for (const secret of secrets) expect(Buffer.from(secret).equals(Buffer.from(secrets[0]!))).toBe(true);
    await open(schema);
    const client = new pg.Client({ connectionString: server!.connectionString });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT version FROM ${schema}.migrations ORDER BY version`);
      expect(rows.map((row) => row.version)).toEqual(Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, index) => index + 1));
    } finally {
      await client.end();
    }
  });

  it('refuses a database migrated by a newer toolwright, naming the fix', async () => {
    const schema = freshSchema();
    await (await open(schema)).close();
    const client = new pg.Client({ connectionString: server!.connectionString });
    await client.connect();
    await client.query(`INSERT INTO ${schema}.migrations VALUES ($1, 0)`, [POSTGRES_SCHEMA_VERSION + 1]);
    await client.end();
    await expect(createPostgresRunStore({ connectionString: server!.connectionString, schema })).rejects.toMatchObject({
      code: 'TW_RUN_STORE',
      message: expect.stringContaining('newer than this toolwright knows'),
    });
  });

  it('shares state between instances, and keeps schemas apart', async () => {
    const schema = freshSchema();
    const one = await open(schema);
    const two = await open(schema);
    const other = await open(freshSchema());
    await one.saveRun({ runId: 'r', status: 'awaiting_confirmation', state: state('r') }, [confirmation('r', '0.0', 'apr_s')]);
    expect(await two.decide('r', '0.0', 'approve', undefined, 1)).toBe('decided');
    expect(await one.decide('r', '0.0', 'approve', undefined, 1)).toBe('already_decided');
    expect(await other.loadRun('r')).toBeUndefined();
    expect(Buffer.from(await other.getSecret()).equals(Buffer.from(await one.getSecret()))).toBe(false);
  });

  /** The database's clock, as the store reads it. */
  const databaseNow = async (): Promise<number> => {
    const client = new pg.Client({ connectionString: server!.connectionString });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT (extract(epoch from clock_timestamp()) * 1000)::bigint AS now`);
      return Number(rows[0].now);
    } finally {
      await client.end();
    }
  };

  it('measures leases on the database clock: a handle whose clock runs 10 s ahead cannot take over a lease renewed a moment ago', async () => {
    const schema = freshSchema();
    const holder = await open(schema);
    const skewed = await open(schema);
    await holder.saveRun({ runId: 'k', status: 'awaiting_confirmation', state: state('k') });
    const now = Date.now();
    expect(await holder.claimRun('k', { lease: lease('a', now + 5_000), now })).toEqual({ claimed: true });
    const renewedAt = Date.now();
    expect(await holder.renewLease('k', 'a', renewedAt + 5_000, renewedAt)).toBe(true);
    // The other instance's clock is 10 s ahead: on it, the lease ran out 5 s ago.
    const ahead = Date.now() + 10_000;
    const refused = await skewed.claimRun('k', { takeOver: true, lease: lease('b', ahead + 5_000), now: ahead });
    expect(refused).toMatchObject({ claimed: false, status: 'running', lease: { owner: 'a' } });
    expect((await skewed.loadRun('k'))?.lease?.owner).toBe('a');
  });

  it('starts a lease on the database clock with the length the caller asked, and lets a clock 10 s behind take over once it ran out there', async () => {
    const schema = freshSchema();
    const holder = await open(schema);
    const behind = await open(schema);
    await holder.saveRun({ runId: 'l', status: 'awaiting_confirmation', state: state('l') });
    const before = await databaseNow();
    const late = Date.now() - 10_000;
    expect(await behind.claimRun('l', { lease: lease('b', late + 30_000), now: late })).toEqual({ claimed: true });
    const after = await databaseNow();
    const stored = (await holder.loadRun('l'))!.lease!;
    expect(stored.expiresAt).toBeGreaterThanOrEqual(before + 30_000);
    expect(stored.expiresAt).toBeLessThanOrEqual(after + 30_000);
    // 'b' renews with no time left: the lease runs out now, on the database's clock.
    const renewedAt = Date.now() - 10_000;
    expect(await behind.renewLease('l', 'b', renewedAt, renewedAt)).toBe(true);
    // On the clock 10 s behind the lease has 10 s to go; the database says it is over, and the database decides.
    const lateAgain = Date.now() - 10_000;
    expect(await behind.claimRun('l', { takeOver: true, lease: lease('c', lateAgain + 30_000), now: lateAgain })).toEqual({ claimed: true });
    expect((await holder.loadRun('l'))?.lease?.owner).toBe('c');
  });

  it('lets resumeAgent on a process whose clock runs 30 s behind take over a run whose lease ran out on the database clock', async () => {
    const store = await open(freshSchema());
    const paid: string[] = [];
    const pay = defineTool<{ invoice: string }>({
      name: 'pay',
      description: 'Pays an invoice.',
      effect: 'write',
      confirm: true,
      inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'] },
      execute: ({ invoice }) => {
        paid.push(invoice);
        return 'paid';
      },
    });
    const common = { tools: [pay], store, recordDir: false as const, logger: silentLogger };
    const paused = await runAgent({
      ...common,
      model: createScriptedModel([toolCallTurn([{ name: 'pay', arguments: { invoice: 'inv_9' } }])]),
      prompt: 'Pay.',
    });
    if (paused.status !== 'awaiting_confirmation') throw new Error(`expected a pause, got ${paused.status}`);
    await decideConfirmation({ token: paused.pending[0]!.token, decision: 'approve' }, { store });
    // A worker claimed it and died; its lease ran out on the database's clock a moment ago.
    const now = Date.now();
    expect(await store.claimRun(paused.runId, { lease: lease('dead', now), now })).toEqual({ claimed: true });
    const realNow = Date.now.bind(Date);
    const behind = vi.spyOn(Date, 'now').mockImplementation(() => realNow() - 30_000);
    try {
      // On this process's clock the dead lease still has 30 s to go; the database says it is over.
      const result = await resumeAgent(paused.runId, [], { ...common, model: createScriptedModel([textTurn('Paid.')]), takeOver: true });
      expect(result.status).toBe('completed');
    } finally {
      behind.mockRestore();
    }
    expect(paid).toEqual(['inv_9']);
  });

  it('tells every listening instance of a decision once it commits, and wakes a waiter on it', async () => {
    const schema = freshSchema();
    const waiter = await open(schema);
    const decider = await open(schema);
    await decider.saveRun({ runId: 'w', status: 'awaiting_confirmation', state: state('w') }, [
      confirmation('w', '0.0', 'apr_w0'),
      confirmation('w', '0.1', 'apr_w1'),
    ]);
    const heard: DecisionNotice[] = [];
    const stop = await waiter.onDecision((notice) => heard.push(notice));
    // pollMs far beyond the test's timeout: only the notification can wake the waiter in time.
    let woke = false;
    const waiting = waiter.waitForDecisions('w', { pollMs: 600_000 }).then(() => (woke = true));
    await decider.decide('w', '0.0', 'approve', undefined, 1);
    await until(() => heard.length === 1);
    expect(woke).toBe(false);
    expect(await decider.decide('w', '0.0', 'deny', undefined, 1)).toBe('already_decided');
    await decider.decide('w', '0.1', 'deny', 'no', 2);
    await waiting;
    // The waiter and the onDecision listener hear the same notification separately: the second may come a moment later.
    await until(() => heard.length === 2);
    expect(heard).toEqual([
      { runId: 'w', callKey: '0.0', decision: 'approve' },
      { runId: 'w', callKey: '0.1', decision: 'deny' },
    ]);
    await stop();
    // Nothing undecided: resolves at once.
    await waiter.waitForDecisions('w');
  });

  it('stops waiting when the signal aborts', async () => {
    const schema = freshSchema();
    const store = await open(schema);
    await store.saveRun({ runId: 'a', status: 'awaiting_confirmation', state: state('a') }, [confirmation('a', '0.0', 'apr_a')]);
    const controller = new AbortController();
    const waiting = store.waitForDecisions('a', { signal: controller.signal, pollMs: 600_000 });
    controller.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
  });

  it('keeps secrets out of the database in clear when sealed, and gives them back on load', async () => {
    const schema = freshSchema();
    const store = sealRunStore(await open(schema), createRedactor());
    const key = 'sk-proj-' + 'Q'.repeat(40);
    await store.saveRun({ runId: 's', status: 'awaiting_confirmation', state: { ...state('s'), messages: [{ role: 'user', content: `use ${key}` }] } });
    expect((await store.loadRun('s'))?.state.messages).toEqual([{ role: 'user', content: `use ${key}` }]);
    const client = new pg.Client({ connectionString: server!.connectionString });
    await client.connect();
    const { rows } = await client.query(`SELECT state FROM ${schema}.runs WHERE run_id = 's'`);
    await client.end();
    expect(rows[0].state).not.toContain(key);
    expect(rows[0].state).toContain('toolwrightSealed');
  });

  it('takes a pool of the caller and leaves it open on close', async () => {
    const pool = new pg.Pool({ connectionString: await server!.createDatabase('own_pool'), max: 2 });
    // A connection still closing when the server stops is reported on the pool (see postgres-schema-current.test.ts).
    pool.on('error', () => {});
    const store = await createPostgresRunStore({ pool });
    await store.saveRun({ runId: 'p', status: 'completed', state: state('p') });
    await store.close();
    expect((await pool.query(`SELECT status FROM toolwright.runs`)).rows).toEqual([{ status: 'completed' }]);
    await pool.end();
  });

  it('explains bad options and an unreachable server', async () => {
    await expect(createPostgresRunStore({})).rejects.toMatchObject({ code: 'TW_INVALID_ARGUMENT' });
    await expect(createPostgresRunStore({ connectionString: 'postgres://x@127.0.0.1:1/db', schema: 'Bad-Name' })).rejects.toMatchObject({
      code: 'TW_INVALID_ARGUMENT',
    });
    await expect(createPostgresRunStore({ connectionString: 'postgres://x@127.0.0.1:1/db' })).rejects.toMatchObject({
      code: 'TW_RUN_STORE',
      message: expect.stringContaining('Check the connection string'),
    });
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let round = 0; round < 500 && !condition(); round++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
