import { describe, expect, it } from 'vitest';
import { CanonicalIds, canonicalJson } from './canonical-json.js';
import { mulberry32 } from './seeded-random.js';

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

/** Random JSON text from small pools, so that equal values under different spellings (1 and 1.0, -0 and 0, key orders) are frequent. */
function randomJsonText(random: () => number, depth = 0): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const roll = random();
  if (depth >= 3 || roll < 0.5)
    return pick(['1', '1.0', '10e-1', '-0', '0', '0.0', '2', '"1"', '"a"', '"A"', '""', 'null', 'true', 'false', '1e21', '"\\u0061"']);
  const count = Math.floor(random() * 3);
  const children = Array.from({ length: count }, () => randomJsonText(random, depth + 1));
  if (roll < 0.75) return `[${children.join(',')}]`;
  const keys = ['a', 'b', 'A', '__proto__x', ''];
  return `{${children.map((child, index) => `${JSON.stringify(keys[(index + Math.floor(random() * 2)) % keys.length])}:${child}`).join(',')}}`;
}

describe('CanonicalIds', () => {
  it('gives two values the same id exactly when their canonical JSON is equal (4,000 seeded random values)', () => {
    const random = mulberry32(25);
    const values = Array.from({ length: 4_000 }, () => JSON.parse(randomJsonText(random)) as unknown);
    const ids = new CanonicalIds();
    const idByText = new Map<string, number>();
    const textById = new Map<number, string>();
    for (const value of values) {
      const id = ids.idOf(value);
      const text = canonicalJson(value);
      expect(idByText.get(text) ?? id).toBe(id);
      expect(textById.get(id) ?? text).toBe(text);
      idByText.set(text, id);
      textById.set(id, text);
    }
    // the pools do collide: many values share a text, and many texts exist
    expect(idByText.size).toBeGreaterThan(300);
    expect(idByText.size).toBeLessThan(values.length / 2);
  });

  it('follows canonicalJson on what JSON cannot hold: toJSON, undefined, functions, NaN, boxed primitives', () => {
    const samples: unknown[] = [
      { when: new Date(0) },
      { when: '1970-01-01T00:00:00.000Z' },
      { skip: undefined, fn: () => 1 },
      {},
      [undefined, () => 1, Number.NaN, Number.POSITIVE_INFINITY],
      [null, null, null, null],
      [new Number(1), new String('x'), new Boolean(true)],
      [1, 'x', true],
      { nested: { toJSON: () => ({ y: 1, x: 2 }) } },
      { nested: { x: 2, y: 1 } },
    ];
    const ids = new CanonicalIds();
    for (const left of samples) {
      for (const right of samples) expect(ids.idOf(left) === ids.idOf(right)).toBe(canonicalJson(left) === canonicalJson(right));
    }
  });

  it('throws TypeError for a cycle or a BigInt, and numbers a shared object like two copies', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = [cyclic];
    expect(() => new CanonicalIds().idOf(cyclic)).toThrow(TypeError);
    expect(() => new CanonicalIds().idOf([{ n: 1n }])).toThrow(TypeError);
    const shared = { a: [1] };
    const ids = new CanonicalIds();
    expect(ids.idOf([shared, shared])).toBe(ids.idOf([{ a: [1] }, { a: [1.0] }]));
  });

  it('never throws RangeError, however deep the value nests', () => {
    let deep: unknown = { leaf: true };
    for (let level = 0; level < 200_000; level++) deep = level % 2 === 0 ? [deep] : { next: deep };
    expect(new CanonicalIds().idOf(deep)).toBeGreaterThan(0);
  });
});
