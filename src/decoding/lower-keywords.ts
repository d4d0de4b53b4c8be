/**
 * The keywords of one schema object, read for the set algebra (`lower-set-algebra.ts`): which keywords are enforced,
 * refused or only annotations, what `type`, `enum` and `const` allow, and each type's own keywords applied to a typed
 * alternative. A malformed value is refused as the registry's Ajv refuses it (`SchemaCompileError`).
 * @module
 */
import { isPlainObject } from '../shared/own.js';
import { escapePointer } from '../shared/json-schema/json-pointer.js';
import { RegexUnsupportedError } from '../shared/regex/parse-regex.js';
import { CONTENT_KEYWORDS, CORE_KEYWORDS, METADATA_KEYWORDS, REFERENCE_KEYWORDS } from '../shared/json-schema/keywords.js';
import { DYNAMIC_REFERENCE_KEYWORDS } from './dynamic-reference.js';
import { FORMAT_LIMIT_KEYWORDS, formatComparison, stringOrderPattern } from './format-limits.js';
import type { LoweringContext } from './lower-context.js';
import type { SchemaLocations } from './lower-references.js';
import {
  ALL_TYPES,
  jsonEqual,
  tightenHigh,
  tightenLow,
  TRUE_SET,
  unionSets,
  type JsonType,
  type Location,
  type PatternGroup,
  type Typed,
} from './lower-typed.js';
import { formatLanguage } from './string-formats.js';

/**
 * Keywords that only annotate (or hold subschemas handled elsewhere): nothing to enforce. The references are
 * handled or refused below, and `$recursiveAnchor` is refused as the validator does.
 */
const ANNOTATIONS = new Set([
  ...CORE_KEYWORDS.filter((keyword) => !REFERENCE_KEYWORDS.includes(keyword) && keyword !== '$recursiveAnchor'),
  ...METADATA_KEYWORDS,
  ...CONTENT_KEYWORDS,
]);

/** Keywords this compiler enforces. */
const HANDLED = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
  'dependencies',
  'unevaluatedProperties',
  'unevaluatedItems',
  '$ref',
  ...DYNAMIC_REFERENCE_KEYWORDS,
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'nullable',
  'multipleOf',
  ...FORMAT_LIMIT_KEYWORDS,
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependencies',
]);

/** Assertion and applicator keywords of the 2020-12 vocabularies that the engine refuses. */
const REFUSED: Record<string, string> = {};

export function schemaArray(context: LoweringContext, value: unknown, pointer: string, keyword: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0) context.invalid(pointer, `"${keyword}" must be a non-empty array of schemas`);
  return value as unknown[];
}
/** Refuses what the registry's Ajv refuses about the schema object's keywords, and the formats and format bounds the engine cannot enforce. */
export function checkKeywords(site: KeywordSite): void {
  const { schema, pointer } = site;
  for (const keyword of Object.keys(schema)) {
    if (HANDLED.has(keyword) || ANNOTATIONS.has(keyword)) continue;
    const reason = REFUSED[keyword];
    if (reason !== undefined) site.context.refuse(keyword, pointer, reason);
    // any other keyword is unknown to 2020-12 and, per the spec, only an annotation
  }
  // Ajv refuses to compile a schema with draft-4 "id", so no value could pass the registry
  if (site.has('id')) site.context.invalid(pointer, 'the draft-4 keyword "id" is not supported (Ajv refuses it); use "$id"');
  // draft 2019-09: the 2020-12 meta-schema wants a string and Ajv's keyword a boolean, so the validator refuses both
  if (site.has('$recursiveAnchor'))
    site.context.invalid(pointer, '"$recursiveAnchor" is draft 2019-09 and Ajv refuses it in a 2020-12 schema; use "$dynamicAnchor"');
  if (site.has('format')) {
    if (typeof schema.format !== 'string') site.context.invalid(pointer, '"format" must be a string');
    const language = formatLanguage(schema.format);
    // a format ajv-formats does not know constrains nothing: the registry's Ajv (strict: false) ignores it, so the mask does too
    if (language !== undefined && language.kind === 'refused') {
      site.context.refuse('format', pointer, `format "${schema.format}" is not enforced: ${language.reason}`);
    }
  }

  for (const keyword of FORMAT_LIMIT_KEYWORDS) {
    if (!site.has(keyword)) continue;
    if (typeof schema[keyword] !== 'string') site.context.invalid(pointer, `"${keyword}" must be a string (Ajv refuses other values)`);
    if (!site.has('format')) site.context.invalid(pointer, `"${keyword}" needs "format" beside it (Ajv refuses it alone)`);
    const format = schema.format as string;
    // an unknown format is refused above; an unchecked one (password) has nothing to compare, so Ajv skips the bound
    const kind = formatLanguage(format)?.kind;
    if (kind === undefined || kind === 'unchecked') continue;
    const comparison = formatComparison(format);
    if (comparison === 'none') site.context.invalid(pointer, `"${keyword}": format "${format}" defines no comparison (Ajv refuses it)`);
    if (comparison === 'date-parser') {
      site.context.refuse(
        keyword,
        pointer,
        `${keyword} on format "${format}" is not enforced: ajv-formats compares through JavaScript's Date parser, whose verdicts (NaN for leap seconds and some offsets, which then pass) the engine does not model`,
      );
    }
  }
}

