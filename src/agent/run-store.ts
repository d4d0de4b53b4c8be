/**
 * Where paused runs and their confirmations live. The interface is small and
 * asynchronous so that a server can put it in Postgres or Redis; toolwright
 * ships an in-memory store and a SQLite one (`openSqliteRunStore`).
 *
 * Every method that decides something is atomic: `decide` succeeds once per
 * call, `claimRun` lets one process continue a run and gives it a lease
 * (renewed while it drives the run, so a live process is never taken over),
 * and `beginCall` lets one execution of a call start, recording a claim (tool,
 * call id, keyed digest of the arguments) that tells a replayed call from a
 * different one at the same key. Together they make an approved call start at
 * most once; after a crash mid-call, only a tool that accepts an idempotency
 * key is started again (see docs/agent.md).
 * @module
 */
import type { TrustLabel } from '../policy/types.js';
import type { PendingConfirmation, ToolCallOutcome } from './agent-result.js';
import { InvalidRunIdError } from './agent-errors.js';
import type { RunState } from './run-state.js';

export type RunStatus = 'awaiting_confirmation' | 'running' | 'completed' | 'stopped';

export interface StoredRun {
  runId: string;
  status: RunStatus;
  state: RunState;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
  /** The process continuing the run, while it holds (or last held, until another claim) the run's lease. */
  lease?: RunLease;
}

/** Who may drive a `running` run, and until when unless renewed. */
export interface RunLease {
  /** A random id of the claiming `resumeAgent` call; only it can renew or release the lease. */
  owner: string;
  /** For people reading an error: which process holds it (`pid 4242 on host-a`). */
  holder: string;
  /** Milliseconds since the epoch; past it, the lease is free to take over. */
  expiresAt: number;
}

/**
 * What `claimRun` needs: the lease to take and the caller's time it is taken at. A store on one machine (memory, SQLite)
 * measures leases on that clock; a store shared by many machines (PostgreSQL) takes only the lease's length
 * (`lease.expiresAt - now`) from the caller and measures start and expiry on its own clock, so that instances whose
 * clocks disagree cannot end each other's leases early.
 */
export interface ClaimOptions {
  /** Also claim a run stuck at `running` whose lease is free (its process died or gave up). */
  takeOver?: boolean;
  lease: RunLease;
  /** Milliseconds since the epoch, on the caller's clock. */
  now: number;
}

/**
 * Fencing: a write made on behalf of the lease's owner happens only while that owner still holds the run's lease,
 * checked in the same atomic step as the write. A refused write throws `RunLeasedError` with `leaseLost: true`
 * (`TW_RUN_LEASED`) and changes nothing, so a process that froze past its lease and was taken over cannot overwrite
 * the new owner's state, outcomes or finish. A store of your own that ignores the argument still works, without this
 * protection (the heartbeat's renewal before each save and call start is then the only check).
 */
export interface LeaseFence {
  /** The `RunLease.owner` the writer claimed the run with. */
  leaseOwner: string;
}

export type Decision = 'approve' | 'deny';

/**
 * A confirmation as the store keeps it: the same record a run's result shows ({@link PendingConfirmation}), with its
 * times in milliseconds and, once decided, the decision.
 */
export interface StoredConfirmation extends Omit<PendingConfirmation, 'expiresAt'> {
  /** Milliseconds since the epoch (a run's result shows it as an ISO time). */
  expiresAt: number;
  createdAt: number;
  /** Absent until decided. */
  decision?: Decision;
  reason?: string;
  decidedAt?: number;
}

/**
 * Which call began under a key. A key is a position (`<step>.<index>`), and a take-over that asks the model again may
 * get another call at the same position; the claim tells the two apart without storing the arguments.
 */
export interface CallClaim {
  toolName: string;
  /** The provider's call id. */
  callId: string;
  /** A keyed hash (HMAC-SHA256, keyed by the store's secret) of the tool name and canonical arguments; absent when the arguments cannot be written as JSON. */
  digest?: string;
}

/** A call whose execution began: `executing` (no result yet, perhaps never) or `done` with its outcome. */
/**
 * A finished call's outcome as stored: with the trust label the run's policy gave its result, so that a run that reuses the
 * outcome after a take-over teaches its policy what the run read (the label is absent without a policy, and in outcomes
 * stored by earlier versions, whose results the policy labels again).
 */
export interface StoredOutcome extends ToolCallOutcome {
  trust?: TrustLabel;
}

