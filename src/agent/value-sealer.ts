/**
 * Stores a value without its secrets in clear: redaction takes them out, and the originals it took are kept beside the
 * redacted value encrypted (AES-256-GCM, a key derived with HKDF from a store's secret, bound to the record they belong
 * to as associated data). Unsealing puts them back. The run store's seal (`sealed-run-store.ts`) and the MCP task
 * store's results use this one format. Web Crypto does the work, so the seal is the same on every runtime.
 * @module
 */
import { fromBase64url, randomBytes, toBase64url, utf8Bytes, utf8Text } from '../shared/bytes.js';
import { safeParseJson } from '../shared/safe-json.js';
import { restoreRedacted, type RedactedOriginal, type Redactor } from '../shared/redaction/index.js';

/** The field of a stored value that holds its sealed originals. */
export const SEALED_FIELD = 'toolwrightSealed';
const FORMAT = 'tws1';
const KEY_INFO = 'toolwright sealed run values v1';

export interface ValueSealer {
  /** `value` redacted, with the originals redaction took out sealed under {@link SEALED_FIELD}; `value` itself when nothing was taken out. */
  seal<T extends object>(value: T, binding: string): Promise<T>;
  /** The value with its originals back; `undefined` when they cannot be unsealed (another secret, another binding, altered data). */
  unseal<T extends object>(value: T, binding: string): Promise<T | undefined>;
}

/** A sealer whose key derives from `secret()` (read once, on the first seal or unseal). */
export function createValueSealer(secret: () => Promise<Uint8Array>, redact: Redactor): ValueSealer {
  let key: Promise<CryptoKey> | undefined;
  const sealingKey = (): Promise<CryptoKey> => (key ??= secret().then(deriveSealingKey));
  return {
    async seal<T extends object>(value: T, binding: string): Promise<T> {
      const { value: redacted, originals } = redact.withOriginals(value);
      if (originals.length === 0) return value;
      const sealed = await encrypt(await sealingKey(), JSON.stringify(originals), binding);
      return { ...(redacted as T), [SEALED_FIELD]: sealed };
    },
    async unseal<T extends object>(value: T, binding: string): Promise<T | undefined> {
      const sealed = (value as Record<string, unknown>)[SEALED_FIELD];
      if (sealed === undefined) return value;
      const { [SEALED_FIELD]: _sealed, ...rest } = value as Record<string, unknown>;
      const text = typeof sealed === 'string' ? await decrypt(await sealingKey(), sealed, binding) : undefined;
      const parsed = text === undefined ? undefined : safeParseJson(text);
      if (!parsed?.success || !Array.isArray(parsed.value)) return undefined;
      return restoreRedacted(rest, parsed.value as RedactedOriginal[]) as T;
    },
  };
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
