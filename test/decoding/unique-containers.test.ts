/**
 * `uniqueItems: true` over object and array items that constrain nothing but their type (beside endless strings),
 * enforced by the matcher's memory of the items' values (`written-strings.ts`): exhaustively over small arrays of items
 * written in different spellings of equal values (`1`, `1.0`, `10e-1`; `-0` and `0`; keys in either order, a repeated
 * key; `"a"` and `"\u0061"`), under both layouts, on a byte vocabulary and the Qwen3, Llama 3 and Gemma 3 vocabularies,
 * the mask accepts a text exactly when the registry's validator accepts its value; every mask bit agrees with `accept`
 * where a repeat is one token away; no prefix the mask allows is a dead end; random generations end valid; rollback and
 * reset restore the memory; what is still refused is refused.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, DecodingLimitError, UnsupportedSchemaError } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import {
  everyArray,
  maskAgainstAccept,
  maskHas,
  randomGenerationProblems,
  registryVerdict,
  type EncodingVocabulary,
  universeDisagreements,
} from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const OBJECTS = { type: 'array', items: { type: 'object' }, uniqueItems: true };
const ARRAYS = { type: 'array', items: { type: 'array' }, uniqueItems: true };
const MIXED = { type: 'array', items: { type: ['object', 'array', 'string'] }, uniqueItems: true };

const SCHEMAS: Record<string, { schema: Record<string, unknown>; items: readonly string[] }> = {
  objects: {
    schema: OBJECTS,
    items: ['{}', '{"a":1}', '{"a":10e-1}', '{"a":1,"b":2}', '{"b":2,"a":1}', '{"a":2,"a":1}'],
  },
  arrays: { schema: ARRAYS, items: ['[]', '[1]', '[1.0]', '[-0]', '[0]', '["1"]'] },
  'objects, arrays and strings': { schema: MIXED, items: ['{}', '"a"', '"\\u0061"', '{"x":[1]}', '{"x":[1e0]}', '{"x":"\\u0061"}', '{"x":"a"}'] },
  'objects and arrays beside booleans and null (their classes kept in the array set)': {
    schema: { type: 'array', items: { type: ['object', 'array', 'boolean', 'null'] }, uniqueItems: true },
    items: ['{}', '[]', 'true', 'false', 'null', '[null]', '{"a":true}'],
  },
  'minItems 2, nested in an object': {
    schema: { type: 'object', properties: { list: { ...OBJECTS, minItems: 2 } }, required: ['list'], additionalProperties: false },
    items: ['{}', '{"a":null}', '{ "a" : null }', '{"a":false}'],
  },
  'arrays of unique arrays (each inner array its own set)': {
    schema: { type: 'array', items: { type: 'array', items: { type: 'array' } }, uniqueItems: true },
    items: ['[]', '[[]]', '[[1]]', '[[1.0]]', '[true,null]'],
  },
  'an anyOf whose other branch allows repeats (up to 2 items)': {
    schema: { anyOf: [OBJECTS, { type: 'array', items: { type: 'object' }, maxItems: 2 }] },
    items: ['{}', '{"a":1}', '{"a":1.0}'],
  },
};

/** The array of `items` (spellings) written compactly, and in the flexible layout also one item a line. */
function texts(items: readonly string[], flexible: boolean): string[] {
  const compact = `[${items.join(',')}]`;
  if (!flexible) return /\\u| : /.test(compact) ? [] : [compact];
  return [compact, `[\n  ${items.join(',\n  ')}\n]`];
}

function wrapped(name: string, items: readonly string[]): string[] {
  const text = texts(items, false)[0] ?? `[${items.join(',')}]`;
  return name.startsWith('minItems') ? [`{"list":${text}}`] : [text];
}

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

/** The bytes the dead-end walk follows (every allowed byte is checked, these are walked on). */
const WALKED = '[]{}",:a0 tfn';

