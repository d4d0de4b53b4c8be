import { describe, expect, it } from 'vitest';
import { createRandom } from '../../test/decoding/generation.js';
import { blank, FALSE_SET, intersectTyped, TRUE_SET, unionSets, valueSetFor, type Typed } from './lower-typed.js';

function randomObject(random: () => number, names: readonly string[]): Typed {
  const typed = blank('object', '#');
  if (random() < 0.3) typed.additional = random() < 0.5 ? FALSE_SET : [7];
  for (const name of names) {
    const draw = random();
    if (draw > 0.5) continue;
    typed.order.push(name);
    typed.properties.set(name, draw < 0.1 ? FALSE_SET : draw < 0.3 ? TRUE_SET : [3 + Math.floor(draw * 10)]);
    if (random() < 0.3) typed.required.add(name);
  }
  if (random() < 0.3) typed.minProperties = Math.floor(random() * 3);
  if (random() < 0.3) typed.maxProperties = 2 + Math.floor(random() * 3);
  if (random() < 0.2) typed.dependencies.set(names[0]!, new Set([names[1]!]));
  if (random() < 0.2) typed.witnesses.push({ patternGroups: [], additional: FALSE_SET, names: new Set(), keyword: 'not', pointer: '#' });
  return typed;
}

// the differences intersect thousands of pieces (schema-complement.ts): intersectTyped builds its result in one go and
// shares what one side leaves unchanged, so these pin what the result holds and that neither side is changed
describe('intersectTyped', () => {
  it('holds its fields in the order of a blank alternative, which alternatives are compared in', () => {
    const random = createRandom(5);
    const names = ['a', 'b', 'c'];
    const merged = intersectTyped(randomObject(random, names), randomObject(random, names))!;
    expect(Object.keys(merged)).toEqual(Object.keys(blank('object', '#')));
  });

  it('holds both sides constraints and changes neither side', () => {
    const random = createRandom(17);
    const names = ['a', 'b', 'c', 'd', 'e'];
    for (let round = 0; round < 300; round++) {
      const [left, right] = [randomObject(random, names), randomObject(random, names)];
      const before = structuredClone([left, right]);
      const merged = intersectTyped(left, right)!;
      expect([left, right]).toEqual(before);
      expect(merged.order).toEqual([...new Set([...left.order, ...right.order])]);
      expect([...merged.properties.keys()]).toEqual(merged.order);
      for (const name of [...names, 'undeclared'])
        expect([...valueSetFor(merged, name)]).toEqual([...unionSets(valueSetFor(left, name), valueSetFor(right, name))]);
      expect([...merged.required]).toEqual([...new Set([...left.required, ...right.required])]);
      expect(merged.minProperties).toBe(Math.max(left.minProperties, right.minProperties));
      expect(merged.maxProperties).toBe(Math.min(left.maxProperties, right.maxProperties));
      expect(merged.witnesses).toEqual([...left.witnesses, ...right.witnesses]);
      expect([...merged.dependencies]).toEqual([...new Map([...left.dependencies, ...right.dependencies])]);
    }
  });

  it('keeps the tighter number bounds, an exclusive bound over an inclusive one at the same value', () => {
    const [left, right] = [blank('number', '#'), blank('number', '#')];
    [left.minimum, left.exclusiveMinimum, left.maximum, left.exclusiveMaximum] = [1, false, 9, true];
    [right.minimum, right.exclusiveMinimum, right.maximum, right.exclusiveMaximum] = [1, true, 8, false];
    expect(intersectTyped(left, right)).toMatchObject({ minimum: 1, exclusiveMinimum: true, maximum: 8, exclusiveMaximum: false });
    expect(intersectTyped(right, left)).toMatchObject({ minimum: 1, exclusiveMinimum: true, maximum: 8, exclusiveMaximum: false });
  });

  it('is empty for integers that must be fractional, or literals neither side shares', () => {
    const [whole, fraction] = [blank('number', '#'), blank('number', '#')];
    whole.integer = true;
    fraction.fractional = true;
    expect(intersectTyped(whole, fraction)).toBeUndefined();
    const [one, two] = [blank('string', '#'), blank('string', '#')];
    [one.literals, two.literals] = [['x'], ['y']];
    expect(intersectTyped(one, two)).toBeUndefined();
  });
});
