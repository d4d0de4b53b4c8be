import { describe, expect, it } from 'vitest';
import { firstWrittenUnit } from './quote-tokens.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** What a fatal decoder makes of the token's first character: its first UTF-16 unit, or null where it refuses it. */
function decoded(token: Uint8Array, length: number): number | null {
  try {
    return UTF8.decode(token.subarray(0, length)).charCodeAt(0);
  } catch {
    return null;
  }
}

describe('firstWrittenUnit', () => {
  it('reads the first character of a token as a fatal UTF-8 decoder does, on every lead byte and a spread of continuations', () => {
    const continuations = [0x00, 0x3f, 0x7f, 0x80, 0x81, 0x8f, 0x90, 0x9f, 0xa0, 0xa5, 0xbf, 0xc0, 0xff];
    const differences: string[] = [];
    for (let lead = 0x80; lead <= 0xff; lead++) {
      const length = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
      for (let second = 0; second < 256; second++)
        for (const third of length > 2 ? continuations : [0x80])
          for (const fourth of length > 3 ? continuations : [0x80]) {
            const token = new Uint8Array([lead, second, third, fourth, 0x61]);
            const expected = length === 1 ? null : decoded(token, length);
            const actual = firstWrittenUnit(token);
            if (actual !== expected) differences.push(`${[...token.subarray(0, length)].map((byte) => byte.toString(16))}: ${actual} != ${expected}`);
          }
    }
    expect(differences.slice(0, 10)).toEqual([]);
  });

  it('leaves a character cut by the token end to be walked, and reads escapes and ASCII alone', () => {
    expect(firstWrittenUnit(new Uint8Array([0xe2, 0x82]))).toBeUndefined();
    expect(firstWrittenUnit(new Uint8Array([0xf0, 0x9f, 0x98]))).toBeUndefined();
    expect(firstWrittenUnit(new TextEncoder().encode('\u{1F600}x'))).toBe(0xd83d);
    expect(firstWrittenUnit(new TextEncoder().encode('\\n'))).toBe(0x0a);
    expect(firstWrittenUnit(new TextEncoder().encode('\\u0041'))).toBe(0x41);
    expect(firstWrittenUnit(new TextEncoder().encode('\\x'))).toBeNull();
    expect(firstWrittenUnit(new TextEncoder().encode('ab'))).toBe(0x61);
  });
});
