/**
 * `uniqueItems: true` over strings, enforced by the matcher's memory of the item strings written (`written-strings.ts`):
 * exhaustively over small arrays of short strings, under both layouts and on the Qwen3, Llama 3 and Gemma 3
 * vocabularies, the mask accepts a text exactly when the registry's validator accepts its value (escaped forms such as
 * `"\u0061"` for `"a"` included); every mask bit agrees with `accept` at states where a repeat is one token away;
 * random generations end valid with no dead end; a token that closes a repeat in one go is refused; rollback and reset
 * restore the memory. Languages whose completions can run out: `exhaustible-strings.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, type CompiledGrammar } from '../../src/decoding/index.js';
import { byteVocabulary } from './byte-vocabulary.js';
import {
  everyArray,
  feed,
  maskAgainstAccept,
  randomGenerationProblems,
  refusalOf,
  registryVerdict,
  repeatTokenProblems,
  universeDisagreements,
} from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const SCHEMAS: Record<string, Record<string, unknown>> = {
  strings: { type: 'array', items: { type: 'string' }, uniqueItems: true },
  'minItems 3 (three distinct items)': { type: 'array', items: { type: 'string' }, uniqueItems: true, minItems: 3 },
  'maxItems 2': { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 2 },
  'pattern with an infinite language': { type: 'array', items: { type: 'string', pattern: '^[ab]+$' }, uniqueItems: true },
  minLength: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true, minItems: 2 },
  'arrays of arrays (each inner array its own set)': {
    type: 'array',
    items: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    maxItems: 3,
  },
  'anyOf with arrays that allow repeats (the repeat closes into the other branch)': {
    anyOf: [
      { type: 'array', items: { type: 'string' }, uniqueItems: true },
      { type: 'array', items: { type: 'string' }, maxItems: 2 },
    ],
  },
  'recursion through $ref': {
    $defs: {
      node: {
        type: 'object',
        properties: { tags: { type: 'array', items: { type: 'string' }, uniqueItems: true }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        additionalProperties: false,
      },
    },
    $ref: '#/$defs/node',
  },
};

const STRINGS = ['', 'a', 'b', 'ab'];

const UNIVERSE: unknown[] = [
  ...everyArray(STRINGS, 3),
  ...everyArray<unknown>([[], ['a'], ['a', 'a'], ['a', 'b']], 2),
  { tags: ['a', 'a'] },
  { tags: ['a', 'b'], children: [{ tags: ['a'] }, { tags: ['b', 'b'] }] },
  { tags: ['a'], children: [{ tags: ['a'], children: [] }] },
  'a',
];

/**
 * The value's texts: compact; in the flexible layout (the one that reads `\uHHHH` escapes) also indented, with every
 * `a` of a value string written `\u0061`, and with only the first `a` of each so written.
 */
function texts(value: unknown, flexible: boolean): string[] {
  const compact = JSON.stringify(value);
  if (!flexible) return [compact];
  const escape = (all: boolean): string =>
    compact.replace(/"([^"]*)"(?!:)/g, (_whole, content: string) => `"${all ? content.replace(/a/g, '\\u0061') : content.replace('a', '\\u0061')}"`);
  return [JSON.stringify(value, null, 1), escape(true), escape(false)];
}

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

