import { describe, expect, it } from 'vitest';
import { safeParseJson } from './safe-json.js';

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
    expect(proto).toEqual({ success: false, error: { message: 'the key "__proto__" at /a/0 is not allowed (it could alter object prototypes); rename or remove it' } });
    const ctor = safeParseJson('{"constructor": {"prototype": {"x": 1}}}');
    expect(ctor.success).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
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
