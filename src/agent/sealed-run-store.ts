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
import { fromBase64url, randomBytes, toBase64url, utf8Bytes, utf8Text } from '../shared/bytes.js';
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
  let key: Promise<CryptoKey> | undefined;
  const sealingKey = (): Promise<CryptoKey> => (key ??= store.getSecret().then(deriveSealingKey));

  const seal = async <T extends object>(value: T, binding: string): Promise<T> => {
    const { value: redacted, originals } = redact.withOriginals(value);
    if (originals.length === 0) return value;
    const sealed = await encrypt(await sealingKey(), JSON.stringify(originals), binding);
    return { ...(redacted as T), [SEALED_FIELD]: sealed };
  };
  const unseal = async <T extends object>(value: T, binding: string, what: string): Promise<T> => {
    const sealed = (value as Record<string, unknown>)[SEALED_FIELD];
    if (sealed === undefined) return value;
    const { [SEALED_FIELD]: _sealed, ...rest } = value as Record<string, unknown>;
    const text = typeof sealed === 'string' ? await decrypt(await sealingKey(), sealed, binding) : undefined;
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

const TAG_BYTES = 16;
// Web Crypto's key type, named through the global (the compiler's libraries here have no DOM).
type CryptoKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.deriveKey>>;

async function deriveSealingKey(secret: Uint8Array): Promise<CryptoKey> {
  const subtle = globalThis.crypto.subtle;
  const material = await subtle.importKey('raw', secret, 'HKDF', false, ['deriveKey']);
  const hkdf = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8Bytes(KEY_INFO) };
  return subtle.deriveKey(hkdf, material, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/** `tws1.<iv>.<tag>.<body>`: the tag apart from the body, as the format was first written with `node:crypto`. */
async function encrypt(key: CryptoKey, plaintext: string, binding: string): Promise<string> {
  const iv = randomBytes(12);
  const sealed = new Uint8Array(await globalThis.crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: utf8Bytes(binding) }, key, utf8Bytes(plaintext)));
  const body = sealed.subarray(0, sealed.length - TAG_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  return [FORMAT, toBase64url(iv), toBase64url(tag), toBase64url(body)].join('.');
}

async function decrypt(key: CryptoKey, sealed: string, binding: string): Promise<string | undefined> {
  const [format, ivText, tagText, bodyText, extra] = sealed.split('.');
  if (format !== FORMAT || ivText === undefined || tagText === undefined || bodyText === undefined || extra !== undefined) return undefined;
  const iv = fromBase64url(ivText);
  const tag = fromBase64url(tagText);
  const body = fromBase64url(bodyText);
  if (iv === undefined || tag === undefined || body === undefined || tag.length !== TAG_BYTES) return undefined;
  const sealedBytes = new Uint8Array(body.length + TAG_BYTES);
  sealedBytes.set(body);
  sealedBytes.set(tag, body.length);
  try {
    return utf8Text(new Uint8Array(await globalThis.crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: utf8Bytes(binding) }, key, sealedBytes)));
  } catch {
    return undefined;
  }
}
