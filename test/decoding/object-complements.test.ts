/**
 * Complements of objects (issue #32, part K1), exhaustively over a small universe: for each schema of
 * `differential-object-complements.ts` (`not`, `oneOf` and `if` over open objects whose undeclared keys
 * `additionalProperties` or `patternProperties` constrain, and complements of object literals), under both layouts and
 * both property orders, the schema compiles; every object Ajv (the registry's validator) accepts is accepted in the
 * layout (`grammar.format`); no text is accepted whose parse Ajv rejects, in any key order, and with a key written
 * twice (JSON.parse keeps the last value: `{"k": <fails>, "k": <passes>}` parses to a passing object); random masked
 * generations end Ajv-valid, with no dead end. The same runs over `differential-unevaluated.ts`: `unevaluatedProperties`
 * whose evaluated names depend on which branch passes.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, type CompiledGrammar } from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { OBJECT_COMPLEMENT_CASES } from './differential-object-complements.js';
import { UNEVALUATED_BRANCH_CASES } from './differential-unevaluated.js';
import { createRandom, generate } from './generation.js';

/** Both families of objects whose rules depend on a branch: complements, and `unevaluatedProperties` over branches. */
const CASES = [...OBJECT_COMPLEMENT_CASES, ...UNEVALUATED_BRANCH_CASES];
const EXTRA_KEYS = ['x-a', 'n1', '1x', 'zz'];
const VALUES: readonly unknown[] = [1, 9, 'ab', 'abcd', true];

/** Every property name a schema declares anywhere (so the universe holds declared and undeclared keys). */
function declaredAnywhere(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const item of schema) declaredAnywhere(item, out);
  else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'properties' && value !== null && typeof value === 'object') for (const name of Object.keys(value)) out.add(name);
      if (key === 'required' && Array.isArray(value)) for (const name of value as string[]) out.add(name);
      declaredAnywhere(value, out);
    }
  }
  return out;
}

/** Every list of entries over `keys` (distinct, in every order) with at most two properties. */
function entryLists(keys: readonly string[]): [string, unknown][][] {
  const out: [string, unknown][][] = [[]];
  for (const first of keys)
    for (const firstValue of VALUES) {
      out.push([[first, firstValue]]);
      for (const second of keys)
        if (second !== first)
          for (const secondValue of VALUES)
            out.push([
              [first, firstValue],
              [second, secondValue],
            ]);
    }
  return out;
}

function text(entries: readonly [string, unknown][], flexible: boolean): string {
  const parts = entries.map(([key, value]) => `${JSON.stringify(key)}${flexible ? ' : ' : ':'}${JSON.stringify(value)}`);
  return flexible ? `{ ${parts.join(', ')} }` : `{${parts.join(',')}}`;
}

const accepts = (grammar: CompiledGrammar, value: string): boolean => {
  const matcher = grammar.matcher();
  return matcher.acceptString(value) && matcher.canTerminate();
};

describe('complements of objects: the mask against the registry validator, exhaustively on small objects', () => {
  const vocabulary = byteVocabulary(['{"', '":', ',"', '"}']);

  describe.each(['schema', 'any'] as const)('propertyOrder %s', (propertyOrder) => {
    it.each(CASES.map((testCase) => [testCase.name, testCase] as const))('%s', (_name, testCase) => {
      const validator = compileSchema(testCase.schema as never);
      const valid = (value: unknown): boolean => validator.validate(value).success;
      const keys = [...declaredAnywhere(testCase.schema), ...EXTRA_KEYS];
      const lists = entryLists(keys);
      const failures: string[] = [];
      let validCount = 0;
      let invalidCount = 0;
      for (const flexible of [false, true]) {
        const grammar = compileJsonSchema(testCase.schema, vocabulary, { propertyOrder, layout: flexible ? 'flexible' : 'compact' });
        for (const entries of lists) {
          const object = Object.fromEntries(entries);
          if (valid(object)) {
            validCount++;
            const layout = grammar.format(object);
            if (layout === undefined || !accepts(grammar, layout)) failures.push(`valid ${JSON.stringify(object)} rejected in its layout ${layout}`);
          } else {
            invalidCount++;
            if (accepts(grammar, text(entries, flexible))) failures.push(`INVALID accepted: ${text(entries, false)}`);
          }
          // a key written again with every value: accepted only when Ajv accepts what JSON.parse keeps
          for (const [key] of entries)
            for (const value of VALUES) {
              const repeated = text([...entries, [key, value]], flexible);
              if (accepts(grammar, repeated) && !valid(JSON.parse(repeated))) failures.push(`INVALID accepted with a repeated key: ${repeated}`);
            }
        }
      }
      expect(failures.slice(0, 20)).toEqual([]);
      // both sides, or the case proves nothing
      expect(validCount).toBeGreaterThan(0);
      expect(invalidCount).toBeGreaterThan(0);
    });
  });

  it.each(CASES.map((testCase) => [testCase.name, testCase] as const))(
    '%s: random masked generations end Ajv-valid, with no dead end and masks agreeing with accept()',
    (name, testCase) => {
      const validator = compileSchema(testCase.schema as never);
      const failures: string[] = [];
      for (const flexible of [false, true]) {
        const grammar = compileJsonSchema(testCase.schema, vocabulary, { layout: flexible ? 'flexible' : 'compact', maxDepth: 4 });
        const random = createRandom(name.length * 31 + (flexible ? 7 : 0));
        for (let run = 0; run < 30; run++) {
          const generation = generate(grammar, random, Math.floor(random() * 40));
          failures.push(...generation.disagreements);
          if (!validator.validate(JSON.parse(generation.text)).success) failures.push(`Ajv rejects ${generation.text}`);
        }
      }
      expect(failures).toEqual([]);
    },
  );
});
