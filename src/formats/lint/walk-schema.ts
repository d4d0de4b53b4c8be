/**
 * The lint rules' view of a tool's input schema: every subschema the arguments
 * can be checked against, with its JSON Pointer, and every declared property.
 * Definitions (`$defs`, `definitions`) are visited only when a `$ref` reaches
 * them from the root, once each, where they are defined: a definition nothing
 * uses cannot make a call go wrong.
 * @module
 */
import { escapePointer } from '../../shared/json-schema/json-pointer.js';
import { SchemaRegistry } from '../../shared/json-schema/schema-registry.js';
import { walkSubschemas, type SchemaRecord } from '../../shared/json-schema/walk-schema.js';
import { isPlainObject } from '../../shared/own.js';

export type { SchemaRecord };

/** Where a subschema sits: its pointer, and the keyword that led to it (`properties`, `items`, `allOf`…). */
export interface SchemaVisit {
  schema: SchemaRecord;
  pointer: string;
  /** The keyword of the parent that holds this schema; `undefined` for the root. */
  via: string | undefined;
}

export interface PropertyVisit {
  /** The object schema that declares the property. */
  parent: SchemaRecord;
  parentPointer: string;
  name: string;
  schema: SchemaRecord;
  pointer: string;
  /** Whether `name` is listed in the parent's `required`. */
  required: boolean;
  /** True for the tool's top-level arguments. */
  topLevel: boolean;
}

const DEFINITION_KEYWORDS = new Set(['$defs', 'definitions']);

/**
 * Every subschema object reachable from the root, the root first, then depth first in document order; each
 * definition a `$ref` reaches (resolved by the shared registry, never fetched) follows, walked where it is
 * defined. Boolean schemas are skipped: no rule applies to them.
 */
export function listSchemas(root: unknown, rootPointer: string): SchemaVisit[] {
  const definitions = new Set<object>();
  walkSubschemas(root, ({ schema, keyword }) => {
    if (keyword !== undefined && DEFINITION_KEYWORDS.has(keyword)) definitions.add(schema);
  });
  const visits: SchemaVisit[] = [];
  if (!isPlainObject(root)) return visits;
  // Unreached definitions count as seen, so the walker does not enter them through `$defs`; one is released when a `$ref` reaches it.
  const seen = new Set<object>(definitions);
  const visited = new Set<object>();
  let registry: SchemaRegistry | undefined;
  const queue: { schema: SchemaRecord; pointer: string }[] = [{ schema: root, pointer: rootPointer }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    seen.delete(next.schema);
    walkSubschemas(
      next.schema,
      ({ schema, pointer, keyword }) => {
        visited.add(schema);
        visits.push({ schema, pointer, via: keyword });
        if (typeof schema.$ref !== 'string') return;
        registry ??= new SchemaRegistry(root);
        const target = registry.resolve(schema.$ref, registry.placeOf(schema)?.base);
        if (target === undefined || !isPlainObject(target.schema) || visited.has(target.schema)) return;
        if (queue.some((entry) => entry.schema === target.schema) || !target.place.pointer.startsWith('#')) return;
        queue.push({ schema: target.schema, pointer: rootPointer + target.place.pointer.slice(1) });
      },
      { rootPointer: next.pointer, seen },
    );
  }
  return visits;
}

/** Every declared property of every object schema, with whether its parent requires it. */
export function listProperties(root: unknown, rootPointer: string): PropertyVisit[] {
  const properties: PropertyVisit[] = [];
  for (const { schema: parent, pointer: parentPointer } of listSchemas(root, rootPointer)) {
    const declared = parent.properties;
    if (!isPlainObject(declared)) continue;
    const required = new Set(Array.isArray(parent.required) ? parent.required.filter((key): key is string => typeof key === 'string') : []);
    for (const [name, schema] of Object.entries(declared)) {
      if (!isPlainObject(schema)) continue;
      properties.push({
        parent,
        parentPointer,
        name,
        schema,
        pointer: `${parentPointer}/properties/${escapePointer(name)}`,
        required: required.has(name),
        topLevel: parentPointer === rootPointer,
      });
    }
  }
  return properties;
}

/** The schema's `type` as a list (empty when it declares none). */
export function schemaTypes(schema: SchemaRecord): string[] {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === 'string');
  return [];
}

/** Whether the schema describes (or may describe) a JSON object. */
export function isObjectSchema(schema: SchemaRecord): boolean {
  const types = schemaTypes(schema);
  if (types.length > 0) return types.includes('object');
  return isPlainObject(schema.properties);
}

/** Whether the schema may hold a free string: typed `string` (or untyped) and not already pinned by enum or const. */
export function isFreeString(schema: SchemaRecord): boolean {
  const types = schemaTypes(schema);
  if (types.length > 0 && !types.includes('string')) return false;
  if (
    types.length === 0 &&
    (schema.properties !== undefined || schema.items !== undefined || schema.$ref !== undefined || schema.anyOf !== undefined || schema.oneOf !== undefined)
  )
    return false;
  return !Array.isArray(schema.enum) && !('const' in schema);
}

/** `userId` and `user-id` become `user_id`, so name heuristics see one spelling. */
export function snakeName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^a-zA-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}
