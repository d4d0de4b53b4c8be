/**
 * `unevaluatedItems` / `unevaluatedProperties` whose evaluated set depends on branches the earlier lowering refused
 * (issue #32), compared with the registry's Ajv, which is not the specification here:
 * - an `if` whose `then` holds further branches, where what the `if` evaluates is already every item (its `contains`):
 *   Ajv then merges nothing more and skips `unevaluatedItems` (the suite's "unevaluatedItems and contains interact to
 *   control item dependency relationship", which the registry accepts on every array);
 * - a branch that evaluates every item merged into a variable, which Ajv's `unevaluatedItems` with a schema reads as
 *   the index `true`: its loop checks `data[true]` (undefined) and the items from 2 on, so where the schema fails on
 *   undefined (a `type`, `const` or `enum`) an array holds one item at most (the suite's "unevaluatedItems with nested
 *   items": the registry refuses `["yes", "no"]` and accepts `["yes", false]`);
 * - `oneOf`, `anyOf` and `if`/`then`/`else` inside an `allOf` part or an inlined `$ref` target (the suite's
 *   "unevaluatedProperties + ref inside allOf / oneOf").
 *
 * Exhaustively over small arrays and objects from a pool of texts, under both layouts (and both property orders for
 * objects), on a byte vocabulary and the Qwen3, Llama 3 and Gemma 3 vocabularies, whole and token by token, the mask
 * accepts a text exactly when the registry accepts its value; byte walks over the pool's bytes find no dead end and
 * no mask bit that disagrees with `accept`; random generations end registry-valid; what stays refused says why.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import {
  everyArray,
  everyEntryList,
  feed,
  prefixWalkProblems,
  randomGenerationProblems,
  registryVerdict,
  universeDisagreements,
  type EncodingVocabulary,
} from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

interface ArrayCase {
  readonly schema: Record<string, unknown>;
  /** Item spellings (JSON texts). */
  readonly items: readonly string[];
  readonly most: number;
  /** The registry accepts every array of the universe (Ajv skips the keyword). */
  readonly everyArrayValid?: true;
}

const ARRAY_CASES: Record<string, ArrayCase> = {
  'nested if under a then, the outer if evaluating every item (the suite)': {
    schema: {
      if: { contains: { const: 'a' } },
      then: { if: { contains: { const: 'b' } }, then: { if: { contains: { const: 'c' } } } },
      unevaluatedItems: false,
    },
    items: ['"a"', '"b"', '"c"', '1'],
    most: 3,
    everyArrayValid: true,
  },
  'nested if under an else, beside an allOf that evaluates every item': {
    schema: {
      allOf: [{ items: { type: ['string', 'integer'] } }],
      if: { prefixItems: [{ const: 1 }] },
      else: { anyOf: [{ prefixItems: [true, true] }, { maxItems: 1 }] },
      unevaluatedItems: false,
    },
    items: ['"a"', '1', '2', 'null'],
    most: 3,
  },
  'an anyOf branch with items, unevaluatedItems of a type (the suite)': {
    schema: { unevaluatedItems: { type: 'boolean' }, anyOf: [{ items: { type: 'string' } }, true] },
    items: ['"s"', 'true', 'false', '1'],
    most: 3,
  },
  'an anyOf branch with items beside prefixItems, unevaluatedItems of a const': {
    schema: { anyOf: [{ items: { type: 'string' } }, { prefixItems: [{ type: 'integer' }] }], unevaluatedItems: { const: 5 } },
    items: ['"s"', '5', '1'],
    most: 3,
  },
  'a then with items, unevaluatedItems of an enum': {
    schema: { if: { prefixItems: [{ const: 1 }] }, then: { items: { type: 'integer' } }, unevaluatedItems: { enum: [1, 'x'] } },
    items: ['1', '2', '"x"'],
    most: 3,
  },
  'a oneOf branch with contains, unevaluatedItems of a type': {
    schema: { oneOf: [{ contains: { const: 0 } }, { prefixItems: [{ type: 'string' }], maxItems: 2 }], unevaluatedItems: { type: 'integer' } },
    items: ['0', '1', '"s"'],
    most: 3,
  },
};

