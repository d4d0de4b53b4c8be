import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, SchemaCompileError } from '../shared/errors.js';
import { byteVocabulary } from '../../test/decoding/byte-vocabulary.js';
import { compileSchema } from '../tools/schema-validator.js';
import { compileJsonSchema, type CompileJsonSchemaOptions } from './compile-json-schema.js';
import type { CompiledGrammar } from './compiled-grammar.js';
import { DecodingLimitError, UnsupportedSchemaError } from './decoding-errors.js';

const vocabulary = byteVocabulary(['{"', '":"', '","', 'name', 'professional']);
const EOS = vocabulary.eosTokenIds[0]!;

function accepts(grammar: CompiledGrammar, text: string): boolean {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}

/** Which of `texts` the schema's grammar accepts as complete values. */
function verdicts(schema: unknown, texts: readonly string[], options: CompileJsonSchemaOptions = {}): Record<string, boolean> {
  const grammar = compileJsonSchema(schema, vocabulary, options);
  return Object.fromEntries(texts.map((text) => [text, accepts(grammar, text)]));
}

const SUBSCRIPTION = {
  type: 'object',
  properties: {
    reason: { type: 'string' },
    user_id: { type: 'string', pattern: '^usr_[a-zA-Z0-9]{20}$' },
    new_plan: { enum: ['starter', 'professional', 'enterprise'] },
    billing_cycle: { enum: ['monthly', 'annual'] },
  },
  required: ['reason', 'user_id', 'new_plan'],
  additionalProperties: false,
};

