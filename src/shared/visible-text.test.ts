import { describe, expect, it } from 'vitest';
import { escapeInvisibleInJson, showInvisible } from './visible-text.js';

const INVISIBLE = [
  0x061c, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2060, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0x206f,
  0xfeff,
];

describe('showInvisible', () => {
  it('writes every bidirectional control and zero-width character as ⟨U+XXXX⟩', () => {
    for (const code of INVISIBLE) {
      const hex = code.toString(16).toUpperCase().padStart(4, '0');
      expect(showInvisible(`a${String.fromCharCode(code)}b`)).toBe(`a⟨U+${hex}⟩b`);
    }
  });

  it('shows a right-to-left override that would make an address read as another', () => {
    expect(showInvisible('mallory@\u202Emoc.elpmaxe')).toBe('mallory@⟨U+202E⟩moc.elpmaxe');
  });

  it('leaves other text as it is, right-to-left scripts and emoji included', () => {
    const text = 'Hello, שלום, مرحبا, 😀, e\u0301, tab\tnewline\n';
    expect(showInvisible(text)).toBe(text);
  });

  it('is idempotent: shown text shows the same', () => {
    const once = showInvisible('x\u200By');
    expect(showInvisible(once)).toBe(once);
  });
});

describe('escapeInvisibleInJson', () => {
  it('writes them as \\u escapes, so the JSON parses to the same value', () => {
    const value = { to: 'mallory@\u202Emoc.elpmaxe', note: 'zero\u200Bwidth' };
    const json = escapeInvisibleInJson(JSON.stringify(value));
    expect(json).toBe('{"to":"mallory@\\u202emoc.elpmaxe","note":"zero\\u200bwidth"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});
