/**
 * JSON Schema (2020-12) → value nodes (`grammar-ir.ts`). Each schema denotes a union
 * of typed alternatives; `allOf`, `$ref` and sibling keywords intersect them, `anyOf`
 * (and `oneOf` with provably disjoint branches) unite them. A keyword that cannot be
 * enforced exactly is an `UnsupportedSchemaError` naming it and its JSON pointer.
 * @module
 */
import { SchemaCompileError } from '../shared/errors.js';
import { isPlainObject } from '../shared/own.js';
import { UnsupportedSchemaError } from './decoding-errors.js';
import {
  ByteTrie,
  CodePointTrie,
  type ArrayAlternative,
  type KeyClass,
  type ObjectAlternative,
  type ObjectProgressRules,
  type PropertyRule,
  type StringAlternative,
  type ValueNode,
} from './grammar-ir.js';
import { toPlainDecimal } from './number-language.js';
import type { GrammarCache } from './grammar-cache.js';
import { CodePointDfa, MAX_DFA_STATES } from '../shared/regex/code-point-dfa.js';
import { RegexUnsupportedError } from '../shared/regex/parse-regex.js';
import { CONTENT_KEYWORDS, CORE_KEYWORDS, METADATA_KEYWORDS, REFERENCE_KEYWORDS } from '../shared/json-schema/keywords.js';
import { SchemaRegistry, type SchemaPlace } from '../shared/json-schema/schema-registry.js';
import { formatLanguage, SUPPORTED_FORMATS, type FormatAlternative } from './string-formats.js';
import { keySignatureLanguages, MAX_KEY_PATTERNS, namesDfa } from './key-signature-languages.js';
import { MAX_TRACKED_PROPERTIES, objectMinHeight } from './object-progress.js';

/** A keyword the compiler dropped because `lenient` was set. */
export interface RelaxedKeyword {
  /** The keyword, e.g. `uniqueItems`, or `format` / `pattern` for an unsupported value. */
  readonly keyword: string;
  /** JSON pointer of the schema object holding it. */
  readonly pointer: string;
  /** What the engine could not enforce, and so no longer enforces. */
  readonly details: string;
}

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';
const ALL_TYPES: readonly JsonType[] = ['null', 'boolean', 'object', 'array', 'string', 'number'];

/** Sorted ids of schema locations that must all hold; `[]` is `true`, `[FALSE_LOCATION]` is `false`. */
type LocationSet = readonly number[];
const FALSE_LOCATION = 0;
const TRUE_SET: LocationSet = [];
const FALSE_SET: LocationSet = [FALSE_LOCATION];

interface Location {
  readonly id: number;
  readonly schema: unknown;
  readonly place: SchemaPlace;
}

interface PatternRule {
  readonly source: string;
  readonly pointer: string;
}

/** One typed alternative of a denotation, before lowering. */
interface Typed {
  type: JsonType;
  integer: boolean;
  /** enum/const values of this type that remain possible; undefined when unrestricted. */
  literals: unknown[] | undefined;
  minLength: number;
  maxLength: number;
  patterns: PatternRule[];
  formats: PatternRule[];
  minimum: number;
  exclusiveMinimum: boolean;
  maximum: number;
  exclusiveMaximum: boolean;
  prefix: LocationSet[];
  items: LocationSet;
  minItems: number;
  maxItems: number;
  order: string[];
  properties: Map<string, LocationSet>;
  required: Set<string>;
  /** Value of keys neither declared nor governed by a pattern group (with groups: conjoined with theirs). */
  additional: LocationSet;
  minProperties: number;
  maxProperties: number;
  propertyNames: LocationSet;
  /** One per schema with patternProperties: its patterns, and its additionalProperties for keys matching none. */
  patternGroups: PatternGroup[];
  /** dependentRequired (and array-valued draft-7 dependencies): name → names it makes required. */
  dependencies: Map<string, Set<string>>;
  pointer: string;
}

interface PatternGroup {
  readonly rules: readonly { readonly source: string; readonly set: LocationSet; readonly dfa: CodePointDfa }[];
  readonly additional: LocationSet;
}

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
  '$ref',
  'uniqueItems',
  'nullable',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'dependentRequired',
  'dependencies',
]);

/** Assertion and applicator keywords of the 2020-12 vocabularies that the engine refuses. */
const REFUSED: Record<string, string> = {
  multipleOf: 'multipleOf is not enforced',
  dependentSchemas: 'dependentSchemas is not enforced',
  contains: 'contains is not enforced',
  minContains: 'minContains is not enforced',
  maxContains: 'maxContains is not enforced',
  if: 'if/then/else is not enforced',
  then: 'if/then/else is not enforced',
  else: 'if/then/else is not enforced',
  unevaluatedProperties: 'unevaluatedProperties is not enforced',
  unevaluatedItems: 'unevaluatedItems is not enforced',
  $dynamicRef: '$dynamicRef is not resolved',
  $recursiveRef: '$recursiveRef is not resolved',
  formatMinimum: "ajv-formats' formatMinimum is not enforced",
  formatMaximum: "ajv-formats' formatMaximum is not enforced",
  formatExclusiveMinimum: "ajv-formats' formatExclusiveMinimum is not enforced",
  formatExclusiveMaximum: "ajv-formats' formatExclusiveMaximum is not enforced",
};

/** Most typed alternatives one schema may denote before it is refused as too combinatorial. */
const MAX_ALTERNATIVES = 256;

export interface LowerOptions {
  readonly lenient: boolean;
  /** `any`: declared properties may come in any order, each at most once. Default `schema`. */
  readonly propertyOrder?: 'schema' | 'any';
  readonly schemas: Readonly<Record<string, unknown>>;
  /** Where pattern, format and number automata are kept between compiles. */
  readonly cache: GrammarCache;
}

export interface LoweredSchema {
  readonly root: ValueNode;
  readonly nodes: readonly ValueNode[];
  readonly relaxed: readonly RelaxedKeyword[];
  /** The engine-layout text of a value, or undefined when the schema rejects it. */
  serialize(value: unknown): string | undefined;
  /** Whether the schema (as the engine enforces it) accepts the value. */
  accepts(value: unknown): boolean;
}

const SUPPORTED_FORMAT_LIST = SUPPORTED_FORMATS.join(', ');

/** One alternative of every string format on a string, combined: regexes that must all match, and length bounds. */
interface FormatChoice {
  readonly patterns: readonly { readonly source: string; readonly ignoreCase: boolean }[];
  readonly minLength: number;
  readonly maxLength: number;
  readonly pointer: string | undefined;
}

/** The ways a string can satisfy all its formats (the product of their alternatives; one way when there is no format). */
function formatChoices(formats: readonly PatternRule[]): FormatChoice[] {
  let choices: FormatChoice[] = [{ patterns: [], minLength: 0, maxLength: Infinity, pointer: undefined }];
  for (const format of formats) {
    const language = formatLanguage(format.source);
    if (language?.kind !== 'string') continue;
    choices = choices.flatMap((choice) =>
      language.alternatives.map((alternative) => ({
        patterns: [...choice.patterns, ...alternative.patterns.map((source) => ({ source, ignoreCase: language.ignoreCase }))],
        minLength: Math.max(choice.minLength, alternative.minLength ?? 0),
        maxLength: Math.min(choice.maxLength, alternative.maxLength ?? Infinity),
        pointer: choice.pointer ?? format.pointer,
      })),
    );
  }
  return choices;
}

