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
  constructor(message: string, options: ToolwrightErrorOptions = {}) {
    super('TW_RUN_STORE', message, options);
  }
}
