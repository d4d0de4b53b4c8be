/**
 * The rule-schemas row of `bench:coverage`: the option schemas of ESLint's core rules and of
 * typescript-eslint's rules, hand-written configuration schemas from outside JSONSchemaBench.
 * Each is taken as ESLint validates it (`getRuleOptionsSchema` in eslint/lib/config/config.js):
 * an array `meta.schema` lists positional options and becomes
 * `{ type: 'array', items: [...], minItems: 0, maxItems: n }`, an object one is the schema of
 * the whole options array. ESLint's Ajv reads them as draft 4, so the root gets draft 4's
 * `$schema` (the engine rewrites it into 2020-12). Rules without options (no `meta.schema` or
 * `[]`) and rules that opt out of validation (`false`) are counted, not compiled.
 * @module
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';

interface RuleModule {
  readonly meta?: { readonly schema?: unknown };
}

export interface RuleSchema {
  /** `eslint/<rule>` or `@typescript-eslint/<rule>`. */
  readonly rule: string;
  readonly schema: Record<string, unknown>;
}

export interface RuleSchemaSource {
  readonly name: 'ESLint core rules' | 'typescript-eslint rules';
  readonly rules: number;
  readonly schemas: readonly RuleSchema[];
  /** No `meta.schema`, or `[]`: the rule takes no options. */
  readonly withoutOptions: number;
  /** `meta.schema: false`: ESLint does not validate the options. */
  readonly unvalidated: number;
}

function sourceOf(name: RuleSchemaSource['name'], prefix: string, rules: Iterable<[string, RuleModule]>): RuleSchemaSource {
  const schemas: RuleSchema[] = [];
  let count = 0;
  let withoutOptions = 0;
  let unvalidated = 0;
  for (const [ruleName, rule] of rules) {
    count++;
    const schema = rule.meta?.schema;
    if (schema === false) unvalidated++;
    else if (schema === undefined || (Array.isArray(schema) && schema.length === 0)) withoutOptions++;
    else {
      const options = Array.isArray(schema) ? { type: 'array', items: schema, minItems: 0, maxItems: schema.length } : schema;
      // through JSON, as a schema handed to a model or written to a file is: a key set to undefined in the
      // rule's object (typescript-eslint's no-restricted-imports has `required: undefined`) is no keyword there
      const json = JSON.parse(JSON.stringify(options)) as Record<string, unknown>;
      schemas.push({ rule: `${prefix}${ruleName}`, schema: { $schema: DRAFT_04, ...json } });
    }
  }
  return { name, rules: count, schemas, withoutOptions, unvalidated };
}

/** ESLint's core rules, then typescript-eslint's, each in its package's order. */
export function ruleSchemaSources(): RuleSchemaSource[] {
  const { builtinRules } = require('eslint/use-at-your-own-risk') as { builtinRules: ReadonlyMap<string, RuleModule> };
  // the devDependency typescript-eslint re-exports @typescript-eslint/eslint-plugin as `plugin`
  const { rules } = (require('typescript-eslint') as { plugin: { rules: Record<string, RuleModule> } }).plugin;
  return [sourceOf('ESLint core rules', 'eslint/', builtinRules.entries()), sourceOf('typescript-eslint rules', '@typescript-eslint/', Object.entries(rules))];
}
