/**
 * A fleet on one PostgreSQL database, with real processes: runs paused on confirmations, approved from another process
 * through the pg-boss queue, resumed by several worker processes, some of which are killed with SIGKILL inside an
 * approved write (at seeded random points) and replaced. Checks the guarantees of docs/agent.md, "Running on many
 * instances": no run lost, none finished twice, a plain write never run twice (at most once, and exactly once where it
 * reported success), a write that accepts an idempotency key in effect exactly once, and a killed worker's run taken
 * over by another once its lease ran out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresRunStore, runAgent, silentLogger, type PostgresRunStore } from '../../src/index.js';
import { createScriptedModel, toolCallTurn } from '../../src/test.js';
import { postgresUnavailable, startPostgresServer, type PostgresServer } from '../fixtures/postgres-server.js';
import { FLEET_SCHEMA, createLedger, fleetTools } from './fleet-tools.js';

const here = dirname(fileURLToPath(import.meta.url));
const unavailable = postgresUnavailable();
const RUNS = 12;
const WORKERS = 3;
const KILLS = 3;
const SEED = 20_261_203;

const children = new Set<ChildProcess>();
let server: PostgresServer | undefined;
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await server?.stop();
});

function start(script: string, env: NodeJS.ProcessEnv): { child: ChildProcess; ready: Promise<string>; exited: Promise<number | null>; log: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, script)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(output.trim());
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (output.length < 20_000) output += chunk.toString();
    });
    void exited.then((code) => reject(new Error(`${script} exited (${code}) before it was ready:\n${output}`)));
  });
  ready.catch(() => {});
  return { child, ready, exited, log: () => output };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(unavailable !== undefined)(`a fleet of worker processes on one PostgreSQL database${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('resumes every approved run once while workers are killed inside writes; no write runs twice', { timeout: 120_000 }, async () => {
    server = await startPostgresServer();
    const url = await server.createDatabase('fleet');
    await createLedger(url);
    const store: PostgresRunStore = await createPostgresRunStore({ connectionString: url });
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      // N runs, each paused on one approved write: even ones a plain write, odd ones a write that takes an idempotency key.
      const invoiceOf = new Map<string, { invoice: string; keyed: boolean }>();
      for (let index = 0; index < RUNS; index++) {
        const keyed = index % 2 === 1;
        const invoice = `inv_${index}`;
        const model = createScriptedModel([toolCallTurn([{ id: `c${index}`, name: keyed ? 'pay_keyed' : 'pay', arguments: { invoice } }])]);
        const result = await runAgent({ model, tools: fleetTools, store, prompt: `Pay ${invoice}.`, recordDir: false, logger: silentLogger });
        expect(result.status).toBe('awaiting_confirmation');
        invoiceOf.set(result.runId, { invoice, keyed });
      }

      const env = { ...process.env, FLEET_DATABASE_URL: url, FLEET_TOOL_DELAY_MS: '200', FLEET_LEASE_MS: '1500', FLEET_SEED: String(SEED) };
      const workers = Array.from({ length: WORKERS }, () => start('fleet-worker.ts', env));
      await Promise.all(workers.map((worker) => worker.ready));
      const approver = start('fleet-approver.ts', env);

      // Seeded chaos: wait for a write in flight, wait a random moment (before or after its effect), SIGKILL its worker, start another.
      let seed = SEED;
      const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
      // Only kills that landed before the victim finished its run count: under load the chosen moment can fall after the
      // worker's resume already completed, and such a kill proves nothing about take-over.
      const killed: { pid: number; invoice: string }[] = [];
      let lateKills = 0;
      const completed = async () => Number((await db.query(`SELECT count(*) AS n FROM toolwright.runs WHERE status = 'completed'`)).rows[0].n as string);
      const deadline = Date.now() + 60_000;
      while (killed.length < KILLS && Date.now() < deadline && (await completed()) < RUNS) {
        const live = new Set(workers.filter((worker) => worker.child.exitCode === null && worker.child.signalCode === null).map((worker) => worker.child.pid));
        const { rows } = await db.query(
          `SELECT a.run_id, a.pid FROM ${FLEET_SCHEMA}.attempts a WHERE a.phase = 'started'
             AND NOT EXISTS (SELECT 1 FROM ${FLEET_SCHEMA}.attempts b WHERE b.phase = 'finished' AND b.run_id = a.run_id AND b.pid = a.pid)`,
        );
        const inFlight = rows.filter((row) => live.has(row.pid as number));
        if (inFlight.length === 0) {
          await sleep(20);
          continue;
        }
        const victim = inFlight[Math.floor(random() * inFlight.length)]!;
        await sleep(Math.floor(random() * 150));
        const worker = workers.find((item) => item.child.pid === victim.pid)!;
        worker.child.kill('SIGKILL');
        await worker.exited;
        const victimRun = [...invoiceOf].find(([, value]) => value.invoice === victim.run_id)![0];
        const finishedBeforeKill = await db.query(`SELECT 1 FROM ${FLEET_SCHEMA}.outcomes WHERE run_id = $1 AND pid = $2`, [victimRun, victim.pid]);
        if (finishedBeforeKill.rows.length === 0) killed.push({ pid: victim.pid as number, invoice: victim.run_id as string });
        else lateKills++;
        const replacement = start('fleet-worker.ts', env);
        workers.push(replacement);
        await replacement.ready;
      }
      expect(await approver.exited).toBe(0);
      while (Date.now() < deadline && (await completed()) < RUNS) await sleep(100);

      for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
      await Promise.all(workers.map((worker) => worker.exited));

      // No run lost: every one completed.
      const runs = (await db.query(`SELECT run_id, status FROM toolwright.runs`)).rows as { run_id: string; status: string }[];
      expect(runs.map((run) => run.status)).toEqual(Array.from({ length: RUNS }, () => 'completed'));
      // None finished twice: at most one worker's resume ended in `completed` per run.
      const finishes = (await db.query(`SELECT run_id, count(*)::int AS n FROM ${FLEET_SCHEMA}.outcomes WHERE status = 'completed' GROUP BY run_id`)).rows as {
        run_id: string;
        n: number;
      }[];
      for (const finish of finishes) expect(finish.n, `run ${finish.run_id} finished ${finish.n} times`).toBe(1);

      const effects = (await db.query(`SELECT run_id, tool, count(*)::int AS n FROM ${FLEET_SCHEMA}.effects GROUP BY run_id, tool`)).rows as {
        run_id: string;
        n: number;
      }[];
      const effectCount = (invoice: string) => effects.find((row) => row.run_id === invoice)?.n ?? 0;
      const calls = (await db.query(`SELECT run_id, outcome FROM toolwright.calls`)).rows as { run_id: string; outcome: string | null }[];
      for (const [runId, { invoice, keyed }] of invoiceOf) {
        const stored = calls
          .filter((call) => call.run_id === runId)
          .map((call) => (call.outcome ? (JSON.parse(call.outcome) as { status: string }) : undefined));
        if (keyed) {
          // Exactly once in effect, however many times it was started.
          expect(effectCount(invoice), `keyed write of ${invoice}`).toBe(1);
        } else {
          // Never twice; and exactly once where the run says it succeeded.
          expect(effectCount(invoice), `plain write of ${invoice}`).toBeLessThanOrEqual(1);
          if (stored.some((outcome) => outcome?.status === 'succeeded')) expect(effectCount(invoice)).toBe(1);
          // A plain write is started once at most: a take-over reports it outcome_unknown instead of starting it again.
          const started = await db.query(`SELECT count(*)::int AS n FROM ${FLEET_SCHEMA}.attempts WHERE run_id = $1 AND phase = 'started'`, [invoice]);
          expect(started.rows[0].n, `starts of ${invoice}`).toBeLessThanOrEqual(1);
        }
      }

      // Each killed worker's run was taken over and finished by another process.
      expect(killed.length, `no kill landed inside a run (${lateKills} landed after the victim had finished)`).toBeGreaterThan(0);
      for (const { pid, invoice } of killed) {
        const runId = [...invoiceOf].find(([, value]) => value.invoice === invoice)![0];
        const finishers = (await db.query(`SELECT pid FROM ${FLEET_SCHEMA}.outcomes WHERE run_id = $1 AND status = 'completed'`, [runId])).rows;
        expect(finishers.map((row) => row.pid)).not.toContain(pid);
      }
    } finally {
      await db.end();
      await store.close();
    }
  });
});
