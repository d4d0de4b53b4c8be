/**
 * `uniqueItems: true` over objects with declared properties whose undeclared keys stay endless (any string, no
 * `maxProperties`): the matcher's memory of the items' canonical JSON (`written-strings.ts`) keeps them distinct, and a
 * fresh undeclared key after the declared ones always makes a value not held, so no prefix is a dead end. Exhaustively
 * over small arrays of items in different spellings (key orders, `1` and `1.0`, missing and extra keys, escaped keys and
 * values), under both layouts and both `propertyOrder`s, on a byte vocabulary and the Qwen3, Llama 3 and Gemma 3
 * vocabularies, whole and token by token, the mask accepts a text exactly when the registry accepts its value and the
 * layout writes it (declared keys in schema order under the default order, never repeated, never escaped); byte walks
 * find no dead end; the forms that can run out of values (closed objects, `maxProperties`, restricted keys) with an integer value stay
 * refused (those whose every value is an endless string are `unique-closed-objects.test.ts`'s).
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

const ITEM = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } }, required: ['a'] };
const UNIQUE = { type: 'array', items: ITEM, uniqueItems: true };

interface Case {
  readonly schema: Record<string, unknown>;
  /** The declared names, in schema order. */
  readonly declared: readonly string[];
  /** Item texts (spellings), compact; those with `\u` are written in the flexible layout only. */
  readonly items: readonly string[];
}