export interface StoredCall {
  status: 'executing' | 'done';
  outcome?: StoredOutcome;
  /** What it was begun with; absent for a call begun without one (by a version of toolwright before claims). */
  claim?: CallClaim;
}

/** A refused claim says the run's status, and the lease that stood in the way when another process holds it. */
export type ClaimResult = { claimed: true } | { claimed: false; status: RunStatus | undefined; lease?: RunLease };

export interface RunStore {
  /** The per-store secret that signs confirmation tokens; created on first use. */
  getSecret(): Promise<Uint8Array>;
  /** Inserts or replaces a run; adds the given confirmations (existing ones, decided or not, are kept). The lease is left as it is. */
  saveRun(run: Omit<StoredRun, 'createdAt' | 'updatedAt' | 'lease'>, confirmations?: readonly StoredConfirmation[], fence?: LeaseFence): Promise<void>;
  loadRun(runId: string): Promise<StoredRun | undefined>;
  /**
   * The most recently updated runs first, at most `limit` (default 100), for a person looking over them (`toolwright console`).
   * Optional: a store without it still runs agents, and the console then lists only the runs it finds records of.
   */
  listRuns?(options?: { limit?: number }): Promise<StoredRun[]>;
  listConfirmations(filter?: { runId?: string; undecided?: boolean }): Promise<StoredConfirmation[]>;
  findConfirmation(approvalId: string): Promise<StoredConfirmation | undefined>;
  /** Records a decision once; a second decision on the same call is `already_decided`. */
  decide(runId: string, callKey: string, decision: Decision, reason: string | undefined, at: number): Promise<'decided' | 'already_decided' | 'not_found'>;
  /**
   * Moves a run from `awaiting_confirmation` (or `running`, with `takeOver`) to `running` and gives it `options.lease`, in one
   * atomic step, but only while no other owner's lease is live (`expiresAt > now`): of two racing claims, one wins.
   */
  claimRun(runId: string, options: ClaimOptions): Promise<ClaimResult>;
  /**
   * Moves the lease's expiry to `expiresAt` if `owner` still holds it; `false` when another claim took it. `now` is the
   * caller's time `expiresAt` was computed at (default: the store process's `Date.now()`); a store on its own clock takes
   * only the length `expiresAt - now` from it, as `claimRun` does.
   */
  renewLease(runId: string, owner: string, expiresAt: number, now?: number): Promise<boolean>;
  /** Drops the lease if `owner` holds it (a finished or paused run needs none). */
  releaseLease(runId: string, owner: string): Promise<void>;
  /**
   * Marks a call `executing` with its claim if it has not begun; returns `undefined` when this caller began it, else what is stored (with the claim it
   * was begun with).
   */
  beginCall(runId: string, callKey: string, claim?: CallClaim, fence?: LeaseFence): Promise<StoredCall | undefined>;
  /** Stores a call's outcome and marks it `done`; its claim stays. */
  finishCall(runId: string, callKey: string, outcome: StoredOutcome, fence?: LeaseFence): Promise<void>;
  close(): Promise<void>;
}

/** What a run id or approval id may be: what toolwright makes (`run_…`, `apr_…`) and any plain name a caller picks. */
const STORE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,199}$/;

/**
 * The one check of an id at a store's boundary (every store calls it before an id reaches a query, a map or a file
 * name): throws {@link InvalidRunIdError} for an id no store holds, such as one with a NUL or a slash.
 */
export function checkStoreId(kind: 'run id' | 'approval id', value: unknown): void {
  if (typeof value !== 'string' || !STORE_ID.test(value)) throw new InvalidRunIdError(kind, value);
}

/** The ids of a run being saved and of the confirmations saved with it. */
export function checkSavedIds(runId: string, confirmations: readonly StoredConfirmation[]): void {
  checkStoreId('run id', runId);
  for (const item of confirmations) {
    checkStoreId('run id', item.runId);
    checkStoreId('approval id', item.approvalId);
  }
}

/**
 * A store's methods as a plain object of functions bound to it: what the built-in factories return, as they always have,
 * so that a caller may spread a store, leave a method out (`const { listRuns, ...rest } = store`) or pass one method on
 * by itself, none of which works on methods that live on a class's prototype.
 */
export function plainRunStore<T extends RunStore>(store: T): T {
  const plain: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(store))) {
    const member: unknown = Reflect.get(store, name);
    if (name !== 'constructor' && typeof member === 'function') plain[name] = member.bind(store);
  }
  return plain as T;
}
