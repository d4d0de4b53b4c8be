/**
 * The JSON Schema keywords toolwright knows, by vocabulary (draft 2020-12) plus
 * the older forms the code accepts (`definitions`, array-form `items`,
 * `additionalItems`, `dependencies`, `$recursiveRef`/`$recursiveAnchor`), and
 * which of them hold subschemas. Every walker and classifier reads these tables,
 * so that they agree on where a subschema can sit.
 * @module
 */

/** Keywords whose value is one subschema. `items` is also listed as an array (draft-7 tuples). */
export const SUBSCHEMA_KEYWORDS: readonly string[] = [
  'additionalProperties',
  'items',
  'additionalItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
];

/** Keywords whose value is an array of subschemas. */
export const SUBSCHEMA_ARRAY_KEYWORDS: readonly string[] = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];

/** Keywords whose value maps names to subschemas. `dependencies` values that are arrays (draft-7 property dependencies) are not schemas. */
export const SUBSCHEMA_MAP_KEYWORDS: readonly string[] = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

/** Core keywords: identify, reference and hold definitions (`$defs`/`definitions` are also in {@link SUBSCHEMA_MAP_KEYWORDS}). */
export const CORE_KEYWORDS: readonly string[] = [
  '$schema',
  '$vocabulary',
  '$id',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  '$defs',
  'definitions',
  '$comment',
];

/** Core keywords that point at another schema. */
export const REFERENCE_KEYWORDS: readonly string[] = ['$ref', '$dynamicRef', '$recursiveRef'];

/** Applicators: they apply subschemas to the instance or its parts (every subschema keyword except the definitions and `contentSchema`). */
export const APPLICATOR_KEYWORDS: readonly string[] = [
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependencies',
  'prefixItems',
  'items',
  'additionalItems',
  'contains',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
];

/** Assertions of the validation vocabulary (and draft-7 `dependencies` in its property-list form, listed under applicators). */
export const VALIDATION_KEYWORDS: readonly string[] = [
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
];

/** The meta-data vocabulary: annotations that describe and never reject a value. */
export const METADATA_KEYWORDS: readonly string[] = ['title', 'description', 'default', 'deprecated', 'readOnly', 'writeOnly', 'examples'];

/** The content vocabulary: annotations about a string's encoded content (a validator does not assert them by default). */
export const CONTENT_KEYWORDS: readonly string[] = ['contentEncoding', 'contentMediaType', 'contentSchema'];

/** Keywords whose values are data, never schemas: a walker must not look for subschemas inside them. */
export const VALUE_KEYWORDS: readonly string[] = ['enum', 'const', 'default', 'examples'];

export type KeywordKind = 'core' | 'applicator' | 'validation' | 'format' | 'metadata' | 'content' | 'unknown';

const KIND_OF = new Map<string, KeywordKind>([
  ...CORE_KEYWORDS.map((keyword) => [keyword, 'core'] as const),
  ...APPLICATOR_KEYWORDS.map((keyword) => [keyword, 'applicator'] as const),
  ...VALIDATION_KEYWORDS.map((keyword) => [keyword, 'validation'] as const),
  ['format', 'format'],
  ...METADATA_KEYWORDS.map((keyword) => [keyword, 'metadata'] as const),
  ...CONTENT_KEYWORDS.map((keyword) => [keyword, 'content'] as const),
]);

/** The vocabulary a keyword belongs to; `unknown` for anything else (per 2020-12, an unknown keyword is only an annotation). */
export function keywordKind(keyword: string): KeywordKind {
  return KIND_OF.get(keyword) ?? 'unknown';
}

const SINGLE = new Set(SUBSCHEMA_KEYWORDS);
const ARRAY = new Set(SUBSCHEMA_ARRAY_KEYWORDS);
const MAP = new Set(SUBSCHEMA_MAP_KEYWORDS);

/** How a keyword holds subschemas: `single`, `array`, `map`, or `undefined` when its value is not a schema. `items` answers by its value's shape. */
export function subschemaShape(keyword: string, value: unknown): 'single' | 'array' | 'map' | undefined {
  if (ARRAY.has(keyword) && Array.isArray(value)) return 'array';
  if (SINGLE.has(keyword) && !Array.isArray(value)) return 'single';
  if (MAP.has(keyword)) return 'map';
  return undefined;
}

/** Whether the keyword can hold a subschema in some form. */
export function holdsSubschemas(keyword: string): boolean {
  return SINGLE.has(keyword) || ARRAY.has(keyword) || MAP.has(keyword);
}
