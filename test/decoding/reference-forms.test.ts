/**
 * Reference resolution, mask against registry: for every `$ref` form of `reference-forms.ts`, the registry (the schema
 * rewritten into 2020-12 by `upgradeSchemaDialect`, then the registry's Ajv, as `defineTool` does) compiles it exactly
 * when the mask compiles it (one form, a `$ref` to a value that is not a schema, the mask refuses naming `$ref`); a
 * schema the registry refuses is a `SchemaCompileError` for the mask too. On every form both compile, the mask accepts exactly the
 * instances the registry accepts, under the Qwen3, Llama 3 and Gemma 3 vocabularies: the boundary instances of
 * `boundary-instances.ts` plus a few written here around the forms' targets, a valid one in the grammar's layout
 * (whole, and token by token with the tokenizer's own segmentation), an invalid one in its layout and as compact JSON.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileJsonSchema, UnsupportedSchemaError, type CompiledGrammar, type Vocabulary } from '../../src/decoding/index.js';
import { SchemaCompileError } from '../../src/shared/errors.js';
import { upgradeSchemaDialect } from '../../src/shared/json-schema/upgrade-schema-dialect.js';
import { compileSchema, type SchemaValidator } from '../../src/tools/schema-validator.js';
import { boundaryInstances } from './boundary-instances.js';
import { feed } from './generation.js';
import { REFERENCE_FORMS, type ReferenceForm } from './reference-forms.js';
import { loadTestTokenizer } from './test-tokenizer.js';

const VOCABULARIES = ['qwen3', 'llama3', 'gemma3'] as const;

/** Values on both sides of the forms' targets (an integer in 1..3, a string of at most 2 characters), where the generator cannot follow a reference. */
const TARGET_VALUES: readonly unknown[] = [0, 1, 2, 3, 4, 1.5, 'a', 'ab', 'abc', null, true, [], {}];
const WRITTEN_INSTANCES: readonly unknown[] = [
  ...TARGET_VALUES.map((v) => ({ v })),
  ...TARGET_VALUES.map((value) => ({ v: value, w: 2 })),
  ...TARGET_VALUES.map((value) => ({ m: value, n: 2 })),
  ...TARGET_VALUES.map((value) => ({ b: value, a: 2 })),
  ...TARGET_VALUES.map((value) => ({ z: value })),
  ...TARGET_VALUES.map((value) => ({ n: 2, child: { n: value } })),
  ...TARGET_VALUES.map((value) => [2, value]),
  ...TARGET_VALUES.map((value) => [value, value]),
  { v: 2, q: 2 },
  { v: 2, q: 5 },
  {},
  [],
];

const textEncoder = new TextEncoder();

function registryValidator(schema: unknown): SchemaValidator | SchemaCompileError {
  try {
    return compileSchema(upgradeSchemaDialect(schema).schema as never);
  } catch (error) {
    if (error instanceof SchemaCompileError) return error;
    throw error;
  }
}

/** What the mask made of a form: a grammar, a refusal naming a keyword, or the registry's kind of error. */
function maskOutcome(schema: unknown, vocabulary: Vocabulary): CompiledGrammar | UnsupportedSchemaError | SchemaCompileError {
  try {
    return compileJsonSchema(schema, vocabulary);
  } catch (error) {
    if (error instanceof UnsupportedSchemaError || error instanceof SchemaCompileError) return error;
    throw error;
  }
}

/** Whether the two outcomes agree: both compile, or both refuse the schema as invalid (or the form says which keyword the mask refuses). */
function outcomeProblem(form: ReferenceForm, registry: SchemaValidator | SchemaCompileError, mask: ReturnType<typeof maskOutcome>): string | undefined {
  if (registry instanceof SchemaCompileError) {
    if (mask instanceof SchemaCompileError) return undefined;
    return `${form.name}: the registry refuses it (${registry.message.slice(0, 120)}) but the mask ${mask instanceof UnsupportedSchemaError ? `only refuses "${mask.keyword}"` : 'compiles it'}`;
  }
  if (mask instanceof SchemaCompileError) return `${form.name}: the registry compiles it but the mask calls it invalid: ${mask.message.slice(0, 200)}`;
  if (mask instanceof UnsupportedSchemaError && mask.keyword !== form.maskRefuses)
    return `${form.name}: the registry compiles it but the mask refuses "${mask.keyword}": ${mask.message.slice(0, 200)}`;
  if (!(mask instanceof UnsupportedSchemaError) && form.maskRefuses !== undefined) return `${form.name}: the mask compiles it; drop its maskRefuses`;
  return undefined;
}

