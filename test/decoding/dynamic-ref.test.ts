/**
 * `$dynamicRef` and `$recursiveRef` under Qwen3's vocabulary: for each schema the engine compiles, every listed value is
 * accepted by the mask (whole text, and token by token with Qwen3's own tokenization, then EOS) exactly when the
 * registry's Ajv accepts it, and random masked generations end Ajv-valid with no dead end. The engine resolves a dynamic
 * reference only where the registry's Ajv and the specification agree; the schemas where Ajv departs from the
 * specification are refused, and the Ajv verdicts that make them so are pinned here, so a change in Ajv shows up.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError, type CompiledGrammar, type Vocabulary } from '../../src/decoding/index.js';
import { DEFAULT_DECODING_LIMITS } from '../../src/decoding/decoding-limits.js';

const MAX_DYNAMIC_SPECIALIZATIONS = DEFAULT_DECODING_LIMITS.maxDynamicSpecializations;
import { SchemaCompileError } from '../../src/shared/errors.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { createRandom, feed, generate } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

/** The specification's extensible tree: `$dynamicRef: "#node"` inside, rebound by whoever extends it. */
const TREE = {
  $id: 'https://example.com/tree',
  $dynamicAnchor: 'node',
  type: 'object',
  properties: { data: { type: 'integer' }, children: { type: 'array', items: { $dynamicRef: '#node' }, maxItems: 2 } },
};

/** A list whose item type the outer schema sets: `#T` lands on the list's own anchor, then on the outermost one, the root's. */
const LIST = { $id: 'https://example.com/list', $dynamicAnchor: 'T', type: 'array', items: { $dynamicRef: '#T' }, maxItems: 3 };

interface Case {
  readonly name: string;
  readonly schema: Record<string, unknown>;
  readonly values: readonly unknown[];
}

const CASES: readonly Case[] = [
  {
    name: 'strict-tree: the extension binds #node to itself, so unevaluatedProperties reaches every level',
    schema: { $id: 'https://example.com/strict-tree', $dynamicAnchor: 'node', $ref: 'tree', unevaluatedProperties: false, $defs: { tree: TREE } },
    values: [
      { data: 1 },
      { children: [{ data: 1 }] },
      { children: [{ daat: 1 }] },
      { daat: 1 },
      { children: [{ children: [{ data: 2, extra: true }] }] },
      { children: [{ children: [{ data: 2 }, {}] }] },
      { children: [{ data: 'x' }] },
    ],
  },
  {
    name: 'the tree alone: #node is the root itself (recursion), extra properties allowed',
    schema: TREE,
    values: [{ data: 1 }, { children: [{ daat: 1 }] }, { children: [{ children: [{ data: 'x' }] }] }, { children: [1] }, { children: [{}, {}, {}] }],
  },
  {
    name: 'generic list, integers: the outer schema sets the item type',
    schema: { $id: 'https://example.com/integers', $dynamicAnchor: 'T', anyOf: [{ type: 'integer', minimum: 0 }, { $ref: 'list' }], $defs: { list: LIST } },
    values: [1, [1, 2], [[3], 4], ['a'], [-1], [1, 2, 3, 4], [[[[]]]], 'a'],
  },
  {
    name: 'generic list, short strings: the same list, another item type',
    schema: { $id: 'https://example.com/strings', $dynamicAnchor: 'T', anyOf: [{ type: 'string', maxLength: 2 }, { $ref: 'list' }], $defs: { list: LIST } },
    values: ['ab', ['ab', ['c']], [1], ['abc'], [[]], 3],
  },
  {
    name: 'a $dynamicRef to a plain $anchor behaves like $ref',
    schema: {
      type: 'object',
      properties: { head: { $ref: '#/$defs/node' } },
      required: ['head'],
      additionalProperties: false,
      $defs: {
        node: {
          $anchor: 'node',
          type: 'object',
          properties: { value: { type: 'integer' }, next: { $dynamicRef: '#node' } },
          required: ['value'],
          additionalProperties: false,
        },
      },
    },
    values: [
      { head: { value: 1 } },
      { head: { value: 1, next: { value: 2 } } },
      { head: { value: 1, next: {} } },
      { head: { value: 1, next: { value: 'x' } } },
      {},
    ],
  },
  {
    name: '$recursiveRef "#" without $recursiveAnchor is a recursive $ref',
    schema: { type: ['integer', 'array'], items: { $recursiveRef: '#' }, maxItems: 2 },
    values: [1, [1, [2]], [[[]]], ['a'], [1, 2, 3], 1.5],
  },
];

