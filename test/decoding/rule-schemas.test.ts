/**
 * The option schemas of ESLint's core rules and typescript-eslint's rules (`bench:coverage --rule-schemas`,
 * bench/coverage/rule-schemas.ts), hand-written configuration schemas from outside JSONSchemaBench, through the
 * bench's per-schema check on the byte vocabulary: the compile outcome of every rule is pinned, and every compiled
 * one accepts the valid generated instances and no invalid one.
 */
import { describe, expect, it } from 'vitest';
import { checkSchema } from '../../bench/coverage/check-schema.js';
import { DRAFT_04, ruleSchemaSources } from '../../bench/coverage/rule-schemas.js';
import { byteVocabulary } from './byte-vocabulary.js';

/**
 * The one place to update: the rules refused today, each with the keywords its refusal may name. A listed rule may
 * compile (support added since: then delete its line and raise AT_LEAST_COMPILED); every rule not listed must compile.
 */
const REFUSED_RULES: Readonly<Record<string, readonly string[]>> = {
  // items that are objects with values that can run out (booleans, arrays of unique strings), or arrays that can run
  // out: not remembered
  'eslint/no-mixed-operators': ['uniqueItems'],
  'eslint/no-restricted-imports': ['uniqueItems'],
  '@typescript-eslint/no-restricted-imports': ['uniqueItems'],
  'eslint/no-restricted-properties': ['uniqueItems'],
};

/** Rule schemas that compile today: every one not in REFUSED_RULES. */
const AT_LEAST_COMPILED = 255;

const vocabulary = byteVocabulary();

describe('ESLint and typescript-eslint rule option schemas', () => {
  const sources = ruleSchemaSources();
  const schemas = sources.flatMap((source) => source.schemas);

  it('are read as ESLint reads them: positional options wrapped in an array schema, draft 4, rules without options left out', () => {
    expect(sources.map((source) => source.name)).toEqual(['ESLint core rules', 'typescript-eslint rules']);
    for (const source of sources) expect(source.schemas.length + source.withoutOptions + source.unvalidated).toBe(source.rules);
    expect(schemas.every(({ schema }) => schema.$schema === DRAFT_04)).toBe(true);
    // eslint's quotes rule: meta.schema is [mode, options], so at most two positional options
    const quotes = schemas.find(({ rule }) => rule === 'eslint/quotes')!.schema;
    expect(quotes).toEqual({
      $schema: DRAFT_04,
      type: 'array',
      items: [
        { enum: ['single', 'double', 'backtick'] },
        {
          anyOf: [
            { enum: ['avoid-escape'] },
            { type: 'object', properties: { avoidEscape: { type: 'boolean' }, allowTemplateLiterals: { type: 'boolean' } }, additionalProperties: false },
          ],
        },
      ],
      minItems: 0,
      maxItems: 2,
    });
    // an object meta.schema is the schema of the whole options array, taken as it is
    expect(schemas.find(({ rule }) => rule === 'eslint/consistent-this')!.schema).toEqual({
      $schema: DRAFT_04,
      type: 'array',
      items: { type: 'string', minLength: 1 },
      uniqueItems: true,
    });
    expect(Object.keys(REFUSED_RULES).filter((rule) => !schemas.some((entry) => entry.rule === rule))).toEqual([]);
  });

  it('compile, or are refused only where REFUSED_RULES says and naming a keyword it lists; compiled ones are sound on generated instances', () => {
    const unexpected: string[] = [];
    let compiled = 0;
    for (const { rule, schema } of schemas) {
      const result = checkSchema({ name: rule, schema, layout: 'compact', maxInstances: 30, seed: 1 }, vocabulary);
      if (result.outcome === 'compiled') {
        compiled++;
        const counts = result.instances!;
        if (counts.invalidAccepted > 0 || counts.validAccepted < counts.valid)
          unexpected.push(
            `${rule}: ${counts.invalidAccepted} invalid accepted, ${counts.valid - counts.validAccepted} valid refused: ${result.failures!.join('; ')}`,
          );
      } else if (result.outcome === 'refused' && REFUSED_RULES[rule]?.includes(result.refusal!.keyword) === true) {
        continue;
      } else {
        unexpected.push(`${rule}: ${result.outcome} (${result.refusal?.keyword ?? result.reason}) at ${result.refusal?.pointer ?? '?'}`);
      }
    }
    expect(unexpected).toEqual([]);
    expect(compiled).toBeGreaterThanOrEqual(AT_LEAST_COMPILED);
  });
});