export function lowerJsonSchema(schema: unknown, options: LowerOptions): LoweredSchema {
  return new Lowering(schema, options).run();
}

class Lowering {
  private readonly registry: SchemaRegistry;
  private readonly locations: Location[] = [];
  private readonly locationOf = new Map<unknown, number>();
  private readonly denotations = new Map<number, Typed[]>();
  private readonly setDenotations = new Map<string, Typed[]>();
  private readonly inProgress = new Set<number>();
  private readonly nodes: ValueNode[] = [];
  private readonly nodeOf = new Map<string, ValueNode>();
  private readonly pending: { node: ValueNode; set: LocationSet }[] = [];
  private readonly relaxed: RelaxedKeyword[] = [];
  private readonly relaxedKeys = new Set<string>();
  private alternativeCount = 0;

  constructor(
    private readonly root: unknown,
    private readonly options: LowerOptions,
  ) {
    this.registry = new SchemaRegistry(root, options.schemas);
    this.locations.push({ id: FALSE_LOCATION, schema: false, place: { base: '', pointer: '#' } });
  }

  run(): LoweredSchema {
    const rootSet = this.locate(this.root, this.registry.placeOf(this.root) ?? { base: '', pointer: '#' });
    const root = this.nodeFor(rootSet);
    while (this.pending.length > 0) {
      const { node, set } = this.pending.pop()!;
      this.fill(node, set);
    }
    computeHeights(this.nodes);
    for (const node of this.nodes) node.alternatives = node.alternatives.filter((alternative) => alternative.height !== Infinity);
    return {
      root,
      nodes: this.nodes,
      relaxed: this.relaxed,
      serialize: (value) => this.serialize(value, rootSet),
      accepts: (value) => this.satisfiesSet(value, rootSet),
    };
  }

  // ---- errors ----------------------------------------------------------------

  /** Refuses a keyword, or (lenient) records it as relaxed and returns so the caller skips it. */
  private refuse(keyword: string, pointer: string, details: string): void {
    if (!this.options.lenient) throw new UnsupportedSchemaError(keyword, pointer, details);
    const key = `${keyword}\u0000${pointer}\u0000${details}`;
    if (this.relaxedKeys.has(key)) return;
    this.relaxedKeys.add(key);
    this.relaxed.push({ keyword, pointer, details });
  }

  private invalid(pointer: string, message: string): never {
    throw new SchemaCompileError(undefined, `${message} at ${pointer}`);
  }

  // ---- locations ---------------------------------------------------------------

  private locate(schema: unknown, place: SchemaPlace): LocationSet {
    if (schema === true) return TRUE_SET;
    if (schema === false) return FALSE_SET;
    if (!isPlainObject(schema)) this.invalid(place.pointer, 'a schema must be an object or a boolean');
    let id = this.locationOf.get(schema);
    if (id === undefined) {
      id = this.locations.length;
      this.locations.push({ id, schema, place: this.registry.placeOf(schema) ?? place });
      this.locationOf.set(schema, id);
    }
    return [id];
  }

  private child(location: Location, keyword: string, value: unknown, suffix = ''): LocationSet {
    return this.locate(value, { base: location.place.base, pointer: `${location.place.pointer}/${keyword}${suffix}` });
  }

  // ---- denotation ---------------------------------------------------------------

  private denoteSet(set: LocationSet): Typed[] {
    if (set.length === 0) return ALL_TYPES.map((type) => blank(type, '#'));
    if (set[0] === FALSE_LOCATION) return [];
    const key = set.join(',');
    let result = this.setDenotations.get(key);
    if (result === undefined) {
      result = this.denote(set[0]!);
      for (let index = 1; index < set.length; index++)
        result = this.intersectLists(result, this.denote(set[index]!), this.locations[set[index]!]!.place.pointer);
      this.setDenotations.set(key, result);
    }
    return result;
  }

  private denote(id: number): Typed[] {
    const cached = this.denotations.get(id);
    if (cached !== undefined) return cached;
    const location = this.locations[id]!;
    if (this.inProgress.has(id)) {
      this.refuse('$ref', location.place.pointer, 'a $ref cycle that never enters a property or item (the schema refers to itself without nesting)');
      return ALL_TYPES.map((type) => blank(type, location.place.pointer));
    }
    this.inProgress.add(id);
    try {
      const result = this.denoteObject(location);
      this.denotations.set(id, result);
      return result;
    } finally {
      this.inProgress.delete(id);
    }
  }

