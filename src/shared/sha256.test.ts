import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from './seeded-random.js';
import { hmacSha256, hmacSha256Digest, sha256, sha256Digest } from './sha256.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

// Texts across the block boundaries (55/56 bytes need a second padding block, 64 is one block whole), multi-byte and lone surrogates.
function sampleTexts(): string[] {
  const random = mulberry32(28);
  const alphabet = ['a', 'Z', '0', '{', '"', 'é', '€', '𝄞', '\u0000', '\ud800', '\n'];
  const texts = ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(63), 'a'.repeat(64), 'a'.repeat(65), 'a'.repeat(1000)];
  for (let index = 0; index < 300; index++) {
    let text = '';
    const length = Math.floor(random() * 200);
    for (let position = 0; position < length; position++) text += alphabet[Math.floor(random() * alphabet.length)];
    texts.push(text);
  }
  return texts;
}

describe('sha256', () => {
  it('gives node:crypto digest for every sample text, hashed as UTF-8', () => {
    for (const text of sampleTexts()) expect(hex(sha256(text)), JSON.stringify(text)).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('gives the FIPS 180-4 digest of "abc"', () => {
    expect(hex(sha256('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('hmacSha256', () => {
  it('gives node:crypto HMAC for keys shorter than, equal to and longer than a block', () => {
    const texts = sampleTexts().slice(0, 60);
    for (const keyLength of [0, 1, 32, 64, 65, 200]) {
      const key = new Uint8Array(keyLength).map((_, index) => (index * 37 + keyLength) & 0xff);
      for (const text of texts) expect(hex(hmacSha256(key, text))).toBe(createHmac('sha256', key).update(text).digest('hex'));
    }
  });
});

describe('sha256Digest and hmacSha256Digest', () => {
  it('give the digests as base64url and hex', () => {
    const key = new Uint8Array(32).fill(9);
    for (const text of sampleTexts().slice(0, 40)) {
      expect(sha256Digest(text, 'hex')).toBe(createHash('sha256').update(text).digest('hex'));
      expect(sha256Digest(text, 'base64url')).toBe(createHash('sha256').update(text).digest('base64url'));
      expect(hmacSha256Digest(key, text)).toBe(createHmac('sha256', key).update(text).digest('base64url'));
    }
  });
});
