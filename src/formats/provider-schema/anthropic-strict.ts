/**
 * Anthropic strict tool use (`strict: true` on a tool: grammar-constrained tool inputs). The schema goes through the
 * same converter as OpenAI's strict mode (`rewrite.ts`), under Anthropic's rules where they differ:
 *
 * - Kept: `type`, `enum`, `const`, `anyOf` (`oneOf` becomes `anyOf`, `allOf` is merged), local `$ref`/`$defs`,
 *   `properties`, `required`, `items`, `minItems` of 0 or 1, `description`, `title`, and the string formats listed
 *   below: the keywords `@anthropic-ai/sdk`'s own `transformJSONSchema` (lib/transform-json-schema, 1.17) keeps.
 *   Everything else is removed with a warning (the registry still validates the original schema).
 * - Every object is closed (`additionalProperties: false`), as on OpenAI.
 * - Unlike OpenAI, optional properties stay optional: Anthropic accepts them (its SDK keeps `required` as written),
 *   so no null is invited and nothing needs restoring. Each one counts toward the request's limit of 24 optional
 *   parameters, where OpenAI's nullable rewrite would count toward the limit of 16 union-typed ones.
 *
 * Request-wide limits, from the Structured Outputs guide, "Schema complexity limits"
 * (https://platform.claude.com/docs/en/build-with-claude/structured-outputs): at most 20 strict tools, 24 optional
 * parameters and 16 union-typed parameters (`anyOf` or a type array) across all strict schemas of one request.
 * @module
 */
import { walkSubschemas } from '../../shared/json-schema/walk-schema.js';
import { isPlainObject } from '../../shared/own.js';
import type { JsonSchemaObject } from '../../tools/types.js';
import type { FormatWarning } from '../../protocol/format-warning.js';
import { toStrictSchema, type StrictRules, type StrictSchemaConversion } from './rewrite.js';

/** Anthropic's documented limits on the strict schemas of one request. */
export const ANTHROPIC_STRICT_LIMITS = {
  /** Tools declared with `strict: true`. */
  maxStrictTools: 20,
  /** Properties not listed in `required`, across all strict schemas. */
  maxOptionalParameters: 24,
  /** Schemas with `anyOf` or a list of types, across all strict schemas. */
  maxUnionParameters: 16,
} as const;

const NUMERIC = 'Anthropic strict mode supports no numeric bounds';
const STRING = 'Anthropic strict mode supports only `format` on strings';
const ARRAY = 'Anthropic strict mode supports only `minItems` of 0 or 1 on arrays';
const OBJECT = 'strict objects are closed (`additionalProperties: false`), so only the declared properties can be sent';
const CONDITIONAL = 'Anthropic strict mode does not support conditional or negated schemas';

const ANTHROPIC_STRICT_RULES: StrictRules = {
  provider: 'anthropic-strict',
  who: 'Anthropic',
  annotations: new Set(['description', 'title']),
  keptConstraints: new Set(['enum', 'const', 'minItems']),
  supportedFormats: new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']),
  everyPropertyRequired: false,
  rootIdentifiers: false,
  refusedValue: (keyword, value) => (keyword === 'minItems' && value !== 0 && value !== 1 ? ARRAY : undefined),
  removalReasons: {
    minimum: NUMERIC,
    maximum: NUMERIC,
    exclusiveMinimum: NUMERIC,
    exclusiveMaximum: NUMERIC,
    multipleOf: NUMERIC,
    minLength: STRING,
    maxLength: STRING,
    pattern: STRING,
    maxItems: ARRAY,
    uniqueItems: ARRAY,
    contains: ARRAY,
    minContains: ARRAY,
    maxContains: ARRAY,
    unevaluatedItems: ARRAY,
    prefixItems: 'strict mode has no tuples: arrays take one `items` schema',
    patternProperties: OBJECT,
    propertyNames: OBJECT,
    minProperties: OBJECT,
    maxProperties: OBJECT,
    unevaluatedProperties: 'strict objects are closed with `additionalProperties: false` instead',
    dependentRequired: CONDITIONAL,
    dependentSchemas: CONDITIONAL,
    dependencies: CONDITIONAL,
    not: CONDITIONAL,
    if: CONDITIONAL,
    then: CONDITIONAL,
    else: CONDITIONAL,
  },
};

/**
 * Rewrites a tool's input schema for Anthropic strict tool use (`strict: true`), every change reported as a
 * `FormatWarning` of provider `anthropic-strict`. Never throws.
 */
export function toAnthropicStrictSchema(schema: JsonSchemaObject): StrictSchemaConversion {
  return toStrictSchema(schema, ANTHROPIC_STRICT_RULES);
}

/** What strict schemas (already rewritten) count toward {@link ANTHROPIC_STRICT_LIMITS}: optional properties and union-typed schemas. */
export function anthropicStrictLimitCounts(strictSchemas: readonly JsonSchemaObject[]): { optional: number; unions: number } {
  let optional = 0;
  let unions = 0;
  for (const schema of strictSchemas) {
    walkSubschemas(schema, ({ schema: node }) => {
      if (Array.isArray(node.anyOf) || Array.isArray(node.type)) unions += 1;
      if (!isPlainObject(node.properties)) return;
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      for (const name of Object.keys(node.properties)) if (!required.has(name)) optional += 1;
    });
  }
  return { optional, unions };
}

/** What one request's strict schemas (already rewritten) add up to, against {@link ANTHROPIC_STRICT_LIMITS}. */
export function anthropicStrictLimitWarnings(strictSchemas: readonly JsonSchemaObject[]): FormatWarning[] {
  const { optional, unions } = anthropicStrictLimitCounts(strictSchemas);
  const limits = ANTHROPIC_STRICT_LIMITS;
  const warnings: FormatWarning[] = [];
  const add = (feature: string, details: string) => warnings.push({ type: 'unsupported', provider: 'anthropic-strict', feature, path: '', details });
  if (strictSchemas.length > limits.maxStrictTools) {
    add(
      'strict-tools',
      `${strictSchemas.length} tools are strict; Anthropic allows at most ${limits.maxStrictTools} per request and refuses the request, so make only the tools that need it strict`,
    );
  }
  if (optional > limits.maxOptionalParameters) {
    add(
      'optional-parameters',
      `the strict tools have ${optional} optional properties in all; Anthropic allows at most ${limits.maxOptionalParameters} per request and refuses the request, so make properties required or fewer tools strict`,
    );
  }
  if (unions > limits.maxUnionParameters) {
    add(
      'union-parameters',
      `the strict tools have ${unions} union-typed schemas (\`anyOf\` or a list of types) in all; Anthropic allows at most ${limits.maxUnionParameters} per request and refuses the request, so simplify them or make fewer tools strict`,
    );
  }
  return warnings;
}
