/**
 * SHA-256 and HMAC-SHA256 for every runtime, synchronous: the hashes the core takes sit on synchronous paths (the loop
 * breaker's call signature, a confirmation token's argument hash, a stored call's digest), where Web Crypto's
 * `subtle.digest` is async. `sha256Digest` and `hmacSha256Digest` use `node:crypto` where the runtime has it (Node, Bun,
 * Deno, workerd with `nodejs_compat`), reached without a static import, and this module's plain JavaScript (FIPS 180-4,
 * RFC 2104) elsewhere (workerd without it, Vercel's edge runtime, a browser): the same digests either way, checked in
 * src/shared/sha256.test.ts. Native first because the plain version costs about 3 times as much per hash, which showed in
 * the agent loop's CPU per step (docs/architecture.md, "Runtimes").
 * @module
 */
import { toBase64url, toHex } from './bytes.js';
import { nodeBuiltin } from './node-builtin.js';

const nativeCrypto = nodeBuiltin('node:crypto');

/** SHA-256 of `text` (its UTF-8 bytes) as base64url or hex. */
export function sha256Digest(text: string, encoding: 'base64url' | 'hex'): string {
  // The one-shot `hash` (Node 20.12 and later) costs about half of a `createHash` object.
  if (nativeCrypto) return nativeCrypto.hash ? nativeCrypto.hash('sha256', text, encoding) : nativeCrypto.createHash('sha256').update(text).digest(encoding);
  const digest = sha256(text);
  return encoding === 'hex' ? toHex(digest) : toBase64url(digest);
}

/** HMAC-SHA256 of `text` (its UTF-8 bytes) under `key`, as base64url. */
export function hmacSha256Digest(key: Uint8Array, text: string): string {
  if (nativeCrypto) return nativeCrypto.createHmac('sha256', key).update(text).digest('base64url');
  return toBase64url(hmacSha256(key, text));
}

const ROUND_CONSTANTS = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const INITIAL_STATE = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const BLOCK_BYTES = 64;
const utf8 = new TextEncoder();
// One message schedule for every call: hashing never yields, so no two calls share it at once.
const schedule = new Int32Array(64);

/** The SHA-256 digest (32 bytes) of `input`, in plain JavaScript; a string is hashed as its UTF-8 bytes, as `node:crypto` does. */
export function sha256(input: string | Uint8Array): Uint8Array {
  const message = typeof input === 'string' ? utf8.encode(input) : input;
  const paddedLength = Math.ceil((message.length + 9) / BLOCK_BYTES) * BLOCK_BYTES;
  const padded = new Uint8Array(paddedLength);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bitLength = message.length * 8;
  view.setUint32(paddedLength - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(paddedLength - 4, bitLength >>> 0);
  const state = Int32Array.from(INITIAL_STATE);
  for (let offset = 0; offset < paddedLength; offset += BLOCK_BYTES) compress(state, view, offset);
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  for (let index = 0; index < 8; index++) out.setInt32(index * 4, state[index]!);
  return digest;
}

/** HMAC-SHA256 of `message` under `key` (RFC 2104), in plain JavaScript; a string is taken as its UTF-8 bytes. */
export function hmacSha256(key: string | Uint8Array, message: string | Uint8Array): Uint8Array {
  let keyBytes = typeof key === 'string' ? utf8.encode(key) : key;
  if (keyBytes.length > BLOCK_BYTES) keyBytes = sha256(keyBytes);
  const messageBytes = typeof message === 'string' ? utf8.encode(message) : message;
  const inner = new Uint8Array(BLOCK_BYTES + messageBytes.length);
  const outer = new Uint8Array(BLOCK_BYTES + 32);
  for (let index = 0; index < BLOCK_BYTES; index++) {
    const byte = keyBytes[index] ?? 0;
    inner[index] = byte ^ 0x36;
    outer[index] = byte ^ 0x5c;
  }
  inner.set(messageBytes, BLOCK_BYTES);
  outer.set(sha256(inner), BLOCK_BYTES);
  return sha256(outer);
}

function compress(state: Int32Array, view: DataView, offset: number): void {
  for (let index = 0; index < 16; index++) schedule[index] = view.getInt32(offset + index * 4);
  for (let index = 16; index < 64; index++) {
    const before15 = schedule[index - 15]!;
    const before2 = schedule[index - 2]!;
    const sigma0 = rotate(before15, 7) ^ rotate(before15, 18) ^ (before15 >>> 3);
    const sigma1 = rotate(before2, 17) ^ rotate(before2, 19) ^ (before2 >>> 10);
    schedule[index] = (schedule[index - 16]! + sigma0 + schedule[index - 7]! + sigma1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let index = 0; index < 64; index++) {
    const sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25);
    const choice = (e & f) ^ (~e & g);
    const temporary1 = (h + sum1 + choice + ROUND_CONSTANTS[index]! + schedule[index]!) | 0;
    const sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22);
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const temporary2 = (sum0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + temporary1) | 0;
    d = c;
    c = b;
    b = a;
    a = (temporary1 + temporary2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

function rotate(word: number, bits: number): number {
  return (word >>> bits) | (word << (32 - bits));
}