  private denoteObject(location: Location): Typed[] {
    const schema = location.schema as Record<string, unknown>;
    const pointer = location.place.pointer;
    const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
    for (const keyword of Object.keys(schema)) {
      if (HANDLED.has(keyword) || ANNOTATIONS.has(keyword)) continue;
      const reason = REFUSED[keyword];
      if (reason !== undefined) this.refuse(keyword, pointer, reason);
      // any other keyword is unknown to 2020-12 and, per the spec, only an annotation
    }
    // Ajv refuses to compile a schema with draft-4 "id", so no value could pass the registry
    if (has('id')) this.invalid(pointer, 'the draft-4 keyword "id" is not supported (Ajv refuses it); use "$id"');
    // draft 2019-09: the 2020-12 meta-schema wants a string and Ajv's keyword a boolean, so the validator refuses both
    if (has('$recursiveAnchor')) this.invalid(pointer, '"$recursiveAnchor" is draft 2019-09 and Ajv refuses it in a 2020-12 schema; use "$dynamicAnchor"');
    if (has('format')) {
      if (typeof schema.format !== 'string') this.invalid(pointer, '"format" must be a string');
      const language = formatLanguage(schema.format);
      if (language === undefined) {
        this.refuse('format', pointer, `format "${schema.format}" is unknown to ajv-formats (supported: ${SUPPORTED_FORMAT_LIST})`);
      } else if (language.kind === 'refused') {
        this.refuse('format', pointer, `format "${schema.format}" is not enforced: ${language.reason}`);
      }
    }
    if (has('uniqueItems') && schema.uniqueItems === true && !(typeof schema.maxItems === 'number' && schema.maxItems <= 1)) {
      this.refuse('uniqueItems', pointer, 'uniqueItems: true is not enforced (only with maxItems ≤ 1)');
    }

    let types: JsonType[] = [...ALL_TYPES];
    let integerOnly = false;
    if (has('type')) {
      const declared = Array.isArray(schema.type) ? schema.type : [schema.type];
      const named = new Set<string>();
      for (const type of declared) {
        if (typeof type !== 'string' || !['null', 'boolean', 'object', 'array', 'string', 'number', 'integer'].includes(type))
          this.invalid(pointer, `"type" names an unknown type ${JSON.stringify(type)}`);
        named.add(type as string);
      }
      // OpenAPI's "nullable: true", which Ajv honours beside "type"
      if (schema.nullable === true) named.add('null');
      else if (schema.nullable === false && named.has('null')) this.invalid(pointer, '"type" allows null but "nullable" is false (Ajv refuses this)');
      types = ALL_TYPES.filter((type) => named.has(type) || (type === 'number' && named.has('integer')));
      integerOnly = named.has('integer') && !named.has('number');
    } else if (has('nullable')) {
      this.invalid(pointer, '"nullable" needs "type" beside it (Ajv refuses it alone)');
    }
    let literals: unknown[] | undefined;
    if (has('enum')) {
      if (!Array.isArray(schema.enum)) this.invalid(pointer, '"enum" must be an array');
      literals = schema.enum as unknown[];
    }
    if (has('const')) literals = literals === undefined ? [schema.const] : literals.filter((value) => jsonEqual(value, schema.const));

    let result: Typed[] = [];
    for (const type of types) {
      const typed = blank(type, pointer);
      if (type === 'number') typed.integer = integerOnly;
      if (literals !== undefined) typed.literals = literals.filter((value) => jsonTypeOf(value) === type || (type === 'number' && typeof value === 'number'));
      if (typed.literals !== undefined && typed.literals.length === 0) continue;
      this.applyKeywords(typed, location, schema);
      result.push(typed);
    }

    if (has('$ref')) {
      if (typeof schema.$ref !== 'string') this.invalid(pointer, '"$ref" must be a string');
      const target = this.registry.resolve(schema.$ref as string, location.place.base);
      if (target === undefined) {
        this.refuse('$ref', pointer, `cannot resolve "${String(schema.$ref)}"; pass remote schemas in the "schemas" option, keyed by their URI`);
      } else {
        const targetSet = this.locate(target.schema, target.place);
        result = this.intersectLists(result, this.denoteSet(targetSet), pointer);
      }
    }
    if (has('allOf')) {
      const parts = this.schemaArray(schema.allOf, pointer, 'allOf');
      parts.forEach((part, index) => {
        result = this.intersectLists(result, this.denoteSet(this.child(location, 'allOf', part, `/${index}`)), `${pointer}/allOf/${index}`);
      });
    }
    if (has('anyOf')) {
      const parts = this.schemaArray(schema.anyOf, pointer, 'anyOf');
      const union = parts.flatMap((part, index) => this.denoteSet(this.child(location, 'anyOf', part, `/${index}`)));
      result = this.intersectLists(result, union, `${pointer}/anyOf`);
    }
    if (has('oneOf')) {
      const parts = this.schemaArray(schema.oneOf, pointer, 'oneOf');
      const branches = parts.map((part, index) => this.denoteSet(this.child(location, 'oneOf', part, `/${index}`)));
      // a branch that shares no value with the rest of the schema cannot make two branches hold
      const live = branches.map((branch) => this.intersectLists(result, branch, `${pointer}/oneOf`)).filter((branch) => branch.length > 0);
      for (let left = 0; left < live.length; left++) {
        for (let right = left + 1; right < live.length; right++) {
          if (!this.disjointLists(live[left]!, live[right]!, 3)) {
            this.refuse(
              'oneOf',
              pointer,
              'its branches may overlap, so "exactly one" cannot be enforced; make them disjoint (e.g. by type, const or a required property with distinct values) or use anyOf',
            );
          }
        }
      }
      result = live.flat();
    }
    if (has('not')) result = this.applyNot(result, location, schema.not);
    if (result.length > MAX_ALTERNATIVES) this.refuse('anyOf', pointer, `the schema expands to more than ${MAX_ALTERNATIVES} alternatives`);
    return result;
  }

  private applyNot(result: Typed[], location: Location, negated: unknown): Typed[] {
    const pointer = `${location.place.pointer}/not`;
    if (negated === true) return [];
    if (negated === false) return result;
    if (isPlainObject(negated)) {
      const keys = Object.keys(negated).filter((key) => !ANNOTATIONS.has(key));
      if (keys.length === 0) return [];
      if (keys.length === 1 && keys[0] === 'type') {
        const excluded = new Set<string>(Array.isArray(negated.type) ? (negated.type as string[]) : [negated.type as string]);
        return result.flatMap((typed) => {
          if (excluded.has(typed.type)) return [];
          if (typed.type === 'number' && excluded.has('integer')) {
            if (typed.integer) return [];
            this.refuse('not', pointer, '"not": {"type": "integer"} on numbers (non-integers only) is not enforced');
          }
          return [typed];
        });
      }
      if (keys.length === 1 && (keys[0] === 'const' || keys[0] === 'enum')) {
        const values = keys[0] === 'const' ? [negated.const] : Array.isArray(negated.enum) ? (negated.enum as unknown[]) : [];
        const remaining = result.flatMap((typed) => {
          if (typed.literals !== undefined) {
            const kept = typed.literals.filter((value) => !values.some((excluded) => jsonEqual(excluded, value)));
            return kept.length === 0 ? [] : [{ ...typed, literals: kept }];
          }
          if (typed.type === 'null' && values.includes(null)) return [];
          if (typed.type === 'boolean') {
            const kept = [true, false].filter((value) => !values.includes(value));
            return kept.length === 0 ? [] : [{ ...typed, literals: kept }];
          }
          if (values.some((value) => jsonTypeOf(value) === typed.type || (typed.type === 'number' && typeof value === 'number'))) {
            this.refuse('not', pointer, `excluding particular ${typed.type} values is not enforced`);
          }
          return [typed];
        });
        return remaining;
      }
    }
    this.refuse('not', pointer, '"not" is only enforced around "type", "const", "enum", true or an empty schema');
    return result;
  }

  private schemaArray(value: unknown, pointer: string, keyword: string): unknown[] {
    if (!Array.isArray(value) || value.length === 0) this.invalid(pointer, `"${keyword}" must be a non-empty array of schemas`);
    return value as unknown[];
  }

