/**
 * Confirmations and resuming. A decision is checked against its token (HMAC,
 * run, call, tool, canonical arguments, expiry) and recorded once in the
 * store; a run continues only when every call of its pending turn is decided
 * (an expired one counts as declined), only in the one process that claims
 * it and holds its lease (renewed by a heartbeat while the run is driven),
 * and each approved call starts at most once, across restarts, except that a
 * tool accepting an idempotency key is started again after a crash mid-call.
 * @module
 */
import { randomHex } from '../shared/bytes.js';
import { nodeBuiltin, unrefTimer } from '../shared/node-builtin.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { ConfirmationRefusedError, leaseLostError, RunLeasedError, RunNotFoundError, RunNotResumableError } from './agent-errors.js';
import { AgentLoop } from './agent-loop.js';
import { toPendingConfirmation } from './confirmations.js';
import type { AppliedDecision, LoopStreamSink } from './loop-environment.js';
import type { AgentResult } from './agent-result.js';
import { readConfirmationToken, verifyConfirmationToken } from './confirmation-token.js';
import { createRedactor, runRedactor } from './redact.js';
import { createEnvironment, type AgentRuntimeOptions, type ContextRequirement } from './run-agent.js';
import type { RunEvent } from './run-event.js';
import { RunRecorder } from './run-recorder.js';
import type { Decision, RunLease, RunStore, StoredConfirmation } from './run-store.js';
import type { RunState } from './run-state.js';
import { sealRunStore } from './sealed-run-store.js';
import { defaultRunStore } from './default-run-store.js';

/** A person's decision on one pending call. */
export interface ConfirmationDecision {
  /** The token given with the pending call. */
  token: string;
  decision: Decision;
  /** Why, for a denial; the model is told. */
  reason?: string;
}

/** `context` is not stored with a paused run: pass it again here, as to `runAgent`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as AgentRuntimeOptions.
export interface ResumeAgentOptions<Ctx = any> extends AgentRuntimeOptions<Ctx> {
  /**
   * Continue a run whose last process died while continuing it (its status is stuck at `running` and its lease ran out).
   * A live lease is never taken over. The run goes on from its last saved turn (each turn is saved before its calls
   * start). A call that was running then is started again only if its tool accepts an idempotency key
   * (`acceptsIdempotencyKey`); a write that does not is reported `outcome_unknown`, not run again. A stored outcome is
   * reused only by the same tool with canonically the same arguments (see `AgentResult.supersededCalls`).
   */
  takeOver?: boolean;
  /**
   * How long the run's lease lasts without renewal, in milliseconds. While the run is driven a heartbeat renews it every
   * third of this, so only a process that died (or froze this long) can be taken over. Default {@link DEFAULT_LEASE_MS}.
   */
  leaseMs?: number;
}

/** The default lease: 30 seconds, renewed every 10 while a run is driven. */
export const DEFAULT_LEASE_MS = 30_000;

export interface DecideOptions {
  /** The run store. Default: the SQLite store at `statePath` when given, else the process's memory store (as `runAgent`). */
  store?: RunStore;
  statePath?: string;
  /**
   * The folder of run records: the decision is written to the run's record there. Default: the record path the stored
   * run names (which anyone who can write the store chooses); `false` writes no record.
   */
  recordDir?: string | false;
  /** The clock for expiry. Default: `Date.now`. */
  now?: () => number;
}

/**
 * Records decisions on a paused run's calls, then continues the run if every
 * call of its pending turn is decided; otherwise returns it still awaiting.
 * Throws {@link ConfirmationRefusedError} for a bad, replayed, expired or
 * mismatched token, {@link RunNotFoundError} and {@link RunNotResumableError}.
 */
export async function resumeAgent<Ctx = undefined>(
  runId: string,
  decisions: readonly ConfirmationDecision[],
  options: ResumeAgentOptions<Ctx> & ContextRequirement<Ctx>,
): Promise<AgentResult> {
  return resumeAgentRun(runId, decisions, options);
}

/**
 * {@link resumeAgent}; with `streaming`, every model call streams and its pieces go to the sink made for the run's
 * state (`resumeAgentStream`).
 * @internal
 */
