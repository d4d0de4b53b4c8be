/**
 * Ajv's vocabulary as the interpreter (`schema-interpreter.ts`) reads it: the keywords Ajv (2020, with ajv-formats)
 * acts on, grouped and ordered as Ajv evaluates them, its data types and `nullable`, ajv-formats' definitions, the
 * meta-schemas every Ajv holds, and the compile-time checks Ajv makes that the meta-schema does not.
 * @module
 */
import addMetaSchema2020Module from 'ajv/dist/refs/json-schema-2020-12/index.js';
import equalModule from 'ajv/dist/runtime/equal.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { DEFAULT_BASE } from '../shared/json-schema/schema-registry.js';
import { isPlainObject } from '../shared/own.js';

// Ajv's runtime helpers are CommonJS; their default exports arrive wrapped under NodeNext.
export const unwrap = <T>(module: T): T => (module as { default?: T }).default ?? module;
export const deepEqual = unwrap(equalModule) as unknown as (left: unknown, right: unknown) => boolean;
const addMetaSchema2020 = unwrap(addMetaSchema2020Module) as unknown as (this: { addMetaSchema(schema: unknown): void }, $data?: boolean) => void;

/** The 2020-12 meta-schemas Ajv holds in every instance, so a `$ref` to one resolves as it does in Ajv. */
let metaSchemas: Record<string, unknown> | undefined;

export function ajvMetaSchemas(): Record<string, unknown> {
  if (metaSchemas) return metaSchemas;
  const byId: Record<string, unknown> = {};
  addMetaSchema2020.call({ addMetaSchema: (schema: unknown) => void (byId[(schema as { $id: string }).$id] = schema) }, false);
  return (metaSchemas = byId);
}

/** The 2020-12 meta-schema (or one of its vocabularies) that Ajv holds under `id`; undefined for any other. */
export function ajvMetaSchema(id: string): unknown {
  const schemas = ajvMetaSchemas();
  return Object.hasOwn(schemas, id) ? schemas[id] : undefined;
}

type FormatCheck = (value: string | number) => boolean;
export type FormatDefinition =
  | true
  | RegExp
  | ((value: string) => boolean)
  | { type?: string; validate: RegExp | ((value: string | number) => boolean); compare?: (left: string, right: string) => number | undefined };

export function formatDefinition(name: unknown): FormatDefinition | undefined {
  return typeof name === 'string' && Object.hasOwn(fullFormats, name) ? (fullFormats[name as keyof typeof fullFormats] as FormatDefinition) : undefined;
}

export function formatCheck(definition: FormatDefinition | undefined): { type: 'string' | 'number'; check: FormatCheck } | undefined {
  // `true` (password, binary): any value passes, as in Ajv
  if (definition === undefined || definition === true) return undefined;
  if (definition instanceof RegExp) return { type: 'string', check: (value) => definition.test(value as string) };
  if (typeof definition === 'function') return { type: 'string', check: definition as FormatCheck };
  const validate = definition.validate;
  const type = definition.type === 'number' ? 'number' : 'string';
  return { type, check: validate instanceof RegExp ? (value) => validate.test(value as string) : validate };
}