  private applyKeywords(typed: Typed, location: Location, schema: Record<string, unknown>): void {
    const pointer = location.place.pointer;
    const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
    const count = (keyword: string): number | undefined => {
      if (!has(keyword)) return undefined;
      const value = schema[keyword];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) this.invalid(pointer, `"${keyword}" must be a non-negative integer`);
      return value as number;
    };
    const bound = (keyword: string): number | undefined => {
      if (!has(keyword)) return undefined;
      const value = schema[keyword];
      if (typeof value !== 'number' || !Number.isFinite(value)) this.invalid(pointer, `"${keyword}" must be a number`);
      return value as number;
    };
    switch (typed.type) {
      case 'string': {
        typed.minLength = count('minLength') ?? 0;
        typed.maxLength = count('maxLength') ?? Infinity;
        if (has('pattern')) {
          if (typeof schema.pattern !== 'string') this.invalid(pointer, '"pattern" must be a string');
          typed.patterns.push({ source: schema.pattern as string, pointer });
        }
        // number formats (int32…) and unchecked ones (password) do not constrain strings, as in Ajv
        if (has('format') && formatLanguage(schema.format as string)?.kind === 'string') typed.formats.push({ source: schema.format as string, pointer });
        break;
      }
      case 'number': {
        const minimum = bound('minimum');
        const maximum = bound('maximum');
        const exclusiveMinimum = bound('exclusiveMinimum');
        const exclusiveMaximum = bound('exclusiveMaximum');
        if (minimum !== undefined) tightenLow(typed, minimum, false);
        if (exclusiveMinimum !== undefined) tightenLow(typed, exclusiveMinimum, true);
        if (maximum !== undefined) tightenHigh(typed, maximum, false);
        if (exclusiveMaximum !== undefined) tightenHigh(typed, exclusiveMaximum, true);
        // string formats do not constrain numbers, as in Ajv
        const format = has('format') ? formatLanguage(schema.format as string) : undefined;
        if (format?.kind === 'number') {
          if (format.integer) typed.integer = true;
          tightenLow(typed, format.minimum, false);
          tightenHigh(typed, format.maximum, false);
        }
        break;
      }
      case 'array': {
        typed.minItems = count('minItems') ?? 0;
        typed.maxItems = count('maxItems') ?? Infinity;
        let rest: unknown = has('items') ? schema.items : undefined;
        let prefix: unknown[] = [];
        if (has('prefixItems')) prefix = this.schemaArray(schema.prefixItems, pointer, 'prefixItems');
        if (Array.isArray(rest)) {
          // draft 2019 and older: items as an array is the tuple, additionalItems the rest
          prefix = rest;
          rest = has('additionalItems') ? schema.additionalItems : undefined;
          typed.prefix = prefix.map((item, index) => this.child(location, 'items', item, `/${index}`));
          typed.items = rest === undefined ? TRUE_SET : this.child(location, 'additionalItems', rest);
        } else {
          typed.prefix = prefix.map((item, index) => this.child(location, 'prefixItems', item, `/${index}`));
          typed.items = rest === undefined ? TRUE_SET : this.child(location, 'items', rest);
        }
        break;
      }
      case 'object': {
        if (has('properties')) {
          if (!isPlainObject(schema.properties)) this.invalid(pointer, '"properties" must be an object');
          for (const [name, value] of Object.entries(schema.properties)) {
            typed.order.push(name);
            typed.properties.set(name, this.child(location, 'properties', value, `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`));
          }
        }
        if (has('required')) {
          if (!Array.isArray(schema.required) || schema.required.some((name) => typeof name !== 'string'))
            this.invalid(pointer, '"required" must be an array of strings');
          for (const name of schema.required as string[]) typed.required.add(name);
        }
        if (has('additionalProperties')) typed.additional = this.child(location, 'additionalProperties', schema.additionalProperties);
        this.applyObjectKeywords(typed, location, schema);
        break;
      }
      default:
        break;
    }
  }

  // ---- intersection ----------------------------------------------------------------

  private intersectLists(left: readonly Typed[], right: readonly Typed[], pointer: string): Typed[] {
    const result: Typed[] = [];
    for (const a of left) {
      for (const b of right) {
        const merged = intersectTyped(a, b);
        if (merged !== undefined) result.push(merged);
        if (result.length > MAX_ALTERNATIVES * 4) {
          this.refuse('allOf', pointer, `combining the subschemas gives more than ${MAX_ALTERNATIVES} alternatives`);
          return result;
        }
      }
    }
    return result;
  }

  /** True when no value satisfies both lists (conservative: false when unsure). */
  private disjointLists(left: readonly Typed[], right: readonly Typed[], depth: number): boolean {
    return left.every((a) => right.every((b) => this.disjointTyped(a, b, depth)));
  }

  private disjointTyped(a: Typed, b: Typed, depth: number): boolean {
    if (a.type !== b.type) return true;
    if (a.literals !== undefined && b.literals !== undefined) return !a.literals.some((value) => b.literals!.some((other) => jsonEqual(value, other)));
    if (a.literals !== undefined) return !a.literals.some((value) => this.satisfiesTyped(value, b));
    if (b.literals !== undefined) return !b.literals.some((value) => this.satisfiesTyped(value, a));
    switch (a.type) {
      case 'null':
        return false;
      case 'boolean':
        return false;
      case 'number': {
        const merged = intersectTyped(a, b);
        if (merged === undefined) return true;
        return (
          this.options.cache.numberAutomaton({
            integer: merged.integer,
            minimum: merged.minimum,
            exclusiveMinimum: merged.exclusiveMinimum,
            maximum: merged.maximum,
            exclusiveMaximum: merged.exclusiveMaximum,
          }) === null
        );
      }
      case 'string': {
        if (Math.max(a.minLength, b.minLength) > Math.min(a.maxLength, b.maxLength)) return true;
        try {
          // no pattern or format on either side: both accept overlapping strings
          return formatChoices([...a.formats, ...b.formats]).every((choice) => {
            const dfa = this.stringDfa([...a.patterns, ...b.patterns], choice, false);
            return dfa !== undefined && dfa.start < 0;
          });
        } catch {
          return false;
        }
      }
      case 'array': {
        if (Math.max(a.minItems, b.minItems) > Math.min(a.maxItems, b.maxItems)) return true;
        if (depth <= 0) return false;
        const length = Math.max(a.prefix.length, b.prefix.length);
        for (let index = 0; index < length; index++) {
          if (index >= Math.max(a.minItems, b.minItems)) break;
          if (this.disjointLists(this.denoteSet(a.prefix[index] ?? a.items), this.denoteSet(b.prefix[index] ?? b.items), depth - 1)) return true;
        }
        return false;
      }
      case 'object': {
        if (depth <= 0) return false;
        for (const name of new Set([...a.required, ...b.required])) {
          const left = valueSetFor(a, name);
          const right = valueSetFor(b, name);
          if (a.required.has(name) || b.required.has(name)) {
            if (this.denoteSet(left).length === 0 || this.denoteSet(right).length === 0) return true;
          }
          if (a.required.has(name) && b.required.has(name) && this.disjointLists(this.denoteSet(left), this.denoteSet(right), depth - 1)) return true;
        }
        return false;
      }
    }
  }

  // ---- lowering -------------------------------------------------------------------

  private nodeFor(set: LocationSet): ValueNode {
    const key = set.join(',');
    let node = this.nodeOf.get(key);
    if (node === undefined) {
      const pointer = set.length === 0 ? '#' : this.locations[set[0]!]!.place.pointer;
      node = { id: this.nodes.length, pointer, alternatives: [], literals: null, height: Infinity };
      this.nodes.push(node);
      this.nodeOf.set(key, node);
      this.pending.push({ node, set });
    }
    return node;
  }

  private fill(node: ValueNode, set: LocationSet): void {
    const literals = new ByteTrie();
    let literalCount = 0;
    const addLiteral = (value: unknown): void => {
      literals.add(new TextEncoder().encode(literalText(value)), literalCount++);
    };
    for (const typed of this.denoteSet(set)) {
      if (typed.literals !== undefined) {
        for (const value of typed.literals) if (this.satisfiesTyped(value, typed)) addLiteral(value);
        continue;
      }
      switch (typed.type) {
        case 'null':
          addLiteral(null);
          break;
        case 'boolean':
          addLiteral(true);
          addLiteral(false);
          break;
        case 'number': {
          const automaton = this.options.cache.numberAutomaton({
            integer: typed.integer,
            minimum: typed.minimum,
            exclusiveMinimum: typed.exclusiveMinimum,
            maximum: typed.maximum,
            exclusiveMaximum: typed.exclusiveMaximum,
          });
          if (automaton !== null) node.alternatives.push({ kind: 'number', id: this.alternativeCount++, automaton, height: 1 });
          break;
        }
        case 'string':
          node.alternatives.push(...this.lowerString(typed));
          break;
        case 'array':
          node.alternatives.push(this.lowerArray(typed));
          break;
        case 'object':
          node.alternatives.push(this.lowerObject(typed));
          break;
      }
    }
    if (literalCount > 0) node.literals = literals;
  }

  /** The content DFA of a string with these patterns and one choice of format alternatives, or undefined when a pattern is refused (lenient). */
  private stringDfa(patterns: readonly PatternRule[], choice: FormatChoice, refuse: boolean): CodePointDfa | undefined {
    const automata: CodePointDfa[] = [];
    for (const pattern of patterns) {
      try {
        automata.push(this.options.cache.schemaPattern(pattern.source).dfa);
      } catch (error) {
        if (!(error instanceof RegexUnsupportedError)) throw error;
        if (refuse) this.refuse('pattern', pattern.pointer, `the regex uses ${error.message}`);
        else throw error;
      }
    }
    for (const { source, ignoreCase } of choice.patterns) automata.push(this.options.cache.pattern(source, ignoreCase));
    if (automata.length === 0) return undefined;
    try {
      return this.options.cache.intersection(automata);
    } catch (error) {
      if (!(error instanceof RegexUnsupportedError)) throw error;
      if (refuse) this.refuse('pattern', patterns[0]?.pointer ?? choice.pointer ?? '#', error.message);
      return undefined;
    }
  }

  /** One string alternative per combination of the formats' alternatives (usually one). */
  private lowerString(typed: Typed, exclude: CodePointTrie | null = null): StringAlternative[] {
    let patternMinLength = typed.minLength;
    let patternMaxLength = typed.maxLength;
    for (const pattern of typed.patterns) {
      try {
        const compiled = this.options.cache.schemaPattern(pattern.source);
        patternMinLength = Math.max(patternMinLength, compiled.minLength);
        patternMaxLength = Math.min(patternMaxLength, compiled.maxLength);
      } catch {
        // refused in stringDfa, with the regex's reason
      }
    }
    const alternatives: StringAlternative[] = [];
    for (const choice of formatChoices(typed.formats)) {
      const minLength = Math.max(patternMinLength, choice.minLength);
      const maxLength = Math.min(patternMaxLength, choice.maxLength);
      if (minLength > maxLength) continue;
      const constrained = this.stringDfa(typed.patterns, choice, true);
      const dfa = constrained ?? CodePointDfa.any();
      if (dfa.start < 0) continue;
      const alternative: StringAlternative = {
        kind: 'string',
        id: this.alternativeCount++,
        dfa,
        free: constrained === undefined,
        minLength,
        maxLength,
        exclude,
        height: 1,
      };
      if (stringFeasible(alternative)) alternatives.push(alternative);
    }
    return alternatives;
  }

  private lowerArray(typed: Typed): ArrayAlternative {
    const prefixLength = Math.min(typed.prefix.length, typed.maxItems);
    const prefix = typed.prefix.slice(0, prefixLength).map((set) => this.nodeFor(set));
    const items = typed.items[0] === FALSE_LOCATION || typed.maxItems <= prefixLength ? null : this.nodeFor(typed.items);
    const maxItems = items === null ? Math.min(typed.maxItems, prefixLength) : typed.maxItems;
    return { kind: 'array', id: this.alternativeCount++, prefix, items, minItems: typed.minItems, maxItems, height: Infinity };
  }

  private lowerObject(typed: Typed): ObjectAlternative {
    const names = layoutNames(typed);
    const excluded = new CodePointTrie();
    for (const name of names) excluded.add(name);
    const plan = this.planObject(typed, names);
    const properties: PropertyRule[] = plan.present.map((name) => ({
      name,
      value: this.nodeFor(valueSetFor(typed, name)),
      required: typed.required.has(name),
    }));
    const keys = new ByteTrie();
    const encoder = new TextEncoder();
    properties.forEach((property, index) => keys.add(encoder.encode(JSON.stringify(property.name)), index));
    const reach = new Int32Array(properties.length + 1);
    let nextRequired = properties.length - 1;
    for (let index = properties.length; index >= 0; index--) {
      // reach[i + 1]: after property i was written, keys up to this index may come next
      reach[index] = nextRequired;
      if (index - 1 >= 0 && properties[index - 1]!.required) nextRequired = index - 1;
    }
    const keyClasses = this.keyClasses(typed, names, excluded);
    return {
      kind: 'object',
      id: this.alternativeCount++,
      properties,
      keyClasses,
      keys,
      keyValues: keys.subtreeValues(),
      reach,
      blocked: plan.impossible,
      progress: this.progressRules(typed, properties, plan.dependencies, keyClasses.length > 0),
      height: Infinity,
    };
  }

  /** The declared names that can appear (not false, accepted by propertyNames, their dependents can appear too) and the dependencies enforced. */
  private planObject(typed: Typed, names: readonly string[]): { present: string[]; impossible: boolean; dependencies: Map<string, Set<string>> } {
    const absent = new Set<string>();
    for (const name of names) {
      if (valueSetFor(typed, name)[0] === FALSE_LOCATION || (typed.propertyNames.length > 0 && !this.satisfiesSet(name, typed.propertyNames))) absent.add(name);
    }
    let dependencies = typed.dependencies;
    if (dependencies.size > 0 && typed.maxProperties !== Infinity) {
      this.refuse('dependentRequired', typed.pointer, 'dependentRequired together with maxProperties is not enforced');
      dependencies = new Map();
    }
    for (let changed = true; changed;) {
      changed = false;
      for (const [name, dependents] of dependencies) {
        if (!absent.has(name) && [...dependents].some((dependent) => absent.has(dependent))) {
          absent.add(name);
          changed = true;
        }
      }
    }
    const present = names.filter((name) => !absent.has(name));
    const impossible = typed.minProperties > typed.maxProperties || names.some((name) => absent.has(name) && typed.required.has(name));
    return { present, impossible, dependencies };
  }

  private progressRules(
    typed: Typed,
    properties: readonly PropertyRule[],
    dependencies: Map<string, Set<string>>,
    hasKeyClasses: boolean,
  ): ObjectProgressRules {
    const index = new Map(properties.map((property, at) => [property.name, at]));
    const edges = [...dependencies].filter(([name, dependents]) => index.has(name) && [...dependents].some((dependent) => dependent !== name));
    // one declared property without other keys has one order anyway
    let anyOrder = this.options.propertyOrder === 'any' && (properties.length > 1 || (properties.length === 1 && hasKeyClasses));
    let tracked = anyOrder || edges.length > 0;
    if (tracked && properties.length > MAX_TRACKED_PROPERTIES) {
      if (edges.length > 0)
        this.refuse(
          'dependentRequired',
          typed.pointer,
          `tracking which of ${properties.length} declared properties were written exceeds MAX_TRACKED_PROPERTIES (${MAX_TRACKED_PROPERTIES})`,
        );
      if (anyOrder && !this.options.lenient)
        throw new UnsupportedSchemaError(
          'propertyOrder',
          typed.pointer,
          `propertyOrder "any" on an object with ${properties.length} declared properties exceeds MAX_TRACKED_PROPERTIES (${MAX_TRACKED_PROPERTIES}); use propertyOrder "schema"`,
        );
      // lenient: the schema's order (still exact) and no dependentRequired (looser, listed in relaxed)
      anyOrder = false;
      tracked = false;
    }
    let minProperties = typed.minProperties;
    if (minProperties > 1 && hasKeyClasses) {
      this.refuse(
        'minProperties',
        typed.pointer,
        'minProperties above 1 with additional or pattern properties allowed is not enforced: a repeated key would count twice (duplicate keys are not detected)',
      );
      minProperties = 0;
    }
    const closure = new Int32Array(tracked ? properties.length : 0);
    let requiredMask = 0;
    if (tracked) {
      properties.forEach((property, at) => {
        closure[at] = 1 << at;
        if (property.required) requiredMask |= 1 << at;
      });
      for (const [name, dependents] of edges) for (const dependent of dependents) closure[index.get(name)!]! |= 1 << index.get(dependent)!;
      for (let changed = true; changed;) {
        changed = false;
        for (let at = 0; at < closure.length; at++) {
          let bits = closure[at]!;
          for (let other = 0; other < closure.length; other++) if (((bits >>> other) & 1) === 1) bits |= closure[other]!;
          if (bits !== closure[at]) {
            closure[at] = bits;
            changed = true;
          }
        }
      }
    }
    const requiredFrom = new Int32Array(properties.length + 1);
    for (let at = properties.length - 1; at >= 0; at--) requiredFrom[at] = requiredFrom[at + 1]! + (properties[at]!.required ? 1 : 0);
    return {
      anyOrder,
      tracked,
      requiredMask,
      closure,
      minProperties,
      maxProperties: typed.maxProperties,
      countCap: typed.maxProperties !== Infinity ? typed.maxProperties : minProperties,
      requiredFrom,
    };
  }

  /** Keys other than the declared names, grouped by the value schema they get. */
  private keyClasses(typed: Typed, names: readonly string[], excluded: CodePointTrie): KeyClass[] {
    const loose = (): KeyClass[] => [{ keys: [this.freeKey(excluded)], value: this.nodeFor(TRUE_SET) }];
    if (typed.patternGroups.length === 0 && typed.propertyNames.length === 0) {
      return typed.additional[0] === FALSE_LOCATION ? [] : [{ keys: [this.freeKey(excluded)], value: this.nodeFor(typed.additional) }];
    }
    const rules = typed.patternGroups.flatMap((group) => group.rules);
    if (rules.length > MAX_KEY_PATTERNS) {
      this.refuse('patternProperties', typed.pointer, `more than ${MAX_KEY_PATTERNS} patterns (MAX_KEY_PATTERNS) on one object is over budget`);
      return loose();
    }
    let languages: Map<number, CodePointDfa> | undefined;
    let keyLanguages: { dfa: CodePointDfa; minLength: number; maxLength: number }[];
    try {
      languages = keySignatureLanguages(
        namesDfa(names),
        rules.map((rule) => rule.dfa),
      );
      keyLanguages = typed.propertyNames.length === 0 ? [] : this.keyLanguages(typed.propertyNames);
    } catch (error) {
      if (!(error instanceof RegexUnsupportedError)) throw error;
      this.refuse('propertyNames', typed.pointer, error.message);
      return loose();
    }
    if (languages === undefined) {
      this.refuse('patternProperties', typed.pointer, `the key automaton (the product of the key patterns) exceeds ${MAX_DFA_STATES} states`);
      return loose();
    }
    const classes: KeyClass[] = [];
    for (const [signature, dfa] of languages) {
      let set = typed.additional;
      let offset = 0;
      for (const group of typed.patternGroups) {
        let matched = false;
        group.rules.forEach((rule, at) => {
          if (((signature >>> (offset + at)) & 1) === 1) {
            matched = true;
            set = unionSets(set, rule.set);
          }
        });
        if (!matched) set = unionSets(set, group.additional);
        offset += group.rules.length;
      }
      if (set[0] === FALSE_LOCATION) continue;
      const keys: StringAlternative[] = [];
      for (const language of typed.propertyNames.length === 0 ? [{ dfa, minLength: 0, maxLength: Infinity }] : keyLanguages) {
        let keyDfa = dfa;
        if (language.dfa !== dfa) {
          try {
            keyDfa = this.options.cache.intersection([dfa, language.dfa]);
          } catch (error) {
            if (!(error instanceof RegexUnsupportedError)) throw error;
            this.refuse('propertyNames', typed.pointer, error.message);
            return loose();
          }
        }
        if (keyDfa.start < 0) continue;
        const key: StringAlternative = {
          kind: 'string',
          id: this.alternativeCount++,
          dfa: keyDfa,
          free: false,
          minLength: language.minLength,
          maxLength: language.maxLength,
          exclude: null,
          height: 1,
        };
        if (stringFeasible(key)) keys.push(key);
      }
      if (keys.length > 0) classes.push({ keys, value: this.nodeFor(set) });
    }
    return classes;
  }

  private freeKey(excluded: CodePointTrie): StringAlternative {
    return {
      kind: 'string',
      id: this.alternativeCount++,
      dfa: CodePointDfa.any(),
      free: true,
      minLength: 0,
      maxLength: Infinity,
      exclude: excluded,
      height: 1,
    };
  }

  /** The string languages a propertyNames schema allows (non-string alternatives never apply to keys). */
  private keyLanguages(set: LocationSet): { dfa: CodePointDfa; minLength: number; maxLength: number }[] {
    const out: { dfa: CodePointDfa; minLength: number; maxLength: number }[] = [];
    for (const typed of this.denoteSet(set)) {
      if (typed.type !== 'string') continue;
      if (typed.literals !== undefined) {
        const dfa = namesDfa(typed.literals.filter((value) => this.satisfiesTyped(value, typed)) as string[]);
        if (dfa.start >= 0) out.push({ dfa, minLength: 0, maxLength: Infinity });
        continue;
      }
      for (const alternative of this.lowerString(typed)) out.push({ dfa: alternative.dfa, minLength: alternative.minLength, maxLength: alternative.maxLength });
    }
    return out;
  }

  /** minProperties, maxProperties, patternProperties, propertyNames, dependentRequired and draft-7 dependencies with array values. */
  private applyObjectKeywords(typed: Typed, location: Location, schema: Record<string, unknown>): void {
    const pointer = location.place.pointer;
    const has = (keyword: string): boolean => Object.prototype.hasOwnProperty.call(schema, keyword);
    const escape = (name: string): string => name.replaceAll('~', '~0').replaceAll('/', '~1');
    for (const keyword of ['minProperties', 'maxProperties'] as const) {
      if (!has(keyword)) continue;
      const value = schema[keyword];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) this.invalid(pointer, `"${keyword}" must be a non-negative integer`);
      typed[keyword] = value as number;
    }
    if (has('propertyNames')) typed.propertyNames = this.child(location, 'propertyNames', schema.propertyNames);
    if (has('patternProperties')) {
      if (!isPlainObject(schema.patternProperties)) this.invalid(pointer, '"patternProperties" must be an object');
      const rules: PatternGroup['rules'][number][] = [];
      let unsupported = false;
      for (const [source, value] of Object.entries(schema.patternProperties)) {
        try {
          rules.push({ source, set: this.child(location, 'patternProperties', value, `/${escape(source)}`), dfa: this.options.cache.pattern(source, false) });
        } catch (error) {
          if (!(error instanceof RegexUnsupportedError)) throw error;
          this.refuse('patternProperties', `${pointer}/patternProperties/${escape(source)}`, `the regex uses ${error.message}`);
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
      if (!has(keyword)) continue;
      if (!isPlainObject(schema[keyword])) this.invalid(pointer, `"${keyword}" must be an object`);
      for (const [name, value] of Object.entries(schema[keyword] as Record<string, unknown>)) {
        if (Array.isArray(value)) {
          if (value.some((dependent) => typeof dependent !== 'string')) this.invalid(pointer, `"${keyword}/${name}" must be an array of strings`);
          const dependents = typed.dependencies.get(name) ?? new Set<string>();
          for (const dependent of value as string[]) dependents.add(dependent);
          typed.dependencies.set(name, dependents);
        } else if (keyword === 'dependentRequired') {
          this.invalid(pointer, `"dependentRequired/${name}" must be an array of strings`);
        } else if (!(value === true || (isPlainObject(value) && Object.keys(value).every((key) => ANNOTATIONS.has(key))))) {
          this.refuse('dependencies', `${pointer}/dependencies/${escape(name)}`, 'a schema-valued dependency (dependentSchemas) is not enforced');
        }
      }
    }
  }

  // ---- values: satisfaction and layout -------------------------------------------------

  private satisfiesSet(value: unknown, set: LocationSet): boolean {
    return this.denoteSet(set).some((typed) => this.satisfiesTyped(value, typed));
  }

  private satisfiesTyped(value: unknown, typed: Typed): boolean {
    const type = jsonTypeOf(value);
    if (type === undefined) return false;
    if (!(type === typed.type || (typed.type === 'number' && typeof value === 'number'))) return false;
    if (typed.literals !== undefined && !typed.literals.some((literal) => jsonEqual(literal, value))) return false;
    switch (typed.type) {
      case 'string': {
        const text = value as string;
        const length = [...text].length;
        if (length < typed.minLength || length > typed.maxLength) return false;
        for (const format of typed.formats) {
          const language = formatLanguage(format.source);
          if (language?.kind !== 'string') continue;
          const matches = (alternative: FormatAlternative): boolean =>
            length >= (alternative.minLength ?? 0) &&
            length <= (alternative.maxLength ?? Infinity) &&
            alternative.patterns.every((source) => this.options.cache.pattern(source, language.ignoreCase).matches(text));
          if (!language.alternatives.some(matches)) return false;
        }
        for (const pattern of typed.patterns) {
          try {
            if (!this.options.cache.pattern(pattern.source, false).matches(text)) return false;
          } catch {
            // a refused pattern (lenient) does not constrain
          }
        }
        return true;
      }
      case 'number': {
        const number = value as number;
        if (!Number.isFinite(number)) return false;
        if (typed.integer && !Number.isInteger(number)) return false;
        if (number < typed.minimum || (typed.exclusiveMinimum && number === typed.minimum)) return false;
        if (number > typed.maximum || (typed.exclusiveMaximum && number === typed.maximum)) return false;
        return true;
      }
      case 'array': {
        const items = value as unknown[];
        if (items.length < typed.minItems || items.length > typed.maxItems) return false;
        return items.every((item, index) => this.satisfiesSet(item, typed.prefix[index] ?? typed.items));
      }
      case 'object': {
        const object = value as Record<string, unknown>;
        const present = (name: string): boolean => Object.prototype.hasOwnProperty.call(object, name);
        const names = Object.keys(object);
        if (names.length < typed.minProperties || names.length > typed.maxProperties) return false;
        for (const name of typed.required) if (!present(name)) return false;
        for (const [name, dependents] of typed.dependencies) if (present(name) && ![...dependents].every(present)) return false;
        if (typed.propertyNames.length > 0 && !names.every((name) => this.satisfiesSet(name, typed.propertyNames))) return false;
        return Object.entries(object).every(([name, item]) => this.satisfiesSet(item, valueSetFor(typed, name)));
      }
      default:
        return true;
    }
  }

  private serialize(value: unknown, set: LocationSet): string | undefined {
    for (const typed of this.denoteSet(set)) {
      if (!this.satisfiesTyped(value, typed)) continue;
      if (typed.literals !== undefined) return literalText(typed.literals.find((literal) => jsonEqual(literal, value)));
      switch (typed.type) {
        case 'array': {
          const parts: string[] = [];
          for (const [index, item] of (value as unknown[]).entries()) {
            const text = this.serialize(item, typed.prefix[index] ?? typed.items);
            if (text === undefined) return undefined;
            parts.push(text);
          }
          return `[${parts.join(',')}]`;
        }
        case 'object': {
          const object = value as Record<string, unknown>;
          const layout = layoutNames(typed);
          const names = layout.filter((name) => Object.prototype.hasOwnProperty.call(object, name));
          const declared = new Set(layout);
          for (const name of Object.keys(object)) if (!declared.has(name)) names.push(name);
          const parts: string[] = [];
          for (const name of names) {
            const text = this.serialize(object[name], valueSetFor(typed, name));
            if (text === undefined) return undefined;
            parts.push(`${JSON.stringify(name)}:${text}`);
          }
          return `{${parts.join(',')}}`;
        }
        default:
          return literalText(value);
      }
    }
    return undefined;
  }
}

