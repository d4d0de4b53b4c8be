/**
 * Keeps secrets out of the run store in clear, without breaking resume. A
 * paused run must continue with the real values (the user's key in the
 * prompt, a password argument the model sent): the run's state and each call
 * outcome are stored redacted, and the values redaction took out are stored
 * beside them encrypted (AES-256-GCM, a key derived with HKDF from the store's
 * token secret, the run and call bound as associated data). Loading puts them
 * back. What this protects against: anything that reads the store's file as
 * text (a grep, a backup scanned for keys, a dump pasted in an issue). It
 * does not protect against someone who can read the whole store, since the
 * key's source lives in it. Web Crypto does the work, so the seal is the same on
 * every runtime (and reads what `node:crypto` sealed before).
 * @module
 */
import type { Redactor } from '../shared/redaction/index.js';
import { RunStoreError } from './agent-errors.js';
import type { ToolCallOutcome } from './agent-result.js';
import type { RunState } from './run-state.js';
import type { RunStore, StoredCall, StoredRun } from './run-store.js';
import { createValueSealer } from './value-sealer.js';

export { SEALED_FIELD } from './value-sealer.js';
const WRAPPED = Symbol('toolwright.sealedRunStore');

/**
 * Wraps a store so that `saveRun` and `finishCall` store redacted data with
 * sealed originals, and `loadRun` and `beginCall` give the originals back.
 * Every other method is the store's own. Wrapping twice is a no-op.
 */
export function sealRunStore(store: RunStore, redact: Redactor): RunStore {
  if ((store as unknown as Record<symbol, unknown>)[WRAPPED]) return store;
  const sealer = createValueSealer(() => store.getSecret(), redact);
  const seal = sealer.seal;
  const unseal = async <T extends object>(value: T, binding: string, what: string): Promise<T> => {
    const restored = await sealer.unseal(value, binding);
    if (restored === undefined) {
      throw new RunStoreError(
        `The secret values of ${what} could not be unsealed: the store's secret changed, or the stored data was altered or copied from another store. The run cannot continue with its secrets; start it again.`,
      );
    }
    return restored;
  };

  const overrides: Partial<RunStore> = {
    async saveRun(run, confirmations, fence) {
      await store.saveRun({ ...run, state: await seal(run.state, run.runId) }, confirmations, fence);
    },
    async loadRun(runId) {
      const run = await store.loadRun(runId);
      if (!run) return run;
      return { ...run, state: await unseal<RunState>(run.state, runId, `run "${runId}"`) } satisfies StoredRun;
    },
    async finishCall(runId, callKey, outcome, fence) {
      await store.finishCall(runId, callKey, await seal<ToolCallOutcome>(outcome, `${runId}/${callKey}`), fence);
    },
    async beginCall(runId, callKey, claim, fence) {
      const existing = await store.beginCall(runId, callKey, claim, fence);
      if (!existing?.outcome) return existing;
      return { ...existing, outcome: await unseal(existing.outcome, `${runId}/${callKey}`, `call ${callKey} of run "${runId}"`) } satisfies StoredCall;
    },
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === WRAPPED) return true;
      if (typeof property === 'string' && Object.prototype.hasOwnProperty.call(overrides, property)) return overrides[property as keyof RunStore];
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
