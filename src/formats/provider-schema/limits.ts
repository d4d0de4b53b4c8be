/**
 * What a provider would ignore or reject in an input schema: OpenAI's documented
 * size limits for strict schemas, root-shape rules, and references no provider
 * fetches. For `openai-strict` this includes every change the rewrite makes.
 * @module
 */
import { walkSubschemas } from '../../shared/json-schema/walk-schema.js';
import { isPlainObject } from '../../shared/own.js';
import type { JsonSchemaObject } from '../../tools/types.js';
import type { FormatWarning, SchemaProvider } from '../../protocol/format-warning.js';
import { toAnthropicStrictSchema } from './anthropic-strict.js';
import { toOpenAIStrictSchema } from './rewrite.js';
import { pointer, typeList } from './schema-shape.js';

/**
 * OpenAI's documented size limits for a strict schema, from the Structured
 * Outputs guide, "Objects have limitations on nesting depth and size" and the
 * paragraphs after it:
 * https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 */
export const OPENAI_STRICT_LIMITS = {
  /** Levels of object nesting, the root object counting as one. */
  maxNestingDepth: 10,
  /** Object properties in the whole schema. */
  maxTotalProperties: 5000,
  /** Enum values across all enums. */
  maxTotalEnumValues: 1000,
  /** Characters in all property names, definition names, enum values and const values together. */
  maxTotalStringLength: 120_000,
  /** A string enum with more values than this falls under {@link OPENAI_STRICT_LIMITS.maxLargeEnumStringLength}. */
  largeEnumValueCount: 250,
  /** Characters in the values of one string enum that has more than 250 values. */
  maxLargeEnumStringLength: 15_000,
} as const;

const STRICT: SchemaProvider = 'openai-strict';

function rootWarnings(schema: JsonSchemaObject, provider: SchemaProvider): FormatWarning[] {
  const warnings: FormatWarning[] = [];
  const who = provider === 'mcp' ? 'MCP' : provider === 'anthropic' ? 'Anthropic' : 'OpenAI';
  if (schema.type !== 'object') {
    const got = schema.type === undefined ? 'no `type`' : `type ${JSON.stringify(schema.type)}`;
    warnings.push({
      type: 'unsupported',
      provider,
      feature: 'root-type',
      path: '',
      details: `the root has ${got}; ${who} requires \`type: "object"\` at the root of a tool's input schema`,
    });
  }
  // OpenAI: "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level";
  // Anthropic: "input_schema does not support oneOf, allOf, or anyOf at the top level".
  const banned = provider === 'anthropic' ? ['anyOf', 'oneOf', 'allOf'] : provider === 'mcp' ? [] : ['anyOf', 'oneOf', 'allOf', 'enum', 'not'];
  for (const key of banned) {
    if (key in schema)
      warnings.push({
        type: 'unsupported',
        provider,
        feature: 'root-union',
        path: pointer('', key),
        details: `${who} rejects \`${key}\` at the top level of a tool's input schema; make the root one object and move the alternatives into a property`,
      });
  }
  return warnings;
}

function externalRefWarnings(schema: unknown, provider: SchemaProvider, out: FormatWarning[]): void {
  walkSubschemas(schema, ({ schema: node, pointer: at }) => {
    const value = node.$ref;
    if (typeof value === 'string' && !value.startsWith('#')) {
      out.push({
        type: 'unsupported',
        provider,
        feature: '$ref',
        path: pointer(at, '$ref'),
        details: `\`$ref: ${JSON.stringify(value)}\` points outside the schema; providers do not fetch references, so inline it or move it into $defs`,
      });
    }
  });
}

interface SizeTally {
  properties: number;
  enumValues: number;
  stringLength: number;
  deepest: { depth: number; path: string };
  largeEnums: { path: string; length: number; count: number }[];
}

