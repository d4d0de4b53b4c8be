import { describe, expect, it } from 'vitest';
import { inspectJsonValue, jsonTextDepth, safeParseJson } from './safe-json.js';

describe('safeParseJson', () => {
  it('parses valid JSON', () => {
    expect(safeParseJson('{"a":[1,true,null]}')).toEqual({ success: true, value: { a: [1, true, null] } });
  });

  it('reports where a trailing comma breaks the text', () => {
    const result = safeParseJson('{"a": 1,}');
    expect(result).toEqual({
      success: false,
      error: { message: 'expected double-quoted property name', position: 8, line: 1, column: 9, excerpt: '{"a": 1,⟪here⟫}' },
    });
  });

  it('reports line and column on multi-line text', () => {
    const result = safeParseJson('{\n  "a": 1\n  "b": 2\n}');
    expect(result.success).toBe(false);
    if (!result.success) expect([result.error.line, result.error.column]).toEqual([3, 3]);
  });

  it('says when the text is empty or cut short', () => {
    expect(safeParseJson('  ')).toEqual({ success: false, error: { message: 'the text is empty; expected a JSON value such as {}' } });
    const cut = safeParseJson('{"verb": "ea');
    expect(cut.success).toBe(false);
    if (!cut.success) expect(cut.error.position).toBe(12);
  });

  it('refuses keys that would alter prototypes, at any depth', () => {
    const proto = safeParseJson('{"a": [{"__proto__": {"polluted": true}}]}');
    expect(proto).toEqual({
      success: false,
      error: {
        message: 'the key "__proto__" at /a/0 is not allowed (it could alter object prototypes); rename or remove it',
        forbiddenKey: { key: '__proto__', path: '/a/0' },
      },
    });
    const ctor = safeParseJson('{"constructor": {"prototype": {"x": 1}}}');
    expect(ctor.success).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses prototype keys spelled with \\u escapes, which the substring fast path must not wave through', () => {
    expect(safeParseJson('{"\\u005f_proto__": {"polluted": true}}')).toMatchObject({ success: false, error: { forbiddenKey: { key: '__proto__', path: '' } } });
    expect(safeParseJson('{"a": {"__pr\\u006fto__": 1}}')).toMatchObject({ success: false, error: { forbiddenKey: { key: '__proto__', path: '/a' } } });
    expect(safeParseJson('[{"\\u0063onstructor": {"prototype": {}}}]')).toMatchObject({
      success: false,
      error: { forbiddenKey: { key: 'constructor.prototype', path: '/0' } },
    });
    // An escape elsewhere does not make a harmless text fail.
    expect(safeParseJson('{"name": "caf\\u00e9"}')).toEqual({ success: true, value: { name: 'café' } });
  });

  it('allows a harmless key named constructor', () => {
    expect(safeParseJson('{"constructor": "Ada"}')).toEqual({ success: true, value: { constructor: 'Ada' } });
  });

  it('never throws, even for nesting deeper than the call stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const result = safeParseJson(deep);
    expect(typeof result.success).toBe('boolean');
    const deepObject = '{"a":'.repeat(20_000) + '{"__proto__": 1}' + '}'.repeat(20_000);
    expect(safeParseJson(deepObject).success).toBe(false);
  });
});

describe('limits', () => {
  const limits = { maxDepth: 3, maxChars: 100 };

  it('measures text depth outside strings, whether or not the text is valid JSON', () => {
    expect(jsonTextDepth('{"a": [1, {"b": "[[[{{{"}]}')).toBe(3);
    expect(jsonTextDepth('"\\"[[["')).toBe(0);
    expect(jsonTextDepth('[[[[')).toBe(4);
  });

  it('refuses text over either bound before parsing it', () => {
    expect(safeParseJson('[[[[1]]]]', limits)).toEqual({
      success: false,
      error: { message: 'the JSON nests 4 levels deep; the limit is 3', limit: { limit: 'maxDepth', max: 3, found: 4, atLeast: false } },
    });
    const long = `{"a": "${'x'.repeat(200)}"}`;
    expect(safeParseJson(long, limits)).toMatchObject({
      success: false,
      error: { limit: { limit: 'maxChars', max: 100, found: long.length, atLeast: false } },
    });
    expect(safeParseJson('[[[1]]]', limits)).toEqual({ success: true, value: [[[1]]] });
  });

  it('measures a parsed value iteratively, whatever its depth', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(inspectJsonValue(deep)).toEqual({});
    expect(inspectJsonValue(deep, { maxDepth: 64, maxChars: 1_000_000 })).toEqual({ exceeded: { limit: 'maxDepth', max: 64, found: 200_000, atLeast: false } });
    expect(inspectJsonValue({ a: [1, { b: 'xy' }] }, limits)).toEqual({});
    expect(inspectJsonValue({ a: [1, [{ b: 'xy' }]] }, limits).exceeded).toEqual({ limit: 'maxDepth', max: 3, found: 4, atLeast: false });
  });

  it('stops once the size bound is passed, so a huge or cyclic value costs no more than the bound', () => {
    const wide: Record<string, number> = {};
    for (let index = 0; index < 100_000; index++) wide[`key_${index}`] = index;
    expect(inspectJsonValue(wide, limits).exceeded).toMatchObject({ limit: 'maxChars', max: 100, atLeast: true });
    const cyclic: Record<string, unknown> = { name: 'a' };
    cyclic.self = cyclic;
    expect(inspectJsonValue(cyclic, { maxDepth: 1_000_000, maxChars: 1000 }).exceeded).toMatchObject({ limit: 'maxChars', atLeast: true });
    // With a small depth bound, the cycle shows as depth first.
    expect(inspectJsonValue(cyclic, limits).exceeded).toMatchObject({ limit: 'maxDepth', atLeast: true });
    // The size of compact JSON, strings counted without escapes.
    expect(inspectJsonValue({ ab: 'xyz', n: [1, 22] }, { maxDepth: 10, maxChars: JSON.stringify({ ab: 'xyz', n: [1, 22] }).length + 2 })).toEqual({});
  });

  it('finds prototype keys in values that never were text', () => {
    expect(inspectJsonValue(JSON.parse('{"a": [{"__proto__": {"x": 1}}]}'))).toEqual({ forbiddenKey: { key: '__proto__', path: '/a/0' } });
    const bare = Object.create(null) as Record<string, unknown>;
    bare['__proto__'] = { x: 1 };
    expect(inspectJsonValue({ 'a/b': bare })).toEqual({ forbiddenKey: { key: '__proto__', path: '/a~1b' } });
    expect(inspectJsonValue({ constructor: { prototype: {} } })).toEqual({ forbiddenKey: { key: 'constructor.prototype', path: '' } });
    expect(inspectJsonValue({ constructor: 'Ada' })).toEqual({});
  });
});
