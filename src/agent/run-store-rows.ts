/**
 * The rows of the two SQL run stores — SQLite (`src/agent/sqlite-run-store.ts`) and PostgreSQL
 * (`src/stores/postgres-run-store.ts`) — and the one mapping between them and the stored records. Both keep the same
 * tables and columns; they differ in what a {@link RowCodec} says: PostgreSQL hands BIGINT columns back as strings, keeps
 * free text as JSON string literals (its text cannot hold U+0000), and names another cause for a damaged value.
 * @module
 */
import { safeParseJson } from '../shared/safe-json.js';
import { RunStoreError } from './agent-errors.js';
import type { RunState } from './run-state.js';
import type { CallClaim, Decision, RunLease, RunStatus, StoredCall, StoredConfirmation, StoredOutcome, StoredRun } from './run-store.js';

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

/** How one store writes free text (call ids, tool names, summaries, reasons) and reports a value it cannot read. */
export interface RowCodec {
  encodeText(value: string): string;
  /** The text as written; `what` names the record for the error. */
  decodeText(text: string, what: string): string;
  /** Why a stored value can be unreadable, ending the error's sentence: `the store file is damaged`. */
  damaged: string;
}

/** The columns a confirmation is inserted with, in the order of {@link confirmationValues}. */
export const CONFIRMATION_COLUMNS = 'run_id, call_key, approval_id, call_id, tool_name, arguments, summary, token, expires_at, created_at';

export function confirmationValues(item: StoredConfirmation, codec: RowCodec): unknown[] {
  return [
    item.runId,
    item.callKey,
    item.approvalId,
    codec.encodeText(item.callId),
    codec.encodeText(item.toolName),
    JSON.stringify(item.arguments ?? null),
    codec.encodeText(item.summary),
    item.token,
    item.expiresAt,
    item.createdAt,
  ];
}

/** A call's claim as its `tool_name`, `call_id` and `digest` columns (all null without a claim). */
export function claimValues(claim: CallClaim | undefined, codec: RowCodec): [string | null, string | null, string | null] {
  return claim ? [codec.encodeText(claim.toolName), codec.encodeText(claim.callId), claim.digest ?? null] : [null, null, null];
}

export function runOf(row: RunRow, codec: RowCodec): StoredRun {
  const run: StoredRun = {
    runId: row.run_id,
    status: row.status as RunStatus,
    state: parseStored<RunState>(row.state, `run ${row.run_id}`, codec),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
  const lease = leaseOf(row);
  if (lease) run.lease = lease;
  return run;
}

export function leaseOf(row: RunRow): RunLease | undefined {
  if (row.lease_owner === null || row.lease_expires_at === null) return undefined;
  return { owner: row.lease_owner, holder: row.lease_holder ?? 'unknown process', expiresAt: Number(row.lease_expires_at) };
}

export function confirmationOf(row: ConfirmationRow, codec: RowCodec): StoredConfirmation {
  const what = `confirmation ${row.approval_id}`;
  const confirmation: StoredConfirmation = {
    approvalId: row.approval_id,
    runId: row.run_id,
    callKey: row.call_key,
    callId: codec.decodeText(row.call_id, what),
    toolName: codec.decodeText(row.tool_name, what),
    arguments: parseStored<unknown>(row.arguments, what, codec),
    summary: codec.decodeText(row.summary, what),
    token: row.token,
    expiresAt: Number(row.expires_at),
    createdAt: Number(row.created_at),
  };
  if (row.decision !== null) confirmation.decision = row.decision as Decision;
  if (row.reason !== null) confirmation.reason = codec.decodeText(row.reason, what);
  if (row.decided_at !== null) confirmation.decidedAt = Number(row.decided_at);
  return confirmation;
}

/** A call that began: `done` with its outcome once it has one, and the claim it was begun with (rows from before claims have none). */
export function storedCallOf(row: CallRow, callKey: string, codec: RowCodec): StoredCall {
  const stored: StoredCall =
    row.status === 'done' && row.outcome !== null
      ? { status: 'done', outcome: parseStored<StoredOutcome>(row.outcome, `call ${callKey}`, codec) }
      : { status: 'executing' };
  if (row.tool_name !== null && row.call_id !== null) {
    stored.claim = {
      toolName: codec.decodeText(row.tool_name, 'a claim'),
      callId: codec.decodeText(row.call_id, 'a claim'),
      ...(row.digest !== null ? { digest: row.digest } : {}),
    };
  }
  return stored;
}

export function parseStored<T>(text: string, what: string, codec: RowCodec): T {
  const parsed = safeParseJson(text);
  if (!parsed.success) throw new RunStoreError(`The stored ${what} is not valid JSON (${parsed.error.message}); ${codec.damaged}.`);
  return parsed.value as T;
}