function tally(schema: unknown, path: string, depth: number, sizes: SizeTally, guard: number): void {
  if (!isPlainObject(schema) || guard > 256) return;
  let level = depth;
  if (isPlainObject(schema.properties) || typeList(schema)?.includes('object')) {
    level = depth + 1;
    if (level > sizes.deepest.depth) sizes.deepest = { depth: level, path };
  }
  if (isPlainObject(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      sizes.properties += 1;
      sizes.stringLength += name.length;
      tally(sub, pointer(path, 'properties', name), level, sizes, guard + 1);
    }
  }
  if (Array.isArray(schema.enum)) {
    sizes.enumValues += schema.enum.length;
    let length = 0;
    for (const entry of schema.enum) if (typeof entry === 'string') length += entry.length;
    sizes.stringLength += length;
    if (schema.enum.length > OPENAI_STRICT_LIMITS.largeEnumValueCount && schema.enum.every((entry) => typeof entry === 'string')) {
      sizes.largeEnums.push({ path: pointer(path, 'enum'), length, count: schema.enum.length });
    }
  }
  if (typeof schema.const === 'string') sizes.stringLength += schema.const.length;
  for (const key of ['$defs', 'definitions'] as const) {
    const defs = schema[key];
    if (!isPlainObject(defs)) continue;
    for (const [name, def] of Object.entries(defs)) {
      sizes.stringLength += name.length;
      tally(def, pointer(path, key, name), depth, sizes, guard + 1);
    }
  }
  if (isPlainObject(schema.items)) tally(schema.items, pointer(path, 'items'), level, sizes, guard + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) branches.forEach((branch, index) => tally(branch, pointer(path, key, index), depth, sizes, guard + 1));
  }
}

/** OpenAI's documented size limits ({@link OPENAI_STRICT_LIMITS}) checked on a schema already in strict form. */
export function openAIStrictLimitWarnings(schema: JsonSchemaObject): FormatWarning[] {
  const sizes: SizeTally = { properties: 0, enumValues: 0, stringLength: 0, deepest: { depth: 0, path: '' }, largeEnums: [] };
  tally(schema, '', 0, sizes, 0);
  const limits = OPENAI_STRICT_LIMITS;
  const warnings: FormatWarning[] = [];
  const add = (feature: string, path: string, details: string) => warnings.push({ type: 'unsupported', provider: STRICT, feature, path, details });
  if (sizes.deepest.depth > limits.maxNestingDepth) {
    add(
      'nesting-depth',
      sizes.deepest.path,
      `objects nest ${sizes.deepest.depth} levels deep; OpenAI strict mode allows at most ${limits.maxNestingDepth}, so flatten the schema`,
    );
  }
  if (sizes.properties > limits.maxTotalProperties) {
    add(
      'total-properties',
      '',
      `the schema declares ${sizes.properties} object properties in all; OpenAI strict mode allows at most ${limits.maxTotalProperties}`,
    );
  }
  if (sizes.enumValues > limits.maxTotalEnumValues) {
    add('total-enum-values', '', `the schema has ${sizes.enumValues} enum values in all; OpenAI strict mode allows at most ${limits.maxTotalEnumValues}`);
  }
  if (sizes.stringLength > limits.maxTotalStringLength) {
    add(
      'total-string-length',
      '',
      `property names, definition names, enum and const values add up to ${sizes.stringLength} characters; OpenAI strict mode allows at most ${limits.maxTotalStringLength}`,
    );
  }
  for (const large of sizes.largeEnums) {
    if (large.length > limits.maxLargeEnumStringLength) {
      add(
        'enum-string-length',
        large.path,
        `this enum has ${large.count} string values totalling ${large.length} characters; with more than ${limits.largeEnumValueCount} values OpenAI strict mode allows at most ${limits.maxLargeEnumStringLength} characters`,
      );
    }
  }
  return warnings;
}

/**
 * What a provider would ignore, reject or change in this input schema. For
 * `openai-strict` this includes every change {@link toOpenAIStrictSchema}
 * makes and the documented size limits, measured on the rewritten schema.
 */
export function schemaCompatibilityWarnings(schema: JsonSchemaObject, provider: SchemaProvider): FormatWarning[] {
  if (!isPlainObject(schema)) {
    return [
      {
        type: 'unsupported',
        provider,
        feature: 'root-type',
        path: '',
        details: 'the input schema is not a JSON object; every provider requires an object schema with `type: "object"`',
      },
    ];
  }
  const warnings: FormatWarning[] = [];
  if (provider === 'openai-strict') {
    const converted = toOpenAIStrictSchema(schema);
    warnings.push(...converted.warnings, ...openAIStrictLimitWarnings(converted.schema));
    return warnings;
  }
  if (provider === 'anthropic-strict') return toAnthropicStrictSchema(schema).warnings;
  warnings.push(...rootWarnings(schema, provider));
  externalRefWarnings(schema, provider, warnings);
  return warnings;
}
