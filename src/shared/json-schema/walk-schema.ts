/**
 * The one walk over a JSON Schema's subschemas, in document order, each with its
 * JSON Pointer. `$ref` is never followed: the schema it names is visited where it
 * is defined (`$defs`, `definitions`, or any other subschema position), so a
 * recursive schema is walked once. The walk is iterative, so a deeply nested
 * (or hostile) schema cannot exhaust the stack.
 * @module
 */
import { isPlainObject } from '../own.js';
import { escapePointer } from './json-pointer.js';
import { keywordKind, subschemaShape } from './keywords.js';

export type SchemaRecord = Record<string, unknown>;

/** A subschema position inside its parent: the keyword, plus the name (`properties`…) or index (`anyOf`…) when the keyword holds several. */
export interface SubschemaSlot {
  readonly keyword: string;
  readonly key: string | number | undefined;
  readonly schema: unknown;
}

/** One schema object met by the walk. */
export interface SubschemaVisit {
  readonly schema: SchemaRecord;
  /** JSON Pointer from the walk's root pointer. */
  readonly pointer: string;
  /** The parent's keyword that holds this schema; `undefined` for the root. */
  readonly keyword: string | undefined;
  /** The property name or array index under {@link keyword}, when it holds several schemas. */
  readonly key: string | number | undefined;
  readonly parent: SubschemaVisit | undefined;
}

export interface WalkSchemaOptions {
  /** Pointer of the root (`''`, `'#'`, `'/inputSchema'`…); children append `/keyword/…`. Default `''`. */
  readonly rootPointer?: string;
  /** Schema objects already visited; shared between walks so that documents referring to each other are walked once. */
  readonly seen?: Set<object>;
  /**
   * Also visit the object values of keywords no vocabulary defines (`"x-lib": {…}`), and theirs, as Ajv's identifier
   * scan does (json-schema-traverse with `allKeys`): an `$id` or anchor there names a schema a `$ref` can reach. Arrays
   * under such keywords are not entered, as Ajv does not enter them. Default false.
   */
  readonly unknownKeywords?: boolean;
}

/**
 * The direct subschema positions of one schema object, in the order its keys were written (a slot's value may still be
 * malformed); with `unknownKeywords`, also the object values of keywords no vocabulary defines.
 */
export function subschemaSlots(schema: SchemaRecord, unknownKeywords = false): SubschemaSlot[] {
  const slots: SubschemaSlot[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    switch (subschemaShape(keyword, value)) {
      case 'single':
        slots.push({ keyword, key: undefined, schema: value });
        break;
      case 'array':
        (value as unknown[]).forEach((child, index) => slots.push({ keyword, key: index, schema: child }));
        break;
      case 'map':
        // draft-7 `dependencies` mixes schemas with arrays of property names; an array is never a schema
        if (isPlainObject(value)) for (const [key, child] of Object.entries(value)) if (!Array.isArray(child)) slots.push({ keyword, key, schema: child });
        break;
      default:
        // Ajv's identifier scan treats an unknown keyword's object as a schema (see WalkSchemaOptions.unknownKeywords)
        if (unknownKeywords && keywordKind(keyword) === 'unknown' && isPlainObject(value)) slots.push({ keyword, key: undefined, schema: value });
        break;
    }
  }
  return slots;
}

function childPointer(pointer: string, slot: SubschemaSlot): string {
  const head = `${pointer}/${escapePointer(slot.keyword)}`;
  return slot.key === undefined ? head : `${head}/${escapePointer(String(slot.key))}`;
}

/** Calls `visit` for every schema object under `root` (the root first, then depth first in document order). Boolean schemas have nothing to visit. */
export function walkSubschemas(root: unknown, visit: (visit: SubschemaVisit) => void, options: WalkSchemaOptions = {}): void {
  const seen = options.seen ?? new Set<object>();
  const stack: { schema: unknown; pointer: string; keyword: string | undefined; key: string | number | undefined; parent: SubschemaVisit | undefined }[] = [
    { schema: root, pointer: options.rootPointer ?? '', keyword: undefined, key: undefined, parent: undefined },
  ];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const schema = entry.schema;
    if (!isPlainObject(schema) || seen.has(schema)) continue;
    seen.add(schema);
    const here: SubschemaVisit = { schema, pointer: entry.pointer, keyword: entry.keyword, key: entry.key, parent: entry.parent };
    visit(here);
    const slots = subschemaSlots(schema, options.unknownKeywords);
    for (let index = slots.length - 1; index >= 0; index--) {
      const slot = slots[index]!;
      stack.push({ schema: slot.schema, pointer: childPointer(entry.pointer, slot), keyword: slot.keyword, key: slot.key, parent: here });
    }
  }
}

/** Every schema object under `root`, in the order {@link walkSubschemas} visits them. */
export function listSubschemas(root: unknown, options: WalkSchemaOptions = {}): SubschemaVisit[] {
  const visits: SubschemaVisit[] = [];
  walkSubschemas(root, (visit) => visits.push(visit), options);
  return visits;
}
