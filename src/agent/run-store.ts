/**
 * Where paused runs and their confirmations live. The interface is small and
 * asynchronous so that a server can put it in Postgres or Redis; toolwright
 * ships an in-memory store and a SQLite one (`openSqliteRunStore`).
 *
 * Every method that decides something is atomic: `decide` succeeds once per
 * call, `claimRun` lets one process continue a run, and `beginCall` lets one
 * execution of a call start. Together they make a confirmed call run exactly
 * once across restarts.
 * @module
 */
import type { ToolCallOutcome } from './agent-result.js';
import type { RunState } from './run-state.js';

export type RunStatus = 'awaiting_confirmation' | 'running' | 'completed' | 'stopped';

export interface StoredRun {
  runId: string;
  status: RunStatus;
  state: RunState;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
}

export type Decision = 'approve' | 'deny';

export interface StoredConfirmation {
  approvalId: string;
  runId: string;
  callKey: string;
  callId: string;
  toolName: string;
  arguments: unknown;
  summary: string;
  token: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  createdAt: number;
  /** Absent until decided. */
  decision?: Decision;
  reason?: string;
  decidedAt?: number;
}

/** A call whose execution began: `executing` (no result yet, perhaps never) or `done` with its outcome. */
export interface StoredCall {
  status: 'executing' | 'done';
  outcome?: ToolCallOutcome;
}

export type ClaimResult = { claimed: true } | { claimed: false; status: RunStatus | undefined };

export interface RunStore {
  /** The per-store secret that signs confirmation tokens; created on first use. */
  getSecret(): Promise<Uint8Array>;
  /** Inserts or replaces a run; adds the given confirmations (existing ones, decided or not, are kept). */
  saveRun(run: Omit<StoredRun, 'createdAt' | 'updatedAt'>, confirmations?: readonly StoredConfirmation[]): Promise<void>;
  loadRun(runId: string): Promise<StoredRun | undefined>;
  listConfirmations(filter?: { runId?: string; undecided?: boolean }): Promise<StoredConfirmation[]>;
  findConfirmation(approvalId: string): Promise<StoredConfirmation | undefined>;
  /** Records a decision once; a second decision on the same call is `already_decided`. */
  decide(runId: string, callKey: string, decision: Decision, reason: string | undefined, at: number): Promise<'decided' | 'already_decided' | 'not_found'>;
  /** Moves a run from `awaiting_confirmation` (or `running`, with `takeOver`) to `running`, atomically. */
  claimRun(runId: string, options?: { takeOver?: boolean }): Promise<ClaimResult>;
  /** Marks a call `executing` if it has not begun; returns `undefined` when this caller began it, else what is stored. */
  beginCall(runId: string, callKey: string): Promise<StoredCall | undefined>;
  /** Stores a call's outcome and marks it `done`. */
  finishCall(runId: string, callKey: string, outcome: ToolCallOutcome): Promise<void>;
  close(): Promise<void>;
}
