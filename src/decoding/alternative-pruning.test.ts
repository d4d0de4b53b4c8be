import { describe, expect, it } from 'vitest';
import { createRandom } from '../../test/decoding/generation.js';
import { blank, FALSE_SET, TRUE_SET, valueSetFor } from './lower-typed.js';
import { forbiddenNameBits, requiredNameBits } from './alternative-pruning.js';

// the inclusion check's filters (withoutIncluded): a pair they tell apart is never one where one alternative includes the other

describe('requiredNameBits', () => {
  it('holds all of an outer alternative bits in an inner one that requires every name the outer one requires', () => {
    const random = createRandom(11);
    // more names than bits: names share bits, which may keep a pair but never drops one
    const names = Array.from({ length: 45 }, (_, index) => `name${index}`);
    const alternatives = Array.from({ length: 200 }, () => ({
      required: new Set(names.filter(() => random() < 0.15)),
    }));
    const bits = requiredNameBits(alternatives as never);
    let subsets = 0;
    let toldApart = 0;
    for (let outer = 0; outer < alternatives.length; outer++) {
      for (let inner = 0; inner < alternatives.length; inner++) {
        const subset = [...alternatives[outer]!.required].every((name) => alternatives[inner]!.required.has(name));
        const bitsHeld = (bits[outer]! & ~bits[inner]!) === 0;
        if (subset) {
          subsets++;
          expect(bitsHeld).toBe(true);
        } else if (!bitsHeld) toldApart++;
      }
    }
    expect(subsets).toBeGreaterThan(alternatives.length);
    expect(toldApart).toBeGreaterThan(10_000);
  });
});

describe('forbiddenNameBits', () => {
  it('holds all of an outer alternative bits in an inner one that forbids every name the outer one declares false', () => {
    const random = createRandom(13);
    const names = Array.from({ length: 40 }, (_, index) => `name${index}`);
    const alternatives = Array.from({ length: 150 }, () => {
      const typed = blank('object', '#');
      // closed objects forbid every undeclared name: the bits must read the value schema, not only the declared ones
      if (random() < 0.3) typed.additional = FALSE_SET;
      for (const name of names) {
        const draw = random();
        if (draw < 0.1) typed.properties.set(name, FALSE_SET);
        else if (draw < 0.2) typed.properties.set(name, TRUE_SET);
        else if (draw < 0.25) typed.properties.set(name, [5]);
        if (random() < 0.05) typed.required.add(name);
      }
      return typed;
    });
    const { declared, held } = forbiddenNameBits(alternatives, valueSetFor);
    const isFalse = (set: readonly number[]): boolean => set[0] === FALSE_SET[0];
    let kept = 0;
    let toldApart = 0;
    for (let outer = 0; outer < alternatives.length; outer++) {
      const judged = [...alternatives[outer]!.properties.keys(), ...alternatives[outer]!.required];
      const forbiddenByOuter = judged.filter((name) => isFalse(valueSetFor(alternatives[outer]!, name)));
      for (let inner = 0; inner < alternatives.length; inner++) {
        const innerForbidsThem = forbiddenByOuter.every((name) => isFalse(valueSetFor(alternatives[inner]!, name)));
        const bitsHeld = (declared[outer]! & ~held[inner]!) === 0;
        if (innerForbidsThem) {
          kept++;
          expect(bitsHeld).toBe(true);
        } else if (!bitsHeld) toldApart++;
      }
    }
    expect(kept).toBeGreaterThan(alternatives.length);
    expect(toldApart).toBeGreaterThan(5_000);
  });
});
