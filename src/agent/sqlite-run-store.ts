/**
 * A {@link RunStore} in a SQLite file (better-sqlite3, loaded on first use so
 * the native addon stays out of the root entry). Several processes may share
 * one file: WAL mode, a busy timeout, and single-statement updates guarded by
 * their WHERE clause make each decision, claim (with its lease) and call start
 * happen once.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { leaseLostError, RunStoreError, RunStoreUnavailableError } from './agent-errors.js';
import { loadBetterSqlite3 } from './load-better-sqlite3.js';
import { CONFIRMATION_COLUMNS, SqlRows, refusedClaim, type CallRow, type ConfirmationRow, type RunRow } from './run-store-rows.js';
import { checkSavedIds, checkStoreId, plainRunStore } from './run-store.js';
import type { CallClaim, ClaimOptions, ClaimResult, Decision, LeaseFence, RunStore, StoredConfirmation, StoredOutcome, StoredRun } from './run-store.js';
import { defaultStatePath } from './toolwright-home.js';

export interface SqliteRunStoreOptions {
  /** The database file; defaults to `$TOOLWRIGHT_HOME/state.db` (`~/.toolwright/state.db`). Use `:memory:` for a private store. */
  path?: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
  run_id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  state TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_holder TEXT,
  lease_expires_at INTEGER
);
CREATE TABLE IF NOT EXISTS confirmations (
  run_id TEXT NOT NULL,
  call_key TEXT NOT NULL,
  approval_id TEXT NOT NULL UNIQUE,
  call_id TEXT NOT NULL,
  tool_name TEXT NOT NULL,
  arguments TEXT NOT NULL,
  summary TEXT NOT NULL,
  token TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  decision TEXT,
  reason TEXT,
  decided_at INTEGER,
  PRIMARY KEY (run_id, call_key)
);
CREATE TABLE IF NOT EXISTS calls (
  run_id TEXT NOT NULL,
  call_key TEXT NOT NULL,
  status TEXT NOT NULL,
  outcome TEXT,
  tool_name TEXT,
  call_id TEXT,
  digest TEXT,
  PRIMARY KEY (run_id, call_key)
);
`;

/** SQLite text holds any string: free text is stored as it is. */
const rows = new SqlRows({ textAsJson: false, damaged: 'the store file is damaged' });

/**
 * Opens (creating if needed) a SQLite run store; throws {@link MissingPeerError} when better-sqlite3 is not installed,
 * {@link RunStoreError} when it cannot be loaded (addon not built) or the file cannot be opened.
 */
export async function openSqliteRunStore(options: SqliteRunStoreOptions = {}): Promise<RunStore> {
  const path = options.path ?? defaultStatePath();
  const db = openDatabase(await loadBetterSqlite3('openSqliteRunStore'), path);
  return reportingLostFile(plainRunStore(new SqliteStore(db)), path);
}

/** The file opened, owner-only, in WAL mode, with its tables (and the columns later versions added). */
function openDatabase(Database: typeof BetterSqlite3, path: string): BetterSqlite3.Database {
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const db = new Database(path, { timeout: 10_000 });
    // The file holds the secret that signs confirmations: readable by its owner only.
    if (path !== ':memory:') restrictToOwner(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(SCHEMA);
    addMissingColumns(db, 'runs', LEASE_COLUMNS);
    addMissingColumns(db, 'calls', CLAIM_COLUMNS);
    return db;
  } catch (error) {
    throw new RunStoreError(`Cannot open the run store at "${path}": ${(error as Error).message}. Check that the folder is writable, or pass another path.`, {
      cause: error,
    });
  }
}

type Statements = ReturnType<typeof prepareStatements>;

function prepareStatements(db: BetterSqlite3.Database) {
  return {
    getSecret: db.prepare<[], { value: Buffer }>(`SELECT value FROM meta WHERE key = 'secret'`),
    putSecret: db.prepare(`INSERT OR IGNORE INTO meta (key, value) VALUES ('secret', ?)`),
    upsertRun: db.prepare(
      `INSERT INTO runs (run_id, status, state, created_at, updated_at) VALUES (@runId, @status, @state, @now, @now)
       ON CONFLICT (run_id) DO UPDATE SET status = excluded.status, state = excluded.state, updated_at = excluded.updated_at`,
    ),
    insertConfirmation: db.prepare(`INSERT OR IGNORE INTO confirmations (${CONFIRMATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    loadRun: db.prepare<[string], RunRow>(`SELECT * FROM runs WHERE run_id = ?`),
    recentRuns: db.prepare<[number], RunRow>(`SELECT * FROM runs ORDER BY updated_at DESC, rowid DESC LIMIT ?`),
    allConfirmations: db.prepare<[], ConfirmationRow>(`SELECT * FROM confirmations ORDER BY created_at, rowid`),
    findConfirmation: db.prepare<[string], ConfirmationRow>(`SELECT * FROM confirmations WHERE approval_id = ?`),
    decide: db.prepare(`UPDATE confirmations SET decision = ?, reason = ?, decided_at = ? WHERE run_id = ? AND call_key = ? AND decision IS NULL`),
    confirmationExists: db.prepare<[string, string], { one: number }>(`SELECT 1 AS one FROM confirmations WHERE run_id = ? AND call_key = ?`),
    // One statement: SQLite's write lock makes the status check, the lease check and the update one step, so two claims cannot both win.
    claim: db.prepare(
      `UPDATE runs SET status = 'running', updated_at = @now, lease_owner = @owner, lease_holder = @holder, lease_expires_at = @expiresAt
       WHERE run_id = @runId AND (status = 'awaiting_confirmation' OR (@takeOver = 1 AND status = 'running'))
         AND (lease_owner IS NULL OR lease_owner = @owner OR lease_expires_at <= @now)`,
    ),
    renewLease: db.prepare(`UPDATE runs SET lease_expires_at = ? WHERE run_id = ? AND lease_owner = ?`),
    releaseLease: db.prepare(`UPDATE runs SET lease_owner = NULL, lease_holder = NULL, lease_expires_at = NULL WHERE run_id = ? AND lease_owner = ?`),
    beginCall: db.prepare(`INSERT OR IGNORE INTO calls (run_id, call_key, status, tool_name, call_id, digest) VALUES (?, ?, 'executing', ?, ?, ?)`),
    getCall: db.prepare<[string, string], CallRow>(`SELECT status, outcome, tool_name, call_id, digest FROM calls WHERE run_id = ? AND call_key = ?`),
    finishCall: db.prepare(`UPDATE calls SET status = 'done', outcome = ? WHERE run_id = ? AND call_key = ?`),
    // Fenced writes (`LeaseFence`): the lease check is part of the statement that writes.
    fencedUpdateRun: db.prepare(`UPDATE runs SET status = @status, state = @state, updated_at = @now WHERE run_id = @runId AND lease_owner = @owner`),
    fencedBeginCall: db.prepare(
      `INSERT OR IGNORE INTO calls (run_id, call_key, status, tool_name, call_id, digest)
       SELECT @runId, @callKey, 'executing', @toolName, @callId, @digest WHERE EXISTS (SELECT 1 FROM runs WHERE run_id = @runId AND lease_owner = @owner)`,
    ),
    fencedFinishCall: db.prepare(
      `UPDATE calls SET status = 'done', outcome = @outcome WHERE run_id = @runId AND call_key = @callKey
         AND EXISTS (SELECT 1 FROM runs WHERE run_id = @runId AND lease_owner = @owner)`,
    ),
    holdsLease: db.prepare<[string, string], { one: number }>(`SELECT 1 AS one FROM runs WHERE run_id = ? AND lease_owner = ?`),
  };
}

