import { describe, expect, it } from 'vitest';
import {
  appendPointer,
  decodePointer,
  decodePointerFragment,
  encodePointer,
  encodePointerFragment,
  escapePointer,
  unescapePointer,
  valueAtPointer,
} from './json-pointer.js';

describe('JSON Pointer (RFC 6901)', () => {
  it('escapes ~ before / and unescapes ~1 before ~0, so ~01 means "~1"', () => {
    expect(escapePointer('a/b~c')).toBe('a~1b~0c');
    expect(escapePointer('~1')).toBe('~01');
    expect(unescapePointer('~01')).toBe('~1');
    expect(unescapePointer('~10')).toBe('/0');
  });

  it('encodes and decodes segments, the empty pointer being the whole document', () => {
    expect(encodePointer([])).toBe('');
    expect(encodePointer(['a/b', 0, 'm~n', ''])).toBe('/a~1b/0/m~0n/');
    expect(decodePointer('')).toEqual([]);
    expect(decodePointer('/')).toEqual(['']);
    expect(decodePointer('/a~1b/0/m~0n/')).toEqual(['a/b', '0', 'm~n', '']);
    expect(appendPointer('#/$defs', 'a/b', 1)).toBe('#/$defs/a~1b/1');
  });

  it('refuses text that is not a pointer', () => {
    expect(decodePointer('a/b')).toBeUndefined();
    expect(decodePointer('/a~2')).toBeUndefined();
    expect(decodePointer('/a~')).toBeUndefined();
  });

  it('percent-decodes a URI fragment before reading it as a pointer (RFC 6901 §6)', () => {
    expect(decodePointerFragment('#/a%20b/c%25d')).toEqual(['a b', 'c%d']);
    // %2F decodes to "/" first, so it separates segments; only ~1 keeps a slash inside a name
    expect(decodePointerFragment('#/a%2Fb')).toEqual(['a', 'b']);
    expect(decodePointerFragment('#/a~1b')).toEqual(['a/b']);
    expect(decodePointerFragment('/%7E0')).toEqual(['~']);
    expect(decodePointerFragment('#')).toEqual([]);
    expect(decodePointerFragment('#/bad%zz')).toBeUndefined();
    expect(decodePointerFragment('#anchor')).toBeUndefined();
  });

  it('encodes a fragment that decodes back to the same segments', () => {
    const segments = ['$defs', 'a b', 'c/d', 'e~f', 'ü%', '0'];
    const fragment = encodePointerFragment(segments);
    expect(fragment).toBe('#/$defs/a%20b/c~1d/e~0f/%C3%BC%25/0');
    expect(decodePointerFragment(fragment)).toEqual(segments);
  });

  it('reads values through objects (own keys only) and arrays (decimal indices only)', () => {
    const document = { a: [{ b: 1 }, 'x'], 'c/d': { '': 2 } };
    expect(valueAtPointer(document, ['a', '0', 'b'])).toBe(1);
    expect(valueAtPointer(document, ['c/d', ''])).toBe(2);
    expect(valueAtPointer(document, ['a', '01'])).toBeUndefined();
    expect(valueAtPointer(document, ['a', '-'])).toBeUndefined();
    expect(valueAtPointer(document, ['a', '2'])).toBeUndefined();
    expect(valueAtPointer(document, ['constructor'])).toBeUndefined();
    expect(valueAtPointer(document, [])).toBe(document);
  });
});
