/**
 * `uniqueItems: true` beside `prefixItems` (and draft 2019's array `items` with `additionalItems`): each position a
 * finite set of literals, whose value classes the array frame keeps whatever the position that writes them, or items
 * the matcher's memory remembers that never run out (endless strings and containers, integers or numbers with no
 * range), with null and boolean literals beside them. The reachable (items, set written) states are searched at
 * compile time, so a class is offered only where some completion still closes the array (`minItems`, a position
 * whose every value is written).
 *
 * Exhaustively over small arrays, under both layouts, on a byte vocabulary and the Qwen3, Llama 3 and Gemma 3
 * vocabularies, whole and token by token, the mask accepts a text exactly when the registry accepts it (of the integers
 * the engine offers); byte walks find no dead end; what is still refused is refused, and says "beside prefixItems".
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import {
  byteWalkProblems,
  everyArray,
  prefixWalkProblems,
  refusalOf,
  registryVerdict,
  type EncodingVocabulary,
  universeDisagreements,
  arrayLayouts,
  acceptsWhole,
} from './generation.js';
import { upgradeSchemaDialect } from '../../src/shared/json-schema/upgrade-schema-dialect.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const tuple = (prefixItems: unknown[], more: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'array',
  prefixItems,
  uniqueItems: true,
  ...more,
});
const BOOLEAN = { type: 'boolean' };
/** The JSON-Schema-Test-Suite's `uniqueItems.json#1` and `#2`. */
const SUITE_OPEN = { prefixItems: [BOOLEAN, BOOLEAN], uniqueItems: true };
const SUITE_CLOSED = { prefixItems: [BOOLEAN, BOOLEAN], uniqueItems: true, items: false };
/** Writing 1 or 2 first leaves positions 1 and 2 one value short: only 3 may open the array. */
const LAST_VALUE_FIRST = tuple([{ enum: [1, 2, 3] }, { enum: [1, 2] }, { enum: [1, 2] }], { items: false, minItems: 3 });
/** `[null, false]` leaves the rest items (null, false) nothing: a third item is required. */
const REST_RUNS_OUT = tuple([{ enum: [true, false, null] }, BOOLEAN], { items: { enum: [null, false] }, minItems: 3 });
const REST_LITERALS = tuple([{ enum: ['a', 'b'] }], { items: { enum: ['a', 'c'] } });
const DRAFT_2019 = {
  $schema: 'https://json-schema.org/draft/2019-09/schema',
  type: 'array',
  items: [{ enum: [1, 2] }, { enum: [2, 3] }],
  additionalItems: { enum: [1, 3] },
  uniqueItems: true,
};
const STRING_PAIR = tuple([{ type: 'string' }, { type: 'string' }], { items: false });
const STRINGS_REST = tuple([{ type: 'string' }], { items: { type: 'string' }, maxItems: 3 });
const INTEGER_PAIR = tuple([{ type: 'integer' }, { type: 'integer' }], { items: false });
const LITERALS_THEN_STRINGS = tuple([{ enum: [null, true] }, { enum: [null, true] }], { items: { type: 'string' }, minItems: 2 });

/** An item the engine offers as an integer with no range: no fraction nor exponent (`-0` included, the same value as `0`). */
function integerOffered(item: string): boolean {
  return !/^-?\d/.test(item) || /^-?(0|[1-9]\d*)$/.test(item);
}

const SCHEMAS: Record<string, { schema: Record<string, unknown>; items: readonly string[]; most: number; offered?: (item: string) => boolean }> = {
  'two booleans, then any value (the suite)': { schema: SUITE_OPEN, items: ['true', 'false', 'null', '1', '"a"', '{}'], most: 3 },
  'two booleans, items false (the suite)': { schema: SUITE_CLOSED, items: ['true', 'false', 'null'], most: 3 },
  'an enum whose last value must come first (minItems 3)': { schema: LAST_VALUE_FIRST, items: ['1', '2', '3', 'null'], most: 3 },
  'rest items that run out (minItems 3)': { schema: REST_RUNS_OUT, items: ['true', 'false', 'null'], most: 4 },
  'literal strings, then other literal strings': { schema: REST_LITERALS, items: ['"a"', '"b"', '"c"', '1'], most: 3 },
  'draft 2019 items array and additionalItems': { schema: DRAFT_2019, items: ['1', '2', '3'], most: 4 },
  'a pair of strings': { schema: STRING_PAIR, items: ['"a"', '""', '"b"', '1'], most: 3 },
  'a string, then strings (maxItems 3)': { schema: STRINGS_REST, items: ['"a"', '"b"', '""'], most: 4 },
  'a pair of integers': { schema: INTEGER_PAIR, items: ['1', '2', '-0', '0', '1.0'], most: 3, offered: integerOffered },
  'a pair of objects': { schema: tuple([{ type: 'object' }, { type: 'object' }], { items: false }), items: ['{}', '{"a":1}', '{"a":"x"}', '[]'], most: 3 },
  'null or true twice, then strings (minItems 2)': { schema: LITERALS_THEN_STRINGS, items: ['null', 'true', '"a"', '"b"'], most: 3 },
};

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

