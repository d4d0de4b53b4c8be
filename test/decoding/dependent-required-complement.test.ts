/**
 * The complement of `dependentRequired` (and of draft-7 array-valued `dependencies`): some source key is present and
 * one of the names it requires is absent. Each (source, dependent) pair is one alternative: the source required, the
 * dependent forbidden. Exhaustively over small objects on the Qwen3, Llama 3 and Gemma 3 vocabularies and both
 * layouts: under `propertyOrder: 'any'` the mask accepts a text exactly when the registry accepts its value; under
 * `'schema'` it accepts no text the registry rejects, and some ordering of every object the registry accepts. A byte
 * walk finds no dead end; random generations end valid; a complement that leaves nothing is refused at compile time.
 */
import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../src/decoding/index.js';
import { SchemaCompileError } from '../../src/shared/errors.js';
import { defineTool } from '../../src/tools/define-tool.js';
import { byteWalkProblems, everyArray, feed, randomGenerationProblems, registryVerdict } from './generation.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const SCHEMAS: Record<string, Record<string, unknown>> = {
  'one dependency': { type: 'object', not: { dependentRequired: { a: ['b'] } } },
  'any value (non-objects pass)': { not: { dependentRequired: { a: ['b', 'c'] } } },
  'two sources, two dependents': { type: 'object', not: { dependentRequired: { a: ['b', 'c'], b: ['c'] } } },
  'beside required in the negated schema': {
    type: 'object',
    properties: { a: { type: 'integer' }, b: {} },
    not: { required: ['c'], dependentRequired: { a: ['b'] } },
  },
  'beside a dependency of its own': { type: 'object', dependentRequired: { a: ['b'] }, not: { dependentRequired: { b: ['c'] } } },
  'one pair contradicting a dependency of its own (dropped)': {
    type: 'object',
    dependentRequired: { a: ['b'] },
    not: { dependentRequired: { a: ['b'], c: ['z'] } },
  },
  'draft-7 dependencies': { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', not: { dependencies: { a: ['b'] } } },
  'double negation': { type: 'object', not: { not: { dependentRequired: { a: ['b'] } } } },
  'oneOf overlapping a required': { type: 'object', oneOf: [{ dependentRequired: { a: ['b'] } }, { required: ['c'] }] },
  'if / then / else': { type: 'object', if: { dependentRequired: { a: ['b'] } }, then: { required: ['c'] }, else: { maxProperties: 2 } },
};

const KEYS = ['a', 'b', 'c', 'z'];
const VALUES = [1, 'x'];

type Entries = [string, unknown][];

/** Objects of up to three distinct keys (values 1 or "x"), as entry lists in every order, and two non-objects. */
const UNIVERSE: unknown[] = [
  ...everyArray(
    KEYS.flatMap((key) => VALUES.map((value): [string, unknown] => [key, value])),
    3,
  ).filter((entries) => new Set(entries.map(([key]) => key)).size === entries.length),
  1,
  'ab',
];

function texts(value: unknown, flexible: boolean): string[] {
  if (!Array.isArray(value)) return [JSON.stringify(value)];
  const entries = value as Entries;
  const separator = flexible ? ' ' : '';
  return [`{${entries.map(([name, item]) => `${JSON.stringify(name)}:${separator}${JSON.stringify(item)}`).join(`,${separator}`)}}`];
}

/** The registry's verdict as a tool gets it: an older dialect (the draft-7 case) is rewritten first, as `defineTool` does. */
const registryOf = (schema: Record<string, unknown>): ((value: unknown) => boolean) =>
  registryVerdict(
    defineTool({ name: 'dependency_case', description: 'A dependency case.', effect: 'read', inputSchema: schema, execute: () => 'ok' }).inputSchema,
  );

const parsed = (value: unknown): unknown => (Array.isArray(value) ? Object.fromEntries(value as Entries) : value);

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

