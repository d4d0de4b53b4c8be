/**
 * `unevaluatedProperties` / `unevaluatedItems` for the shapes where evaluation is static:
 * the names (items) evaluated are those of `properties` (`prefixItems`) in the schema and
 * in every subschema it always applies (`allOf`, `$ref`), so the keyword is
 * `additionalProperties` (`items`) over that union. Where a subschema that may or may not
 * pass (`anyOf`, `oneOf`, `if`/`then`/`else`, `dependentSchemas`) or a keyword that
 * evaluates part of the instance (`patternProperties`, `$dynamicRef`) would decide what is
 * evaluated, the keyword is refused. `contains` follows the registry's Ajv, which marks every
 * item evaluated once a `contains` with assertions ran (the spec: only the items it matches).
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import type { SchemaPlace } from '../shared/json-schema/schema-registry.js';
import type { LocationSet } from './schema-complement.js';
import { APPLICATOR_KEYWORDS, REFERENCE_KEYWORDS, VALIDATION_KEYWORDS } from '../shared/json-schema/keywords.js';

/** Keywords Ajv compiles to code; a subschema with none of them is "always valid" to Ajv and skipped. */
const AJV_RULE_KEYWORDS = new Set([
  ...APPLICATOR_KEYWORDS,
  ...VALIDATION_KEYWORDS,
  ...REFERENCE_KEYWORDS,
  'format',
  'formatMinimum',
  'formatMaximum',
  'formatExclusiveMinimum',
  'formatExclusiveMaximum',
  'nullable',
  '$comment',
  '$dynamicAnchor',
  '$recursiveAnchor',
  'id',
]);

/**
 * True when the registry's Ajv marks all items evaluated for this schema's `contains`: it does so after running any
 * `contains` it does not skip, and it skips one without assertions (`true`, `{}`) and `minContains: 0` without `maxContains`.
 */
function containsEvaluatesAll(schema: Record<string, unknown>): boolean {
  const contains = schema.contains;
  if (schema.minContains === 0 && schema.maxContains === undefined) return false;
  if (typeof contains === 'boolean') return !contains;
  return isPlainObject(contains) && Object.keys(contains).some((keyword) => AJV_RULE_KEYWORDS.has(keyword));
}

/** The fields of a typed alternative this module sets. */
interface UnevaluatedTyped {
  type: 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
  order: string[];
  properties: Map<string, LocationSet>;
  additional: LocationSet;
  prefix: LocationSet[];
  items: LocationSet;
}

interface UnevaluatedLocation {
  readonly place: SchemaPlace;
}

export interface UnevaluatedContext<T extends UnevaluatedTyped, L extends UnevaluatedLocation> {
  blank(type: T['type'], pointer: string): T;
  intersectLists(left: readonly T[], right: readonly T[], pointer: string): T[];
  child(location: L, keyword: string, value: unknown): LocationSet;
  resolve(reference: string, base: string): { schema: unknown; place: SchemaPlace } | undefined;
  placeOf(schema: unknown): SchemaPlace | undefined;
  refuse(keyword: string, pointer: string, details: string): void;
}

/** What a schema evaluates of an instance wherever it passes. */
interface Evaluation {
  readonly names: Set<string>;
  allNames: boolean;
  /** Why the evaluated names depend on the instance, if they do. */
  namesVary: string | undefined;
  items: number;
  allItems: boolean;
  itemsVary: string | undefined;
}

const CONDITIONAL_APPLICATORS = ['anyOf', 'oneOf', 'if', 'then', 'else', 'dependentSchemas', 'dependencies'] as const;

