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
    super('TW_RUN_NOT_FOUND', `No stored run "${runId}". List pending runs with \`toolwright approvals list\`, and check that the same run store (TOOLWRIGHT_HOME or the store path) is used.`);
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