// ---- typed helpers -------------------------------------------------------------------

function blank(type: JsonType, pointer: string): Typed {
  return {
    type,
    integer: false,
    literals: undefined,
    minLength: 0,
    maxLength: Infinity,
    patterns: [],
    formats: [],
    minimum: -Infinity,
    exclusiveMinimum: false,
    maximum: Infinity,
    exclusiveMaximum: false,
    prefix: [],
    items: TRUE_SET,
    minItems: 0,
    maxItems: Infinity,
    order: [],
    properties: new Map(),
    required: new Set(),
    additional: TRUE_SET,
    minProperties: 0,
    maxProperties: Infinity,
    propertyNames: TRUE_SET,
    patternGroups: [],
    dependencies: new Map(),
    pointer,
  };
}

function tightenLow(typed: Typed, value: number, exclusive: boolean): void {
  if (value > typed.minimum || (value === typed.minimum && exclusive)) {
    typed.minimum = value;
    typed.exclusiveMinimum = exclusive;
  }
}

function tightenHigh(typed: Typed, value: number, exclusive: boolean): void {
  if (value < typed.maximum || (value === typed.maximum && exclusive)) {
    typed.maximum = value;
    typed.exclusiveMaximum = exclusive;
  }
}

function unionSets(left: LocationSet, right: LocationSet): LocationSet {
  if (left[0] === FALSE_LOCATION || right[0] === FALSE_LOCATION) return FALSE_SET;
  if (left.length === 0) return right;
  if (right.length === 0) return left;
  return [...new Set([...left, ...right])].sort((a, b) => a - b);
}