export function applyUnevaluated<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  result: T[],
  location: L,
  schema: Record<string, unknown>,
  context: UnevaluatedContext<T, L>,
): T[] {
  const pointer = location.place.pointer;
  const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
  const evaluation: Evaluation = { names: new Set(), allNames: false, namesVary: undefined, items: 0, allItems: false, itemsVary: undefined };
  collect(schema, location.place.base, undefined, new Set(), evaluation, context, true);
  const others = (type: T['type']): T[] =>
    (['null', 'boolean', 'number', 'string', 'array', 'object'] as const).filter((other) => other !== type).map((other) => context.blank(other, pointer));
  if (has('unevaluatedProperties') && !evaluation.allNames) {
    if (evaluation.namesVary !== undefined) {
      context.refuse('unevaluatedProperties', pointer, `the evaluated properties depend on ${evaluation.namesVary}, which is not enforced`);
    } else {
      const closing = context.blank('object', pointer);
      for (const name of evaluation.names) {
        closing.order.push(name);
        closing.properties.set(name, []);
      }
      closing.additional = context.child(location, 'unevaluatedProperties', schema.unevaluatedProperties);
      result = context.intersectLists(result, [...others('object'), closing], `${pointer}/unevaluatedProperties`);
    }
  }
  if (has('unevaluatedItems') && !evaluation.allItems) {
    if (evaluation.itemsVary !== undefined) {
      context.refuse('unevaluatedItems', pointer, `the evaluated items depend on ${evaluation.itemsVary}, which is not enforced`);
    } else {
      const closing = context.blank('array', pointer);
      closing.prefix = Array.from({ length: evaluation.items }, () => []);
      closing.items = context.child(location, 'unevaluatedItems', schema.unevaluatedItems);
      result = context.intersectLists(result, [...others('array'), closing], `${pointer}/unevaluatedItems`);
    }
  }
  return result;
}

/** Adds what `schema` evaluates; `conditional` names the applicator under which it may not apply. */
function collect<T extends UnevaluatedTyped, L extends UnevaluatedLocation>(
  schema: unknown,
  base: string,
  conditional: string | undefined,
  seen: Set<object>,
  out: Evaluation,
  context: UnevaluatedContext<T, L>,
  top: boolean,
): void {
  if (!isPlainObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  base = context.placeOf(schema)?.base ?? base;
  const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
  const names = (): void => {
    if (conditional !== undefined) out.namesVary ??= conditional;
  };
  const items = (): void => {
    if (conditional !== undefined) out.itemsVary ??= conditional;
  };
  if (has('properties') && isPlainObject(schema.properties)) {
    names();
    for (const name of Object.keys(schema.properties)) out.names.add(name);
  }
  // the schema's own unevaluated* keywords are the ones being applied; a nested one evaluates everything left
  if (has('additionalProperties') || (!top && has('unevaluatedProperties'))) {
    names();
    if (conditional === undefined) out.allNames = true;
  }
  if (has('patternProperties')) out.namesVary ??= '"patternProperties" (it evaluates the names its patterns match)';
  if (has('prefixItems') && Array.isArray(schema.prefixItems)) {
    items();
    out.items = Math.max(out.items, schema.prefixItems.length);
  }
  if (has('items')) {
    items();
    if (Array.isArray(schema.items)) out.items = Math.max(out.items, schema.items.length);
    else if (conditional === undefined) out.allItems = true;
  }
  if (has('additionalItems') || (!top && has('unevaluatedItems'))) {
    items();
    if (conditional === undefined) out.allItems = true;
  }
  if (has('contains') && containsEvaluatesAll(schema)) {
    items();
    if (conditional === undefined) out.allItems = true;
  }
  // where a dynamic reference leads depends on the function it is reached in (dynamic-reference.ts), which this walk does not track
  if (has('$dynamicRef') || has('$recursiveRef')) {
    out.namesVary ??= 'a $dynamicRef/$recursiveRef that always applies (where it leads depends on the $ref that reached it)';
    out.itemsVary ??= 'a $dynamicRef/$recursiveRef that always applies (where it leads depends on the $ref that reached it)';
  }
  if (has('allOf') && Array.isArray(schema.allOf)) for (const part of schema.allOf) collect(part, base, conditional, seen, out, context, false);
  if (has('$ref') && typeof schema.$ref === 'string') {
    const target = context.resolve(schema.$ref, base);
    if (target !== undefined) collect(target.schema, target.place.base, conditional, seen, out, context, false);
  }
  for (const keyword of CONDITIONAL_APPLICATORS) {
    if (!has(keyword)) continue;
    const value = schema[keyword];
    const parts = Array.isArray(value) ? value : keyword === 'dependentSchemas' || keyword === 'dependencies' ? Object.values(value as object) : [value];
    for (const part of parts) collect(part, base, conditional ?? `"${keyword}"`, seen, out, context, false);
  }
}
