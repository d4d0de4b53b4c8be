/**
 * What every process of the fleet test (and `npm run bench:fleet`) shares: the two approved writes, their ledger in
 * PostgreSQL, and the scripted model. `pay` is a plain write (at most once); `pay_keyed` accepts an idempotency key and
 * dedupes on it (exactly once in effect). Each execution is logged with the pid of the process that ran it, before and
 * after its effect, so the test can kill a worker inside a write and count what took effect.
 * @module
 */
import pg from 'pg';
import { defineTool, silentLogger, type AnyTool, type ResumeAgentOptions } from '../../src/index.js';
import { createScriptedModel, textTurn } from '../../src/test.js';

export const FLEET_SCHEMA = 'fleet';

let pool: pg.Pool | undefined;
/** The ledger's pool in this process (from `FLEET_DATABASE_URL`). */
export function ledgerPool(): pg.Pool {
  if (!pool) {
    pool = new pg.Pool({ connectionString: process.env.FLEET_DATABASE_URL, max: 4 });
    pool.on('error', () => {});
  }
  return pool;
}

export async function createLedger(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  await client.query(`
    CREATE SCHEMA IF NOT EXISTS ${FLEET_SCHEMA};
    CREATE TABLE IF NOT EXISTS ${FLEET_SCHEMA}.attempts (run_id TEXT, call_key TEXT, tool TEXT, pid INT, phase TEXT, at BIGINT);
    CREATE TABLE IF NOT EXISTS ${FLEET_SCHEMA}.effects (run_id TEXT, tool TEXT, idempotency_key TEXT, pid INT, at BIGINT);
    CREATE UNIQUE INDEX IF NOT EXISTS effects_key ON ${FLEET_SCHEMA}.effects (idempotency_key) WHERE idempotency_key IS NOT NULL;
    CREATE TABLE IF NOT EXISTS ${FLEET_SCHEMA}.outcomes (run_id TEXT, status TEXT, pid INT, at BIGINT);
    CREATE TABLE IF NOT EXISTS ${FLEET_SCHEMA}.decisions (run_id TEXT, at BIGINT);
    CREATE TABLE IF NOT EXISTS ${FLEET_SCHEMA}.holds (id SERIAL PRIMARY KEY, run_id TEXT, pid INT, point TEXT, released BOOLEAN NOT NULL DEFAULT false);`);
  await client.end();
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `FLEET_TOOL_DELAY_MS` (default 0) is how long a write dwells before and after its effect: the window a kill can hit. */
function dwell(): Promise<unknown> {
  const most = Number(process.env.FLEET_TOOL_DELAY_MS ?? 0);
  return most > 0 ? pause(Math.floor(Math.random() * most)) : Promise.resolve();
}

/** Where a held write waits: before its effect took place, or after it but before the write returned. */
export type HoldPoint = 'before_effect' | 'after_effect';

/**
 * With `FLEET_HOLD_WRITES=1`, a write stops at `point` until the test sets its row of `holds` released: a process
 * killed while its row is not released was killed inside the write, whatever the machine's load.
 */
async function holdIfAsked(db: pg.Pool, runId: string, point: HoldPoint): Promise<void> {
  if (process.env.FLEET_HOLD_WRITES !== '1') return;
  const { rows } = await db.query(`INSERT INTO ${FLEET_SCHEMA}.holds (run_id, pid, point) VALUES ($1, $2, $3) RETURNING id`, [runId, process.pid, point]);
  const { id } = rows[0] as { id: number };
  while (!((await db.query(`SELECT released FROM ${FLEET_SCHEMA}.holds WHERE id = $1`, [id])).rows[0] as { released: boolean }).released) await pause(10);
}

function payTool(name: 'pay' | 'pay_keyed'): AnyTool {
  return defineTool<{ invoice: string }>({
    name,
    description: 'Pays an invoice.',
    effect: 'write',
    confirm: true,
    ...(name === 'pay_keyed' ? { acceptsIdempotencyKey: true } : {}),
    inputSchema: { type: 'object', properties: { invoice: { type: 'string' } }, required: ['invoice'] },
    execute: async (args, context) => {
      const db = ledgerPool();
      // Each run pays its own invoice: the invoice names the run in the ledger.
      const runId = args.invoice;
      await db.query(`INSERT INTO ${FLEET_SCHEMA}.attempts VALUES ($1, $2, $3, $4, 'started', $5)`, [runId, context.toolCallId, name, process.pid, Date.now()]);
      await dwell();
      await holdIfAsked(db, runId, 'before_effect');
      const key = name === 'pay_keyed' ? (context.idempotencyKey ?? null) : null;
      await db.query(`INSERT INTO ${FLEET_SCHEMA}.effects VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, [runId, name, key, process.pid, Date.now()]);
      await dwell();
      await holdIfAsked(db, runId, 'after_effect');
      await db.query(`INSERT INTO ${FLEET_SCHEMA}.attempts VALUES ($1, $2, $3, $4, 'finished', $5)`, [
        runId,
        context.toolCallId,
        name,
        process.pid,
        Date.now(),
      ]);
      return `paid ${args.invoice}`;
    },
  });
}

export const fleetTools: AnyTool[] = [payTool('pay'), payTool('pay_keyed')];

/** How a worker resumes any run of the fleet: the same tools, a model that answers once the write ran. */
export function fleetResumeOptions(leaseMs: number): ResumeAgentOptions {
  return {
    model: createScriptedModel([textTurn('Paid.'), textTurn('Paid.'), textTurn('Paid.')]),
    tools: fleetTools,
    leaseMs,
    recordDir: false,
    logger: silentLogger,
  };
}
