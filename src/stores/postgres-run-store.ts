/**
 * A {@link RunStore} in PostgreSQL (node-postgres `pg`, an optional peer loaded
 * on first use), for several instances of a service sharing one database.
 * Migrations are versioned and run under a transaction-scoped advisory lock, so
 * instances starting at once apply each one once. Every deciding step is one
 * statement whose WHERE clause is re-checked under the row's lock: of two
 * racing decisions, claims or call starts, the second waits for the first to
 * commit and then finds its condition false. A decision is announced with
 * NOTIFY in the same statement, so an instance waiting on a run
 * (`waitForDecisions`) wakes as soon as another instance commits it.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { safeParseJson } from '../shared/safe-json.js';
import { leaseLostError, RunStoreError } from '../agent/agent-errors.js';
import { CONFIRMATION_COLUMNS, SqlRows, refusedClaim, type CallRow, type ConfirmationRow, type RunRow } from '../agent/run-store-rows.js';
import {
  checkSavedIds,
  checkStoreId,
  type CallClaim,
  type ClaimResult,
  type Decision,
  type LeaseFence,
  type RunLease,
  type RunStore,
  type StoredCall,
  type StoredConfirmation,
  type StoredOutcome,
  type StoredRun,
} from '../agent/run-store.js';
import { ensureCurrentSchema } from './postgres-schema-current.js';
import { inTransaction, openPostgresPool, reportingLostServer, serverOf, type PostgresClient, type PostgresPool } from './postgres-pool.js';

export type { PostgresClient, PostgresConnectionOptions, PostgresPool } from './postgres-pool.js';
import type { PostgresConnectionOptions } from './postgres-pool.js';
export { POSTGRES_SCHEMA_VERSION } from './postgres-migrations.js';

export type PostgresRunStoreOptions = PostgresConnectionOptions;

/** A decision as another instance announces it. */
export interface DecisionNotice {
  runId: string;
  callKey: string;
  decision: Decision;
}

/** The PostgreSQL store: a {@link RunStore} that also hears the decisions every instance records. */
export interface PostgresRunStore extends RunStore {
  /**
   * Calls `listener` for each decision recorded on this database, by any instance, once it is committed (LISTEN/NOTIFY on
   * one connection the store holds while anyone listens). Resolves, once listening, to a function that stops listening.
   */
  onDecision(listener: (notice: DecisionNotice) => void): Promise<() => Promise<void>>;
  /**
   * Resolves once no confirmation of `runId` is left undecided (at once when none is): woken by the decisions' NOTIFY,
   * and checked again every `pollMs` (default 5 000) in case a notice was lost with a connection. Rejects with the
   * signal's reason when `signal` aborts.
   */
  waitForDecisions(runId: string, options?: { signal?: AbortSignal; pollMs?: number }): Promise<void>;
}

/**
 * The database's clock in milliseconds since the epoch. Leases start and expire on it, not on the instances' clocks:
 * an instance whose clock runs ahead would otherwise find a live lease already expired and take the run over.
 * `clock_timestamp()`, not `now()`: the time the row is checked, not when a transaction began.
 */
const DATABASE_NOW = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** A lease's length as the caller meant it: its expiry less the caller's time (never negative). */
const leaseLength = (expiresAt: number, now: number): number => Math.max(0, Math.round(expiresAt - now));

/**
 * Connects to PostgreSQL and brings the schema up to date. Throws {@link MissingPeerError} when `pg` is not installed
 * and {@link RunStoreError} when the database cannot be reached or migrated.
 */
export async function createPostgresRunStore(options: PostgresRunStoreOptions): Promise<PostgresRunStore> {
  const { pool, schema, endPool } = await openPostgresPool(options, 'createPostgresRunStore');
  try {
    await ensureCurrentSchema(pool, schema);
  } catch (error) {
    await endPool().catch(() => {});
    throw new RunStoreError(
      `Cannot open the PostgreSQL run store (schema "${schema}"): ${(error as Error).message}. Check the connection string, that the server runs, and that the user may create tables.`,
      { cause: error },
    );
  }
  const server = options.connectionString !== undefined ? serverOf(options.connectionString) : 'the server of the pool you passed';
  return new PostgresStore(reportingLostServer(pool, server), schema, endPool);
}

/** Free text as JSON string literals: PostgreSQL text cannot hold U+0000. */
const rows = new SqlRows({ textAsJson: true, damaged: 'the database was altered by hand' });

