/**
 * The rows of the two SQL run stores — SQLite (`src/agent/sqlite-run-store.ts`) and PostgreSQL
 * (`src/stores/postgres-run-store.ts`) — and the one mapping between them and the stored records. Both keep the same
 * tables and columns; they differ in what {@link SqlRowsOptions} says: PostgreSQL keeps free text as JSON string literals
 * and names another cause for a damaged value (it also hands BIGINT columns back as strings, which both read through `Number`).
 * @module
 */
import { safeParseJson } from '../shared/safe-json.js';
import { RunStoreError } from './agent-errors.js';
import type { RunState } from './run-state.js';
import type { CallClaim, ClaimResult, Decision, RunLease, RunStatus, StoredCall, StoredConfirmation, StoredOutcome, StoredRun } from './run-store.js';

/** An INTEGER (SQLite) or BIGINT (PostgreSQL, read as a string) column. */
type IntegerColumn = number | string;

export interface RunRow {
  run_id: string;
  status: string;
  state: string;
  created_at: IntegerColumn;
  updated_at: IntegerColumn;
  lease_owner: string | null;
  lease_holder: string | null;
  lease_expires_at: IntegerColumn | null;
}

export interface ConfirmationRow {
  run_id: string;
  call_key: string;
  approval_id: string;
  call_id: string;
  tool_name: string;
  arguments: string;
  summary: string;
  token: string;
  expires_at: IntegerColumn;
  created_at: IntegerColumn;
  decision: string | null;
  reason: string | null;
  decided_at: IntegerColumn | null;
}

export interface CallRow {
  status: string;
  outcome: string | null;
  tool_name: string | null;
  call_id: string | null;
  digest: string | null;
}

/** The columns a confirmation is inserted with, in the order of {@link SqlRows.confirmationValues}. */
export const CONFIRMATION_COLUMNS = 'run_id, call_key, approval_id, call_id, tool_name, arguments, summary, token, expires_at, created_at';

/** What tells the two stores' rows apart. */
export interface SqlRowsOptions {
  /**
   * Free text (call ids, tool names, summaries, reasons) is kept as a JSON string literal: PostgreSQL text cannot hold
   * U+0000, which a model may well send in a call id or a person in a reason, and an escaped literal holds any string.
   */
  textAsJson: boolean;
  /** Why a stored value can be unreadable, ending the error's sentence: `the store file is damaged`. */
  damaged: string;
}

/** One store's mapping between its rows and the stored records, both ways. */
export class SqlRows {
  readonly #options: SqlRowsOptions;

  constructor(options: SqlRowsOptions) {
    this.#options = options;
  }

  /** Free text as a column holds it. */
  text(value: string): string {
    return this.#options.textAsJson ? JSON.stringify(value) : value;
  }

  /** A confirmation's column values, in the order of {@link CONFIRMATION_COLUMNS}. */
  confirmationValues(item: StoredConfirmation): unknown[] {
    return [
      item.runId,
      item.callKey,
      item.approvalId,
      this.text(item.callId),
      this.text(item.toolName),
      JSON.stringify(item.arguments ?? null),
      this.text(item.summary),
      item.token,
      item.expiresAt,
      item.createdAt,
    ];
  }

  /** A call's claim as its `tool_name`, `call_id` and `digest` columns (all null without a claim). */
  claimValues(claim: CallClaim | undefined): [string | null, string | null, string | null] {
    return claim ? [this.text(claim.toolName), this.text(claim.callId), claim.digest ?? null] : [null, null, null];
  }

  run(row: RunRow): StoredRun {
    const run: StoredRun = {
      runId: row.run_id,
      status: row.status as RunStatus,
      state: this.#parse<RunState>(row.state, `run ${row.run_id}`),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    };
    const lease = leaseOf(row);
    if (lease) run.lease = lease;
    return run;
  }

  confirmation(row: ConfirmationRow): StoredConfirmation {
    const what = `confirmation ${row.approval_id}`;
    const confirmation: StoredConfirmation = {
      approvalId: row.approval_id,
      runId: row.run_id,
      callKey: row.call_key,
      callId: this.#readText(row.call_id, what),
      toolName: this.#readText(row.tool_name, what),
      arguments: this.#parse<unknown>(row.arguments, what),
      summary: this.#readText(row.summary, what),
      token: row.token,
      expiresAt: Number(row.expires_at),
      createdAt: Number(row.created_at),
    };
    if (row.decision !== null) confirmation.decision = row.decision as Decision;
    if (row.reason !== null) confirmation.reason = this.#readText(row.reason, what);
    if (row.decided_at !== null) confirmation.decidedAt = Number(row.decided_at);
    return confirmation;
  }

  /** A call that began: `done` with its outcome once it has one, and the claim it was begun with (rows from before claims have none). */
  call(row: CallRow, callKey: string): StoredCall {
    const stored: StoredCall =
      row.status === 'done' && row.outcome !== null
        ? { status: 'done', outcome: this.#parse<StoredOutcome>(row.outcome, `call ${callKey}`) }
        : { status: 'executing' };
    if (row.tool_name !== null && row.call_id !== null) {
      stored.claim = {
        toolName: this.#readText(row.tool_name, 'a claim'),
        callId: this.#readText(row.call_id, 'a claim'),
        ...(row.digest !== null ? { digest: row.digest } : {}),
      };
    }
    return stored;
  }

  #readText(text: string, what: string): string {
    if (!this.#options.textAsJson) return text;
    const value = this.#parse<unknown>(text, what);
    if (typeof value !== 'string') throw new RunStoreError(`A text field of the stored ${what} is not a JSON string; ${this.#options.damaged}.`);
    return value;
  }

  #parse<T>(text: string, what: string): T {
    const parsed = safeParseJson(text);
    if (!parsed.success) throw new RunStoreError(`The stored ${what} is not valid JSON (${parsed.error.message}); ${this.#options.damaged}.`);
    return parsed.value as T;
  }
}

/**
 * A claim the store refused: the run's status, and the lease that stood in the way when another owner holds it and it
 * is live (`live` judges the lease on the store's clock).
 */
export function refusedClaim(row: RunRow | undefined, owner: string, live: (lease: RunLease) => boolean): ClaimResult {
  if (!row) return { claimed: false, status: undefined };
  const held = leaseOf(row);
  return held && held.owner !== owner && live(held)
    ? { claimed: false, status: row.status as RunStatus, lease: held }
    : { claimed: false, status: row.status as RunStatus };
}

/** The run's lease, while a process holds (or last held) it. */
function leaseOf(row: RunRow): RunLease | undefined {
  if (row.lease_owner === null || row.lease_expires_at === null) return undefined;
  return { owner: row.lease_owner, holder: row.lease_holder ?? 'unknown process', expiresAt: Number(row.lease_expires_at) };
}