export async function resumeAgentRun(
  runId: string,
  decisions: readonly ConfirmationDecision[],
  options: ResumeAgentOptions,
  streaming?: (state: RunState) => LoopStreamSink,
): Promise<AgentResult> {
  if (typeof runId !== 'string' || runId === '') throw new InvalidArgumentError('resumeAgent needs the id of the run to continue.');
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (typeof leaseMs !== 'number' || !Number.isFinite(leaseMs) || leaseMs < 100) {
    throw new InvalidArgumentError(
      `leaseMs must be a number of milliseconds, at least 100 (got ${String(options.leaseMs)}); the default is ${DEFAULT_LEASE_MS}.`,
    );
  }
  const ownStore = options.store === undefined;
  const redactor = runRedactor(options);
  // Sealed: the stored state is redacted, and the real values come back for the resumed calls.
  const store = sealRunStore(options.store ?? (await defaultRunStore(options)), redactor);
  try {
    const now = options.now ?? Date.now;
    const stored = await store.loadRun(runId);
    if (!stored) throw new RunNotFoundError(runId);
    // Decisions first: a replayed token is refused as such, even on a finished run.
    const recordPath = recordPathOf(options.recordDir, runId, stored.state.recordPath);
    await recordDecisions(store, runId, decisions, { ...options, now }, new RunRecorder(runId, recordPath, redactor));
    // Only a plain resume is refused here on this process's clock; a take-over is judged by `claimRun` alone, on the store's
    // clock (the database's, for PostgreSQL), so a clock that runs behind cannot hold a dead worker's run back.
    if (!options.takeOver && stored.status === 'running' && stored.lease && stored.lease.expiresAt > Date.now()) throw new RunLeasedError(runId, stored.lease);
    if (stored.status !== 'awaiting_confirmation' && !(options.takeOver && stored.status === 'running')) {
      throw new RunNotResumableError(runId, stored.status, notResumableDetail(stored.status, stored.lease));
    }

    const turn = stored.state.pendingTurn;
    const keys = new Set((turn?.calls ?? []).filter((call) => call.kind === 'confirm').map((call) => call.callKey));
    const confirmations = (await store.listConfirmations({ runId })).filter((item) => keys.has(item.callKey));
    const open = confirmations.filter((item) => item.decision === undefined && item.expiresAt > now());
    const state = { ...stored.state, recordPath, limits: { ...stored.state.limits, ...options.limits } };
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

    const lease: RunLease = {
      owner: `lease_${randomHex(8)}`,
      holder: leaseHolder(),
      expiresAt: Date.now() + leaseMs,
    };
    const claim = await store.claimRun(runId, { takeOver: options.takeOver ?? false, lease, now: Date.now() });
    if (!claim.claimed) {
      if (claim.lease) throw new RunLeasedError(runId, claim.lease);
      throw new RunNotResumableError(runId, claim.status ?? 'missing', notResumableDetail(claim.status, undefined));
    }
    const heartbeat = startHeartbeat(store, runId, lease.owner, leaseMs);
    const applied = new Map<string, AppliedDecision>();
    for (const item of confirmations) {
      applied.set(
        item.callKey,
        item.decision === undefined ? { decision: 'expired' } : { decision: item.decision, ...(item.reason !== undefined ? { reason: item.reason } : {}) },
      );
    }
    const signal = options.signal ? AbortSignal.any([options.signal, heartbeat.signal]) : heartbeat.signal;
    const { environment, close } = createEnvironment({ ...options, signal, store: heartbeat.guard(store) }, state, true);
    if (streaming) environment.stream = streaming(state);
    try {
      for (const item of confirmations) {
        if (item.decision !== undefined) continue;
        const event: RunEvent = { type: 'confirmation_decided', callKey: item.callKey, callId: item.callId, toolName: item.toolName, decision: 'expired' };
        environment.recorder.write(event);
        notify(options, runId, event);
      }
      return await new AgentLoop(state, environment).run(applied);
    } finally {
      heartbeat.stop();
      await close();
      await store.releaseLease(runId, lease.owner).catch(() => {
        // An unreleased lease only delays a take-over until it runs out.
      });
    }
  } finally {
    if (ownStore) await store.close();
  }
}

/** Records the decisions a resume brings, each in the store (single use) and in the run's record, before the run goes on. */
async function recordDecisions(
  store: RunStore,
  runId: string,
  decisions: readonly ConfirmationDecision[],
  options: ResumeAgentOptions & { now: () => number },
  recorder: RunRecorder,
): Promise<void> {
  try {
    for (const decision of decisions) {
      const decided = await recordDecision(store, decision, options.now(), runId);
      const event = decidedEvent(decided, decision);
      recorder.write(event);
      notify(options, runId, event);
    }
  } finally {
    recorder.close();
  }
}

/** The record's event for a decision a person made on a stored confirmation. */
function decidedEvent(decided: StoredConfirmation, decision: ConfirmationDecision): RunEvent {
  const { callKey, callId, toolName } = decided;
  return {
    type: 'confirmation_decided',
    callKey,
    callId,
    toolName,
    decision: decision.decision,
    ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
  };
}

/**
 * Records one decision without continuing the run (what `toolwright approvals
 * approve` does); `resumeAgent` continues it later. Returns the decided call.
 */
export async function decideConfirmation(decision: ConfirmationDecision, options: DecideOptions = {}): Promise<StoredConfirmation> {
  const store = options.store ?? (await defaultRunStore(options));
  try {
    const decided = await recordDecision(store, decision, (options.now ?? Date.now)());
    const run = await store.loadRun(decided.runId);
    const recorder = new RunRecorder(decided.runId, recordPathOf(options.recordDir, decided.runId, run?.state.recordPath), createRedactor());
    recorder.write(decidedEvent(decided, decision));
    recorder.close();
    return { ...decided, decision: decision.decision };
  } finally {
    if (!options.store) await store.close();
  }
}

/**
 * Where a resumed or decided run's record goes: in the caller's `recordDir` when it names one, so a stored path (written
 * by whoever can write the store) is followed only by a caller that names no folder of its own.
 */
