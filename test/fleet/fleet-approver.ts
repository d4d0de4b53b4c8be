/**
 * The person approving, in a process of its own (as on another instance behind a load balancer): approves every call
 * waiting in the store, one by one in a seeded random order, through the queue, so that each run whose last call is
 * decided goes to a free worker (and `FLEET_DUPLICATES` more jobs for it). Logs when each decision was recorded. Prints
 * `approved <n>` and exits.
 * @module
 */
import { createPostgresRunStore, createRunQueue } from '../../src/stores/index.js';
import { FLEET_SCHEMA, ledgerPool } from './fleet-tools.js';

const connectionString = process.env.FLEET_DATABASE_URL!;
const gapMs = Number(process.env.FLEET_APPROVE_GAP_MS ?? 0);
const duplicates = Number(process.env.FLEET_DUPLICATES ?? 0);
let seed = Number(process.env.FLEET_SEED ?? 1);
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;

const store = await createPostgresRunStore({ connectionString, maxConnections: 2 });
const queue = await createRunQueue({ connectionString, store });
const pending = await store.listConfirmations({ undecided: true });
const order = pending.map((item) => ({ item, key: random() })).sort((a, b) => a.key - b.key);
for (const { item } of order) {
  await queue.decide({ token: item.token, decision: 'approve' });
  // Duplicate deliveries, as a retried request or a second approver would cause: free workers race for the same run.
  for (let copy = 0; copy < duplicates; copy++) await queue.enqueue(item.runId);
  await ledgerPool().query(`INSERT INTO ${FLEET_SCHEMA}.decisions VALUES ($1, $2)`, [item.runId, Date.now()]);
  if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, random() * gapMs));
}
process.stdout.write(`approved ${order.length}\n`);
await queue.stop({ timeoutMs: 1_000 });
await store.close();
await ledgerPool().end();