/** Schemas where the registry's Ajv departs from the specification: the engine refuses them; `ajv` pins Ajv's verdicts. */
const DEPARTURES: readonly { name: string; schema: Record<string, unknown>; keyword: string; pointer: string; ajv: readonly [unknown, boolean][] }[] = [
  {
    // the specification validates the items against $defs/foo (strings); Ajv never runs that anchor and uses the root
    name: '#name landing on a $dynamicAnchor in $defs',
    schema: { $id: 'https://example.com/root', type: 'array', items: { $dynamicRef: '#items' }, $defs: { foo: { $dynamicAnchor: 'items', type: 'string' } } },
    keyword: '$dynamicRef',
    pointer: '#/items',
    ajv: [
      [['a'], false],
      [[[]], true],
    ],
  },
  {
    // the specification follows the pointer to $defs/s; Ajv calls the function holding the reference (the root)
    name: 'a JSON-pointer fragment',
    schema: { type: ['array', 'number'], items: { $dynamicRef: '#/$defs/s' }, $defs: { s: { type: 'string' } } },
    keyword: '$dynamicRef',
    pointer: '#/items',
    ajv: [
      [[1, [2]], true],
      [['a'], false],
    ],
  },
  {
    // Ajv binds X when the failing first branch runs its anchor, and keeps it for the second branch
    name: 'an anchor that runs in a failing anyOf branch',
    schema: {
      anyOf: [{ type: 'string', properties: { a: { $dynamicAnchor: 'X', type: 'number' } } }, { properties: { b: { $ref: '#/$defs/b' } } }],
      $defs: { b: { items: { $dynamicRef: '#X' } } },
    },
    keyword: '$dynamicRef',
    pointer: '#/$defs/b/items',
    ajv: [
      [{ a: 1, b: ['s'] }, false],
      [{ b: ['s'] }, true],
    ],
  },
  {
    // the root binds T, but the list's function does not declare it: Ajv compiled the list first and uses the list
    name: 'a root anchor and a reference in a $ref target without it',
    schema: {
      $id: 'https://example.com/root',
      $dynamicAnchor: 'T',
      type: ['string', 'array'],
      $ref: 'list',
      $defs: { list: { $id: 'list', type: 'array', items: { $dynamicRef: '#T' } } },
    },
    keyword: '$dynamicRef',
    pointer: '#/$defs/list/items',
    ajv: [
      [['a'], false],
      [[[]], true],
    ],
  },
];

function refusal(schema: unknown, vocabulary: Vocabulary): { keyword: string; pointer: string; message: string } | undefined {
  try {
    compileJsonSchema(schema, vocabulary);
    return undefined;
  } catch (error) {
    if (!(error instanceof UnsupportedSchemaError)) throw error;
    return { keyword: error.keyword, pointer: error.pointer, message: error.message };
  }
}

