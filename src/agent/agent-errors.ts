/**
 * Developer-facing errors of the agent runtime: resuming a run that does not
 * exist or cannot continue, a refused confirmation, an unusable run store.
 * Mistakes of the *model* are never thrown; they go back to it as tool results.
 * @module
 */
import { ToolwrightError, type ToolwrightErrorOptions } from '../shared/errors.js';

export class RunNotFoundError extends ToolwrightError {
  readonly runId: string;
  constructor(runId: string) {
    super(
      'TW_RUN_NOT_FOUND',
      `No stored run "${runId}". List pending runs with \`toolwright approvals list\`, and check that the same run store (TOOLWRIGHT_HOME or the store path) is used. A run started without \`store\` or \`statePath\` lives only in its process's memory: pass one to resume it from another process.`,
    );
    this.runId = runId;
  }
}

export class RunNotResumableError extends ToolwrightError {
  readonly runId: string;
  /** The run's stored status when it was refused. */
  readonly status: string;
  constructor(runId: string, status: string, detail: string) {
    super('TW_RUN_NOT_RESUMABLE', `Run "${runId}" cannot be resumed: ${detail}`);
    this.runId = runId;
    this.status = status;
  }
}

/**
 * Another process holds the run's lease: it is continuing the run now (its
 * heartbeat keeps the lease), or it took the lease from this process.
 */
export class RunLeasedError extends ToolwrightError {
  readonly runId: string;
  /** Which process holds the lease (`pid … on host`), when known. */
  readonly holder: string | undefined;
  /** When the lease ends unless renewed (milliseconds since the epoch), when known. */
  readonly leaseExpiresAt: number | undefined;
  /** True when this process had claimed the run and lost the lease to another (a fenced write was refused); false when another held it first. */
  readonly leaseLost: boolean;
  constructor(runId: string, lease: { holder: string; expiresAt: number } | undefined, message?: string, options: { leaseLost?: boolean } = {}) {
    super(
      'TW_RUN_LEASED',
      message ??
        `Run "${runId}" is being continued by another process (${lease?.holder ?? 'unknown'}) whose lease runs until ${lease ? new Date(lease.expiresAt).toISOString() : 'an unknown time'} and is renewed while it runs. Wait for it to finish (\`toolwright logs ${runId}\`); if that process died, resume with takeOver: true (\`toolwright resume ${runId} --take-over\`) once the lease has run out.`,
    );
    this.runId = runId;
    this.holder = lease?.holder;
    this.leaseExpiresAt = lease?.expiresAt;
    this.leaseLost = options.leaseLost === true;
  }
}

/** The refusal of a fenced write (`LeaseFence`): the writer no longer holds the run's lease. */
export function leaseLostError(runId: string): RunLeasedError {
  return new RunLeasedError(
    runId,
    undefined,
    `This process lost the lease on run "${runId}": another process took the run over (this one was frozen or cut off from the store for longer than the lease). Nothing more was run or saved here; the other process continues the run.`,
    { leaseLost: true },
  );
}

/** Why a confirmation was refused; stable, for callers that branch on it. */
export type ConfirmationRefusal = 'malformed' | 'forged' | 'expired' | 'already_used' | 'mismatch' | 'unknown_call';

export class ConfirmationRefusedError extends ToolwrightError {
  readonly reason: ConfirmationRefusal;
  constructor(reason: ConfirmationRefusal, message: string) {
    super('TW_CONFIRMATION_REFUSED', message);
    this.reason = reason;
  }
}

export class RunStoreError extends ToolwrightError {
  constructor(message: string, options: ToolwrightErrorOptions = {}, code: 'TW_RUN_STORE' | 'TW_RUN_STORE_UNAVAILABLE' = 'TW_RUN_STORE') {
    super(code, message, options);
  }
}

/** A run id or approval id no run store holds: refused before it reaches a query (a NUL would fail in PostgreSQL) or a file name. */
export class InvalidRunIdError extends ToolwrightError {
  readonly kind: 'run id' | 'approval id';
  constructor(kind: 'run id' | 'approval id', value: unknown) {
    const shown = typeof value === 'string' ? `"${printable(value.length > 80 ? `${value.slice(0, 80)}…` : value)}"` : `of type ${typeof value}`;
    const example = kind === 'run id' ? 'run_mbx3k2q9a1b2c3d4e5' : 'apr_0a1b2c3d4e';
    super(
      'TW_INVALID_ID',
      `The ${kind} ${shown} is not one a run store can hold: a ${kind} is 1 to 200 characters of letters, digits, "_", "-", "." and ":", starting with a letter or digit (like "${example}"). Copy it again from \`toolwright approvals list\` or the console.`,
    );
    this.kind = kind;
  }
}

/**
 * The run store's database went away while a run used it (PostgreSQL refused or dropped the connection, the SQLite file
 * was removed or cannot be read): what was being done is not recorded; the message says which store and what to check.
 */
export class RunStoreUnavailableError extends RunStoreError {
  /** `postgres` or `sqlite`. */
  readonly store: 'postgres' | 'sqlite';
  constructor(store: 'postgres' | 'sqlite', message: string, options: ToolwrightErrorOptions = {}) {
    super(message, options, 'TW_RUN_STORE_UNAVAILABLE');
    this.store = store;
  }
}

/** Text with everything outside printable ASCII escaped, so that an id shown in a message cannot hide or reorder what follows it. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/gu, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
}
