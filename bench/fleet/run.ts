/**
 * `npm run bench:fleet`: a fleet of worker processes on one PostgreSQL database (a throwaway server the bench starts, as
 * the tests do), against the single-machine SQLite store as the peer.
 *
 * Each configuration pauses `--runs` runs on one approved write, then approves them all as fast as it can from this
 * process. With PostgreSQL, each decision goes through the pg-boss queue (`createRunQueue(...).decide`) to 1, 2 or 4
 * worker processes started beforehand; with SQLite, this process resumes each run itself right after deciding it
 * (`decideConfirmation` then `resumeAgent`: one machine, no queue). Two figures per configuration: runs per second,
 * from the first decision to the last write; and the p99 time from a run's decision to its resumed write taking effect.
 * Configurations are interleaved round by round (order rotating), and each round's figures are divided by that
 * round's SQLite figures; the median ratio over the rounds is the figure to read.
 *
 *   npm run bench:fleet
 *   npm run bench:fleet -- --runs=40 --rounds=5 --workers=1,2,4
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { resumeAgent, runAgent, silentLogger, type RunStore } from '../../src/index.js';
import { decideConfirmation } from '../../src/agent/package-entry.js';
import { createPostgresRunStore, createRunQueue, openSqliteRunStore } from '../../src/stores/index.js';
import { createScriptedModel, toolCallTurn } from '../../src/test.js';
import { startPostgresServer } from '../../test/fixtures/postgres-server.js';
import { FLEET_SCHEMA, createLedger, fleetResumeOptions, fleetTools } from '../../test/fleet/fleet-tools.js';

const args = new Map(process.argv.slice(2).map((arg) => arg.replace(/^--/, '').split('=') as [string, string | undefined]));
const RUNS = Number(args.get('runs') ?? 30);
const ROUNDS = Number(args.get('rounds') ?? 3);
const WORKERS = (args.get('workers') ?? '1,2,4').split(',').map(Number);
const here = dirname(fileURLToPath(import.meta.url));
const workerScript = join(here, '../../test/fleet/fleet-worker.ts');

interface Figures {
  runsPerSecond: number;
  p99Ms: number;
}

const server = await startPostgresServer();
const url = await server.createDatabase('bench');
process.env.FLEET_DATABASE_URL = url;
await createLedger(url);
const ledger = new pg.Client({ connectionString: url });
await ledger.connect();
const folder = mkdtempSync(join(tmpdir(), 'tw-bench-fleet-'));
const children = new Set<ChildProcess>();

async function pauseRuns(store: RunStore, label: string): Promise<string[]> {
  const runIds: string[] = [];
  for (let index = 0; index < RUNS; index++) {
    const model = createScriptedModel([toolCallTurn([{ id: `c${index}`, name: 'pay', arguments: { invoice: `${label}_${index}` } }])]);
    const result = await runAgent({ model, tools: fleetTools, store, prompt: 'Pay.', recordDir: false, logger: silentLogger });
    runIds.push(result.runId);
  }
  return runIds;
}

/** Figures from the ledger: decisions (this process) and effects (whoever ran the write), for invoices of `label`. */
async function figures(label: string, decidedAt: Map<string, number>): Promise<Figures> {
  const { rows } = await ledger.query(`SELECT run_id, at FROM ${FLEET_SCHEMA}.effects WHERE run_id LIKE $1`, [`${label}_%`]);
  const latencies = rows.map((row) => Number(row.at) - decidedAt.get(row.run_id as string)!).sort((a, b) => a - b);
  const first = Math.min(...decidedAt.values());
  const last = Math.max(...rows.map((row) => Number(row.at)));
  return { runsPerSecond: (RUNS * 1_000) / (last - first), p99Ms: latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)]! };
}