describe('compileJsonSchema: the compact layout', () => {
  it('accepts properties in schema order, optional ones skipped, and nothing else', () => {
    const id = 'usr_abcdefghij0123456789';
    expect(
      verdicts(SUBSCRIPTION, [
        `{"reason":"x","user_id":"${id}","new_plan":"starter"}`,
        `{"reason":"x","user_id":"${id}","new_plan":"starter","billing_cycle":"annual"}`,
        `{"user_id":"${id}","reason":"x","new_plan":"starter"}`,
        `{"reason":"x","user_id":"${id}"}`,
        `{"reason":"x","user_id":"usr_short","new_plan":"starter"}`,
        `{"reason":"x","user_id":"${id}","new_plan":"basic"}`,
        `{"reason":"x","user_id":"${id}","new_plan":"starter","extra":1}`,
        `{"reason": "x","user_id":"${id}","new_plan":"starter"}`,
      ]),
    ).toEqual({
      [`{"reason":"x","user_id":"${id}","new_plan":"starter"}`]: true,
      [`{"reason":"x","user_id":"${id}","new_plan":"starter","billing_cycle":"annual"}`]: true,
      [`{"user_id":"${id}","reason":"x","new_plan":"starter"}`]: false,
      [`{"reason":"x","user_id":"${id}"}`]: false,
      [`{"reason":"x","user_id":"usr_short","new_plan":"starter"}`]: false,
      [`{"reason":"x","user_id":"${id}","new_plan":"basic"}`]: false,
      [`{"reason":"x","user_id":"${id}","new_plan":"starter","extra":1}`]: false,
      [`{"reason": "x","user_id":"${id}","new_plan":"starter"}`]: false,
    });
  });

  it('formats values in its layout: schema order, compact, plain decimals, JSON.stringify escapes', () => {
    const grammar = compileJsonSchema({ type: 'object', properties: { b: { type: 'number' }, a: { type: 'string' } } }, vocabulary);
    expect(grammar.format({ a: 'é "q"\n\u0001', b: 1e-7, z: [1e21] })).toBe('{"b":0.0000001,"a":"é \\"q\\"\\n\\u0001","z":[1000000000000000000000]}');
    expect(grammar.format({ b: 'not a number' })).toBeUndefined();
    expect(grammar.accepts({ b: 2 })).toBe(true);
  });

  it('lets additional keys differ from every declared name', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: { type: 'string' } };
    expect(verdicts(schema, ['{"a":1,"b":"x"}', '{"b":"x"}', '{"a":"x"}', '{"b":1}', '{"a":1,"a":2}', '{"ab":"x"}', '{"é":"x"}'])).toEqual({
      '{"a":1,"b":"x"}': true,
      '{"b":"x"}': true,
      '{"a":"x"}': false,
      '{"b":1}': false,
      '{"a":1,"a":2}': false,
      '{"ab":"x"}': true,
      '{"é":"x"}': true,
    });
  });

  it('enforces string lengths in code points, patterns and formats', () => {
    expect(verdicts({ type: 'string', minLength: 2, maxLength: 3 }, ['"a"', '"ab"', '"abc"', '"abcd"', '"😀é"', '"😀éa"', '"😀éab"', '"\\n\\t"'])).toEqual({
      '"a"': false,
      '"ab"': true,
      '"abc"': true,
      '"abcd"': false,
      '"😀é"': true,
      '"😀éa"': true,
      '"😀éab"': false,
      '"\\n\\t"': true,
    });
    expect(verdicts({ type: 'string', format: 'email', maxLength: 12 }, ['"a@b.co"', '"a@b"', '"@b.co"', '"abcdefg@b.co"', '"A.B@Ex.ORG"'])).toEqual({
      '"a@b.co"': true,
      '"a@b"': false,
      '"@b.co"': false,
      '"abcdefg@b.co"': true,
      '"A.B@Ex.ORG"': true,
    });
    expect(
      verdicts({ type: 'string', format: 'date' }, ['"2024-02-29"', '"2023-02-29"', '"2000-02-29"', '"1900-02-29"', '"2024-04-31"', '"2024-12-31"']),
    ).toEqual({
      '"2024-02-29"': true,
      '"2023-02-29"': false,
      '"2000-02-29"': true,
      '"1900-02-29"': false,
      '"2024-04-31"': false,
      '"2024-12-31"': true,
    });
    expect(verdicts({ pattern: 'b+c' }, ['"abbcd"', '"ac"', '1'])).toEqual({ '"abbcd"': true, '"ac"': false, '1': true });
  });

  it('accepts only well-formed UTF-8 inside strings (no overlongs, surrogates or code points past U+10FFFF)', () => {
    const grammar = compileJsonSchema({ type: 'string', maxLength: 5 }, vocabulary);
    const bytesAccepted = (bytes: number[]): boolean => {
      const matcher = grammar.matcher();
      return [0x22, ...bytes, 0x22].every((byte) => matcher.accept(byte)) && matcher.canTerminate();
    };
    expect(
      [
        [0xe0, 0xa0, 0x80],
        [0xe0, 0x85, 0xa0],
        [0xed, 0x9f, 0xbf],
        [0xed, 0xa0, 0x80],
        [0xf0, 0x90, 0x80, 0x80],
        [0xf0, 0x80, 0x80, 0x80],
        [0xf4, 0x8f, 0xbf, 0xbf],
        [0xf4, 0x90, 0x80, 0x80],
        [0xc0, 0x80],
        [0xc3, 0xa9],
      ].map(bytesAccepted),
    ).toEqual([true, false, true, false, true, false, true, false, false, true]);
  });

  it('enforces numeric bounds on plain decimals', () => {
    expect(verdicts({ type: 'integer', minimum: 1, maximum: 50 }, ['0', '1', '50', '51', '7.0', '-3', '01'])).toEqual({
      '0': false,
      '1': true,
      '50': true,
      '51': false,
      '7.0': false,
      '-3': false,
      '01': false,
    });
    expect(verdicts({ type: 'number', exclusiveMinimum: 0, maximum: 1 }, ['0', '0.5', '1', '1.0', '1.01', '-0.1', '1e-3'])).toEqual({
      '0': false,
      '0.5': true,
      '1': true,
      '1.0': true,
      '1.01': false,
      '-0.1': false,
      '1e-3': false,
    });
  });

  it('enforces arrays: prefixItems, items, minItems and maxItems', () => {
    const schema = { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: { type: 'boolean' }, minItems: 1, maxItems: 3 };
    expect(verdicts(schema, ['[]', '["a"]', '["a",1]', '["a",1,true]', '["a",1,true,false]', '[1]', '["a","b"]', '["a",1,]'])).toEqual({
      '[]': false,
      '["a"]': true,
      '["a",1]': true,
      '["a",1,true]': true,
      '["a",1,true,false]': false,
      '[1]': false,
      '["a","b"]': false,
      '["a",1,]': false,
    });
  });

  it('enforces enum and const of any JSON value, type arrays and boolean schemas', () => {
    expect(verdicts({ enum: [1, 'a', null, { x: [true] }] }, ['1', '"a"', 'null', '{"x":[true]}', '{"x":[false]}', '2'])).toEqual({
      '1': true,
      '"a"': true,
      null: true,
      '{"x":[true]}': true,
      '{"x":[false]}': false,
      '2': false,
    });
    expect(verdicts({ type: ['integer', 'null'] }, ['3', 'null', '3.5', '"3"'])).toEqual({ '3': true, null: true, '3.5': false, '"3"': false });
    expect(verdicts({ properties: { a: false, b: true } }, ['{"a":1}', '{"b":[{}]}', '{}'])).toEqual({ '{"a":1}': false, '{"b":[{}]}': true, '{}': true });
  });

  it('keeps the bytes of every anyOf branch that shares a state', () => {
    expect(verdicts({ anyOf: [{ type: 'string' }, { type: 'object' }, { type: 'number' }] }, ['"a b"', '{}', '1 ', '-2.5'])).toEqual({
      '"a b"': true,
      '{}': true,
      '1 ': false,
      '-2.5': true,
    });
    expect(verdicts({ type: 'array', items: { anyOf: [{ enum: ['a b'] }, { type: 'string', maxLength: 1 }] } }, ['["a b"]', '["a"]', '["ab"]'])).toEqual({
      '["a b"]': true,
      '["a"]': true,
      '["ab"]': false,
    });
    expect(
      verdicts(
        {
          anyOf: [
            { type: 'string', maxLength: 1 },
            { type: 'string', pattern: '^a b$' },
          ],
        },
        ['"a b"', '"a"', '"ab"'],
      ),
    ).toEqual({ '"a b"': true, '"a"': true, '"ab"': false });
  });

  it('combines anyOf, disjoint oneOf, allOf and recursive $ref', () => {
    expect(verdicts({ anyOf: [{ type: 'string', maxLength: 1 }, { type: 'integer' }] }, ['"a"', '"ab"', '7'])).toEqual({
      '"a"': true,
      '"ab"': false,
      '7': true,
    });
    expect(verdicts({ oneOf: [{ const: 'a' }, { type: 'integer' }] }, ['"a"', '1', '"b"'])).toEqual({ '"a"': true, '1': true, '"b"': false });
    const merged = { allOf: [{ properties: { a: { type: 'integer' } }, required: ['a'] }, { properties: { a: { minimum: 2 }, b: { type: 'string' } } }] };
    expect(verdicts(merged, ['{"a":2}', '{"a":1}', '{"a":3,"b":"x"}', '{"b":"x"}'])).toEqual({
      '{"a":2}': true,
      '{"a":1}': false,
      '{"a":3,"b":"x"}': true,
      '{"b":"x"}': false,
    });
    const list = {
      $defs: {
        list: {
          type: 'object',
          properties: { head: { type: 'integer' }, tail: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/list' }] } },
          required: ['head', 'tail'],
          additionalProperties: false,
        },
      },
      $ref: '#/$defs/list',
    };
    expect(verdicts(list, ['{"head":1,"tail":null}', '{"head":1,"tail":{"head":2,"tail":null}}', '{"head":1,"tail":{"head":2}}'])).toEqual({
      '{"head":1,"tail":null}': true,
      '{"head":1,"tail":{"head":2,"tail":null}}': true,
      '{"head":1,"tail":{"head":2}}': false,
    });
  });

  it('refuses an unsatisfiable schema', () => {
    expect(() => compileJsonSchema(false, vocabulary)).toThrow(SchemaCompileError);
    expect(() => compileJsonSchema({ allOf: [{ type: 'string' }, { type: 'integer' }] }, vocabulary)).toThrow(/accepts no JSON value/);
  });

  it('refuses a $ref that names no schema as the registry does, lenient or not, and resolves it once the remote schema is passed', () => {
    const schema = { type: 'object', properties: { a: { $ref: 'https://example.com/missing.json' } } };
    expect(() => compileJsonSchema(schema, vocabulary)).toThrow(SchemaCompileError);
    expect(() => compileJsonSchema(schema, vocabulary, { lenient: true })).toThrow(/names no schema in the document/);
    const grammar = compileJsonSchema(schema, vocabulary, { schemas: { 'https://example.com/missing.json': { type: 'integer' } } });
    expect(accepts(grammar, '{"a":1}')).toBe(true);
    expect(accepts(grammar, '{"a":"x"}')).toBe(false);
  });
});

