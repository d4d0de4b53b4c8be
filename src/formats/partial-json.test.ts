import { describe, expect, it } from 'vitest';
import { parsePartialJson } from './partial-json.js';

describe('parsePartialJson', () => {
  it('returns complete values exactly', () => {
    expect(parsePartialJson('{"location":"Paris, France","days":[1,2]}')).toEqual({ value: { location: 'Paris, France', days: [1, 2] }, complete: true });
    expect(parsePartialJson(' 42 ')).toEqual({ value: 42, complete: true });
    expect(parsePartialJson('"a\\u00e9\\n"')).toEqual({ value: 'aé\n', complete: true });
  });

  it('follows every prefix of a streamed object', () => {
    const text = '{"location":"Paris","units":"celsius","days":3,"ok":true,"tags":["a","b"]}';
    const seen = [];
    for (let end = 0; end <= text.length; end++) seen.push(parsePartialJson(text.slice(0, end)));
    expect(seen[0]).toEqual({ value: undefined, complete: false });
    expect(seen[1]).toEqual({ value: {}, complete: false });
    expect(parsePartialJson('{"loc').value).toEqual({});
    expect(parsePartialJson('{"location"').value).toEqual({});
    expect(parsePartialJson('{"location":').value).toEqual({});
    expect(parsePartialJson('{"location":"Pa').value).toEqual({ location: 'Pa' });
    expect(parsePartialJson('{"location":"Paris","units":"celsius","days":3').value).toEqual({ location: 'Paris', units: 'celsius', days: 3 });
    expect(parsePartialJson('{"location":"Paris","units":"celsius","days":3,"ok":tr').value).toEqual({ location: 'Paris', units: 'celsius', days: 3 });
    expect(parsePartialJson('{"location":"Paris","units":"celsius","days":3,"ok":true,"tags":["a","b').value).toEqual({
      location: 'Paris',
      units: 'celsius',
      days: 3,
      ok: true,
      tags: ['a', 'b'],
    });
    expect(seen.at(-1)).toEqual({ value: JSON.parse(text), complete: true });
    // Never throws, and only the last prefix is complete.
    expect(seen.filter((result) => result.complete)).toHaveLength(1);
  });

  it('closes nested arrays and objects', () => {
    expect(parsePartialJson('{"a":[{"b":[1,{"c":"d').value).toEqual({ a: [{ b: [1, { c: 'd' }] }] });
    expect(parsePartialJson('[[[').value).toEqual([[[]]]);
  });

  it('drops a cut literal, a lone minus and a cut escape', () => {
    expect(parsePartialJson('[true,fal').value).toEqual([true]);
    expect(parsePartialJson('[nu').value).toEqual([]);
    expect(parsePartialJson('{"n":-').value).toEqual({});
    expect(parsePartialJson('{"n":1.').value).toEqual({ n: 1 });
    expect(parsePartialJson('{"n":2e').value).toEqual({ n: 2 });
    expect(parsePartialJson('"ab\\').value).toBe('ab');
    expect(parsePartialJson('"ab\\u00').value).toBe('ab');
  });

  it('stops at the first character that breaks JSON, keeping what came before', () => {
    expect(parsePartialJson('{"a":1,"b":oops}')).toEqual({ value: { a: 1 }, complete: false });
    expect(parsePartialJson('{"a":1}}')).toEqual({ value: { a: 1 }, complete: false });
    expect(parsePartialJson('{a:1}')).toEqual({ value: {}, complete: false });
    expect(parsePartialJson('hello')).toEqual({ value: undefined, complete: false });
    expect(parsePartialJson('')).toEqual({ value: undefined, complete: false });
  });

  it('refuses __proto__ keys', () => {
    const result = parsePartialJson('{"__proto__":{"polluted":true},"a":1');
    expect(result.value).toEqual({ a: 1 });
    expect(Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(parsePartialJson('{"__proto__":{"x":1}}').complete).toBe(false);
  });

  it('survives deep nesting without exhausting the stack', () => {
    const result = parsePartialJson('['.repeat(100_000));
    expect(result.complete).toBe(false);
    expect(Array.isArray(result.value)).toBe(true);
  });
});