class PostgresStore implements PostgresRunStore {
  readonly #pool: PostgresPool;
  readonly #schema: string;
  readonly #endPool: () => Promise<void>;
  readonly #channel: string;
  readonly #listeners = new Set<(notice: DecisionNotice) => void>();
  #listening: Promise<PostgresClient> | undefined;
  #listeningClient: PostgresClient | undefined;
  /** Releases the listening connection once, whichever of an error or `#unlisten` comes first. */
  #releaseListening: ((error?: Error) => void) | undefined;
  #closed = false;

  constructor(pool: PostgresPool, schema: string, endPool: () => Promise<void>) {
    this.#pool = pool;
    this.#schema = schema;
    this.#endPool = endPool;
    this.#channel = `${schema}_decided`;
  }

  async #rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
    return (await this.#pool.query(text, values)).rows as T[];
  }

  async getSecret(): Promise<Uint8Array> {
    const s = this.#schema;
    // Insert-if-absent then read back: two instances racing here end with one secret.
    await this.#pool.query(`INSERT INTO ${s}.meta (key, value) VALUES ('secret', $1) ON CONFLICT (key) DO NOTHING`, [randomBytes(32)]);
    const [row] = await this.#rows<{ value: Buffer }>(`SELECT value FROM ${s}.meta WHERE key = 'secret'`);
    return new Uint8Array(row!.value);
  }