function recordPathOf(recordDir: string | false | undefined, runId: string, storedPath: string | undefined): string | undefined {
  if (recordDir === undefined) return storedPath;
  return recordDir === false ? undefined : RunRecorder.pathFor(recordDir, runId);
}

/** Every call still waiting for a decision, oldest first (expired ones included; they are declined on resume). */
export async function listPendingConfirmations(options: DecideOptions = {}): Promise<StoredConfirmation[]> {
  const store = options.store ?? (await defaultRunStore(options));
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
    throw new ConfirmationRefusedError(
      'mismatch',
      `This confirmation token belongs to run "${claims.runId}", not "${expectedRunId}". Use the tokens printed with this run's pending calls.`,
    );
  }
  const pending = (await store.listConfirmations({ runId: claims.runId })).find((item) => item.callKey === claims.callKey);
  if (!pending) {
    throw new ConfirmationRefusedError(
      'unknown_call',
      `No pending call "${claims.callId}" in run "${claims.runId}" in this store. Check the store path (TOOLWRIGHT_HOME).`,
    );
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

function notResumableDetail(status: string | undefined, lease: RunLease | undefined): string {
  switch (status) {
    case 'completed':
      return 'it has already completed.';
    case 'stopped':
      return 'it has already stopped.';
    case 'running':
      return `the process that was continuing it stopped without finishing it (it died${lease ? `, and its lease ran out at ${new Date(lease.expiresAt).toISOString()}` : ' or failed'}). Pass takeOver: true (\`toolwright resume <runId> --take-over\`) to continue it; a call it was running is reported as outcome unknown unless its tool accepts an idempotency key.`;
    default:
      return 'it is not waiting for confirmations.';
  }
}

interface Heartbeat {
  /** Aborts when another process took the lease: the run stops driving. */
  signal: AbortSignal;
  /** The store as the loop sees it: before a call starts or the run is saved, the lease is renewed, or the step refused. */
  guard: (store: RunStore) => RunStore;
  stop: () => void;
}

/**
 * Renews the lease every third of its length. The timer is unref'd so it never keeps a process alive, and a renewal
 * the store refuses (the lease was taken over) aborts the run, so two processes never drive it at once for long.
 */
function startHeartbeat(store: RunStore, runId: string, owner: string, leaseMs: number): Heartbeat {
  const lost = new AbortController();
  const loseLease = () => {
    if (!lost.signal.aborted) lost.abort(new Error(`this process lost the lease on run "${runId}" to another process, which continues the run`));
  };
  const renew = async (): Promise<boolean> => {
    if (lost.signal.aborted) return false;
    const now = Date.now();
    const held = await store.renewLease(runId, owner, now + leaseMs, now);
    if (!held) loseLease();
    return held;
  };
  const timer = setInterval(
    () => {
      renew().catch(() => {
        // A store that failed once may answer next time; the checks before each call and save still hold.
      });
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  unrefTimer(timer);
  const refuse = () => leaseLostError(runId);
  // A store refusing a fenced write has the last word: the run stops driving at once.
  const fenced = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } catch (error) {
      if (RunLeasedError.isInstance(error) && error.leaseLost) loseLease();
      throw error;
    }
  };
  const fence = { leaseOwner: owner };
  return {
    signal: lost.signal,
    stop: () => clearInterval(timer),
    guard: (inner) => ({
      getSecret: () => inner.getSecret(),
      saveRun: async (run, confirmations) => {
        if (!(await renew())) throw refuse();
        return fenced(() => inner.saveRun(run, confirmations, fence));
      },
      loadRun: (id) => inner.loadRun(id),
      listConfirmations: (filter) => inner.listConfirmations(filter),
      findConfirmation: (approvalId) => inner.findConfirmation(approvalId),
      decide: (...args) => inner.decide(...args),
      claimRun: (id, claimOptions) => inner.claimRun(id, claimOptions),
      renewLease: (...args) => inner.renewLease(...args),
      releaseLease: (...args) => inner.releaseLease(...args),
      beginCall: async (id, callKey, claim) => {
        if (!(await renew())) throw refuse();
        return fenced(() => inner.beginCall(id, callKey, claim, fence));
      },
      // No renewal first: the outcome of a call that ran is worth recording whenever this process still owns the run.
      finishCall: (id, callKey, outcome) => fenced(() => inner.finishCall(id, callKey, outcome, fence)),
      // The caller's store outlives the run; resumeAgent closes its own.
      close: async () => {},
    }),
  };
}

/** Who holds a lease, for the operator reading a `TW_RUN_LEASED` error: the process and host where the runtime has them. */
function leaseHolder(): string {
  const pid = (globalThis as { process?: { pid?: number } }).process?.pid;
  let host: string | undefined;
  try {
    host = nodeBuiltin('node:os')?.hostname();
  } catch {
    // Deno without --allow-sys refuses the host name; it only labels the lease.
  }
  if (pid === undefined) return 'a worker on a runtime without process ids (workerd, an edge runtime)';
  return host === undefined ? `pid ${pid}` : `pid ${pid} on ${host}`;
}
