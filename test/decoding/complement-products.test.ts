/**
 * Complements whose pieces multiplied past the alternatives budget (issue #32): a `oneOf` whose object branches overlap
 * only on the types they do not name subtracts, alternative by alternative, only what may overlap (nothing, for the
 * objects), the complement of a complement is the schema itself (a `contains` of an item's complement counts its
 * cells within the item's schema), and the complements of a `not` and of an overlapping `oneOf` (not recursive) split
 * over the negated schema's structure: ¬¬A is A, and "not exactly one" is "none or some two". The four schemas were
 * refused at 256 alternatives; here they must compile at the default budget, agree with the registry on values near
 * both sides of the complement, and random generations must end valid.
 * The differential soundness test checks them on the boundary instances under three vocabularies.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { COMPLEMENT_PRODUCT_CASES } from './differential-complement-products.js';
import { createRandom, generate } from './generation.js';

const file = { kind: 'file', size: 1, mode: '644' };
const link = { kind: 'link' };
/** Values on both sides of each case's complement, with the registry's verdict they must have (so both sides are reached). */
const PROBES: readonly (readonly [unknown, boolean])[][] = [
  [
    [{ ...link, user: 'u', group: 'g' }, false],
    [{ ...link, user: '', group: 'g' }, true],
    [{ ...file, user: 'u', group: 'g' }, false],
    [{ ...file, mode: '9', user: 'u', group: 'g' }, true],
    [{ kind: 'dir', size: 0, files: 0, user: 'u', group: 'g' }, true],
    [{ kind: 'dir', size: 0, files: 2, user: 'u', group: 'g' }, false],
    [{ ...file, user: 'u' }, true],
  ],
  [
    [[{ name: 'a', ...link, user: 'u' }], true],
    [[{ name: 'a', ...link, user: '' }], true],
    [
      [
        { name: 'a', ...link, user: 'u' },
        { name: 'b', ...file },
      ],
      false,
    ],
    [
      [
        { name: 'a', ...file, user: 'u' },
        { name: 'b', ...file, mode: '9' },
      ],
      false,
    ],
    [[{ name: 'a', ...file, mode: '9', user: 'u' }], true],
    [[], false],
  ],
  [
    [{}, true],
    [{ a: 1, i: 0 }, true],
    [{ a: -1 }, false],
    [{ z: 'x', i: 0.5 }, false],
  ],
  [
    [{}, true],
    [{ a: 1 }, false],
    [{ a: 1, b: 2 }, true],
    [{ a: 'x' }, true],
    [{ a: 1, b: 'x' }, false],
    [{ a: 1, note: 3 }, true],
  ],
];

describe('complements that multiplied past the alternatives budget', () => {
  COMPLEMENT_PRODUCT_CASES.forEach((testCase, index) => {
    it(`${testCase.name}: compiles at the default budget and agrees with the registry`, () => {
      const grammar = compileJsonSchema(testCase.schema, byteVocabulary());
      const validator = compileSchema(testCase.schema as never);
      const accepts = (text: string): boolean => {
        const matcher = grammar.matcher();
        return matcher.acceptString(text) && matcher.canTerminate();
      };
      for (const [value, valid] of PROBES[index]!) {
        expect(validator.validate(value).success, JSON.stringify(value)).toBe(valid);
        const layout = grammar.format(value);
        if (valid) expect(layout, JSON.stringify(value)).toBeDefined();
        if (layout !== undefined) expect(accepts(layout), layout).toBe(valid);
      }
      const random = createRandom(33 + index);
      const problems: string[] = [];
      for (let run = 0; run < 100; run++) {
        const generation = generate(grammar, random, 5 + (run % 40));
        problems.push(...generation.disagreements);
        if (!validator.validate(JSON.parse(generation.text)).success) problems.push(`generated an invalid value ${generation.text}`);
      }
      expect(problems).toEqual([]);
    });
  });
});