const APPLICATORS_OF_GROUP_ZERO = ['$dynamicRef', '$ref', 'type', 'nullable', 'const', 'enum', 'not', 'anyOf', 'oneOf', 'allOf', 'if', 'then', 'else'];
export const NUMBER_KEYWORDS = ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'format'];
export const STRING_KEYWORDS = [
  'maxLength',
  'minLength',
  'pattern',
  'format',
  'formatMaximum',
  'formatMinimum',
  'formatExclusiveMaximum',
  'formatExclusiveMinimum',
];
/** ajv-formats' comparisons of formatted strings: the comparison they require and the `compare` results that fail it. */
export const FORMAT_LIMITS: Record<string, { comparison: string; fails: (order: number) => boolean }> = {
  formatMaximum: { comparison: '<=', fails: (order) => order > 0 },
  formatMinimum: { comparison: '>=', fails: (order) => order < 0 },
  formatExclusiveMaximum: { comparison: '<', fails: (order) => order >= 0 },
  formatExclusiveMinimum: { comparison: '>', fails: (order) => order <= 0 },
};
export const ARRAY_KEYWORDS = ['maxItems', 'minItems', 'prefixItems', 'items', 'contains', 'uniqueItems', 'maxContains', 'minContains', 'unevaluatedItems'];
export const OBJECT_KEYWORDS = [
  'maxProperties',
  'minProperties',
  'required',
  'propertyNames',
  'additionalProperties',
  'dependencies',
  'properties',
  'patternProperties',
  'dependentRequired',
  'dependentSchemas',
  'unevaluatedProperties',
];
/** Keywords Ajv (2020, with ajv-formats) acts on that the interpreter refuses at definition: draft 2019-09's recursive references, which Ajv2020 still runs. */
export const REFUSED_KEYWORDS = ['$recursiveRef', '$recursiveAnchor'];
/** Keywords Ajv knows that decide nothing here: annotations, `$dynamicAnchor` (refused unless `dynamicRef`), and `id` (refused, as Ajv does). */
export const INERT_KEYWORDS = ['$dynamicAnchor', '$comment', 'id'];
/** Every keyword the interpreter evaluates, in Ajv's order within each group. */
export const INTERPRETED_KEYWORDS = [...new Set([...APPLICATORS_OF_GROUP_ZERO, ...NUMBER_KEYWORDS, ...STRING_KEYWORDS, ...ARRAY_KEYWORDS, ...OBJECT_KEYWORDS])];
/** Every keyword Ajv acts on: a schema with none of these accepts everything. */
export const RULES = new Set([...INTERPRETED_KEYWORDS, ...REFUSED_KEYWORDS]);

export const LIMIT_COMPARISON: Record<string, string> = { maximum: '<=', minimum: '>=', exclusiveMaximum: '<', exclusiveMinimum: '>' };

export function alwaysValid(schema: unknown): boolean {
  if (typeof schema === 'boolean') return schema;
  return isPlainObject(schema) && !Object.keys(schema).some((key) => RULES.has(key));
}

export function isInteger(value: unknown): boolean {
  return typeof value === 'number' && !(value % 1) && !Number.isNaN(value);
}

export function hasDataType(type: string, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'integer':
      return isInteger(value);
    default:
      return typeof value === type;
  }
}

/** Ajv's `getSchemaTypes`: `type` as a list, with `nullable: true` adding null (OpenAPI's keyword, which Ajv honours). */
export function schemaTypes(schema: Record<string, unknown>): string[] {
  const types = Array.isArray(schema.type) ? [...(schema.type as string[])] : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.includes('null')) {
    if (schema.nullable === false) throw new Error('type: null contradicts nullable: false');
  } else {
    if (types.length === 0 && schema.nullable !== undefined) throw new Error('"nullable" cannot be used without "type"');
    if (schema.nullable === true) types.push('null');
  }
  return types;
}

/** Ajv's check that no `$id` names two different schemas, over every object in the schema (unknown keywords included) but values. */
export function refuseAmbiguousIds(root: unknown): void {
  const byId = new Map<string, unknown>();
  const visit = (node: unknown, base: string, depth: number): void => {
    if (depth > 10_000) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, base, depth + 1);
      return;
    }
    if (!isPlainObject(node)) return;
    let here = base;
    if (typeof node.$id === 'string') {
      try {
        here = new URL(node.$id, base).href.replace(/#$/, '');
      } catch {
        return;
      }
      const earlier = byId.get(here);
      if (earlier !== undefined && earlier !== node && !deepEqual(earlier, node)) throw new Error(`reference "${here}" resolves to more than one schema`);
      byId.set(here, node);
    }
    for (const [key, value] of Object.entries(node)) if (!VALUE_KEYWORDS.has(key)) visit(value, here, depth + 1);
  };
  visit(root, DEFAULT_BASE, 0);
}

/** Keywords whose values are data, not schemas: Ajv's traversal does not look for `$id` inside them. */
const VALUE_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'required']);
