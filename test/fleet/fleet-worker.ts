/**
 * One worker process of the fleet: opens the PostgreSQL run store and the pg-boss queue on `FLEET_DATABASE_URL`, works
 * the queue until SIGTERM, and logs each outcome (with its pid) in the ledger. Prints `ready` once it works.
 * `FLEET_CLOCK_OFFSET_MS` moves this process's `Date.now` (a machine whose clock is off by that much).
 * @module
 */
import { createPostgresRunStore, createRunQueue } from '../../src/stores/index.js';
import { FLEET_SCHEMA, fleetResumeOptions, ledgerPool } from './fleet-tools.js';

const clockOffsetMs = Number(process.env.FLEET_CLOCK_OFFSET_MS ?? 0);
if (clockOffsetMs !== 0) {
  const realNow = Date.now.bind(Date);
  Date.now = () => realNow() + clockOffsetMs;
}

const connectionString = process.env.FLEET_DATABASE_URL!;
const leaseMs = Number(process.env.FLEET_LEASE_MS ?? 1_500);
const store = await createPostgresRunStore({
  connectionString,
  maxConnections: 4,
  ...(process.env.FLEET_STORE_SCHEMA ? { schema: process.env.FLEET_STORE_SCHEMA } : {}),
});
const queue = await createRunQueue({
  connectionString,
  store,
  ...(process.env.FLEET_QUEUE ? { queue: process.env.FLEET_QUEUE } : {}),
  expireInSeconds: Number(process.env.FLEET_JOB_EXPIRE_S ?? 3),
  maintenanceIntervalSeconds: 1,
  retryDelaySeconds: 1,
  pollingIntervalSeconds: Number(process.env.FLEET_POLL_S ?? 1),
});
await queue.work(() => fleetResumeOptions(leaseMs), {
  concurrency: Number(process.env.FLEET_CONCURRENCY ?? 1),
  onOutcome: (outcome) => {
    const status = 'result' in outcome ? outcome.result.status : outcome.skipped;
    ledgerPool()
      .query(`INSERT INTO ${FLEET_SCHEMA}.outcomes VALUES ($1, $2, $3, $4)`, [outcome.runId, status, process.pid, Date.now()])
      .catch(() => {});
  },
});
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void queue
    .stop({ timeoutMs: 5_000 })
    .then(() => store.close())
    .finally(() => process.exit(0));
});
