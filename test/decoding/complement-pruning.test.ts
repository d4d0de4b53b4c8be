/**
 * A complement whose pieces meet in contradictions or include one another (issue #32): `not` over a conjunction with a
 * `oneOf` of three objects multiplies out past the alternatives budget unless each step of the difference drops the
 * empty, repeated and included pieces. The differential test compares the mask with the registry on its boundary
 * instances under three vocabularies; here it must compile at the default budget (it was refused before), and random
 * generations must never dead-end and must be valid for the registry.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { DIFFERENTIAL_CASES } from './differential-schemas.js';
import { createRandom, generate } from './generation.js';

const testCase = DIFFERENTIAL_CASES.find((candidate) => candidate.name.startsWith('not over a conjunction with a oneOf of three objects'))!;

describe('complements pruned to fit the alternatives budget', () => {
  it('compiles at the default budget, and every random generation ends and is valid for the registry', () => {
    const grammar = compileJsonSchema(testCase.schema, byteVocabulary());
    const validator = compileSchema(testCase.schema as never);
    const random = createRandom(32);
    const problems: string[] = [];
    for (let run = 0; run < 200; run++) {
      const generation = generate(grammar, random, 5 + (run % 40));
      problems.push(...generation.disagreements);
      if (!validator.validate(JSON.parse(generation.text)).success) problems.push(`generated an invalid value ${generation.text}`);
    }
    expect(problems).toEqual([]);
    // both sides of the complement: a value the negated schema accepts is refused, one it rejects is accepted
    const accepts = (text: string): boolean => {
      const matcher = grammar.matcher();
      return matcher.acceptString(text) && matcher.canTerminate();
    };
    expect(accepts('{"kind":"file","user":"u","size":1}')).toBe(false);
    expect(accepts('{"kind":"file","user":"","size":1}')).toBe(true);
    expect(accepts('{"kind":"dir","user":"u","files":0}')).toBe(true);
    expect(accepts('{"kind":"link","user":"u"}')).toBe(false);
  });
});
