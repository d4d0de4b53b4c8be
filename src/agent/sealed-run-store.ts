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
 * key's source lives in it.
 * @module
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { safeParseJson } from '../shared/safe-json.js';
import { restoreRedacted, type RedactedOriginal, type Redactor } from '../shared/redaction/index.js';
import { RunStoreError } from './agent-errors.js';
import type { ToolCallOutcome } from './agent-result.js';
import type { RunState } from './run-state.js';
import type { RunStore, StoredCall, StoredRun } from './run-store.js';

/** The field of a stored state or outcome that holds its sealed originals. */
export const SEALED_FIELD = 'toolwrightSealed';
const FORMAT = 'tws1';
const KEY_INFO = 'toolwright sealed run values v1';
const WRAPPED = Symbol('toolwright.sealedRunStore');

/**
 * Wraps a store so that `saveRun` and `finishCall` store redacted data with
 * sealed originals, and `loadRun` and `beginCall` give the originals back.
 * Every other method is the store's own. Wrapping twice is a no-op.
 */
export function sealRunStore(store: RunStore, redact: Redactor): RunStore {
  if ((store as unknown as Record<symbol, unknown>)[WRAPPED]) return store;
  let key: Promise<Buffer> | undefined;
  const sealingKey = (): Promise<Buffer> =>
    (key ??= store.getSecret().then((secret) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), KEY_INFO, 32))));

  const seal = async <T extends object>(value: T, binding: string): Promise<T> => {
    const { value: redacted, originals } = redact.withOriginals(value);
    if (originals.length === 0) return value;
    const sealed = encrypt(await sealingKey(), JSON.stringify(originals), binding);
    return { ...(redacted as T), [SEALED_FIELD]: sealed };
  };
  const unseal = async <T extends object>(value: T, binding: string, what: string): Promise<T> => {
    const sealed = (value as Record<string, unknown>)[SEALED_FIELD];
    if (sealed === undefined) return value;
    const { [SEALED_FIELD]: _sealed, ...rest } = value as Record<string, unknown>;
    const text = typeof sealed === 'string' ? decrypt(await sealingKey(), sealed, binding) : undefined;
    const parsed = text === undefined ? undefined : safeParseJson(text);
    if (!parsed?.success || !Array.isArray(parsed.value)) {
      throw new RunStoreError(
        `The secret values of ${what} could not be unsealed: the store's secret changed, or the stored data was altered or copied from another store. The run cannot continue with its secrets; start it again.`,
      );
    }
    return restoreRedacted(rest, parsed.value as RedactedOriginal[]) as T;
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

function encrypt(key: Buffer, plaintext: string, binding: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(binding, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [FORMAT, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

function decrypt(key: Buffer, sealed: string, binding: string): string | undefined {
  const [format, iv, tag, body, extra] = sealed.split('.');
  if (format !== FORMAT || iv === undefined || tag === undefined || body === undefined || extra !== undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(binding, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
