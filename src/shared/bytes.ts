/**
 * Bytes, their text forms and random ids through web-standard APIs (`crypto.getRandomValues`, `btoa`/`atob`,
 * `TextEncoder`), which Node, Bun, Deno, workerd, Vercel's edge runtime and browsers all have, where the core
 * used `Buffer` and `node:crypto` before.
 * @module
 */

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder();

export function utf8Bytes(text: string): Uint8Array {
  return utf8Encoder.encode(text);
}

export function utf8Text(bytes: Uint8Array): string {
  return utf8Decoder.decode(bytes);
}

/** `count` bytes from the runtime's cryptographic random source. */
export function randomBytes(count: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(count));
}

/** `count` random bytes as lowercase hex: what the ids (`run_…`, `apr_…`, `lease_…`) end with. */
export function randomHex(count: number): string {
  return toHex(randomBytes(count));
}

export function toHex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}

/** Base64url without padding, as `Buffer#toString('base64url')` writes it. */
export function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of base64url (or base64) text; `undefined` when it is not base64. */
export function fromBase64url(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Whether two strings are equal, in a time that depends on their length only (for comparing signatures). */
export function constantTimeEqual(left: string, right: string): boolean {
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let index = 0; index < left.length; index++) difference |= left.charCodeAt(index) ^ right.charCodeAt(index);
  return difference === 0;
}