describe('uniqueItems beside prefixItems', { timeout: 300_000 }, () => {
  const tokenizers = new Map<string, EncodingVocabulary>(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));
  const bytes = byteVocabulary();
  tokenizers.set('bytes', { vocabulary: bytes, encode: (text) => [...new TextEncoder().encode(text)] });

  it.each(Object.keys(SCHEMAS))('%s: the mask accepts exactly what the registry accepts (both layouts, bytes and three vocabularies)', (name) => {
    const { schema, items, most, offered = () => true } = SCHEMAS[name]!;
    const universe = everyArray(items, most);
    // the registry reads 2020-12 only: it judges the schema as the engine reads an older dialect
    const validate = registryVerdict(upgradeSchemaDialect(schema).schema);
    const valueOf = (value: readonly string[]): unknown => JSON.parse(`[${value.join(',')}]`);
    const verdict = (value: unknown): boolean => (value as string[]).every(offered) && validate(valueOf(value as string[]));
    const failures = universeDisagreements(schema, undefined, tokenizers, universe, (value, flexible) => arrayLayouts(value as string[], flexible), verdict);
    expect(failures).toEqual([]);
    // the universe holds arrays the registry refuses (repeats among them), and valid arrays of several items
    expect(universe.some((value) => value.every(offered) && !validate(valueOf(value)))).toBe(true);
    expect(universe.some((value) => value.length > 1 && verdict(value))).toBe(true);
  });

  it('leaves no dead end where a position has every value written (byte walks)', () => {
    const problems: string[] = [];
    // inside the array: the suite's schemas allow any other value at the root
    problems.push(...byteWalkProblems(SUITE_CLOSED, undefined, 16, '['));
    for (const [schema, depth] of [
      [LAST_VALUE_FIRST, 10],
      [REST_RUNS_OUT, 20],
      [REST_LITERALS, 14],
      [tuple([{ enum: [1, 2] }, { enum: [1, 2] }], { items: { enum: [2, 3] }, minItems: 3, maxItems: 4 }), 10],
    ] as const) {
      problems.push(...byteWalkProblems(schema, undefined, depth));
    }
    // the memory's positions: an endless string or integer is always left, and a literal beside them only where the array still closes
    problems.push(...prefixWalkProblems(compileJsonSchema(DRAFT_2019, bytes), '', '123,[]', 10));
    problems.push(...prefixWalkProblems(compileJsonSchema(STRING_PAIR, bytes), '["a",', '"a,]', 5));
    problems.push(...prefixWalkProblems(compileJsonSchema(INTEGER_PAIR, bytes), '[1,', '-01,]', 4));
    problems.push(...prefixWalkProblems(compileJsonSchema(LITERALS_THEN_STRINGS, bytes), '[', 'nul,"a]', 9));
    problems.push(...prefixWalkProblems(compileJsonSchema(SUITE_OPEN, bytes), '[true,', 'fase,]', 10));
    expect(problems).toEqual([]);
    // 1 or 2 first is refused at its byte; 3 first closes
    const matcher = compileJsonSchema(LAST_VALUE_FIRST, bytes).matcher();
    expect(matcher.acceptString('[1')).toBe(false);
    expect(matcher.acceptString('[2')).toBe(false);
    expect(matcher.acceptString('[3,2,1]')).toBe(true);
    // [null, false]: the rest items' values are both written, so false is refused at the second position
    const rest = compileJsonSchema(REST_RUNS_OUT, bytes).matcher();
    expect(rest.acceptString('[null,')).toBe(true);
    expect(rest.acceptString('f')).toBe(false);
    expect(acceptsWhole(REST_RUNS_OUT, '[null,true,false]')).toBe(true);
    // a schema no array can satisfy (positions of 1 and 2 past minItems 3) is no array at all
    expect(acceptsWhole(tuple([{ enum: [1, 2] }, { enum: [1, 2] }], { items: { enum: [1, 2] }, minItems: 3, type: ['array', 'null'] }), 'null')).toBe(true);
    expect(acceptsWhole(tuple([{ enum: [1, 2] }, { enum: [1, 2] }], { items: { enum: [1, 2] }, minItems: 3, type: ['array', 'null'] }), '[1,2')).toBe(false);
  });

  it('refuses what it does not enforce, naming prefixItems and what to do', () => {
    const cases: [Record<string, unknown>, string, Parameters<typeof compileJsonSchema>[2]?][] = [
      [tuple([{ type: 'string', maxLength: 2 }, { type: 'string' }]), 'never run out'],
      [tuple([{ type: 'integer', minimum: 0 }, { type: 'integer' }]), 'never run out'],
      [tuple([{ type: 'integer' }, { type: 'number' }]), 'integers at one position and numbers at another'],
      [tuple([{ enum: [1, 2] }, { type: 'integer' }], { items: false }), 'a literal number (enum/const) at one position'],
      [tuple([{ enum: ['a'] }], { items: { type: 'string' } }), 'a literal string (enum/const) at one position'],
      [tuple([BOOLEAN], { contains: { const: true } }), 'beside prefixItems and contains'],
      [tuple([{ anyOf: [{ const: 1 }, { type: 'object' }] }, BOOLEAN], { items: false }), 'beside objects or arrays alone'],
      [tuple([{ enum: [1, 2, 3] }, { enum: [1, 2, 3] }], { minItems: 2, items: false }), 'limits.uniqueItemsMaxSets', { limits: { uniqueItemsMaxSets: 3 } }],
      [tuple([{ enum: [1, 2, 3] }, { enum: [1, 2, 3] }], { items: false }), 'limits.uniqueItemsMaxValues', { limits: { uniqueItemsMaxValues: 2 } }],
    ];
    for (const [schema, reason, options] of cases) {
      const refusal = refusalOf(schema, options);
      expect([refusal.keyword, refusal.details.includes('beside prefixItems'), refusal.details.includes(reason) ? reason : refusal.details]).toEqual([
        'uniqueItems',
        true,
        reason,
      ]);
    }
  });
});
