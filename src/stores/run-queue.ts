/**
 * Hands paused and orphaned runs to free workers, with pg-boss (an optional
 * peer) on the run store's PostgreSQL database: no scheduler of toolwright's
 * own. Once the last decision of a run's pending turn is recorded, a job names
 * the run; a free worker takes it and resumes the run. A worker that dies
 * mid-run leaves its job active: pg-boss fails it once it expires and hands it
 * to another worker, which takes the run over once its lease has run out. The
 * store's lease and call marks, not the queue, keep each approved call to the
 * guarantees of docs/agent.md: a job delivered twice resumes a run once.
 * `runAgent` and `resumeAgent` need none of this.
 * @module
 */
import type PgBoss from 'pg-boss';
import { InvalidArgumentError } from '../shared/errors.js';
import { loadPeer } from '../shared/load-peer.js';
import { RunLeasedError, RunNotResumableError, RunStoreError } from '../agent/agent-errors.js';
import type { AgentResult } from '../agent/agent-result.js';
import { decideConfirmation, resumeAgent, type ConfirmationDecision, type ResumeAgentOptions } from '../agent/resume-agent.js';
import type { RunStore, StoredConfirmation } from '../agent/run-store.js';

export interface RunQueueOptions {
  /** The PostgreSQL database pg-boss keeps its jobs in: the run store's own. */
  connectionString: string;
  /** The store the runs live in (`createPostgresRunStore`), shared by every worker. */
  store: RunStore;
  /** The schema of pg-boss's tables; default `toolwright_queue`. */
  schema?: string;
  /** The queue's name; default `toolwright-resume`. */
  queue?: string;
  /**
   * How long a worker may hold a job before pg-boss gives it to another worker, in seconds; default 60. A run that takes
   * longer is not run twice (its lease stands in the way; the job is retried until it can finish), but make it exceed
   * your runs' length and the store's lease (`leaseMs`).
   */
  expireInSeconds?: number;
  /** Seconds between a failed job and its retry (a run held by a live lease, a store that failed); default 1. */
  retryDelaySeconds?: number;
  /** How often pg-boss looks for expired jobs, in seconds; default 5 (pg-boss's own default is 120). */
  maintenanceIntervalSeconds?: number;
  /** How often an idle worker polls for jobs, in seconds (at least 0.5); default 2. Enqueued jobs also wake workers at once. */
  pollingIntervalSeconds?: number;
}

/** What a worker does with a run: the options to resume it with (the model, tools and context it was started with). */
export type ResumeOptionsFor = (runId: string) => ResumeAgentOptions | Promise<ResumeAgentOptions>;

/**
 * One resume a worker finished: the run's result, or why there was nothing to do. `lease_lost`: this worker was taken
 * over mid-run (it froze or was cut off past its lease); the store refused its writes and it stopped, leaving the run to
 * the new owner. Its job is retried, so the run is not lost if that owner dies too.
 */
export type WorkerOutcome = { runId: string; result: AgentResult } | { runId: string; skipped: 'not_resumable' | 'lease_lost' };

export interface RunQueue {
  /**
   * Records a decision (as `decideConfirmation`) and, when it was the last one the run's pending turn waited for, hands
   * the run to a worker. Returns the decided call.
   */
  decide(decision: ConfirmationDecision): Promise<StoredConfirmation>;
  /** Hands a run to a worker (to resume it, or take it over once its lease ran out). */
  enqueue(runId: string): Promise<void>;
  /**
   * Starts `concurrency` workers in this process (default 1): each takes a job, resumes its run with `takeOver`, and
   * reports each outcome to `onOutcome`. A run held by a live lease is retried after `retryDelaySeconds`.
   */
  work(resumeOptions: ResumeOptionsFor, options?: { concurrency?: number; onOutcome?: (outcome: WorkerOutcome) => void }): Promise<void>;
  /** Stops the workers (waiting for running resumes, up to `timeoutMs`, default 30 000) and closes pg-boss's connections. */
  stop(options?: { timeoutMs?: number }): Promise<void>;
}

const QUEUE_NAME = /^[\w.-]{1,50}$/;