function intersectTyped(a: Typed, b: Typed): Typed | undefined {
  if (a.type !== b.type) return undefined;
  const merged = blank(a.type, a.pointer);
  merged.integer = a.integer || b.integer;
  if (a.literals !== undefined && b.literals !== undefined)
    merged.literals = a.literals.filter((value) => b.literals!.some((other) => jsonEqual(value, other)));
  else merged.literals = a.literals ?? b.literals;
  if (merged.literals !== undefined && merged.literals.length === 0) return undefined;
  merged.minLength = Math.max(a.minLength, b.minLength);
  merged.maxLength = Math.min(a.maxLength, b.maxLength);
  merged.patterns = [...a.patterns, ...b.patterns];
  merged.formats = [...a.formats, ...b.formats];
  merged.minimum = a.minimum;
  merged.exclusiveMinimum = a.exclusiveMinimum;
  merged.maximum = a.maximum;
  merged.exclusiveMaximum = a.exclusiveMaximum;
  tightenLow(merged, b.minimum, b.exclusiveMinimum);
  tightenHigh(merged, b.maximum, b.exclusiveMaximum);
  const length = Math.max(a.prefix.length, b.prefix.length);
  for (let index = 0; index < length; index++) merged.prefix.push(unionSets(a.prefix[index] ?? a.items, b.prefix[index] ?? b.items));
  merged.items = unionSets(a.items, b.items);
  merged.minItems = Math.max(a.minItems, b.minItems);
  merged.maxItems = Math.min(a.maxItems, b.maxItems);
  merged.order = [...a.order, ...b.order.filter((name) => !a.properties.has(name))];
  for (const name of new Set([...a.order, ...b.order])) {
    merged.properties.set(name, unionSets(valueSetFor(a, name), valueSetFor(b, name)));
  }
  merged.required = new Set([...a.required, ...b.required]);
  merged.additional = unionSets(a.additional, b.additional);
  merged.minProperties = Math.max(a.minProperties, b.minProperties);
  merged.maxProperties = Math.min(a.maxProperties, b.maxProperties);
  merged.propertyNames = unionSets(a.propertyNames, b.propertyNames);
  merged.patternGroups = [...a.patternGroups, ...b.patternGroups];
  for (const source of [a.dependencies, b.dependencies]) {
    for (const [name, dependents] of source) merged.dependencies.set(name, new Set([...(merged.dependencies.get(name) ?? []), ...dependents]));
  }
  return merged;
}