async function waitForEffects(label: string): Promise<void> {
  for (let round = 0; round < 6_000; round++) {
    const { rows } = await ledger.query(`SELECT count(*)::int AS n FROM ${FLEET_SCHEMA}.effects WHERE run_id LIKE $1`, [`${label}_%`]);
    if (rows[0].n >= RUNS) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${label}: not every write took effect within a minute`);
}

async function sqlitePeer(label: string): Promise<Figures> {
  const store = await openSqliteRunStore({ path: join(folder, `${label}.db`) });
  try {
    await pauseRuns(store, label);
    const pending = await store.listConfirmations({ undecided: true });
    const decidedAt = new Map<string, number>();
    for (const item of pending) {
      const invoice = (item.arguments as { invoice: string }).invoice;
      decidedAt.set(invoice, Date.now());
      await decideConfirmation({ token: item.token, decision: 'approve' }, { store });
      await resumeAgent(item.runId, [], { ...fleetResumeOptions(30_000), store });
    }
    await waitForEffects(label);
    return await figures(label, decidedAt);
  } finally {
    await store.close();
  }
}

function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', workerScript], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`a worker exited (${code}) before it was ready`)));
  });
}

async function fleet(label: string, workers: number): Promise<Figures> {
  const schema = `store_${label}`;
  const queueName = `resume_${label}`;
  const store = await createPostgresRunStore({ connectionString: url, schema });
  const queue = await createRunQueue({ connectionString: url, store, queue: queueName });
  const env = { ...process.env, FLEET_DATABASE_URL: url, FLEET_STORE_SCHEMA: schema, FLEET_QUEUE: queueName, FLEET_LEASE_MS: '30000', FLEET_POLL_S: '2' };
  const started = await Promise.all(Array.from({ length: workers }, () => startWorker(env)));
  try {
    await pauseRuns(store, label);
    const pending = await store.listConfirmations({ undecided: true });
    const decidedAt = new Map<string, number>();
    for (const item of pending) {
      decidedAt.set((item.arguments as { invoice: string }).invoice, Date.now());
      await queue.decide({ token: item.token, decision: 'approve' });
    }
    await waitForEffects(label);
    return await figures(label, decidedAt);
  } finally {
    for (const child of started) child.kill('SIGTERM');
    await Promise.all(started.map((child) => new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)))));
    await queue.stop({ timeoutMs: 2_000 });
    await store.close();
  }
}

const configurations = [{ name: 'sqlite, 1 process', workers: 0 }, ...WORKERS.map((workers) => ({ name: `postgres, ${workers} worker(s)`, workers }))];
const results = new Map<string, Figures[]>(configurations.map((configuration) => [configuration.name, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    // Rotate the order each round, so that no configuration always runs first (or last) in a busy moment.
    const order = configurations.map((_, index) => configurations[(index + round) % configurations.length]!);
    for (const configuration of order) {
      const label = `r${round}_${configuration.workers === 0 ? 'sqlite' : `w${configuration.workers}`}`;
      const measured = configuration.workers === 0 ? await sqlitePeer(label) : await fleet(label, configuration.workers);
      results.get(configuration.name)!.push(measured);
      console.error(`round ${round + 1}/${ROUNDS} ${configuration.name}: ${measured.runsPerSecond.toFixed(1)} runs/s, p99 ${measured.p99Ms} ms`);
    }
  }
} finally {
  for (const child of children) child.kill('SIGKILL');
  await ledger.end();
  await server.stop();
  rmSync(folder, { recursive: true, force: true });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const peer = results.get(configurations[0]!.name)!;
console.log(`\n${RUNS} runs per configuration, ${ROUNDS} rounds; ratios are per round against the SQLite peer, median shown.\n`);
console.log('| configuration | runs/s (median) | p99 decision → write, ms (median) | runs/s ratio | p99 ratio |');
console.log('|---|---:|---:|---:|---:|');
for (const configuration of configurations) {
  const figures = results.get(configuration.name)!;
  const throughputRatio = median(figures.map((item, index) => item.runsPerSecond / peer[index]!.runsPerSecond));
  const latencyRatio = median(figures.map((item, index) => item.p99Ms / Math.max(1, peer[index]!.p99Ms)));
  console.log(
    `| ${configuration.name} | ${median(figures.map((item) => item.runsPerSecond)).toFixed(1)} | ${median(figures.map((item) => item.p99Ms))} | ${throughputRatio.toFixed(2)} | ${latencyRatio.toFixed(2)} |`,
  );
}
