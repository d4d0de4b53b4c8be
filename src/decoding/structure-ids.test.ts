import { describe, expect, it } from 'vitest';
import { createRandom } from '../../test/decoding/generation.js';
import { StructureIds } from './structure-ids.js';

class Automaton {
  constructor(readonly states: number) {}
}

describe('StructureIds', () => {
  it('gives equal structures one id, built apart and nested', () => {
    const ids = new StructureIds();
    const build = (): unknown => ({
      type: 'object',
      order: ['a', 'b'],
      properties: new Map<string, unknown>([
        ['a', [1, 2]],
        ['b', []],
      ]),
      required: new Set(['a']),
      contains: [{ set: [3], min: 1, max: Infinity, pointer: '#/contains' }],
      literals: [null, true, 'x', { deep: [0.5] }],
    });
    expect(ids.idOf(build())).toBe(ids.idOf(build()));
    expect(ids.idOf([[1], 2])).toBe(ids.idOf([[1], 2]));
  });

  it('tells apart what differs in a part, an order or a kind', () => {
    const ids = new StructureIds();
    const distinct: unknown[] = [
      1,
      '1',
      true,
      'true',
      null,
      'null',
      undefined,
      Infinity,
      'Infinity',
      -Infinity,
      1n,
      [],
      {},
      new Map(),
      new Set(),
      [1, 2],
      [2, 1],
      [[1], 2],
      [1, [2]],
      [1, 2, 3],
      new Map([['a', 1]]),
      new Map([['a', 2]]),
      new Map([['b', 1]]),
      new Map<string, number>([
        ['a', 1],
        ['b', 2],
      ]),
      new Map<string, number>([
        ['b', 2],
        ['a', 1],
      ]),
      new Set(['a', 'b']),
      new Set(['b', 'a']),
      // a Map's entries are not the array of its pairs, nor a plain object with its keys
      [['a', 1]],
      { a: 1 },
      { a: 1, b: 2 },
      { b: 2, a: 1 },
      { a: [1] },
      [undefined],
      [null],
    ];
    const seen = distinct.map((value) => ids.idOf(value));
    expect(new Set(seen).size).toBe(distinct.length);
  });

  it('reads numbers as JSON does: 0 and -0 alike, NaN like itself', () => {
    const ids = new StructureIds();
    expect(ids.idOf(-0)).toBe(ids.idOf(0));
    expect(ids.idOf([-0])).toBe(ids.idOf([0]));
    expect(ids.idOf(Number.NaN)).toBe(ids.idOf(0 / 0));
    expect(ids.idOf(0.1 + 0.2)).not.toBe(ids.idOf(0.3));
  });

  it('leaves out the properties of a plain object that hold undefined, as JSON.stringify does', () => {
    const ids = new StructureIds();
    expect(ids.idOf({ a: 1, b: undefined })).toBe(ids.idOf({ a: 1 }));
    expect(ids.idOf({ a: undefined })).toBe(ids.idOf({}));
    // an array's undefined is a part of its own: the array keeps its length
    expect(ids.idOf([undefined])).not.toBe(ids.idOf([]));
  });

  it('gives an instance of a class its own id, equal only to itself', () => {
    const ids = new StructureIds();
    const automaton = new Automaton(3);
    expect(ids.idOf(automaton)).toBe(ids.idOf(automaton));
    expect(ids.idOf(new Automaton(3))).not.toBe(ids.idOf(automaton));
    expect(ids.idOf([automaton])).toBe(ids.idOf([automaton]));
    expect(ids.idOf([automaton])).not.toBe(ids.idOf([new Automaton(3)]));
    // a null-prototype object is no plain object: by identity too
    const bare = Object.create(null) as object;
    expect(ids.idOf(bare)).not.toBe(ids.idOf({}));
    expect(ids.idOf(bare)).toBe(ids.idOf(bare));
  });

  it('keeps records apart from every value, and equal records alike', () => {
    const ids = new StructureIds();
    const parts = [ids.idOf('type'), ids.idOf('object')];
    expect(ids.recordId(parts)).toBe(ids.recordId([...parts]));
    expect(ids.recordId(parts)).not.toBe(ids.idOf(['type', 'object']));
    expect(ids.recordId(parts)).not.toBe(ids.recordId([...parts].reverse()));
    expect(ids.recordId([])).not.toBe(ids.idOf([]));
  });

  it('reads a container once per pass: a change shows after the next pass begins', () => {
    const ids = new StructureIds();
    const names = ['a'];
    const before = ids.idOf(names);
    names.push('b');
    // within the pass the container is taken as unchanged (the caller's promise), so its first id stays
    expect(ids.idOf(names)).toBe(before);
    ids.beginPass();
    expect(ids.idOf(names)).toBe(ids.idOf(['a', 'b']));
    expect(ids.idOf(names)).not.toBe(before);
    // the ids of structures outlive passes
    expect(ids.idOf(['a'])).toBe(before);
  });

  it('agrees with equality of the JSON-like text of random values', () => {
    const random = createRandom(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const automata = [new Automaton(1), new Automaton(2)];
    const value = (depth: number): unknown => {
      const kind = depth > 2 ? Math.floor(random() * 5) : Math.floor(random() * 10);
      switch (kind) {
        case 0:
          return pick([0, -0, 1, 2, Infinity, Number.NaN]);
        case 1:
          return pick(['a', 'b', '1', '']);
        case 2:
          return pick([true, false, null]);
        case 3:
          return undefined;
        case 4:
          return pick(automata);
        case 5:
        case 6:
          return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
        case 7: {
          const entries: [string, unknown][] = Array.from({ length: Math.floor(random() * 3) }, () => [pick(['a', 'b']), value(depth + 1)]);
          return new Map(entries);
        }
        case 8:
          return new Set(Array.from({ length: Math.floor(random() * 3) }, () => pick(['a', 'b', 'c'])));
        default:
          return Object.fromEntries(Array.from({ length: Math.floor(random() * 3) }, () => [pick(['a', 'b']), value(depth + 1)]));
      }
    };
    // the reference: a text that writes each kind apart, numbers by SameValueZero, instances by identity
    const text = (item: unknown): string => {
      if (item === undefined) return 'u';
      if (item === null || typeof item === 'boolean') return String(item);
      if (typeof item === 'number') return `n${Object.is(item, -0) ? 0 : item}`;
      if (typeof item === 'string') return JSON.stringify(item);
      if (item instanceof Automaton) return `i${automata.indexOf(item)}`;
      if (Array.isArray(item)) return `[${item.map(text).join(',')}]`;
      if (item instanceof Map) return `M[${[...item].map(([key, inner]) => `${text(key)}:${text(inner)}`).join(',')}]`;
      if (item instanceof Set) return `S[${[...item].map(text).join(',')}]`;
      return `{${Object.entries(item as object)
        .filter(([, inner]) => inner !== undefined)
        .map(([key, inner]) => `${JSON.stringify(key)}:${text(inner)}`)
        .join(',')}}`;
    };
    const ids = new StructureIds();
    const values = Array.from({ length: 3000 }, () => value(0));
    const idOfText = new Map<string, number>();
    let repeated = 0;
    for (const item of values) {
      const id = ids.idOf(item);
      const known = idOfText.get(text(item));
      if (known === undefined) {
        // a new text must get a new id
        expect([...idOfText.values()]).not.toContain(id);
        idOfText.set(text(item), id);
      } else {
        repeated++;
        expect(id).toBe(known);
      }
    }
    // the draw repeats structures (built apart), so equality is tested, not only difference
    expect(repeated).toBeGreaterThan(500);
  });
});