describe('uniqueItems over objects and arrays', () => {
  const tokenizers = new Map<string, EncodingVocabulary>(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));
  const bytes = byteVocabulary();
  tokenizers.set('bytes', { vocabulary: bytes, encode: (text) => [...new TextEncoder().encode(text)] });

  it.each(Object.keys(SCHEMAS))('%s: the mask accepts exactly what the registry accepts (both layouts, bytes and three vocabularies)', (name) => {
    const { schema, items } = SCHEMAS[name]!;
    const nested = name.startsWith('minItems');
    const universe = everyArray(items, 3);
    const validate = registryVerdict(schema);
    const textsOf = (value: unknown, flexible: boolean): string[] => texts(value as string[], flexible).map((text) => (nested ? `{"list":${text}}` : text));
    const failures = universeDisagreements(schema, undefined, tokenizers, universe, textsOf, (value) =>
      validate(JSON.parse(wrapped(name, value as string[])[0]!)),
    );
    expect(failures).toEqual([]);
    // the universe holds repeats that the registry refuses and the mask must too
    expect(universe.some((value) => !validate(JSON.parse(wrapped(name, value)[0]!)))).toBe(true);
  });

  it.each([...VOCABULARIES, 'bytes'])('%s: every mask bit agrees with accept() where a repeat is one token away', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const objects = compileJsonSchema(OBJECTS, vocabulary, { layout: 'flexible' });
    const arrays = compileJsonSchema(ARRAYS, vocabulary);
    const mixed = compileJsonSchema(MIXED, vocabulary, { layout: 'flexible' });
    const cleared: number[] = [];
    const disagreements: string[] = [];
    for (const [grammar, prefix] of [
      [objects, '[{"a":1},{"a":1.0'],
      [objects, '[{"b":2,"a":1}, {"a":1,"b":2'],
      [objects, '[{}, {'],
      [arrays, '[[1],[1e0'],
      [arrays, '[[],['],
      [arrays, '[[[0]],[[-0]'],
      [mixed, '["a",{},[],"\\u0061'],
      [mixed, '[{"x":"\\u0061"},{"x":"a"'],
    ] as const) {
      const found = maskAgainstAccept(grammar, vocabulary, prefix);
      disagreements.push(...found.disagreements);
      cleared.push(found.cleared);
    }
    // inside a string only a token that closes it before its `}` closes the item (a byte vocabulary has none); after a
    // backslash the first byte is escaped, a quote there being content
    for (const prefix of ['[{"x":"a}"},{"x":"a}', '[{"x":"\\""},{"x":"\\']) disagreements.push(...maskAgainstAccept(mixed, vocabulary, prefix).disagreements);
    expect(disagreements).toEqual([]);
    // each prefix is one close from a held item: the tokens that close it there are cleared
    expect(cleared.every((count) => count > 0)).toBe(true);
  });

  it('leaves no dead end: every text the byte mask allows after held items (5 bytes of a small alphabet) can go on, and agrees with accept()', () => {
    const problems: string[] = [];
    for (const [schema, prefix] of [
      [ARRAYS, '[[],[1],[[]],'],
      [OBJECTS, '[{},{"":0},'],
      [MIXED, '["",{},[],'],
      // every literal held: `t`, `f` and `n` would lead only to held values
      [{ type: 'array', items: { type: ['object', 'array', 'boolean', 'null'] }, uniqueItems: true }, '[true,false,null,{},'],
    ] as const) {
      const grammar = compileJsonSchema(schema, bytes);
      const walk = (text: string, depth: number): void => {
        const matcher = grammar.matcher();
        if (!matcher.acceptString(text)) return void problems.push(`${text}: refused`);
        const mask = new Uint32Array(bytes.maskWords);
        matcher.fillMask(mask);
        let any = false;
        for (let byte = 0; byte < 256; byte++) {
          if (!maskHas(mask, byte)) continue;
          any = true;
          if (depth > 0 && WALKED.includes(String.fromCharCode(byte))) walk(text + String.fromCharCode(byte), depth - 1);
        }
        if (!any && !matcher.canTerminate()) problems.push(`${text}: dead end`);
      };
      walk(prefix, 5);
    }
    expect(problems).toEqual([]);
    // the literals' classes: once held, their first byte is refused
    const literals = compileJsonSchema({ type: 'array', items: { type: ['object', 'boolean', 'null'] }, uniqueItems: true }, bytes).matcher();
    expect(literals.acceptString('[true,{},null,')).toBe(true);
    const mask = new Uint32Array(bytes.maskWords);
    literals.fillMask(mask);
    expect(['t', 'f', 'n', '{'].map((text) => maskHas(mask, text.charCodeAt(0)))).toEqual([false, true, false, true]);
  });

  it('offers an item only where a member fits under maxDepth, so an empty one held leaves no dead end', () => {
    // maxDepth 3: the items at depth 2 hold values at depth 3
    const grammar = compileJsonSchema(ARRAYS, bytes, { maxDepth: 3 });
    const accepts = (text: string): boolean => {
      const matcher = grammar.matcher();
      return matcher.acceptString(text) && matcher.canTerminate();
    };
    expect(accepts('[[],[1],[2]]')).toBe(true);
    expect(accepts('[[1],[1.0]]')).toBe(false);
    expect(accepts('[[],[]]')).toBe(false);
    expect(accepts('[[[]]]')).toBe(true);
    // one level deeper an item would fit only empty: not offered there (the documented narrowing)
    const deeper = compileJsonSchema({ type: 'array', items: ARRAYS }, bytes, { maxDepth: 3 });
    const matcher = deeper.matcher();
    expect(matcher.acceptString('[[')).toBe(true);
    expect(matcher.acceptString('[')).toBe(false);
    expect(matcher.acceptString(']]')).toBe(true);
    // without uniqueItems the same depth takes an empty array
    expect(
      compileJsonSchema({ type: 'array', items: { type: 'array', items: { type: 'array' } } }, bytes, { maxDepth: 3 })
        .matcher()
        .acceptString('[[[]]]'),
    ).toBe(true);
  });

  it.each(VOCABULARIES)('%s: random generations end valid, with no dead end and every probed mask bit agreeing with accept()', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const schemas = {
      'objects, minItems 4': { ...OBJECTS, minItems: 4 },
      'arrays, minItems 4': { ...ARRAYS, minItems: 4 },
      mixed: { ...MIXED, minItems: 3 },
    };
    expect(randomGenerationProblems(vocabulary, schemas, { seed: 11, runs: 6, randomSteps: 40, validatorOf: registryVerdict })).toEqual([]);
  });

  it('refuses a token that closes a repeated item in one go, and a token that writes two equal items', () => {
    const vocabulary = byteVocabulary(['}', '{}', '{},{}', '[],[]', '1}', '},{}']);
    const grammar = compileJsonSchema(MIXED, vocabulary);
    const idOf = (text: string): number => 256 + ['}', '{}', '{},{}', '[],[]', '1}', '},{}'].indexOf(text);
    const mask = new Uint32Array(vocabulary.maskWords);
    const refusedAfter = (prefix: string, token: string): boolean => {
      const matcher = grammar.matcher();
      expect(matcher.acceptString(prefix)).toBe(true);
      matcher.fillMask(mask);
      const refused = !maskHas(mask, idOf(token));
      expect(matcher.accept(idOf(token))).toBe(!refused);
      return refused;
    };
    expect(refusedAfter('[{"a":1},{"a":', '1}')).toBe(true);
    expect(refusedAfter('[{"a":2},{"a":', '1}')).toBe(false);
    expect(refusedAfter('[', '{},{}')).toBe(true);
    expect(refusedAfter('[', '[],[]')).toBe(true);
    expect(refusedAfter('[{},', '{}')).toBe(true);
    expect(refusedAfter('[[],', '{}')).toBe(false);
    expect(refusedAfter('[{"a":[]', '},{}')).toBe(false);
    expect(refusedAfter('[{},{"a":[]', '},{}')).toBe(true);
  });

  it('restores the memory on rollback and reset', () => {
    const grammar = compileJsonSchema(MIXED, bytes);
    const matcher = grammar.matcher();
    expect(matcher.acceptString('[{"a":[1]},')).toBe(true);
    expect(matcher.acceptString('{"b":1},')).toBe(true);
    expect(matcher.acceptString('{"b":1.0}')).toBe(false);
    expect(matcher.acceptString('{"a":[1.0]}')).toBe(false);
    // undoing `{"b":1},` forgets that item (and where its `{` opened), not the one before
    matcher.rollback(1);
    expect(matcher.acceptString('{"a":[1.0]}')).toBe(false);
    expect(matcher.acceptString('{"b":1.0},')).toBe(true);
    expect(matcher.acceptString('{"b":1}')).toBe(false);
    matcher.rollback(1);
    expect(matcher.acceptString('{"b":')).toBe(true);
    matcher.rollback(1);
    expect(matcher.acceptString('[1],{"b":1}]')).toBe(true);
    matcher.reset();
    expect(matcher.acceptString('[{"b":1},{"a":[1]}]')).toBe(true);
    expect(matcher.canTerminate()).toBe(true);
  });

  it('counts the canonical text of the items remembered toward uniqueItemsMaxStringBytes', () => {
    const grammar = compileJsonSchema(ARRAYS, bytes, { limits: { uniqueItemsMaxStringBytes: 8 } });
    const matcher = grammar.matcher();
    // `[1.00]` is remembered as `[1]` (3 bytes), then `[2,3]` (5): 8 in all, and one more item passes the limit
    expect(matcher.acceptString('[[1.00],[2,3]')).toBe(true);
    expect(() => matcher.acceptString(',[]')).toThrow(DecodingLimitError);
    matcher.reset();
    expect(matcher.acceptString('[[1.00],[2,3]]') && matcher.canTerminate()).toBe(true);
  });

  it.each([
    [
      'literals past the set limits beside objects',
      { type: 'array', items: { anyOf: [{ type: 'object' }, { enum: Array.from({ length: 31 }, (_, n) => n) }] }, uniqueItems: true },
    ],
    ['objects with maxProperties', { type: 'array', items: { type: 'object', maxProperties: 2 }, uniqueItems: true }],
    // closed objects whose every value is an endless string are remembered (unique-closed-objects.test.ts)
    [
      'closed objects with a boolean value',
      { type: 'array', items: { type: 'object', properties: { a: { type: 'boolean' } }, additionalProperties: false }, uniqueItems: true },
    ],
    ['closed objects with no key (`{}` alone)', { type: 'array', items: { type: 'object', additionalProperties: false }, uniqueItems: true }],
    ['arrays with maxItems', { type: 'array', items: { type: 'array', maxItems: 1 }, uniqueItems: true }],
    // the inner arrays' own uniqueItems is settled after the outer array looks at them
    ['arrays with uniqueItems of their own', { type: 'array', items: { type: 'array', items: { type: 'string' }, uniqueItems: true }, uniqueItems: true }],
    ['strings that can run out beside objects', { type: 'array', items: { type: ['object', 'string'], maxLength: 1 }, uniqueItems: true }],
    ['contains beside', { type: 'array', items: { type: 'object' }, uniqueItems: true, contains: { required: ['a'] } }],
    // endless objects at every position are remembered beside prefixItems (unique-prefix-items.test.ts); objects that can run out are not
    [
      'objects with maxProperties beside prefixItems',
      { type: 'array', prefixItems: [{ type: 'object', maxProperties: 2 }], items: { type: 'object' }, uniqueItems: true },
    ],
  ])('still refuses %s', (_name, schema) => {
    let error: unknown;
    try {
      compileJsonSchema(schema, bytes);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    expect((error as UnsupportedSchemaError).keyword).toBe('uniqueItems');
  });
});
