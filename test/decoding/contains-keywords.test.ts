/**
 * `contains`, `minContains` and `maxContains`, exhaustively over a small universe of arrays: the mask accepts an
 * array's text exactly when Ajv accepts the array, under both layouts (counts at min − 1, min, max and max + 1 are all
 * in the universe). Random masked generations end Ajv-valid with no dead end and every mask bit agreeing with
 * accept(). The forms the engine does not enforce are refused with the keyword and its pointer. Also `unevaluatedItems`
 * over `anyOf`/`oneOf`/`if` branches, whose evaluated items depend on the branch that passes.
 */
import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { useSchemaValidator } from '../../src/tools/validator-kind.js';
import { compileJsonSchema, UnsupportedSchemaError, type CompiledGrammar } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { createRandom, everyArray, generate } from './generation.js';

const SCHEMAS: Record<string, Record<string, unknown>> = {
  'contains (minContains defaults to 1)': { type: 'array', contains: { type: 'number', minimum: 1 } },
  'minContains 2': { type: 'array', contains: { minimum: 1 }, minContains: 2 },
  'maxContains 1': { type: 'array', contains: { type: 'string' }, maxContains: 1 },
  'minContains 2 maxContains 3': { type: 'array', contains: { type: 'number', minimum: 2 }, minContains: 2, maxContains: 3 },
  'minContains 0 with maxContains': { type: 'array', contains: { const: 'a' }, minContains: 0, maxContains: 1 },
  'minContains 0 alone (always satisfied)': { type: 'array', items: { enum: [1, 'a'] }, contains: { const: 'a' }, minContains: 0 },
  'maxContains without contains (ignored)': { type: 'array', maxContains: 0, minContains: 3, items: { type: 'integer' } },
  'minContains above maxContains (no array)': { anyOf: [{ type: 'array', contains: {}, minContains: 2, maxContains: 1 }, { type: 'string' }] },
  'contains true counts items': { type: 'array', contains: true, minContains: 2, maxContains: 3 },
  'contains false': { anyOf: [{ type: 'array', contains: false }, { type: 'string' }] },
  'contains with prefixItems': {
    type: 'array',
    prefixItems: [{ type: 'integer' }, { type: 'string' }],
    items: { type: ['integer', 'null'] },
    contains: { type: 'number', maximum: 1 },
    maxContains: 2,
  },
  'contains with items of another type': { anyOf: [{ type: 'array', items: { type: 'string' }, contains: { type: 'number' } }, { const: 1 }] },
  'contains with minItems and maxItems': { type: 'array', contains: { type: 'null' }, minContains: 2, minItems: 3, maxItems: 4 },
  'contains on the items integers (complement within integers)': {
    type: 'array',
    items: { type: 'integer' },
    contains: { type: 'integer', minimum: 2 },
    maxContains: 1,
  },
  'contains under not': { type: 'array', not: { contains: { type: 'number' }, minContains: 2 } },
  'not contains with maxContains': { type: 'array', not: { contains: { type: 'string' }, maxContains: 1 } },
  'contains under allOf, the same schema twice': {
    allOf: [
      { type: 'array', contains: { $ref: '#/$defs/small' }, minContains: 1 },
      { contains: { $ref: '#/$defs/small' }, maxContains: 2 },
    ],
    $defs: { small: { type: 'number', maximum: 1 } },
  },
  // the inner maxContains keeps the registry off its stale-result path (see the last test)
  'nested contains': { type: 'array', contains: { type: 'array', contains: { const: 1 }, maxContains: 3 }, maxContains: 1 },
  'contains with unevaluatedItems (the registry: every item evaluated)': {
    type: 'array',
    prefixItems: [{ type: 'string' }],
    contains: { type: 'number' },
    unevaluatedItems: false,
  },
  'contains true with unevaluatedItems (skipped by the registry, so nothing evaluated)': { prefixItems: [{}], contains: true, unevaluatedItems: false },
  'not items (some item fails them: a contains of their complement)': { type: 'array', not: { items: { type: 'number' } } },
  'oneOf over items (each branch minus the other)': {
    oneOf: [
      { type: 'array', items: { type: 'number' } },
      { type: 'array', items: { type: ['number', 'null'] } },
    ],
  },
  'contains with uniqueItems over an enum (the set written decides the count)': {
    type: 'array',
    items: { enum: [0, 1, 2, 'a', null] },
    uniqueItems: true,
    contains: { type: 'number', minimum: 1 },
    minContains: 2,
    maxContains: 2,
  },
  'contains with uniqueItems and minItems': { type: 'array', items: { enum: [1, 'a', null, 2] }, uniqueItems: true, contains: { type: 'string' }, minItems: 3 },
  'contains with uniqueItems, minContains beyond the distinct matches (no array)': {
    anyOf: [{ type: 'array', items: { enum: [1, 'a', 1.0] }, uniqueItems: true, contains: { const: 1 }, minContains: 2 }, { const: 'a' }],
  },
  'contains in if': { type: 'array', if: { contains: { const: 'a' } }, then: { maxItems: 2 }, else: { items: { type: 'integer' } } },
  'two contains, overlapping (numbers from 1 match both)': {
    type: 'array',
    allOf: [
      { contains: { type: 'number' }, minContains: 2 },
      { contains: { minimum: 1 }, maxContains: 2 },
    ],
  },
  'two contains, disjoint': { type: 'array', allOf: [{ contains: { type: 'string' } }, { contains: { type: 'null' }, minContains: 2, maxContains: 2 }] },
  'two contains, maxContains 0 on one and minContains 2 on the other, with maxItems': {
    type: 'array',
    allOf: [
      { contains: { type: 'array' }, minContains: 0, maxContains: 0 },
      { contains: { type: 'number' }, minContains: 2 },
    ],
    maxItems: 3,
  },
  'two contains with minItems and maxItems (the last slot must fill the count still missing)': {
    type: 'array',
    minItems: 2,
    maxItems: 3,
    allOf: [{ contains: { type: 'number' }, minContains: 2 }, { contains: { type: 'string' } }],
  },
  'three contains (8 cells, some empty)': {
    type: 'array',
    allOf: [
      { contains: { type: 'number' }, minContains: 2 },
      { contains: { minimum: 1 }, maxContains: 1 },
      { contains: { type: ['null', 'string'] }, minContains: 1, maxContains: 1 },
    ],
  },
  'two contains with prefixItems': {
    type: 'array',
    prefixItems: [{ type: 'integer' }, { type: ['string', 'null'] }],
    items: { type: ['integer', 'null'] },
    allOf: [
      { contains: { type: 'null' }, maxContains: 1 },
      { contains: { minimum: 1 }, minContains: 2 },
    ],
  },
  'two contains with uniqueItems over an enum (the set written decides both counts)': {
    type: 'array',
    items: { enum: [0, 1, 2, 'a', null] },
    uniqueItems: true,
    allOf: [
      { contains: { type: 'number', minimum: 1 }, minContains: 2 },
      { contains: { type: ['string', 'null'] }, maxContains: 1 },
    ],
  },
  'not contains beside a contains': { type: 'array', contains: { type: 'string' }, not: { contains: { type: 'number' }, minContains: 2 } },
  'not items (a contains of their complement) beside a contains': {
    type: 'array',
    not: { items: { type: 'number' } },
    contains: { type: 'number' },
    maxContains: 1,
  },
  'two contains under not (either count out of its bounds)': {
    type: 'array',
    not: {
      allOf: [
        { contains: { type: 'number' }, minContains: 2 },
        { contains: { type: 'string' }, maxContains: 1 },
      ],
    },
  },
  'two contains with unevaluatedItems (the registry: every item evaluated)': {
    type: 'array',
    prefixItems: [{ type: 'string' }],
    allOf: [{ contains: { type: 'number' } }, { contains: { type: 'null' }, maxContains: 1 }],
    unevaluatedItems: false,
  },
  // unevaluatedItems whose evaluated items depend on the branch that passes, as the registry's Ajv tracks them
  'unevaluatedItems over overlapping anyOf branches of prefixItems': {
    type: 'array',
    anyOf: [{ prefixItems: [{ type: 'integer' }] }, { prefixItems: [{}, { type: 'string' }] }],
    unevaluatedItems: false,
  },
  'unevaluatedItems with a schema over oneOf branches of prefixItems': {
    oneOf: [{ prefixItems: [{ const: 0 }, {}] }, { prefixItems: [{ const: 1 }] }],
    unevaluatedItems: { type: 'null' },
  },
  'unevaluatedItems over if/then/else of prefixItems': {
    type: 'array',
    if: { prefixItems: [{ const: 'a' }] },
    then: { prefixItems: [{}, {}] },
    else: { prefixItems: [{}, {}, {}] },
    unevaluatedItems: false,
  },
  'unevaluatedItems: false over an anyOf branch with items (the registry reads its "every item" as the index 1)': {
    anyOf: [{ items: { type: 'integer' } }, { prefixItems: [{ type: 'string' }] }],
    unevaluatedItems: false,
  },
  'unevaluatedItems: false, an allOf with items after anyOf branches of prefixItems (every item, read as the index 1)': {
    type: 'array',
    anyOf: [{ prefixItems: [{}] }, { maxItems: 0 }],
    allOf: [{ items: { type: ['integer', 'string', 'null'] } }],
    unevaluatedItems: false,
  },
  'unevaluatedItems: false over an anyOf branch with contains (every item evaluated, read as the index 1)': {
    type: 'array',
    anyOf: [{ contains: { type: 'number' } }, { maxItems: 1 }],
    unevaluatedItems: false,
  },
  'unevaluatedItems of a type over an anyOf branch with contains (index true: data[true], undefined, fails the type)': {
    type: 'array',
    anyOf: [{ contains: { type: 'number' } }, { maxItems: 1 }],
    unevaluatedItems: { type: 'null' },
  },
  // below not/if the registry checks only the first error and skips contains on arrays too short for the first checked prefixItems entry
  'prefixItems and contains under not (contains skipped on the empty array)': {
    type: 'array',
    not: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' } },
  },
  'prefixItems with a leading always-valid entry and contains under not (skipped up to 1 item)': {
    type: 'array',
    not: { prefixItems: [{}, { type: 'integer' }], contains: { type: 'null' } },
  },
  'prefixItems with minContains under if, then false': {
    type: 'array',
    if: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' }, minContains: 2 },
    then: false,
  },
  'prefixItems with maxContains under not (skipped up to 2 items)': {
    type: 'array',
    not: { prefixItems: [{}, {}, { type: 'integer' }], contains: { type: 'string' }, minContains: 0, maxContains: 1 },
  },
  'prefixItems and contains beside an allOf under not': {
    type: 'array',
    not: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' }, allOf: [{ maxItems: 3 }] },
  },
  'prefixItems and contains under not, in anyOf, under if with then false': {
    type: 'array',
    if: { anyOf: [{ not: { not: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' } } } }, { minItems: 3 }] },
    then: false,
  },
  'prefixItems and contains in separate allOf entries under not (checked in full)': {
    type: 'array',
    not: { allOf: [{ prefixItems: [{ type: 'integer' }] }, { contains: { type: 'null' } }] },
  },
  'prefixItems and contains in a $ref target holding references, under not (a function of its own, checked in full)': {
    type: 'array',
    not: { $ref: '#/$defs/pair' },
    $defs: { pair: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' }, properties: { next: { $ref: '#/$defs/pair' } } } },
  },
};

/** Random generations per schema and layout; `DECODING_STRESS_RUNS=N` raises them. */
const RUNS = Number(process.env.DECODING_STRESS_RUNS ?? 40);

const VALUES: readonly unknown[] = [0, 1, 2, 'a', null, [1], []];

function text(value: unknown, flexible: boolean): string {
  if (!flexible || !Array.isArray(value)) return JSON.stringify(value);
  return value.length === 0 ? '[ ]' : `[\n  ${value.map((item) => text(item, true)).join(' ,\n  ')}\n]`;
}

const accepts = (grammar: CompiledGrammar, value: string): boolean => {
  const matcher = grammar.matcher();
  return matcher.acceptString(value) && matcher.canTerminate();
};

function refusal(schema: unknown): { keyword: string; pointer: string } | undefined {
  try {
    compileJsonSchema(schema, byteVocabulary());
    return undefined;
  } catch (error) {
    if (!(error instanceof UnsupportedSchemaError)) throw error;
    return { keyword: error.keyword, pointer: error.pointer };
  }
}

/** "An object with some undeclared key", recursive through `next`: its complement is not split; its key witness's complement is "every key passes". */
const OPEN_CHAIN = { type: 'object', not: { additionalProperties: false }, properties: { next: { $ref: '#/$defs/open' } } };
/** Arrays of distinct strings: the complement of uniqueItems over strings is not built. */
const UNIQUE_STRINGS = { type: 'array', uniqueItems: true, items: { type: 'string' } };

describe('contains, minContains, maxContains', () => {
  const vocabulary = byteVocabulary(['[1', ',1', 'null', '],']);
  // the registry's validator (allErrors): a bare Ajv stops after a failed prefixItems and skips contains on short arrays
  const registry = (schema: unknown): ((value: unknown) => boolean) => {
    const validator = compileSchema(schema as Record<string, unknown>);
    return (value) => validator.validate(value).success;
  };
  const universe = [...everyArray(VALUES, 4), 'a', 1];
  // the registry where code generation is forbidden, which runs every keyword below not/if
  const interpreterRegistry = (schema: unknown): ((value: unknown) => boolean) => {
    useSchemaValidator('interpreter');
    try {
      return registry(schema);
    } finally {
      useSchemaValidator('auto');
    }
  };

  it.each(Object.keys(SCHEMAS))('%s: the mask accepts exactly what Ajv accepts (both layouts)', (name) => {
    const schema = SCHEMAS[name]!;
    const validate = registry(schema);
    const failures: string[] = [];
    let valid = 0;
    let invalid = 0;
    for (const flexible of [false, true]) {
      const grammar = compileJsonSchema(schema, vocabulary, { layout: flexible ? 'flexible' : 'compact' });
      for (const value of universe) {
        const expected = validate(value);
        if (expected) valid++;
        else invalid++;
        if (accepts(grammar, text(value, flexible)) !== expected)
          failures.push(`${flexible ? 'flexible' : 'compact'} ${JSON.stringify(value)}: Ajv ${expected}`);
      }
    }
    expect(failures).toEqual([]);
    expect(valid).toBeGreaterThan(0);
    expect(invalid).toBeGreaterThan(0);
  });

  it.each(Object.keys(SCHEMAS))('%s: random masked generations end Ajv-valid, with no dead end and masks agreeing with accept()', (name) => {
    const schema = SCHEMAS[name]!;
    const validate = registry(schema);
    const failures: string[] = [];
    for (const flexible of [false, true]) {
      const grammar = compileJsonSchema(schema, vocabulary, { layout: flexible ? 'flexible' : 'compact', maxDepth: 4 });
      const random = createRandom(name.length * 31 + (flexible ? 7 : 0));
      for (let run = 0; run < RUNS; run++) {
        const generation = generate(grammar, random, Math.floor(random() * 40));
        failures.push(...generation.disagreements);
        const value = JSON.parse(generation.text) as unknown;
        if (!validate(value)) failures.push(`Ajv rejects ${generation.text}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('at maxContains, a matching item cannot be started; below minContains with one slot left, only a matching item can', () => {
    const grammar = compileJsonSchema({ type: 'array', contains: { type: 'number' }, minContains: 2, maxContains: 2, maxItems: 3 }, vocabulary);
    const full = grammar.matcher();
    expect(full.acceptString('[1,2,')).toBe(true);
    expect(full.acceptString('3')).toBe(false);
    expect(full.acceptString('"a"]')).toBe(true);
    const short = grammar.matcher();
    expect(short.acceptString('[1,"a",')).toBe(true);
    expect(short.acceptString('"b"')).toBe(false);
    expect(short.acceptString('2]')).toBe(true);
    // count = min − 1 cannot close
    const early = grammar.matcher();
    expect(early.acceptString('[1')).toBe(true);
    expect(early.acceptString(']')).toBe(false);
  });

  it('an array that can never reach minContains within maxItems leaves no array value', () => {
    expect(() => compileJsonSchema({ type: 'array', contains: { type: 'number' }, minContains: 3, maxItems: 2 }, vocabulary)).toThrow(/accepts no JSON value/);
    expect(() => compileJsonSchema({ type: 'array', items: { type: 'string' }, contains: { type: 'number' } }, vocabulary)).toThrow(/accepts no JSON value/);
  });

  it.each([
    [{ type: 'array', contains: { const: 1 }, uniqueItems: true, items: { type: 'integer' } }, 'uniqueItems', '#'],
    // two contains schemas, one with a complement the engine cannot build: the refusal names that one
    [{ type: 'array', allOf: [{ contains: { type: 'string' } }, { contains: UNIQUE_STRINGS }] }, 'contains', '#/allOf/1/contains'],
    // the values that miss arrays of distinct strings: the complement is not built
    [{ type: 'array', contains: UNIQUE_STRINGS }, 'contains', '#/contains'],
    // a contains in a branch that may fail, with unevaluatedItems that has a schema undefined may pass: read as the index true by the registry
    [{ type: 'array', anyOf: [{ contains: { type: 'number' } }, { maxItems: 1 }], unevaluatedItems: { minimum: 0 } }, 'unevaluatedItems', '#'],
    // below not/if the registry skips contains on short arrays, and in a loop of the same compiled function decides by the items before
    [{ type: 'array', items: { not: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' } } } }, 'contains', '#/items/not'],
    [
      { type: 'object', not: { additionalProperties: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' } } } },
      'contains',
      '#/not/additionalProperties',
    ],
    // a $ref target without references is inlined, so it may be reached in both modes: not rewritten
    [{ not: { $ref: '#/$defs/pair' }, $defs: { pair: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' } } } }, 'contains', '#/$defs/pair'],
    // unevaluatedItems reads what contains evaluated: not rewritten
    [{ type: 'array', not: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' }, unevaluatedItems: false } }, 'contains', '#/not'],
    // below oneOf, an if with then and else, or a contains with maxContains (here through a $ref compiled on its own), the
    // skip widens what passes beyond the interpreter registry's verdict or narrows it
    [
      {
        type: 'array',
        contains: { $ref: '#/$defs/f' },
        maxContains: 1,
        $defs: { f: { not: { not: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' } } }, properties: { self: { $ref: '#/$defs/f' } } } },
      },
      'contains',
      '#/$defs/f/not/not',
    ],
    [{ type: 'array', not: { oneOf: [{ prefixItems: [{ type: 'integer' }], contains: { type: 'null' } }, { minItems: 3 }] } }, 'contains', '#/not/oneOf/0'],
    [
      { type: 'array', if: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' } }, then: { maxItems: 1 }, else: { minItems: 2 } },
      'contains',
      '#/if',
    ],
  ])('refuses %j: %s at %s', (schema, keyword, pointer) => {
    expect(refusal(schema)).toEqual({ keyword, pointer });
  });

  it.each([
    { type: 'array', contains: { type: 'object', not: { additionalProperties: false } } },
    { type: 'array', allOf: [{ contains: { type: 'string' } }, { contains: { type: 'object', not: { additionalProperties: false } } }], maxContains: 1 },
    // recursive, so not split: the other values are the difference of the denotations, where ¬"some undeclared key" is "every undeclared key passes"
    { type: 'array', $defs: { open: OPEN_CHAIN }, contains: { $ref: '#/$defs/open' }, maxContains: 1 },
  ])('enforces %j: the complement of "some undeclared key" is "not an object, or a closed one"', (schema) => {
    const validate = registry(schema);
    const grammar = compileJsonSchema(schema, vocabulary);
    const items: unknown[] = [{ a: 1 }, {}, 'a', 1];
    const values: unknown[][] = [[]];
    for (const first of items) for (const second of [undefined, ...items]) values.push(second === undefined ? [first] : [first, second]);
    const disagreements = values.filter((value) => accepts(grammar, grammar.format(value) ?? JSON.stringify(value)) !== validate(value));
    expect(disagreements).toEqual([]);
    expect(values.some(validate)).toBe(true);
    expect(values.every(validate)).toBe(false);
  });

  it('refuses a fifth contains schema on one array, naming limits.containsMaxCells', () => {
    const schema = { type: 'array', allOf: [0, 1, 2, 3, 4].map((value) => ({ contains: { const: value } })) };
    expect(refusal(schema)).toEqual({ keyword: 'contains', pointer: '#/allOf/4' });
    expect(() => compileJsonSchema(schema, vocabulary)).toThrow(/32 cells.*limits\.containsMaxCells \(16\)/);
    // four are within the budget
    expect(refusal({ type: 'array', allOf: [0, 1, 2, 3].map((value) => ({ contains: { const: value } })) })).toBeUndefined();
  });

  it('refuses two counters whose counts make more than limits.containsMaxCountStates states, naming the budget', () => {
    const schema = {
      type: 'array',
      allOf: [
        { contains: { type: 'number' }, maxContains: 100 },
        { contains: { type: 'string' }, minContains: 50, maxContains: 100 },
      ],
    };
    expect(refusal(schema)).toEqual({ keyword: 'contains', pointer: '#/allOf/1' });
    expect(() => compileJsonSchema(schema, vocabulary)).toThrow(/10201 states.*limits\.containsMaxCountStates \(4096\)/);
    // one large counter alone is bounded by the items only; 64 × 64 states fit
    expect(refusal({ type: 'array', contains: { type: 'number' }, maxContains: 10000 })).toBeUndefined();
    const fitting = {
      type: 'array',
      allOf: [
        { contains: { type: 'number' }, maxContains: 63 },
        { contains: { type: 'string' }, maxContains: 63 },
      ],
    };
    expect(refusal(fitting)).toBeUndefined();
  });

  it('two counters: at one maxContains only items that miss it may start; the last slot must fill the other minContains', () => {
    const schema = {
      type: 'array',
      maxItems: 3,
      allOf: [
        { contains: { type: 'string' }, maxContains: 1 },
        { contains: { type: 'number' }, minContains: 1 },
      ],
    };
    const grammar = compileJsonSchema(schema, vocabulary);
    const full = grammar.matcher();
    expect(full.acceptString('["a",')).toBe(true);
    expect(full.acceptString('"b"')).toBe(false);
    expect(full.acceptString('null,')).toBe(true);
    // one slot left and no number yet: only a number
    expect(full.acceptString('null')).toBe(false);
    expect(full.acceptString('1]')).toBe(true);
    const early = grammar.matcher();
    expect(early.acceptString('["a"')).toBe(true);
    expect(early.acceptString(']')).toBe(false);
  });

  it('follows the specification where the registry reuses a stale result: a contains without maxContains inside a loop, on an empty array', () => {
    // Ajv's code for `contains` (minContains 1, no maxContains) leaves its result variable uninitialised, so an empty array
    // after one that passed passes too; the mask is stricter there (never looser), as for required "__proto__"
    const schema = { type: 'array', items: { type: 'array', contains: { const: 1 } } };
    const grammar = compileJsonSchema(schema, vocabulary);
    const validate = registry(schema);
    expect([validate([[1], []]), accepts(grammar, '[[1],[]]')]).toEqual([true, false]);
    expect([validate([[], [1]]), accepts(grammar, '[[],[1]]')]).toEqual([false, false]);
    expect([validate([[1], [2, 1]]), accepts(grammar, '[[1],[2,1]]')]).toEqual([true, true]);
  });

  it('refuses prefixItems with contains below not inside a loop of the same function, where the registry decides by the items before', () => {
    const schema = { type: 'array', items: { not: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' } } } };
    const validate = registry(schema);
    // the empty array is rejected alone (contains skipped) and accepted after [1] (contains run on a stale result)
    expect([validate([[]]), validate([[1], []])]).toEqual([false, true]);
    expect(() => compileJsonSchema(schema, vocabulary)).toThrow(
      /skips "contains" on arrays of at most 0 items.*depends on the items checked before.*separate "allOf" entries/,
    );
    // lenient lists it, and a skip it could have followed elsewhere in the schema too (the document is not rewritten)
    const both = { ...schema, not: { prefixItems: [{}, { type: 'integer' }], contains: { type: 'null' } } };
    const relaxed = compileJsonSchema(both, vocabulary, { lenient: true }).relaxed.map((entry) => `${entry.keyword} ${entry.pointer}`);
    expect(relaxed.sort()).toEqual(['contains #/items/not', 'contains #/not']);
  });

  it.each([
    // below two not, or an if with else only, the skip only widens what Ajv accepts: the mask follows the specification
    { type: 'array', not: { anyOf: [{ not: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' } } }, { minItems: 3 }] } },
    { type: 'array', if: { prefixItems: [{ type: 'integer' }], contains: { type: 'null' } }, else: false },
  ])('%j: the mask accepts what both registries accept (Ajv skips contains on short arrays, the interpreter does not)', (schema) => {
    const ajv = registry(schema);
    const interpreter = interpreterRegistry(schema);
    const grammar = compileJsonSchema(schema, vocabulary);
    const values = everyArray(VALUES, 3);
    expect(values.filter((value) => accepts(grammar, JSON.stringify(value)) !== interpreter(value))).toEqual([]);
    expect(values.filter((value) => accepts(grammar, JSON.stringify(value)) && !ajv(value))).toEqual([]);
    // the registries disagree on the empty array
    expect([ajv([]), interpreter([])]).toEqual([true, false]);
  });

  it('where it follows the skip, the mask accepts nothing the interpreter registry rejects', () => {
    const followed = Object.keys(SCHEMAS).filter((name) => name.startsWith('prefixItems'));
    expect(followed.length).toBeGreaterThan(5);
    for (const name of followed) {
      const schema = SCHEMAS[name]!;
      const interpreter = interpreterRegistry(schema);
      const grammar = compileJsonSchema(schema, vocabulary);
      expect(everyArray(VALUES, 3).filter((value) => accepts(grammar, JSON.stringify(value)) && !interpreter(value))).toEqual([]);
    }
  });

  it('lenient lists what it relaxed and stays looser than the schema', () => {
    // past limits.containsMaxCells the fifth schema is dropped, the first four still counted
    const schema = { type: 'array', allOf: [1, 'a', null, 2, 0].map((value) => ({ contains: { const: value } })) };
    const grammar = compileJsonSchema(schema, vocabulary, { lenient: true });
    expect(grammar.relaxed.map((entry) => `${entry.keyword} ${entry.pointer}`)).toEqual(['contains #/allOf/4']);
    expect(accepts(grammar, '[1,"a",null,2,0]')).toBe(true);
    expect(accepts(grammar, '[1,"a",null,2]')).toBe(true);
    expect(accepts(grammar, '[1,"a",null]')).toBe(false);
    // a split the complement cannot build exactly: the other values stay the whole item schema, so counts only loosen
    const keyed = compileJsonSchema({ type: 'array', contains: UNIQUE_STRINGS, maxContains: 1 }, vocabulary, { lenient: true });
    expect(keyed.relaxed.map((entry) => `${entry.keyword} ${entry.pointer}`)).toEqual(['contains #/contains']);
    expect(['[["a"]]', '[["a"],["b"]]', '["a",["a"]]', '["a"]', '[]'].filter((value) => accepts(keyed, value))).toEqual([
      '[["a"]]',
      '[["a"],["b"]]',
      '["a",["a"]]',
    ]);
  });
});
