/**
 * `minProperties` above 1 beside undeclared keys, enforced by keeping the keys distinct (the matcher's memory of the
 * keys written, `written-strings.ts`): exhaustively over small objects, under both layouts and on the Qwen3, Llama 3 and
 * Gemma 3 vocabularies, the mask accepts a text exactly when the registry's validator accepts its value (keys escaped
 * as `"\u0061"` included); a text that repeats a key (as written or decoded) is refused; every mask bit agrees with
 * `accept` where a repeated key is one token away; random generations end valid with no dead end; a token that closes
 * a repeated key in one go is refused. Key languages that can end where no other key continues them are counted where
 * they are the object's only keys (`exhaustible-keys.test.ts`), and refused beside declared properties or other key classes.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, DecodingLimitError, type CompiledGrammar } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { feed, maskAgainstAccept, randomGenerationProblems, refusalOf, registryVerdict, repeatsKey, repeatTokenProblems } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const SCHEMAS: Record<string, Record<string, unknown>> = {
  'minProperties 2, any keys': { type: 'object', minProperties: 2 },
  'minProperties 3, string values': { type: 'object', minProperties: 3, additionalProperties: { type: 'string' } },
  'patternProperties with an endless pattern': {
    type: 'object',
    minProperties: 2,
    patternProperties: { '^a+b*$': { type: 'integer' } },
    additionalProperties: false,
  },
  'a declared property beside': { type: 'object', properties: { d: { type: 'integer' } }, minProperties: 2 },
  'propertyNames with minLength': { type: 'object', minProperties: 2, propertyNames: { minLength: 1 } },
  'nested objects (each its own set of keys)': {
    type: 'object',
    minProperties: 2,
    additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'object', minProperties: 2, additionalProperties: { type: 'integer' } }] },
  },
  'anyOf with an object that allows repeats (the repeat closes into the other branch)': {
    anyOf: [
      { type: 'object', minProperties: 2, additionalProperties: { type: 'integer' } },
      { type: 'object', additionalProperties: { type: 'string' } },
    ],
  },
};

const KEYS = ['', 'a', 'ab', 'd'];
const VALUES = [1, 'x'];

/** Every object of up to `most` distinct KEYS (in every order) with VALUES. */
function objects(most: number): Record<string, unknown>[] {
  const out: [string, unknown][][] = [[]];
  let layer: [string, unknown][][] = [[]];
  for (let size = 1; size <= most; size++) {
    layer = layer.flatMap((entries) =>
      KEYS.filter((key) => !entries.some(([used]) => used === key)).flatMap((key) => VALUES.map((value): [string, unknown][] => [...entries, [key, value]])),
    );
    out.push(...layer);
  }
  return out.map((entries) => Object.fromEntries(entries));
}

const UNIVERSE: unknown[] = [...objects(3), { a: { a: 1, ab: 2 }, d: 1 }, { a: { a: 1 }, d: 1 }, { a: { a: 1, ab: 2 }, ab: { a: 1, ab: 'x' } }, ['a']];

/** Repeats inside an object that only `additionalProperties: true` (no minProperties) may hold. */
const NESTED_REPEAT = '{"a":{"a":1,"a":2},"ab":1}';

/** Texts that write a key twice in one object: refused by every schema here (all of them want distinct keys). */
const REPEATS = [
  '{"a":1,"a":2}',
  '{"a":1,"ab":1,"a":2}',
  '{"":1,"":2,"a":3}',
  '{"a":"x","a":"y"}',
  NESTED_REPEAT,
  '{"d":1,"a":1,"a":1}',
  '{"d":1,"a":1,"d":2}',
  '{"a":{"a":1,"ab":2,"a":3},"a":{"a":1,"ab":2}}',
];

/**
 * Per schema, repeats it accepts: where an object without `minProperties` takes the text (its keys may repeat, as
 * before) and the registry accepts the parsed value (the last of repeated keys kept).
 */
const REPEATS_TAKEN: Record<string, string[]> = {
  'minProperties 2, any keys': [NESTED_REPEAT],
  'a declared property beside': [NESTED_REPEAT],
  'propertyNames with minLength': [NESTED_REPEAT],
  'anyOf with an object that allows repeats (the repeat closes into the other branch)': ['{"a":"x","a":"y"}'],
};