describe('compileJsonSchema: a format ajv-formats does not know', () => {
  it('constrains nothing, as the registry validator ignores it (exact, so nothing is listed as relaxed)', () => {
    const schema = { type: 'object', properties: { version: { type: 'string', format: 'semver' } }, required: ['version'] };
    const grammar = compileJsonSchema(schema, vocabulary);
    expect(grammar.relaxed).toEqual([]);
    for (const version of ['1.2.3', 'not a version', '']) {
      expect(accepts(grammar, JSON.stringify({ version }))).toBe(true);
      expect(compileSchema(schema).validate({ version }).success).toBe(true);
    }
    expect(accepts(grammar, '{"version":1}')).toBe(false);
  });
});

describe('compileJsonSchema: refusals name the keyword and its JSON pointer', () => {
  it.each([
    [{ type: 'array', items: { type: 'number', multipleOf: 0.5 }, uniqueItems: true }, 'uniqueItems', '#'],
    [{ properties: { tags: { patternProperties: { 'x(?=y)': {} } } } }, 'patternProperties', '#/properties/tags/patternProperties/x(?=y)'],
    [{ properties: { id: { type: 'string', pattern: '(?<=a)b' } } }, 'pattern', '#/properties/id'],
    [{ items: { type: 'string', pattern: '\\w(?=a)' } }, 'pattern', '#/items'],
    // the complement of propertyNames beside another key witness on one object
    [{ type: 'object', allOf: [{ not: { propertyNames: { maxLength: 1 } } }, { not: { additionalProperties: { type: 'integer' } } }] }, 'not', '#/allOf/0/not'],
    [
      {
        type: 'object',
        allOf: [
          { not: { additionalProperties: { type: 'string' } } },
          { not: { additionalProperties: false } },
          { not: { additionalProperties: { type: 'integer' } } },
        ],
      },
      'not',
      '#/allOf/2/not',
    ],
    [{ type: 'array', not: { prefixItems: [{}], items: { type: 'string' } } }, 'not', '#/not'],
    [{ type: 'number', multipleOf: 0.3 }, 'multipleOf', '#'],
  ])('%j → %s at %s', (schema, keyword, pointer) => {
    let error: unknown;
    try {
      compileJsonSchema(schema, vocabulary);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    expect({
      keyword: (error as UnsupportedSchemaError).keyword,
      pointer: (error as UnsupportedSchemaError).pointer,
      code: (error as UnsupportedSchemaError).code,
    }).toEqual({
      keyword,
      pointer,
      code: 'TW_UNSUPPORTED_SCHEMA',
    });
  });

  it('relaxes them only when lenient, and lists what it relaxed', () => {
    // unique strings of several alternatives whose union is past its state budget (date-time lowers to several), stay refused
    const schema = {
      type: 'array',
      items: {
        anyOf: [
          { type: 'string', pattern: '(?<=a)b' },
          { type: 'string', format: 'date-time' },
        ],
      },
      uniqueItems: true,
    };
    const grammar = compileJsonSchema(schema, vocabulary, { lenient: true });
    expect(grammar.relaxed.map((entry) => `${entry.keyword} ${entry.pointer}`)).toEqual(['pattern #/items/anyOf/0', 'uniqueItems #']);
    expect(accepts(grammar, '["x","x"]')).toBe(true);
  });

  it('lenient never negates a relaxed schema: not, if and overlapping oneOf around a dropped keyword are dropped too (looser, not stricter)', () => {
    const relaxedInside = [
      { type: 'string', not: { pattern: '(?<=a)b' } },
      { type: 'object', not: { properties: { a: { pattern: '(?<=a)b' } }, required: ['a'] } },
      { if: { type: 'string', pattern: '(?<=a)b' }, then: false },
      {
        oneOf: [
          { type: 'string', pattern: '(?<=a)b' },
          { type: 'string', maxLength: 1 },
        ],
      },
    ];
    const texts = ['"x"', '"(("', '{"a":"x"}'];
    for (const schema of relaxedInside) {
      const grammar = compileJsonSchema(schema, vocabulary, { lenient: true });
      const accepted = texts.filter((text) => accepts(grammar, text));
      expect({ schema, accepted: accepted.filter((text) => text.startsWith('"') || schema.type === 'object') }).toEqual({
        schema,
        accepted: schema.type === 'object' ? ['{"a":"x"}'] : ['"x"', '"(("'],
      });
      // the dropped lookbehind is listed, or the negation around it that went with it
      const relaxed = grammar.relaxed.map((entry) => entry.keyword);
      expect(relaxed.length).toBeGreaterThan(0);
      expect(relaxed.filter((keyword) => !['pattern', 'not', 'if', 'oneOf'].includes(keyword))).toEqual([]);
    }
  });

  it('ignores annotations and unknown keywords (they constrain nothing)', () => {
    expect(verdicts({ type: 'string', title: 't', description: 'd', examples: ['x'], 'x-custom': 1, deprecated: true }, ['"x"'])).toEqual({ '"x"': true });
  });

  it('resolves remote $ref through the schemas option', () => {
    const schemas = { 'https://example.com/id.json': { type: 'string', pattern: '^id_' } };
    expect(verdicts({ properties: { id: { $ref: 'https://example.com/id.json' } } }, ['{"id":"id_1"}', '{"id":"x"}'], { schemas })).toEqual({
      '{"id":"id_1"}': true,
      '{"id":"x"}': false,
    });
  });
});

describe('GrammarMatcher', () => {
  const grammar = compileJsonSchema(SUBSCRIPTION, vocabulary);

  it('allows end-of-sequence only once the value is complete, then nothing', () => {
    const matcher = grammar.matcher();
    const mask = new Uint32Array(vocabulary.maskWords);
    expect(matcher.acceptString('{"reason":"r","user_id":"usr_abcdefghij0123456789","new_plan":"enterprise"')).toBe(true);
    matcher.fillMask(mask);
    expect([(mask[EOS >>> 5]! >>> (EOS & 31)) & 1, matcher.canTerminate(), matcher.accept(EOS)]).toEqual([0, false, false]);
    expect(matcher.acceptString('}')).toBe(true);
    matcher.fillMask(mask);
    expect([(mask[EOS >>> 5]! >>> (EOS & 31)) & 1, matcher.accept(EOS), matcher.isTerminated()]).toEqual([1, true, true]);
    matcher.fillMask(mask);
    expect(mask.every((word) => word === 0)).toBe(true);
    expect(matcher.accept(0x20)).toBe(false);
  });

  it('masks exactly the tokens accept() takes', () => {
    const matcher = grammar.matcher();
    matcher.acceptString('{"reason":"r","user_id":"usr_abcdefghij0123456789","new_plan":"');
    const mask = new Uint32Array(vocabulary.maskWords);
    matcher.fillMask(mask);
    const allowed = [...Array(vocabulary.size).keys()].filter((id) => (mask[id >>> 5]! >>> (id & 31)) & 1);
    expect(allowed.map((id) => vocabulary.tokenText(id))).toEqual(['<0x65>', '<0x70>', '<0x73>', 'professional']);
    for (let id = 0; id < vocabulary.size; id++) {
      const accepted = matcher.accept(id);
      if (accepted) matcher.rollback(1);
      expect([id, accepted]).toEqual([id, allowed.includes(id)]);
    }
  });

  it('rolls back and resets', () => {
    const matcher = grammar.matcher();
    expect(matcher.accept(256)).toBe(true); // the '{"' token
    expect(matcher.acceptString('reason')).toBe(true);
    expect(matcher.stepCount).toBe(2);
    matcher.rollback(1);
    expect(matcher.acceptString('user_id')).toBe(false);
    expect(matcher.acceptString('reason":"')).toBe(true);
    expect(() => matcher.rollback(5)).toThrow(InvalidArgumentError);
    matcher.reset();
    expect([matcher.stepCount, matcher.acceptString('{')]).toEqual([0, true]);
  });

  it('reports the forced continuation (jump-forward)', () => {
    const matcher = grammar.matcher();
    expect(matcher.forcedText()).toBe('{"reason":"');
    matcher.acceptString('{"reason":"x","user_id":"usr_abcdefghij0123456789","new_plan":"p');
    expect(matcher.forcedText()).toBe('rofessional"');
    matcher.acceptString('rofessional"');
    expect(matcher.forcedText()).toBe('');
    const enumOnly = compileJsonSchema(
      { type: 'object', properties: { unit: { const: 'celsius' } }, required: ['unit'], additionalProperties: false },
      vocabulary,
    ).matcher();
    expect(enumOnly.forcedText()).toBe('{"unit":"celsius"}');
  });

  it('refuses a mask buffer that is too short', () => {
    expect(() => grammar.matcher().fillMask(new Uint32Array(2))).toThrow(InvalidArgumentError);
  });

  it('stays in a budget error until reset', () => {
    const small = compileJsonSchema({ type: 'string', maxLength: 200 }, vocabulary, { maxStates: 8 });
    const matcher = small.matcher();
    expect(() => matcher.acceptString('"abcdefghijklmnop')).toThrow(DecodingLimitError);
    expect(() => matcher.fillMask(new Uint32Array(vocabulary.maskWords))).toThrow(DecodingLimitError);
    matcher.reset();
    expect(matcher.acceptString('"a')).toBe(true);
  });
});

describe('compileJsonSchema: flexible layout and depth', () => {
  it('accepts bounded whitespace and model-style escapes only when flexible', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^é/$' } } };
    const texts = ['{"a":"é/"}', '{ "a" : "é/" }', '{\n  "a": "\\u00e9\\/"\n}', `{${' '.repeat(17)}"a":"é/"}`];
    expect(verdicts(schema, texts)).toEqual({ [texts[0]!]: true, [texts[1]!]: false, [texts[2]!]: false, [texts[3]!]: false });
    expect(verdicts(schema, texts, { layout: 'flexible' })).toEqual({ [texts[0]!]: true, [texts[1]!]: true, [texts[2]!]: true, [texts[3]!]: false });
  });

  it('decodes \\uXXXX escapes before checking patterns, lengths and excluded key names (flexible)', () => {
    const texts = ['"\\u0061\\u0062"', '"\\u0031"', '"\\u0061b\\u0063d"', '"\\ud83d\\ude00"', '"\\u00E9"'];
    expect(verdicts({ type: 'string', pattern: '^[a-zé]+$', maxLength: 3 }, texts, { layout: 'flexible' })).toEqual({
      [texts[0]!]: true,
      [texts[1]!]: false,
      [texts[2]!]: false,
      [texts[3]!]: false,
      [texts[4]!]: true,
    });
    const keys = ['{"\\u0061":"x"}', '{"\\u0062":"x"}', '{"a":1,"\\u0061":"x"}'];
    expect(verdicts({ properties: { a: { type: 'integer' } }, additionalProperties: { type: 'string' } }, keys, { layout: 'flexible' })).toEqual({
      [keys[0]!]: false,
      [keys[1]!]: true,
      [keys[2]!]: false,
    });
  });

  it('stops offering values deeper than maxDepth without dead ends', () => {
    const grammar = compileJsonSchema({}, vocabulary, { maxDepth: 3 });
    expect([accepts(grammar, '[[1]]'), accepts(grammar, '[[[]]]'), accepts(grammar, '[[[1]]]')]).toEqual([true, true, false]);
    const matcher = grammar.matcher();
    expect(matcher.acceptString('[[[')).toBe(true);
    const mask = new Uint32Array(vocabulary.maskWords);
    matcher.fillMask(mask);
    const allowed = [...Array(vocabulary.size).keys()].filter((id) => (mask[id >>> 5]! >>> (id & 31)) & 1).map((id) => vocabulary.tokenText(id));
    expect(allowed).toEqual(['<0x5d>']);
  });
});