/** The types `type` (and OpenAPI's `nullable`) allow, whether numbers must be integers, and the `enum`/`const` values, if any. */
export function declaredTypes(site: KeywordSite): { types: JsonType[]; integerOnly: boolean; literals: unknown[] | undefined } {
  const { schema, pointer } = site;
  let types: JsonType[] = [...ALL_TYPES];
  let integerOnly = false;
  if (site.has('type')) {
    const declared = Array.isArray(schema.type) ? schema.type : [schema.type];
    const named = new Set<string>();
    for (const type of declared) {
      if (typeof type !== 'string' || !['null', 'boolean', 'object', 'array', 'string', 'number', 'integer'].includes(type))
        site.context.invalid(pointer, `"type" names an unknown type ${JSON.stringify(type)}`);
      named.add(type as string);
    }
    // OpenAPI's "nullable: true", which Ajv honours beside "type"
    if (schema.nullable === true) named.add('null');
    else if (schema.nullable === false && named.has('null')) site.context.invalid(pointer, '"type" allows null but "nullable" is false (Ajv refuses this)');
    types = ALL_TYPES.filter((type) => named.has(type) || (type === 'number' && named.has('integer')));
    integerOnly = named.has('integer') && !named.has('number');
  } else if (site.has('nullable')) {
    site.context.invalid(pointer, '"nullable" needs "type" beside it (Ajv refuses it alone)');
  }
  let literals: unknown[] | undefined;
  if (site.has('enum')) {
    if (!Array.isArray(schema.enum)) site.context.invalid(pointer, '"enum" must be an array');
    literals = schema.enum as unknown[];
  }
  if (site.has('const')) literals = literals === undefined ? [schema.const] : literals.filter((value) => jsonEqual(value, schema.const));

  return { types, integerOnly, literals };
}

/** One schema object as the keyword readers see it, made once per object: each accessor refuses a malformed value as Ajv does. */
export class KeywordSite {
  readonly schema: Record<string, unknown>;
  readonly pointer: string;

  constructor(
    readonly context: LoweringContext,
    readonly references: SchemaLocations,
    readonly location: Location,
  ) {
    this.schema = location.schema as Record<string, unknown>;
    this.pointer = location.place.pointer;
  }

  has(keyword: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.schema, keyword);
  }

  /** A non-negative integer keyword, or undefined when absent. */
  count(keyword: string): number | undefined {
    if (!this.has(keyword)) return undefined;
    const value = this.schema[keyword];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) this.context.invalid(this.pointer, `"${keyword}" must be a non-negative integer`);
    return value as number;
  }

  /** A finite number keyword, or undefined when absent. */
  bound(keyword: string): number | undefined {
    if (!this.has(keyword)) return undefined;
    const value = this.schema[keyword];
    if (typeof value !== 'number' || !Number.isFinite(value)) this.context.invalid(this.pointer, `"${keyword}" must be a number`);
    return value as number;
  }
}