interface ObjectCase {
  readonly schema: Record<string, unknown>;
  readonly keys: readonly string[];
}

const OBJECT_CASES: Record<string, ObjectCase> = {
  'a oneOf inside an allOf part, beside a $ref and properties (the suite)': {
    schema: {
      $defs: { one: { properties: { a: true } }, two: { required: ['x'], properties: { x: true } } },
      allOf: [{ $ref: '#/$defs/one' }, { properties: { b: true } }, { oneOf: [{ $ref: '#/$defs/two' }, { required: ['y'], properties: { y: true } }] }],
      unevaluatedProperties: false,
    },
    keys: ['a', 'b', 'x', 'y', 'z'],
  },
  'a oneOf in an inlined $ref target, unevaluatedProperties of a type': {
    schema: {
      $defs: {
        ab: {
          oneOf: [
            { required: ['a'], properties: { a: true } },
            { required: ['b'], properties: { b: { type: 'integer' } } },
          ],
        },
      },
      $ref: '#/$defs/ab',
      properties: { c: true },
      unevaluatedProperties: { type: 'string' },
    },
    keys: ['a', 'b', 'c', 'd'],
  },
  'an anyOf inside an allOf part': {
    schema: {
      allOf: [{ anyOf: [{ properties: { a: { type: 'integer' } } }, { required: ['b'], properties: { b: true } }] }],
      properties: { c: true },
      unevaluatedProperties: false,
    },
    keys: ['a', 'b', 'c', 'd'],
  },
  'if/then/else inside an allOf part, after a $ref (its names are kept where the then fails)': {
    schema: {
      $defs: { k: { properties: { k: true } } },
      $ref: '#/$defs/k',
      allOf: [{ if: { required: ['k'] }, then: { properties: { t: true } }, else: { properties: { e: { type: 'string' } } } }],
      unevaluatedProperties: false,
    },
    keys: ['k', 't', 'e', 'z'],
  },
  'a oneOf beside a oneOf inside an allOf part': {
    schema: {
      oneOf: [
        { required: ['a'], properties: { a: true } },
        { required: ['b'], properties: { b: true } },
      ],
      allOf: [{ oneOf: [{ required: ['x'], properties: { x: true } }, { properties: { y: { type: 'integer' } } }] }],
      unevaluatedProperties: false,
    },
    keys: ['a', 'b', 'x', 'y'],
  },
  'dependentSchemas inside an allOf part, beside an if/then': {
    schema: {
      allOf: [{ dependentSchemas: { d: { properties: { e: true } } } }],
      if: { required: ['i'] },
      then: { properties: { i: true, t: true } },
      unevaluatedProperties: false,
    },
    keys: ['d', 'e', 'i', 't'],
  },
};

const OBJECT_VALUES: readonly unknown[] = [1, 's'];

/** Every object of up to three distinct keys from `keys`, each with every value, as lists of entries in their first order. */
function everyObject(keys: readonly string[]): [string, unknown][][] {
  return everyEntryList(keys, OBJECT_VALUES, 3).filter((entries) => new Set(entries.map(([key]) => key)).size === entries.length);
}

/** Every order of `entries`. */
function orders<E>(entries: readonly E[]): E[][] {
  if (entries.length <= 1) return [[...entries]];
  return entries.flatMap((entry, index) => orders([...entries.slice(0, index), ...entries.slice(index + 1)]).map((rest) => [entry, ...rest]));
}

/** An object's text as written in `order`: compact, and in the flexible layout also spaced. */
function objectTexts(order: readonly [string, unknown][], flexible: boolean): string[] {
  const compact = JSON.stringify(Object.fromEntries(order));
  if (!flexible) return [compact];
  const spaced = order.length === 0 ? '{ }' : `{ ${order.map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(', ')} }`;
  return [compact, spaced];
}

