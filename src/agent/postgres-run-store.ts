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
import { InvalidArgumentError } from '../shared/errors.js';
import { loadPeer } from '../shared/load-peer.js';
import { leaseLostError, RunStoreError, RunStoreUnavailableError } from './agent-errors.js';
import type { ToolCallOutcome } from './agent-result.js';
import type { RunState } from './run-state.js';
import {
  checkSavedIds,
  checkStoreId,
  type ClaimResult,
  type Decision,
  type LeaseFence,
  type RunLease,
  type RunStatus,
  type RunStore,
  type StoredCall,
  type StoredConfirmation,
  type StoredRun,
} from './run-store.js';

/** The part of a node-postgres client the store uses (a `pg.PoolClient`). */
export interface PostgresClient {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
  release(error?: Error | boolean): void;
  on(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of a node-postgres pool the store uses (a `pg.Pool`). */
export interface PostgresPool {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[]; rowCount: number | null }>;
  connect(): Promise<PostgresClient>;
}

export interface PostgresRunStoreOptions {
  /** `postgres://user:password@host:5432/database`; the store opens a pool of its own and ends it on `close()`. */
  connectionString?: string;
  /** A pool of the caller's (`new pg.Pool(...)`), used as is and left open on `close()`. */
  pool?: PostgresPool;
  /** The schema the tables live in; default `toolwright`. Lower-case letters, digits and `_`. */
  schema?: string;
  /** Connections in the pool the store opens itself; default 10. */
  maxConnections?: number;
}

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

/** The migrations, in order; each runs once per schema, in a transaction. Never edit one that shipped: add the next. */
const MIGRATIONS: readonly ((schema: string) => string)[] = [
  (s) => `
    CREATE TABLE ${s}.meta (key TEXT PRIMARY KEY, value BYTEA NOT NULL);
    CREATE TABLE ${s}.runs (
      run_id TEXT PRIMARY KEY,
      status TEXT NOT NULL,
      state TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL,
      lease_owner TEXT,
      lease_holder TEXT,
      lease_expires_at BIGINT
    );
    CREATE TABLE ${s}.confirmations (
      seq BIGINT GENERATED ALWAYS AS IDENTITY,
      run_id TEXT NOT NULL,
      call_key TEXT NOT NULL,
      approval_id TEXT NOT NULL UNIQUE,
      call_id TEXT NOT NULL,
      tool_name TEXT NOT NULL,
      arguments TEXT NOT NULL,
      summary TEXT NOT NULL,
      token TEXT NOT NULL,
      expires_at BIGINT NOT NULL,
      created_at BIGINT NOT NULL,
      decision TEXT,
      reason TEXT,
      decided_at BIGINT,
      PRIMARY KEY (run_id, call_key)
    );
    CREATE INDEX confirmations_undecided ON ${s}.confirmations (created_at, seq) WHERE decision IS NULL;
    CREATE TABLE ${s}.calls (
      run_id TEXT NOT NULL,
      call_key TEXT NOT NULL,
      status TEXT NOT NULL,
      outcome TEXT,
      tool_name TEXT,
      call_id TEXT,
      digest TEXT,
      PRIMARY KEY (run_id, call_key)
    );`,
];

/** The schema version this code writes; a database migrated further by a newer toolwright is refused. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,40}$/;

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
  const schema = options.schema ?? 'toolwright';
  if (!SCHEMA_NAME.test(schema)) {
    throw new InvalidArgumentError(`The schema name "${schema}" is not a plain lower-case identifier (letters, digits, _); pick one such as "toolwright".`);
  }
  if ((options.connectionString === undefined) === (options.pool === undefined)) {
    throw new InvalidArgumentError('createPostgresRunStore takes exactly one of connectionString (postgres://…) or pool (a pg.Pool).');
  }
  let pool: PostgresPool;
  let endPool = async () => {};
  if (options.pool) {
    pool = options.pool;
  } else {
    const pg = (await loadPeer('pg', 'createPostgresRunStore', () => import('pg'))).default;
    const own = new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 10 });
    // An idle connection the server dropped is reported on the pool; unheard, it would end the process.
    own.on('error', () => {});
    pool = own as unknown as PostgresPool;
    endPool = () => own.end();
  }
  try {
    await migrate(pool, schema);
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

/** Where a connection string points, without the user or the password: `host:port/database`. */
function serverOf(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname.length > 1 ? url.pathname : ''}`;
  } catch {
    return 'the server of the connection string';
  }
}

/** Node's and PostgreSQL's codes for a server that refused, dropped or is closing the connection (class 08 and 57P01–03). */
const LOST_SERVER_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
]);
/** node-postgres's own words for a connection it lost (it gives these no code). */
const LOST_SERVER_TEXT = /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect/i;

function isLostServer(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (LOST_SERVER_CODES.has(code) || code.startsWith('08'))) return true;
  if (typeof message === 'string' && LOST_SERVER_TEXT.test(message)) return true;
  // Node tries each address of a host name: a refusal on all of them is an AggregateError.
  return Array.isArray(errors) && errors.some(isLostServer);
}

/**
 * The pool, with a refused or lost connection reported as {@link RunStoreUnavailableError} naming the server: a resume
 * whose database went away fails with a typed error that says what to check, not a bare `ECONNREFUSED`.
 */
function reportingLostServer(pool: PostgresPool, server: string): PostgresPool {
  const translate = (error: unknown): never => {
    if (!isLostServer(error)) throw error;
    const reason = (error as { code?: string }).code ?? (error as Error).message;
    throw new RunStoreUnavailableError(
      'postgres',
      `The PostgreSQL run store at ${server} cannot be reached (${reason}); what this step would have stored may not be stored. Check that the server runs and accepts connections there (the connection string, the network), then resume the run again (with takeOver once its lease ran out, if it was being continued).`,
      { cause: error },
    );
  };
  return {
    query: (text, values) => pool.query(text, values).catch(translate),
    connect: async () => {
      const client = await pool.connect().catch(translate);
      return {
        query: (text, values) => client.query(text, values).catch(translate),
        release: (error) => client.release(error),
        on: ((event: 'notification' | 'error', listener: never) => client.on(event as 'error', listener)) as PostgresClient['on'],
      };
    },
  };
}

async function migrate(pool: PostgresPool, schema: string): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Transaction-scoped: released by COMMIT or ROLLBACK, even if this process dies mid-migration.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`toolwright run store ${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)`);
    const { rows } = await client.query(`SELECT COALESCE(MAX(version), 0) AS version FROM ${schema}.migrations`);
    const applied = Number((rows[0] as { version: number | string }).version);
    if (applied > MIGRATIONS.length) {
      throw new Error(`the schema is at version ${applied}, newer than this toolwright knows (${MIGRATIONS.length}); upgrade toolwright`);
    }
    for (let version = applied + 1; version <= MIGRATIONS.length; version++) {
      await client.query(MIGRATIONS[version - 1]!(schema));
      await client.query(`INSERT INTO ${schema}.migrations (version, applied_at) VALUES ($1, $2)`, [version, Date.now()]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

interface RunRow {
  run_id: string;
  status: string;
  state: string;
  created_at: string;
  updated_at: string;
  lease_owner: string | null;
  lease_holder: string | null;
  lease_expires_at: string | null;
}

interface ConfirmationRow {
  run_id: string;
  call_key: string;
  approval_id: string;
  call_id: string;
  tool_name: string;
  arguments: string;
  summary: string;
  token: string;
  expires_at: string;
  created_at: string;
  decision: string | null;
  reason: string | null;
  decided_at: string | null;
}

interface CallRow {
  status: string;
  outcome: string | null;
  tool_name: string | null;
  call_id: string | null;
  digest: string | null;
}

/**
 * PostgreSQL text cannot hold U+0000, which a model may well send in a call id or a person in a reason: free text is
 * stored as a JSON string literal (escaped, so any string fits) and read back through the safe parser.
 */
const encodeText = (value: string): string => JSON.stringify(value);

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
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const saved = await client.query(text, saveValues);
      if (fence && saved.rowCount !== 1) throw leaseLostError(run.runId);
      for (const item of confirmations) {
        await client.query(
          `INSERT INTO ${s}.confirmations (run_id, call_key, approval_id, call_id, tool_name, arguments, summary, token, expires_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
          [
            item.runId,
            item.callKey,
            item.approvalId,
            encodeText(item.callId),
            encodeText(item.toolName),
            JSON.stringify(item.arguments ?? null),
            encodeText(item.summary),
            item.token,
            item.expiresAt,
            item.createdAt,
          ],
        );
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async loadRun(runId: string): Promise<StoredRun | undefined> {
    checkStoreId('run id', runId);
    const [row] = await this.#rows<RunRow>(`SELECT * FROM ${this.#schema}.runs WHERE run_id = $1`, [runId]);
    return row && runOf(row);
  }