/** Repeats that only the decoded keys show (read in the flexible layout, the one that reads `\uHHHH` escapes). */
const ESCAPED_REPEATS = ['{"a":1,"\\u0061":2}', '{"ab":1,"a\\u0062":1}', '{"\\u0061b":1,"ab":2,"":3}'];

/**
 * The value's texts: compact; in the flexible layout also indented, with every `a` of a key written `\u0061`, and with
 * only the first `a` of each key so written.
 */
function texts(value: unknown, flexible: boolean): string[] {
  const compact = JSON.stringify(value);
  if (!flexible) return [compact];
  const escape = (all: boolean): string =>
    compact.replace(/"([^"]*)":/g, (_whole, key: string) => `"${all ? key.replace(/a/g, '\\u0061') : key.replace('a', '\\u0061')}":`);
  return [JSON.stringify(value, null, 1), escape(true), escape(false)];
}

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

describe('distinct keys: minProperties beside undeclared keys', () => {
  const tokenizers = new Map(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));

  it.each(Object.keys(SCHEMAS))(
    '%s: the mask accepts exactly what the registry accepts and refuses repeated keys (both layouts, three vocabularies)',
    (name) => {
      const schema = SCHEMAS[name]!;
      const validate = registryVerdict(schema);
      const failures: string[] = [];
      for (const [vocabularyName, tokenizer] of tokenizers) {
        for (const layout of ['compact', 'flexible'] as const) {
          const grammar = compileJsonSchema(schema, tokenizer.vocabulary, { layout, propertyOrder: 'any' });
          const cases: [string, boolean][] = UNIVERSE.flatMap((value) =>
            texts(value, layout === 'flexible').map((text): [string, boolean] => [text, validate(value)]),
          );
          const taken = REPEATS_TAKEN[name] ?? [];
          for (const text of [...REPEATS, ...(layout === 'flexible' ? ESCAPED_REPEATS : [])]) cases.push([text, taken.includes(text)]);
          for (const [text, expected] of cases) {
            const matcher = grammar.matcher();
            const whole = matcher.acceptString(text) && matcher.canTerminate();
            const tokens = feed(grammar, tokenizer.encode(text)) === -1;
            if (whole !== expected || tokens !== expected)
              failures.push(`${vocabularyName} ${layout} ${text}: expected ${expected}, acceptString ${whole}, tokens ${tokens}`);
          }
        }
      }
      expect(failures).toEqual([]);
    },
  );

  it.each(VOCABULARIES)('%s: every mask bit agrees with accept() where a repeated key is one token away', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const plain = compileJsonSchema(SCHEMAS['minProperties 2, any keys'], vocabulary, { layout: 'flexible' });
    const either = compileJsonSchema(SCHEMAS['anyOf with an object that allows repeats (the repeat closes into the other branch)'], vocabulary);
    const disagreements: string[] = [];
    const cleared: number[] = [];
    for (const [grammar, prefix] of [
      [plain, '{"ab":1,"ab'],
      [plain, '{"":1, '],
      [plain, '{"a":1,\n "\\u00'],
      [plain, '{"é":"é", "'],
      [plain, '{"a\\"b":1,"a'],
      [plain, '{"a":{"b":1,"a":2},"b'],
      [either, '{"a":"x","'],
      [either, '{"a":1,"a'],
      // inside a cut escape: a held key one token (`"":`) away, then one too long for any token to finish
      [plain, '{"\\"":1, "\\'],
      [plain, `{"\\u00e9${'x'.repeat(80)}":1, "\\u00e`],
    ] as const) {
      const found = maskAgainstAccept(grammar, vocabulary, prefix);
      disagreements.push(...found.disagreements);
      cleared.push(found.cleared);
    }
    expect(disagreements).toEqual([]);
    // `"`, `":` repeat "ab" after the first prefix, `"":` repeats "" after the second, `"` repeats "a" after the eighth, `"":` repeats `"` after the ninth
    expect(cleared[0]).toBeGreaterThan(0);
    expect(cleared[1]).toBeGreaterThan(0);
    expect(cleared[7]).toBeGreaterThan(0);
    expect(cleared[8]).toBeGreaterThan(0);
  });

  it.each(VOCABULARIES)('%s: random generations end valid, with no dead end and every probed mask bit agreeing with accept()', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const names = ['minProperties 3, string values', 'patternProperties with an endless pattern', 'nested objects (each its own set of keys)'];
    const schemas = Object.fromEntries(names.map((name) => [name, SCHEMAS[name]!]));
    // JSON.parse keeps the last of repeated keys: the text must not repeat one for minProperties to hold
    const check = (text: string): string | undefined => (repeatsKey(text) ? 'repeated key' : undefined);
    expect(randomGenerationProblems(vocabulary, schemas, { seed: 11, runs: 8, randomSteps: 40, validatorOf: registryVerdict, check })).toEqual([]);
  });

  it('refuses a token that closes a repeated key in one go, and clears it from the mask', () => {
    const extra = ['a":', 'a":1}', '"a":', ',"a":', '1,"a":', 'b":1,"a":'];
    const problems = repeatTokenProblems(SCHEMAS['minProperties 2, any keys']!, extra, [
      { prefix: '{"a":1,"', refused: ['a":', 'a":1}', 'b":1,"a":'], allowed: ['a'] },
      { prefix: '{"a":1', refused: [',"a":'], completedBy: ',"ab":2}' },
    ]);
    expect(problems).toEqual([]);
    // a value's string is not a key: "a" may be written there
    expect(compileJsonSchema(SCHEMAS['minProperties 2, any keys']!, byteVocabulary()).matcher().acceptString('{"a":"a","b":"a"}')).toBe(true);
  });

  it('restores the memory of keys on rollback and reset', () => {
    const grammar = compileJsonSchema(SCHEMAS['minProperties 2, any keys'], byteVocabulary());
    const matcher = grammar.matcher();
    expect(matcher.acceptString('{"a":1,')).toBe(true);
    expect(matcher.acceptString('"b":2,')).toBe(true);
    expect(matcher.acceptString('"b"')).toBe(false);
    matcher.rollback(1);
    expect(matcher.acceptString('"b":2}')).toBe(true);
    matcher.rollback(1);
    expect(matcher.acceptString('"a"')).toBe(false);
    matcher.reset();
    expect(matcher.acceptString('{"b":1,"a":2}')).toBe(true);
    expect(matcher.canTerminate()).toBe(true);
  });

  it('keeps a declared key to one use beside the remembered keys, in schema order too', () => {
    const grammar = compileJsonSchema(SCHEMAS['a declared property beside']!, byteVocabulary());
    for (const text of ['{"d":1,"d":2}', '{"d":1,"a":1,"d":2}', '{"a":1,"d":1,"d":2}']) expect(accepts(grammar, text), text).toBe(false);
    expect(accepts(grammar, '{"d":1,"a":1}')).toBe(true);
  });

  it('counts the keys remembered toward uniqueItemsMaxStringBytes', () => {
    const grammar = compileJsonSchema(SCHEMAS['minProperties 2, any keys']!, byteVocabulary(), { limits: { uniqueItemsMaxStringBytes: 8 } });
    const matcher = grammar.matcher();
    expect(matcher.acceptString('{"abcd":1,"efgh":2')).toBe(true);
    expect(() => matcher.acceptString(',"i":3')).toThrow(DecodingLimitError);
    matcher.reset();
    expect(accepts(grammar, '{"abcd":1,"efgh":2}')).toBe(true);
  });

  it('keeps objects without minProperties above 1 as they were: no memory, a repeated key passes', () => {
    const grammar = compileJsonSchema({ type: 'object', minProperties: 1 }, byteVocabulary());
    expect(grammar.automaton.tracksStrings).toBe(false);
    const matcher = grammar.matcher();
    expect(matcher.acceptString('{"a":1,"a":2}') && matcher.canTerminate()).toBe(true);
  });

  it.each([
    [
      'propertyNames with a maxLength, a declared property beside',
      { type: 'object', properties: { d: {} }, minProperties: 2, propertyNames: { maxLength: 3 } },
    ],
    [
      'a finite pattern, a declared property beside',
      { type: 'object', properties: { d: {} }, minProperties: 2, patternProperties: { '^(a|b)$': {} }, additionalProperties: false },
    ],
    ['one key class of two finite', { type: 'object', minProperties: 2, patternProperties: { '^x$': { type: 'integer' } } }],
  ])('refuses minProperties 2 beside undeclared keys with %s (the keys of one language alone are counted: exhaustible-keys.test.ts)', (_name, schema) => {
    const error = refusalOf(schema);
    expect(error.keyword).toBe('minProperties');
  });
});

function accepts(grammar: CompiledGrammar, text: string): boolean {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}
