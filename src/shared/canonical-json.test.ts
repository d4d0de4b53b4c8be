import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

/** The old recursive definition, kept as the reference for shallow values. */
function reference(value: unknown): string {
  const sort = (item: unknown): unknown => {
    if (Array.isArray(item)) return item.map(sort);
    if (typeof item !== 'object' || item === null) return item;
    if (typeof (item as { toJSON?: unknown }).toJSON === 'function') return sort((item as { toJSON: () => unknown }).toJSON());
    const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(item).sort()) sorted[key] = sort((item as Record<string, unknown>)[key]);
    return sorted;
  };
  return JSON.stringify(sort(value)) ?? 'null';
}

describe('canonicalJson', () => {
  it('writes what JSON.stringify writes for the same value with sorted keys', () => {
    const samples: unknown[] = [
      { b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } },
      { text: 'quote " backslash \\ newline \n emoji 😀', n: -0.5, e: 1e21, t: true, f: false },
      { skip: undefined, fn: () => 1, list: [undefined, () => 1, Symbol('s'), Number.NaN, Number.POSITIVE_INFINITY] },
      { when: new Date(0), nested: { toJSON: () => ({ y: 1, x: 2 }) } },
      [],
      {},
      [[[]], {}],
      'plain',
      42,
      null,
    ];
    for (const sample of samples) expect(canonicalJson(sample)).toBe(reference(sample));
    expect(canonicalJson(JSON.parse('{"__proto__": {"x": 1}, "a": 2}'))).toBe('{"__proto__":{"x":1},"a":2}');
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('never throws RangeError, however deep the value nests', () => {
    let deep: unknown = { leaf: true };
    for (let level = 0; level < 200_000; level++) deep = level % 2 === 0 ? [deep] : { next: deep };
    const text = canonicalJson(deep);
    expect(text.startsWith('{"next":[{"next":[')).toBe(true);
    expect(text.length).toBe(200_000 + 100_000 * '{"next":}'.length + '{"leaf":true}'.length);
  });

  it('throws TypeError, as JSON.stringify does, for a cycle or a BigInt', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(TypeError);
    expect(() => canonicalJson({ n: 1n })).toThrow(TypeError);
    // The same object twice, side by side, is not a cycle.
    const shared = { a: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"a":1},{"a":1}]');
  });
});
