/**
 * Confirmations and resuming. A decision is checked against its token (HMAC,
 * run, call, tool, canonical arguments, expiry) and recorded once in the
 * store; a run continues only when every call of its pending turn is decided
 * (an expired one counts as declined), only in the one process that claims
 * it, and each approved call runs at most once, across restarts.
 * @module
 */
import { InvalidArgumentError } from '../shared/errors.js';
import { ConfirmationRefusedError, RunNotFoundError, RunNotResumableError } from './agent-errors.js';
import { AgentLoop, toPendingConfirmation, type AppliedDecision } from './agent-loop.js';
import type { AgentResult } from './agent-result.js';
import { readConfirmationToken, verifyConfirmationToken } from './confirmation-token.js';
import { createRedactor } from './redact.js';
import { createEnvironment, type AgentRuntimeOptions } from './run-agent.js';
import type { RunEvent } from './run-event.js';
import { RunRecorder } from './run-recorder.js';
import type { Decision, RunStore, StoredConfirmation } from './run-store.js';
import { openSqliteRunStore } from './sqlite-run-store.js';

/** A person's decision on one pending call. */
export interface ConfirmationDecision {
  /** The token given with the pending call. */
  token: string;
  decision: Decision;
  /** Why, for a denial; the model is told. */
  reason?: string;
}

export interface ResumeAgentOptions extends AgentRuntimeOptions {
  /** Continue a run whose last process died while continuing it (its status is stuck at `running`). Calls that were running then are not run again. */
  takeOver?: boolean;
}

export interface DecideOptions {
  /** The run store. Default: the SQLite store at `statePath`. */
  store?: RunStore;
  statePath?: string;
  /** The clock for expiry. Default: `Date.now`. */
  now?: () => number;
}

/**
 * Records decisions on a paused run's calls, then continues the run if every
 * call of its pending turn is decided; otherwise returns it still awaiting.
 * Throws {@link ConfirmationRefusedError} for a bad, replayed, expired or
 * mismatched token, {@link RunNotFoundError} and {@link RunNotResumableError}.
 */
export async function resumeAgent(runId: string, decisions: readonly ConfirmationDecision[], options: ResumeAgentOptions): Promise<AgentResult> {
  if (typeof runId !== 'string' || runId === '') throw new InvalidArgumentError('resumeAgent needs the id of the run to continue.');
  const ownStore = options.store === undefined;
  const store = options.store ?? (await openSqliteRunStore(options.statePath !== undefined ? { path: options.statePath } : {}));
  try {
    const now = options.now ?? Date.now;
    const stored = await store.loadRun(runId);
    if (!stored) throw new RunNotFoundError(runId);
    // Decisions first: a replayed token is refused as such, even on a finished run.
    const recorder = new RunRecorder(runId, stored.state.recordPath, createRedactor(options.redact));
    try {
      for (const decision of decisions) {
        const decided = await recordDecision(store, decision, now(), runId);
        const event: RunEvent = { type: 'confirmation_decided', callKey: decided.callKey, callId: decided.callId, toolName: decided.toolName, decision: decision.decision, ...(decision.reason !== undefined ? { reason: decision.reason } : {}) };
        recorder.write(event);
        notify(options, runId, event);
      }
    } finally {
      recorder.close();
    }
    if (stored.status !== 'awaiting_confirmation' && !(options.takeOver && stored.status === 'running')) {
      throw new RunNotResumableError(runId, stored.status, notResumableDetail(stored.status));
    }

    const turn = stored.state.pendingTurn;
    const keys = new Set((turn?.calls ?? []).filter((call) => call.kind === 'confirm').map((call) => call.callKey));
    const confirmations = (await store.listConfirmations({ runId })).filter((item) => keys.has(item.callKey));
    const open = confirmations.filter((item) => item.decision === undefined && item.expiresAt > now());
    const state = { ...stored.state, limits: { ...stored.state.limits, ...options.limits } };
    if (open.length > 0) {
      return {
        status: 'awaiting_confirmation',
        pending: open.map(toPendingConfirmation),
        runId,
        messages: state.messages,
        steps: state.steps,
        usage: state.usage,
        costUsd: state.costUsd,
        recordPath: state.recordPath,
      };
    }

    const claim = await store.claimRun(runId, { takeOver: options.takeOver ?? false });
    if (!claim.claimed) throw new RunNotResumableError(runId, claim.status ?? 'missing', notResumableDetail(claim.status));
    const applied = new Map<string, AppliedDecision>();
    for (const item of confirmations) {
      applied.set(item.callKey, item.decision === undefined ? { decision: 'expired' } : { decision: item.decision, ...(item.reason !== undefined ? { reason: item.reason } : {}) });
    }
    const { environment, close } = createEnvironment({ ...options, store }, state, true);
    try {
      for (const item of confirmations) {
        if (item.decision !== undefined) continue;
        const event: RunEvent = { type: 'confirmation_decided', callKey: item.callKey, callId: item.callId, toolName: item.toolName, decision: 'expired' };
        environment.recorder.write(event);
        notify(options, runId, event);
      }
      return await new AgentLoop(state, environment).run(applied);
    } finally {
      await close();
    }
  } finally {
    if (ownStore) await store.close();
  }
}