const CASES: Record<string, Case> = {
  'a required string and an optional integer, any other key': {
    schema: UNIQUE,
    declared: ['a', 'b'],
    items: [
      '{"a":"x"}',
      '{"a":"\\u0078"}',
      '{"a":"x","b":1}',
      '{"b":1,"a":"x"}',
      '{"a":"x","c":1}',
      '{"a":"x","c":1.0}',
      '{"c":1,"a":"x"}',
      '{"a":"x","\\u0063":1}',
      '{"b":1}',
    ],
  },
  'a declared object beside integer additional properties (no key required)': {
    schema: {
      type: 'array',
      items: { type: 'object', properties: { a: { type: 'object' } }, additionalProperties: { type: 'integer' } },
      uniqueItems: true,
    },
    declared: ['a'],
    items: ['{}', '{"a":{}}', '{"a":{"x":1}}', '{"a":{"x":1.0}}', '{"z":1}', '{"z":1,"a":{}}', '{"a":{},"z":1}', '{"z":2,"z":1}'],
  },
  'dependentRequired between declared strings (the frame tracks them)': {
    schema: {
      type: 'array',
      items: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, dependentRequired: { a: ['b'] } },
      uniqueItems: true,
    },
    declared: ['a', 'b'],
    items: ['{}', '{"b":"y"}', '{"a":"x","b":"y"}', '{"b":"y","a":"x"}', '{"a":"x"}', '{"c":1}', '{"b":"\\u0079"}'],
  },
  'closed but for endless pattern keys (patternProperties ^x, number values)': {
    schema: {
      type: 'array',
      items: {
        type: 'object',
        properties: { a: { type: 'string' } },
        patternProperties: { '^x': { type: 'number' } },
        additionalProperties: false,
        required: ['a'],
      },
      uniqueItems: true,
    },
    declared: ['a'],
    items: ['{"a":"p"}', '{"a":"p","x":1}', '{"x":1.0,"a":"p"}', '{"a":"p","xy":1}', '{"a":"p","y":1}', '{"a":"p","\u0078":10e-1}'],
  },
  'a propertyNames pattern with endless keys beside a declared key': {
    schema: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' } }, propertyNames: { pattern: '^[a-z]+$' }, required: ['id'] },
      uniqueItems: true,
    },
    declared: ['id'],
    items: ['{"id":1}', '{"id":1,"ab":null}', '{"ab":null,"id":1}', '{"id":1,"AB":null}', '{"id":2}', '{"id":1,"\u0061b":null}'],
  },
  'an anyOf whose other branch allows repeats (up to 2 items)': {
    schema: { anyOf: [UNIQUE, { type: 'array', items: ITEM, maxItems: 2 }] },
    declared: ['a', 'b'],
    items: ['{"a":"x"}', '{"a":"x","b":1}', '{"b":1,"a":"x"}', '{"a":"x","c":10e-1}', '{"a":"x","c":1}'],
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
 * Whether the layout writes `item` (its value aside): declared keys never repeated nor escaped, and in schema order
 * (`anyOrder` false) in the order of `declared` and before any undeclared key. The registry sees parsed values only.
 */
function written(item: string, declared: readonly string[], anyOrder: boolean): boolean {
  const keys = keysOf(item);
  const positions = keys.map((key) => declared.indexOf(key));
  if (keys.some((key) => key.startsWith('\\u') && declared.includes(JSON.parse(`"${key}"`) as string))) return false;
  if (new Set(keys.filter((key) => declared.includes(key))).size !== positions.filter((at) => at >= 0).length) return false;
  if (anyOrder) return true;
  let last = -1;
  let undeclaredSeen = false;
  for (const at of positions) {
    if (at < 0) undeclaredSeen = true;
    else if (undeclaredSeen || at < last) return false;
    else last = at;
  }
  return true;
}

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;
const ORDERS: readonly CompileJsonSchemaOptions[] = [{}, { propertyOrder: 'any' }];

describe('uniqueItems over objects with declared properties', () => {
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
  );

  it('keeps a declared key written escaped out, as without uniqueItems (the layout writes declared names as they are)', () => {
    for (const schema of [UNIQUE, ITEM]) {
      const text = schema === UNIQUE ? '[{"\\u0061":"x"}]' : '{"\\u0061":"x"}';
      const matcher = compileJsonSchema(schema, bytes, { layout: 'flexible', propertyOrder: 'any' }).matcher();
      expect(matcher.acceptString(text) && matcher.canTerminate()).toBe(false);
    }
  });

  it.each([...VOCABULARIES, 'bytes'])('%s: every mask bit agrees with accept() where a repeat is one token away', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const ordered = compileJsonSchema(UNIQUE, vocabulary, { layout: 'flexible' });
    const anyOrder = compileJsonSchema(UNIQUE, vocabulary, { layout: 'flexible', propertyOrder: 'any' });
    const cleared: number[] = [];
    const disagreements: string[] = [];
    for (const [grammar, prefix] of [
      [ordered, '[{"a":"x","c":1},{"a":"x","c":1.0'],
      [ordered, '[{"a":"x"},{"a":"\\u0078"'],
      [ordered, '[{"a":"x","c":[1]},{"a":"x","c":[1e0]'],
      [anyOrder, '[{"b":1,"a":"x"}, {"a":"x","b":1'],
      [anyOrder, '[{"a":"x","c":1}, {"c":1,"a":"x"'],
    ] as const) {
      const found = maskAgainstAccept(grammar, vocabulary, prefix);
      disagreements.push(...found.disagreements);
      cleared.push(found.cleared);
    }
    expect(disagreements).toEqual([]);
    // each prefix is one close from a held item: the tokens that close it there are cleared
    expect(cleared.every((count) => count > 0)).toBe(true);
  });

  // 120 s: about 10 s alone, several times that on the loaded shared machine
  it('leaves no dead end: every text the byte mask allows after held items (5 bytes of a small alphabet) goes on and agrees with accept()', () => {
    const problems: string[] = [];
    const patternKeys = CASES['closed but for endless pattern keys (patternProperties ^x, number values)']!.schema;
    problems.push(...prefixWalkProblems(compileJsonSchema(patternKeys, bytes), '[{"a":""},{"a":"","x":0},{"a":"', '{}",:ax0', 5));
    for (const [options, prefix] of [
      [{}, '[{"a":""},{"a":"","b":0},'],
      [{}, '[{"a":""},{"a":"","b":0},{"a":"'],
      [{ propertyOrder: 'any' }, '[{"a":""},{"b":0,"a":""},{'],
      [{ propertyOrder: 'any' }, '[{"a":"","":0},{"":0,"a":"'],
    ] as const) {
      problems.push(...prefixWalkProblems(compileJsonSchema(UNIQUE, bytes, options), prefix, '{}",:ab0', 5));
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it.each(VOCABULARIES)('%s: random generations end valid, with no dead end and every probed mask bit agreeing with accept()', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const schemas = {
      // integer values for the undeclared keys: random completions of any value nest past maxStates, uniqueItems or not
      'declared string and integer, minItems 4': { ...UNIQUE, items: { ...ITEM, additionalProperties: { type: 'integer' } }, minItems: 4 },
      'declared object beside integers, minItems 3': {
        ...CASES['a declared object beside integer additional properties (no key required)']!.schema,
        minItems: 3,
      },
    };
    expect(randomGenerationProblems(vocabulary, schemas, { seed: 5, runs: 5, randomSteps: 40, validatorOf: registryVerdict })).toEqual([]);
  });

  it.each([
    ['closed objects (additionalProperties: false)', { ...ITEM, additionalProperties: false }],
    ['objects with maxProperties', { ...ITEM, maxProperties: 3 }],
    ['objects whose keys a propertyNames pattern restricts', { ...ITEM, propertyNames: { pattern: '^[ab]$' } }],
    ['objects whose undeclared keys have a maxLength', { ...ITEM, propertyNames: { maxLength: 2 } }],
    ['objects whose only undeclared keys are a finite patternProperties pattern', { ...ITEM, patternProperties: { '^x$': {} }, additionalProperties: false }],
  ])('still refuses %s, naming what can run out', (_name, item) => {
    const error = refusalOf({ type: 'array', items: item, uniqueItems: true });
    expect(error.keyword).toBe('uniqueItems');
    expect(error.message).toMatch(/additionalProperties: false|maxProperties|propertyNames/);
  });

  it("still refuses ESLint's no-restricted-properties, whose closed items hold arrays of unique strings", () => {
    const rules = ruleSchemaSources()
      .flatMap((source) => source.schemas)
      .filter(({ rule }) => /^eslint\/no-restricted-properties$/.test(rule));
    expect(rules).toHaveLength(1);
    for (const { schema } of rules) expect(refusalOf(schema).keyword).toBe('uniqueItems');
  });
});
