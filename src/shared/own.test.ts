import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { isPlainObject } from './own.js';

describe('isPlainObject', () => {
  it('accepts object literals and null-prototype objects, refuses arrays, class instances and built-ins', () => {
    expect(isPlainObject({ a: 1 })).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject([])).toBe(false);
    expect(isPlainObject(new (class Point {})())).toBe(false);
    expect(isPlainObject(new Map())).toBe(false);
    expect(isPlainObject(new Date())).toBe(false);
    expect(isPlainObject(Object.create({ inherited: true }))).toBe(false);
  });

  it("accepts a plain object made in another realm (a VM context, as Vercel's edge runtime runs code) and still refuses its class instances", () => {
    const foreign = runInNewContext(
      '({ literal: { city: "Paris" }, parsed: JSON.parse(\'{"city":"Paris"}\'), map: new Map(), instance: new (class A {})(), list: [] })',
    );
    expect(isPlainObject(foreign.literal)).toBe(true);
    expect(isPlainObject(foreign.parsed)).toBe(true);
    expect(isPlainObject(foreign.map)).toBe(false);
    expect(isPlainObject(foreign.instance)).toBe(false);
    expect(isPlainObject(foreign.list)).toBe(false);
  });
});
