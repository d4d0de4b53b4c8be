/**
 * Confirmation tokens: an HMAC-SHA256, under a secret kept in the run store,
 * over the run id, the call, the tool, the canonical arguments and an expiry.
 * A token proves that *this* call with *these* arguments was put to a person;
 * single use is enforced by the store, not by the token.
 *
 * Format: `twc1.<base64url payload>.<base64url mac>`.
 * @module
 */
import { constantTimeEqual, fromBase64url, toBase64url, utf8Bytes, utf8Text } from '../shared/bytes.js';
import { hmacSha256Digest, sha256Digest } from '../shared/sha256.js';
import { isPlainObject } from '../shared/own.js';
import { safeParseJson } from '../shared/safe-json.js';
import { ConfirmationRefusedError } from './agent-errors.js';
import { canonicalJson } from '../shared/canonical-json.js';

const PREFIX = 'twc1';

/** What a token is bound to. */
export interface ConfirmationBinding {
  runId: string;
  /** The run-unique key of the call (`<step>.<index>`); provider call ids may repeat across turns. */
  callKey: string;
  /** The provider's call id. */
  callId: string;
  toolName: string;
  /** The validated arguments; bound through their canonical JSON. */
  arguments: unknown;
}

/** The decoded claims of a token. */
export interface ConfirmationClaims {
  runId: string;
  callKey: string;
  callId: string;
  toolName: string;
  /** SHA-256 of the canonical arguments, base64url. */
  argumentsHash: string;
  /** Expiry, in milliseconds since the epoch. */
  expiresAt: number;
}

export function hashArguments(args: unknown): string {
  return sha256Digest(canonicalJson(args), 'base64url');
}

export function createConfirmationToken(secret: Uint8Array, binding: ConfirmationBinding, expiresAt: number): string {
  const claims: ConfirmationClaims = {
    runId: binding.runId,
    callKey: binding.callKey,
    callId: binding.callId,
    toolName: binding.toolName,
    argumentsHash: hashArguments(binding.arguments),
    expiresAt,
  };
  const payload = toBase64url(utf8Bytes(canonicalJson(claims)));
  return `${PREFIX}.${payload}.${mac(secret, payload)}`;
}

/** Reads a token's claims after checking its signature; throws {@link ConfirmationRefusedError} (`malformed` or `forged`). Expiry is not checked here. */
export function readConfirmationToken(secret: Uint8Array, token: string): ConfirmationClaims {
  const parts = typeof token === 'string' ? token.split('.') : [];
  if (parts.length !== 3 || parts[0] !== PREFIX || !parts[1] || !parts[2]) {
    throw new ConfirmationRefusedError(
      'malformed',
      'This is not a toolwright confirmation token (expected "twc1.<payload>.<signature>"). Use the token printed with the pending call.',
    );
  }
  if (!constantTimeEqual(mac(secret, parts[1]), parts[2])) {
    throw new ConfirmationRefusedError(
      'forged',
      'The confirmation token has an invalid signature: it was altered, or issued by another run store. Ask for a fresh decision on the pending call.',
    );
  }
  const payload = fromBase64url(parts[1]);
  const parsed = payload === undefined ? undefined : safeParseJson(utf8Text(payload));
  const claims = parsed?.success ? parsed.value : undefined;
  if (
    !isPlainObject(claims) ||
    typeof claims.runId !== 'string' ||
    typeof claims.callKey !== 'string' ||
    typeof claims.callId !== 'string' ||
    typeof claims.toolName !== 'string' ||
    typeof claims.argumentsHash !== 'string' ||
    typeof claims.expiresAt !== 'number'
  ) {
    throw new ConfirmationRefusedError('malformed', 'The confirmation token carries no valid claims. Use the token printed with the pending call.');
  }
  return claims as unknown as ConfirmationClaims;
}

/**
 * Checks a token against the call it is meant to confirm. Throws
 * {@link ConfirmationRefusedError}: `forged`/`malformed` for a bad token,
 * `mismatch` when it belongs to another run, call, tool or other arguments,
 * `expired` when `checkExpiry` and its time has passed.
 */
export function verifyConfirmationToken(
  secret: Uint8Array,
  token: string,
  binding: ConfirmationBinding,
  options: { now?: number; checkExpiry?: boolean } = {},
): ConfirmationClaims {
  const claims = readConfirmationToken(secret, token);
  const mismatches: string[] = [];
  if (claims.runId !== binding.runId) mismatches.push(`run "${claims.runId}", not "${binding.runId}"`);
  if (claims.callKey !== binding.callKey || claims.callId !== binding.callId) mismatches.push(`call "${claims.callId}", not "${binding.callId}"`);
  if (claims.toolName !== binding.toolName) mismatches.push(`tool "${claims.toolName}", not "${binding.toolName}"`);
  if (claims.argumentsHash !== hashArguments(binding.arguments)) mismatches.push('other arguments than the pending call has');
  if (mismatches.length > 0) {
    throw new ConfirmationRefusedError(
      'mismatch',
      `This confirmation token was issued for ${mismatches.join(', ')}. A token confirms exactly one call with exactly its arguments; use the token printed with this call.`,
    );
  }
  if ((options.checkExpiry ?? true) && (options.now ?? Date.now()) >= claims.expiresAt) {
    throw new ConfirmationRefusedError(
      'expired',
      `This confirmation token expired at ${new Date(claims.expiresAt).toISOString()}. Expired calls are declined when the run resumes; run the task again to be asked anew.`,
    );
  }
  return claims;
}

function mac(secret: Uint8Array, payload: string): string {
  return hmacSha256Digest(secret, `${PREFIX}.${payload}`);
}