  async saveRun(
    run: Omit<StoredRun, 'createdAt' | 'updatedAt' | 'lease'>,
    confirmations: readonly StoredConfirmation[] = [],
    fence?: LeaseFence,
  ): Promise<void> {
    checkSavedIds(run.runId, confirmations);
    const s = this.#schema;
    const values = [run.runId, run.status, JSON.stringify(run.state), Date.now()];
    // Fenced: the owner check is in the UPDATE's WHERE, re-checked under the row's lock, so a take-over that commits first wins.
    const [text, saveValues] = fence
      ? [`UPDATE ${s}.runs SET status = $2, state = $3, updated_at = $4 WHERE run_id = $1 AND lease_owner = $5`, [...values, fence.leaseOwner]]
      : [
          `INSERT INTO ${s}.runs (run_id, status, state, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)
           ON CONFLICT (run_id) DO UPDATE SET status = excluded.status, state = excluded.state, updated_at = excluded.updated_at`,
          values,
        ];
    if (confirmations.length === 0) {
      // One statement, no transaction: a process frozen here holds no lock on the run past the statement, so it cannot
      // keep a take-over waiting.
      const saved = await this.#pool.query(text, saveValues);
      if (fence && saved.rowCount !== 1) throw leaseLostError(run.runId);
      return;
    }
    await inTransaction(this.#pool, async (client) => {
      const saved = await client.query(text, saveValues);
      if (fence && saved.rowCount !== 1) throw leaseLostError(run.runId);
      for (const item of confirmations) {
        await client.query(
          `INSERT INTO ${s}.confirmations (${CONFIRMATION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
          rows.confirmationValues(item),
        );
      }
    });
  }

  async loadRun(runId: string): Promise<StoredRun | undefined> {
    checkStoreId('run id', runId);
    const [row] = await this.#rows<RunRow>(`SELECT * FROM ${this.#schema}.runs WHERE run_id = $1`, [runId]);
    return row && rows.run(row);
  }

  async listRuns({ limit = 100 }: { limit?: number } = {}): Promise<StoredRun[]> {
    const found = await this.#rows<RunRow>(`SELECT * FROM ${this.#schema}.runs ORDER BY updated_at DESC, run_id DESC LIMIT $1`, [
      Math.max(0, Math.floor(limit)),
    ]);
    return found.map((row) => rows.run(row));
  }

  async listConfirmations(filter: { runId?: string; undecided?: boolean } = {}): Promise<StoredConfirmation[]> {
    if (filter.runId !== undefined) checkStoreId('run id', filter.runId);
    const found = await this.#rows<ConfirmationRow>(
      `SELECT * FROM ${this.#schema}.confirmations WHERE ($1::text IS NULL OR run_id = $1) AND (NOT $2 OR decision IS NULL) ORDER BY created_at, seq`,
      [filter.runId ?? null, filter.undecided === true],
    );
    return found.map((row) => rows.confirmation(row));
  }

  async findConfirmation(approvalId: string): Promise<StoredConfirmation | undefined> {
    checkStoreId('approval id', approvalId);
    const [row] = await this.#rows<ConfirmationRow>(`SELECT * FROM ${this.#schema}.confirmations WHERE approval_id = $1`, [approvalId]);
    return row && rows.confirmation(row);
  }

  async decide(runId: string, callKey: string, decision: Decision, reason: string | undefined, at: number) {
    checkStoreId('run id', runId);
    const s = this.#schema;
    // The update and its NOTIFY commit together: a listener never hears of a decision that did not happen.
    const decided = await this.#rows(
      `WITH decided AS (
         UPDATE ${s}.confirmations SET decision = $3, reason = $4, decided_at = $5
         WHERE run_id = $1 AND call_key = $2 AND decision IS NULL RETURNING run_id, call_key, decision
       )
       SELECT pg_notify($6, json_build_object('runId', run_id, 'callKey', call_key, 'decision', decision)::text) FROM decided`,
      [runId, callKey, decision, reason === undefined ? null : rows.text(reason), at, this.#channel],
    );
    if (decided.length === 1) return 'decided' as const;
    const exists = await this.#rows(`SELECT 1 FROM ${s}.confirmations WHERE run_id = $1 AND call_key = $2`, [runId, callKey]);
    return exists.length > 0 ? ('already_decided' as const) : ('not_found' as const);
  }

  async claimRun(runId: string, options: { takeOver?: boolean; lease: RunLease; now: number }): Promise<ClaimResult> {
    checkStoreId('run id', runId);
    const { lease, now } = options;
    const s = this.#schema;
    // One UPDATE: it locks the row, and a racing claim blocked on that lock re-checks the WHERE clause against the
    // committed winner (READ COMMITTED), finds the status or the live lease changed, and updates nothing. The lease
    // starts and is judged expired on the database's clock; only its length comes from the caller.
    const claimed = await this.#rows(
      `UPDATE ${s}.runs SET status = 'running', updated_at = $2, lease_owner = $3, lease_holder = $4, lease_expires_at = ${DATABASE_NOW} + $5
       WHERE run_id = $1 AND (status = 'awaiting_confirmation' OR ($6 AND status = 'running'))
         AND (lease_owner IS NULL OR lease_owner = $3 OR lease_expires_at <= ${DATABASE_NOW})
       RETURNING run_id`,
      [runId, now, lease.owner, lease.holder, leaseLength(lease.expiresAt, now), options.takeOver === true],
    );
    if (claimed.length === 1) return { claimed: true };
    const [row] = await this.#rows<RunRow & { live: boolean | null }>(`SELECT *, lease_expires_at > ${DATABASE_NOW} AS live FROM ${s}.runs WHERE run_id = $1`, [
      runId,
    ]);
    return refusedClaim(row, lease.owner, () => row!.live === true);
  }

  async renewLease(runId: string, owner: string, expiresAt: number, now: number = Date.now()): Promise<boolean> {
    checkStoreId('run id', runId);
    const result = await this.#pool.query(`UPDATE ${this.#schema}.runs SET lease_expires_at = ${DATABASE_NOW} + $1 WHERE run_id = $2 AND lease_owner = $3`, [
      leaseLength(expiresAt, now),
      runId,
      owner,
    ]);
    return result.rowCount === 1;
  }

  async releaseLease(runId: string, owner: string): Promise<void> {
    checkStoreId('run id', runId);
    await this.#pool.query(
      `UPDATE ${this.#schema}.runs SET lease_owner = NULL, lease_holder = NULL, lease_expires_at = NULL WHERE run_id = $1 AND lease_owner = $2`,
      [runId, owner],
    );
  }

  async beginCall(runId: string, callKey: string, claim?: CallClaim, fence?: LeaseFence): Promise<StoredCall | undefined> {
    checkStoreId('run id', runId);
    const s = this.#schema;
    const values = [runId, callKey, ...rows.claimValues(claim)];
    // Fenced: FOR SHARE holds the run's row until the insert commits, so a take-over's claim waits and then sees this call begun.
    const begun = fence
      ? await this.#rows(
          `INSERT INTO ${s}.calls (run_id, call_key, status, tool_name, call_id, digest)
           SELECT $1, $2, 'executing', $3, $4, $5 WHERE EXISTS (SELECT 1 FROM ${s}.runs WHERE run_id = $1 AND lease_owner = $6 FOR SHARE)
           ON CONFLICT (run_id, call_key) DO NOTHING RETURNING 1`,
          [...values, fence.leaseOwner],
        )
      : await this.#rows(
          `INSERT INTO ${s}.calls (run_id, call_key, status, tool_name, call_id, digest) VALUES ($1, $2, 'executing', $3, $4, $5)
           ON CONFLICT (run_id, call_key) DO NOTHING RETURNING 1`,
          values,
        );
    if (begun.length === 1) return undefined;
    if (fence && !(await this.#holdsLease(runId, fence.leaseOwner))) throw leaseLostError(runId);
    const [row] = await this.#rows<CallRow>(`SELECT status, outcome, tool_name, call_id, digest FROM ${s}.calls WHERE run_id = $1 AND call_key = $2`, [
      runId,
      callKey,
    ]);
    return rows.call(row!, callKey);
  }

  async finishCall(runId: string, callKey: string, outcome: StoredOutcome, fence?: LeaseFence): Promise<void> {
    checkStoreId('run id', runId);
    const s = this.#schema;
    if (!fence) {
      await this.#pool.query(`UPDATE ${s}.calls SET status = 'done', outcome = $1 WHERE run_id = $2 AND call_key = $3`, [
        JSON.stringify(outcome),
        runId,
        callKey,
      ]);
      return;
    }
    const finished = await this.#pool.query(
      `UPDATE ${s}.calls SET status = 'done', outcome = $1 WHERE run_id = $2 AND call_key = $3
         AND EXISTS (SELECT 1 FROM ${s}.runs WHERE run_id = $2 AND lease_owner = $4 FOR SHARE)`,
      [JSON.stringify(outcome), runId, callKey, fence.leaseOwner],
    );
    if (finished.rowCount !== 1 && !(await this.#holdsLease(runId, fence.leaseOwner))) throw leaseLostError(runId);
  }

  async #holdsLease(runId: string, owner: string): Promise<boolean> {
    return (await this.#rows(`SELECT 1 FROM ${this.#schema}.runs WHERE run_id = $1 AND lease_owner = $2`, [runId, owner])).length === 1;
  }

  async onDecision(listener: (notice: DecisionNotice) => void): Promise<() => Promise<void>> {
    this.#listeners.add(listener);
    try {
      await this.#listen();
    } catch (error) {
      this.#listeners.delete(listener);
      throw new RunStoreError(`Cannot listen for decisions on PostgreSQL: ${(error as Error).message}. Check the connection.`, { cause: error });
    }
    return async () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) await this.#unlisten();
    };
  }

  async waitForDecisions(runId: string, options: { signal?: AbortSignal; pollMs?: number } = {}): Promise<void> {
    checkStoreId('run id', runId);
    const { signal } = options;
    signal?.throwIfAborted();
    let wake: () => void = () => {};
    const stopListening = await this.onDecision((notice) => {
      if (notice.runId === runId) wake();
    });
    const onAbort = () => wake();
    signal?.addEventListener('abort', onAbort);
    try {
      // Listening first, then looking: a decision committed in between is seen by the look or heard by the listener.
      for (;;) {
        signal?.throwIfAborted();
        if ((await this.listConfirmations({ runId, undecided: true })).length === 0) return;
        signal?.throwIfAborted();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.pollMs ?? 5_000);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        signal?.throwIfAborted();
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      await stopListening();
    }
  }

  #listen(): Promise<PostgresClient> {
    this.#listening ??= (async () => {
      const client = await this.#pool.connect();
      client.on('notification', (message) => {
        if (message.channel !== this.#channel || message.payload === undefined) return;
        const notice = readNotice(message.payload);
        if (!notice) return;
        for (const listener of this.#listeners) {
          try {
            listener(notice);
          } catch {
            // A failing listener must not keep the others from hearing the decision.
          }
        }
      });
      // A dropped connection: the next listener connects again; waiters poll meanwhile.
      let released = false;
      client.on('error', (error) => {
        if (this.#listeningClient === client) {
          this.#listening = undefined;
          this.#listeningClient = undefined;
        }
        if (!released) client.release(error);
        released = true;
      });
      this.#releaseListening = (error) => {
        if (!released) client.release(error);
        released = true;
      };
      this.#listeningClient = client;
      await client.query(`LISTEN ${this.#channel}`);
      return client;
    })();
    this.#listening.catch(() => {
      this.#listening = undefined;
    });
    return this.#listening;
  }

  async #unlisten(): Promise<void> {
    const listening = this.#listening;
    const release = this.#releaseListening;
    this.#listening = undefined;
    this.#listeningClient = undefined;
    if (!listening) return;
    const client = await listening.catch(() => undefined);
    if (!client) return;
    try {
      await client.query(`UNLISTEN ${this.#channel}`);
      release?.();
    } catch (error) {
      release?.(error as Error);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    await this.#unlisten();
    await this.#endPool();
  }
}

function readNotice(payload: string): DecisionNotice | undefined {
  const parsed = safeParseJson(payload);
  if (!parsed.success || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  const { runId, callKey, decision } = parsed.value as Record<string, unknown>;
  if (typeof runId !== 'string' || typeof callKey !== 'string' || (decision !== 'approve' && decision !== 'deny')) return undefined;
  return { runId, callKey, decision };
}
