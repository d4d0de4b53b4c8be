/**
 * `unevaluatedProperties` beside `patternProperties` (issue #32): the keys a schema's own patterns, or those of a
 * subschema it always applies (`allOf`, an inlined `$ref`), match are evaluated, as the registry's Ajv marks them one by
 * one in a variable of its generated code. That variable follows Ajv's quirks, and the mask follows them too: merged
 * into what was known at compile time it keeps what the `allOf` evaluated where a later `then` fails, and where a failed
 * branch left it undefined, the schema's own patterns alone write into `undefined`, which throws (the registry then
 * refuses the value). Exhaustively over small objects the mask accepts an object's layout text exactly when the registry
 * accepts the object, and no text of an object it refuses. `patternProperties` inside a branch that may fail is refused.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError, type CompiledGrammar } from '../../src/decoding/index.js';
import { compileSchema } from '../../src/tools/schema-validator.js';
import { byteVocabulary } from './byte-vocabulary.js';
import { createRandom, feed, generate } from './generation.js';
import { loadTestTokenizer, type TestTokenizerName } from './test-tokenizer.js';

const CASES: { name: string; schema: Record<string, unknown>; keys: string[] }[] = [
  {
    name: 'patternProperties alone (the suite: unevaluatedProperties with adjacent patternProperties)',
    schema: { patternProperties: { '^foo': { type: 'string' } }, unevaluatedProperties: false },
    keys: ['foo', 'foo1', 'bar', 'fo'],
  },
  {
    name: 'declared properties and extension keys',
    schema: { type: 'object', properties: { a: { type: 'integer' } }, patternProperties: { '^x-': true }, unevaluatedProperties: false },
    keys: ['a', 'x-y', 'x', 'b'],
  },
  {
    name: 'patterns in an allOf part, unevaluatedProperties with a schema',
    schema: { allOf: [{ patternProperties: { '^x': { type: 'integer' } } }], properties: { n1: true }, unevaluatedProperties: { type: 'string' } },
    keys: ['n1', 'x', 'xa', 'b'],
  },
  {
    name: 'patterns through an inlined $ref',
    schema: {
      $defs: { ext: { patternProperties: { '^x-': { type: 'string' } } } },
      $ref: '#/$defs/ext',
      properties: { a: true },
      unevaluatedProperties: false,
    },
    keys: ['a', 'x-y', 'x', 'b'],
  },
  {
    name: 'own patterns beside if/then, no own properties (Ajv throws where the if fails and a pattern matches)',
    schema: { if: { required: ['a'] }, then: { properties: { b: true } }, patternProperties: { '^x': true }, unevaluatedProperties: false },
    keys: ['a', 'b', 'x', 'xa'],
  },
  {
    name: 'own patterns and properties beside if/then',
    schema: {
      if: { required: ['a'] },
      then: { properties: { b: true } },
      properties: { c: true },
      patternProperties: { '^x': true },
      unevaluatedProperties: false,
    },
    keys: ['a', 'b', 'c', 'x'],
  },
  {
    name: 'own patterns beside an anyOf whose branch evaluates everything',
    schema: { anyOf: [{ additionalProperties: { type: 'number' } }, { required: ['a'] }], patternProperties: { '^x': true }, unevaluatedProperties: false },
    keys: ['a', 'x', 'y'],
  },
  {
    name: 'own patterns, if/then and dependentSchemas (the throw, then names merged into the undefined variable)',
    schema: {
      if: { required: ['a'] },
      then: { properties: { b: true } },
      patternProperties: { '^x': true },
      dependentSchemas: { d: { properties: { e: true } } },
      unevaluatedProperties: false,
    },
    keys: ['a', 'b', 'd', 'e', 'x'],
  },
  {
    name: 'allOf patterns kept where a then fails (its variable is merged into, not replaced)',
    schema: { allOf: [{ patternProperties: { '^x': true } }], if: { required: ['a'] }, then: { properties: { b: true } }, unevaluatedProperties: false },
    keys: ['a', 'b', 'x', 'xa'],
  },
  {
    name: 'patterns matching declared names beside a oneOf',
    schema: {
      oneOf: [
        { required: ['a'], properties: { a: true } },
        { required: ['b'], properties: { b: true } },
      ],
      patternProperties: { '^[ab]x': { type: 'integer' } },
      unevaluatedProperties: false,
    },
    keys: ['a', 'b', 'ax', 'bx', 'c'],
  },
];

const VALUES: readonly unknown[] = [1, 's'];

/** Every object of up to two distinct keys from `keys`, each with every value. */
function objects(keys: readonly string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [{}];
  for (const first of keys)
    for (const firstValue of VALUES) {
      out.push({ [first]: firstValue });
      for (const second of keys) if (second !== first) for (const secondValue of VALUES) out.push({ [first]: firstValue, [second]: secondValue });
    }
  return out;
}