describe('$ref forms: the mask resolves every reference the registry resolves, and refuses the others as the registry does', () => {
  it('the battery has 50 forms or more, on both sides of the registry', () => {
    const outcomes = REFERENCE_FORMS.map((form) => registryValidator(form.schema) instanceof SchemaCompileError);
    expect(REFERENCE_FORMS.length).toBeGreaterThanOrEqual(50);
    expect(outcomes.filter((refused) => !refused).length).toBeGreaterThanOrEqual(50);
    expect(outcomes.filter(Boolean).length).toBeGreaterThanOrEqual(5);
  });

  for (const vocabularyName of VOCABULARIES)
    describe(`under the ${vocabularyName} vocabulary`, () => {
      let vocabulary: Vocabulary;
      let encode: (text: string) => number[];

      beforeAll(() => {
        ({ vocabulary, encode } = loadTestTokenizer(vocabularyName));
      }, 120_000);

      afterAll(() => {
        vocabulary = undefined as unknown as Vocabulary;
        encode = undefined as unknown as typeof encode;
      });

      const accepts = (grammar: CompiledGrammar, text: string, byToken: boolean, problems: string[], where: string): boolean => {
        const matcher = grammar.matcher();
        const whole = matcher.acceptString(text) && matcher.canTerminate();
        if (!byToken) return whole;
        const ids = encode(text);
        const bytes = ids.flatMap((id) => [...(vocabulary.tokenBytes(id) ?? [])]);
        if (bytes.length !== textEncoder.encode(text).length) problems.push(`${where}: the tokenizer does not reproduce ${text}`);
        const tokens = feed(grammar, ids) === -1;
        if (tokens !== whole) problems.push(`${where}: acceptString says ${whole}, token by token ${tokens}: ${text}`);
        return whole && tokens;
      };

      it('compiles where the registry compiles, and accepts exactly what the registry accepts', () => {
        const problems: string[] = [];
        const refusedByMask: string[] = [];
        let compared = 0;
        for (const form of REFERENCE_FORMS) {
          const registry = registryValidator(form.schema);
          const mask = maskOutcome(form.schema, vocabulary);
          const problem = outcomeProblem(form, registry, mask);
          if (problem !== undefined) problems.push(problem);
          if (mask instanceof UnsupportedSchemaError) refusedByMask.push(`${form.name}: ${mask.keyword} at ${mask.pointer}`);
          if (registry instanceof SchemaCompileError || mask instanceof UnsupportedSchemaError || mask instanceof SchemaCompileError) continue;
          compared++;
          let valid = 0;
          let invalid = 0;
          for (const value of [...boundaryInstances(form.schema, { seed: 1, maxInstances: 160 }), ...WRITTEN_INSTANCES]) {
            if (registry.validate(value).success) {
              valid++;
              const text = mask.format(value);
              if (text === undefined) problems.push(`${form.name}: valid instance has no layout text: ${JSON.stringify(value)}`);
              else if (!accepts(mask, text, true, problems, form.name)) problems.push(`${form.name}: valid instance rejected: ${text}`);
            } else {
              invalid++;
              const texts = new Set([mask.format(value), JSON.stringify(value)].filter((text): text is string => text !== undefined));
              [...texts].forEach((text, index) => {
                if (accepts(mask, text, index === 0, problems, form.name)) problems.push(`${form.name}: INVALID instance accepted: ${text}`);
              });
            }
          }
          if (valid === 0 || invalid === 0) problems.push(`${form.name}: ${valid} valid and ${invalid} invalid instances; both sides are needed`);
        }
        console.log(`$ref forms (${vocabularyName}): ${compared} compared; refused by the mask, naming a keyword:\n  ${refusedByMask.join('\n  ')}`);
        expect(problems).toEqual([]);
        expect(compared).toBeGreaterThanOrEqual(50);
      }, 300_000);
    });
});