/** The value schema of property `name`: declared, else the patterns it matches, else additionalProperties. */
function valueSetFor(typed: Typed, name: string): LocationSet {
  const declared = typed.properties.get(name);
  if (declared !== undefined) return declared;
  let set = typed.additional;
  for (const group of typed.patternGroups) {
    const matching = group.rules.filter((rule) => rule.dfa.matches(name));
    set = matching.length === 0 ? unionSets(set, group.additional) : matching.reduce((result, rule) => unionSets(result, rule.set), set);
  }
  return set;
}

/** Property layout order: `properties`, then names only `required` or `dependentRequired` mention. */
function layoutNames(typed: Typed): string[] {
  const names = [...typed.order];
  const seen = new Set(names);
  const add = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    names.push(name);
  };
  for (const name of typed.required) add(name);
  for (const [name, dependents] of typed.dependencies) {
    add(name);
    for (const dependent of dependents) add(dependent);
  }
  return names;
}

function stringFeasible(alternative: StringAlternative): boolean {
  const { dfa, minLength, maxLength } = alternative;
  // breadth-first over lengths: is some accepting state reachable at a length in [min, max]?
  const limit = Math.min(maxLength, minLength + dfa.stateCount + 1);
  let frontier = new Set([dfa.start]);
  for (let length = 0; length <= limit; length++) {
    if (length >= minLength) for (const state of frontier) if (dfa.accepting[state] === 1) return true;
    const next = new Set<number>();
    for (const state of frontier) {
      const ranges = dfa.transitions[state]!;
      for (let index = 2; index < ranges.length; index += 3) next.add(ranges[index]!);
    }
    if (next.size === 0) return false;
    frontier = next;
  }
  return false;
}