/** The keywords of the site's schema that constrain values of `typed`'s type, applied to it. */
export function applyKeywords(typed: Typed, site: KeywordSite): void {
  if (typed.type === 'string') applyStringKeywords(typed, site);
  else if (typed.type === 'number') applyNumberKeywords(typed, site);
  else if (typed.type === 'array') applyArrayKeywords(typed, site);
  else if (typed.type === 'object') applyPropertyKeywords(typed, site);
}

/** minLength, maxLength, pattern, and the formats that constrain strings (with their string-order bounds). */
function applyStringKeywords(typed: Typed, site: KeywordSite): void {
  const { schema, pointer } = site;
  typed.minLength = site.count('minLength') ?? 0;
  typed.maxLength = site.count('maxLength') ?? Infinity;
  if (site.has('pattern')) {
    if (typeof schema.pattern !== 'string') site.context.invalid(pointer, '"pattern" must be a string');
    typed.patterns.push({ source: schema.pattern as string, pointer });
  }
  // number formats (int32…) and unchecked ones (password) do not constrain strings, as in Ajv
  if (site.has('format') && formatLanguage(schema.format as string)?.kind === 'string') typed.formats.push({ source: schema.format as string, pointer });
  // ajv-formats compares dates in string order: a regular bound, enforced as one more pattern
  if (site.has('format') && formatComparison(schema.format as string) === 'string-order') {
    for (const keyword of FORMAT_LIMIT_KEYWORDS) {
      const source = site.has(keyword) ? stringOrderPattern(keyword, schema[keyword] as string) : undefined;
      if (source !== undefined) typed.patterns.push({ source, pointer: `${pointer}/${keyword}` });
    }
  }
}

/** The bounds, multipleOf, and the formats that constrain numbers. */
function applyNumberKeywords(typed: Typed, site: KeywordSite): void {
  const { schema, pointer } = site;
  const minimum = site.bound('minimum');
  const maximum = site.bound('maximum');
  const exclusiveMinimum = site.bound('exclusiveMinimum');
  const exclusiveMaximum = site.bound('exclusiveMaximum');
  if (minimum !== undefined) tightenLow(typed, minimum, false);
  if (exclusiveMinimum !== undefined) tightenLow(typed, exclusiveMinimum, true);
  if (maximum !== undefined) tightenHigh(typed, maximum, false);
  if (exclusiveMaximum !== undefined) tightenHigh(typed, exclusiveMaximum, true);
  if (site.has('multipleOf')) {
    const divisor = schema.multipleOf;
    if (typeof divisor !== 'number' || !(divisor > 0) || !Number.isFinite(divisor))
      site.context.invalid(pointer, '"multipleOf" must be a number greater than 0');
    typed.multiples.push(divisor as number);
  }
  // string formats do not constrain numbers, as in Ajv
  const format = site.has('format') ? formatLanguage(schema.format as string) : undefined;
  if (format?.kind === 'number') {
    if (format.integer) typed.integer = true;
    tightenLow(typed, format.minimum, false);
    tightenHigh(typed, format.maximum, false);
  }
}

/** minItems, maxItems, uniqueItems, the tuple and the rest (2020-12 or draft-7 spelling), and contains. */
function applyArrayKeywords(typed: Typed, site: KeywordSite): void {
  const { references, location, schema, pointer } = site;
  typed.minItems = site.count('minItems') ?? 0;
  typed.maxItems = site.count('maxItems') ?? Infinity;
  if (schema.uniqueItems === true) typed.uniqueItems = true;
  let rest: unknown = site.has('items') ? schema.items : undefined;
  let prefix: unknown[] = [];
  if (site.has('prefixItems')) prefix = schemaArray(site.context, schema.prefixItems, pointer, 'prefixItems');
  if (Array.isArray(rest)) {
    // draft 2019 and older: items as an array is the tuple, additionalItems the rest
    prefix = rest;
    rest = site.has('additionalItems') ? schema.additionalItems : undefined;
    typed.prefix = prefix.map((item, index) => references.child(location, 'items', item, `/${index}`));
    typed.items = rest === undefined ? TRUE_SET : references.child(location, 'additionalItems', rest);
  } else {
    typed.prefix = prefix.map((item, index) => references.child(location, 'prefixItems', item, `/${index}`));
    typed.items = rest === undefined ? TRUE_SET : references.child(location, 'items', rest);
  }
  // 2020-12: minContains defaults to 1; both bounds mean nothing without contains
  const minContains = site.count('minContains') ?? 1;
  const maxContains = site.count('maxContains') ?? Infinity;
  if (site.has('contains') && !(minContains === 0 && maxContains === Infinity)) {
    typed.contains.push({ set: references.child(location, 'contains', schema.contains), min: minContains, max: maxContains, pointer });
  }
}