describe('uniqueItems over strings', () => {
  const tokenizers = new Map(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));

  it.each(Object.keys(SCHEMAS))('%s: the mask accepts exactly what the registry accepts (both layouts, three vocabularies)', (name) => {
    const schema = SCHEMAS[name]!;
    expect(universeDisagreements(schema, undefined, tokenizers, UNIVERSE, texts, registryVerdict(schema))).toEqual([]);
  });

  it.each(VOCABULARIES)('%s: every mask bit agrees with accept() where a repeat is one token away', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const grammar = compileJsonSchema(SCHEMAS['anyOf with arrays that allow repeats (the repeat closes into the other branch)'], vocabulary);
    const plain = compileJsonSchema(SCHEMAS['strings'], vocabulary, { layout: 'flexible' });
    const disagreements: string[] = [];
    const cleared: number[] = [];
    for (const [which, prefix] of [
      [plain, '["ab","ab'],
      [plain, '["", '],
      [plain, '["a",\n "\\u00'],
      [plain, '["é", "'],
      [plain, '["a\\"b", "a'],
      [grammar, '["a","b","'],
      [grammar, '["a","'],
      // inside a cut escape: a held item one token (`""`) away, then one too long for any token to finish
      [plain, '["\\"", "\\'],
      [plain, `["\\u00e9${'x'.repeat(80)}", "\\u00e`],
    ] as const) {
      const found = maskAgainstAccept(which, vocabulary, prefix);
      disagreements.push(...found.disagreements);
      cleared.push(found.cleared);
    }
    expect(disagreements).toEqual([]);
    // `"`, `",` and `"]` repeat "ab" after the first prefix, `""` repeats "" after the second,
    // `""` (an escaped quote, then the close) repeats `"` after the eighth
    expect(cleared[0]).toBeGreaterThan(0);
    expect(cleared[1]).toBeGreaterThan(0);
    expect(cleared[7]).toBeGreaterThan(0);
  });

  it.each(VOCABULARIES)('%s: random generations end valid, with no dead end and every probed mask bit agreeing with accept()', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const names = ['minItems 3 (three distinct items)', 'pattern with an infinite language', 'arrays of arrays (each inner array its own set)'];
    const schemas = Object.fromEntries(names.map((name) => [name, SCHEMAS[name]!]));
    expect(randomGenerationProblems(vocabulary, schemas, { seed: 7, runs: 8, randomSteps: 40, validatorOf: registryVerdict })).toEqual([]);
  });

  it("compiles GitHub's create_issue (assignees: unique strings) and generates valid calls on Qwen3", () => {
    const fixture = JSON.parse(readFileSync('test/fixtures/third-party/mcp-tools.json', 'utf8')) as {
      servers: { tools: { name: string; inputSchema: Record<string, unknown> }[] }[];
    };
    const schema = fixture.servers.flatMap((server) => server.tools).find((tool) => tool.name === 'create_issue')!.inputSchema;
    expect(schema.properties).toMatchObject({ assignees: { type: 'array', items: { type: 'string' }, uniqueItems: true } });
    const { vocabulary, encode } = tokenizers.get('qwen3')!;
    const grammar = compileJsonSchema(schema, vocabulary);
    const call = { repo: { owner: 'o', name: 'n' }, title: 't', assignees: ['ann', 'bob'] };
    expect(feed(grammar, encode(JSON.stringify(call)))).toBe(-1);
    expect(feed(grammar, encode(JSON.stringify({ ...call, assignees: ['ann', 'ann'] })))).not.toBe(-1);
    expect(randomGenerationProblems(vocabulary, { create_issue: schema }, { seed: 3, runs: 6, randomSteps: 60, validatorOf: registryVerdict })).toEqual([]);
  });

  it('refuses a token that closes a repeated item in one go, and clears it from the mask', () => {
    const extra = ['a",', 'a"]', '"a"', ',"a"]', '","', 'b","a"'];
    const problems = repeatTokenProblems(SCHEMAS['strings']!, extra, [
      { prefix: '["a","', refused: ['a",', 'a"]', 'b","a"'], allowed: ['"'], refusedByAccept: ['"a"'] },
      { prefix: '["a"', refused: [',"a"]'], refusedByAccept: ['","'] },
    ]);
    expect(problems).toEqual([]);
  });

  it('restores the memory on rollback and reset', () => {
    const grammar = compileJsonSchema(SCHEMAS['strings'], byteVocabulary());
    const matcher = grammar.matcher();
    expect(matcher.acceptString('["a",')).toBe(true);
    expect(matcher.acceptString('"b",')).toBe(true);
    expect(matcher.acceptString('"b"')).toBe(false);
    matcher.rollback(1);
    expect(matcher.acceptString('"b"]')).toBe(true);
    matcher.rollback(1);
    expect(matcher.acceptString('"a"')).toBe(false);
    matcher.reset();
    expect(matcher.acceptString('["b","a"]')).toBe(true);
    expect(matcher.canTerminate()).toBe(true);
  });

  it('compiles grammars without such arrays with no memory', () => {
    const grammar = compileJsonSchema({ type: 'array', items: { enum: ['a', 'b'] }, uniqueItems: true }, byteVocabulary());
    expect(grammar.automaton.tracksStrings).toBe(false);
    expect(accepts(grammar, '["a","b"]')).toBe(true);
    expect(accepts(grammar, '["a","a"]')).toBe(false);
  });

  it.each([
    ['contains beside', { type: 'array', items: { type: 'string' }, uniqueItems: true, contains: { const: 'a' } }],
    // endless strings beside prefixItems are enforced now (unique-prefix-items.test.ts); strings that run out are not
    ['prefixItems beside', { type: 'array', prefixItems: [{ type: 'string', maxLength: 2 }], items: { type: 'string' }, uniqueItems: true }],
    // strings beside numbers with no range or under one are remembered (unique-numbers-any.test.ts,
    // unique-number-ranges.test.ts); beside numbers under a multipleOf they are not
    ['items of several types', { type: 'array', items: { type: ['string', 'number'], multipleOf: 0.5 }, uniqueItems: true }],
  ])('refuses uniqueItems over strings with %s', (_name, schema) => {
    const error = refusalOf(schema);
    expect(error.keyword).toBe('uniqueItems');
  });

  it('refuses uniqueItems over constrained objects and unbounded numbers, saying what is remembered', () => {
    // objects and arrays that constrain only their type are remembered (unique-containers.test.ts)
    expect(() => compileJsonSchema({ type: 'array', items: { type: 'object', maxProperties: 2 }, uniqueItems: true }, byteVocabulary())).toThrow(
      /uniqueItems.*neither a finite set of values \(enum\/const, booleans, null\) nor numbers, strings, objects and arrays only/,
    );
    // numbers with finitely many texts are remembered as literals (unique-numbers.test.ts), integers and numbers with no
    // range or under one by value (unique-integers.test.ts, unique-numbers-any.test.ts, unique-number-ranges.test.ts)
    for (const items of [
      { type: 'number', multipleOf: 0.5 },
      { type: 'integer', multipleOf: 2, minimum: 0 },
    ]) {
      expect(() => compileJsonSchema({ type: 'array', items, uniqueItems: true }, byteVocabulary())).toThrow(
        /uniqueItems.*numbers with a multipleOf and endless texts.*bound them to at most 30 integers/,
      );
    }
  });
});

function accepts(grammar: CompiledGrammar, text: string): boolean {
  const matcher = grammar.matcher();
  return matcher.acceptString(text) && matcher.canTerminate();
}
