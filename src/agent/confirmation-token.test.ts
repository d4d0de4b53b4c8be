import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfirmationRefusedError } from './agent-errors.js';
import { canonicalJson } from '../shared/canonical-json.js';
import { createConfirmationToken, readConfirmationToken, verifyConfirmationToken } from './confirmation-token.js';

const secret = randomBytes(32);
const binding = { runId: 'run_1', callKey: '2.0', callId: 'call_a', toolName: 'refund', arguments: { amount: 50, invoice: 'INV-1' } };

function refusal(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    if (error instanceof ConfirmationRefusedError) return error.reason;
    throw error;
  }
  return undefined;
}

describe('confirmation tokens', () => {
  it('verify for the same call with the arguments in any key order', () => {
    const token = createConfirmationToken(secret, binding, 2_000);
    const claims = verifyConfirmationToken(secret, token, { ...binding, arguments: { invoice: 'INV-1', amount: 50 } }, { now: 1_000 });
    expect(claims).toMatchObject({ runId: 'run_1', callKey: '2.0', callId: 'call_a', toolName: 'refund', expiresAt: 2_000 });
    expect(readConfirmationToken(secret, token)).toEqual(claims);
  });

  it('refuse other arguments, another call, tool or run, expiry, another secret and tampering', () => {
    const token = createConfirmationToken(secret, binding, 2_000);
    expect(refusal(() => verifyConfirmationToken(secret, token, { ...binding, arguments: { amount: 51, invoice: 'INV-1' } }, { now: 1_000 }))).toBe('mismatch');
    expect(refusal(() => verifyConfirmationToken(secret, token, { ...binding, callKey: '3.0' }, { now: 1_000 }))).toBe('mismatch');
    expect(refusal(() => verifyConfirmationToken(secret, token, { ...binding, toolName: 'delete_account' }, { now: 1_000 }))).toBe('mismatch');
    expect(refusal(() => verifyConfirmationToken(secret, token, { ...binding, runId: 'run_2' }, { now: 1_000 }))).toBe('mismatch');
    expect(refusal(() => verifyConfirmationToken(secret, token, binding, { now: 2_000 }))).toBe('expired');
    expect(refusal(() => verifyConfirmationToken(secret, token, binding, { now: 2_000, checkExpiry: false }))).toBeUndefined();
    expect(refusal(() => verifyConfirmationToken(randomBytes(32), token, binding, { now: 1_000 }))).toBe('forged');
    const [prefix, payload, mac] = token.split('.');
    const otherPayload = Buffer.from(canonicalJson({ ...readConfirmationToken(secret, token), expiresAt: 9_999_999 })).toString('base64url');
    expect(refusal(() => verifyConfirmationToken(secret, `${prefix}.${otherPayload}.${mac}`, binding, { now: 1_000 }))).toBe('forged');
    expect(refusal(() => readConfirmationToken(secret, `${prefix}.${payload}`))).toBe('malformed');
    expect(refusal(() => readConfirmationToken(secret, 'twc2.a.b'))).toBe('malformed');
  });

  it('explains a mismatch precisely', () => {
    const token = createConfirmationToken(secret, binding, 2_000);
    expect(() => verifyConfirmationToken(secret, token, { ...binding, toolName: 'wipe', arguments: {} }, { now: 1_000 })).toThrow(
      'This confirmation token was issued for tool "refund", not "wipe", other arguments than the pending call has. A token confirms exactly one call with exactly its arguments; use the token printed with this call.',
    );
  });
});

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson(JSON.parse('{"__proto__": {"x": 1}, "a": 2}'))).toBe('{"__proto__":{"x":1},"a":2}');
    expect(canonicalJson(undefined)).toBe('null');
  });
});
