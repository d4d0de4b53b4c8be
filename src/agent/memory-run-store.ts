/**
 * A {@link RunStore} in memory: for tests and for processes that never need to
 * resume a run after a restart. Values are copied in and out through JSON, as
 * a database would, so a caller cannot change stored state by mutation. The
 * process-wide one ({@link processRunStore}) is what `runAgent` and
 * `resumeAgent` share when the caller names no store.
 * @module
 */
import { randomBytes } from '../shared/bytes.js';
import { leaseLostError } from './agent-errors.js';
import { checkSavedIds, checkStoreId, plainRunStore } from './run-store.js';
import type {
  CallClaim,
  ClaimOptions,
  ClaimResult,
  Decision,
  LeaseFence,
  RunStore,
  StoredCall,
  StoredConfirmation,
  StoredOutcome,
  StoredRun,
} from './run-store.js';

const copy = <T>(value: T): T => structuredClone(value);
const key = (runId: string, callKey: string) => `${runId}\u0000${callKey}`;

export function createMemoryRunStore(): RunStore {
  return plainRunStore(new MemoryStore());
}

class MemoryStore implements RunStore {
  readonly #secret = randomBytes(32);
  readonly #runs = new Map<string, StoredRun>();
  readonly #confirmations = new Map<string, StoredConfirmation>();
  readonly #calls = new Map<string, StoredCall>();

  async getSecret(): Promise<Uint8Array> {
    return this.#secret;
  }

  async saveRun(run: Omit<StoredRun, 'createdAt' | 'updatedAt' | 'lease'>, added: readonly StoredConfirmation[] = [], fence?: LeaseFence): Promise<void> {
    checkSavedIds(run.runId, added);
    this.#checkFence(run.runId, fence);
    const now = Date.now();
    const existing = this.#runs.get(run.runId);
    // The lease is the claim's business: saving the state neither takes nor drops it.
    this.#runs.set(
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
      if (!this.#confirmations.has(id)) this.#confirmations.set(id, copy(confirmation));
    }
  }

  async loadRun(runId: string): Promise<StoredRun | undefined> {
    checkStoreId('run id', runId);
    const run = this.#runs.get(runId);
    return run && copy(run);
  }

  async listRuns({ limit = 100 }: { limit?: number } = {}): Promise<StoredRun[]> {
    return [...this.#runs.values()]
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .slice(0, Math.max(0, limit))
      .map(copy);
  }

  async listConfirmations(filter: { runId?: string; undecided?: boolean } = {}): Promise<StoredConfirmation[]> {
    if (filter.runId !== undefined) checkStoreId('run id', filter.runId);
    return [...this.#confirmations.values()]
      .filter((item) => (filter.runId === undefined || item.runId === filter.runId) && (!filter.undecided || item.decision === undefined))
      .sort((a, b) => a.createdAt - b.createdAt)
      .map(copy);
  }

  async findConfirmation(approvalId: string): Promise<StoredConfirmation | undefined> {
    checkStoreId('approval id', approvalId);
    const found = [...this.#confirmations.values()].find((item) => item.approvalId === approvalId);
    return found && copy(found);
  }

  async decide(runId: string, callKey: string, decision: Decision, reason: string | undefined, at: number) {
    checkStoreId('run id', runId);
    const item = this.#confirmations.get(key(runId, callKey));
    if (!item) return 'not_found';
    if (item.decision !== undefined) return 'already_decided';
    item.decision = decision;
    item.decidedAt = at;
    if (reason !== undefined) item.reason = reason;
    return 'decided';
  }

  async claimRun(runId: string, options: ClaimOptions): Promise<ClaimResult> {
    checkStoreId('run id', runId);
    const run = this.#runs.get(runId);
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
  }

  async renewLease(runId: string, owner: string, expiresAt: number): Promise<boolean> {
    checkStoreId('run id', runId);
    const lease = this.#runs.get(runId)?.lease;
    if (lease?.owner !== owner) return false;
    lease.expiresAt = expiresAt;
    return true;
  }

  async releaseLease(runId: string, owner: string): Promise<void> {
    checkStoreId('run id', runId);
    const run = this.#runs.get(runId);
    if (run?.lease?.owner === owner) delete run.lease;
  }

  async beginCall(runId: string, callKey: string, claim?: CallClaim, fence?: LeaseFence): Promise<StoredCall | undefined> {
    checkStoreId('run id', runId);
    this.#checkFence(runId, fence);
    const id = key(runId, callKey);
    const existing = this.#calls.get(id);
    if (existing) return copy(existing);
    this.#calls.set(id, { status: 'executing', ...(claim ? { claim: copy(claim) } : {}) });
    return undefined;
  }

  async finishCall(runId: string, callKey: string, outcome: StoredOutcome, fence?: LeaseFence): Promise<void> {
    checkStoreId('run id', runId);
    this.#checkFence(runId, fence);
    const claim = this.#calls.get(key(runId, callKey))?.claim;
    this.#calls.set(key(runId, callKey), { status: 'done', outcome: copy(outcome), ...(claim ? { claim } : {}) });
  }

  async close(): Promise<void> {}

  // Checked and written in one synchronous step: no other call runs in between.
  #checkFence(runId: string, fence: LeaseFence | undefined): void {
    if (fence && this.#runs.get(runId)?.lease?.owner !== fence.leaseOwner) throw leaseLostError(runId);
  }
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