/**
 * The registry's verdict. Ajv's code for a schema's own patterns writes `props[key] = true` into a variable a failed
 * branch left undefined, which throws a TypeError: the registry does not accept that value (the tool registry answers
 * `internal_error`), so the mask must refuse it; any other throw fails the test.
 */
function registry(schema: Record<string, unknown>): (value: unknown) => boolean {
  const validator = compileSchema(schema as never);
  return (value) => {
    try {
      return validator.validate(value).success;
    } catch (error) {
      if (error instanceof TypeError && error.message.startsWith('Cannot set properties of undefined')) return false;
      throw error;
    }
  };
}

function accepts(grammar: CompiledGrammar, text: string): boolean {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}

describe('unevaluatedProperties beside patternProperties', () => {
  const vocabulary = byteVocabulary(['{"', '":', ',"', '"}']);

  describe.each(['schema', 'any'] as const)('propertyOrder %s', (propertyOrder) => {
    it.each(CASES.map((testCase) => [testCase.name, testCase] as const))('%s: the mask against the registry on every small object', (_name, testCase) => {
      const valid = registry(testCase.schema);
      const failures: string[] = [];
      let validCount = 0;
      for (const layout of ['compact', 'flexible'] as const) {
        const grammar = compileJsonSchema(testCase.schema, vocabulary, { propertyOrder, layout });
        for (const object of objects(testCase.keys)) {
          if (valid(object)) {
            validCount++;
            const text = grammar.format(object);
            if (text === undefined || !accepts(grammar, text)) failures.push(`valid ${JSON.stringify(object)} rejected in its layout ${text}`);
          } else {
            // any order of its keys: none may pass
            const entries = Object.entries(object);
            for (const order of [entries, [...entries].reverse()]) {
              const text = JSON.stringify(Object.fromEntries(order));
              if (accepts(grammar, text)) failures.push(`INVALID accepted: ${text}`);
            }
          }
        }
      }
      expect(failures.slice(0, 20)).toEqual([]);
      expect(validCount).toBeGreaterThan(0);
    });
  });

  it.each(CASES.map((testCase) => [testCase.name, testCase] as const))(
    '%s: random masked generations end registry-valid, with no dead end and masks agreeing with accept()',
    (name, testCase) => {
      const valid = registry(testCase.schema);
      const failures: string[] = [];
      for (const layout of ['compact', 'flexible'] as const) {
        const grammar = compileJsonSchema(testCase.schema, vocabulary, { layout, maxDepth: 3 });
        const random = createRandom(name.length * 17 + (layout === 'flexible' ? 5 : 0));
        for (let run = 0; run < 30; run++) {
          const generation = generate(grammar, random, Math.floor(random() * 30));
          failures.push(...generation.disagreements);
          if (!valid(JSON.parse(generation.text))) failures.push(`the registry refuses ${generation.text}`);
        }
      }
      expect(failures).toEqual([]);
    },
  );

  it.each(['qwen3', 'llama3', 'gemma3'] as const)('%s: layout texts and refused objects, whole and token by token', (name: TestTokenizerName) => {
    const tokenizer = loadTestTokenizer(name);
    const failures: string[] = [];
    for (const testCase of CASES) {
      const valid = registry(testCase.schema);
      for (const layout of ['compact', 'flexible'] as const) {
        const grammar = compileJsonSchema(testCase.schema, tokenizer.vocabulary, { layout });
        for (const object of objects(testCase.keys)) {
          const expected = valid(object);
          const text = (expected ? grammar.format(object) : undefined) ?? JSON.stringify(object);
          const whole = accepts(grammar, text);
          const tokens = feed(grammar, tokenizer.encode(text)) === -1;
          if (whole !== expected || tokens !== expected)
            failures.push(`${testCase.name} ${layout} ${text}: registry ${expected}, whole ${whole}, tokens ${tokens}`);
        }
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
  });

  it('refuses patternProperties inside a branch that may fail, naming it', () => {
    for (const schema of [
      { anyOf: [{ patternProperties: { '^x': true } }, { required: ['a'] }], unevaluatedProperties: false },
      { if: { patternProperties: { '^x': { type: 'string' } } }, then: { required: ['a'] }, unevaluatedProperties: false },
      { oneOf: [{ allOf: [{ patternProperties: { '^x': true } }] }, { required: ['a'] }], unevaluatedProperties: false },
    ]) {
      expect(() => compileJsonSchema(schema, vocabulary)).toThrow(UnsupportedSchemaError);
      expect(() => compileJsonSchema(schema, vocabulary)).toThrow(/"patternProperties" in the branch at #\/(anyOf\/0|if|oneOf\/0), which may fail/);
      // lenient drops the keyword and says so
      expect(compileJsonSchema(schema, vocabulary, { lenient: true }).relaxed.map((relaxed) => relaxed.keyword)).toContain('unevaluatedProperties');
    }
  });
});