  async listRuns({ limit = 100 }: { limit?: number } = {}): Promise<StoredRun[]> {
    const rows = await this.#rows<RunRow>(`SELECT * FROM ${this.#schema}.runs ORDER BY updated_at DESC, run_id DESC LIMIT $1`, [
      Math.max(0, Math.floor(limit)),
    ]);
    return rows.map(runOf);
  }

  async listConfirmations(filter: { runId?: string; undecided?: boolean } = {}): Promise<StoredConfirmation[]> {
    if (filter.runId !== undefined) checkStoreId('run id', filter.runId);
    const rows = await this.#rows<ConfirmationRow>(
      `SELECT * FROM ${this.#schema}.confirmations WHERE ($1::text IS NULL OR run_id = $1) AND (NOT $2 OR decision IS NULL) ORDER BY created_at, seq`,
      [filter.runId ?? null, filter.undecided === true],
    );
    return rows.map(toConfirmation);
  }

  async findConfirmation(approvalId: string): Promise<StoredConfirmation | undefined> {
    checkStoreId('approval id', approvalId);
    const [row] = await this.#rows<ConfirmationRow>(`SELECT * FROM ${this.#schema}.confirmations WHERE approval_id = $1`, [approvalId]);
    return row && toConfirmation(row);
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
      [runId, callKey, decision, reason === undefined ? null : encodeText(reason), at, this.#channel],
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
    if (!row) return { claimed: false, status: undefined };
    const held = leaseOf(row);
    return held && held.owner !== lease.owner && row.live === true
      ? { claimed: false, status: row.status as RunStatus, lease: held }
      : { claimed: false, status: row.status as RunStatus };
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

  async beginCall(
    runId: string,
    callKey: string,
    claim?: { toolName: string; callId: string; digest?: string },
    fence?: LeaseFence,
  ): Promise<StoredCall | undefined> {
    checkStoreId('run id', runId);
    const s = this.#schema;
    const values = [runId, callKey, claim ? encodeText(claim.toolName) : null, claim ? encodeText(claim.callId) : null, claim?.digest ?? null];
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
    const stored: StoredCall =
      row!.status === 'done' && row!.outcome !== null
        ? { status: 'done', outcome: parseStored<ToolCallOutcome>(row!.outcome, `call ${callKey}`) }
        : { status: 'executing' };
    if (row!.tool_name !== null && row!.call_id !== null) {
      stored.claim = {
        toolName: decodeText(row!.tool_name, 'a claim'),
        callId: decodeText(row!.call_id, 'a claim'),
        ...(row!.digest !== null ? { digest: row!.digest } : {}),
      };
    }
    return stored;
  }

  async finishCall(runId: string, callKey: string, outcome: ToolCallOutcome, fence?: LeaseFence): Promise<void> {
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

function runOf(row: RunRow): StoredRun {
  const run: StoredRun = {
    runId: row.run_id,
    status: row.status as RunStatus,
    state: parseStored<RunState>(row.state, `run ${row.run_id}`),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  const lease = leaseOf(row);
  if (lease) run.lease = lease;
  return run;
}

function leaseOf(row: RunRow): RunLease | undefined {
  if (row.lease_owner === null || row.lease_expires_at === null) return undefined;
  return { owner: row.lease_owner, holder: row.lease_holder ?? 'unknown process', expiresAt: Number(row.lease_expires_at) };
}

function toConfirmation(row: ConfirmationRow): StoredConfirmation {
  const confirmation: StoredConfirmation = {
    approvalId: row.approval_id,
    runId: row.run_id,
    callKey: row.call_key,
    callId: decodeText(row.call_id, `confirmation ${row.approval_id}`),
    toolName: decodeText(row.tool_name, `confirmation ${row.approval_id}`),
    arguments: parseStored<unknown>(row.arguments, `confirmation ${row.approval_id}`),
    summary: decodeText(row.summary, `confirmation ${row.approval_id}`),
    token: row.token,
    expiresAt: Number(row.expires_at),
    createdAt: Number(row.created_at),
  };
  if (row.decision !== null) confirmation.decision = row.decision as Decision;
  if (row.reason !== null) confirmation.reason = decodeText(row.reason, `confirmation ${row.approval_id}`);
  if (row.decided_at !== null) confirmation.decidedAt = Number(row.decided_at);
  return confirmation;
}

function decodeText(text: string, what: string): string {
  const value = parseStored<unknown>(text, what);
  if (typeof value !== 'string') throw new RunStoreError(`A text field of the stored ${what} is not a JSON string; the database was altered by hand.`);
  return value;
}

function parseStored<T>(text: string, what: string): T {
  const parsed = safeParseJson(text);
  if (!parsed.success) throw new RunStoreError(`The stored ${what} is not valid JSON (${parsed.error.message}); the database was altered by hand.`);
  return parsed.value as T;
}
