/**
 * Small readings of a schema object that the rewrite, the restore plan and the
 * limits share.
 * @module
 */
import { appendPointer } from '../../shared/json-schema/json-pointer.js';
import type { JsonSchemaObject } from '../../tools/types.js';

/** `path` extended by escaped segments: the JSON Pointer of a warning. */
export const pointer = appendPointer;

/** The declared type names, or undefined when `type` is absent or not a name / list of names. */
export function typeList(schema: JsonSchemaObject): string[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  if (Array.isArray(type) && type.every((entry): entry is string => typeof entry === 'string')) return type;
  return undefined;
}

export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so a property named "__proto__" stays a property.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