describe('$dynamicRef and $recursiveRef as the registry resolves them (Qwen3)', () => {
  let vocabulary: Vocabulary;
  let encode: (text: string) => number[];
  beforeAll(() => {
    ({ vocabulary, encode } = loadTestTokenizer('qwen3'));
  });

  const accepts = (grammar: CompiledGrammar, text: string): boolean => {
    const matcher = grammar.matcher();
    return matcher.acceptString(text) && matcher.canTerminate();
  };

  for (const testCase of CASES) {
    it(`${testCase.name}: the mask accepts exactly what the registry accepts`, () => {
      const grammar = compileJsonSchema(testCase.schema, vocabulary);
      const validator = compileSchema(testCase.schema);
      const verdicts = testCase.values.map((value) => {
        const text = JSON.stringify(value);
        const registry = validator.validate(value).success;
        return { text, registry, mask: accepts(grammar, text), tokens: feed(grammar, encode(text)) === -1 };
      });
      for (const verdict of verdicts)
        expect({ text: verdict.text, mask: verdict.mask, tokens: verdict.tokens }).toEqual({
          text: verdict.text,
          mask: verdict.registry,
          tokens: verdict.registry,
        });
      // both verdicts occur, so the comparison is not vacuous
      expect(new Set(verdicts.map((verdict) => verdict.registry))).toEqual(new Set([true, false]));
      const random = createRandom(7);
      for (let run = 0; run < 12; run++) {
        const generation = generate(grammar, random, 4 + run * 3);
        expect(generation.disagreements).toEqual([]);
        expect(validator.validate(JSON.parse(generation.text)).success, generation.text).toBe(true);
      }
    });
  }

  for (const departure of DEPARTURES) {
    it(`refuses ${departure.name}, where the registry's Ajv departs from the specification`, () => {
      const validator = compileSchema(departure.schema);
      for (const [value, verdict] of departure.ajv) expect([value, validator.validate(value).success]).toEqual([value, verdict]);
      expect(refusal(departure.schema, vocabulary)).toMatchObject({ keyword: departure.keyword, pointer: departure.pointer });
    });
  }

  it('refuses a $dynamicRef that is not a "#…" fragment as a schema error, as the registry does', () => {
    const schema = { items: { $dynamicRef: 'https://example.com/other#node' } };
    expect(() => compileSchema(schema)).toThrow(/only supports hash fragment/);
    expect(() => compileJsonSchema(schema, vocabulary)).toThrow(SchemaCompileError);
  });

  it('keeps refusing unevaluatedProperties when a dynamic reference always applies beside it', () => {
    const schema = {
      $dynamicAnchor: 'T',
      type: 'object',
      properties: { d: { $ref: '#/$defs/d' } },
      $defs: { d: { $dynamicAnchor: 'T', properties: { a: { type: 'integer' } }, allOf: [{ $dynamicRef: '#T' }], unevaluatedProperties: false } },
    };
    expect(refusal(schema, vocabulary)).toMatchObject({ keyword: 'unevaluatedProperties', pointer: '#/$defs/d' });
    const grammar = compileJsonSchema(schema, vocabulary, { lenient: true });
    expect(grammar.relaxed.map((relaxed) => relaxed.keyword)).toEqual(['unevaluatedProperties']);
  });

  /**
   * Levels nested `depth` deep, each a $ref target from the root, so level k is compiled once per level above it. Each
   * level is a resource of its own (`$id`): the registry refuses one `$dynamicAnchor` name twice in one resource.
   */
  const nested = (depth: number): Record<string, unknown> => {
    const id = (index: number): string => `https://example.com/level-${index}`;
    let level: Record<string, unknown> = { $id: id(0), $dynamicAnchor: 'T', type: 'object', properties: { t: { $dynamicRef: '#T' } } };
    for (let index = 1; index < depth; index++)
      level = { $id: id(index), $dynamicAnchor: 'T', type: 'object', properties: { a: level, t: { $dynamicRef: '#T' } } };
    const properties: Record<string, unknown> = { leaf: { type: 'integer' } };
    for (let index = 0; index < depth; index++) properties[`l${index}`] = { $ref: `#/$defs/c${'/properties/a'.repeat(index)}` };
    return { $dynamicAnchor: 'T', type: 'object', properties, $defs: { c: level } };
  };

  it(`refuses past ${MAX_DYNAMIC_SPECIALIZATIONS} specialized copies, naming the budget, and compiles the same shape below it`, () => {
    expect(refusal(nested(12), vocabulary)).toBeUndefined();
    const refused = refusal(nested(40), vocabulary);
    expect(refused).toMatchObject({ keyword: '$dynamicRef' });
    expect(refused!.message).toContain(`more than ${MAX_DYNAMIC_SPECIALIZATIONS} copies`);
    expect(refused!.pointer).toMatch(/^#\/\$defs\/c/);
  });
});
