import { describe, expect, it } from 'vitest';
import { blank, FALSE_SET, intersectTyped, TRUE_SET, valueSetFor, type Typed } from './lower-typed.js';
import { subtractTyped, type DifferenceContext } from './schema-complement.js';

// the object pieces of a difference are cut from `typed` listing the negated object's names once (subtractTyped): each
// piece must hold exactly what `typed` ∧ (the names, true) ∧ (its failure) holds, in that property order
const context: DifferenceContext<Typed> = {
  limits: { maxAlternatives: 256, maxLiteralComplementAlternatives: 256, maxUnrolledItems: 8 },
  blank,
  intersect: intersectTyped,
  // a complement's location is the set's first id plus 100 (these sets hold one id each)
  complement: (set) => [set[0]! + 100],
  valueSet: valueSetFor,
  literal: () => [1],
  satisfies: () => false,
  stringPieces: () => [],
  complementDfa: (dfa) => dfa,
  formatComplement: () => undefined,
  refuse: () => undefined,
};

function object(names: Record<string, readonly number[]>, required: string[] = []): Typed {
  const typed = blank('object', '#');
  for (const [name, set] of Object.entries(names)) {
    typed.order.push(name);
    typed.properties.set(name, set);
  }
  for (const name of required) typed.required.add(name);
  return typed;
}

describe('subtractTyped on objects', () => {
  it('lists the names of typed, then the negated ones, then a failing name only required, in every piece', () => {
    const typed = object({ a: TRUE_SET, b: [4] }, ['a']);
    const negated = object({ c: [5], b: [6] }, ['c', 'd']);
    negated.maxProperties = 3;
    const pieces = subtractTyped(typed, negated, context);
    const summary = pieces.map((piece) => ({
      order: piece.order,
      properties: [...piece.properties],
      required: [...piece.required],
      minProperties: piece.minProperties,
    }));
    const names = (overrides: Record<string, readonly number[]>): [string, readonly number[]][] =>
      Object.entries({ a: TRUE_SET, b: [4], c: TRUE_SET, ...overrides });
    expect(summary).toEqual([
      { order: ['a', 'b', 'c'], properties: names({}), required: ['a'], minProperties: 4 },
      { order: ['a', 'b', 'c'], properties: names({ c: FALSE_SET }), required: ['a'], minProperties: 0 },
      { order: ['a', 'b', 'c', 'd'], properties: [...names({}), ['d', FALSE_SET]], required: ['a'], minProperties: 0 },
      { order: ['a', 'b', 'c'], properties: names({ c: [105] }), required: ['a', 'c'], minProperties: 0 },
      { order: ['a', 'b', 'c'], properties: names({ b: [4, 106] }), required: ['a', 'b'], minProperties: 0 },
    ]);
  });
});