/** Starts pg-boss on the database (creating its schema and the queue if needed). Throws {@link MissingPeerError} without pg-boss. */
export async function createRunQueue(options: RunQueueOptions): Promise<RunQueue> {
  const queue = options.queue ?? 'toolwright-resume';
  if (!QUEUE_NAME.test(queue)) throw new InvalidArgumentError(`The queue name "${queue}" must be 1 to 50 letters, digits, _, . or -.`);
  const expireInSeconds = options.expireInSeconds ?? 60;
  const { default: Boss } = await loadPeer('pg-boss', 'createRunQueue', () => import('pg-boss'));
  const boss: PgBoss = new Boss({
    connectionString: options.connectionString,
    schema: options.schema ?? 'toolwright_queue',
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 5,
    // Scheduling (cron) and state monitoring are not used: fewer timers and connections per worker.
    schedule: false,
    max: 4,
  });
  // pg-boss reports connection and maintenance failures as events; unheard, an 'error' event would end the process.
  boss.on('error', () => {});
  try {
    await boss.start();
    await boss.createQueue(queue, { name: queue, retryLimit: 1_000, retryDelay: options.retryDelaySeconds ?? 1, expireInSeconds });
  } catch (error) {
    await boss.stop({ graceful: false, wait: false }).catch(() => {});
    throw new RunStoreError(`Cannot start the run queue (pg-boss) on PostgreSQL: ${(error as Error).message}. Check the connection string.`, {
      cause: error,
    });
  }
  const store = options.store;
  const workerIds: string[] = [];
  const channel = `${queue.replace(/[^\w]/g, '_')}_queued`;
  let stopListening: (() => Promise<void>) | undefined;

  const enqueue = async (runId: string) => {
    await boss.send(queue, { runId });
    // Wake idle workers now rather than at their next poll.
    await boss.getDb().executeSql('SELECT pg_notify($1, $2)', [channel, runId]);
  };

  return {
    async decide(decision) {
      const decided = await decideConfirmation(decision, { store });
      const run = await store.loadRun(decided.runId);
      const waiting = new Set((run?.state.pendingTurn?.calls ?? []).filter((call) => call.kind === 'confirm').map((call) => call.callKey));
      const open = (await store.listConfirmations({ runId: decided.runId, undecided: true })).filter((item) => waiting.has(item.callKey));
      if (open.length === 0) await enqueue(decided.runId);
      return decided;
    },
    enqueue,
    async work(resumeOptions, workOptions = {}) {
      const concurrency = workOptions.concurrency ?? 1;
      const handle = async (runId: string): Promise<void> => {
        const report = (outcome: WorkerOutcome) => {
          try {
            workOptions.onOutcome?.(outcome);
          } catch {
            // A failing listener must not fail the job.
          }
        };
        let outcome: WorkerOutcome;
        try {
          const result = await resumeAgent(runId, [], { ...(await resumeOptions(runId)), store, takeOver: true });
          outcome = { runId, result };
        } catch (error) {
          // A live lease: another worker drives the run (or took it from this one); retry, so the run is not lost if that
          // worker dies. Failing the job, never completing it: pg-boss may have handed this same job to the new owner.
          if (RunLeasedError.isInstance(error)) {
            if (error.leaseLost) report({ runId, skipped: 'lease_lost' });
            throw error;
          }
          // Finished, stopped or gone: a duplicate delivery, nothing to do.
          if (RunNotResumableError.isInstance(error)) outcome = { runId, skipped: 'not_resumable' };
          else throw error;
        }
        report(outcome);
      };
      for (let index = 0; index < concurrency; index++) {
        // Filled once pg-boss names the worker; its first job may come before that.
        const worker: { id?: string } = {};
        worker.id = await boss.work<{ runId: string }>(queue, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, batchSize: 1 }, async (jobs) => {
          try {
            for (const job of jobs) {
              if (typeof job.data?.runId !== 'string') continue;
              await handle(job.data.runId);
            }
          } finally {
            // pg-boss waits out its polling interval after a job; a worker that just found one looks for the next at once.
            if (worker.id !== undefined) boss.notifyWorker(worker.id);
          }
        });
        workerIds.push(worker.id);
      }
      stopListening ??= await listen(options.connectionString, channel, () => {
        for (const id of workerIds) boss.notifyWorker(id);
      });
    },
    async stop(stopOptions = {}) {
      await stopListening?.();
      await boss.stop({ graceful: true, wait: true, timeout: stopOptions.timeoutMs ?? 30_000 });
    },
  };
}

/** LISTEN on its own connection; resolves to a function that ends it. */
async function listen(connectionString: string, channel: string, onNotice: () => void): Promise<() => Promise<void>> {
  const pg = (await loadPeer('pg', 'createRunQueue', () => import('pg'))).default;
  const client = new pg.Client({ connectionString });
  // A dropped connection only costs promptness: workers still poll.
  client.on('error', () => {});
  client.on('notification', (message) => {
    if (message.channel === channel) onNotice();
  });
  await client.connect();
  await client.query(`LISTEN ${channel}`);
  return async () => {
    await client.end().catch(() => {});
  };
}