/**
 * Records one decision without continuing the run (what `toolwright approvals
 * approve` does); `resumeAgent` continues it later. Returns the decided call.
 */
export async function decideConfirmation(decision: ConfirmationDecision, options: DecideOptions = {}): Promise<StoredConfirmation> {
  const store = options.store ?? (await openSqliteRunStore(options.statePath !== undefined ? { path: options.statePath } : {}));
  try {
    const decided = await recordDecision(store, decision, (options.now ?? Date.now)());
    const run = await store.loadRun(decided.runId);
    const recorder = new RunRecorder(decided.runId, run?.state.recordPath, createRedactor());
    recorder.write({ type: 'confirmation_decided', callKey: decided.callKey, callId: decided.callId, toolName: decided.toolName, decision: decision.decision, ...(decision.reason !== undefined ? { reason: decision.reason } : {}) });
    recorder.close();
    return { ...decided, decision: decision.decision };
  } finally {
    if (!options.store) await store.close();
  }
}

/** Every call still waiting for a decision, oldest first (expired ones included; they are declined on resume). */
export async function listPendingConfirmations(options: DecideOptions = {}): Promise<StoredConfirmation[]> {
  const store = options.store ?? (await openSqliteRunStore(options.statePath !== undefined ? { path: options.statePath } : {}));
  try {
    const undecided = await store.listConfirmations({ undecided: true });
    const live: StoredConfirmation[] = [];
    for (const item of undecided) {
      const run = await store.loadRun(item.runId);
      if (run?.status === 'awaiting_confirmation') live.push(item);
    }
    return live;
  } finally {
    if (!options.store) await store.close();
  }
}

async function recordDecision(store: RunStore, decision: ConfirmationDecision, now: number, expectedRunId?: string): Promise<StoredConfirmation> {
  if (typeof decision !== 'object' || decision === null || (decision.decision !== 'approve' && decision.decision !== 'deny')) {
    throw new InvalidArgumentError('A decision is { token, decision: "approve" | "deny", reason? }.');
  }
  const secret = await store.getSecret();
  const claims = readConfirmationToken(secret, decision.token);
  if (expectedRunId !== undefined && claims.runId !== expectedRunId) {
    throw new ConfirmationRefusedError('mismatch', `This confirmation token belongs to run "${claims.runId}", not "${expectedRunId}". Use the tokens printed with this run's pending calls.`);
  }
  const pending = (await store.listConfirmations({ runId: claims.runId })).find((item) => item.callKey === claims.callKey);
  if (!pending) {
    throw new ConfirmationRefusedError('unknown_call', `No pending call "${claims.callId}" in run "${claims.runId}" in this store. Check the store path (TOOLWRIGHT_HOME).`);
  }
  // Denying needs no live token: refusing a call is always safe, and lets a person clear an expired one.
  verifyConfirmationToken(secret, decision.token, pending, { now, checkExpiry: decision.decision === 'approve' });
  if (pending.decision !== undefined) throw alreadyUsed(pending);
  const result = await store.decide(pending.runId, pending.callKey, decision.decision, decision.reason, now);
  if (result !== 'decided') throw alreadyUsed(pending);
  return pending;
}

function notify(options: ResumeAgentOptions, runId: string, event: RunEvent): void {
  try {
    options.onEvent?.({ ...event, runId });
  } catch {
    // A failing listener must not stop the resume; the record has the event.
  }
}

function alreadyUsed(pending: StoredConfirmation): ConfirmationRefusedError {
  return new ConfirmationRefusedError(
    'already_used',
    `The confirmation for ${pending.toolName} (call "${pending.callId}" of run "${pending.runId}") was already used; a token decides once. If the run still waits, see \`toolwright approvals list\`.`,
  );
}

function notResumableDetail(status: string | undefined): string {
  switch (status) {
    case 'completed':
      return 'it has already completed.';
    case 'stopped':
      return 'it has already stopped.';
    case 'running':
      return 'another process is continuing it now (or died doing so; pass takeOver: true to continue it anyway).';
    default:
      return 'it is not waiting for confirmations.';
  }
}
