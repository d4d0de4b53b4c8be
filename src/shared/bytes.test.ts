import { describe, expect, it } from 'vitest';
import { constantTimeEqual, fromBase64url, randomHex, toBase64url, toHex } from './bytes.js';

describe('bytes', () => {
  it('writes base64url and hex as Buffer does, and reads base64url back', () => {
    for (let length = 0; length < 70; length++) {
      const bytes = new Uint8Array(length).map((_, index) => (index * 97 + length * 13) & 0xff);
      expect(toBase64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      expect(toHex(bytes)).toBe(Buffer.from(bytes).toString('hex'));
      expect(fromBase64url(toBase64url(bytes))).toEqual(bytes);
    }
  });

  it('reads no bytes from text that is not base64', () => {
    expect(fromBase64url('a')).toBeUndefined();
    expect(fromBase64url('ab$d')).toBeUndefined();
  });

  it('makes random ids of the asked length that differ', () => {
    expect(randomHex(5)).toMatch(/^[0-9a-f]{10}$/);
    expect(new Set(Array.from({ length: 50 }, () => randomHex(8))).size).toBe(50);
  });

  it('compares strings for equality', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'ab')).toBe(false);
  });
});