/** properties, required and additionalProperties, then the other object keywords. */
function applyPropertyKeywords(typed: Typed, site: KeywordSite): void {
  const { references, location, schema, pointer } = site;
  if (site.has('properties')) {
    if (!isPlainObject(schema.properties)) site.context.invalid(pointer, '"properties" must be an object');
    for (const [name, value] of Object.entries(schema.properties)) {
      typed.order.push(name);
      typed.properties.set(name, references.child(location, 'properties', value, `/${escapePointer(name)}`));
    }
  }
  if (site.has('required')) {
    if (!Array.isArray(schema.required) || schema.required.some((name) => typeof name !== 'string'))
      site.context.invalid(pointer, '"required" must be an array of strings');
    for (const name of schema.required as string[]) typed.required.add(name);
  }
  if (site.has('additionalProperties')) typed.additional = references.child(location, 'additionalProperties', schema.additionalProperties);
  applyObjectKeywords(typed, site);
}

/** minProperties, maxProperties, patternProperties, propertyNames, dependentRequired and draft-7 dependencies with array values. */
export function applyObjectKeywords(typed: Typed, site: KeywordSite): void {
  const { references, location, schema, pointer } = site;
  for (const keyword of ['minProperties', 'maxProperties'] as const) {
    if (!site.has(keyword)) continue;
    const value = schema[keyword];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) site.context.invalid(pointer, `"${keyword}" must be a non-negative integer`);
    typed[keyword] = value as number;
  }
  if (site.has('propertyNames')) typed.propertyNames = references.child(location, 'propertyNames', schema.propertyNames);
  if (site.has('patternProperties')) {
    if (!isPlainObject(schema.patternProperties)) site.context.invalid(pointer, '"patternProperties" must be an object');
    const rules: PatternGroup['rules'][number][] = [];
    let unsupported = false;
    for (const [source, value] of Object.entries(schema.patternProperties)) {
      try {
        rules.push({
          source,
          set: references.child(location, 'patternProperties', value, `/${escapePointer(source)}`),
          dfa: site.context.options.cache.pattern(source, false, site.context.options.automatonWork),
        });
      } catch (error) {
        if (!(error instanceof RegexUnsupportedError)) throw error;
        site.context.refuse('patternProperties', `${pointer}/patternProperties/${escapePointer(source)}`, `the regex uses ${error.message}`);
        unsupported = true;
      }
    }
    if (unsupported) {
      // lenient: neither the patterns nor additionalProperties constrain undeclared keys (a looser language)
      typed.additional = TRUE_SET;
    } else {
      for (const name of typed.order) {
        for (const rule of rules) if (rule.dfa.matches(name)) typed.properties.set(name, unionSets(typed.properties.get(name)!, rule.set));
      }
      typed.patternGroups.push({ rules, additional: typed.additional });
      typed.additional = TRUE_SET;
    }
  }
  for (const keyword of ['dependentRequired', 'dependencies'] as const) {
    if (!site.has(keyword)) continue;
    if (!isPlainObject(schema[keyword])) site.context.invalid(pointer, `"${keyword}" must be an object`);
    for (const [name, value] of Object.entries(schema[keyword] as Record<string, unknown>)) {
      if (Array.isArray(value)) {
        if (value.some((dependent) => typeof dependent !== 'string')) site.context.invalid(pointer, `"${keyword}/${name}" must be an array of strings`);
        const dependents = typed.dependencies.get(name) ?? new Set<string>();
        for (const dependent of value as string[]) dependents.add(dependent);
        typed.dependencies.set(name, dependents);
      } else if (keyword === 'dependentRequired') {
        site.context.invalid(pointer, `"dependentRequired/${name}" must be an array of strings`);
      }
      // a schema-valued draft-7 dependency is a dependentSchemas entry: applyDependencies splits the alternatives for it
    }
  }
}
