/**
 * The two schema adjustments every framework adapter makes: a tool's schema as
 * the frameworks declare it (an object root), and a framework's schema as
 * toolwright compiles it (JSON Schema 2020-12, rewritten from the converters' draft-07).
 * @module
 */
import { upgradeSchemaDialect } from '../shared/json-schema/upgrade-schema-dialect.js';
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
 * A framework's JSON Schema as JSON Schema 2020-12: the converters (Zod's, the SDKs') write draft-07, whose tuples
 * (`items` as an array, `additionalItems`) and `dependencies` mean something else in 2020-12, so the schema is
 * rewritten (`upgradeSchemaDialect`) rather than stripped of its tag. An untagged schema is read as 2020-12.
 * @throws SchemaCompileError when the schema cannot be read (a `"__proto__"` key, draft-03…).
 */
export function as2020Schema(schema: unknown, toolName?: string): JsonSchemaObject {
  if (!isPlainObject(schema)) return { type: 'object' };
  const upgraded = upgradeSchemaDialect(schema, { ...(toolName === undefined ? {} : { toolName }), pointer: '/inputSchema' });
  // without the tag the rewrite adds, as the frameworks' schemas were before: 2020-12 is how an untagged schema is read
  if (upgraded.dialect === '2020-12') return upgraded.schema as JsonSchemaObject;
  const { $schema: _addedTag, ...untagged } = upgraded.schema as JsonSchemaObject;
  return untagged;
}