/** The array of `items` (spellings) written compactly, and in the flexible layout also spaced and one item a line. */
function arrayTexts(items: readonly string[], flexible: boolean): string[] {
  const compact = `[${items.join(',')}]`;
  if (!flexible) return [compact];
  return [compact, `[ ${items.join(' , ')} ]`, items.length === 0 ? '[ ]' : `[\n  ${items.join(',\n  ')}\n]`];
}

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

// the exhaustive comparisons take seconds each on the shared 2-core machine
describe('unevaluated* over branches', { timeout: 180_000 }, () => {
  const tokenizers = new Map<string, EncodingVocabulary>(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));
  tokenizers.set('bytes', { vocabulary: byteVocabulary(), encode: (text) => [...new TextEncoder().encode(text)] });

  describe('unevaluatedProperties', () => {
    it.each(Object.keys(OBJECT_CASES))(
      '%s: the mask accepts exactly what the registry accepts (both layouts and property orders, bytes and three vocabularies)',
      (name) => {
        const { schema, keys } = OBJECT_CASES[name]!;
        const validate = registryVerdict(schema);
        const universe = everyObject(keys);
        const failures: string[] = [];
        let validCount = 0;
        for (const [vocabularyName, tokenizer] of tokenizers)
          for (const propertyOrder of ['schema', 'any'] as const)
            for (const layout of ['compact', 'flexible'] as const) {
              const grammar = compileJsonSchema(schema, tokenizer.vocabulary, { layout, propertyOrder });
              for (const entries of universe) {
                const object = Object.fromEntries(entries);
                const expected = validate(object);
                if (expected) validCount++;
                // a valid object in its layout text (any order where any order is allowed), an invalid one in every order
                const formatted = grammar.format(object);
                const texts =
                  expected && propertyOrder === 'schema'
                    ? formatted === undefined
                      ? []
                      : [formatted]
                    : orders(entries).flatMap((order) => objectTexts(order, layout === 'flexible'));
                if (expected && formatted === undefined)
                  failures.push(`${vocabularyName} ${layout} ${propertyOrder}: no layout text for ${JSON.stringify(object)}`);
                for (const text of texts) {
                  const matcher = grammar.matcher();
                  const whole = matcher.acceptString(text) && matcher.canTerminate();
                  const tokens = feed(grammar, tokenizer.encode(text)) === -1;
                  if (whole !== expected || tokens !== expected)
                    failures.push(`${vocabularyName} ${layout} ${propertyOrder} ${text}: registry ${expected}, acceptString ${whole}, tokens ${tokens}`);
                }
              }
            }
        expect(failures.slice(0, 20)).toEqual([]);
        expect(validCount).toBeGreaterThan(0);
        expect(universe.some((entries) => !validate(Object.fromEntries(entries)))).toBe(true);
      },
    );

    it.each(Object.keys(OBJECT_CASES))('%s: no dead end on the bytes of two keys, masks agree with accept(), random generations end valid', (name) => {
      const { schema, keys } = OBJECT_CASES[name]!;
      for (const propertyOrder of ['schema', 'any'] as const) {
        const grammar = compileJsonSchema(schema, byteVocabulary(), { propertyOrder });
        // keys of one letter: a walk over the structural bytes, two of the keys and a value's bytes stays small (free keys and values: strings of them)
        expect(prefixWalkProblems(grammar, '', `{}":,1${keys[0]}${keys[1]}`, propertyOrder === 'schema' ? 7 : 6)).toEqual([]);
      }
      expect(
        randomGenerationProblems(byteVocabulary(), { [name]: schema }, { seed: name.length, runs: 40, randomSteps: 20, validatorOf: registryVerdict }),
      ).toEqual([]);
    });
  });

  describe('unevaluatedItems', () => {
    it.each(Object.keys(ARRAY_CASES))('%s: the mask accepts exactly what the registry accepts (both layouts, bytes and three vocabularies)', (name) => {
      const { schema, items, most } = ARRAY_CASES[name]!;
      const universe = everyArray(items, most);
      const validate = registryVerdict(schema);
      const verdict = (value: unknown): boolean => validate(JSON.parse(`[${(value as string[]).join(',')}]`));
      expect(universeDisagreements(schema, undefined, tokenizers, universe, (value, flexible) => arrayTexts(value as string[], flexible), verdict)).toEqual([]);
      // both verdicts occur, but where Ajv skips the keyword
      expect(universe.some(verdict)).toBe(true);
      expect(universe.every(verdict)).toBe(ARRAY_CASES[name]!.everyArrayValid === true);
    });

    it.each(Object.keys(ARRAY_CASES))('%s: no dead end on the pool bytes, masks agree with accept(), random generations end valid', (name) => {
      const { schema, items } = ARRAY_CASES[name]!;
      const walked = `[],${[...new Set(items.join(''))].join('')}`;
      for (const layout of ['compact', 'flexible'] as const) {
        const grammar = compileJsonSchema(schema, byteVocabulary(), { layout });
        expect(prefixWalkProblems(grammar, '', layout === 'compact' ? walked : `${walked} `, layout === 'compact' ? 6 : 4)).toEqual([]);
      }
      expect(
        randomGenerationProblems(byteVocabulary(), { [name]: schema }, { seed: name.length, runs: 40, randomSteps: 20, validatorOf: registryVerdict }),
      ).toEqual([]);
    });
  });

  it('refuses what stays unmodelled, saying why', () => {
    const refusals: [Record<string, unknown>, RegExp][] = [
      // the suite's "dynamic evalation inside nested refs": Ajv calls a $ref target that holds references and merges what it evaluated at run time
      [
        {
          $defs: {
            one: { oneOf: [{ $ref: '#/$defs/two' }, { required: ['b'], properties: { b: true } }] },
            two: {
              oneOf: [
                { required: ['c'], properties: { c: true } },
                { required: ['d'], properties: { d: true } },
              ],
            },
          },
          oneOf: [{ $ref: '#/$defs/one' }, { required: ['a'], properties: { a: true } }],
          unevaluatedProperties: false,
        },
        /"\$ref" at #\/oneOf\/0 \(its target holds references, so Ajv does not inline it\)/,
      ],
      // branches inside a branch that may fail: Ajv hands the parent the variable they filled, whether the branch passed or not
      [
        { anyOf: [{ oneOf: [{ required: ['a'], properties: { a: true } }, { required: ['b'] }] }, { required: ['c'] }], unevaluatedProperties: false },
        /"oneOf" at #\/anyOf\/0/,
      ],
      [
        {
          if: { prefixItems: [{ const: 1 }] },
          then: { if: { prefixItems: [true, { const: 2 }] }, then: { prefixItems: [true, true, true] } },
          unevaluatedItems: false,
        },
        /"if" at #\/then/,
      ],
      // a branch evaluating every item read as the index 1, with a schema undefined may pass
      [{ anyOf: [{ items: { type: 'string' } }, true], unevaluatedItems: { minimum: 1 } }, /reads as the index 1 \(its loop checks the value undefined/],
      // past the budget: four oneOfs of three branches, 81 combinations
      [
        {
          allOf: [0, 1, 2, 3].map((n) => ({
            oneOf: ['a', 'b', 'c'].map((letter) => ({ required: [`${letter}${n}`], properties: { [`${letter}${n}`]: true } })),
          })),
          unevaluatedProperties: false,
        },
        /more combinations of passing branches than the 64 split over/,
      ],
    ];
    const vocabulary = byteVocabulary();
    for (const [schema, message] of refusals) {
      expect(() => compileJsonSchema(schema, vocabulary)).toThrow(UnsupportedSchemaError);
      expect(() => compileJsonSchema(schema, vocabulary)).toThrow(message);
      // lenient drops the keyword and says so
      expect(compileJsonSchema(schema, vocabulary, { lenient: true }).relaxed.map((relaxed) => relaxed.keyword)).toEqual(
        expect.arrayContaining([expect.stringMatching(/^unevaluated(Properties|Items)$/)]),
      );
    }
  });
});