type SavedRun = Omit<StoredRun, 'createdAt' | 'updatedAt' | 'lease'>;

class SqliteStore implements RunStore {
  readonly #db: BetterSqlite3.Database;
  readonly #statements: Statements;
  /** The run and its new confirmations written in one transaction. */
  readonly #saveRunAtomically: (run: SavedRun, confirmations: readonly StoredConfirmation[], fence: LeaseFence | undefined) => void;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
    this.#statements = prepareStatements(db);
    this.#saveRunAtomically = db.transaction((run: SavedRun, confirmations: readonly StoredConfirmation[], fence: LeaseFence | undefined) => {
      const now = Date.now();
      const row = { runId: run.runId, status: run.status, state: JSON.stringify(run.state), now };
      // Throwing inside the transaction rolls it back: a refused save adds no confirmation either.
      if (fence) {
        if (this.#statements.fencedUpdateRun.run({ ...row, owner: fence.leaseOwner }).changes !== 1) throw leaseLostError(run.runId);
      } else {
        this.#statements.upsertRun.run(row);
      }
      for (const item of confirmations) this.#statements.insertConfirmation.run(...rows.confirmationValues(item));
    });
  }

  async getSecret(): Promise<Uint8Array> {
    const existing = this.#statements.getSecret.get();
    if (existing) return new Uint8Array(existing.value);
    // INSERT OR IGNORE then read back: two processes racing here end with one secret.
    this.#statements.putSecret.run(randomBytes(32));
    return new Uint8Array(this.#statements.getSecret.get()!.value);
  }

  async saveRun(run: SavedRun, confirmations: readonly StoredConfirmation[] = [], fence?: LeaseFence): Promise<void> {
    checkSavedIds(run.runId, confirmations);
    this.#saveRunAtomically(run, confirmations, fence);
  }

  async loadRun(runId: string): Promise<StoredRun | undefined> {
    checkStoreId('run id', runId);
    const row = this.#statements.loadRun.get(runId);
    return row && rows.run(row);
  }

  async listRuns({ limit = 100 }: { limit?: number } = {}): Promise<StoredRun[]> {
    return this.#statements.recentRuns.all(Math.max(0, Math.floor(limit))).map((row) => rows.run(row));
  }

  async listConfirmations(filter: { runId?: string; undecided?: boolean } = {}): Promise<StoredConfirmation[]> {
    if (filter.runId !== undefined) checkStoreId('run id', filter.runId);
    return this.#statements.allConfirmations
      .all()
      .filter((row) => (filter.runId === undefined || row.run_id === filter.runId) && (!filter.undecided || row.decision === null))
      .map((row) => rows.confirmation(row));
  }

  async findConfirmation(approvalId: string): Promise<StoredConfirmation | undefined> {
    checkStoreId('approval id', approvalId);
    const row = this.#statements.findConfirmation.get(approvalId);
    return row && rows.confirmation(row);
  }

  async decide(runId: string, callKey: string, decision: Decision, reason: string | undefined, at: number) {
    checkStoreId('run id', runId);
    const changed = this.#statements.decide.run(decision, reason ?? null, at, runId, callKey).changes;
    if (changed === 1) return 'decided';
    return this.#statements.confirmationExists.get(runId, callKey) ? 'already_decided' : 'not_found';
  }

  async claimRun(runId: string, options: ClaimOptions): Promise<ClaimResult> {
    checkStoreId('run id', runId);
    const { lease, now } = options;
    const changed = this.#statements.claim.run({
      runId,
      now,
      owner: lease.owner,
      holder: lease.holder,
      expiresAt: lease.expiresAt,
      takeOver: options.takeOver ? 1 : 0,
    }).changes;
    if (changed === 1) return { claimed: true };
    return refusedClaim(this.#statements.loadRun.get(runId), lease.owner, (held) => held.expiresAt > now);
  }

  async renewLease(runId: string, owner: string, expiresAt: number): Promise<boolean> {
    checkStoreId('run id', runId);
    return this.#statements.renewLease.run(expiresAt, runId, owner).changes === 1;
  }

  async releaseLease(runId: string, owner: string): Promise<void> {
    checkStoreId('run id', runId);
    this.#statements.releaseLease.run(runId, owner);
  }

  async beginCall(runId: string, callKey: string, claim?: CallClaim, fence?: LeaseFence) {
    checkStoreId('run id', runId);
    const [toolName, callId, digest] = rows.claimValues(claim);
    const begun = fence
      ? this.#statements.fencedBeginCall.run({ runId, callKey, toolName, callId, digest, owner: fence.leaseOwner }).changes
      : this.#statements.beginCall.run(runId, callKey, toolName, callId, digest).changes;
    if (begun === 1) return undefined;
    if (fence && !this.#statements.holdsLease.get(runId, fence.leaseOwner)) throw leaseLostError(runId);
    return rows.call(this.#statements.getCall.get(runId, callKey)!, callKey);
  }

  async finishCall(runId: string, callKey: string, outcome: StoredOutcome, fence?: LeaseFence): Promise<void> {
    checkStoreId('run id', runId);
    if (!fence) {
      this.#statements.finishCall.run(JSON.stringify(outcome), runId, callKey);
      return;
    }
    const finished = this.#statements.fencedFinishCall.run({ outcome: JSON.stringify(outcome), runId, callKey, owner: fence.leaseOwner }).changes;
    if (finished === 0 && !this.#statements.holdsLease.get(runId, fence.leaseOwner)) throw leaseLostError(runId);
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}

/** SQLite's codes for a file it can no longer read or write (I/O errors, a file moved, replaced by something else, or damaged). */
const LOST_FILE_CODE = /^SQLITE_(IOERR|CANTOPEN|NOTADB|CORRUPT|READONLY)/;

/**
 * The store, with a file that went away reported as {@link RunStoreUnavailableError}: before each step, the path must
 * still name the file that was opened (a removed or replaced file would otherwise take this process's writes silently,
 * into a file no other process sees), and SQLite's errors for a file it cannot read or write name the file.
 */
function reportingLostFile(store: RunStore, path: string): RunStore {
  if (path === ':memory:') return store;
  const opened = statSync(path);
  const lost = (what: string, cause?: unknown) =>
    new RunStoreUnavailableError(
      'sqlite',
      `The SQLite run store at "${path}" ${what}, so this step was not carried out. Restore the file (or check the disk and the file's permissions) and resume the run again, or start the run again with a fresh store.`,
      cause === undefined ? {} : { cause },
    );
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(store) as [string, (...args: unknown[]) => Promise<unknown>][]) {
    if (name === 'close') {
      wrapped[name] = method;
      continue;
    }
    wrapped[name] = async (...args: unknown[]) => {
      const now = statSync(path, { throwIfNoEntry: false });
      if (!now || now.ino !== opened.ino || now.dev !== opened.dev) throw lost('was removed or replaced while this process used it');
      try {
        return await method(...args);
      } catch (error) {
        const code = (error as { code?: unknown } | undefined)?.code;
        if (typeof code === 'string' && LOST_FILE_CODE.test(code)) throw lost(`cannot be read or written (${code})`, error);
        throw error;
      }
    };
  }
  return wrapped as unknown as RunStore;
}

/** A store file written before leases existed gets their columns; its runs start with no lease. */
const LEASE_COLUMNS = [
  ['lease_owner', 'TEXT'],
  ['lease_holder', 'TEXT'],
  ['lease_expires_at', 'INTEGER'],
] as const;
/** A store file written before call claims existed gets their columns; its calls keep no claim (and are trusted as the same call). */
const CLAIM_COLUMNS = [
  ['tool_name', 'TEXT'],
  ['call_id', 'TEXT'],
  ['digest', 'TEXT'],
] as const;

/** Adds the columns of `wanted` that `table` lacks (a file written by an earlier version). */
function addMissingColumns(db: BetterSqlite3.Database, table: 'runs' | 'calls', wanted: readonly (readonly [name: string, type: string])[]): void {
  const columns = new Set(
    db
      .prepare<[], { name: string }>(`PRAGMA table_info(${table})`)
      .all()
      .map((column) => column.name),
  );
  for (const [name, type] of wanted) {
    if (!columns.has(name)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
  }
}

/** Makes the database file readable and writable by its owner only (it holds the store's secret). */
export function restrictToOwner(path: string): void {
  try {
    chmodSync(path, 0o600);
  } catch {
    // A file system without POSIX modes (or a file owned by someone else) keeps its own rules.
  }
}
