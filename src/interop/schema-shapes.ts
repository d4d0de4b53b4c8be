/**
 * The two schema adjustments every framework adapter makes: a tool's schema as
 * the frameworks declare it (an object root), and a framework's schema as
 * toolwright compiles it (JSON Schema 2020-12, without a draft-07 dialect tag).
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import type { JsonSchemaObject } from '../tools/types.js';

/**
 * The schema with `type: "object"` at the root when it sets no type: providers require an object root, and every call
 * is still validated against the original.
 */
export function objectRootSchema(schema: unknown): JsonSchemaObject {
  if (!isPlainObject(schema)) return { type: 'object' };
  return schema.type === undefined ? { type: 'object', ...schema } : schema;
}

/**
 * A framework's JSON Schema without its `$schema` tag: the converters (Zod's, the SDKs') write draft-07, which
 * toolwright's 2020-12 validator does not load, while using only keywords that mean the same in both.
 */
export function withoutDialect(schema: unknown): JsonSchemaObject {
  if (!isPlainObject(schema)) return { type: 'object' };
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
