/**
 * A {@link RunStore} in memory: for tests and for processes that never need to
 * resume a run after a restart. Values are copied in and out through JSON, as
 * a database would, so a caller cannot change stored state by mutation. The
 * process-wide one ({@link processRunStore}) is what `runAgent` and
 * `resumeAgent` share when the caller names no store.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { ToolCallOutcome } from './agent-result.js';
import { leaseLostError } from './agent-errors.js';
import {
  checkSavedIds,
  checkStoreId,
  type ClaimResult,
  type Decision,
  type LeaseFence,
  type RunStore,
  type StoredCall,
  type StoredConfirmation,
  type StoredRun,
} from './run-store.js';

const copy = <T>(value: T): T => structuredClone(value);

export function createMemoryRunStore(): RunStore {
  const secret = randomBytes(32);
  const runs = new Map<string, StoredRun>();
  const confirmations = new Map<string, StoredConfirmation>();
  const calls = new Map<string, StoredCall>();
  const key = (runId: string, callKey: string) => `${runId}\u0000${callKey}`;
  // Checked and written in one synchronous step: no other call runs in between.
  const checkFence = (runId: string, fence: LeaseFence | undefined) => {
    if (fence && runs.get(runId)?.lease?.owner !== fence.leaseOwner) throw leaseLostError(runId);
  };

  return {
    async getSecret() {
      return secret;
    },
    async saveRun(run, added = [], fence) {
      checkSavedIds(run.runId, added);
      checkFence(run.runId, fence);
      const now = Date.now();
      const existing = runs.get(run.runId);
      // The lease is the claim's business: saving the state neither takes nor drops it.
      runs.set(
        run.runId,
        copy({
          runId: run.runId,
          status: run.status,
          state: run.state,
          createdAt: existing?.createdAt ?? now,
          updatedAt: now,
          ...(existing?.lease ? { lease: existing.lease } : {}),
        }),
      );
      for (const confirmation of added) {
        const id = key(confirmation.runId, confirmation.callKey);
        if (!confirmations.has(id)) confirmations.set(id, copy(confirmation));
      }
    },
    async loadRun(runId) {
      checkStoreId('run id', runId);
      const run = runs.get(runId);
      return run && copy(run);
    },
    async listRuns({ limit = 100 } = {}) {
      return [...runs.values()]
        .sort((a, b) => b.updatedAt - a.updatedAt)
        .slice(0, Math.max(0, limit))
        .map(copy);
    },
    async listConfirmations(filter = {}) {
      if (filter.runId !== undefined) checkStoreId('run id', filter.runId);
      return [...confirmations.values()]
        .filter((item) => (filter.runId === undefined || item.runId === filter.runId) && (!filter.undecided || item.decision === undefined))
        .sort((a, b) => a.createdAt - b.createdAt)
        .map(copy);
    },
    async findConfirmation(approvalId) {
      checkStoreId('approval id', approvalId);
      const found = [...confirmations.values()].find((item) => item.approvalId === approvalId);
      return found && copy(found);
    },
    async decide(runId, callKey, decision: Decision, reason, at) {
      checkStoreId('run id', runId);
      const item = confirmations.get(key(runId, callKey));
      if (!item) return 'not_found';
      if (item.decision !== undefined) return 'already_decided';
      item.decision = decision;
      item.decidedAt = at;
      if (reason !== undefined) item.reason = reason;
      return 'decided';
    },
    async claimRun(runId, options): Promise<ClaimResult> {
      checkStoreId('run id', runId);
      const run = runs.get(runId);
      if (!run) return { claimed: false, status: undefined };
      const held = run.lease;
      if (held && held.owner !== options.lease.owner && held.expiresAt > options.now) return { claimed: false, status: run.status, lease: copy(held) };
      if (run.status === 'awaiting_confirmation' || (options.takeOver && run.status === 'running')) {
        run.status = 'running';
        run.updatedAt = Date.now();
        run.lease = copy(options.lease);
        return { claimed: true };
      }
      return { claimed: false, status: run.status };
    },
    async renewLease(runId, owner, expiresAt) {
      checkStoreId('run id', runId);
      const lease = runs.get(runId)?.lease;
      if (lease?.owner !== owner) return false;
      lease.expiresAt = expiresAt;
      return true;
    },
    async releaseLease(runId, owner) {
      checkStoreId('run id', runId);
      const run = runs.get(runId);
      if (run?.lease?.owner === owner) delete run.lease;
    },
    async beginCall(runId, callKey, claim, fence) {
      checkStoreId('run id', runId);
      checkFence(runId, fence);
      const id = key(runId, callKey);
      const existing = calls.get(id);
      if (existing) return copy(existing);
      calls.set(id, { status: 'executing', ...(claim ? { claim: copy(claim) } : {}) });
      return undefined;
    },
    async finishCall(runId, callKey, outcome: ToolCallOutcome, fence) {
      checkStoreId('run id', runId);
      checkFence(runId, fence);
      const claim = calls.get(key(runId, callKey))?.claim;
      calls.set(key(runId, callKey), { status: 'done', outcome: copy(outcome), ...(claim ? { claim } : {}) });
    },
    async close() {},
  };
}

let processStore: RunStore | undefined;

/**
 * The store a library run uses when it is given neither `store` nor `statePath`: one memory store per process, so a run
 * paused for confirmation resumes in the same process and nothing is written to disk. Its paused runs live until the
 * process ends; a server that keeps runs longer, or across restarts, passes its own store (`openSqliteRunStore`).
 */
export function processRunStore(): RunStore {
  processStore ??= createMemoryRunStore();
  return processStore;
}
