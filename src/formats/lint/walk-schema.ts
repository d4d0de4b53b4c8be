/**
 * The lint rules' view of a tool's input schema: every subschema with its JSON
 * Pointer (from the shared walker, so `$ref` is not followed: the schemas it
 * points at are visited where they are defined), and every declared property.
 * @module
 */
import { escapePointer } from '../../shared/json-schema/json-pointer.js';
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

/** Every subschema object, depth first in document order, the root first. Boolean schemas are skipped: no rule applies to them. */
export function listSchemas(root: unknown, rootPointer: string): SchemaVisit[] {
  const visits: SchemaVisit[] = [];
  walkSubschemas(root, ({ schema, pointer, keyword }) => visits.push({ schema, pointer, via: keyword }), { rootPointer });
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
