/**
 * `uniqueItems: true` over objects that can run out of values (closed, `maxProperties`) whose every value is an endless
 * string: a prefix has endlessly many completions until only its `}` can follow, and there exactly one, so the matcher's
 * memory (`written-strings.ts`) refuses the byte that gets there when the object closed right after it is held
 * (`closedItem`, `JsonAutomaton.closingOnly`). Exhaustively over small arrays of items in different spellings (key
 * orders, missing and extra keys, escaped keys and values, the same object twice), under both layouts and both
 * `propertyOrder`s, on a byte vocabulary and the Qwen3, Llama 3 and Gemma 3 vocabularies, whole and token by token, the
 * mask accepts a text exactly when the registry accepts its value and the layout writes it; byte walks find no dead end;
 * ESLint's restricted-name rules compile; values that can run out (booleans, enums, integers) stay refused.
 */
import { describe, expect, it } from 'vitest';
import { ruleSchemaSources } from '../../bench/coverage/rule-schemas.js';
import { compileJsonSchema, type CompileJsonSchemaOptions } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import {
  everyArray,
  maskAgainstAccept,
  prefixWalkProblems,
  randomGenerationProblems,
  refusalOf,
  registryVerdict,
  type EncodingVocabulary,
  universeDisagreements,
} from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const CLOSED = { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, uniqueItems: true };
const NAMED = {
  type: 'object',
  properties: { name: { type: 'string' }, message: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};
const TWO_KEYS = {
  type: 'array',
  items: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, additionalProperties: false },
  uniqueItems: true,
};
const AT_MOST_ONE = { type: 'array', items: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } }, uniqueItems: true };

interface Case {
  readonly schema: Record<string, unknown>;
  /** The declared names, in schema order. */
  readonly declared: readonly string[];
  /** Item texts (spellings), compact; those with `\u` are written in the flexible layout only. */
  readonly items: readonly string[];
}

const CASES: Record<string, Case> = {
  'a closed object with one optional string': {
    schema: CLOSED,
    declared: ['a'],
    items: ['{}', '{"a":"x"}', '{"a":"\\u0078"}', '{"a":"y"}', '{"\\u0061":"x"}', '{"b":"x"}'],
  },
  'a closed object with two optional strings': {
    schema: TWO_KEYS,
    declared: ['a', 'b'],
    items: ['{"a":"x"}', '{"a":"x","b":"y"}', '{"b":"y","a":"x"}', '{"b":"\\u0079","a":"x"}', '{"b":"y"}', '{"a":"x","c":"z"}'],
  },
  'maxProperties 1 over string values of any key': {
    schema: AT_MOST_ONE,
    declared: [],
    items: ['{}', '{"a":"x"}', '{"\\u0061":"x"}', '{"b":"x"}', '{"a":"x","b":"y"}', '{"a":1}'],
  },
  'a oneOf of strings and closed objects with a required name (no-restricted-syntax)': {
    schema: { type: 'array', items: { oneOf: [{ type: 'string' }, NAMED] }, uniqueItems: true },
    declared: ['name', 'message'],
    items: ['"x"', '{"name":"x"}', '{"name":"\\u0078"}', '{"name":"x","message":"m"}', '{"message":"m","name":"x"}', '{"message":"m"}'],
  },
  'an anyOf whose other branch allows repeats (up to 2 items)': {
    schema: { anyOf: [CLOSED, { type: 'array', items: CLOSED.items, maxItems: 2 }] },
    declared: ['a'],
    items: ['{}', '{"a":"x"}', '{"a":"\\u0078"}', '{"a":"y"}'],
  },
};

/** The array of `items` written compactly (not where an item has an escape), and in the flexible layout also one item a line. */
function texts(items: readonly string[], flexible: boolean): string[] {
  const compact = `[${items.join(',')}]`;
  if (!flexible) return compact.includes('\\u') ? [] : [compact];
  return [compact, `[\n  ${items.join(',\n  ')}\n]`];
}

/** The keys of an item text as written, in order (an item's keys are plain or `\u` escapes). */
function keysOf(item: string): string[] {
  return [...item.matchAll(/"((?:[^"\\]|\\.)*)":/g)].map((match) => match[1]!);
}