/** Fewest frames each node needs (Infinity: no finite value), by fixpoint from Infinity downwards. */
function computeHeights(nodes: readonly ValueNode[]): void {
  for (const node of nodes) {
    for (const alternative of node.alternatives) if (alternative.kind === 'object' || alternative.kind === 'array') alternative.height = Infinity;
    node.height = node.literals === null ? Infinity : 1;
  }
  let changed = true;
  while (changed) {
    changed = false;
    for (const node of nodes) {
      let best = node.literals === null ? Infinity : 1;
      for (const alternative of node.alternatives) {
        let height = alternative.height;
        if (alternative.kind === 'object') {
          height = objectMinHeight(alternative);
        } else if (alternative.kind === 'array') {
          height = alternative.minItems > alternative.maxItems ? Infinity : 1;
          for (let index = 0; index < alternative.minItems; index++) {
            const item = alternative.prefix[index] ?? alternative.items;
            height = Math.max(height, item === null ? Infinity : 1 + item.height);
          }
        }
        if (height < alternative.height) {
          (alternative as ObjectAlternative | ArrayAlternative).height = height;
          changed = true;
        }
        best = Math.min(best, alternative.height);
      }
      if (best < node.height) {
        node.height = best;
        changed = true;
      }
    }
  }
}

// ---- JSON helpers ------------------------------------------------------------------

function jsonTypeOf(value: unknown): JsonType | undefined {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isFinite(value) ? 'number' : undefined;
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  if (isPlainObject(value)) return 'object';
  return undefined;
}

/** JSON equality: numbers by value (1 equals 1.0), objects regardless of key order. */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left === 'number' && typeof right === 'number') return left === right;
  if (Array.isArray(left) && Array.isArray(right)) return left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]));
  if (isPlainObject(left) && isPlainObject(right)) {
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    return leftKeys.every((key) => Object.prototype.hasOwnProperty.call(right, key) && jsonEqual(left[key], right[key]));
  }
  return false;
}

/** Compact JSON with numbers in plain decimal: the engine's layout for literal values. */
export function literalText(value: unknown): string {
  if (typeof value === 'number') return toPlainDecimal(value);
  if (Array.isArray(value)) return `[${value.map(literalText).join(',')}]`;
  if (isPlainObject(value))
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${literalText(item)}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