describe('compileJsonSchema: forms the real-world corpus used to refuse (issue #14)', () => {
  /** Each value's verdict under the mask (compact text) next to the registry's, so a disagreement shows which value. */
  function agreement(schema: Record<string, unknown>, values: readonly unknown[]): { text: string; mask: boolean; registry: boolean }[] {
    const grammar = compileJsonSchema(schema, vocabulary);
    const validator = compileSchema(schema);
    return values.map((value) => {
      // the grammar's layout where it has one (bounded numbers are plain decimals), else as JSON.stringify writes it
      const text = grammar.format(value) ?? JSON.stringify(value);
      return { text, mask: accepts(grammar, text), registry: validator.validate(value).success };
    });
  }
  const disagreements = (rows: ReturnType<typeof agreement>): typeof rows => rows.filter((row) => row.mask !== row.registry);

  it('not of integer: the non-integers, decided on the text as the double it parses to', () => {
    const schema = { type: 'object', properties: { value: { type: 'number', not: { type: 'integer' } }, size: { not: { type: 'integer' }, maximum: 3 } } };
    const values = [
      { value: 1.5 },
      { value: 1 },
      { value: -0.25 },
      { value: 2 ** 52 - 0.5 },
      { size: 2.5 },
      { size: 3 },
      { size: 3.5 },
      { size: 'x' },
      { size: -1e-7 },
    ];
    expect(disagreements(agreement(schema, values))).toEqual([]);
    const grammar = compileJsonSchema(schema, vocabulary);
    // texts that parse to an integer although they carry a fraction
    expect(
      ['{"value":1.0}', '{"value":1.0000000000000001}', '{"value":4503599627370496.5}', '{"value":1e-400}'].filter((text) => accepts(grammar, text)),
    ).toEqual([]);
    expect(['{"value":1.0000000000000003}', '{"value":5e-324}', '{"size":2.9999999999999996}'].filter((text) => !accepts(grammar, text))).toEqual([]);
    // and the other way: an overlapping oneOf of integers and numbers leaves the non-integers to the second branch
    expect(disagreements(agreement({ oneOf: [{ type: 'integer' }, { type: 'number', minimum: 0 }] }, [-1, 0, 0.5, 1, 1.5, -1.5, 'x']))).toEqual([]);
  });

  it('not of array literals: a different length or one differing item', () => {
    const schema = { type: 'array', items: { type: 'string' }, not: { enum: [['deleted'], [], ['a', 'b']] } };
    const rows = agreement(schema, [[], ['deleted'], ['a', 'b'], ['x'], ['deleted', 'x'], ['a'], ['a', 'c'], ['b', 'b'], ['a', 'b', 'c'], ['deletedx'], [1]]);
    expect(disagreements(rows)).toEqual([]);
    expect(rows.filter((row) => row.mask).map((row) => row.text)).toEqual([
      '["x"]',
      '["deleted","x"]',
      '["a"]',
      '["a","c"]',
      '["b","b"]',
      '["a","b","c"]',
      '["deletedx"]',
    ]);
    // nested literals and numbers equal as JSON (1 and 1.0) are the same item
    const nested = { type: 'array', not: { const: [1, [true], 'k'] } };
    expect(
      disagreements(
        agreement(nested, [
          [1, [true], 'k'],
          [1, [false], 'k'],
          [2, [true], 'k'],
          [1, [true], 'j'],
          [1, [true]],
          [1, [true, true], 'k'],
          [1, [true], 'k', 0],
        ]),
      ),
    ).toEqual([]);
    expect(accepts(compileJsonSchema(nested, vocabulary), '[1.0,[true],"k"]')).toBe(false);
    expect(accepts(compileJsonSchema(nested, vocabulary), '[1.5,[true],"k"]')).toBe(true);
    // many excluded literals multiply the alternatives: refused with the count, before the product is built
    const many = { type: 'array', not: { enum: Array.from({ length: 40 }, (_, index) => [index, index + 1, index + 2]) } };
    expect(() => compileJsonSchema(many, vocabulary)).toThrow(/cannot enforce "not" at #\/not: the complement of these literals expands to more than 256/);
  });

  it('not of object literals on a closed object: a missing key, a differing value or a key the literal lacks', () => {
    const schema = {
      type: 'object',
      properties: { type: { type: 'string' }, size: { type: 'integer' } },
      additionalProperties: false,
      not: { enum: [{ type: 'void' }, { type: 'list', size: 2 }] },
    };
    const rows = agreement(schema, [
      {},
      { type: 'void' },
      { type: 'list', size: 2 },
      { type: 'list' },
      { type: 'void', size: 1 },
      { type: 'list', size: 3 },
      { size: 2 },
      { type: 'other' },
    ]);
    expect(disagreements(rows)).toEqual([]);
    expect(rows.filter((row) => !row.mask).map((row) => row.text)).toEqual(['{"type":"void"}', '{"type":"list","size":2}']);
  });

  it('not of object literals on an open object: a key the literal lacks is written last', () => {
    const schema = { type: 'object', properties: { type: { type: 'string' } }, not: { const: { type: 'void' } } };
    const rows = agreement(schema, [{}, { type: 'void' }, { type: 'list' }, { type: 'void', size: 1 }, { size: 1, type: 'void' }, { extra: 'void' }]);
    expect(disagreements(rows)).toEqual([]);
    expect(rows.filter((row) => !row.mask).map((row) => row.text)).toEqual(['{"type":"void"}']);
    // the literal with its own key repeated is the literal (JSON.parse keeps the last value)
    const grammar = compileJsonSchema(schema, vocabulary);
    expect(['{"type":"void","type":"void"}', '{"type":"list","type":"void"}'].filter((text) => accepts(grammar, text))).toEqual([]);
  });

  it('contains of a closed object over open items: an item outside it has an undeclared key, written last', () => {
    const schema = { type: 'array', contains: { type: 'object', additionalProperties: false }, maxContains: 1 };
    const rows = agreement(schema, [[], [{}], [{}, {}], [{ a: 1 }], [{ a: 1 }, {}], [{}, { a: 1 }], [1, {}], [{ a: 1, b: 2 }, {}]]);
    expect(disagreements(rows)).toEqual([]);
    expect(rows.filter((row) => row.mask).map((row) => row.text)).toEqual(['[{}]', '[{"a":1},{}]', '[{},{"a":1}]', '[1,{}]', '[{"a":1,"b":2},{}]']);
  });

  it('not of additionalProperties on an open object: the failing key is the last one, so a repeated key cannot hide it', () => {
    const schema = { type: 'object', properties: { id: { type: 'integer' } }, not: { additionalProperties: { type: 'integer', maximum: 1 } } };
    const rows = agreement(schema, [{}, { id: 5 }, { x: 1 }, { x: 2 }, { id: 1, x: 'a' }, { x: 2, y: 1 }, { y: 1, x: 2 }]);
    expect(disagreements(rows)).toEqual([]);
    // the layout writes a failing key last
    expect(compileJsonSchema(schema, vocabulary).format({ x: 2, y: 1 })).toBe('{"y":1,"x":2}');
    const grammar = compileJsonSchema(schema, vocabulary);
    // {"x":2,"x":1} parses to {"x":1}, which the negated schema accepts
    expect(['{"x":2,"x":1}', '{"x":2,"y":1}', '{"id":1}'].filter((text) => accepts(grammar, text))).toEqual([]);
    expect(['{"x":1,"x":2}', '{"y":1,"x":2}', '{"id":1,"x":"a"}'].filter((text) => !accepts(grammar, text))).toEqual([]);
  });

  it('not of minProperties and maxProperties: a count below or above', () => {
    const closed = { type: 'object', properties: { a: {}, b: {}, c: {} }, additionalProperties: false };
    const values = [{}, { a: 1 }, { a: 1, b: 2 }, { a: 1, b: 2, c: 3 }];
    expect(disagreements(agreement({ ...closed, not: { minProperties: 2 } }, values))).toEqual([]);
    expect(disagreements(agreement({ ...closed, not: { maxProperties: 1 } }, values))).toEqual([]);
    expect(disagreements(agreement({ ...closed, not: { minProperties: 1, maxProperties: 2 } }, values))).toEqual([]);
    expect(agreement({ ...closed, not: { minProperties: 1, maxProperties: 2 } }, values).map((row) => row.mask)).toEqual([true, false, false, true]);
  });

  it('not of patternProperties on a closed object: one of its keys matching a pattern with a value failing it', () => {
    const schema = {
      type: 'object',
      properties: { x1: { type: 'integer' }, x2: { type: 'integer' }, y: { type: 'integer' } },
      additionalProperties: false,
      not: { properties: { x2: { minimum: 0 } }, patternProperties: { '^x': { maximum: 5 } }, additionalProperties: { maximum: 9 } },
    };
    const values = [{}, { x1: 5 }, { x1: 6 }, { x2: -1 }, { x2: 6 }, { x2: 3 }, { y: 9 }, { y: 10 }, { x1: 1, y: 10 }, { x1: 7, x2: 1, y: 1 }];
    const rows = agreement(schema, values);
    expect(disagreements(rows)).toEqual([]);
    expect(rows.filter((row) => row.mask).map((row) => row.text)).toEqual([
      '{"x1":6}',
      '{"x2":-1}',
      '{"x2":6}',
      '{"y":10}',
      '{"x1":1,"y":10}',
      '{"x1":7,"x2":1,"y":1}',
    ]);
    // open: the failing key, any key matching the pattern, is written last
    const open = { type: 'object', not: { patternProperties: { '^x': { maximum: 5 } } } };
    const openRows = agreement(open, [{}, { x1: 5 }, { x1: 6 }, { y: 9 }, { x1: 6, y: 1 }, { y: 1, x1: 6 }, { x1: 6, x2: 1 }]);
    expect(disagreements(openRows)).toEqual([]);
    expect(openRows.filter((row) => row.mask).map((row) => row.text)).toEqual(['{"x1":6}', '{"y":1,"x1":6}', '{"y":1,"x1":6}', '{"x2":1,"x1":6}']);
    expect(accepts(compileJsonSchema(open, vocabulary), '{"x1":6,"x1":5}')).toBe(false);
  });

  it('a oneOf whose branch refers back to it through a property is not a $ref cycle (the disjointness probe gives up instead)', () => {
    const schema = {
      $defs: {
        resource: { oneOf: [{ type: 'string' }, { $ref: '#/$defs/selector' }] },
        selector: {
          oneOf: [
            { type: 'object', properties: { ios: { $ref: '#/$defs/resource' } }, required: ['ios'], additionalProperties: false },
            { type: 'object', properties: { ios: { type: 'string' }, ref: { type: 'string' } }, required: ['ref'], additionalProperties: false },
          ],
        },
      },
      $ref: '#/$defs/resource',
    };
    const rows = agreement(schema, ['x', 1, { ios: 'a' }, { ios: { ios: 'b' } }, { ref: 'r' }, { ios: 'a', ref: 'r' }, { ios: { ref: 'r' } }, { ios: 1 }, {}]);
    expect(disagreements(rows)).toEqual([]);
    expect(rows.filter((row) => !row.mask).map((row) => row.text)).toEqual(['1', '{"ios":1}', '{}']);
  });

  it('a pattern that is not a regex under the u flag fails the schema in the engine exactly where it fails in the registry', () => {
    const sources = [
      '^Agenda\\:[0-9]+$',
      '^[[a-z]*[-]?[a-z]*]*$',
      '^PUBMED:\\{d}',
      "^[\\'#]+$",
      '.*\\{\\{.+}}.*',
      '\\#',
      '^[a-z]+$',
      '^\\{\\}$',
      '[\\]]',
      '^\\d{2}$',
    ];
    const placements = (source: string): Record<string, unknown>[] => [
      { type: 'string', pattern: source },
      { type: 'object', patternProperties: { [source]: { type: 'integer' } } },
      // Ajv compiles what it reaches: definitions through $ref, other subschemas always
      { type: 'string', $defs: { unused: { pattern: source } } },
      { type: 'string', $defs: { used: { pattern: source } }, properties: { a: { $ref: '#/$defs/used' } } },
      {
        oneOf: [
          { type: 'string', pattern: source },
          { type: 'string', maxLength: 1 },
        ],
      },
    ];
    const outcome = (compile: () => unknown): string => {
      try {
        compile();
        return 'compiles';
      } catch (error) {
        return error instanceof SchemaCompileError ? 'SchemaCompileError' : (error as Error).constructor.name;
      }
    };
    const rows = sources.flatMap((source) =>
      placements(source).map((schema) => ({
        schema: JSON.stringify(schema),
        registry: outcome(() => compileSchema(schema)),
        engine: outcome(() => compileJsonSchema(schema, vocabulary)),
        lenient: outcome(() => compileJsonSchema(schema, vocabulary, { lenient: true })),
      })),
    );
    expect(rows.filter((row) => (row.registry === 'SchemaCompileError') !== (row.engine === 'SchemaCompileError') || row.engine !== row.lenient)).toEqual([]);
    expect(rows.filter((row) => row.engine === 'SchemaCompileError').length).toBe(6 * 4);
    expect(rows.filter((row) => row.registry === 'compiles' && row.schema.includes('unused')).length).toBe(sources.length);
    expect(() => compileJsonSchema({ type: 'string', pattern: '^Agenda\\:[0-9]+$' }, vocabulary)).toThrow(
      /not a valid regular expression with the "u" flag[\s\S]*at #\/pattern/,
    );
  });
});