/**
 * Whether the layout writes `item` (its value aside): declared keys never escaped, and in schema order (`anyOrder`
 * false) in the order of `declared`. The registry sees parsed values only.
 */
function written(item: string, declared: readonly string[], anyOrder: boolean): boolean {
  const keys = keysOf(item);
  if (keys.some((key) => key.startsWith('\\u') && declared.includes(JSON.parse(`"${key}"`) as string))) return false;
  if (anyOrder) return true;
  const positions = keys.map((key) => declared.indexOf(key)).filter((at) => at >= 0);
  return positions.every((at, index) => index === 0 || at > positions[index - 1]!);
}

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;
const ORDERS: readonly CompileJsonSchemaOptions[] = [{}, { propertyOrder: 'any' }];

describe('uniqueItems over objects that can run out of values', () => {
  const tokenizers = new Map<string, EncodingVocabulary>(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));
  const bytes = byteVocabulary();
  tokenizers.set('bytes', { vocabulary: bytes, encode: (text) => [...new TextEncoder().encode(text)] });

  it.each(Object.keys(CASES))(
    '%s: the mask accepts exactly what the registry accepts and the layout writes (both layouts and property orders, bytes and three vocabularies)',
    (name) => {
      const { schema, declared, items } = CASES[name]!;
      const universe = everyArray(items, 3);
      const validate = registryVerdict(schema);
      const failures: string[] = [];
      for (const options of ORDERS) {
        const anyOrder = options.propertyOrder === 'any';
        const expected = (value: unknown): boolean => {
          const array = value as string[];
          return array.every((item) => written(item, declared, anyOrder)) && validate(JSON.parse(`[${array.join(',')}]`));
        };
        const found = universeDisagreements(schema, options, tokenizers, universe, (value, flexible) => texts(value as string[], flexible), expected);
        failures.push(...found.map((failure) => `${anyOrder ? 'any order' : 'schema order'} ${failure}`));
      }
      expect(failures).toEqual([]);
      // the universe holds repeats (in other spellings) that the registry refuses and the mask must too
      const refused = (value: readonly string[]): boolean => !validate(JSON.parse(`[${value.join(',')}]`));
      expect(universe.some((value) => new Set(value).size === value.length && value.every((item) => !refused([item])) && refused(value))).toBe(true);
    },
    // about 10 s alone, several times that on the loaded shared machine
    300_000,
  );

  it.each([...VOCABULARIES, 'bytes'])(
    '%s: every mask bit agrees with accept() where a repeat is one token away',
    (vocabularyName) => {
      const { vocabulary } = tokenizers.get(vocabularyName)!;
      const named = { type: 'array', items: { oneOf: [{ type: 'string' }, NAMED] }, uniqueItems: true };
      const disagreements: string[] = [];
      const cleared: number[] = [];
      for (const [schema, options, prefix] of [
        [CLOSED, {}, '[{"a":"x"},{"a":"x'],
        [CLOSED, {}, '[{"a":"x"},{"a":"\\u0078'],
        [CLOSED, {}, '[{"a":"x"}, {"a":"'],
        [CLOSED, {}, '[{"a":"x"},{'],
        [TWO_KEYS, { propertyOrder: 'any' }, '[{"a":"x","b":"y"},{"b":"y",'],
        [TWO_KEYS, { propertyOrder: 'any' }, '[{"a":"x","b":"y"},{"b":"y","a":"x'],
        [named, { propertyOrder: 'any' }, '[{"name":"x","message":"m"}, {"message":"m","name":"x'],
        [AT_MOST_ONE, {}, '[{"a":"x"},{"\\u0061":"x'],
      ] as const) {
        const found = maskAgainstAccept(compileJsonSchema(schema, vocabulary, { ...options, layout: 'flexible' }), vocabulary, prefix);
        disagreements.push(...found.disagreements);
        cleared.push(found.cleared);
      }
      expect(disagreements).toEqual([]);
      // where the value's close would repeat a held item, the tokens that close it there are cleared
      expect(cleared.filter((count) => count > 0).length).toBeGreaterThanOrEqual(5);
    },
    120_000,
  );

  // 120 s: several seconds alone, more on the loaded shared machine
  it('leaves no dead end: every text the byte mask allows after held items (a small alphabet) goes on and agrees with accept()', () => {
    const problems: string[] = [];
    for (const [schema, options, prefix, alphabet, depth] of [
      [CLOSED, {}, '[{"a":""},{}', '{}",:a', 6],
      [CLOSED, {}, '[{"a":""},{', '{}",:a', 7],
      [CLOSED, {}, '[{"a":""},{"a":"x"},{', '{}",:ax', 6],
      [TWO_KEYS, { propertyOrder: 'any' }, '[{"a":"","b":""},{"b":"",', '{}",:ab', 7],
      [AT_MOST_ONE, {}, '[{},{"a":""},{"b":""},', '{}",:ab', 8],
    ] as const) {
      // compact: whitespace after a value would keep a dead prefix's mask from being empty (the walk sees only empty masks)
      problems.push(...prefixWalkProblems(compileJsonSchema(schema, bytes, { ...options, layout: 'compact' }), prefix, alphabet, depth));
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('offers an item only where a member fits under maxDepth, so a held `{}` leaves no dead end (the documented narrowing)', () => {
    const nested = { type: 'array', items: CLOSED };
    const problems: string[] = [];
    for (const maxDepth of [2, 3, 4]) {
      const grammar = compileJsonSchema(nested, bytes, { maxDepth });
      problems.push(...prefixWalkProblems(grammar, '[', '[]{}",:a', 10).map((problem) => `maxDepth ${maxDepth}: ${problem}`));
    }
    expect(problems).toEqual([]);
    // maxDepth 3: the items at depth 3 would fit only as `{}`: not offered there, although the registry accepts `[[{}]]`
    const shallow = compileJsonSchema(nested, bytes, { maxDepth: 3 }).matcher();
    expect(shallow.acceptString('[[')).toBe(true);
    expect(shallow.acceptString('{')).toBe(false);
    const deep = compileJsonSchema(nested, bytes, { maxDepth: 4 }).matcher();
    expect(deep.acceptString('[[{},{"a":"x"},{"a":"y"}]]') && deep.canTerminate()).toBe(true);
  }, 120_000);

  it.each(VOCABULARIES)(
    '%s: random generations end valid, with no dead end and every probed mask bit agreeing with accept()',
    (vocabularyName) => {
      const { vocabulary } = tokenizers.get(vocabularyName)!;
      const schemas = {
        'closed objects with two strings, minItems 4': { ...TWO_KEYS, minItems: 4 },
        'strings or named objects, minItems 4': { type: 'array', items: { oneOf: [{ type: 'string' }, NAMED] }, uniqueItems: true, minItems: 4 },
      };
      expect(randomGenerationProblems(vocabulary, schemas, { seed: 5, runs: 5, randomSteps: 40, validatorOf: registryVerdict })).toEqual([]);
    },
    120_000,
  );

  it("compiles ESLint's restricted-name rules whose items are closed objects of strings", () => {
    const rules = ruleSchemaSources()
      .flatMap((source) => source.schemas)
      .filter(({ rule }) => /^eslint\/no-restricted-(globals|modules|syntax)$/.test(rule));
    expect(rules).toHaveLength(3);
    for (const { schema } of rules) expect(() => compileJsonSchema(schema, bytes)).not.toThrow();
  }, 60_000);

  it.each([
    ['closed objects with a boolean value', { type: 'object', properties: { a: { type: 'boolean' } }, additionalProperties: false }],
    ['closed objects with an enum value', { type: 'object', properties: { a: { enum: ['x', 'y'] } }, additionalProperties: false }],
    ['closed objects with an integer range', { type: 'object', properties: { a: { type: 'integer', minimum: 0, maximum: 3 } }, additionalProperties: false }],
    [
      'closed objects with a string value that can run out',
      { type: 'object', properties: { a: { type: 'string', maxLength: 2 } }, additionalProperties: false },
    ],
    ['objects with maxProperties and values of any type', { type: 'object', maxProperties: 2 }],
    ['closed objects with no key (`{}` alone: once held, a next item is a dead end)', { type: 'object', additionalProperties: false }],
    ['closed objects with an array value', { type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }],
  ])('still refuses %s, naming what can run out', (_name, item) => {
    const error = refusalOf({ type: 'array', items: item, uniqueItems: true });
    expect(error.keyword).toBe('uniqueItems');
    expect(error.message).toMatch(/unless some key can be written and every value they may take is a string with endless completions/);
  });
});