describe('the complement of dependentRequired', () => {
  const tokenizers = new Map(VOCABULARIES.map((name) => [name, loadTestTokenizer(name)]));

  it.each(Object.keys(SCHEMAS))(
    '%s: the mask accepts what the registry accepts (any order: exactly; schema order: nothing invalid, every valid object in some order)',
    (name) => {
      const schema = SCHEMAS[name]!;
      const valid = registryOf(schema);
      const problems: string[] = [];
      for (const [vocabularyName, tokenizer] of tokenizers) {
        for (const layout of ['compact', 'flexible'] as const) {
          for (const propertyOrder of ['any', 'schema'] as const) {
            const grammar = compileJsonSchema(schema, tokenizer.vocabulary, { layout, propertyOrder });
            const accepts = (text: string): boolean => {
              const matcher = grammar.matcher();
              const whole = matcher.acceptString(text) && matcher.canTerminate();
              const tokens = feed(grammar, tokenizer.encode(text)) === -1;
              if (whole !== tokens) problems.push(`${vocabularyName} ${layout} ${propertyOrder} ${text}: acceptString ${whole}, tokens ${tokens}`);
              return whole;
            };
            const acceptedSomeOrder = new Map<string, boolean>();
            for (const value of UNIVERSE) {
              const expected = valid(parsed(value));
              const key = JSON.stringify(Array.isArray(value) ? [...(value as Entries)].sort() : value);
              for (const text of texts(value, layout === 'flexible')) {
                const accepted = accepts(text);
                if (accepted) acceptedSomeOrder.set(key, true);
                else if (!acceptedSomeOrder.has(key)) acceptedSomeOrder.set(key, false);
                if (accepted && !expected) problems.push(`${vocabularyName} ${layout} ${propertyOrder} ${text}: INVALID accepted`);
                if (propertyOrder === 'any' && !accepted && expected) problems.push(`${vocabularyName} ${layout} ${propertyOrder} ${text}: valid rejected`);
              }
              if (propertyOrder === 'schema' && expected && acceptedSomeOrder.get(key) === false && isLastOrder(value))
                problems.push(`${vocabularyName} ${layout} schema ${key}: valid in no order`);
            }
          }
        }
      }
      expect(problems).toEqual([]);
    },
    120_000,
  );

  it.each(['one dependency', 'two sources, two dependents', 'beside a dependency of its own', 'one pair contradicting a dependency of its own (dropped)'])(
    '%s: every byte text the mask allows (up to 16 bytes) goes on, agrees with accept() and ends valid',
    (name) => {
      // one value and keys of one letter, so the walk spends its bytes on which keys come
      const schema = { ...SCHEMAS[name]!, propertyNames: { pattern: '^[abcz]$' }, additionalProperties: { const: 1 } };
      for (const propertyOrder of ['schema', 'any'] as const) expect(byteWalkProblems(schema, { propertyOrder }, 16)).toEqual([]);
    },
    120_000,
  );

  it.each(VOCABULARIES)('%s: random generations end valid, with no dead end', (vocabularyName) => {
    const { vocabulary } = tokenizers.get(vocabularyName)!;
    const schemas = {
      'a source without its dependent': { type: 'object', properties: { id: { type: 'string' } }, not: { dependentRequired: { id: ['name', 'kind'] } } },
      'a closed object': {
        type: 'object',
        properties: { id: { type: 'integer' }, name: { type: 'string' } },
        additionalProperties: false,
        not: { dependentRequired: { id: ['name'] } },
      },
    };
    expect(randomGenerationProblems(vocabulary, schemas, { seed: 7, runs: 4, randomSteps: 40, validatorOf: registryVerdict })).toEqual([]);
  });

  it('refuses at compile time a complement no object satisfies (every dependent is required)', () => {
    const schema = { type: 'object', required: ['b'], not: { dependentRequired: { a: ['b'] } } };
    expect(valueIn(UNIVERSE, registryVerdict(schema))).toBe(false);
    expect(() => compileJsonSchema(schema, tokenizers.get('qwen3')!.vocabulary)).toThrow(SchemaCompileError);
  });
});

/** Whether `value` is the last of its key set's orderings in the universe (so every ordering has been tried). */
function isLastOrder(value: unknown): boolean {
  if (!Array.isArray(value)) return true;
  const entries = value as Entries;
  const keys = entries.map(([key]) => key);
  return keys.every((key, index) => index === 0 || keys[index - 1]! > key);
}

function valueIn(universe: readonly unknown[], valid: (value: unknown) => boolean): boolean {
  return universe.some((value) => Array.isArray(value) && valid(parsed(value)));
}
